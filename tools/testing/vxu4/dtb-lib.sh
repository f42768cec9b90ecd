# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the virtual XU4's scripts (lib.sh for the test suites, and
# boost-bench.sh): reading and editing the board's DTB with dtc's fdtget
# and fdtput. No output of its own.

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

# boost_dtb DTB OUT HZ...: OUT, a copy of DTB whose Cortex-A15 OPP table
# has its OPPs of HZ (Hz) marked turbo-mode (cpufreq's boost OPPs): the
# board with boost OPPs of issue 14; the board itself stays as upstream
# has it. Errors, naming the DTB, on stderr; returns 1.
boost_dtb() {
	local src=$1 out=$2 a15='' n hz
	shift 2
	cp "$src" "$out" || { echo "boost_dtb: cannot copy $src: make it (make run)" >&2; return 1; }
	for n in $(fdtget -l "$out" /cpus | grep '^cpu@'); do
		if fdtget "$out" "/cpus/$n" compatible | grep -q cortex-a15; then
			a15=$(opp_table "$out" "${n#cpu@}") && break
		fi
	done
	[ -n "$a15" ] || { echo "boost_dtb: no Cortex-A15 with an OPP table in $src: make it again (make run)" >&2; return 1; }
	for hz in "$@"; do
		fdtput "$out" "$a15/opp-$hz" turbo-mode ||
			{ echo "boost_dtb: $src has no $a15/opp-$hz" >&2; return 1; }
	done
}

# The idle states of the variant board with idle states (issue 15), per
# core type: name, arm,psci-suspend-param, entry-latency-us,
# exit-latency-us, min-residency-us, and the meter's shares of the WFI
# power and of the cluster's leakage that remain in the state (1/1000).
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

# idle_dtb DTB OUT: OUT, a copy of DTB with the idle states above: an
# idle-states node (PSCI), each CPU's cpu-idle-states, each cluster
# meter's idle-state-power. The board itself stays WFI-only, as the real
# XU4 on mainline. Errors, naming the DTB, on stderr; returns 1.
idle_dtb() {
	local src=$1 out=$2 ph cpu type st name param en ex res wfi leak m clk
	local -A phandle=() states=([a7]=$IDLE_STATES_A7 [a15]=$IDLE_STATES_A15) cluster_clk=()
	local -a shares
	cp "$src" "$out" || { echo "idle_dtb: cannot copy $src: make it (make run)" >&2; return 1; }
	# New phandles after the highest in use.
	ph=$(dtc -I dtb -O dts "$out" 2>/dev/null | sed -n 's/.*phandle = <\(0x[0-9a-f]*\)>;.*/\1/p' |
		while read -r x; do echo $((x)); done | sort -n | tail -1)
	[ -n "$ph" ] || { echo "idle_dtb: $src has no phandles: make it again (make run)" >&2; return 1; }
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
		*) echo "idle_dtb: $src: /cpus/$cpu is neither a Cortex-A7 nor a Cortex-A15" >&2; return 1 ;;
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
