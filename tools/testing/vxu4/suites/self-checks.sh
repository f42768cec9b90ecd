#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host-side judges' own checks, on made-up or computed inputs with
# known answers, that need no boot: eas-behaviour.py's (the fit margins,
# the optimal placement search against an exhaustive one, LISA's noise
# accounting, the known-failure rule, the trace reader's error) on the
# board DTB's EM, the workload library's (lib/workloads-test.py: the
# rt-app files' sizes, the EAS behaviour tests' workloads on the board
# DTB, the guest's placeholder filling, bad input), bench-report.py's
# statistics (the Mann-Whitney p of a change, the energy against the
# overutilized time) and its tables' layout, and the trace
# reader build/trace-events on a made trace.dat, whole, cut and corrupt
# (trace-events-test.sh), the host's reduction of the benches' traces
# (vxu4trace.py: busy time at each OPP, RampUp, a trace shipped in a log,
# whole, cut or garbled) on made-up traces with known answers
# (trace-test.py), make bench's configurations against their one
# definition (bench-configs-test.py: the file, docs/benches.md's table,
# bench-report.py's names, broken copies refused), and the static
# checks' own tests on throwaway
# inputs: commit-subjects.sh on a git repository of good and bad commits
# (tools/testing/commit-subjects-test.sh), dtb-variant.sh's variants of
# the board (each changes what it says) and refusals, kernel-variant.sh's refusal
# of a variant it has no fragment for, bench.sh's refusal of an
# argument it does not know, and what the benches, scripts/vxu4.sh and
# check.sh refuse before any boot (env-test.sh: every bad setting, HOSTS
# file, missing build file and broken entry of the registry of suites, in
# a copy of the scripts with fake build files and a stubbed QEMU); the
# test runner on a made-up registry (check-test.sh: its KTAP and closing
# line, its lanes, a judge after its boot, a log reused only when
# current); the cost model's judge (cycles-test.py --self-check: made-up
# fidelity logs, fork unpaid or overpaid, a loop charged past its counts
# or not paid in its window, a probe missing); and the host
# reports (bench-, boost-, idle-, pelt-, timescale-bench-report.py, vxu4log.py)
# on cut, garbled and impossible console logs, a bad OUT_DIR, --em JSON
# or stamps, stdout full or closed (reports-test.py). One KTAP document.
#
# Usage: self-checks.sh   (needs make vxu4 and make tools: the board
# DTB, build/vxu4.dtb, eas-em, build/trace-events)

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
dtb=$top/build/obj/arch/arm/boot/dts/samsung/exynos5422-odroidxu4.dtb

# judge NAME CMD...: CMD's "ok"/"not ok" lines as our results (prefixed
# NAME), its "#" lines as diagnostics; a non-zero exit with no failed
# result is a failure too.
# desc_of LINE: a KTAP result line's description (its number dropped).
desc_of() {
	local re='^(not )?ok ([0-9]* )?(.*)$'

	[[ $1 =~ $re ]] && echo "${BASH_REMATCH[3]}"
}

judge() {
	local name=$1 res rc line
	shift
	res=$("$@" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "$name: $(desc_of "$line")" ;;
		"not ok "*) nok "$name: $(desc_of "$line")" "$res" ;;
		esac
	done <<<"$res"
	if [ "$rc" -ne 0 ] && ! grep -q '^not ok ' <<<"$res"; then
		nok "$name ran" "exit $rc" "$res"
	fi
}

judge eas-behaviour.py "${vxu4py[@]}" "$top/tools/testing/vxu4/suites/eas-behaviour.py" --self-check "$dtb"
judge workloads "${vxu4py[@]}" "$top/tools/testing/vxu4/lib/workloads-test.py" "$dtb"
judge bench-report.py "${vxu4py[@]}" "$top/tools/testing/vxu4/benches/bench-report.py" --self-check
judge trace-events "$top/tools/testing/vxu4/lib/trace-events-test.sh"
judge vxu4trace "${vxu4py[@]}" "$top/tools/testing/vxu4/lib/trace-test.py"
judge bench-configs "${vxu4py[@]}" "$top/tools/testing/vxu4/benches/bench-configs-test.py"
judge commit-subjects "$top/tools/testing/commit-subjects-test.sh"
judge settings "$top/tools/testing/vxu4/suites/env-test.sh"
judge check.sh "$top/tools/testing/check-test.sh"
judge cycles-test.py "${vxu4py[@]}" "$top/tools/testing/vxu4/suites/cycles-test.py" --self-check

# --- The reports on bad input (reports-test.py: made-up logs, no boot) ---
judge reports "${vxu4py[@]}" "$top/tools/testing/vxu4/suites/reports-test.py"

