#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""boost-bench-report.py OUT_DIR LOG: the boost comparison's tables.

Reads the console log of make boost-bench's boot (vxu4-boost-bench,
tools/testing/vxu4/guest/boost-bench: configurations noboost, boost and
budget; cases 1-4 threads of fixed work and tar -czf) and writes, in
OUT_DIR:
  runs.csv       one row per run (configuration, case, iteration)
  summary.json   mean and RSD of each metric per configuration and case,
                 and the changes against noboost
  report.txt     the metrics as mean (RSD %) per configuration and case;
                 the seed's table: performance and energy change against
                 noboost per thread count and for tar, boost always and
                 the load-aware budget; whether the seed's finding holds
  boost.png      the two changes per case (gnuplot)
Performance is work over time (the same work in every run): its change is
time(noboost) / time - 1, from the medians of the iterations (and from
their means). Energy is both cluster meters over the run's window. The seed's finding holds here when the budget keeps at least half
of boost's single-thread performance gain and drops at least half of its
four-thread energy cost ("most of"), from the medians.
Exit: 0; 1 the log lacks runs (an "@boostbench_error" line, a missing
meter reading, or fewer iterations than asked: named, nothing written as
whole); 2 bad usage or an unreadable log.
"""

import csv
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vxu4log  # noqa: E402

CONFIGS = ("noboost", "boost", "budget")
TITLES = {"noboost": "no boost (max 1.8 GHz)", "boost": "boost always",
          "budget": "load-aware budget", "ipa": "IPA"}
CASES = (("dhry", 1), ("dhry", 2), ("dhry", 3), ("dhry", 4), ("tar", 1))
# (key, column title, format)
METRICS = (
    ("time_s", "time (s)", "{:.3f}"),
    ("energy_j", "energy (J)", "{:.3f}"),
    ("a15_w", "A15 mean power (W)", "{:.3f}"),
    ("a15_peak_w", "A15 peak power (W)", "{:.3f}"),
    ("a7_peak_w", "A7 peak power (W)", "{:.3f}"),
    ("boost_pct", "A15 at a boost OPP (% of the run)", "{:.1f}"),
)
# The seed (LAB on an Exynos4412): performance and battery charge change
# of its boost OPP against none.
SEED = {("dhry", 1): (10, 5), ("dhry", 4): (9, 29), ("tar", 1): (6, 10)}


def die(msg, code=1):
    print(f"boost-report: {msg}", file=sys.stderr)
    sys.exit(code)


def case_name(case):
    kind, n = case
    return f"{n} thread{'s' if n > 1 else ''}" if kind == "dhry" else "tar -czf"


def parse(log: str) -> tuple[dict[str, str], dict[tuple[str, tuple[str, int], int], dict[str, float]], int]:
    lg, hd = vxu4log.bench_log(log, "boostbench", "boost-bench", "vxu4-boost-bench")
    boost_khz = set(hd.need_ints("boost_khz", 1))
    want = hd.need_int("iter", 1)
    for k in ("work_ms", "fmax_khz", "loops", "budget_default_uw", "tar_dirs", "tree_files",
              "tree_kb"):
        hd.need_str(k)
    runs = {}
    for r in lg.records("boostbench_run"):
        cfg = r.need_str("cfg", CONFIGS)
        case = r.need_str("case", sorted({c for c, _ in CASES}))
        key = (cfg, (case, r.need_int("threads", 1)), r.need_int("iter", 1))
        bad = [k for k in ("time_ns", "energy_a7_uj", "energy_a15_uj",
                           "peak_a7_uw", "peak_a15_uw") if not r.has(k)]
        if bad:
            die(f"{log}:{r.line}: {key[0]} {case_name(key[1])} iteration {key[2]}: "
                f"no {', '.join(bad)} ({r.text})")
        time_ns = r.need_int("time_ns", 1)
        window = r.need_int("window_ns", 1) / 1e9
        e7, e15 = r.need_int("energy_a7_uj") / 1e6, r.need_int("energy_a15_uj") / 1e6
        res = r.opt_pairs("a15_khz") or {}
        runs[key] = dict(
            time_s=time_ns / 1e9, energy_j=e7 + e15, a15_w=e15 / window,
            a15_peak_w=r.need_int("peak_a15_uw") / 1e6, a7_peak_w=r.need_int("peak_a7_uw") / 1e6,
            boost_pct=100.0 * sum(ms for k, ms in res.items() if k in boost_khz)
            / (window * 1000))
    for cfg in CONFIGS:
        for case in CASES:
            missing = [i for i in range(1, want + 1) if (cfg, case, i) not in runs]
            if missing:
                die(f"{log}: {cfg} {case_name(case)}: no run for iteration(s) "
                    f"{', '.join(map(str, missing))} of {want}")
    return hd.fields, runs, want


def plot(changes, out):
    dat = os.path.join(out, "boost.dat")
    with open(dat, "w") as f:
        f.write("# case boost_perf boost_energy budget_perf budget_energy (medians)\n")
        for case in CASES:
            c = changes[case]
            f.write(f"\"{case_name(case)}\" {c['boost']['perf_pct']:.2f} "
                    f"{c['boost']['energy_pct']:.2f} {c['budget']['perf_pct']:.2f} "
                    f"{c['budget']['energy_pct']:.2f}\n")
    script = f"""
