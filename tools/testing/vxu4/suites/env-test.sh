#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the benches (bench.sh, pelt-, boost-, idle-, timescale-bench.sh,
# eas-behaviour-test.sh), the launcher (scripts/vxu4.sh) and the test tiers
# (check.sh and its registry of suites, boot.py) refuse before anything
# boots: each bad setting, HOSTS file, missing build file and broken
# entry of the registry gives exit 2, one line on stderr naming the
# variable (or file and line) the user gave, nothing on stdout, no boot
# started, nothing made
# in the tree or in /tmp. And what they take: numbers in base 10
# (ITER=010 is 10 iterations), a good HOSTS file, a zImage by its magic;
# and how make bench's bench-job.sh boots: through boot.py in the tree,
# through scripts/vxu4.sh in the bundle bench.sh sends to other hosts;
# and that the other benches boot through boot.py, each its [boot.NAME],
# with what they booted before.
# One KTAP document.
#
# Needs no build: the scripts run in a copy of theirs in a temporary
# folder, with fake build files (a 100-byte "zImage" with the magic
# number, empty DTBs) and stubs of qemu-system-arm, GNU parallel and
# eas-em first in PATH, each of which records that it ran.
#
# Usage: env-test.sh

set -uo pipefail

. "$(dirname "$0")/../../ktap.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
tmp=$(mktemp -d /tmp/env-test.XXXXXX) || exit 1
ktap_atexit rm -rf "$tmp"

# --- a copy of the scripts, fake build files, stubs
fake=$tmp/tree stub=$tmp/stub
mkdir -p "$fake/scripts" "$fake/tools/testing/vxu4" "$fake/tools/power/eas" \
	"$fake/build/obj/arch/arm/boot" "$stub"
cp "$top/scripts/vxu4.sh" "$fake/scripts/"
cp "$top/tools/testing/ktap.sh" "$top/tools/testing/check.sh" "$top/tools/testing/check.py" \
	"$fake/tools/testing/"
for f in tools/testing/vxu4/lib/env-lib.sh tools/testing/vxu4/board/dtb-lib.sh \
	tools/testing/vxu4/benches/bench.sh \
	tools/testing/vxu4/benches/bench-job.sh \
	tools/testing/vxu4/benches/pelt-bench.sh \
	tools/testing/vxu4/benches/boost-bench.sh \
	tools/testing/vxu4/benches/idle-bench.sh \
	tools/testing/vxu4/benches/timescale-bench.sh \
	tools/testing/vxu4/benches/fidelity.sh \
	tools/testing/vxu4/suites/eas-behaviour-test.sh \
	tools/testing/vxu4/suites/registry.toml \
	tools/testing/vxu4/suites/registry.py \
	tools/testing/vxu4/suites/boot.py \
	tools/testing/vxu4/benches/bench-configs \
	tools/testing/vxu4/lib/vxu4log.py \
	tools/testing/vxu4/lib/workloads.py \
	tools/testing/vxu4/lib/guest_workloads.py; do
	mkdir -p "$fake/${f%/*}"
	cp "$top/$f" "$fake/$f"
done
zimage=$fake/build/obj/arch/arm/boot/zImage
# An ARM zImage's magic number: 0x016f2818, little-endian at offset 0x24.
{ head -c 36 /dev/zero; printf '\x18\x28\x6f\x01'; head -c 60 /dev/zero; } >"$zimage"
for f in vxu4.dtb vxu4-noem.dtb vxu4-noem-nomc.dtb initramfs.cpio.gz insn-count.so; do
	: >"$fake/build/$f"
done
# Each stub records its call in $tmp/ran (qemu's --version excepted:
# make bench writes it in its info.txt).
for s in qemu-system-arm parallel; do
	cat >"$stub/$s" <<-EOF
		#!/bin/sh
		[ "\$1" = --version ] && { echo "$s stub"; exit 0; }
		echo "$s \$*" >>"$tmp/ran"
		exit 1
	EOF
	chmod +x "$stub/$s"
done
printf '#!/bin/sh\necho "{}"\n' >"$fake/tools/power/eas/eas-em"
chmod +x "$fake/tools/power/eas/eas-em"
head -c 16384 /dev/urandom >"$tmp/random.bin"
{ printf '\177ELF\001\001\001'; head -c 16000 /dev/zero; } >"$tmp/vmlinux"

hosts=$tmp/hosts
mkdir -p "$hosts"
: >"$hosts/empty"
printf '# only a comment\n\n   \n' >"$hosts/comment"
printf ':\n4/\n' >"$hosts/no-host"
printf '# two hosts\n:\na/b\n' >"$hosts/slash"
printf '0/bench1\n' >"$hosts/zero"
printf '# here, one at a time\n1/:\n\n  bench1.example.net\nme@bench2\n4/ssh -p 2222 bench@bench2.example.net\n' \
	>"$hosts/good"
printf ':\n' >"$hosts/here"

