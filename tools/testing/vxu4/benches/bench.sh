#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the reference EAS experiments in the virtual XU4, in the
# configurations of tools/testing/vxu4/benches/bench-configs (the one definition
# of them: each one's letter, board, sched_energy_aware, what it is),
# tabulated as the seed's tables (tools/testing/vxu4/benches/bench-report.py):
#   a, b  EM + EAS (the series), and EM with sched_energy_aware=0: one
#         boot of build/vxu4.dtb, a and b taking turns (ab1, ab2)
#   c     no EM, the cluster sched domain level kept: build/vxu4-noem.dtb
#   d     no EM and no cpu-map, one sched domain level (the seed's
#         "without patches"): build/vxu4-noem-nomc.dtb
# The guest is told which configurations it runs (vxu4.bench_cfg=) and
# checks that it booted their board.
# Each boot is tools/testing/vxu4/benches/bench-job.sh's: here through
# tools/testing/vxu4/suites/boot.py (the registry's [boot.bench], on the
# configuration's DTB), on the hosts of HOSTS through scripts/vxu4.sh,
# copied there.
# Boots run two at a time (each QEMU uses one host core under -icount).
# Without an EM the cluster meters count no dynamic power, so the energy
# of every configuration is computed the same way: the EM power of each
# OPP (tools/power/eas/eas-em from build/vxu4.dtb) times the busy time of
# each cluster's CPUs at that OPP (from each run's trace.dat, which the
# guest sends out on the console and bench-report.py reduces with
# tools/testing/vxu4/lib/vxu4trace.py); for a and b it is checked against
# the meters.
#
# --seed: the seed's run as the seed and Arm ran it (make bench-seed): the
# defaults below become ITER=10 TASKS=24,24@a7 DURATION=30 (Arm's EAS
# energy test runs 30 s) HB_LOOPS=500 HB_GROUPS=10 (the seed's
# "hackbench -l 500 -s 4096", hackbench's 10 groups); hours of wall time
# at the default time scale (docs/benches.md gives the measured cost).
#
# Environment (defaults), each read once and checked before anything is
# made or booted (tools/testing/vxu4/lib/env-lib.sh: exit 2, one line naming
# the variable); numbers in base 10 (ITER=010 is 10):
#   ITER=10        iterations of each configuration (1 to 1000)
#   TASKS=24,8,24@a7
#                  rt-app cases, N[@CLUSTER] (N from 1 to 999, no
#                  leading zero): N tasks of 10% of CLUSTER's
#                  CPU at its top OPP, where rt-app is calibrated (a15 by
#                  default: 24 tasks are the seed's case, about 2.4 big
#                  CPUs of work as LISA states duty; 8 a scaled case;
#                  24@a7: the seed's case under rt-app's own default
#                  calibration, on CPU0, an A7 at 1.4 GHz)
#   DURATION=3     guest seconds of each rt-app run, 1 to 3600 (rt-app
#                  never ends a run of 0; on a host shared with
#                  another QEMU an rt-app run of 24 tasks costs about 10 s
#                  of wall time a guest second, and its trace as much again)
#   HB_LOOPS=5     hackbench -l HB_LOOPS -s 4096 (the seed's is -l 500 with
#                  hackbench's 10 groups, about 1000 times the work:
#                  hours a run; 0: no hackbench; at most 100000)
#   HB_GROUPS=4    hackbench -g, 1 to 100
#   CONFIGS=a,b,c,d  the configurations to run (bench-configs' letters)
#   VXU4_TIME_SCALE=8  the guest's time scale K, 1 to 64, as for every
#                  boot (scripts/vxu4.sh): a guest ns holds K
#                  instructions, so calibrated work costs about K times
#                  the wall time; 8 puts hackbench's loop at the board's
#                  cost (docs/findings/time-scale.md), 1 is QEMU's own clock
#   KERNEL=        a variant of the board's kernel to boot instead of
#                  build/obj's: NAME for build/obj-NAME, the board's config
#                  plus tools/testing/vxu4/board/NAME.config (nolockdebug: no lock
#                  debugging), built first (kernel-variant.sh)
#   PARALLEL=1     0: one boot after the other (on two host cores only
#                  one boot at a time runs on a core of its own:
#                  scripts/vxu4.sh)
#   HOSTS=         GNU parallel's sshlogin file (--sshloginfile: a host a
#                  line, "[N/]HOST", "[N/]USER@HOST" or "[N/]ssh -p PORT
#                  HOST", ':' for this one, N boots at once there, by
#                  default its cores; blank lines and #comments skipped;
#                  read here first: no host or a line of none is
#                  refused, naming the line): every
#                  iteration of every configuration a boot of its own
#                  (ab-I, c-I, d-I), handed out to those hosts by GNU
#                  parallel, which ships the zImage, DTBs, initramfs and
#                  scripts/vxu4.sh to each once and brings each boot's
#                  files back; the same report. A host needs QEMU 10 (with
#                  plugins, as scripts/deps.sh installs it), fdtget,
#                  util-linux, rsync and GNU parallel; PARALLEL is unused
#   BENCH_OUT=     the results' folder (default build/bench/<date>),
#                  made if need be; one that cannot be written in is
#                  refused
#   VXU4_KERNEL, VXU4_INITRD, VXU4_PLUGIN  scripts/vxu4.sh's: the zImage
#                  (unless KERNEL), initramfs and plugin to boot
# What the boots take (the zImage, the DTBs, the initramfs, the plugin,
# eas-em) is checked before the first one, each missing file named with
# the make target that builds it; the bundle of HOSTS is removed
# whatever ends the run.
# Results in build/bench/<date>/: the console log (ab1.log, c.log, d.log,
# ab2.log; with HOSTS ab-I.log, ...), the host's arrival times of the run
# markers (NAME.stamps) and the exit status (NAME.rc) of each boot
# (tools/testing/vxu4/benches/bench-job.sh), what each boot here booted
# (NAME.log.boot, boot.py's), em.json, runs.csv, summary.json,
# bench.png, report.txt, traces/ (each rt-app run's trace.dat); with HOSTS
# jobs.txt and parallel's hosts.joblog.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build

