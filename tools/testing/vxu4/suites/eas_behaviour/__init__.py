# SPDX-License-Identifier: GPL-2.0
"""LISA's EAS behaviour tests on the virtual XU4, one module a test (its
workload and its verdict: one subclass of base.EasBehaviourTest, base.py
says how), listed in MODULES in the order they run and are reported in:
a new test is a module here and its line in MODULES."""

from __future__ import annotations

import importlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))

from .base import EasBehaviourTest, Sizes  # noqa: E402

MODULES = [
    "one_small_task",
    "three_small_tasks",
    "two_big_tasks",
    "two_big_three_small",
    "energy_model_wake_migration",
    "ramp_up",
    "ramp_down",
    "staggered_finishes",
]


def _test_of(module: str) -> type[EasBehaviourTest]:
    """The one test class that MODULE defines."""
    mod = importlib.import_module(f".{module}", __name__)
    found = [v for v in vars(mod).values() if isinstance(v, type) and issubclass(v, EasBehaviourTest)
             and v.__module__ == mod.__name__]
    if len(found) != 1:
        raise ImportError(f"{mod.__file__}: defines {len(found)} test classes, want one")
    return found[0]


TESTS: list[type[EasBehaviourTest]] = [_test_of(m) for m in MODULES]

__all__ = ["TESTS", "MODULES", "Sizes", "EasBehaviourTest"]
