# SPDX-License-Identifier: GPL-2.0
"""The boards' published figures that the virtual XU4 is judged against.

One table for the reports that set the guest beside a board
(fidelity-report.py, timescale-bench-report.py): each figure with its board,
clock and source (../shared reference: board figures), and its time at
the XU4's own clock. A figure of another board with the same core is
taken in cycles at that board's clock, then timed at the XU4's rate; the
XU4's own figures are taken as they are.
"""

from typing import Dict, Optional, Tuple

XU4_KHZ = {"a7": 1400000, "a15": 2000000}

# TI's performance guide (TexasInstruments/processor-sdk-doc,
# source/devices/AM57X/linux/Release_Specific_Performance_Guide.rst; earlier
# SDKs on the same board: null 0.27-0.43 us, pipe 24-45 us); Thomas
# Kaiser's sbc-bench results/4pC7.txt; bretmlw/sbc-benchmarks'
# orange-pi-zero-lts-512mb/unixbench.md.
AM572X = "TI AM572x A15 1.5 GHz, lmbench, Processor SDK Linux 11.01"
OPIZ = "Orange Pi Zero A7 1.37 GHz, UnixBench 5.1.3, kernel 5.10"
SBC = "Odroid-XU4, sbc-bench v0.9.36, kernel 5.4"

# probe -> core -> (value, unit, clock of the board in kHz or None for the
# XU4's own, source, how it was measured unlike here). Units: us (a time
# per operation), mb_s (memcpy of 4 MiB) or kb_s (AES, below).
Board = Tuple[float, str, Optional[int], str, str]
BOARD: Dict[str, Dict[str, Board]] = {
    "null": {"a15": (0.43, "us", 1500000, AM572X, "")},
    "read": {"a15": (0.66, "us", 1500000, AM572X, "")},
    "write": {"a15": (0.53, "us", 1500000, AM572X, "")},
    "sigcatch": {"a15": (5.80, "us", 1500000, AM572X, "")},
    "pagefault": {"a15": (0.99, "us", 1500000, AM572X, "")},
    "fork": {"a15": (651.0, "us", 1500000, AM572X, ""),
             "a7": (1e6 / 1482, "us", 1370000, OPIZ, "process creation")},
    "ctx": {"a15": (6.19, "us", 1500000, AM572X, "lat_ctx 2 processes, 128 KB each")},
    "pipe": {"a15": (39.81, "us", 1500000, AM572X,
                     "earlier SDKs on the board: 24-45 us")},
    "ub-syscall": {"a7": (1e6 / 602653, "us", 1370000, OPIZ, "")},
    "ub-pipe": {"a7": (1e6 / 260355, "us", 1370000, OPIZ, "")},
    "ub-ctx": {"a7": (1e6 / 45301, "us", 1370000, OPIZ, "")},
    "memcpy": {"a15": (2287.0, "mb_s", None, SBC, ""), "a7": (331.0, "mb_s", None, SBC, "")},
    "lat-l1": {"a15": (2.00e-3, "us", None, SBC, ""), "a7": (2.15e-3, "us", None, SBC, "")},
    "lat-16m": {"a15": (174.8e-3, "us", None, SBC, ""), "a7": (159.5e-3, "us", None, SBC, "")},
    "aes": {"a15": (71538.0, "kb_s", None, SBC, ""), "a7": (27148.0, "kb_s", None, SBC, "")},
}
# kb_s: openssl speed's 1000 bytes a second on 16 KiB blocks (one block
# an operation).
AES_BLOCK = 16384

# The 2020 series on the Odroid-XU3 (schedutil, EAS): hackbench -l 500
# -s 4096 (its 10 groups) took 7.95 s (8.15 s without the series).
HACKBENCH_XU3_S = 7.95
HACKBENCH_XU3_LOOPS = 500


def board_ns(probe: str, core: str) -> Optional[float]:
    """The board's time of one operation of PROBE on CORE at the XU4's
    clock, ns (memcpy: one copy of 4 MiB; aes: one 16 KiB block); None
    where no board has one."""
    b = BOARD.get(probe, {}).get(core)
    if not b:
        return None
    value, unit, khz, _, _ = b
    if unit == "mb_s":
        return 4 * 1048576 / value * 1e3
    if unit == "kb_s":
        return AES_BLOCK / value * 1e6
    ns = value * 1e3
    return ns * khz / XU4_KHZ[core] if khz else ns


def board_cycles(probe: str, core: str) -> Optional[float]:
    """The board's cycles of one operation of PROBE on CORE."""
    ns = board_ns(probe, core)
    return ns * XU4_KHZ[core] / 1e6 if ns is not None else None
