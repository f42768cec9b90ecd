#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dtb-variant.sh VARIANT SRC OUT [ARG...]: OUT, a copy of the virtual
# XU4's DTB SRC (build/vxu4.dtb) changed into VARIANT with dtc's fdtput.
# Every variant of the board is made here: by make vxu4 (noem,
# noem-nomc), by the suites and benches that boot a variant board
# (boost, idle) and by the bad device trees' test (the broken ones).
# The board itself stays as upstream has it.
#
#   dtb-variant.sh --list            the variants, "NAME<TAB>WHAT" a line
#   dtb-variant.sh --describe NAME   what NAME changes, one line
#
# The variants (ARG: only boost takes some):
#   noem         no dynamic-power-coefficient on any CPU: no EM, EAS off
#                (make check's second boot, the EM's CPU mask checks)
#   noem-nomc    noem, and no cpu-map either: one sched domain level
#                (QEMU's MPIDRs put the 8 CPUs in one cluster), the 2020
#                series' baseline (make bench's d)
#   boost HZ...  the Cortex-A15 OPPs of HZ (Hz) marked turbo-mode,
#                cpufreq's boost OPPs (issue 14; default 1900000000
#                2000000000)
#   idle         idle states (issue 15): an idle-states node (PSCI),
#                each CPU's cpu-idle-states, each cluster meter's
#                idle-state-power
#   coeff-missing ... no-policy  the bad device trees (baddt-test.sh):
#                broken CPU data, one case each (--list says which)
#
# Exit: 0 made; 1 fdtput or dtc failed on SRC (a message naming it);
# 2 bad usage or no SRC.

set -uo pipefail

# shellcheck source=tools/testing/vxu4/board/dtb-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/dtb-lib.sh"

prog=dtb-variant.sh

# The variants and what each changes, in --list's order.
VARIANTS=(noem noem-nomc boost idle coeff-missing coeff-zero coeff-overflow
	opp-novolt cap-missing one-opp equal-cap no-policy)

# describe VARIANT: what it changes, one line
describe() {
	case $1 in
	noem) echo "no dynamic-power-coefficient on any CPU: no EM, EAS off" ;;
	noem-nomc) echo "no dynamic-power-coefficient and no cpu-map: no EM, one sched domain level" ;;
	boost) echo "the A15 OPPs of the HZ given (default 1.9 and 2.0 GHz) marked turbo-mode: boost OPPs" ;;
	idle) echo "idle states cpu-off and cluster-off per core type (PSCI), the meters' idle-state-power" ;;
	coeff-missing) echo "no dynamic-power-coefficient on cpu4, the A15 policy CPU" ;;
	coeff-zero) echo "dynamic-power-coefficient 0 on the A7s" ;;
	coeff-overflow) echo "A15 dynamic-power-coefficient 30000: power above the EM's 64 W" ;;
	opp-novolt) echo "no opp-microvolt on the A15's 900 MHz OPP" ;;
	cap-missing) echo "no capacity-dmips-mhz on cpu0 (clock-frequency 1 / 1.8 GHz): arm32's table_efficiency" ;;
	one-opp) echo "an A7 OPP table of one OPP (1.4 GHz)" ;;
	equal-cap) echo "capacity-dmips-mhz 1000 (A7) and 700 (A15): equal capacities" ;;
	no-policy) echo "every CPU's operating-points-v2 points to no node: no cpufreq policy" ;;
	*) return 1 ;;
	esac
}

# fail MESSAGE: "dtb-variant.sh: MESSAGE", exit 1 (OUT not made)
fail() {
	echo "$prog: $*" >&2
	exit 1
}

usage() {
	echo "usage: $prog VARIANT SRC OUT [HZ...] | --list | --describe VARIANT (VARIANT one of: ${VARIANTS[*]})" >&2
	exit 2
}

# The bad device trees' OPP tables (the board DTB's order: A15 first).
A15_OPPS=/opp-table-0
A7_OPPS=/opp-table-1

# noem OUT: no CPU's dynamic-power-coefficient
noem() {
	local c
	for c in $(fdtget -l "$1" /cpus | grep '^cpu@'); do
		fdtput -d "$1" "/cpus/$c" dynamic-power-coefficient || return 1
	done
}

