#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""idle-bench-report.py OUT_DIR LOG: the idle governors' comparison tables.

Reads the console log of make idle-bench's boot (vxu4-idle-bench,
tools/testing/vxu4/guest/idle-bench: governors switched at run time;
cases frames, audio, video, cyclic) and writes, in OUT_DIR:
  runs.csv       one row per run (governor, case, iteration)
  summary.json   mean, RSD and median of each metric per governor and case,
                 the changes against menu, and the seed's claims judged
  report.txt     the seed's table: frames (95th percentile, over the
                 deadline, energy), audio and video energy, cyclictest
                 latency, mean (RSD %) and the change against menu; the
                 idle states' shares and the mispredictions per governor
                 and case; whether the seed's claims hold here
  idle.png       the changes against menu, and the states' shares (gnuplot)
Changes are of the medians of the iterations (and of the means). Energy is
both cluster meters over the run. The seed (mbed on a HiKey960): frame
duration -35% (list_view) and -45% (edit_text) for about menu's energy;
audio and video playback -2.8% and -3.8% energy. Here the claims hold when
mbed's 95th-percentile frame duration is below menu's beyond the noise
(better frames: a lower median, and the Mann-Whitney U test's two-sided
p below 0.05 over the iterations) and its energy in frames, audio and
video is not above menu's beyond it (same or less energy: no case with a
higher median and p below 0.05).
Exit: 0; 1 the log lacks runs (an "@idlebench_error" line, a missing
meter reading, or fewer iterations than asked: named, nothing written as
whole); 2 bad usage or an unreadable log.
"""

import csv
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vxu4log  # noqa: E402

CASES = ("frames", "audio", "video", "cyclic")
# cyclictest's histogram range (-h), us
HIST_US = 4000
# (key, title, format, cases it is measured in)
METRICS = (
    ("p95_ms", "frame p95 (ms)", "{:.2f}", ("frames",)),
    ("over", "frames over deadline", "{:.1f}", ("frames",)),
    ("energy_j", "energy (J)", "{:.4f}", CASES),
    ("p50_us", "latency median (us)", "{:.0f}", ("cyclic",)),
    ("p99_us", "latency p99 (us)", "{:.0f}", ("cyclic",)),
    ("max_us", "latency max (us)", "{:.0f}", ("cyclic",)),
    ("beyond", "latencies beyond 4 ms", "{:.1f}", ("cyclic",)),
    ("above_pct", "too deep (% of entries)", "{:.1f}", CASES),
    ("below_pct", "too shallow (% of entries)", "{:.1f}", CASES),
)
# The seed's claims for mbed against menu: (case, metric, name, the
# seed's change in %); and the level of the test that a change is
# beyond the iterations' noise.
CLAIMS = (("frames", "p95_ms", "frames p95", "-35 (list_view), -45 (edit_text)"),
          ("frames", "energy_j", "frames energy", "about 0"),
          ("audio", "energy_j", "audio energy", "-2.8"),
          ("video", "energy_j", "video energy", "-3.8"))
ALPHA = 0.05


def die(msg, code=1):
    print(f"idle-report: {msg}", file=sys.stderr)
    sys.exit(code)


def percentile(hist, q):
    """The smallest latency (us) at or below which a fraction q of the
    samples of HIST ({latency_us: count}) lie."""
    total = sum(hist.values())
    need, seen = q * total, 0
    for lat in sorted(hist):
        seen += hist[lat]
        if seen >= need:
            return lat
    return max(hist)


def parse(log: str) -> tuple[dict[str, str], list[str], tuple[str, ...], list[str],
                             dict[tuple[str, str, int], dict[str, float]], int]:
    lg, hd = vxu4log.bench_log(log, "idlebench", "idle-bench", "vxu4-idle-bench")
    govs = hd.need_str("governors").split(",")
    if "menu" not in govs:
        raise hd.error("governors", "want menu among them (the changes are against menu)")
    # cpu0's state names, less the cluster's suffix: the same states of
    # both clusters are summed
    states = [re.sub(r"-a(7|15)$", "", s) for s in hd.need_str("states").split(",")]
    # an older log names no cases: it has all four
    cases = tuple(c for c in CASES if c in hd.fields.get("cases", ",".join(CASES)).split(","))
    want = hd.need_int("iter", 1)
    for k in ("frames", "audio_s", "video_s", "loops", "pload_ns"):
        hd.need_str(k)
    hd.opt_int("cyclic_us", 1)
    runs = {}
    for r in lg.records("idlebench_run"):
        key = (r.need_str("gov", govs), r.need_str("case", cases), r.need_int("iter", 1))
        bad = [k for k in ("energy_a7_uj", "energy_a15_uj") if not r.has(k)]
        if bad:
            die(f"{log}:{r.line}: {key}: no {', '.join(bad)} ({r.text})")
        st = {k: r.need_ints(k, least=len(states)) for k in ("time_us", "usage", "above", "below")}
        idle = sum(st["time_us"]) or 1
        entries = sum(st["usage"]) or 1
        m = dict(energy_j=(r.need_int("energy_a7_uj") + r.need_int("energy_a15_uj")) / 1e6,
                 guest_s=r.need_int("guest_ms") / 1e3,
                 above_pct=100.0 * sum(st["above"]) / entries,
                 below_pct=100.0 * sum(st["below"]) / entries)
        for i, s in enumerate(states):
            m[f"share_{s}"] = 100.0 * st["time_us"][i] / idle
        if key[1] == "frames":
            if not r.opt_int("frames"):
                die(f"{log}:{r.line}: {key}: no frame in rt-app's log ({r.text})")
            m.update(p95_ms=r.need_int("p95_us") / 1e3, over=r.need_int("over"),
                     max_frame_ms=r.need_int("max_us") / 1e3)
        if key[1] == "cyclic":
            if not r.has("hist"):
                die(f"{log}:{r.line}: {key}: no cyclictest histogram ({r.text})")
            if "max_us" not in r.fields:
                die(f"{log}:{r.line}: {key}: no cyclictest maximum ({r.text}); a log of an "
                    f"older idle-bench (its histogram was read wrongly): run it again")
            hist = {int(lat): int(n) for lat, n in (r.opt_pairs("hist") or {}).items()}
            if not sum(hist.values()):
                raise r.error("hist", "want at least one sample")
            # samples beyond the histogram's 4 ms: counted at its end, so a
            # percentile that reaches them reads as 4000 us (a lower bound)
            over = sum(r.need_ints("overflows")) if r.has("overflows") else 0
            if over:
                hist[HIST_US] = hist.get(HIST_US, 0) + over
            m.update(p50_us=percentile(hist, 0.5), p99_us=percentile(hist, 0.99),
                     max_us=max(r.need_ints("max_us")), beyond=over)
        runs[key] = m
    for g in govs:
        for c in cases:
            missing = [i for i in range(1, want + 1) if (g, c, i) not in runs]
            if missing:
                die(f"{log}: {g} {c}: no run for iteration(s) "
                    f"{', '.join(map(str, missing))} of {want}")
    return hd.fields, govs, cases, states, runs, want


def plot(govs, cases, states, changes, summary, out):
    others = [g for g in govs if g != "menu"]
    dat = os.path.join(out, "idle.dat")
    rows = (("frame p95", "frames", "p95_ms"), ("frames energy", "frames", "energy_j"),
            ("audio energy", "audio", "energy_j"), ("video energy", "video", "energy_j"),
            ("latency p99", "cyclic", "p99_us"))
    rows = [r for r in rows if r[1] in cases]
    with open(dat, "w") as f:
        f.write("# metric " + " ".join(others) + " (change against menu, %, medians)\n")
        for title, case, k in rows:
            f.write(f"\"{title}\" " + " ".join(f"{changes[g][case][k]:.2f}" for g in others) + "\n")
    sdat = os.path.join(out, "idle-states.dat")
    with open(sdat, "w") as f:
        f.write("# governor " + " ".join(states) + " (share of idle time, %, all cases)\n")
        for g in govs:
            f.write(g + " " + " ".join(
                f"{statistics.mean(summary[g][c]['share_' + s]['mean'] for c in cases):.2f}"
                for s in states) + "\n")
    cols = ", ".join(f"'' using {i + 2} title '{g}'" for i, g in enumerate(others))
    cols = cols.replace("''", f"'{dat}'", 1)
    scols = ", ".join(f"'' using {i + 2}{':xtic(1)' if i == 0 else ''} title '{s}'"
                      for i, s in enumerate(states))
    scols = scols.replace("''", f"'{sdat}'", 1)
    script = f"""
