#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series' way there and back (scripts/series.sh export and import),
# tested on a copy of this tree (its files as they are now, committed in
# a scratch repository), with trees of its own (SERIES_DIR:
# build/series-roundtrip, whose base is kept between runs):
#
#   1. export, then import: nothing in the copy changes (patches/, the
#      laid-out files, patches/files and patches/maintainers);
#   2. an edit made as a maintainer makes it, in the git tree: one line
#      that a patch adds to a file of the pristine tree, and one line of
#      a file that a patch adds, each a "git commit --fixup" of its patch,
#      squashed with "git rebase -i --autosquash base"; export then
#      refuses to remake the tree (its work is not imported yet);
#   3. import: exactly that patch and that file change in the copy, each
#      with the new line, and a second export makes the edited series.
#
# The lines edited are found, not named: the first line that a patch
# adds to a file no other patch touches (and that occurs once there),
# and the first line that occurs once in the first new file no later
# patch changes.
#
# KTAP (tools/testing/ktap.sh), one result each. Exit: 0 ok, 1 a check
# failed, 2 bad input (series.sh's: the series does not export).

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }

# shellcheck source=tools/testing/ktap.sh
. "$top/tools/testing/ktap.sh"

die() { echo "series-roundtrip-test.sh: $*" >&2; exit 2; }

export SERIES_DIR=$top/build/series-roundtrip
repo=$SERIES_DIR/git-sparse
mkdir -p "$top/build"
copy=$(mktemp -d "$top/build/series-roundtrip-copy.XXXXXX") || die "cannot make a folder in build/"
ktap_atexit rm -rf "$copy"
g=(git -c user.name=roundtrip -c user.email=roundtrip@localhost)

# The copy: every file of this tree that git knows or would add, as it
# is now, committed.
(
	cd "$top" || exit 2
	git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do
			[ -f "$f" ] && printf '%s\0' "$f"
		done | tar --null -T - -cf - | tar -C "$copy" -xf -
) || die "cannot copy the tree to $copy"
(cd "$copy" && "${g[@]}" init -q && "${g[@]}" add -A && "${g[@]}" commit -q -m "the tree as it is") ||
	die "cannot commit the copy in $copy"
series=$copy/scripts/series.sh

# 1. There and back.
# A tree an earlier run left with work not imported is this test's own.
rm -f "$repo/.git/series-exported"
"$series" export >&2 || die "scripts/series.sh export failed (above)"
if o=$("$series" import 2>&1) && [ -z "$(git -C "$copy" status --porcelain)" ]; then
	ktap_ok "export, then import: nothing changes (the $(grep -c . "$copy/patches/series") patches, $(grep -vc '^#' "$copy/patches/files") lines of patches/files, the files they add)"
else
	ktap_fail "export, then import: nothing changes" "$o" "$(git -C "$copy" status --porcelain)"
fi

# 2. The edit, in the git tree. The commits of the series, in order,
# and the files each changes.
mapfile -t commits < <(git -C "$repo" rev-list --reverse base..series)
laid=$(grep -v '^#' "$copy/patches/files" | cut -d: -f2- | tr ' ' '\n' | grep .)
# once FILE LINE: whether LINE is exactly one line of FILE (at HEAD).
once() { [ "$(git -C "$repo" show "HEAD:$1" | grep -cxF -- "$2")" = 1 ]; }
# touched FILE: how many commits of the series change FILE.
touched() { git -C "$repo" rev-list --count base..series -- "$1"; }