# boost SRC OUT HZ...: OUT's Cortex-A15 OPP table has its OPPs of HZ
# marked turbo-mode.
boost() {
	local src=$1 out=$2 a15='' n hz
	shift 2
	for n in $(fdtget -l "$out" /cpus | grep '^cpu@'); do
		if fdtget "$out" "/cpus/$n" compatible | grep -q cortex-a15; then
			a15=$(opp_table "$out" "${n#cpu@}") && break
		fi
	done
	[ -n "$a15" ] || fail "no Cortex-A15 with an OPP table in $src: make it again (make vxu4)"
	for hz in "$@"; do
		fdtput "$out" "$a15/opp-$hz" turbo-mode 2>/dev/null ||
			fail "$src has no $a15/opp-$hz: want the Hz of one of its A15 OPPs"
	done
}

# The idle states per core type: name, arm,psci-suspend-param,
# entry-latency-us, exit-latency-us, min-residency-us, and the meter's
# shares of the WFI power and of the cluster's leakage that remain in the
# state (1/1000).
#  - cpu-off, a CPU power-down: Samsung's Exynos5 (5410/5420) cpuidle "C2"
#    (exit latency 30 us, target residency 1000 us; the vendor gives one
#    latency, entered here as the exit latency); the CPU's WFI power goes,
#    the cluster's stays (Juno's EAS energy data: a core's idle power
#    falls to 0 in cpu-sleep, its cluster's does not).
#  - cluster-off, a cluster power-down: mainline's cpuidle-big_little.c
#    (TC2, the same cores; the driver an Exynos5420/5800 binds): A7 exit
#    latency 700 us, residency 2500 us; A15 500 us and 2000 us. Its
#    leakage keeps 10/25 (A7) and 25/70 (A15) of the WFI cluster power
#    (TC2's EAS energy data: cluster WFI 25 -> cluster-sleep 10 for the A7s,
#    70 -> 25 for the A15s), the CPUs' WFI power goes (core power 0 there).
# QEMU's PSCI CPU_SUSPEND is a WFI that returns 0: a power-down
# power_state (bit 16) would come back as a failed entry to Linux and a
# cluster-level one is refused, so the states use standby parameters
# (StateID only) and their latency and power are the emulation's
# (virt-cpu-speed.c, virt-cluster-power.c).
IDLE_STATES_A7="cpu-off-a7:0x1:0:30:1000:0:1000 cluster-off-a7:0x2:0:700:2500:0:400"
IDLE_STATES_A15="cpu-off-a15:0x1:0:30:1000:0:1000 cluster-off-a15:0x2:0:500:2000:0:357"

# idle SRC OUT: OUT with the idle states above
idle() {
	local src=$1 out=$2 ph cpu type st name param en ex res wfi leak m clk
	local -A phandle=() states=([a7]=$IDLE_STATES_A7 [a15]=$IDLE_STATES_A15) cluster_clk=()
	local -a shares
	# New phandles after the highest in use.
	ph=$(dtc -I dtb -O dts "$out" 2>/dev/null | sed -n 's/.*phandle = <\(0x[0-9a-f]*\)>;.*/\1/p' |
		while read -r x; do echo $((x)); done | sort -n | tail -1)
	[ -n "$ph" ] || fail "$src has no phandles: make it again (make vxu4)"
	fdtput -c "$out" /cpus/idle-states &&
		fdtput -t s "$out" /cpus/idle-states entry-method psci || return 1
	for type in a7 a15; do
		for st in ${states[$type]}; do
			IFS=: read -r name param en ex res wfi leak <<<"$st"
			ph=$((ph + 1))
			phandle[$name]=$ph
			fdtput -c "$out" "/cpus/idle-states/$name" &&
			fdtput -t s "$out" "/cpus/idle-states/$name" compatible arm,idle-state &&
			fdtput -t x "$out" "/cpus/idle-states/$name" arm,psci-suspend-param "$param" &&
			fdtput -t u "$out" "/cpus/idle-states/$name" entry-latency-us "$en" &&
			fdtput -t u "$out" "/cpus/idle-states/$name" exit-latency-us "$ex" &&
			fdtput -t u "$out" "/cpus/idle-states/$name" min-residency-us "$res" &&
			fdtput -t u "$out" "/cpus/idle-states/$name" phandle "$ph" || return 1
		done
	done
	for cpu in $(fdtget -l "$out" /cpus | grep '^cpu@'); do
		case $(fdtget "$out" "/cpus/$cpu" compatible) in
		*cortex-a15*) type=a15 ;;
		*cortex-a7*) type=a7 ;;
		*) fail "$src: /cpus/$cpu is neither a Cortex-A7 nor a Cortex-A15" ;;
		esac
		fdtput -t u "$out" "/cpus/$cpu" cpu-idle-states \
			"${phandle[cpu-off-$type]}" "${phandle[cluster-off-$type]}" || return 1
		cluster_clk[$type]=$(fdtget -t x "$out" "/cpus/$cpu" clocks) || return 1
	done
	for m in $(fdtget -l "$out" / | grep '^power-meter'); do
		clk=$(fdtget -t x "$out" "/$m" clocks)
		for type in a7 a15; do
			[ "$clk" = "${cluster_clk[$type]}" ] || continue
			shares=()
			for st in ${states[$type]}; do
				IFS=: read -r name param en ex res wfi leak <<<"$st"
				shares+=("${phandle[$name]}" "$wfi" "$leak")
			done
			fdtput -t u "$out" "/$m" idle-state-power "${shares[@]}" || return 1
		done
	done
}