bad() { echo "bench.sh: $*" >&2; exit 2; }
mode=short
case $# in
0) ;;
1) [ "$1" = --seed ] || bad "$1: unknown argument: want none (make bench) or --seed (make bench-seed)"
	mode=seed ;;
*) bad "too many arguments ($*): want none or --seed" ;;
esac
# Every setting read once and checked here, before anything is made or
# booted (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
env_prog=bench.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
if [ "$mode" = seed ]; then
	d_tasks=24,24@a7 d_duration=30 d_hb=500 d_hbg=10
else
	d_tasks=24,8,24@a7 d_duration=3 d_hb=5 d_hbg=4
fi
iter=$(env_int ITER 10 1 1000 "iterations of each configuration") || exit
tasks=$(env_match TASKS "$d_tasks" '[1-9][0-9]{0,2}(@a15|@a7)?(,[1-9][0-9]{0,2}(@a15|@a7)?)*' \
	"rt-app cases, each a task count from 1 to 999 calibrated on a15 (the default) or a7, like 24,8,24@a7") || exit
duration=$(env_int DURATION "$d_duration" 1 3600 "guest seconds of each rt-app run; rt-app never ends a run of 0") || exit
hb=$(env_int HB_LOOPS "$d_hb" 0 100000 "hackbench's loops; 0: no hackbench") || exit
hbg=$(env_int HB_GROUPS "$d_hbg" 1 100 "hackbench's groups") || exit
# The configurations: tools/testing/vxu4/benches/bench-configs, the one definition
# of them ("CFG DTB EAS LEVELS" a line, the file checked by vxu4log.py).
cfglist=$(python3 "$top/tools/testing/vxu4/lib/vxu4log.py" bench-configs) || exit 2
declare -A cfg_dtb cfg_eas
letters=
while read -r l dtb eas _; do
	cfg_dtb[$l]=$dtb cfg_eas[$l]=$eas letters+=$l
