#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host's reduction of the guest's traces (vxu4trace.py) on made-up
traces with known answers: KTAP.

  - opp_busy(): a bench run of four CPUs, two clusters, the clock and
    cpufreq events, an overutilized spell, CPUs guessed from /proc/stat,
    times in ns rounded to the text's us as the kernel rounds them: each
    CPU's busy and total time at each OPP, worked out by hand below;
    without the markers, trace_error=no_markers;
  - pelt_ramp(): a RampUp run: the time to a big CPU and to the OPP, the
    util samples from the 70% phase's marker;
  - capacity_medians(): a boost sample's capacity updates, their medians;
  - shipped() and read_events(): a console log carrying the trace.dat of
    mk-trace-dat.py as the guest sends it (gzip, base64, its size and
    sha256), read back with build/trace-events: its six known events; the
    same log cut, a line garbled: a LogError naming the log's line;
  - bench-report.py on a bench log whose trace is cut: exit 2, one line
    naming the log, no report.

Usage: trace-test.py   (needs build/trace-events: make tools; TRACE_EVENTS
overrides it)
"""

import base64
import gzip
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import vxu4log  # noqa: E402
import vxu4trace  # noqa: E402
from vxu4trace import Event  # noqa: E402


def idle(us: int, cpu: int, state: int, ns: int = 0) -> Event:
    """cpu_idle at US (or exactly NS ns)."""
    return Event(ns or us * 1000, cpu, "power:cpu_idle", {"state": state, "cpu_id": cpu})


def freq(us: int, cpu: int, khz: int) -> Event:
    return Event(us * 1000, cpu, "power:cpu_frequency", {"state": khz, "cpu_id": cpu})


def mark(us: int, text: str, ns: int = 0) -> Event:
    return Event(ns or us * 1000, 0, "ftrace:print", {"ip": 0, "buf": text + "\n"})


OUT = vxu4trace.IDLE_EXIT

# A run from 2000 us (bench_start) to 7000 us (bench_end, at 7000499 ns:
# rounded down), CPUs 0, 1 (a7, clock cluster0) and 4, 5 (a15, cluster1).
#   cpu0: busy since before the run (its exit at 1000 us), idle at 3000
#         (2999500 ns: rounded up), busy again at 5000 to the end: busy
#         1000 us at 200 MHz, 2000 at 600 MHz; idle 500 at 200, 1500 at
#         600 (the clock's new rate at 3500)
#   cpu1: its first event an idle entry at 4000: busy before it, 1500 us
#         at 200 MHz and 500 at 600; idle 3000 at 600
#   cpu4, cpu5: no cpu_idle event; cpufreq's events ignored (their clock
#         is in clkmap), 500 MHz all along: cpu4 busy 5000 (/proc/stat:
#         0.750), cpu5 idle (0.500: not above a half), both guessed
#   overutilized: unknown 2000-4500, set 4500-5500, then clear
# Counted: the six cpu_idle, cpu_frequency and clk events within the run.
BENCH_EVENTS = [
    idle(1000, 0, OUT),
    mark(2000, "bench_start"),
    idle(0, 0, 1, ns=2999500),
    Event(3500000, 2, "clk:clk_set_rate_complete", {"name": "cluster0", "rate": 600000000}),
    Event(3600000, 6, "clk:clk_set_rate_complete", {"name": "other", "rate": 1}),
    idle(4000, 1, 0),
    freq(4200, 4, 800000),
    Event(4500000, 4, "sched_eas:sched_overutilized", {"overutilized": 1, "span": "0-7"}),
    idle(5000, 0, OUT),
    Event(5500000, 4, "sched_eas:sched_overutilized", {"overutilized": 0, "span": "0-7"}),
    freq(6000, 5, 900000),
    mark(0, "bench_end", ns=7000499),
    idle(7500, 0, 1),
]
BENCH_RUN = vxu4trace.BenchRun({0: 200000, 1: 200000, 4: 500000, 5: 500000},
                               {0: 0.5, 1: 0.6, 4: 0.75, 5: 0.5},
                               {"cluster0": [0, 1], "cluster1": [4, 5]})
BENCH_WANT = (" opp_busy_a7_us=200000:2500,600000:2500 opp_busy_a15_us=500000:5000"
              " opp_cpu_a7_us=200000:3000,600000:7000 opp_cpu_a15_us=500000:10000"
              " overutilized_us=1000 overutilized_unknown_us=2500 trace_events=6"
              " trace_guessed=4,5 trace_rates=clk")


def pelt(us: int, cpu: int, util: int) -> Event:
    return Event(us * 1000, cpu, "sched_eas:sched_pelt_task",
                 {"comm": "ramp", "pid": 9, "cpu": cpu, "util_avg": util})


# RampUp with its 70% phase at 2000 us: the task on cpu2 then, the A15s
# at 1.0 GHz (FQ0); they go to 1.5 GHz at 2500 (the task not on an A15:
# no t_opp yet); at 3000 it is on cpu5: t_big and t_opp 1.0 ms; a last
# sample at 4125 us (2.125 ms: printed 2.12, as C's printf rounds it).
PELT_EVENTS = [
    pelt(1000, 2, 100),
    mark(2000, "[0] begins loop 0 phase 1 step 0"),
    freq(2500, 4, 1500000),
    pelt(3000, 5, 300),
    mark(3100, "[0] begins loop 0 phase 1 step 0"),
    pelt(4125, 5, 350),
]
PELT_WANT = ["@pelt_ramp iter=1 t_big_ms=1.0 t_opp_ms=1.0 opp_khz=1400000 samples=3",
             "@pelt_util iter=1 t_ms=-1.00 util=100 cpu=2",
             "@pelt_util iter=1 t_ms=1.00 util=300 cpu=5",
             "@pelt_util iter=1 t_ms=2.12 util=350 cpu=5"]

# mk-trace-dat.py's events: (ts, cpu, value)
MK_EVENTS = [(1000100, 0, -1), (1000150, 1, 0), (1000300, 0, 1), (1000450, 1, 2),
             (1000600, 0, 3), (1000750, 1, 4)]


def ship_lines(raw: bytes, tag: str = "bench", run: int = 1, extra: str = "") -> list[str]:
    """RAW as the guest's trace_ship sends it."""
    gz = gzip.compress(raw)
    b64 = base64.encodebytes(gz).decode().split()
    return ([f"@{tag}_trace run={run}{extra} bytes={len(gz)} sha256={hashlib.sha256(gz).hexdigest()}"]
            + [f"@{tag}_tdat {run} {line}" for line in b64])


