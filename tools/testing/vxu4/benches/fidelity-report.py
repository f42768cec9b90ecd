#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The virtual XU4's probes against the boards' published figures, and the
cost model's weights fitted to them.

Usage: fidelity-report.py [--fit LOG] [--prior WEIGHTS] [--lambda L] OUT_DIR LOG...

Each LOG is the console of one boot of vxu4.mode=fidelity
(tools/testing/vxu4/benches/fidelity.sh). For each, the report gives every probe
on the A7 (cpu0, 1.4 GHz) and the A15 (cpu4, 2 GHz): the guest's time a
operation (median over the repetitions, and their spread), the board's
figure at the XU4's clock (a published figure of another board with the
same core is taken in cycles, then timed at the XU4's rate; the XU4's own
figures as they are), and their ratio.

--fit LOG fits the cost model's weights (tools/testing/vxu4/board/cycle-weights
form, starting from --prior, default that file) to the boards' kernel-path
figures from LOG's instruction class counts (any boot's: the counts do not
depend on what the time counts), per core type: least squares of the
relative errors, with a ridge (weight L, default 0.05) that keeps each
weight near its prior where the probes do not constrain it, and no weight
below 0.1 cycle. The report gives each probe's modelled cycles against
the board's, the fit's residuals, and a leave-one-out check (each probe
predicted by the weights fitted without it). The memory probes (memcpy,
lat-16m; the L1 pointer chase is shown only) are fitted only where LOG
has the cache model's memory event counts (a boot with
VXU4_COST=cycles-cache): without them a weight per load cannot be both an L1 hit and a DRAM access, and the memory
events' weights stay at their priors. The weights are written to
OUT_DIR/cycle-weights. A second fit keeps the priors' proportions and
fits one factor each for the user-mode classes, the kernel's and each
memory event (5 unknowns a core type instead of 38). Its weights are in
OUT_DIR/cycle-weights-grouped. Both fit each probe's counts as counted
where LOG's header says they leave the CPU speed emulation's own code
out (own=Y), which it charges as no work (vxu4-probe's overhead_ns);
where not (an older kernel or plugin), the grouped fit scales each
probe's counts to the cycles the guest charged it (its time at its
clock, over the cycles its counts make at --prior, the weights LOG
booted with). The tables give that ratio ("charged/counted"): about 1
where the counts are of the work charged.

Writes OUT_DIR/report.txt (also printed) and OUT_DIR/summary.json.
Exit: 0, 2 for bad input (a log with no probe line, an unreadable file).
"""

import json
import math
import os
import statistics
import sys
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vxu4log  # noqa: E402
from board_figures import (BOARD, HACKBENCH_XU3_LOOPS, HACKBENCH_XU3_S,  # noqa: E402
                           board_cycles, board_ns)

CLASSES = ["other", "load", "store", "ldm", "stm", "branch", "mul", "div",
           "simd", "barrier", "excl", "sysreg", "maint", "ctxsw", "eret", "entry"]
EVENTS = ["l2", "dram", "stream"]   # the cache model's memory events
MODES = ["user", "kernel"]
CORES = {"a7": 0, "a15": 4}          # core type: the CPU its probes run on
NCLASSES = 2 * len(CLASSES)
NCOUNTS = NCLASSES + 2 * len(EVENTS)  # classes, then events, each user then kernel
NAMES = CLASSES + EVENTS

# The probes the fit uses: one process's kernel paths, whose time is its
# instructions' and memory events' cycles. Left out, shown only: the
# probes of two processes (fork, pipe, ctx, ub-ctx), run as the boards ran
# them (vxu4-fidelity: a cluster's CPUs, not pinned) but timed with their
# wakeups, idle and cross-CPU waits, which no weight a class stands for.
# fork takes its counted cycles (1.10-1.15 of them), but its counts make
# half the boards' figures: fitted with the others, it stays 43-47% under
# them and pulls null to +17-20% (A15; fidelity boot 20261207-211824).
FIT = {"a15": ["null", "read", "write", "sigcatch", "pagefault", "aes"],
       "a7": ["ub-syscall", "ub-pipe", "aes"]}
# And, where the counts have the memory events, the memory probes. The
# 4 KiB pointer chase is shown, not fitted: each of its loads waits for
# the one before (the load-use latency, 3 and 4 cycles), where the loads
# of ordinary code (AES's table lookups, memcpy's) overlap, and one weight
# a class cannot be both; fitted, it pulls the user-mode weights of both
# cores to the latency and AES 13-15% off its board figure.
FIT_MEMORY = ["memcpy", "lat-16m"]
MIN_WEIGHT = 0.1


@dataclass(frozen=True)
class Probe:
    """A probe line: its name, CPU, clock (kHz), guest ns an operation,
    operations, and its class counts on each core type (None: "none");
    events: whether they have the memory events."""

    name: str
    cpu: int
    khz: int
    ns: float
    ops: int
    a7: Optional[List[float]]
    a15: Optional[List[float]]
    events: bool

    def counts(self, core: str) -> Optional[List[float]]:
        """The counts of CORE's CPUs."""
        return self.a7 if core == "a7" else self.a15