done <<<"$cfglist"
all=$(echo "$letters" | sed 's/./&,/g; s/,$//')
configs=$(env_match CONFIGS "$all" "[$letters](,[$letters])*" "some of $all (tools/testing/vxu4/benches/bench-configs), comma-separated, e.g. $all") || exit
parallel=$(env_match PARALLEL 1 '[01]' "0 or 1") || exit
# The time scale K: VXU4_TIME_SCALE, or the one default (env-lib.sh).
scale=$(env_scale) || exit
export VXU4_TIME_SCALE=$scale
kernel=$(env_match KERNEL "" '[A-Za-z0-9_-]+' "a kernel variant's name (tools/testing/vxu4/board/NAME.config)") || exit
hosts=$(env_hosts HOSTS) || exit
if [ -n "$hosts" ]; then
	command -v parallel >/dev/null || env_bad "HOSTS=$hosts: GNU parallel is missing: run 'make deps' (Debian's parallel)"
fi

# What the boots take, there before the first one: the kernel (unless
# KERNEL's variant, built below), the initramfs, the plugin, the DTBs of
# the configurations, eas-em.
if [ -z "$kernel" ]; then
	zimage=$(env_kernel bench) || exit
fi
initrd=$(env_initrd bench) || exit
plugin=$(env_plugin bench) || exit
# The configurations that set sched_energy_aware (the EM board's) share a
# boot on their DTB and take turns in it: its boots are named after all
# of them (ab1, ab2; with HOSTS ab-I), $turns; those of CONFIGS are
# $ab. Each other one boots alone on its DTB, named after its letter
# ($solo).
turns='' turns_dtb='' ab='' solo=()
for l in $(echo "$letters" | grep -o .); do
	[ "${cfg_eas[$l]}" = - ] || turns+=$l turns_dtb=${cfg_dtb[$l]}
	[[ ,$configs, == *,$l,* ]] || continue
	if [ "${cfg_eas[$l]}" = - ]; then solo+=("$l"); else ab+=${ab:+,}$l; fi
done
# build/vxu4.dtb: the EM (eas-em) of every configuration's energy.
env_dtb bench - vxu4.dtb >/dev/null || exit
[ -z "$ab" ] || env_dtb bench - "$turns_dtb" >/dev/null || exit
for l in "${solo[@]}"; do env_dtb bench - "${cfg_dtb[$l]}" >/dev/null || exit; done
eas_em=$top/tools/power/eas/eas-em
[ -x "$eas_em" ] || env_bad "$eas_em is missing: run 'make tools' (make bench does)"
out=$(env_out_dir BENCH_OUT "$build/bench/$(date +%Y%m%d-%H%M%S)") || exit
if [ -n "$kernel" ]; then
	zimage=$("$top/tools/testing/vxu4/board/kernel-variant.sh" "$kernel") || exit
	zimage=$(env_file - "$zimage" "kernel-variant.sh $kernel did not make it" zimage) || exit
fi

"$eas_em" compute --json "$build/vxu4.dtb" >"$out/em.json" 2>"$out/em.err" ||
	{ cat "$out/em.err" >&2 || true; env_bad "eas-em could not compute the EM of $build/vxu4.dtb"; }

ncases=$(echo "$tasks" | tr ',' '\n' | grep -c .)

# Time limit of a boot running NCFG configurations for N iterations:
# generous, from the wall time measured on a shared host (an rt-app run up
# to 12 s a guest second, its trace's reduction up to 10 s a guest second;
# hackbench about 1 s a loop and group), doubled, and K times that at
# time scale K.
budget() {
	echo $((300 * scale + 2 * scale * $2 * $1 * (ncases * (duration * 22 + 10) + (hb > 0 ? 10 + hb * hbg : 0))))
}

# boot NAME DTB CONFIGS NCFG ITER FIRST: iterations FIRST..FIRST+ITER-1,
# here (tools/testing/vxu4/benches/bench-job.sh: $out/NAME.log, .stamps, .rc)
boot() {
	local limit
	limit=$(budget "$4" "$5")
	echo "==> bench boot '$1': configurations $3 on $(basename "$2"), iterations" \
		"$6..$(($6 + $5 - 1)), time limit $limit s"
	# shellcheck disable=SC2046 # guest_args: words
	"$top/tools/testing/vxu4/benches/bench-job.sh" "$out/$1" "$limit" "$scale" "$zimage" "$2" \
		"$initrd" $(guest_args "$5" "$3" "$6") || true
}

