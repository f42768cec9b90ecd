#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad device trees: the kernel and the host tool agree. The virtual XU4
# boots with broken CPU data, one case at a time (each a copy of
# build/vxu4.dtb made by dtb-variant.sh); for each, the kernel must neither
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

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
dir=$build/baddt
E=$top/tools/power/eas/eas-em
base=$build/vxu4.dtb

CASES=(coeff-missing coeff-zero coeff-overflow opp-novolt cap-missing
       one-opp equal-cap no-policy)

# The cases' DTBs (each described by dtb-variant.sh --describe CASE).
variant=$top/tools/testing/vxu4/board/dtb-variant.sh
describe() { "$variant" --describe "$1"; }

# These boots judge the EM and EAS, no timing.
boot() {
	"$top/tools/testing/vxu4/suites/boot.py" baddt --dtb "$dir/$1.dtb" --log "$dir/$1.log" \
		2>"$dir/$1.err"
}

[ -f "$base" ] || { echo "no $base: run make run first" >&2; exit 2; }
[ -x "$E" ] || { echo "no $E: run make tools first" >&2; exit 2; }
[ $# -gt 0 ] && CASES=("$@")
mkdir -p "$dir"
for c in "${CASES[@]}"; do
	"$variant" "$c" "$base" "$dir/$c.dtb" || exit 2
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
