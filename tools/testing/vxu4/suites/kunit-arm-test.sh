#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites of the series that need no board, run the way kernel
# developers run KUnit: the kernel's own tools/testing/kunit/kunit.py
# builds a small kernel from the suites' .kunitconfig files
# (kernel/power: the EM; drivers/clk: the clk framework's suites and the
# emulated cluster clock; kernel/sched: PELT; drivers/cpuidle: the mbed
# governor; drivers/cpufreq: the boost budget) and boots it on QEMU's
# "virt" machine.
#
#   tools/testing/vxu4/suites/kunit-arm-test.sh
#
# Its object folder is build/kunit-arm (the same sources as the board's
# kernel, the same ccache); the raw KTAP goes to build/kunit-arm.log and is
# judged by kunit-boot-test.py --arm: the board-free suites pass every case,
# the board's suites of ours skip with their reason (no Exynos5422 CPUs,
# no capacities to compare on a one-CPU virt). Prints KTAP.
#
# Needs: make kernel (the patched source in build/linux-source-6.12),
# qemu-system-arm, the arm-linux-gnueabihf- cross compiler, ccache.

set -uo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
ksrc=$build/linux-source-6.12
log=$build/kunit-arm.log
prog=${0##*/}

die() { printf '%s: error: %s\n' "$prog" "$*" >&2; exit 2; }

[ -f "$ksrc/tools/testing/kunit/kunit.py" ] ||
	die "no kernel source in $ksrc: run 'make kernel' first"
for k in kernel/power/.kunitconfig drivers/clk/.kunitconfig kernel/sched/.kunitconfig \
	drivers/cpuidle/.kunitconfig drivers/cpufreq/.kunitconfig; do
	grep -q _KUNIT_TEST "$ksrc/$k" 2>/dev/null ||
		die "$ksrc/$k lacks the series' suites: run 'make kernel' (it applies the series)"
done
command -v qemu-system-arm >/dev/null || die "qemu-system-arm is missing (make deps)"
command -v arm-linux-gnueabihf-gcc >/dev/null ||
	die "arm-linux-gnueabihf-gcc is missing (make deps)"
command -v ccache >/dev/null || die "ccache is missing (make deps)"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
start=$SECONDS
# kunit.py runs from the source tree and builds out of it (O=).
(cd "$ksrc" && python3 tools/testing/kunit/kunit.py run --arch=arm \
	--cross_compile=arm-linux-gnueabihf- \
	--make_options="CC=ccache arm-linux-gnueabihf-gcc" \
	--build_dir="$build/kunit-arm" --jobs="$(nproc)" --timeout=600 \
	--kunitconfig=kernel/power --kunitconfig=drivers/clk --kunitconfig=kernel/sched \
	--kunitconfig=drivers/cpuidle --kunitconfig=drivers/cpufreq \
	--raw_output=kunit) >"$log" 2>"$log.err"
rc=$?
echo "$prog: kunit.py run --arch=arm: exit $rc in $((SECONDS - start)) s, raw KTAP in build/kunit-arm.log" >&2
if [ "$rc" -ne 0 ] || ! grep -q '^KTAP version' "$log"; then
	tail -20 "$log.err" >&2
	echo "KTAP version 1"
	echo "1..1"
	echo "not ok 1 kunit.py run --arch=arm built and booted the suites (exit $rc; see build/kunit-arm.log.err)"
	exit 1
fi
exec "$top/tools/testing/vxu4/suites/kunit-boot-test.py" --ksrc "$ksrc" --arm "$log"
