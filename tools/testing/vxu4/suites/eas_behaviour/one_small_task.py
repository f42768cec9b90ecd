# SPDX-License-Identifier: GPL-2.0
"""OneSmallTask (LISA's eas_behaviour.py): one small task for 1 s."""

from .base import PlacementTest, Sizes, TaskSpec, warm


class OneSmallTask(PlacementTest):
    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return [warm("small0", s, (s.small, 1000))]
