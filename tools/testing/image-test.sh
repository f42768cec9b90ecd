#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make image's SD card image, checked without a board (KTAP):
#   tools/testing/image-test.sh [IMAGE_DIR [DEBS_DIR]]
#     (default build/image, build/odroid/debs): its MBR (the disk
#     identifier boot.ini names the root by; p1 FAT32 at sector 8192, p2
#     Linux after it), sectors 1 to 8191 free for the bootloader, p1's
#     boot.ini (Hardkernel's header, the root by PARTUUID), p2's ext4
#     root: the linux-image and eas-em packages installed by dpkg (dpkg's
#     status and file lists), its /boot/vmlinuz the package's own, the
#     kernel and DTBs boot.ini loads, systemd as /sbin/init, rt-app,
#     hackbench and eas-bench; the root tarball beside it.
#   tools/testing/image-test.sh --refusals
#     scripts/image.sh's refusals, before anything is written, each exit
#     2 and one line: not root, no packages, no room, a bad IMAGE_MB.
# Exit: 0 all passed, 1 a check failed, 2 no image to check.

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tools/testing/ktap.sh"
tmp=$(mktemp -d)
ktap_atexit rm -rf "$tmp"

# refused DESC FRAGMENT ENV... : scripts/image.sh with ENV (and setpriv
# when the first is "--user"): exit 2, one line holding FRAGMENT, nothing
# in its IMAGE_DIR
refused() {
	local desc=$1 frag=$2 rc err pre=()

	shift 2
	if [ "${1:-}" = --user ]; then
		pre=(setpriv --reuid=65534 --regid=65534 --clear-groups)
		shift
	fi
	err=$(env IMAGE_DIR="$tmp/out" "$@" "${pre[@]}" "$top/scripts/image.sh" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] && [[ $err == *"$frag"* ]] &&
		[ -z "$(ls -A "$tmp/out" 2>/dev/null)" ]; then
		ktap_ok "$desc"
	else
		ktap_fail "$desc" "exit $rc" "$err" "$(ls -A "$tmp/out" 2>&1)"
	fi
}

if [ "${1:-}" = --refusals ]; then
	# Made-up packages: refused before they are ever read.
	mkdir -p "$tmp/debs" "$tmp/boot"
	: >"$tmp/debs/linux-image-6.12.0-x_6.12.0-x-1_armhf.deb"
	: >"$tmp/debs/eas-em_0.1_armhf.deb"
	: >"$tmp/boot/boot.ini"
	refused "image.sh as a user: exit 2, needs root" "needs root" --user
	if [ "$(id -u)" = 0 ]; then
		refused "image.sh without make odroid's packages: exit 2, says make odroid" \
			"run 'make odroid' first" ODROID_DEBS="$tmp/none"
		refused "image.sh with no room: exit 2, says how much" \
			"make image needs 100002500 MiB" ODROID_DEBS="$tmp/debs" \
			ODROID_BOOT_INI="$tmp/boot/boot.ini" IMAGE_MB=100000000
		refused "image.sh IMAGE_MB=1g: exit 2" "IMAGE_MB=1g: want a size in MiB" IMAGE_MB=1g
	else
		ktap_skip "image.sh's other refusals" "they come after its root check: run as root"
	fi
	ktap_finish
fi

out=${1:-$top/build/image}
debs=${2:-$top/build/odroid/debs}
img=$out/odroid-eas.img
if [ ! -f "$img" ] || ! compgen -G "$debs/linux-image-*_armhf.deb" >/dev/null; then
	echo "image-test.sh: no $img or no linux-image package in $debs: run 'make odroid image' first" >&2
	exit 2