# kernel-variant.sh (the benches' KERNEL=NAME): a name without a fragment
# is refused before any build, exit 2, naming the fragments there are.
err=$("$top/tools/testing/vxu4/board/kernel-variant.sh" nosuch 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && [[ $err == *"'nosuch' is no kernel variant"*" nolockdebug"* ]]; then
	ok "kernel-variant.sh nosuch: exit 2, names the variants there are"
else
	nok "kernel-variant.sh nosuch: exit 2, names the variants there are" "exit $rc" "$err"
fi

# dtb-variant.sh makes every variant of the board from build/vxu4.dtb:
# each changes what it says and nothing is left half made; a variant it
# does not know is refused, exit 2, naming those there are.
variant=$top/tools/testing/vxu4/board/dtb-variant.sh
vdtb=$top/build/vxu4.dtb
vtmp=$(mktemp -d)
# count DTB PROPERTY: how many CPU nodes of DTB have PROPERTY
count() {
	local c n=0
	for c in $(fdtget -l "$1" /cpus | grep '^cpu@'); do
		fdtget "$1" "/cpus/$c" "$2" >/dev/null 2>&1 && n=$((n + 1))
	done
	echo "$n"
}
if [ ! -f "$vdtb" ]; then
	nok "dtb-variant.sh: the board's variants" "no $vdtb: run make vxu4"
else
	"$variant" noem "$vdtb" "$vtmp/noem.dtb" &&
		"$variant" noem-nomc "$vdtb" "$vtmp/nomc.dtb" &&
		"$variant" boost "$vdtb" "$vtmp/boost.dtb" 2000000000 &&
		"$variant" idle "$vdtb" "$vtmp/idle.dtb" &&
		"$variant" one-opp "$vdtb" "$vtmp/one-opp.dtb"
	got="coefficients $(count "$vdtb" dynamic-power-coefficient)"
	got+=" noem $(count "$vtmp/noem.dtb" dynamic-power-coefficient)"
	got+=" cpu-map $(fdtget -l "$vtmp/noem.dtb" /cpus/cpu-map >/dev/null 2>&1 && echo y || echo n)"
	got+=" nomc $(count "$vtmp/nomc.dtb" dynamic-power-coefficient)"
	got+=" $(fdtget -l "$vtmp/nomc.dtb" /cpus/cpu-map >/dev/null 2>&1 && echo y || echo n)"
	a15=$(opp_table "$vdtb" 4)
	got+=" turbo $(for o in $(fdtget -l "$vtmp/boost.dtb" "$a15"); do
		fdtget "$vtmp/boost.dtb" "$a15/$o" turbo-mode >/dev/null 2>&1 && echo "$o"; done | paste -sd,)"
	got+=" idle-states $(count "$vtmp/idle.dtb" cpu-idle-states)/$(fdtget -l "$vtmp/idle.dtb" /cpus/idle-states | wc -l)"
	got+=" a7-opps $(fdtget -l "$vtmp/one-opp.dtb" "$(opp_table "$vdtb" 0)" | paste -sd,)"
	expect "dtb-variant.sh: noem, noem-nomc, boost, idle and a bad one change what they say" \
		"coefficients 8 noem 0 cpu-map y nomc 0 n turbo opp-2000000000 idle-states 8/4 a7-opps opp-1400000000" "$got"
	err=$("$variant" nosuch "$vdtb" "$vtmp/nosuch.dtb" 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && [[ $err == *"'nosuch' is no variant: want one of noem noem-nomc boost idle"* ]] &&
		[ ! -e "$vtmp/nosuch.dtb" ]; then
		ok "dtb-variant.sh nosuch: exit 2, names the variants there are, makes nothing"
	else
		nok "dtb-variant.sh nosuch: exit 2, names the variants there are, makes nothing" "exit $rc" "$err"
	fi
	err=$("$variant" boost "$vdtb" "$vtmp/bad.dtb" 123 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(echo "$err" | grep -c .)" -eq 1 ] && [[ $err == *"has no "*"/opp-123"* ]] &&
		[ -z "$(find "$vtmp" -name 'bad.dtb*')" ]; then
		ok "dtb-variant.sh boost at no OPP: exit 1, one line naming it, no half-made DTB"
	else
		nok "dtb-variant.sh boost at no OPP: exit 1, one line naming it, no half-made DTB" "exit $rc" "$err" \
			"$(ls "$vtmp")"
	fi
fi
rm -rf "$vtmp"

# bench.sh takes one argument, --seed (make bench-seed): anything else is
# refused before any boot, exit 2, naming what it takes.
err=$("$top/tools/testing/vxu4/benches/bench.sh" --sead 2>&1 >/dev/null)
rc=$?
if [ "$rc" -eq 2 ] && [[ $err == *"--sead: unknown argument"*"--seed"* ]]; then
	ok "bench.sh --sead: exit 2, names the argument it takes"
else
	nok "bench.sh --sead: exit 2, names the argument it takes" "exit $rc" "$err"
fi
finish
