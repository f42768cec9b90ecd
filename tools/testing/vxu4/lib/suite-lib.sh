# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the virtual XU4's test scripts (sourced): their results as
# KTAP (tools/testing/ktap.sh), and the readers of the guest's "@KIND
# key=value ..." lines. The script sets, to use at, $log (a console
# log).

. "$(dirname "${BASH_SOURCE[0]}")/../../ktap.sh"

# known: when set, a failure is a known one (KTAP's "# TODO"): shown with
# its numbers and the reason in $known, counted apart, not as failed.
known=

ok() { ktap_ok "$1"; }

# nok NAME [DETAIL...]: a failure, each DETAIL on a diagnostic line.
nok() {
	if [ -n "$known" ]; then
		ktap_todo "$known" "$@"
	else
		ktap_fail "$@"
	fi
}

# expect NAME EXPECTED ACTUAL
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "expected: $2" "got:      $3"; fi
}

# The end: exits 0 only when nothing failed.
finish() { ktap_finish; }

# reported: the guest's console ($log) ends its report with "@end"; the
# suite ends here when it does not.
# shellcheck disable=SC2154 # $log: the sourcing script's
reported() {
	if grep -qx "@end" < <(tr -d '\r' <"$log"); then
		ok "guest booted and reported"
	else
		nok "guest booted and reported" "no @end in $log"
		finish
	fi
}

# The guest's "@KIND key=value" lines are read by vxu4log.py only. It is
# called often: with the system's python3 (make deps installs it), whose
# start is about 5 times quicker than a pyenv shim's, isolated (-I).
vxu4log=$(dirname "${BASH_SOURCE[0]}")/vxu4log.py
if [ -x /usr/bin/python3 ]; then vxu4py=(/usr/bin/python3 -I); else vxu4py=(python3); fi

# at KIND: the guest's "@KIND ..." lines of $log, without the "@KIND ".
at() { "${vxu4py[@]}" "$vxu4log" at "$log" "$1"; }

# value KEY [KEY=VALUE...]: the value of KEY on each of stdin's lines of
# "key=value" words (e.g. at's output) that has every KEY=VALUE given.
# By key, never by position.
value() { "${vxu4py[@]}" "$vxu4log" value "$@"; }

# counter_delta BEFORE AFTER: AFTER - BEFORE of an energy counter (uJ),
# wrap-safe: the meters count in 64 bits (hwmon_energy64), but a 32-bit
# kernel's hwmon_energy (a long) wraps from 2^31 - 1 to -2^31, so a drop
# from below 2^31 to a value in [-2^31, 0) is taken as one such wrap
# (+ 2^32). Any other drop (a counter reset) prints nothing, returns 1.
counter_delta() {
	if [ "$2" -ge "$1" ]; then
		echo $(($2 - $1))
	elif [ "$1" -lt $((1 << 31)) ] && [ "$2" -lt 0 ] && [ "$2" -ge $((-(1 << 31))) ]; then
		echo $(($2 - $1 + (1 << 32)))
	else
		return 1
	fi
}

# vxu4_boot NAME [--log FILE] [--dtb FILE] [KERNEL_ARG...]: boot [boot.NAME]
# of tools/testing/vxu4/suites/registry.toml (its kernel, DTB, arguments, timeout,
# log) through boot.py, the one way a suite boots the virtual XU4; each
# KERNEL_ARG replaces the declared one of its name. The debug kernel's
# boots have 9000 s, the others 3000 s (the registry's timeouts): lockdep
# and KASAN make a fork cost about half a second of guest time and a
# stress step 7 to 20 s (1 s otherwise), and its stress boot (--reps 2)
# took about 40 min of wall time with other boots beside it.
vxu4_boot() {
	"${vxu4py[@]}" "$(dirname "${BASH_SOURCE[0]}")/../suites/boot.py" "$@"
}

# no_splats WHAT: one result: no splat among the guest's "@kmsg" lines
# (every kernel message of the boot): WARNING, BUG, KASAN, UBSAN, lockdep,
# RCU, sleeping in atomic context, hung tasks, lockups, stalls,
# debugobjects, list corruption, oopses. Each splat line is shown.
splat_re='WARNING:|BUG:|UBSAN:|circular locking|inconsistent lock state|possible recursive locking|lock held when returning|suspicious RCU usage|sleeping function called from invalid context|scheduling while atomic|blocked for more than|soft lockup|hard LOCKUP|rcu.*detected stall|self-detected stall|ODEBUG|list_(add|del) corruption|Oops|Kernel panic|Unable to handle'
no_splats() {
	local kmsg nk splats count
	kmsg=$(at kmsg)
	nk=$(echo "$kmsg" | grep -c .)
	splats=$(echo "$kmsg" | grep -E "$splat_re")
	count=$(echo "$splats" | grep -c .)
	echo "splat lines in $1: $count of $nk kernel messages"
	if [ "$nk" -gt 0 ] && [ "$count" -eq 0 ]; then
		ok "$1: no splat in the boot's $nk kernel messages (WARNING, BUG, KASAN, UBSAN, lockdep, RCU, atomic sleep, hung task, lockups, stalls, debugobjects)"
	else
		nok "$1: no splat in the boot's kernel messages ($nk messages, $count splat lines)" \
			"$(echo "$splats" | head -20)"
	fi
}

# distinct: stdin's lines, each once, in the order first seen.
distinct() { awk '!seen[$0]++'; }

# median, sum: of the numbers on stdin, one per line.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
sum() { awk '{ n += $1 } END { print n + 0 }'; }

# within NAME EXPECTED ACTUAL TOLERANCE_PERCENT: ok when ACTUAL is within
# TOLERANCE_PERCENT of EXPECTED (printed with the error).
within() {
	local d
	d=$(awk -v e="$2" -v a="$3" 'BEGIN { if (e == 0) print "inf"; else printf "%+.2f", (a - e) * 100 / e }')
	if [ "$d" != inf ] && awk -v d="$d" -v t="$4" 'BEGIN { exit !(d <= t && d >= -t) }'; then
		ok "$1: $3, expected $2 ($d%, within $4%)"
	else
		nok "$1" "expected $2 within $4%, got $3 ($d%)"
	fi
}

# The DTB readers (opp_table, opp_khz)
. "$(dirname "${BASH_SOURCE[0]}")/../board/dtb-lib.sh"
