#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench over hosts (HOSTS=, GNU parallel over ssh), checked on this
# machine (KTAP): one iteration of configuration a, run here as make bench
# runs it, then through GNU parallel on a host reached over ssh on the
# loopback: an sshd that this test starts on a free port of 127.0.0.1,
# with a host key, a user key and a config of its own, stopped at the end.
# The guest is deterministic and both boots run on a host core of their
# own (scripts/vxu4.sh), one after the other: the two consoles must be the
# same byte for byte, and so must the runs the report reads from them
# (runs.csv, but for the boot's name and the host's wall time).
#
# Usage: hosts-test.sh   (needs make vxu4 initramfs tools; sshd from
# Debian's openssh-server, GNU parallel: make deps)
# Settings of the bench run (small: a boot each): CONFIGS=a ITER=1 TASKS=8
# DURATION=1 HB_LOOPS=1 HB_GROUPS=2, at QEMU's own clock (VXU4_TIME_SCALE=1):
# what is compared is the path through ssh, not the time scale.

top=$(cd "$(dirname "$0")/../../../.." && pwd)
sshd=/usr/sbin/sshd
for t in "$sshd" ssh ssh-keygen parallel; do
	command -v "$t" >/dev/null ||
		{ echo "hosts-test.sh: $t is missing: run 'make deps' (openssh-server, openssh-client, parallel)" >&2; exit 2; }
done

. "$(dirname "$0")/../../ktap.sh"
tmp=$(mktemp -d /tmp/hosts-test.XXXXXX)
# shellcheck disable=SC2317 # run at exit (ktap_atexit)
stop_sshd() { [ ! -f "$tmp/sshd.pid" ] || kill "$(cat "$tmp/sshd.pid")" 2>/dev/null; }
# The sshd first, then its folder (ktap_atexit: in order).
ktap_atexit stop_sshd
ktap_atexit rm -rf "$tmp"

export CONFIGS=a ITER=1 TASKS=8 DURATION=1 HB_LOOPS=1 HB_GROUPS=2 VXU4_TIME_SCALE=1
bench=$top/tools/testing/vxu4/benches/bench.sh

# --- bad input first: no boot
HOSTS=$tmp/no-such-file BENCH_OUT=$tmp/bad "$bench" >"$tmp/bad.out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q "HOSTS=$tmp/no-such-file: no such file" "$tmp/bad.out"; then
	ktap_ok "HOSTS naming no file: exit 2, the file named"
else
	ktap_fail "HOSTS naming no file: exit 2, the file named" "exit $rc" "$(tail -3 "$tmp/bad.out")"
fi

# --- the loopback host
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/id"
cp "$tmp/id.pub" "$tmp/authorized_keys"
cat >"$tmp/sshd_config" <<-EOF
	Port $port
	ListenAddress 127.0.0.1
	HostKey $tmp/host_key
	PidFile $tmp/sshd.pid
	AuthorizedKeysFile $tmp/authorized_keys
	AllowUsers $(id -un)
	StrictModes no
	PubkeyAuthentication yes
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	PermitRootLogin prohibit-password
	UsePAM no
EOF
# Its privilege separation folder (Debian's service makes it at start).
[ -d /run/sshd ] || mkdir -m 755 /run/sshd 2>/dev/null
ssh_cmd="ssh -p $port -i $tmp/id -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR"
if "$sshd" -f "$tmp/sshd_config" -E "$tmp/sshd.log" && $ssh_cmd 127.0.0.1 true 2>"$tmp/ssh.err"; then
	ktap_ok "an sshd of this test on 127.0.0.1:$port, reached with a key of its own"
else
	ktap_fail "an sshd of this test on 127.0.0.1, reached with a key of its own" \
		"$(cat "$tmp/ssh.err" "$tmp/sshd.log" 2>/dev/null | tail -5)"
	ktap_finish
fi
echo "1/$ssh_cmd 127.0.0.1" >"$tmp/hosts"

