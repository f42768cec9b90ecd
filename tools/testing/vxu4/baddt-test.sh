#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad device trees: the kernel and the host tool agree. The virtual XU4
# boots with broken CPU data, one case at a time (each a copy of
# build/vxu4.dtb changed with fdtput); for each, the kernel must neither
# crash nor warn with a backtrace, and what it did must be what
# tools/power/eas/eas-em predicts from the same DTB:
#
#   - the EM in debugfs, file by file, equals 'eas-em compute --registered
#     --format=debugfs' (the perf domains the kernel registers; none when
#     it predicts none);
#   - each CPU's capacity equals the capacity eas-em gives its perf domain;
#   - EAS is on exactly when 'eas-em check' says it can start, and when it
#     cannot, the kernel's own reason (sched_verbose) is the one eas-em
#     quotes;
#   - with no cpufreq policy at all, make run's report says that
#     cpufreq-dt did not probe, and prints no raw shell errors.
#
# Usage: baddt-test.sh [CASE...]   (default: every case; two boots at a
# time, each one's console in build/baddt/CASE.log)

set -uo pipefail

. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$top/build
dir=$build/baddt
E=$top/tools/power/eas/eas-em
base=$build/vxu4.dtb
A15_OPPS=/opp-table-0
A7_OPPS=/opp-table-1

CASES=(coeff-missing coeff-zero coeff-overflow opp-novolt cap-missing
       one-opp equal-cap no-policy)

# describe CASE: what the case breaks
describe() {
	case $1 in
	coeff-missing) echo "no dynamic-power-coefficient on cpu4, the A15 policy CPU" ;;
	coeff-zero) echo "dynamic-power-coefficient 0 on the A7s" ;;
	coeff-overflow) echo "A15 dynamic-power-coefficient 30000: power above the EM's 64 W" ;;
	opp-novolt) echo "no opp-microvolt on the A15's 900 MHz OPP" ;;
	cap-missing) echo "no capacity-dmips-mhz on cpu0 (clock-frequency 1 / 1.8 GHz): arm32's table_efficiency" ;;
	one-opp) echo "an A7 OPP table of one OPP (1.4 GHz)" ;;
	equal-cap) echo "capacity-dmips-mhz 1000 (A7) and 700 (A15): equal capacities" ;;
	no-policy) echo "every CPU's operating-points-v2 points to no node: no cpufreq policy" ;;
	esac
}

# make_dtb CASE OUT: the base DTB with CASE's change
make_dtb() {
	local c o
	cp "$base" "$2" || return 1
	case $1 in
	coeff-missing) fdtput -d "$2" /cpus/cpu@4 dynamic-power-coefficient ;;
	coeff-zero)
		for c in 0 1 2 3; do
			fdtput -t u "$2" "/cpus/cpu@$c" dynamic-power-coefficient 0 || return 1
		done ;;
	coeff-overflow)
		for c in 4 5 6 7; do
			fdtput -t u "$2" "/cpus/cpu@$c" dynamic-power-coefficient 30000 || return 1
		done ;;
	opp-novolt) fdtput -d "$2" "$A15_OPPS/opp-900000000" opp-microvolt ;;
	cap-missing)
		for c in 0 1 2 3; do
			fdtput -t u "$2" "/cpus/cpu@$c" clock-frequency 1000000000 || return 1
		done
		for c in 4 5 6 7; do
			fdtput -t u "$2" "/cpus/cpu@$c" clock-frequency 1800000000 || return 1
		done
		fdtput -d "$2" /cpus/cpu@0 capacity-dmips-mhz ;;
	one-opp)
		for o in $(fdtget -l "$2" "$A7_OPPS"); do
			[ "$o" = opp-1400000000 ] || fdtput -r "$2" "$A7_OPPS/$o" || return 1
		done ;;
	equal-cap)
		for c in 0 1 2 3; do
			fdtput -t u "$2" "/cpus/cpu@$c" capacity-dmips-mhz 1000 || return 1
		done
		for c in 4 5 6 7; do
			fdtput -t u "$2" "/cpus/cpu@$c" capacity-dmips-mhz 700 || return 1
		done ;;
	no-policy)
		for c in 0 1 2 3 4 5 6 7; do
			fdtput -t x "$2" "/cpus/cpu@$c" operating-points-v2 dead || return 1
		done ;;
	*) return 1 ;;
	esac
}

# These boots judge the EM and EAS, no timing.
boot() {
	"$top/tools/testing/vxu4/boot.py" baddt --dtb "$dir/$1.dtb" --log "$dir/$1.log" \
		2>"$dir/$1.err"
}