set terminal pngcairo size 1000,520 noenhanced
set output '{os.path.join(out, "idle.png")}'
set multiplot layout 1,2 title 'Idle governors on the virtual Odroid-XU4 with idle states, EAS on'
set style data histograms
set style fill solid 0.8 border -1
set grid ytics
set key below
set style histogram clustered gap 1
set xtics rotate by -30
set ylabel '% against menu'
set title 'change against menu (medians)'
plot {cols.replace("using 2 ", "using 2:xtic(1) ", 1)}
set style histogram rowstacked
set xtics norotate
set ylabel '% of idle time'
set yrange [0:100]
set title 'idle time per state (mean of the cases)'
plot {scols}
unset multiplot
"""
    return vxu4log.gnuplot(script, "idle-report")


def main() -> None:
    out, log = vxu4log.report_args(__doc__)
    head, govs, cases, states, runs, iters = parse(log)
    keys = [k for k, _, _, _ in METRICS] + [f"share_{s}" for s in states] + \
        ["max_frame_ms", "guest_s"]
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["governor", "case", "iter"] + keys)
        for (g, c, it), r in sorted(runs.items()):
            w.writerow([g, c, it] + [r.get(k, "") for k in keys])
    summary = {}
    for g in govs:
        for c in cases:
            vals = [runs[(g, c, i)] for i in range(1, iters + 1)]
            summary.setdefault(g, {})[c] = {
                k: dict(zip(("mean", "rsd_pct"), vxu4log.mean_rsd([v[k] for v in vals])),
                        median=statistics.median([v[k] for v in vals]))
                for k in keys if k in vals[0]}
    changes, mean_changes = {}, {}
    for g in govs:
        for c in cases:
            for ch, stat in ((changes, "median"), (mean_changes, "mean")):
                ch.setdefault(g, {})[c] = {
                    k: ((v[stat] / summary["menu"][c][k][stat] - 1) * 100
                        if summary["menu"][c][k][stat] else float("nan"))
                    for k, v in summary[g][c].items()}
    claims = tests = None
    if "mbed" in govs and all(c in cases for c, _, _, _ in CLAIMS):
        ch = changes["mbed"]
        tests = {(c, k): vxu4log.mann_whitney(
                     [runs[("mbed", c, i)][k] for i in range(1, iters + 1)],
                     [runs[("menu", c, i)][k] for i in range(1, iters + 1)])
                 for c, k, _, _ in CLAIMS}
        claims = dict(
            better_frames=ch["frames"]["p95_ms"] < 0 and tests[("frames", "p95_ms")] < ALPHA,
            same_or_less_energy=not any(ch[c][k] > 0 and tests[(c, k)] < ALPHA
                                        for c, k, _, _ in CLAIMS if k == "energy_j"))
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(dict(setup=head, metrics=summary, changes_median=changes,
                       changes_mean=mean_changes, seed_claims=claims,
                       seed_claims_p={f"{c} {k}": p for (c, k), p in (tests or {}).items()}), f, indent=1)

    lines = [f"Idle governors on the virtual Odroid-XU4 with idle states ({head['states']}), "
             f"EAS on, schedutil; mean (RSD %) over {iters} iterations, and the change "
             f"against menu of the medians (of the means); guest time (QEMU icount)",
             f"frames: {head['frames']} at 60 Hz; audio {head['audio_s']} s, video "
             f"{head['video_s']} s; cyclictest {head['loops']} loops of "
             f"{int(head.get('cyclic_us', 10000)) // 1000} ms on CPU0 and CPU4 "
             f"(its main thread on {'CPU' + head['cyclic_main_cpu'] if 'cyclic_main_cpu' in head else 'CPU0 and CPU4'}); "
             f"rt-app calibrated on CPU4 at its top OPP ({head['pload_ns']} ns per loop)", ""]
    table = (("frame p95 (ms)", "frames", "p95_ms", "{:.2f}"),
             ("frames over 16.7 ms", "frames", "over", "{:.1f}"),
             ("frames energy (J)", "frames", "energy_j", "{:.4f}"),
             ("audio energy (J)", "audio", "energy_j", "{:.4f}"),
             ("video energy (J)", "video", "energy_j", "{:.4f}"),
             ("cyclictest energy (J)", "cyclic", "energy_j", "{:.4f}"),
             ("latency median (us)", "cyclic", "p50_us", "{:.0f}"),
             ("latency p99 (us)", "cyclic", "p99_us", "{:.0f}"),
             ("latency max (us)", "cyclic", "max_us", "{:.0f}"),
             ("latencies beyond 4 ms", "cyclic", "beyond", "{:.1f}"))
    hdr = ["metric", *govs]
    rows = []
    for title, c, k, fmt in table:
        if c not in cases:
            continue
        cells = []
        for g in govs:
            s = summary[g][c][k]
            cell = f"{fmt.format(s['mean'])} ({s['rsd_pct']:.1f})"
            if g != "menu" and not math.isnan(changes[g][c][k]):
                cell += f" {changes[g][c][k]:+.1f}% ({mean_changes[g][c][k]:+.1f}%)"
            cells.append(cell)
        rows.append([title, *cells])
    lines += vxu4log.table(hdr, rows)
    lines += ["", "Idle time per state (% of the CPUs' idle time) and mispredictions "
              "(% of idle entries: too deep = the state's target residency was not "
              "reached; too shallow = a deeper enabled state would have fitted), means"]
    hdr = ["governor", "case", *states, "too deep", "too shallow"]
    rows = []
    for g in govs:
        for c in cases:
            s = summary[g][c]
            rows.append([g, c, *[f"{s['share_' + st]['mean']:.1f}" for st in states],
                         f"{s['above_pct']['mean']:.1f}", f"{s['below_pct']['mean']:.1f}"])
    lines += vxu4log.table(hdr, rows)
    if claims is not None:
        ch = changes["mbed"]
        lines += ["", "The seed's claims for mbed against menu (HiKey960) and here (medians):"]
        lines += vxu4log.table(["claim", "seed %", "here %", "p (Mann-Whitney)"], [
            [name, seed, f"{ch[c][k]:+.1f}", f"{tests[(c, k)]:.3f}"]
            for c, k, name, seed in CLAIMS])
        lines += ["",
                  f"Better frames (a lower p95, p < {ALPHA}): "
                  f"{'yes' if claims['better_frames'] else 'no'}; same or less energy (no "
                  f"case higher with p < {ALPHA}): "
                  f"{'yes' if claims['same_or_less_energy'] else 'no'}: the seed's claims "
                  f"{'hold' if all(claims.values()) else 'do not hold'} here."]
    if claims is None and "mbed" in govs:
        lines += ["", "The seed's claims need the frames, audio and video cases: "
                  f"not judged ({', '.join(cases)} run)."]
    if plot(govs, cases, states, changes, summary, out):
        lines += ["", f"plot: {os.path.join(out, 'idle.png')}"]
    vxu4log.write_report(out, lines)


if __name__ == "__main__":
    vxu4log.guard(main)
