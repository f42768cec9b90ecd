#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make image: an SD card image for the Odroid-XU3, XU3 Lite, XU4 and HC1,
# in build/image/ (see docs/board-image.md):
#   odroid-eas.img   an MBR disk: sectors 1 to 8191 (4 MiB) left free for
#                    Hardkernel's BL1, BL2, U-Boot and TrustZone firmware
#                    (sd_fusing.sh writes them at sectors 1, 31, 63 and
#                    719 (XU3's U-Boot 2012.07) or 1503 (XU4's 2017.05),
#                    its environment up to sector 2046), then
#                    p1  FAT32 "BOOT", 64 MiB: boot.ini, where Hardkernel's
#                        U-Boot reads it (the first partition)
#                    p2  ext4 "odroid-root", the rest: a Debian 12 armhf
#                        root made by mmdebstrap from Debian's packages
#                        (systemd, rt-app, rt-tests), make odroid's
#                        linux-image and eas-em packages installed in it
#                        by dpkg, and boot.ini's kernel and DTBs there
#   odroid-eas-rootfs.tar.xz  the same root as a tarball (an NFS root:
#                    docs/lava.md)
# boot.ini is make odroid's, its root the image's second partition by
# PARTUUID (the same on an SD card and on the eMMC). Root's password is
# "odroid", as on Hardkernel's images: change it.
#
# It takes make odroid's packages and never builds a kernel: without them
# it stops (exit 2). It needs root (mmdebstrap's root mode: the root's
# files owned as they must be; dpkg runs inside under qemu-user through
# binfmt_misc), and room: it says so and stops, exit 2, before writing
# anything.
#
# Environment:
#   ODROID_DEBS   the packages' folder (default build/odroid/debs)
#   ODROID_BOOT_INI  boot.ini (default build/odroid/boot/boot.ini)
#   IMAGE_DIR     the output folder (default build/image; its cache/ keeps
#                 the downloaded Debian packages for the next build)
#   IMAGE_MB      the image's size in MiB (default 2048; the root is
#                 grown to a card's size with resize2fs)
#   DEBIAN_MIRROR the Debian mirror (default http://deb.debian.org/debian)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
debs=${ODROID_DEBS:-$top/build/odroid/debs}
ini=${ODROID_BOOT_INI:-$top/build/odroid/boot/boot.ini}
out=${IMAGE_DIR:-$top/build/image}
mb=${IMAGE_MB:-2048}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# The partitions, in 512-byte sectors: 4 MiB free, a 64 MiB boot.
p1_start=8192 p1_sectors=131072
p2_start=$((p1_start + p1_sectors))
# The disk's identifier: the partitions' PARTUUIDs are 4f444541-01, -02.
disk_id=0x4f444541
packages=systemd-sysv,udev,kmod,procps,iproute2,iputils-ping,rt-app,rt-tests,less,xz-utils

die() { echo "image.sh: $*" >&2; exit 2; }

# --- what it needs, before anything is written ------------------------------------
[ "$(id -u)" = 0 ] ||
	die "make image needs root (mmdebstrap's root mode makes the root's files owned by root; dpkg runs in it): run it as root or with sudo"
