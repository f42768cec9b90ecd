#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fidelity: the virtual XU4's probes against the boards' published
# figures (tools/testing/vxu4/guest/fidelity: lmbench's, UnixBench's and
# sbc-bench's probes on an A7 and an A15 at their top OPPs, and the 2020
# series' hackbench), one boot for each of COSTS, one after the other so
# that each one's wall time is its own; then
# tools/testing/vxu4/fidelity-report.py: each probe's guest time against
# the board's, and the cost model's weights fitted to the kernel paths
# from the first boot's instruction class counts.
#
# Environment (defaults):
#   COSTS="insns cycles"  what the vCPUs' time counts in each boot
#                         (scripts/vxu4.sh's VXU4_COST)
#   TIME_SCALE=8          the guest's time scale K (VXU4_TIME_SCALE)
#   WEIGHTS=              the cost model's weights (VXU4_WEIGHTS; default
#                         tools/testing/vxu4/cycle-weights)
#   REPS=1                repetitions of each probe in a boot
#   SCALE_PCT=100         the probes' operation counts, percent
#   HB_A=5 HB_B=10        hackbench's two loop counts (-g 10 -s 4096)
#   KERNEL=               a variant of the board's kernel (nolockdebug: no
#                         lock debugging, as the boards' figures were
#                         measured), built first (kernel-variant.sh)
# Results in build/fidelity/<date>/: <cost>.log (the console), <cost>.raw
# (each console line behind the host's time, s), <cost>.classes (each
# mnemonic QEMU translated, its class, its translations), report.txt,
# summary.json, cycle-weights (fitted).
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$top/build
costs=${COSTS:-insns cycles} scale=${TIME_SCALE:-8} reps=${REPS:-1} pct=${SCALE_PCT:-100}
hb_a=${HB_A:-5} hb_b=${HB_B:-10}

bad() { echo "fidelity.sh: $*" >&2; exit 2; }
for v in reps pct hb_a hb_b scale; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || bad "${v^^}=${!v}: want a whole number from 1, in base 10"
done
[ "$pct" -le 1000 ] || bad "SCALE_PCT=$pct: want at most 1000"
[ "$scale" -le 64 ] || bad "TIME_SCALE=$scale: want a time scale from 1 to 64"
[ "$hb_b" -gt "$hb_a" ] || bad "HB_B=$hb_b: want more loops than HB_A=$hb_a"
[ -n "$costs" ] || bad "COSTS is empty: want insns, cycles or both"
for c in $costs; do
	case $c in insns | cycles) ;; *) bad "COSTS: $c is neither insns nor cycles" ;; esac
done
if [ -n "${WEIGHTS:-}" ]; then
	[ -r "$WEIGHTS" ] || bad "WEIGHTS=$WEIGHTS: no such readable file"
	export VXU4_WEIGHTS=$WEIGHTS
fi
kernel=${KERNEL:-}
if [ -n "$kernel" ]; then
	VXU4_KERNEL=$("$top/tools/testing/vxu4/kernel-variant.sh" "$kernel") || exit
	export VXU4_KERNEL
else
	[ -f "$build/obj/arch/arm/boot/zImage" ] || bad "no kernel: run 'make kernel' (make fidelity does)"
fi

out=$build/fidelity/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
echo "==> fidelity: COSTS=\"$costs\" TIME_SCALE=$scale REPS=$reps SCALE_PCT=$pct HB_A=$hb_a HB_B=$hb_b, kernel ${kernel:-board}, results in ${out#"$top"/}"
logs=()
for c in $costs; do
	t0=$(date +%s)
	VXU4_COST=$c VXU4_TIME_SCALE=$scale VXU4_TIMEOUT=${VXU4_TIMEOUT:-7200} \
		VXU4_CLASSES=$out/$c.classes \
		"$top/scripts/vxu4.sh" boot vxu4.mode=fidelity vxu4.reps="$reps" \
		vxu4.scale_pct="$pct" vxu4.hb_a="$hb_a" vxu4.hb_b="$hb_b" |
		while IFS= read -r line; do
			printf '%s %s\n' "$(date +%s.%N)" "$line"
		done >"$out/$c.raw" ||
		echo "fidelity.sh: the boot with COST=$c failed (see $out/$c.raw)" >&2
	# The console without the host's times, for the report.
	cut -d' ' -f2- "$out/$c.raw" >"$out/$c.log"
	echo "==> $c: boot done in $(($(date +%s) - t0)) s (host wall clock)"
	logs+=("$out/$c.log")
done
"$top/tools/testing/vxu4/fidelity-report.py" --fit "${logs[0]}" "$out" "${logs[@]}"
