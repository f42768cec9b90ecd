#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# System test of the virtual Odroid-XU4: boot it with vxu4.mode=system and
# assert, from the guest's "@..." lines, that
#  - its Energy Model in debugfs equals, state by state, what eas-em
#    computes from the board's exynos5422-odroidxu4.dtb;
#  - EAS started, with both perf domains (the kernel's sched_verbose lines);
#  - both cpufreq policies run schedutil and made frequency transitions,
#    and, pinned at three OPPs each, the cluster clock reads back the
#    frequency cpufreq set;
#  - capacities are the board's, and the sched domains are MC {0-3},
#    MC {4-7}, PKG {0-7} with the asymmetric capacity flags at PKG only;
#  - cpu1 and cpu5 offline and online again keep their capacity, with no
#    capacity update or topology line printed;
#  - the KUnit suites ran at boot (kunit-boot-test.py judges their KTAP);
#  - no splat in its kernel log.
# The same boot measures the virtual board's physics and makes the bench
# smoke run (physics-test.sh, bench-smoke-test.sh judge them), unless
# --no-physics (make check's boot) or --kernel debug (the debug kernel of
# make check-debug).
#
# Usage: system-test.sh [--kernel debug] [--no-physics] [CONSOLE_LOG]
#   (with a log: no boot, only assert; else the boot system,
#   system-no-physics or system-debug of registry.toml)

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
board_dtb=$build/obj/arch/arm/boot/dts/samsung/exynos5422-odroidxu4.dtb
eas_em=$top/tools/power/eas/eas-em
tmp=$(mktemp -d)
ktap_atexit rm -rf "$tmp"

variant=
physics=1
if [ "${1:-}" = --kernel ]; then
	variant=$2
	shift 2
fi
if [ "${1:-}" = --no-physics ]; then
	physics=0
	shift
