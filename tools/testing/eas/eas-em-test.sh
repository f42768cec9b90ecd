#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Tests of eas-em (tools/power/eas): the Energy Model it computes from the
# Odroid-XU3/XU4 DTBs against tables checked by hand, its output formats,
# and its refusal of broken DTBs; and that idle-power-fit's output is
# written (stdout full or closed: exit 2).
#
# Usage: make -C tools/power/eas check [DTB_DIR=...]
#    or: EAS_EM=path/to/eas-em DTB_DIR=dir tools/testing/eas/eas-em-test.sh
#
# DTB_DIR holds the board DTBs (exynos5422-odroid*.dtb), by default the
# kernel build's arch/arm/boot/dts/samsung. Prints KTAP, one result per
# test, and exits 1 if any failed.

export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
srctree=$(cd "$here/../../.." && pwd)
EAS_EM=${EAS_EM:-$srctree/tools/power/eas/eas-em}
DTB_DIR=${DTB_DIR:-$srctree/build/obj/arch/arm/boot/dts/samsung}
KERNEL_SRC=${KERNEL_SRC:-$srctree/build/linux-source-6.12}

# Results in KTAP (tools/testing/ktap.sh).
. "$srctree/tools/testing/ktap.sh"

ok()
{
	ktap_ok "$1"
}

# not_ok DESCRIPTION [DETAIL...]
not_ok()
{
	ktap_fail "$@"
}

# skip "DESCRIPTION: REASON"
skip()
{
	ktap_skip "${1%%: *}" "${1#*: }"
}

