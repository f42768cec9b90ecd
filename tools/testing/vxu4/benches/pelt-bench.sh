#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make pelt-bench: PELT half-life 32, 16 and 8 ms (sched_pelt_multiplier=
# 1, 2, 4) compared on the virtual XU4, EAS on, as the seed's PELT-vs-WALT
# table (PCMark cannot run here): one boot per multiplier, each running
# vxu4-pelt-bench (tools/testing/vxu4/guest/pelt-bench):
#   - responsiveness, LISA's RampUp (10% then 70% of a big CPU): time until
#     the task runs on an A15, and until the A15 cluster is at the OPP the
#     70% needs;
#   - a 60 Hz frame workload with bursty per-frame work (a fixed
#     pseudo-random sequence, the same in every run): frames over their
#     16.7 ms deadline (%), 95th percentile and max frame duration, and the
#     energy of the run (cluster meters);
#   - energy of the bench's rt-app case of 24 tasks (10% each, 16 ms).
# Then tools/testing/vxu4/benches/pelt-bench-report.py: mean and RSD over the
# iterations per half-life, WALT's row marked not available (an Android
# vendor module, not in Linux 6.12), and the RampUp task's util_avg under
# the three half-lives on one plot.
#
# Environment (defaults):
#   ITER=10      iterations per half-life
#   FRAMES=300   frames per frame run (5 s)
#   DURATION=3   guest seconds of each rt-app 24-task run
#   PARALLEL=1   0: one boot after the other (1: two at a time, each QEMU
#                uses one host core under -icount)
# Results in build/pelt-bench/<date>/: pelt-1.log, pelt-2.log, pelt-4.log
# (console; beside each, LOG.boot: what was booted, boot.py's),
# rtapp.cpio.gz (rt-app's frames of the run, appended to the
# initramfs: initramfs.cpio.gz), runs.csv, summary.json, util.png,
# report.txt.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
# Every setting read once and checked here, before anything is made or
# booted (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
env_prog=pelt-bench.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
iter=$(env_int ITER 10 1 1000 "iterations per half-life") || exit
frames=$(env_int FRAMES 300 1 100000 "frames per frame run") || exit
duration=$(env_int DURATION 3 1 3600 "guest seconds of each rt-app run; rt-app never ends a run of 0") || exit
parallel=$(env_match PARALLEL 1 '[01]' "0 or 1") || exit
timeout=$(env_int VXU4_TIMEOUT 14400 1 1000000 "seconds before a boot is stopped") || exit
scale=$(env_scale) || exit
export VXU4_TIME_SCALE=$scale
env_kernel pelt-bench >/dev/null || exit
initrd=$(env_initrd pelt-bench) || exit
env_plugin pelt-bench >/dev/null || exit
dtb=$(env_dtb pelt-bench VXU4_DTB vxu4.dtb) || exit
out=$(env_out_dir - "$build/pelt-bench/$(date +%Y%m%d-%H%M%S)") || exit
echo "==> PELT half-life comparison: ITER=$iter FRAMES=$frames DURATION=$duration, results in ${out#"$top"/}"
# rt-app's frames of this run (tools/testing/vxu4/lib/workloads.py
# overlay), a cpio appended to the initramfs: the kernel unpacks both.
python3 "$top/tools/testing/vxu4/lib/workloads.py" overlay "$out/rtapp.cpio.gz" "frames:$frames" || exit 2
cat "$initrd" "$out/rtapp.cpio.gz" >"$out/initramfs.cpio.gz"

# Each boot through tools/testing/vxu4/suites/boot.py, the registry's
# [boot.pelt-bench], which writes beside its log what it booted (.boot).
boot() {
	local m=$1
	VXU4_TIMEOUT=$timeout "$top/tools/testing/vxu4/suites/boot.py" pelt-bench \
		--dtb "$dtb" --initrd "$out/initramfs.cpio.gz" --log "$out/pelt-$m.log" \
		sched_pelt_multiplier="$m" vxu4.iter="$iter" vxu4.frames="$frames" \
		vxu4.duration="$duration" vxu4.bench_cfg=a
}

t0=$(date +%s)
pids=()
for m in 1 2 4; do
	boot "$m" &
	pids+=($!)
	if [ "$parallel" = 0 ] || [ ${#pids[@]} -eq 2 ]; then
		wait "${pids[0]}" || echo "pelt-bench.sh: the boot before sched_pelt_multiplier=$m failed" >&2
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]}"; do
	wait "$p" || echo "pelt-bench.sh: a boot failed" >&2
done
echo "==> boots done in $(($(date +%s) - t0)) s"
"$top/tools/testing/vxu4/benches/pelt-bench-report.py" "$out" "$out/pelt-1.log" "$out/pelt-2.log" "$out/pelt-4.log"
