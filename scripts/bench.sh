#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: the reference EAS experiments in the virtual XU4, EAS on and
# off, tabulated as the seed's tables (scripts/bench-report.py).
#
# Environment (defaults):
#   ITER=10        iterations of each configuration
#   TASKS=24,8     rt-app cases: 24 tasks (the seed's, about 2.4 big CPUs
#                  of work) and 8 (a scaled case that 2 host cores can
#                  emulate faithfully)
#   DURATION=5     seconds of each rt-app run
#   HB_LOOPS=1     hackbench -l HB_LOOPS -s 4096 (the seed's 500, with 10
#                  groups, is hours a run on the virtual board; 0: none)
#   HB_GROUPS=4    hackbench -g (hackbench's default is 10: 400 tasks,
#                  minutes a run on the virtual board)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
iter=${ITER:-10} tasks=${TASKS:-24,8} duration=${DURATION:-5} hb=${HB_LOOPS:-1}
hbg=${HB_GROUPS:-4}
out=$top/build/bench/$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"

ncases=$(echo "$tasks" | tr ',' '\n' | grep -c .)
# Generous: dilation makes overloaded runs and hackbench slow.
budget=$((300 + iter * 2 * (ncases * (duration * 3 + 5) + hb * 15)))
echo "==> bench: $iter iterations x EAS on/off; rt-app $tasks tasks, ${duration} s;" \
	"hackbench -g $hbg -l $hb -s 4096 (time limit ${budget} s)"
VXU4_TIMEOUT=$budget VXU4_LOG=$out/console.log "$top/scripts/vxu4.sh" boot \
	vxu4.mode=bench vxu4.iter="$iter" vxu4.tasks="$tasks" \
	vxu4.duration="$duration" vxu4.hb_loops="$hb" vxu4.hb_groups="$hbg" |
	sed -n --unbuffered 's/^@bench \([a-z]*\) iter=\([0-9]*\) eas=\([01]\)\( tasks=[0-9]*\)\?.*/    run: \1\4 iteration \2, EAS \3/p'
python3 "$top/scripts/bench-report.py" "$out/console.log" "$out"
