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
#       build/initramfs.cpio.gz (or VXU4_INITRD),
#       console shown on stdout, until the guest powers off or VXU4_TIMEOUT
#       seconds (default 900) pass. Exit 0 only when the guest powered off.
#
# Environment: VXU4_TIMEOUT (seconds, 1 to 1000000), VXU4_LOG (the
# console's file, made empty, in a folder that exists; a temporary one
# without it), VXU4_KERNEL (another ARM zImage, e.g. the debug kernel's:
# its magic number 0x016f2818 at offset 0x24; a vmlinux is refused),
# VXU4_DTB, VXU4_INITRD (files that can be read; VXU4_INITRD=none: no
# initramfs, the root on VXU4_DISK), VXU4_MONITOR (a Unix
# socket for QEMU's monitor, below), VXU4_DISK (a raw image file: the
# guest's /dev/vda, virtio-blk, for results too big for the console, e.g.
# traces; such a boot is not isolated, below), VXU4_SEED (QEMU's -seed
# for the guest's random bytes, below; default 1), VXU4_ISOLATE (0: QEMU
# not on a host core of its own, below), VXU4_TIME_SCALE (the guest's
# time scale K, below; default 8, for every boot), VXU4_COST (what a vCPU's time counts,
# below: insns, the default, cycles or cycles-cache), VXU4_WEIGHTS (the cost model's
# weights; default tools/testing/vxu4/board/cycle-weights), VXU4_CLASSES (a
# file the plugin writes at exit: each mnemonic, its class, its
# translations). The files, VXU4_TIMEOUT, VXU4_LOG and
# VXU4_TIME_SCALE are checked before anything is made or booted
# (tools/testing/vxu4/lib/env-lib.sh, which the benches share): a bad one is
# refused with one line naming it, exit 2; numbers are read in base 10
# (VXU4_TIMEOUT=0900 is 900 s).
#
# Guest time is QEMU's instruction count (-icount shift=0,sleep=off): one
# instruction is 1 ns of guest time, and while every vCPU is halted the
# clock jumps to the next timer instead of waiting for the host. The
# guest's time, and so every timing and energy it measures, is the same
# whatever the host does; the vCPUs run round-robin on one host thread.
# drivers/misc/virt-cpu-speed.c is written for that model. How much each
# vCPU executed is counted by a TCG plugin (build/insn-count.so, from
# tools/testing/vxu4/board/insn-count-plugin.c) into the page the DTB reserves
# (VXU4_PLUGIN: another build of it); a DTB without that page boots with
# no plugin, and the CPU speed falls back to its fair-share estimate.
#
# The guest's time scale K (VXU4_TIME_SCALE, 1 to 64): the vCPUs' generic
# timer counts at cntfrq, 62.5 MHz of QEMU's clock (QEMU's default for a
# Cortex-A15, set here so that it is stated), and the booted DTB's timer
# node says clock-frequency = K x cntfrq, which Linux takes over CNTFRQ
# (arm_arch_timer.c, arch_timer_of_configure_rate()). A guest ns is then K
# instructions, and every guest clock follows (sched_clock, clockevents,
# delays and hrtimers all come from that timer); the RTC (clock=vm) and
# the UART keep QEMU's clock: the guest's date runs K times too fast,
# which nothing here reads. drivers/misc/virt-cpu-speed.c takes K from the
# two rates, so that the reference CPU executes K times as many
# instructions per guest second.
#
# What a vCPU's progress counts (VXU4_COST): its instructions (insns), or
# its cycles under the plugin's cost model (cycles): each instruction
# class weighs what VXU4_WEIGHTS gives for the vCPU's core type, taken
# from the DTB's cpu nodes (arm,cortex-a7 or arm,cortex-a15), and the CPU
# speed runs each CPU at its clock's rate in cycles a second; or those
# cycles plus the plugin's data cache model (cycles-cache: an access that
# misses the L1 costs its memory event's weight).

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
env_prog=vxu4.sh
# shellcheck source=tools/testing/vxu4/lib/env-lib.sh
. "$top/tools/testing/vxu4/lib/env-lib.sh"
ram_mb=1024
# Nothing of the host's in the guest: no random seeds from QEMU, and a
# real-time clock that starts at a fixed date and runs with guest time,
# so that two boots start the same guest. dtb-randomness=off keeps QEMU
# from adding seeds of its own to the DTB it makes (dumpdtb), but at
# every reset QEMU still fills each "rng-seed" property of the DTB it
# loads with new random bytes (hw/arm/boot.c, arm_load_dtb():
# qemu_fdt_randomize_seeds()), so -seed (VXU4_SEED, default 1) makes
# those bytes the same in every boot: the guest's CRNG, and so its
# /proc/sys/kernel/random/boot_id, address-space layouts and hash seeds,
# start the same. Measured: without -seed two boots' boot_id differed,
# with it they were equal.
cntfrq=62500000
machine=(-machine "virt,dtb-randomness=off" -cpu "cortex-a15,cntfrq=$cntfrq" -smp 8 -m "$ram_mb"
	-rtc "base=2026-01-01T00:00:00,clock=vm" -seed "${VXU4_SEED:-1}")
