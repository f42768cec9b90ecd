#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PELT's half-life under sched_pelt_multiplier= (patch 0018), measured on
# running tasks: one boot of the virtual XU4 per multiplier, 1, 2 and 4,
# each with vxu4.mode=pelt. PELT counts time in units of 1024 ns and its
# period is 1024 of them, 1.048576 ms, so its half-life of 32 periods is
# 33.554 ms, and 16.777 and 8.389 ms with multipliers 2 and 4. On cpu4 (an
# A15, capacity 1024) pinned at its top OPP, alone:
#  - the multiplier the kernel reports (/proc/sys/kernel/sched_pelt_multiplier);
#  - a task that wakes after 1 s asleep (util_avg 0) and then always runs
#    reaches util_avg 512 after the half-life;
#  - asleep, its util_avg falls from its top (a little under 1024) to 512
#    in the half-life times log2(top / 512);
#    both within one PELT period (1/32 of the half-life, 3.125%): PELT
#    decays its sums only when a period ends, so util_avg is up to a
#    period off the exponential (KUnit's sched_pelt_multiplier suite
#    measures that lag on the kernel's own code: 0.1 to 0.4 ms late).
#    Measured at multipliers 1, 2, 4: rise +0.1% at each, decay +0.4%,
#    +1.1%, +2.0% (33.70, 16.96, 8.56 ms); a later boot at 4: rise
#    +0.97%, decay +1.91%;
#  - a periodic task (16 ms period, 4 ms of the reference's work): the
#    time average of its util_avg (from the trace of its PELT updates,
#    sched_eas/sched_pelt_task) is the same under the three multipliers
#    (within 3% of the default's): the multiplier changes how fast PELT
#    follows a task, not the level it settles at.
# The step response's samples are in the logs (build/pelt-test-M.log,
# "@pelt_sample").
#
# Usage: pelt-test.sh [LOG_1 LOG_2 LOG_4]  (with logs: no boot, only assert)
#        pelt-test.sh --multiplier M  (one boot, M = 1, 2 or 4)

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
mults=(1 2 4)
logs=()

if [ "${1:-}" = --multiplier ] && [ $# -eq 2 ] && [[ $2 =~ ^[124]$ ]]; then
	# One boot (make check-ci): the level against multiplier 1's is
	# skipped (the KUnit suite sched_pelt_multiplier covers the sums for
	# all three; make check-full boots all three).
	mults=("$2")
	logs=("$build/pelt-test-$2.log")
	vxu4_boot "pelt-$2"
	echo "(console log: build/pelt-test-$2.log)"
elif [ $# -eq 3 ]; then
	logs=("$@")
elif [ $# -eq 0 ]; then
	# Two boots at once, then the third (each QEMU under icount uses one
	# host core; guest time is the instruction count, so the host's load
	# does not change what the guest measures).
	pids=()
	for m in "${mults[@]}"; do
		l=$build/pelt-test-$m.log
		logs+=("$l")
		vxu4_boot "pelt-$m" &
		pids+=($!)
		if [ ${#pids[@]} -eq 2 ]; then
			wait "${pids[0]}"
			pids=("${pids[1]}")
		fi
	done
	wait "${pids[@]}"
	echo "(console logs: build/pelt-test-{1,2,4}.log)"
else
	echo "usage: $0 [--multiplier 1|2|4 | LOG_1 LOG_2 LOG_4]" >&2
	exit 2
fi

# one PELT period, %: 1/32 of the half-life (the limit of both step checks)
period_pct=3.125
steady_1=
for i in "${!mults[@]}"; do
	m=${mults[$i]}
	log=${logs[$i]}
	hl=$(awk -v m="$m" 'BEGIN { printf "%.3f", 32 * 1.048576 / m }')
	name="sched_pelt_multiplier=$m"
	if ! grep -qx "@end" <<<"$(tr -d '\r' <"$log")"; then
		nok "$name: guest booted and reported" "no @end in $log"
		continue
	fi
	ok "$name: guest booted and reported"
	expect "$name: /proc/sys/kernel/sched_pelt_multiplier" "$m" \
		"$(at pelt | value multiplier)"
	step=$(at pelt_step)
	echo "$name: $step"
	rise=$(echo "$step" | value rise_ms)
	decay=$(echo "$step" | value decay_ms)
	u0=$(echo "$step" | value u0)
	top_u=$(echo "$step" | value top)
	if [ -z "$rise" ] || [ -z "$u0" ] || [ "$u0" -gt 256 ] ||
	   [ "$rise" = "-1.00" ]; then
		nok "$name: util_avg from 0 to 512 while running" \
			"no step response, or util_avg at the first read not near 0: $step"
	else
		within "$name: util_avg from 0 to 512 while running, ms (half-life $hl ms)" \
			"$hl" "$rise" "$period_pct"
	fi
	# From TOP, an exponential reaches 512 after hl * log2(TOP / 512).
	if [ -z "$decay" ] || [ "$decay" = "-1.00" ] || [ -z "$top_u" ] || [ "$top_u" -lt 1000 ]; then
		nok "$name: util_avg from its top back to 512 asleep" \
			"no decay measured, or the run's top under 1000: $step"
	else
		want=$(awk -v h="$hl" -v t="$top_u" 'BEGIN { printf "%.2f", h * log(t / 512) / log(2) }')
		within "$name: util_avg from $top_u back to 512 asleep, ms (half-life $hl ms: $want ms)" \
			"$want" "$decay" "$period_pct"
	fi
	steady=$(at pelt_steady)
	echo "$name: periodic task: $steady"
	avg=$(echo "$steady" | value avg)
	periods=$(echo "$steady" | value periods)
	if [ -z "$avg" ] || [ -z "$periods" ] || [ "$periods" -lt 100 ]; then
		nok "$name: periodic task's time-averaged util_avg" "too few periods measured: $steady"
	elif [ "$m" = 1 ]; then
		steady_1=$avg
		# The level itself: 4 ms of the reference's work every 16 ms
		# (25%, and its trace markers); the others are compared to it.
		ok "$name: periodic task's time-averaged util_avg $avg (min $(echo "$steady" | value min), max $(echo "$steady" | value max))"
	elif [ ${#mults[@]} -eq 1 ]; then
		ktap_skip "$name: periodic task's time-averaged util_avg as with multiplier 1 ($avg)" \
			"one multiplier booted (make check-full boots all three)"
	elif [ -z "$steady_1" ]; then
		nok "$name: periodic task's time-averaged util_avg as with multiplier 1" \
			"no level measured with multiplier 1"
	else
		within "$name: periodic task's time-averaged util_avg as with multiplier 1 (min $(echo "$steady" | value min), max $(echo "$steady" | value max))" \
			"$steady_1" "$avg" 3
	fi
done
finish
