# SPDX-License-Identifier: GPL-2.0
"""The EAS behaviour tests' shared judge: the board's Energy Model, the
optimal placement, the trace read into each test's numbers (analyse()),
the report's lines and the plot; each test's own verdict is its class's
(base.py)."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
import vxu4log  # noqa: E402
from typing import Any  # noqa: E402


TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", ".."))
TRACE_EVENTS = os.path.join(TOP, "build", "trace-events")
EAS_EM = os.path.join(TOP, "tools", "power", "eas", "eas-em")
from .base import MARGIN, NOISE_PCT, small_big  # noqa: E402
# LISA's RTATestBundle.NOISE_ACCOUNTING_THRESHOLDS: tasks whose comm
# matches, left out of the noise while together they ran at most this
# % of the test ("Feeble boards like Juno/TC2 spend a while in sugov").
NOISE_EXCLUDED = [(re.compile(r"^sugov:\d+$"), 5.0), (re.compile(r"^irq/\d+-.*$"), 1.5)]
EVENTS = ["sched:sched_switch", "sched:sched_wakeup", "sched:sched_wakeup_new",
          "sched:sched_migrate_task", "sched:sched_process_exit", "power:cpu_frequency",
          "ftrace:print", "sched_eas:sched_overutilized", "sched_eas:sched_compute_energy",
          "sched_eas:sched_pelt_task"]
# A cause the traces show for a placement failure (small_on_big()):
# placement energy is all a test failed on, and it would pass but for the
# time a small task (one whose util fits an A7 with the margin) sat on an
# A15, that time counted at the optimum. It is printed with the failure,
# which stays a failure, with what the traces measured of it: whether
# EAS's own estimates chose the A15s, and the small tasks' util_avg
# against their duty. The test's model places duty utils without
# schedutil's 1.25 headroom, which can lift the A7s to an OPP that costs
# more in the EM than an A15 at a low one.
SMALL_ON_BIG = "small tasks spend time on A15s"


die = vxu4log.die
# A check of its own: (passed, description, details).
Check = tuple[bool, str, list[str]]


class EnergyModel:
    """The board's EM as eas-em reads it from a copy of debugfs."""

    def __init__(self, path: str, how: str = "show") -> None:
        """PATH: a copy of debugfs (eas-em show), or with HOW "compute" a
        board DTB (eas-em compute)."""
        if not os.access(EAS_EM, os.X_OK):
            die(f"{EAS_EM}: not built: run 'make tools' (or make -C tools/power/eas)")
        res = subprocess.run([EAS_EM, how, "--format=json", path],
                             capture_output=True, text=True)
        if res.returncode:
            die(f"{path}: eas-em {how} failed: {res.stderr.strip()}")
        self.pds = []
        self.cpu_pd = {}
        src = f"eas-em {how} {path}"
        for pd in vxu4log.em_domains(src, res.stdout):
            skip = bool((pd.flags or 0) & 2)
            if pd.capacity is None or any(s.performance is None for s in pd.states):
                die(f"{src}: perf domain {pd.name}: no performance (an EM older than "
                    "Linux 6.9's): this test needs each state's performance")
            states = [(s.frequency_khz, s.power_uw, s.performance)
                      for s in pd.states if not (skip and s.inefficient)]
            self.pds.append({"cpus": pd.cpus, "states": states,
                             "capacity": pd.capacity, "name": pd.name})
            for c in pd.cpus:
                self.cpu_pd[c] = len(self.pds) - 1
        self.cpus = sorted(self.cpu_pd)

    def capacity(self, cpu: int) -> int:
        return self.pds[self.cpu_pd[cpu]]["capacity"]

    def power(self, cpu_util: dict[int, float]) -> float:
        """Power (uW) of per-CPU utils (a dict): each perf domain at its
        lowest OPP whose performance covers its busiest CPU, each CPU
        P(OPP) x util / performance(OPP), at most P(OPP)."""
        total = 0.0
        for pd in self.pds:
            utils = [cpu_util.get(c, 0) for c in pd["cpus"]]
            top = max(utils)
            if top <= 0:
                continue
            st = next((s for s in pd["states"] if s[2] >= top), pd["states"][-1])
            total += sum(st[1] * min(u / st[2], 1.0) for u in utils)
        return total

    def optimal(self, utils: list[int], margin: float = MARGIN) -> float | None:
        """The least power (uW) of any placement of UTILS (task utils) on
        the CPUs where each CPU's util x MARGIN fits its capacity; None if
        none fits."""
        utils = sorted(utils, reverse=True)
        best = [None]
        load = {c: 0 for c in self.cpus}

        def place(i: int) -> None:
            if i == len(utils):
                p = self.power(load)
                if best[0] is None or p < best[0]:
                    best[0] = p
                return
            seen_empty = set()
            for c in self.cpus:
                pd = self.cpu_pd[c]
                if load[c] == 0:
                    # The CPUs of a perf domain are alike: one empty one
                    # of each stands for all.
                    if pd in seen_empty:
                        continue
                    seen_empty.add(pd)
                if (load[c] + utils[i]) * margin > self.capacity(c):
                    continue
                load[c] += utils[i]
                place(i + 1)
                load[c] -= utils[i]

        place(0)
        return best[0]