# --- the bench, here and over the loopback host
start=$SECONDS
BENCH_OUT=$tmp/here "$bench" >"$tmp/here.out" 2>&1
here_rc=$? here_s=$((SECONDS - start))
start=$SECONDS
HOSTS=$tmp/hosts BENCH_OUT=$tmp/hosts-run "$bench" >"$tmp/hosts.out" 2>&1
hosts_rc=$? hosts_s=$((SECONDS - start))
echo "wall time (host clock): $here_s s here, $hosts_s s through GNU parallel and ssh"
for r in "here $here_rc" "hosts $hosts_rc"; do
	read -r r rc <<<"$r"
	if [ "$rc" = 0 ]; then
		ktap_ok "make bench ($CONFIGS, $ITER iteration) $r: exit 0, a report"
	else
		ktap_fail "make bench ($CONFIGS, $ITER iteration) $r: exit 0, a report" "exit $rc" \
			"$(tail -8 "$tmp/$r.out")"
	fi
done
# The job ran on the ssh host: parallel's job log names it.
host_col=$(awk -F'\t' 'NR == 2 { print $2 }' "$tmp/hosts-run/hosts.joblog" 2>/dev/null)
job_rc=$(awk -F'\t' 'NR == 2 { print $7 }' "$tmp/hosts-run/hosts.joblog" 2>/dev/null)
if [[ $host_col == *"-p $port "*"127.0.0.1" ]] && [ "$job_rc" = 0 ]; then
	ktap_ok "GNU parallel ran the boot over ssh on 127.0.0.1:$port (its job log), exit 0"
else
	ktap_fail "GNU parallel ran the boot over ssh on 127.0.0.1:$port (its job log), exit 0" \
		"$(head -3 "$tmp/hosts-run/hosts.joblog" 2>&1)"
fi
a=$tmp/here/ab1.log b=$tmp/hosts-run/ab-1.log
if [ -s "$a" ] && cmp -s "$a" "$b"; then
	ktap_ok "the console through the host is the local one, byte for byte ($(wc -c <"$a") bytes)"
else
	ktap_fail "the console through the host is the local one, byte for byte" \
		"$(cmp "$a" "$b" 2>&1)" "$(diff "$a" "$b" 2>&1 | head -6)"
fi
# runs.csv without the boot's name and what the host's clock gave (its
# wall time of a run, and wall seconds per guest second): a line a value.
strip_csv() {
	python3 - "$1" <<-'EOF'
		import csv, sys
		for r in csv.DictReader(open(sys.argv[1])):
		    for k, v in r.items():
		        if k not in ("boot", "host_ms", "host_per_guest_s"):
		            print(f"run {r['run']} {r['test']}: {k}={v}")
	EOF
}
strip_csv "$tmp/here/runs.csv" >"$tmp/here.runs" 2>&1
strip_csv "$tmp/hosts-run/runs.csv" >"$tmp/hosts.runs" 2>&1
nruns=$(grep -c '' "$tmp/here/runs.csv" 2>/dev/null)
nruns=$((${nruns:-1} - 1))
if [ "$nruns" -gt 0 ] && cmp -s "$tmp/here.runs" "$tmp/hosts.runs"; then
	ktap_ok "the report's $nruns runs through the host are the local ones, $(grep -c . "$tmp/here.runs") values (runs.csv but the boot's name and the host clock's)"
else
	ktap_fail "the report's runs through the host are the local ones (runs.csv but the boot's name and the host clock's)" \
		"$(diff "$tmp/here.runs" "$tmp/hosts.runs" 2>&1 | head -6)"
fi
ns_here=$(grep -c '@bench_end' "$tmp/here/ab1.stamps" 2>/dev/null)
ns_hosts=$(grep -c '@bench_end' "$tmp/hosts-run/ab-1.stamps" 2>/dev/null)
if [ "${ns_here:-0}" -gt 0 ] && [ "$ns_here" = "$ns_hosts" ]; then
	ktap_ok "the host's run stamps came back: $ns_hosts runs stamped, as here"
else
	ktap_fail "the host's run stamps came back" "stamped runs: ${ns_here:-none} here, ${ns_hosts:-none} through the host"
fi
ktap_finish
