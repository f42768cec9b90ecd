#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pelt-bench-report.py OUT_DIR LOG_1 LOG_2 LOG_4: the PELT half-life table.

Reads the console logs of make pelt-bench's three boots (sched_pelt_multiplier=
1, 2, 4: half-life 32, 16, 8 ms; tools/testing/vxu4/guest/pelt-bench) and
writes, in OUT_DIR, the following. A LOG may be several, comma-separated
(boots of the same multiplier: their iterations are pooled, in order; the
plot takes the first log's):
  runs.csv       one row per iteration and half-life
  summary.json   mean and RSD of each metric per half-life
  util.png       the RampUp task's util_avg around its step from 10% to
                 70%, the three half-lives on one plot (gnuplot)
  report.txt     the table, as the seed's PELT-vs-WALT one: rows PELT 32,
                 16, 8 and WALT (not available: an Android vendor module,
                 not in Linux 6.12), columns the metrics as mean (RSD)
Exit: 0; 1 a boot's log lacks its runs (an "@pelt_error" line, a missing
metric, or fewer iterations than asked: named, nothing written as whole);
2 bad usage or an unreadable log.
"""

import csv
import json
import math
import os
import sys
from typing import NoReturn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vxu4log  # noqa: E402
import vxu4trace  # noqa: E402

MULTS = (1, 2, 4)
# (key, column title, format)
METRICS = (
    ("t_big_ms", "RampUp: to a big CPU (ms)", "{:.1f}"),
    ("t_opp_ms", "RampUp: to the OPP of 70% (ms)", "{:.1f}"),
    ("over_pct", "frames over 16.7 ms (%)", "{:.2f}"),
    ("p95_ms", "frame p95 (ms)", "{:.2f}"),
    ("max_ms", "frame max (ms)", "{:.2f}"),
    ("frames_j", "frames energy (J)", "{:.3f}"),
    ("rtapp_j", "rt-app 24 tasks energy (J)", "{:.3f}"),
)


def die(msg: str, code: int = 1) -> NoReturn:
    print(f"pelt-report: {msg}", file=sys.stderr)
    sys.exit(code)


def ramp_lines(lg: vxu4log.Log, out: str, mult: int) -> list[str]:
    """The RampUp runs' "@pelt_ramp" and "@pelt_util" lines, from the
    trace.dat each iteration's run sent (written as
    OUT/traces/pelt-MULT-runI.dat; vxu4trace.pelt_ramp()) and the setup's
    A15 OPP of 70% ("@pelt_bench opp_khz=")."""
    traces = os.path.join(out, "traces")
    bench = lg.records("pelt_bench")
    lines: list[str] = []
    for it, sh in sorted(vxu4trace.shipped(lg, "pelt", traces, f"pelt-{mult}-run").items()):
        opp = bench[0].need_int("opp_khz", 1) if bench else sh.rec.need_int("opp_khz", 1)
        lines += vxu4trace.pelt_ramp(vxu4trace.read_events(sh.path), it, opp,
                                     sh.rec.need_int("fq0", 0))
    return lines


def parse(log: str, mult: int, out: str) -> tuple[dict[int, dict[str, float]],
                                                  list[tuple[float, int, int]], int]:
    """The runs of one boot: {iter: {metric: value}}, its util samples,
    its iteration count (from @pelt_bench_done). The RampUp runs' lines
    from their traces (ramp_lines()), after the log's own."""
    fix = "run make pelt-bench again (the log is cut or garbled)"
    lg = vxu4log.Log(log, "run make pelt-bench", fix)
    lg = vxu4log.Log(log, "run make pelt-bench", fix, lg.lines + ramp_lines(lg, out, mult))
    errors = lg.at("pelt_error")
    if errors:
        die(f"{log}: the guest reported errors: {'; '.join(errors)}")
    bench = lg.records("pelt_bench")
    if not bench:
        die(f"{log}: no @pelt_bench line: the boot did not run vxu4-pelt-bench "
            "(see the log's end)")
    got = bench[0].fields.get("multiplier")
    if got != str(mult):
        die(f"{log}: booted with sched_pelt_multiplier {got}, expected {mult}")
    done = lg.records("pelt_bench_done")
    if not done:
        die(f"{log}: no @pelt_bench_done line: the boot stopped early (timeout?)")
    runs: dict[int, dict[str, float]] = {}
    for r in lg.records("pelt_ramp"):
        it = r.need_int("iter", 1)
        for k in ("t_big_ms", "t_opp_ms"):
            if r.fields.get(k, "none") == "none":
                die(f"{log}:{r.line}: iteration {it}: RampUp has no {k} (the task never "
                    "reached a big CPU or the OPP in the 70% phase)")
        runs.setdefault(it, {}).update(t_big_ms=r.need_num("t_big_ms"),
                                       t_opp_ms=r.need_num("t_opp_ms"))
    for r in lg.records("pelt_frames"):
        it = r.need_int("iter", 1)
        if "none" in (r.need_str("energy_a7_uj"), r.need_str("energy_a15_uj")):
            die(f"{log}:{r.line}: iteration {it}: a meter's counter went back during the frames")
        n = r.need_int("frames", 1)
        runs.setdefault(it, {}).update(
            frames=n, over_pct=100.0 * r.need_int("over", 0, n) / n,
            p95_ms=r.need_int("p95_us") / 1000, max_ms=r.need_int("max_us") / 1000,
            frames_j=(r.need_int("energy_a7_uj") + r.need_int("energy_a15_uj")) / 1e6)
    for r in lg.records("bench"):
        if r.words[:1] != ["rtapp"]:
            continue
        it = r.need_int("iter", 1)
        if not (r.has("energy_a7_uj") and r.has("energy_a15_uj")):
            die(f"{log}:{r.line}: iteration {it}: rt-app run without meter readings: {r.text}")
        runs.setdefault(it, {})["rtapp_j"] = (r.need_int("energy_a7_uj")
                                              + r.need_int("energy_a15_uj")) / 1e6
    want = done[0].need_int("iter", 1)
    for it in range(1, want + 1):
        missing = [k for k, _, _ in METRICS if k not in runs.get(it, {})]
        if missing:
            die(f"{log}: iteration {it} lacks {', '.join(missing)}")
    util = []
    for r in lg.records("pelt_util"):
        util.append((r.need_num("t_ms", -math.inf), r.need_int("util"), r.need_int("cpu", 0, 7)))
    return runs, util, want


