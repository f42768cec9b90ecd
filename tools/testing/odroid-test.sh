#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What make odroid gives a board, checked without one (KTAP):
#   - linux-image-REL: armhf, its /boot/vmlinuz-REL the zImage build/obj
#     built, the four Odroid DTBs and the config as built, every module of
#     modules.order; the config has what boot.ini's initrd-less boot needs;
#   - linux-headers-REL: armhf, its build scripts built for ARM (modpost
#     runs on the board, not on the build host);
#   - eas-em: armhf, static, with the board command eas-bench; installed
#     with dpkg --root into an empty root,
#     run there under qemu-user on the four board DTBs: the same output,
#     byte for byte, and the same exit status as the host's build;
#   - boot.ini: Hardkernel's header, and each file it loads (the kernel,
#     every DTB it may choose) is a file the image package installs.
#
# Usage: odroid-test.sh [DIR]   (DIR: build/odroid, make odroid's)
# Exit: 0 all passed, 1 a check failed, 2 no packages to check.

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build/odroid}
kobj=$top/build/obj
dtbdir=$kobj/arch/arm/boot/dts/samsung
host_em=$top/tools/power/eas/eas-em
boards="exynos5422-odroidxu3 exynos5422-odroidxu3-lite exynos5422-odroidxu4 exynos5422-odroidhc1"

if [ ! -f "$kobj/include/config/kernel.release" ] || [ ! -d "$out/debs" ] || [ ! -x "$host_em" ]; then
	echo "odroid-test.sh: no packages in $out/debs, or no kernel build in build/obj or host eas-em: run 'make odroid tools' first" >&2
	exit 2
fi
release=$(cat "$kobj/include/config/kernel.release")
qemu_arm=$(command -v qemu-arm-static || command -v qemu-arm) || {
	echo "odroid-test.sh: qemu-arm-static is missing: run 'make deps' (Debian's qemu-user-static)" >&2
	exit 2
}

. "$(dirname "$0")/ktap.sh"
tmp=$(mktemp -d)
ktap_atexit rm -rf "$tmp"

image=$out/debs/linux-image-${release}_$release-1_armhf.deb
headers=$out/debs/linux-headers-${release}_$release-1_armhf.deb
eas=$(find "$out/debs" -name 'eas-em_*_armhf.deb' | head -1)

# fields DEB: "Package Version Architecture" of a package.
fields() {
	# shellcheck disable=SC2016 # dpkg-deb's own ${Field} format
	dpkg-deb --show --showformat='${Package} ${Version} ${Architecture}' "$1" 2>&1
}

# fields_are WHAT DEB "PACKAGE VERSION ARCHITECTURE": one result.
fields_are() {
	local got

	got=$(fields "$2")
	if [ "$got" = "$3" ]; then
		ktap_ok "$1 package: $3"
	else
		ktap_fail "$1 package: $3" "dpkg-deb says: $got"
	fi
}

# --- linux-image
if [ ! -f "$image" ]; then
	ktap_fail "linux-image package" "no $image"
