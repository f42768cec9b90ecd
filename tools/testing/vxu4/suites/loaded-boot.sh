#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The system test's boot again (the same command line, so the same guest
# from the same state), made while the host's two cores are kept busy:
# two busy loops run for as long as it does, each at nice 19 in a session
# of its own whose autogroup is at nice 19 too (with
# sched_autogroup_enabled the scheduler shares a core between sessions
# first, whatever their nice), so that they take only what the other
# suites leave.
#
# Its console goes to build/physics-loaded.log, judged by physics-test.sh
# --host-load and repro-test.sh; what the host did meanwhile to
# build/physics-loaded.host: "WALL_S LOOPS_CPU_S IDLE_PCT" (the boot's
# wall time, the CPU time the loops used in it, the host's idle share),
# physics-test.sh --host-load's first three arguments.
#
# Usage: loaded-boot.sh   (KTAP: the boot powered off and reported)

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
log=$build/physics-loaded.log
host=$build/physics-loaded.host

# cpu_s PID...: CPU time those processes used so far, s.
cpu_s() {
	local p t=0
	for p in "$@"; do
		t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || echo 0)))
	done
	awk -v t="$t" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }'
}
# host_idle: the host's idle and total time so far, "IDLE TOTAL" (ticks).
host_idle() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i; print $5 + $6, t; exit }' /proc/stat
}

busy=()
stop_busy() {
	[ ${#busy[@]} -eq 0 ] && return
	kill "${busy[@]}" 2>/dev/null
	wait "${busy[@]}" 2>/dev/null
	busy=()
}
ktap_atexit stop_busy
for _ in 1 2; do
	setsid sh -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 sh -c "while :; do :; done"' &
	busy+=($!)
done
t0=$(date +%s.%N) c0=$(cpu_s "${busy[@]}") i0=$(host_idle)
rm -f "$host"
vxu4_boot loaded
c1=$(cpu_s "${busy[@]}") i1=$(host_idle) t1=$(date +%s.%N)
stop_busy
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
cpu=$(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", b - a }')
idle=$(echo "$i0 $i1" | awk '{ printf "%.1f", ($4 > $2 ? ($3 - $1) * 100 / ($4 - $2) : 100) }')
echo "$wall $cpu $idle" >"$host"
echo "(console log: build/physics-loaded.log; ${wall} s of wall time, the busy loops ${cpu} s of CPU, the host ${idle}% idle)"
reported
finish
