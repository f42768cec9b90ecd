#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fidelity: the virtual XU4's probes against the boards' published
# figures (tools/testing/vxu4/guest/fidelity: lmbench's, UnixBench's and
# sbc-bench's probes on an A7 and an A15 at their top OPPs, and the 2020
# series' hackbench), one boot for each of COSTS, one after the other so
# that each one's wall time is its own; then
# tools/testing/vxu4/benches/fidelity-report.py: each probe's guest time against
# the board's, and the cost model's weights fitted to the probes from the
# instruction class counts of the boot with the cache model
# (cycles-cache: it has the memory events' counts too), else of the first.
#
# Environment (defaults):
#   COSTS="insns cycles"  what the vCPUs' time counts in each boot: insns,
#                         cycles or cycles-cache (scripts/vxu4.sh's VXU4_COST)
#   VXU4_TIME_SCALE=8     the guest's time scale K, as for every boot
#   WEIGHTS=              the cost model's weights (VXU4_WEIGHTS; default
#                         tools/testing/vxu4/board/cycle-weights)
#   REPS=1                repetitions of each probe in a boot
#   SCALE_PCT=100         the probes' operation counts, percent
#   HB_A=5 HB_B=10        hackbench's two loop counts (-g 10 -s 4096)
#   ONLY=                 what to run, some of the probes' names, aes and
#                         hackbench, separated by commas (default: all)
#   VXU4_TIMEOUT=7200     seconds before a boot is stopped
#   KERNEL=               a variant of the board's kernel (nolockdebug: no
#                         lock debugging, as the boards' figures were
#                         measured), built first (kernel-variant.sh)
# Results in build/fidelity/<date>/: <cost>.log (the console; beside it
# <cost>.log.boot: what was booted, boot.py's), <cost>.raw
# (each console line behind the host's time, s), <cost>.classes (each
# mnemonic QEMU translated, its class, its translations), report.txt,
# summary.json, cycle-weights (fitted).
set -euo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
# Every setting read once and checked here, before anything is made or
# booted (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
env_prog=fidelity.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
scale=$(env_scale) || exit
reps=$(env_int REPS 1 1 1000 "repetitions of each probe") || exit
pct=$(env_int SCALE_PCT 100 1 1000 "the probes' operation counts, percent") || exit
hb_a=$(env_int HB_A 5 1 100000 "hackbench's first loop count") || exit
hb_b=$(env_int HB_B 10 1 100000 "hackbench's second loop count") || exit
only=$(env_match ONLY "" '[a-z0-9-]+(,[a-z0-9-]+)*' \
	"probe names, aes or hackbench, separated by commas (tools/testing/vxu4/guest/fidelity)") || exit
[ "$hb_b" -gt "$hb_a" ] || env_bad "HB_B=$hb_b: want more loops than HB_A=$hb_a"
timeout=$(env_int VXU4_TIMEOUT 7200 1 1000000 "seconds before a boot is stopped") || exit
costs=$(env_match COSTS "insns cycles" '(insns|cycles|cycles-cache)( (insns|cycles|cycles-cache))*' \
	"insns, cycles or cycles-cache, one or more separated by a blank (what each boot's time counts)") || exit
if [ -n "${WEIGHTS:-}" ]; then
	VXU4_WEIGHTS=$(env_file WEIGHTS - "the cost model's weights, as tools/testing/vxu4/board/cycle-weights") || exit
	export VXU4_WEIGHTS
fi
kernel=$(env_match KERNEL "" '[A-Za-z0-9_-]+' "a kernel variant's name (tools/testing/vxu4/board/NAME.config)") || exit
if [ -z "$kernel" ]; then
	env_kernel fidelity >/dev/null || exit
fi
env_initrd fidelity >/dev/null || exit
env_plugin fidelity >/dev/null || exit
dtb=$(env_dtb fidelity VXU4_DTB vxu4.dtb) || exit
out=$(env_out_dir - "$build/fidelity/$(date +%Y%m%d-%H%M%S)") || exit
if [ -n "$kernel" ]; then
	VXU4_KERNEL=$("$top/tools/testing/vxu4/board/kernel-variant.sh" "$kernel") || exit
	export VXU4_KERNEL
fi

echo "==> fidelity: COSTS=\"$costs\" VXU4_TIME_SCALE=$scale REPS=$reps SCALE_PCT=$pct HB_A=$hb_a HB_B=$hb_b${only:+ ONLY=$only}, kernel ${kernel:-board}, results in ${out#"$top"/}"
logs=()
for c in $costs; do
	t0=$(date +%s)
	# Through tools/testing/vxu4/suites/boot.py, the registry's
	# [boot.fidelity], its console shown as it comes (--stdout).
	VXU4_COST=$c VXU4_TIME_SCALE=$scale VXU4_TIMEOUT=$timeout \
		VXU4_CLASSES=$out/$c.classes \
		"$top/tools/testing/vxu4/suites/boot.py" fidelity --stdout --dtb "$dtb" \
		--log "$out/$c.log" vxu4.reps="$reps" vxu4.scale_pct="$pct" \
		vxu4.hb_a="$hb_a" vxu4.hb_b="$hb_b" ${only:+vxu4.fid_only="$only"} |
		while IFS= read -r line; do
			printf '%s %s\n' "$(date +%s.%N)" "$line"
		done >"$out/$c.raw" ||
		echo "fidelity.sh: the boot with COST=$c failed (see $out/$c.raw)" >&2
	# The console without the host's times, for the report (it replaces
	# the console boot.py's log holds, which has the lines the launcher
	# does not show).
	cut -d' ' -f2- "$out/$c.raw" >"$out/$c.log"
	echo "==> $c: boot done in $(($(date +%s) - t0)) s (host wall clock)"
	logs+=("$out/$c.log")
done
fit=${logs[0]}
[[ " $costs " != *" cycles-cache "* ]] || fit=$out/cycles-cache.log
# The fit's prior is what the boots ran with: its ridge pulls towards
# those weights, and the charged cycles are compared with theirs.
prior=()
[ -z "${VXU4_WEIGHTS:-}" ] || prior=(--prior "$VXU4_WEIGHTS")
"$top/tools/testing/vxu4/benches/fidelity-report.py" "${prior[@]}" --fit "$fit" "$out" "${logs[@]}"
