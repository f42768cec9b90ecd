# SPDX-License-Identifier: GPL-2.0
#
# Energy-Aware Scheduling on the Odroid-XU3/XU4, and the virtual XU4.
#
#   make run      install what is missing, build the kernel, boot the virtual
#                 XU4 and show its Energy Model and EAS state
#   make check    the tests of every edit (host, static, series, kunit.py, one
#                 boot); ends with "N passed, N failed"
#   make check-ci what CI runs: make check, the physics, the variant boards,
#                 a short stress, PELT at one multiplier
#   make check-full  everything: before a series version, and whenever the
#                 emulation changes (tools/testing/vxu4/suites/registry.toml lists the tiers)
#   make TARGET   one suite alone, for each TARGET that the list names
#                 (check-boost, check-pelt, ...: make help lists them)
#   make check-debug  the debug kernel (lockdep, KASAN, UBSAN, ...): system test, KUnit, stress
#   make bench    the reference experiments (rt-app energy, hackbench), EAS on/off
#   make bench-seed  the same as long as the 2020 mailing-list series ran it:
#                 rt-app 30 s, hackbench -l 500
#   make pelt-bench  PELT half-life 32/16/8 ms compared: RampUp, frames, energy
#   make boost-bench  boost OPPs: none, always, the load-aware budget compared
#   make idle-bench   idle governors mbed, menu, teo, ladder compared: frames, audio, video, latency
#   make timescale-bench  the guest's time scale K against the board: probes, hackbench, wall cost
#   make fidelity the probes against the boards' published figures; the cost model's weights fitted
#   make odroid   the board's packages (kernel, headers, eas-em: armhf .debs),
#                 its boot.ini, and the same kernel as files, in build/odroid
#   make image    after make odroid: an SD card image in build/image, Debian 12
#                 armhf with those packages installed by dpkg (as root)
#   make series   the patch series as git format-patch output in build/series/out
#   make series-edit  the series as a git tree to edit: build/series/git, the whole
#                 pristine tree, one commit a patch (SPARSE=1: build/series/git-sparse)
#   make series-import  that tree's commits written back to patches/ and the new files
#   make kernel   only (re)build the kernel (build/obj)
#   make vxu4     the kernel, then the virtual board's DTBs (build/vxu4*.dtb)
#   make initramfs  the guest's root (build/initramfs.cpio.gz)
#   make tools    the host tools: eas-em, the trace reader
#   make deps     install what is missing (apt), nothing else
#   make clean    remove the kernel's objects, the DTBs, the initramfs, the packages
#   make help     this list, then the one-suite targets
#
# Build products live in build/ (git-ignored).

SHELL := /bin/bash
BUILD := build
KOBJ := $(BUILD)/obj
DTBDIR := $(KOBJ)/arch/arm/boot/dts/samsung
BOARD_DTB := $(DTBDIR)/exynos5422-odroidxu4.dtb
HOSTCC ?= gcc
HOSTCFLAGS := -O2 -Wall -Wextra '-D__printf(a, b)=__attribute__((format(printf, a, b)))' \
	'-D__noreturn=__attribute__((noreturn))'
export CCACHE_DIR ?= $(HOME)/.cache/ccache

# The make targets of one suite alone: those that the registry of suites
# names (their "target"), each with what it needs made first, which the
# registry computes from what the suite declares (tools/testing/check.sh
# --targets, its third column): "board" when it boots or reads a boot (a
# boot's files: make vxu4 initramfs tools), "kernel" when it builds its
# own kernel or trees from the patched source, else "deps". One call,
# TARGET=NEEDS a word. The registry is read by python3 (3.11: tomllib),
# which make deps installs: until then (a fresh machine) there are no
# such targets, and make deps, make run and the others work as ever.
SUITES := tools/testing/vxu4/suites/registry.toml
ifneq ($(shell command -v python3),)
SUITE_NEEDS := $(shell tools/testing/check.sh --targets | awk -F '\t' '{ print $$1 "=" $$3 }')
ifeq ($(SUITE_NEEDS),)
$(error $(SUITES) names no make target: tools/testing/check.sh --targets failed)
endif
endif
SUITE_TARGETS := $(foreach s,$(SUITE_NEEDS),$(firstword $(subst =, ,$(s))))
# suites_needing,NEEDS: the targets of the suites that need NEEDS.
suites_needing = $(patsubst %=$(1),%,$(filter %=$(1),$(SUITE_NEEDS)))

