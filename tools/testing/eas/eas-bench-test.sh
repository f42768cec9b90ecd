#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the board command tools/power/eas/eas-bench, on made-up
# boards (a sysfs tree of their files, EAS_BENCH_SYS) and made-up rt-app,
# hackbench and taskset: the energy sensors found (the XU3's INA231 rails
# by their DT node, the virtual XU4's meters, none on an XU4), the
# integration of power samples, a run's results file and the table of
# one and of two (mean, RSD, change, Mann-Whitney p on known data), the
# refusals (exit 2, one line, nothing that looks complete): a half-written
# or broken results file, no schedutil, a sweep without sensors; and a
# sweep's file, which eas-em fit reads. KTAP (tools/testing/ktap.sh).
#
# Usage: tools/testing/eas/eas-bench-test.sh [--busybox]
#   --busybox  the same tests with eas-bench run by the virtual XU4's own
#              shell and tools: the armhf busybox of the guest's packages
#              (build/debs/busybox-static_*_armhf.deb, make initramfs's),
#              its applets first in PATH, under qemu-user (binfmt_misc);
#              all skipped without them

set -uo pipefail
export LC_ALL=C

top=$(cd "$(dirname "$0")/../../.." && pwd)
eb=$top/tools/power/eas/eas-bench
# shellcheck source=tools/testing/ktap.sh
. "$top/tools/testing/ktap.sh"
tmp=$(mktemp -d /tmp/eas-bench-test.XXXXXX) || exit 2
ktap_atexit rm -rf "$tmp"

if [ "${1:-}" = --busybox ]; then
	bbdeb=$(compgen -G "$top/build/debs/busybox-static_*_armhf.deb" | head -1)
	why=
	if [ -z "$bbdeb" ]; then
		why="no build/debs/busybox-static_*_armhf.deb: make initramfs fetches it"
	elif ! arch-test armhf >/dev/null 2>&1; then
		why="this host runs no armhf programs (arch-test armhf): qemu-user-binfmt"
	fi
	if [ -n "$why" ]; then
		ktap_skip "eas-bench under the guest's busybox" "$why"
		ktap_finish
	fi
	dpkg-deb -x "$bbdeb" "$tmp/bb"
	mkdir -p "$tmp/bb/applets"
	for a in $("$tmp/bb/bin/busybox" --list); do
		ln -s "$tmp/bb/bin/busybox" "$tmp/bb/applets/$a"
	done
	# eas-bench in busybox's sh, busybox's applets before the host's
	# tools (but for the made-up rt-app, hackbench and taskset, first).
	cat >"$tmp/bb/eas-bench" <<EOF
#!/bin/bash
PATH=\${PATH%%:*}:$tmp/bb/applets:\$PATH exec $tmp/bb/bin/busybox sh $eb "\$@"
EOF
	chmod +x "$tmp/bb/eas-bench"
	eb=$tmp/bb/eas-bench
	echo "eas-bench run by $("$tmp/bb/bin/busybox" | head -1)"
fi

