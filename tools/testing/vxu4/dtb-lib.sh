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
