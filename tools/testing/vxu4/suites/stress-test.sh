#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# EAS under the events that make it rebuild its state, in the virtual XU4,
# with rt-app's periodic tasks (4, 16 ms, 10%), hackbench (-g 1 -l 10, every
# 2 s) and a reader of the EM in debugfs (every 0.5 s) running (the guest's vxu4.mode=stress): each CPU offline and
# online in turn, a whole cluster offline and online, each policy's
# governor schedutil -> performance -> schedutil 20 times,
# sched_energy_aware toggled 100 times, scaling_max_freq lowered and
# raised. After every step:
#
#   - EAS is on exactly when the online CPUs have two capacities, every
#     policy with an online CPU runs schedutil and sched_energy_aware is 1;
#     when it stops, the kernel gives the reason (sched_verbose) that those
#     conditions imply, and when on, the root domain has the perf domain of
#     each cluster with an online CPU;
#   - each online CPU's sched domains are what the online CPUs imply: MC
#     its online cluster mates (if more than itself), PKG all online CPUs
#     (if more than MC);
#   - the meters' energy1_input never goes backwards.
#
# Afterwards, on CPUs that went offline and came back: fixed work alone
# takes 1024 * fmax / (capacity * f) times the reference's time (2%), and
# each cluster whole busy, the other idle, adds what the power model says
# (1%): the meters still count the right CPUs (on the board's kernel; on
# the debug kernel they are run and shown, not judged: below).
#
# And in the whole kernel log of the boot: no splat (WARNING, BUG,
# KASAN, UBSAN, lockdep, sleeping in atomic context, hung tasks, soft
# lockups, RCU stalls, debugobjects), each one shown and counted.
#
# --short (make check-ci): cpu1 and cpu5 offline and online, both
# clusters, and each governor and sched_energy_aware switch once: every
# kind of step, judged the same way.
# --reps N (make check-debug): cpu1, cpu4 and cpu5 offline and online
# (an A7, an A15 and the A15 policy's owner: every role a CPU has), both
# clusters, and each switch N times instead of 20 and 100 (the guest is
# deterministic: repeating a step adds only exposure to races, at about
# 1 to 2 min of wall time a step on the debug kernel).
#
# Usage: stress-test.sh [--kernel debug] [--short | --reps N] [CONSOLE_LOG]
#   (no log: boot [boot.stress[-debug][-short|-repsN]] of registry.toml,
#   one that it declares: build/obj's zImage, or build/obj-debug's with
#   --kernel debug, in vxu4.mode=stress; the console goes to
#   build/stress[-debug][-short|-repsN].log)

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
variant=
if [ "${1:-}" = --kernel ]; then
	variant=$2
	shift 2
fi
sfx=${variant:+-$variant}
logsfx=$sfx
if [ "${1:-}" = --short ]; then
	logsfx+=-short
	shift
elif [ "${1:-}" = --reps ]; then
	case ${2:-} in
	[1-9] | [1-9][0-9]) ;;
	*) echo "stress-test.sh: --reps ${2:-}: want a whole number from 1 to 99" >&2; exit 2 ;;
	esac
	logsfx+=-reps$2
	shift 2
fi

if [ $# -ge 1 ]; then
	log=$1
else
	log=$build/stress$logsfx.log
	vxu4_boot "stress$logsfx"
	echo "(console log: build/stress$logsfx.log)"
fi
if [ ! -r "$log" ]; then
	nok "guest ran the stress steps and reported" "no console log $log: the boot did not start (see above)"
	finish
fi

if grep -qx "@end" <<<"$(tr -d '\r' <"$log")"; then
	ok "guest ran the stress steps and reported"
else
	nok "guest ran the stress steps and reported" "no @end in $log" "$(tail -5 "$log")"
fi

# cpulist N...: the kernel's cpulist format of the CPU numbers given
cpulist() {
	tr ' ' '\n' | grep . | sort -n | awk '
		{ if (NR > 1 && $1 == prev + 1) { prev = $1; next }
		  if (NR > 1) out = out (start == prev ? start : start "-" prev) ","
		  start = prev = $1 }
		END { if (NR) out = out (start == prev ? start : start "-" prev); print out }'
}
# expand LIST: the CPU numbers of a cpulist, space separated
expand() {
	echo "$1" | tr ',' '\n' | awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) printf "%d ", i }'
}

