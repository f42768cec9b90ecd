#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-plugin.h of exactly the installed QEMU, for our TCG plugin
# (tools/testing/vxu4/board/insn-count-plugin.c): Debian ships no plugin header,
# so it comes from the Debian source package of qemu-system-arm's version,
# fetched and verified by apt (its Sources index from the backports suite
# that scripts/deps.sh set up), with apt's state kept under OUTDIR.
#
# Usage: scripts/qemu-plugin-header.sh OUTDIR
# Writes OUTDIR/qemu-plugin.h and OUTDIR/version; does nothing when the
# version there is the installed one.

set -euo pipefail

out=${1:?usage: $0 OUTDIR}
src=$(dpkg-query -W -f='${source:Package}' qemu-system-arm)
ver=$(dpkg-query -W -f='${source:Version}' qemu-system-arm)
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -f "$out/qemu-plugin.h" ] && [ "$(cat "$out/version" 2>/dev/null)" = "$src $ver" ]; then
	exit 0
fi

echo "==> qemu-plugin.h of $src $ver (apt-get source, Debian's bookworm-backports)"
apt_dir=$out/apt
rm -rf "$apt_dir"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/src"
echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main" \
	>"$apt_dir/sources.list"
apt_opts=(-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
	-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=/dev/null"
	-o "APT::Sandbox::User=root" -q)
apt-get "${apt_opts[@]}" update >"$apt_dir/update.log" 2>&1 || {
	cat "$apt_dir/update.log" >&2
	echo "qemu-plugin-header.sh: apt-get update of $apt_dir/sources.list failed" >&2
	exit 1
}
# The upstream tarball is all we need (Debian's own tarball patches no header).
(cd "$apt_dir/src" && apt-get "${apt_opts[@]}" source --download-only --tar-only "$src=$ver") \
	>"$apt_dir/source.log" 2>&1 || {
	cat "$apt_dir/source.log" >&2
	echo "qemu-plugin-header.sh: apt-get source $src=$ver failed: is that version still in bookworm-backports? (apt-cache policy qemu-system-arm)" >&2
	exit 1
}
tarballs=("$apt_dir"/src/"${src}"_*.orig.tar.*)
tarball=${tarballs[0]}
[ -f "$tarball" ] || tarball=
[ -n "$tarball" ] || { echo "qemu-plugin-header.sh: no orig tarball in $apt_dir/src" >&2; exit 1; }
tar -xf "$tarball" -C "$apt_dir/src" --wildcards --strip-components=3 '*/include/qemu/qemu-plugin.h'
mv "$apt_dir/src/qemu-plugin.h" "$out/qemu-plugin.h"
grep -q 'QEMU_PLUGIN_VERSION' "$out/qemu-plugin.h" ||
	{ echo "qemu-plugin-header.sh: $out/qemu-plugin.h has no QEMU_PLUGIN_VERSION" >&2; exit 1; }
echo "$src $ver" >"$out/version"
rm -rf "$apt_dir"