icount=(-icount "shift=${VXU4_ICOUNT_SHIFT:-0},sleep=off")

# Determinism needs more than the instruction count. QEMU's main thread
# starts the clock's warp to the next timer whenever it finds every vCPU
# halted (icount_start_warp_timer(), from main_loop_wait()); the vCPU
# thread does the same at the end of its round. The main thread takes the
# big QEMU lock whenever the vCPU thread lets go of it, and that thread
# lets go of it around every vCPU's turn, also in the middle of a round.
# When the main thread gets there in the middle of a round just after the
# last busy vCPU halted, the timer fires there, the next vCPUs get other
# budgets and the round robin starts elsewhere: from then on the guest
# runs another interleaving. When the main thread wakes up is the host's
# business. Measured: two boots of the same files, one with both host
# cores kept busy, diverged (make check, at the third meter run); on a
# core of their own they were the same byte for byte (the whole console).
#
# So a boot runs on one host core of its own, all of QEMU's threads on
# it, SCHED_FIFO: the vCPU thread is never preempted, the main thread
# runs only while the vCPU thread waits (every vCPU halted, at the end of
# a round), the vCPU thread (priority 2) wins the lock over the others
# (priority 1). One host core is always left to everything else; the
# kernel's RT throttling (kernel.sched_rt_runtime_us, 95% by default)
# pauses the whole of QEMU, which changes no guest time. A boot with a
# disk (VXU4_DISK) is the exception: the guest waits for its requests
# at boot (the partition scan), which then never complete, so it runs
# unisolated.

# isolate_core: lock a host core for this boot (/tmp/vxu4-core.N, held
# by QEMU until it exits) and set core; else set why, and fail.
# cpu_cores DTB: the core type of each CPU node of DTB by hardware ID (its
# reg), a7 or a15, ':'-separated: the plugin's cores= argument
cpu_cores() {
	local node reg compat out=() n
	for node in $(fdtget -l "$1" /cpus | grep '^cpu@'); do
		reg=$(fdtget -t u "$1" "/cpus/$node" reg)
		compat=$(fdtget "$1" "/cpus/$node" compatible)
		case $compat in
		*cortex-a7*) out[reg]=a7 ;;
		*cortex-a15*) out[reg]=a15 ;;
		*)
			echo "vxu4.sh: $1: /cpus/$node is $compat: the cost model has weights for arm,cortex-a7 and arm,cortex-a15 only" >&2
			return 2
			;;
		esac
	done
	n=${#out[@]}
	if [ "$n" -eq 0 ] || [ "${!out[*]}" != "$(seq -s ' ' 0 $((n - 1)))" ]; then
		echo "vxu4.sh: $1: the cpu nodes' reg are not 0 to N-1" >&2
		return 2
	fi
	(IFS=:; echo "${out[*]}")
}