steps=$(at step)
nsteps=$(echo "$steps" | grep -c .)
counts=$(at stress_counts)
echo "what the stress went through: ${counts:-no @stress_counts line} (CPU offlinings, each followed by its onlining; governor and sched_energy_aware writes the kernel took)"
[ "$nsteps" -gt 0 ] || nok "the guest reported its steps" "no @step lines in $log"
pds=$(at step_pds)
whys=$(at step_why)
doms=$(at step_domain)
prev_eas=
bad_dom=0 bad_eas=0 bad_pd=0 bad_why=0
while read -r line; do
	[ -n "$line" ] || continue
	n=$(echo "$line" | value n) name=$(echo "$line" | value name)
	on=$(expand "$(echo "$line" | value online)")
	sea=$(echo "$line" | value sea) eas=$(echo "$line" | value eas)
	govs=$(echo "$line" | value govs)
	little=$(for c in $on; do [ "$c" -le 3 ] && echo "$c"; done | tr '\n' ' ')
	big=$(for c in $on; do [ "$c" -ge 4 ] && echo "$c"; done | tr '\n' ' ')
	# EAS: two capacities, schedutil on each policy with an online CPU,
	# sched_energy_aware=1
	why_off=
	[ -n "$little" ] && [ -n "$big" ] || why_off="CPUs do not have asymmetric capacities"
	for g in $(echo "$govs" | tr ',' ' '); do
		pol=${g%%=*} gov=${g#*=}
		if [ "$pol" = policy0 ] && [ -z "$little" ]; then continue; fi
		if [ "$pol" = policy4 ] && [ -z "$big" ]; then continue; fi
		[ "$gov" = schedutil ] || why_off=${why_off:-"schedutil is mandatory"}
	done
	[ "$sea" = 1 ] || why_off=${why_off:-"sched_energy_aware=0"}
	want=on
	[ -z "$why_off" ] || want=off
	if [ "$eas" != "$want" ]; then
		nok "step $n $name: EAS $want (online $(cpulist <<<"$on"), sea $sea, $govs${why_off:+: $why_off})" "kernel: EAS $eas"
		bad_eas=$((bad_eas + 1))
	elif [ "$want" = off ] && [ "$prev_eas" = on ] && [ "$why_off" != "sched_energy_aware=0" ]; then
		# it stopped in this step: the kernel says why
		if echo "$whys" | grep "^n=$n " | grep -qF "$why_off"; then
			ok "step $n $name: EAS stopped, and the kernel says why: $why_off"
		else
			nok "step $n $name: EAS stopped, and the kernel says why: $why_off" \
				"kernel: $(echo "$whys" | grep "^n=$n " | head -3)"
			bad_why=$((bad_why + 1))
		fi
	fi
	if [ "$eas" = on ]; then
		wantpd=
		[ -n "$little" ] && wantpd+="pd0=0-3 "
		[ -n "$big" ] && wantpd+="pd4=4-7 "
		gotpd=$(echo "$pds" | grep "^n=$n " | sed "s/^n=$n *//")
		if [ "$(xargs <<<"$gotpd")" != "$(xargs <<<"$wantpd")" ]; then
			nok "step $n $name: the root domain's perf domains" "want: $wantpd" "got:  $gotpd"
			bad_pd=$((bad_pd + 1))
		fi
	fi
	prev_eas=$eas
	# sched domains of each online CPU
	for c in $on; do
		if [ "$c" -le 3 ]; then mates=$little; else mates=$big; fi
		mc=$(cpulist <<<"$mates") all=$(cpulist <<<"$on")
		w=
		[ "$(wc -w <<<"$mates")" -gt 1 ] && w="MC:$mc"
		[ "$all" != "$mc" ] && [ "$(wc -w <<<"$on")" -gt 1 ] && w="${w:+$w }PKG:$all"
		g=$(echo "$doms" | grep "^n=$n cpu=$c " | sort -t= -k4 -n |
			sed 's/.* name=\([A-Z]*\) span=\([^ ]*\).*/\1:\2/' | tr '\n' ' ')
		if [ "$(xargs <<<"$g")" != "$w" ]; then
			nok "step $n $name: cpu$c's sched domains" "want: $w" "got:  $g"
			bad_dom=$((bad_dom + 1))
		fi
	done
done <<<"$steps"
ncpus_steps=$(echo "$steps" | grep -c "name=cpu[0-9]-o")
[ "$bad_eas" -eq 0 ] && ok "EAS on or off as the online CPUs, governors and sched_energy_aware imply, after each of the $nsteps steps"
[ "$bad_pd" -eq 0 ] && ok "the root domain's perf domains are the online clusters', whenever EAS was on"
[ "$bad_why" -eq 0 ] && ok "each time EAS stopped, the kernel gave the reason the step implies"
[ "$bad_dom" -eq 0 ] && ok "every online CPU's sched domains are what the online CPUs imply, after each step ($ncpus_steps hotplug steps)"

# The meters never go backwards
meters=$(at step_meter)
for label in $(echo "$meters" | value label | distinct); do
	vals=$(echo "$meters" | value uj label="$label")
	back=$(echo "$vals" | awk 'NR > 1 && $1 + 0 < prev { print "read " NR ": " $1 " < " prev; exit } { prev = $1 + 0 }')
	if [ -z "$back" ]; then
		ok "meter $label: energy1_input never went backwards over $(echo "$vals" | grep -c .) reads ($(echo "$vals" | head -1) .. $(echo "$vals" | tail -1) uJ)"
	else
		nok "meter $label: energy1_input never went backwards" "$back"
	fi
done
[ -n "$meters" ] || nok "the meters were read after each step" "no @step_meter lines"

# The load ran: rt-app's tasks and the frequency limits took effect
freq=$(at step_freq)
for p in policy0 policy4; do
	l=$(echo "$freq" | grep "policy=$p ")
	if [ -z "$(echo "$l" | value max)" ]; then
		nok "$p: scaling_max_freq lowered to its lowest OPP under load, the policy ran there" \
			"no @step_freq line for $p in $log"
		continue
	fi
	expect "$p: scaling_max_freq lowered to its lowest OPP under load, the policy ran there" \
		"$(echo "$l" | value max)" "$(echo "$l" | value cur)"
done

# The physics after hotplug, judged on the board's kernel only. On the
# debug kernel the CPU speed emulation's own work (its hooks, timers and
# interrupts, under KASAN and lockdep) is several times the board
# kernel's: at d50bcac the reference's 200 ms of fixed work on cpu4 came
# with 46.7 M instructions on that vCPU against 24.5 M on the board's
# kernel, and the emulation dropped 25 ms of it against 2.7 ms; the same
# work on cpu1 took 22% more than its expected time, and the meters
# read 2 to 10% off. The debug boot still runs them (their code paths
# under the debug tools) and shows what they measured.
physics_after_hotplug() {
	# The CPU speed on CPUs that went offline and came back: fixed work alone
	# takes 1024 * fmax / (capacity * f) times the reference's (cpu4 alone at
	# its top OPP), within the physics checks' 2%
	dil=$(at dilate)
	ref=$(echo "$dil" | value wall_ns run=ref)
	for run in h1 h5 h5half; do
		line=$(echo "$dil" | grep -E "(^| )run=$run( |$)")
		cpu=$(echo "$line" | value cpu) khz=$(echo "$line" | value khz)
		wall=$(echo "$line" | value wall_ns)
		cpul=$(at stress_cpu | grep -E "(^| )cpu=$cpu( |$)")
		cap=$(echo "$cpul" | value capacity) fm=$(echo "$cpul" | value fmax)
		if [ -z "$ref" ] || [ -z "$wall" ] || [ -z "$cap" ]; then
			nok "CPU speed after hotplug ($run): measured" "no @dilate or @stress_cpu line for it"
			continue
		fi
		want=$(awk -v r="$ref" -v c="$cap" -v f="$khz" -v fm="$fm" 'BEGIN { printf "%.0f", r * 1024 * fm / (c * f) }')
		within "CPU speed after hotplug: fixed work alone on cpu$cpu at $khz kHz (capacity $cap), wall time (ns) against the reference's $ref" \
			"$want" "$wall" 2
	done

	# The meters after hotplug: a cluster whole busy adds its leakage, 4 WFI
	# and 4 * P(OPP) per second, the other cluster idle its leakage and WFI
	# power, within the physics checks' 1%
	. "$(dirname "$0")/meters-judge.sh"
	em_load && meter_checks "after hotplug: "
}
if [ "$variant" = debug ]; then
	echo "physics after hotplug not judged on the debug kernel (the board's kernel's stress judges them); measured:"
	at dilate | sed 's/^/  dilate: /'
else
	physics_after_hotplug
fi

# Splats, in every kernel message of the boot
no_splats "the stress boot"
finish
