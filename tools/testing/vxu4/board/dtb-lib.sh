# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Sourced by the virtual XU4's scripts (suite-lib.sh for the test suites, and
# dtb-variant.sh, which makes the board's variants): reading the board's
# DTB with dtc's fdtget. No output of its own.

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