else
	fields_are linux-image "$image" "linux-image-$release $release-1 armhf"
	dpkg-deb -x "$image" "$tmp/image"
	dpkg-deb --contents "$image" | awk '{ print $6 }' | sed 's|^\./|/|' >"$tmp/image.list"
	if cmp -s "$tmp/image/boot/vmlinuz-$release" "$kobj/arch/arm/boot/zImage"; then
		ktap_ok "linux-image: /boot/vmlinuz-$release is build/obj's zImage ($(stat -c %s "$kobj/arch/arm/boot/zImage") bytes)"
	else
		ktap_fail "linux-image: /boot/vmlinuz-$release is build/obj's zImage" \
			"$(ls -l "$tmp/image/boot/" 2>&1)"
	fi
	bad=
	for b in $boards; do
		cmp -s "$tmp/image/usr/lib/linux-image-$release/$b.dtb" "$dtbdir/$b.dtb" || bad+=" $b"
	done
	if [ -z "$bad" ]; then
		ktap_ok "linux-image: the 4 Odroid DTBs in /usr/lib/linux-image-$release/, as built"
	else
		ktap_fail "linux-image: the 4 Odroid DTBs in /usr/lib/linux-image-$release/, as built" \
			"missing or different:$bad"
	fi
	nko=$(grep -c '\.ko$' "$tmp/image.list")
	norder=$(grep -c . "$kobj/modules.order")
	if [ "$nko" -gt 0 ] && [ "$nko" -eq "$norder" ]; then
		ktap_ok "linux-image: its $nko modules are modules.order's"
	else
		ktap_fail "linux-image: its modules are modules.order's" \
			"$nko .ko files in the package, $norder in build/obj/modules.order"
	fi
	cfg=$tmp/image/boot/config-$release
	missing=
	# boot.ini boots with no initrd: the SD/eMMC controller, the block
	# device, ext4 and the serial console built in; and the series' EAS.
	for o in MMC_DW_EXYNOS MMC_BLOCK EXT4_FS SERIAL_SAMSUNG_CONSOLE DEVTMPFS \
		ENERGY_MODEL CPU_FREQ_GOV_SCHEDUTIL SCHED_MC; do
		grep -qx "CONFIG_$o=y" "$cfg" 2>/dev/null || missing+=" $o"
	done
	if cmp -s "$cfg" "$kobj/.config" && [ -z "$missing" ]; then
		ktap_ok "linux-image: /boot/config-$release as built, with MMC_DW_EXYNOS, MMC_BLOCK, EXT4_FS, SERIAL_SAMSUNG_CONSOLE, DEVTMPFS, ENERGY_MODEL, CPU_FREQ_GOV_SCHEDUTIL and SCHED_MC built in"
	else
		ktap_fail "linux-image: /boot/config-$release as built, with what an initrd-less boot and EAS need" \
			"differs from build/obj/.config: $(cmp -s "$cfg" "$kobj/.config" && echo no || echo yes); not =y:${missing:- none}"
	fi
fi

# --- linux-headers
if [ ! -f "$headers" ]; then
	ktap_fail "linux-headers package" "no $headers"
else
	got=$(fields "$headers")
	want="linux-headers-$release $release-1 armhf"
	dpkg-deb -x "$headers" "$tmp/headers"
	hdir=$tmp/headers/usr/src/linux-headers-$release
	modpost=$(file -b "$hdir/scripts/mod/modpost" 2>&1)
	if [ "$got" = "$want" ] && [ -f "$hdir/Makefile" ] && [[ $modpost == *"ELF 32-bit LSB"*"ARM"* ]]; then
		ktap_ok "linux-headers package: $want, its scripts built for the board (modpost: ${modpost%%,*}, ARM)"
	else
		ktap_fail "linux-headers package: $want, its scripts built for the board" \
			"dpkg-deb says: $got" "scripts/mod/modpost: $modpost"
	fi
fi

# --- eas-em
if [ -z "$eas" ]; then
	ktap_fail "eas-em package" "no eas-em_*_armhf.deb in $out/debs"
	ktap_finish
fi
# Its version is the host build's.
version=$("$host_em" --version | awk '{ print $2; exit }')
fields_are eas-em "$eas" "eas-em $version armhf"
# An empty root, as a board's system would take the package: dpkg's own
# database, armhf its architecture.
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: >"$root/var/lib/dpkg/status"
echo armhf >"$root/var/lib/dpkg/arch"
if dpkg --root="$root" --force-not-root --force-bad-path -i "$eas" >"$tmp/dpkg.out" 2>&1 &&
	[ "$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f="\${Status}" eas-em 2>&1)" = "install ok installed" ]; then
	ktap_ok "eas-em package: installs with dpkg --root into an empty armhf root"
else
	ktap_fail "eas-em package: installs with dpkg --root into an empty armhf root" "$(tail -5 "$tmp/dpkg.out")"
fi
bin=$root/usr/bin/eas-em
kind=$(file -b "$bin" 2>&1)
if [[ $kind == *"ELF 32-bit LSB"*"ARM"*"statically linked"* ]]; then
	ktap_ok "eas-em package: /usr/bin/eas-em is ARM, static"
else
	ktap_fail "eas-em package: /usr/bin/eas-em is ARM, static" "file: $kind"
fi
if cmp -s "$root/usr/bin/eas-bench" "$top/tools/power/eas/eas-bench" && [ -x "$root/usr/bin/eas-bench" ]; then
	ktap_ok "eas-em package: /usr/bin/eas-bench, the board command, as in tools/power/eas"