[ -f "$base" ] || { echo "no $base: run make run first" >&2; exit 2; }
[ -x "$E" ] || { echo "no $E: run make tools first" >&2; exit 2; }
[ $# -gt 0 ] && CASES=("$@")
mkdir -p "$dir"
for c in "${CASES[@]}"; do
	make_dtb "$c" "$dir/$c.dtb" || { echo "cannot make the DTB of case '$c' (fdtput)" >&2; exit 2; }
	rm -f "$dir/$c.log"
done

# Two boots at a time: under icount each QEMU uses one host core.
pids=()
for c in "${CASES[@]}"; do
	boot "$c" &
	pids+=($!)
	if [ ${#pids[@]} -ge 2 ]; then
		wait "${pids[0]}"
		pids=("${pids[@]:1}")
	fi
done
wait

for c in "${CASES[@]}"; do
	log=$dir/$c.log
	what="$c ($(describe "$c"))"
	if ! grep -qx "@end" <<<"$(tr -d '\r' <"$log" 2>/dev/null)"; then
		nok "$what: the guest booted and reported" "no @end in $log" "$(tail -5 "$log" 2>/dev/null)"
		continue
	fi
	ok "$what: the guest booted and reported"

	# No crash, no warning with a backtrace
	splat=$(tr -d '\r' <"$log" | grep -E "WARNING:|BUG:|Oops|Unable to handle|Call trace:|Backtrace:|Division by zero|Kernel panic" | head -5)
	if [ -z "$splat" ]; then
		ok "$what: no warning, backtrace or crash in the kernel log"
	else
		nok "$what: no warning, backtrace or crash in the kernel log" "$splat"
	fi

	# The EM: what eas-em predicts the kernel registers
	want=$("$E" compute --registered --format=debugfs "$dir/$c.dtb" 2>/dev/null)
	got=$(at em | LC_ALL=C sort)
	if [ "$want" = "$got" ]; then
		n=$(echo "$got" | grep -c "/cpus ")
		ok "$what: the EM in debugfs is eas-em's prediction, file by file ($n perf domains with an EM)"
	else
		nok "$what: the EM in debugfs is eas-em's prediction, file by file" \
			"$(diff <(echo "$want") <(echo "$got") | head -8)"
	fi

	# Capacities: each CPU of a perf domain with an EM has its capacity
	pds=$("$E" compute --registered "$dir/$c.dtb" 2>/dev/null |
		sed -n 's/^perf domain [^:]*: cpus \([0-9]*\)-\([0-9]*\), capacity \([0-9]*\),.*/\1 \2 \3/p')
	bad=
	while read -r lo hi cap; do
		[ -n "$lo" ] || continue
		for ((cpu = lo; cpu <= hi; cpu++)); do
			k=$(at capacity | value capacity "cpu=$cpu")
			[ "$k" = "$cap" ] || bad+="cpu$cpu: $k, eas-em $cap; "
		done
	done <<<"$pds"
	if [ -z "$bad" ]; then
		caps=$(echo "$pds" | awk 'NF { printf "%scpus %s-%s: %s", s, $1, $2, $3; s = ", " }')
		ok "$what: capacities are eas-em's (${caps:-no perf domain with an EM, nothing to compare})"
	else
		nok "$what: capacities are eas-em's" "$bad"
	fi

	# EAS: on exactly when eas-em check says it can start; if not, the
	# kernel's reason is the one eas-em quotes
	eas=$("$E" check "$dir/$c.dtb" 2>/dev/null | grep ": EAS: ")
	dm=$(at dmesg)
	started=$(echo "$dm" | grep -c "sched_energy_set: starting EAS")
	if grep -q "EAS: can start" <<<"$eas"; then
		if [ "$started" -gt 0 ]; then
			ok "$what: EAS started, as eas-em check predicts"
		else
			nok "$what: EAS started, as eas-em check predicts" "eas-em: ${eas#*: }" \
				"kernel: $(echo "$dm" | grep -E "EAS|pd_init" | head -3)"
		fi
		continue
	fi
	if [ "$started" -eq 0 ]; then
		ok "$what: EAS did not start, as eas-em check predicts"
	else
		nok "$what: EAS did not start, as eas-em check predicts" "eas-em: ${eas#*: }"
	fi
	# the kernel message eas-em quotes, without its "rd ...: " prefix
	reason=$(echo "$eas" | grep -o '("[^"]*" with sched_verbose)' | head -1 |
		sed 's/^("//; s/" with sched_verbose)$//; s/^rd \.\.\.: //')
	if [ -n "$reason" ]; then
		if grep -qF "$reason" <<<"$dm"; then
			ok "$what: the kernel's reason is eas-em's: $reason"
		else
			nok "$what: the kernel's reason is eas-em's: $reason" \
				"kernel: $(echo "$dm" | grep -E "EAS|pd_init" | head -3)"
		fi
	elif grep -q "without cpufreq-dt policies" <<<"$eas"; then
		n=$(at policy | grep -c .)
		expect "$what: no cpufreq policy, as eas-em check predicts" 0 "$n"
		report=$(tr -d '\r' <"$log")
		if grep -q "cpufreq-dt did not probe for any CPU" <<<"$report"; then
			ok "$what: make run's report says cpufreq-dt did not probe"
		else
			nok "$what: make run's report says cpufreq-dt did not probe" \
				"$(echo "$report" | grep -A3 "^EAS: off")"
		fi
		raw=$(echo "$report" | grep -E "can't open|No such file" | head -3)
		if [ -z "$raw" ]; then
			ok "$what: the report prints no raw shell errors"
		else
			nok "$what: the report prints no raw shell errors" "$raw"
		fi
	else
		nok "$what: eas-em check gives the kernel's reason" "eas-em: ${eas#*: }"
	fi
done
finish
