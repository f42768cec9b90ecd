#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Compile the non-Exynos big.LITTLE board DTBs the eas-em tests use (the
# kernel build only makes the exynos_defconfig ones) from the kernel source
# tree, with cpp and dtc as the kernel's Makefile.dtbs does.
#
# Usage: mk-board-dtbs.sh KERNEL_SRC OUTDIR
# Prints "arch/file.dtb" per DTB made; exits 1 with a message naming the
# board if one fails, so that no test is skipped silently.

set -u

src=${1:?usage: mk-board-dtbs.sh KERNEL_SRC OUTDIR}
out=${2:?usage: mk-board-dtbs.sh KERNEL_SRC OUTDIR}

# arch:path under arch/ARCH/boot/dts, without .dts
boards=(
	arm64:rockchip/rk3399-rock-pi-4b
	arm64:renesas/r8a77951-salvator-x
	arm64:exynos/exynos5433-tm2
	arm:renesas/r8a7790-lager
	arm:allwinner/sun9i-a80-optimus
)

mkdir -p "$out" || exit 1
for b in "${boards[@]}"; do
	arch=${b%%:*}
	dts=$src/arch/$arch/boot/dts/${b#*:}.dts
	dtb=$out/$(basename "${b#*:}").dtb
	if [ -s "$dtb" ] && [ "$dtb" -nt "$dts" ]; then
		echo "$arch/$(basename "$dtb")"
		continue
	fi
	if [ ! -f "$dts" ]; then
		echo "mk-board-dtbs.sh: $dts: missing in the kernel source" >&2
		exit 1
	fi
	if ! cpp -nostdinc -I "$src/include" -I "$src/arch/$arch/boot/dts" \
		-I "$src/scripts/dtc/include-prefixes" -undef -D__DTS__ \
		-x assembler-with-cpp "$dts" 2> "$dtb.log" |
		dtc -q -I dts -O dtb -o "$dtb.tmp" - 2>> "$dtb.log"; then
		echo "mk-board-dtbs.sh: cannot compile $dts:" >&2
		head -5 "$dtb.log" >&2
		rm -f "$dtb.tmp"
		exit 1
	fi
	mv "$dtb.tmp" "$dtb" && rm -f "$dtb.log"
	echo "$arch/$(basename "$dtb")"
done
