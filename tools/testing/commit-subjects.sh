#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The subjects of the commits since a recorded base, as kernel commits
# have them (Documentation/process/submitting-patches.rst, "The canonical
# patch format"): "area: imperative summary". KTAP, one result a commit
# (merges left out: git writes their subjects), each failed with its
# reasons. What can be checked of a message:
#   - the subject is at most 72 characters;
#   - it starts with an area: a word or a path (letters, digits, and
#     "_./+,-" and spaces inside), then ": ", then the summary; a revert
#     as git writes it (Revert "area: ...") counts as its commit's;
#   - it does not end with a period;
#   - a blank line parts it from the body, if there is one (else git
#     takes both for the subject).
# Whether the summary is imperative and a body says why is for review.
#
# Usage: commit-subjects.sh [-C DIR] [--base REV] [--head REV]
#   -C DIR      the repository (default: this tree's)
#   --base REV  the commits after REV (default: the id in
#               tools/testing/commit-base)
#   --head REV  up to REV (default: HEAD)
#
# A shallow clone (git clone --depth N) that lacks the base stops
# short of it: every commit it has came after the base (the history is
# linear), so all of them are judged, and a diagnostic line says so. A
# base that is there but not an ancestor of the head is an error (exit 2).
# A tree with no git history at all (a source export) has nothing to
# judge: one result, skipped with the reason.
#
# Exit: 0 every subject conforms, 1 one does not, 2 bad input (no base
# in a full history, base not an ancestor of the head).

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
repo=$top base='' head=HEAD
while [ $# -gt 0 ]; do
	case $1 in
	-C) repo=${2:?}; shift 2 ;;
	--base) base=${2:?}; shift 2 ;;
	--head) head=${2:?}; shift 2 ;;
	*) echo "usage: $0 [-C DIR] [--base REV] [--head REV]" >&2; exit 2 ;;
	esac
done
# Characters, not bytes, whatever the caller's locale.
export LC_ALL=C.UTF-8

die() { echo "commit-subjects.sh: $*" >&2; exit 2; }

if [ -z "$base" ]; then
	base=$(grep -v '^#' "$top/tools/testing/commit-base" | grep -m1 .) ||
		die "no commit id in tools/testing/commit-base"
fi

# shellcheck source=tools/testing/ktap.sh
. "$top/tools/testing/ktap.sh"

if ! git -C "$repo" rev-parse --git-dir >/dev/null 2>&1; then
	ktap_skip "commit subjects since ${base:0:12}" "no git history in $repo (not a clone)"
	ktap_finish
fi
shallow=$(git -C "$repo" rev-parse --is-shallow-repository)
fix_shallow="a shallow clone lacks it: fetch the history (git fetch --unshallow), or clone without --depth"
range=$base..$head
if ! git -C "$repo" rev-parse -q --verify "$base^{commit}" >/dev/null; then
	[ "$shallow" = true ] ||
		die "the base $base is not a commit of $repo: set tools/testing/commit-base to an ancestor of $head"
	range=$head
elif ! git -C "$repo" merge-base --is-ancestor "$base" "$head" 2>/dev/null; then
	[ "$shallow" = true ] && die "the base $base is not an ancestor of $head in this history: $fix_shallow"
	die "the base $base is not an ancestor of $head (history rewritten?): set tools/testing/commit-base to one"
fi

commits=()
mapfile -t commits < <(git -C "$repo" rev-list --no-merges --reverse "$range")
if [ ${#commits[@]} -eq 0 ]; then
	ktap_skip "commit subjects since ${base:0:12}" "no commit after the base"
	ktap_finish
fi
[ "$range" = "$head" ] &&
	echo "# a shallow clone without the base ${base:0:12}: its ${#commits[@]} commits, all after the base, judged"

area='[A-Za-z0-9_.][A-Za-z0-9_./+, -]*'
for c in "${commits[@]}"; do
	msg=$(git -C "$repo" log -1 --format=%B "$c")
	subject=$(sed -n 1p <<<"$msg")
	second=$(sed -n 2p <<<"$msg")
	why=()
	[ ${#subject} -le 72 ] || why+=("the subject is ${#subject} characters, more than 72")
	s=$subject
	[[ $s =~ ^Revert\ \"(.*)\"$ ]] && s=${BASH_REMATCH[1]}
	[[ $s =~ ^$area:\ [^[:space:]] ]] || why+=("no \"area: \" before the summary")
	[[ $subject != *. ]] || why+=("the subject ends with a period")
	[ -z "$second" ] || why+=("no blank line between the subject and the body")
	desc="${c:0:12} $subject"
	if [ ${#why[@]} -eq 0 ]; then
		ktap_ok "$desc"
	else
		ktap_fail "$desc" "${why[@]}"
	fi
done
ktap_finish
