# SPDX-License-Identifier: GPL-2.0
"""The guest payloads' rt-app workloads (tools/testing/vxu4/guest), by
the name the guest asks for (its lib's rtapp NAME: the initramfs'
/usr/share/vxu4/rtapp/NAME.json, written by workloads.py write):

  calibrate-cpu4, calibrate-cpu0  rt-app's own calibration on CPU4 (an
                  A15) or CPU0 (an A7), a 1 s run of one task (lib's
                  calibrate reads rt-app's "pLoad = N ns")
  bench-a15, bench-a7  the reference case (bench, pelt-bench's rtapp):
                  INSTANCES periodic tasks of 10% of the biggest CPU,
                  16 ms period, for DURATION s, calibrated on that
                  cluster (PLOAD_A15, PLOAD_A7)
  stress          4 such tasks for an hour, rt-app calibrating itself
                  on CPU4 (stress)
  timescale       one task of 10% and one of 30% on each kind of CPU
                  (cpu4, cpu5, cpu0, cpu1) for 4 s, rt-app calibrating
                  itself on CPU4 (timescale-bench)
  pelt-ramp       LISA's RampUp: 2 s at 10%, 2 s at 70%, with rt-app's
                  phase markers (pelt-bench)
and those whose shape a run's setting chooses, written by the benches
on the host for their run (workloads.py overlay):
  frames N        N frames at 60 Hz (16667 us) of a fixed pseudo-random
                  sequence (Park-Miller, x = 16807 x mod 2^31 - 1, x0 = 1):
                  a burst of 8-14 ms in one frame of four, else 2-6 ms
                  (pelt-bench)
  frames-split N  the same, each frame's work in two halves around a
                  sleep of 1-3 ms (a third number of the sequence a
                  frame; idle-bench)
  audio S         a task woken every 5-10 ms (the sequence from x0 = 2)
                  for 0.5 ms of work, for S s (idle-bench)
  video S         a decoder at 30 Hz (33333 us): 3-6 ms of work (the
                  sequence from x0 = 3), 10 ms every 15th frame; a
                  display task at 60 Hz: 0.5 ms; for S s (idle-bench)
and, sized from the board, the EAS behaviour tests'
(eas-behaviour/TEST: the tests of tools/testing/vxu4/eas_behaviour).
"""

from __future__ import annotations

import os
import sys
from typing import Iterator

from workloads import (DURATION, INSTANCES, PLOAD_A7, PLOAD_A15, Board, Custom, Periodic, Phase,
                       Task, Workload)

PERIOD_US = 16000


def _bench(calibration: object) -> Workload:
    t = Task("periodic", (Periodic.pct(10, PERIOD_US, ref="unique"),), loop=-1,
             instances=INSTANCES, flat=True)
    return Workload((t,), calibration=calibration, duration=DURATION)  # type: ignore[arg-type]


def payload_workloads() -> dict[str, Workload]:
    """The payloads' workloads that need no board: name -> workload."""
    cal = {f"calibrate-cpu{c}": Workload((Task("cal", (Custom((("run", 1000),)),), flat=True),),
                                         calibration=f"CPU{c}", duration=1, policy=None)
           for c in (4, 0)}
    stress = Workload((Task("periodic", (Periodic.pct(10, PERIOD_US, ref="unique"),), loop=-1,
                            instances=4, flat=True),), calibration="CPU4", duration=3600)
    ts = Workload(tuple(Task(name, (Periodic.pct(pct, PERIOD_US, ref=ref, cpus=(cpu,)),),
                             loop=-1, flat=True)
                        for name, pct, ref, cpu in (("a15d10", 10, "a", 4), ("a15d30", 30, "b", 5),
                                                    ("a7d10", 10, "c", 0), ("a7d30", 30, "d", 1))),
                  calibration="CPU4", duration=4)
    ramp = Workload((Task("ramp", (Periodic(1600, PERIOD_US, 125), Periodic(11200, PERIOD_US, 125)),
                          phase_names=("light", "heavy")),),
                    log_size="disable", ftrace=True)
    return {**cal, "bench-a15": _bench(PLOAD_A15), "bench-a7": _bench(PLOAD_A7),
            "stress": stress, "timescale": ts, "pelt-ramp": ramp}


def _park_miller(x0: int) -> Iterator[int]:
    x = x0
    while True:
        x = x * 16807 % 2147483647
        yield x


def frames(n: int, split: bool = False) -> Workload:
    """N frames (see above); rt-app's log of each in /tmp/frames-frame-*.log."""
    seq = _park_miller(1)
    ph: list[Phase] = []
    timer = {"ref": "frame", "period": 16667}
    for _ in range(n):
        burst = next(seq) % 4 == 0
        x = next(seq)
        run = 8000 + x % 6001 if burst else 2000 + x % 4001
        if split:
            wait = 1000 + next(seq) % 2001
            ph.append(Custom((("loop", 1), ("run1", run // 2), ("sleep", wait),
                              ("run2", run - run // 2), ("timer", timer))))
        else:
            ph.append(Custom((("loop", 1), ("run", run), ("timer", timer))))
    return Workload((Task("frame", tuple(ph), phase_names=tuple(f"f{i}" for i in range(n))),),
                    log_basename="frames", log_size=4)


def audio(s: int) -> Workload:
    """S s of audio (see above)."""
    seq = _park_miller(2)
    ph: list[Phase] = []
    t = 0
    while t < s * 1000000:
        p = 5000 + next(seq) % 5001
        t += p
        ph.append(Periodic(500, p, 1, ref="audio"))
    return Workload((Task("audio", tuple(ph)),), log_size="disable")


def video(s: int) -> Workload:
    """S s of video (see above)."""
    seq = _park_miller(3)
    dec: list[Phase] = [Periodic(10000 if i % 15 == 0 else 3000 + x % 3001, 33333, 1)
                        for i, x in zip(range(s * 30), seq)]
    show = Task("display", (Periodic(500, 16667, s * 60),), phase_names=("show",))
    return Workload((show, Task("decode", tuple(dec), phase_names=tuple(f"d{i}" for i in range(len(dec))))),
                    log_size="disable")


OVERLAYS = {"frames": lambda n: frames(n), "frames-split": lambda n: frames(n, True),
            "audio": audio, "video": video}


def eas_behaviour_workloads(board: Board) -> tuple[dict[str, Workload], str]:
    """The EAS behaviour tests' workloads on BOARD (name ->
    workload), and their board.txt: "tests NAME ..." (the tests in their
    order, which the guest runs when told none), the sizes and the
    tasks' phases (the guest checks the sizes against its board and
    prints both)."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "suites"))
    import eas_behaviour
    sizes = eas_behaviour.Sizes.of(board)
    out: dict[str, Workload] = {}
    lines = ["tests " + " ".join(test.name for test in eas_behaviour.TESTS), sizes.board_line()]
    for test in eas_behaviour.TESTS:
        out[f"eas-behaviour/{test.name}"] = test.workload(sizes)
        lines.extend(test.task_lines(sizes))
    return out, "\n".join(lines) + "\n"
