#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge the KUnit suites that ran at boot in the virtual XU4.

The guest printed the KTAP of each suite (debugfs
kunit/SUITE/results, kunit.enable=1) as "@ktap" lines of its console log.
They are put together as one KTAP document, as the kernel prints them at
boot, and parsed by the kernel's own tools/testing/kunit/kunit.py parse.
Every suite of ours must have run in its boot and every case of its plan
passed: a missing suite, a case short of the plan, a failed case and a
skipped one are failures. energy_model_cpu_mask needs CPUs without an EM:
it is judged in the no-EM boot (in the board's boot it skips).

With --arm LOG, it judges instead the raw KTAP of
"kunit.py run --arch=arm --raw_output=kunit" (QEMU's virt machine, no
board): the suites that need no board must have run and passed every
case; the board's suites of ours are expected to skip (shown as # SKIP
with the kernel's reason); other suites of the same kunitconfig (the clk
framework's own) must pass or skip.

Prints KTAP: a result per suite (it ran, and kunit.py found its plan
complete) and per case.

Usage: kunit-boot-test.py [--ksrc KERNEL_SOURCE] [CONSOLE_LOG [NOEM_LOG]]
       kunit-boot-test.py [--ksrc KERNEL_SOURCE] --board-only CONSOLE_LOG
       kunit-boot-test.py [--ksrc KERNEL_SOURCE] --arm KUNIT_RUN_LOG
  (defaults: build/linux-source-6.12, build/system-test.log,
  build/noem-test.log)
Exit: 0 all passed, 1 a failure, 2 bad input (an unreadable log, no
kunit.py).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import vxu4log  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../../.."))

# Our suites and the boot each is judged in; those judged in the "board"
# boot but listed in BOARD_FREE also run (and must pass) without a board.
SUITES = {
    "clk-virt-cluster-register": "board",
    "clk-virt-cluster": "board",
    "energy_model_device": "board",
    "energy_model_cost": "board",
    "energy_model_energy": "board",
    "energy_model_cpu": "board",
    "energy_model_cpu_mask": "noem",
    "sched_pelt_multiplier": "board",
    "cpufreq_boost_budget": "board",
    "cpuidle_mbed": "board",
}
BOARD_FREE = ("clk-virt-cluster-register", "clk-virt-cluster",
              "energy_model_device", "energy_model_cost", "energy_model_energy",
              "sched_pelt_multiplier", "cpuidle_mbed", "cpufreq_boost_budget")

# The skips a kunit.py run on QEMU's virt machine may show: suite -> the
# reason its cases give (a regular expression). Any other skip fails.
ARM_SKIPS = {
    # ours, that need the board: virt's one CPU has no EM, no capacities
    "energy_model_cpu": r"CPU0 is no Exynos5422 CPU|CPU0 has no Energy Model",
    "energy_model_cpu_mask": r"needs CPU0 and CPU4 of different capacities",
    # the clk framework's own, skipped upstream (drivers/clk/clk_test.c)
    "clk-multiple-parents-mux-test": r"This needs to be fixed in the core\.",
    "clk-orphan-transparent-multiple-parent-mux-test": r"This needs to be fixed in the core\.",
    "clk-single-parent-mux-test": r"This needs to be fixed in the core\.",
}

RESULT = re.compile(r"^(ok|not ok) [0-9]+ (\S+)(?: # (.*))?$")


class Ktap:
    """KTAP results, printed with their plan first once all are known."""

    def __init__(self):
        self.lines = []
        self.n = 0
        self.failed = 0
        self.skipped = 0

    def diag(self, text):
        self.lines.extend("# " + t for t in text.splitlines())

    def result(self, ok, desc, directive="", diags=()):
        self.n += 1
        desc = desc.replace("#", "nr")
        line = f"{'ok' if ok else 'not ok'} {self.n} {desc}"
        if directive:
            line += " # " + directive
        self.lines.append(line)
        self.lines.extend("# " + d for d in diags)
        if not ok:
            self.failed += 1
        elif directive.startswith("SKIP"):
            self.skipped += 1

    def print(self):
        print("KTAP version 1")
        print(f"1..{self.n}")
        print("\n".join(self.lines))
        print(f"# Totals: pass:{self.n - self.failed - self.skipped} "
              f"fail:{self.failed} skip:{self.skipped} todo:0 total:{self.n}")


def documents(log):
    """{suite: its KTAP lines} of LOG's "@ktap" lines (one document each)."""
    docs, cur = {}, None
    for line in vxu4log.at(log, "ktap"):
        if line.startswith("KTAP version"):
            cur = []
        if cur is None:
            continue
        cur.append(line)
        m = re.match(r"^\s+# Subtest: (\S+)", line)
        if m:
            docs[m.group(1)] = cur
    return docs


def raw_documents(lines):
    """{suite: its KTAP lines} of the kernel's own console KTAP (each suite
    nested under one top-level document), each made a document of its own
    as documents() returns them."""
    docs, cur = {}, None
    for line in lines:
        if line.startswith("    KTAP version"):
            cur = ["KTAP version 1", "1..1", line]
            continue
        if cur is None:
            continue
        cur.append(line)
        m = re.match(r"^    # Subtest: (\S+)", line)
        if m:
            docs[m.group(1)] = cur
        if RESULT.match(line):
            cur = None
    return docs


def combine(docs):
    """One KTAP document of the suites' documents, as at boot: version,
    plan, then each suite nested, its result renumbered."""
    out = ["KTAP version 1", f"1..{len(docs)}"]
    for i, (name, doc) in enumerate(docs.items(), 1):
        for line in doc[2:]:  # past the document's own version and plan
            m = RESULT.match(line)
            if m and m.group(2) == name:
                line = f"{m.group(1)} {i} {name}" + (f" # {m.group(3)}" if m.group(3) else "")
            elif line.startswith("# Totals"):
                continue
            out.append(line)
    return out


def case_lines(doc, case):
    """The case's result line in DOC, and the diagnostics before it."""
    diags = []
    for line in doc:
        s = line.strip()
        if s.startswith("#"):
            diags.append(s)
            continue
        m = RESULT.match(s)
        if m and m.group(2) == case:
            return s, diags
        if m:
            diags = []
    return "", diags


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ksrc", default=os.path.join(TOP, "build/linux-source-6.12"))
    ap.add_argument("log", nargs="?", default=os.path.join(TOP, "build/system-test.log"))
    ap.add_argument("noem_log", nargs="?", default=os.path.join(TOP, "build/noem-test.log"))
    ap.add_argument("--board-only", action="store_true",
                    help="judge only the suites of the board's boot (no no-EM boot)")
    ap.add_argument("--arm", metavar="KUNIT_RUN_LOG",
                    help="judge kunit.py run --arch=arm --raw_output=kunit output")
    args = ap.parse_args()
    kunit = os.path.join(args.ksrc, "tools/testing/kunit/kunit.py")
    if not os.path.isfile(kunit):
        vxu4log.die(f"{kunit} is missing: unpack the kernel source first (make kernel)")

    t = Ktap()
    if args.arm:
        boots = {"arm": args.arm}
        found = {"arm": raw_documents(vxu4log.read_lines(args.arm))}
        expect = {suite: "arm" for suite in BOARD_FREE}
    else:
        boots = {"board": args.log}
        if not args.board_only:
            boots["noem"] = args.noem_log
        found = {b: documents(log) for b, log in boots.items()}
        expect = {s: b for s, b in SUITES.items() if b in boots}
    docs = {}
    for suite, boot in expect.items():
        if suite in found[boot]:
            t.result(True, f"kunit suite {suite} ran ({boot} boot)")
            docs[suite] = found[boot][suite]
        else:
            t.result(False, f"kunit suite {suite} ran ({boot} boot)",
                     diags=[f"no KTAP of it among the @ktap lines of {boots[boot]} "
                            "(kunit.enable=1? CONFIG of the suite?)"])
    if args.arm:
        # The rest of that run: the board's suites of ours (they skip
        # there) and the other suites of the kunitconfigs.
        docs.update((n, d) for n, d in found["arm"].items() if n not in docs)
    if not docs:
        t.print()
        return 1

    with tempfile.TemporaryDirectory() as tmp:
        ktap = os.path.join(tmp, "kunit.ktap")
        js = os.path.join(tmp, "kunit.json")
        with open(ktap, "w") as f:
            f.write("\n".join(combine(docs)) + "\n")
        p = subprocess.run([sys.executable, kunit, "parse", f"--json={js}", ktap],
                           capture_output=True, text=True)
        human = [re.sub(r"^\[[0-9:]+\] ", "", l) for l in p.stdout.splitlines()]
        try:
            with open(js) as f:
                groups = json.load(f)["sub_groups"]
        except (OSError, ValueError, KeyError) as e:
            groups = []
            human.append(f"no JSON from kunit.py parse: {e}")
    bad = [l for l in human if re.search(r"ERROR|CRASHED|expected|FAILED", l)]
    t.result(p.returncode == 0 and groups,
             f"kunit.py parse: every suite's plan complete, every case passed "
             f"(exit {p.returncode})", diags=bad)
    for g in groups:
        doc = docs.get(g["name"], [])
        summary = [l.strip() for l in doc if l.startswith(f"# {g['name']}: pass:")]
        t.diag(f"suite {g['name']}: " + (summary[0][2:] if summary else "no summary line"))
        for c in g["test_cases"]:
            line, diags = case_lines(doc, c["name"])
            desc = f"kunit {g['name']}.{c['name'] or '(a case of the plan, missing)'}"
            if c["status"] == "PASS":
                t.result(True, desc)
            elif c["status"] == "SKIP" and args.arm and g["name"] in ARM_SKIPS and \
                    re.search(ARM_SKIPS[g["name"]], re.sub(r"^.*# SKIP ?", "", line)):
                t.result(True, desc, "SKIP " + re.sub(r"^.*# SKIP ?", "", line))
            elif c["status"] == "SKIP":
                t.result(False, desc + " was skipped", diags=[line])
            else:
                t.result(False, desc + f" {c['status']}", diags=diags + [line])
    t.print()
    return 1 if t.failed else 0


if __name__ == "__main__":
    vxu4log.guard(main)