# guest_args ITER CONFIGS FIRST: the bench's kernel arguments (words with
# no blank or shell character in them).
guest_args() {
	echo "vxu4.mode=bench vxu4.iter=$1 vxu4.tasks=$tasks vxu4.duration=$duration" \
		"vxu4.hb_loops=$hb vxu4.hb_groups=$hbg vxu4.bench_cfg=$2 vxu4.bench_first=$3"
}

{
	echo "date: $(date -Iseconds)"
	echo "commit: $(git -C "$top" rev-parse HEAD 2>/dev/null)$(git -C "$top" diff --quiet 2>/dev/null || echo ' (with local changes)')"
	echo "qemu: $(qemu-system-arm --version | head -1)"
	echo "host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "settings ($mode): ITER=$iter TASKS=$tasks DURATION=$duration HB_LOOPS=$hb HB_GROUPS=$hbg CONFIGS=$configs PARALLEL=$parallel VXU4_TIME_SCALE=$scale KERNEL=${kernel:-board}${hosts:+ HOSTS=$hosts}"
	[ -z "$hosts" ] || echo "hosts: $(grep -v '^[[:space:]]*\(#\|$\)' "$hosts" | paste -sd';')"
} >"$out/info.txt"

echo "==> bench: $iter iterations of configurations $configs; rt-app $tasks tasks, ${duration} s;" \
	"hackbench -g $hbg -l $hb -s 4096; time scale K=$scale; kernel ${kernel:-board}; results in ${out#"$top"/}"
start=$EPOCHREALTIME
nab=$(echo "$ab" | tr ',' '\n' | grep -c . || true)
names=() logs=()
if [ -n "$hosts" ]; then
	# Every iteration of every configuration a boot of its own (a and b
	# together, as here: they take turns in one boot), GNU parallel
	# handing them out to the hosts and bringing each one's files back.
	# The boots' files go to each host once: a bundle in the layout of
	# the tree, at the same absolute path everywhere (parallel's
	# --workdir), where the local host (':') runs its jobs too. No
	# --cleanup: on a host that is this machine under another name (the
	# loopback) the remote folder is the local one, whose files would
	# go with it; it is removed on every host once the files are back.
	# The bundle goes with this script, whatever ends it.
	bundle=$(mktemp -d /tmp/odroid-eas-bench.XXXXXX)
	trap 'rm -rf "$bundle"' EXIT
	mkdir -p "$bundle/scripts" "$bundle/tools/testing/vxu4" "$bundle/build"
	cp "$top/scripts/vxu4.sh" "$bundle/scripts/"
	mkdir -p "$bundle/tools/testing/vxu4/benches"
	cp "$top/tools/testing/vxu4/benches/bench-job.sh" "$bundle/tools/testing/vxu4/benches/bench-job.sh"
	mkdir -p "$bundle/tools/testing/vxu4/lib"
	cp "$top/tools/testing/vxu4/lib/env-lib.sh" "$bundle/tools/testing/vxu4/lib/env-lib.sh"
	cp "$zimage" "$bundle/build/zImage"
	cp "$initrd" "$bundle/build/initramfs.cpio.gz"
	cp "$plugin" "$bundle/build/insn-count.so"
	files=(scripts/vxu4.sh tools/testing/vxu4/benches/bench-job.sh tools/testing/vxu4/lib/env-lib.sh
		build/zImage build/initramfs.cpio.gz build/insn-count.so)
	jobs=()
	for i in $(seq "$iter"); do
		[ -z "$ab" ] || jobs+=("$turns-$i $(budget "$nab" 1) $turns_dtb $ab $i")
		for l in "${solo[@]}"; do
			jobs+=("$l-$i $(budget 1 1) ${cfg_dtb[$l]} $l $i")
		done
	done
	for j in "${jobs[@]}"; do
		read -r n _ dtb _ <<<"$j"
		names+=("$n") logs+=("$out/$n.log")
		[ -f "$bundle/build/$dtb" ] || { cp "$build/$dtb" "$bundle/build/"; files+=("build/$dtb"); }
	done
	printf '%s\n' "${jobs[@]}" >"$out/jobs.txt"
	echo "==> bench: ${#jobs[@]} boots over the hosts of $hosts (GNU parallel; its job log: ${out#"$top"/}/hosts.joblog)"
	basefiles=()
	for f in "${files[@]}"; do basefiles+=(--basefile "$f"); done
	# The command is a shell line on the host: {1}..{5} are a job's
	# NAME LIMIT DTB CONFIGS FIRST.
	(cd "$bundle" && parallel --will-cite --sshloginfile "$hosts" --workdir "$bundle" \
		"${basefiles[@]}" --return '{1}.log' --return '{1}.stamps' --return '{1}.rc' \
		--colsep ' ' --line-buffer --joblog "$out/hosts.joblog" \
		bash tools/testing/vxu4/benches/bench-job.sh '{1}' '{2}' "$scale" build/zImage 'build/{3}' \
		build/initramfs.cpio.gz "$(guest_args 1 '{4}' '{5}')" :::: "$out/jobs.txt") || true
	for n in "${names[@]}"; do
		for e in log stamps rc; do
			[ ! -f "$bundle/$n.$e" ] || mv "$bundle/$n.$e" "$out/"
		done
	done
	parallel --will-cite --nonall --sshloginfile "$hosts" rm -rf "$bundle" >/dev/null 2>&1 || true
	rm -rf "$bundle"
	how="over the hosts of $hosts"
