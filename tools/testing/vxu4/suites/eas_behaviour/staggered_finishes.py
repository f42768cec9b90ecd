# SPDX-License-Identifier: GPL-2.0
"""StaggeredFinishes (LISA's misfit.py): one CPU-bound task per CPU,
pinned to it for 0.5 s, then free, busy for 0.1 s more per task, the
tasks that started on the biggest CPUs finishing first: a misfit task on
a LITTLE must move to an idle big."""

from .base import MisfitTest, Sizes, TaskSpec


class StaggeredFinishes(MisfitTest):
    @classmethod
    def tasks(cls, s: Sizes) -> list[TaskSpec]:
        return [TaskSpec(f"misfit{c}", ((-1, 500, c), (-1, (r + 1) * 100, None)))
                for r, c in enumerate(s.by_capacity)]
