#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series as kernel people take it, tested: scripts/series.sh export
# makes it (git format-patch output in build/series/out, one commit a
# patch on the pristine tree), then
#
#   series-test.sh          git am of the exported patches on a fresh
#                           worktree of the pristine base, and checkpatch
#                           --strict of each patch (on the sparse base:
#                           build/series/git-sparse), and the series'
#                           MAINTAINERS section by get_maintainer.pl
#                           (--self-test, and -f for each file it adds)
#   series-test.sh --build  the same on the whole pristine tree
#                           (build/series/git), then the zImage built at
#                           every patch of the git-am tree (bisectable;
#                           build/series/obj, ccache; needs make kernel:
#                           its build/obj/.config is the one built)
#
# KTAP (tools/testing/ktap.sh), one result each.
#
# Exit: 0 ok, 1 a check failed, 2 bad input (series.sh export's: a file
# in no patch or in two, a missing file, a patch that does not apply).

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# --build: series.sh's whole pristine tree (--full), which builds.
full=()
case $# in
0) ;;
1) [ "$1" = --build ] || { echo "usage: $0 [--build]" >&2; exit 2; }
   full=(--full) ;;
*) echo "usage: $0 [--build]" >&2; exit 2 ;;
esac

die() { echo "series-test.sh: $*" >&2; exit 2; }

# shellcheck source=tools/testing/ktap.sh
. "$top/tools/testing/ktap.sh"

# Where series.sh makes the series: its folder, the git tree of the base
# and the series, the format-patch output ("NAME=PATH" lines).
dir='' repo='' out=''
while IFS='=' read -r k v; do
	case $k in
	dir) dir=$v ;;
	repo) repo=$v ;;
	out) out=$v ;;
	esac
done < <("$top/scripts/series.sh" paths "${full[@]}")
{ [ -n "$dir" ] && [ -n "$repo" ] && [ -n "$out" ]; } ||
	die "scripts/series.sh paths ${full[*]} did not name dir, repo and out"
# The git-am tree: named as build/linux-source-6.12, and its objects as
# build/obj, one level down, so that ccache (base dir: our tree) sees the
# same relative paths as in the main build and hits for unchanged files.
am=$dir/linux-source-6.12

ok() { ktap_ok "$1"; }
nok() { ktap_fail "$@"; }

check() {
	local p o n
	"$top/scripts/series.sh" export "${full[@]}" || exit
	git -C "$repo" worktree remove -f "$am" >/dev/null 2>&1
	rm -rf "$am"
	git -C "$repo" worktree prune
	git -C "$repo" worktree add -q -f --detach "$am" base || die "cannot make a worktree of the base"
	local patches=("$out"/*.patch)
	n=${#patches[@]}
	if o=$(cd "$am" && git -c user.name=check -c user.email=check@localhost am -q "$out"/*.patch 2>&1); then
		ok "git am of the $n patches on the pristine tree ($(git -C "$repo" log -1 --format=%s base))"
	else
		nok "git am of the $n patches on the pristine tree" "$o"
		git -C "$am" am --abort >/dev/null 2>&1
	fi
	if [ "$(git -C "$am" rev-parse 'HEAD^{tree}')" = "$(git -C "$repo" rev-parse 'series^{tree}')" ]; then
		ok "the git-am tree is the exported series' tree"
	else
		nok "the git-am tree is the exported series' tree"
	fi
	maintainers
	for p in "$out"/*.patch; do
		# The system python3 (its python3-ply: checkpatch's SPDX check), not a
		# user's own (pyenv and the like) first in PATH. The base's history
		# is Debian's source as one commit, so an upstream commit that a
		# patch names (Fixes:) cannot be found in it: checkpatch's check of
		# commit ids (UNKNOWN_COMMIT_ID) has nothing to look them up in.
		if o=$(cd "$repo" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q --no-summary \
			--ignore UNKNOWN_COMMIT_ID "$p" 2>&1) &&
		   [ -z "$o" ]; then
			ok "checkpatch --strict ${p##*/}"
		else
			nok "checkpatch --strict ${p##*/}" "$o"
		fi
	done
}

# The series' MAINTAINERS section in the git-am tree, by the kernel's
# scripts/get_maintainer.pl: --self-test=patterns,sections warns of
# nothing in its lines (the sparse base lacks most files that other
# sections name: their warnings are not the series'), and
# get_maintainer.pl --sections -f names it for every file the series
# adds.
maintainers() {
	local title first last o f missing=() added=()
	title=$(grep -v '^#' "$top/patches/maintainers" | grep -m1 .)
	first=$(grep -nxF -- "$title" "$am/MAINTAINERS" | cut -d: -f1 | head -1)
	if [ -z "$first" ]; then
		nok "get_maintainer.pl --self-test: the series' MAINTAINERS section" "no section titled \"$title\" in MAINTAINERS"
		return
	fi
	last=$(awk -v f="$first" 'NR > f && $0 == "" { print NR - 1; exit }' "$am/MAINTAINERS")
	o=$(cd "$am" && perl scripts/get_maintainer.pl --self-test=patterns,sections 2>&1 |
		awk -F: -v f="$first" -v l="$last" '$2 + 0 >= f && $2 + 0 <= l')
	if [ -z "$o" ]; then
		ok "get_maintainer.pl --self-test=patterns,sections: no warning in the series' section (MAINTAINERS:$first-$last)"
	else
		nok "get_maintainer.pl --self-test=patterns,sections: no warning in the series' section (MAINTAINERS:$first-$last)" "$o"
	fi
	mapfile -t added < <(git -C "$am" diff --name-only --diff-filter=A base HEAD -- . ':(exclude)MAINTAINERS')
	for f in "${added[@]}"; do
		o=$(cd "$am" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --sections -f "$f" 2>/dev/null)
		grep -qxF -- "$title" <<<"$o" || missing+=("$f")
	done
	if [ ${#added[@]} -gt 0 ] && [ ${#missing[@]} -eq 0 ]; then
		ok "get_maintainer.pl: each of the ${#added[@]} files the series adds is in its section"
	else
		nok "get_maintainer.pl: each of the ${#added[@]} files the series adds is in its section" "in none: ${missing[*]}"
	fi
}

# Build the zImage at every commit of the git-am tree, incrementally.
build_each() {
	local c i=0 obj=$dir/obj cfg=$top/build/obj/.config
	[ -f "$cfg" ] || die "$cfg is missing: run 'make kernel' first (its config is the one built)"
	export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=true
	export KBUILD_BUILD_USER=odroid-eas KBUILD_BUILD_HOST=build
	export KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00:00 UTC' KBUILD_BUILD_VERSION=1
	mkdir -p "$obj"
	for c in $(git -C "$am" rev-list --reverse base..HEAD); do
		i=$((i + 1))
		git -C "$am" checkout -q "$c"
		cp "$cfg" "$obj/.config"
		if o=$(make -s -C "$am" O="$obj" CC="ccache ${CROSS_COMPILE}gcc" olddefconfig 2>&1 &&
			make -s -C "$am" O="$obj" CC="ccache ${CROSS_COMPILE}gcc" -j"$(($(nproc) + 1))" zImage 2>&1); then
			ok "patch $i builds: $(git -C "$am" log -1 --format=%s "$c")"
		else
			nok "patch $i builds: $(git -C "$am" log -1 --format=%s "$c")" "$(echo "$o" | tail -15)"
		fi
	done
}

check
[ ${#full[@]} -eq 0 ] || build_each
ktap_finish
