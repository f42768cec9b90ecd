#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of eas-em (tools/power/eas): the Energy Model it computes from the
# Odroid-XU3/XU4 DTBs against tables checked by hand, its output formats,
# and its refusal of broken DTBs.
#
# Usage: make -C tools/power/eas check [DTB_DIR=...]
#    or: EAS_EM=path/to/eas-em DTB_DIR=dir tools/testing/eas/eas-em-test.sh
#
# DTB_DIR holds the board DTBs (exynos5422-odroid*.dtb), by default the
# kernel build's arch/arm/boot/dts/samsung. Prints one "ok"/"not ok" line
# per test and ends with "N passed, N failed"; exits 1 if any failed.

export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
srctree=$(cd "$here/../../.." && pwd)
EAS_EM=${EAS_EM:-$srctree/tools/power/eas/eas-em}
DTB_DIR=${DTB_DIR:-$srctree/build/obj/arch/arm/boot/dts/samsung}
KERNEL_SRC=${KERNEL_SRC:-$srctree/build/linux-source-6.12}

passed=0
failed=0
nr=0

ok()
{
	nr=$((nr + 1))
	passed=$((passed + 1))
	echo "ok $nr - $1"
}

not_ok()
{
	local line

	nr=$((nr + 1))
	failed=$((failed + 1))
	echo "not ok $nr - $1"
	shift
	for line in "$@"; do
		echo "#   $line"
	done
}

skip()
{
	echo "skip - $1"
}

