#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The board command's OPP sweep in the virtual XU4, fitted on the host
# (KTAP): a boot of vxu4.mode=board-bench vxu4.eb=sweep (eas-bench sweep
# over the cluster meters, vxu4.eb_secs=SECONDS a point, default 1), then
# eas-em fit of its console against build/vxu4.dtb. The meters' rail
# carries the EM's dynamic power of each busy CPU on top of the leakage
# and every online CPU's WFI power (drivers/hwmon/virt-cluster-power.c),
# so busy - idle at an OPP is one CPU's EM power, and the fit must give
# back the DTB's coefficients (90 on the A7s, 310 on the A15s) within 2%.
#
# Usage: board-sweep-test.sh [SECONDS]   (needs make run, make tools)
# The console: build/board-sweep.log.

set -uo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
secs=${1:-1}
dtb=$top/build/vxu4.dtb
em=$top/tools/power/eas/eas-em
log=$top/build/board-sweep.log
if [ ! -f "$dtb" ] || [ ! -x "$em" ]; then
	echo "board-sweep-test.sh: no $dtb or $em: run make run and make tools" >&2
	exit 2
fi

. "$top/tools/testing/ktap.sh"
tmp=$(mktemp -d)
ktap_atexit rm -rf "$tmp"

start=$SECONDS
"$top/tools/testing/vxu4/suites/boot.py" board-sweep "vxu4.eb_secs=$secs" 2>"$tmp/boot.err"
rc=$?
st=$(tr -d '\r' <"$log" | sed -n 's/^@board_bench_done status=//p' | tail -1)
if [ "$st" = 0 ]; then
	ktap_ok "eas-bench sweep in the virtual XU4: exit 0 ($((SECONDS - start)) s of wall time, $secs s a point)"
else
	ktap_fail "eas-bench sweep in the virtual XU4: exit 0" "boot exit $rc, sweep status '${st:-none}'" \
		"$(cat "$tmp/boot.err")" "$(tr -d '\r' <"$log" | grep -E 'eas-bench|@sweep' | tail -10)"
	ktap_finish
fi
if ! "$em" fit --json "$log" "$dtb" >"$tmp/fit.json" 2>"$tmp/fit.err"; then
	ktap_fail "eas-em fit of the sweep" "$(cat "$tmp/fit.err")"
	ktap_finish
fi
"$em" fit "$log" "$dtb" 2>&1 | sed 's/^/  /'
python3 - "$tmp/fit.json" "$em" "$dtb" "$top/tools/testing/vxu4" <<'EOF' | while IFS=$'\t' read -r res desc; do
import json
import subprocess
import sys

sys.path.insert(0, sys.argv[4])
import vxu4log  # noqa: E402

fit = json.load(open(sys.argv[1]))
res = subprocess.run([sys.argv[2], "compute", "--json", sys.argv[3]], capture_output=True,
                     text=True)
# eas-em's JSON through its one reader (vxu4log.em_domains)
try:
    pds = vxu4log.em_domains(f"eas-em compute --json {sys.argv[3]}", res.stdout)
except vxu4log.LogError as e:
    pds = []
    print(f"fail\tthe EM of the board DTB: {e}")
nstates = {pd.name: len(pd.states) for pd in pds}
for pd in fit["perf_domains"]:
    want, got = pd["dtb_coefficient"], pd["coefficient"]
    # (the EM's states may hold boost OPPs, which the sweep does not run)
    ok = want is not None and abs(got - want) <= 0.02 * want and len(pd["points"]) >= 2
    print(f"{'ok' if ok else 'fail'}\tperf domain {pd['name']}: fitted {got:.2f}, the DTB's {want} "
          f"(within 2%), {len(pd['points'])} of {nstates.get(pd['name'])} OPPs, "
          f"RMS residual {pd['rms_residual_percent']:.2f}%")
print(f"{'ok' if len(fit['perf_domains']) == 2 else 'fail'}\tboth perf domains fitted")
EOF
	if [ "$res" = ok ]; then ktap_ok "$desc"; else ktap_fail "$desc"; fi
done
ktap_finish
