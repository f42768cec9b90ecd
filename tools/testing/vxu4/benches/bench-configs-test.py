#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make bench's configurations, defined once (tools/testing/vxu4/benches/bench-configs):
KTAP.

  - the file reads (vxu4log.bench_configs()), and docs/benches.md holds
    its table as vxu4log.py bench-configs --markdown renders it, line for
    line (the docs cannot drift from the definition);
  - bench-report.py names the configurations from it;
  - broken copies are refused, naming the file and the line: a line of
    five fields, an EAS that is not 1, 0 or -, a letter given twice, the
    configurations that take turns on two DTBs.

Usage: bench-configs-test.py
"""

import importlib.util
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import vxu4log  # noqa: E402

GOOD = ["a|vxu4.dtb|1|2|EM+EAS|the series", "b|vxu4.dtb|0|2|EM, EAS off|EAS off",
        "c|vxu4-noem.dtb|-|2|no EM|no EM"]


def refused(lines: list[str], *frags: str) -> str:
    """'' if bench_configs() refuses LINES (a file) with a LogError whose
    text holds FRAGS, else why not."""
    with tempfile.NamedTemporaryFile("w", suffix="-bench-configs", delete=False) as f:
        f.write("# a copy\n" + "\n".join(lines) + "\n")
    try:
        vxu4log.bench_configs(f.name)
    except vxu4log.LogError as e:
        missing = [x for x in (f.name,) + frags if x not in str(e)]
        return f"message lacks {missing}: {e}" if missing else ""
    finally:
        os.unlink(f.name)
    return "accepted"


def main() -> int:
    results: list[tuple[str, str]] = []
    try:
        cfgs = vxu4log.bench_configs()
    except vxu4log.LogError as e:
        print(f"KTAP version 1\n1..1\nnot ok 1 bench-configs reads\n# {e}")
        return 1
    got = [(c.cfg, c.dtb, c.eas, c.levels) for c in cfgs]
    want = [("a", "vxu4.dtb", 1, 2), ("b", "vxu4.dtb", 0, 2), ("c", "vxu4-noem.dtb", None, 2),
            ("d", "vxu4-noem-nomc.dtb", None, 1)]
    results.append(("bench-configs: a, b on the EM board (EAS 1, 0), c without EM, d without "
                    "EM and cluster level", "" if got == want else f"got {got}"))

    table = vxu4log.bench_configs_table(cfgs)
    docs = os.path.join(TOP, "docs", "benches.md")
    with open(docs) as f:
        lines = f.read().splitlines()
    at = [i for i, line in enumerate(lines) if line == table[0]]
    why = ""
    if len(at) != 1:
        why = f"{docs}: its configurations' table head found {len(at)} times, want once"
    elif lines[at[0]:at[0] + len(table) + 1] != table + [""]:
        why = (f"{docs}:{at[0] + 1}: the table differs from bench-configs: put "
               "'tools/testing/vxu4/lib/vxu4log.py bench-configs --markdown' there")
    results.append(("docs/benches.md's table is bench-configs'", why))

    spec = importlib.util.spec_from_file_location("bench_report", os.path.join(HERE, "bench-report.py"))
    why = "cannot load bench-report.py"
    if spec and spec.loader:
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        names = {c.cfg: c.name for c in cfgs}
        why = "" if mod.CFG_NAMES == names else f"CFG_NAMES {mod.CFG_NAMES}, want {names}"
    results.append(("bench-report.py names the configurations from it", why))

    results.append(("a line of five fields is refused, naming its line",
                    refused(GOOD + ["d|x.dtb|-|1|five"], ":5:", "5 fields, want 6")))
    results.append(("an EAS of 2 is refused",
                    refused(["a|vxu4.dtb|2|2|x|y"], ":2:", "EAS: want 1, 0 or -")))
    results.append(("a letter given twice is refused",
                    refused(GOOD + ["a|vxu4.dtb|1|2|x|y"], ":5:", "not given before")))
    results.append(("configurations taking turns on two DTBs are refused",
                    refused(GOOD + ["e|other.dtb|1|2|x|y"], "want them on one DTB")))

    print("KTAP version 1")
    print(f"1..{len(results)}")
    for n, (name, why) in enumerate(results, 1):
        print(f"{'not ok' if why else 'ok'} {n} {name}")
        if why:
            print(f"# {why}")
    return 1 if any(why for _, why in results) else 0


if __name__ == "__main__":
    sys.exit(main())
