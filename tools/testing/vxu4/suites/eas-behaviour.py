#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge LISA's EAS behaviour tests run on the virtual XU4.

  eas-behaviour.py [--ktap] LOG DISK OUTDIR
  eas-behaviour.py --self-check BOARD_DTB

LOG is the console of a boot with vxu4.mode=eas-behaviour (the guest's
vxu4-eas-behaviour: "@eb_* ..." lines), DISK its results disk (a tar
archive of the trace and rt-app's logs). The traces are read with build/trace-events (libtracecmd
and libtraceevent), the board's Energy Model with eas-em (from the copy
of its debugfs in the archive).

The tests are the package eas_behaviour (tools/testing/vxu4/eas_behaviour:
one module a test, its workload and its verdict; judge.py the shared
judgement), in the order of its MODULES. Per test, as LISA's
eas_behaviour.py and misfit.py:
  placement  the EM's energy of the placement that happened (each task's
             util is its rt-app duty, on the CPU it last ran on or woke
             on; each perf domain at the lowest OPP covering its busiest
             CPU, inefficient OPPs skipped as the kernel skips them),
             against the energy of the best placement of the same utils
             (every assignment of tasks to CPUs where each CPU's util x
             1.2 fits its capacity, searched exhaustively up to the
             symmetry of a perf domain's CPUs): at most 5% more (RampUp
             15%, RampDown 18%, as LISA);
  slack      at most 15% of each task's activations late (rt-app's
             slack < 0);
  noise      the other tasks together ran under 1% of the test, as
             LISA's test_noisy_tasks() counts them: its known noisy
             services (NOISE_ACCOUNTING_THRESHOLDS: schedutil's sugov:N
             threads while they ran at most 5% of the test together,
             threaded IRQs at most 1.5%) are left out, the idle task
             always; rt-app's main thread, which starts the tasks and
             writes their logs, is the workload's;
  misfit     (StaggeredFinishes) no big CPU idle, once the tasks are
             free, while a task still runs on a LITTLE CPU, for longer
             than the kernel takes to see it: a tick to notice the
             misfit task, then the top sched domain's max_interval
             (debugfs) in whole ticks (misfit_limit_ms()).