.PHONY: all run check check-ci check-full idle-bench check-debug bench bench-seed pelt-bench boost-bench timescale-bench fidelity odroid image series series-edit series-import deps kernel vxu4 initramfs tools clean help $(SUITE_TARGETS)

all: run

help:
	@sed -n 's/^#   //p' Makefile
	@echo "one suite alone ($(SUITES)):"
	@if command -v python3 >/dev/null; then \
		tools/testing/check.sh --targets | awk -F '\t' '{ printf "  make %-15s %s\n", $$1, $$2 }'; \
	else echo "  (none yet: make deps installs python3, which reads the registry)"; fi

deps:
	@scripts/deps.sh

kernel: deps
	@scripts/kernel.sh build

$(BUILD)/vxu4-dtb: tools/testing/vxu4/board/vxu4-dtb.c | deps
	@mkdir -p $(BUILD)
	@echo "==> building build/vxu4-dtb (libfdt)"
	@$(HOSTCC) $(HOSTCFLAGS) -o $@ $< -lfdt -lm

# The QEMU plugin that counts each vCPU's instructions (scripts/vxu4.sh),
# built against the plugin header of the installed QEMU's own source.
$(BUILD)/insn-count.so: tools/testing/vxu4/board/insn-count-plugin.c | deps
	@scripts/qemu-plugin-header.sh $(BUILD)/qemu-plugin
	@echo "==> building build/insn-count.so (QEMU plugin)"
	@$(HOSTCC) -O2 -Wall -Wextra -shared -fPIC -I$(BUILD)/qemu-plugin \
		$$(pkg-config --cflags glib-2.0) -o $@ $< -lm

# The meters' leakage and WFI power: fitted to published Odroid-XU3 data
# (tools/power/eas/data, sources in each file), net of the EM's dynamic
# power of the board DTB's CPUs.
IDLE_DATA := tools/power/eas/data/powmon-a15.csv tools/power/eas/data/powmon-a7-nondyn.txt

# The virtual board's DTB: QEMU's own, plus the CPU description of the XU4
# DTB that the kernel build just made, plus the meters' idle power model.
vxu4: kernel $(BUILD)/vxu4-dtb $(BUILD)/insn-count.so
	@tools/power/eas/idle-power-fit --dtb $(BOARD_DTB) --dtb-model $(IDLE_DATA) \
		>$(BUILD)/idle-model.txt.tmp && mv $(BUILD)/idle-model.txt.tmp $(BUILD)/idle-model.txt
	@echo "==> build/idle-model.txt: the clusters' leakage and WFI power, fitted to $(notdir $(IDLE_DATA))"
	@scripts/vxu4.sh dumpdtb $(BUILD)/qemu-virt.dtb
	@$(BUILD)/vxu4-dtb $(BUILD)/qemu-virt.dtb $(BOARD_DTB) $(BUILD)/vxu4.dtb $(BUILD)/idle-model.txt
	@echo "==> build/vxu4.dtb: QEMU virt + CPUs, OPPs and cpu-map of $(notdir $(BOARD_DTB)), meters' idle power"
	@# The same board with no dynamic-power-coefficient: no EM, EAS off
	@# (make check's second boot, for the EM's CPU mask checks); and with
	@# no cpu-map either: the 2020 series' baseline (make bench's d), one
	@# sched domain level (tools/testing/vxu4/board/dtb-variant.sh makes every
	@# variant of the board).
	@tools/testing/vxu4/board/dtb-variant.sh noem $(BUILD)/vxu4.dtb $(BUILD)/vxu4-noem.dtb
	@tools/testing/vxu4/board/dtb-variant.sh noem-nomc $(BUILD)/vxu4.dtb $(BUILD)/vxu4-noem-nomc.dtb

# The events of a guest's trace.dat as JSON lines (libtracecmd).
$(BUILD)/trace-events: tools/testing/vxu4/lib/trace-events.c | deps
	@mkdir -p $(BUILD)
	@echo "==> building build/trace-events (libtracecmd, libtraceevent)"
	@$(HOSTCC) $(HOSTCFLAGS) $$(pkg-config --cflags libtracecmd) -o $@ $< \
		$$(pkg-config --libs libtracecmd)

# The guest's payloads: /init, one file a mode (vxu4.mode=MODE runs
# vxu4-MODE), the library they share and eas-work, cross-built static;
# vxu4-probe dynamic against the guest's Debian libc, as lmbench and
# UnixBench are on the boards whose figures it is held against (a fork
# copies the mappings of the C library and the loader).
GUEST_MODES := system physics pelt stress baddt boost idle bench pelt-bench \
	idle-bench boost-bench timescale-bench eas-behaviour fidelity board-bench
