# SPDX-License-Identifier: GPL-2.0
"""ThreeSmallTasks (LISA's eas_behaviour.py): three small tasks for 1 s."""

from .base import PlacementTest, Sizes, TaskSpec, warm


class ThreeSmallTasks(PlacementTest):
    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return [warm(f"small{i}", s, (s.small, 1000)) for i in range(3)]
