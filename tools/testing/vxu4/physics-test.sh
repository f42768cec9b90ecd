#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The virtual XU4's physics, from the "@dilate", "@util", "@meter" and
# "@speed" lines of the system test's boot (scripts/guest/init, physics):
#  - time dilation: a fixed amount of work pinned on each cluster at
#    several OPPs takes 1024 * fmax / (capacity * f) times its time on a
#    big CPU at fmax, within 10%;
#  - util invariance: a periodic task's util_avg is the same on both
#    clusters and at different OPPs, within 5%;
#  - power meters: one CPU 100% busy at a pinned OPP for T adds
#    P(OPP) * T to its cluster's energy, within 2%; the idle cluster adds
#    only its static part (0 in the virtual XU4's DT), within 1% of that.
# Capacities, fmax and P(OPP) come from eas-em's computation of the
# board DTB, not from this file.
#
# Usage: physics-test.sh [CONSOLE_LOG]   (default: build/system-test.log)

set -uo pipefail

suite=physics
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
log=${1:-$top/build/system-test.log}
board_dtb=$top/build/obj/arch/arm/boot/dts/samsung/exynos5422-odroidxu4.dtb
eas_em=$top/tools/power/eas/eas-em
# within NAME EXPECTED ACTUAL TOLERANCE_PERCENT
within() {
	if awk -v e="$2" -v a="$3" -v t="$4" 'BEGIN { d = (a - e) / e; exit !(d <= t / 100 && d >= -t / 100) }'; then
		ok "$1: $3, expected $2 (within $4%)"
	else
		nok "$1" "expected $2 within $4%, got $3"
	fi
}

if [ ! -f "$log" ] || [ -z "$(at dilate)" ]; then
	nok "the guest measured its physics" "no @dilate lines in $log$(at physics | sed 's/^/: /')"
	finish
fi

# Per CPU: "capacity fmax_khz" of its perf domain.
em=$("$eas_em" compute --format=json "$board_dtb" | python3 -c '
import json, sys
for pd in json.load(sys.stdin)["perf_domains"]:
    for c in pd["cpus"]:
        print(c, pd["capacity"], pd["states"][-1]["frequency_khz"],
              " ".join("%d:%d" % (s["frequency_khz"], s["power_uw"]) for s in pd["states"]))')
cap() { echo "$em" | awk -v c="$1" '$1 == c { print $2 }'; }
fmax() { echo "$em" | awk -v c="$1" '$1 == c { print $3 }'; }
power() { echo "$em" | awk -v c="$1" -v f="$2" '$1 == c { for (i = 4; i <= NF; i++) { split($i, s, ":"); if (s[1] == f) print s[2] } }'; }

# --- time dilation
ref=$(at dilate | awk '$1 == "cpu4" && $2 == "2000000" { sub("wall_ns=", "", $4); print $4 }')
while read -r cpu khz loops wall runtime; do
	c=${cpu#cpu}
	wall=${wall#wall_ns=}
	runtime=${runtime#runtime_ns=}
	want=$(awk -v r="$ref" -v cap="$(cap "$c")" -v f="$khz" -v fm="$(fmax "$c")" \
		'BEGIN { printf "%.0f", r * 1024 * fm / (cap * f) }')
	[ "$cpu $khz" = "cpu4 2000000" ] && continue
	within "$cpu at $khz kHz: fixed work's wall time (ns)" "$want" "$wall" 10
	# The stall is the task's run time, as a slower clock's cycles are.
	within "$cpu at $khz kHz: the task's runtime covers the wall time (ns)" "$wall" "$runtime" 10
done < <(at dilate)

# --- util invariance
uref=$(at util | awk '$1 == "cpu4" && $2 == "2000000" { sub("util_avg=", "", $3); print $3 }')
while read -r cpu khz util periods overruns; do
	util=${util#util_avg=}
	[ "${overruns#overruns=}" -eq 0 ] 2>/dev/null ||
		nok "$cpu at $khz kHz: the periodic task kept its period" "$overruns of ${periods#periods=}"
	[ "$cpu $khz" = "cpu4 2000000" ] && continue
	within "$cpu at $khz kHz: util_avg equals cpu4's at 2000000 kHz" "$uref" "$util" 5
done < <(at util)
if [ "${uref:-0}" -gt 50 ] 2>/dev/null; then
	ok "the periodic task's util_avg is about 10% of 1024 ($uref)"
else
	nok "the periodic task's util_avg is about 10% of 1024" "got $uref"
fi

# --- power meters: a15 busy on cpu5 at 1000 MHz for the spin's wall time
while read -r label e0 e1 wall; do
	wall=${wall#wall_ns=}
	de=$((e1 - e0))
	case "$label" in
	a15)
		p=$(power 5 1000000)
		want=$(awk -v p="$p" -v w="$wall" 'BEGIN { printf "%.0f", p * w / 1e9 }')
		within "a15 meter: one CPU busy at 1000000 kHz ($p uW) for $wall ns adds P*T (uJ)" "$want" "$de" 2
		busy=$de ;;
	a7)
		idle=$de ;;
	esac
done < <(at meter)
if [ -n "${idle:-}" ] && [ -n "${busy:-}" ] &&
   awk -v i="$idle" -v b="$busy" 'BEGIN { exit !(i >= 0 && i <= b / 100) }'; then
	ok "a7 meter: the idle cluster adds only its static part (0): $idle uJ"
else
	nok "a7 meter: the idle cluster adds only its static part (0)" "a7 added ${idle:-?} uJ, a15 ${busy:-?} uJ"
fi

# --- the dilation the driver achieved, per CPU (information)
at speed | awk 'NR > 1 && $3 > 0 {
	printf "    cpu%s: work %.2f s, stall %.2f s, dilation %.2fx, dropped (kthreads) %.3f s\n",
		$1, $3 / 1e9, $4 / 1e9, ($3 + $4) / $3, $5 / 1e9 }'

finish