GUEST_TOOLS := $(GUEST_MODES:%=$(BUILD)/guest-tools/usr/bin/vxu4-%) \
	$(BUILD)/guest-tools/usr/lib/vxu4/lib $(BUILD)/guest-tools/usr/lib/vxu4/bench-configs \
	$(BUILD)/guest-tools/usr/bin/eas-work \
	$(BUILD)/guest-tools/usr/bin/vxu4-probe $(BUILD)/guest-tools/usr/bin/eas-bench
$(BUILD)/guest-tools/usr/bin/vxu4-%: tools/testing/vxu4/guest/%
	@mkdir -p $(dir $@)
	install -m 755 $< $@
# The board command, as the board's package installs it.
$(BUILD)/guest-tools/usr/bin/eas-bench: tools/power/eas/eas-bench
	@mkdir -p $(dir $@)
	install -m 755 $< $@
$(BUILD)/guest-tools/usr/lib/vxu4/lib: tools/testing/vxu4/guest/lib
	@mkdir -p $(dir $@)
	install -m 644 $< $@
# make bench's configurations, as the guest's vxu4-bench reads them.
$(BUILD)/guest-tools/usr/lib/vxu4/bench-configs: tools/testing/vxu4/benches/bench-configs
	@mkdir -p $(dir $@)
	install -m 644 $< $@
$(BUILD)/guest-tools/usr/bin/eas-work: tools/testing/vxu4/guest/eas-work.c | deps
	@mkdir -p $(dir $@)
	@arm-linux-gnueabihf-gcc -static -O2 -Wall -Wextra -o $@ $< -lm
$(BUILD)/guest-tools/usr/bin/vxu4-probe: tools/testing/vxu4/guest/probe.c | deps
	@mkdir -p $(dir $@)
	@arm-linux-gnueabihf-gcc -O2 -Wall -Wextra -o $@ $<

# The guest's root: the Debian armhf packages of its list (the
# environment's GUEST_PACKAGES, if set), its /init and its payloads
# (scripts/mkinitramfs.sh), and rt-app's files of its workloads
# (tools/testing/vxu4/lib/workloads.py: /usr/share/vxu4/rtapp/NAME.json);
# once build/vxu4.dtb is made (make vxu4), the EAS behaviour tests' too,
# sized from that board's EM.
GUEST_PACKAGES ?= tools/testing/vxu4/guest/packages.txt
GUEST_INIT := tools/testing/vxu4/guest/init
RTAPP_DIR := $(BUILD)/guest-tools/usr/share/vxu4/rtapp
initramfs: deps $(GUEST_TOOLS)
	@find $(BUILD)/guest-tools -type f $(GUEST_TOOLS:%=! -path %) -delete
	@if [ -f $(BUILD)/vxu4.dtb ]; then \
		$(MAKE) -s -C tools/power/eas && \
		tools/power/eas/eas-em compute --json $(BUILD)/vxu4.dtb >$(BUILD)/rtapp-em.json && \
		python3 tools/testing/vxu4/lib/workloads.py write $(RTAPP_DIR) --em $(BUILD)/rtapp-em.json; \
	else \
		echo "==> no build/vxu4.dtb (make vxu4): the EAS behaviour tests' workloads left out"; \
		python3 tools/testing/vxu4/lib/workloads.py write $(RTAPP_DIR); \
	fi
	@GUEST_PACKAGES=$(GUEST_PACKAGES) scripts/mkinitramfs.sh $(BUILD)/initramfs.cpio.gz $(GUEST_INIT) $(BUILD)/guest-tools

tools: deps $(BUILD)/trace-events
	@$(MAKE) -s -C tools/power/eas

run: vxu4 initramfs
	@scripts/vxu4.sh boot vxu4.mode=run

check: vxu4 initramfs tools
	@tools/testing/check.sh check

check-ci: vxu4 initramfs tools
	@tools/testing/check.sh ci

check-full: vxu4 initramfs tools
	@tools/testing/check.sh full

# The debug kernel's suites (it builds build/obj-debug).
check-debug: vxu4 initramfs tools
	@tools/testing/check.sh debug

