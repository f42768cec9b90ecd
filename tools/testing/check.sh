#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The test tiers: the suites that tools/testing/vxu4/suites lists for a
# tier, then one closing line "N passed, N failed".
#
#   tools/testing/check.sh [check|ci|full|debug]   (default: check)
#     check  make check        every edit: minutes
#     ci     make check-ci     what CI runs (.ci/run)
#     full   make check-full   everything: before a series version, and
#                              whenever the emulation changes
#     debug  make check-debug  the debug kernel's suites
#   tools/testing/check.sh --suite TARGET|ID [TIER]
#                              one suite alone, the same way: the row
#                              whose TARGET is the make target that runs
#                              it (make check-boost), or whose ID is ID
#                              (of TIER, when the ID has a row a tier);
#                              what names no row or several ("-", the
#                              list's "no target", names none) is
#                              refused, with the tiers that would name
#                              one
#   tools/testing/check.sh --targets
#                              the make targets of the list: "TARGET
#                              NAME" a line, tab-separated (the Makefile's)
#
# The suites of the "iso" lane (boots, each on a host core of its own:
# scripts/vxu4.sh) and those of the "host" lane (the other core) run at
# once, each lane one suite after the other; "any" suites (boots that need
# no core of their own) are the iso lane's, unless the host lane, its own
# suites done, starts one first; "here" suites (judges of the logs others
# wrote) run in this script when their turn comes, but for those at the
# head of the list, which run before the lanes start. Every suite is shown
# in the list's order as soon as it and those before it are done. A suite
# alone (--suite) runs here, as its make target always ran it: with the
# caller's environment (no VXU4_ISOLATE=0: no other lane wants a core)
# and its standard error as it comes, not held for the end.
#
# The output is KTAP (Documentation/dev-tools/ktap.rst): each suite prints
# a KTAP document (tools/testing/ktap.sh), shown here nested as a subtest,
# then its result; the totals are added up from the suites' result lines.
# Known failures (KTAP's "# TODO", each naming one test and its measured
# cause) and skips are shown with their reasons and counted on lines of
# their own above the closing one.
#
# Exit: 0 nothing failed, 1 a failure, 2 bad usage.

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
list=$top/tools/testing/vxu4/suites

usage() {
	echo "usage: $0 [check|ci|full|debug] | --suite TARGET|ID [TIER] | --targets" >&2
	exit 2
}

# The tiers and the lanes there are.
known_tiers=(check ci full debug)
known_lanes=(iso any host here)

# bad_row WHAT: the list's line $n refused, exit 2.
bad_row() {
	echo "check.sh: $list line $n: $*" >&2
	exit 2
}