set terminal pngcairo size 900,520 noenhanced
set output '{os.path.join(out, "boost.png")}'
set multiplot layout 1,2 title 'Boost OPPs on the virtual Odroid-XU4 (A15 1.9, 2.0 GHz), EAS on: change against no boost'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set key below
set xtics rotate by -30
set ylabel '%'
set title 'performance'
plot '{dat}' using 2:xtic(1) title 'boost always', '' using 4 title 'load-aware budget'
set title 'energy'
plot '{dat}' using 3:xtic(1) title 'boost always', '' using 5 title 'load-aware budget'
unset multiplot
"""
    return vxu4log.gnuplot(script, "boost-report")


def main() -> None:
    out, log = vxu4log.report_args(__doc__)
    head, runs, iters = parse(log)
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["config", "case", "threads", "iter"] + [k for k, _, _ in METRICS])
        for (cfg, (kind, n), it), r in sorted(runs.items()):
            w.writerow([cfg, kind, n, it] + [r[k] for k, _, _ in METRICS])
    summary = {}
    for cfg in CONFIGS:
        for case in CASES:
            vals = [runs[(cfg, case, i)] for i in range(1, iters + 1)]
            summary.setdefault(cfg, {})[case] = {
                k: dict(zip(("mean", "rsd_pct"), vxu4log.mean_rsd([v[k] for v in vals])),
                        median=statistics.median([v[k] for v in vals]))
                for k, _, _ in METRICS}
    # The changes from the medians (a run slower by chance moves a mean of
    # 10 by a tenth of it), and from the means.
    changes, mean_changes = {}, {}
    for case in CASES:
        base = summary["noboost"][case]
        for cfg in CONFIGS[1:]:
            s = summary[cfg][case]
            for ch, stat in ((changes, "median"), (mean_changes, "mean")):
                ch.setdefault(case, {})[cfg] = dict(
                    perf_pct=(base["time_s"][stat] / s["time_s"][stat] - 1) * 100,
                    energy_pct=(s["energy_j"][stat] / base["energy_j"][stat] - 1) * 100)
    kept = changes[("dhry", 1)]["budget"]["perf_pct"] / changes[("dhry", 1)]["boost"]["perf_pct"] \
        if changes[("dhry", 1)]["boost"]["perf_pct"] else float("nan")
    dropped = 1 - changes[("dhry", 4)]["budget"]["energy_pct"] \
        / changes[("dhry", 4)]["boost"]["energy_pct"] \
        if changes[("dhry", 4)]["boost"]["energy_pct"] else float("nan")
    holds = kept >= 0.5 and dropped >= 0.5
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(dict(
            setup=head,
            metrics={cfg: {case_name(c): v for c, v in d.items()} for cfg, d in summary.items()},
            changes_median={case_name(c): v for c, v in changes.items()},
            changes_mean={case_name(c): v for c, v in mean_changes.items()},
            single_thread_gain_kept=kept, four_thread_cost_dropped=dropped,
            seed_finding_holds=holds), f, indent=1)

    lines = [f"Boost OPPs on the virtual Odroid-XU4 (A15 boost OPPs {head['boost_khz']} kHz), "
             f"EAS on, schedutil; mean (RSD %) over {iters} iterations; guest time (QEMU icount)",
             f"work per thread: {head['work_ms']} ms of an A15 at {head['fmax_khz']} kHz "
             f"({head['loops']} loops); tar -czf of {head['tar_dirs']} "
             f"({head['tree_files']} files, {head['tree_kb']} KiB) in a tmpfs; boost budget "
             f"default {head['budget_default_uw']} uW", ""]
    hdr = ["configuration", "case", *[t for _, t, _ in METRICS]]
    rows = []
    for cfg in CONFIGS:
        for case in CASES:
            s = summary[cfg][case]
            rows.append([TITLES[cfg], case_name(case), *[
                f"{fmt.format(s[k]['mean'])} ({s[k]['rsd_pct']:.1f})" for k, _, fmt in METRICS]])
    rows.append([TITLES["ipa"], "all", *["not built"] * len(METRICS)])
    lines += vxu4log.table(hdr, rows)
    lines += ["", "IPA: not built (the virtual board has no thermal sensor; issue 14's "
              "optional emulated TMU).", "",
              "Against no boost (the seed's table): performance change / energy change, %, "
              "of the medians (of the means)"]
    hdr = ["case", "boost always", "load-aware budget", "seed (LAB, Exynos4412)"]
    rows = []
    for case in CASES:
        c, m = changes[case], mean_changes[case]
        seed = SEED.get(case)
        rows.append([case_name(case), *[
            f"{c[k]['perf_pct']:+.1f} / {c[k]['energy_pct']:+.1f} "
            f"({m[k]['perf_pct']:+.1f} / {m[k]['energy_pct']:+.1f})" for k in CONFIGS[1:]],
                     f"+{seed[0]} / +{seed[1]} (charge)" if seed else "-"])
    lines += vxu4log.table(hdr, rows)
    lines += ["",
              f"The budget keeps {kept * 100:.0f}% of boost's single-thread performance gain "
              f"and drops {dropped * 100:.0f}% of its four-thread energy cost: the seed's "
              f"finding (most of the one, most of the other) "
              f"{'holds' if holds else 'does not hold'} here."]
    if plot(changes, out):
        lines += ["", f"plot: {os.path.join(out, 'boost.png')}"]
    vxu4log.write_report(out, lines)


if __name__ == "__main__":
    vxu4log.guard(main)
