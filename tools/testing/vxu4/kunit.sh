#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites built into the kernel ran at boot in the system test's
# boot (kunit.enable=1); the guest printed each suite's KTAP from debugfs
# as "@ktap" lines. Every KUNIT_CASE() of our test sources must have run
# and passed: a failed, skipped or missing case is a failure.
#
# energy_model_cpu_mask needs CPUs without EMs: its cases are taken from
# the no-EM boot's log (noem-test.sh); in the first log it is skipped.
#
# Usage: kunit.sh [CONSOLE_LOG [NOEM_LOG]]
#   (defaults: build/system-test.log, build/noem-test.log)

set -uo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
log=${1:-$top/build/system-test.log}
noem_log=${2:-$top/build/noem-test.log}
sources=(drivers/clk/clk-virt-cluster_test.c kernel/power/energy_model_test.c)
passed=0
failed=0

if [ ! -f "$log" ]; then
	echo "not ok - no console log $log: run tools/testing/vxu4/system-test.sh first"
	echo "kunit: 0 passed, 1 failed"
	exit 1
fi
ktap=$(tr -d '\r' <"$log" | sed -n 's/^@ktap //p')
noem_ktap=$(tr -d '\r' <"$noem_log" 2>/dev/null | sed -n 's/^@ktap //p')
if [ -z "$ktap" ]; then
	echo "not ok - no KTAP in $log: was the kernel booted with kunit.enable=1?"
	echo "kunit: 0 passed, 1 failed"
	exit 1
fi

# Test case lines are indented once: "    ok 3 name" / "    not ok 3 name # ..."
for src in "${sources[@]}"; do
	for c in $(sed -n 's/^[[:space:]]*KUNIT_CASE(\([a-z0-9_]*\)),/\1/p' "$top/$src"); do
		k=$ktap
		case "$c" in em_cpu_mask_*) k=$noem_ktap ;; esac
		line=$(echo "$k" | grep -E "^    (not )?ok [0-9]+ $c( |$)")
		case "$line" in
		"    ok "*"# SKIP"*)
			echo "not ok - $c skipped: ${line#*# SKIP}"; failed=$((failed + 1)) ;;
		"    ok "*)
			echo "ok - kunit $c"; passed=$((passed + 1)) ;;
		"")
			echo "not ok - $c did not run ($src)"; failed=$((failed + 1)) ;;
		*)
			echo "not ok - $c failed:"
			# The case's diagnostics come before its result line.
			echo "$k" | awk -v c="$c" '/^        # /{d = d "\n" $0} /^    (not )?ok /{if ($0 ~ " " c "( |$)") print d; d = ""}' |
				sed '/^$/d'
			failed=$((failed + 1)) ;;
		esac
	done
done
{ echo "$ktap" | grep -v "^# energy_model_cpu_mask:"; echo "$noem_ktap" | grep "^# energy_model_cpu_mask:" | sed 's/\(# [^:]*\):/\1 (no-EM boot):/'; } |
	grep -v '^# Totals' | sed -n 's/^# \([^:]*\): pass:\([0-9]*\) fail:\([0-9]*\) skip:\([0-9]*\) total:\([0-9]*\)/    suite \1: \2 passed, \3 failed, \4 skipped of \5/p'
echo "kunit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
