#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Smoke test of the reference experiments' pipeline (make bench), from the
# system test's boot, which ran scripts/guest/bench for 1 iteration with
# 4 rt-app tasks for 2 s and hackbench -l 1: every run measured positive
# energy on both cluster meters, EAS was on and then off (the kernel's
# own "stopping EAS" / "starting EAS"), and bench-report.py made its
# tables, CSV, JSON and plot.
#
# Usage: bench-smoke.sh [CONSOLE_LOG]   (default: build/system-test.log)

set -uo pipefail

suite='bench smoke'
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
log=${1:-$top/build/system-test.log}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

errors=$(at bench_error)
if [ -z "$errors" ]; then ok "the guest bench reported no error"; else nok "the guest bench reported no error" "$errors"; fi

for eas in 1 0; do
	r=$(at bench | grep "^rtapp .* eas=$eas ")
	if [ -z "$r" ]; then
		nok "rt-app ran with EAS $eas" "no '@bench rtapp ... eas=$eas' line"
		continue
	fi
	for m in a7 a15; do
		e=$(echo "$r" | tr ' ' '\n' | sed -n "s/^energy_${m}_uj=//p")
		if [ "${e:-0}" -gt 0 ] 2>/dev/null; then
			ok "rt-app, EAS $eas: $m meter measured $e uJ"
		else
			nok "rt-app, EAS $eas: $m meter measured energy" "energy_${m}_uj=$e"
		fi
	done
	h=$(at bench | grep "^hackbench .* eas=$eas ")
	if [ -n "$h" ]; then ok "hackbench ran with EAS $eas"; else nok "hackbench ran with EAS $eas"; fi
done

seq=$(at bench_dmesg | grep -o "stopping EAS\|starting EAS" | paste -sd,)
case "$seq" in
*"stopping EAS,starting EAS"*) ok "EAS was turned off and on again (kernel: $seq)" ;;
*) nok "EAS was turned off and on again" "kernel said: ${seq:-nothing}" ;;
esac

if python3 "$top/scripts/bench-report.py" "$log" "$out" >"$out/report.txt" 2>&1 &&
   grep -q "energy total" "$out/report.txt" && [ -s "$out/runs.csv" ] &&
   python3 -m json.tool "$out/summary.json" >/dev/null; then
	ok "bench-report.py made the tables, runs.csv and summary.json"
else
	nok "bench-report.py made the tables, runs.csv and summary.json" "$(cat "$out/report.txt")"
fi

finish