fi
sfx=${variant:+-$variant}
if [ $# -ge 1 ]; then
	log=$1
else
	log=$build/system-test$sfx.log
	# Without the physics and the bench smoke run (make check's boot;
	# make check-ci's judges them in this boot); the debug kernel never
	# measures them (KASAN's checks are not the board's speed).
	if [ -n "$variant" ]; then
		vxu4_boot "system-$variant"
	elif [ "$physics" = 1 ]; then
		vxu4_boot system
	else
		vxu4_boot system-no-physics
	fi
	echo "(console log: build/system-test$sfx.log)"
fi
tr -d '\r' <"$log" >"$tmp/log"

if grep -qx "@end" "$tmp/log"; then
	ok "guest booted and reported (@begin..@end)"
else
	nok "guest booted and reported (@begin..@end)" "no @end in $log:" \
		"$(tail -5 "$tmp/log")"
	finish
fi

# --- Energy Model: debugfs vs the host computation from the board DTB
if ! "$eas_em" compute --format=debugfs "$board_dtb" >"$tmp/em.host" 2>"$tmp/em.err"; then
	nok "eas-em computes the EM of $(basename "$board_dtb")" "$(cat "$tmp/em.err")"
	finish
fi
at em | LC_ALL=C sort >"$tmp/em.guest"
pds=$(sed -n 's#^energy_model/\([^/]*\)/.*#\1#p' "$tmp/em.host" | sort -u)
expect "perf domains in debugfs are those computed" "$(xargs <<<"$pds")" \
	"$(sed -n 's#^energy_model/\([^/]*\)/.*#\1#p' "$tmp/em.guest" | sort -u | xargs)"
for pd in $pds; do
	for f in cpus flags; do
		expect "$pd/$f" "$(grep "^energy_model/$pd/$f " "$tmp/em.host")" \
			"$(grep "^energy_model/$pd/$f " "$tmp/em.guest")"
	done
	while read -r ps; do
		h=$(grep "^energy_model/$pd/$ps/" "$tmp/em.host" | sed "s#^energy_model/$pd/$ps/##" | xargs)
		g=$(grep "^energy_model/$pd/$ps/" "$tmp/em.guest" | sed "s#^energy_model/$pd/$ps/##" | xargs)
		expect "$pd $ps equals the host computation" "$h" "$g"
	done < <(sed -n "s#^energy_model/$pd/\(ps:[0-9]*\)/.*#\1#p" "$tmp/em.host" | sort -u -t: -k2 -n)
	expect "$pd has no perf state the host did not compute" \
		"$(grep -c "^energy_model/$pd/" "$tmp/em.host")" \
		"$(grep -c "^energy_model/$pd/" "$tmp/em.guest")"
done
# What the issue promises, in plain numbers.
states() { grep -o "^energy_model/$1/ps:[0-9]*" "$tmp/em.guest" | sort -u | cut -d: -f2 | sort -n; }
expect "cpu0: 13 perf states 200000..1400000 kHz" "13 200000 1400000" \
	"$(states cpu0 | wc -l) $(states cpu0 | head -1) $(states cpu0 | tail -1)"
expect "cpu4: 19 perf states 200000..2000000 kHz" "19 200000 2000000" \
	"$(states cpu4 | wc -l) $(states cpu4 | head -1) $(states cpu4 | tail -1)"

# --- EAS, by the kernel's own evidence (sched_verbose)
at dmesg >"$tmp/dmesg"
# (KUnit's device EMs print the same line for their em-kunit devices.)
expect "EM: created perf domain for cpu0 and cpu4" \
	"cpu cpu0: EM: created perf domain;cpu cpu4: EM: created perf domain" \
	"$(grep "^cpu cpu[0-9]*: EM: created perf domain" "$tmp/dmesg" | paste -sd';')"
if grep -q "sched_energy_set: starting EAS" "$tmp/dmesg"; then
	ok "EAS started (sched_energy_set: starting EAS, after $(at eas_waited) s)"
else
	nok "EAS started" "no 'starting EAS'; kernel said:" "$(grep -E "Checking EAS|pd_init" "$tmp/dmesg")"
fi
rd=$(grep "root_domain" "$tmp/dmesg" | tail -1)
expect "root_domain 0-7 has pd4 (19 states) and pd0 (13 states)" \
	"root_domain 0-7: pd4:{ cpus=4-7 nr_pstate=19 } pd0:{ cpus=0-3 nr_pstate=13 }" \
	"$(echo "$rd" | grep -o "root_domain.*")"
expect "no EAS stop after the start" 0 \
	"$(sed -n '/starting EAS/,$p' "$tmp/dmesg" | grep -c "stopping EAS")"

# --- PELT: the multiplier's default, and read-only at run time
expect "PELT multiplier 1 (half-life 32 ms, the default), /proc/sys/kernel/sched_pelt_multiplier read-only" \
	"1 444" "$(at pelt | value multiplier) $(at pelt | value mode)"

# --- cpufreq policies
pol() { at policy | value "$2" "policy=$1"; }
expect "two cpufreq policies" "policy0 policy4" "$(at policy | value policy | xargs)"
for p in policy0 policy4; do
	expect "$p governor" schedutil "$(pol $p governor)"
	t=$(pol $p total_trans)
	if [ "${t:-0}" -gt 0 ] 2>/dev/null; then
		ok "$p made frequency transitions ($t)"
	else
		nok "$p made frequency transitions" "total_trans=$t"
	fi
	# Pinned (scaling_min = scaling_max) at three OPPs, the cluster clock
	# must read back each frequency cpufreq set.
	pins=$(at pin | grep -E "(^| )policy=$p( |$)")
	expect "$p pinned at 3 OPPs" 3 "$(echo "$pins" | grep -c .)"
	for f in $(echo "$pins" | value khz); do
		expect "$p pinned at $f kHz: cpufreq and the cluster clock agree" \
			"scaling_cur_freq=$f cpuinfo_cur_freq=$f" \
			"scaling_cur_freq=$(echo "$pins" | value scaling_cur_freq "khz=$f") cpuinfo_cur_freq=$(echo "$pins" | value cpuinfo_cur_freq "khz=$f")"
	done
	t=$(at pin_trans | value trans "policy=$p")
	if [ "${t:-0}" -ge 2 ] 2>/dev/null; then
		ok "$p: pinning made transitions ($t)"
	else
		nok "$p: pinning made transitions" "transitions while pinning: $t"
	fi
done
expect "policy0 related CPUs" "0,1,2,3" "$(pol policy0 related_cpus)"
expect "policy4 related CPUs" "4,5,6,7" "$(pol policy4 related_cpus)"
expect "policy0 cpuinfo_max_freq" 1400000 "$(pol policy0 cpuinfo_max_freq)"
expect "policy4 cpuinfo_max_freq" 2000000 "$(pol policy4 cpuinfo_max_freq)"

# --- capacities: the top perf state's performance of each CPU's domain
"$eas_em" compute --format=json "$board_dtb" >"$tmp/em.json"
for c in 0 1 2 3 4 5 6 7; do
	want=$("${vxu4py[@]}" "$vxu4log" em-cpus "$tmp/em.json" | value capacity "cpu=$c")
	expect "cpu$c capacity" "$want" "$(at capacity | value capacity "cpu=$c")"
done

# --- sched domains: MC per cluster, PKG over all, asym flags at PKG only
for c in 0 1 2 3 4 5 6 7; do
	if [ $c -lt 4 ]; then mc=0-3; else mc=4-7; fi
	d=$(at domain | grep -E "(^| )cpu=$c( |$)")
	expect "cpu$c sched domains" "0 MC $mc;1 PKG 0-7" \
		"$(paste -d' ' <(echo "$d" | value level) <(echo "$d" | value name) \
			<(echo "$d" | value span) | paste -sd';')"
	pkgflags=$(echo "$d" | value flags name=PKG)
	mcflags=$(echo "$d" | value flags name=MC)
	case ",$pkgflags," in
	*,SD_ASYM_CPUCAPACITY,*SD_ASYM_CPUCAPACITY_FULL,*) ok "cpu$c PKG has SD_ASYM_CPUCAPACITY(_FULL)" ;;
	*) nok "cpu$c PKG has SD_ASYM_CPUCAPACITY(_FULL)" "flags: $pkgflags" ;;
	esac
	case ",$mcflags," in
	*ASYM_CPUCAPACITY*) nok "cpu$c MC has no asym capacity flag" "flags: $mcflags" ;;
	,,) nok "cpu$c MC has no asym capacity flag" "no MC flags read" ;;
	*) ok "cpu$c MC has no asym capacity flag" ;;
	esac
done

# CPU hotplug: cpu1 and cpu5 offline and online again. A CPU that comes
# back keeps its topology (patch "ARM: topology: honour the DT cpu-map"):
# the kernel prints no capacity update and no topology line for it, and
# its capacity is the one it booted with.
hp=$(at hotplug)
if [ -n "$hp" ]; then
	expect "after cpu1 and cpu5 went offline and online, CPUs online" 0-7 "$(echo "$hp" | value online)"
	for c in 1 5; do
		expect "cpu$c capacity after it came back online" \
			"$(at capacity | value capacity "cpu=$c")" "$(echo "$hp" | value "capacity$c")"
		bad=$(at hotplug_dmesg | grep -E "CPU$c: (update cpu_capacity|thread )")
		if [ -z "$bad" ]; then
			ok "cpu$c came back online with no capacity update or topology line printed"
		else
			nok "cpu$c came back online with no capacity update or topology line printed" "$bad"
		fi
	done
else
	nok "the guest took cpu1 and cpu5 offline and online" "no @hotplug line in $log"
fi
no_splats "the system test's boot"
finish
