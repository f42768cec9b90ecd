# SPDX-License-Identifier: GPL-2.0
"""What every EAS behaviour test shares: the workload's sizes from the
board (Sizes), a test's workload as data turned into rt-app's file
(EasBehaviourTest.workload()), and its verdict (PlacementTest: energy
against the optimal placement and slack; MisfitTest: a big CPU's idle
time while a misfit task waits; both: noise).

A test is a class in a module of its own that names its tasks
(tasks(sizes): TaskSpec, each a list of (util, ms) phases, util -1 for
CPU-bound, an optional CPU to pin it) and, if it differs from LISA's 5%,
its energy limit; listed once in __init__.py's MODULES (the order they
run and are reported in).

The sizes, in capacity units (the biggest CPU is 1024), with cap_L and
cap_B the smallest and biggest CPU capacity, f the OPPs of their perf
domains that schedutil can choose (the EM's states but the inefficient
ones, which cpufreq skips) and schedutil's frequency
1.25 * f_max * util / cap:
  small  about cap_L / 2, where 1.25 x lands midway between two of the
         LITTLEs' OPPs: cap_L * (f_i + f_i+1) / (2 * 1.25 * f_max), the
         pair whose value is nearest cap_L / 2;
  big    too big for a LITTLE with the 20% fit margin (util * 1.2 >
         cap_L) and fitting a big CPU with it: the bigs' value of the
         same rule nearest the middle of (cap_L / 1.2, cap_B / 1.2);
  tiny   1% of the biggest CPU: each task's first 0.5 s (WARMUP), so
         that its util_est starts empty (LISA's first phase).
Tasks are periodic with a 16 ms period (PERIOD_US).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import ClassVar, Sequence

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from workloads import PLOAD_A15, Board, Busy, Periodic, Task, Workload  # noqa: E402

PERIOD_US = 16000
WARMUP_MS = 500
MARGIN = 1.2            # a util fits a CPU if util * 1.2 <= capacity
LATE_PCT = 15           # activations with negative slack, per task
NOISE_PCT = 1           # the other tasks' runtime together, % of the test


def midway(cap: int, target: float, opps: Sequence[int]) -> int:
    """The util whose 1.25 x lands midway between two adjacent OPPS (kHz),
    the pair nearest TARGET."""
    fmax = max(opps)
    cands = [cap * (a + b) / (2 * 1.25 * fmax) for a, b in zip(opps, opps[1:])]
    return int(min(cands, key=lambda u: (u - target) ** 2) + 0.5)


def small_big(cap_l: int, opps_l: Sequence[int], cap_b: int, opps_b: Sequence[int]) -> tuple[int, int]:
    """The small and big task utils (the rules above)."""
    small = midway(cap_l, cap_l // 2, sorted(opps_l))
    big = midway(cap_b, (cap_l * 10 // 12 + cap_b * 10 // 12) // 2, sorted(opps_b))
    return small, big


@dataclass(frozen=True)
class Sizes:
    """The board as the tests size their workloads from it."""
    cap_l: int
    cap_b: int
    cpu_l: int
    cpu_b: int
    by_capacity: tuple[int, ...]     # the CPUs, the biggest first
    bigs: tuple[int, ...]
    opps_l: tuple[int, ...]
    opps_b: tuple[int, ...]
    small: int
    big: int
    tiny: int
    period_us: int = PERIOD_US

    @staticmethod
    def of(board: Board) -> Sizes:
        cpu_l, cpu_b = board.littlest(), board.biggest()
        cap_l, cap_b = board.capacity(cpu_l), board.capacity(cpu_b)
        opps_l, opps_b = board.domain(cpu_l).opps_khz, board.domain(cpu_b).opps_khz
        small, big = small_big(cap_l, opps_l, cap_b, opps_b)
        return Sizes(cap_l, cap_b, cpu_l, cpu_b, tuple(board.by_capacity()), tuple(board.bigs()),
                     tuple(opps_l), tuple(opps_b), small, big, max(cap_b // 100, 1))

    def board_line(self) -> str:
        """board.txt's second line: "board WHAT_THE_GUEST_CHECKS SIZES",
        "opps OPPS" (the guest's @eb_board holds both, rt-app's
        calibration between them)."""
        j = lambda v: ",".join(map(str, v))  # noqa: E731
        return (f"board cap_l={self.cap_l} cap_b={self.cap_b} cpu_l={self.cpu_l} cpu_b={self.cpu_b} "
                f"ncpu={len(self.by_capacity)} bigs={j(self.bigs)} small={self.small} big={self.big} "
                f"tiny={self.tiny} period_us={self.period_us}\n"
                f"opps opps_l={j(self.opps_l)} opps_b={j(self.opps_b)}")


@dataclass(frozen=True)
class TaskSpec:
    """A task: its name and its phases (util or -1 for CPU-bound, ms,
    the CPU it is pinned to or None)."""
    name: str
    phases: tuple[tuple[int, int, int | None], ...]


def warm(name: str, s: Sizes, *phases: tuple[int, int]) -> TaskSpec:
    """A periodic task NAME: WARMUP_MS at the tiny util, then PHASES
    ((util, ms) each)."""
    return TaskSpec(name, ((s.tiny, WARMUP_MS, None),) + tuple((u, ms, None) for u, ms in phases))


class EasBehaviourTest:
    """A test: its name (the class's), workload and verdict."""
    name: ClassVar[str]
    energy_pct: ClassVar[float] = 5     # LISA's energy threshold

    def __init_subclass__(cls) -> None:
        cls.name = cls.__name__

    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        raise NotImplementedError

    @classmethod
    def workload(cls, s: Sizes) -> Workload:
        """rt-app's file: each task's phases, its logs in /tmp/eb/TEST,
        rt-app's phase markers in the trace."""
        tasks = []
        for t in cls.tasks(s):
            ph = [Busy(ms, () if cpu is None else (cpu,)) if u < 0 else
                  Periodic.util(u, s.period_us, ms, () if cpu is None else (cpu,))
                  for u, ms, cpu in t.phases]
            tasks.append(Task(t.name, tuple(ph)))
        return Workload(tuple(tasks), calibration=PLOAD_A15, logdir=f"/tmp/eb/{cls.name}",
                        log_basename="rt-app", log_size=4, ftrace=True)

    @classmethod
    def task_lines(cls, s: Sizes) -> list[str]:
        """board.txt's lines of the test's tasks (the guest prints them as
        "@eb_task test=T name=N phases=UTIL:MS,...", the judge reads them)."""
        return [f"task test={cls.name} name={t.name} phases="
                + ",".join(f"{u}:{ms}" for u, ms, _ in t.phases) for t in cls.tasks(s)]

    @classmethod
    def checks(cls, r: dict) -> list[str]:
        """The test's own reasons to fail on its numbers R."""
        return []

    @classmethod
    def verdict(cls, r: dict) -> tuple[bool, list[str]]:
        """(passed, [reasons it failed])"""
        why = list(r["errors"])
        if not why:
            why += cls.checks(r)
            if r.get("noise_pct", 0) >= NOISE_PCT:
                worst = ", ".join(f"{n['comm']} (pid {n['pid']}) {n['pct']:.2f}%" for n in r["noise_counted"])
                why.append(f"noise: other tasks ran {r['noise_pct']:.2f}% of the test, "
                           f"{NOISE_PCT}% allowed ({worst})")
        return not why, why


class PlacementTest(EasBehaviourTest):
    """LISA's eas_behaviour.py: the placement's EM energy within
    energy_pct % of the optimal placement's; at most LATE_PCT % of each
    task's activations late."""

    @classmethod
    def checks(cls, r: dict) -> list[str]:
        why = []
        if "ratio" in r:
            if r["ratio"] is None:
                why.append("no optimal placement")
            elif r["ratio"] > 1 + r["limit_pct"] / 100:
                why.append(f"placement energy {r['ratio']:.3f}x optimal, over {1 + r['limit_pct'] / 100:.2f}")
            for n, s in r["late"].items():
                if s["pct"] > LATE_PCT:
                    why.append(f"{n}: {s['pct']:.1f}% of {s['activations']} activations late, over {LATE_PCT}%")
        return why


class MisfitTest(EasBehaviourTest):
    """LISA's misfit.py: no big CPU idle, once the tasks are free, while a
    task still runs on a LITTLE CPU, for longer than the kernel takes to
    see it (judge.misfit_limit_ms())."""

    @classmethod
    def checks(cls, r: dict) -> list[str]:
        if "misfit_max_ms" in r and r["misfit_max_ms"] > r["misfit_limit_ms"]:
            return [f"cpu{r['misfit_cpu']} idle {r['misfit_max_ms']:.1f} ms at {r['misfit_at_s']:.3f} s "
                    f"while a misfit task ran on a LITTLE CPU, over {r['misfit_limit_ms']} ms"]
        return []
