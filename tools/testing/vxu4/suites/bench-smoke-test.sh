#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of the reference experiments' pipeline (make bench), from the
# system test's boot, which ran tools/testing/vxu4/guest/bench for 1 iteration with
# 4 rt-app tasks for 2 s and hackbench -g 1 -l 1, configurations a (EAS
# on) and b (off): every run has its keys, by name, with sane values
# (energy on both cluster meters, guest time, the CPU speed emulation's
# counters and shortfall, busy time split into user, system and irq, busy
# time per OPP from the trace, which the host reduces from the trace.dat
# each run sent out), start and end
# markers; EAS was on and then off (the kernel's own "stopping EAS" /
# "starting EAS"); and bench-report.py made its tables, CSV, JSON and
# plot, with the energy computed from the EM and the trace agreeing with
# the meters. (bench-report.py's own statistics on made-up runs are
# checked by self-checks.sh, with no boot.)
#
# Usage: bench-smoke-test.sh [CONSOLE_LOG]   (default: build/system-test.log)

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
log=${1:-$top/build/system-test.log}
out=$(mktemp -d)
ktap_atexit rm -rf "$out"

if [ ! -r "$log" ]; then
	nok "the console log is readable" "$log: missing: run make check-ci (or give a bench boot's log)"
	finish
fi

errors=$(at bench_error)
if [ -z "$errors" ]; then ok "the guest bench reported no error"; else nok "the guest bench reported no error" "$errors"; fi

# The runs' lines, an rt-app run's with the keys of its trace, reduced on
# the host from the trace.dat the run sent (vxu4trace.py).
if lines=$("${vxu4py[@]}" "$top/tools/testing/vxu4/lib/vxu4trace.py" bench "$log" "$out/traces" 2>"$out/trace.err"); then
	ok "the rt-app runs' traces came out whole and were read on the host"
else
	nok "the rt-app runs' traces came out whole and were read on the host" "$(cat "$out/trace.err")"
	lines=$(at bench)
fi

# key LINE NAME: the value of NAME= in LINE (empty if absent).
key() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -1; }

# is_int V [MIN]: V is a whole number >= MIN (default 0).
is_int() { [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge "${2:-0}" ]; }

# sum V...: the sum of whole numbers, -1 if one is not.
sum() {
	local s=0 v
	for v; do
		is_int "$v" || { echo -1; return; }
		s=$((s + v))
	done
	echo "$s"
}

for eas in 1 0; do
	r=$(echo "$lines" | grep "^rtapp .* eas=$eas " | head -1)
	if [ -z "$r" ]; then
		nok "rt-app ran with EAS $eas" "no '@bench rtapp ... eas=$eas' line"
		continue
	fi
	cfg=$(key "$r" cfg)
	expect "rt-app, EAS $eas: configuration" "$([ $eas = 1 ] && echo a || echo b)" "$cfg"
	for m in a7 a15; do
		e=$(key "$r" "energy_${m}_uj")
		if is_int "$e" 1; then
			ok "rt-app, EAS $eas: $m meter measured $e uJ"
		else
			nok "rt-app, EAS $eas: $m meter measured energy" "energy_${m}_uj=$e"
		fi
	done
	g=$(key "$r" guest_ms) w=$(key "$r" wall_ms)
	if is_int "$g" 1 && [ "$g" = "$w" ]; then
		ok "rt-app, EAS $eas: guest time $g ms (wall_ms too)"
	else
		nok "rt-app, EAS $eas: guest time > 0, wall_ms the same" "guest_ms=$g wall_ms=$w"
	fi
	# The emulation's counters, per cluster; a shortfall can be 0 but not
	# more than the run's CPU time.
	bad=
	for k in work run stall owed shortfall kthread dropped; do
		for m in a7 a15; do
			v=$(key "$r" "${k}_${m}_us")
			is_int "$v" || bad="$bad ${k}_${m}_us=${v:-missing}"
		done
	done
	work=$(sum "$(key "$r" work_a7_us)" "$(key "$r" work_a15_us)")
	sf=$(sum "$(key "$r" shortfall_a7_us)" "$(key "$r" shortfall_a15_us)")
	if [ -z "$bad" ] && [ "$work" -gt 0 ] && [ "$sf" -ge 0 ] && [ "$sf" -le $((g * 8 * 1000)) ]; then
		ok "rt-app, EAS $eas: emulation counters present, work $((work / 1000)) ms, shortfall $sf us"
	else
		nok "rt-app, EAS $eas: emulation counters present and sane" "${bad:-work=$work us shortfall=$sf us over $g ms}"
	fi
	# /proc/stat's split of the busy time: the same ticks, so exact;
	# rt-app's tasks sleep and wake through the kernel: system time > 0.
	for m in a7 a15; do
		b=$(key "$r" "busy_${m}_ms") u=$(key "$r" "user_${m}_ms")
		y=$(key "$r" "sys_${m}_ms") q=$(key "$r" "irq_${m}_ms")
		if is_int "$b" && is_int "$u" && is_int "$y" 1 && is_int "$q" &&
			[ "$b" -eq $((u + y + q)) ]; then
			ok "rt-app, EAS $eas: the $m cluster's busy time $b ms is user $u + system $y + irq $q ms"
		else
			nok "rt-app, EAS $eas: the $m cluster's busy time is user + system (> 0) + irq" \
				"busy=$b user=$u sys=$y irq=$q (ms)"
		fi
	done
	for m in a7 a15; do
		o=$(key "$r" "opp_busy_${m}_us")
		if [[ $o =~ ^[0-9]+:[0-9]+(,[0-9]+:[0-9]+)*$ ]]; then
			ok "rt-app, EAS $eas: busy time per OPP of the $m cluster from the trace"
		else
			nok "rt-app, EAS $eas: busy time per OPP of the $m cluster" "opp_busy_${m}_us=$o"
		fi
	done
	# The virtual board's cluster clocks are the CPUs' DT "clocks": the
	# trace takes the rates from their clk events, as the meters do.
	expect "rt-app, EAS $eas: the trace's OPP times from the cluster clocks' rate changes" \
		clk "$(key "$r" trace_rates)"
	# The root domain's overutilized flag (sched_eas trace events): with
	# EAS its events come within the run (load balancing at the top
	# domain sets or clears it); without EAS there are none.
	ou=$(key "$r" overutilized_us) unk=$(key "$r" overutilized_unknown_us)
	if ! is_int "$ou" || ! is_int "$unk"; then
		nok "rt-app, EAS $eas: overutilized time from the trace" "overutilized_us=$ou overutilized_unknown_us=$unk"
	elif [ "$eas" = 1 ] && [ "$unk" -lt $((g * 1000 / 2)) ] && [ "$ou" -le $((g * 1000)) ]; then
		ok "rt-app, EAS 1: overutilized $((ou / 1000)) ms of $g, unknown (before its first event) $((unk / 1000)) ms"
	elif [ "$eas" = 0 ] && [ "$ou" = 0 ]; then
		ok "rt-app, EAS 0: no overutilized event (EAS off), unknown $((unk / 1000)) ms of $g"
	else
		nok "rt-app, EAS $eas: overutilized time from the trace" \
			"overutilized_us=$ou overutilized_unknown_us=$unk over $g ms (with EAS: events within the run's first half; without: none)"
	fi
	h=$(echo "$lines" | grep "^hackbench .* eas=$eas " | head -1)
	if [ -n "$h" ] && is_int "$(key "$h" guest_ms)" 1; then
		ok "hackbench ran with EAS $eas: $(key "$h" guest_ms) ms"
	else
		[ -n "$h" ] || h="no '@bench hackbench ... eas=$eas' line"
		nok "hackbench ran with EAS $eas" "$h"
	fi
