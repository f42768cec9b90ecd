#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-variant.sh NAME: build a variant of the board's kernel, the
# board's config plus the fragment tools/testing/vxu4/board/NAME.config, in
# build/obj-NAME (scripts/kernel.sh's KERNEL_VARIANT and
# KERNEL_CONFIG_EXTRA: same sources, same ccache, incremental), and print
# the path of its zImage on stdout; the build's own output goes to stderr.
# The variants:
#   debug        lockdep, KASAN, UBSAN, ... (make check-debug)
#   nolockdebug  without exynos_defconfig's lock debugging (the benches'
#                KERNEL=nolockdebug)
# Exit: 0 built; 1 the build failed (build/kernel-build-NAME.log);
# 2 no such variant.

top=$(cd "$(dirname "$0")/../../../.." && pwd)
# The fragments are beside this script.
here=$(cd "$(dirname "$0")" && pwd)
name=${1:-}
frag=$here/$name.config
if [[ ! $name =~ ^[a-z0-9]+$ ]] || [ ! -f "$frag" ]; then
	known=
	for f in "$here"/*.config; do
		f=${f##*/}
		known+=" ${f%.config}"
	done
	echo "kernel-variant.sh: '$name' is no kernel variant: want one of:$known (${here#"$top"/}/NAME.config)" >&2
	exit 2
fi
KERNEL_VARIANT=$name KERNEL_CONFIG_EXTRA=$frag "$top/scripts/kernel.sh" build >&2 || exit 1
echo "$top/build/obj-$name/arch/arm/boot/zImage"
