#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make timescale-bench: the guest's time scale K (scripts/vxu4.sh's
# VXU4_TIME_SCALE: a guest ns holds K instructions) against the board.
# One boot a K (vxu4.mode=timescale-bench, tools/testing/vxu4/guest/timescale-bench),
# one at a time so that each one's wall time is its own, then
# tools/testing/vxu4/timescale-report.py: per K, the reference's
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
#                        config plus tools/testing/vxu4/NAME.config
#                        (nolockdebug: no lock debugging), built first
#                        (kernel-variant.sh)
# Results in build/timescale-bench/<date>/: K<k>.log (each console line
# behind the host's time, s), report.txt, summary.json, timescale.png.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$top/build
scales=${SCALES:-1 2 4 8 16} reps=${REPS:-3} hb_a=${HB_A:-10} hb_b=${HB_B:-40}

bad() { echo "timescale-bench.sh: $*" >&2; exit 2; }
for v in reps hb_a hb_b; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || bad "${v^^}=${!v}: want a whole number, at least 1"
done
[ "$hb_b" -gt "$hb_a" ] || bad "HB_B=$hb_b: want more loops than HB_A=$hb_a"
for k in $scales; do
	if [[ ! $k =~ ^[1-9][0-9]?$ ]] || [ "$k" -gt 64 ]; then bad "SCALES: $k is no time scale (1 to 64)"; fi
done
kernel=${KERNEL:-}
if [ -n "$kernel" ]; then
	VXU4_KERNEL=$("$top/tools/testing/vxu4/kernel-variant.sh" "$kernel") || exit
	export VXU4_KERNEL
else
	[ -f "$build/obj/arch/arm/boot/zImage" ] || bad "no kernel: run 'make kernel' (make timescale-bench does)"
fi

out=$build/timescale-bench/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
echo "==> time scales $scales: REPS=$reps HB_A=$hb_a HB_B=$hb_b, kernel ${kernel:-board}, results in ${out#"$top"/}"
for k in $scales; do
	t0=$(date +%s)
	# Each console line behind the host's time when it came (s).
	VXU4_TIME_SCALE=$k VXU4_TIMEOUT=${VXU4_TIMEOUT:-7200} \
		"$top/scripts/vxu4.sh" boot vxu4.mode=timescale-bench vxu4.reps="$reps" \
		vxu4.hb_a="$hb_a" vxu4.hb_b="$hb_b" |
		while IFS= read -r line; do
			printf '%s %s\n' "$(date +%s.%N)" "$line"
		done >"$out/K$k.log" ||
		echo "timescale-bench.sh: the boot at K=$k failed (see $out/K$k.log)" >&2
	echo "==> K=$k: boot done in $(($(date +%s) - t0)) s"
done
"$top/tools/testing/vxu4/timescale-report.py" "$out"
