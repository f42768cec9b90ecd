# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The power meters' checks, shared by physics-test.sh and stress-test.sh
# (sourced after suite-lib.sh, with $log the console log): the EM of the board
# DTB as eas-em computes it, the meters' idle power model from
# build/vxu4.dtb, and the judgement of the guest's "@meter" lines.

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
board_dtb=$top/build/obj/arch/arm/boot/dts/samsung/exynos5422-odroidxu4.dtb
vxu4_dtb=$top/build/vxu4.dtb
eas_em=$top/tools/power/eas/eas-em

# em_load: per CPU, "cpu=N capacity=C fmax_khz=F power=KHZ:UW,...", from
# the perf domains eas-em computes, into $em; a failed check otherwise.
em_load() {
	# shellcheck disable=SC2154 # vxu4py, vxu4log: suite-lib.sh's, sourced first
	em=$("$eas_em" compute --format=json "$board_dtb" | "${vxu4py[@]}" "$vxu4log" em-cpus /dev/stdin)
	[ -n "$em" ] && return 0
	nok "eas-em computes the EM of $(basename "$board_dtb")"
	return 1
}
cap() { echo "$em" | value capacity "cpu=$1"; }
fmax() { echo "$em" | value fmax_khz "cpu=$1"; }
# power CPU KHZ: P(OPP) of CPU at KHZ, uW.
power() { echo "$em" | value power "cpu=$1" | tr ',' '\n' | awk -F: -v f="$2" '$1 == f { print $2 }'; }
# idle_power LABEL KHZ NCPUS: leakage + NCPUS * WFI power of meter LABEL's
# cluster at KHZ (the lowest OPP at or above it), uW, from the meter's
# idle-power-microwatt in build/vxu4.dtb; 0 without it.
idle_power() {
	local n t
	for n in /power-meter-0 /power-meter-1 /power-meter-2 /power-meter-3; do
		[ "$(fdtget "$vxu4_dtb" "$n" label 2>/dev/null)" = "$1" ] || continue
		t=$(fdtget -t u "$vxu4_dtb" "$n" idle-power-microwatt 2>/dev/null)
		echo "$t" | awk -v f="$2" -v c="$3" '{
			for (i = 1; i + 2 <= NF; i += 3) { k = i; if ($i >= f) break }
			if (NF >= 3) { print $(k + 1) + c * $(k + 2); exit } }
			END { if (NF < 3) print 0 }'
		return
	done
	echo 0
}
ms() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1e6 }'; }
# meter_model: "em" when the guest's command line has
# virt_cluster_power.model=em (the meters count no idle power), else "full"
meter_model() {
	if at cmdline | grep -q "virt_cluster_power.model=em"; then echo em; else echo full; fi
}

# meter_checks [WHAT]: per "@meter" run and meter, a cluster pinned at an
# OPP for T with n of its CPUs busy adds (P_leak + 4 * P_wfi) * T +
# n * P(OPP) * T within 1% (with virt_cluster_power.model=em on the
# guest's command line, no idle power), plus P(OPP) times the busy time of
# its other CPUs meanwhile where the log has it (others_ns: the shell and
# its children, kernel threads: 0.02 to 0.51 ms of a 1 s window on the
# idle A7s in 2 boots). WHAT goes before each check's name.
meter_checks() {
	local what=${1:-} met run line label cpus khz busy wall de nc idle nb p want others
	local model
	model=$(meter_model)
	met=$(at meter)
	for run in $(echo "$met" | value run | distinct); do
		while read -r line; do
			label=$(echo "$line" | value label)
			cpus=$(echo "$line" | value cpus)
			khz=$(echo "$line" | value khz)
			busy=$(echo "$line" | value busy)
			# T: from one meter read to the other (older logs: the busy loop)
			wall=$(echo "$line" | value window_ns)
			[ -n "$wall" ] || wall=$(echo "$line" | value wall_ns)
			de=$(counter_delta "$(echo "$line" | value before)" "$(echo "$line" | value after)") ||
				de="" # a counter reset: no delta, the check fails
			nc=$(echo "$cpus" | tr ',' '\n' | grep -c .)
			idle=0
			[ "$model" = em ] || idle=$(idle_power "$label" "$khz" "$nc")
			nb=0
			[ "$busy" = none ] || nb=$(echo "$busy" | tr ',' '\n' | wc -l)
			p=$(power "${cpus%%,*}" "$khz")
			# Its other CPUs' busy time meanwhile (older logs: none).
			others=$(echo "$line" | value others_ns)
			want=$(awk -v n="$nb" -v p="$p" -v i="$idle" -v w="$wall" -v o="${others:-0}" \
				'BEGIN { printf "%.0f", ((i + n * p) * w + p * o) / 1e9 }')
			within "${what}meter $label ($run): at $khz kHz, $nb of its CPUs busy (${busy}), for $(ms "$wall") ms adds (leakage + $nc WFI: $idle uW + $nb * P: $p uW) * T${others:+ + P * $(ms "$others") ms busy on its other CPUs} (uJ)" \
				"$want" "$de" 1
		done < <(echo "$met" | grep -E "(^| )run=$run( |$)")
	done
}
