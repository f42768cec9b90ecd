#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make eas-behaviour: LISA's EAS behaviour tests on the virtual XU4 (EAS
# on, schedutil, guest time from QEMU's instruction count), each judged
# against the EM-optimal placement of the same task utils, with the
# metered energy beside it: one boot, the registry's [boot.eas-behaviour]
# made by tools/testing/vxu4/suites/boot.py (vxu4.mode=eas-behaviour, the
# guest's tools/testing/vxu4/guest/eas-behaviour, running the rt-app
# files that make initramfs wrote from the tests' modules,
# tools/testing/vxu4/eas_behaviour; the results disk and the log given
# here), then tools/testing/vxu4/suites/eas-behaviour.py (the traces read
# with libtracecmd).
#
#   tools/testing/vxu4/suites/eas-behaviour-test.sh [--ktap]
#
# --ktap (make check-full, make eas-behaviour: the list's suite): KTAP, one
# result per test by name, the table as its diagnostics; the boot's log
# is build/eas-behaviour.log, the results build/eas-behaviour-check/.
# Else the table and the details, results in build/eas-behaviour/<date>/
# (console.log, results.img: the guest's disk, report.txt, summary.json,
# <test>.png, eb/: the trace.dat, the EM's debugfs copy, rt-app's logs).
#
# Environment: TESTS=A,B (only those tests), VXU4_TIMEOUT (s, default
# the registry's timeout, 2400), VXU4_TIME_SCALE (the guest's time scale
# K, as for every boot: scripts/vxu4.sh; at K = 1 a small task's util_avg
# sat 26 above its duty, docs/findings/eas-behaviour.md); KERNEL=NAME (a
# variant of the board's kernel: build/obj-NAME,
# the board's config plus tools/testing/vxu4/board/NAME.config, built first by
# kernel-variant.sh; nolockdebug: without lock debugging).
set -euo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
ktap=
[ "${1:-}" = --ktap ] && ktap=--ktap

bad() { echo "eas-behaviour-test.sh: $*" >&2; exit 2; }
# The settings read once and checked before the boot
# (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
env_prog=eas-behaviour-test.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
tests=$(env_match TESTS "" '[A-Za-z,]*' "test names separated by commas") || exit
VXU4_TIME_SCALE=$(env_scale) || exit
export VXU4_TIME_SCALE
# VXU4_TIMEOUT when given (boot.py takes the caller's before the registry's).
if [ -n "${VXU4_TIMEOUT:-}" ]; then
	VXU4_TIMEOUT=$(env_int VXU4_TIMEOUT 2400 1 1000000 "seconds before the boot is stopped") || exit
	export VXU4_TIMEOUT
fi
for f in "$build/obj/arch/arm/boot/zImage" "$build/trace-events" "$top/tools/power/eas/eas-em"; do
	[ -f "$f" ] || bad "$f is missing: run 'make eas-behaviour' (it builds it)"
done
kernel=()
if [ -n "${KERNEL:-}" ]; then
	kernel=(--kernel "$("$top/tools/testing/vxu4/board/kernel-variant.sh" "$KERNEL")") || exit
fi

if [ -n "$ktap" ]; then
	log=$build/eas-behaviour.log out=$build/eas-behaviour-check
	rm -rf "$out"
else
	out=$build/eas-behaviour/$(date +%Y%m%d-%H%M%S)
	log=$out/console.log
	echo "==> EAS behaviour tests on the virtual XU4, results in ${out#"$top"/}"
fi
mkdir -p "$out"
# The guest's results disk: its tar archive of the traces and logs.
disk=$out/results.img
rm -f "$disk"
truncate -s 256M "$disk"
t0=$(date +%s)
rc=0
"$top/tools/testing/vxu4/suites/boot.py" eas-behaviour --disk "$disk" --log "$log" "${kernel[@]}" \
	${tests:+vxu4.tests=$tests} || rc=$?
[ "$rc" -eq 0 ] || echo "eas-behaviour-test.sh: the boot failed (exit $rc, log ${log#"$top"/})" >&2
[ -n "$ktap" ] || echo "==> boot done in $(($(date +%s) - t0)) s"
"$top/tools/testing/vxu4/suites/eas-behaviour.py" $ktap "$log" "$disk" "$out"
