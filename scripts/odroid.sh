#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make odroid: what a board needs, in build/odroid/ (see
# docs/virtual-board.md, "The board's files"):
#   debs/linux-image-REL_REL-1_armhf.deb    the kernel's own package (make
#        bindeb-pkg): /boot/vmlinuz-REL, the modules, the DTBs under
#        /usr/lib/linux-image-REL/
#   debs/linux-headers-REL_REL-1_armhf.deb  for out-of-tree modules
#   debs/linux-libc-dev_REL-1_armhf.deb     the UAPI headers
#   debs/eas-em_VERSION_armhf.deb           eas-em for the board, static, and
#        its manual eas-em(1) and the board command eas-bench (the energy
#        test, the OPP sweep)
#   boot/boot.ini   Hardkernel's U-Boot script booting the package's kernel
#                   and DTB from the root file system
#   boot/zImage, boot/exynos5422-odroid{xu3,xu3-lite,xu4,hc1}.dtb,
#   lib/modules/REL/, boot/config-REL   the same kernel as files, for a
#                   system that takes no package
# Environment: MAINTAINER (the packages' Maintainer field).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
kobj=$build/obj
ksrc=$build/linux-source-6.12
out=$build/odroid
dtbs="exynos5422-odroidxu3 exynos5422-odroidxu3-lite exynos5422-odroidxu4 exynos5422-odroidhc1"
maintainer=${MAINTAINER:-odroid-eas <odroid-eas@users.noreply.invalid>}

die() { echo "odroid.sh: $*" >&2; exit 1; }

# The kernel and its packages (scripts/kernel.sh deb: bindeb-pkg writes to
# build/, the parent of the object folder).
rm -f "$build"/linux-*.deb
"$top/scripts/kernel.sh" deb
release=$(cat "$kobj/include/config/kernel.release")

rm -rf "$out"
mkdir -p "$out/boot" "$out/debs"
mv "$build"/linux-*.deb "$out/debs/"
rm -f "$build"/linux-upstream_*.buildinfo "$build"/linux-upstream_*.changes
for p in image headers; do
	[ -f "$out/debs/linux-$p-${release}_$release-1_armhf.deb" ] ||
		die "bindeb-pkg wrote no linux-$p-${release}_$release-1_armhf.deb (build/kernel-build.log)"
done

cp "$kobj/arch/arm/boot/zImage" "$out/boot/"
for d in $dtbs; do
	cp "$kobj/arch/arm/boot/dts/samsung/$d.dtb" "$out/boot/"
done
cp "$kobj/.config" "$out/boot/config-$release"
make -s -C "$ksrc" O="$kobj" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
	INSTALL_MOD_PATH="$out" INSTALL_MOD_STRIP=1 modules_install >/dev/null
sed "s/@KERNELRELEASE@/$release/g" "$top/scripts/odroid-boot.ini.in" >"$out/boot/boot.ini"

# eas-em for the board: the static armhf build (libfdt from the kernel
# tree), installed by its own make install (the program and its manual,
# eas-em(1)), stripped, the manual compressed as Debian's policy wants,
# packaged with dpkg-deb. Its version is eas-em's own.
eas=$build/eas-em-armhf
version=$(sed -n 's/^#define EAS_EM_VERSION[[:space:]]*"\(.*\)"$/\1/p' "$top/tools/power/eas/eas-em.c")
[ -n "$version" ] || die "no EAS_EM_VERSION in tools/power/eas/eas-em.c"
root=$eas/pkg
rm -rf "$root"
make -s -C "$top/tools/power/eas" CROSS_COMPILE=arm-linux-gnueabihf- O="$eas" \
	DESTDIR="$root" PREFIX=/usr install >/dev/null
install -d "$root/DEBIAN" "$root/usr/share/doc/eas-em"
install -m 755 "$top/tools/power/eas/eas-bench" "$root/usr/bin/eas-bench"
arm-linux-gnueabihf-strip --strip-unneeded "$root/usr/bin/eas-em"
gzip -9n "$root/usr/share/man/man1/eas-em.1"
install -m 644 "$top/tools/power/eas/README" "$root/usr/share/doc/eas-em/README"
install -m 644 "$top/docs/eas-em.md" "$root/usr/share/doc/eas-em/eas-em.md"
install -m 644 "$top/docs/board-bench.md" "$root/usr/share/doc/eas-em/board-bench.md"
cat >"$root/usr/share/doc/eas-em/copyright" <<-EOF
	Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
	Upstream-Name: eas-em
	Comment: tools/power/eas of the odroid-eas tree

	Files: *
	License: GPL-2.0
	 On Debian systems, the full text of the GNU General Public License
	 version 2 can be found in the file /usr/share/common-licenses/GPL-2.
EOF
cat >"$root/DEBIAN/control" <<-EOF
	Package: eas-em
	Version: $version
	Architecture: armhf
	Maintainer: $maintainer
	Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
	Recommends: rt-app, rt-tests, util-linux
	Section: utils
	Priority: optional
	Homepage: https://www.kernel.org/doc/html/v6.12/power/energy-model.html
	Description: Energy Model tools for Linux 6.12's Energy-Aware Scheduling
	 eas-em computes the Energy Model that Linux 6.12 builds from a device
	 tree (dynamic-power-coefficient and the OPP tables), shows a running
	 kernel's from /sys/kernel/debug/energy_model, compares two and checks a
	 DTB for what the kernel will do with it, and fits
	 dynamic-power-coefficient to a sweep of a rail's power. Statically
	 linked. eas-bench runs the reference EAS energy test (rt-app's 24
	 periodic tasks and hackbench, with rt-app and rt-tests) on the board,
	 reading the Odroid-XU3's INA231 rails, and sweeps the OPPs for the fit.
EOF
# The packages' file times: the last commit's, so that a rebuild of the
# same tree makes the same package.
SOURCE_DATE_EPOCH=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH
dpkg-deb --root-owner-group -Zxz --build "$root" "$out/debs/eas-em_${version}_armhf.deb" >/dev/null

echo "==> build/odroid: Linux $release for the Odroid-XU3/XU3-lite/XU4/HC1"
(cd "$out" && find debs boot -type f | sort | sed 's/^/    /'
	echo "    lib/modules/$release/ ($(find lib/modules -name '*.ko*' | wc -l) modules)")
echo "    install: docs/virtual-board.md, \"The board's files\""