fi
deb=$(compgen -G "$debs/linux-image-*_armhf.deb" | head -1)
release=$(dpkg-deb -f "$deb" Package)
release=${release#linux-image-}

# --- the partition table
dump=$(sfdisk -d "$img" 2>&1)
p1=$(awk -F'[:,=]' '/odroid-eas.img1 :/ { gsub(/ /, ""); print $3 "/" $5 "/" $7 }' <<<"$dump")
p2=$(awk -F'[:,=]' '/odroid-eas.img2 :/ { gsub(/ /, ""); print $3 "/" $7 }' <<<"$dump")
if grep -qx "label-id: 0x4f444541" <<<"$dump" && [ "$p1" = 8192/131072/c ] && [ "$p2" = 139264/83 ]; then
	ktap_ok "MBR: disk 4f444541, p1 FAT32 (c) at sector 8192, 64 MiB; p2 Linux (83) at 139264"
else
	ktap_fail "MBR: disk 4f444541, p1 FAT32 at sector 8192, p2 Linux at 139264" "$dump"
fi
nz=$(dd if="$img" bs=512 skip=1 count=8191 status=none | tr -d '\0' | wc -c)
sig=$(dd if="$img" bs=1 skip=510 count=2 status=none | od -An -tx1 | tr -d ' ')
if [ "$nz" = 0 ] && [ "$sig" = 55aa ]; then
	ktap_ok "sectors 1-8191 free (zero) for BL1 (1), BL2 (31), U-Boot (63), TZSW (719 or 1503), the environment; MBR signature 55aa"
else
	ktap_fail "sectors 1-8191 free for the bootloader" "$nz bytes not zero; signature $sig"
fi

# --- p1: boot.ini
dd if="$img" of="$tmp/p1.img" bs=512 skip=8192 count=131072 status=none
mtype -i "$tmp/p1.img" ::boot.ini >"$tmp/boot.ini" 2>"$tmp/mtype.err"
label=$(mlabel -s -i "$tmp/p1.img" :: 2>&1)
if [ "$(head -1 "$tmp/boot.ini")" = ODROIDXU-UBOOT-CONFIG ] &&
	grep -qx 'setenv rootdev "PARTUUID=4f444541-02"' "$tmp/boot.ini" && [[ $label == *BOOT* ]]; then
	ktap_ok "p1 (FAT, label BOOT): boot.ini, Hardkernel's header, the root by PARTUUID 4f444541-02"
else
	ktap_fail "p1: boot.ini, Hardkernel's header, the root by PARTUUID" "label: $label" \
		"$(cat "$tmp/mtype.err")" "$(head -3 "$tmp/boot.ini")" "$(grep rootdev "$tmp/boot.ini")"
fi

# --- p2: the root, read with debugfs (no mount)
p2img="$img?offset=$((139264 * 512))"
fs() { debugfs -R "$1" "$p2img" 2>/dev/null; }
fslabel=$(dumpe2fs -h "$p2img" 2>/dev/null | sed -n 's/^Filesystem volume name: *//p')
fs "cat /var/lib/dpkg/status" >"$tmp/status"
st=$(awk -v want="linux-image-$release eas-em" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) need[w[i]] = 1 }
	/^Package: / { p = $2 } /^Status: / && (p in need) { s[p] = substr($0, 9) }
	END { for (p in need) printf "%s=%s;", p, s[p] }' "$tmp/status")
if [ "$fslabel" = odroid-root ] && [[ $st == *"linux-image-$release=install ok installed;"* ]] &&
	[[ $st == *"eas-em=install ok installed;"* ]]; then
	ktap_ok "p2 (ext4, label odroid-root): linux-image-$release and eas-em installed (dpkg's status)"
else
	ktap_fail "p2: linux-image-$release and eas-em installed (dpkg's status)" "label: $fslabel" "$st"
fi
fs "dump /boot/vmlinuz-$release $tmp/vmlinuz" >/dev/null
dpkg-deb -x "$deb" "$tmp/pkg"
if grep -qx "/boot/vmlinuz-$release" <<<"$(fs "cat /var/lib/dpkg/info/linux-image-$release.list")" &&
	cmp -s "$tmp/vmlinuz" "$tmp/pkg/boot/vmlinuz-$release"; then
	ktap_ok "p2: /boot/vmlinuz-$release is the package's, in dpkg's list of its files"
else
	ktap_fail "p2: /boot/vmlinuz-$release is the package's, in dpkg's list of its files" \
		"$(ls -l "$tmp/vmlinuz" "$tmp/pkg/boot/" 2>&1)"
fi
kernel=$(sed -n 's/^setenv kernel "\(.*\)"$/\1/p' "$tmp/boot.ini")
fdtdir=$(sed -n 's/^setenv fdtdir "\(.*\)"$/\1/p' "$tmp/boot.ini")
missing=
for f in "$kernel" $(grep -o 'setenv fdtfile "[^"]*"' "$tmp/boot.ini" | sed 's/.*"\(.*\)"/\1/' | sort -u | sed "s|^|$fdtdir/|"); do
	grep -q "^Inode:" <<<"$(fs "stat $f")" || missing+=" $f"
done
if [ -n "$kernel" ] && [ -z "$missing" ]; then
	ktap_ok "p2: the kernel and the 4 DTBs boot.ini loads are there"
else
	ktap_fail "p2: the kernel and the DTBs boot.ini loads are there" "missing:${missing:- kernel unset}"
fi
init=$(fs "stat /sbin/init" | sed -n 's/^Fast link dest: "\(.*\)"/\1/p')
missing=
for f in /usr/bin/rt-app /usr/bin/hackbench /usr/bin/eas-bench /usr/bin/eas-em /lib/systemd/systemd; do
	grep -q "^Inode:" <<<"$(fs "stat $f")" || missing+=" $f"
done
if [ "$init" = /lib/systemd/systemd ] && [ -z "$missing" ]; then
	ktap_ok "p2: /sbin/init is systemd; rt-app, hackbench, eas-bench, eas-em there"
else
	ktap_fail "p2: /sbin/init is systemd; rt-app, hackbench, eas-bench, eas-em there" \
		"/sbin/init -> ${init:-?}" "missing:${missing:- none}"
fi

# --- the root tarball
tar -tJf "$out/odroid-eas-rootfs.tar.xz" >"$tmp/tar.list" 2>&1
if grep -qx "./boot/vmlinuz-$release" "$tmp/tar.list"; then
	ktap_ok "odroid-eas-rootfs.tar.xz: the same root (./boot/vmlinuz-$release)"
else
	ktap_fail "odroid-eas-rootfs.tar.xz: the same root" "no ./boot/vmlinuz-$release in it"
fi
ktap_finish