summary()
{
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

# check DESCRIPTION COMMAND...: a test that passes when COMMAND does
check()
{
	local desc=$1

	shift
	if "$@"; then
		ok "$desc"
	else
		not_ok "$desc" "failed: $*"
	fi
}

tmp=$(mktemp -d /tmp/eas-em-test.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

# ---------------------------------------------------------------------------
# Hand-checked data, from the EM/EAS fact sheet (section 1.7): the EM of
# the upstream Exynos5422 DT, kHz:uW:performance:cost, * = inefficient.
# A7: capacity (539 * 1400000 << 10) / (1024 * 2000000) = 377; A15: 1024.
# ---------------------------------------------------------------------------
XU4_A7='200000:14580:53:2750* 300000:21870:80:2733 400000:36000:107:3364*
500000:45000:134:3358* 600000:54000:161:3354* 700000:63000:188:3351
800000:87120:215:4052* 900000:98010:242:4050* 1000000:108900:269:4048
1100000:154687:296:5225* 1200000:168750:323:5224* 1300000:182812:350:5223
1400000:204828:377:5433'

XU4_A15='200000:50220:102:4923* 300000:75330:153:4923* 400000:100440:204:4923*
500000:125550:256:4904 600000:150660:307:4907 700000:175770:358:4909
800000:200880:409:4911 900000:279000:460:6065* 1000000:310000:512:6054
1100000:341000:563:6056 1200000:372000:614:6058 1300000:487630:665:7332*
1400000:525140:716:7334* 1500000:562650:768:7326 1600000:775000:819:9462*
1700000:823437:870:9464* 1800000:853834:921:9270 1900000:938067:972:9650
2000000:1067233:1024:10422'

# XU3-lite (exynos5422-odroidxu3-lite.dts) deletes the A7 1.4 GHz OPP and
# the A15 1.9 and 2.0 GHz ones: fmax 1300000 and 1800000 kHz. Then
#   A7 capacity = (539 * 1300000 << 10) / (1024 * 1800000)
#               = 717516800000 / 1843200000 = 389 (389.28)
#   A7 perf(200000) = 389 * 200000 / 1300000 = 59, cost = 145800 / 59 = 2471
#   A15 perf(200000) = 1024 * 200000 / 1800000 = 113, cost 502200 / 113 = 4444
# Powers do not change (same coefficients and voltages).
XU3L_A7='200000:14580:59:2471* 300000:21870:89:2457 400000:36000:119:3025*
500000:45000:149:3020* 600000:54000:179:3016* 700000:63000:209:3014
800000:87120:239:3645* 900000:98010:269:3643* 1000000:108900:299:3642
1100000:154687:329:4701* 1200000:168750:359:4700* 1300000:182812:389:4699'

XU3L_A15='200000:50220:113:4444* 300000:75330:170:4431* 400000:100440:227:4424*
500000:125550:284:4420* 600000:150660:341:4418* 700000:175770:398:4416*
800000:200880:455:4414 900000:279000:512:5449 1000000:310000:568:5457*
1100000:341000:625:5456* 1200000:372000:682:5454 1300000:487630:739:6598*
1400000:525140:796:6597* 1500000:562650:853:6596 1600000:775000:910:8516*
1700000:823437:967:8515* 1800000:853834:1024:8338'

# debugfs_lines PD CPUS FLAGS STATES: what a shell loop over
# /sys/kernel/debug/energy_model/PD prints, one "path value" line per file
debugfs_lines()
{
	local pd=$1 cpus=$2 flags=$3 s f p perf cost ineff

	echo "energy_model/$pd/cpus $cpus"
	echo "energy_model/$pd/flags $flags"
	for s in $4; do
		ineff=0
		case $s in *'*') ineff=1; s=${s%'*'} ;; esac
		IFS=: read -r f p perf cost <<< "$s"
		echo "energy_model/$pd/ps:$f/frequency $f"
		echo "energy_model/$pd/ps:$f/power $p"
		echo "energy_model/$pd/ps:$f/cost $cost"
		echo "energy_model/$pd/ps:$f/performance $perf"
		echo "energy_model/$pd/ps:$f/inefficient $ineff"
	done
}

# same_lines DESC EXPECTED_FILE ACTUAL_FILE
same_lines()
{
	local d lines

	if d=$(diff "$2" "$3"); then
		ok "$1"
	else
		mapfile -t lines < <(echo "$d" | head -20)
		not_ok "$1" "${lines[@]}"
	fi
}

# run ARGS...: eas-em with stdout, stderr and exit status in $out, $err, $rc
run()
{
	"$EAS_EM" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# expect_bad DESC FILE FRAGMENT...: exit 2, nothing on stdout, one line on
# stderr naming FILE and holding every FRAGMENT
expect_bad()
{
	local desc=$1 file=$2 frag why=""

	shift 2
	run compute --format=debugfs "$file"
	[ "$rc" -eq 2 ] || why="exit status $rc, want 2"
	[ -z "$why" ] && [ -s "$tmp/out" ] && why="output on stdout"
	[ -z "$why" ] && [ "$(wc -l < "$tmp/err")" -ne 1 ] && why="stderr is not one line"
	[ -z "$why" ] && [[ "$err" != *"$file"* ]] && why="message does not name $file"
	for frag in "$@"; do
		[ -z "$why" ] && [[ "$err" != *"$frag"* ]] && why="message lacks '$frag'"
	done
	if [ -z "$why" ]; then
		ok "$desc"
	else
		not_ok "$desc" "$why" "stderr: $err"
	fi
}

# has_line DESC LINE: the last output holds LINE
has_line()
{
	if grep -qxF -- "$2" "$tmp/out"; then
		ok "$1"
	else
		not_ok "$1" "no line '$2' in the output"
	fi
}

# ---------------------------------------------------------------------------
echo "# eas-em: $EAS_EM"
echo "# DTB_DIR: $DTB_DIR"

if [ ! -x "$EAS_EM" ]; then
	not_ok "eas-em is built" "$EAS_EM missing: run make -C tools/power/eas"
	summary
fi
ok "eas-em is built"

missing=""
for b in odroidxu4 odroidxu3 odroidxu3-lite odroidhc1; do
	[ -f "$DTB_DIR/exynos5422-$b.dtb" ] || missing="$missing exynos5422-$b.dtb"
done
if [ -n "$missing" ]; then
	not_ok "board DTBs present" "missing in $DTB_DIR:$missing" \
		"build them (kernel 'make dtbs') or pass DTB_DIR=dir"
	summary
fi
ok "board DTBs present"

XU4=$DTB_DIR/exynos5422-odroidxu4.dtb
XU3=$DTB_DIR/exynos5422-odroidxu3.dtb
XU3L=$DTB_DIR/exynos5422-odroidxu3-lite.dtb
HC1=$DTB_DIR/exynos5422-odroidhc1.dtb

# --- XU4, table format: every state of both domains ------------------------
run compute "$XU4"
check "xu4: compute exits 0, no notes" [ "$rc" -eq 0 -a -z "$err" ]
table=$out

# table_state PD INDEX kHz:uW:perf:cost[*]
table_state()
{
	local pd=$1 i=$2 s=$3 ineff=0 f p perf cost row

	case $s in *'*') ineff=1; s=${s%'*'} ;; esac
	IFS=: read -r f p perf cost <<< "$s"
	row=$(echo "$table" | awk -v pd="$pd" -v i="$i" '
		/^perf domain / { cur = $3; sub(":", "", cur); next }
		cur == pd && $1 == i { print $2, $3, $4, $5, $6 }')
	if [ "$row" = "$f $p $perf $cost $ineff" ]; then
		ok "xu4 table: $pd state $i: $f kHz $p uW perf $perf cost $cost inefficient $ineff"
	else
		not_ok "xu4 table: $pd state $i" "want '$f $p $perf $cost $ineff'" "got  '$row'"
	fi
}

check "xu4 table: pd cpu0 header" grep -qxF \
	"perf domain cpu0: cpus 0-3, capacity 377, flags 0x3 (MICROWATTS|SKIP_INEFFICIENCIES), 13 perf states" \
	<<< "$table"
check "xu4 table: pd cpu4 header" grep -qxF \
	"perf domain cpu4: cpus 4-7, capacity 1024, flags 0x3 (MICROWATTS|SKIP_INEFFICIENCIES), 19 perf states" \
	<<< "$table"
i=0
for s in $XU4_A7; do
	table_state cpu0 $i "$s"
	i=$((i + 1))
done
i=0
for s in $XU4_A15; do
	table_state cpu4 $i "$s"
	i=$((i + 1))
done
rows=$(echo "$table" | awk 'NF == 6 && $1 ~ /^[0-9]+$/' | wc -l)
check "xu4 table: 32 state rows, no more" [ "$rows" -eq 32 ]
widths=$(echo "$table" | awk 'NF == 6 { print length($0) }' | sort -u | wc -l)
check "xu4 table: columns aligned (all rows one width)" [ "$widths" -eq 1 ]

# --- XU4, debugfs format -----------------------------------------------------
{
	debugfs_lines cpu0 0-3 0x3 "$XU4_A7"
	debugfs_lines cpu4 4-7 0x3 "$XU4_A15"
} | sort > "$tmp/xu4.want"
run compute --format=debugfs "$XU4"
cp "$tmp/out" "$tmp/xu4.debugfs"
check "xu4 debugfs: exits 0" [ "$rc" -eq 0 ]
same_lines "xu4 debugfs: every file of both domains as checked by hand" \
	"$tmp/xu4.want" "$tmp/xu4.debugfs"
check "xu4 debugfs: lines in LC_ALL=C sort order" sort -c "$tmp/xu4.debugfs"
check "xu4 debugfs: 164 lines" [ "$(wc -l < "$tmp/xu4.debugfs")" -eq 164 ]
has_line "xu4 debugfs: cpus as %*pbl" "energy_model/cpu0/cpus 0-3"
has_line "xu4 debugfs: flags as %#lx" "energy_model/cpu4/flags 0x3"
has_line "xu4 debugfs: A15 2 GHz power" "energy_model/cpu4/ps:2000000/power 1067233"
has_line "xu4 debugfs: A7 200 MHz inefficient" "energy_model/cpu0/ps:200000/inefficient 1"

# --- XU4, JSON ---------------------------------------------------------------
run compute --format=json "$XU4"
check "xu4 json: exits 0" [ "$rc" -eq 0 ]
check "xu4 json: python3 -m json.tool parses it" \
	python3 -m json.tool "$tmp/out" /dev/null
jcheck=$(XU4_A7="$XU4_A7" XU4_A15="$XU4_A15" python3 - "$tmp/out" <<'EOF' 2>&1
import json, os, sys

def states(text):
    out = []
    for s in text.split():
        ineff = s.endswith('*')
        f, p, perf, cost = map(int, s.rstrip('*').split(':'))
        out.append({'frequency_khz': f, 'power_uw': p, 'performance': perf,
                    'cost': cost, 'inefficient': ineff})
    return out

# complexity: 2 pds * (8 CPUs + 13 + 19 states) = 80; ratios against the
# A7: capacity 1024/377, top power 1067233/204828, lowest cost 4904/2733
want = {'source': 'dtb', 'arch': 'arm', 'complexity': 80,
    'perf_domains': [
    {'name': 'cpu0', 'cpus': [0, 1, 2, 3], 'capacity': 377, 'flags': 3,
     'states': states(os.environ['XU4_A7'])},
    {'name': 'cpu4', 'cpus': [4, 5, 6, 7], 'capacity': 1024, 'flags': 3,
     'states': states(os.environ['XU4_A15'])}],
    'ratios': [{'perf_domain': 'cpu4', 'reference': 'cpu0',
                'capacity': 2.7162, 'top_power': 5.2104, 'min_cost': 1.7944}]}
got = json.load(open(sys.argv[1]))
if got != want:
    print('json differs from the hand-checked table')
    sys.exit(1)
assert set(got) == {'source', 'arch', 'complexity', 'perf_domains', 'ratios'}
for pd in got['perf_domains']:
    for ps in pd['states']:
        assert isinstance(ps['inefficient'], bool)
EOF
)
jrc=$?
check "xu4 json: schema and every value as checked by hand ${jcheck:+($jcheck)}" \
	[ $jrc -eq 0 ]
run --json compute "$XU4"
check "option before the command is refused (exit 2)" [ "$rc" -eq 2 ]
run compute --json "$XU4"
check "xu4: --json is --format=json" \
	python3 -m json.tool "$tmp/out" /dev/null

# --- the other boards ---------------------------------------------------------
run compute --format=debugfs "$XU3"
same_lines "xu3: same EM as xu4" "$tmp/xu4.want" "$tmp/out"
run compute --format=debugfs "$HC1"
same_lines "hc1: same EM as xu4" "$tmp/xu4.want" "$tmp/out"

{
	debugfs_lines cpu0 0-3 0x3 "$XU3L_A7"
	debugfs_lines cpu4 4-7 0x3 "$XU3L_A15"
} | sort > "$tmp/xu3l.want"
run compute --format=debugfs "$XU3L"
same_lines "xu3-lite: EM as recomputed by hand (A7 capacity 389)" \
	"$tmp/xu3l.want" "$tmp/out"
run compute "$XU3L"
check "xu3-lite table: A7 capacity 389, 12 states" grep -qF \
	"perf domain cpu0: cpus 0-3, capacity 389," <<< "$out"

# The brief's "no 2 GHz OPP" case: XU4 with only opp-2000000000 disabled.
#   A7 capacity = (539 * 1400000 << 10) / (1024 * 1900000) = 397 (397.16)
#   A7 perf(200000) = 397 * 200000 / 1400000 = 56, cost 145800 / 56 = 2603
#   A15 top: 1900000 kHz, perf 1024, cost 9380670 / 1024 = 9160
a15=$(fdtget -t x "$XU4" /cpus/cpu@0 operating-points-v2)
a15_table=$(fdtget -l "$XU4" / | while read -r n; do
	[ "$(fdtget -t x "$XU4" "/$n" phandle 2>/dev/null)" = "$a15" ] && echo "/$n"
done)
cp "$XU4" "$tmp/no2g.dtb"
fdtput -t s "$tmp/no2g.dtb" "$a15_table/opp-2000000000" status disabled
run compute --format=debugfs "$tmp/no2g.dtb"
cp "$tmp/out" "$tmp/no2g.out"
has_line "xu4 without 2 GHz: A7 perf(200 MHz) 56" "energy_model/cpu0/ps:200000/performance 56"
has_line "xu4 without 2 GHz: A7 cost(200 MHz) 2603" "energy_model/cpu0/ps:200000/cost 2603"
has_line "xu4 without 2 GHz: A7 top perf = capacity 397" "energy_model/cpu0/ps:1400000/performance 397"
has_line "xu4 without 2 GHz: A15 top 1.9 GHz perf 1024" "energy_model/cpu4/ps:1900000/performance 1024"
has_line "xu4 without 2 GHz: A15 top cost 9160" "energy_model/cpu4/ps:1900000/cost 9160"
check "xu4 without 2 GHz: no ps:2000000" [ -z "$(grep ps:2000000 "$tmp/no2g.out")" ]
run compute "$tmp/no2g.dtb"
check "xu4 without 2 GHz table: capacity 397, A15 18 states" \
	grep -q "cpus 0-3, capacity 397,.*cpus 4-7, capacity 1024, flags 0x3 (MICROWATTS|SKIP_INEFFICIENCIES), 18 perf states" \
	<<< "$(echo "$out" | grep '^perf domain' | tr '\n' ' ')"

# opp-supported-hw without a platform's supported_hw drops the OPP too
cp "$XU4" "$tmp/shw.dtb"
fdtput -t x "$tmp/shw.dtb" "$a15_table/opp-2000000000" opp-supported-hw 1
run compute --format=debugfs "$tmp/shw.dtb"
check "xu4 with opp-supported-hw on 2 GHz: as if disabled, and a note" \
	[ "$rc" -eq 0 -a "$out" = "$(cat "$tmp/no2g.out")" ]
check "xu4 with opp-supported-hw: the note says so" grep -q "opp-supported-hw" <<< "$err"

# A cpu node with status "fail" is no CPU: 7 CPUs, cpu3-6 are the A15s
cp "$XU4" "$tmp/fail.dtb"
fdtput -t s "$tmp/fail.dtb" /cpus/cpu@103 status fail
run compute --format=debugfs "$tmp/fail.dtb"
has_line "cpu with status fail skipped: A7 pd 0-2" "energy_model/cpu0/cpus 0-2"
has_line "cpu with status fail skipped: A15 pd is cpu3, 3-6" "energy_model/cpu3/cpus 3-6"

# Without opp-shared, cpufreq-dt makes one policy, so one EM, per CPU
cp "$XU4" "$tmp/noshare.dtb"
fdtput -d "$tmp/noshare.dtb" "$a15_table" opp-shared
run compute --format=debugfs "$tmp/noshare.dtb"
check "no opp-shared: pds cpu0, cpu4, cpu5, cpu6, cpu7" [ "$(grep /cpus "$tmp/out" | tr '\n' ' ')" = \
	"energy_model/cpu0/cpus 0-3 energy_model/cpu4/cpus 4 energy_model/cpu5/cpus 5 energy_model/cpu6/cpus 6 energy_model/cpu7/cpus 7 " ]
check "no opp-shared: cpu7 has the A15 EM" grep -qxF "energy_model/cpu7/ps:2000000/cost 10422" "$tmp/out"

# cpu1 (cpu@101) on the A15 table, with the A15 capacity: pds "0,2-3" and
# "1,4-7"; the power of pd cpu1 uses cpu@101's coefficient (90):
# 90 * 1312 * 1312 * 2000 / 10^6 = 309841 uW at 2 GHz.
cp "$XU4" "$tmp/mixed.dtb"
fdtput -t x "$tmp/mixed.dtb" /cpus/cpu@101 operating-points-v2 "$a15"
fdtput -t u "$tmp/mixed.dtb" /cpus/cpu@101 capacity-dmips-mhz 1024
run compute --format=debugfs "$tmp/mixed.dtb"
has_line "mixed clusters: cpus 0,2-3" "energy_model/cpu0/cpus 0,2-3"
has_line "mixed clusters: cpus 1,4-7" "energy_model/cpu1/cpus 1,4-7"
has_line "mixed clusters: coefficient of the policy CPU" "energy_model/cpu1/ps:2000000/power 309841"

# Missing capacity-dmips-mhz on the boot CPU: arm32's table_efficiency,
# from clock-frequency (A7 1000000000 Hz, A15 1800000000 Hz):
#   A7  (1000000000 >> 20) * 2048 = 953 * 2048  = 1951744
#   A15 (1800000000 >> 20) * 3891 = 1716 * 3891 = 6676956
#   4 * max = 26707824 >= 3 * (max + min) = 25886100, so
#   middle = ((6676956 / 3) >> 9) + 1 = 4347
#   A7 = 1951744 / 4347 = 448, A15 = 6676956 / 4347 = 1535
cp "$XU4" "$tmp/nocap.dtb"
fdtput -d "$tmp/nocap.dtb" /cpus/cpu@100 capacity-dmips-mhz
run compute "$tmp/nocap.dtb"
check "no capacity-dmips-mhz on cpu0: arm32 table_efficiency, A7 448" \
	grep -qF "perf domain cpu0: cpus 0-3, capacity 448," <<< "$out"
check "no capacity-dmips-mhz on cpu0: A15 1535" \
	grep -qF "perf domain cpu4: cpus 4-7, capacity 1535," <<< "$out"
check "no capacity-dmips-mhz on cpu0: a note on stderr" \
	grep -q "capacity-dmips-mhz: missing" <<< "$err"
# ... and on a later CPU: "fallback to 1024 for all CPUs"; the A15s get
# (2 * 6676956) >> 11 = 6520 as middle, 6676956 / 6520 = 1024
cp "$XU4" "$tmp/nocap4.dtb"
fdtput -d "$tmp/nocap4.dtb" /cpus/cpu@0 capacity-dmips-mhz
run compute --format=debugfs "$tmp/nocap4.dtb"
has_line "no capacity-dmips-mhz on cpu4: A7 capacity 1024" \
	"energy_model/cpu0/ps:1400000/performance 1024"
check "no capacity-dmips-mhz on cpu4: the kernel's fallback message" \
	grep -qF "fallback to 1024 for all CPUs" <<< "$err"

# --- a small DT written here -------------------------------------------------
# little: cpu@0, cpu@1, dmips 500, coefficient 100, 500 MHz @ 1.0 V and
#         1000 MHz @ 1.1 V;
# big:    cpu@100, dmips 1000, opp-microwatt 400000 @ 1 GHz,
#         1200000 @ 2 GHz, 2000000 @ 2.5 GHz turbo-mode.
# cpuinfo.max_freq leaves the turbo OPP out: capacities
#   little (500 * 1000000 << 10) / (1000 * 2000000) = 256, big 1024,
# but the EM of big spans 2.5 GHz: perf = 1024 * kHz / 2500000.
#   little  500 MHz: 100 * 1000^2 * 500 / 10^6 = 50000 uW, perf 128,
#                    cost 500000 / 128 = 3906
#          1000 MHz: 100 * 1100^2 * 1000 / 10^6 = 121000 uW, perf 256,
#                    cost 1210000 / 256 = 4726
#   big    1 GHz: perf 409, cost 4000000 / 409 = 9779
#          2 GHz: perf 819, cost 12000000 / 819 = 14652
#        2.5 GHz: perf 1024, cost 20000000 / 1024 = 19531
# Clocks at their top OPP at boot: little registers with
#   (500 * 1000000 << 10) / (1000 * 2500000) = 204, then gets 256.
cat > "$tmp/small.dts" <<'EOF'
/dts-v1/;
/ {
	#address-cells = <1>;
	#size-cells = <1>;
	compatible = "test,eas-em";

	clk: clock {
		compatible = "fixed-clock";
		#clock-cells = <0>;
		clock-frequency = <1000000000>;
	};

	cpus {
		#address-cells = <1>;
		#size-cells = <0>;

		cpu@0 {
			device_type = "cpu";
			compatible = "arm,cortex-a7";
			reg = <0x0>;
			clocks = <&clk>;
			operating-points-v2 = <&little>;
			capacity-dmips-mhz = <500>;
			dynamic-power-coefficient = <100>;
		};

		cpu@1 {
			device_type = "cpu";
			compatible = "arm,cortex-a7";
			reg = <0x1>;
			clocks = <&clk>;
			operating-points-v2 = <&little>;
			capacity-dmips-mhz = <500>;
			dynamic-power-coefficient = <100>;
		};

		cpu@100 {
			device_type = "cpu";
			compatible = "arm,cortex-a15";
			reg = <0x100>;
			clocks = <&clk>;
			operating-points-v2 = <&big>;
			capacity-dmips-mhz = <1000>;
		};
	};

	little: opp-table-0 {
		compatible = "operating-points-v2";
		opp-shared;

		opp-500000000 {
			opp-hz = /bits/ 64 <500000000>;
			opp-microvolt = <1000000>;
		};

		opp-1000000000 {
			opp-hz = /bits/ 64 <1000000000>;
			opp-microvolt = <1100000>;
		};
	};

	big: opp-table-1 {
		compatible = "operating-points-v2";
		opp-shared;

		opp-1000000000 {
			opp-hz = /bits/ 64 <1000000000>;
			opp-microwatt = <400000>;
		};

		opp-2000000000 {
			opp-hz = /bits/ 64 <2000000000>;
			opp-microwatt = <1200000>;
		};

		opp-2500000000 {
			opp-hz = /bits/ 64 <2500000000>;
			opp-microwatt = <2000000>;
			turbo-mode;
		};
	};
};
EOF
SMALL_LITTLE='500000:50000:128:3906 1000000:121000:256:4726'
SMALL_BIG='1000000:400000:409:9779 2000000:1200000:819:14652 2500000:2000000:1024:19531'
if ! dtc -q -I dts -O dtb -o "$tmp/small.dtb" "$tmp/small.dts"; then
	not_ok "dtc builds the small test DT"
	summary
fi
S=$tmp/small.dtb
{
	debugfs_lines cpu0 0-1 0x1 "$SMALL_LITTLE"
	debugfs_lines cpu2 2 0x1 "$SMALL_BIG"
} | sort > "$tmp/small.want"
run compute --format=debugfs "$S"
same_lines "small DT: EM as computed by hand (opp-microwatt, turbo, flags 0x1)" \
	"$tmp/small.want" "$tmp/out"
check "small DT: note on the early capacity 204 of pd cpu0" \
	grep -q "pd cpu0 registers its EM with the early capacity 204.*becomes 256" <<< "$err"
check "small DT: note on the turbo OPP" grep -q "turbo-mode" <<< "$err"
check "small DT: flags 0 inefficiencies shows 0x1" grep -q "flags 0x1 (MICROWATTS)" \
	<<< "$("$EAS_EM" compute "$S" 2>/dev/null)"

# Inefficient flags stick: little dmips 2. Early capacity
# (2 * 1000000 << 10) / (1000 * 2500000) = 0: perf 0, both costs 0 (the
# kernel's division by zero gives 0 on arm32), so 500 MHz is inefficient
# (0 >= 0). The final capacity (2 * 1000000 << 10) / (1000 * 2000000) = 1
# gives perf 0 and 1, costs 0 and 1210000: efficient now, but the mark
# stays, and so does SKIP_INEFFICIENCIES.
cp "$S" "$tmp/sticky.dtb"
fdtput -t u "$tmp/sticky.dtb" /cpus/cpu@0 capacity-dmips-mhz 2
fdtput -t u "$tmp/sticky.dtb" /cpus/cpu@1 capacity-dmips-mhz 2
debugfs_lines cpu0 0-1 0x3 '500000:50000:0:0* 1000000:121000:1:1210000' |
	sort > "$tmp/sticky.want"
run compute --format=debugfs "$tmp/sticky.dtb"
grep cpu0/ "$tmp/out" > "$tmp/sticky.got"
same_lines "sticky inefficiency from the early capacity 0" "$tmp/sticky.want" "$tmp/sticky.got"
check "sticky: the division by zero is noted" grep -q "Division by zero in kernel" <<< "$err"
# With the clocks at 1 GHz and 2 GHz at boot the early capacity is 1 already
debugfs_lines cpu0 0-1 0x1 '500000:50000:0:0 1000000:121000:1:1210000' |
	sort > "$tmp/sticky.want"
run compute --format=debugfs --boot-freq=cpu0=1000000,cpu2=2000000 "$tmp/sticky.dtb"
grep cpu0/ "$tmp/out" > "$tmp/sticky.got"
same_lines "--boot-freq: early capacity 1, nothing inefficient" "$tmp/sticky.want" "$tmp/sticky.got"
run compute --format=debugfs --boot-freq=none "$S"
check "--boot-freq=none: early capacity (500 << 10) / 1000 = 512 noted" \
	grep -q "early capacity 512 " <<< "$err"

cp "$S" "$tmp/dup.dtb"
fdtput -c "$tmp/dup.dtb" /opp-table-0/opp-dup
fdtput -t x "$tmp/dup.dtb" /opp-table-0/opp-dup opp-hz 0 1dcd6500
fdtput -t u "$tmp/dup.dtb" /opp-table-0/opp-dup opp-microvolt 1000000
run compute --format=debugfs "$tmp/dup.dtb"
check "duplicate OPP, same voltage: dropped as the OPP core does" \
	[ "$rc" -eq 0 -a "$out" = "$(cat "$tmp/small.want")" ]
# fdtput -c makes opp-dup the first child: the OPP core meets it first
fdtput -t u "$tmp/dup.dtb" /opp-table-0/opp-dup opp-microvolt 1050000
expect_bad "duplicate OPP, other voltage: exit 2" "$tmp/dup.dtb" \
	"/opp-table-0/opp-500000000: opp-hz: 500000000 Hz twice" "duplicate OPPs detected"

# --- broken DTBs: exit 2, nothing on stdout, one line naming the problem ---
expect_bad "not a DTB (a .dts)" "$tmp/small.dts" "not a flattened device tree"
head -c 1000 "$XU4" > "$tmp/trunc.dtb"
expect_bad "truncated DTB" "$tmp/trunc.dtb" "truncated: 1000 bytes"
head -c 16 "$XU4" > "$tmp/trunc16.dtb"
expect_bad "DTB cut inside its header" "$tmp/trunc16.dtb" "truncated"
expect_bad "no such file" "$tmp/none.dtb" "cannot open"

cp "$XU4" "$tmp/b.dtb"
fdtput -r "$tmp/b.dtb" /cpus
expect_bad "no /cpus" "$tmp/b.dtb" "/cpus: node missing"

cp "$XU4" "$tmp/b.dtb"
fdtput -d "$tmp/b.dtb" /cpus/cpu@101 operating-points-v2
expect_bad "cpu without operating-points-v2: one policy for all, capacities differ" "$tmp/b.dtb" \
	"cpu@101 has no operating-points-v2" "Couldn't find opp node" \
	"EM: CPUs of 0-7 must have the same capacity"

cp "$XU4" "$tmp/b.dtb"
fdtput -t x "$tmp/b.dtb" /cpus/cpu@0 operating-points-v2 dead
expect_bad "operating-points-v2 to no node" "$tmp/b.dtb" \
	"/cpus/cpu@0: operating-points-v2: phandle 0xdead points to no node"

cp "$XU4" "$tmp/b.dtb"
fdtput -t s "$tmp/b.dtb" /cpus/cpu@100 operating-points-v2 ""
expect_bad "operating-points-v2 of 1 byte" "$tmp/b.dtb" \
	"/cpus/cpu@100: operating-points-v2: 1 bytes, want a phandle"

cp "$XU4" "$tmp/b.dtb"
fdtput -d "$tmp/b.dtb" /cpus/cpu@0 dynamic-power-coefficient
expect_bad "missing dynamic-power-coefficient (the kernel is silent)" "$tmp/b.dtb" \
	"/cpus/cpu@0: dynamic-power-coefficient: missing" "no EM for pd cpu4" "says nothing"

cp "$XU4" "$tmp/b.dtb"
fdtput -t u "$tmp/b.dtb" /cpus/cpu@100 dynamic-power-coefficient 0
expect_bad "dynamic-power-coefficient 0" "$tmp/b.dtb" \
	"/cpus/cpu@100: dynamic-power-coefficient: is 0" "no EM for pd cpu0"

# opp-microvolt missing on a later OPP: no voltage, no power
cp "$XU4" "$tmp/b.dtb"
fdtput -d "$tmp/b.dtb" "$a15_table/opp-200000000" opp-microvolt
expect_bad "OPP without opp-microvolt" "$tmp/b.dtb" \
	"$a15_table/opp-200000000: opp-microvolt: missing" "EM: invalid perf. state: -22"

# ... on the first OPP of a table with cpu-supply: the OPP core refuses it
first_opp=$(fdtget -l "$XU4" "$a15_table" | head -1)
cp "$XU4" "$tmp/b.dtb"
fdtput -d "$tmp/b.dtb" "$a15_table/$first_opp" opp-microvolt
expect_bad "first OPP without opp-microvolt, with cpu-supply" "$tmp/b.dtb" \
	"$a15_table/$first_opp: opp-microvolt" "opp-microvolt missing although OPP managing regulators"

cp "$XU4" "$tmp/b.dtb"
fdtput -t u "$tmp/b.dtb" "$a15_table/opp-200000000" opp-hz 200000000
expect_bad "opp-hz of one cell" "$tmp/b.dtb" \
	"$a15_table/opp-200000000: opp-hz: 4 bytes" "Count mismatch between opp-hz and clk_count (0 1)"

cp "$XU4" "$tmp/b.dtb"
fdtput -t u "$tmp/b.dtb" "$a15_table/opp-200000000" opp-microvolt 900000 900000
expect_bad "opp-microvolt of two cells" "$tmp/b.dtb" \
	"$a15_table/opp-200000000: opp-microvolt: 2 cells" \
	"Invalid number of elements in microvolt property (2) with supplies (1)"

cp "$XU4" "$tmp/b.dtb"
fdtput -t u "$tmp/b.dtb" /cpus/cpu@100 capacity-dmips-mhz 539 539
expect_bad "capacity-dmips-mhz of two cells" "$tmp/b.dtb" \
	"/cpus/cpu@100: capacity-dmips-mhz: 8 bytes, want one cell"

cp "$XU4" "$tmp/b.dtb"
fdtput -d "$tmp/b.dtb" /cpus/cpu@0 clocks
expect_bad "policy CPU without clocks" "$tmp/b.dtb" \
	"/cpus/cpu@0: clocks: missing" "failed to get clk"

cp "$XU4" "$tmp/b.dtb"
for n in $(fdtget -l "$XU4" "$a15_table"); do
	fdtput -t s "$tmp/b.dtb" "$a15_table/$n" status disabled
done
expect_bad "OPP table with every OPP disabled" "$tmp/b.dtb" \
	"$a15_table: no usable OPP" "no supported OPPs"

cp "$S" "$tmp/b.dtb"
fdtput -t u "$tmp/b.dtb" /cpus/cpu@1 capacity-dmips-mhz 600
expect_bad "CPUs of one policy with different capacities" "$tmp/b.dtb" \
	"/cpus/cpu@1: early capacity 245, cpu0 has 204" \
	"EM: CPUs of 0-1 must have the same capacity"

cp "$S" "$tmp/b.dtb"
fdtput -c "$tmp/b.dtb" /opp-table-0/opp-close
fdtput -t x "$tmp/b.dtb" /opp-table-0/opp-close opp-hz 0 "$(printf %x 500000500)"
fdtput -t u "$tmp/b.dtb" /opp-table-0/opp-close opp-microvolt 1000000
expect_bad "OPPs less than 1 kHz apart" "$tmp/b.dtb" \
	"no OPP at or above 1000001000 Hz" "EM: invalid perf. state: -22"

cp "$S" "$tmp/b.dtb"
fdtput -d "$tmp/b.dtb" /opp-table-1/opp-2000000000 opp-microwatt
expect_bad "opp-microwatt on the lowest OPP only" "$tmp/b.dtb" \
	"/opp-table-1/opp-2000000000: opp-microwatt" "EM: invalid perf. state: -22"

# 100000 * 1100^2 * 1000 / 10^6 = 121000000 uW > EM_MAX_POWER
cp "$S" "$tmp/b.dtb"
fdtput -t u "$tmp/b.dtb" /cpus/cpu@0 dynamic-power-coefficient 100000
expect_bad "power above 64 W" "$tmp/b.dtb" \
	"/opp-table-0/opp-1000000000" "EM: invalid power: 121000000"

# --- usage ---------------------------------------------------------------------
run
check "no command: exit 2" [ "$rc" -eq 2 -a -z "$out" ]
run --help
[[ $rc -eq 0 && $out == Usage:*compute* ]]
check "--help: exit 0, usage on stdout" [ $? -eq 0 ]
run compute --help
[[ $rc -eq 0 && $out == *--format=* ]]
check "compute --help: exit 0" [ $? -eq 0 ]
run help compute
[[ $rc -eq 0 && $out == *--boot-freq* ]]
check "help compute: exit 0" [ $? -eq 0 ]
run frobnicate
check "unknown command: exit 2" [ "$rc" -eq 2 -a -z "$out" ]
run compute
check "compute without a DTB: exit 2" [ "$rc" -eq 2 -a -z "$out" ]
run compute "$XU4" "$XU3"
check "compute with two DTBs: exit 2" [ "$rc" -eq 2 -a -z "$out" ]
run compute --format=xml "$XU4"
[[ $rc -eq 2 && -z $out && $err == *xml* ]]
check "unknown format: exit 2" [ $? -eq 0 ]
run compute --boot-freq=cpu0 "$XU4"
check "bad --boot-freq: exit 2" [ "$rc" -eq 2 -a -z "$out" ]
run compute --boot-freq=cpu9=1000 "$XU4"
check "--boot-freq on a CPU the DT lacks: exit 2" [ "$rc" -eq 2 -a -z "$out" ]
run compute --bogus "$XU4"
check "unknown option: exit 2" [ "$rc" -eq 2 -a -z "$out" ]

# --- style -----------------------------------------------------------------------
if [ -x "$KERNEL_SRC/scripts/checkpatch.pl" ]; then
	for f in "$srctree"/tools/power/eas/*.[ch]; do
		res=$(cd "$srctree" && "$KERNEL_SRC/scripts/checkpatch.pl" --strict \
			--no-tree --quiet -f "${f#"$srctree"/}" 2>&1)
		if [ -z "$res" ]; then
			ok "checkpatch --strict: ${f#"$srctree"/}"
		else
			mapfile -t lines <<< "$res"
			not_ok "checkpatch --strict: ${f#"$srctree"/}" "${lines[@]}"
		fi
	done
else
	skip "checkpatch: no $KERNEL_SRC/scripts/checkpatch.pl"
fi

summary
