#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make timescale-bench: the guest's time scale K (scripts/vxu4.sh's
# VXU4_TIME_SCALE: a guest ns holds K instructions) against the board.
# One boot a K (vxu4.mode=timescale-bench, tools/testing/vxu4/guest/timescale-bench),
# one at a time so that each one's wall time is its own, then
# tools/testing/vxu4/benches/timescale-bench-report.py: per K, the reference's
# instruction rate, a null system call and a pipe round trip on each
# CPU kind, hackbench's cost a loop and the seed's -l 500 from it, rt-app
# util_avg above its duty, the kernel's share of busy time, and wall
# seconds per guest second; each against the board's figures; a plot.
#
# Environment (defaults):
#   SCALES="1 2 4 8 16"  the time scales, 1 to 64
#   REPS=3               repetitions of each measurement in a boot
#   HB_A=10 HB_B=40      hackbench's two loop counts (-g 10 -s 4096)
#   KERNEL=              a variant of the board's kernel to boot instead of
#                        build/obj's: NAME for build/obj-NAME, the board's
#                        config plus tools/testing/vxu4/board/NAME.config
#                        (nolockdebug: no lock debugging), built first
#                        (kernel-variant.sh)
# Results in build/timescale-bench/<date>/: K<k>.log (each console line
# behind the host's time, s; beside it K<k>.log.boot: what was booted,
# boot.py's), report.txt, summary.json, timescale.png.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
# Every setting read once and checked here, before anything is made or
# booted (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
env_prog=timescale-bench.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
scales=$(env_scales SCALES "1 2 4 8 16") || exit
reps=$(env_int REPS 3 1 1000 "repetitions of each measurement") || exit
hb_a=$(env_int HB_A 10 1 100000 "hackbench's first loop count") || exit
hb_b=$(env_int HB_B 40 1 100000 "hackbench's second loop count") || exit
[ "$hb_b" -gt "$hb_a" ] || env_bad "HB_B=$hb_b: want more loops than HB_A=$hb_a"
timeout=$(env_int VXU4_TIMEOUT 7200 1 1000000 "seconds before a boot is stopped") || exit
kernel=$(env_match KERNEL "" '[A-Za-z0-9_-]+' "a kernel variant's name (tools/testing/vxu4/board/NAME.config)") || exit
if [ -z "$kernel" ]; then
	env_kernel timescale-bench >/dev/null || exit
fi
env_initrd timescale-bench >/dev/null || exit
env_plugin timescale-bench >/dev/null || exit
dtb=$(env_dtb timescale-bench VXU4_DTB vxu4.dtb) || exit
out=$(env_out_dir - "$build/timescale-bench/$(date +%Y%m%d-%H%M%S)") || exit
if [ -n "$kernel" ]; then
	VXU4_KERNEL=$("$top/tools/testing/vxu4/board/kernel-variant.sh" "$kernel") || exit
	VXU4_KERNEL=$(env_file - "$VXU4_KERNEL" "kernel-variant.sh $kernel did not make it" zimage) || exit
	export VXU4_KERNEL
fi
echo "==> time scales $scales: REPS=$reps HB_A=$hb_a HB_B=$hb_b, kernel ${kernel:-board}, results in ${out#"$top"/}"
for k in $scales; do
	t0=$(date +%s)
	# Each console line behind the host's time when it came (s). The
	# boot through tools/testing/vxu4/suites/boot.py, the registry's
	# [boot.timescale-bench], its console shown as it comes (--stdout);
	# the console it writes (--log) is replaced by the timed lines.
	VXU4_TIME_SCALE=$k VXU4_TIMEOUT=$timeout "$top/tools/testing/vxu4/suites/boot.py" \
		timescale-bench --stdout --dtb "$dtb" --log "$out/K$k.log" \
		vxu4.reps="$reps" vxu4.hb_a="$hb_a" vxu4.hb_b="$hb_b" |
		while IFS= read -r line; do
			printf '%s %s\n' "$(date +%s.%N)" "$line"
		done >"$out/K$k.timed" ||
		echo "timescale-bench.sh: the boot at K=$k failed (see $out/K$k.log)" >&2
	mv "$out/K$k.timed" "$out/K$k.log"
	echo "==> K=$k: boot done in $(($(date +%s) - t0)) s"
done
"$top/tools/testing/vxu4/benches/timescale-bench-report.py" "$out"