def optimal_exhaustive(em: EnergyModel, utils: list[int], margin: float = MARGIN) -> float | None:
    """EnergyModel.optimal without its pruning: every assignment of UTILS
    to the CPUs (a check of the search)."""
    best = None
    for cpus in itertools.product(em.cpus, repeat=len(utils)):
        load = {}
        for u, c in zip(utils, cpus):
            load[c] = load.get(c, 0) + u
        if any(v * margin > em.capacity(c) for c, v in load.items()):
            continue
        p = em.power(load)
        best = p if best is None or p < best else best
    return best


def workload_sizes(em: EnergyModel, cpu_l: int, cpu_b: int) -> tuple[int, int]:
    """The small and big task utils (midway between two OPPs with
    schedutil's 1.25 headroom: base.small_big()) of the EM."""
    lit, big = em.pds[em.cpu_pd[cpu_l]], em.pds[em.cpu_pd[cpu_b]]
    opps = lambda pd: [s[0] for s in pd["states"]]  # noqa: E731
    return small_big(lit["capacity"], opps(lit), big["capacity"], opps(big))


def board_check(em: EnergyModel, board: dict[str, Any]) -> Check:
    """(ok, description, details): the workload sizes the guest ran (its
    @eb_board: those the host sized the initramfs' workloads with) are
    those of the EM the guest had."""
    small, bigu = workload_sizes(em, board["cpu_l"], board["cpu_b"])
    return (small == board["small"] and bigu == board["big"],
            f"workload sizes from the EM: small util {small}, big util {bigu} "
            f"(the guest derived {board['small']}, {board['big']})", [])


