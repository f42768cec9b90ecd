#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate the reference EAS experiments run in the virtual XU4.

Usage: bench-report.py CONSOLE_LOG OUT_DIR

Reads the "@bench ..." lines that scripts/guest/bench printed, writes
OUT_DIR/runs.csv (one row per run), OUT_DIR/summary.json and
OUT_DIR/bench.png (gnuplot), and prints the seed's tables: mean, RSD
(standard deviation / mean) and the change from EAS off to EAS on, plus
per-cluster busy time and time in each OPP. Exit 2 on a log without runs.
"""

import csv
import json
import os
import shutil
import statistics
import subprocess
import sys


def parse(log):
    runs, errors, calib = [], [], None
    with open(log, errors="replace") as f:
        for line in f:
            line = line.strip().replace("\r", "")
            if line.startswith("@bench_error"):
                errors.append(line[len("@bench_error "):])
            elif line.startswith("@bench_calibration"):
                calib = line.split("=", 1)[1]
            elif line.startswith("@bench "):
                fields = line.split()
                run = {"test": fields[1]}
                for kv in fields[2:]:
                    k, _, v = kv.partition("=")
                    run[k] = v
                runs.append(run)
    return runs, errors, calib


def stats(values):
    mean = statistics.mean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, (sd / mean * 100 if mean else 0.0)


def change(off, on):
    return (on - off) / off * 100 if off else float("nan")


def opp_seconds(runs, key):
    """Mean seconds per OPP (kHz) of a 'tis_policyN' list over runs."""
    total = {}
    for r in runs:
        for pair in r.get(key, "").split(","):
            if ":" in pair:
                f, ms = pair.split(":")
                total[int(f)] = total.get(int(f), 0) + int(ms)
    return {f: ms / 1000 / len(runs) for f, ms in sorted(total.items())}


def table_rtapp(runs, n):
    sel = [r for r in runs if r["test"] == "rtapp" and r["tasks"] == n]
    by = {e: [r for r in sel if r["eas"] == e] for e in ("0", "1")}
    if not by["0"] or not by["1"]:
        return None, []
    dur = int(by["1"][0]["wall_ms"]) / 1000
    lines = [f"rt-app: {n} periodic tasks, 16 ms period, 10% duty, {dur:.1f} s a run, "
             f"{len(by['1'])} iterations (energy from the cluster power meters)",
             f"  {'':18} {'EAS off':>22} {'EAS on':>22} {'change':>8}"]
    summary = {}

    def row(name, key, scale, unit):
        vals = {}
        for e in ("0", "1"):
            vals[e] = [key(r) * scale for r in by[e]]
        (m0, r0), (m1, r1) = stats(vals["0"]), stats(vals["1"])
        lines.append(f"  {name:18} {m0:11.3f} {unit:2} (RSD {r0:4.2f}%)"
                     f" {m1:9.3f} {unit:2} (RSD {r1:4.2f}%) {change(m0, m1):+7.1f}%")
        summary[name] = {"eas_off": {"mean": m0, "rsd_percent": r0},
                         "eas_on": {"mean": m1, "rsd_percent": r1},
                         "change_percent": change(m0, m1), "unit": unit}

    row("energy total", lambda r: int(r["energy_a7_uj"]) + int(r["energy_a15_uj"]), 1e-6, "J")
    row("energy a15", lambda r: int(r["energy_a15_uj"]), 1e-6, "J")
    row("energy a7", lambda r: int(r["energy_a7_uj"]), 1e-6, "J")
    row("busy a15", lambda r: int(r["busy_a15_ms"]), 1e-3, "s")
    row("busy a7", lambda r: int(r["busy_a7_ms"]), 1e-3, "s")
    # The CPU speed emulation: the host time the vCPUs counted as work, as
    # a share of what the host's cores can give in the run's wall time
    # (over about 80%, vCPUs wait for the host and the work counted
    # includes that wait); the dilation reached, (work + stall paid) /
    # work; and the share of the stall owed that it paid.
    ncpu = os.cpu_count() or 1
    if all("work_a7_ms" in r and "work_a15_ms" in r for r in sel):
        row(f"host load ({ncpu} cores)", lambda r: (int(r["work_a7_ms"]) + int(r["work_a15_ms"]))
            / (int(r["wall_ms"]) * ncpu), 100, "%")
    for c in ("a15", "a7"):
        if all(int(r.get(f"work_{c}_ms", 0)) > 0 and int(r.get(f"owed_{c}_ms", 0)) > 0
               for r in sel):
            row(f"dilation {c}", lambda r, c=c: (int(r[f"work_{c}_ms"]) + int(r[f"stall_{c}_ms"]))
                / int(r[f"work_{c}_ms"]), 1, "x")
            row(f"stall paid {c}", lambda r, c=c: int(r[f"stall_{c}_ms"])
                / int(r[f"owed_{c}_ms"]), 100, "%")
    for pol, name in (("tis_policy4", "a15"), ("tis_policy0", "a7")):
        off, on = opp_seconds(by["0"], pol), opp_seconds(by["1"], pol)
        used = [f for f in off if off[f] >= 0.005 or on.get(f, 0) >= 0.005]
        lines.append(f"  time in OPP, {name} (s, mean a run; EAS off / on):")
        lines.append("    " + "  ".join(f"{f // 1000}MHz {off[f]:.2f}/{on.get(f, 0):.2f}"
                                          for f in used))
        summary[f"time_in_opp_{name}_s"] = {"eas_off": off, "eas_on": on}
    return "\n".join(lines), summary


def table_hackbench(runs):
    sel = [r for r in runs if r["test"] == "hackbench"]
    by = {e: [int(r["wall_ms"]) / 1000 for r in sel if r["eas"] == e] for e in ("0", "1")}
    if not by["0"] or not by["1"]:
        return None, {}
    loops = sel[0]["loops"]
    groups = sel[0].get("groups", "10")
    (m0, r0), (m1, r1) = stats(by["0"]), stats(by["1"])
    text = (f"hackbench -g {groups} -l {loops} -s 4096: {len(by['1'])} iterations (wall time)\n"
            f"  {'':18} {'EAS off':>22} {'EAS on':>22} {'change':>8}\n"
            f"  {'time':18} {m0:11.3f} s  (RSD {r0:4.2f}%) {m1:9.3f} s  (RSD {r1:4.2f}%)"
            f" {change(m0, m1):+7.1f}%")
    return text, {"groups": int(groups), "loops": int(loops), "eas_off": {"mean_s": m0, "rsd_percent": r0},
                  "eas_on": {"mean_s": m1, "rsd_percent": r1},
                  "change_percent": change(m0, m1)}


def plot(runs, out):
    if not shutil.which("gnuplot"):
        print("bench-report: gnuplot is missing (apt-get install gnuplot-nox): no plot",
              file=sys.stderr)
        return False
    cases = sorted({r["tasks"] for r in runs if r["test"] == "rtapp"}, key=int)
    dat = os.path.join(out, "plot.dat")
    with open(dat, "w") as f:
        for i, n in enumerate(cases):
            for r in runs:
                if r["test"] == "rtapp" and r["tasks"] == n:
                    x = 2 * i + (0.25 if r["eas"] == "1" else -0.25)
                    e = (int(r["energy_a7_uj"]) + int(r["energy_a15_uj"])) / 1e6
                    f.write(f"{x} {e} {r['eas']}\n")
        f.write("\n\n")
        for r in runs:
            if r["test"] == "hackbench":
                f.write(f"{0.25 if r['eas'] == '1' else -0.25} {int(r['wall_ms']) / 1000} {r['eas']}\n")
    xt = ", ".join(f'"{n} tasks" {2 * i}' for i, n in enumerate(cases))
    script = f"""
