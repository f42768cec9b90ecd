#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The virtual XU4 with boost OPPs (issue 14's variant board): the A15's
# OPPs of BOOST_HZ (default the XU4's 1.9 and 2.0 GHz) marked turbo-mode
# in a copy of build/vxu4.dtb (build/vxu4-boost.dtb); the board itself
# stays as upstream has it. One boot (vxu4.mode=boost), then:
#  - cpufreq: with boost off, each policy's highest frequency is its
#    highest OPP without turbo-mode and the turbo-mode ones are its boost
#    frequencies; with boost on, its highest OPP;
#  - capacities: the kernel's normalisation (topology_normalize_cpu_scale)
#    at each CPU's highest OPP, boost OPPs included (patch 0022): the
#    same capacities as the board without turbo-mode;
#  - the EM: the perf domain's top state is the CPU's capacity;
#  - one busy loop on the highest-capacity CPU runs at the highest
#    non-boost OPP with boost off, and at the highest OPP with boost on
#    (schedutil's reference is the capacity's frequency);
#  - EAS started and is still on after the boost switches.
#
# Usage: boost-test.sh [CONSOLE_LOG]  (with a log: no boot, only assert;
# the DTB is build/vxu4-boost.dtb as this script made it)

set -uo pipefail

suite='boost OPPs'
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$top/build
dtb=$build/vxu4-boost.dtb
boost_hz=${BOOST_HZ:-1900000000 2000000000}

# opp_table DTB CPU: the path of CPU's OPP table (its operating-points-v2)
opp_table() {
	local ph n
	ph=$(fdtget -t x "$1" "/cpus/cpu@$2" operating-points-v2) || return 1
	for n in $(fdtget -l "$1" /); do
		[ "$(fdtget -t x "$1" "/$n" phandle 2>/dev/null)" = "$ph" ] && { echo "/$n"; return 0; }
	done
	return 1
}
# opp_khz DTB TABLE [turbo|plain|all]: the table's OPPs in kHz, sorted
opp_khz() {
	local o hz
	for o in $(fdtget -l "$1" "$2"); do
		if fdtget "$1" "$2/$o" turbo-mode >/dev/null 2>&1; then
			[ "$3" = plain ] && continue
		else
			[ "$3" = turbo ] && continue
		fi
		read -r hi lo < <(fdtget -t u "$1" "$2/$o" opp-hz)
		hz=$(( (hi << 32) + lo ))
		echo $((hz / 1000))
	done | sort -n
}

if [ $# -ge 1 ]; then
	log=$1
else
	log=$build/boost-test.log
	rm -f "$log"
	cp "$build/vxu4.dtb" "$dtb" || exit 2
	# The table of the CPUs named Cortex-A15.
	a15=''
	for n in $(fdtget -l "$dtb" /cpus | grep '^cpu@'); do
		if fdtget "$dtb" "/cpus/$n" compatible | grep -q cortex-a15; then
			a15=$(opp_table "$dtb" "${n#cpu@}") && break
		fi
	done
	[ -n "$a15" ] || { echo "boost-test.sh: no Cortex-A15 with an OPP table in $dtb: make it again (make run)" >&2; exit 2; }
	for hz in $boost_hz; do
		fdtput "$dtb" "$a15/opp-$hz" turbo-mode ||
			{ echo "boost-test.sh: $dtb has no $a15/opp-$hz (BOOST_HZ)" >&2; exit 2; }
	done
	VXU4_DTB=$dtb VXU4_LOG=$log "$top/scripts/vxu4.sh" boot vxu4.mode=boost >/dev/null
	echo "(console log: build/boost-test.log)"
fi
reported
if [ -n "$(at boost_error)" ]; then
	nok "cpufreq boost switched off and on" "$(at boost_error)"
fi

# cpufreq: per policy, its CPUs' table from the DTB.
ncpus=$(at capacity | wc -l)
declare -A dmips fmax
for ((c = 0; c < ncpus; c++)); do
	t=$(opp_table "$dtb" "$c") || { nok "cpu$c has an OPP table in $dtb" ""; continue; }
	dmips[$c]=$(fdtget "$dtb" "/cpus/cpu@$c" capacity-dmips-mhz)
	fmax[$c]=$(opp_khz "$dtb" "$t" all | tail -1)
	plain=$(opp_khz "$dtb" "$t" plain | tail -1)
	turbo=$(opp_khz "$dtb" "$t" turbo | paste -sd,)
	for b in 0 1; do
		line=$(at boost_policy | grep "boost=$b " | grep "policy=policy$c " || true)
		[ -n "$line" ] || continue	# not the policy's first CPU
		want=$plain what="highest OPP${turbo:+ without turbo-mode}"
		[ "$b" = 1 ] && want=${fmax[$c]} what="highest OPP"
		expect "policy$c, boost $b: scaling_max_freq is its $what" \
			"$want" "$(value scaling_max_freq <<<"$line")"
		[ "$b" = 0 ] && expect "policy$c: its boost frequencies are its turbo-mode OPPs" \
			"$turbo" "$(value boost_freqs <<<"$line")"
	done
done

# Capacities: topology_normalize_cpu_scale() at the highest OPP.
scale=0
for ((c = 0; c < ncpus; c++)); do
	p=$(( ${dmips[$c]:-0} * ${fmax[$c]:-0} ))
	[ "$p" -gt "$scale" ] && scale=$p
done
for ((c = 0; c < ncpus; c++)); do
	want=$(( ${dmips[$c]:-0} * ${fmax[$c]:-0} * 1024 / (scale > 0 ? scale : 1) ))
	got=$(at capacity | grep "cpu=$c " | value capacity)
	expect "cpu$c: capacity at its highest OPP, boost OPPs included" "$want" "$got"
done

# The EM: the top state of the busy CPU's perf domain is its capacity.
busy0=$(at boost_busy | grep "boost=0 ")
big=$(value cpu <<<"$busy0")
top_perf=$(at em_ps | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^khz=/) k = substr($i, 5) + 0; print k, $0 }' |
	sort -n | tail -1 | grep -o 'performance=[0-9]*' | cut -d= -f2)
expect "cpu$big's EM: its top state's performance is its capacity" \
	"$(at capacity | grep "cpu=$big " | value capacity)" "$top_perf"

# One busy CPU: at the highest non-boost OPP, then (boost on) the highest.
t=$(opp_table "$dtb" "$big")
plain=$(opp_khz "$dtb" "$t" plain | tail -1)
for b in 0 1; do
	want=$plain
	[ "$b" = 1 ] && want=${fmax[$big]}
	khz=$(at boost_busy | grep "boost=$b " | value khz)
	bad=$(tr ',' '\n' <<<"$khz" | grep -vx "$want" | paste -sd,)
	if [ -n "$khz" ] && [ -z "$bad" ]; then
		ok "one busy loop on cpu$big, boost $b: its cluster at $want kHz (samples $khz)"
	else
		nok "one busy loop on cpu$big, boost $b: its cluster at $want kHz" "samples: ${khz:-none}"
	fi
done

if [ "$(at dmesg | grep -c "starting EAS")" -gt 0 ] && [ "$(at eas | value sched_energy_aware)" = 1 ]; then
	ok "EAS started and is on after the boost switches"
else
	nok "EAS started and is on after the boost switches" "$(at dmesg | grep -E "EAS|pd_init")" "$(at eas)"
fi
finish