hunk_commit='' hunk_file='' hunk_line=''
for c in "${commits[@]}"; do
	while read -r f; do
		{ [ "$f" = MAINTAINERS ] || grep -qxF "$f" <<<"$laid"; } && continue
		[ "$(touched "$f")" = 1 ] || continue
		while IFS= read -r l; do
			l=${l#+}
			if [ -z "${l//[[:space:]]/}" ] || ! once "$f" "$l"; then continue; fi
			hunk_commit=$c hunk_file=$f hunk_line=$l
			break 3
		done < <(git -C "$repo" diff "$c^" "$c" -- "$f" | grep '^+' | grep -v '^+++ ')
	done < <(git -C "$repo" diff --name-only --diff-filter=M "$c^" "$c")
done
new_commit='' new_file='' new_line=''
while read -r f; do
	[ "$(touched "$f")" = 1 ] || continue
	while IFS= read -r l; do
		if [ -z "${l//[[:space:]]/}" ] || ! once "$f" "$l"; then continue; fi
		new_commit=$(git -C "$repo" rev-list base..series -- "$f") new_file=$f new_line=$l
		break 2
	done < <(git -C "$repo" show "HEAD:$f")
done <<<"$laid"
[ -n "$hunk_commit" ] || die "no patch adds a line to a file of the pristine tree that no other patch changes: nothing to edit"
[ -n "$new_commit" ] || die "no new file that no later patch changes: nothing to edit"
hunk_patch=$(sed -n "$(git -C "$repo" rev-list base.."$hunk_commit" | wc -l)p" "$copy/patches/series")
new_patch=$(sed -n "$(git -C "$repo" rev-list base.."$new_commit" | wc -l)p" "$copy/patches/series")
echo "the edits: in $hunk_patch, $hunk_file: \"$hunk_line\"; in $new_patch's new file $new_file: \"$new_line\""

# edit FILE LINE: LINE of FILE gets " roundtrip" at its end.
edit() {
	awk -v l="$2" '$0 == l { $0 = $0 " roundtrip" } { print }' "$repo/$1" >"$repo/$1.new" &&
		mv "$repo/$1.new" "$repo/$1"
}
if (cd "$repo" && edit "$hunk_file" "$hunk_line" && "${g[@]}" commit -q -a --fixup="$hunk_commit" &&
    edit "$new_file" "$new_line" && "${g[@]}" commit -q -a --fixup="$new_commit" &&
    GIT_SEQUENCE_EDITOR=: "${g[@]}" rebase -q -i --autosquash base) >&2 2>&1; then
	ktap_ok "the two edits, committed as fixups and squashed into their patches (git rebase -i --autosquash)"
else
	ktap_fail "the two edits, committed as fixups and squashed into their patches (git rebase -i --autosquash)"
	git -C "$repo" rebase --abort >/dev/null 2>&1
fi
if o=$("$series" export 2>&1); then
	ktap_fail "export refuses a tree with commits not imported" "$o"
else
	rc=$?
	if [ "$rc" = 2 ] && grep -q 'not in patches/' <<<"$o"; then
		ktap_ok "export refuses a tree with commits not imported (exit 2: $(cut -c1-60 <<<"${o#series.sh: }")...)"
	else
		ktap_fail "export refuses a tree with commits not imported (exit 2)" "exit $rc: $o"
	fi
fi

# 3. Back into the copy: exactly the two files, each with its new line.
"$series" import >&2 || die "scripts/series.sh import failed (above)"
stat=$(git -C "$copy" diff --stat)
echo "git diff --stat of the copy after the import:"
echo "$stat"
changed=$(git -C "$copy" diff --name-only | sort)
want=$(printf '%s\n' "patches/$hunk_patch" "$new_file" | sort)
if [ "$changed" = "$want" ]; then
	ktap_ok "import changes only patches/$hunk_patch and $new_file"
else
	ktap_fail "import changes only patches/$hunk_patch and $new_file" "changed: $changed"
fi
d=$(git -C "$copy" diff -U0 -- "patches/$hunk_patch" | grep '^[-+]' | grep -v '^[-+][-+][-+] ')
if [ "$d" = "$(printf -- '-+%s\n++%s roundtrip' "$hunk_line" "$hunk_line")" ]; then
	ktap_ok "the patch's hunk line arrived: +$hunk_line roundtrip"
else
	ktap_fail "the patch's hunk line arrived: +$hunk_line roundtrip" "its diff: $d"
fi
d=$(git -C "$copy" diff -U0 -- "$new_file" | grep '^[-+]' | grep -v '^[-+][-+][-+] ')
if [ "$d" = "$(printf -- '-%s\n+%s roundtrip' "$new_line" "$new_line")" ]; then
	ktap_ok "the new file's line arrived in $new_file"
else
	ktap_fail "the new file's line arrived in $new_file" "its diff: $d"
fi
before=$(git -C "$repo" rev-parse 'HEAD^{tree}')
if o=$("$series" export 2>&1) && [ "$(git -C "$repo" rev-parse 'series^{tree}')" = "$before" ]; then
	ktap_ok "export of the imported copy makes the edited series' tree again"
else
	ktap_fail "export of the imported copy makes the edited series' tree again" "$o"
fi
ktap_finish
