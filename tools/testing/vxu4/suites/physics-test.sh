#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The virtual XU4's physics, from the "@calibrate", "@dilate", "@util",
# "@meter" and "@speed" lines of a boot that measured them
# (tools/testing/vxu4/guest/init, physics). Guest time is QEMU's instruction count,
# the same whatever the host does: every check is judged.
#  - the time scale K: fixed work on cpu4 with the CPU speed off executes
#    K instructions per ns of guest time, and with it on takes the
#    instructions it is charged for over K * ref_permille / 1000 ns,
#    within 2%;
#  - time dilation: a fixed amount of work pinned on 1, 2, 4 and 8 CPUs at
#    once, both clusters, several OPPs, takes 1024 * fmax / (c * f) times
#    its time on the reference (cpu4 alone at its top OPP), within 2%;
#  - util invariance: 8 periodic tasks at once, one per CPU, at several
#    OPP pairs: the work of each fits its period, and its util_avg at
#    wakeup (the mean of its samples, which fall at 4 phases of the PELT
#    window in turn) is the single task's on the reference, times its
#    busy time over its cluster's median busy time in that run (a CPU
#    that takes more interrupts runs its task longer), within 3%;
#  - power meters: a cluster pinned at an OPP for T with n of its CPUs
#    busy adds (P_leak + 4 * P_wfi) * T + n * P(OPP) * T within 1%: an
#    idle cluster (n = 0) at its lowest and highest OPP its leakage and
#    WFI power, one busy CPU its dynamic power on top, a whole busy
#    cluster 4 * P(OPP) * T on top. P_leak and P_wfi at the OPP are the
#    meter's "idle-power-microwatt" in build/vxu4.dtb (the power model
#    fitted to published XU3 data); with model=em both are 0.
# c, fmax and P(OPP) come from eas-em's computation of the board DTB, not
# from this file. With several rounds (vxu4.reps), medians of the rounds.
#
# Usage: physics-test.sh [--scale K] [--host-load WALL_S LOOPS_CPU_S IDLE_PCT |
#                         --host-load-file FILE] [CONSOLE_LOG]
#   (default: build/system-test.log)
# --scale K: the boot was made at the time scale K (VXU4_TIME_SCALE);
# first, that the guest ran at it (its "@timescale" line's scale).
# --host-load: the boot was made under host load (make check-full's
# boot); first, that the load was there: both busy loops ran (LOOPS_CPU_S
# of CPU in the boot's WALL_S) and the host's cores were never idle (under
# 5% idle time, IDLE_PCT, over the boot). --host-load-file: those three
# from FILE (loaded-boot.sh's build/physics-loaded.host).

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
usage="usage: $0 [--scale K] [--host-load WALL_S LOOPS_CPU_S IDLE_PCT | --host-load-file FILE] [CONSOLE_LOG]"
want_scale=
if [ "${1:-}" = --scale ]; then
	if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
		echo "$usage" >&2
		exit 2
	fi
	want_scale=$2
	shift 2