# The list's rows, in its order: tiers, lanes, ids, make targets, names,
# commands. A tier or lane it does not know (a misspelt one would leave
# the suite out of every tier), an ID or TARGET that is not a word, a
# make target on two rows: the list is refused, naming the line.
all_tiers=() all_lanes=() all_ids=() all_targets=() all_names=() all_cmds=()
n=0
while IFS= read -r line; do
	n=$((n + 1))
	case $line in '#'* | '') continue ;; esac
	IFS='|' read -r head name cmd <<<"$line"
	read -r tiers lane id target extra <<<"$head"
	name=$(echo "$name" | sed 's/^ *//; s/ *$//')
	cmd=${cmd# }
	if [ -z "$cmd" ] || [ -z "$target" ] || [ -n "$extra" ]; then
		bad_row "not of the form 'TIERS LANE ID TARGET | NAME | COMMAND': $line"
	fi
	if [ "$tiers" != - ]; then
		[[ $tiers =~ ^[^,]+(,[^,]+)*$ ]] ||
			bad_row "tiers '$tiers': want some of ${known_tiers[*]}, comma-separated, or - (none)"
		IFS=, read -ra ts <<<"$tiers"
		for t in "${ts[@]}"; do
			[[ " ${known_tiers[*]} " == *" $t "* ]] ||
				bad_row "unknown tier '$t': want some of ${known_tiers[*]}, comma-separated, or - (none)"
		done
	fi
	[[ " ${known_lanes[*]} " == *" $lane "* ]] ||
		bad_row "unknown lane '$lane': want one of ${known_lanes[*]}"
	if [[ ! $id =~ ^[A-Za-z0-9_.-]+$ ]] || [ "$id" = - ]; then bad_row "ID '$id' is not a word"; fi
	[[ $target =~ ^[A-Za-z0-9_.-]+$ ]] || bad_row "TARGET '$target' is not a word (or -)"
	if [ "$target" != - ] && [[ " ${all_targets[*]} " == *" $target "* ]]; then
		bad_row "make target $target on two rows"
	fi
	all_tiers+=("$tiers") all_lanes+=("$lane") all_ids+=("$id") all_targets+=("$target")
	all_names+=("$name") all_cmds+=("$cmd")
done <"$list"

if [ "${1:-}" = --targets ]; then
	[ $# -eq 1 ] || usage
	for i in "${!all_ids[@]}"; do
		[ "${all_targets[$i]}" = - ] || printf '%s\t%s\n' "${all_targets[$i]}" "${all_names[$i]}"
	done
	exit 0
fi

# The rows to run: a tier's, or one suite's (--suite).
alone=
rows=()
if [ "${1:-}" = --suite ]; then
	if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
	alone=$2 tier=${3:-}
	# "-" is the list's "no make target", no suite's name.
	if [ "$alone" = - ] || [[ ! $alone =~ ^[A-Za-z0-9_.-]+$ ]]; then
		echo "check.sh: --suite '$alone': want a make target or an ID of $list ($0 --targets lists the targets)" >&2
		exit 2
	fi
	if [ -n "$tier" ] && [[ " ${known_tiers[*]} " != *" $tier "* ]]; then
		echo "check.sh: --suite $alone $tier: unknown tier '$tier': want one of ${known_tiers[*]}" >&2
		exit 2
	fi
	for i in "${!all_ids[@]}"; do
		[ "${all_targets[$i]}" = "$alone" ] && [ -z "$tier" ] && rows+=("$i")
	done
	if [ ${#rows[@]} -eq 0 ]; then
		for i in "${!all_ids[@]}"; do
			[ "${all_ids[$i]}" = "$alone" ] || continue
			[ -z "$tier" ] || case ",${all_tiers[$i]}," in *",$tier,"*) ;; *) continue ;; esac
			rows+=("$i")
		done
	fi
	if [ ${#rows[@]} -ne 1 ]; then
		echo "check.sh: '$alone'${tier:+ in tier $tier} names ${#rows[@]} rows of $list, not one:" >&2
		for i in "${rows[@]}"; do
			echo "  ${all_tiers[$i]} ${all_ids[$i]} ${all_targets[$i]} | ${all_names[$i]}" >&2
		done
		# The tiers that, added, name one row of these.
		one=()
		if [ -z "$tier" ]; then
			for t in "${known_tiers[@]}"; do
				k=0
				for i in "${rows[@]}"; do
					case ",${all_tiers[$i]}," in *",$t,"*) k=$((k + 1)) ;; esac
				done
				[ "$k" -ne 1 ] || one+=("$t")
			done
		fi
		[ ${#one[@]} -eq 0 ] ||
			echo "  (add a tier that names one of them: $0 --suite $alone TIER, TIER one of ${one[*]})" >&2
		exit 2
	fi
else
	[ $# -le 1 ] || usage
	tier=${1:-check}
	case $tier in
	check | ci | full | debug) ;;
	*) usage ;;
	esac
	for i in "${!all_ids[@]}"; do
		case ",${all_tiers[$i]}," in *",$tier,"*) rows+=("$i") ;; esac
	done
fi
ids=() lanes=() names=() cmds=()
for i in "${rows[@]}"; do
	ids+=("${all_ids[$i]}") lanes+=("${all_lanes[$i]}") names+=("${all_names[$i]}")
	cmds+=("${all_cmds[$i]}")
done
# Alone, the suite runs here.
[ -z "$alone" ] || lanes=(here)
nsuites=${#ids[@]}
[ "$nsuites" -gt 0 ] || { echo "check.sh: $list lists no suite of tier $tier" >&2; exit 2; }

out=$(mktemp -d)
lane_pids=()
stop_lanes() {
	local p
	for p in "${lane_pids[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null
	done
	lane_pids=()
}
trap 'stop_lanes; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM

# run_lane LANE: its suites one after the other, each's output, stderr and
# exit status in $out/ID.{out,err,rc}: the iso lane's and the "any" ones
# in the list's order; the host lane's, then the "any" ones the iso lane
# has not started. A suite is run by the lane that first makes its
# $out/ID.run (mkdir: one of two at once succeeds).
run_lane() {
	local i pass
	for pass in own any; do
		for i in "${!ids[@]}"; do
			case $1/$pass/${lanes[$i]} in
			iso/own/iso | iso/own/any | host/own/host | host/any/any) ;;
			*) continue ;;
			esac
			mkdir "$out/${ids[$i]}.run" 2>/dev/null || continue
			if [ "$1" = host ]; then
				VXU4_ISOLATE=0 bash -c "${cmds[$i]}" >"$out/${ids[$i]}.out" 2>"$out/${ids[$i]}.err" </dev/null
			else
				bash -c "${cmds[$i]}" >"$out/${ids[$i]}.out" 2>"$out/${ids[$i]}.err" </dev/null
			fi
			echo $? >"$out/${ids[$i]}.rc"
		done
	done
}

passed=0 failed=0 todo=0 skipped=0 nsuite=0
suites_failed=()
start=$SECONDS
echo "KTAP version 1"
if [ -n "$alone" ]; then
	echo "# suite '$alone' alone: $nsuites suite from ${list#"$top"/}"
else
	echo "# make check tier '$tier': $nsuites suites from ${list#"$top"/}"
fi
echo "1..$nsuites"

# run_here I: suite I here, its output, stderr and exit status in
# $out/ID.{out,err,rc}.
run_here() {
	bash -c "${cmds[$1]}" >"$out/${ids[$1]}.out" 2>"$out/${ids[$1]}.err" </dev/null
	echo $? >"$out/${ids[$1]}.rc"
}
# The "here" suites at the head of the list (a kernel build that the boots
# of both lanes need) run before the lanes start.
for i in "${!ids[@]}"; do
	if [ -n "$alone" ] || [ "${lanes[$i]}" != here ]; then break; fi
	run_here "$i"
done
# Each lane a session of its own, so that a kill takes its QEMU along.
for lane in iso host; do
	case " ${lanes[*]} " in *" $lane "* | *" any "*) ;; *) continue ;; esac
	setsid bash -c "$(declare -p ids lanes cmds out); $(declare -f run_lane); run_lane $lane" &
	lane_pids+=($!)
