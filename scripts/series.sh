#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series as kernel people take it, and as its maintainers edit it: a
# git tree of Debian's pristine linux-source with one commit a patch, made
# from this tree's sources of truth and written back to them. The sources
# of truth: patches/series (the order), patches/NNNN-*.patch (each patch's
# message and its changes to files of the pristine tree, and to the files
# an earlier patch added), the files a patch adds, kept whole at their
# kernel paths in this tree (their final content; patches/files says which
# patch adds which), and patches/maintainers (the series' MAINTAINERS
# section). Its test (git am on a clean tree, checkpatch of each patch,
# the zImage at each patch) is tools/testing/series-test.sh; the round
# trip's is tools/testing/series-roundtrip-test.sh.
#
#   series.sh export [--full]
#                     build/series/git-sparse: the files of Debian's
#                     pristine linux-source tree that the series touches
#                     and that checkpatch reads, committed as the base,
#                     one commit a patch (branch series, tag base); the
#                     patches in build/series/out (git format-patch).
#                     --full: on the whole pristine tree
#                     (build/series/git), which builds. Refused when the
#                     tree holds commits or changes not imported yet
#   series.sh import [--full]
#                     the other way: the commits base..HEAD of that tree
#                     (edited, reordered, new ones added) written back to
#                     patches/ (series, the patches, files, maintainers)
#                     and the new files at their paths in this tree; a
#                     file no commit adds any more is removed from it
#   series.sh strip PATCH
#                     PATCH without its changes to the files this tree
#                     lays out (patches/files): what quilt applies after
#                     the files are laid (scripts/kernel.sh)
#   series.sh paths [--full]
#                     where export makes them, a "NAME=PATH" line each:
#                     dir (build/series), repo (the git tree: tag base,
#                     branch series), out (the patches)
#
# Environment: KTAR (the source tarball), SERIES_DIR (instead of
# build/series: the round-trip test's own trees).
#
# A new file lives in this tree, whole, in its final state; its patch
# carries no diff of it, and a later patch's change to it (the config
# fragments' additions) is diff text in that later patch. Export makes
# the file's first state by taking those later changes back off it.
#
# The sparse base makes the same patches (git format-patch writes only
# the files a patch changes) and the same checkpatch results (it holds
# all that checkpatch reads of a tree: scripts/, include/,
# Documentation/, LICENSES/, MAINTAINERS), with 17k files where the
# whole tree has 80k to commit and check out again.
#
# Exit: 0 ok, 2 bad input (a file in no patch or in two, a missing file,
# a patch that does not apply, a tree with work not imported, a commit
# that import cannot write as a patch).

set -uo pipefail

usage() { echo "usage: series.sh export|import|paths [--full], series.sh strip PATCH" >&2; exit 2; }

top=$(cd "$(dirname "$0")/.." && pwd)
ktar=${KTAR:-/usr/src/linux-source-6.12.tar.xz}
dir=${SERIES_DIR:-$top/build/series}
sparse=1
case $#:${1:-} in
1:strip) usage ;;
2:strip) ;;
1:*) ;;
2:*) [ "$2" = --full ] || usage
   sparse= ;;
*) usage ;;
esac
repo=$dir/git${sparse:+-sparse}
full_opt=${sparse:- --full}
[ -z "$sparse" ] || full_opt=
out=$dir/out
overlay_dirs=(arch drivers include kernel Documentation)

die() { echo "series.sh: $*" >&2; exit 2; }
say() { printf '==> %s\n' "$*"; }
rel() { echo "${1#"$top"/}"; }

# The files this tree lays out (patches/files), one a line.
laid_files() {
	grep -v '^#' "$top/patches/files" | cut -d: -f2- | tr ' ' '\n' | grep .
}