isolate_core() {
	local cpus c
	chrt -f 1 true 2>/dev/null ||
		{ why="SCHED_FIFO is not permitted here: needs CAP_SYS_NICE, or root"; return 1; }
	cpus=$(awk '/^Cpus_allowed_list:/ { print $2 }' /proc/self/status |
		awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-")
			for (c = r[1]; c <= r[n]; c++) print c } }')
	[ "$(echo "$cpus" | wc -l)" -ge 2 ] ||
		{ why="only one host core: it stays with the rest of the host"; return 1; }
	# The first allowed core is left to the rest of the host.
	for c in $(echo "$cpus" | tail -n +2); do
		exec {core_fd}>"/tmp/vxu4-core.$c"
		if flock -n "$core_fd"; then
			core=$c
			return 0
		fi
		exec {core_fd}>&-
	done
	why="every host core but one already runs an isolated boot"
	return 1
}

# tasks_of PID...: the /proc task directory of every thread of each PID.
tasks_of() {
	local p
	for p; do
		echo /proc/"$p"/task/*
	done
}

# raise_vcpu_thread PID: QEMU's vCPU thread ("ALL CPUs/TCG", -name
# debug-threads=on), in PID's child, to SCHED_FIFO priority 2, once it
# exists. Until then it has priority 1, as the others, and is not
# preempted either.
raise_vcpu_thread() {
	local t
	for _ in $(seq 500); do
		# shellcheck disable=SC2046 # the child's PIDs, one word each
		for t in $(tasks_of $(pgrep -P "$1")); do
			[ "$(cat "$t/comm" 2>/dev/null)" = "ALL CPUs/TCG" ] || continue
			chrt -f -p 2 "${t##*/}" >/dev/null
			return
		done
		sleep 0.01
	done
}

# unisolate PID: every thread of PID (the timeout that runs QEMU) and of
# its child (QEMU) back to SCHED_OTHER.
unisolate() {
	local t
	# shellcheck disable=SC2046 # the child's PIDs, one word each
	for t in $(tasks_of "$1" $(pgrep -P "$1")); do
		chrt -o -p 0 "${t##*/}" 2>/dev/null || true
	done
}

