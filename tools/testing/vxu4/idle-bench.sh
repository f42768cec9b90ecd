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
# Then tools/testing/vxu4/idle-report.py: mean and RSD per governor and
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
# Results in build/idle-bench/<date>/: idle-bench.log (console), runs.csv,
# summary.json, report.txt, idle.png.
set -euo pipefail

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$top/build
# shellcheck source=tools/testing/vxu4/dtb-lib.sh
. "$top/tools/testing/vxu4/dtb-lib.sh"
iter=${ITER:-10} frames=${FRAMES:-180} audio_s=${AUDIO_S:-3} video_s=${VIDEO_S:-3}
loops=${LOOPS:-120} govs=${GOVERNORS:-menu,teo,mbed,ladder}
cases=${CASES:-frames,audio,video,cyclic}

bad() { echo "idle-bench.sh: $*" >&2; exit 2; }
for v in iter frames audio_s video_s loops; do
	[[ ${!v} =~ ^[1-9][0-9]*$ ]] || bad "${v^^}=${!v}: want a whole number, at least 1"
done
[[ $govs =~ ^[a-z]+(,[a-z]+)*$ ]] || bad "GOVERNORS=$govs: want cpuidle governor names, comma-separated"
[[ $cases =~ ^(frames|audio|video|cyclic)(,(frames|audio|video|cyclic))*$ ]] ||
	bad "CASES=$cases: want some of frames,audio,video,cyclic, comma-separated"
[[ ,$govs, == *,menu,* ]] || bad "GOVERNORS=$govs: menu must be one (the others are normalised to it)"
[ -f "$build/obj/arch/arm/boot/zImage" ] || bad "no kernel: run 'make kernel' (make idle-bench does)"

out=$build/idle-bench/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
dtb=$out/vxu4-idle.dtb
idle_dtb "$build/vxu4.dtb" "$dtb" || exit 2
echo "==> idle governors compared: ITER=$iter FRAMES=$frames AUDIO_S=$audio_s VIDEO_S=$video_s" \
	"LOOPS=$loops GOVERNORS=$govs, results in ${out#"$top"/}"
t0=$(date +%s)
VXU4_DTB=$dtb VXU4_LOG=$out/idle-bench.log VXU4_TIMEOUT=${VXU4_TIMEOUT:-14400} \
	"$top/scripts/vxu4.sh" boot vxu4.mode=idle-bench vxu4.iter="$iter" vxu4.frames="$frames" \
	vxu4.audio_s="$audio_s" vxu4.video_s="$video_s" vxu4.loops="$loops" \
	vxu4.governors="$govs" vxu4.cases="$cases" >/dev/null ||
	echo "idle-bench.sh: the boot failed (see $out/idle-bench.log)" >&2
echo "==> boot done in $(($(date +%s) - t0)) s"
"$top/tools/testing/vxu4/idle-report.py" "$out" "$out/idle-bench.log"
