#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare and build the kernel: Debian's linux-source-6.12 unpacked into a
# git-ignored folder, our overlay laid over it, patches/series applied with
# quilt, exynos_defconfig + our fragments, built with ccache into build/obj.
#
# Usage: scripts/kernel.sh prepare|config|build|modules|deb|version
#   prepare  unpack (once), overlay, (re)apply the patch series
#   config   write build/obj/.config (only replaced when it changes)
#   build    prepare + config + make zImage, dtbs: what the virtual board
#            boots (it loads no module)
#   modules  build, and the modules too: what a real board needs (make
#            odroid): 360 more of its 2801 objects, mac80211 among them
#   deb      modules, then the kernel's own Debian packages (make
#            bindeb-pkg): linux-image-REL (the zImage as /boot/vmlinuz-REL,
#            the modules, every DTB under /usr/lib/linux-image-REL/),
#            linux-headers-REL and linux-libc-dev, armhf, version REL-1,
#            written to build/ (make odroid moves them)
#   version  print the kernel release being built
#
# Environment: JOBS (default: cores + 1), KTAR (the source tarball),
# KERNEL_VARIANT=NAME KERNEL_CONFIG_EXTRA=FRAGMENT: a variant of the
# board's kernel, its config the board's plus FRAGMENT (applied last, it
# wins over the others), same sources and ccache, its own object folder
# build/obj-NAME: the debug kernel is KERNEL_VARIANT=debug with the
# fragment tools/testing/vxu4/board/debug.config (lockdep, KASAN, UBSAN, ...),
# which tools/testing/vxu4/suites/debug-build.sh passes.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
ktar=${KTAR:-/usr/src/linux-source-6.12.tar.xz}
ksrc=$build/linux-source-6.12
variant=${KERNEL_VARIANT:-} extra=${KERNEL_CONFIG_EXTRA:-}
bad_env() { echo "kernel.sh: $*" >&2; exit 2; }
case $variant in
'') sfx=
    [ -z "$extra" ] ||
	bad_env "KERNEL_CONFIG_EXTRA=$extra without KERNEL_VARIANT=NAME: a kernel with a fragment of its own is a variant, built in build/obj-NAME, not in the board's build/obj" ;;
*[!a-z0-9]*) bad_env "KERNEL_VARIANT=$variant: want a name of lower-case letters and digits (debug), or nothing" ;;
*) sfx=-$variant
   [ -n "$extra" ] ||
	bad_env "KERNEL_VARIANT=$variant needs its config fragment: set KERNEL_CONFIG_EXTRA=FILE (make check-debug gives debug's)"
   [ -f "$extra" ] || bad_env "KERNEL_CONFIG_EXTRA=$extra: no such file"
   extra=$(realpath -- "$extra") ;;
esac
kobj=$build/obj$sfx
jobs=${JOBS:-$(($(nproc) + 1))}
# The config fragments come with the series (arch/arm/configs/, laid over
# the tree as the other new files are); a variant's comes last.
fragments=("$ksrc/arch/arm/configs/eas.config" "$ksrc/arch/arm/configs/vxu4.config")
[ -z "$extra" ] || fragments+=("$extra")
# Everything in these folders is laid over the kernel tree, file by file.
overlay_dirs="arch drivers include kernel Documentation"

export ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf-
export KBUILD_BUILD_USER=odroid-eas KBUILD_BUILD_HOST=build
# A reproducible build (Documentation/kbuild/reproducible-builds.rst): no
# build date or count in the image, so that a rebuild makes the same
# zImage and the virtual XU4, whose guest time is its instruction count,
# runs the same. (A clone in another folder still makes another zImage.)
export KBUILD_BUILD_TIMESTAMP='2026-01-01 00:00:00 UTC' KBUILD_BUILD_VERSION=1
# Cache hits whatever folder the repository is cloned to (CI clones anew).
export CCACHE_BASEDIR=$top CCACHE_NOHASHDIR=true

say() { printf '==> %s\n' "$*"; }
die() { printf 'kernel.sh: %s\n' "$*" >&2; exit 1; }