def plot(utils: dict[int, list[tuple[float, int, int]]], out: str) -> bool:
    dat = os.path.join(out, "util.dat")
    with open(dat, "w") as f:
        for m in MULTS:
            for t, u, c in utils[m]:
                if -100 <= t <= 400:
                    f.write(f"{t} {u} {c}\n")
            f.write("\n\n")
    plots = ", ".join(
        f"'{dat}' index {i} using 1:2 with steps lw 2 title 'PELT {32 // m} ms'"
        for i, m in enumerate(MULTS))
    script = f"""
set terminal pngcairo size 900,480 noenhanced
set output '{os.path.join(out, "util.png")}'
set title 'RampUp (10% to 70% of a big CPU at t = 0): the task util_avg, virtual Odroid-XU4, EAS on'
set xlabel 'ms from the start of the 70% phase'
set ylabel 'util_avg (capacity units of 1024)'
set yrange [0:1024]
set ytics add ('70%%' 717)
set grid
set key bottom right
plot {plots}, 717 with lines dt 2 lc rgb 'gray' notitle
"""
    return vxu4log.gnuplot(script, "pelt-report")


def main() -> None:
    out, logs = vxu4log.report_args(__doc__, logs=len(MULTS))
    allruns: dict[int, dict[int, dict[str, float]]] = {}
    utils: dict[int, list[tuple[float, int, int]]] = {}
    iters: dict[int, int] = {}
    for m, arg in zip(MULTS, logs):
        allruns[m], iters[m] = {}, 0
        for log in arg.split(","):
            runs, util, n = parse(log, m, out)
            for it in sorted(runs):
                allruns[m][iters[m] + it] = runs[it]
            iters[m] += n
            if m not in utils:
                utils[m] = util
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["half_life_ms", "iter"] + [k for k, _, _ in METRICS])
        for m in MULTS:
            for it in sorted(allruns[m]):
                w.writerow([32 // m, it] + [allruns[m][it][k] for k, _, _ in METRICS])
    summary = {}
    for m in MULTS:
        summary[32 // m] = {k: dict(zip(("mean", "rsd_pct"),
                                        vxu4log.mean_rsd([r[k] for r in allruns[m].values()])))
                            for k, _, _ in METRICS}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    lines = [f"PELT half-life on the virtual Odroid-XU4, EAS on, schedutil; "
             f"mean (RSD %) over {', '.join(f'{iters[m]}' for m in MULTS)} iterations "
             "(32, 16, 8 ms); guest time (QEMU icount)", ""]
    head = ["", *[t for _, t, _ in METRICS]]
    rows = []
    for m in MULTS:
        s = summary[32 // m]
        rows.append([f"PELT {32 // m} ms", *[
            f"{fmt.format(s[k]['mean'])} ({s[k]['rsd_pct']:.1f})" for k, _, fmt in METRICS]])
    rows.append(["WALT", *["n/a"] * len(METRICS)])
    lines += vxu4log.table(head, rows)
    lines.append("")
    lines.append("WALT: not available (an Android vendor module, not in Linux 6.12).")
    base = summary[32]
    for m in MULTS[1:]:
        s = summary[32 // m]
        ch = ", ".join(
            f"{t.split(' (')[0]} {((s[k]['mean'] - base[k]['mean']) / base[k]['mean'] * 100 if base[k]['mean'] else float('nan')):+.1f}%"
            for k, t, _ in METRICS)
        lines.append(f"PELT {32 // m} ms against 32 ms: {ch}")
    if plot(utils, out):
        lines.append("")
        lines.append(f"plot: {os.path.join(out, 'util.png')}")
    vxu4log.write_report(out, lines)


if __name__ == "__main__":
    vxu4log.guard(main)
