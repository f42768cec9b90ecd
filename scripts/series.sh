#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series as kernel people take it: git format-patch output, made from
# this tree's sources of truth (patches/series, and the files of our tree
# that patches/files assigns to each patch). Its test (git am on a clean
# tree, checkpatch of each patch, the zImage at each patch) is
# tools/testing/series-test.sh, which calls this.
#
#   series.sh export [--full]
#                     build/series/git-sparse: the files of Debian's
#                     pristine linux-source tree that the series touches
#                     and that checkpatch reads, committed as the base,
#                     one commit a patch; the patches in build/series/out
#                     (git format-patch). --full: on the whole pristine
#                     tree (build/series/git), which builds
#   series.sh paths [--full]
#                     where export makes them, a "NAME=PATH" line each:
#                     dir (build/series), repo (the git tree: tag base,
#                     branch series), out (the patches)
#
# The sparse base makes the same patches (git format-patch writes only
# the files a patch changes) and the same checkpatch results (it holds
# all that checkpatch reads of a tree: scripts/, include/,
# Documentation/, LICENSES/, MAINTAINERS), with 17k files where the
# whole tree has 80k to commit and check out again.
#
# Exit: 0 ok, 2 bad input (a file in no patch or in two, a missing file,
# a patch that does not apply).

set -uo pipefail

usage() { echo "usage: series.sh export|paths [--full]" >&2; exit 2; }

top=$(cd "$(dirname "$0")/.." && pwd)
ktar=${KTAR:-/usr/src/linux-source-6.12.tar.xz}
dir=$top/build/series
sparse=1
case $# in
1) ;;
2) [ "$2" = --full ] || usage
   sparse= ;;
*) usage ;;
esac
repo=$dir/git${sparse:+-sparse}
out=$dir/out
overlay_dirs=(arch drivers include kernel Documentation)

die() { echo "series.sh: $*" >&2; exit 2; }
say() { printf '==> %s\n' "$*"; }

