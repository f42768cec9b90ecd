#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The virtual XU4 without dynamic-power-coefficient (build/vxu4-noem.dtb):
# cpufreq-dt registers no Energy Model and says nothing; EAS stays off and
# the kernel (sched_verbose) says why; the KUnit suite of the EM's CPU mask
# checks (energy_model_cpu_mask), which needs CPUs without EMs, runs here
# (kunit-boot-test.py judges its cases from this boot's log).
# The meters' 64-bit energy1_input is checked here too: both meters of this
# boot's DTB (build/vxu4-noem-wrap.dtb) get a static part of 4 kW, so
# their count passes 2^32 uJ 1.1 s after probe; it must stay positive,
# never decrease, and add static power x time within 1%. The meters run
# EM-only here (virt_cluster_power.model=em: no leakage, no WFI power; with
# no EM, no dynamic power either), so static power x time is their whole
# model; the check's first boot covers the full model (physics-test.sh).
#
# Usage: noem-test.sh [CONSOLE_LOG]  (with a log: no boot, only assert)

set -uo pipefail

. "$(dirname "$0")/../lib/suite-lib.sh"

top=$(cd "$(dirname "$0")/../../../.." && pwd)
build=$top/build
wrap_uw=4000000000	# uW: 2^32 uJ in 1.07 s

if [ $# -ge 1 ]; then
	log=$1
else
	log=$build/noem-test.log
	rm -f "$log"
	dtb=$build/vxu4-noem-wrap.dtb
	cp "$build/vxu4-noem.dtb" "$dtb"
	for m in power-meter-0 power-meter-1; do
		fdtput -t u "$dtb" "/$m" static-power-microwatt "$wrap_uw" ||
			{ echo "cannot set /$m's static-power-microwatt in $dtb (fdtput, device-tree-compiler)"; exit 1; }
	done
	vxu4_boot noem
	echo "(console log: build/noem-test.log)"
fi
clean=$(tr -d '\r' <"$log")

reported

dm=$(at dmesg)
if grep -q "starting EAS" <<<"$dm"; then
	nok "EAS did not start" "$(echo "$dm" | grep "EAS")"
else
	ok "EAS did not start"
fi
# The sched_verbose check at schedutil's domain rebuild says why (before
# the KUnit suite registered CPU0-3's EM, no CPU had one).
why=$(echo "$dm" | grep -o "pd_init: no EM found for CPU[0-9]*" | head -1)
if [ -n "$why" ]; then
	ok "the kernel says why: $why"
else
	nok "the kernel says why: pd_init: no EM found for CPUn" "$(echo "$dm" | grep -E "EAS|pd_init")"
fi
# cpufreq-dt's own registration failed silently (dev_dbg): the only
# "created perf domain" is the KUnit suite's, for cpu0.
created=$(echo "$dm" | grep -c "EM: created perf domain")
if [ "$created" -le 1 ]; then
	ok "cpufreq-dt created no EM and printed nothing (the one 'created perf domain' is the KUnit suite's)"
else
	nok "cpufreq-dt created no EM" "$(echo "$dm" | grep "created perf domain")"
fi
if grep -q "^EAS: off" <<<"$clean"; then
	ok "make run's report says EAS: off"
else
	nok "make run's report says EAS: off" "$(echo "$clean" | grep "^EAS")"
fi
for p in policy0 policy4; do
	g=$(at policy | value governor "policy=$p")
	if [ "$g" = schedutil ]; then ok "$p still runs schedutil"; else nok "$p still runs schedutil" "governor=$g"; fi
done

# --- the meters' EM-only knob: both say so at probe
for label in a7 a15; do
	l=$(echo "$dm" | grep "virt-cluster-power.*: $label: ")
	if grep -q "no leakage or WFI power (model=em)" <<<"$l"; then
		ok "meter $label: model=em counts no leakage or WFI power (the kernel: ${l#*: })"
	else
		nok "meter $label: model=em counts no leakage or WFI power" "kernel: ${l:-nothing}"
	fi
done

# --- the meters' energy1_input beyond 2^32 uJ (hwmon_energy64)
reads=$(at wrap_read)
for label in $(echo "$reads" | value label | distinct); do
	vals=$(echo "$reads" | value uj label="$label")
	n=$(echo "$vals" | grep -c .)
	first=$(echo "$vals" | head -1)
	bad=$(echo "$vals" | awk -v lim=$((1 << 32)) '
		$1 !~ /^[0-9]+$/ || $1 + 0 <= lim { print "read " NR ": " $1 " (not above 2^32)"; exit }
		NR > 1 && $1 + 0 < prev { print "read " NR ": " $1 " < " prev; exit }
		{ prev = $1 + 0 }')
	if [ "$n" -ge 40 ] && [ -z "$bad" ]; then
		ok "meter $label: energy1_input beyond 2^32 uJ, positive and never decreasing over $n reads 50 ms apart ($first .. $(echo "$vals" | tail -1) uJ)"
	else
		nok "meter $label: energy1_input beyond 2^32 uJ, positive and never decreasing" \
			"$n reads; ${bad:-}"
	fi
done
[ -n "$reads" ] || nok "the meters were read beyond 2^32 uJ" "no @wrap_read lines in $log"
win=$(at wrap_window)
for label in $(echo "$win" | value label | distinct); do
	line=$(echo "$win" | grep -E "(^| )label=$label( |$)")
	st=$(echo "$line" | value static_uw)
	w=$(echo "$line" | value window_ns)
	de=$(counter_delta "$(echo "$line" | value before)" "$(echo "$line" | value after)") || de=''
	want=$(awk -v p="$st" -v w="$w" 'BEGIN { printf "%.0f", p * w / 1e9 }')
	expect "meter $label: its DT static part is the test's" "$wrap_uw" "$st"
	within "meter $label: beyond 2^32 uJ, energy1_input adds static power x time ($st uW for $w ns)" \
		"$want" "$de" 1
done
[ -n "$win" ] || nok "the meters' energy over a window beyond 2^32 uJ" "no @wrap_window lines in $log"

# --- power1_average: the mean over its interval, which reads do not reset
avg=$(at wrap_average)
for label in $(echo "$avg" | value label | distinct); do
	line=$(echo "$avg" | grep -E "(^| )label=$label( |$)")
	a=$(echo "$line" | value first) b=$(echo "$line" | value second)
	expect "meter $label: power1_average_interval reads back 60000 ms" 60000 "$(echo "$line" | value interval_ms)"
	expect "meter $label: power1_average_interval clamps 5 ms to 10 ms" 10 "$(echo "$line" | value clamped_ms)"
	# 4 kW does not fit the long that hwmon hands power in (2^31 - 1 uW on
	# this 32-bit kernel): the mean must saturate there, not wrap.
	expect "meter $label: power1_average of a 4 kW mean saturates at the 32-bit long's 2147483647 uW" \
		2147483647 "$a"
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		ok "meter $label: a second read of power1_average 200 ms later, in the same interval, gives the same mean ($a uW): reads do not reset it"
	else
		nok "meter $label: a second read of power1_average gives the same mean" "first $a, second $b uW"
	fi
done
[ -n "$avg" ] || nok "the meters' power1_average was read" "no @wrap_average lines in $log"
finish