case "${1:-}" in
dumpdtb)
	[ $# -eq 2 ] || { echo "usage: $0 dumpdtb OUT.dtb" >&2; exit 2; }
	qemu-system-arm "${machine[@]}" -machine dumpdtb="$2" -nodefaults \
		-display none >/dev/null 2>"$2.log" || { cat "$2.log" >&2; exit 1; }
	;;
boot)
	shift
	# Every setting checked before anything is made or booted
	# (tools/testing/vxu4/lib/env-lib.sh: exit 2, naming the variable).
	kernel=$(env_file VXU4_KERNEL "$build/obj/arch/arm/boot/zImage" "run 'make kernel' (make run does)" zimage) || exit
	dtb=$(env_file VXU4_DTB "$build/vxu4.dtb" "run 'make vxu4' (make run does)") || exit
	# VXU4_INITRD=none: no initramfs (a root file system on VXU4_DISK).
	initrd_arg=()
	if [ "${VXU4_INITRD:-}" != none ]; then
		initrd=$(env_file VXU4_INITRD "$build/initramfs.cpio.gz" "run 'make initramfs' (make run does)") || exit
		initrd_arg=(-initrd "$initrd")
	fi
	scale=$(env_scale) || exit
	timeout=$(env_int VXU4_TIMEOUT 900 1 1000000 "seconds before the boot is stopped") || exit
	if [ -n "${VXU4_DISK:-}" ]; then
		disk_file=$(env_file VXU4_DISK - "make it with truncate -s SIZE") || exit
	fi
	cost=$(env_match VXU4_COST insns 'insns|cycles|cycles-cache' \
		"insns, cycles or cycles-cache (what a vCPU's time counts)") || exit
	if [ "$cost" != insns ]; then
		weights=$(env_file VXU4_WEIGHTS "$top/tools/testing/vxu4/board/cycle-weights" \
			"it is the cost model's weights, tools/testing/vxu4/board/cycle-weights") || exit
		[[ $weights != *,* ]] || env_bad "VXU4_WEIGHTS=$weights: QEMU's plugin arguments cannot hold a comma"
		cores=$(cpu_cores "$dtb") || exit 2
	fi
	if [ -n "${VXU4_CLASSES:-}" ]; then
		[[ $VXU4_CLASSES != *,* ]] || env_bad "VXU4_CLASSES=$VXU4_CLASSES: QEMU's plugin arguments cannot hold a comma"
		classes=$(env_log VXU4_CLASSES) || exit
	fi
	# Last: the log is made (empty) once everything else is right.
	console=$(env_log VXU4_LOG) || exit
	# Each vCPU's own instruction count, for the CPU speed, where the DTB
	# reserves a page for it (tools/testing/vxu4/board/insn-count-plugin.c): the
	# guest RAM is then a shared file that the plugin maps too.
	counters=()
	node=$(fdtget -l "$dtb" /reserved-memory 2>/dev/null | grep '^insn-counters@' || true)
	tmp_console='' qemu=''
	trap 'rm -f "${ram:-}" "$tmp_console" "${tmp_dtb:-}"' EXIT
	# The DTB booted: a copy with the time scale's timer rate.
	tmp_dtb=$(mktemp --suffix=.dtb)
	cp "$dtb" "$tmp_dtb"
	fdtput -t u "$tmp_dtb" /timer clock-frequency $((cntfrq * scale)) ||
		{ echo "vxu4.sh: $dtb has no /timer node to give the time scale's rate: make it again (make run)" >&2; exit 2; }
	# On TERM or INT an isolated QEMU goes back to SCHED_OTHER first: its
	# main thread must run to act on the signal (it may have had it too).
	trap '[ -n "$qemu" ] && { unisolate "$qemu"; kill "$qemu"; } 2>/dev/null; exit 143' TERM INT
	if [ -n "$node" ]; then
		plugin=$(env_file VXU4_PLUGIN "$build/insn-count.so" "run 'make vxu4' (make run does)") || exit
		read -r _ page _ _ < <(fdtget -t x "$dtb" "/reserved-memory/$node" reg)
		mem=$(fdtget -l "$dtb" / | grep '^memory@')
		read -r _ base _ size < <(fdtget -t x "$dtb" "/$mem" reg)
		[ $((0x$size)) -eq $((ram_mb << 20)) ] ||
			{ echo "vxu4.sh: $dtb has $((0x$size >> 20)) MiB of RAM, QEMU starts with $ram_mb: make it again (make run)" >&2; exit 2; }
		# In /dev/shm when it has room for the guest's RAM (a container's
		# may have 64 MiB), else in build/ (the page cache keeps it).
		ram_dir=/dev/shm
		[ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt $((ram_mb * 1024)) ] 2>/dev/null ||
			ram_dir=$build
		ram=$(mktemp "$ram_dir/vxu4-ram.XXXXXX")
		plugin_args="ram=$ram,offset=$((0x$page - 0x$base))"
		[ "$cost" = insns ] || plugin_args+=",cost=cycles,weights=$weights,cores=$cores"
		[ "$cost" != cycles-cache ] || plugin_args+=",memory=cache"
		[ -z "${classes:-}" ] || plugin_args+=",classes=$classes"
		counters=(-object "memory-backend-file,id=ram,size=${ram_mb}M,mem-path=$ram,share=on"
			-machine memory-backend=ram
			-plugin "$plugin,$plugin_args")
	fi
	disk=()
	if [ -n "${VXU4_DISK:-}" ]; then
		disk=(-drive "file=$disk_file,format=raw,if=none,id=results"
			-device "virtio-blk-device,drive=results")
	fi
	# No firmware sets the Cortex-A15's IBE bit under QEMU: every CPU says
	# so at boot. Kept in the log, not shown.
	noise="Spectre v2: firmware did not set auxiliary control register IBE bit"
	what="guest time from the instruction count, $scale instructions a ns"
	[ "$cost" = insns ] || [ ${#counters[@]} -eq 0 ] ||
		what+="; a CPU's time from its cycles under the cost model ($cost, ${weights#"$top"/})"
	echo "==> booting the virtual Odroid-XU4 (QEMU TCG, 8 vCPUs, $what)"
	# The console goes to a regular file, which takes every write whole,
	# and is shown from there. On a pipe (-serial stdio) QEMU's writes
	# are non-blocking: when the reader falls behind, the UART's
	# transmission waits for the host and ends at a guest time that
	# depends on the host's load.
	if [ -z "$console" ]; then
		console=$(mktemp --suffix=.console)
		tmp_console=$console
	fi
	: >"$console"
	# VXU4_MONITOR=SOCKET: QEMU's monitor on that Unix socket (to look at
	# a guest that hangs: "info registers -a" gives each vCPU's PC).
	monitor=(-monitor none)
	[ -n "${VXU4_MONITOR:-}" ] && monitor=(-monitor "unix:$VXU4_MONITOR,server,nowait")
	# The host's timing out of the guest: QEMU on a host core of its own,
	# SCHED_FIFO (isolate_core, above). Its first console line says
	# whether this boot was (tools/testing/vxu4/suites/repro-test.sh reads it).
	rt=() host="vxu4.sh: host: not isolated"
	if [ -n "${VXU4_MONITOR:-}" ]; then
		host+=" (VXU4_MONITOR: the monitor needs QEMU's main thread to run at any time)"
	elif [ "${VXU4_ISOLATE:-1}" = 0 ]; then
		host+=" (VXU4_ISOLATE=0)"
	elif [ -n "${VXU4_DISK:-}" ]; then
		# A disk's requests complete in QEMU's main loop and thread
		# pool, which the raised vCPU thread would never let run on
		# the core they share (the guest hung in its partition scan).
		host+=" (VXU4_DISK: its I/O needs QEMU's main thread to run beside the vCPUs)"
	elif isolate_core; then
		rt=(chrt -f 1 taskset -c "$core") host="vxu4.sh: host: isolated on core $core, SCHED_FIFO"
	else
		host+=" ($why)"
		echo "$host: another boot's guest time may then differ from this one's" >&2
	fi
	echo "$host" >"$console"
	set +e
	timeout -k 10 "$timeout" "${rt[@]}" \
		qemu-system-arm -name vxu4,debug-threads=on \
		"${machine[@]}" "${icount[@]}" "${counters[@]}" "${disk[@]}" \
		-nodefaults -display none -no-reboot "${monitor[@]}" \
		-chardev "file,id=console,path=$console,append=on" -serial chardev:console \
		-kernel "$kernel" -dtb "$tmp_dtb" \
		"${initrd_arg[@]}" \
		-append "console=ttyAMA0 quiet sched_verbose rodata=off $*" </dev/null &
	qemu=$!
	[ ${#rt[@]} -eq 0 ] || raise_vcpu_thread "$qemu" &
	# Once the guest is down (powered off, restarting or panicked), its
	# other CPUs spin in ipi_cpu_stop() and the vCPU thread never blocks:
	# QEMU's threads go back to SCHED_OTHER so that its main thread can
	# act on the shutdown.
	tail -n +1 -s 0.2 -f --pid="$qemu" "$console" | grep -v --line-buffered "$noise" |
		while IFS= read -r line; do
			printf '%s\n' "$line"
			[ ${#rt[@]} -ne 0 ] || continue
			case "$line" in
			"["*"] reboot: "* | "["*"] Kernel panic - not syncing"*)
				unisolate "$qemu"
				rt=() ;;
			esac
		done
	wait "$qemu"
	rc=$?
	set -e
	# timeout's TERM, or its KILL 10 s later (the main thread of an
	# isolated QEMU whose guest still runs does not get to act on TERM).
	if [ "$rc" -eq 124 ] || { [ ${#rt[@]} -ne 0 ] && [ "$rc" -eq 137 ]; }; then
		echo "vxu4.sh: the guest did not power off within $timeout s" >&2
		exit 1
	fi
	exit "$rc"
	;;
*)
	echo "usage: $0 dumpdtb OUT.dtb | boot [KERNEL_ARGS...]" >&2
	exit 2
	;;
esac