# bad CASE OUT: OUT with the bad device tree CASE's change
bad() {
	local c o
	case $1 in
	coeff-missing) fdtput -d "$2" /cpus/cpu@4 dynamic-power-coefficient ;;
	coeff-zero)
		for c in 0 1 2 3; do
			fdtput -t u "$2" "/cpus/cpu@$c" dynamic-power-coefficient 0 || return 1
		done ;;
	coeff-overflow)
		for c in 4 5 6 7; do
			fdtput -t u "$2" "/cpus/cpu@$c" dynamic-power-coefficient 30000 || return 1
		done ;;
	opp-novolt) fdtput -d "$2" "$A15_OPPS/opp-900000000" opp-microvolt ;;
	cap-missing)
		for c in 0 1 2 3; do
			fdtput -t u "$2" "/cpus/cpu@$c" clock-frequency 1000000000 || return 1
		done
		for c in 4 5 6 7; do
			fdtput -t u "$2" "/cpus/cpu@$c" clock-frequency 1800000000 || return 1
		done
		fdtput -d "$2" /cpus/cpu@0 capacity-dmips-mhz ;;
	one-opp)
		for o in $(fdtget -l "$2" "$A7_OPPS"); do
			[ "$o" = opp-1400000000 ] || fdtput -r "$2" "$A7_OPPS/$o" || return 1
		done ;;
	equal-cap)
		for c in 0 1 2 3; do
			fdtput -t u "$2" "/cpus/cpu@$c" capacity-dmips-mhz 1000 || return 1
		done
		for c in 4 5 6 7; do
			fdtput -t u "$2" "/cpus/cpu@$c" capacity-dmips-mhz 700 || return 1
		done ;;
	no-policy)
		for c in 0 1 2 3 4 5 6 7; do
			fdtput -t x "$2" "/cpus/cpu@$c" operating-points-v2 dead || return 1
		done ;;
	esac
}

case ${1:-} in
--list)
	[ $# -eq 1 ] || usage
	for v in "${VARIANTS[@]}"; do
		printf '%s\t%s\n' "$v" "$(describe "$v")"
	done
	exit 0 ;;
--describe)
	[ $# -eq 2 ] || usage
	describe "$2" || { echo "$prog: '$2' is no variant: want one of ${VARIANTS[*]}" >&2; exit 2; }
	exit 0 ;;
esac
[ $# -ge 3 ] || usage
variant=$1 src=$2 out=$3
shift 3
describe "$variant" >/dev/null || { echo "$prog: '$variant' is no variant: want one of ${VARIANTS[*]}" >&2; exit 2; }
[ "$variant" = boost ] || [ $# -eq 0 ] || { echo "$prog: $variant takes no argument after OUT, got: $*" >&2; exit 2; }
[ -f "$src" ] || { echo "$prog: no $src: make it (make vxu4)" >&2; exit 2; }
command -v fdtput >/dev/null || { echo "$prog: no fdtput: run scripts/deps.sh (Debian's device-tree-compiler)" >&2; exit 2; }
# Made beside OUT, renamed at the end: never a half-made OUT.
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
cp "$src" "$tmp" || { echo "$prog: cannot copy $src to $tmp" >&2; exit 2; }
case $variant in
noem) noem "$tmp" ;;
noem-nomc) noem "$tmp" && fdtput -r "$tmp" /cpus/cpu-map ;;
boost) if [ $# -eq 0 ]; then boost "$src" "$tmp" 1900000000 2000000000; else boost "$src" "$tmp" "$@"; fi ;;
idle) idle "$src" "$tmp" ;;
*) bad "$variant" "$tmp" ;;
esac || { echo "$prog: cannot make the $variant variant of $src (fdtput)" >&2; exit 1; }
mv "$tmp" "$out" || { echo "$prog: cannot write $out" >&2; exit 1; }
