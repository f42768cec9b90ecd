# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# KTAP results (Documentation/dev-tools/ktap.rst) for the project's test
# scripts; sourced, in bash.
#
#   ktap_ok DESC                  ok N DESC
#   ktap_fail DESC [DETAIL...]    not ok N DESC, then "# DETAIL" lines
#   ktap_todo REASON DESC [DETAIL...]
#                                 not ok N DESC # TODO REASON (a known
#                                 failure: shown, counted apart)
#   ktap_skip DESC REASON         ok N DESC # SKIP REASON
#   ktap_atexit CMD [ARG...]      run CMD with its ARGs (as they are now) at
#                                 exit, before the output
#   ktap_finish                   the end: exit 0 when nothing failed, else 1
#
# Anything else the script prints on its standard output becomes a
# diagnostic ("# ...") in its place among the results. The output is held
# until the script exits, then printed as one KTAP document:
#
#   KTAP version 1
#   1..N
#   ok 1 ...
#   ...
#   # Totals: pass:P fail:F skip:S todo:T total:N
#
# The plan (1..N) comes first, as KTAP asks, though our scripts judge what
# a boot's log holds and learn N only at their end: hence the holding.
# (The kernel's tools/testing/selftests/kselftest/ktap_helpers.sh prints
# its plan first, so a script must know N beforehand, and it echoes
# descriptions unquoted, so the "*" of ours would glob.)
#
# A script that exits without ktap_finish (set -u, a crash, exit 2) gets
# one more result: "not ok N <script> ran to its end # exit status S".
# A "#" in a description would start a directive: it is written "nr".

ktap_buf=$(mktemp) || exit 2
ktap_finished=
ktap_exit_cmds=()
exec 8>&1 >"$ktap_buf"
# A result line in the buffer: RS, then result, description and directive
# separated by tabs (RS and tabs are not in what the scripts print).
ktap_rs=$'\x1e'

ktap_result() {
	local desc=${2//#/nr}

	desc=${desc//$'\n'/ }
	desc=${desc//$'\t'/ }
	printf '%s%s\t%s\t%s\n' "$ktap_rs" "$1" "$desc" "${3:-}"
}

ktap_ok() {
	ktap_result ok "$1"
}

ktap_fail() {
	local l

	ktap_result "not ok" "$1"
	shift
	for l in "$@"; do
		printf '%s\n' "$l"
	done
}

ktap_todo() {
	local reason=$1 l

	ktap_result "not ok" "$2" "TODO ${reason//#/nr}"
	shift 2
	for l in "$@"; do
		printf '%s\n' "$l"
	done
}

ktap_skip() {
	ktap_result ok "$1" "SKIP ${2//#/nr}"
}

ktap_atexit() {
	local c

	printf -v c '%q ' "$@"
	ktap_exit_cmds+=("$c")
}

ktap_finish() {
	ktap_finished=1
	exit 0
}

ktap_emit() {
	local rc=$1 c

	for c in "${ktap_exit_cmds[@]}"; do
		eval "$c"
	done
	exec >&8 8>&-
	awk -v rs="$ktap_rs" -v rc="$rc" -v finished="$ktap_finished" \
		-v script="$(basename "$0")" '
	BEGIN { FS = "\t" }
	index($0, rs) == 1 {
		res = substr($1, 2)
		n++
		line[++nl] = res " " n " " $2 ($3 != "" ? " # " $3 : "")
		if (res == "ok" && $3 ~ /^SKIP/)
			skip++
		else if (res == "ok")
			pass++
		else if ($3 ~ /^TODO/)
			todo++
		else
			fail++
		next
	}
	# already a diagnostic, an empty line, a line of text
	/^#/ { line[++nl] = $0; next }
	{ line[++nl] = ($0 == "" ? "#" : "# " $0) }
	END {
		if (!finished) {
			n++
			line[++nl] = "not ok " n " " script " ran to its end # exit status " rc
			fail++
		}
		print "KTAP version 1"
		print "1.." n
		for (i = 1; i <= nl; i++)
			print line[i]
		printf "# Totals: pass:%d fail:%d skip:%d todo:%d total:%d\n",
			pass, fail, skip, todo, n
		exit fail ? (rc ? rc : 1) : 0
	}' "$ktap_buf"
	rc=$?
	rm -f "$ktap_buf"
	exit "$rc"
}

trap 'ktap_emit $?' EXIT