# The tree as it is, and /tmp's bench bundles.
snapshot() {
	(cd "$fake" && find . -path ./BOOTED -prune -o -print | sort)
	ls -d /tmp/odroid-eas-bench.* 2>/dev/null
}

# run VAR=VALUE... CMD [ARG...]: CMD (a path in the copy) with only those
# variables and PATH, HOME set; $rc, $tmp/out, $tmp/err.
run() {
	local vars=()
	while [[ $1 =~ ^[A-Z0-9_]+= ]]; do
		vars+=("$1")
		shift
	done
	rm -f "$tmp/ran"
	(cd "$fake" && timeout 60 env -i PATH="$stub:$PATH" HOME="$tmp" "${vars[@]}" "$@") \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# refused DESC WANT VAR=VALUE... CMD [ARG...]: CMD refuses, before
# anything: exit 2, one line on stderr holding WANT, nothing on stdout,
# no stub run, the tree and /tmp as they were. With lines=N set: N lines
# on stderr, the first one holding WANT.
refused() {
	local desc=$1 want=$2 before why=() n
	shift 2
	before=$(snapshot)
	run "$@"
	n=$(grep -c '' "$tmp/err")
	[ "$rc" = 2 ] || why+=("exit $rc, want 2")
	[ "$n" = "${lines:-1}" ] || why+=("$n lines on stderr, want ${lines:-1}")
	[[ $(head -1 "$tmp/err") == *"$want"* ]] || why+=("stderr lacks: $want")
	[ ! -s "$tmp/out" ] || why+=("stdout: $(head -3 "$tmp/out")")
	[ ! -e "$tmp/ran" ] || why+=("ran: $(cat "$tmp/ran")")
	[ "$(snapshot)" = "$before" ] ||
		why+=("made: $(diff <(echo "$before") <(snapshot) | grep '^>' | head -3)")
	if [ ${#why[@]} -eq 0 ]; then
		ktap_ok "$desc: refused, exit 2, before any boot"
	else
		ktap_fail "$desc: refused, exit 2, before any boot" "${why[@]}" "stderr: $(cat "$tmp/err")"
	fi
}

b=tools/testing/vxu4/benches/bench.sh
v=scripts/vxu4.sh

# --- make bench's settings
refused "bench ITER=0" "bench.sh: ITER=0: want a whole number from 1 to 1000" ITER=0 $b
refused "bench ITER=abc" "bench.sh: ITER=abc: want a whole number" ITER=abc $b
refused "bench ITER of 20 digits" "ITER=99999999999999999999: want a whole number from 1 to 1000" \
	ITER=99999999999999999999 $b
refused "bench DURATION=0 (rt-app would never end)" "bench.sh: DURATION=0: want a whole number from 1 to" \
	DURATION=0 $b
refused "bench HB_GROUPS=0" "bench.sh: HB_GROUPS=0: want a whole number from 1 to 100" HB_GROUPS=0 $b
refused "bench HB_LOOPS=-1, named HB_LOOPS" "bench.sh: HB_LOOPS=-1: want a whole number from 0 to" \
	HB_LOOPS=-1 $b
refused "bench HB_GROUPS=abc, named HB_GROUPS" "bench.sh: HB_GROUPS=abc: want" HB_GROUPS=abc $b
refused "bench VXU4_TIME_SCALE=65" "bench.sh: VXU4_TIME_SCALE=65: want a whole number from 1 to 64" VXU4_TIME_SCALE=65 $b
refused "bench TIME_SCALE=8, the old name, named with the new" \
	"bench.sh: TIME_SCALE=8: the guest's time scale is VXU4_TIME_SCALE now (one name for every boot): set VXU4_TIME_SCALE=8" \
	TIME_SCALE=8 $b
refused "vxu4.sh TIME_SCALE=4, the old name" "vxu4.sh: TIME_SCALE=4: the guest's time scale is VXU4_TIME_SCALE now" \
	TIME_SCALE=4 $v boot
refused "bench VXU4_TIME_SCALE=0, named VXU4_TIME_SCALE" "bench.sh: VXU4_TIME_SCALE=0: want a whole number from 1 to 64" \
	VXU4_TIME_SCALE=0 $b
refused "bench CONFIGS=e" "bench.sh: CONFIGS=e: want some of a,b,c,d" CONFIGS=e $b
refused "bench TASKS=08" "bench.sh: TASKS=08: want rt-app cases" TASKS=08 $b
refused "bench PARALLEL=2" "bench.sh: PARALLEL=2: want 0 or 1" PARALLEL=2 $b
refused "bench KERNEL=../x" "bench.sh: KERNEL=../x: want a kernel variant's name" KERNEL=../x $b

# --- HOSTS, read before GNU parallel
refused "bench HOSTS naming no file" "bench.sh: HOSTS=$hosts/nosuch: no such file" HOSTS="$hosts/nosuch" $b
refused "bench HOSTS naming a folder" "bench.sh: HOSTS=$hosts: a folder" HOSTS="$hosts" $b
refused "bench HOSTS empty" "bench.sh: HOSTS=$hosts/empty: no host in it" HOSTS="$hosts/empty" $b
refused "bench HOSTS of comments and blanks" "bench.sh: HOSTS=$hosts/comment: no host in it" \
	HOSTS="$hosts/comment" $b
refused "bench HOSTS line '4/'" "bench.sh: HOSTS=$hosts/no-host: line 2, '4/': no host" \
	HOSTS="$hosts/no-host" $b
refused "bench HOSTS line 'a/b'" "bench.sh: HOSTS=$hosts/slash: line 3, 'a/b': no host" HOSTS="$hosts/slash" $b
refused "bench HOSTS line '0/bench1'" "bench.sh: HOSTS=$hosts/zero: line 1, '0/bench1': no host" \
	HOSTS="$hosts/zero" $b

# --- the files the boots take, each named with its make target
mv "$zimage" "$tmp/zImage"
refused "bench without a zImage" "bench.sh: $zimage is missing: run 'make kernel' (make bench does)" \
	CONFIGS=a ITER=1 $b
refused "bench without a zImage, HOSTS: no bundle in /tmp" "$zimage is missing: run 'make kernel'" \
	CONFIGS=a ITER=1 HOSTS="$hosts/here" $b
refused "pelt-bench without a zImage" "pelt-bench.sh: $zimage is missing: run 'make kernel' (make pelt-bench does)" \
	tools/testing/vxu4/benches/pelt-bench.sh
mv "$tmp/zImage" "$zimage"
for f in initramfs.cpio.gz:initramfs insn-count.so:vxu4 vxu4-noem.dtb:vxu4; do
	mv "$fake/build/${f%:*}" "$tmp/"
	refused "bench CONFIGS=c without build/${f%:*}" \
		"bench.sh: $fake/build/${f%:*} is missing: run 'make ${f#*:}' (make bench does)" CONFIGS=c $b
	mv "$tmp/${f%:*}" "$fake/build/"
done
mv "$fake/tools/power/eas/eas-em" "$tmp/"
refused "bench without eas-em" "eas-em is missing: run 'make tools'" $b
mv "$tmp/eas-em" "$fake/tools/power/eas/"
refused "bench VXU4_KERNEL of random bytes" \
	"bench.sh: VXU4_KERNEL=$tmp/random.bin: not an ARM zImage (no magic 0x016f2818 at offset 0x24" \
	VXU4_KERNEL="$tmp/random.bin" $b

# --- BENCH_OUT
refused "bench BENCH_OUT a file" "bench.sh: BENCH_OUT=$hosts/empty: not a folder" BENCH_OUT="$hosts/empty" $b
# A folder no file can be made in: /proc/self, even for root.
refused "bench BENCH_OUT a folder that cannot be written in" \
	"bench.sh: BENCH_OUT=/proc/self: cannot write in that folder" BENCH_OUT=/proc/self $b

# --- the other benches
p=tools/testing/vxu4/benches/pelt-bench.sh
refused "pelt-bench DURATION=0" "pelt-bench.sh: DURATION=0: want a whole number from 1 to" DURATION=0 $p
refused "pelt-bench ITER=0" "pelt-bench.sh: ITER=0: want a whole number from 1 to 1000" ITER=0 $p
refused "pelt-bench VXU4_TIMEOUT=abc" "pelt-bench.sh: VXU4_TIMEOUT=abc: want a whole number from 1 to" \
	VXU4_TIMEOUT=abc $p
refused "pelt-bench VXU4_TIME_SCALE=65" "pelt-bench.sh: VXU4_TIME_SCALE=65: want a whole number from 1 to 64" \
	VXU4_TIME_SCALE=65 $p
refused "boost-bench WORK_MS=0" "boost-bench.sh: WORK_MS=0: want a whole number from 1 to" WORK_MS=0 \
	tools/testing/vxu4/benches/boost-bench.sh
refused "boost-bench BOOST_HZ=abc" "boost-bench.sh: BOOST_HZ=abc: want" BOOST_HZ=abc \
	tools/testing/vxu4/benches/boost-bench.sh
refused "idle-bench LOOPS=0" "idle-bench.sh: LOOPS=0: want a whole number from 1 to" LOOPS=0 \
	tools/testing/vxu4/benches/idle-bench.sh
refused "idle-bench GOVERNORS without menu" "idle-bench.sh: GOVERNORS=teo: menu must be one" GOVERNORS=teo \
	tools/testing/vxu4/benches/idle-bench.sh
t=tools/testing/vxu4/benches/timescale-bench.sh
refused "timescale-bench SCALES='1 65'" "timescale-bench.sh: SCALES=1 65: 65 is no time scale" SCALES="1 65" $t
refused "timescale-bench SCALES=1,2" "timescale-bench.sh: SCALES=1,2: 1,2 is no time scale" SCALES=1,2 $t
f=tools/testing/vxu4/benches/fidelity.sh
refused "fidelity COSTS=cycle" "fidelity.sh: COSTS=cycle: want insns, cycles or cycles-cache" COSTS=cycle $f
refused "fidelity SCALE_PCT=2000" "fidelity.sh: SCALE_PCT=2000: want a whole number from 1 to 1000" \
	SCALE_PCT=2000 $f
refused "fidelity WEIGHTS naming no file" "fidelity.sh: WEIGHTS=$tmp/nosuch: no such file" \
	WEIGHTS="$tmp/nosuch" $f
refused "fidelity ONLY='null fork'" "fidelity.sh: ONLY=null fork: want probe names, aes or hackbench" \
	ONLY="null fork" $f
refused "timescale-bench SCALES='8 08'" "timescale-bench.sh: SCALES=8 08: 8 twice" SCALES="8 08" $t
refused "eas-behaviour VXU4_TIME_SCALE=65" "eas-behaviour-test.sh: VXU4_TIME_SCALE=65: want a whole number from 1 to 64" \
	VXU4_TIME_SCALE=65 tools/testing/vxu4/suites/eas-behaviour-test.sh --ktap
refused "timescale-bench HB_B=5 under HB_A" "timescale-bench.sh: HB_B=5: want more loops than HB_A=10" HB_B=5 $t

# --- the launcher
refused "vxu4.sh VXU4_KERNEL of random bytes" \
	"vxu4.sh: VXU4_KERNEL=$tmp/random.bin: not an ARM zImage" VXU4_KERNEL="$tmp/random.bin" $v boot
refused "vxu4.sh VXU4_KERNEL a vmlinux (ELF)" "vxu4.sh: VXU4_KERNEL=$tmp/vmlinux: not an ARM zImage" \
	VXU4_KERNEL="$tmp/vmlinux" $v boot
refused "vxu4.sh VXU4_KERNEL naming no file" "vxu4.sh: VXU4_KERNEL=$tmp/nosuch: no such file" \
	VXU4_KERNEL="$tmp/nosuch" $v boot
refused "vxu4.sh VXU4_DTB a folder" "vxu4.sh: VXU4_DTB=$hosts: a folder" VXU4_DTB="$hosts" $v boot
refused "vxu4.sh VXU4_INITRD naming no file" "vxu4.sh: VXU4_INITRD=$tmp/nosuch: no such file" \
	VXU4_INITRD="$tmp/nosuch" $v boot
# The fake zImage passes: the refusal is the timeout's.
refused "vxu4.sh VXU4_TIMEOUT=abc (a zImage taken)" "vxu4.sh: VXU4_TIMEOUT=abc: want a whole number from 1 to" \
	VXU4_KERNEL="$zimage" VXU4_TIMEOUT=abc $v boot
refused "vxu4.sh VXU4_TIMEOUT=0" "vxu4.sh: VXU4_TIMEOUT=0: want a whole number from 1 to" VXU4_TIMEOUT=0 $v boot
refused "vxu4.sh VXU4_LOG in a missing folder" \
	"vxu4.sh: VXU4_LOG=$tmp/nosuch/console.log: its folder $tmp/nosuch does not exist" \
	VXU4_LOG="$tmp/nosuch/console.log" $v boot
refused "vxu4.sh VXU4_LOG a folder" "vxu4.sh: VXU4_LOG=$hosts: a folder" VXU4_LOG="$hosts" $v boot
refused "vxu4.sh VXU4_TIME_SCALE=65" "vxu4.sh: VXU4_TIME_SCALE=65: want a whole number from 1 to 64" \
	VXU4_TIME_SCALE=65 $v boot
refused "vxu4.sh VXU4_COST=cycle" "vxu4.sh: VXU4_COST=cycle: want insns, cycles or cycles-cache" \
	VXU4_KERNEL="$zimage" VXU4_COST=cycle $v boot
refused "vxu4.sh VXU4_WEIGHTS naming no file" "vxu4.sh: VXU4_WEIGHTS=$tmp/nosuch: no such file" \
	VXU4_KERNEL="$zimage" VXU4_COST=cycles VXU4_WEIGHTS="$tmp/nosuch" $v boot
refused "vxu4.sh VXU4_CLASSES in a missing folder" \
	"vxu4.sh: VXU4_CLASSES=$tmp/nosuch/classes: its folder $tmp/nosuch does not exist" \
	VXU4_KERNEL="$zimage" VXU4_CLASSES="$tmp/nosuch/classes" $v boot

# --- what is taken: base 10, a good HOSTS file
# env-lib.sh's readers alone.
# shellcheck disable=SC2016 # expanded by the bash that runs it
readers='. tools/testing/vxu4/lib/env-lib.sh
	echo "$(env_int ITER 10 1 1000) $(env_scale) $(env_scales SCALES "1 2")"
	env_hosts HOSTS'
got=$(cd "$fake" && env -i PATH="$PATH" ITER=010 TIME_SCALE='' VXU4_TIME_SCALE=04 SCALES="01 8 16" \
	HOSTS="$hosts/good" bash -c "$readers" 2>&1)
want="10 4 1 8 16
$hosts/good"
if [ "$got" = "$want" ]; then
	ktap_ok "env-lib.sh reads ITER=010 as 10, VXU4_TIME_SCALE=04 as 4, SCALES='01 8 16' as 1 8 16, takes a HOSTS file of 4 forms"
else
	ktap_fail "env-lib.sh reads ITER=010 as 10, VXU4_TIME_SCALE=04 as 4, SCALES='01 8 16' as 1 8 16, takes a HOSTS file of 4 forms" \
		"want: $want" "got:  $got"
fi
# The time scale's one default, unset or set empty.
got=$(cd "$fake" && env -i PATH="$PATH" VXU4_TIME_SCALE='' bash -c '. tools/testing/vxu4/lib/env-lib.sh; env_scale' 2>&1)
if [ "$got" = 8 ]; then
	ktap_ok "env-lib.sh: the time scale's one default is 8"
else
	ktap_fail "env-lib.sh: the time scale's one default is 8" "got: $got"
fi

# make bench with ITER=010 VXU4_TIME_SCALE=04 runs 10 iterations at K = 4:
# its one boot (CONFIGS=c, PARALLEL=0) is bench-job.sh's, a stub here
# that records its arguments.
cp "$fake/tools/testing/vxu4/benches/bench-job.sh" "$tmp/"
cat >"$fake/tools/testing/vxu4/benches/bench-job.sh" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/job"
echo 1 >"\$1.rc"
EOF
run ITER=010 VXU4_TIME_SCALE=04 CONFIGS=c PARALLEL=0 BENCH_OUT="$tmp/out-010" $b
job=$(cat "$tmp/job" 2>/dev/null)
if [[ " $job " == *" 4 $zimage "*" vxu4.iter=10 "* ]] && [ ! -e "$tmp/ran" ] &&
	grep -q "^==> bench: 10 iterations" "$tmp/out"; then
	ktap_ok "bench ITER=010 VXU4_TIME_SCALE=04: one boot of 10 iterations at K = 4"
else
	ktap_fail "bench ITER=010 VXU4_TIME_SCALE=04: one boot of 10 iterations at K = 4" "boot: $job" \
		"$(head -3 "$tmp/out" "$tmp/err")"
fi
# With a good HOSTS file the bundle is made, GNU parallel (a stub that
# fails) runs, and the bundle is gone at the end.
before=$(ls -d /tmp/odroid-eas-bench.* 2>/dev/null)
run ITER=1 CONFIGS=a HOSTS="$hosts/good" BENCH_OUT="$tmp/out-hosts" $b
after=$(ls -d /tmp/odroid-eas-bench.* 2>/dev/null)
if grep -q "^parallel .*--sshloginfile $hosts/good" "$tmp/ran" 2>/dev/null && [ "$before" = "$after" ]; then
	ktap_ok "bench HOSTS of 4 forms: taken, GNU parallel run, its bundle removed from /tmp"
else
	ktap_fail "bench HOSTS of 4 forms: taken, GNU parallel run, its bundle removed from /tmp" \
		"ran: $(cat "$tmp/ran" 2>/dev/null)" "left: $(comm -13 <(echo "$before") <(echo "$after"))" \
		"$(head -3 "$tmp/err")"
	comm -13 <(echo "$before") <(echo "$after") | grep odroid-eas-bench | xargs -r rm -rf
fi
mkdir -p "$fake/tools/testing/vxu4/benches"
cp "$tmp/bench-job.sh" "$fake/tools/testing/vxu4/benches/bench-job.sh"

# bench-job.sh boots through boot.py's [boot.bench] in the tree (boot.py's
# stamp beside the log), through scripts/vxu4.sh in bench.sh's bundle
# (which has no boot.py): the same arguments and settings either way. A
# stub of scripts/vxu4.sh records what it is given and prints a run
# marker, which bench-job.sh stamps.
cp "$fake/scripts/vxu4.sh" "$tmp/vxu4.sh"
cat >"$fake/scripts/vxu4.sh" <<'EOF'
#!/bin/bash
echo "$* kernel=$VXU4_KERNEL dtb=$VXU4_DTB initrd=$VXU4_INITRD K=$VXU4_TIME_SCALE limit=$VXU4_TIMEOUT log=$VXU4_LOG" >"$VXU4_LOG.args"
echo "@bench_start run=1"
EOF
chmod +x "$fake/scripts/vxu4.sh"
bundle=$tmp/bundle
mkdir -p "$bundle/scripts" "$bundle/tools/testing/vxu4/benches" "$bundle/build"
cp "$fake/scripts/vxu4.sh" "$bundle/scripts/"
cp "$fake/tools/testing/vxu4/benches/bench-job.sh" "$bundle/tools/testing/vxu4/benches/"
for where in tree bundle; do
	d=$fake
	[ $where = tree ] || d=$bundle
	(cd "$d" && env -i PATH="$stub:$PATH" HOME="$tmp" tools/testing/vxu4/benches/bench-job.sh \
		"$tmp/job-$where" 99 4 "$zimage" "$fake/build/vxu4-noem.dtb" "$fake/build/initramfs.cpio.gz" \
		vxu4.mode=bench vxu4.bench_cfg=c) >"$tmp/job-$where.out" 2>&1
	echo "$? $(cat "$tmp/job-$where.rc" 2>/dev/null) $(grep -c @bench_start "$tmp/job-$where.stamps" 2>/dev/null)" \
		>"$tmp/job-$where.status"
done
want="boot vxu4.mode=bench vxu4.bench_cfg=c kernel=$zimage dtb=$fake/build/vxu4-noem.dtb"
want+=" initrd=$fake/build/initramfs.cpio.gz K=4 limit=99 log=$tmp/job-tree.log"
got=$(cat "$tmp/job-tree.log.args" 2>/dev/null)
boot=$(sed -n 's/^ "boot": "\(.*\)",$/\1/p' "$tmp/job-tree.log.boot" 2>/dev/null)
if [ "$got" = "$want" ] && [ "$boot" = bench ] && [ "$(cat "$tmp/job-tree.status")" = "0 0 1" ]; then
	ktap_ok "bench-job.sh in the tree boots through boot.py's [boot.bench] (its stamp beside the log), the run stamped"
else
	ktap_fail "bench-job.sh in the tree boots through boot.py's [boot.bench] (its stamp beside the log), the run stamped" \
		"want: $want" "got:  $got" "stamp's boot: '$boot'; exit, .rc, stamped runs: $(cat "$tmp/job-tree.status")" \
		"$(head -3 "$tmp/job-tree.out")"
fi
got=$(cat "$tmp/job-bundle.log.args" 2>/dev/null)
if [ "$got" = "${want/job-tree/job-bundle}" ] && [ ! -e "$tmp/job-bundle.log.boot" ] &&
	[ "$(cat "$tmp/job-bundle.status")" = "0 0 1" ]; then
	ktap_ok "bench-job.sh in bench.sh's bundle boots through its scripts/vxu4.sh, the same way"
else
	ktap_fail "bench-job.sh in bench.sh's bundle boots through its scripts/vxu4.sh, the same way" \
		"want: ${want/job-tree/job-bundle}" "got:  $got" \
		"exit, .rc, stamped runs: $(cat "$tmp/job-bundle.status")" "$(head -3 "$tmp/job-bundle.out")"
fi
# The other benches boot through boot.py too, each its [boot.NAME]: a stub
# of scripts/vxu4.sh records what each boot is given (beside its log,
# LOG.args) and writes a console with a line it does not show (as
# vxu4.sh's noise); each bench's files stay its own: timescale-bench's
# K<k>.log the lines shown, each behind the host's time, fidelity's
# <cost>.log the lines shown. The DTB variants are copies (a stub of
# dtb-variant.sh).
cat >"$fake/scripts/vxu4.sh" <<'EOF'
#!/bin/bash
echo "$* kernel=$VXU4_KERNEL dtb=$VXU4_DTB initrd=$VXU4_INITRD K=$VXU4_TIME_SCALE limit=$VXU4_TIMEOUT cost=${VXU4_COST:-} weights=${VXU4_WEIGHTS:-} classes=${VXU4_CLASSES:-}" >"$VXU4_LOG.args"
printf 'vxu4.sh: host: not isolated\nnot shown\n[    0.1] up\n' >"$VXU4_LOG"
printf 'vxu4.sh: host: not isolated\n[    0.1] up\n'
EOF
mkdir -p "$fake/tools/testing/vxu4/board"
cat >"$fake/tools/testing/vxu4/board/dtb-variant.sh" <<'EOF'
#!/bin/sh
cp "$2" "$3"
EOF
chmod +x "$fake/tools/testing/vxu4/board/dtb-variant.sh"
# bench_boots NAME N WANT VAR=VALUE... CMD: CMD's N boots are boot.py's
# [boot.NAME] (its stamp beside each log) and are given WANT: each
# LOG.args, then the files $show names, in its results folder <out>.
bench_boots() {
	local name=$1 n=$2 want=$3 out got stamps desc d
	shift 3
	desc="${*: -1}"
	desc="${desc##*/} boots through boot.py's [boot.$name] ($n boots), its files as before"
	run "$@"
	out=
	for d in "$fake/build/$name"/*/; do
		[ -d "$d" ] && out=${d%/}
	done
	# shellcheck disable=SC2086
	got=$(cd "$out" 2>/dev/null && cat ./*.args ${show:-} | sed "s|$out|<out>|g; s/^[0-9]*\.[0-9]* /T /")
	stamps=$(grep -l "^ \"boot\": \"$name\",\$" "$out"/*.boot 2>/dev/null | grep -c .)
	if [ -n "$out" ] && [ "$got" = "$want" ] && [ "$stamps" = "$n" ]; then
		ktap_ok "$desc"
	else
		ktap_fail "$desc" "want: $want" "got:  $got" "stamps of [boot.$name]: $stamps, want $n" \
			"$(head -3 "$tmp/err")"
	fi
	rm -rf "$fake/build/$name"
}
b=tools/testing/vxu4/benches
k=" kernel=$zimage"
d=" dtb=$fake/build/vxu4.dtb"
i=" initrd=$fake/build/initramfs.cpio.gz"
nl=$'\n'
want=
for m in 1 2 4; do
	want+="boot vxu4.mode=pelt-bench sched_pelt_multiplier=$m vxu4.iter=2 vxu4.frames=9 vxu4.duration=1"
	want+=" vxu4.bench_cfg=a$k$d initrd=<out>/initramfs.cpio.gz K=4 limit=14400 cost= weights= classes=$nl"
done
bench_boots pelt-bench 3 "${want%"$nl"}" ITER=2 FRAMES=9 DURATION=1 VXU4_TIME_SCALE=4 PARALLEL=0 $b/pelt-bench.sh
want="boot vxu4.mode=boost-bench vxu4.iter=3 vxu4.work_ms=1000 vxu4.tar_dirs=/usr/lib$k"
want+=" dtb=<out>/vxu4-boost.dtb$i K=8 limit=99 cost= weights= classes="
bench_boots boost-bench 1 "$want" ITER=3 VXU4_TIMEOUT=099 $b/boost-bench.sh
want="boot vxu4.mode=idle-bench vxu4.iter=2 vxu4.frames=180 vxu4.audio_s=3 vxu4.video_s=3 vxu4.loops=120"
want+=" vxu4.governors=menu vxu4.cases=frames$k dtb=<out>/vxu4-idle.dtb initrd=<out>/initramfs.cpio.gz"
want+=" K=2 limit=14400 cost= weights= classes="
bench_boots idle-bench 1 "$want" ITER=2 GOVERNORS=menu CASES=frames VXU4_TIME_SCALE=2 $b/idle-bench.sh
want=
for K in 1 16; do
	want+="boot vxu4.mode=timescale-bench vxu4.reps=1 vxu4.hb_a=10 vxu4.hb_b=40$k$d$i K=$K limit=7200"
	want+=" cost= weights= classes=$nl"
done
want+="T vxu4.sh: host: not isolated${nl}T [    0.1] up"
show=K16.log bench_boots timescale-bench 2 "$want" SCALES="1 16" REPS=1 VXU4_TIME_SCALE=8 $b/timescale-bench.sh
want=
for c in cycles-cache insns; do
	want+="boot vxu4.mode=fidelity vxu4.reps=1 vxu4.scale_pct=100 vxu4.hb_a=5 vxu4.hb_b=10$k$d$i K=4 limit=7200"
	want+=" cost=$c weights=build/vxu4.dtb classes=<out>/$c.classes$nl"
done
want+="vxu4.sh: host: not isolated${nl}[    0.1] up"
show=insns.log bench_boots fidelity 2 "$want" COSTS="insns cycles-cache" WEIGHTS=build/vxu4.dtb VXU4_TIME_SCALE=4 \
	$b/fidelity.sh
cp "$tmp/vxu4.sh" "$fake/scripts/vxu4.sh"

# --- the registry of suites (registry.toml) and check.sh --suite
c=tools/testing/check.sh
list=$fake/tools/testing/vxu4/suites/registry.toml
cp "$list" "$tmp/suites.toml"
n=$(grep -n '^\[suite\.self-checks\]$' "$list" | cut -d: -f1)
n=$((n + 2))	# its tiers = line
sed -i "${n}s/\"check\"/\"chekc\"/" "$list"
refused "check.sh: a suite of tier 'chekc'" \
	"check.sh: $list line $n: [suite.self-checks] tiers: unknown tier 'chekc'" $c --targets
cp "$tmp/suites.toml" "$list"
sed -i "${n}a isolatd = true" "$list"
refused "check.sh: a misspelt key" \
	"check.sh: $list line $((n + 1)): [suite.self-checks] isolatd: unknown key 'isolatd'" $c --targets
cp "$tmp/suites.toml" "$list"
n=$(grep -n '^run = \["tools/testing/vxu4/suites/bench-smoke-test.sh", "{log:system}"\]$' "$list" | cut -d: -f1)
sed -i "${n}s/{log:system}/{log:noem}/" "$list"
refused "check.sh: a judge before the boot it reads" \
	"check.sh: $list line $n: [suite.bench-smoke] run: in tier ci it reads boot 'noem'" $c ci
cp "$tmp/suites.toml" "$list"
sed -i "${n}s/{log:system}/{log:sytem}/" "$list"
refused "check.sh: a judge reading a boot no one declares" \
	"check.sh: $list line $n: [suite.bench-smoke] run: no boot 'sytem'" $c --targets
cp "$tmp/suites.toml" "$list"
n=$(grep -n '^target = "check-idle"$' "$list" | cut -d: -f1)
sed -i "${n}s/check-idle/check-boost/" "$list"
refused "check.sh: a make target on two suites" \
	"check.sh: $list line $n: [suite.idle] target: make target check-boost is suite boost's too" $c --targets
cp "$tmp/suites.toml" "$list"
n=$(grep -n '^cost = "cycles-cache"$' "$list" | cut -d: -f1)
sed -i "${n}s/cycles-cache/cycels/" "$list"
refused "check.sh: a boot of a cost that is none" \
	"check.sh: $list line $n: [boot.cycles] cost: cost 'cycels': want one of insns, cycles, cycles-cache" \
	$c --targets
cp "$tmp/suites.toml" "$list"
sed -i "${n}d" "$list"
refused "check.sh: weights without the cycle model" \
	"check.sh: $list line $n: [boot.cycles] weights: weights without cost" $c --targets
cp "$tmp/suites.toml" "$list"
n=$(grep -n '^run = \["tools/testing/vxu4/suites/cycles-test.py", "{log:cycles}", "{weights:cycles}"\]$' \
	"$list" | cut -d: -f1)
sed -i "${n}s/{weights:cycles}/{weights:system}/" "$list"
refused "check.sh: the weights of a boot that has none" \
	"check.sh: $list line $n: [suite.cycles] run: {weights:system}: [boot.system] has no weights" \
	$c --targets
cp "$tmp/suites.toml" "$list"
echo 'name = ' >>"$list"
refused "check.sh: a file that is not TOML" "check.sh: $list: not TOML: " $c --targets
cp "$tmp/suites.toml" "$list"
refused "boot.py: a boot no one declares" "boot.py: no boot 'nosuch' in tools/testing/vxu4/suites/registry.toml" \
	tools/testing/vxu4/suites/boot.py nosuch
refused "boot.py --console --stdout" "boot.py: --console and --stdout: give one of them" \
	tools/testing/vxu4/suites/boot.py system --console --stdout
refused "check.sh --suite -" "check.sh: --suite '-': want a make target or an ID" $c --suite -
refused "check.sh --suite nosuch" "check.sh: --suite 'nosuch': no suite of tools/testing/vxu4/suites/registry.toml" \
	$c --suite nosuch
refused "check.sh --suite kunit-boot chekc" "check.sh: --suite kunit-boot chekc: unknown tier 'chekc'" \
	$c --suite kunit-boot chekc
refused "check.sh --suite kunit-boot debug" "check.sh: --suite kunit-boot debug: suite kunit-boot is not in tier debug" \
	$c --suite kunit-boot debug
# A suite that differs per tier: its own form (its make target's), or the
# tier's; what its judge reads is made first.
run $c --plan --suite kunit-boot
if [ "$rc" = 0 ] && grep -q "runs: tools/testing/vxu4/suites/kunit-boot-test.py build/system-test.log build/noem-test.log$" "$tmp/out"; then
	ktap_ok "check.sh --plan --suite kunit-boot: its own form reads the system test's and the board without EM's logs"
else
	ktap_fail "check.sh --plan --suite kunit-boot: its own form" "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
fi
run $c --plan --suite kunit-boot check
if [ "$rc" = 0 ] && grep -q "runs: tools/testing/vxu4/suites/kunit-boot-test.py --board-only build/system-test.log$" "$tmp/out" &&
	grep -q "reads boot system-no-physics (build/system-test.log): first, unless its log is current, made by suite system's command (tier check)" "$tmp/out"; then
	ktap_ok "check.sh --plan --suite kunit-boot check: make check's form, its boot made first by the system test"
else
	ktap_fail "check.sh --plan --suite kunit-boot check: make check's form" "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
fi
# Alone, it runs: the boot it reads is not current here (no build/
# system-test.log.boot), so the system test's command makes it (it and
# the judge are not copied here: both fail), then one suite, failed.
run $c --suite kunit-boot check
if [ "$rc" = 1 ] && grep -qx "1\.\.1" "$tmp/out" && grep -q "^# suite 'kunit-boot' alone: 1 suite" "$tmp/out" &&
	grep -q "^check.sh: boot system-no-physics: build/system-test.log is not current: made by suite system's command" "$tmp/err" &&
	grep -qx "0 passed, 1 failed" "$tmp/out"; then
	ktap_ok "check.sh --suite kunit-boot check: its boot first, then one suite"
else
	ktap_fail "check.sh --suite kunit-boot check: its boot first, then one suite" "exit $rc" "$(head -5 "$tmp/out" "$tmp/err")"
fi
ktap_finish
