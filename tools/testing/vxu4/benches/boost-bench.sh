#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make boost-bench: boost OPPs compared on the virtual XU4 (issue 14, after
# the LAB governor's Exynos4412 measurements), EAS on, schedutil. The board
# with boost OPPs (the A15's 1.9 and 2.0 GHz turbo-mode, build/vxu4-boost.dtb
# as make check-boost makes it), one boot (vxu4.mode=boost-bench) running
# vxu4-boost-bench (tools/testing/vxu4/guest/boost-bench), which switches
# three configurations at run time:
#   noboost  cpufreq boost off (the A15s at 1.8 GHz at most)
#   boost    boost on for any load (boost_budget.enable=0)
#   budget   boost on under the load-aware boost budget, its default
# and runs in each, ITER times:
#   - Dhrystone-like: 1, 2, 3, 4 threads of fixed CPU work (WORK_MS ms of an
#     A15 at 2.0 GHz each) pinned on the A15s: time, energy, mean and peak
#     cluster power;
#   - busybox tar -czf of a fixed tree (TAR_DIRS, the guest's own files,
#     copied into a tmpfs): time and energy.
# Then tools/testing/vxu4/benches/boost-bench-report.py: mean and RSD per configuration
# and case, and the seed's table: performance and energy change against
# noboost per thread count; a plot.
# IPA (the thermal power allocator) is a row marked "not built": the
# virtual board has no thermal sensor (issue 14's optional part).
#
# Environment (defaults):
#   ITER=10        iterations
#   WORK_MS=1000   each thread's work, ms of an A15 at its highest OPP
#   TAR_DIRS=/usr/lib  guest directories to archive (comma-separated; the
#                  guest's shared libraries, 2.7 MB)
# Results in build/boost-bench/<date>/: boost-bench.log (console; beside
# it boost-bench.log.boot: what was booted, boot.py's),
# runs.csv, summary.json, report.txt, boost.png.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
# Every setting read once and checked here, before anything is made or
# booted (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
env_prog=boost-bench.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
iter=$(env_int ITER 10 1 1000 "iterations") || exit
work_ms=$(env_int WORK_MS 1000 1 1000000 "each thread's work, ms of an A15 at its highest OPP") || exit
tar_dirs=$(env_match TAR_DIRS /usr/lib '/[^ ]*' "absolute guest paths, comma-separated, no spaces") || exit
boost_hz=$(env_match BOOST_HZ "1900000000 2000000000" '[1-9][0-9]{8,9}( [1-9][0-9]{8,9})*' \
	"the boost OPPs' frequencies in Hz separated by blanks, like \"1900000000 2000000000\"") || exit
timeout=$(env_int VXU4_TIMEOUT 14400 1 1000000 "seconds before the boot is stopped") || exit
scale=$(env_scale) || exit
export VXU4_TIME_SCALE=$scale
env_kernel boost-bench >/dev/null || exit
env_initrd boost-bench >/dev/null || exit
env_plugin boost-bench >/dev/null || exit
env_dtb boost-bench - vxu4.dtb >/dev/null || exit
out=$(env_out_dir - "$build/boost-bench/$(date +%Y%m%d-%H%M%S)") || exit
dtb=$out/vxu4-boost.dtb
# shellcheck disable=SC2086
"$top/tools/testing/vxu4/board/dtb-variant.sh" boost "$build/vxu4.dtb" "$dtb" $boost_hz || exit 2
echo "==> boost comparison: ITER=$iter WORK_MS=$work_ms TAR_DIRS=$tar_dirs, results in ${out#"$top"/}"
t0=$(date +%s)
# Through tools/testing/vxu4/suites/boot.py, the registry's [boot.boost-bench].
VXU4_TIMEOUT=$timeout "$top/tools/testing/vxu4/suites/boot.py" boost-bench \
	--dtb "$dtb" --log "$out/boost-bench.log" vxu4.iter="$iter" \
	vxu4.work_ms="$work_ms" vxu4.tar_dirs="$tar_dirs" ||
	echo "boost-bench.sh: the boot failed (see $out/boost-bench.log)" >&2
echo "==> boot done in $(($(date +%s) - t0)) s"
"$top/tools/testing/vxu4/benches/boost-bench-report.py" "$out" "$out/boost-bench.log"
