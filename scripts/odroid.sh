#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make odroid: the files a board needs, in build/odroid/, ready to copy to
# the boot and root partitions (see docs/virtual-board.md):
#   boot/zImage, boot/exynos5422-odroid{xu3,xu3-lite,xu4,hc1}.dtb,
#   lib/modules/<release>/, config-<release>
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kobj=$top/build/obj
ksrc=$top/build/linux-source-6.12
out=$top/build/odroid
dtbs="exynos5422-odroidxu3 exynos5422-odroidxu3-lite exynos5422-odroidxu4 exynos5422-odroidhc1"

release=$(cat "$kobj/include/config/kernel.release")
rm -rf "$out"
mkdir -p "$out/boot"
cp "$kobj/arch/arm/boot/zImage" "$out/boot/"
for d in $dtbs; do
	cp "$kobj/arch/arm/boot/dts/samsung/$d.dtb" "$out/boot/"
done
cp "$kobj/.config" "$out/boot/config-$release"
make -s -C "$ksrc" O="$kobj" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
	INSTALL_MOD_PATH="$out" INSTALL_MOD_STRIP=1 modules_install >/dev/null
echo "==> build/odroid: Linux $release for the Odroid-XU3/XU3-lite/XU4/HC1"
(cd "$out" && find boot -type f | sort | sed 's/^/    /'; echo "    lib/modules/$release/ ($(find lib/modules -name '*.ko*' | wc -l) modules)")
echo "    install: docs/virtual-board.md (the board's files), Documentation/admin-guide/odroid-eas.rst"
