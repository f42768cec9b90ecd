# SPDX-License-Identifier: GPL-2.0
"""TwoBigThreeSmall (LISA's eas_behaviour.py): two big and three small
tasks for 1 s."""

from .base import PlacementTest, Sizes, TaskSpec, warm


class TwoBigThreeSmall(PlacementTest):
    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return ([warm(f"big{i}", s, (s.big, 1000)) for i in range(2)]
                + [warm(f"small{i}", s, (s.small, 1000)) for i in range(3)])
