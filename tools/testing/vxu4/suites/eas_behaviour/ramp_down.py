# SPDX-License-Identifier: GPL-2.0
"""RampDown (LISA's eas_behaviour.py): RampUp's steps from big down to
10% of the smallest CPU's capacity; energy within 18% (LISA's)."""

from .base import PlacementTest, Sizes, TaskSpec, warm
from .ramp_up import STEP_MS, levels


class RampDown(PlacementTest):
    energy_pct = 18

    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return [warm("ramp", s, *[(u, STEP_MS) for u in levels(s, down=True)])]
