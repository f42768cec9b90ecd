#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test tiers (tools/testing/check.sh runs this): the suites that
tools/testing/vxu4/suites/registry.toml lists for a tier, then one closing line
"N passed, N failed".

  check.sh [check|ci|full|debug]   (default: check)
    check  make check        every edit: minutes
    ci     make check-ci     what CI runs (.ci/run)
    full   make check-full   everything: before a series version, and
                             whenever the emulation changes
    debug  make check-debug  the debug kernel's suites
  check.sh --suite TARGET|ID [TIER]
                             one suite alone, the same way: the suite
                             whose make target is TARGET (make
                             check-boost) or whose ID is ID; its form of
                             TIER when given (a suite may differ per
                             tier), else its own (its make target's).
                             The boots whose logs it reads are made
                             first, unless their logs are current
                             (registry.py: current())
  check.sh --targets         the make targets: "TARGET NAME NEEDS" a
                             line, tab-separated (the Makefile's), NEEDS
                             what make TARGET has made first, computed
                             from what the suite declares (registry.py:
                             make_needs()): board (a boot's files: make
                             vxu4 initramfs tools), kernel or deps
  check.sh --plan [TIER | --suite TARGET|ID [TIER]]
                             what that would run, nothing run: each
                             suite's number, lane, ID and name, what it
                             boots or reads, and each lane's order

The lanes (computed by registry.py from what each suite declares; the
registry's header says how): "head" suites run first, here; then the
"iso" lane (boots, each on a host core of its own: scripts/vxu4.sh) and
the "host" lane (the other core, VXU4_ISOLATE=0) run at once, each one
suite after the other; "any" suites are the iso lane's, unless the host
lane, its own suites done, starts one first; "here" suites (judges of the
logs of boots before them) run in this script when their turn comes.
Every suite is shown in the registry's order as soon as it and those
before it are done. A suite alone runs here, with the caller's
environment and its standard error as it comes.

The output is KTAP (Documentation/dev-tools/ktap.rst): each suite prints
a KTAP document (tools/testing/ktap.sh), shown here nested as a subtest,
then its result; the totals are added up from the suites' result lines.
Known failures (KTAP's "# TODO") and skips are counted on lines of their
own above the closing one.

Exit: 0 nothing failed, 1 a failure, 2 bad usage or a broken registry.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

# The registry's folder (registry.toml, registry.py, boot.py), from the top
# of the tree: the folder above this one that holds scripts/vxu4.sh.
REGISTRY_DIR = "tools/testing/vxu4/suites"
sys.dont_write_bytecode = True
sys.path.insert(0, str(next((p for p in Path(__file__).resolve().parents
                             if (p / "scripts/vxu4.sh").is_file()), Path("/")) / REGISTRY_DIR))
import registry  # noqa: E402
from registry import Boot, Form, Registry, Suite  # noqa: E402

PROG = "check.sh"
USAGE = (f"usage: {PROG} [check|ci|full|debug] | --suite TARGET|ID [TIER] | --targets"
         " | --plan [TIER | --suite TARGET|ID [TIER]]")
TOP = registry.TOP
BOOT_PY = str(registry.BOOT_PY)


def usage() -> int:
    print(USAGE, file=sys.stderr)
    return 2


@dataclass
class Row:
    """A suite as this run runs it."""

    n: int
    suite: Suite
    form: Form
    lane: str

    @property
    def id(self) -> str:
        return self.suite.id


class Procs:
    """The commands running, each a session of its own, so that a stop
    takes its QEMU along."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.live: set[subprocess.Popen[bytes]] = set()
        self.stopping = False

    def run(self, argv: list[str], env: dict[str, str], out: IO[bytes] | int | None,
            err: IO[bytes] | int | None) -> int:
        with self.lock:
            if self.stopping:
                return 130
            try:
                p = subprocess.Popen(argv, cwd=TOP, env=env, stdin=subprocess.DEVNULL,
                                     stdout=out, stderr=err, start_new_session=True)
            except OSError as e:
                msg = f"{PROG}: cannot run {argv[0]}: {e.strerror}\n".encode()
                if isinstance(err, int) or err is None:
                    sys.stderr.buffer.write(msg)
                    sys.stderr.flush()
                else:
                    err.write(msg)
                return 127
            self.live.add(p)
        try:
            return p.wait()
        finally:
            with self.lock:
                self.live.discard(p)

    def stop(self) -> None:
        with self.lock:
            self.stopping = True
            for p in self.live:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                except OSError:
                    pass


def run_suite(reg: Registry, procs: Procs, row: Row, env: dict[str, str],
              out: IO[bytes], err: IO[bytes] | int | None) -> int:
    """A suite's prepare, its boots (boot.py), then its command."""
    if row.suite.prepare:
        rc = procs.run(list(row.suite.prepare), env, err if err is not None else 2, err)
        if rc != 0:
            return rc
    for b in row.form.boots:
        rc = procs.run([BOOT_PY, b, "--console"], env, err if err is not None else 2, err)
        if rc != 0:
            msg = f"boot {b} ({reg.boots[b].log}): exit status {rc}, its judge not run\n".encode()
            if isinstance(err, int) or err is None:
                sys.stderr.buffer.write(msg)
                sys.stderr.flush()
            else:
                err.write(msg)
                err.flush()
            return rc
    return procs.run(registry.expand(reg, row.form.run), env, out, err)


def counts(text: str) -> tuple[int, int, int, int, int, int]:
    """A suite's own results (not nested deeper): pass, fail, todo, skip;
    its plan (-1: none), its number of results."""
    p = f = t = k = n = 0
    plan = -1
    for ln in text.splitlines():
        if re.match(r"^(not )?ok [0-9]+ ", ln):
            n += 1
            if ln.startswith("ok ") and " # SKIP" in ln:
                k += 1
            elif ln.startswith("ok "):
                p += 1
            elif " # TODO" in ln:
                t += 1
            else:
                f += 1
        elif plan < 0 and re.fullmatch(r"1\.\.[0-9]+", ln):
            plan = int(ln[3:])
    return p, f, t, k, plan, n


class Totals:
    def __init__(self) -> None:
        self.passed = self.failed = self.todo = self.skipped = self.shown = 0
        self.suites_failed: list[str] = []
        self.start = time.monotonic()

    def secs(self) -> int:
        return int(time.monotonic() - self.start)

    def show(self, name: str, out: Path, err: Path, rc: int) -> None:
        """A suite's KTAP nested (4 spaces) under "# Subtest: NAME", its
        stderr as diagnostics, its results added, its own result line."""
        self.shown += 1
        o = out.read_bytes().decode("utf-8", "surrogateescape")
        lines: list[str] = []
        for i, ln in enumerate(o.splitlines()):
            lines.append("    " + ln)
            if i == 0:
                lines.append("    # Subtest: " + name)
        for ln in err.read_bytes().decode("utf-8", "surrogateescape").splitlines():
            lines.append("# " + ln)
        p, f, t, k, plan, n = counts(o)
        self.passed += p
        self.todo += t
        self.skipped += k
        if plan != n or n == 0:
            lines.append(f"# {name}: its plan is 1..{plan}, its results {n}")
            f += 1
        elif f == 0 and rc != 0:
            lines.append(f"# {name}: no failed result, but exit status {rc}")
            f = 1
        self.failed += f
        if f == 0:
            lines.append(f"ok {self.shown} {name}")
        else:
            self.suites_failed.append(name)
            lines.append(f"not ok {self.shown} {name}")
        lines.append(f"# {name}: done at {self.secs()} s")
        emit(lines)


def emit(lines: list[str]) -> None:
    sys.stdout.write("".join(ln + "\n" for ln in lines))
    sys.stdout.flush()


def pick(reg: Registry, what: str, tier: str | None) -> Suite | str:
    """The suite --suite names, or why none."""
    if what == "-" or not registry.WORD.match(what):
        return (f"--suite '{what}': want a make target or an ID of {reg.rel()} "
                f"({PROG} --targets lists the targets)")
    if tier is not None and tier not in registry.TIERS:
        return f"--suite {what} {tier}: unknown tier '{tier}': want one of {' '.join(registry.TIERS)}"
    found = [s for s in reg.suites if s.target == what] or [s for s in reg.suites if s.id == what]
    if not found:
        return (f"--suite '{what}': no suite of {reg.rel()} has that make target or ID "
                f"({PROG} --targets lists the targets; the IDs are its [suite.ID])")
    s = found[0]
    if tier is not None and tier not in s.tiers:
        return (f"--suite {what} {tier}: suite {s.id} is not in tier {tier}: its tiers are "
                f"{' '.join(s.tiers) or 'none'} (or drop the tier: its own form)")
    return s


def rows_of(reg: Registry, tier: str | None, alone: Suite | None) -> list[Row]:
    if alone is not None:
        return [Row(1, alone, alone.form(tier), "here")]
    assert tier is not None
    return [Row(i + 1, s, s.form(tier), reg.lane(s, tier)) for i, s in enumerate(reg.tier(tier))]


def describe_boot(reg: Registry, b: Boot) -> str:
    env = registry.environ()
    kernel = "build/obj-debug's zImage" if b.kernel == "debug" else "build/obj's zImage"
    parts = [kernel, b.dtb]
    if b.initrd == "none":
        parts.append("no initramfs")
    if b.disk:
        parts.append("a disk")
    if b.scale is not None:
        parts.append(f"K = {b.scale}")
    if b.cost:
        parts.append(f"cost {b.cost}" + (f" ({b.weights})" if b.weights else ""))
    if b.timeout is not None:
        parts.append(f"timeout {b.timeout} s")
    return f"{', '.join(parts)}; {' '.join(b.kernel_args(env)) or '(no arguments)'} -> {b.log}"


def plan(reg: Registry, tier: str | None, alone: Suite | None) -> int:
    rows = rows_of(reg, tier, alone)
    if alone is not None:
        print(f"# suite '{alone.id}' alone{f' (tier {tier} form)' if tier else ''}, "
              f"from {reg.rel()}, in this order:")
    else:
        print(f"# tier {tier}: {len(rows)} suites from {reg.rel()}")
    made_by: dict[str, Row] = {}
    for r in rows:
        print(f"{r.n:3d} {r.lane:4s} {r.id} | {r.form.name}")
        if r.suite.prepare:
            print(f"        prepare: {' '.join(r.suite.prepare)}")
        for b in r.form.reads:
            if b in made_by:
                print(f"        reads boot {b} ({reg.boots[b].log}), made by {made_by[b].n} {made_by[b].id}")
            else:
                m = reg.maker(b)
                how = (f"suite {m[0].id}'s command{f' (tier {m[1]})' if m[1] else ''}"
                       if m else f"boot.py {b}")
                print(f"        reads boot {b} ({reg.boots[b].log}): first, unless its log is "
                      f"current, made by {how}")
        for b in r.form.boots:
            print(f"        boots {b} (boot.py): {describe_boot(reg, reg.boots[b])}")
            made_by[b] = r
        for b in r.form.makes:
            print(f"        makes {b} (its command, boot.py): {describe_boot(reg, reg.boots[b])}")
            made_by[b] = r
        if r.suite.boots_via:
            print(f"        boots through {r.suite.boots_via}")
        print(f"        runs: {' '.join(registry.expand(reg, r.form.run))}")
    if alone is None:
        for lane, ids in (("head", [r.id for r in rows if r.lane == "head"]),
                          ("iso", [r.id for r in rows if r.lane in ("iso", "any")]),
                          ("host", [r.id for r in rows if r.lane == "host"]
                           + [f"({r.id})" for r in rows if r.lane == "any"]),
                          ("here", [r.id for r in rows if r.lane == "here"])):
            print(f"# lane {lane}: {' '.join(ids) or '-'}")
        print("# (an any suite in parentheses: the host lane's when it gets there first)")
    return 0


def make_reads(reg: Registry, procs: Procs, row: Row, tier: str | None) -> None:
    """Alone: the boots its judge reads, unless their logs are current."""
    env = registry.environ()
    for b in row.form.reads:
        boot = reg.boots[b]
        log = TOP / boot.log
        if registry.current(TOP, log, registry.want_stamp(reg, boot, env)):
            print(f"{PROG}: boot {b}: {boot.log} is current (its .boot: the same files and "
                  "arguments, powered off): reused", file=sys.stderr, flush=True)
            continue
        m = reg.maker(b)
        if m is not None:
            s, t = m
            print(f"{PROG}: boot {b}: {boot.log} is not current: made by suite {s.id}'s command",
                  file=sys.stderr, flush=True)
            mrow = Row(0, s, s.form(t), "here")
            run_suite(reg, procs, mrow, env, sys.stderr.buffer, None)
        else:
            print(f"{PROG}: boot {b}: {boot.log} is not current: booting it", file=sys.stderr,
                  flush=True)
            procs.run([BOOT_PY, b, "--console"], env, 2, None)


def main(argv: list[str]) -> int:
    try:
        reg = registry.load(registry.default_path(TOP), TOP)
    except registry.RegistryError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2

    if argv[:1] == ["--targets"]:
        if len(argv) != 1:
            return usage()
        for s in reg.suites:
            if s.target:
                print(f"{s.target}\t{s.base.name}\t{reg.make_needs(s)}")
        return 0

    planning = argv[:1] == ["--plan"]
    if planning:
        argv = argv[1:]
    alone: Suite | None = None
    tier: str | None
    if argv[:1] == ["--suite"]:
        if not 2 <= len(argv) <= 3:
            return usage()
        tier = argv[2] if len(argv) == 3 else None
        got = pick(reg, argv[1], tier)
        if isinstance(got, str):
            print(f"{PROG}: {got}", file=sys.stderr)
            return 2
        alone = got
    else:
        if len(argv) > 1:
            return usage()
        tier = argv[0] if argv else "check"
        if tier not in registry.TIERS:
            return usage()
        if not reg.tier(tier):
            print(f"{PROG}: {reg.rel()} lists no suite of tier {tier}", file=sys.stderr)
            return 2
    if planning:
        return plan(reg, tier, alone)
    return run(reg, tier, alone, argv[1] if alone is not None else "")


def run(reg: Registry, tier: str | None, alone: Suite | None, alone_name: str) -> int:
    rows = rows_of(reg, tier, alone)
    procs = Procs()
    tot = Totals()
    out = Path(tempfile.mkdtemp())
    done: dict[str, threading.Event] = {r.id: threading.Event() for r in rows}
    rcs: dict[str, int] = {}
    claimed: set[str] = set()
    claim_lock = threading.Lock()
    sys.stdout.reconfigure(errors="surrogateescape")  # type: ignore[attr-defined]

    def task(r: Row, env: dict[str, str]) -> None:
        with (out / f"{r.id}.out").open("wb") as o, (out / f"{r.id}.err").open("wb") as e:
            rc = run_suite(reg, procs, r, env, o, e)
        rcs[r.id] = rc
        done[r.id].set()

    def lane(name: str) -> None:
        env = registry.environ()
        if name == "host":
            env["VXU4_ISOLATE"] = "0"
        passes: list[tuple[str, ...]] = [("iso", "any")] if name == "iso" else [("host",), ("any",)]
        for lanes in passes:
            for r in rows:
                if r.lane not in lanes:
                    continue
                with claim_lock:
                    if r.id in claimed:
                        continue
                    claimed.add(r.id)
                task(r, env)

    def on_signal(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    threads: list[threading.Thread] = []
    try:
        emit(["KTAP version 1"])
        if alone is not None:
            emit([f"# suite '{alone_name}' alone: 1 suite from {reg.rel()}", "1..1"])
            r = rows[0]
            make_reads(reg, procs, r, tier)
            (out / f"{r.id}.err").write_bytes(b"")
            with (out / f"{r.id}.out").open("wb") as o:
                rcs[r.id] = run_suite(reg, procs, r, registry.environ(), o, None)
            done[r.id].set()
        else:
            emit([f"# make check tier '{tier}': {len(rows)} suites from {reg.rel()}",
                  f"1..{len(rows)}"])
            for r in rows:
                if r.lane == "head":
                    task(r, registry.environ())
            for name in ("iso", "host"):
                if any(r.lane in (name, "any") for r in rows):
                    t = threading.Thread(target=lane, args=(name,), daemon=True)
                    t.start()
                    threads.append(t)
        for r in rows:
            if r.lane == "here" and alone is None and not done[r.id].is_set():
                task(r, registry.environ())
            while not done[r.id].wait(1):
                pass
            tot.show(r.form.name, out / f"{r.id}.out", out / f"{r.id}.err", rcs[r.id])
    except KeyboardInterrupt:
        procs.stop()
        shutil.rmtree(out, ignore_errors=True)
        return 130
    finally:
        procs.stop()
    shutil.rmtree(out, ignore_errors=True)

    tail: list[str] = []
    if tot.shown != len(rows):
        tail.append(f"# check.sh ran {tot.shown} suites, its plan says {len(rows)}")
        tot.failed += 1
    if tot.suites_failed:
        tail.append(f"# failed suites: {' '.join(tot.suites_failed)}")
    if tot.todo:
        tail.append(f"# known failures (# TODO, shown above with their numbers and causes): {tot.todo}")
    if tot.skipped:
        tail.append(f"# skipped (# SKIP, shown above with their reasons): {tot.skipped}")
    if alone is not None:
        tail.append(f"# suite '{alone_name}': {tot.secs()} s of wall time")
    else:
        tail.append(f"# tier '{tier}': {tot.secs()} s of wall time")
    tail.append(f"{tot.passed} passed, {tot.failed} failed")
    emit(tail)
    return 0 if tot.failed == 0 else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