case $mb in '' | *[!0-9]*) die "IMAGE_MB=$mb: want a size in MiB" ;; esac
[ "$mb" -ge 512 ] || die "IMAGE_MB=$mb: the root needs more, give 512 or more"
shopt -s nullglob
images=("$debs"/linux-image-*_armhf.deb)
tools=("$debs"/eas-em_*_armhf.deb)
shopt -u nullglob
if [ ${#images[@]} -eq 0 ] || [ ${#tools[@]} -eq 0 ]; then
	die "no linux-image-*_armhf.deb and eas-em_*_armhf.deb in $debs: run 'make odroid' first (or set ODROID_DEBS)"
fi
[ ${#images[@]} -eq 1 ] || die "${#images[@]} linux-image packages in $debs: want one (make odroid writes one)"
[ -f "$ini" ] || die "no $ini: run 'make odroid' first (or set ODROID_BOOT_INI)"
for t in mmdebstrap mke2fs mkfs.vfat mcopy sfdisk xz; do
	command -v "$t" >/dev/null || die "no $t: run scripts/deps.sh (Debian's mmdebstrap, e2fsprogs, dosfstools, mtools, fdisk, xz-utils)"
done
# Room: the package cache, the root (twice: its folder and the image's
# partition) and the image (sparse, but written whole on a card).
need=$((mb + 2500))
# (the folder that is there of IMAGE_DIR and its parents: nothing made yet)
there=$out
while [ ! -d "$there" ]; do there=$(dirname "$there"); done
free=$(df -Pm "$there" | awk 'NR == 2 { print $4 }')
[ "$free" -ge "$need" ] ||
	die "$out has $free MiB free, make image needs $need MiB (IMAGE_MB=$mb and 2500 for the root and packages): free some, or set IMAGE_DIR or IMAGE_MB"
# armhf programs (the packages' maintainer scripts) run through
# binfmt_misc and qemu-user, as systemd-binfmt registers them at boot.
if ! arch-test armhf >/dev/null 2>&1; then
	[ -f /proc/sys/fs/binfmt_misc/register ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
	conf=/usr/lib/binfmt.d/qemu-arm.conf
	if [ -f "$conf" ] && [ -w /proc/sys/fs/binfmt_misc/register ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-arm ]; then
		echo "==> binfmt_misc: registering qemu-arm ($conf), as systemd-binfmt does at boot"
		cat "$conf" >/proc/sys/fs/binfmt_misc/register
	fi
	arch-test armhf >/dev/null 2>&1 ||
		die "this machine runs no armhf programs (arch-test armhf): install qemu-user-static and qemu-user-binfmt (scripts/deps.sh) and run 'systemctl restart systemd-binfmt'"
fi

release=$(dpkg-deb -f "${images[0]}" Package 2>/dev/null) ||
	die "${images[0]}: not a Debian package: run 'make odroid' again"
release=${release#linux-image-}

start=$SECONDS
mkdir -p "$out" || die "cannot make $out: set IMAGE_DIR"
work=$(mktemp -d "$out/work.XXXXXX")
trap 'rm -rf "$work"' EXIT
cache=$out/cache
mkdir -p "$cache" "$work/debs"
cp "${images[0]}" "${tools[@]}" "$work/debs/"
# The root's boot.ini: its root device the image's second partition.
sed "s|^setenv rootdev .*|setenv rootdev \"PARTUUID=${disk_id#0x}-02\"|" "$ini" >"$work/boot.ini"
grep -q "^setenv rootdev \"PARTUUID=${disk_id#0x}-02\"" "$work/boot.ini" ||
	die "$ini has no 'setenv rootdev' line to point at the image's root: is it make odroid's?"

# --- the root ------------------------------------------------------------------------
echo "==> mmdebstrap: Debian 12 (bookworm) armhf, minbase + $packages; then dpkg -i $(cd "$work/debs" && echo *.deb)"
cat >"$work/customize.sh" <<EOF
#!/bin/sh
# mmdebstrap's customize hook, run on this host: \$1 is the root.
set -e
root=\$1
mkdir -p "\$root/tmp/odroid-debs"
cp $work/debs/*.deb "\$root/tmp/odroid-debs/"
chroot "\$root" sh -c 'dpkg -i /tmp/odroid-debs/*.deb'
rm -rf "\$root/tmp/odroid-debs"
chroot "\$root" dpkg-query -W -f '\${Package} \${Version} \${Status}\n' linux-image-$release eas-em
echo odroid-eas >"\$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\todroid-eas\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"\$root/etc/hosts"
cat >"\$root/etc/fstab" <<'FSTAB'
# <file system>     <mount point>  <type>  <options>          <dump>  <pass>
LABEL=odroid-root   /              ext4    defaults,noatime   0       1
LABEL=BOOT          /media/boot    vfat    defaults,nofail    0       2
FSTAB
mkdir -p "\$root/media/boot"
echo root:odroid | chroot "\$root" chpasswd
# Any wired interface by DHCP (systemd-networkd).
cat >"\$root/etc/systemd/network/80-dhcp.network" <<'NET'
[Match]
Name=en* eth*

[Network]
DHCP=yes
NET
chroot "\$root" systemctl enable systemd-networkd
# boot.ini as U-Boot reads it, also in the root (/boot/boot.ini)
cp $work/boot.ini "\$root/boot/boot.ini"
EOF
chmod +x "$work/customize.sh"
# The hooks' $1 is mmdebstrap's, the root: single quotes.
# shellcheck disable=SC2016
mmdebstrap --mode=root --variant=minbase --architectures=armhf \
	--include="$packages" \
	--skip=download/empty --skip=essential/unlink \
	--setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
	--setup-hook="sync-in $cache /var/cache/apt/archives/" \
	--customize-hook="sync-out /var/cache/apt/archives $cache" \
	--customize-hook="$work/customize.sh" \
	--customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
	bookworm "$work/root" "$mirror" >"$work/mmdebstrap.log" 2>&1 ||
	{ tail -20 "$work/mmdebstrap.log" >&2; echo "image.sh: mmdebstrap failed" >&2; exit 1; }
grep -E '^(linux-image-[^ ]+|eas-em) ' "$work/mmdebstrap.log" | sed 's/^/    installed by dpkg: /'
t_root=$((SECONDS - start))

# The kernel and DTBs boot.ini loads must be in the root.
kernel=$(sed -n 's/^setenv kernel "\(.*\)"$/\1/p' "$work/boot.ini")
fdtdir=$(sed -n 's/^setenv fdtdir "\(.*\)"$/\1/p' "$work/boot.ini")
if [ ! -f "$work/root$kernel" ] || [ ! -f "$work/root$fdtdir/exynos5422-odroidxu4.dtb" ]; then
	echo "image.sh: the root has no $kernel or $fdtdir/exynos5422-odroidxu4.dtb, which boot.ini loads: is $(basename "${images[0]}") make odroid's?" >&2
	exit 1
fi

# --- the partitions and the image ------------------------------------------------------
p2_mb=$(((mb << 11) - p2_start))
p2_mb=$((p2_mb >> 11))
used=$(du -sm "$work/root" | cut -f1)
[ $((used * 5 / 4 + 64)) -le "$p2_mb" ] ||
	die "the root is $used MiB, the image's root partition $p2_mb MiB: give a larger IMAGE_MB"
echo "==> odroid-eas-rootfs.tar.xz"
tar --numeric-owner --xattrs -C "$work/root" -cf - . | xz -T0 -3 >"$work/rootfs.tar.xz"
echo "==> p2: ext4 'odroid-root', $p2_mb MiB, $used MiB used"
mke2fs -q -t ext4 -L odroid-root -d "$work/root" "$work/p2.img" "${p2_mb}M" >/dev/null
echo "==> p1: FAT32 'BOOT', $((p1_sectors >> 11)) MiB: boot.ini"
mkfs.vfat -F 32 -n BOOT -C "$work/p1.img" $((p1_sectors / 2)) >/dev/null
mcopy -i "$work/p1.img" "$work/boot.ini" ::boot.ini
img=$work/odroid-eas.img
truncate -s "${mb}M" "$img"
sfdisk -q "$img" <<EOF
label: dos
label-id: $disk_id
unit: sectors

$p1_start $p1_sectors c
$p2_start - 83
EOF
dd if="$work/p1.img" of="$img" bs=512 seek="$p1_start" conv=notrunc,sparse status=none
dd if="$work/p2.img" of="$img" bs=512 seek="$p2_start" conv=notrunc,sparse status=none
# The bootloader's area is left zero (sectors 1 to p1_start - 1).
[ "$(dd if="$img" bs=512 skip=1 count=$((p1_start - 1)) status=none | tr -d '\0' | wc -c)" = 0 ] ||
	{ echo "image.sh: sectors 1 to $((p1_start - 1)) of the image are not free" >&2; exit 1; }
mv "$work/rootfs.tar.xz" "$out/odroid-eas-rootfs.tar.xz"
mv "$img" "$out/odroid-eas.img"

echo "==> build/image: Linux $release, Debian 12 armhf, in $((SECONDS - start)) s (the root $t_root s)"
sfdisk -l "$out/odroid-eas.img" | sed 's/^/    /'
echo "    $(du -h --apparent-size "$out/odroid-eas.img" | cut -f1) image ($(du -h "$out/odroid-eas.img" | cut -f1) written), $(du -h "$out/odroid-eas-rootfs.tar.xz" | cut -f1) root tarball"
echo "    sectors 1-$((p1_start - 1)) free for BL1/BL2/U-Boot/TZSW: docs/board-image.md, \"Flashing\""
