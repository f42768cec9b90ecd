#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# MAINTAINERS covers the tree, judged by the kernel's own
# scripts/get_maintainer.pl (from the prepared kernel tree
# build/linux-source-6.12, else unpacked from Debian's linux-source
# tarball into build/kernel-scripts/ once):
#
#   - get_maintainer.pl --self-test=patterns,sections at the top of this
#     tree (it reads ./MAINTAINERS and git ls-files): no F: pattern that
#     matches no file, every section with its status, a maintainer or
#     list and a file pattern; and, on a known-bad MAINTAINERS in a
#     scratch repository, the same self-test does warn (the check can
#     fail);
#   - every file the series adds (patches/files) is in an entry:
#     get_maintainer.pl --sections -f FILE names one;
#   - every file git tracks here is in an entry, matched as
#     get_maintainer.pl matches (its file_match_pattern: a pattern ending
#     in "/" takes the folder's tree, another only its own level; "*"
#     and "?" are globs).
#
# The series' own MAINTAINERS section, in the kernel tree with the series
# applied, is judged by tools/testing/series-test.sh.
#
# KTAP (tools/testing/ktap.sh), one result each. Exit: 0 ok, 1 a check
# failed, 2 bad input (no get_maintainer.pl to be had).

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }
cd "$top" || exit 2

# shellcheck source=tools/testing/ktap.sh
. tools/testing/ktap.sh

die() { echo "maintainers-test.sh: $*" >&2; exit 2; }

ktar=${KTAR:-/usr/src/linux-source-6.12.tar.xz}
gm=$top/build/linux-source-6.12/scripts/get_maintainer.pl
if [ ! -f "$gm" ]; then
	gm=$top/build/kernel-scripts/get_maintainer.pl
	if [ ! -f "$gm" ] || [ "$ktar" -nt "$gm" ]; then
		[ -f "$ktar" ] || die "$ktar is missing: install Debian's linux-source-6.12 package (make deps)"
		mkdir -p "${gm%/*}"
		if ! tar -xJOf "$ktar" linux-source-6.12/scripts/get_maintainer.pl >"$gm.tmp"; then
			rm -f "$gm.tmp"
			die "cannot unpack scripts/get_maintainer.pl from $ktar: reinstall linux-source-6.12"
		fi
		mv "$gm.tmp" "$gm" || die "cannot write $gm"
	fi
fi
getm() { perl "$gm" "$@"; }

# --self-test allows no other option: it reads ./MAINTAINERS and lists
# the files with git ls-files in the current folder.
if o=$(getm --self-test=patterns,sections 2>&1) && [ -z "$o" ]; then
	ktap_ok "get_maintainer.pl --self-test=patterns,sections: no warning ($(grep -c '^F:' MAINTAINERS) F: patterns, $(grep -c '^S:' MAINTAINERS) sections)"
else
	ktap_fail "get_maintainer.pl --self-test=patterns,sections: no warning" "$o"
fi

scratch=$(mktemp -d) || die "cannot make a temporary folder"
ktap_atexit rm -rf "$scratch"
(
	cd "$scratch" && git init -q && echo x >present.c &&
	printf '%s\n' 'STALE' 'M:	A <a@example.org>' 'S:	Maintained' 'F:	present.c' 'F:	gone.c' >MAINTAINERS &&
	git add -A
) || die "cannot make a scratch repository in $scratch"
o=$(cd "$scratch" && perl "$gm" --self-test=patterns,sections 2>&1)
if grep -q 'MAINTAINERS:5: warning: no file matches.*gone\.c' <<<"$o" && [ "$(grep -c warning <<<"$o")" = 1 ]; then
	ktap_ok "get_maintainer.pl --self-test warns of a known stale path, and of nothing else"
else
	ktap_fail "get_maintainer.pl --self-test warns of a known stale path, and of nothing else" "$o"
fi

mapfile -t added < <(grep -v '^#' patches/files | cut -d: -f2- | tr ' ' '\n' | grep .)
missing=()
for f in "${added[@]}"; do
	[ -n "$(getm --no-tree --nogit --nogit-fallback --sections -f "$f" 2>/dev/null)" ] || missing+=("$f")
done
if [ ${#added[@]} -gt 0 ] && [ ${#missing[@]} -eq 0 ]; then
	ktap_ok "each of the ${#added[@]} files the series adds is in an entry (get_maintainer.pl --sections -f)"
else
	ktap_fail "each of the ${#added[@]} files the series adds is in an entry (get_maintainer.pl --sections -f)" \
		"in no entry: ${missing[*]}"
fi

# get_maintainer.pl's matching, for every tracked file at once.
o=$(git ls-files | perl -e '
	open(my $m, "<", "MAINTAINERS") or die "MAINTAINERS: $!\n";
	my @pat;
	while (<$m>) {
		next unless /^F:\s*(\S+)/;
		my ($raw, $v) = ($1, $1);
		$v =~ s@\.@\\.@g;
		$v =~ s/\*/.*/g;
		$v =~ s/\?/./g;
		$v =~ s@([^/])$@$1/@ if -d $raw;
		push(@pat, $v);
	}
	my $n = 0;
	while (my $f = <STDIN>) {
		chomp $f;
		$n++;
		my $hit = 0;
		for my $p (@pat) {
			next unless $f =~ m@^$p@;
			$hit = 1 if substr($p, -1) eq "/" || ($f =~ tr@/@@) == ($p =~ tr@/@@);
			last if $hit;
		}
		print "$f\n" unless $hit;
	}
	print STDERR "$n\n";' 2>"$scratch/n")
if [ -z "$o" ] && [ "$(cat "$scratch/n")" -gt 0 ]; then
	ktap_ok "each of the $(cat "$scratch/n") files git tracks is in an entry"
else
	mapfile -t missing <<<"$o"
	ktap_fail "each of the $(cat "$scratch/n") files git tracks is in an entry" "in no entry:" "${missing[@]}"
fi
ktap_finish