done

# show NAME OUT ERR RC: a suite's KTAP nested (4 spaces) under "# Subtest:
# NAME", its stderr as diagnostics, its results added to ours, its own
# result line.
show() {
	local name=$1 o=$2 e=$3 rc=$4 counts p f t k plan n
	nsuite=$((nsuite + 1))
	awk -v name="$name" 'NR == 1 { print "    " $0; print "    # Subtest: " name; next }
		{ print "    " $0 }' "$o"
	sed 's/^/# /' "$e"
	# The suite's own results (not nested deeper): pass, fail, todo, skip;
	# its plan.
	counts=$(awk '
		/^(not )?ok [0-9]+ / {
			n++
			if ($0 ~ /^ok / && $0 ~ / # SKIP/) k++
			else if ($0 ~ /^ok /) p++
			else if ($0 ~ / # TODO/) t++
			else f++
		}
		/^1\.\.[0-9]+$/ && !plan { plan = substr($0, 4) }
		END { print p + 0, f + 0, t + 0, k + 0, plan == "" ? -1 : plan, n + 0 }' "$o")
	read -r p f t k plan n <<<"$counts"
	passed=$((passed + p)) todo=$((todo + t)) skipped=$((skipped + k))
	if [ "$plan" != "$n" ] || [ "$n" -eq 0 ]; then
		echo "# $name: its plan is 1..$plan, its results $n"
		f=$((f + 1))
	elif [ "$f" -eq 0 ] && [ "$rc" -ne 0 ]; then
		echo "# $name: no failed result, but exit status $rc"
		f=1
	fi
	failed=$((failed + f))
	if [ "$f" -eq 0 ]; then
		echo "ok $nsuite $name"
	else
		suites_failed+=("$name")
		echo "not ok $nsuite $name"
	fi
	echo "# $name: done at $((SECONDS - start)) s"
}

for i in "${!ids[@]}"; do
	id=${ids[$i]}
	if [ -n "$alone" ]; then
		# Its diagnostics as they come (a boot's progress), not held.
		: >"$out/$id.err"
		bash -c "${cmds[$i]}" >"$out/$id.out" </dev/null
		echo $? >"$out/$id.rc"
	elif [ "${lanes[$i]}" = here ] && [ ! -e "$out/$id.rc" ]; then
		run_here "$i"
	fi
	while [ ! -s "$out/$id.rc" ]; do
		sleep 1
	done
	show "${names[$i]}" "$out/$id.out" "$out/$id.err" "$(cat "$out/$id.rc")"
done

if [ "$nsuite" -ne "$nsuites" ]; then
	echo "# check.sh ran $nsuite suites, its plan says $nsuites"
	failed=$((failed + 1))
fi
[ ${#suites_failed[@]} -eq 0 ] || echo "# failed suites: ${suites_failed[*]}"
[ "$todo" -eq 0 ] ||
	echo "# known failures (# TODO, shown above with their numbers and causes): $todo"
[ "$skipped" -eq 0 ] || echo "# skipped (# SKIP, shown above with their reasons): $skipped"
if [ -n "$alone" ]; then
	echo "# suite '$alone': $((SECONDS - start)) s of wall time"
else
	echo "# tier '$tier': $((SECONDS - start)) s of wall time"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
