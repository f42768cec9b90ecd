#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The virtual Odroid-XU4: QEMU "virt", Cortex-A15, 8 vCPUs.
#
# Usage:
#   scripts/vxu4.sh dumpdtb OUT.dtb
#       QEMU's own device tree for exactly the machine that boot starts.
#   scripts/vxu4.sh boot [KERNEL_ARGS...]
#       Boot build/obj's zImage with build/vxu4.dtb (or VXU4_DTB) and
#       build/initramfs.cpio.gz,
#       console on stdout, until the guest powers off or VXU4_TIMEOUT seconds
#       (default 900) pass. Exit 0 only when the guest powered off.
#
# Environment: VXU4_TIMEOUT, VXU4_LOG (also write the console there),
# VXU4_KERNEL (another zImage, e.g. the debug kernel's), VXU4_DTB.
#
# Guest time is QEMU's instruction count (-icount shift=0,sleep=off): one
# instruction is 1 ns of guest time, and while every vCPU is halted the
# clock jumps to the next timer instead of waiting for the host. The
# guest's time, and so every timing and energy it measures, is the same
# whatever the host does; the vCPUs run round-robin on one host thread.
# drivers/misc/virt-cpu-speed.c is written for that model.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
machine=(-machine virt -cpu cortex-a15 -smp 8 -m 1024)
icount=(-icount "shift=${VXU4_ICOUNT_SHIFT:-0},sleep=off")

case "${1:-}" in
dumpdtb)
	[ $# -eq 2 ] || { echo "usage: $0 dumpdtb OUT.dtb" >&2; exit 2; }
	qemu-system-arm "${machine[@]}" -machine dumpdtb="$2" -nodefaults \
		-display none >/dev/null 2>"$2.log" || { cat "$2.log" >&2; exit 1; }
	;;
boot)
	shift
	kernel=${VXU4_KERNEL:-$build/obj/arch/arm/boot/zImage}
	dtb=${VXU4_DTB:-$build/vxu4.dtb}
	for f in "$kernel" "$dtb" "$build/initramfs.cpio.gz"; do
		[ -f "$f" ] || { echo "vxu4.sh: $f is missing: run make run first" >&2; exit 2; }
	done
	log=${VXU4_LOG:-/dev/null}
	# No firmware sets the Cortex-A15's IBE bit under QEMU: every CPU says
	# so at boot. Kept in the log, not shown.
	noise="Spectre v2: firmware did not set auxiliary control register IBE bit"
	echo "==> booting the virtual Odroid-XU4 (QEMU TCG, 8 vCPUs, guest time from the instruction count)"
	set +e
	timeout --foreground -k 10 "${VXU4_TIMEOUT:-900}" \
		qemu-system-arm "${machine[@]}" "${icount[@]}" -nodefaults -display none \
		-no-reboot -serial stdio -monitor none \
		-kernel "$kernel" -dtb "$dtb" \
		-initrd "$build/initramfs.cpio.gz" \
		-append "console=ttyAMA0 quiet sched_verbose rodata=off $*" </dev/null |
		tee "$log" | grep -v --line-buffered "$noise"
	rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" -eq 124 ]; then
		echo "vxu4.sh: the guest did not power off within ${VXU4_TIMEOUT:-900} s" >&2
		exit 1
	fi
	exit "$rc"
	;;
*)
	echo "usage: $0 dumpdtb OUT.dtb | boot [KERNEL_ARGS...]" >&2
	exit 2
	;;
esac