summary()
{
	ktap_finish
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
ktap_atexit rm -rf "$tmp"

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

# run ARGS...: eas-em with stdout, stderr and exit status in $out, $err, $rc;
# killed after 20 s (exit status 124): no input may hang it
run()
{
	timeout 20 "$EAS_EM" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# expect_bad DESC FILE FRAGMENT...: exit 2, nothing on stdout, one line on
# stderr naming FILE and holding every FRAGMENT; compute gets the options
# in the array bad_args too
bad_args=()
expect_bad()
{
	local desc=$1 file=$2 frag why=""

	shift 2
	run compute --format=debugfs "${bad_args[@]}" "$file"
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
echo "eas-em: $EAS_EM"
echo "DTB_DIR: $DTB_DIR"

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
        out.append({'frequency_khz': f, 'power': p, 'power_uw': p,
                    'performance': perf, 'cost': cost, 'inefficient': ineff})
    return out

# complexity: 2 pds * (8 CPUs + 13 + 19 states) = 80; ratios against the
# A7: capacity 1024/377, top power 1067233/204828, lowest cost 4904/2733
want = {'source': 'dtb', 'arch': 'arm', 'complexity': 80,
    'perf_domains': [
    {'name': 'cpu0', 'cpus': [0, 1, 2, 3], 'capacity': 377, 'flags': 3,
     'power_unit': 'uW', 'cost_formula': '10 * power / performance (v6.9+)',
     'states': states(os.environ['XU4_A7'])},
    {'name': 'cpu4', 'cpus': [4, 5, 6, 7], 'capacity': 1024, 'flags': 3,
     'power_unit': 'uW', 'cost_formula': '10 * power / performance (v6.9+)',
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
#   the series (ARM: topology: scale the table_efficiency capacities to
#   1024): the largest gets 1024,
#   A7 = 1951744 * 1024 / 6676956 = 299, A15 = 1024
#   Linux 6.12 as released: 4 * max = 26707824 >= 3 * (max + min) =
#   25886100, so middle = ((6676956 / 3) >> 9) + 1 = 4347,
#   A7 = 1951744 / 4347 = 448, A15 = 6676956 / 4347 = 1535 (above 1024)
cp "$XU4" "$tmp/nocap.dtb"
fdtput -d "$tmp/nocap.dtb" /cpus/cpu@100 capacity-dmips-mhz
run compute "$tmp/nocap.dtb"
check "no capacity-dmips-mhz on cpu0: arm32 table_efficiency, A7 299" \
	grep -qF "perf domain cpu0: cpus 0-3, capacity 299," <<< "$out"
check "no capacity-dmips-mhz on cpu0: A15 1024, not above" \
	grep -qF "perf domain cpu4: cpus 4-7, capacity 1024," <<< "$out"
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

# capacity-dmips-mhz that wraps arm32's 32-bit raw * kHz: the kernel's
# capacities are garbage (A7 179 here), so compute gives no EM but the
# reason, as check does
cp "$XU4" "$tmp/b.dtb"
for n in 0 1 2 3; do fdtput -t x "$tmp/b.dtb" "/cpus/cpu@$n" capacity-dmips-mhz ffffffff; done
expect_bad "capacity-dmips-mhz 0xffffffff: wraps 32 bits: exit 2, the reason" "$tmp/b.dtb" \
	"/cpus/cpu@0: capacity-dmips-mhz: 4294967295 * 2000000 kHz does not fit 32 bits" \
	"cpus 0-3: 179" "fix: keep capacity-dmips-mhz at most 1024"

# Android's pre-mainline EAS tables (sched-energy-costs on the cpu nodes,
# /cpus/energy-costs): mainline ignores them, and says nothing
cp "$XU4" "$tmp/android.dtb"
fdtput -p -c "$tmp/android.dtb" /cpus/energy-costs/CPU_COST_A15
fdtput -t u "$tmp/android.dtb" /cpus/energy-costs/CPU_COST_A15 busy-cost-data 377 50 1024 300
fdtput -t u "$tmp/android.dtb" /cpus/energy-costs/CPU_COST_A15 idle-cost-data 10 0
fdtput -t u "$tmp/android.dtb" /cpus/energy-costs/CPU_COST_A15 phandle 4660
for n in 0 1 2 3; do fdtput -t u "$tmp/android.dtb" "/cpus/cpu@$n" sched-energy-costs 4660; done
run compute --format=debugfs "$tmp/android.dtb"
check "Android energy-costs: compute still computes the mainline EM, exit 0" \
	[ "$rc" -eq 0 -a "$out" = "$(cat "$tmp/xu4.want")" ]
check "Android energy-costs: compute notes that mainline ignores them, and what counts" \
	grep -q "note: .*/cpus/cpu@0: sched-energy-costs: Android's energy model .*: mainline ignores it; the EM of Linux 6.12 comes from dynamic-power-coefficient and the OPP tables" <<< "$err"
run check "$tmp/android.dtb"
check "Android energy-costs: check says so too" \
	grep -q "^info: .*sched-energy-costs: Android's energy model .* mainline ignores it" <<< "$out"
for n in 0 1 2 3; do fdtput -d "$tmp/android.dtb" "/cpus/cpu@$n" sched-energy-costs; done
run compute "$tmp/android.dtb"
check "Android /cpus/energy-costs node alone: noted too" \
	grep -q "note: .*/cpus/energy-costs: Android's energy model" <<< "$err"
for n in 0 100; do fdtput -d "$tmp/android.dtb" "/cpus/cpu@$n" dynamic-power-coefficient; done
run compute "$tmp/android.dtb"
[ "$rc" -eq 2 ] && grep -q "dynamic-power-coefficient: missing.*energy-costs .*do not count" <<< "$err"
check "Android energy-costs without dynamic-power-coefficient: exit 2, the error names them" [ $? -eq 0 ]

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
# boot_freq_bad DESC SPEC FRAGMENT: compute, diff and plot refuse
# --boot-freq=SPEC: exit 2, nothing on stdout, one line naming the option
# and holding FRAGMENT
boot_freq_bad()
{
	local desc=$1 spec=$2 frag=$3 c why=""

	for c in compute diff plot; do
		if [ "$c" = diff ]; then
			run "$c" --boot-freq="$spec" "$XU4" "$XU4"
		elif [ "$c" = plot ]; then
			run "$c" --boot-freq="$spec" -o "$tmp/bf.png" "$XU4"
		else
			run "$c" --boot-freq="$spec" "$XU4"
		fi
		[ "$rc" -eq 2 ] || why="$c: exit $rc, want 2"
		[ -z "$why" ] && [ -n "$out" ] && why="$c: output on stdout"
		[ -z "$why" ] && [ "$(wc -l < "$tmp/err")" -ne 1 ] && why="$c: stderr is not one line"
		[ -z "$why" ] && [[ $err != *--boot-freq*"$frag"* ]] && why="$c: no '--boot-freq ... $frag'"
		[ -n "$why" ] && break
	done
	if [ -z "$why" ]; then
		ok "$desc"
	else
		not_ok "$desc" "$why" "stderr: $err"
	fi
}
boot_freq_bad "--boot-freq with a CPU given twice: exit 2, names it" \
	cpu0=200000,cpu0=1400000 "cpu0 given twice"
boot_freq_bad "--boot-freq with an empty item: exit 2, says so" \
	cpu0=200000,,cpu4=1400000 "an empty item"
boot_freq_bad "--boot-freq ending in a comma: exit 2, says so" \
	cpu0=200000, "an empty item"
boot_freq_bad "--boot-freq with two CPUs of one perf domain: exit 2, names both" \
	cpu1=200000,cpu2=1400000 "cpu1 and cpu2, of one perf domain (cpu0"
run compute --format=debugfs --boot-freq=cpu0=200000,cpu4=1400000 "$XU4"
[[ $rc -eq 0 && $out == *"energy_model/cpu0/"* ]]
check "--boot-freq with one CPU of each perf domain: exit 0" [ $? -eq 0 ]
run compute --bogus "$XU4"
check "unknown option: exit 2" [ "$rc" -eq 2 -a -z "$out" ]

# --- show: a real guest's debugfs, old layouts, bad trees --------------------
# data/vxu4-debugfs.txt: the '@em' lines of a console log of the virtual
# XU4 (build/system-test.log), a dump of its /sys/kernel/debug/energy_model.
# Its EM is the one computed from the board DT, file by file.
DUMP=$here/data/vxu4-debugfs.txt
run show --format=debugfs "$DUMP"
same_lines "show: the guest's dump, read back file by file" "$tmp/xu4.want" "$tmp/out"
run diff "$XU4" "$DUMP"
check "diff XU4 DTB vs the guest's debugfs: same, exit 0" \
	grep -qx "same: 2 perf domains, 32 perf states" <<< "$out"
check "diff: exit 0 when same" [ "$rc" -eq 0 ]
run show "$DUMP"
check "show: table of the dump says layout v6.9+" grep -q "debugfs layout of v6.9+" <<< "$out"
check "show: table row A15 2 GHz" \
	grep -qE "^ +18 +2000000 +1067233 +1024 +10422 +0$" <<< "$out"

# compute --tree writes a debugfs tree that show and diff read back
run compute --tree "$tmp/tree" "$XU4"
check "compute --tree: exit 0" [ "$rc" -eq 0 ]
check "compute --tree: ps:200000/cost of cpu4 is 4923" \
	[ "$(cat "$tmp/tree/cpu4/ps:200000/cost" 2>/dev/null)" = 4923 ]
check "compute --tree: flags is 0x3" [ "$(cat "$tmp/tree/cpu0/flags" 2>/dev/null)" = 0x3 ]
run show --format=debugfs "$tmp/tree"
same_lines "show DIR: the tree read back" "$tmp/xu4.want" "$tmp/out"
run compute --tree "$tmp/tree" "$XU4"
check "compute --tree into a non-empty directory: exit 2" [ "$rc" -eq 2 ]

cp -r "$tmp/tree" "$tmp/t2"
echo 10423 > "$tmp/t2/cpu4/ps:2000000/cost"
run diff "$XU4" "$tmp/t2"
check "diff: one changed cost: exit 1" [ "$rc" -eq 1 ]
check "diff: names the state and both values" \
	grep -qx "pd cpu4: ps:2000000: cost: 10422 != 10423" <<< "$out"
rm -r "$tmp/t2/cpu0/ps:1400000"
run diff "$XU4" "$tmp/t2"
check "diff: a missing state is reported" grep -qx "pd cpu0: ps:1400000: only in A" <<< "$out"

run diff "$XU4" "$XU3L"
check "diff two DTBs (XU4, XU3-lite): exit 1" [ "$rc" -eq 1 ]
check "diff two DTBs: A15 1.9 GHz only in XU4" grep -qx "pd cpu4: ps:1900000: only in A" <<< "$out"
check "diff two DTBs: A7 perf at 200 MHz 53 vs 59" \
	grep -qx "pd cpu0: ps:200000: performance: 53 != 59" <<< "$out"

# v5.9-v5.10: no flags, units, inefficient or performance files; power
# in mW (the uW / 1000, truncated, as those kernels computed it), cost =
# power * fmax / frequency (A7 200 MHz: 14 * 1400000 / 200000 = 98)
cp -r "$tmp/tree" "$tmp/t59"
find "$tmp/t59" \( -name performance -o -name inefficient -o -name flags \) -delete
for pd in "$tmp"/t59/cpu*; do
	fmax=$(cat "$pd"/ps:*/frequency | sort -n | tail -1)
	for ps in "$pd"/ps:*; do
		mw=$(($(cat "$ps/power") / 1000))
		echo "$mw" > "$ps/power"
		echo $((mw * fmax / $(cat "$ps/frequency"))) > "$ps/cost"
	done
done
run show "$tmp/t59"
check "show v5.9-v5.10 layout: named, with its unit and cost formula" \
	grep -q "layout of v5.9-v5.10: power in mW, cost = power \* fmax / frequency" <<< "$out"
check "show v5.9-v5.10 layout: mW under power(mW), '-' for what it lacks" \
	grep -qE "^ +0 +200000 +14 +- +98 +-$" <<< "$out"
check "show v5.9-v5.10 layout: the power column says mW" grep -q "power(mW)" <<< "$out"
run diff "$XU4" "$tmp/t59"
[ "$rc" -eq 0 ] && grep -q "pd cpu0: power: A in uW, B in mW: compared in mW" <<< "$out" &&
	grep -q "pd cpu4: cost: not compared: A 10 \* power / performance (v6.9+), power in uW; B power \* fmax / frequency (before v6.9), power in mW" <<< "$out"
check "diff vs v5.9 layout: power compared in mW, cost not, same" [ $? -eq 0 ]
echo 15 > "$tmp/t59/cpu0/ps:200000/power"
run diff "$XU4" "$tmp/t59"
check "diff vs v5.9 layout: a mW power off by 1 is a difference" \
	grep -qx "pd cpu0: ps:200000: power: 14 != 15 (mW)" <<< "$out"
# Before v6.9 no performance file: capacities are unknown, and so is the
# ratio of lowest costs (power * fmax / frequency is on each perf
# domain's own scale): said so, never 0.00x or a ratio of the old costs
run show "$tmp/t59"
check "show v5.9 layout: ratio line: capacity unknown, lowest cost unknown, with the reason" \
	grep -qE "^cpu4 vs cpu0: capacity unknown, power at the top state [0-9.]+x, lowest cost unknown .*no performance files before v6.9" <<< "$out"
check "show v5.9 layout: no ratio of 0.00x" [ "$(grep -c "0\.00x" <<< "$out")" -eq 0 ]
run show --json "$tmp/t59"
check "show --json v5.9 layout: capacity and min_cost ratios null, with the reason" \
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["ratios"][0]; assert r["capacity"] is None and r["min_cost"] is None and r["top_power"] > 5 and "v6.9" in r["unknown"], r' "$tmp/out"
# v5.16-v5.18: a units file (milliWatts or bogoWatts), inefficient files
cp -r "$tmp/t59" "$tmp/t516"
echo 14 > "$tmp/t516/cpu0/ps:200000/power"
for pd in "$tmp"/t516/cpu*; do
	echo milliWatts > "$pd/units"
	for ps in "$pd"/ps:*; do
		cp "$tmp/tree/${pd##*/}/${ps##*/}/inefficient" "$ps/inefficient"
	done
done
run show --format=json "$tmp/t516"
check "show v5.16-v5.18 layout (units milliWatts): JSON power in mW, power_uw * 1000, null for absent fields" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["perf_domains"][0]; s=p["states"][0]; assert p["power_unit"]=="mW" and p["flags"] is None and p["capacity"] is None and s["power"]==14 and s["power_uw"]==14000 and s["performance"] is None and s["inefficient"] is True, (p["power_unit"], s)' "$tmp/out"
run show "$tmp/t516"
check "show v5.16-v5.18 layout: named" grep -q "layout of v5.16-v5.18: power in mW" <<< "$out"
for pd in "$tmp"/t516/cpu*; do echo bogoWatts > "$pd/units"; done
run diff "$XU4" "$tmp/t516"
[ "$rc" -eq 0 ] && grep -q "pd cpu0: power: not compared: A in uW, B in abstract" <<< "$out"
check "diff vs units bogoWatts: power and cost not compared, said so, same" [ $? -eq 0 ]
echo kiloWatts > "$tmp/t516/cpu0/units"
run show "$tmp/t516"
[ "$rc" -eq 2 ] && grep -q "cpu0/units: 'kiloWatts', want milliWatts or bogoWatts" <<< "$err"
check "show: an unknown units value is refused" [ $? -eq 0 ]
# v5.0-v5.8: pdN/cs:<kHz>, cost = fmax * power / freq
mkdir -p "$tmp/t50/pd0/cs:200000" "$tmp/t50/pd0/cs:300000"
echo 0-3 > "$tmp/t50/pd0/cpus"
printf '200000\n' > "$tmp/t50/pd0/cs:200000/frequency"
printf '14\n' > "$tmp/t50/pd0/cs:200000/power"
printf '21\n' > "$tmp/t50/pd0/cs:200000/cost"
printf '300000\n' > "$tmp/t50/pd0/cs:300000/frequency"
printf '21\n' > "$tmp/t50/pd0/cs:300000/power"
printf '21\n' > "$tmp/t50/pd0/cs:300000/cost"
run show --format=json "$tmp/t50"
check "show v5.0-v5.8 pdN/cs: layout: exit 0" [ "$rc" -eq 0 ]
check "show v5.0 layout: JSON with 2 states of pd0" \
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["perf_domains"][0]; assert d["source"]=="debugfs" and p["name"]=="pd0" and p["cpus"]==[0,1,2,3] and [s["frequency_khz"] for s in p["states"]]==[200000,300000] and p["power_unit"]=="mW" and p["states"][1]["power"]==21 and p["states"][1]["power_uw"]==21000 and p["states"][1]["performance"] is None' "$tmp/out"

# show: bad trees, each one line naming the file, exit 2
show_bad()
{
	local desc=$1 path=$2 frag=$3 why=""

	run show "$path"
	[ "$rc" -eq 2 ] || why="exit status $rc, want 2"
	[ -z "$why" ] && [ -s "$tmp/out" ] && why="output on stdout"
	[ -z "$why" ] && [ "$(wc -l < "$tmp/err")" -ne 1 ] && why="stderr is not one line"
	[ -z "$why" ] && [[ "$err" != *"$frag"* ]] && why="message lacks '$frag'"
	if [ -z "$why" ]; then
		ok "$desc"
	else
		not_ok "$desc" "$why" "stderr: $err"
	fi
}

cp -r "$tmp/tree" "$tmp/b1"
rm "$tmp/b1/cpu0/ps:200000/power"
show_bad "show: a missing file is named" "$tmp/b1" "cpu0/ps:200000/power: missing"
cp -r "$tmp/tree" "$tmp/b2"
echo 12ab > "$tmp/b2/cpu4/ps:300000/cost"
show_bad "show: a value that is not a number" "$tmp/b2" "cpu4/ps:300000/cost: '12ab' is not a number"
cp -r "$tmp/tree" "$tmp/b3"
echo 99999999999 > "$tmp/b3/cpu4/ps:300000/power"
show_bad "show: a value beyond 32 bits" "$tmp/b3" "cpu4/ps:300000/power: '99999999999' is out of range"
cp -r "$tmp/tree" "$tmp/b4"
echo "0-x" > "$tmp/b4/cpu0/cpus"
show_bad "show: a cpus file that is no CPU list" "$tmp/b4" "cpu0/cpus: '0-x' is not a CPU list"
cp -r "$tmp/tree" "$tmp/b5"
echo 300001 > "$tmp/b5/cpu0/ps:300000/frequency"
show_bad "show: frequency and directory disagree" "$tmp/b5" "300001, but the directory says 300000"
mkdir "$tmp/empty"
show_bad "show: an empty energy_model" "$tmp/empty" "no CPU perf domain"
show_bad "show: no such path" "$tmp/nowhere" "cannot access"
printf 'hello\nworld\n' > "$tmp/junk.txt"
show_bad "show: a file without energy_model lines" "$tmp/junk.txt" 'no "energy_model/<path> <value>" line'
printf 'energy_model/cpu0/cpus 0-3\nenergy_model/cpu0/cpus 0-3\n' > "$tmp/twice.txt"
show_bad "show: a dump with a file twice" "$tmp/twice.txt" "energy_model/cpu0/cpus: twice"
cp -r "$tmp/tree" "$tmp/b6"
echo 40 > "$tmp/b6/cpu0/ps:1100000/performance"
show_bad "show: a performance falling as the frequency rises is refused" "$tmp/b6" \
	"cpu0/ps:1100000/performance: 40, below the 269 of the slower 1000000 kHz"
echo 0 > "$tmp/b6/cpu0/ps:1100000/performance"
show_bad "show: a performance of 0 is refused" "$tmp/b6" "cpu0/ps:1100000/performance: 0: the cost divides by it"
# debugfs mounted elsewhere: found in /proc/mounts (needs a mount namespace)
mkdir -p "$tmp/dbg"
if unshare -m sh -c "mount -t debugfs none '$tmp/dbg'" 2>/dev/null; then
	unshare -m sh -c "mount -t debugfs none '$tmp/dbg' && umount /sys/kernel/debug 2>/dev/null; '$EAS_EM' show" \
		>"$tmp/out" 2>"$tmp/err"
	err=$(cat "$tmp/err")
	check "show: debugfs mounted elsewhere: looked for there, named" \
		grep -qF "debugfs is mounted on $tmp/dbg (not /sys/kernel/debug), and $tmp/dbg/energy_model" <<< "$err"
else
	skip "show: debugfs mounted elsewhere (no mount namespace here: unshare -m failed)"
fi
if ! grep -q " /sys/kernel/debug debugfs " /proc/mounts; then
	show_bad "show: debugfs not mounted: says so, with the mount command" \
		/sys/kernel/debug/energy_model "debugfs is not mounted (not in /proc/mounts); fix: mount -t debugfs"
else
	skip "show: debugfs not mounted (it is mounted here)"
fi
run diff "$XU4" "$tmp/empty"
check "diff with a bad side: exit 2" [ "$rc" -eq 2 ]

# A file of the tree that is no regular file: a FIFO (open() would wait
# for a writer forever), a link to a device. Refused, naming it, at once.
cp -r "$tmp/tree" "$tmp/fifo"
rm "$tmp/fifo/cpu0/ps:200000/power"
mkfifo "$tmp/fifo/cpu0/ps:200000/power"
show_bad "show: a FIFO in the tree: exit 2, no hang" "$tmp/fifo" \
	"cpu0/ps:200000/power: not a regular file (a FIFO)"
run diff "$XU4" "$tmp/fifo"
[ "$rc" -eq 2 ] && [ -z "$out" ] && grep -q "cpu0/ps:200000/power: not a regular file" <<< "$err"
check "diff: a FIFO in the tree: exit 2, no hang, names it" [ $? -eq 0 ]
cp -r "$tmp/tree" "$tmp/dev"
ln -sf /dev/zero "$tmp/dev/cpu4/cpus"
show_bad "show: a tree file linked to a device: exit 2" "$tmp/dev" \
	"cpu4/cpus: not a regular file (a character device)"
# a file of the tree longer than any value: refused, not cut
cp -r "$tmp/tree" "$tmp/long"
printf '%0100d\n' 5 > "$tmp/long/cpu4/ps:300000/cost"
show_bad "show: a tree file longer than a value: refused, not cut" "$tmp/long" \
	"cpu4/ps:300000/cost: longer than"
# Bytes that are not text: never quoted raw, never read as a valid value
# only_text: stderr holds printable ASCII only
# shellcheck disable=SC2317 # reachable: check runs it by name
only_text()
{
	! LC_ALL=C grep -q '[^[:print:]]' "$tmp/err"
}
{
	cat "$DUMP"
	printf 'energy_model/cpu9/cpus 9\0-12\n'
} > "$tmp/nul.txt"
show_bad "show: a NUL byte inside a dump line: refused, shown escaped" "$tmp/nul.txt" \
	"'energy_model/cpu9/cpus 9\\x00-12': a NUL byte"
cp -r "$tmp/tree" "$tmp/bin"
printf '\001\377\033[2Jab\n' > "$tmp/bin/cpu4/ps:300000/power"
show_bad "show: a tree file of binary bytes: refused, shown escaped" "$tmp/bin" \
	"cpu4/ps:300000/power: '\\x01\\xff\\x1b[2Jab' is not a number"
check "show: binary bytes: stderr is printable text only" only_text
printf '75330\0garbage\n' > "$tmp/bin/cpu4/ps:300000/power"
show_bad "show: a value followed by a NUL byte: refused, not read as 75330" "$tmp/bin" \
	"cpu4/ps:300000/power: '75330\\x00garbage': a NUL byte"
check "show: a NUL byte: stderr is printable text only" only_text

# the dump itself a FIFO: its open() waits for the writer, as cat's does,
# and it is read to its end. A writer 0.5 s late: the dump, whole (it was
# "no line": the FIFO opened without waiting read its end at once).
mkfifo "$tmp/dump.fifo"
run show "$DUMP"
cp "$tmp/out" "$tmp/dump.want"
# (the writer's open() waits for a reader: dd's own, under timeout too)
{ sleep 0.5; timeout 20 dd if="$DUMP" of="$tmp/dump.fifo" status=none; } &
run show "$tmp/dump.fifo"
wait
[[ $rc -eq 0 && -z $err ]] && diff <(sed 1d "$tmp/dump.want") <(sed 1d "$tmp/out") > /dev/null
check "show: a dump FIFO whose writer comes 0.5 s late: read whole, as the file" [ $? -eq 0 ]
# a writer that writes nothing: no line, exit 2, no hang
{ sleep 0.2; timeout 20 dd if=/dev/null of="$tmp/dump.fifo" status=none; } &
show_bad "show: a dump FIFO whose writer writes nothing: exit 2, no hang" "$tmp/dump.fifo" \
	"no \"energy_model/<path> <value>\" line"
wait
# nobody writes: show waits, as cat would (killed here after 1 s)
timeout 1 "$EAS_EM" show "$tmp/dump.fifo" > "$tmp/out" 2>&1
check "show: a dump FIFO nobody writes: waits for its writer" [ $? -eq 124 ]
mkfifo "$tmp/dtb.fifo"
run compute "$tmp/dtb.fifo"
check "compute: a FIFO with no writer: exit 2, no hang" [ "$rc" -eq 2 -a -z "$out" ]

# --- check --------------------------------------------------------------------
# check_has DESC FILE WANT_RC LINE_REGEX [ARGS...]: check exits WANT_RC and
# prints a line matching LINE_REGEX
check_has()
{
	local desc=$1 file=$2 want=$3 re=$4

	shift 4
	run check "$@" "$file"
	if [ "$rc" -ne "$want" ]; then
		not_ok "$desc" "exit status $rc, want $want" "$(grep -v ^info: <<< "$out" | head -5)"
	elif ! grep -qE -- "$re" <<< "$out"; then
		not_ok "$desc" "no line matching '$re'" "${out:0:600}"
	else
		ok "$desc"
	fi
}

check_has "check xu4: 2 warnings (A15 1.6/1.7 GHz above 1.8 GHz's voltage), exit 1" "$XU4" 1 \
	"^0 errors, 2 warnings, [0-9]+ info$"
check_has "check xu4: 1.6 GHz at 1.25 V above 1.8 GHz's 1.2375 V" "$XU4" 1 \
	"^warning: .*/opp-1600000000: opp-microvolt: 1250000 uV at 1600000 kHz is above the 1237500 uV of the faster 1800000 kHz"
check_has "check xu4: A15 inefficient states and schedutil's floor 500 MHz" "$XU4" 1 \
	"^info: .*pd cpu4: inefficient states \(kHz\) 200000 300000 400000 900000 1300000 1400000 1600000 1700000: .*schedutil never selects them.*lowest frequency in use 500000 kHz$"
check_has "check xu4: A7 floor 300 MHz" "$XU4" 1 \
	"pd cpu0: inefficient states \(kHz\) 200000 400000 500000 600000 800000 900000 1100000 1200000: .*lowest frequency in use 300000 kHz$"
check_has "check xu4: equal-voltage group of 7 A15 OPPs at 0.9 V" "$XU4" 1 \
	"^info: .*pd cpu4: 7 OPPs share 900000 uV \(200000 to 800000 kHz\)"
check_has "check xu4: EAS can start, capacities 377 and 1024" "$XU4" 1 \
	"^info: .*EAS: can start: 2 perf domains, one EM each, capacities 377, 1024 \(asymmetric\), at most 16 CPUs per perf domain on 32-bit"
check_has "check xu4: unsorted OPP nodes are only info" "$XU4" 1 \
	"^info: .*opp-hz: 1200000000 Hz after 1300000000 Hz: the OPP core sorts"

# --legacy: v5.x compared kHz / mW (mW = uW / 1000 of the tables above),
# integer division, each state with the one below; count them from the
# hand-checked tables, independently of eas-em
legacy_pairs()
{
	local prev="" s f p e n=0

	for s in $1; do
		s=${s%'*'}
		IFS=: read -r f p _ _ <<< "$s"
		e=$((f / (p / 1000)))
		[ -n "$prev" ] && [ "$e" -ge "$prev" ] && n=$((n + 1))
		prev=$e
	done
	echo $n
}
want_legacy=$(( $(legacy_pairs "$XU4_A7") + $(legacy_pairs "$XU4_A15") ))
run check --legacy "$XU4"
got_legacy=$(grep -c "legacy: em_perf_state" <<< "$out")
check "check --legacy xu4: $want_legacy hertz/watts pairs, as the v5.x rule gives" \
	[ "$got_legacy" -eq "$want_legacy" ]
check "check --legacy xu4: A7 state 1 vs 0, 14285 >= 14285, both messages" \
	grep -qF "pd cpu0: legacy: em_perf_state 1 >= em_perf_state0 (300000 kHz / 21 mW = 14285 >= 200000 kHz / 14 mW = 14285): v5.9-v5.15 printed \"cpu cpu0: EM: hertz/watts ratio non-monotonically decreasing: em_perf_state 1 >= em_perf_state0\" (dev_dbg), v5.0-v5.8 \"pd0: hertz/watts ratio non-monotonically decreasing: em_cap_state 1 >= em_cap_state0\" (pr_warn)" <<< "$out"
run check "$XU4"
check "check without --legacy: no legacy lines" [ "$(grep -c legacy: <<< "$out")" -eq 0 ]

cp "$XU4" "$tmp/c.dtb"
fdtput -d "$tmp/c.dtb" /cpus/cpu@100 dynamic-power-coefficient
check_has "check: no coefficient: no EM, silently, and the fix" "$tmp/c.dtb" 1 \
	"^error: .*/cpus/cpu@100: dynamic-power-coefficient: missing: cpufreq-dt registers no EM for pd cpu0 \(cpus 0-3\) and says nothing .*fix: add dynamic-power-coefficient"
check_has "check: no coefficient: EAS will not start" "$tmp/c.dtb" 1 \
	"^error: .*EAS: will not start: pd cpu0 has no EM.*pd_init: no EM found for CPU0"

cp "$XU4" "$tmp/c.dtb"
fdtput -d "$tmp/c.dtb" "$a15_table/opp-900000000" opp-microvolt
check_has "check: OPP without voltage: invalid perf. state" "$tmp/c.dtb" 1 \
	"^error: .*$a15_table/opp-900000000: opp-microvolt: missing.*\"cpu cpu4: EM: invalid perf. state: -22\", no EM for pd cpu4; fix: add opp-microvolt"

cp "$XU4" "$tmp/c.dtb"
fdtput -d "$tmp/c.dtb" /cpus/cpu@0 capacity-dmips-mhz
check_has "check: capacity missing on cpu4 (arm32): fallback, all 1024, no EAS" "$tmp/c.dtb" 1 \
	"^error: .*/cpus/cpu@0: capacity-dmips-mhz: \"cpu_capacity: partial information: fallback to 1024 for all CPUs\"; arm32 then takes capacities from its table_efficiency.*so all CPUs look alike and EAS cannot start"
cp "$XU4" "$tmp/c.dtb"
fdtput -d "$tmp/c.dtb" /cpus/cpu@100 capacity-dmips-mhz
check_has "check: capacity missing on the boot CPU (arm32): table_efficiency 299/1024" "$tmp/c.dtb" 1 \
	"^warning: .*/cpus/cpu@100: capacity-dmips-mhz: on the boot CPU, so the kernel ignores capacity-dmips-mhz on all CPUs, silently.*cpus 0-3: 299, cpus 4-7: 1024"
check_has "check: capacity missing on the boot CPU: 1535 above 1024 with Linux 6.12 as released, an error with its consequence" "$tmp/c.dtb" 1 \
	"^error: .*/cpus/cpu@0: capacity 1535, above 1024, with Linux 6.12 as released .* it is 1024): the scheduler takes capacities out of 1024, so schedutil .* keeps this CPU below its top OPPs"
for n in 100 101 102 103 0 1 2 3; do
	fdtput -d "$tmp/c.dtb" "/cpus/cpu@$n" capacity-dmips-mhz 2>/dev/null
done
check_has "check: capacity missing on all CPUs (arm32): table_efficiency still asymmetric" "$tmp/c.dtb" 1 \
	"^warning: .*capacity-dmips-mhz: on the boot CPU.*table_efficiency"

# The A7s at coefficient 200 (not swapped with the A15s' 310): every A7
# state costs 6075 or more, the cheapest A15 state 4904 (500 MHz)
cp "$XU4" "$tmp/c.dtb"
for n in 100 101 102 103; do
	fdtput -t u "$tmp/c.dtb" "/cpus/cpu@$n" dynamic-power-coefficient 200
done
check_has "check: LITTLE costlier than big in every state: a warning with the costs" "$tmp/c.dtb" 1 \
	"^warning: .*pd cpu0: every perf state costs more than the cheapest of the bigger pd cpu4 \(cost 6075 at 300000 kHz against 4904 at 500000 kHz\): .*EAS puts every task on them"
# Every A7 OPP at 1.0 V, every A15 OPP at 1.1 V: only the top OPPs are
# efficient, so schedutil uses only them
cp "$XU4" "$tmp/c.dtb"
for t in $(fdtget -l "$tmp/c.dtb" / | grep '^opp-table'); do
	v=$(fdtget "$tmp/c.dtb" "/cpus/cpu@100" operating-points-v2)
	[ "$(fdtget "$tmp/c.dtb" "/$t" phandle)" = "$v" ] && uv=1000000 || uv=1100000
	for o in $(fdtget -l "$tmp/c.dtb" "/$t"); do
		fdtput -t u "$tmp/c.dtb" "/$t/$o" opp-microvolt "$uv"
	done
done
check_has "check: all A7 OPPs at one voltage: a warning, schedutil at 1.4 GHz only" "$tmp/c.dtb" 1 \
	"^warning: .*pd cpu0: every perf state below the top one \(1400000 kHz\) is inefficient, so schedutil, which picks only efficient frequencies, runs these CPUs at 1400000 kHz.*fix: give each OPP its real opp-microvolt"
check_has "check: all A15 OPPs at one voltage: a warning, 2 GHz only" "$tmp/c.dtb" 1 \
	"^warning: .*pd cpu4: every perf state below the top one \(2000000 kHz\) is inefficient"

cp "$XU4" "$tmp/c.dtb"
for n in 100 101 102 103; do fdtput -t u "$tmp/c.dtb" "/cpus/cpu@$n" capacity-dmips-mhz 0; done
check_has "check: capacity-dmips-mhz 0" "$tmp/c.dtb" 1 \
	"^error: .*/cpus/cpu@100: capacity-dmips-mhz: 0: its capacity is 0.*Division by zero in kernel"
cp "$XU4" "$tmp/c.dtb"
for n in 0 1 2 3; do fdtput -t u "$tmp/c.dtb" "/cpus/cpu@$n" capacity-dmips-mhz 4000; done
check_has "check: capacity-dmips-mhz * kHz wraps 32 bits on arm32" "$tmp/c.dtb" 1 \
	"^error: .*/cpus/cpu@0: capacity-dmips-mhz: 4000 \* 2000000 kHz does not fit 32 bits"
# the small DT with little dmips 2000: 2000 * 1000000 = 1000 * 2000000
cp "$S" "$tmp/c.dtb"
fdtput -t u "$tmp/c.dtb" /cpus/cpu@0 capacity-dmips-mhz 2000
fdtput -t u "$tmp/c.dtb" /cpus/cpu@1 capacity-dmips-mhz 2000
check_has "check: equal capacities: EAS will not start (no asymmetry)" "$tmp/c.dtb" 1 \
	"^error: .*EAS: will not start: every CPU has capacity 1024, no asymmetry"

cp "$XU4" "$tmp/c.dtb"
fdtput -t u "$tmp/c.dtb" /cpus/cpu@100 dynamic-power-coefficient 400
check_has "check: LITTLE more power-hungry per MHz than big" "$tmp/c.dtb" 1 \
	"^warning: .*/cpus/cpu@100: dynamic-power-coefficient: 400 on the LITTLE pd cpu0 \(capacity 377\) is above the 310 of the big pd cpu4"
cp "$XU4" "$tmp/c.dtb"
fdtput -t u "$tmp/c.dtb" /cpus/cpu@100 dynamic-power-coefficient 5
check_has "check: coefficient out of a sane range" "$tmp/c.dtb" 1 \
	"^warning: .*/cpus/cpu@100: dynamic-power-coefficient: 5 uW/MHz/V\^2 is implausible"
cp "$XU4" "$tmp/c.dtb"
fdtput -t u "$tmp/c.dtb" /cpus/cpu@0 dynamic-power-coefficient 30000
check_has "check: power above 64 W: invalid power" "$tmp/c.dtb" 1 \
	"^error: .*\"cpu cpu4: EM: invalid power: [0-9]+\" \(it must be 1 to 64000000 uW\), no EM for pd cpu4"
cp "$XU4" "$tmp/c.dtb"
fdtput -t u "$tmp/c.dtb" /cpus/cpu@101 dynamic-power-coefficient 91
check_has "check: coefficient differs inside a perf domain" "$tmp/c.dtb" 1 \
	"^warning: .*/cpus/cpu@101: dynamic-power-coefficient: 91, but the EM of pd cpu0 uses its policy CPU's 90 only"

cp "$S" "$tmp/c.dtb"
fdtput -c "$tmp/c.dtb" /opp-table-0/opp-close
fdtput -t x "$tmp/c.dtb" /opp-table-0/opp-close opp-hz 0 "$(printf %x 500000500)"
fdtput -t u "$tmp/c.dtb" /opp-table-0/opp-close opp-microvolt 1000000
check_has "check: frequencies less than 1 kHz apart (not increasing in kHz)" "$tmp/c.dtb" 1 \
	"^error: .*no OPP at or above 1000001000 Hz.*EM: invalid perf. state: -22"
cp "$S" "$tmp/c.dtb"
fdtput -c "$tmp/c.dtb" /opp-table-0/opp-dup
fdtput -t x "$tmp/c.dtb" /opp-table-0/opp-dup opp-hz 0 1dcd6500
fdtput -t u "$tmp/c.dtb" /opp-table-0/opp-dup opp-microvolt 1050000
check_has "check: the same frequency twice, other voltage" "$tmp/c.dtb" 1 \
	"^error: .*opp-hz: 500000000 Hz twice with different voltages.*duplicate OPPs detected"

cp "$XU4" "$tmp/c.dtb"
fdtput -d "$tmp/c.dtb" "$(fdtget -l "$XU4" / | while read -r n; do
	[ "$(fdtget -t x "$XU4" "/$n" phandle 2>/dev/null)" = "$(fdtget -t x "$XU4" /cpus/cpu@100 operating-points-v2)" ] && echo "/$n"
done)" opp-shared
check_has "check: no opp-shared: a cluster split into per-CPU policies" "$tmp/c.dtb" 1 \
	"^warning: .*: no opp-shared: cpu0 and cpu1 of one cluster use this OPP table but get a cpufreq policy and an EM each"

# 17 CPUs on one opp-shared table: more than EM_MAX_NUM_CPUS on 32-bit
{
	printf '/dts-v1/;\n/ {\n#address-cells = <1>;\n#size-cells = <1>;\n'
	printf 'clk: clock { compatible = "fixed-clock"; #clock-cells = <0>; clock-frequency = <1000000000>; };\n'
	printf 'cpus {\n#address-cells = <1>;\n#size-cells = <0>;\n'
	for i in $(seq 0 16); do
		printf 'cpu@%x { device_type = "cpu"; compatible = "arm,cortex-a7"; reg = <%d>; clocks = <&clk>; operating-points-v2 = <&t>; capacity-dmips-mhz = <%d>; dynamic-power-coefficient = <100>; };\n' \
			"$i" "$i" 1024
	done
	printf 'cpu@100 { device_type = "cpu"; compatible = "arm,cortex-a15"; reg = <0x100>; clocks = <&clk>; operating-points-v2 = <&u>; capacity-dmips-mhz = <1024>; dynamic-power-coefficient = <300>; };\n'
	printf '};\n'
	printf 't: opp-table-0 { compatible = "operating-points-v2"; opp-shared; opp-1000000000 { opp-hz = /bits/ 64 <1000000000>; opp-microvolt = <1000000>; }; };\n'
	printf 'u: opp-table-1 { compatible = "operating-points-v2"; opp-shared; opp-2000000000 { opp-hz = /bits/ 64 <2000000000>; opp-microvolt = <1000000>; }; };\n'
	printf '};\n'
} > "$tmp/many.dts"
if dtc -q -I dts -O dtb -o "$tmp/many.dtb" "$tmp/many.dts"; then
	check_has "check: 17 CPUs in one perf domain on 32-bit: too many CPUs" "$tmp/many.dtb" 1 \
		"^error: .*shared by 17 CPUs: \"cpu cpu0: EM: too many CPUs, overflow possible\" \(at most 16 on 32-bit\)"
	# arm64 allows 4096, but reads capacities only through cpu-map
	check_has "check --arch=arm64: 17 CPUs are fine, but no cpu-map: all 1024" "$tmp/many.dtb" 1 \
		"^error: .*no /cpus/cpu-map: arm64 reads capacity-dmips-mhz only through cpu-map" --arch=arm64
	check "check --arch=arm64: no too-many-CPUs error" [ "$(grep -c "too many CPUs" <<< "$out")" -eq 0 ]
else
	not_ok "dtc builds the 17-CPU test DT"
fi

# arm64 DTs of N CPUs (N/2 cortex-a53, N/2 cortex-a72, a cluster each in
# cpu-map): arm64's limits, not arm32's (NR_CPUS 512 by default in 6.12,
# EM_MAX_NUM_CPUS 4096). A53 capacity 485 * 1416000 / 1800000 = 381.
mk_arm64_dts()
{
	local n=$1 h=$(($1 / 2)) i

	printf '/dts-v1/;\n/ {\n#address-cells = <1>;\n#size-cells = <1>;\n'
	printf 'clk: clock { compatible = "fixed-clock"; #clock-cells = <0>; clock-frequency = <1000000000>; };\n'
	printf 'cpus {\n#address-cells = <1>;\n#size-cells = <0>;\n'
	for i in $(seq 0 $((n - 1))); do
		if [ "$i" -lt "$h" ]; then
			printf 'c%d: cpu@%x { device_type = "cpu"; compatible = "arm,cortex-a53"; reg = <%d>; clocks = <&clk>; operating-points-v2 = <&l>; capacity-dmips-mhz = <485>; dynamic-power-coefficient = <100>; };\n' \
				"$i" "$i" "$i"
		else
			printf 'c%d: cpu@%x { device_type = "cpu"; compatible = "arm,cortex-a72"; reg = <%d>; clocks = <&clk>; operating-points-v2 = <&b>; capacity-dmips-mhz = <1024>; dynamic-power-coefficient = <436>; };\n' \
				"$i" "$((i + 256))" "$((i + 256))"
		fi
	done
	printf 'cpu-map {\ncluster0 {\n'
	for i in $(seq 0 $((h - 1))); do printf 'core%d { cpu = <&c%d>; };\n' "$i" "$i"; done
	printf '};\ncluster1 {\n'
	for i in $(seq "$h" $((n - 1))); do printf 'core%d { cpu = <&c%d>; };\n' $((i - h)) "$i"; done
	printf '};\n};\n};\n'
	printf 'l: opp-table-0 { compatible = "operating-points-v2"; opp-shared; opp-408000000 { opp-hz = /bits/ 64 <408000000>; opp-microvolt = <825000>; }; opp-1416000000 { opp-hz = /bits/ 64 <1416000000>; opp-microvolt = <1125000>; }; };\n'
	printf 'b: opp-table-1 { compatible = "operating-points-v2"; opp-shared; opp-408000000 { opp-hz = /bits/ 64 <408000000>; opp-microvolt = <825000>; }; opp-1800000000 { opp-hz = /bits/ 64 <1800000000>; opp-microvolt = <1200000>; }; };\n'
	printf '};\n'
}
for n in 40 64; do
	if ! mk_arm64_dts $n | dtc -q -I dts -O dtb -o "$tmp/a64-$n.dtb" -; then
		not_ok "dtc builds the $n-CPU arm64 test DT"
		continue
	fi
	run compute --arch=arm64 --format=debugfs "$tmp/a64-$n.dtb"
	check "compute --arch=arm64, $n CPUs: exit 0, no message" [ "$rc" -eq 0 -a -z "$err" ]
	has_line "compute --arch=arm64, $n CPUs: the A53 pd is cpus 0-$((n / 2 - 1))" \
		"energy_model/cpu0/cpus 0-$((n / 2 - 1))"
	has_line "compute --arch=arm64, $n CPUs: the A72 pd is cpus $((n / 2))-$((n - 1))" \
		"energy_model/cpu$((n / 2))/cpus $((n / 2))-$((n - 1))"
	has_line "compute --arch=arm64, $n CPUs: A53 capacity 381" \
		"energy_model/cpu0/ps:1416000/performance 381"
	cp "$tmp/out" "$tmp/a64-$n.dump"
	run diff "$tmp/a64-$n.dtb" "$tmp/a64-$n.dump"
	check "diff of the $n-CPU DTB (arm64 guessed) and its dump: same" [ "$rc" -eq 0 ]
	run compute --json "$tmp/a64-$n.dtb"
	check "compute --json, $n CPUs: the A72 pd lists its $((n / 2)) CPUs" \
		python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["arch"]=="arm64" and d["perf_domains"][1]["cpus"]==list(range(int(sys.argv[2])//2, int(sys.argv[2])))' "$tmp/out" $n
	check_has "check, $n CPUs (arm64 guessed): EAS can start" "$tmp/a64-$n.dtb" 0 \
		"EAS: can start: 2 perf domains, one EM each, capacities 381, 1024"
done
bad_args=(--arch=arm)
expect_bad "40 CPUs for arm32: more than its NR_CPUS, with --arch=arm64 as the fix" "$tmp/a64-40.dtb" \
	"more than 32 cpu nodes: more than arm32's NR_CPUS (2 to 32) allows" "--arch=arm64"
bad_args=()
if mk_arm64_dts 514 | dtc -q -I dts -O dtb -o "$tmp/a64-514.dtb" -; then
	expect_bad "514 CPUs for arm64: more than its default NR_CPUS" "$tmp/a64-514.dtb" \
		"more than 512 cpu nodes: more than arm64's default NR_CPUS (512"
else
	not_ok "dtc builds the 514-CPU arm64 test DT"
fi

# check's cost in the number of OPPs: it was cubic (0.48 / 3.97 / 48.9 s
# for 1000 / 2000 / 5000 OPPs per table). Two tables of 5000 OPPs, 0.1 MHz
# apart, voltage rising 80 uV an OPP, every 7th 30 mV higher: above the
# next OPPs, a warning each, (5000 - 1) / 7 = 714 a table.
{
	printf '/dts-v1/;\n/ {\n#address-cells = <1>;\n#size-cells = <1>;\n'
	printf 'clk: clock { compatible = "fixed-clock"; #clock-cells = <0>; clock-frequency = <1000000000>; };\n'
	printf 'cpus {\n#address-cells = <1>;\n#size-cells = <0>;\n'
	printf 'cpu@0 { device_type = "cpu"; compatible = "arm,cortex-a7"; reg = <0>; clocks = <&clk>; operating-points-v2 = <&l>; capacity-dmips-mhz = <539>; dynamic-power-coefficient = <90>; };\n'
	printf 'cpu@100 { device_type = "cpu"; compatible = "arm,cortex-a15"; reg = <0x100>; clocks = <&clk>; operating-points-v2 = <&b>; capacity-dmips-mhz = <1024>; dynamic-power-coefficient = <310>; };\n'
	printf '};\n'
	for t in l b; do
		printf '%s: opp-table-%s { compatible = "operating-points-v2"; opp-shared;\n' $t $t
		awk 'BEGIN { for (i = 1; i <= 5000; i++)
			printf "opp-%d { opp-hz = /bits/ 64 <%d>; opp-microvolt = <%d>; };\n",
				i, 100000000 + i * 100000, 800000 + int(i * 400000 / 5000) + (i % 7 ? 0 : 30000) }'
		printf '};\n'
	done
	printf '};\n'
} > "$tmp/opp5000.dts"
if dtc -q -I dts -O dtb -o "$tmp/opp5000.dtb" "$tmp/opp5000.dts"; then
	t0=$(date +%s%N)
	run check "$tmp/opp5000.dtb"
	ms=$((($(date +%s%N) - t0) / 1000000))
	check "check, 5000 OPPs per table: done in under 1 s ($ms ms), exit 1" \
		[ "$rc" -eq 1 -a "$ms" -lt 1000 ]
	check "check, 5000 OPPs per table: 1428 OPPs above a faster one's voltage, a warning each" \
		[ "$(grep -c "^warning: .*opp-microvolt: .* is above the .* of the faster" <<< "$out")" -eq 1428 ]
	check "check, 5000 OPPs: the first, named with its path" grep -qF \
		"/opp-table-l/opp-7: opp-microvolt: 830560 uV at 100700 kHz is above the 800640 uV of the faster 100800 kHz" <<< "$out"
else
	not_ok "dtc builds the 5000-OPP test DT"
fi

# found by fuzzing: a structure block at an odd offset made libfdt read
# misaligned words
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); o=int.from_bytes(b[8:12],"big")+1; b[8:12]=o.to_bytes(4,"big"); open(sys.argv[2],"wb").write(b)' \
	"$XU4" "$tmp/misaligned.dtb"
expect_bad "misaligned structure block" "$tmp/misaligned.dtb" "corrupt device tree: misaligned structure block"

head -c 2000 "$XU4" > "$tmp/trunc.dtb"
run check "$tmp/trunc.dtb"
check "check: a truncated DTB is bad input: exit 2, one line" \
	[ "$rc" -eq 2 -a -z "$out" -a "$(wc -l < "$tmp/err")" -eq 1 ]

# --- other boards, compiled from the kernel tree ------------------------------
BOARD_DIR=${BOARD_DIR:-$srctree/build/eas-board-dtbs}
if boards=$("$here/mk-board-dtbs.sh" "$KERNEL_SRC" "$BOARD_DIR" 2> "$tmp/mk.err"); then
	ok "mk-board-dtbs.sh: ${boards//$'\n'/ }"
	RK=$BOARD_DIR/rk3399-rock-pi-4b.dtb
	SALV=$BOARD_DIR/r8a77951-salvator-x.dtb
	TM2=$BOARD_DIR/exynos5433-tm2.dtb
	LAGER=$BOARD_DIR/r8a7790-lager.dtb
	A80=$BOARD_DIR/sun9i-a80-optimus.dtb

	# rk3399 (arm64): A53 dmips 485 coeff 100, A72 1024 coeff 436; cpuinfo
	# max 1416 and 1800 MHz: A53 capacity 485 * 1416000 / 1800000 = 381.5
	#   408 MHz @ 825 mV: 100 * 825^2 * 408 / 10^6 = 27769 uW,
	#   perf 381 * 408000 / 1416000 = 109, cost 277690 / 109 = 2547
	#   A72 1800 MHz @ 1200 mV: 436 * 1200^2 * 1800 / 10^6 = 1130112 uW,
	#   cost 11301120 / 1024 = 11036
	run compute --format=debugfs "$RK"
	has_line "rk3399 (arm64): A53 408 MHz power" "energy_model/cpu0/ps:408000/power 27769"
	has_line "rk3399: A53 408 MHz performance" "energy_model/cpu0/ps:408000/performance 109"
	has_line "rk3399: A53 408 MHz cost" "energy_model/cpu0/ps:408000/cost 2547"
	has_line "rk3399: A53 capacity 381" "energy_model/cpu0/ps:1416000/performance 381"
	has_line "rk3399: A72 pd is cpu4-5" "energy_model/cpu4/cpus 4-5"
	has_line "rk3399: A72 1.8 GHz power" "energy_model/cpu4/ps:1800000/power 1130112"
	has_line "rk3399: A72 1.8 GHz cost" "energy_model/cpu4/ps:1800000/cost 11036"
	check_has "rk3399: check: arm64 guessed, EAS can start" "$RK" 0 \
		"EAS: can start: 2 perf domains, one EM each, capacities 381, 1024 .* on 64-bit"
	cp "$RK" "$tmp/rk.dtb"
	fdtput -d "$tmp/rk.dtb" /cpus/cpu@0 capacity-dmips-mhz
	check_has "rk3399 without capacity on cpu0 (arm64): 1024 for all, silently, no EAS" "$tmp/rk.dtb" 1 \
		"^error: .*/cpus/cpu@0: capacity-dmips-mhz: missing on cpu@0, the first CPU of cpu-map, so the kernel ignores capacity-dmips-mhz on all CPUs and keeps 1024 for all, silently, so all CPUs look alike and EAS cannot start"
	cp "$RK" "$tmp/rk.dtb"
	fdtput -d "$tmp/rk.dtb" /cpus/cpu@100 capacity-dmips-mhz
	check_has "rk3399 without capacity on cpu4 (arm64): partial information" "$tmp/rk.dtb" 1 \
		"\"cpu_capacity: missing cpu@100 raw capacity\", then \"cpu_capacity: partial information: fallback to 1024 for all CPUs\""
	cp "$RK" "$tmp/rk.dtb"
	fdtput -r "$tmp/rk.dtb" /cpus/cpu-map
	check_has "rk3399 without cpu-map (arm64): capacities ignored" "$tmp/rk.dtb" 1 \
		"no /cpus/cpu-map: arm64 reads capacity-dmips-mhz only through cpu-map"
	cp "$RK" "$tmp/rk.dtb"
	ph=$(fdtget -t x "$RK" /cpus/cpu@0 phandle)
	fdtput -c "$tmp/rk.dtb" /cpus/cpu-map/cluster0/core0/thread0
	fdtput -t x "$tmp/rk.dtb" /cpus/cpu-map/cluster0/core0/thread0 cpu "$ph"
	check_has "rk3399 with SMT threads in cpu-map: no EAS" "$tmp/rk.dtb" 1 \
		"^error: .*thread nodes: EAS will not start with SMT"

	# r8a77951 (arm64): turbo 1.7 GHz, cpuinfo max 1.6 GHz
	run compute "$SALV"
	check "salvator-x: A57 capacity 1024, A53 401" \
		grep -qE "perf domain cpu4: cpus 4-7, capacity 401," <<< "$out"
	check "salvator-x: the turbo OPP is noted" grep -q "turbo-mode OPPs: cpuinfo.max_freq of cpu0 is 1600000 kHz" <<< "$err"
	# exynos5433 (arm64): neither coefficients nor capacities upstream
	run compute "$TM2"
	check "exynos5433-tm2: compute: no EM, exit 2, one line per perf domain" \
		[ "$rc" -eq 2 -a "$(wc -l < "$tmp/err")" -eq 2 ]
	check_has "exynos5433-tm2: check: no coefficient on either cluster" "$TM2" 1 \
		"^error: .*/cpus/cpu@0: dynamic-power-coefficient: missing: cpufreq-dt registers no EM for pd cpu4"
	# r8a7790 (arm32): legacy operating-points on every CPU
	check_has "r8a7790-lager: v1 tables make one policy of all 8 CPUs" "$LAGER" 1 \
		"^error: .*/cpus/cpu@100: capacity 539, cpu0 has 1024: \"cpu cpu0: EM: CPUs of 0-7 must have the same capacity\""
	check_has "r8a7790-lager: the policy spans two clusters" "$LAGER" 1 \
		"^warning: .*pd cpu0: cpus 0-7 span more than one cluster"
	check_has "sun9i-a80 (arm32): no OPP table at all" "$A80" 1 \
		"^error: .*/cpus/cpu@0: operating-points-v2: missing.*OPP table can't be empty"
	for b in "$RK" "$SALV"; do
		run compute --format=json "$b"
		check "$(basename "$b"): JSON parses" python3 -m json.tool "$tmp/out" /dev/null
	done
else
	mapfile -t lines < "$tmp/mk.err"
	not_ok "mk-board-dtbs.sh compiles the board DTBs" "${lines[@]}"
fi

# --- plot ---------------------------------------------------------------------
if command -v gnuplot > /dev/null; then
	run plot -o "$tmp/xu4.png" "$XU4"
	check "plot xu4: exit 0, PNG written" \
		[ "$rc" -eq 0 -a "$(head -c 4 "$tmp/xu4.png" | od -An -c | tr -d ' ')" = '211PNG' ]
	run plot -o "$tmp/dump.png" "$DUMP"
	check "plot of a debugfs dump: exit 0" [ "$rc" -eq 0 -a -s "$tmp/dump.png" ]
else
	not_ok "gnuplot is installed (Debian gnuplot-nox; scripts/deps.sh installs it)"
fi
GNUPLOT=$tmp/no-gnuplot run plot -o "$tmp/x.png" "$XU4"
[[ $rc -eq 2 && $err == *"apt-get install gnuplot-nox"* ]]
check "plot without gnuplot: exit 2, names the package" [ $? -eq 0 ]
PATH=/nonexistent "$EAS_EM" plot -o "$tmp/x.png" "$XU4" > /dev/null 2> "$tmp/err"
[[ $? -eq 2 && $(cat "$tmp/err") == *"not in \$PATH"*"gnuplot-nox"* ]]
check "plot with gnuplot not in PATH: exit 2, names the package" [ $? -eq 0 ]
# --output a directory: refused before gnuplot runs (which drew the PNG
# on eas-em's stdout when it could not open the directory)
mkdir "$tmp/pngdir"
run plot --output="$tmp/pngdir" "$XU4"
[[ $rc -eq 2 && -z $out && $err == *"--output=$tmp/pngdir: a directory"* &&
	$(wc -l < "$tmp/err") -eq 1 ]]
check "plot --output=DIR: exit 2, one line naming the option, nothing on stdout" [ $? -eq 0 ]
# gnuplot failing: its exit status, as it gave it (not wait()'s 256)
printf '#!/bin/sh\ncat > /dev/null\nexit 1\n' > "$tmp/gnuplot-1"
chmod +x "$tmp/gnuplot-1"
GNUPLOT=$tmp/gnuplot-1 run plot -o "$tmp/x.png" "$XU4"
[[ $rc -eq 2 && -z $out && $err == *"gnuplot-1 failed to write $tmp/x.png (exit status 1)" ]]
check "plot, gnuplot exits 1: exit 2, says exit status 1" [ $? -eq 0 ]
printf '#!/bin/sh\nkill -TERM $$\n' > "$tmp/gnuplot-term"
chmod +x "$tmp/gnuplot-term"
GNUPLOT=$tmp/gnuplot-term run plot -o "$tmp/x.png" "$XU4"
[[ $rc -eq 2 && $err == *"gnuplot-term failed to write $tmp/x.png (killed by signal 15"* ]]
check "plot, gnuplot killed: exit 2, names the signal" [ $? -eq 0 ]

# --- help and usage of the commands ------------------------------------------
for c in show diff check plot; do
	run "$c" --help
	check "$c --help: exit 0, usage" [ "$rc" -eq 0 -a "${out:0:6}" = "Usage:" ]
done
run diff "$XU4"
check "diff with one EM: exit 2" [ "$rc" -eq 2 -a -z "$out" ]
run check --tree=x "$XU4"
check "check --tree: option does not apply, exit 2" [ "$rc" -eq 2 ]
run compute --arch=mips "$XU4"
check "compute --arch=mips: exit 2" [ "$rc" -eq 2 ]

# --- stdout on a full device or closed: every write checked ------------------
# full DESC ARGS...: eas-em ARGS > /dev/full exits 2 with a message on
# stderr naming stdout
full()
{
	local desc=$1

	shift
	timeout 20 "$EAS_EM" "$@" > /dev/full 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "writing to stdout: No space left on device" "$tmp/err"; then
		ok "$desc"
	else
		not_ok "$desc" "exit status $rc, want 2" "stderr: $(head -c 300 "$tmp/err")"
	fi
}
full "stdout full: compute: exit 2, says so" compute "$XU4"
full "stdout full: show: exit 2, says so" show "$DUMP"
full "stdout full: check: exit 2, says so" check "$XU4"
full "stdout full: diff, same: exit 2, says so" diff "$XU4" "$DUMP"
full "stdout full: diff, different: exit 2, says so" diff "$XU4" "$XU3L"
full "stdout full: --help: exit 2, says so" --help
full "stdout full: compute --help: exit 2, says so" compute --help
full "stdout full: --version: exit 2, says so" --version
full "stdout full: plot: exit 2, says so" plot -o "$tmp/full.png" "$XU4"

# closed DESC ARGS...: eas-em ARGS with stdout closed (>&-) exits 2 with
# one line saying so, and writes nothing (a file it opens must not become
# stdout: plot's PNG, compute's --tree)
closed()
{
	local desc=$1

	shift
	rm -rf "$tmp/closed"
	timeout 20 "$EAS_EM" "$@" >&- 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] &&
	   grep -q "stdout is closed" "$tmp/err" && [ ! -e "$tmp/closed" ]; then
		ok "$desc"
	else
		not_ok "$desc" "exit status $rc, want 2" "stderr: $(head -c 300 "$tmp/err")"
	fi
}
closed "stdout closed: compute: exit 2, says so" compute "$XU4"
closed "stdout closed: compute --tree: exit 2, no tree" compute --tree="$tmp/closed" "$XU4"
closed "stdout closed: show: exit 2, says so" show "$DUMP"
closed "stdout closed: check: exit 2, says so" check "$XU4"
closed "stdout closed: diff: exit 2, says so" diff "$XU4" "$DUMP"
closed "stdout closed: plot: exit 2, no PNG" plot -o "$tmp/closed" "$XU4"
closed "stdout closed: --help: exit 2, says so" --help
closed "stdout closed: --version: exit 2, says so" --version
# stdin closed: nothing changes
"$EAS_EM" compute --format=debugfs "$XU4" <&- > "$tmp/out" 2> /dev/null
check "stdin closed: compute, exit 0, the XU4 EM" cmp -s "$tmp/out" "$tmp/xu4.want"

# --- idle-power-fit: its output checked too ---------------------------------
FIT=$srctree/tools/power/eas/idle-power-fit
FIT_DATA=("$srctree/tools/power/eas/data/powmon-a15.csv"
	"$srctree/tools/power/eas/data/powmon-a7-nondyn.txt")
"$FIT" --dtb "$XU4" --dtb-model "${FIT_DATA[@]}" > "$tmp/fit" 2> "$tmp/err"
rc=$?
[[ $rc -eq 0 && ! -s $tmp/err && $(cut -d' ' -f1,3 "$tmp/fit" | tr '\n' ' ') == "a15 4.782 a7 8.612 " ]]
check "idle-power-fit --dtb-model: exit 0, B 4.782 (a15) and 8.612 (a7) per volt" [ $? -eq 0 ]
"$FIT" --dtb "$XU4" "${FIT_DATA[@]}" > /dev/full 2> "$tmp/err"
rc=$?
[[ $rc -eq 2 && $(wc -l < "$tmp/err") -eq 1 && $(cat "$tmp/err") == *"writing to stdout: No space left"* ]]
check "idle-power-fit, stdout full: exit 2, one line, no traceback" [ $? -eq 0 ]
"$FIT" --dtb "$XU4" "${FIT_DATA[@]}" >&- 2> "$tmp/err"
rc=$?
[[ $rc -eq 2 && $(wc -l < "$tmp/err") -eq 1 && $(cat "$tmp/err") == *"stdout is closed"* ]]
check "idle-power-fit, stdout closed: exit 2, one line (was exit 0, the fit lost)" [ $? -eq 0 ]

# --- fit: dynamic-power-coefficient from a sweep ----------------------------------
# A sweep made up from the kernel's formula: at each OPP of the XU4 DTB
# (its voltages, read with fdtget), the rail's idle power (a leakage
# growing with V, four CPUs' WFI power, C * V^2 * f of a fifth of C) and
# the busy power (that plus one CPU's dynamic power, 90 * mV^2 * MHz /
# 10^6 on the A7s, 310 on the A15s), each "measured" with a deterministic
# error of up to +-0.5%. The fit must give back 90 and 310 within 2%.
# fit_sweep DTB NOISE: the sweep on stdout (NOISE: the error, fraction).
fit_sweep()
{
	local dtb=$1 noise=$2 node ph table t opp hz uv c

	for node in $(fdtget -l "$dtb" /cpus | grep '^cpu@'); do
		c=$(fdtget "$dtb" "/cpus/$node" compatible)
		ph=$(fdtget -t u "$dtb" "/cpus/$node" operating-points-v2)
		echo "cpu $c $ph"
	done >"$tmp/fit.cpus"
	for table in $(fdtget -l "$dtb" / | grep '^opp-table'); do
		t=$(fdtget -t u "$dtb" "/$table" phandle)
		for opp in $(fdtget -l "$dtb" "/$table"); do
			hz=$(fdtget -t u "$dtb" "/$table/$opp" opp-hz | awk '{ print $1 * 4294967296 + $2 }')
			# Tables of other devices may have no voltage: not the CPUs'.
			uv=$(fdtget -t u "$dtb" "/$table/$opp" opp-microvolt 2>/dev/null | awk '{ print $1 }')
			[ -z "$uv" ] || echo "opp $t $hz $uv"
		done
	done >>"$tmp/fit.cpus"
	# The kernel numbers the A7s 0-3 on the Exynos5422 (eas-em compute).
	awk -v noise="$noise" '
	$1 == "cpu" { tab[$2 == "arm,cortex-a7" ? "a7" : "a15"] = $3; next }
	$1 == "opp" { n[$2]++; hz[$2, n[$2]] = $3; uv[$2, n[$2]] = $4 }
	# Park-Miller: a fixed sequence in [-1, 1)
	function rnd() { x = (x * 16807) % 2147483647; return x / 1073741823.5 - 1 }
	END {
		x = 7; pts = 0
		for (k = 1; k <= 2; k++) {
			cl = k == 1 ? "a7" : "a15"; C = k == 1 ? 90 : 310; cpu = k == 1 ? 0 : 4
			t = tab[cl]
			for (i = 1; i <= n[t]; i++) {
				mv = int(uv[t, i] / 1000); mhz = int(hz[t, i] / 1000000); v = mv / 1000
				dyn = C * mv * mv * mhz / 1e6
				idle = (k == 1 ? 20000 : 90000) * exp(3 * (v - 0.9)) + 4 * dyn / 5
				printf "@sweep cpu=%d rail=%s khz=%d idle_uw=%.0f busy_uw=%.0f seconds=2\n",
					cpu, cl, hz[t, i] / 1000, idle * (1 + noise * rnd()),
					(idle + dyn) * (1 + noise * rnd())
				pts++
			}
		}
		printf "@sweep_end points=%d\n", pts
	}' "$tmp/fit.cpus"
}

if command -v fdtget >/dev/null; then
	fit_sweep "$XU4" 0.005 >"$tmp/sweep.txt"
	run fit "$tmp/sweep.txt" "$XU4"
	a7=$(awk '/^perf domain cpu0:/ { p = 1 } p && /^  dynamic-power-coefficient / { print $2; exit }' "$tmp/out")
	a15=$(awk '/^perf domain cpu4:/ { p = 1 } p && /^  dynamic-power-coefficient / { print $2; exit }' "$tmp/out")
	if [ "$rc" -eq 0 ] && awk -v a="$a7" -v b="$a15" \
		'BEGIN { exit !(a != "" && b != "" && a >= 88.2 && a <= 91.8 && b >= 303.8 && b <= 316.2) }'; then
		ok "fit: a sweep made up from the XU4 DTB's voltages (+-0.5% error): A7 $a7 (90), A15 $a15 (310), within 2%"
	else
		not_ok "fit: a sweep made up from the XU4 DTB's voltages: 90 and 310 within 2%" \
			"exit $rc, A7 '$a7', A15 '$a15'" "$err"
	fi
	has_line "fit: the A7's DT line" "  DT line (cpu nodes 0-3): dynamic-power-coefficient = <90>;"
	has_line "fit: the A15's DT line" "  DT line (cpu nodes 4-7): dynamic-power-coefficient = <310>;"
	check "fit: a residual for each of the 32 OPPs" \
		[ "$(grep -cE '^ +[0-9]+ +[0-9]+ .*%$' "$tmp/out")" -eq 32 ]
	# Exact data: the coefficients to 0.1%, every residual under 0.5%
	# (the kernel's truncation to whole mV and MHz is the model's own).
	fit_sweep "$XU4" 0 >"$tmp/sweep0.txt"
	run fit --json "$tmp/sweep0.txt" "$XU4"
	if [ "$rc" -eq 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = {p["name"]: p for p in d["perf_domains"]}
ok = abs(c["cpu0"]["coefficient"] - 90) < 0.09 and abs(c["cpu4"]["coefficient"] - 310) < 0.31
ok = ok and all(abs(x["residual_percent"]) < 0.5 for p in c.values() for x in p["points"])
ok = ok and c["cpu0"]["dtb_coefficient"] == 90 and len(c["cpu4"]["points"]) == 19
sys.exit(not ok)' "$tmp/out"; then
		ok "fit --json: exact data gives 90 and 310 to 0.1%, every residual under 0.5%"
	else
		not_ok "fit --json: exact data gives 90 and 310 to 0.1%" "exit $rc" "$(head -c 600 "$tmp/out")" "$err"
	fi
	# expect_fit_bad DESC FILE FRAGMENT: exit 2, nothing on stdout, one
	# line on stderr naming FILE, holding FRAGMENT
	expect_fit_bad()
	{
		local why=""

		run fit "$2" "$XU4"
		[ "$rc" -eq 2 ] || why="exit status $rc, want 2"
		[ -z "$why" ] && [ -s "$tmp/out" ] && why="output on stdout"
		[ -z "$why" ] && [ "$(wc -l < "$tmp/err")" -ne 1 ] && why="stderr is not one line"
		[ -z "$why" ] && [[ "$err" != *"$2"* ]] && why="message does not name $2"
		[ -z "$why" ] && [[ "$err" != *"$3"* ]] && why="message lacks '$3'"
		if [ -z "$why" ]; then
			ok "$1"
		else
			not_ok "$1" "$why" "stderr: $err"
		fi
	}
	head -20 "$tmp/sweep.txt" >"$tmp/cut.txt"
	expect_fit_bad "fit: a sweep cut short (no @sweep_end): exit 2" "$tmp/cut.txt" "cut short"
	{ head -20 "$tmp/sweep.txt"; echo "@sweep_end points=32"; } >"$tmp/short.txt"
	expect_fit_bad "fit: @sweep_end's count not the file's: exit 2" "$tmp/short.txt" "says 32 points, the file has 20"
	sed '3s/idle_uw=[0-9]*/idle_uw=12x/' "$tmp/sweep.txt" >"$tmp/nan.txt"
	expect_fit_bad "fit: a value not a number: exit 2, its line" "$tmp/nan.txt" ":3: idle_uw=12x"
	sed '3s/khz=[0-9]*/khz=123456/' "$tmp/sweep.txt" >"$tmp/opp.txt"
	expect_fit_bad "fit: an OPP the DTB lacks: exit 2" "$tmp/opp.txt" "123456 kHz is no OPP of cpu0"
	expect_fit_bad "fit: no such sweep file: exit 2" "$tmp/none.txt" "No such file"
	awk '/^@sweep / { sub(/busy_uw=[0-9]*/, "busy_uw=0") } { print }' "$tmp/sweep.txt" >"$tmp/idle.txt"
	expect_fit_bad "fit: busy at or below idle everywhere: exit 2" "$tmp/idle.txt" "at or below the idle power"
else
	not_ok "fit: fdtget is installed (device-tree-compiler, scripts/deps.sh)"
fi

# --- cross build for the guest --------------------------------------------------
if command -v arm-linux-gnueabihf-gcc > /dev/null; then
	if make -s -C "$srctree/tools/power/eas" CROSS_COMPILE=arm-linux-gnueabihf- \
		O="$tmp/arm" KERNEL_SRC="$KERNEL_SRC" > "$tmp/cross.log" 2>&1; then
		ok "cross build: make CROSS_COMPILE=arm-linux-gnueabihf- O=..."
		f=$(file -b "$tmp/arm/eas-em")
		check "cross build: a static 32-bit ARM executable" \
			grep -q "ELF 32-bit LSB executable, ARM.*statically linked" <<< "$f"
		if command -v qemu-arm-static > /dev/null; then
			qemu-arm-static "$tmp/arm/eas-em" compute --format=debugfs "$XU4" > "$tmp/out" 2>&1
			same_lines "cross build under qemu-arm: the XU4 EM" "$tmp/xu4.want" "$tmp/out"
			qemu-arm-static "$tmp/arm/eas-em" diff "$XU4" "$DUMP" > /dev/null 2>&1
			check "cross build under qemu-arm: diff DTB vs the guest's dump, exit 0" [ $? -eq 0 ]
		else
			not_ok "cross build run: qemu-arm-static is installed (scripts/deps.sh)"
		fi
	else
		mapfile -t lines < <(tail -5 "$tmp/cross.log")
		not_ok "cross build: make CROSS_COMPILE=arm-linux-gnueabihf- O=..." "${lines[@]}"
	fi
else
	not_ok "cross build: arm-linux-gnueabihf-gcc is installed (scripts/deps.sh)"
fi

summary