done

# Every run between its markers, and the guest said it was done.
runs=$(echo "$lines" | sed -n 's/.* run=\([0-9]*\) .*/\1/p' | sort -n | paste -sd,)
starts=$(at bench_start | sed -n 's/^run=\([0-9]*\).*/\1/p' | sort -n | paste -sd,)
ends=$(at bench_end | sed -n 's/^run=\([0-9]*\).*/\1/p' | sort -n | paste -sd,)
done_runs=$(at bench_done | sed -n 's/^runs=//p')
if [ -n "$runs" ] && [ "$runs" = "$starts" ] && [ "$runs" = "$ends" ] &&
   [ "$done_runs" = "$(echo "$runs" | tr ',' '\n' | grep -c .)" ]; then
	ok "every run has its start and end markers ($done_runs runs)"
else
	nok "every run has its start and end markers" "runs: $runs" "starts: $starts" "ends: $ends" "done: $done_runs"
fi

seq=$(at bench_dmesg | grep -o "stopping EAS\|starting EAS" | paste -sd,)
case "$seq" in
*"stopping EAS,starting EAS"*) ok "EAS was turned off and on again (kernel: $seq)" ;;
*) nok "EAS was turned off and on again" "kernel said: ${seq:-nothing}" ;;
esac

# The report, with the energy computed from the EM when eas-em and the
# board DTB are there (make builds both before the tests).
eas_em=$top/tools/power/eas/eas-em dtb=$top/build/vxu4.dtb
em=()
if [ -x "$eas_em" ] && [ -f "$dtb" ] && "$eas_em" compute --json "$dtb" >"$out/em.json" 2>/dev/null; then
	em=(--em "$out/em.json" --idle "$dtb")
fi
# A 2 s run of 4 tasks has many idle entries for its busy time: the trace's
# idle edges and the kernel's idle accounting (the meters') differ by up to
# about 2% there (within 0.4% on make bench's runs): the limit is 3%.
if python3 "$top/tools/testing/vxu4/benches/bench-report.py" "${em[@]}" --agree 3 "$out" "$log" >"$out/report.txt" 2>&1 &&
   grep -q "guest time" "$out/report.txt" && [ -s "$out/runs.csv" ] &&
   python3 -m json.tool "$out/summary.json" >/dev/null; then
	ok "bench-report.py made the tables, runs.csv and summary.json"
else
	nok "bench-report.py made the tables, runs.csv and summary.json" "$(cat "$out/report.txt")"
fi
if [ ${#em[@]} -gt 0 ]; then
	agree=$(sed -n 's/^computed energy vs the meters.*worst \([-+0-9.]*\)%.*/\1/p' "$out/report.txt")
	if [ -n "$agree" ] && awk -v d="$agree" 'BEGIN { exit !(d <= 3 && d >= -3) }'; then
		ok "the energy from the EM and the trace agrees with the meters ($agree% at worst)"
	else
		nok "the energy from the EM and the trace agrees with the meters within 3%" "worst: ${agree:-not computed}"
	fi
else
	nok "eas-em computed the EM of $dtb" "run make tools and make vxu4"
fi

finish
