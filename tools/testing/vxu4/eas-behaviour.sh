#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make eas-behaviour: LISA's EAS behaviour tests on the virtual XU4 (EAS
# on, schedutil, guest time from QEMU's instruction count), each judged
# against the EM-optimal placement of the same task utils, with the
# metered energy beside it: one boot (vxu4.mode=eas-behaviour, the guest's
# tools/testing/vxu4/guest/eas-behaviour), then
# tools/testing/vxu4/eas-behaviour.py (the traces read with libtracecmd).
#
#   tools/testing/vxu4/eas-behaviour.sh [--ktap]
#
# --ktap (make check-full, make eas-behaviour: the list's suite): KTAP, one
# result per test by name, the table as its diagnostics; the boot's log
# is build/eas-behaviour.log, the results build/eas-behaviour-check/.
# Else the table and the details, results in build/eas-behaviour/<date>/
# (console.log, results.img: the guest's disk, report.txt, summary.json,
# <test>.png, eb/: the trace.dat, the EM's debugfs copy, rt-app's logs).
#
# Environment: TESTS=A,B (only those tests), VXU4_TIMEOUT (s, default
# 2400).
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$top/build
ktap=
[ "${1:-}" = --ktap ] && ktap=--ktap

bad() { echo "eas-behaviour.sh: $*" >&2; exit 2; }
for f in "$build/obj/arch/arm/boot/zImage" "$build/trace-events" "$top/tools/power/eas/eas-em"; do
	[ -f "$f" ] || bad "$f is missing: run 'make eas-behaviour' (it builds it)"
done
tests=${TESTS:-}
[[ $tests =~ ^[A-Za-z,]*$ ]] || bad "TESTS=$tests: want test names separated by commas"

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
VXU4_DISK=$disk VXU4_LOG=$log VXU4_TIMEOUT=${VXU4_TIMEOUT:-2400} "$top/scripts/vxu4.sh" boot \
	vxu4.mode=eas-behaviour ${tests:+vxu4.tests=$tests} >/dev/null || rc=$?
[ "$rc" -eq 0 ] || echo "eas-behaviour.sh: the boot failed (exit $rc, log ${log#"$top"/})" >&2
[ -n "$ktap" ] || echo "==> boot done in $(($(date +%s) - t0)) s"
"$top/tools/testing/vxu4/eas-behaviour.py" $ktap "$log" "$disk" "$out"