else
	ktap_fail "eas-em package: /usr/bin/eas-bench, the board command, as in tools/power/eas" \
		"$(ls -l "$root/usr/bin/" 2>&1)"
fi
man=$root/usr/share/man/man1/eas-em.1.gz
if [ -f "$man" ] && w=$(zcat "$man" | groff -man -Tutf8 -ww -z 2>&1) && [ -z "$w" ] &&
	zcat "$man" | grep -q '^eas-em \\- '; then
	ktap_ok "eas-em package: its manual /usr/share/man/man1/eas-em.1.gz, read by groff without a warning"
else
	ktap_fail "eas-em package: its manual /usr/share/man/man1/eas-em.1.gz, read by groff without a warning" \
		"$(ls -l "$man" 2>&1)" "${w:-}"
fi
# The same answers as the host's build, on each board's DTB: compute (the
# EM, as table, JSON and debugfs tree lines) and check (text, exit status).
for b in $boards; do
	dtb=$dtbdir/$b.dtb
	diffs=
	for args in "compute" "compute --json" "compute --format=debugfs" "check"; do
		# shellcheck disable=SC2086 # args: words of one command line
		"$host_em" $args "$dtb" >"$tmp/host.out" 2>&1
		hrc=$?
		# shellcheck disable=SC2086
		"$qemu_arm" "$bin" $args "$dtb" >"$tmp/arm.out" 2>&1
		arc=$?
		if [ "$hrc" != "$arc" ] || ! cmp -s "$tmp/host.out" "$tmp/arm.out"; then
			diffs+=" '$args' (exit $hrc on the host, $arc under qemu-arm)"
		fi
	done
	if [ -z "$diffs" ]; then
		ktap_ok "eas-em from the package under qemu-arm on $b.dtb: compute (table, JSON, debugfs) and check as the host's build, byte for byte"
	else
		ktap_fail "eas-em from the package under qemu-arm on $b.dtb: as the host's build" "differs:$diffs" \
			"$(diff "$tmp/host.out" "$tmp/arm.out" | head -5)"
	fi
done

# --- boot.ini
ini=$out/boot/boot.ini
if [ ! -f "$ini" ] || [ ! -f "$tmp/image.list" ]; then
	ktap_fail "boot.ini loads files the image package installs" "no $ini or no image package"
	ktap_finish
fi
first=$(head -1 "$ini")
# setting NAME: the value of a 'setenv NAME "VALUE"' line (the last one).
setting() { sed -n "s/^setenv $1 \"\(.*\)\"\$/\1/p" "$ini" | tail -1; }
kernel=$(setting kernel) fdtdir=$(setting fdtdir)
# Every DTB it may choose: each "setenv fdtfile" value, on a line of its own
# or after a test of ${board_name}.
fdtfiles=$(grep -o 'setenv fdtfile "[^"]*"' "$ini" | sed 's/.*"\(.*\)"/\1/' | sort -u)
# shellcheck disable=SC2016 # U-Boot's variables, not the shell's
loads=$(grep -c '^load mmc 0:${rootpart} ' "$ini")
# shellcheck disable=SC2016
wantloads='load mmc 0:${rootpart} ${zimage_addr_r} ${kernel}
load mmc 0:${rootpart} ${fdt_addr_r} ${fdtdir}/${fdtfile}'
missing=
for f in "$kernel" $(for d in $fdtfiles; do echo "$fdtdir/$d"; done); do
	grep -qx "$f" "$tmp/image.list" || missing+=" $f"
done
if [ "$first" = ODROIDXU-UBOOT-CONFIG ] && [ "$loads" = 2 ] &&
	[ "$(grep '^load ' "$ini")" = "$wantloads" ] && [ -n "$kernel" ] &&
	[ "$(echo "$fdtfiles" | grep -c .)" = 4 ] && [ -z "$missing" ]; then
	ktap_ok "boot.ini: Hardkernel's header; it loads $kernel and one of 4 DTBs from $fdtdir, all files of the image package"
else
	ktap_fail "boot.ini: Hardkernel's header; it loads the kernel and DTBs the image package installs" \
		"first line: $first" "load lines: $loads; kernel: $kernel; DTBs: $(echo "$fdtfiles" | paste -sd' ')" \
		"not in the package:${missing:- none}"
fi
ktap_finish
