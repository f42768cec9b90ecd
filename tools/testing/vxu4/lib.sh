# SPDX-License-Identifier: GPL-2.0
#
# Shared by the virtual XU4's test scripts (sourced): TAP-like results and
# a closing "NAME: N passed, N failed" line that scripts/check.sh adds up.
# The script sets $suite (the NAME) and, to use at, $log (a console log).

passed=0
failed=0

ok() { echo "ok - $1"; passed=$((passed + 1)); }

# nok NAME [DETAIL...]: a failure, each DETAIL on its own indented line.
nok() {
	echo "not ok - $1"
	shift
	for l in "$@"; do echo "    $l"; done
	failed=$((failed + 1))
}

# expect NAME EXPECTED ACTUAL
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1" "expected: $2" "got:      $3"; fi
}

# The closing line; exits 0 only when nothing failed.
finish() {
	echo "$suite: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# at KIND: the guest's "@KIND ..." lines of $log, without the "@KIND ".
at() { tr -d '\r' <"$log" | sed -n "s/^@$1 //p"; }
