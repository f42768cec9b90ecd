# SPDX-License-Identifier: GPL-2.0
"""TwoBigTasks (LISA's eas_behaviour.py): two big tasks for 1 s."""

from .base import PlacementTest, Sizes, TaskSpec, warm


class TwoBigTasks(PlacementTest):
    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return [warm(f"big{i}", s, (s.big, 1000)) for i in range(2)]