Beside: the metered energy (both clusters' hwmon meters) and its ratio
to the EM's estimate of the placement; for the why: the time the root
domain was overutilized, the share of the tasks' wakeups that took the
energy-aware path (a sched_compute_energy event for the task since its
last wakeup), and PELT's util_avg against each phase's duty.

Writes OUTDIR/report.txt (the table, then the details), summary.json,
a PNG per test (each task's CPU and each cluster's frequency over time,
gnuplot) and the archive as OUTDIR/eb/ (trace.dat, em/, <test>/ rt-app's
logs). With --ktap, KTAP on stdout:
one result per test, by name; a failed test gives its numbers, and its
cause where the trace shows one.
Exit: 0 all passed, 1 a test failed, 2 bad input.
"""


import os
import sys
import json
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vxu4log  # noqa: E402
from eas_behaviour import TESTS  # noqa: E402
from eas_behaviour.judge import (EnergyModel, analyse, before, board_check, die, misfit_limit_ms,  # noqa: E402
                                 plot, read_events, report_lines, segments, self_checks, small_on_big)

BY_NAME = {t.name: t for t in TESTS}



def main_self_check(dtb: str) -> int:
    """KTAP of the judge's own checks that need no boot, on the EM that
    eas-em computes from DTB (the board's)."""
    checks = self_checks(EnergyModel(dtb, "compute"))
    print("KTAP version 1")
    print(f"1..{len(checks)}")
    for n, (ok, desc, details) in enumerate(checks, 1):
        print(f"{'ok' if ok else 'not ok'} {n} {desc}")
        for d in details:
            print("# " + d)
    return 0 if all(c[0] for c in checks) else 1


def main(argv: list[str]) -> int:
    args = argv[1:]
    if args[:1] == ["--self-check"]:
        if len(args) != 2:
            print("usage: eas-behaviour.py --self-check BOARD_DTB", file=sys.stderr)
            return 2
        return main_self_check(args[1])
    ktap = "--ktap" in args
    args = [a for a in args if a != "--ktap"]
    if len(args) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    log, disk, out = args
    os.makedirs(out, exist_ok=True)
    lines = vxu4log.read_lines(log, "boot with vxu4.mode=eas-behaviour first (make eas-behaviour)")
    at = lambda kind: vxu4log.at_lines(lines, kind)  # noqa: E731
    b = at("eb_board")
    if not b:
        die(f"{log}: no @eb_board line: the guest's vxu4-eas-behaviour did not run "
            f"({'; '.join(at('eb_error')) or 'see the log'})")
    board = vxu4log.kv(b[0])
    for k in ("cap_l", "cap_b", "cpu_l", "cpu_b", "ncpu", "small", "big", "tiny"):
        board[k] = int(board[k])
    board["bigs"] = [int(c) for c in board["bigs"].split(",")]
    domains = [vxu4log.kv(x) for x in at("eb_domain")]
    ticks = at("eb_tick")
    if not domains or not ticks:
        die(f"{log}: no @eb_domain or @eb_tick line: the guest's vxu4-eas-behaviour "
            f"predates this judge (make initramfs) or could not read them")
    hz = int(vxu4log.kv(ticks[0])["hz"])
    top_interval = int(max(domains, key=lambda d: int(d["domain"]))["max_interval"])
    misfit_limit = misfit_limit_ms(top_interval, hz)
    tasks = {}
    for x in at("eb_task"):
        d = vxu4log.kv(x)
        ph = [tuple(int(v) for v in p.split(":")) for p in d["phases"].split(",")]
        tasks.setdefault(d["test"], []).append({"name": d["name"], "phases": ph})
    energy = {vxu4log.kv(x)["test"]: vxu4log.kv(x) for x in at("eb_energy")}
    guest_errors = at("eb_error")
    if not at("eb_archive"):
        die(f"{log}: no @eb_archive line: the guest wrote no archive "
            f"({'; '.join(guest_errors) or 'see the log'})")
    try:
        with tarfile.open(disk, mode="r:") as tf:
            tf.extractall(out, filter="data")
    except (tarfile.TarError, OSError) as e:
        die(f"{disk}: not the guest's tar archive ({e}): boot again (make eas-behaviour)")
    em = EnergyModel(os.path.join(out, "eb", "em"))
    dat = os.path.join(out, "eb", "trace.dat")
    if not os.path.exists(dat):
        die(f"{log}: no trace.dat in the archive ({'; '.join(guest_errors) or 'see the log'})")
    events = read_events(dat)
    seg = segments(events)
    pre = before(events, [v[0] for v in seg.values()])
    results = []
    for test in [t.name for t in TESTS if t.name in tasks]:
        d = os.path.join(out, "eb", test)
        errs = [e for e in guest_errors if e.startswith(test + ":")]
        if test not in seg:
            results.append({"test": test, "errors": errs + [f"no eb_begin/eb_end markers of {test} in {dat}"]})
            continue
        r = analyse(test, tasks[test], board, em, events, seg[test], pre[seg[test][0]], d,
                    misfit_limit, BY_NAME[test].energy_pct)
        r["errors"] = errs + r["errors"]
        e = energy.get(test, {})
        try:
            r["metered_uj"] = int(e["a7_uj"]) + int(e["a15_uj"])
            r["metered_a7_uj"], r["metered_a15_uj"] = int(e["a7_uj"]), int(e["a15_uj"])
            r["guest_ms"] = int(e["guest_ms"])
        except (KeyError, ValueError):
            r["errors"].append(f"no metered energy ({e or 'no @eb_energy line'})")
        if "series" in r:
            r["png"] = os.path.join(out, test + ".png")
            if not plot(r, r["png"], board):
                r.pop("png")
        results.append(r)
    # The table
    rows = [("test", "verdict", "placement/optimal", "metered mJ", "metered/EM",
             "late % (worst task)", "noise %", "overutilized %")]
    for r in results:
        ok, why = BY_NAME[r["test"]].verdict(r)
        r["passed"], r["why"] = ok, why
        v = "pass" if ok else "FAIL"
        if "ratio" in r and r["ratio"]:
            pl = f"{r['ratio']:.3f} (<= {1 + r['limit_pct'] / 100:.2f})"
        elif "misfit_max_ms" in r:
            pl = f"misfit idle {r['misfit_max_ms']:.1f} ms (<= {r['misfit_limit_ms']})"
        else:
            pl = "-"
        met = f"{r['metered_uj'] / 1000:.1f}" if "metered_uj" in r else "-"
        mr = (f"{r['metered_uj'] / r['est_uj']:.2f}"
              if "metered_uj" in r and r.get("est_uj") else "-")
        late = max(r.get("late", {}).values(), key=lambda s: s["pct"], default=None)
        lt = f"{late['pct']:.1f}" if late else "-"
        nz = f"{r['noise_pct']:.2f}" if "noise_pct" in r else "-"
        ou = f"{r['overutilized_pct']:.1f}" if r.get("overutilized_pct") is not None else "-"
        rows.append((r["test"], v, pl, met, mr, lt, nz, ou))
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    table = "\n".join("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip()
                      for row in rows)
    detail = []
    for r in results:
        detail.append(f"\n{r['test']}: {'passed' if r['passed'] else 'failed: ' + '; '.join(r['why'])}")
        if not r["passed"] and small_on_big(r):
            detail.append("  cause: " + small_on_big(r))
        detail.extend(report_lines(r))
    head = (f"EAS behaviour tests (LISA's eas_behaviour.py, misfit.py) on the virtual XU4, "
            f"guest time (QEMU icount)\nboard: capacities {board['cap_l']}/{board['cap_b']}, "
            f"small util {board['small']}, big util {board['big']}, warm-up util {board['tiny']}, "
            f"period {board['period_us']} us; rt-app calibrated on cpu4 at its top OPP "
            f"({board['pload_ns']} ns/loop)")
    report = head + "\n\n" + table + "\n" + "\n".join(detail) + "\n"
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(report)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"board": board, "results": [{k: v for k, v in r.items() if k != "series"}
                                               for r in results]}, f, indent=1)
    # The tests the boot was asked for (vxu4.tests=A,B; all without it)
    # that left no result.
    asked_line = at("eb_tests")
    asked = asked_line[0].split(",") if asked_line else [t.name for t in TESTS]
    missing = [t for t in asked if t not in tasks]
    checks = [board_check(em, board)]
    if ktap:
        print("KTAP version 1")
        print(f"1..{len(checks) + len(results) + len(missing)}")
        n = 0
        for ok, desc, details in checks:
            n += 1
            print(f"{'ok' if ok else 'not ok'} {n} {desc}")
            for d in details:
                print("# " + d)
        for r in results:
            n += 1
            for line in table.splitlines() if n == len(checks) + 1 else []:
                print("# " + line)
            desc = r["test"]
            if "ratio" in r and r["ratio"]:
                desc += f": placement energy {r['ratio']:.3f}x optimal"
            if "misfit_max_ms" in r:
                desc += f": big CPU idle at most {r['misfit_max_ms']:.1f} ms with a misfit task waiting"
            print(f"{'ok' if r['passed'] else 'not ok'} {n} {desc}")
            for w in r["why"]:
                print("# " + w)
            if not r["passed"] and small_on_big(r):
                print("# cause: " + small_on_big(r))
            # The why of a failure in CI's log too, not only in report.txt.
            for d in report_lines(r) if not r["passed"] else []:
                print("# " + d.strip())
        for t in missing:
            n += 1
            print(f"not ok {n} {t}")
            print(f"# not run: {'; '.join(guest_errors) or 'no @eb_task line'}")
    else:
        for ok, desc, details in checks:
            if not ok:
                print(f"eas-behaviour.py: check failed: {desc} {' '.join(details)}", file=sys.stderr)
        print(report, end="")
        print(f"\n(results in {out}: report.txt, summary.json, <test>.png)")
    bad = missing or [r for r in results if not r["passed"]] or \
        [c for c in checks if not c[0]]
    return 1 if bad else 0


if __name__ == "__main__":
    vxu4log.guard(lambda: main(sys.argv))