def raises(fn: Callable[[], object], *frags: str) -> str:
    """'' if FN raises a LogError whose text holds every FRAG, else why not."""
    try:
        fn()
    except vxu4log.LogError as e:
        missing = [f for f in frags if f not in str(e)]
        return f"message lacks {missing}: {e}" if missing else ""
    return "no LogError"


def main() -> int:
    tmp = tempfile.mkdtemp(prefix="trace-test.")
    results: list[tuple[str, str]] = []

    def check(name: str, why: str) -> None:
        results.append((name, why))

    try:
        got = vxu4trace.opp_busy(BENCH_EVENTS, BENCH_RUN)
        check("opp_busy: busy and total time at each OPP, overutilized, guessed CPUs",
              "" if got == BENCH_WANT else f"got {got!r}, want {BENCH_WANT!r}")
        got = vxu4trace.opp_busy([e for e in BENCH_EVENTS if e.f.get("buf") != "bench_end\n"],
                                 BENCH_RUN)
        check("opp_busy: no bench_end marker: trace_error=no_markers",
              "" if got == " trace_error=no_markers" else f"got {got!r}")
        run = vxu4trace.BenchRun(BENCH_RUN.init, BENCH_RUN.frac, {})
        got = vxu4trace.opp_busy(BENCH_EVENTS, run)
        # No clock map: cpufreq's events set the rates (cpu4 800 MHz from
        # 4200, cpu5 900 MHz from 6000: its idle time there, no busy time),
        # the clk events are not counted.
        want = ("opp_busy_a7_us=200000:5000 opp_busy_a15_us=500000:2200,800000:2800,900000:0 "
                "opp_cpu_a7_us=200000:10000 opp_cpu_a15_us=500000:6200,800000:2800,900000:1000")
        check("opp_busy: without clocks, cpufreq's rates",
              "" if want in got and got.endswith("trace_events=5 trace_guessed=4,5 trace_rates=cpufreq")
              else f"got {got!r}")

        got_lines = vxu4trace.pelt_ramp(PELT_EVENTS, 1, 1400000, 1000000)
        check("pelt_ramp: time to a big CPU and to the OPP of 70%, util samples",
              "" if got_lines == PELT_WANT else f"got {got_lines!r}")
        got_lines = vxu4trace.pelt_ramp(PELT_EVENTS, 2, 1600000, 1000000)
        check("pelt_ramp: an OPP never reached is none, no samples after iteration 1",
              "" if got_lines == ["@pelt_ramp iter=2 t_big_ms=1.0 t_opp_ms=none opp_khz=1600000"
                                  " samples=3"] else f"got {got_lines!r}")
        got_lines = vxu4trace.pelt_ramp(PELT_EVENTS[:1], 1, 1400000, 1000000)
        check("pelt_ramp: no phase marker: an @pelt_error line",
              "" if got_lines[0].startswith("@pelt_error ramp: no phase marker") else f"{got_lines}")

        # A boost sample: four capacity updates (their medians the lower
        # middle values of an even count, as the guest's sort took them),
        # a cpu_idle event that is not one.
        caps = [Event(1000 * i, 4, "sched_eas:sched_cpu_capacity",
                      {"cpu": 4, "capacity": c, "capacity_orig": 1024, "cpufreq_pressure": p,
                       "hw_pressure": 0}) for i, (c, p) in
                enumerate([(1000, 24), (900, 124), (950, 74), (980, 44)], 1)]
        got = vxu4trace.capacity_medians(caps + [idle(5000, 4, 1)])
        want = " events=4 capacity=950 capacity_orig=1024 cpufreq_pressure=44 hw_pressure=0"
        check("capacity_medians: the medians of a boost sample's capacity updates",
              "" if got == want else f"got {got!r}, want {want!r}")
        got = vxu4trace.capacity_medians([idle(5000, 4, 1)])
        want = " events=0 capacity=none capacity_orig=none cpufreq_pressure=none hw_pressure=none"
        check("capacity_medians: none without an update",
              "" if got == want else f"got {got!r}")

        dat = os.path.join(tmp, "mk.dat")
        res = subprocess.run([sys.executable, os.path.join(HERE, "mk-trace-dat.py"), dat])
        if res.returncode or not os.access(vxu4trace.trace_events_path(), os.X_OK):
            check("shipped trace.dat read back", f"mk-trace-dat.py exit {res.returncode}, or "
                  f"{vxu4trace.trace_events_path()} not built (make tools)")
        else:
            with open(dat, "rb") as fin:
                raw = fin.read()
            log = ["[    1.0] boot", "@bench rtapp run=1"] + ship_lines(raw, extra=" init=0:1")
            lg = vxu4log.Log("made.log", lines=log)
            sh = vxu4trace.shipped(lg, "bench", tmp, "made-run")
            evs = vxu4trace.read_events(sh[1].path)
            got_ev = [(e.ts, e.cpu, e.f.get("value")) for e in evs]
            check("shipped: the log's trace.dat written whole, its events read back in order",
                  "" if got_ev == MK_EVENTS and list(sh) == [1] else f"got {got_ev}")
            cut = log[:-2]
            check("shipped: a trace cut short is a LogError naming the log's line",
                  raises(lambda: vxu4trace.shipped(vxu4log.Log("cut.log", lines=cut),
                                                   "bench", tmp, "x"),
                         "cut.log:3", "not there whole"))
            garbled = log[:4] + [log[4][:-3] + "AAA"] + log[5:]
            check("shipped: a garbled line is a LogError (sha256)",
                  raises(lambda: vxu4trace.shipped(vxu4log.Log("bad.log", lines=garbled),
                                                   "bench", tmp, "x"),
                         "bad.log:3", "not there whole"))
            with open(os.path.join(tmp, "cut.dat"), "wb") as fout:
                fout.write(raw[:5000])
            check("read_events: a cut trace.dat is a LogError naming it",
                  raises(lambda: vxu4trace.read_events(os.path.join(tmp, "cut.dat")), "cut.dat"))

            # bench-report.py on a bench boot whose trace is cut: exit 2,
            # one line naming the log, nothing written.
            blog = os.path.join(tmp, "ab1.log")
            lines = ["@bench_calibration pload_a15_ns=1000 em=1 cfgs=a meter_model=em",
                     "@bench_start run=1", "@bench_end run=1",
                     "@bench rtapp run=1 iter=1 cfg=a eas=1 em=1 tasks=2 cal=a15 guest_ms=1000 "
                     "energy_a7_uj=1 energy_a15_uj=1"] + ship_lines(raw, extra=" init=0:1")[:-1] \
                + ["@bench_done runs=1"]
            with open(blog, "w") as ftext:
                ftext.write("\n".join(lines) + "\n")
            out = os.path.join(tmp, "out")
            os.mkdir(out)
            rep = subprocess.run([sys.executable, os.path.join(HERE, "..", "benches", "bench-report.py"), out, blog],
                                 capture_output=True, text=True)
            err = rep.stderr.strip().splitlines()
            why = ""
            if rep.returncode != 2:
                why = f"exit {rep.returncode}, want 2"
            elif len(err) != 1 or blog not in err[0] or "Traceback" in rep.stderr:
                why = f"stderr: {rep.stderr!r}"
            elif rep.stdout or os.path.exists(os.path.join(out, "report.txt")):
                why = "a report written"
            check("bench-report.py: a log whose trace is cut: exit 2, one line naming it", why)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print("KTAP version 1")
    print(f"1..{len(results)}")
    for n, (name, why) in enumerate(results, 1):
        print(f"{'not ok' if why else 'ok'} {n} {name}")
        if why:
            print(f"# {why}")
    return 1 if any(why for _, why in results) else 0


if __name__ == "__main__":
    sys.exit(main())
