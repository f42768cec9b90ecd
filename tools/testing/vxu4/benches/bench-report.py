#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tabulate the reference EAS experiments run in the virtual XU4.

Usage: bench-report.py [--em EM.json [--idle DTB] [--agree PERCENT]] OUT_DIR CONSOLE_LOG...
       bench-report.py --self-check

Reads the "@bench ..." lines that tools/testing/vxu4/guest/bench printed in each
CONSOLE_LOG (one per boot), by key. A file CONSOLE_LOG with ".log" replaced
by ".stamps", if there, holds the host's arrival time of each "@bench" line
("EPOCH_S LINE"): a run's wall time is its "@bench_end" minus its
"@bench_start". EM.json is "eas-em compute --json" of the board's DTB: the
energy of every rt-app run is computed from it and the busy time of each
cluster at each OPP (the guest's trace), for every configuration alike.
With DTB (the virtual board's, build/vxu4.dtb) the power model of the
meters is computed as well, from its meters' "idle-power-microwatt" and
the CPUs' time at each OPP: leakage (cluster time x P_leak) and WFI (CPU
time x P_wfi) on top of the EM's dynamic energy. Where the guest has an
EM, the meters are checked against the energy of their model (the power
model, or the EM's dynamic energy alone with model=em): they must agree
within PERCENT (default 1) in every run.

Writes OUT_DIR/runs.csv (one row per run), OUT_DIR/summary.json and
OUT_DIR/bench.png (gnuplot), and prints the seed's tables: mean, RSD
(standard deviation / mean), the change between configurations and its
Mann-Whitney p, per-cluster busy time and time in each OPP, guest and
wall time, shortfall; and for rt-app how the energy of the runs with EAS
follows the time the root domain was overutilized in each (Pearson's r,
a least-squares line).
Configurations: those of tools/testing/vxu4/benches/bench-configs (a = EM + EAS, b =
EM without EAS, c = no EM, d = no EM and no cluster level).
Exit 0 ok; 1 the guest reported errors, a boot is incomplete or the
computed energy disagrees with the meters; 2 bad input or no runs.
"""

import csv
import functools
import json
import math
import os
import statistics
import subprocess
import sys
from typing import Any, Callable, NoReturn, Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vxu4log  # noqa: E402
import vxu4trace  # noqa: E402


def cfg_names() -> dict[str, str]:
    """make bench's configurations (tools/testing/vxu4/benches/bench-configs): their
    short names by letter; a file that cannot be read is one line, exit 2."""
    try:
        return {c.cfg: c.name for c in vxu4log.bench_configs()}
    except vxu4log.LogError as e:
        vxu4log.die(str(e))


CFG_NAMES = cfg_names()
CFGS = tuple(CFG_NAMES)
CLUSTERS = ("a15", "a7")
# The computed energy and the meters must agree this well (fraction), by
# default (--agree).
AGREE_DEFAULT = 0.01
# The changes a table gives: (x, y) for "y vs x", where both ran.
COMPARISONS = (("b", "a"), ("c", "a"), ("c", "b"), ("d", "a"))
# A table's columns: the row's name, a configuration's mean (RSD), a
# change; fixed, a longer cell shifting the rest of its row.
NAME_WIDTH, CFG_WIDTH, CHANGE_WIDTH = 24, 23, 8


# A run: its line's values by key (and the values derived from them; the
# self-checks' made-up runs hold numbers); runs by configuration; the EM's
# and the meters' idle power per cluster (kHz, uW; kHz, leakage uW, WFI uW).
Run = dict[str, Any]
By = dict[str, list[Run]]
EmTables = dict[str, list[tuple[int, int]]]
IdleTables = dict[str, list[tuple[int, int, int]]]

LOG_FIX = "run make bench again (the log is cut or garbled)"
# The keys of an "@bench" line that hold numbers (>= 0): these, and those
# with these ends (energies, _uj, whole numbers); "K:N,..." pairs: those
# that start so.
NUM_KEYS = ("iter", "groups", "loops", "tasks", "eas", "em")
NUM_ENDS = ("_ms", "_us", "_ns", "_s")
PAIR_STARTS = ("opp_", "tis_")


def die(msg: str, code: int = 2) -> NoReturn:
    print(f"bench-report: {msg}", file=sys.stderr)
    sys.exit(code)


def run_of(rec: vxu4log.Record, boot: str, errors: list[str]) -> dict[str, str]:
    """The run of an "@bench TEST run=R key=value..." line: its values by
    key (none where the guest had none: its error is on the line, and
    goes to ERRORS), each number checked (vxu4log.LogError otherwise)."""
    if not rec.words:
        raise rec.error("", "no test name (want '@bench TEST run=R ...'; the line is cut?)")
    rec.need_int("run", 1)
    if not (rec.has("guest_ms") or rec.has("wall_ms")):
        rec.need_num("guest_ms")
    for k in rec.fields:
        if k.endswith("_error"):
            errors.append(f"{boot}: run {rec.fields['run']}: {k}={rec.fields[k]}")
        elif k.startswith(PAIR_STARTS):
            rec.opt_pairs(k)
        elif k.endswith("_uj"):
            rec.opt_int(k)
        elif k.startswith("iowait_"):
            # /proc/stat's iowait may go back (its NO_HZ accounting)
            rec.opt_num(k, -math.inf)
        elif k in NUM_KEYS or k.endswith(NUM_ENDS):
            rec.opt_num(k)
    run = {"test": rec.words[0], "boot": boot}
    run.update({k: v for k, v in rec.fields.items() if v not in vxu4log.NO_VALUE})
    if run["test"] == "rtapp":
        # The case: N tasks calibrated on a cluster (older logs: a15,
        # the only calibration then).
        run["case"] = f'{rec.need_int("tasks", 1)}@{run.get("cal", "a15")}'
    return run


def read_stamps(stamps: str, runs: list[dict[str, str]]) -> None:
    """Each run's wall time (host_ms) from STAMPS, the host's time of each
    line: "EPOCH_S @bench_start run=R", "EPOCH_S @bench_end run=R"."""
    fix = "remove it to report without wall times, or run make bench again"
    if os.path.isdir(stamps):
        raise vxu4log.LogError(stamps, 0, "", "a folder, not the log's stamps file", fix)
    start: dict[int, float] = {}
    end: dict[int, tuple[float, int]] = {}
    for n, line in enumerate(vxu4log.read_lines(stamps, fix), 1):
        parts = line.split(maxsplit=2)
        if len(parts) < 2 or parts[1] not in ("@bench_start", "@bench_end"):
            continue
        try:
            t = float(parts[0])
        except ValueError:
            t = math.nan
        if not math.isfinite(t) or t < 0:
            raise vxu4log.LogError(stamps, n, f"the host's time {vxu4log.escape(parts[0])}",
                                   "want seconds >= 0 before the line", fix)
        rec = vxu4log.Record(parts[1][1:], parts[2] if len(parts) > 2 else "", stamps, n, fix)
        rid = rec.need_int("run", 1)
        if parts[1] == "@bench_start":
            start[rid] = t
        else:
            end[rid] = (t, n)
    for rid, (t, n) in end.items():
        if rid in start and t < start[rid]:
            raise vxu4log.LogError(stamps, n, f"@bench_end run={rid}",
                                   f"{t} s, before its @bench_start ({start[rid]} s)", fix)
    for r in runs:
        rid = int(r["run"])
        if rid in start and rid in end:
            r["host_ms"] = f"{(end[rid][0] - start[rid]) * 1000:.0f}"


def parse_log(log: str, boot: str, out: str) -> tuple[list[dict[str, str]], list[str],
                                                     dict[str, Any]]:
    """Runs, errors, calibration and completeness of one console log; the
    rt-app runs with their traces' keys (vxu4trace.bench_records())."""
    runs: list[dict[str, str]] = []
    errors: list[str] = []
    info: dict[str, Any] = {"boot": boot, "done": False}
    lg = vxu4log.Log(log, "give the console log of a bench boot", LOG_FIX)
    errors += [f"{boot}: {e}" for e in lg.at("bench_error")]
    for rec in lg.records("bench_calibration"):
        info.update(rec.fields)
    for rec in lg.records("bench_domains"):
        info.setdefault("domains", {})[rec.fields.get("cpu", "?")] = \
            rec.fields.get("levels", "none")
    for rec in lg.records("bench_done"):
        info["done"] = True
        info["runs_said"] = rec.opt_int("runs")
    # The rt-app runs' traces, reduced: their trace.dat files in
    # OUT_DIR/traces/BOOT-runR.dat.
    for rec in vxu4trace.bench_records(lg, os.path.join(out, "traces"), f"{boot}-run"):
        runs.append(run_of(rec, boot, errors))
    stamps = log[:-4] + ".stamps" if log.endswith(".log") else None
    if stamps and os.path.lexists(stamps):
        read_stamps(stamps, runs)
    return runs, errors, info


def load_idle(dtb: str) -> IdleTables:
    """{cluster: [(kHz, leakage uW, WFI uW a CPU), ...]} of the DTB's meters."""
    out: IdleTables = {}
    for n in range(8):
        node = f"/power-meter-{n}"
        lab = subprocess.run(["fdtget", dtb, node, "label"], capture_output=True, text=True)
        if lab.returncode:
            continue
        t = subprocess.run(["fdtget", "-t", "u", dtb, node, "idle-power-microwatt"],
                           capture_output=True, text=True)
        v = [int(x) for x in t.stdout.split()] if not t.returncode else []
        if len(v) % 3 or not v:
            die(f"{dtb}: {node} has no idle-power-microwatt triplets: build it with 'make vxu4'")
        out[lab.stdout.strip()] = [(v[i], v[i + 1], v[i + 2]) for i in range(0, len(v), 3)]
    if set(out) != set(CLUSTERS):
        die(f"{dtb}: want meters labelled {', '.join(CLUSTERS)}, got {sorted(out)} "
            "(is fdtget, of device-tree-compiler, installed?)")
    return out


def idle_at(table: list[tuple[int, int, int]], khz: int) -> tuple[int, int]:
    """(leakage, WFI) of the lowest OPP at or above khz, uW (the meter's rule)."""
    for f, leak, wfi in table:
        if f >= khz:
            return leak, wfi
    return table[-1][1], table[-1][2]


def em_power(table: list[tuple[int, int]], khz: int) -> int:
    """The meter's rule: power of the lowest state at or above khz, uW."""
    for f, p in table:
        if f >= khz:
            return p
    return table[-1][1]


def pairs(s: str | None) -> dict[int, int]:
    """'f:n,f:n' -> {int f: int n}."""
    out: dict[int, int] = {}
    for p in (s or "").split(","):
        if ":" in p:
            f, n = p.split(":")
            out[int(f)] = out.get(int(f), 0) + int(float(n))
    return out


def num(r: Run, k: str) -> float | None:
    v = r.get(k)
    if v is None:
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def derive(r: Run, em: EmTables | None, idle: IdleTables | None, ncpus: int = 4) -> None:
    """Add the computed energy and the per-cluster sums to a run."""
    for cl in CLUSTERS:
        opp = pairs(r.get(f"opp_busy_{cl}_us"))
        if em and f"opp_busy_{cl}_us" in r:
            # uW * us = pJ; / 1e6 = uJ
            r[f"energy_em_{cl}_uj"] = f"{sum(em_power(em[cl], f) * us for f, us in opp.items() if f) / 1e6:.0f}"
            r[f"busy_trace_{cl}_ms"] = f"{sum(opp.values()) / 1000:.1f}"
        cpu = pairs(r.get(f"opp_cpu_{cl}_us"))
        if idle and cpu and f"energy_em_{cl}_uj" in r:
            # CPU time at each OPP: each CPU pays its WFI power, the
            # cluster (CPU time / its CPUs) its leakage.
            wfi = sum(idle_at(idle[cl], f)[1] * us for f, us in cpu.items() if f) / 1e6
            leak = sum(idle_at(idle[cl], f)[0] * us / ncpus for f, us in cpu.items() if f) / 1e6
            r[f"energy_wfi_{cl}_uj"] = f"{wfi:.0f}"
            r[f"energy_leak_{cl}_uj"] = f"{leak:.0f}"
            r[f"energy_model_{cl}_uj"] = f"{int(r[f'energy_em_{cl}_uj']) + wfi + leak:.0f}"
    for k in ("em", "wfi", "leak", "model"):
        if all(f"energy_{k}_{c}_uj" in r for c in CLUSTERS):
            r[f"energy_{k}_uj"] = str(sum(int(r[f"energy_{k}_{c}_uj"]) for c in CLUSTERS))
    if all(f"energy_{c}_uj" in r for c in CLUSTERS):
        r["energy_meter_uj"] = str(sum(int(r[f"energy_{c}_uj"]) for c in CLUSTERS))
    g, h = num(r, "guest_ms") or num(r, "wall_ms"), num(r, "host_ms")
    if g is not None:
        r["guest_ms"] = f"{g:.0f}"
    if g and h is not None:
        r["host_per_guest_s"] = f"{h / g:.3f}"
    sf = [v for v in (num(r, f"shortfall_{c}_us") for c in CLUSTERS) if v is not None]
    if len(sf) == len(CLUSTERS):
        r["shortfall_us"] = f"{sum(sf):.0f}"


def change(ref: float, new: float) -> float:
    return (new - ref) / ref * 100 if ref else float("nan")


class Comparison:
    """The configurations compared, metric by metric: for each row its
    mean (RSD) per configuration and its changes between them, as cells
    of a vxu4log.table and in summary (for summary.json)."""

    def __init__(self, title: str, cfgs: list[str], by: By) -> None:
        self.title, self.cfgs, self.by = title, cfgs, by
        self.comps = [(x, y) for x, y in COMPARISONS if x in cfgs and y in cfgs]
        self.rows: list[list[str]] = []
        self.summary: dict[str, Any] = {}

    def row(self, name: str, key: Callable[[Run], float | None], scale: float, unit: str,
            fmt: str = "{:10.3f}") -> None:
        vals: dict[str, list[float]] = {}
        for c in self.cfgs:
            v = [key(r) for r in self.by[c]]
            got = [x for x in v if x is not None]
            if not v or len(got) != len(v):
                continue
            vals[c] = [x * scale for x in got]
        if not vals:
            return
        cells = [name]
        s: dict[str, Any] = {"unit": unit}
        means: dict[str, float] = {}
        for c in self.cfgs:
            if c not in vals:
                cells.append("-")
                continue
            m, rsd = vxu4log.mean_rsd(vals[c])
            means[c] = m
            cells.append(f"{fmt.format(m)} {unit:3} ({rsd:5.2f}%)")
            s[c] = {"mean": m, "rsd_percent": rsd, "n": len(vals[c])}
        for x, y in self.comps:
            if x in means and y in means and means[x]:
                ch = change(means[x], means[y])
                cells.append(f"{ch:+7.1f}%")
                s[f"change_{y}_vs_{x}_percent"] = ch
            else:
                cells.append("-")
        self.rows.append(cells)
        self.summary[name] = s

    def text(self, extra: Sequence[str] = ()) -> str:
        """The title, the table (indented by 2), then the lines EXTRA."""
        head = ["", *(f"{c} {CFG_NAMES[c]}" for c in self.cfgs),
                *(f"{y} vs {x}" for x, y in self.comps)]
        lines = vxu4log.table(
            head, self.rows, sep=" ", align="<" + ">" * (len(head) - 1),
            widths=[NAME_WIDTH] + [CFG_WIDTH] * len(self.cfgs) + [CHANGE_WIDTH] * len(self.comps))
        return "\n".join([self.title] + ["  " + line for line in lines] + list(extra))


def opp_seconds(runs: list[Run], key: str) -> dict[int, float]:
    """Mean seconds per OPP (kHz) of a 'f:n,...' key over runs; n in ms, or
    in us for keys ending in _us."""
    total: dict[int, int] = {}
    div = 1e6 if key.endswith("_us") else 1e3
    for r in runs:
        for f, n in pairs(r.get(key)).items():
            total[f] = total.get(f, 0) + n
    return {f: n / div / len(runs) for f, n in sorted(total.items()) if f}


def opp_lines(cfgs: list[str], by: By, key: str, label: str, summary: dict[str, Any],
              name: str) -> list[str]:
    per = {c: opp_seconds(by[c], key) for c in cfgs if by[c] and all(key in r for r in by[c])}
    if not per:
        return []
    freqs = sorted({f for p in per.values() for f, s in p.items() if s >= 0.005})
    used = [c for c in cfgs if c in per]
    out = [f"  {label} (s, mean a run; {' / '.join(used)}):"]
    line = "   "
    for f in freqs:
        cell = f" {f // 1000}MHz " + "/".join(f"{per[c].get(f, 0):.2f}" for c in used)
        if len(line) + len(cell) > 100:
            out.append(line)
            line = "   "
        line += cell
    out.append(line)
    summary[name] = {c: per[c] for c in used}
    return out


def common_rows(t: "Comparison") -> None:
    """Guest and wall time, emulation counters: rows both tests share."""
    t.row("guest time", lambda r: num(r, "guest_ms"), 1e-3, "s")
    t.row("wall time (host)", lambda r: num(r, "host_ms"), 1e-3, "s")
    t.row("wall s / guest s", lambda r: num(r, "host_per_guest_s"), 1, "")
    t.row("shortfall a15", lambda r: num(r, "shortfall_a15_us"), 1e-3, "ms")
    t.row("shortfall a7", lambda r: num(r, "shortfall_a7_us"), 1e-3, "ms")

    def paid(r: Run, c: str) -> float | None:
        s, o = num(r, f"stall_{c}_us"), num(r, f"owed_{c}_us")
        return s / o if s is not None and o else None
    for c in CLUSTERS:
        if any(num(r, f"owed_{c}_us") for rs in t.by.values() for r in rs):
            t.row(f"stall paid / owed {c}", functools.partial(paid, c=c), 100, "%")


CAL_NAMES = {"a15": "of an A15 at its top OPP (2 GHz; LISA's and our convention)",
             "a7": "of an A7 at its top OPP (1.4 GHz; rt-app's default calibration on CPU0)"}


def case_key(case: str) -> tuple[bool, int]:
    """Sort rt-app cases: a15-calibrated first, then by task count, descending."""
    n, cal = case.split("@")
    return (cal != "a15", -int(n))


def significance(t: "Comparison", key: str, label: str) -> list[str]:
    """One line: the two-sided Mann-Whitney p (vxu4log.mann_whitney) of
    each change of KEY in table T, over its runs; [] with fewer than 2 runs
    a configuration."""
    parts = []
    for x, y in t.comps:
        a = [v for v in (num(r, key) for r in t.by[x]) if v is not None]
        b = [v for v in (num(r, key) for r in t.by[y]) if v is not None]
        if len(a) < 2 or len(b) < 2 or len(a) + len(b) < len(t.by[x]) + len(t.by[y]):
            continue
        p = vxu4log.mann_whitney(b, a)
        parts.append(f"{y} vs {x} {p:.3f}")
        t.summary.setdefault(label, {})[f"p_{y}_vs_{x}"] = p
    return [f"  {label}, Mann-Whitney p of each change: " + ", ".join(parts)] if parts else []


def energy_vs_overutilized(t: "Comparison", key: str, label: str) -> list[str]:
    """One line: how the energy (KEY, uJ) of the EAS runs of table T
    follows the time the root domain was overutilized in each: Pearson's
    r and the least-squares line (watts per overutilized second, joules
    at none; statistics.correlation, statistics.linear_regression), with
    EAS off's mean energy beside it. [] without 3 EAS runs that differ in
    both."""
    raw = [(num(r, "overutilized_us"), num(r, key)) for r in t.by.get("a", [])
           if r.get("eas") == "1"]
    pts = [(x / 1e6, y / 1e6) for x, y in raw if x is not None and y is not None]
    if len(pts) < 3 or len({x for x, _ in pts}) < 2 or len({y for _, y in pts}) < 2:
        return []
    xs, ys = [x for x, _ in pts], [y for _, y in pts]
    r = statistics.correlation(xs, ys)
    fit = statistics.linear_regression(xs, ys)
    s: dict[str, float] = {"runs": len(pts), "pearson_r": r,
                           "watts_per_overutilized_s": fit.slope, "joules_at_none": fit.intercept}
    off = [num(x, key) for x in t.by.get("b", [])]
    offv = [v for v in off if v is not None]
    b_text = ""
    if off and len(offv) == len(off):
        s["joules_eas_off_mean"] = statistics.mean(offv) / 1e6
        b_text = f" (EAS off: {s['joules_eas_off_mean']:.3f} J)"
    t.summary[f"{label} vs overutilized time"] = s
    return [f"  {label} of the {len(pts)} EAS runs against their overutilized time: "
            f"Pearson r {r:+.2f}; least squares {fit.slope:.2f} W an overutilized s, "
            f"{fit.intercept:.3f} J at none{b_text}"]


def self_checks() -> list[tuple[bool, str, list[str]]]:
    """(ok, description, details) of the report's own statistics, on runs
    made up so that the answers are known: energy on an exact line of the
    overutilized time, two samples whose Mann-Whitney p is known, and a
    table whose text is known."""
    def runs(cfg: str, points: Sequence[tuple[float, float]]) -> list[Run]:
        return [{"cfg": cfg, "eas": "1" if cfg == "a" else "0", "overutilized_us": o,
                 "energy_model_uj": e} for o, e in points]

    out = []
    # 2 J plus 1.5 W for each overutilized second, 0 to 0.9 s.
    by = {"a": runs("a", [(i * 100000, 2e6 + 1.5 * i * 100000) for i in range(10)]),
          "b": runs("b", [(0, 3e6 + i) for i in range(10)])}
    t = Comparison("self-check", ["a", "b"], by)
    lines = energy_vs_overutilized(t, "energy_model_uj", "energy")
    s = t.summary.get("energy vs overutilized time", {})
    out.append((bool(lines) and abs(s.get("pearson_r", 0) - 1) < 1e-9
                and abs(s.get("watts_per_overutilized_s", 0) - 1.5) < 1e-9
                and abs(s.get("joules_at_none", 0) - 2) < 1e-9,
                "energy vs overutilized time: r 1, 1.5 W an overutilized s, 2 J at none "
                "on energy made up as 2 J + 1.5 W x overutilized time", lines))
    # Unrelated to it: no line is drawn through a constant overutilized time.
    by["a"] = runs("a", [(5000, 2e6 + i) for i in range(10)])
    lines = energy_vs_overutilized(Comparison("self-check", ["a", "b"], by), "energy_model_uj",
                                   "energy")
    out.append((lines == [], "energy vs overutilized time: nothing when every run had the same",
                lines))
    # vxu4log.mann_whitney's documented case: 1..10 against 4..13, p 0.058.
    by = {"a": runs("a", [(0, v) for v in range(4, 14)]),
          "b": runs("b", [(0, v) for v in range(1, 11)])}
    t = Comparison("self-check", ["a", "b"], by)
    lines = significance(t, "energy_model_uj", "energy")
    p = t.summary.get("energy", {}).get("p_a_vs_b")
    out.append((p is not None and abs(p - 0.058) < 0.001,
                "Mann-Whitney p of a change: 0.058 for 1..10 against 4..13", lines))
    # The layout: columns of fixed widths, the values right-aligned, a
    # name longer than its column shifting only its own row.
    by = {"a": runs("a", [(0, 1e6), (0, 3e6)]), "b": runs("b", [(0, 4e6), (0, 4e6)])}
    t = Comparison("layout", ["a", "b"], by)
    t.row("energy", lambda r: num(r, "energy_model_uj"), 1e-6, "J")
    t.row("a name beyond its column, 33 ch", lambda r: num(r, "energy_model_uj"), 1e-6, "J")
    t.row("b only", lambda r: num(r, "energy_model_uj") if r["cfg"] == "b" else None, 1e-6, "J")
    want = ["layout",
            "                                          a EM+EAS           b EM, EAS off   a vs b",
            "  energy                        2.000 J   (70.71%)      4.000 J   ( 0.00%)   -50.0%",
            "  a name beyond its column, 33 ch      2.000 J   (70.71%)      4.000 J   ( 0.00%)   -50.0%",
            "  b only                                         -      4.000 J   ( 0.00%)        -"]
    got = t.text().split("\n")
    out.append((got == want, "a table's layout: fixed columns, an overlong name shifting its row",
                [] if got == want else ["got:"] + got + ["want:"] + want))
    return out


def table_rtapp(runs: list[Run], case: str, cfgs: list[str],
                em: EmTables | None) -> tuple[str | None, dict[str, Any]]:
    n, cal = case.split("@")
    sel = [r for r in runs if r["test"] == "rtapp" and r.get("case") == case]
    by = {c: [r for r in sel if r.get("cfg") == c] for c in cfgs}
    cfgs = [c for c in cfgs if by[c]]
    if not cfgs:
        return None, {}
    dur = statistics.mean(num(r, "guest_ms") or 0 for r in sel) / 1000
    iters = min(len(by[c]) for c in cfgs)
    t = Comparison(f"rt-app: {n} periodic tasks, 16 ms period, 10% duty {CAL_NAMES.get(cal, cal)}, "
                   f"{dur:.1f} s a run, "
                   f"{iters} iterations; energy = EM power (eas-em, board DTB) x busy time "
                   "per OPP (trace)", cfgs, by)
    if em:
        t.row("energy, power model", lambda r: num(r, "energy_model_uj"), 1e-6, "J")
        t.row("  a15", lambda r: num(r, "energy_model_a15_uj"), 1e-6, "J")
        t.row("  a7", lambda r: num(r, "energy_model_a7_uj"), 1e-6, "J")
        t.row("  dynamic (EM)", lambda r: num(r, "energy_em_uj"), 1e-6, "J")
        t.row("  WFI", lambda r: num(r, "energy_wfi_uj"), 1e-6, "J")
        t.row("  leakage", lambda r: num(r, "energy_leak_uj"), 1e-6, "J")
        t.row("energy, EM only", lambda r: num(r, "energy_em_uj"), 1e-6, "J")
        t.row("  a15", lambda r: num(r, "energy_em_a15_uj"), 1e-6, "J")
        t.row("  a7", lambda r: num(r, "energy_em_a7_uj"), 1e-6, "J")
    t.row("meters total", lambda r: num(r, "energy_meter_uj") if r.get("em") == "1" else None,
          1e-6, "J")
    t.row("busy a15 (trace)", lambda r: num(r, "busy_trace_a15_ms"), 1e-3, "s")
    t.row("busy a7 (trace)", lambda r: num(r, "busy_trace_a7_ms"), 1e-3, "s")
    t.row("busy a15 (/proc/stat)", lambda r: num(r, "busy_a15_ms"), 1e-3, "s")
    t.row("busy a7 (/proc/stat)", lambda r: num(r, "busy_a7_ms"), 1e-3, "s")
    split_rows(t)
    t.row("iowait a15 (/proc/stat)", lambda r: num(r, "iowait_a15_ms"), 1e-3, "s")
    t.row("iowait a7 (/proc/stat)", lambda r: num(r, "iowait_a7_ms"), 1e-3, "s")
    # EAS's own view: while the root domain is overutilized it places no
    # task (sched_eas trace events; none where EAS does not run).
    t.row("overutilized (trace)", lambda r: num(r, "overutilized_us")
          if r.get("eas") == "1" else None, 1e-6, "s")
    t.row("  unknown (before its first event)", lambda r: num(r, "overutilized_unknown_us")
          if r.get("eas") == "1" else None, 1e-6, "s")
    common_rows(t)
    extra = []
    if em:
        extra += significance(t, "energy_model_uj", "energy, power model")
        extra += significance(t, "energy_em_uj", "energy, EM only")
        extra += energy_vs_overutilized(t, "energy_model_uj", "energy, power model")
        extra += energy_vs_overutilized(t, "energy_em_uj", "energy, EM only")
    for cl, pol in (("a15", "tis_policy4"), ("a7", "tis_policy0")):
        extra += opp_lines(cfgs, by, pol, f"time in OPP, {cl}", t.summary, f"time_in_opp_{cl}_s")
        extra += opp_lines(cfgs, by, f"opp_busy_{cl}_us", f"busy time at each OPP, {cl}",
                           t.summary, f"busy_at_opp_{cl}_s")
    return t.text(extra), t.summary


def split_rows(t: "Comparison") -> None:
    """Busy time of both clusters split as /proc/stat splits it: user
    (and nice), system, interrupts (hard and soft): the kernel's share of
    the work. The CPU speed emulation's stall, the time a task's work
    takes beyond its instructions at the CPU's speed, is paid in the
    kernel in the task's context, so /proc/stat counts it as system time:
    the rows after those give user with the stall and system without it
    (the stall exact, the split sampled by 10 ms ticks)."""
    def both(r: Run, k: str, unit: str = "ms") -> float | None:
        a, b = num(r, f"{k}_a7_{unit}"), num(r, f"{k}_a15_{unit}")
        return None if a is None or b is None else a + b

    def stall(r: Run) -> float | None:
        v = both(r, "stall", "us")
        return None if v is None else v / 1000

    def plus(a: float | None, b: float | None, sign: int = 1) -> float | None:
        return None if a is None or b is None else a + sign * b

    for part, key in (("user", "user"), ("system", "sys"), ("irq", "irq")):
        t.row(f"  {part}, both clusters", functools.partial(both, k=key), 1e-3, "s")
    t.row("  user + emulation stall", lambda r: plus(both(r, "user"), stall(r)),
          1e-3, "s")
    t.row("  system - emulation stall", lambda r: plus(both(r, "sys"), stall(r), -1),
          1e-3, "s")


def table_hackbench(runs: list[Run], cfgs: list[str]) -> tuple[str | None, dict[str, Any]]:
    sel = [r for r in runs if r["test"] == "hackbench"]
    by = {c: [r for r in sel if r.get("cfg") == c] for c in cfgs}
    cfgs = [c for c in cfgs if by[c]]
    if not cfgs:
        return None, {}
    groups, loops = sel[0].get("groups", "10"), sel[0].get("loops", "?")
    t = Comparison(f"hackbench -g {groups} -l {loops} -s 4096: "
                   f"{min(len(by[c]) for c in cfgs)} iterations (time: guest time of the run)",
                   cfgs, by)
    t.row("time", lambda r: num(r, "guest_ms"), 1e-3, "s")
    t.row("hackbench's own time", lambda r: num(r, "reported_s"), 1, "s")
    t.row("meters total", lambda r: num(r, "energy_meter_uj") if r.get("em") == "1" else None,
          1e-6, "J")
    t.row("busy a15 (/proc/stat)", lambda r: num(r, "busy_a15_ms"), 1e-3, "s")
    t.row("busy a7 (/proc/stat)", lambda r: num(r, "busy_a7_ms"), 1e-3, "s")
    split_rows(t)
    common_rows(t)
    t.summary["groups"], t.summary["loops"] = groups, loops
    return t.text(), t.summary


def agreement(runs: list[Run], models: dict[str, str]) -> list[tuple[float, float, Run]]:
    """Computed energy against the meters, per run with an EM: the power
    model's, or the EM's dynamic energy where the meters ran model=em."""
    diffs = []
    for r in runs:
        key = "energy_em_uj" if models.get(r["boot"]) == "em" else "energy_model_uj"
        e, m = num(r, key), num(r, "energy_meter_uj")
        if r.get("em") == "1" and e is not None and m:
            d = (e - m) / m
            r["em_vs_meter_percent"] = f"{d * 100:.3f}"
            diffs.append((abs(d), d, r))
    return diffs


def plot(runs: list[Run], cfgs: list[str], out: str) -> bool:
    colour = {"a": "0x3050c0", "b": "0xc03030", "c": "0x30a040", "d": "0x909090"}
    off = {c: (i - (len(cfgs) - 1) / 2) * 0.25 for i, c in enumerate(cfgs)}
    cases = sorted({r["case"] for r in runs if r["test"] == "rtapp"}, key=case_key)
    dat = os.path.join(out, "plot.dat")
    rt, hb = [], []
    for i, n in enumerate(cases):
        for r in runs:
            e = num(r, "energy_model_uj") or num(r, "energy_em_uj")
            if r["test"] == "rtapp" and r["case"] == n and e is not None and r.get("cfg") in off:
                rt.append(f"{2 * i + off[r['cfg']]} {e / 1e6} {colour[r['cfg']]}")
    for r in runs:
        g = num(r, "guest_ms")
        if r["test"] == "hackbench" and r.get("cfg") in off and g is not None:
            hb.append(f"{off[r['cfg']]} {g / 1000} {colour[r['cfg']]}")
    # One panel per kind of run that has points (HB_LOOPS=0: no hackbench).
    with open(dat, "w") as f:
        f.write("\n".join(rt) + "\n\n\n" + "\n".join(hb) + "\n")
    xt = ", ".join(f'"{n.replace("@", " tasks @")}" {2 * i}' for i, n in enumerate(cases)) or '"" 0'
    names = {"a": "blue", "b": "red", "c": "green", "d": "grey"}
    legend = ", ".join(f"{c} = {CFG_NAMES[c]} ({names[c]})" for c in CFGS if c in cfgs)
    panels = []
    if rt:
        panels.append(f"""set title 'rt-app energy (J, power model: EM dynamic + WFI + leakage x time per OPP)'
set xtics ({xt})
set xrange [-1:{max(1, 2 * len(cases) - 1)}]
set grid ytics
plot '{dat}' index 0 using 1:2:3 with points pt 7 ps 1.2 lc rgb variable notitle""")
    if hb:
        panels.append(f"""set title 'hackbench time (guest s)'
set xtics ("hackbench" 0)
set xrange [-1:1]
set grid ytics
plot '{dat}' index 1 using 1:2:3 with points pt 7 ps 1.2 lc rgb variable notitle""")
    if not panels:
        print("bench-report: no run to plot", file=sys.stderr)
        return False
    body = "\n".join(panels)
    script = f"""
set terminal pngcairo size 1000,420 noenhanced
set output '{os.path.join(out, "bench.png")}'
set multiplot layout 1,{len(panels)} title 'virtual Odroid-XU4, each point one run: {legend}'
{body}
unset multiplot
"""
    return vxu4log.gnuplot(script, "bench-report")


def agreement_report(diffs: list[tuple[float, float, Run]],
                     limit: float) -> tuple[str, dict[str, Any], str | None]:
    """The line on the computed energy against the meters (DIFFS, of
    agreement()), its summary, and the error if the worst run is beyond
    LIMIT (a fraction), else None."""
    worst = max(diffs, key=lambda d: d[0])
    mean = statistics.mean(d[1] for d in diffs) * 100
    line = (f"computed energy vs the meters ({len(diffs)} runs with an EM): mean {mean:+.2f}%, "
            f"worst {worst[1] * 100:+.2f}% (run {worst[2]['boot']}/{worst[2].get('run')}); "
            f"limit {limit * 100:.0f}%")
    summary = {"runs": len(diffs), "mean_percent": mean, "worst_percent": worst[1] * 100,
               "limit_percent": limit * 100}
    error = None
    if worst[0] > limit:
        error = (f"the energy computed from the trace and the EM differs from the "
                 f"meters by {worst[1] * 100:+.2f}% in run {worst[2]['boot']}/"
                 f"{worst[2].get('run')} (limit {limit * 100:g}%): the computed "
                 "energy, the only one configuration c has, is off by that much")
    return line, summary, error


def main() -> int:
    if sys.argv[1:] == ["--self-check"]:
        checks = self_checks()
        for ok, desc, details in checks:
            print(f"{'ok' if ok else 'not ok'} {desc}")
            for d in details:
                print(f"# {d}")
        return 0 if all(ok for ok, _, _ in checks) else 1
    out, logs, opts = vxu4log.report_args(__doc__, options=("em", "idle", "agree"), logs="+",
                                          create=True)
    agree = AGREE_DEFAULT
    if opts["agree"] is not None:
        try:
            agree = float(opts["agree"]) / 100
        except ValueError:
            agree = math.nan
        if not math.isfinite(agree) or agree < 0:
            die(f"--agree {opts['agree']}: want a percentage >= 0, e.g. 1")
    em = vxu4log.em_clusters(opts["em"]) if opts["em"] else None
    idle = load_idle(opts["idle"]) if opts["idle"] else None

    runs: list[Run] = []
    errors: list[str] = []
    boots: list[dict[str, Any]] = []
    for log in logs:
        boot = os.path.basename(log)
        boot = boot[:-4] if boot.endswith(".log") else boot
        rs, errs, info = parse_log(log, boot, out)
        runs += rs
        errors += errs
        boots.append(info)
    if not runs:
        die(f"{', '.join(logs)}: no '@bench' lines: the benchmark did not run")
    for b in boots:
        if not b["done"]:
            errors.append(f"{b['boot']}: no '@bench_done' line: the boot ended early "
                          "(time limit? crash?): its runs are incomplete")
        elif b.get("runs_said") is not None and \
                b["runs_said"] != sum(1 for r in runs if r["boot"] == b["boot"]):
            errors.append(f"{b['boot']}: the guest ran {b['runs_said']} runs, the log holds "
                          f"{sum(1 for r in runs if r['boot'] == b['boot'])}")
    for cl in ("a15", "a7"):
        pl = {b["boot"]: b.get(f"pload_{cl}_ns", b.get("pload_ns") if cl == "a15" else None)
              for b in boots}
        plv = [int(v) for v in pl.values() if v and v.isdigit()]
        if plv and (max(plv) - min(plv)) > 0.005 * min(plv):
            print(f"bench-report: note: rt-app calibrated differently per boot on {cl}: {pl} "
                  "(ns per loop; the tasks' work differs by that much)", file=sys.stderr)
    for r in runs:
        derive(r, em, idle)
    models = {b["boot"]: b.get("meter_model", "em") for b in boots}
    diffs = agreement(runs, models)

    os.makedirs(out, exist_ok=True)
    keys = sorted({k for r in runs for k in r}, key=lambda k: (k not in ("test", "boot", "run"), k))
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(runs)

    cfgs = [c for c in CFGS if any(r.get("cfg") == c for r in runs)]
    # Logs of an older guest bench: no cfg, only eas=1/0.
    if not cfgs:
        for r in runs:
            r["cfg"] = "a" if r.get("eas") == "1" else "b"
        cfgs = [c for c in ("a", "b") if any(r["cfg"] == c for r in runs)]
    summary: dict[str, Any] = {"configurations": {c: CFG_NAMES[c] for c in cfgs},
                               "boots": boots, "rtapp": {}}
    print()
    print("configurations: " + ", ".join(f"{c} = {CFG_NAMES[c]}" for c in cfgs)
          + "; 'x vs y' is the change of x from y; RSD in parentheses")
    # Each boot's sched domain levels, as its guest found them.
    for b in boots:
        dom = b.get("domains")
        if dom:
            levels = sorted({v for v in dom.values()})
            print(f"sched domains of boot {b['boot']} ({b.get('cfgs', '?')}): "
                  + "; ".join(f"{lv} (cpus {','.join(sorted((c for c, v in dom.items() if v == lv), key=int))})"
                              for lv in levels))
    print()
    for n in sorted({r["case"] for r in runs if r["test"] == "rtapp"}, key=case_key):
        text, s = table_rtapp(runs, n, cfgs, em)
        if text:
            print(text + "\n")
            summary["rtapp"][n] = s
    text, s = table_hackbench(runs, cfgs)
    if text:
        print(text + "\n")
        summary["hackbench"] = s
    if diffs:
        line, summary["energy_computed_vs_meters"], error = agreement_report(diffs, agree)
        print(line)
        if error:
            errors.append(error)
    elif em and "c" in cfgs:
        errors.append("no run with an EM to check the computed energy against the meters")
    walls = [w for w in (num(r, "host_ms") for r in runs) if w is not None]
    if walls:
        print(f"wall time of the runs: {sum(walls) / 1000:.0f} s over "
              f"{len(walls)} runs")
    summary["errors"] = errors
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=2)
    plotted = plot(runs, cfgs, out)
    print(f"raw runs: {out}/runs.csv, summary: {out}/summary.json"
          + (f", plot: {out}/bench.png" if plotted else ""))
    for e in errors:
        print(f"bench-report: {e}", file=sys.stderr)
    if errors:
        print(f"bench-report: {len(errors)} error(s): the tables above are not the whole "
              "result", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    vxu4log.guard(main)