# needed: the paths of the pristine tree that the sparse base holds: the
# top-level files and folders checkpatch looks for in a kernel tree, what
# it reads (scripts/, include/, Documentation/, MAINTAINERS, LICENSES/
# for the SPDX check), every file a patch changes and every file of our
# overlay (some replace a file of the tree); one a line, those the tree
# lacks included.
needed() {
	printf '%s\n' COPYING CREDITS Kbuild MAINTAINERS Makefile README \
		LICENSES scripts include Documentation arch/Kconfig drivers/Kconfig fs/Kconfig \
		init/Kconfig ipc/Makefile kernel/Makefile lib/Kconfig
	sed -n 's@^--- a/@@p; s@^+++ b/@@p' "$top"/patches/*.patch
	(cd "$top" && git ls-files "${overlay_dirs[@]}")
}

# kversion: the kernel version of the tree in the current folder, from
# its Makefile (make kernelversion wants the host's arch/ folder, which a
# sparse base lacks).
kversion() {
	awk -F' = ' '$1 ~ /^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)$/ { v[$1] = $2 }
		END { printf "%s.%s.%s%s", v["VERSION"], v["PATCHLEVEL"], v["SUBLEVEL"], v["EXTRAVERSION"] }' Makefile
}

# The base: the pristine Debian tree (sparse: the files needed() names),
# committed once, and again when a sparse base would lack a file the
# series now needs (a patch that changes a file none changed before).
base() {
	local err sum=full
	[ -n "$sparse" ] && sum=$(needed | sort -u | sha256sum | cut -d' ' -f1)
	[ "$(cat "$repo/.git/base-done" 2>/dev/null)" = "$sum" ] && return 0
	[ -f "$ktar" ] || die "$ktar is missing: install Debian's linux-source-6.12 package (make deps)"
	rm -rf "$repo"
	mkdir -p "$repo"
	if [ -n "$sparse" ]; then
		say "series: committing the files of the pristine $(basename "$ktar") that the series needs as the base (once)"
		# tar fails on the names the tree lacks (the files our series
		# adds): only "Not found in archive" errors are expected.
		err=$(needed | sort -u | sed 's@^@linux-source-6.12/@' |
			tar -C "$repo" --strip-components=1 -xf "$ktar" -T - 2>&1 |
			grep -v -e ': Not found in archive$' -e '^tar: Exiting with failure status')
		[ -z "$err" ] || die "cannot unpack $ktar: $err"
		{ [ -f "$repo/Makefile" ] && [ -f "$repo/scripts/checkpatch.pl" ]; } ||
			die "$ktar did not unpack as linux-source-6.12/: reinstall linux-source-6.12"
	else
		say "series: committing the pristine $(basename "$ktar") as the base (about 2 min, once)"
		tar -C "$repo" --strip-components=1 -xf "$ktar" || die "cannot unpack $ktar"
	fi
	(
		# -f: Debian's .gitignore ignores everything at the top level.
		cd "$repo" && git init -q && git add -f -A &&
		GIT_AUTHOR_NAME=Debian GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org \
		GIT_COMMITTER_NAME=Debian GIT_COMMITTER_EMAIL=debian-kernel@lists.debian.org \
		git commit -q -m "Linux $(kversion) (Debian linux-source-6.12)" &&
		git tag -f base >/dev/null
	) || die "cannot commit the base in $repo"
	echo "$sum" >"$repo/.git/base-done"
}

# Every file of our overlay is in exactly one patch of patches/files.
manifest_ok() {
	local f n
	while read -r f; do
		n=$(grep -v '^#' "$top/patches/files" | tr ' ' '\n' | grep -cxF "$f")
		[ "$n" = 1 ] || die "$f is in $n patches of patches/files: put it in exactly one"
	done < <(cd "$top" && git ls-files "${overlay_dirs[@]}")
	while read -r f; do
		[ -f "$top/$f" ] || die "patches/files lists $f, which is not in the tree"
	done < <(grep -v '^#' "$top/patches/files" | cut -d: -f2- | tr ' ' '\n' | grep .)
	while read -r f; do
		grep -qxF "$f" "$top/patches/series" || die "patches/files names $f, which is not in patches/series"
	done < <(grep -v '^#' "$top/patches/files" | cut -d: -f1 | grep .)
}

# maintainers: our MAINTAINERS section in the index, made, not kept by
# hand in every patch: patches/maintainers (its title, M:, L:, S: lines),
# then an F: line for each file the series has added so far (C order, as
# checkpatch wants); put before the first section whose title sorts after
# ours (a section: a title line after an empty line, then "X:" lines), or
# in place of the one an earlier patch made.
maintainers() {
	local added
	added=$(git diff --cached --name-only --diff-filter=A base | LC_ALL=C sort)
	[ -n "$added" ] || return 0
	LC_ALL=C awk -v head="$top/patches/maintainers" -v added="$added" '
	BEGIN {
		while ((getline l < head) > 0)
			if (l !~ /^#/ && l != "")
				sec[++ns] = l
		n = split(added, f, "\n")
		for (i = 1; i <= n; i++)
			sec[++ns] = "F:\t" f[i]
		title = sec[1]
	}
	{ line[++nl] = $0 }
	END {
		# drop our old section (title to the empty line after it)
		for (i = 1; i <= nl; i++) {
			if (line[i] == title && line[i - 1] == "") {
				for (j = i; j <= nl && line[j] != ""; j++)
					drop[j] = 1
				drop[j] = 1
			}
		}
		done = 0
		for (i = 1; i <= nl; i++) {
			if (drop[i])
				continue
			if (!done && line[i - 1] == "" && line[i + 1] ~ /^[A-Z]:\t/ &&
			    line[i] ~ /^[A-Z0-9]/ && line[i] > title) {
				for (k = 1; k <= ns; k++)
					print sec[k]
				print ""
				done = 1
			}
			print line[i]
		}
	}' MAINTAINERS >MAINTAINERS.new || die "cannot update MAINTAINERS"
	mv MAINTAINERS.new MAINTAINERS || die "cannot update MAINTAINERS"
	git add MAINTAINERS || die "cannot update MAINTAINERS"
}

# commit PATCH: the patch and its files, as one commit, its message the
# patch's header (From:, Subject:, the text up to "---"), with our
# MAINTAINERS section brought up to date.
commit() {
	local p=$1 path=$top/patches/$1 from name email subject f
	from=$(sed -n 's/^From: //p' "$path" | head -1)
	subject=$(sed -n 's/^Subject: \(\[PATCH[^]]*\] \)\{0,1\}//p' "$path" | head -1)
	{ [ -n "$from" ] && [ -n "$subject" ]; } || die "patches/$p: no From: or Subject: line"
	name=${from% <*} email=${from##*<} email=${email%>}
	# --allow-empty: a patch whose change is only its files (patches/files)
	git apply --index --allow-empty "$path" || die "patches/$p does not apply (git apply)"
	# The patch's files: the words after "PATCH:" on its lines.
	local files=()
	read -ra files <<<"$(grep "^$p:" "$top/patches/files" | cut -d: -f2- | tr '\n' ' ')"
	for f in "${files[@]}"; do
		mkdir -p "$(dirname "$f")"
		cp "$top/$f" "$f"
		git add -f "$f"
	done
	maintainers
	{
		echo "$subject"
		# The body: after the Subject line, up to the "---" line.
		awk 'body && /^---$/ { exit } body { print } /^Subject: / { body = 1 }' "$path"
	} | GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_COMMITTER_NAME=$name \
		GIT_COMMITTER_EMAIL=$email git commit -q -F - || die "cannot commit patches/$p"
}

export_series() {
	manifest_ok
	base
	(
		cd "$repo" || exit 2
		git checkout -q -f -B series base && git clean -q -fdx || exit 2
		while read -r p; do
			[ -n "$p" ] || continue
			commit "$p"
		done <"$top/patches/series"
		rm -rf "$out"
		git format-patch -q -o "$out" base..series || exit 2
	) || exit 2
	local patches=("$out"/*.patch)
	say "series: ${#patches[@]} patches in ${out#"$top"/} (git format-patch, base: the pristine tree)"
}

case $1 in
export) export_series ;;
paths) printf '%s\n' "dir=$dir" "repo=$repo" "out=$out" ;;
*) usage ;;
esac
