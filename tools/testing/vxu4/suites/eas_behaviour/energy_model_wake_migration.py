# SPDX-License-Identifier: GPL-2.0
"""EnergyModelWakeMigration (LISA's eas_behaviour.py): one task per big
CPU, 2 s small, 2 s big, twice."""

from .base import PlacementTest, Sizes, TaskSpec, warm


class EnergyModelWakeMigration(PlacementTest):
    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return [warm(f"emwm{i}", s, *[(s.small, 2000), (s.big, 2000)] * 2)
                for i in range(len(s.bigs))]