def self_checks(em: EnergyModel) -> list[Check]:
    """(ok, description, details) of the judge's own parts, on the board's
    EM, that need no boot (make check runs them: --self-check): the fit
    margins, the optimal placement search against an exhaustive one, the
    noise accounting, the small-on-big cause, the trace reader on a bad
    file."""
    out = []
    lit, big = em.pds[em.cpu_pd[min(em.cpus)]], em.pds[em.cpu_pd[max(em.cpus)]]
    small, bigu = workload_sizes(em, min(em.cpus), max(em.cpus))
    fits = (bigu * MARGIN > lit["capacity"] and bigu * MARGIN <= big["capacity"]
            and small * MARGIN <= lit["capacity"])
    out.append((fits, f"big util {bigu} fits no LITTLE CPU and fits a big one with the 20% margin; "
                f"small util {small} fits a LITTLE one", []))
    cases = [[small], [small] * 3, [bigu] * 2, [bigu] * 2 + [small] * 3, [small] * 4]
    bad = []
    for utils in cases:
        a, b = em.optimal(utils), optimal_exhaustive(em, utils)
        if a is None or b is None or abs(a - b) > 1e-6 * b:
            bad.append(f"utils {utils}: search {a}, exhaustive {b}")
    out.append((not bad, f"the optimal placement search equals the exhaustive one on {len(cases)} "
                "util sets (1 and 3 small, 2 big, 2 big + 3 small, 4 small)", bad))
    # LISA's noise accounting: sugov:N left out while they ran at most
    # 5% together, the rest summed.
    cases = [([("sugov:0", 2.0), ("sugov:4", 2.5), ("kworker/4:1", 0.5)], 0.5),
             ([("sugov:0", 3.0), ("sugov:4", 2.5), ("kworker/4:1", 0.5)], 6.0),
             ([("irq/45-uart", 1.0), ("rcu_preempt", 0.4), ("kworker/0:2", 0.7)], 1.1)]
    bad = []
    for tasks, want in cases:
        counted = noise_accounting([{"comm": c, "pid": i + 1, "pct": p} for i, (c, p) in enumerate(tasks)])[1]
        got = sum(n["pct"] for n in counted)
        if abs(got - want) > 1e-9:
            bad.append(f"{tasks}: counted {got:.2f}%, expected {want}%")
    out.append((not bad, "noise as LISA counts it: sugov:N 4.5% together left out, 5.5% counted; "
                "the rest summed", bad))
    # The small-on-big cause only with the evidence: placement energy all
    # that failed, and within the limit with small-on-A15 time at the
    # optimum.
    base = {"test": "OneSmallTask", "limit_pct": 5, "small_on_big_s": 0.5,
            "why": ["placement energy 1.300x optimal, over 1.05"]}
    cases = [({"ratio_small_on_big_optimal": 1.01}, True),
             ({"ratio_small_on_big_optimal": 1.08}, False),
             ({"ratio_small_on_big_optimal": 1.01,
               "why": base["why"] + ["small0: 20.0% of 93 activations late, over 15%"]}, False)]
    bad = [f"{c}: cause named {small_on_big(dict(base, **c)) is not None}, expected {want}"
           for c, want in cases if (small_on_big(dict(base, **c)) is not None) != want]
    out.append((not bad, "a placement failure is put down to small tasks on A15s only when "
                "that time explains it and nothing else failed", bad))
    # The cause states what was measured: util below the duty is said so.
    meas = dict(base, ratio_small_on_big_optimal=1.01,
                eas_wakeups={"small1": {"wakeups": 92, "energy_aware": 92, "both": 86,
                                        "big_cheaper": 17}},
                pelt=[{"task": "small1", "phase": 1, "duty_util": 183, "util_avg": 156.4},
                      {"task": "small0", "phase": 1, "duty_util": 183, "util_avg": 146.2},
                      {"task": "small0", "phase": 0, "duty_util": 10, "util_avg": 8.0}])
    got = small_on_big(meas) or ""
    want_parts = ["at 17 of the 86 wakeups", "util_avg 146-156 is below their duty 183"]
    out.append((all(w in got for w in want_parts), "the cause gives EAS's own choices and the "
                "small tasks' util_avg against their duty, as measured",
                [] if all(w in got for w in want_parts) else [got]))
    try:
        res = subprocess.run([TRACE_EVENTS, __file__], capture_output=True, text=True)
        ok = res.returncode == 2 and __file__ in res.stderr and not res.stdout
        why = [f"exit {res.returncode}: {res.stderr.strip()}"]
    except OSError as e:
        ok, why = False, [f"{TRACE_EVENTS}: {e.strerror}: run make tools"]
    out.append((ok, "trace-events refuses a file that is not a trace.dat, naming it (exit 2)",
                why if not ok else []))
    return out


def read_events(dat: str) -> list[dict[str, Any]]:
    res = subprocess.run([TRACE_EVENTS, dat] + EVENTS, capture_output=True, text=True)
    if res.returncode:
        die(f"{dat}: {res.stderr.strip()}")
    return [json.loads(line) for line in res.stdout.splitlines()]


def rtapp_late(logdir: str, name: str) -> tuple[int, int] | None:
    """(activations, late) of rt-app's log of task NAME in LOGDIR: rows of
    its table, those with slack < 0 (the column named by its header)."""
    for f in sorted(os.listdir(logdir)):
        if not (f.startswith(f"rt-app-{name}-") and f.endswith(".log")):
            continue
        col = None
        acts = late = 0
        with open(os.path.join(logdir, f)) as fh:
            for line in fh:
                w = line.split()
                if not w:
                    continue
                if line.startswith("#"):
                    hdr = line.lstrip("#").split()
                    if "slack" in hdr:
                        col = hdr.index("slack")
                    continue
                if col is None or len(w) <= col:
                    continue
                acts += 1
                if int(w[col]) < 0:
                    late += 1
        return acts, late
    return None