# One suite alone, as its tier runs it (tools/testing/check.sh --suite):
# the same KTAP, then "N passed, N failed". Their settings come from the
# environment: REPS (check-physics' rounds, default 1), BOOST_HZ
# (check-boost), TESTS=A,B (eas-behaviour: only those; its results in
# build/eas-behaviour-check/), and the scripts' own (see each).
$(SUITE_TARGETS): %:
	@tools/testing/check.sh --suite $@
# What they need built first, as the registry computes it (above): a
# boot's files, except for the suites that boot none (kunit.py builds
# its own kernel, the series its own trees, make odroid the packages;
# the others need only what make deps installs).
NOBOOT_TARGETS := $(filter-out $(call suites_needing,board),$(SUITE_TARGETS))
$(filter-out $(NOBOOT_TARGETS),$(SUITE_TARGETS)): vxu4 initramfs tools
$(call suites_needing,kernel): kernel
$(call suites_needing,deps): deps

# PELT half-life 32, 16, 8 ms compared (ITER, FRAMES, DURATION, PARALLEL:
# tools/testing/vxu4/benches/pelt-bench.sh): RampUp, frames, energy; table and plot.
pelt-bench: vxu4 initramfs tools
	@tools/testing/vxu4/benches/pelt-bench.sh

# Boost OPPs compared: no boost, boost always, the load-aware boost budget
# (ITER, WORK_MS, TAR_DIRS: tools/testing/vxu4/benches/boost-bench.sh): 1-4 threads
# of fixed work and tar -czf; time, energy, power; table and plot.
boost-bench: vxu4 initramfs tools
	@tools/testing/vxu4/benches/boost-bench.sh

# The idle governors compared on the board with idle states (ITER, FRAMES,
# AUDIO_S, VIDEO_S, LOOPS, GOVERNORS: tools/testing/vxu4/benches/idle-bench.sh):
# frames, audio, video, cyclictest; table and plot.
idle-bench: vxu4 initramfs tools
	@tools/testing/vxu4/benches/idle-bench.sh

# The reference experiments, four ways (ITER, TASKS, DURATION, HB_LOOPS,
# HB_GROUPS, CONFIGS, VXU4_TIME_SCALE, KERNEL, HOSTS: tools/testing/vxu4/benches/bench.sh);
# eas-em computes the EM
bench: vxu4 initramfs tools
	@tools/testing/vxu4/benches/bench.sh

# The reference experiments as the 2020 mailing-list series and Arm ran
# them: the same bench with their lengths (tools/testing/vxu4/benches/bench.sh
# --seed).
bench-seed: vxu4 initramfs tools
	@tools/testing/vxu4/benches/bench.sh --seed

# The guest's time scale K against the board (SCALES, REPS, HB_A, HB_B:
# tools/testing/vxu4/benches/timescale-bench.sh): one boot a K; probes, hackbench,
# rt-app util, wall cost; table and plot.
timescale-bench: vxu4 initramfs tools
	@tools/testing/vxu4/benches/timescale-bench.sh

# The probes against the boards' published figures, and the cost model's
# weights fitted to them (COSTS, VXU4_TIME_SCALE, WEIGHTS, REPS, SCALE_PCT,
# HB_A, HB_B, KERNEL: tools/testing/vxu4/benches/fidelity.sh).
fidelity: vxu4 initramfs tools
	@tools/testing/vxu4/benches/fidelity.sh

odroid: deps tools
	@scripts/odroid.sh

# The SD card image of make odroid's packages (scripts/image.sh: IMAGE_MB,
# IMAGE_DIR, ODROID_DEBS, DEBIAN_MIRROR); it builds no kernel, and stops
# (exit 2) without them.
image: deps
	@scripts/image.sh

# The series as kernel people take it: git format-patch output in
# build/series/out (series), checked with git am and checkpatch
# (series-check, a suite of the list: tools/testing/series-test.sh),
# built at every patch (series-build, one too).
series: deps
	@scripts/series.sh export

# The series to edit as git commits (docs/maintainers-guide.md): the
# whole pristine tree with one commit a patch, or with SPARSE=1 the
# files the series touches; then import writes the commits back.
SERIES_TREE := $(if $(SPARSE),,--full)
series-edit: deps
	@scripts/series.sh export $(SERIES_TREE)

series-import:
	@scripts/series.sh import $(SERIES_TREE)

clean:
	rm -rf $(BUILD)/obj $(BUILD)/vxu4.dtb $(BUILD)/qemu-virt.dtb \
		$(BUILD)/vxu4-dtb $(BUILD)/initramfs.cpio.gz $(BUILD)/odroid $(BUILD)/image
	-$(MAKE) -s -C tools/power/eas clean
