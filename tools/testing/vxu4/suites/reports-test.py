#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host reports on cut, garbled and impossible input: KTAP.

Makes, in a temporary folder, a small whole console log for each report
(bench-report.py, boost-bench-report.py, idle-bench-report.py, pelt-bench-report.py,
timescale-bench-report.py; the lines their guest benches print), checks that
each report reads it (exit 0), then breaks it one way at a time: a value
that is no number, a negative time, a zero window or frame count, a line
cut short, a header without a key, a stamps line without its time, a
binary log, an OUT_DIR that is a file, read-only or empty, a stamps path
that is a folder, an --em JSON of the wrong shape, stdout on a full
device or closed. Each broken case must exit 2 with one line on stderr
that names the file (and its line and the field, for a log's line), no
Python traceback, and nothing written to OUT_DIR.

Usage: reports-test.py [--reports DIR]   (DIR: where the reports are;
default: each where it is in the tree)
"""

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
# The reports, by file name: where each is in the tree.
REPORTS = {os.path.basename(p): os.path.join(TOP, p) for p in (
    "tools/testing/vxu4/benches/bench-report.py",
    "tools/testing/vxu4/benches/boost-bench-report.py",
    "tools/testing/vxu4/benches/fidelity-report.py",
    "tools/testing/vxu4/benches/idle-bench-report.py",
    "tools/testing/vxu4/benches/pelt-bench-report.py",
    "tools/testing/vxu4/benches/timescale-bench-report.py",
    "tools/testing/vxu4/lib/vxu4log.py",
)}


def bench_log() -> list[str]:
    """A bench boot: rt-app and hackbench in a and b, one iteration."""
    out = ["[    1.000000] booting",
           "@bench_calibration pload_a15_ns=1000 pload_a7_ns=1400 em=1 cfgs=a,b meter_model=em",
           "@bench_domains cpu=0 levels=MC,PKG"]
    run = 0
    for cfg, eas in (("a", 1), ("b", 0)):
        for test in ("rtapp", "hackbench"):
            run += 1
            out += [f"@bench_start run={run}", f"@bench_end run={run}"]
            extra = ("tasks=2 cal=a15 opp_busy_a7_us=200000:50000,1400000:1000 "
                     "opp_busy_a15_us=800000:2000 tis_policy0=200000:90,1400000:10"
                     if test == "rtapp" else "groups=10 loops=5 reported_s=0.5")
            out.append(f"@bench {test} run={run} iter=1 cfg={cfg} eas={eas} em=1 {extra} "
                       f"wall_ms={1000 + run} guest_ms={1000 + run} "
                       f"energy_a7_uj={100000 + run} energy_a15_uj={200000 + run} "
                       f"busy_a7_ms={100 + run} busy_a15_ms=50 user_a7_ms=80 sys_a7_ms=20 "
                       f"irq_a7_ms=1 user_a15_ms=40 sys_a15_ms=10 irq_a15_ms=0")
    return out + [f"@bench_done runs={run}"]


def bench_stamps() -> list[str]:
    out = []
    for run in range(1, 5):
        out += [f"{1000 + run}.25 @bench_start run={run}",
                f"{1001 + run}.75 @bench_end run={run}"]
    return out


def boost_log() -> list[str]:
    out = ["@boostbench iter=1 work_ms=100 loops=1000 cal_ns=10 fmax_khz=2000000 "
           "boost_khz=1900000,2000000 budget_uw=5000000 budget_default_uw=5000000 "
           "tar_dirs=/usr/lib tree_kb=100 tree_files=10"]
    for k, cfg in enumerate(("noboost", "boost", "budget")):
        for case, n in (("dhry", 1), ("dhry", 2), ("dhry", 3), ("dhry", 4), ("tar", 1)):
            out.append(f"@boostbench_run cfg={cfg} iter=1 case={case} threads={n} "
                       f"time_ns={100000000 - k * 5000000 + n} window_ns=110000000 "
                       f"energy_a7_uj={1000 + k} energy_a15_uj={50000 + 5000 * k * n} "
                       f"peak_a7_uw=20000 peak_a15_uw=900000 "
                       f"a15_khz=1800000:{100 - 50 * min(k, 1)},1900000:{50 * min(k, 1)} "
                       "threads_ns=none vcs_ms=none")
    return out + ["@boostbench_done iter=1"]


def idle_log() -> list[str]:
    out = ["@idlebench pload_ns=1000 iter=1 frames=60 audio_s=2 video_s=2 loops=10 "
           "governors=menu,teo cases=frames,audio,video,cyclic cyclic_main_cpu=0 "
           "cyclic_us=25000 states=WFI,cpu-pd-a7,cluster-pd-a7"]
    for k, gov in enumerate(("menu", "teo")):
        for case in ("frames", "audio", "video", "cyclic"):
            res = {"frames": f" frames=60 over={k} p95_us={9000 - k * 100} max_us=12000",
                   "cyclic": " hist=10:50,20:40,30:10 overflows=0,0 max_us=31,29"}.get(case, "")
            out.append(f"@idlebench_run gov={gov} iter=1 case={case} guest_ms=2000 "
                       f"energy_a7_uj={30000 + k} energy_a15_uj={60000 - k} "
                       "time_us=1000,2000,3000 usage=10,20,30 above=1,2,3 below=0,1,0 "
                       f"rejected=0,0,0{res}")
    return out + ["@idlebench_done iter=1"]


def pelt_log(mult: int) -> list[str]:
    return [f"@pelt_bench pload_ns=1000 multiplier={mult} frames=100 rtapp_s=2 opp_khz=1400000",
            f"@pelt_ramp iter=1 t_big_ms={40 // mult} t_opp_ms={60 // mult} opp_khz=1400000 "
            "samples=40",
            "@pelt_util iter=1 t_ms=-4.00 util=100 cpu=0",
            "@pelt_util iter=1 t_ms=12.00 util=500 cpu=4",
            f"@pelt_frames iter=1 frames=100 over={4 - mult} p95_us=15000 max_us=20000 "
            "energy_a7_uj=40000 energy_a15_uj=90000 guest_ms=1700",
            f"@bench rtapp run=1 iter=1 cfg=a eas=1 em=1 tasks=24 cal=a15 guest_ms=2000 "
            f"energy_a7_uj={300000 + mult} energy_a15_uj=700000",
            "@pelt_bench_done iter=1"]


def timescale_log(k: int) -> list[str]:
    body = [f"@ts scale={k} ref_permille=1000 lockdep=0",
            f"@ts_ref insns={2000000 * k} wall_ns=1000000",
            "@ts_probe cpu=4 syscall_ns=400 pipe_rt_ns=30000",
            "@ts_probe cpu=0 syscall_ns=600 pipe_rt_ns=45000",
            "@ts_mark name=hackbench up_s=10.0",
            "@ts_hackbench loops=10 time_s=0.30",
            "@ts_hackbench loops=20 time_s=0.50",
            "@ts_mark name=hackbench-end up_s=12.0",
            "@ts_mark name=util up_s=12.5",
            "@ts_util task=a15d10 duty_pct=10 mean=110 samples=20",
            "@ts_cpustat phase=hackbench user=100 nice=0 system=50 irq=1 softirq=2 stall=10",
            "@ts_mark name=util-end up_s=14.5",
            "@ts_done"]
    return [f"{5000 + i * 0.5:.2f} {line}" for i, line in enumerate(body)]


def fidelity_log() -> list[str]:
    cls = ",".join(["1.00"] * 32)
    return ["@fid unit=insns scale=8 lockdep=1",
            f"@fid_probe rep=1 name=null cpu=4 khz=2000000 ns_per_op=2000.0 ops=100 "
            f"a7={cls} a15={cls}",
            f"@fid_probe rep=1 name=ctx cpu=4 khz=2000000 ns_per_op=-3.5 ops=100 "
            f"a7=none a15=none",
            f"@fid_probe rep=1 name=ub-syscall cpu=0 khz=1400000 ns_per_op=9000.0 ops=100 "
            f"a7={cls} a15={cls}",
            "@fid_hackbench rep=1 groups=10 loops=5 time_s=0.5",
            "@fid_hackbench rep=1 groups=10 loops=10 time_s=0.9",
            "@fid_done"]


def fidelity_cache_log() -> list[str]:
    """A cycles-cache boot's log: 38 counts a core, the memory probes."""
    cls = ",".join(["1.00"] * 32)
    memcpy = cls + ",0.00,65536.00,65536.00,0.00,0.00,0.00"
    return ["@fid unit=cycles scale=8 lockdep=0",
            f"@fid_probe rep=1 name=null cpu=4 khz=2000000 ns_per_op=2000.0 ops=100 "
            f"a7={cls},0,0,0,0,0,0 a15={cls},0,0,0,0,0,0",
            f"@fid_probe rep=1 name=memcpy cpu=4 khz=2000000 ns_per_op=2000000.0 ops=10 "
            f"a7={cls},0,0,0,0,0,0 a15={memcpy}",
            "@fid_done"]


def hackbench_log() -> list[str]:
    """make fidelity ONLY=hackbench REPS=3's log, the first runs with the
    speed counters; the medians' difference is 0.4 s for 5 loops."""
    return ["@fid unit=cycles scale=8 lockdep=0 own=Y",
            "@fid_hackbench rep=1 groups=10 loops=5 time_s=0.5 owed_ns=30000000 "
            "kernel_owed_ns=1000000 stall_ns=28000000 dropped_ns=500000 shortfall_ns=0",
            "@fid_hackbench rep=1 groups=10 loops=10 time_s=0.9 owed_ns=60000000 "
            "kernel_owed_ns=2000000 stall_ns=55000000 dropped_ns=1500000 shortfall_ns=500000",
            "@fid_hackbench rep=2 groups=10 loops=5 time_s=0.3",
            "@fid_hackbench rep=2 groups=10 loops=10 time_s=1.0",
            "@fid_hackbench rep=3 groups=10 loops=5 time_s=0.6",
            "@fid_hackbench rep=3 groups=10 loops=10 time_s=0.8",
            "@fid_done"]


@dataclass
class Case:
    """A run of REPORT on files made by MAKE (into a folder): its arguments
    (ARGS, "{d}" the folder), and what it must give: exit RC, each of SAY
    on its one stderr line (RC 2), each of SHOW on stdout (RC 0)."""
    name: str
    report: str
    args: list[str]
    make: Callable[[str], None]
    rc: int = 2
    say: list[str] = field(default_factory=list)
    stdout: str = "pipe"
    show: list[str] = field(default_factory=list)


def write(path: str, lines: list[str]) -> None:
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def edit(lines: list[str], old: str, new: str) -> list[str]:
    """LINES with the first line holding OLD changed: OLD replaced by NEW."""
    out, done = [], False
    for line in lines:
        if not done and old in line:
            line, done = line.replace(old, new, 1), True
        out.append(line)
    if not done:
        raise ValueError(f"no line holds {old!r}")
    return out


def cut(lines: list[str], start: str, after: str) -> list[str]:
    """LINES with the first line that starts with START cut after AFTER."""
    out, done = [], False
    for line in lines:
        if not done and line.startswith(start):
            line, done = line[:line.index(after) + len(after)], True
        out.append(line)
    if not done:
        raise ValueError(f"no line starts with {start!r}")
    return out


def line_of(lines: list[str], text: str) -> int:
    """The number of the first of LINES that holds TEXT."""
    return next(i + 1 for i, line in enumerate(lines) if text in line)


def bench(lines: list[str] | None = None, stamps: list[str] | None = None,
          em: str | None = None) -> Callable[[str], None]:
    def make(d: str) -> None:
        write(f"{d}/b.log", bench_log() if lines is None else lines)
        write(f"{d}/b.stamps", bench_stamps() if stamps is None else stamps)
        if em is not None:
            with open(f"{d}/em.json", "w") as f:
                f.write(em)
    return make


def one_log(name: str, lines: list[str]) -> Callable[[str], None]:
    def make(d: str) -> None:
        write(f"{d}/{name}", lines)
    return make


def pelt(mult: int = 0, lines: list[str] | None = None) -> Callable[[str], None]:
    def make(d: str) -> None:
        for m in (1, 2, 4):
            write(f"{d}/p{m}.log", lines if m == mult and lines is not None else pelt_log(m))
    return make


def timescale(raw: bytes | None = None) -> Callable[[str], None]:
    def make(d: str) -> None:
        os.mkdir(f"{d}/ts")
        write(f"{d}/ts/K1.log", timescale_log(1))
        if raw is not None:
            with open(f"{d}/ts/K8.log", "wb") as f:
                f.write(raw)
        else:
            write(f"{d}/ts/K8.log", timescale_log(8))
    return make


def cases() -> list[Case]:
    b, bo, il = bench_log(), boost_log(), idle_log()
    st = bench_stamps()
    out_b = ["{d}/out", "{d}/b.log"]
    out = [
        Case("bench-report: a whole log and its stamps", "bench-report.py", out_b, bench(), 0,
             show=["rt-app: 2 periodic tasks", "hackbench -g 10 -l 5 -s 4096",
                   "wall time of the runs: 6 s over 4 runs"]),
        Case("bench-report: energy_a7_uj=abc", "bench-report.py", out_b,
             bench(edit(b, "energy_a7_uj=100001", "energy_a7_uj=abc")), 2,
             [f"b.log:{line_of(b, 'energy_a7_uj=100001')}:", "energy_a7_uj=abc"]),
        Case("bench-report: @bench_done runs=abc", "bench-report.py", out_b,
             bench(edit(b, "@bench_done runs=4", "@bench_done runs=abc")), 2,
             [f"b.log:{len(b)}:", "runs=abc"]),
        Case("bench-report: an rt-app run line without tasks=", "bench-report.py", out_b,
             bench(edit(b, " tasks=2", "")), 2,
             [f"b.log:{line_of(b, 'tasks=2')}:", "tasks"]),
        Case("bench-report: guest_ms=-5", "bench-report.py", out_b,
             bench(edit(b, "guest_ms=1001", "guest_ms=-5")), 2,
             [f"b.log:{line_of(b, 'guest_ms=1001')}:", "guest_ms=-5"]),
        Case("bench-report: a run line cut after its test", "bench-report.py", out_b,
             bench(cut(b, "@bench hackbench", "@bench hackbench")), 2,
             [f"b.log:{line_of(b, '@bench hackbench')}:", "run"]),
        Case("bench-report: a stamps line 'abc @bench_start'", "bench-report.py", out_b,
             bench(stamps=edit(st, "1001.25 @bench_start", "abc @bench_start")), 2,
             ["b.stamps:1:", "abc"]),
        Case("bench-report: a stamps path that is a folder", "bench-report.py", out_b,
             lambda d: (write(f"{d}/b.log", b), os.mkdir(f"{d}/b.stamps")) and None, 2,
             ["b.stamps", "folder"]),
        Case("bench-report: OUT_DIR a file", "bench-report.py", out_b,
             lambda d: (bench()(d), write(f"{d}/out", ["x"])) and None, 2,
             ["out", "not a folder"]),
        # root writes into a mode 555 folder: sysfs refuses root too
        Case("bench-report: OUT_DIR read-only", "bench-report.py",
             ["/sys/kernel" if os.geteuid() == 0 else "{d}/ro", "{d}/b.log"],
             lambda d: (bench()(d), os.mkdir(f"{d}/ro", 0o555)) and None, 2,
             ["ro" if os.geteuid() else "/sys/kernel", "cannot write"]),
        Case("bench-report: OUT_DIR empty", "bench-report.py", ["", "{d}/b.log"], bench(), 2,
             ["OUT_DIR"]),
        Case("bench-report: --em a JSON list", "bench-report.py",
             ["--em", "{d}/em.json", "{d}/out", "{d}/b.log"], bench(em="[1, 2]"), 2,
             ["em.json", "perf_domains"]),
        Case("bench-report: --em a state without power_uw", "bench-report.py",
             ["--em", "{d}/em.json", "{d}/out", "{d}/b.log"],
             bench(em='{"perf_domains": [{"name": "cpu0", "cpus": [0], '
                      '"states": [{"frequency_khz": 200000}]}]}'), 2,
             ["em.json", "perf_domains[0].states[0].power_uw"]),
        Case("bench-report: stdout on a full device", "bench-report.py", out_b, bench(), 2,
             ["stdout"], stdout="full"),
        Case("bench-report: stdout closed", "bench-report.py", out_b, bench(), 2,
             ["stdout"], stdout="closed"),

        Case("boost-report: a whole log", "boost-bench-report.py", ["{d}/out", "{d}/boost.log"],
             one_log("boost.log", bo), 0,
             show=["(A15 boost OPPs 1900000,2000000 kHz)",
                   "boost always           | 1 thread  | 0.095 (0.0) | 0.056 (0.0)"]),
        Case("boost-report: a run line cut after case=dh", "boost-bench-report.py",
             ["{d}/out", "{d}/boost.log"],
             one_log("boost.log", cut(bo, "@boostbench_run cfg=budget", "case=dh")), 2,
             [f"boost.log:{line_of(bo, 'cfg=budget')}:", "case=dh"]),
        Case("boost-report: window_ns=0", "boost-bench-report.py", ["{d}/out", "{d}/boost.log"],
             one_log("boost.log", edit(bo, "window_ns=110000000", "window_ns=0")), 2,
             ["boost.log:2:", "window_ns=0"]),
        Case("boost-report: a header without boost_khz=", "boost-bench-report.py",
             ["{d}/out", "{d}/boost.log"],
             one_log("boost.log", edit(bo, "boost_khz=1900000,2000000 ", "")), 2,
             ["boost.log:1:", "boost_khz"]),
        Case("boost-report: OUT_DIR missing", "boost-bench-report.py",
             ["{d}/none", "{d}/boost.log"], one_log("boost.log", bo), 2,
             ["none", "no such folder"]),
        Case("boost-report: stdout on a full device", "boost-bench-report.py",
             ["{d}/out", "{d}/boost.log"], one_log("boost.log", bo), 2, ["stdout"],
             stdout="full"),

        Case("idle-report: a whole log", "idle-bench-report.py", ["{d}/out", "{d}/idle.log"],
             one_log("idle.log", il), 0,
             show=["frame p95 (ms)        | 9.00 (0.0)   | 8.90 (0.0) -1.1% (-1.1%)"]),
        Case("idle-report: a line cut after 'gov=menu ca'", "idle-bench-report.py",
             ["{d}/out", "{d}/idle.log"],
             one_log("idle.log", cut(il, "@idlebench_run gov=menu iter=1 case=audio", "ca")), 2,
             [f"idle.log:{line_of(il, 'case=audio')}:", "case"]),
        Case("idle-report: a header without governors=", "idle-bench-report.py",
             ["{d}/out", "{d}/idle.log"],
             one_log("idle.log", edit(il, "governors=menu,teo ", "")), 2,
             ["idle.log:1:", "governors"]),
        Case("idle-report: stdout on a full device", "idle-bench-report.py",
             ["{d}/out", "{d}/idle.log"], one_log("idle.log", il), 2, ["stdout"],
             stdout="full"),

        Case("pelt-report: whole logs", "pelt-bench-report.py",
             ["{d}/out", "{d}/p1.log", "{d}/p2.log", "{d}/p4.log"], pelt(), 0,
             show=["PELT 16 ms against 32 ms: RampUp: to a big CPU -50.0%"]),
        Case("pelt-report: frames=0", "pelt-bench-report.py",
             ["{d}/out", "{d}/p1.log", "{d}/p2.log", "{d}/p4.log"],
             pelt(2, edit(pelt_log(2), "frames=100 over", "frames=0 over")), 2,
             ["p2.log:5:", "frames=0"]),
        Case("pelt-report: a @pelt_ramp line cut after 'it'", "pelt-bench-report.py",
             ["{d}/out", "{d}/p1.log", "{d}/p2.log", "{d}/p4.log"],
             pelt(4, cut(pelt_log(4), "@pelt_ramp", "@pelt_ramp it")), 2,
             ["p4.log:2:", "iter"]),
        Case("pelt-report: stdout on a full device", "pelt-bench-report.py",
             ["{d}/out", "{d}/p1.log", "{d}/p2.log", "{d}/p4.log"], pelt(), 2, ["stdout"],
             stdout="full"),

        Case("vxu4log.py em-cpus: a JSON list", "vxu4log.py", ["em-cpus", "{d}/em.json"],
             bench(em="[1, 2]"), 2, ["em.json", "perf_domains"]),
        Case("vxu4log.py em-cpus: a CPU that is no number", "vxu4log.py",
             ["em-cpus", "{d}/em.json"],
             bench(em='{"perf_domains": [{"name": "cpu0", "cpus": ["x"], '
                      '"states": [{"frequency_khz": 200000, "power_uw": 1}]}]}'), 2,
             ["em.json", "perf_domains[0].cpus"]),

        Case("timescale-report: whole logs", "timescale-bench-report.py", ["{d}/ts"], timescale(), 0,
             show=["K=1 off, K=8 off", "| 0.40/0.60 "]),
        Case("timescale-report: a binary log, quoted short and escaped", "timescale-bench-report.py",
             ["{d}/ts"], timescale(bytes(range(256)) * 4), 2,
             ["K8.log:1:", "\\x00\\x01"]),
        Case("timescale-report: stdout on a full device", "timescale-bench-report.py", ["{d}/ts"],
             timescale(), 2, ["stdout"], stdout="full"),

        Case("fidelity-report: a whole log, fitted", "fidelity-report.py",
             ["--fit", "{d}/f.log", "{d}/out", "{d}/f.log"],
             lambda d: (one_log("f.log", fidelity_log())(d), os.mkdir(f"{d}/out")) and None, 0,
             show=["null       | a15", "6.20x", "80.00 ms a loop", "RMS relative residual"]),
        Case("fidelity-report: memory events fit the memory probes", "fidelity-report.py",
             ["--fit", "{d}/f.log", "{d}/out", "{d}/f.log"],
             lambda d: (one_log("f.log", fidelity_cache_log())(d), os.mkdir(f"{d}/out")) and None,
             0, show=["misses/op", "memcpy | a15  | 32       | 131072"]),
        Case("fidelity-report: ns_per_op=abc", "fidelity-report.py", ["{d}/out", "{d}/f.log"],
             lambda d: (one_log("f.log", edit(fidelity_log(), "ns_per_op=2000.0",
                                              "ns_per_op=abc"))(d), os.mkdir(f"{d}/out")) and None,
             2, ["f.log:2:", "ns_per_op=abc"]),
        Case("fidelity-report: class counts cut short", "fidelity-report.py",
             ["{d}/out", "{d}/f.log"],
             lambda d: (one_log("f.log", edit(fidelity_log(), "a15=1.00,1.00",
                                              "a15=1.00"))(d), os.mkdir(f"{d}/out")) and None,
             2, ["f.log:2:", "a15"]),
        Case("fidelity-report: hackbench alone (ONLY=hackbench), its debts", "fidelity-report.py",
             ["{d}/out", "{d}/f.log"],
             lambda d: (one_log("f.log", hackbench_log())(d), os.mkdir(f"{d}/out")) and None, 0,
             show=["80.00 ms a loop (-l 5 and -l 10, medians of 3 and 3 runs)",
                   "hackbench -l 10, 0.900 s: debts of all CPUs over the run "
                   "62.0 ms (kernel's 2.0), paid 55.0, dropped 1.5; CPUs behind their speed 0.5 ms"]),
        Case("fidelity-report: hackbench alone, fitted", "fidelity-report.py",
             ["--fit", "{d}/f.log", "{d}/out", "{d}/f.log"],
             lambda d: (one_log("f.log", hackbench_log())(d), os.mkdir(f"{d}/out")) and None, 2,
             ["--fit", "f.log", "no @fid_probe line"]),
        Case("fidelity-report: no @fid_done (a boot cut short)", "fidelity-report.py",
             ["{d}/out", "{d}/f.log"],
             lambda d: (one_log("f.log", fidelity_log()[:-1])(d), os.mkdir(f"{d}/out")) and None,
             2, ["f.log", "cut short"]),
    ]
    return out


def listing(d: str) -> list[str]:
    return sorted(os.path.relpath(os.path.join(r, f), d)
                  for r, _, fs in os.walk(d) for f in fs)


def run(case: Case, reports: str | None, tmp: str) -> tuple[bool, list[str]]:
    d = tempfile.mkdtemp(dir=tmp)
    case.make(d)
    if not os.path.lexists(f"{d}/out"):
        os.mkdir(f"{d}/out")
    before = listing(d)
    args = [a.replace("{d}", d) for a in case.args]
    report = os.path.join(reports, case.report) if reports else REPORTS[case.report]
    cmd = [sys.executable, report] + args
    if case.stdout == "full":
        with open("/dev/full", "w") as full:
            res = subprocess.run(cmd, stdout=full, stderr=subprocess.PIPE, text=True,
                                 timeout=60)
        out = ""
    elif case.stdout == "closed":
        res = subprocess.run(["bash", "-c", '"$@" >&-', "-"] + cmd, stderr=subprocess.PIPE,
                             text=True, timeout=60)
        out = ""
    else:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        out = res.stdout
    err = res.stderr
    lines = err.splitlines()
    why = []
    if res.returncode != case.rc:
        why.append(f"exit {res.returncode}, want {case.rc}")
    if "Traceback" in err:
        why.append("a Python traceback")
    missing = [s for s in case.show if s not in out]
    if missing:
        why.append(f"stdout lacks {missing}")
    if case.rc == 2:
        if len(lines) != 1:
            why.append(f"{len(lines)} lines on stderr, want 1")
        missing = [s for s in case.say if s not in err]
        if missing:
            why.append(f"stderr lacks {missing}")
        if out:
            why.append("output on stdout")
        if case.stdout == "pipe" and listing(d) != before:
            why.append(f"wrote {sorted(set(listing(d)) - set(before))}")
    for p in (f"{d}/ro",):
        if os.path.exists(p):
            os.chmod(p, stat.S_IRWXU)
    return not why, why + [f"stderr: {line}" for line in lines[:5]]


def main() -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    reports = None
    if sys.argv[1:2] == ["--reports"] and len(sys.argv) == 3:
        reports = sys.argv[2]
    elif sys.argv[1:]:
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="reports-test.")
    try:
        all_cases = cases()
        print("KTAP version 1")
        print(f"1..{len(all_cases)}")
        bad = 0
        for n, case in enumerate(all_cases, 1):
            good, details = run(case, reports, tmp)
            bad += not good
            print(f"{'ok' if good else 'not ok'} {n} {case.name}")
            for line in details if not good else details[-1:] if case.rc == 2 else []:
                print(f"# {line}")
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
