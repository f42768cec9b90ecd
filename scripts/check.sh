#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test, then one closing line "N passed, N failed".
#
#   1. host tests of the EM tool (tools/power/eas)
#   2. static checks: checkpatch --strict on our C files and patches
#   3. the system test: boot the virtual XU4 and compare what the kernel
#      built with what the host tool computes from the XU4 DTB
#   4. the virtual board's physics, measured in that same boot: time
#      dilation, util invariance, power meters (measured once more, in a
#      boot of their own, if a check fails or the host was too busy to
#      judge the timings)
#   5. the reference experiments' pipeline, in small, in that boot too
#   6. a second boot, of the board without dynamic-power-coefficient: no
#      EM, EAS off and the kernel's reason
#   7. the KUnit suites, run at boot in those boots (KTAP from debugfs)
#
# Each suite prints its own "N passed, N failed"; this adds them up.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=$top/build
ksrc=$build/linux-source-6.12
passed=0
failed=0
suites_failed=()

# Run a suite, show its output, add its closing counts to ours.
suite() {
	local name=$1 out rc counts
	shift
	echo
	echo "### $name"
	out=$(mktemp)
	"$@" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	counts=$(grep -E '^([A-Za-z][A-Za-z -]*: )?[0-9]+ passed, [0-9]+ failed' "$out" | tail -1)
	rm -f "$out"
	if [ -z "$counts" ]; then
		echo "not ok - $name printed no 'N passed, N failed' line (exit $rc)"
		failed=$((failed + 1))
		suites_failed+=("$name")
		return
	fi
	counts=${counts#*: }
	local p=${counts%% passed*} f=${counts#*passed, }
	f=${f%% failed*}
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then
		suites_failed+=("$name")
		# A suite that failed without counting a failure still counts one.
		[ "$f" -ne 0 ] || failed=$((failed + 1))
	fi
}

checkpatch() {
	local p=0 f=0 file
	local files=()
	mapfile -t files < <(git ls-files 'drivers/*.[ch]' 'include/*.h' 'kernel/*.[ch]' \
		'arch/*.[ch]' 'scripts/*.c' 'tools/*.[ch]' 'patches/*.patch')
	for file in "${files[@]}"; do
		local opt=(-f)
		case "$file" in
		*.patch) opt=() ;;
		# libFuzzer's entry point has to be called LLVMFuzzerTestOneInput.
		tools/power/eas/fuzz/*) opt=(-f --ignore CAMELCASE) ;;
		esac
		# Run from the kernel tree, as checkpatch expects.
		if out=$(cd "$ksrc" && ./scripts/checkpatch.pl --strict -q --no-summary \
				"${opt[@]}" "$top/$file" 2>&1) && [ -z "$out" ]; then
			echo "ok - checkpatch --strict $file"
			p=$((p + 1))
		else
			echo "not ok - checkpatch --strict $file"
			echo "$out" | sed 's/^/    /'
			f=$((f + 1))
		fi
	done
	echo "checkpatch: $p passed, $f failed"
	[ "$f" -eq 0 ]
}

# physics LOG: the physics measured in LOG's boot. A host slowed by others
# for most of a boot fails the timing checks; the test then shows them
# without judging them (it measures how busy the host was). When a check
# failed or was not judged, the physics are measured once more, in a boot
# of their own, and that try counts. Both tries are shown.
physics() {
	local first rc
	first=$(tools/testing/vxu4/physics-test.sh "$1")
	rc=$?
	if [ "$rc" -eq 0 ] && ! echo "$first" | grep -q '^- not judged'; then
		echo "$first"
		return
	fi
	echo "$first" | sed 's/^/    first try: /'
	echo "# measuring the physics once more, in a boot of their own"
	rm -f "$build/physics.log"
	VXU4_LOG=$build/physics.log scripts/vxu4.sh boot vxu4.mode=physics >/dev/null
	tools/testing/vxu4/physics-test.sh "$build/physics.log"
}

suite "EM tool host tests" make -s -C tools/power/eas check
suite "checkpatch" checkpatch
suite "system test (virtual XU4)" tools/testing/vxu4/system-test.sh
# The physics, the bench smoke run and the KUnit suites ran in the system
# test's boot; their lines are in its log.
suite "physics of the virtual XU4" physics "$build/system-test.log"
suite "reference experiments, smoke" \
	tools/testing/vxu4/bench-smoke.sh "$build/system-test.log"
suite "virtual XU4 without EM (EAS off)" tools/testing/vxu4/noem-test.sh
# The KUnit suites ran in those two boots; their KTAP is in the logs.
suite "KUnit (at boot in the virtual XU4)" tools/testing/vxu4/kunit.sh \
	"$build/system-test.log" "$build/noem-test.log"

echo
if [ ${#suites_failed[@]} -ne 0 ]; then
	echo "failed suites: ${suites_failed[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