unpack() {
	[ -f "$ksrc/.unpacked" ] && return 0
	[ -f "$ktar" ] || die "$ktar is missing: install Debian's linux-source-6.12 package (make deps)"
	say "unpacking $(basename "$ktar") into build/ (about 1 min)"
	rm -rf "$ksrc"
	mkdir -p "$build"
	tar -C "$build" -xf "$ktar" --checkpoint=20000 --checkpoint-action=dot
	echo
	[ -f "$ksrc/Makefile" ] || die "$ktar did not unpack to $ksrc"
	touch "$ksrc/.unpacked"
}

# Lay our files over the tree; remove from it those of ours that left our
# tree since the last run (build/overlay.files lists what was laid).
overlay() {
	local d f list=$build/overlay.files
	(cd "$top" && for d in $overlay_dirs; do
		if [ -d "$d" ]; then find "$d" -type f; fi
	done | sort) >"$list.new"
	if [ -f "$list" ]; then
		comm -23 "$list" "$list.new" | while read -r f; do rm -f "$ksrc/$f"; done
	fi
	mv "$list.new" "$list"
	for d in $overlay_dirs; do
		[ -d "$top/$d" ] || continue
		# -c: only files whose content changed are written (and so rebuilt)
		rsync -rc "$top/$d/" "$ksrc/$d/"
	done
}

# Apply patches/series with quilt. When the series or a patch changed since
# the last run, pop everything and push the new series.
patches() (
	local applied=$build/patches.applied qp=$build/quilt-patches p
	# What quilt applies: the patches of patches/series without their
	# changes to the files laid over the tree (patches/files: they are
	# laid in their final state), those that still change a file (a
	# patch made only of files of ours is empty here: quilt would call
	# it garbage).
	rm -rf "$qp"
	mkdir -p "$qp"
	: >"$qp/series"
	while read -r p; do
		[ -n "$p" ] || continue
		"$top/scripts/series.sh" strip "$top/patches/$p" >"$qp/$p" || die "cannot read patches/$p"
		if grep -q '^--- ' "$qp/$p"; then
			echo "$p" >>"$qp/series"
		else
			rm "$qp/$p"
		fi
	done <"$top/patches/series"
	export QUILT_PATCHES=$qp QUILT_PC=.pc
	cd "$ksrc"
	if [ -d "$applied" ] && diff -rq "$qp" "$applied" >/dev/null; then
		return 0
	fi
	if [ -d .pc ]; then
		say "patch series changed: popping the old one"
		# The old patches are gone from patches/: pop with their copies.
		QUILT_PATCHES=$applied quilt pop -aqf >/dev/null || die "quilt pop failed in $ksrc; rm -rf build/linux-source-6.12 and retry"
		rm -rf .pc
		# The pop took the old patches' changes back off our files too
		# (a config fragment was once a patch's): lay them again.
		for d in $overlay_dirs; do
			[ -d "$top/$d" ] || continue
			rsync -rc "$top/$d/" "$ksrc/$d/"
		done
	fi
	# A file that a patch creates is not in the pristine tree: one there
	# now is a leftover (a file that moved from our overlay into a patch).
	local f
	while read -r p; do
		awk 'prev == "--- /dev/null" && /^\+\+\+ b\// { print substr($0, 7) } { prev = $0 }' \
			"$top/patches/$p"
	done <"$qp/series" | while read -r f; do rm -f "$f"; done
	say "applying patches/series ($(grep -c . "$qp/series") of its $(grep -c . "$top/patches/series") patches change the pristine tree)"
	if ! quilt push -aq >"$build/quilt.log" 2>&1; then
		cat "$build/quilt.log" >&2
		die "a patch in patches/series does not apply to $(version): see above"
	fi
	rm -rf "$applied"
	cp -r "$qp" "$applied"
)

version() {
	make -s -C "$ksrc" kernelversion
}