set terminal pngcairo size 1000,420 noenhanced
set output '{os.path.join(out, "bench.png")}'
set multiplot layout 1,2 title 'virtual Odroid-XU4: EAS off (red) vs on (blue), each point one run'
set title 'rt-app energy (J)'
set xtics ({xt})
set xrange [-1:{2 * len(cases) - 1}]
set grid ytics
plot '{dat}' index 0 using 1:2:($3 == 1 ? 0x3050c0 : 0xc03030) with points pt 7 ps 1.2 lc rgb variable notitle
set title 'hackbench time (s)'
set xtics ("hackbench" 0)
set xrange [-1:1]
plot '{dat}' index 1 using 1:2:($3 == 1 ? 0x3050c0 : 0xc03030) with points pt 7 ps 1.2 lc rgb variable notitle
unset multiplot
"""
    res = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if res.returncode:
        print(f"bench-report: gnuplot failed: {res.stderr.strip()}", file=sys.stderr)
        return False
    return True


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    log, out = sys.argv[1], sys.argv[2]
    runs, errors, calib = parse(log)
    for e in errors:
        print(f"bench-report: the guest said: {e}", file=sys.stderr)
    if not runs:
        print(f"bench-report: {log}: no '@bench' lines: the benchmark did not run",
              file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    keys = sorted({k for r in runs for k in r}, key=lambda k: (k != "test", k))
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(runs)

    summary = {"rtapp_calibration_ns_per_loop": calib, "rtapp": {}}
    print()
    for n in sorted({r["tasks"] for r in runs if r["test"] == "rtapp"}, key=int):
        text, s = table_rtapp(runs, n)
        if text:
            print(text + "\n")
            summary["rtapp"][n] = s
    text, s = table_hackbench(runs)
    if text:
        print(text + "\n")
        summary["hackbench"] = s
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    plotted = plot(runs, out)
    print(f"raw runs: {out}/runs.csv, summary: {out}/summary.json"
          + (f", plot: {out}/bench.png" if plotted else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