def segments(events: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """{TEST: (first, end)} indexes of EVENTS between the guest's trace
    markers "eb_begin TEST" and "eb_end TEST"."""
    seg = {}
    for i, e in enumerate(events):
        if e.get("event") != "ftrace:print":
            continue
        w = e["f"].get("buf", "").split()
        if len(w) == 2 and w[0] == "eb_begin":
            seg[w[1]] = [i, None]
        elif len(w) == 2 and w[0] == "eb_end" and w[1] in seg:
            seg[w[1]][1] = i
    return {t: tuple(v) for t, v in seg.items() if v[1] is not None}


def before(events: list[dict[str, Any]], starts: list[int]) -> dict[int, tuple[dict, dict, bool | None]]:
    """For each index of STARTS, what the trace says before it: each CPU's
    running task (pid, comm), each CPU's frequency, the root domain
    overutilized (one pass over EVENTS)."""
    cur, freq, over = {}, {}, None
    out = {}
    todo = sorted(starts)
    for i, e in enumerate(events):
        while todo and todo[0] == i:
            out[todo.pop(0)] = (dict(cur), dict(freq), over)
        if not todo:
            break
        ev, f = e.get("event"), e.get("f", {})
        if ev == "sched:sched_switch":
            cur[e["cpu"]] = (f["next_pid"], f["next_comm"])
        elif ev == "power:cpu_frequency":
            freq[f["cpu_id"]] = f["state"]
        elif ev == "sched_eas:sched_overutilized":
            over = bool(f["overutilized"])
    return out


def misfit_limit_ms(max_interval_ms: int, hz: int) -> float:
    """The longest a big CPU may idle while a misfit task waits, ms.

    The kernel (6.12, kernel/sched/fair.c) notices a misfit task at its
    CPU's tick (update_misfit_status() from task_tick_fair(); a task made
    free while it runs is not re-picked), and an idle CPU balances a
    domain once its interval has passed, counted in jiffies
    (get_sd_balance_interval(): msecs_to_jiffies(), which rounds up, of
    at most the domain's max_interval). So: one tick, then the top
    domain's max_interval in whole ticks. At HZ=100 and 16 ms: 1 + 2
    ticks, 30 ms; at HZ=1000, 17 ms.
    """
    jiffies = -(-max_interval_ms * hz // 1000)
    return (1 + jiffies) * 1000.0 / hz


def analyse(test: str, tasks: list[dict[str, Any]], board: dict[str, Any], em: EnergyModel,
            events: list[dict[str, Any]], seg: tuple[int, int], pre: tuple[dict, dict, bool | None],
            logdir: str, misfit_limit: float, limit_pct: float) -> dict[str, Any]:
    """One test's numbers from the part SEG (indexes) of the trace; PRE is
    what the trace said before it (before())."""
    cur0, freq0, over0 = pre
    events = events[seg[0]:seg[1] + 1]
    names = {t["name"]: t for t in tasks}
    pid_name = {}
    for e in events:
        f = e.get("f", {})
        if e.get("event") in ("sched:sched_wakeup_new", "sched:sched_wakeup") and f["comm"] in names:
            pid_name.setdefault(f["pid"], f["comm"])
        elif e.get("event") == "sched:sched_switch" and f["next_comm"] in names:
            pid_name.setdefault(f["next_pid"], f["next_comm"])
    lost = sum(max(e["lost"], 1) for e in events if "lost" in e)
    r = {"test": test, "errors": []}
    if lost:
        r["errors"].append(f"the trace lost events ({lost})")
    missing = [n for n in names if n not in pid_name.values()]
    if missing:
        r["errors"].append(f"tasks not in the trace: {', '.join(missing)}")
        return r
    bigs = set(board["bigs"])
    cur = {c: (p[0], p[1], 0) for c, p in cur0.items()}   # cpu -> (pid, comm, since)
    task_cpu = {}           # pid -> cpu it last ran on or woke on
    phase = {}              # pid -> phase index (from rt-app's markers)
    phase_t = {}            # pid -> [start of each phase]
    alive = set()
    exited = {}
    freq = dict(freq0)      # cpu -> kHz
    freq_series = []        # (t, cpu, kHz)
    cpu_series = {n: [] for n in names}   # (t, cpu)
    runtime = {}            # (pid, comm) -> ns in the window
    over = over0            # root domain overutilized (None: not known yet)
    over_ns = over_known_ns = 0
    wakeups = {}            # pid -> [wakeups, energy-aware ones]
    feec_since = set()
    ce_group = {}           # pid -> the EM's estimates since its last wakeup
    pelt = {}               # pid -> [(t, util_avg)]
    misfit = {"max_ms": 0.0, "cpu": None, "at_s": None}
    idle_wait = {}          # big cpu -> start of its idle-while-misfit stretch
    t_start = None
    t_end = None
    est_uj = opt_uj = 0.0
    rest_uj = 0.0           # est_uj with the time a small task sat on a big CPU at the optimum
    small_big_s = 0.0
    opt_cache = {}
    on_big = {}             # (task, on a big CPU) -> s
    by_utils = {}           # task utils -> [placement uJ, optimal uJ, s]
    unfit = 0
    last_t = None
    cpu_bound = any(u < 0 for t in tasks for u, _ in t["phases"])

    def duty(name: str, ph: int) -> int:
        """Task NAME's util in its phase PH (the last phase's for an index
        beyond it)."""
        phases = names[name]["phases"]
        return phases[min(ph, len(phases) - 1)][0]

    def util_of(pid: int) -> int:
        ph = phase.get(pid)
        if ph is None or pid not in alive:
            return 0
        return duty(pid_name[pid], ph)

    def close(t: int) -> None:
        nonlocal est_uj, opt_uj, rest_uj, small_big_s, last_t, over_ns, over_known_ns, unfit
        if last_t is None or t_start is None or t <= last_t:
            last_t = t if last_t is None or t > last_t else last_t
            return
        dt = (t - last_t) / 1e9
        if over is not None:
            over_known_ns += t - last_t
            if over:
                over_ns += t - last_t
        if not cpu_bound:
            load = {}
            utils = []
            small_on_big = False
            for pid in alive:
                u = util_of(pid)
                if u > 0:
                    load[task_cpu[pid]] = load.get(task_cpu[pid], 0) + u
                    utils.append(u)
                    k = (pid_name[pid], task_cpu[pid] in bigs)
                    on_big[k] = on_big.get(k, 0) + dt
                    if k[1] and u * MARGIN <= board["cap_l"]:
                        small_on_big = True
            key = tuple(sorted(utils))
            if key not in opt_cache:
                o = em.optimal(utils)
                if o is None:
                    o = em.optimal(utils, margin=1.0)
                    unfit += 1
                opt_cache[key] = o
            est, opt = em.power(load) * dt, (opt_cache[key] or 0) * dt
            est_uj += est
            opt_uj += opt
            rest_uj += opt if small_on_big else est
            small_big_s += dt if small_on_big else 0
            by_utils.setdefault(key, [0.0, 0.0, 0.0])
            by_utils[key][0] += est
            by_utils[key][1] += opt
            by_utils[key][2] += dt
        else:
            # Misfit: a big CPU idle while a free task runs on a LITTLE one.
            free = [p for p in alive if phase.get(p, 0) >= 1]
            waiting = any(task_cpu.get(p) not in bigs for p in free) and len(free) == len(alive)
            for c in bigs:
                if waiting and cur.get(c, (0,))[0] == 0:
                    idle_wait.setdefault(c, last_t)
                    ms = (t - idle_wait[c]) / 1e6
                    if ms > misfit["max_ms"]:
                        misfit.update(max_ms=ms, cpu=c, at_s=(idle_wait[c] - t_start) / 1e9)
                else:
                    idle_wait.pop(c, None)
        last_t = t

    for e in events:
        if "lost" in e:
            continue
        t, ev, f, cpu = e["ts"], e["event"], e["f"], e["cpu"]
        close(t)
        if ev == "sched:sched_switch":
            p = cur.get(cpu)
            if p and t_start is not None:
                runtime[(p[0], p[1])] = runtime.get((p[0], p[1]), 0) + t - max(p[2], t_start)
            cur[cpu] = (f["next_pid"], f["next_comm"], t)
            if f["next_pid"] in pid_name:
                task_cpu[f["next_pid"]] = cpu
                cpu_series[pid_name[f["next_pid"]]].append((t, cpu))
        elif ev in ("sched:sched_wakeup", "sched:sched_wakeup_new"):
            pid = f["pid"]
            if pid in pid_name:
                task_cpu[pid] = f["target_cpu"]
                cpu_series[pid_name[pid]].append((t, f["target_cpu"]))
                if t_start is not None and ev == "sched:sched_wakeup":
                    w = wakeups.setdefault(pid, [0, 0, 0, 0])
                    w[0] += 1
                    w[1] += pid in feec_since
                    c = ce_group.get(pid, {}).get("cands", [])
                    big = [d for cpu, d in c if cpu in bigs]
                    lit = [d for cpu, d in c if cpu not in bigs]
                    if big and lit:
                        w[2] += 1
                        w[3] += min(big) < min(lit)
                feec_since.discard(pid)
                ce_group.pop(pid, None)
        elif ev == "sched:sched_migrate_task":
            if f["pid"] in pid_name:
                task_cpu[f["pid"]] = f["dest_cpu"]
        elif ev == "sched:sched_process_exit":
            if f["pid"] in pid_name:
                alive.discard(f["pid"])
                exited[f["pid"]] = t
                if pid_name and len(exited) == len(pid_name):
                    t_end = t
                    break
        elif ev == "power:cpu_frequency":
            freq[f["cpu_id"]] = f["state"]
            freq_series.append((t, f["cpu_id"], f["state"]))
        elif ev == "ftrace:print":
            pid = e["pid"]
            buf = f.get("buf", "")
            if pid in pid_name and "begins loop" in buf and " phase " in buf:
                ph = int(buf.split(" phase ")[1].split()[0])
                if phase.get(pid) != ph:
                    phase[pid] = ph
                    phase_t.setdefault(pid, []).append(t)
                    alive.add(pid)
                    if t_start is None:
                        t_start = t
                        last_t = t
                        for c, p in cur.items():
                            cur[c] = (p[0], p[1], t)
                        freq_series.extend((t, c, k) for c, k in sorted(freq.items()))
        elif ev == "sched_eas:sched_overutilized":
            over = bool(f["overutilized"])
        elif ev == "sched_eas:sched_compute_energy":
            feec_since.add(f["pid"])
            if f["pid"] in pid_name:
                # Per perf domain, its energy without the task (dst_cpu -1)
                # comes before the candidates': their deltas.
                g = ce_group.setdefault(f["pid"], {"base": 0, "cands": []})
                if f["dst_cpu"] < 0:
                    g["base"] = f["energy"]
                else:
                    g["cands"].append((f["dst_cpu"], f["energy"] - g["base"]))
        elif ev == "sched_eas:sched_pelt_task":
            if f["pid"] in pid_name and t_start is not None:
                pelt.setdefault(f["pid"], []).append((t, f["util_avg"]))
    if t_start is None or t_end is None:
        r["errors"].append("the trace has no start (rt-app's phase markers) or no end (every task's exit)")
        return r
    dur = (t_end - t_start) / 1e9
    r.update(duration_s=dur, t_start=t_start)
    if not cpu_bound:
        # Where the placement cost more than the optimum: by set of task
        # utils (the phases), the largest excess first.
        r["excess"] = [{"utils": list(k), "est_uj": v[0], "opt_uj": v[1], "s": v[2]}
                       for k, v in sorted(by_utils.items(), key=lambda kv: kv[1][1] - kv[1][0])
                       if v[0] > v[1] > 0][:3]
        r.update(est_uj=est_uj, opt_uj=opt_uj,
                 ratio=est_uj / opt_uj if opt_uj else None,
                 ratio_small_on_big_optimal=rest_uj / opt_uj if opt_uj else None,
                 small_on_big_s=small_big_s,
                 limit_pct=limit_pct, unfit_intervals=unfit)
        late = {}
        for n in names:
            a = rtapp_late(logdir, n)
            if a is None:
                r["errors"].append(f"no rt-app log of {n} in {logdir}")
            else:
                late[n] = {"activations": a[0], "late": a[1],
                           "pct": 100.0 * a[1] / a[0] if a[0] else 0.0}
        r["late"] = late
    else:
        r.update(misfit_max_ms=misfit["max_ms"], misfit_cpu=misfit["cpu"],
                 misfit_at_s=misfit["at_s"], misfit_limit_ms=misfit_limit)
    # rt-app's main thread (it creates the tasks, then waits for them and
    # writes their logs) is the workload's, not noise.
    harness = {pid for (pid, comm) in runtime if comm == "rt-app"}
    noise = sorted(((ns, comm, pid) for (pid, comm), ns in runtime.items()
                    if pid != 0 and pid not in pid_name and pid not in harness), reverse=True)
    r["noise"] = [{"comm": c, "pid": p, "pct": 100.0 * ns / (t_end - t_start)}
                  for ns, c, p in noise]
    r["noise_ignored"], counted = noise_accounting(r["noise"])
    r["noise_pct"] = sum(n["pct"] for n in counted)
    r["noise"], r["noise_counted"] = r["noise"][:5], counted[:3]
    r["overutilized_pct"] = 100.0 * over_ns / over_known_ns if over_known_ns else None
    r["eas_wakeups"] = {pid_name[p]: {"wakeups": w[0], "energy_aware": w[1], "both": w[2],
                                      "big_cheaper": w[3]}
                        for p, w in wakeups.items()}
    # PELT against the duty: util_avg over the second half of each phase.
    lag = []
    for pid, ts in phase_t.items():
        n = pid_name[pid]
        bounds = ts + [exited.get(pid, t_end)]
        for i in range(len(ts)):
            u = duty(n, i)
            a, b = bounds[i] + (bounds[i + 1] - bounds[i]) / 2, bounds[i + 1]
            s = [v for tt, v in pelt.get(pid, []) if a <= tt < b]
            if s and u > 0:
                lag.append({"task": n, "phase": i, "duty_util": u,
                            "util_avg": sum(s) / len(s)})
    r["pelt"] = lag
    r["on_big_pct"] = {n: 100.0 * on_big.get((n, True), 0) /
                       (on_big.get((n, True), 0) + on_big.get((n, False), 0))
                       for n in names if on_big.get((n, True), 0) + on_big.get((n, False), 0)}
    # The plot's steps run to each task's exit and to the end.
    for pid, n in pid_name.items():
        if cpu_series[n]:
            cpu_series[n].append((exited.get(pid, t_end), cpu_series[n][-1][1]))
    freq_series.extend((t_end, c, k) for c, k in sorted(freq.items()))
    r["series"] = {"cpu": cpu_series, "freq": freq_series, "t_start": t_start, "t_end": t_end}
    return r


def report_lines(r: dict[str, Any]) -> list[str]:
    """The report's lines on R beyond its verdict: energy, where the
    placement cost more, lateness, placement, PELT, noise."""
    out = []
    if "est_uj" in r:
        out.append(f"  EM energy of the placement {r['est_uj'] / 1000:.2f} mJ, optimal "
                   f"{r['opt_uj'] / 1000:.2f} mJ over {r['duration_s']:.3f} s"
                   + (f" ({r['unfit_intervals']} util sets fit no CPU set with the margin)"
                      if r['unfit_intervals'] else ""))
    if r.get("small_on_big_s"):
        out.append(f"  a small task sat on an A15 for {r['small_on_big_s']:.2f} s; with that time at the "
                   f"optimum the placement is {r['ratio_small_on_big_optimal']:.3f}x optimal")
    for x in r.get("excess", []):
        out.append(f"  task utils {','.join(map(str, x['utils']))} ({x['s']:.2f} s): placement "
                   f"{x['est_uj'] / 1000:.1f} mJ, optimal {x['opt_uj'] / 1000:.1f} mJ "
                   f"({x['est_uj'] / x['opt_uj']:.2f}x)")
    if "metered_uj" in r:
        out.append(f"  metered: A7 {r['metered_a7_uj'] / 1000:.1f} mJ, A15 "
                   f"{r['metered_a15_uj'] / 1000:.1f} mJ in {r['guest_ms']} ms (rt-app's whole run)")
    for n, s in sorted(r.get("late", {}).items()):
        out.append(f"  {n}: {s['late']} of {s['activations']} activations late")
    for n, pct in sorted(r.get("on_big_pct", {}).items()):
        out.append(f"  {n}: {pct:.0f}% of its time on a big CPU")
    for n, w in sorted(r.get("eas_wakeups", {}).items()):
        out.append(f"  {n}: {w['energy_aware']} of {w['wakeups']} wakeups placed by the EM "
                   "(find_energy_efficient_cpu)")
        if w["both"]:
            out.append(f"  {n}: at {w['big_cheaper']} of the {w['both']} wakeups that "
                       "weighed both clusters, the EM's energy delta was lower on a big CPU")
    for p in r.get("pelt", []):
        out.append(f"  {p['task']} phase {p['phase']}: duty {p['duty_util']}, util_avg "
                   f"{p['util_avg']:.0f} over the phase's second half")
    for n in r.get("noise", [])[:3]:
        out.append(f"  other task {n['comm']} (pid {n['pid']}): {n['pct']:.3f}% of the test")
    for g in r.get("noise_ignored", []):
        out.append(f"  not counted as noise (LISA's known noisy services): {g['pattern']} "
                   f"{g['pct']:.3f}% of the test together (at most {g['limit_pct']}%)")
    if "noise_pct" in r:
        out.append(f"  noise: the other tasks ran {r['noise_pct']:.3f}% of the test together "
                   f"(the limit: under {NOISE_PCT}%)")
    return out


def noise_accounting(noise: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """LISA's test_noisy_tasks() accounting of NOISE (the other tasks,
    each {"comm", "pid", "pct"}, the most first): ([comm patterns left
    out, with their tasks' total %], [the tasks counted])."""
    ignored, left_out = [], set()
    for pat, limit in NOISE_EXCLUDED:
        hits = [n for n in noise if pat.match(n["comm"])]
        total = sum(n["pct"] for n in hits)
        if hits and total <= limit:
            ignored.append({"pattern": pat.pattern, "pct": total, "limit_pct": limit})
            left_out.update(n["pid"] for n in hits)
    return ignored, [n for n in noise if n["pid"] not in left_out]


def small_on_big(r: dict[str, Any]) -> str | None:
    """The cause of R's failure when placement energy is all it failed on
    and it would pass with the time a small task sat on an A15 counted at
    the optimum; None otherwise."""
    if not (r["why"] and all(w.startswith("placement energy") for w in r["why"])):
        return None
    rest = r.get("ratio_small_on_big_optimal")
    if rest is None or rest > 1 + r["limit_pct"] / 100:
        return None
    out = (f"{SMALL_ON_BIG} (with the {r['small_on_big_s']:.2f} s a small task sat on an A15 "
           f"counted at the optimum: {rest:.3f}x)")
    w = r.get("eas_wakeups", {}).values()
    both, big = sum(x["both"] for x in w), sum(x["big_cheaper"] for x in w)
    if both:
        out += (f"; EAS's own estimates chose an A15 at {big} of the {both} wakeups that "
                "weighed both clusters (sched_compute_energy)")
    small = [p for p in r.get("pelt", []) if p["task"].startswith("small") and p["phase"] > 0]
    if small:
        lo, hi = min(p["util_avg"] for p in small), max(p["util_avg"] for p in small)
        duty = max(p["duty_util"] for p in small)
        side = "above" if lo > duty else "below" if hi < duty else "around"
        out += (f"; their util_avg {lo:.0f}-{hi:.0f} is {side} their duty {duty}, and the "
                "test's model places duty utils without schedutil's 1.25 headroom")
    return out



def plot(r: dict[str, Any], out_png: str, board: dict[str, Any]) -> bool:
    s = r["series"]
    t0 = s["t_start"]
    d = os.path.splitext(out_png)[0]
    names = sorted(s["cpu"])
    with open(d + ".cpu.dat", "w") as f:
        for i, n in enumerate(names):
            f.write(f"# {n}\n")
            pts = [(t, c) for t, c in s["cpu"][n] if t <= s["t_end"]]
            for t, c in pts:
                f.write(f"{(t - t0) / 1e9:.6f} {c + 0.08 * (i - len(names) / 2):.3f}\n")
            f.write("\n\n")
    clusters = [(board["cpu_l"], "LITTLE (A7)"), (board["cpu_b"], "big (A15)")]
    with open(d + ".freq.dat", "w") as f:
        for cpu, label in clusters:
            f.write(f"# {label}\n")
            pd_cpus = [c for c in range(board["ncpu"])
                       if (c in board["bigs"]) == (cpu in board["bigs"])]
            for t, c, khz in s["freq"]:
                if c in pd_cpus and t <= s["t_end"]:
                    f.write(f"{(t - t0) / 1e9:.6f} {khz / 1000:.0f}\n")
            f.write("\n\n")
    title = r["test"]
    if "ratio" in r and r["ratio"]:
        title += f": placement energy {r['ratio']:.3f}x optimal"
    if "misfit_max_ms" in r:
        title += f": longest big idle with a misfit task waiting {r['misfit_max_ms']:.1f} ms"
    fmax_mhz = max([k for _, _, k in s["freq"]] + [1]) / 1000
    plots = ", ".join(f"'{d}.cpu.dat' index {i} using 1:2 with steps title '{n}'"
                      for i, n in enumerate(names))
    script = f"""set terminal pngcairo size 1000,700
set output '{out_png}'
set multiplot layout 2,1 title '{title}'
set ylabel 'CPU'
set yrange [-0.5:{board['ncpu'] - 0.5}]
set ytics 1
set key outside right
set grid
plot {plots}
set ylabel 'MHz'
set xlabel 'time (s, guest)'
set yrange [0:{fmax_mhz * 1.1:.0f}]
set ytics auto
plot '{d}.freq.dat' index 0 using 1:2 with steps title 'LITTLE (A7)', \\
     '{d}.freq.dat' index 1 using 1:2 with steps title 'big (A15)'
unset multiplot
"""
    return vxu4log.gnuplot(script, "eas-behaviour.py")
