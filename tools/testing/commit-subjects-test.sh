#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# commit-subjects.sh's own test, on a throwaway repository in a temporary
# folder: a good commit passes; each kind of bad subject fails (exit 1)
# with its reason; a merge is left out; a shallow clone without the
# base judges the commits it has; a base that is not an ancestor is an
# error (exit 2); a tree with no history is a skip. KTAP, one result a case (self-checks.sh
# runs it).

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
check=$top/tools/testing/commit-subjects.sh
# shellcheck source=tools/testing/ktap.sh
. "$top/tools/testing/ktap.sh"

tmp=$(mktemp -d)
ktap_atexit rm -rf "$tmp"
# A git of its own: no user or system config, hooks or signing.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.org
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.org
repo=$tmp/repo
git init -q -b main "$repo"
g() { git -C "$repo" "$@"; }
# commit MESSAGE: an empty commit on the current branch.
commit() { g commit -q --allow-empty -m "$1"; }
commit "init: the base"
base=$(g rev-parse HEAD)

# case DESC WANT_RC WANT_TEXT MESSAGE: a branch from the base with one
# commit of MESSAGE; the check of it exits WANT_RC and says WANT_TEXT.
case_() {
	local desc=$1 want=$2 text=$3 msg=$4 out rc
	g checkout -q -b "c$((++ncase))" "$base"
	commit "$msg"
	out=$("$check" -C "$repo" --base "$base" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -qF -- "$text" <<<"$out"; then
		ktap_ok "$desc"
	else
		ktap_fail "$desc" "want exit $want and '$text', got exit $rc:" "$out"
	fi
}
ncase=0
long="area: $(printf 'x%.0s' $(seq 67))"
case_ "a subject of 72 characters with a body passes" 0 "ok 1" \
	"${long%x}"$'\n\nWhy it is done.'
case_ "a subject of 72 characters, one not ASCII, passes" 0 "ok 1" "${long%xx}é"
case_ "a subject of a path and no body passes" 0 "ok 1" "tools/testing/vxu4: check a thing"
case_ "a revert as git writes it passes" 0 "ok 1" 'Revert "area: do a thing"'
case_ "a subject of 73 characters fails" 1 "73 characters, more than 72" "${long}"
case_ "a subject without an area fails" 1 'no "area: " before the summary' "Do a thing"
case_ "an area without the space after its colon fails" 1 'no "area: "' "area:do a thing"
case_ "a subject that ends with a period fails" 1 "ends with a period" "area: do a thing."
case_ "a body right under the subject fails" 1 "no blank line between" \
	$'area: do a thing\nwhy, with no blank line'

# A merge (git's subject) is left out; the commits it brings are judged.
g checkout -q -b merged "$base"
commit "area: one side"
g checkout -q c1
g merge -q --no-edit merged
out=$("$check" -C "$repo" --base "$base" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^1\.\.2$' <<<"$out"; then
	ktap_ok "a merge is left out, the commits it brings judged"
else
	ktap_fail "a merge is left out, the commits it brings judged" "exit $rc:" "$out"
fi

# expect_error DESC TEXT ARGS...: the check exits 2 and says TEXT.
expect_error() {
	local desc=$1 text=$2 out rc
	shift 2
	out=$("$check" "$@" 2>&1)
	rc=$?
	if [ "$rc" -eq 2 ] && grep -qF -- "$text" <<<"$out"; then
		ktap_ok "$desc"
	else
		ktap_fail "$desc" "want exit 2 and '$text', got exit $rc:" "$out"
	fi
}
# shallow DESC BRANCH WANT_RC: a clone of BRANCH's last commit alone
# (no base) judges that commit: exit WANT_RC, one result, said so.
shallow() {
	local out rc
	rm -rf "$tmp/shallow"
	git clone -q --depth 1 --branch "$2" "file://$repo" "$tmp/shallow"
	out=$("$check" -C "$tmp/shallow" --base "$base" 2>&1)
	rc=$?
	if [ "$rc" -eq "$3" ] && grep -q '^1\.\.1$' <<<"$out" && grep -q '^# a shallow clone without the base' <<<"$out"; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "want exit $3, one result and the shallow clone said, got exit $rc:" "$out"
	fi
}
shallow "a shallow clone without the base: its good commit judged, passes" c2 0
shallow "a shallow clone without the base: its bad commit judged, fails" c5 1
expect_error "a base that is not an ancestor: exit 2" "not an ancestor" \
	-C "$repo" --base c3 --head c4

mkdir "$tmp/export"
out=$(GIT_CEILING_DIRECTORIES=$tmp "$check" -C "$tmp/export" --base "$base" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && grep -q '^ok 1 .* # SKIP no git history' <<<"$out"; then
	ktap_ok "a tree with no history: a skip with the reason"
else
	ktap_fail "a tree with no history: a skip with the reason" "exit $rc:" "$out"
fi
ktap_finish
