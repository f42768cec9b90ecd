#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make idle-bench: the idle governors compared on the virtual XU4 with idle
# states (issue 15: the seed's mbed governor, which predicts from the IRQ
# timings and the next timer, against menu and teo; ladder too), EAS on,
# schedutil. The board with idle states (build/vxu4-idle.dtb, as make
# check-idle makes it: WFI, a CPU power-down and a cluster power-down per
# cluster, each waking at its exit latency, each at its own power), one
# boot (vxu4.mode=idle-bench) running vxu4-idle-bench
# (tools/testing/vxu4/guest/idle-bench), which switches the governor at run
# time and runs in each, ITER times:
#   frames  a Jankbench-like 60 Hz task, FRAMES frames: 95th-percentile
#           frame duration, frames over the deadline, energy;
#   audio   a task every 5-10 ms, 0.5 ms of work, AUDIO_S s: energy;
#   video   a 30 Hz decoder with a key-frame burst and a 60 Hz display
#           task, VIDEO_S s: energy;
#   cyclic  cyclictest on CPU0 and CPU4, 25 ms, LOOPS loops: wake-up
#           latency median, 99th percentile and max;
# and in each case the share of idle time in each state and the
# mispredictions (cpuidle's "above": the residency was not reached; and
# "below": a deeper state would have fitted).
# Then tools/testing/vxu4/benches/idle-bench-report.py: mean and RSD per governor and
# case, normalised to menu; a plot.
#
# Environment (defaults):
#   ITER=10        iterations
#   FRAMES=180     frames per run (3 s at 60 Hz)
#   AUDIO_S=3      audio run, s
#   VIDEO_S=3      video run, s
#   LOOPS=120      cyclictest loops per thread (3 s)
#   GOVERNORS=menu,teo,mbed,ladder
#   CASES=frames,audio,video,cyclic  (some: the seed's claims are judged
#                  with frames, audio and video)
# Results in build/idle-bench/<date>/: idle-bench.log (console; beside it
# idle-bench.log.boot: what was booted, boot.py's), rtapp.cpio.gz
# (rt-app's files of the run, appended to the initramfs: initramfs.cpio.gz), runs.csv,
# summary.json, report.txt, idle.png.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
# Every setting read once and checked here, before anything is made or
# booted (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
env_prog=idle-bench.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
iter=$(env_int ITER 10 1 1000 "iterations") || exit
frames=$(env_int FRAMES 180 1 100000 "frames per run") || exit
audio_s=$(env_int AUDIO_S 3 1 3600 "guest seconds of the audio run") || exit
video_s=$(env_int VIDEO_S 3 1 3600 "guest seconds of the video run") || exit
loops=$(env_int LOOPS 120 1 1000000 "cyclictest's loops per thread") || exit
govs=$(env_match GOVERNORS menu,teo,mbed,ladder '[a-z]+(,[a-z]+)*' "cpuidle governor names, comma-separated") || exit
[[ ,$govs, == *,menu,* ]] || env_bad "GOVERNORS=$govs: menu must be one (the others are normalised to it)"
cases=$(env_match CASES frames,audio,video,cyclic \
	'(frames|audio|video|cyclic)(,(frames|audio|video|cyclic))*' "some of frames,audio,video,cyclic, comma-separated") || exit
timeout=$(env_int VXU4_TIMEOUT 14400 1 1000000 "seconds before the boot is stopped") || exit
scale=$(env_scale) || exit
export VXU4_TIME_SCALE=$scale
env_kernel idle-bench >/dev/null || exit
initrd=$(env_initrd idle-bench) || exit
env_plugin idle-bench >/dev/null || exit
env_dtb idle-bench - vxu4.dtb >/dev/null || exit
out=$(env_out_dir - "$build/idle-bench/$(date +%Y%m%d-%H%M%S)") || exit
dtb=$out/vxu4-idle.dtb
"$top/tools/testing/vxu4/board/dtb-variant.sh" idle "$build/vxu4.dtb" "$dtb" || exit 2
# rt-app's files of this run's sizes (tools/testing/vxu4/lib/workloads.py
# overlay), a cpio appended to the initramfs: the kernel unpacks both.
python3 "$top/tools/testing/vxu4/lib/workloads.py" overlay "$out/rtapp.cpio.gz" \
	"frames-split:$frames" "audio:$audio_s" "video:$video_s" || exit 2
cat "$initrd" "$out/rtapp.cpio.gz" >"$out/initramfs.cpio.gz"
echo "==> idle governors compared: ITER=$iter FRAMES=$frames AUDIO_S=$audio_s VIDEO_S=$video_s" \
	"LOOPS=$loops GOVERNORS=$govs, results in ${out#"$top"/}"
t0=$(date +%s)
# Through tools/testing/vxu4/suites/boot.py, the registry's [boot.idle-bench].
VXU4_TIMEOUT=$timeout "$top/tools/testing/vxu4/suites/boot.py" idle-bench \
	--dtb "$dtb" --initrd "$out/initramfs.cpio.gz" --log "$out/idle-bench.log" \
	vxu4.iter="$iter" vxu4.frames="$frames" vxu4.audio_s="$audio_s" vxu4.video_s="$video_s" \
	vxu4.loops="$loops" vxu4.governors="$govs" vxu4.cases="$cases" ||
	echo "idle-bench.sh: the boot failed (see $out/idle-bench.log)" >&2
echo "==> boot done in $(($(date +%s) - t0)) s"
"$top/tools/testing/vxu4/benches/idle-bench-report.py" "$out" "$out/idle-bench.log"