# sections KEEP FILES <PATCH: the patch without (KEEP=0: its message
# kept) or with only (KEEP=1: no message) its changes to FILES (paths,
# one a line). A hunk is read by its line counts, so that a removed line
# that starts with "-- " is never taken for a file's header.
sections() {
	awk -v keep="$1" -v files="$2" '
	function path(l) {
		sub(/^(---|\+\+\+) /, "", l)
		sub(/\t.*/, "", l)
		sub(/^[ab]\//, "", l)
		return l
	}
	function count(w) {
		return index(w, ",") ? substr(w, index(w, ",") + 1) + 0 : 1
	}
	BEGIN {
		n = split(files, a, "\n")
		for (i = 1; i <= n; i++)
			ours[a[i]] = 1
		show = !keep	# the message, before the first file
	}
	{ line[++nl] = $0 }
	END {
		for (i = 1; i <= nl; i++) {
			l = line[i]
			if (ro > 0 || rn > 0) {
				c = substr(l, 1, 1)
				if (c == " " || l == "") {
					ro--
					rn--
				} else if (c == "-") {
					ro--
				} else if (c == "+") {
					rn--
				}
			} else if (l ~ /^diff --git a\//) {
				p = l
				sub(/^diff --git a\/.* b\//, "", p)
				show = ((p in ours) == keep)
			} else if (l ~ /^--- / && line[i + 1] ~ /^\+\+\+ /) {
				p = path(line[i + 1])
				if (p == "/dev/null")
					p = path(l)
				show = ((p in ours) == keep)
			} else if (l ~ /^@@ -[0-9]/) {
				split(l, w, " ")
				ro = count(w[2])
				rn = count(w[3])
			}
			if (show)
				print l
		}
	}'
}

# The record of the commit that export made, or import took, last: a
# tree whose HEAD is another, or that has changes, holds work that is
# not in patches/ yet.
made=
unimported() {
	made=$(cat "$repo/.git/series-exported" 2>/dev/null) || return 1
	[ "$(git -C "$repo" rev-parse -q --verify HEAD)" != "$made" ] ||
		[ -n "$(git -C "$repo" status --porcelain)" ]
}

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
		cp "$dir/laid/$f" "$f"
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

# first_states: in $dir/laid (a git repository of its own, for git
# apply's paths), the files this tree lays out as their own patch adds
# them: their state here with the later patches' changes to them taken
# back off, the last patch first.
first_states() {
	local laid=$dir/laid files f p series
	files=$(laid_files)
	rm -rf "$laid"
	mkdir -p "$laid"
	git -C "$laid" init -q || die "cannot make $(rel "$laid")"
	while read -r f; do
		mkdir -p "$laid/$(dirname "$f")"
		cp "$top/$f" "$laid/$f" || die "cannot copy $f"
	done <<<"$files"
	mapfile -t series < <(tac "$top/patches/series")
	for p in "${series[@]}"; do
		[ -n "$p" ] || continue
		sections 1 "$files" <"$top/patches/$p" >"$dir/laid.patch"
		[ -s "$dir/laid.patch" ] || continue
		(cd "$laid" && git apply -R "$dir/laid.patch") ||
			die "patches/$p: its changes to files of patches/files do not come off their state in this tree (git apply -R): the file and the patch disagree; fix the patch's hunks of it"
	done
}

export_series() {
	if unimported; then
		die "$(rel "$repo") holds commits or changes that are not in patches/ (HEAD $(git -C "$repo" rev-parse --short HEAD), exported $(cut -c1-12 <<<"$made")): write them back first with 'scripts/series.sh import$full_opt' (make series-import), or drop them with 'git -C $(rel "$repo") reset --hard $made && git -C $(rel "$repo") clean -fdx'"
	fi
	manifest_ok
	base
	first_states
	(
		cd "$repo" || exit 2
		git checkout -q -f -B series base && git clean -q -fdx || exit 2
		while read -r p; do
			[ -n "$p" ] || continue
			commit "$p"
		done <"$top/patches/series"
		# The series must end with this tree's files as they are.
		while read -r f; do
			git show "series:$f" | cmp -s - "$top/$f" ||
				die "$f: the series ends with another state of it than this tree's: a later patch's hunk of it applied elsewhere; fix that hunk"
		done < <(laid_files)
		git rev-parse HEAD >.git/series-exported || exit 2
		rm -rf "$out"
		git format-patch -q -o "$out" base..series || exit 2
	) || exit 2
	local patches=("$out"/*.patch)
	say "series: ${#patches[@]} patches in $(rel "$out") (git format-patch, base: the pristine tree); edit them as commits in $(rel "$repo"), then 'scripts/series.sh import$full_opt'"
}

# head_of MAINTAINERS FILES: the lines but F: of the section that lists
# one of FILES (one a line), or nothing.
head_of() {
	awk -v files="$2" '
	BEGIN { n = split(files, a, "\n"); for (i = 1; i <= n; i++) ours["F:\t" a[i]] = 1 }
	$0 == "" { if (hit) exit; nh = 0; next }
	{ h[++nh] = $0; if ($0 in ours) hit = 1 }
	END { if (hit) for (i = 1; i <= nh; i++) if (h[i] !~ /^F:\t/) print h[i] }' "$1"
}

# without TITLE MAINTAINERS: the file without the section titled TITLE.
without() {
	awk -v title="$1" '
	prev == "" && $0 == title { skip = 1 }
	skip && $0 == "" { skip = 0; prev = $0; next }
	!skip { print }
	{ prev = $0 }' "$2"
}

# patch_of COMMIT LAID...: the commit as a patch of ours: From:, Subject:,
# the message, "---", then its diff without MAINTAINERS and without the
# files it adds that this tree lays out (LAID), git's own header lines
# (diff --git, index, new file mode) dropped as quilt's patches have none.
patch_of() {
	local c=$1 f ex=()
	shift
	for f; do ex+=(":(exclude)$f"); done
	git show -s --format='%an <%ae>%n%B' "$c" | awk '
		NR == 1 { printf "From: %s\n", $0; next }
		state == 0 && $0 == "" { if (subj != "") state = 1; next }
		state == 0 { subj = subj (subj == "" ? "" : " ") $0; next }
		state == 1 && $0 == "" { next }
		{ state = 2; body = body $0 "\n" }
		END {
			sub(/\n+$/, "\n", body)
			printf "Subject: [PATCH] %s\n", subj
			if (body != "")
				printf "\n%s", body
			print "---"
		}'
	git -c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.suppressBlankEmpty=false \
		diff --no-color --no-ext-diff --no-textconv --no-renames --diff-algorithm=myers \
		--indent-heuristic -U3 -O/dev/null --src-prefix=a/ --dst-prefix=b/ \
		"$c^" "$c" -- . ':(exclude)MAINTAINERS' "${ex[@]}" |
	awk '
		function bad(what) {
			printf "%s\n", what > "/dev/stderr"
			err = 1
			exit 1
		}
		/^diff --git / { if (hdr) bad(last); hdr = 1; last = $0; next }
		hdr && /^--- / { hdr = 0 }
		hdr && (/^index / || /^(new|deleted) file mode 100644$/) { next }
		hdr { bad($0) }
		{ print }
		END { if (hdr && !err) bad(last) }'
}

# has LIST WORD: whether WORD is a line of LIST (no process).
has() { [[ $'\n'$1$'\n' == *$'\n'"$2"$'\n'* ]]; }

import_series() {
	local g=(git -C "$repo") r c f i n p line title head oldfiles all='' new=$dir/import
	local commits=() subjects=() names=() changed=()
	local -A added=() owner=() by_subject=() touches=()
	r=$(rel "$repo")
	[ -d "$repo/.git" ] || die "no $r: make it with 'scripts/series.sh export$full_opt', commit your changes there, then import"
	"${g[@]}" rev-parse -q --verify base >/dev/null || die "$r has no tag base (the pristine tree): make it anew with 'scripts/series.sh export$full_opt'"
	[ -z "$("${g[@]}" status --porcelain)" ] ||
		die "$r has changes not committed: commit them (a change to patch N: git commit --fixup, then git rebase -i --autosquash base), or drop them; then import"
	"${g[@]}" merge-base --is-ancestor base HEAD || die "HEAD of $r does not descend from tag base: rebase the series onto base"
	[ -z "$("${g[@]}" rev-list --merges base..HEAD)" ] || die "$r has merge commits after base: a series is a line of commits; rebase it onto base"
	while IFS=$'\t' read -r c p; do
		commits+=("$c")
		subjects+=("$p")
	done < <("${g[@]}" log --reverse --format='%H%x09%s' base..HEAD)
	[ ${#commits[@]} -gt 0 ] || die "$r has no commit after base: nothing to import"
	rm -rf "$new"
	mkdir -p "$new/patches"

	# A commit keeps the name of the patch whose subject it has (its
	# number its place now); a new one gets git format-patch's.
	"${g[@]}" format-patch -q -o "$new/fp" base..HEAD || die "git format-patch failed in $r"
	mapfile -t names < <(cd "$new/fp" && ls)
	[ ${#names[@]} = ${#commits[@]} ] || die "git format-patch wrote ${#names[@]} patches for ${#commits[@]} commits in $r"
	mapfile -t line <"$top/patches/series"
	while IFS=$'\t' read -r p c; do
		[ -n "${by_subject[$c]:-}" ] || by_subject[$c]=$p
	done < <(cd "$top/patches" && awk 'FNR == 1 { done = 0 }
		!done && sub(/^Subject: (\[PATCH[^]]*\] )?/, "") { print FILENAME "\t" $0; done = 1 }' \
		"${line[@]}")
	for i in "${!commits[@]}"; do
		p=${by_subject[${subjects[i]}]:-}
		[ -n "$p" ] || continue
		unset "by_subject[${subjects[i]}]"
		names[i]=$(printf '%04d-%s' $((i + 1)) "${p#[0-9][0-9][0-9][0-9]-}")
	done

	# The files each commit adds that this tree lays out; the commits
	# that change MAINTAINERS.
	i=-1
	while IFS=$'\t' read -r p f; do
		case $p in
		commit) i=$((i + 1)); continue ;;
		'') continue ;;
		esac
		c="${commits[i]:0:12} (\"${subjects[i]}\")"
		if [ "$f" = MAINTAINERS ]; then
			touches[$i]=1
			continue
		fi
		case $p:$f in
		A:arch/* | A:drivers/* | A:include/* | A:kernel/* | A:Documentation/*)
			added[$i]+="$f"$'\n'
			owner[$f]=${names[i]}
			all+="$f"$'\n' ;;
		D:*) [ -z "${owner[$f]:-}" ] ||
			die "commit $c deletes $f, which ${owner[$f]} adds: drop it from that commit instead (git rebase -i base)" ;;
		esac
	done < <("${g[@]}" log --reverse --format='commit%x09%H' --name-status --no-renames base..HEAD)

	# The series' MAINTAINERS section as the last commit has it (the
	# section that lists the files the series adds); every commit's
	# MAINTAINERS is the base's but for that section.
	title=$(grep -v '^#' "$top/patches/maintainers" | grep -m1 .)
	if [ -n "$all" ]; then
		"${g[@]}" show HEAD:MAINTAINERS >"$new/MAINTAINERS.tip"
		head=$(head_of "$new/MAINTAINERS.tip" "$all")
		[ -n "$head" ] || die "MAINTAINERS at HEAD of $r has no section listing the files the series adds: keep the series' section (its head comes from patches/maintainers)"
		title=${head%%$'\n'*}
	fi
	"${g[@]}" show base:MAINTAINERS >"$new/MAINTAINERS.base"
	for i in "${!commits[@]}"; do
		c="${commits[i]:0:12} (\"${subjects[i]}\")"
		if [ -n "${touches[$i]:-}" ]; then
			"${g[@]}" show "${commits[i]}:MAINTAINERS" >"$new/MAINTAINERS.c"
			without "$title" "$new/MAINTAINERS.c" | cmp -s - "$new/MAINTAINERS.base" ||
				die "commit $c changes MAINTAINERS outside the series' section \"$title\", which import cannot keep: the section is made from patches/maintainers and the files the series adds; drop that change"
		fi
		# shellcheck disable=SC2086 # the commit's laid-out files: words
		(cd "$repo" && patch_of "${commits[i]}" ${added[$i]:-}) >"$new/patches/${names[i]}" ||
			die "commit $c: git's patch of it has a change that a patch of ours cannot carry (a mode, a binary file, an empty file), above: make it a text change"
	done

	# patches/files: its comment lines, then a line for each patch that
	# adds files, in their old order, new ones after.
	oldfiles=$(laid_files)
	{
		grep '^#' "$top/patches/files"
		for i in "${!commits[@]}"; do
			[ -n "${added[$i]:-}" ] || continue
			line=()
			while read -r f; do
				! has "${added[$i]}" "$f" || line+=("$f")
			done <<<"$oldfiles"
			while read -r f; do
				[ -z "$f" ] || has "$oldfiles" "$f" || line+=("$f")
			done <<<"${added[$i]}"
			echo "${names[i]}: ${line[*]}"
		done
	} >"$new/files"
	printf '%s\n' "${names[@]}" >"$new/series"
	{
		grep '^#' "$top/patches/maintainers"
		if [ -n "$all" ]; then echo "$head"; else grep -v '^#' "$top/patches/maintainers" | grep .; fi
	} >"$new/maintainers"

	# Written back: what changed, and what left the series.
	put() {	# put FILE DEST: DEST becomes FILE, if it differs
		cmp -s "$1" "$top/$2" && return 0
		mkdir -p "$(dirname "$top/$2")"
		cp "$1" "$top/$2" || die "cannot write $2"
		changed+=("$2")
	}
	while read -r p; do
		[ -z "$p" ] || has "$(cat "$new/series")" "$p" && continue
		rm -f "$top/patches/$p"
		changed+=("patches/$p (removed)")
	done <"$top/patches/series"
	for n in "${names[@]}"; do
		put "$new/patches/$n" "patches/$n"
	done
	put "$new/series" patches/series
	put "$new/files" patches/files
	put "$new/maintainers" patches/maintainers
	while read -r f; do
		[ -n "$f" ] || continue
		"${g[@]}" show "HEAD:$f" >"$new/file" || die "cannot read $f from HEAD of $r"
		put "$new/file" "$f"
	done <<<"$all"
	while read -r f; do
		has "$all" "$f" && continue
		rm -f "$top/$f"
		changed+=("$f (removed)")
	done <<<"$oldfiles"
	"${g[@]}" rev-parse HEAD >"$repo/.git/series-exported"
	rm -rf "$new"
	say "series: imported the ${#commits[@]} commits of $r into patches/ and the files they add: ${#changed[@]} changed"
	if [ ${#changed[@]} -gt 0 ]; then printf '    %s\n' "${changed[@]}"; fi
}

case $1 in
export) export_series ;;
import) import_series ;;
strip) [ -f "$2" ] || die "strip: no such patch: $2"
       sections 0 "$(laid_files)" <"$2" ;;
paths) printf '%s\n' "dir=$dir" "repo=$repo" "out=$out" ;;
*) usage ;;
esac
