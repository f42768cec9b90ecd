#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""timescale-bench-report.py OUT_DIR: the time scale's curve against the board.

Reads OUT_DIR/K<k>.log, the consoles of make timescale-bench's boots
(tools/testing/vxu4/guest/timescale-bench, one boot a time scale K), each line
behind the host's time when it came, and writes in OUT_DIR:
  summary.json   per K: the measurements and their ratios to the board
  report.txt     the table, one row a K
  timescale.png  probe / board ratios and wall cost against K (gnuplot)
Per K, medians over the boot's repetitions:
  ref            the reference's instructions per ns (fixed work alone on
                 cpu4 at 2 GHz, cpu4's instruction count over guest time)
                 over K * ref_permille / 1000: above 1 by the emulation's
                 own instructions on the busy CPU (its hooks, the stalls'
                 wake-ups, ticks), which are not work (physics-test.sh
                 checks the time scale itself)
  syscall, pipe  eas-work's null system call and pipe round trip, us,
                 on an A15 (cpu4, 2 GHz) and an A7 (cpu0, 1.4 GHz)
  hackbench      the cost of a loop of hackbench -g 10 -s 4096 (from two
                 loop counts: the difference over the loops' difference),
                 and the seed's -l 500 from it (setup + 500 loops)
  util           rt-app's util_avg above its duty's (1024 * duty), per task
  kernel         system + irq + softirq ticks over the busy ticks, in the
                 hackbench and rt-app phases (/proc/stat), the emulation's
                 stalls (system time to /proc/stat) counted as the task's
  wall/guest     host seconds per guest second of the hackbench and rt-app
                 phases (their marks' host times over their uptimes)
The board's figures (BOARD, from board_figures.py with their sources) are
what the ratios are taken against.
Exit: 0; 1 a log lacks its end or a measurement (named); 2 bad usage or
an unreadable directory.
"""

import glob
import json
import os
import statistics
import sys
from typing import Any, NoReturn

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vxu4log  # noqa: E402
from board_figures import HACKBENCH_XU3_LOOPS, HACKBENCH_XU3_S, board_ns  # noqa: E402

# The board's figures (board_figures.py, with their sources): the 2020
# series' hackbench on the XU3, and TI's AM572x lmbench figures for the
# A15 (no Exynos5422 figure is published for these two), timed at 2 GHz.
BOARD = {
    "hackbench_500_s": HACKBENCH_XU3_S,
    "hackbench_loop_ms": HACKBENCH_XU3_S / HACKBENCH_XU3_LOOPS * 1000,
    "a15_syscall_us": board_ns("null", "a15") / 1e3,
    "a15_pipe_rt_us": board_ns("pipe", "a15") / 1e3,
}


def die(msg: str, code: int = 1) -> NoReturn:
    vxu4log.die(msg, code)


def med(values: list[float], what: str, log: str) -> float:
    if not values:
        die(f"{log}: no {what}")
    return statistics.median(values)


def one(log: str) -> dict[str, Any]:
    """The measurements of one boot's console LOG: a dict."""
    host = {}
    lines, times = [], []
    fix = "run make timescale-bench again (the log is cut or garbled)"
    for n, raw in enumerate(vxu4log.read_lines(log, "run make timescale-bench"), 1):
        t, _, line = raw.partition(" ")
        try:
            times.append(float(t))
        except ValueError:
            raise vxu4log.LogError(log, n, "", "no host time at the line's start: "
                                   f"'{vxu4log.escape(raw)}' (a console of "
                                   "make timescale-bench?)", fix) from None
        lines.append(line)
    lg = vxu4log.Log(log, fix=fix, lines=lines)
    for m in lg.records("ts_mark"):
        host[m.need_str("name")] = (times[m.line - 1], m.need_num("up_s"))
    errors = lg.at("ts_error")
    if errors:
        die(f"{log}: the guest reported errors: {'; '.join(errors)}")
    head = lg.records("ts")
    if not head or "@ts_done" not in lines:
        die(f"{log}: no @ts and @ts_done lines: the boot did not run vxu4-timescale-bench to its end")
    h = head[0]
    if not (h.has("scale") and h.has("ref_permille")):
        die(f"{log}:{h.line}: @ts {h.text}: no time scale or reference (is the CPU speed "
            "emulation on?)")
    k, ref = h.need_int("scale", 1), h.need_int("ref_permille", 1)
    # lockdep: the kernel's lock debugging (absent from older logs)
    r: dict[str, Any] = {"scale": k, "ref_permille": ref,
                         "lockdep": {"1": "on", "0": "off"}.get(h.fields.get("lockdep", ""),
                                                                "unknown")}

    rates = [x.need_int("insns") / x.need_int("wall_ns", 1) for x in lg.records("ts_ref")]
    if not rates:
        die(f"{log}: no @ts_ref line")
    r["ref_rate_ratio"] = statistics.median(rates) / (k * ref / 1000)

    probes = lg.records("ts_probe")
    for cpu, kind in (("4", "a15"), ("0", "a7")):
        for key in ("syscall_ns", "pipe_rt_ns"):
            vals = [v for p in probes if p.fields.get("cpu") == cpu
                    for v in [p.opt_num(key)] if v is not None]
            r[f"{kind}_{key[:-3]}_us"] = med(vals, f"@ts_probe {key} of cpu{cpu}", log) / 1000

    hb = lg.records("ts_hackbench")
    loops = sorted({x.need_int("loops", 1) for x in hb})
    if len(loops) != 2:
        die(f"{log}: hackbench at {loops} loops, want two loop counts")
    ta, tb = (med([v for x in hb if x.need_int("loops", 1) == n
                   for v in [x.opt_num("time_s")] if v is not None], f"hackbench -l {n}", log)
              for n in loops)
    per_loop = (tb - ta) / (loops[1] - loops[0])
    r["hackbench_loop_ms"] = per_loop * 1000
    r["hackbench_setup_s"] = ta - loops[0] * per_loop
    r["hackbench_500_s"] = r["hackbench_setup_s"] + 500 * per_loop

    r["util_over"] = {}
    for u in lg.records("ts_util"):
        if u.need_int("samples") == 0:
            die(f"{log}:{u.line}: @ts_util {u.text}: no sample")
        r["util_over"][u.need_str("task")] = \
            u.need_num("mean") - 1024 * u.need_int("duty_pct", 0, 100) / 100

    for st in lg.records("ts_cpustat"):
        d: dict[str, Any] = dict(st.fields)
        for key in ("system", "irq", "softirq", "user", "nice"):
            d[key] = st.need_int(key)
        d["stall"] = st.opt_int("stall") or 0
        # The emulation's stalls are the slowed task's time, in its
        # context: /proc/stat counts them as system time.
        kern = d["system"] - d["stall"] + d["irq"] + d["softirq"]
        busy = d["system"] + d["irq"] + d["softirq"] + d["user"] + d["nice"]
        phase = st.need_str("phase")
        r[f"kernel_pct_{phase}"] = 100 * kern / busy if busy else float("nan")
        r[f"cpustat_{phase}"] = d

    for phase in ("hackbench", "util"):
        if phase not in host or phase + "-end" not in host:
            die(f"{log}: no @ts_mark of the {phase} phase's start and end")
        (h0, g0), (h1, g1) = host[phase], host[phase + "-end"]
        r[f"wall_per_guest_{phase}"] = (h1 - h0) / (g1 - g0) if g1 > g0 else float("nan")
    return r


def main() -> None:
    out, _ = vxu4log.report_args(__doc__, logs=0)
    logs = glob.glob(os.path.join(out, "K*.log"))
    if not logs:
        die(f"{out}: no K<k>.log: run make timescale-bench", 2)
    rows = sorted((one(log) for log in logs), key=lambda r: r["scale"])
    for r in rows:
        r["hackbench_vs_board"] = r["hackbench_500_s"] / BOARD["hackbench_500_s"]
        r["syscall_vs_board"] = r["a15_syscall_us"] / BOARD["a15_syscall_us"]
        r["pipe_vs_board"] = r["a15_pipe_rt_us"] / BOARD["a15_pipe_rt_us"]
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"board": BOARD, "scales": rows}, f, indent=1)

    head = ["K", "ref rate", "syscall A15/A7 us", "vs board", "pipe A15/A7 us", "vs board",
            "hackbench loop ms", "-l 500 s", "vs board",
            "util over duty (a15 10/30%, a7 10/30%)", "kernel % hb/rt-app",
            "wall s / guest s hb/rt-app"]
    body = []
    for r in rows:
        u = r["util_over"]
        body.append([
            str(r["scale"]), f"{r['ref_rate_ratio']:.3f}",
            f"{r['a15_syscall_us']:.2f}/{r['a7_syscall_us']:.2f}",
            f"{r['syscall_vs_board']:.2f}x",
            f"{r['a15_pipe_rt_us']:.1f}/{r['a7_pipe_rt_us']:.1f}",
            f"{r['pipe_vs_board']:.2f}x",
            f"{r['hackbench_loop_ms']:.1f}", f"{r['hackbench_500_s']:.2f}",
            f"{r['hackbench_vs_board']:.2f}x",
            " ".join(f"{u.get(t, float('nan')):+.0f}" for t in ("a15d10", "a15d30", "a7d10", "a7d30")),
            f"{r.get('kernel_pct_hackbench', float('nan')):.0f}/{r.get('kernel_pct_util', float('nan')):.0f}",
            f"{r['wall_per_guest_hackbench']:.1f}/{r['wall_per_guest_util']:.1f}",
        ])
    lines = [f"Time scale K against the board ({out}); guest clock unless 'wall'",
             f"board: hackbench -l 500 -s 4096 {BOARD['hackbench_500_s']} s "
             f"(the seed, Odroid-XU3, with the series); per loop {BOARD['hackbench_loop_ms']:.1f} ms",
             f"board: A15 null system call {BOARD['a15_syscall_us']:.2f} us, pipe round trip "
             f"{BOARD['a15_pipe_rt_us']:.1f} us (lmbench on TI's AM572x, A15 at 1.5 GHz, "
             "Linux 6.12, scaled to 2 GHz)",
             "guest kernel's lock debugging (lockdep): "
             + ", ".join(f"K={r['scale']} {r['lockdep']}" for r in rows),
             ""] + vxu4log.table(head, body)
    vxu4log.write_report(out, lines)

    dat = os.path.join(out, "timescale.dat")
    with open(dat, "w") as f:
        for r in rows:
            f.write(f"{r['scale']} {r['hackbench_vs_board']} {r['wall_per_guest_hackbench']} "
                    f"{r['wall_per_guest_util']} {r['syscall_vs_board']} {r['pipe_vs_board']}\n")
    vxu4log.gnuplot(f"""set terminal png size 900,500
set output '{os.path.join(out, 'timescale.png')}'
set logscale xy
set xlabel 'time scale K (instructions per guest ns)'
set ylabel 'virtual / board'
set y2label 'host s per guest s'
set y2tics
set logscale y2
set grid
plot '{dat}' using 1:2 with linespoints title 'hackbench -l 500 vs board', \\
     '{dat}' using 1:5 with linespoints title 'null syscall (A15) vs board', \\
     '{dat}' using 1:6 with linespoints title 'pipe round trip (A15) vs board', \\
     1 with lines title 'the board', \\
     '{dat}' using 1:3 axes x1y2 with linespoints title 'wall cost, hackbench', \\
     '{dat}' using 1:4 axes x1y2 with linespoints title 'wall cost, rt-app'
""", "timescale-report")


if __name__ == "__main__":
    vxu4log.guard(main)