config() {
	local new=$build/config$sfx.new gen=$build/config-gen$sfx
	mkdir -p "$kobj"
	make -s -C "$ksrc" O="$gen" exynos_defconfig >/dev/null
	"$ksrc/scripts/kconfig/merge_config.sh" -m -O "$gen" \
		"$gen/.config" "${fragments[@]}" >/dev/null
	make -s -C "$ksrc" O="$gen" olddefconfig >/dev/null
	cp "$gen/.config" "$new"
	# Every fragment line must have survived: a dropped one is a typo or
	# an unmet dependency, and would silently change what we test.
	local frag fname line sym over='' won
	# The variant's fragment comes last and wins over the others.
	[ -z "$extra" ] || over=$(grep -oE 'CONFIG_[A-Z0-9_]+' "$extra")
	for frag in "${fragments[@]}"; do
		fname=$(basename "$frag")
		# won: the symbols of this fragment that another one set anew
		won=$over
		[ "$frag" != "$extra" ] || won=
		while read -r line; do
			sym=$(grep -oE 'CONFIG_[A-Z0-9_]+' <<<"$line" | head -1) || true
			[ -n "$sym" ] && grep -qx "$sym" <<<"$won" && continue
			case "$line" in
			CONFIG_*=*) grep -qxF "$line" "$new" ||
				die "$fname: '$line' did not survive olddefconfig (now: $(grep "^${line%%=*}=\|# ${line%%=*} " "$new" || echo unset))" ;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }; sym=${sym%% *}
				! grep -q "^$sym=" "$new" ||
				die "$fname: $sym must be unset but is $(grep "^$sym=" "$new")" ;;
			esac
		done <"$frag"
	done
	# Compare with what we wrote last, not with build/obj/.config, which
	# kbuild's syncconfig rewrites: an unchanged config must not rebuild.
	if ! cmp -s "$new" "$build/config$sfx.written" || [ ! -f "$kobj/.config" ]; then
		say "kernel config changed: writing build/obj$sfx/.config"
		cp "$new" "$kobj/.config"
		cp "$new" "$build/config$sfx.written"
	fi
}

# kbuild TARGET...
kbuild() {
	local log=$build/kernel-build$sfx.log start=$SECONDS
	command -v ccache >/dev/null || die "ccache is missing (make deps)"
	say "building Linux $(version) for ARM (exynos_defconfig + eas + vxu4${variant:+ + $variant}), $jobs jobs, log: build/kernel-build$sfx.log"
	[ -f "$kobj/vmlinux" ] ||
		say "a first build takes 15 to 25 min on 2 cores (less with ccache hits)"
	set +e
	make -C "$ksrc" O="$kobj" CC="ccache ${CROSS_COMPILE}gcc" -j"$jobs" \
		"$@" 2>&1 | tee "$log" |
		awk -v start="$start" '
			/^  [A-Z]/ { n++ }
			/error:|Error [0-9]/ { print }
			n && n % 500 == 0 && n != last { last = n; printf "    ... %d files built\n", n; fflush() }'
	local rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" -ne 0 ]; then
		tail -30 "$log" >&2
		die "kernel build failed (exit $rc): full log in build/kernel-build$sfx.log"
	fi
	say "built $(cat "$kobj/include/config/kernel.release") in $((SECONDS - start)) s: build/obj$sfx/arch/arm/boot/zImage"
}

case "${1:-}" in
prepare) unpack; overlay; patches ;;
config) unpack; overlay; patches; config ;;
build) unpack; overlay; patches; config; kbuild zImage dtbs ;;
modules) unpack; overlay; patches; config; kbuild zImage modules dtbs ;;
deb) unpack; overlay; patches; config
	# Built first as the other targets are (kbuild's jobs, its log);
	# bindeb-pkg's own build then finds nothing to do but its headers.
	kbuild zImage modules dtbs
	# The package's revision is the build's version (1, above), so that
	# bindeb-pkg's KBUILD_BUILD_VERSION=REVISION changes nothing and the
	# packaged zImage is the one just built.
	KDEB_PKGVERSION=$(cat "$kobj/include/config/kernel.release")-$KBUILD_BUILD_VERSION
	# No linux-image-REL-dbg (the debug info of vmlinux and the modules:
	# 92 MB, 90 s of xz here): make bindeb-pkg without this profile
	# makes it.
	DPKG_FLAGS=-Ppkg.linux-upstream.nokerneldbg
	export KDEB_PKGVERSION DPKG_FLAGS
	kbuild bindeb-pkg ;;
version) version ;;
*) echo "usage: $0 prepare|config|build|modules|deb|version" >&2; exit 2 ;;
esac
