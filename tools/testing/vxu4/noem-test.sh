#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The virtual XU4 without dynamic-power-coefficient (build/vxu4-noem.dtb):
# cpufreq-dt registers no Energy Model and says nothing; EAS stays off and
# the kernel (sched_verbose) says why; the KUnit suite of the EM's CPU mask
# checks (energy_model_cpu_mask), which needs CPUs without EMs, runs here
# (kunit.sh asserts its cases from this boot's log).
#
# Usage: noem-test.sh [CONSOLE_LOG]  (with a log: no boot, only assert)

set -uo pipefail

suite='no-EM boot'
. "$(dirname "$0")/lib.sh"

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=$top/build

if [ $# -ge 1 ]; then
	log=$1
else
	log=$build/noem-test.log
	rm -f "$log"
	VXU4_DTB=$build/vxu4-noem.dtb VXU4_LOG=$log "$top/scripts/vxu4.sh" boot \
		vxu4.mode=check vxu4.physics=0 vxu4.eas_timeout=10 kunit.enable=1 \
		kunit.filter_glob='energy_model_cpu_mask*' >/dev/null
	echo "(console log: build/noem-test.log)"
fi
clean=$(tr -d '\r' <"$log")

if echo "$clean" | grep -qx "@end"; then
	ok "guest booted and reported"
else
	nok "guest booted and reported" "no @end in $log"
	finish
fi

dm=$(at dmesg)
if echo "$dm" | grep -q "starting EAS"; then
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
if echo "$clean" | grep -q "^EAS: off"; then
	ok "make run's report says EAS: off"
else
	nok "make run's report says EAS: off" "$(echo "$clean" | grep "^EAS")"
fi
for p in policy0 policy4; do
	g=$(at policy | grep "^$p " | tr ' ' '\n' | sed -n 's/^governor=//p')
	if [ "$g" = schedutil ]; then ok "$p still runs schedutil"; else nok "$p still runs schedutil" "governor=$g"; fi
done
finish