fi
if [ "${1:-}" = --host-load-file ]; then
	if [ $# -lt 2 ]; then
		echo "$usage" >&2
		exit 2
	fi
	# The file's three words replace it: WALL_S LOOPS_CPU_S IDLE_PCT.
	load=()
	[ -r "$2" ] && read -r -a load <"$2"
	if [ ${#load[@]} -eq 3 ]; then
		set -- --host-load "${load[@]}" "${@:3}"
	else
		nok "the host's cores were busy during that boot" \
			"$2: want \"WALL_S LOOPS_CPU_S IDLE_PCT\" (loaded-boot.sh writes it), got: ${load[*]:-no such file}"
		shift 2
	fi
fi
if [ "${1:-}" = --host-load ]; then
	if [ $# -lt 4 ]; then
		echo "$usage" >&2
		exit 2
	fi
	if awk -v w="$2" -v c="$3" -v i="$4" 'BEGIN { exit !(w > 0 && c > 0 && i < 5) }'; then
		ok "the host's cores were busy during that boot: $4% idle; two busy loops used $3 s of CPU in its $2 s"
	else
		nok "the host's cores were busy during that boot" "$4% idle; two busy loops used $3 s of CPU in its $2 s"
	fi
	shift 4
fi
log=${1:-$top/build/system-test.log}

if [ ! -f "$log" ] || [ -z "$(at dilate)" ]; then
	nok "the guest measured its physics" "no @dilate lines in ${log}$(at physics | sed 's/^/: /')"
	finish
fi

. "$(dirname "$0")/meters-judge.sh"
em_load || finish
at_once() { if [ "$1" = 1 ]; then echo "alone"; else echo "$1 CPUs at once"; fi; }

# How the CPU speed knew each CPU's progress: the emulator's per-vCPU
# instruction count (the DTB reserves its page, the QEMU plugin keeps it;
# the emulation's debugfs then has cpuN/insns). Every boot of
# scripts/vxu4.sh loads the plugin, so a boot without the count is a
# broken plugin or DTB, and fails here: the fair-share estimate that the
# emulation falls back to does not hold under QEMU's round robin (without
# the emulation, 8 equal spinners finished 30% apart), and the checks
# below would fail for that reason, not for the one they test.
if grep -q ' insns=' <<<"$(at speed)"; then
	ok "the CPU speed knew each vCPU's progress by its instruction count (QEMU plugin)"
else
	nok "the CPU speed knew each vCPU's progress by its instruction count (QEMU plugin)" \
		"no cpuN insns= in the @speed lines: the plugin (build/insn-count.so) or the DTB's linux,virt-insn-counters page is missing"
fi

# --- time dilation: each task's wall time against the reference's.
dil=$(at dilate)
ref=$(echo "$dil" | value wall_ns run=ref | median)
echo "    $(at calibrate | head -1): fixed work; the reference (cpu4 alone at $(fmax 4) kHz) took $(ms "$ref") ms"

# --- the time scale K (scripts/vxu4.sh's VXU4_TIME_SCALE): a guest ns
# holds K instructions, and the reference does K * ref_permille / 1000 of
# them a ns. The calibrated fixed work on cpu4, first with the CPU speed
# off: the vCPU runs alone at QEMU's full rate, so its instructions over
# its guest time are K (the other vCPUs' idle ticks add well under 1%);
# then on, at the reference's speed: the instructions it was charged for
# (counted= in the line: those outside the emulation's own code, from the
# plugin's class counts) take them over K * ref_permille / 1000. Not the
# instructions of the run with the speed off: with it off the emulation's
# tick still runs every 100 us, and its own code and the ticks' way back
# to user space are counted there but not charged with it on (measured at
# K = 1: 20.44 M instructions off, of them 20.38 M outside its own code,
# and 20.15 M charged on; the off count put the on run 1-2% short).
# Both within the fixed work's 2%.
ts=$(at timescale | head -1)
scale=$(value scale <<<"$ts") refpm=$(value ref_permille <<<"$ts")
offi=$(value off_insns <<<"$ts") offw=$(value off_wall_ns <<<"$ts") onw=$(value on_wall_ns <<<"$ts")
onc=$(value on_counted <<<"$ts")
[ -z "$want_scale" ] ||
	expect "the guest ran at the time scale it was booted at (its @timescale line)" "$want_scale" "$scale"
if [ -n "$scale" ] && [ -n "$refpm" ] && [ -n "$offi" ] && [ -n "$offw" ] && [ -n "$onw" ]; then
	within "time scale $scale: fixed work with the CPU speed off, instructions per guest ns ($offi in $(ms "$offw") ms)" \
		"$scale" "$(awk -v i="$offi" -v w="$offw" 'BEGIN { printf "%.4f", i / w }')" 2
	if [ -n "$onc" ]; then
		within "time scale $scale: with it on, the $onc instructions charged on the reference (ref_permille $refpm), guest ns" \
			"$(awk -v i="$onc" -v k="$scale" -v r="$refpm" 'BEGIN { printf "%.0f", i / (k * r / 1000) }')" "$onw" 2
	else
		nok "time scale $scale: the instructions charged with the CPU speed on" \
			"no on_counted= in the @timescale line: the emulator keeps no class counts (rebuild build/insn-count.so: make vxu4)"
	fi
else
	nok "the time scale's fixed work" "no complete @timescale line: '$ts'"
fi

for run in $(echo "$dil" | value run | distinct); do
	[ "$run" = ref ] && continue
	n=$(echo "$dil" | value cpus "run=$run" | head -1)
	for cpu in $(echo "$dil" | value cpu "run=$run" | distinct); do
		line=$(echo "$dil" | grep -E "(^| )run=$run( |$)" | grep -E "(^| )cpu=$cpu( |$)")
		khz=$(echo "$line" | value khz | head -1)
		wall=$(echo "$line" | value wall_ns | median)
		runtime=$(echo "$line" | value runtime_ns | median)
		short=$(echo "$line" | value shortfall_ns | sum)
		want=$(awk -v r="$ref" -v c="$(cap "$cpu")" -v f="$khz" -v fm="$(fmax "$cpu")" \
			'BEGIN { printf "%.0f", r * 1024 * fm / (c * f) }')
		within "fixed work, $(at_once "$n") ($run): cpu$cpu at $khz kHz, wall time (ns; its runtime $(ms "$runtime") ms, shortfall $(ms "$short") ms)" \
			"$want" "$wall" 2
	done
done

# --- util invariance: 8 tasks at once against the single task.
ut=$(at util)
uref=$(echo "$ut" | value mean run=ref | median)
if [ "${uref%.*}" -gt 50 ] 2>/dev/null; then
	ok "the periodic task's mean util_avg at wakeup, alone on cpu4 at $(fmax 4) kHz, is over 50: $uref"
else
	nok "the periodic task's mean util_avg at wakeup, alone on cpu4, is over 50" "got ${uref:-nothing}"
fi
for run in $(echo "$ut" | value run | distinct); do
	[ "$run" = ref ] && continue
	n=$(echo "$ut" | value cpus "run=$run" | head -1)
	overruns=$(echo "$ut" | value overruns "run=$run" | sum)
	periods=$(echo "$ut" | value periods "run=$run" | sum)
	if [ "$overruns" -eq 0 ] && [ "$periods" -gt 0 ]; then
		ok "periodic, $n tasks at once ($run): each one's work fit its period (0 of $periods periods overran)"
	else
		nok "periodic, $n tasks at once ($run): each one's work fit its period" \
			"$overruns of $periods periods overran"
	fi
	# A CPU whose task ran longer for the same work (the interrupts and
	# softirqs it took run in the task's time, as on a board without
	# IRQ_TIME_ACCOUNTING) shows that much more util: each CPU's
	# expectation is the single task's times its task's busy time over
	# its cluster's median in this run. Measured at K = 1, u1: cpu0 took
	# 1961 interrupts and 274 softirqs against 1591-1750 and 210-231 on
	# cpu1-3, its task was busy 37.5% of the time against 36.7-37.2%, and
	# its util came to 102.3 against the single task's 99.3 (+3.0%; +1.5%
	# against 99.3 x 37.5 / 36.95). The cluster's median CPU is held to
	# the single task: that the periodic work takes its time.
	cpus=$(echo "$ut" | value cpu "run=$run" | distinct)
	declare -A uline=() busy=() med=()
	for cpu in $cpus; do
		uline[$cpu]=$(echo "$ut" | grep -E "(^| )run=$run( |$)" | grep -E "(^| )cpu=$cpu( |$)")
		busy[$cpu]=$(echo "${uline[$cpu]}" | value busy | tr -d % | median)
	done
	# Each cluster's median (0: the A7s, 1: the A15s).
	for k in 0 1; do
		med[$k]=$(for c in $cpus; do
			[ $((c >= 4)) = "$k" ] && echo "${busy[$c]}"
		done | median)
	done
	for cpu in $cpus; do
		m=${med[$((cpu >= 4))]}
		want=$(awk -v u="$uref" -v b="${busy[$cpu]}" -v m="$m" \
			'BEGIN { printf "%.1f", (m > 0) ? u * b / m : u }')
		within "periodic, $n tasks at once ($run): cpu$cpu at $(echo "${uline[$cpu]}" | value khz | head -1) kHz (busy ${busy[$cpu]}%, its cluster's median $m%): mean util_avg at wakeup equals the single task's $uref x ${busy[$cpu]} / $m" \
			"$want" "$(echo "${uline[$cpu]}" | value mean | median)" 3
	done
	unset uline busy med
done

# --- power meters: per run and meter, (P_leak + 4 * P_wfi) * T for the
# cluster at its pinned OPP, plus nbusy * P * T for its busy CPUs.
meter_checks ""
meter_model=$(meter_model)

# --- power1_average: the mean of its last complete interval, all 4 A15s
# busy, (P_leak + 4 * P_wfi + 4 * P) within 1%; a second read the same
# (reads do not reset it). First, that the intervals ran while the 4 were
# busy: from the first write of power1_average_interval to the second.
while read -r line; do
	khz=$(echo "$line" | value khz)
	a=$(echo "$line" | value first) b=$(echo "$line" | value second)
	set_ns=$(echo "$line" | value set_ns) reset_ns=$(echo "$line" | value reset_ns)
	from=$(echo "$line" | value busy_from_ns) to=$(echo "$line" | value busy_to_ns)
	if [ -n "$set_ns" ] && [ -n "$reset_ns" ] && [ -n "$from" ] && [ -n "$to" ] &&
		[ "$from" -le "$set_ns" ] && [ "$reset_ns" -le "$to" ]; then
		ok "meter a15: the averaging intervals (from $set_ns to $reset_ns ns) ran while all 4 A15s were busy (from $from to $to ns)"
	else
		nok "meter a15: the averaging intervals ran while all 4 A15s were busy" \
			"intervals from ${set_ns:-?} to ${reset_ns:-?} ns; all 4 busy from ${from:-?} to ${to:-?} ns"
	fi
	idle=0
	[ "$meter_model" = em ] || idle=$(idle_power a15 "$khz" 4)
	p=$(power 4 "$khz")
	within "meter a15: power1_average over 200 ms, its 4 CPUs busy at $khz kHz, is leakage + 4 WFI ($idle uW) + 4 * P ($p uW)" \
		"$((idle + 4 * p))" "$a" 1
	expect "meter a15: power1_average read again 200 ms later, in the same interval: reads do not reset it" "$a" "$b"
done < <(at average)
[ -n "$(at average)" ] || nok "the guest read power1_average" "no @average line in $log"

# --- what the CPU speed emulation did, per CPU, over the whole boot
at speed | while read -r line; do
	v() { echo "$line" | value "$1"; }
	[ "$(v work_ns)" -gt 0 ] 2>/dev/null || continue
	awk -v c="$(v cpu)" -v w="$(v work_ns)" -v r="$(v run_ns)" -v s="$(v stall_ns)" \
		-v o="$(v owed_ns)" -v sf="$(v shortfall_ns)" -v d="$(v dropped_ns)" -v k="$(v kthread_ns)" \
		'BEGIN { printf "    cpu%s: user work %.2f s at the reference speed, run %.2f s + stall %.2f s (%.2f%% of owed); shortfall %.1f ms, dropped %.1f ms; kernel threads %.2f s (not slowed)\n",
			c, w / 1e9, r / 1e9, s / 1e9, o ? s * 100 / o : 100, sf / 1e6, d / 1e6, k / 1e9 }'
done

finish
