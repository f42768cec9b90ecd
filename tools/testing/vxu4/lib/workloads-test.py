#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The workload library's own tests (workloads.py, guest_workloads.py and
the EAS behaviour tests' workloads), on known answers, no boot: one KTAP
document (self-checks.sh runs it in make check).

  workloads-test.py BOARD_DTB

The sizes: a periodic 20% task of 16 ms runs 3200 us every 16000 us; a
util of 553 (the big task) 8641 us; the ramp's steps; the board read
from BOARD_DTB's EM (eas-em compute) and the EAS behaviour tests'
workloads sized from it; the placeholders filled by the guest's own
rtapp (its lib, run here by sh) into the JSON rt-app reads; the appended
cpio; and bad input: exit 2, one line naming it, no traceback.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import guest_workloads  # noqa: E402
import workloads as wl  # noqa: E402

CLI = [sys.executable, os.path.join(HERE, "workloads.py")]
GUEST_LIB = os.path.join(TOP, "tools", "testing", "vxu4", "guest", "lib")
EAS_EM = os.path.join(TOP, "tools", "power", "eas", "eas-em")
results: list[tuple[bool, str, list[str]]] = []


def check(ok: bool, desc: str, *details: str) -> None:
    results.append((bool(ok), desc, [d for d in details if d] if not ok else []))


def run(args: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, **kw)


def phases(doc: dict[str, Any], task: str) -> list[dict[str, Any]]:
    return list(doc["tasks"][task]["phases"].values())