else
	# Two host cores, one QEMU each. The EM board's configurations (a,
	# b: two runs an iteration) cost twice what c or d does, so with
	# PARALLEL=1 the first core boots the EM board for the first n1
	# iterations and the second boots the no-EM boards, then the EM
	# board again for the remaining ones: the two finish about together
	# (one boot, about a minute, counted as one unit).
	n1=$iter
	if [ "$parallel" = 1 ] && [ "$nab" -gt 0 ]; then
		n1=$(( (iter * (nab + ${#solo[@]}) + 1 + nab) / (2 * nab) ))
		[ "$n1" -le "$iter" ] || n1=$iter
		[ "$n1" -ge 1 ] || n1=1
	fi
	slot1() {
		[ -n "$ab" ] || return 0
		boot "${turns}1" "$build/$turns_dtb" "$ab" "$nab" "$n1" 1
	}
	slot2() {
		for l in "${solo[@]}"; do
			boot "$l" "$build/${cfg_dtb[$l]}" "$l" 1 "$iter" 1
		done
		[ -z "$ab" ] || [ "$n1" -ge "$iter" ] ||
			boot "${turns}2" "$build/$turns_dtb" "$ab" "$nab" $((iter - n1)) $((n1 + 1))
	}
	[ -z "$ab" ] || { names+=("${turns}1"); logs+=("$out/${turns}1.log"); }
	for l in "${solo[@]}"; do names+=("$l"); logs+=("$out/$l.log"); done
	[ -z "$ab" ] || [ "$n1" -ge "$iter" ] || { names+=("${turns}2"); logs+=("$out/${turns}2.log"); }
	if [ "$parallel" = 1 ]; then
		slot1 &
		slot2 &
		wait
		how="at once"
	else
		slot1
		slot2
		how="one after the other"
	fi
fi
failed=0
for n in "${names[@]}"; do
	if [ "$(cat "$out/$n.rc" 2>/dev/null)" != 0 ]; then
		echo "bench.sh: boot '$n' failed (log: $out/$n.log)" >&2
		failed=1
	fi
done
wall=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
echo "host: load $(cut -d' ' -f1-3 /proc/loadavg) at the end; wall time of the boots $wall s" >>"$out/info.txt"

rc=0
python3 "$top/tools/testing/vxu4/benches/bench-report.py" --em "$out/em.json" --idle "$build/vxu4.dtb" "$out" "${logs[@]}" |
	tee "$out/report.txt" || rc=$?
echo "bench: wall time $wall s for the boots ($how), time scale K=$scale, kernel ${kernel:-board}" | tee -a "$out/report.txt"
if [ "$failed" = 1 ] || [ "$rc" != 0 ]; then
	echo "bench.sh: the bench is incomplete or inconsistent: see the messages above" >&2
	exit 1
fi