# The CPU speed emulation's counters on a hackbench line (ns, summed over
# the CPUs, their growth over the run), in the order the report gives them.
HB_COUNTERS = ["owed_ns", "kernel_owed_ns", "stall_ns", "dropped_ns", "shortfall_ns"]


@dataclass(frozen=True)
class Hackbench:
    """A hackbench line: its own time (s), and the speed emulation's
    counters over the run (HB_COUNTERS, ns), empty where it had none."""

    time_s: float
    counters: Dict[str, float]


def counts(rec: vxu4log.Record, key: str) -> Tuple[Optional[List[float]], bool]:
    """A probe line's counts (NCOUNTS numbers: the classes', then the
    memory events', zero where the boot had no cache model), None for
    "none"; and whether the line had the memory events."""
    if not rec.has(key):
        return None, False
    try:
        c = [float(x) for x in rec.fields[key].split(",")]
    except ValueError:
        c = []
    if len(c) not in (NCLASSES, NCOUNTS) or not all(math.isfinite(x) and x >= 0 for x in c):
        raise rec.error(key, f"want {NCLASSES} or {NCOUNTS} comma-separated numbers >= 0")
    return c + [0.0] * (NCOUNTS - len(c)), len(c) == NCOUNTS


def index_name(i: int) -> Tuple[str, str]:
    """The mode and the class or event of weight I."""
    if i < NCLASSES:
        return MODES[i // len(CLASSES)], CLASSES[i % len(CLASSES)]
    i -= NCLASSES
    return MODES[i // len(EVENTS)], EVENTS[i % len(EVENTS)]


def index_of(mode: str, name: str) -> int:
    """The weight of NAME (a class or an event) in MODE."""
    if name in CLASSES:
        return MODES.index(mode) * len(CLASSES) + CLASSES.index(name)
    return NCLASSES + MODES.index(mode) * len(EVENTS) + EVENTS.index(name)


FIX = "run make fidelity again (the log is cut or garbled)"


def read_log(log: str, make: str = "make fidelity"
             ) -> Tuple[Dict[str, str], List[Probe], Dict[int, List[Hackbench]]]:
    """LOG's header, probes and hackbench's lines for each loop count (one
    a repetition, in the log's order); a missing LOG is to be made by MAKE.
    A log of hackbench alone (make fidelity ONLY=hackbench) has no probes."""
    lg = vxu4log.Log(log, f"boot it first ({make})", FIX)
    heads = lg.records("fid")
    if not heads:
        raise vxu4log.LogError(log, 0, "", "no @fid line: not a fidelity boot's console, "
                               "or cut before it", FIX)
    if not lg.records("fid_done"):
        raise vxu4log.LogError(log, 0, "", "no @fid_done line: the boot was cut short", FIX)
    probes: List[Probe] = []
    for rec in lg.records("fid_probe"):
        name = rec.need_str("name", list(BOARD) + ["pipe"])
        # A context switch is a difference of two times: it may come out
        # below 0 where the switch costs less than the spread.
        ns = rec.need_num("ns_per_op", -math.inf if name == "ctx" else 0)
        cpu, khz, ops = rec.need_int("cpu", 0, 7), rec.need_int("khz", 1), rec.need_int("ops", 1)
        a7, _ = counts(rec, "a7")
        a15, events = counts(rec, "a15")
        probes.append(Probe(name=name, cpu=cpu, khz=khz, ns=ns, ops=ops, a7=a7, a15=a15,
                            events=events))
    hb: Dict[int, List[Hackbench]] = {}
    for rec in lg.records("fid_hackbench"):
        got = {k: rec.opt_num(k, 0) for k in HB_COUNTERS}
        hb.setdefault(rec.need_int("loops", 1), []).append(Hackbench(
            time_s=rec.need_num("time_s", 0),
            counters={k: v for k, v in got.items() if v is not None}))
    if not probes and not hb:
        raise vxu4log.LogError(log, 0, "", "no @fid_probe or @fid_hackbench line", FIX)
    return heads[0].fields, probes, hb


def core_of(cpu: int) -> str:
    return "a15" if cpu >= CORES["a15"] else "a7"


def probe_table(log: str, probes: List[Probe]) -> Tuple[List[str], List[Dict[str, object]]]:
    """The table of LOG's probes against the boards, and its rows as data."""
    by: Dict[Tuple[str, str], List[float]] = {}
    for p in probes:
        by.setdefault((p.name, core_of(p.cpu)), []).append(p.ns)
    rows, data = [], []
    for (name, core), ns in by.items():
        med = statistics.median(ns)
        spread = (max(ns) - min(ns)) / med * 100 if med > 0 and len(ns) > 1 else 0.0
        b = board_ns(name, core)
        ratio = med / b if b else None
        rows.append([name, core, f"{med:.1f}", f"{spread:.1f}%", f"{b:.1f}" if b else "-",
                     f"{ratio:.2f}x" if ratio else "-",
                     BOARD.get(name, {}).get(core, (0, "", None, "", ""))[4]])
        data.append({"probe": name, "core": core, "guest_ns": med, "spread_pct": spread,
                     "board_ns": b, "ratio": ratio, "reps": len(ns)})
    lines = [f"== {log}", ""] + vxu4log.table(
        ["probe", "core", "guest ns/op", "spread", "board ns/op (XU4 clock)", "ratio", "note"], rows)
    return lines, data


def read_weights(path: str) -> Dict[str, List[float]]:
    """A weights file: per core, NCOUNTS weights (the classes, then the
    memory events, each user then kernel)."""
    w = {c: [math.nan] * NCOUNTS for c in CORES}
    fix = "see tools/testing/vxu4/board/cycle-weights"
    for n, line in enumerate(vxu4log.read_lines(path, fix), 1):
        f = line.split("#", 1)[0].split()
        if not f:
            continue
        if (len(f) != 4 or f[0] not in CORES or f[1] not in MODES + ["any"]
                or f[2] not in NAMES):
            raise vxu4log.LogError(path, n, "", "not \"CORE MODE CLASS CYCLES\"", fix)
        try:
            v = float(f[3])
        except ValueError:
            v = -1
        if not 0 <= v < 1e6:
            raise vxu4log.LogError(path, n, vxu4log.escape(f[3]), "want cycles from 0", fix)
        for m in (MODES if f[1] == "any" else [f[1]]):
            w[f[0]][index_of(m, f[2])] = v
    for c, ws in w.items():
        for i, v in enumerate(ws):
            if math.isnan(v):
                raise vxu4log.LogError(path, 0, "", "no weight for {} {} {}".format(
                    c, *index_name(i)), fix)
    return w


def solve(a: List[List[float]], b: List[float]) -> List[float]:
    """A x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        if abs(m[col][col]) < 1e-300:
            raise ZeroDivisionError("singular")
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for k in range(col, n + 1):
                    m[r][k] -= f * m[col][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: Sequence[Tuple[List[float], float]], prior: List[float],
        lam: float) -> List[float]:
    """Weights minimising the relative errors of ROWS ((counts, cycles))
    plus LAM times the squared relative distance from PRIOR, none below
    MIN_WEIGHT (those held there and the rest solved again)."""
    n = len(prior)
    fixed: Dict[int, float] = {}
    while True:
        free = [i for i in range(n) if i not in fixed]
        a = [[0.0] * len(free) for _ in free]
        b = [0.0] * len(free)
        for x, y in rows:
            xs = [v / y for v in x]
            rest = 1.0 - sum(xs[i] * fixed[i] for i in fixed)
            for p, i in enumerate(free):
                b[p] += xs[i] * rest
                for q, j in enumerate(free):
                    a[p][q] += xs[i] * xs[j]
        for p, i in enumerate(free):
            d = lam / (prior[i] ** 2)
            a[p][p] += d
            b[p] += d * prior[i]
        sol = solve(a, b)
        w = [fixed.get(i, 0.0) for i in range(n)]
        for p, i in enumerate(free):
            w[i] = sol[p]
        low = [i for i in free if w[i] < MIN_WEIGHT]
        if not low:
            return w
        for i in low:
            fixed[i] = MIN_WEIGHT


def model(x: List[float], w: List[float]) -> float:
    return sum(a * b for a, b in zip(x, w))


# The grouped fit's factors: one for the user-mode classes, one for the
# kernel's, one for each memory event (both modes).
GROUPS = ["user", "kernel"] + EVENTS


def group_of(i: int) -> int:
    """The factor of GROUPS that scales weight I in the grouped fit."""
    mode, name = index_name(i)
    return GROUPS.index(name) if name in EVENTS else GROUPS.index(mode)


Fitter = Callable[[Sequence[Tuple[List[float], float]]], List[float]]


def fit_full(prior: List[float], lam: float) -> Fitter:
    """Every weight free (fit())."""
    return lambda rows: fit(rows, prior, lam)


def fit_grouped(prior: List[float], lam: float) -> Fitter:
    """The prior weights times a factor per group of GROUPS: the priors'
    proportions within a group kept, len(GROUPS) unknowns instead of
    NCOUNTS, each factor held near 1 by the ridge where the probes do not
    constrain it."""
    def run(rows: Sequence[Tuple[List[float], float]]) -> List[float]:
        g = []
        for x, y in rows:
            f = [0.0] * len(GROUPS)
            for i, v in enumerate(x):
                f[group_of(i)] += v * prior[i]
            g.append((f, y))
        k = fit(g, [1.0] * len(GROUPS), lam)
        return [prior[i] * k[group_of(i)] for i in range(len(prior))]
    return run


def fit_report(log: str, probes: List[Probe], prior: Dict[str, List[float]],
               lam: float, grouped: bool = False, charged_basis: bool = False
               ) -> Tuple[List[str], Dict[str, List[float]], Dict[str, object]]:
    """Fit each core's weights to LOG's class counts, every weight free or
    (GROUPED) a factor per group; with CHARGED_BASIS, each probe's counts
    scaled to the cycles the guest charged it (its time at its clock)
    over the cycles they count at PRIOR, the weights LOG booted with:
    counts that hold the CPU speed emulation's own instructions, which it
    charges nothing for, then weigh what was charged. The report's lines."""
    how = (f"the prior weights times a factor each for {', '.join(GROUPS)}" if grouped
           else "every weight free")
    basis = ("counts scaled to the cycles the guest charged" if charged_basis
             else "counts as counted")
    lines = ["", f"== the cost model fitted to the boards' figures, {how}, {basis} "
             f"(class counts of {log}; ridge {lam})", ""]
    weights = {c: prior[c][:] for c in CORES}
    summary: Dict[str, object] = {}
    for core in CORES:
        rows: List[Tuple[str, List[float], float]] = []
        charged: Dict[str, float] = {}
        ratio: Dict[str, float] = {}
        missing: List[str] = []
        for name in FIT[core] + FIT_MEMORY:
            ps = [p for p in probes if p.name == name and core_of(p.cpu) == core
                  and p.counts(core) is not None]
            y = board_cycles(name, core)
            if y is None:
                continue
            if not ps:
                if any(p.name == name and core_of(p.cpu) == core for p in probes):
                    missing.append(name)
                continue
            if name in FIT_MEMORY and not all(p.events for p in probes if p.name == name):
                continue
            counted = [statistics.median((p.counts(core) or [])[i] for p in ps)
                       for i in range(NCOUNTS)]
            # What the guest charged: its time at its clock, in cycles
            # (counts of the boot's own weights: the prior).
            ch = statistics.median(p.ns * p.khz / 1e6 for p in ps)
            m0 = model(counted, prior[core])
            if charged_basis and m0 > 0 and ch > 0:
                counted = [v * ch / m0 for v in counted]
            charged[name] = ch
            ratio[name] = ch / m0 if m0 > 0 else math.nan
            rows.append((name, counted, y))
        if not rows:
            lines.append(f"{core}: no probe with class counts: not fitted")
            continue
        fitter = (fit_grouped if grouped else fit_full)(prior[core], lam)
        w = fitter([(x, y) for _, x, y in rows])
        weights[core] = w
        table, res = [], []
        for k, (name, x, y) in enumerate(rows):
            others = [(xx, yy) for kk, (_, xx, yy) in enumerate(rows) if kk != k]
            loo = model(x, fitter(others)) if others else math.nan
            m, m0 = model(x, w), model(x, prior[core])
            res.append((m - y) / y)
            table.append([name, core, f"{sum(x[:NCLASSES]):.0f}", f"{sum(x[NCLASSES:]):.0f}",
                          f"{y:.0f}", f"{charged[name]:.0f}", f"{ratio[name]:.2f}",
                          f"{m0:.0f}", f"{m:.0f}",
                          f"{(m - y) / y * 100:+.1f}%", f"{(loo - y) / y * 100:+.1f}%"])
        lines += vxu4log.table(["probe", "core", "insns/op", "misses/op", "board cycles",
                                "charged", "charged/counted", "prior's cycles",
                                "fitted cycles", "residual", "left out"], table)
        rms = math.sqrt(sum(r * r for r in res) / len(res))
        lines.append(f"{core}: {len(rows)} probes, RMS relative residual {rms * 100:.1f}%")
        if missing:
            lines.append(f"{core}: left out, timed but without class counts: {', '.join(missing)}")
        lines.append("")
        if grouped:
            lines.append(f"{core}: factors " + ", ".join(
                f"{g} {w[i] / prior[core][i]:.3f}" for g in GROUPS
                for i in [next(j for j in range(NCOUNTS) if group_of(j) == GROUPS.index(g)
                               and prior[core][j] > 0)]))
            lines.append("")
        summary[core] = {"probes": [r[0] for r in rows], "rms_residual": rms,
                         "weights": {"{}.{}".format(*index_name(i)): v for i, v in enumerate(w)}}
    return lines, weights, summary


def write_weights(path: str, weights: Dict[str, List[float]], source: str) -> None:
    out = ["# SPDX-License-Identifier: GPL-2.0", "#",
           "# The cost model's weights, fitted by tools/testing/vxu4/benches/fidelity-report.py",
           f"# to the boards' kernel-path figures from the class counts of {source}.",
           "# A line: CORE MODE CLASS CYCLES (tools/testing/vxu4/board/cycle-weights)."]
    for core, w in weights.items():
        for i, v in enumerate(w):
            mode, name = index_name(i)
            out.append(f"{core:<3} {mode:<6} {name:<8} {v:.3f}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def main() -> None:
    out, logs, opts = vxu4log.report_args(__doc__, ("fit", "prior", "lambda"), logs="+")
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        lam = float(opts["lambda"] or 0.05)
    except ValueError:
        lam = -1
    if not 0 < lam < 1e6:
        vxu4log.die(f"--lambda {opts['lambda']}: want a number above 0")
    if opts["fit"]:
        fit_log = read_log(opts["fit"])
        if not fit_log[1]:
            vxu4log.die(f"--fit {opts['fit']}: no @fid_probe line, nothing to fit; "
                        "fix: give a boot of the probes (make fidelity without ONLY)")
    vxu4log.out_dir(out)
    report: List[str] = []
    summary: Dict[str, object] = {"logs": {}}
    for log in logs:
        head, probes, hb = read_log(log)
        lines, data = probe_table(log, probes) if probes else ([f"== {log}", ""], [])
        report += [f"unit={head.get('unit')} scale={head.get('scale')} "
                   f"lockdep={head.get('lockdep')} own={head.get('own', 'N')}"] + lines + [""]
        if len(hb) >= 2:
            (la, ra), (lb, rb) = sorted(hb.items())[:2]
            ta = statistics.median(h.time_s for h in ra)
            tb = statistics.median(h.time_s for h in rb)
            per = (tb - ta) / (lb - la)
            board = HACKBENCH_XU3_S / HACKBENCH_XU3_LOOPS
            reps = "" if len(ra) == len(rb) == 1 else f", medians of {len(ra)} and {len(rb)} runs"
            report.append(f"hackbench -g 10 -s 4096: {per * 1e3:.2f} ms a loop (-l {la} and "
                          f"-l {lb}{reps}), the XU3's {HACKBENCH_XU3_S} s for "
                          f"-l {HACKBENCH_XU3_LOOPS}: {board * 1e3:.2f} ms a loop,"
                          f" ratio {per / board:.2f}x")
            data.append({"probe": "hackbench", "core": "both", "guest_ns": per * 1e9,
                         "board_ns": board * 1e9, "ratio": per / board, "reps": len(ra)})
        for loops, h in ((lo, h) for lo, hs in sorted(hb.items()) for h in hs):
            if len(h.counters) == len(HB_COUNTERS):
                c = {k: v / 1e6 for k, v in h.counters.items()}
                report.append(
                    f"hackbench -l {loops}, {h.time_s:.3f} s: debts of all CPUs over the run "
                    f"{c['owed_ns'] + c['kernel_owed_ns']:.1f} ms (kernel's "
                    f"{c['kernel_owed_ns']:.1f}), paid {c['stall_ns']:.1f}, dropped "
                    f"{c['dropped_ns']:.1f}; CPUs behind their speed {c['shortfall_ns']:.1f} ms")
        summary["logs"][log] = {"head": head, "probes": data}  # type: ignore[index]
    if opts["fit"]:
        fit_head, probes, _ = fit_log
        own = fit_head.get("own") == "Y"
        prior = read_weights(opts["prior"] or os.path.join(here, "..", "board", "cycle-weights"))
        lines, weights, fs = fit_report(opts["fit"], probes, prior, lam)
        report += lines
        write_weights(os.path.join(out, "cycle-weights"), weights, opts["fit"])
        report.append(f"weights: {os.path.join(out, 'cycle-weights')}")
        summary["fit"] = fs
        lines, weights, fs = fit_report(opts["fit"], probes, prior, lam, grouped=True,
                                        charged_basis=not own)
        report += lines
        write_weights(os.path.join(out, "cycle-weights-grouped"), weights, opts["fit"])
        report.append(f"weights: {os.path.join(out, 'cycle-weights-grouped')}")
        summary["fit_grouped"] = fs
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1)
    vxu4log.write_report(out, report)


if __name__ == "__main__":
    vxu4log.guard(main)