def refused(args: list[str], words: list[str], desc: str) -> None:
    """CLI ARGS: exit 2, one line on stderr holding WORDS, nothing on
    stdout, no traceback."""
    r = run(CLI + args)
    lines = r.stderr.splitlines()
    ok = (r.returncode == 2 and len(lines) == 1 and not r.stdout
          and all(w in r.stderr for w in words) and "Traceback" not in r.stderr)
    check(ok, desc, f"exit {r.returncode}, stderr: {r.stderr.strip()!r}, stdout: {r.stdout[:80]!r}")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: workloads-test.py BOARD_DTB", file=sys.stderr)
        return 2
    dtb = argv[1]

    # The sizes.
    r = run(CLI + ["show", "periodic", "20", "16000", "1000"])
    doc = json.loads(r.stdout) if r.returncode == 0 else {}
    p = phases(doc, "periodic")[0] if doc else {}
    check(p.get("run") == 3200 and p.get("timer", {}).get("period") == 16000 and p.get("loop") == 62,
          "a periodic 20% task of 16 ms for 1 s: run 3200 us a 16000 us period, 62 periods", str(p))
    big = wl.Periodic.util(553, 16000, 1000)
    check((big.run_us, big.loops) == (8641, 62), "util 553 of 16 ms for 1 s: run 8641 us, 62 periods",
          str(big))
    check(wl.Periodic.pct(10, 16000).run_us == 1600, "10% of 16 ms: run 1600 us")
    levels = wl.ramp_levels(37, 553, 51.2)
    want = [37, 88, 139, 191, 242, 293, 344, 395, 447, 498, 553]
    check(levels == want and wl.ramp_levels(553, 37, 51.2) == want[::-1],
          "ramp from 37 to 553 in steps of 51.2: 37, 88, ... 498, then 553; down the same reversed",
          str(levels))
    r = run(CLI + ["show", "ramp", "10", "50", "10", "16000", "500"])
    ph = phases(json.loads(r.stdout), "ramp") if r.returncode == 0 else []
    check([x["run"] for x in ph] == [1594, 3203, 4797, 6406, 8000] and all(x["loop"] == 31 for x in ph),
          "show ramp 10% to 50% in 10% steps, 0.5 s each: utils 102, 205, 307, 410, 512 (whole "
          "capacity units), runs 1594..8000 us, 31 periods each",
          str(ph)[:200])
    busy = wl.Task("m", (wl.Busy(500, (4,)),)).json()
    check(busy == {"loop": 1, "phases": {"p0": {"loop": 1, "runtime": 500000, "cpus": [4]}}},
          "a CPU-bound phase of 500 ms pinned to cpu4: runtime 500000 us, cpus [4]", str(busy))

    # The payloads' files: the keys in rt-app's order, the placeholders.
    files = guest_workloads.payload_workloads()
    bench = json.loads(files["bench-a15"].text())
    check(list(bench["global"]) == ["duration", "calibration", "default_policy", "logdir", "lock_pages"]
          and bench["global"]["calibration"] == "@PLOAD_A15@" and bench["global"]["duration"] == "@DURATION@"
          and bench["tasks"]["periodic"] == {"instance": "@INSTANCES@", "loop": -1, "run": 1600,
                                             "timer": {"ref": "unique", "period": 16000}},
          "bench-a15: 10% of 16 ms, INSTANCES copies for DURATION s, calibration PLOAD_A15",
          json.dumps(bench))
    check(files["bench-a15"].placeholders() == ["DURATION", "INSTANCES", "PLOAD_A15"]
          and files["stress"].placeholders() == [] and files["timescale"].placeholders() == [],
          "placeholders: bench's three; stress and timescale none (rt-app calibrates itself on CPU4)")
    ts = json.loads(files["timescale"].text())
    check([(n, t["run"], t["cpus"]) for n, t in ts["tasks"].items()]
          == [("a15d10", 1600, [4]), ("a15d30", 4800, [5]), ("a7d10", 1600, [0]), ("a7d30", 4800, [1])],
          "timescale: 10% and 30% tasks on cpu4, cpu5, cpu0, cpu1, in that order", json.dumps(ts))
    fr = json.loads(guest_workloads.frames(4, split=True).text())
    check([(x["run1"], x["sleep"], x["run2"]) for x in phases(fr, "frame")]
          == [(1324, 2154, 1324), (2487, 1284, 2488), (5972, 1899, 5972), (2300, 1725, 2301)],
          "frames-split 4: Park-Miller's first frames (run halves around a sleep)", json.dumps(fr)[:300])
    aud = guest_workloads.audio(1)
    total = sum(p.period_us for p in aud.tasks[0].phases)
    check(total >= 1000000 and total - aud.tasks[0].phases[-1].period_us < 1000000,
          f"audio 1 s: wakeups until 1 s is reached ({len(aud.tasks[0].phases)} periods, {total} us)")

    with tempfile.TemporaryDirectory() as tmp:
        # The board, from eas-em's JSON of its DTB.
        em = os.path.join(tmp, "em.json")
        r = run([EAS_EM, "compute", "--json", dtb])
        with open(em, "w") as f:
            f.write(r.stdout)
        b = wl.Board.from_em(em)
        check((b.littlest(), b.biggest(), b.bigs(), b.capacity(0), b.capacity(7)) == (0, 4, [4, 5, 6, 7], 377, 1024)
              and b.by_capacity() == [4, 5, 6, 7, 0, 1, 2, 3]
              and b.domain(2).opps_khz == (300000, 700000, 1000000, 1300000, 1400000),
              "the board from eas-em's JSON: A7 capacity 377, A15 1024, the A7s' efficient OPPs "
              "300, 700, 1000, 1300, 1400 MHz", str(b)[:300])
        out = os.path.join(tmp, "rtapp")

        # The EAS behaviour tests, sized from the board.
        r = run(CLI + ["write", out, "--em", em])
        check(r.returncode == 0, "write OUTDIR --em: the payloads' and the EAS behaviour tests' files",
              r.stderr.strip())
        board = ""
        try:
            with open(os.path.join(out, "eas-behaviour", "board.txt")) as f:
                board = f.read()
            one = json.load(open(os.path.join(out, "eas-behaviour", "OneSmallTask.json")))
            sf = json.load(open(os.path.join(out, "eas-behaviour", "StaggeredFinishes.json")))
        except (OSError, ValueError) as e:
            one, sf = {}, {}
            check(False, "the EAS behaviour tests' files are there", str(e))
        check(board.startswith("tests OneSmallTask ThreeSmallTasks TwoBigTasks TwoBigThreeSmall "
                               "EnergyModelWakeMigration RampUp RampDown StaggeredFinishes\n"
                               "board cap_l=377 cap_b=1024 cpu_l=0 cpu_b=4 ncpu=8 bigs=4,5,6,7 "
                               "small=183 big=553 tiny=10 period_us=16000\n"),
              "board.txt: the tests in their order; the board's sizes: capacities 377/1024, small "
              "util 183, big util 553, warm-up 10", board[:300])
        ph = phases(one, "small0") if one else []
        check([(x["loop"], x["run"]) for x in ph] == [(31, 156), (62, 2859)]
              and one["global"]["logdir"] == "/tmp/eb/OneSmallTask" and one["global"]["ftrace"] is True,
              "OneSmallTask: 0.5 s at util 10 (156 us), 1 s at 183 (2859 us), logs in /tmp/eb/OneSmallTask",
              json.dumps(one)[:300])
        names = list(sf["tasks"]) if sf else []
        first = phases(sf, "misfit4")[0] if sf else {}
        check(names == [f"misfit{c}" for c in (4, 5, 6, 7, 0, 1, 2, 3)]
              and first == {"loop": 1, "runtime": 500000, "cpus": [4]},
              "StaggeredFinishes: one task per CPU, the biggest first, pinned 0.5 s", str(names))
        check(board.count("\ntask test=RampUp name=ramp phases=10:500,37:500,88:500,") == 1,
              "RampUp's phases in board.txt: the warm-up, then 37, 88, ...", board[-400:])

        # The guest's rtapp fills the placeholders (its lib, run by sh).
        filled = os.path.join(tmp, "rt.json")
        sh = ("RTAPP=$0 . $1 2>/dev/null; rtapp bench-a15 $2 PLOAD_A15=307 DURATION=3 INSTANCES=24 "
              "&& cat \"$2\"")
        env = dict(os.environ, RTAPP_TMP=tmp)
        r = run(["sh", "-c", sh, out, GUEST_LIB, filled], env=env)
        try:
            got = json.loads(r.stdout)
        except ValueError:
            got = {}
        check(got.get("global", {}).get("calibration") == 307 and got["global"]["duration"] == 3
              and got["tasks"]["periodic"]["instance"] == 24,
              "the guest's rtapp: calibration 307, duration 3, 24 instances, numbers in rt-app's JSON",
              r.stdout[:200], r.stderr.strip())
        r = run(["sh", "-c", "RTAPP=$0 . $1 2>/dev/null; rtapp bench-a15 $2 PLOAD_A15=307", out, GUEST_LIB,
                 filled], env=env)
        check(r.returncode != 0 and '"@DURATION@" not filled' in r.stderr and not r.stdout,
              "the guest's rtapp refuses a placeholder left unfilled, naming it", r.stderr.strip())
        r = run(["sh", "-c", "RTAPP=$0 . $1 2>/dev/null; rtapp calibrate-cpu4 $2 && cat \"$2\"", out,
                 GUEST_LIB, filled], env=env)
        check(r.returncode == 0 and '"calibration": "CPU4"' in r.stdout and not r.stderr,
              "the guest's rtapp copies a file without placeholders as it is", r.stdout[:200], r.stderr.strip())
        r = run(["sh", "-c", "RTAPP=$0 . $1 2>/dev/null; rtapp nosuch $2", out, GUEST_LIB, filled], env=env)
        check(r.returncode != 0 and "no " + os.path.join(out, "nosuch.json") in r.stderr,
              "the guest's rtapp refuses a file it does not have, naming it", r.stderr.strip())

        # The appended cpio.
        ov = os.path.join(tmp, "ov.cpio.gz")
        r = run(CLI + ["overlay", ov, "frames:3", "video:1"])
        data = gzip.decompress(open(ov, "rb").read()) if r.returncode == 0 else b""
        check(data.startswith(b"070701") and b"usr/share/vxu4/rtapp/frames-3.json\0" in data
              and b"usr/share/vxu4/rtapp/video-1.json\0" in data and b"TRAILER!!!\0" in data
              and len(data) % 4 == 0,
              "overlay frames:3 video:1: a newc cpio of rtapp/frames-3.json and video-1.json",
              r.stderr.strip())

        # Bad input.
        refused(["show", "periodic", "120", "16000", "1000"], ["util", "1024"],
                "show periodic 120%: refused, exit 2, naming the util")
        refused(["show", "periodic", "20", "0", "1000"], ["period (us)", "0"],
                "a period of 0 us: refused, exit 2")
        refused(["show", "periodic", "20", "16000", "5"], ["5 ms", "16000 us"],
                "5 ms of a 16 ms period: refused, exit 2, no whole period")
        refused(["show", "sawtooth"], ["sawtooth", "periodic"], "an unknown kind: refused, naming the kinds")
        refused(["overlay", ov, "frames:0"], ["frames:0", "KIND:N"], "overlay frames:0: refused, exit 2")
        refused(["write", out, "--em", os.path.join(tmp, "nosuch.json")], ["nosuch.json", "eas-em"],
                "write --em of a missing file: refused, naming it and eas-em")
        with open(os.path.join(tmp, "bad.json"), "w") as f:
            f.write("{\"perf_domains\": 3}")
        refused(["write", out, "--em", os.path.join(tmp, "bad.json")], ["bad.json", "perf_domains"],
                "write --em of a JSON that is no EM: refused, naming the field")
        refused(["write", "/proc/nosuch/dir"], ["/proc/nosuch"], "an OUTDIR that cannot be made: refused")
        refused([], ["usage"], "no arguments: the usage, exit 2")
    for exc, make in ((wl.WorkloadError, lambda: wl.Workload((wl.Task("a", (wl.Busy(1),)),) * 2)),
                      (wl.WorkloadError, lambda: wl.Periodic(2000, 1000)),
                      (wl.WorkloadError, lambda: wl.Workload((wl.Task("a", (wl.Busy(1),)),), calibration="cpu4"))):
        try:
            make()
            check(False, f"refused: {make}")
        except exc as e:
            results.append((True, f"refused: {e}", []))

    print("KTAP version 1")
    print(f"1..{len(results)}")
    for n, (ok, desc, details) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {n} {desc}")
        for d in details:
            print("# " + d)
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