# run ARGS...: eas-bench with stdout, stderr and exit status in $out,
# $err, $rc; killed after 60 s (124): nothing may hang it
run() {
	timeout 60 "$eb" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# refused DESC FRAGMENT: the last run exited 2 with one line on stderr
# holding FRAGMENT and nothing on stdout
refused() {
	local why=""

	[ "$rc" -eq 2 ] || why="exit status $rc, want 2"
	[ -z "$why" ] && [ -s "$tmp/out" ] && why="output on stdout: $out"
	[ -z "$why" ] && [ "$(wc -l <"$tmp/err")" -ne 1 ] && why="stderr is not one line"
	[ -z "$why" ] && [[ $err != *"$2"* ]] && why="message lacks '$2'"
	if [ -z "$why" ]; then
		ktap_ok "$1"
	else
		ktap_fail "$1" "$why" "stderr: $err"
	fi
}

# expect DESC STATUS DETAIL...: a result from the exit status of the
# condition just before (0: ok), with DETAILs if it failed
expect() {
	local desc=$1 st=$2

	shift 2
	if [ "$st" -eq 0 ]; then
		ktap_ok "$desc"
	else
		ktap_fail "$desc" "$@"
	fi
}

# --- made-up boards --------------------------------------------------------------
# board DIR: the Exynos5422's cpufreq policies (schedutil), capacities,
# an EM in debugfs and sched_energy_aware 1, without sensors
board() {
	local d=$1 p c

	mkdir -p "$d/sys/class/hwmon" "$d/proc/sys/kernel"
	echo 1 >"$d/proc/sys/kernel/sched_energy_aware"
	for p in 0 4; do
		local pd=$d/sys/devices/system/cpu/cpufreq/policy$p
		mkdir -p "$pd" "$d/sys/kernel/debug/energy_model/cpu$p"
		echo schedutil >"$pd/scaling_governor"
		echo "$p $((p + 1)) $((p + 2)) $((p + 3))" >"$pd/related_cpus"
		if [ $p = 0 ]; then
			echo "200000 1400000 " >"$pd/scaling_available_frequencies"
			echo 1400000 >"$pd/cpuinfo_max_freq"
		else
			echo "200000 2000000 " >"$pd/scaling_available_frequencies"
			echo 2000000 >"$pd/cpuinfo_max_freq"
		fi
		echo 200000 >"$pd/cpuinfo_min_freq"
		cp "$pd/cpuinfo_min_freq" "$pd/scaling_min_freq"
		cp "$pd/cpuinfo_max_freq" "$pd/scaling_max_freq"
		cp "$pd/cpuinfo_min_freq" "$pd/scaling_cur_freq"
	done
	for c in 0 1 2 3 4 5 6 7; do
		mkdir -p "$d/sys/devices/system/cpu/cpu$c"
		if [ $c -lt 4 ]; then echo 377; else echo 1024; fi >"$d/sys/devices/system/cpu/cpu$c/cpu_capacity"
	done
}

# ina N ADDR UW: an INA231 hwmon (ina2xx) on the XU3's i2c bus 0
ina() {
	local d=$1 h=$1/sys/class/hwmon/hwmon$2 node=$1/dt/soc/i2c@12c60000/ina231@$3

	mkdir -p "$h/device" "$node"
	echo ina231 >"$h/name"
	echo "$4" >"$h/power1_input"
	ln -s "$node" "$h/device/of_node"
}

# meter DIR N LABEL: a virtual XU4 cluster meter (cluster_power), its
# energy1_input counting by a process of its own (meters_start)
meter() {
	local h=$1/sys/class/hwmon/hwmon$2

	mkdir -p "$h"
	echo cluster_power >"$h/name"
	echo "$3" >"$h/power1_label"
	echo 0 >"$h/energy1_input"
	echo 0 >"$h/power1_input"
}
# meters_start DIR: every meter of DIR counts 1 W (1 uJ a us since it
# started, as read at each write, every 5 ms or more: read between
# writes, a run's energy is off by up to a write's interval), written
# atomically; meters_stop
meters_start() {
	(
		t0=$(date +%s%N)
		while [ ! -e "$1/meters.stop" ]; do
			e=$((($(date +%s%N) - t0) / 1000))
			for h in "$1"/sys/class/hwmon/hwmon*; do
				echo $e >"$h/energy1_input.new"
				mv "$h/energy1_input.new" "$h/energy1_input"
			done
			sleep 0.005
		done
	) &
	meters_pid=$!
}
meters_stop() {
	: >"$1/meters.stop"
	wait "$meters_pid"
}

# rt-app, hackbench and taskset as they answer eas-bench (rt-app runs
# for its JSON's duration)
bin=$tmp/bin
mkdir -p "$bin"
cat >"$bin/rt-app" <<'EOF'
#!/bin/sh
# the calibration: its pLoad line; a run: its duration
if grep -q '"calibration": "CPU' "$1"; then
	cpu=$(sed -n 's/.*"calibration": "CPU\([0-9]*\)".*/\1/p' "$1")
	echo "[rt-app] <notice> pLoad = $((100 + cpu))ns : calib_cpu $cpu"
	exit 0
fi
sleep "$(sed -n 's/.*"duration": \([0-9]*\),.*/\1/p' "$1")"
EOF
cat >"$bin/hackbench" <<EOF
#!/bin/sh
sleep 0.2
echo "Time: 0.200"
[ ! -e "$tmp/hackbench.fail" ]
EOF
cat >"$bin/taskset" <<'EOF'
#!/bin/sh
shift 2
exec "$@"
EOF
chmod +x "$bin"/*
export PATH=$bin:$PATH

# --- sensors -------------------------------------------------------------------
xu3=$tmp/xu3
board "$xu3"
ina "$xu3" 0 40 1000000
ina "$xu3" 1 41 500000
ina "$xu3" 2 44 300000
ina "$xu3" 3 45 250000
EAS_BENCH_SYS=$xu3/sys EAS_BENCH_PROC=$xu3/proc run sensors
want="a15 power ina231@40 $xu3/sys/class/hwmon/hwmon0/power1_input
a7 power ina231@45 $xu3/sys/class/hwmon/hwmon3/power1_input"
got=$(awk '$1 == "a7" || $1 == "a15" { print $1, $2, $3, $4 }' <<<"$out")
[ "$rc" = 0 ] && [ "$got" = "$want" ] && [ "$(wc -l <<<"$out")" = 4 ]
expect "sensors: the XU3's A15 and A7 rails by their DT nodes ina231@40 and ina231@45" $? "$out" "$err"

vxu4=$tmp/vxu4
board "$vxu4"
meter "$vxu4" 0 a7
meter "$vxu4" 1 a15
EAS_BENCH_SYS=$vxu4/sys EAS_BENCH_PROC=$vxu4/proc run sensors
[ "$rc" = 0 ] && [ "$(awk "{ print \$1, \$2 }" <<<"$out" | paste -sd,)" = "a7 energy,a15 energy" ]
expect "sensors: the virtual XU4's cluster meters by their labels, energy1_input" $? "$out" "$err"

xu4=$tmp/xu4
board "$xu4"
EAS_BENCH_SYS=$xu4/sys EAS_BENCH_PROC=$xu4/proc run sensors
[ "$rc" = 0 ] && [[ $out == "no energy sensor"*"XU4"* ]]
expect "sensors: none on an XU4, and it says so" $? "$out" "$err"

EAS_BENCH_SYS=$xu3/sys EAS_BENCH_PROC=$xu3/proc run check
[ "$rc" = 0 ] && [[ $out == *"ok: schedutil"*"ok: EAS on"*"a7 ina231@45"*"a15 ina231@40"* ]]
expect "check: schedutil, EAS on (2 perf domains), the XU3's rails: exit 0" $? "$out" "$err"
echo 0 >"$xu4/proc/sys/kernel/sched_energy_aware"
EAS_BENCH_SYS=$xu4/sys EAS_BENCH_PROC=$xu4/proc run check
[ "$rc" = 1 ] && [[ $out == *"not ok: EAS off"*"no energy sensor"* ]]
expect "check: EAS off and no sensor: exit 1, both said" $? "$out" "$err"
echo 1 >"$xu4/proc/sys/kernel/sched_energy_aware"

# --- integration -----------------------------------------------------------------
# 2 W and 1 W flat, 0 to 10 s, a sample a second: [1.5, 9.5] holds 16 J
# and 8 J; a ramp 0 to 10 W over 10 s: [0, 10] holds 50 J, [2, 4] 6 J.
awk 'BEGIN { for (t = 0; t <= 10; t++) printf "%d 2000000 1000000 %d\n", t, t * 1000000 }' >"$tmp/samples"
run integrate 1.5 9.5 "$tmp/samples"
[ "$rc" = 0 ] && [ "$out" = "16.000000 8.000000 44.000000" ]
expect "integrate: 2 W and 1 W over [1.5, 9.5] s: 16 J and 8 J; a 1 W/s ramp: 44 J" $? "$out" "$err"
run integrate 2 4 "$tmp/samples"
[ "$rc" = 0 ] && [ "$(cut -d" " -f3 <<<"$out")" = 6.000000 ]
expect "integrate: the ramp over [2, 4] s: 6 J, the ends interpolated" $? "$out" "$err"
run integrate 0 11 "$tmp/samples"
refused "integrate: samples not covering the window: exit 2" "do not cover the window 0 to 11 s"
sed '5s/ 2000000/ 2x/' "$tmp/samples" >"$tmp/bad"
run integrate 0 10 "$tmp/bad"
refused "integrate: a sample not a number: exit 2, its line" "line 5: 2x is not a number"
run integrate 0 10 "$tmp/none"
refused "integrate: no such file: exit 2" "$tmp/none: cannot read it"

# --- run -------------------------------------------------------------------------
cd "$tmp" || exit 2
EAS_BENCH_SYS=$xu3/sys EAS_BENCH_PROC=$xu3/proc run run -n 2 -d 1 -l 10 -i 0.05 -o "$tmp/xu3.txt"
setup=$(grep '^@eas_bench_setup ' "$tmp/xu3.txt" 2>/dev/null)
[ "$rc" = 0 ] && [[ $setup == *" eas=1 em_pds=2 "*"rails=a7:ina231@45:power,a15:ina231@40:power"*"calibration=lisa cal_cpu=4 pload_ns=104 tasks=24 duration_s=1"* ]] &&
	[ "$(grep -c "^@eas_bench_run " "$tmp/xu3.txt")" = 4 ] && [ "$(tail -1 "$tmp/xu3.txt")" = "@eas_bench_end runs=4" ] &&
	[ ! -e "$tmp/xu3.txt.part" ]
expect "run on an XU3: results file with its setup (EAS on, the rails, LISA's calibration on CPU4), 4 runs, closed" $? "exit $rc" "$err" "$(cat "$tmp/xu3.txt" 2>&1)"
# The rails read 1 W (A15) and 0.25 W (A7): energy / time = 1.25 W
# (the sampler's first sample before the run, its last after).
ratio=$(awk '/^@eas_bench_run / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	r = v["energy_j"] / v["time_s"]; if (r < lo || lo == "") lo = r; if (r > hi) hi = r }
	END { printf "%.4f %.4f", lo, hi }' "$tmp/xu3.txt")
awk -v r="$ratio" "BEGIN { split(r, x, \" \"); exit !(x[1] > 1.24375 && x[2] < 1.25625) }"
expect "run on an XU3: energy integrated from power1_input: 1.25 W x the run's time (within 0.5%), each run" $? "energy/time: $ratio W (min, max)"
[[ $out == *"rt-app: 24 periodic tasks"*"calibrated as LISA does, on the biggest CPU (CPU4)"*"rtapp energy "*"hackbench time "* ]]
expect "run: the table on stdout, rt-app and hackbench rows" $? "$out"

EAS_BENCH_SYS=$vxu4/sys EAS_BENCH_PROC=$vxu4/proc
export EAS_BENCH_SYS EAS_BENCH_PROC
meters_start "$vxu4"
run run -n 1 -d 1 -l 0 -c cpu0 -o "$tmp/vxu4.txt"
meters_stop "$vxu4"
unset EAS_BENCH_SYS EAS_BENCH_PROC
r=$(awk '/^@eas_bench_run / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	printf "%.3f %.3f", v["energy_a7_j"] / v["time_s"], v["energy_a15_j"] / v["time_s"] }' "$tmp/vxu4.txt" 2>/dev/null)
[ "$rc" = 0 ] && awk -v r="$r" "BEGIN { split(r, x, \" \"); exit !(x[1] > 0.8 && x[1] < 1.2 && x[2] > 0.8 && x[2] < 1.2) }" &&
	grep -q "calibration=cpu0 cal_cpu=0 pload_ns=100 " "$tmp/vxu4.txt" && ! grep -q "test=hackbench" "$tmp/vxu4.txt"
expect "run on the virtual XU4: energy1_input read per rail (each near 1 W), rt-app calibrated on CPU0, no hackbench with -l 0" $? \
	"exit $rc, W a7 a15: $r" "$err"

EAS_BENCH_SYS=$xu4/sys EAS_BENCH_PROC=$xu4/proc run run -n 1 -d 1 -l 10 -o "$tmp/xu4.txt"
[ "$rc" = 0 ] && [[ $err == *"no energy sensor"*"measuring time only"* ]] && ! grep -q energy "$tmp/xu4.txt" &&
	grep -q "rails=none" "$tmp/xu4.txt" && [[ $out == *"time only"* ]] && ! grep -qE "^(rtapp|hackbench) energy" <<<"$out"
expect "run on an XU4: no sensor said, time only (no energy key), table without energy rows" $? "$err" "$out" "$(cat "$tmp/xu4.txt" 2>&1)"

echo performance >"$xu4/sys/devices/system/cpu/cpufreq/policy4/scaling_governor"
EAS_BENCH_SYS=$xu4/sys EAS_BENCH_PROC=$xu4/proc run run -n 1 -d 1 -o "$tmp/perf.txt"
refused "run: a policy not on schedutil: exit 2, the fix" "policy4 runs the performance governor, the test wants schedutil"
[ ! -e "$tmp/perf.txt" ] && [ ! -e "$tmp/perf.txt.part" ]
expect "run: refused before anything is written" $?
echo schedutil >"$xu4/sys/devices/system/cpu/cpufreq/policy4/scaling_governor"

: >"$tmp/hackbench.fail"
EAS_BENCH_SYS=$xu4/sys EAS_BENCH_PROC=$xu4/proc run run -n 2 -d 1 -l 10 -o "$tmp/fail.txt"
rm -f "$tmp/hackbench.fail"
[ "$rc" = 1 ] && [ ! -e "$tmp/fail.txt" ] && [ -e "$tmp/fail.txt.part" ] && ! grep -q "^@eas_bench_end" "$tmp/fail.txt.part"
expect "run: hackbench failing: exit 1, no results file (only FILE.part, without its end line)" $? \
	"exit $rc" "$err"
run report "$tmp/fail.txt.part"
refused "report: that FILE.part: exit 2, half-written" "no @eas_bench_end line: half-written (the run stopped after 1 runs)"

for o in "-n 0" "-n x" "-c fast" "-z 1"; do
	# shellcheck disable=SC2086 # an option and its value
	EAS_BENCH_SYS=$xu4/sys EAS_BENCH_PROC=$xu4/proc run run $o
	refused "run $o: exit 2" "run: "
done

# --- report ----------------------------------------------------------------------
# results FILE KERNEL FIRST: a made-up results file, rt-app energy FIRST
# .. FIRST+9 J, hackbench 8 s and 7 s alternately
results() {
	{
		echo "@eas_bench_setup version=1 kernel=$2 eas=1 em_pds=2 governor=schedutil rails=a7:ina231@45:power,a15:ina231@40:power calibration=lisa cal_cpu=4 pload_ns=104 tasks=24 duration_s=30 hb_groups=10 hb_loops=500 iterations=10 clock=date"
		for i in 1 2 3 4 5 6 7 8 9 10; do
			echo "@eas_bench_run test=rtapp iter=$i time_s=30.0 energy_j=$(($3 + i - 1)) energy_a7_j=1 energy_a15_j=$(($3 + i - 2))"
			echo "@eas_bench_run test=hackbench iter=$i time_s=$((7 + i % 2)) reported_s=7.5 energy_j=20"
		done
		echo "@eas_bench_end runs=20"
	} >"$1"
}
results "$tmp/a.txt" 6.12.0-base 4
results "$tmp/b.txt" 6.12.0-eas 1
run report "$tmp/a.txt"
line=$(grep -E '^rtapp energy +[0-9]' <<<"$out")
# 4..13: mean 8.5, sd 3.0277, RSD 35.62%
[ "$rc" = 0 ] && [[ $line == "rtapp energy"*" 8.500 J (35.62%)" ]]
expect "report: mean and RSD of rt-app's energy (4..13 J: 8.500 J, 35.62%)" $? "$out" "$err"
run report "$tmp/a.txt" "$tmp/b.txt"
line=$(grep -E '^rtapp energy +[0-9]' <<<"$out")
# 1..10 against 4..13: -35.3% (5.5 vs 8.5), Mann-Whitney p 0.058
[ "$rc" = 0 ] && [[ $line == *" 8.500 J (35.62%)"*" 5.500 J (55.05%)"*"-35.3%"*" 0.058" ]]
expect "report of two: the change (-35.3%) and Mann-Whitney p (0.058) of 1..10 J against 4..13 J" $? "$out" "$err"
line=$(grep -E '^hackbench time +[0-9]' <<<"$out")
[[ $line == *"+0.0%"*" 1.000" ]]
expect "report of two: equal samples, no change, p 1.000" $? "$out"

head -15 "$tmp/a.txt" >"$tmp/half.txt"
run report "$tmp/half.txt"
refused "report: a half-written file (cut after 14 runs): exit 2" "no @eas_bench_end line: half-written (the run stopped after 14 runs)"
{ head -15 "$tmp/a.txt"; echo "@eas_bench_end runs=20"; } >"$tmp/short.txt"
run report "$tmp/short.txt"
refused "report: @eas_bench_end's count not the file's: exit 2" "says 20 runs, the file has 14"
{ head -5 "$tmp/a.txt"; echo "@eas_bench_run test=rtapp iter=3 time_s="; } >"$tmp/cut.txt"
run report "$tmp/cut.txt"
refused "report: a run line cut mid-way: exit 2, its line" "cut.txt:6: a broken run line"
sed 's/pload_ns=104/pload_ns=99/' "$tmp/b.txt" >"$tmp/c.txt"
run report "$tmp/a.txt" "$tmp/c.txt"
refused "report of two: another rt-app calibration: exit 2, the fix (-c 104)" "not the same test: pload_ns 104"
run report "$tmp/none.txt"
refused "report: no such file: exit 2" "none.txt: cannot read it"
run report "$tmp/samples"
refused "report: not a results file: exit 2" "no @eas_bench_setup line"

# --- sweep -----------------------------------------------------------------------
EAS_BENCH_SYS=$xu4/sys EAS_BENCH_PROC=$xu4/proc run sweep -s 0.1 -o "$tmp/sw-xu4.txt"
refused "sweep on an XU4 (no sensor): exit 2, says why" "sweep: no energy sensor"
[ ! -e "$tmp/sw-xu4.txt" ] && [ ! -e "$tmp/sw-xu4.txt.part" ]
expect "sweep on an XU4: nothing written" $?
EAS_BENCH_SYS=$vxu4/sys EAS_BENCH_PROC=$vxu4/proc
export EAS_BENCH_SYS EAS_BENCH_PROC
meters_start "$vxu4"
run sweep -s 0.1 -o "$tmp/sw.txt"
meters_stop "$vxu4"
unset EAS_BENCH_SYS EAS_BENCH_PROC
pts=$(grep '^@sweep ' "$tmp/sw.txt" 2>/dev/null | awk '{ printf "%s%s/%s/%s", (NR > 1 ? "," : ""), $2, $3, $4 }')
[ "$rc" = 0 ] && [ "$pts" = "cpu=0/rail=a7/khz=200000,cpu=0/rail=a7/khz=1400000,cpu=4/rail=a15/khz=200000,cpu=4/rail=a15/khz=2000000" ] &&
	[ "$(tail -1 "$tmp/sw.txt")" = "@sweep_end points=4" ] && grep -q "idle_uw=[0-9]* busy_uw=[0-9]*" "$tmp/sw.txt"
expect "sweep on the virtual XU4: each OPP of each cluster, its rail, idle and busy, closed with @sweep_end points=4" $? \
	"exit $rc: $pts" "$err"
lim=$(cat "$vxu4"/sys/devices/system/cpu/cpufreq/policy*/scaling_{min,max}_freq | paste -sd' ')
[ "$lim" = "200000 200000 1400000 2000000" ]
expect "sweep: every policy's limits back to its full range after it" $? "scaling_min/max of policy0, policy4: $lim"

run nosuch
refused "an unknown command: exit 2" "unknown command 'nosuch'"
ktap_finish
