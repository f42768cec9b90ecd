# SPDX-License-Identifier: GPL-2.0
"""RampUp (LISA's eas_behaviour.py): one task from 10% of the smallest
CPU's capacity to big in steps of 5% of the biggest CPU (51.2; the last
step to big is from 0.5 to 1.5 steps), 0.5 s a step; energy within 15%
(LISA's)."""

from workloads import ramp_levels

from .base import PlacementTest, Sizes, TaskSpec, warm

STEP = 51.2
STEP_MS = 500


def levels(s: Sizes, down: bool) -> list[int]:
    """The ramp's utils, from 10% of cap_L up to big (or down)."""
    return ramp_levels(s.big, s.cap_l // 10, STEP) if down else ramp_levels(s.cap_l // 10, s.big, STEP)


class RampUp(PlacementTest):
    energy_pct = 15

    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return [warm("ramp", s, *[(u, STEP_MS) for u in levels(s, down=False)])]
