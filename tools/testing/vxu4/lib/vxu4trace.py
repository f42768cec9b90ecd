# SPDX-License-Identifier: GPL-2.0
"""The guest's traces on the host: trace.dat read, runs' traces reduced.

Every bench and test that needs scheduler or frequency events records
them in the guest and sends the run's trace.dat out on the console (the guest's
trace_ship, tools/testing/vxu4/guest/lib): a line
"@TAG_trace run=R KEY=VALUE ... bytes=N sha256=HEX" (N and HEX: the
gzipped file's) and its "@TAG_tdat R BASE64" lines. Here the host takes
them back (shipped()), reads their events with build/trace-events
(libtracecmd: read_events()) and reduces them:

  opp_busy(EVENTS, RUN)  a bench run's busy time at each OPP per cluster,
                         its CPUs' time at each OPP, the time the root
                         domain was overutilized (tools/testing/vxu4/
                         guest/bench's run, "@bench rtapp" keys)
  pelt_ramp(EVENTS, ..)  LISA's RampUp in make pelt-bench: the time to a
                         big CPU and to the OPP of 70% ("@pelt_ramp" and
                         "@pelt_util" lines)
  capacity_medians(EVENTS)  make check-boost's capacity of the busy CPUs
                         (the medians of sched_cpu_capacity's fields)

They give what the guest's awk gave from the ftrace text (the events in
the same order, times in the text's microseconds, rounded from the ns:
the kernel's ns2usecs()), byte for byte: the host tests
(tools/testing/vxu4/lib/trace-test.py) hold their numbers on a made-up trace.
A trace that cannot be read (cut, garbled, not shipped whole) is a
vxu4log.LogError naming the log or the file.

  vxu4trace.py bench LOG OUT_DIR   the text after "@bench " of each of
                                   LOG's "@bench" lines, an rt-app run's
                                   with its trace's keys (bench_traces():
                                   the trace.dat files in OUT_DIR)
  vxu4trace.py boost LOG OUT_DIR   the "@boost_capacity" text of each
                                   boost sample's trace (boost_capacity())

Exit: 0, or 2 for bad usage or input that cannot be read (one line).
"""

import base64
import binascii
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vxu4log  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
TRACE_FIX = "run make tools (build/trace-events); if the trace.dat is cut, the bench again"


def trace_events_path() -> str:
    """build/trace-events, or the environment's TRACE_EVENTS."""
    return os.environ.get("TRACE_EVENTS") or os.path.join(TOP, "build", "trace-events")


@dataclass(frozen=True)
class Event:
    """One event of a trace.dat (trace-events' JSON line): time (ns), CPU,
    "SYSTEM:EVENT" and its fields."""
    ts: int
    cpu: int
    name: str
    f: dict[str, int | str] = field(default_factory=dict)

    def us(self) -> int:
        """The time in the ftrace text's microseconds (ns2usecs(): rounded)."""
        return (self.ts + 500) // 1000

    def num(self, key: str) -> int:
        """Field KEY as a whole number (0 if it is not one)."""
        v = self.f.get(key)
        return v if isinstance(v, int) else 0

    def text(self, key: str) -> str:
        """Field KEY as a string ("" if it is not one)."""
        v = self.f.get(key)
        return v if isinstance(v, str) else ""


def read_events(dat: str, names: Sequence[str] = ()) -> list[Event]:
    """The events of trace.dat DAT (those NAMES, all if none), in time
    order, read by build/trace-events. Raises LogError naming DAT when it
    cannot be read or lost events (the ring buffer overran)."""
    te = trace_events_path()
    if not os.access(te, os.X_OK):
        raise vxu4log.LogError(te, 0, "", "not built (the host's trace.dat reader)",
                               "run make tools (make build/trace-events)")
    res = subprocess.run([te, dat, *names], capture_output=True, text=True)
    if res.returncode:
        why = (res.stderr.strip().splitlines() or [f"exit {res.returncode}"])[-1]
        raise vxu4log.LogError(dat, 0, "", f"trace-events: {why}", TRACE_FIX)
    out = []
    for n, line in enumerate(res.stdout.splitlines(), 1):
        try:
            d = json.loads(line)
            if "lost" in d:
                raise vxu4log.LogError(dat, 0, "", f"the ring buffer lost events on CPU {d['cpu']}"
                                       " (it overran): no busy time from it",
                                       "trace fewer events or give the buffer more room")
            out.append(Event(int(d["ts"]), int(d["cpu"]), str(d["event"]), d["f"]))
        except (ValueError, KeyError, TypeError):
            raise vxu4log.LogError(dat, n, "", "trace-events wrote a line that is not an event",
                                   TRACE_FIX) from None
    return out


@dataclass
class Shipped:
    """A run's trace sent by the guest: its "@TAG_trace" Record and the
    trace.dat written from it (path)."""
    rec: vxu4log.Record
    path: str


def shipped(lg: vxu4log.Log, tag: str, out: str, prefix: str) -> dict[int, Shipped]:
    """The traces LOG's guest sent as "@TAG_trace run=R ... bytes=N
    sha256=HEX" and "@TAG_tdat R BASE64" lines, by run: each written,
    gunzipped, as OUT/PREFIXR.dat (OUT made if need be, only then). Raises LogError naming the log's line
    when a trace is not there whole (a cut log, a garbled line)."""
    data: dict[int, list[str]] = {}
    tdat = f"@{tag}_tdat "
    for line in lg.lines:
        if line.startswith(tdat):
            words = line[len(tdat):].split()
            if len(words) == 2 and words[0].isdigit():
                data.setdefault(int(words[0]), []).append(words[1])
    got: dict[int, Shipped] = {}
    for rec in lg.records(f"{tag}_trace"):
        run = rec.need_int("run", 0)
        size = rec.need_int("bytes", 1)
        want = rec.need_str("sha256")
        try:
            blob = base64.b64decode("".join(data.get(run, [])), validate=True)
        except (binascii.Error, ValueError):
            blob = b""
        if len(blob) != size or hashlib.sha256(blob).hexdigest() != want:
            raise rec.error("", f"the trace.dat of run {run} is not there whole ({len(blob)} of"
                            f" {size} bytes, or garbled)")
        try:
            raw = gzip.decompress(blob)
        except (OSError, EOFError) as e:
            raise rec.error("", f"the trace.dat of run {run} is not gzip ({e})") from None
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, f"{prefix}{run}.dat")
        with open(path, "wb") as f:
            f.write(raw)
        got[run] = Shipped(rec, path)
    return got


def int_pairs(rec: vxu4log.Record, key: str) -> dict[int, str]:
    """KEY's value "N:V,N:V,..." of REC ({} if none): V by whole N."""
    out: dict[int, str] = {}
    if not rec.has(key):
        return out
    for part in rec.fields[key].split(","):
        n, colon, v = part.partition(":")
        if not colon or not n.isdigit() or not v:
            raise rec.error(key, "want N:V,N:V,...")
        out[int(n)] = v
    return out


@dataclass
class BenchRun:
    """What a bench run's reduction needs besides its trace, from its
    "@bench_trace" line: each CPU's rate (kHz) when tracing started
    (init), its busy fraction over the run from /proc/stat (frac: the
    guest's "%.3f", a CPU with no idle event is busy above 0.5) and the
    clocks whose rate events set their CPUs' rates (clkmap)."""
    init: dict[int, int]
    frac: dict[int, float]
    clkmap: dict[str, list[int]]

    @staticmethod
    def of(rec: vxu4log.Record) -> "BenchRun":
        """The run's setting from its "@bench_trace" Record."""
        init = {}
        for c, v in int_pairs(rec, "init").items():
            if not v.isdigit():
                raise rec.error("init", "want CPU:KHZ,... (whole numbers)")
            init[c] = int(v)
        if not init:
            rec.need_str("init")
        frac = {}
        for c, v in int_pairs(rec, "frac").items():
            if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", v):
                raise rec.error("frac", "want CPU:FRACTION,... (numbers >= 0)")
            frac[c] = float(v)
        clkmap: dict[str, list[int]] = {}
        if rec.has("clkmap"):
            for part in rec.fields["clkmap"].split("/"):
                name, colon, cpus = part.partition(":")
                if not colon or not name or not re.fullmatch(r"[0-9]+(,[0-9]+)*", cpus):
                    raise rec.error("clkmap", "want NAME:CPU,CPU.../NAME:...")
                clkmap[name] = [int(c) for c in cpus.split(",")]
        return BenchRun(init, frac, clkmap)


IDLE_EXIT = 4294967295


def opp_busy(events: Sequence[Event], run: BenchRun) -> str:
    """The run's trace reduced, as the "@bench rtapp" keys
    " opp_busy_a7_us=KHZ:US,... opp_busy_a15_us=... opp_cpu_a7_us=...
    opp_cpu_a15_us=... overutilized_us=N overutilized_unknown_us=N
    trace_events=N trace_guessed=CPUS trace_rates=clk|cpufreq", or
    " trace_error=no_markers" without both trace markers bench_start and
    bench_end (the run is between them).

    A CPU is busy from an idle exit (cpu_idle state=4294967295) to the
    next idle entry, at the rate of its cluster clock's last
    clk_set_rate_complete event (the moment the meters see the new rate;
    cpu_frequency comes when cpufreq has done, used only for a CPU whose
    clock is not in clkmap). A CPU's state before its first cpu_idle
    event is that event's opposite; a CPU with no cpu_idle event in the
    run stayed in one state: busy if /proc/stat says it was busy for more
    than half the run (those are trace_guessed). opp_cpu: busy and idle
    time at each OPP, summed over the cluster's CPUs. overutilized: the
    time the root domain was (sched_eas/sched_overutilized), and before
    the run's first such event (unknown)."""
    freq: dict[int, int | None] = dict(run.init)
    byclk = {c for cpus in run.clkmap.values() for c in cpus}
    state: dict[int, str] = {}
    last: dict[int, int] = {}
    tot: dict[tuple[int, int | None], int] = {}
    busy: dict[tuple[int, int | None], int] = {}
    unk: dict[int, dict[int | None, int]] = {}
    t0: int | None = None
    t1: int | None = None
    ou: int | None = None
    ou_last: int | None = None
    ou_set = ou_unk = counted = 0

    def acc(c: int, t: int) -> None:
        if t0 is None:
            return
        s = last.get(c, t0)
        last[c] = t
        d = t - s
        if d <= 0:
            return
        k = (c, freq.get(c))
        tot[k] = tot.get(k, 0) + d
        if state.get(c) == "busy":
            busy[k] = busy.get(k, 0) + d
        elif c not in state:
            u = unk.setdefault(c, {})
            u[k[1]] = u.get(k[1], 0) + d

    def settle(c: int, wasbusy: bool) -> None:
        # The state of CPU c before its first cpu_idle event is known now.
        for f, d in unk.pop(c, {}).items():
            if wasbusy:
                busy[(c, f)] = busy.get((c, f), 0) + d

    for e in events:
        t = e.us()
        if e.name in ("power:cpu_idle", "power:cpu_frequency"):
            c, st = e.num("cpu_id"), e.num("state")
            if t0 is not None:
                counted += 1
            acc(c, t)
            if e.name == "power:cpu_frequency":
                if c not in byclk:
                    freq[c] = st
            elif st == IDLE_EXIT:
                if c not in state:
                    settle(c, False)
                state[c] = "busy"
            else:
                if c not in state:
                    settle(c, True)
                state[c] = "idle"
        elif e.name == "clk:clk_set_rate_complete":
            cpus = run.clkmap.get(e.text("name"))
            if cpus is None:
                continue
            if t0 is not None:
                counted += 1
            for c in cpus:
                acc(c, t)
                freq[c] = e.num("rate") // 1000
        elif e.name == "sched_eas:sched_overutilized":
            if t0 is not None:
                s = t0 if ou_last is None else ou_last
                ou_last = t
                if t > s:
                    if ou is None:
                        ou_unk += t - s
                    elif ou:
                        ou_set += t - s
            ou = e.num("overutilized")
        elif e.name == "ftrace:print":
            words = e.text("buf").split()
            if words == ["bench_start"]:
                t0 = t
            elif words == ["bench_end"]:
                t1 = t
                break
    if t0 is None or t1 is None:
        return " trace_error=no_markers"
    s = t0 if ou_last is None else ou_last
    if t1 > s:
        if ou is None:
            ou_unk += t1 - s
        elif ou:
            ou_set += t1 - s
    guessed = []
    for c in sorted(run.init):
        acc(c, t1)
        if c not in state:
            settle(c, run.frac.get(c, 0.0) > 0.5)
            guessed.append(str(c))
    out = ""
    for what, table in (("busy", busy), ("cpu", tot)):
        for cl in ("a7", "a15"):
            fs = sorted({f for (c, f) in tot if f is not None and (c < 4) == (cl == "a7")})
            sums = {f: sum(v for (c, g), v in table.items() if g == f and (c < 4) == (cl == "a7"))
                    for f in fs}
            out += f" opp_{what}_{cl}_us=" + (",".join(f"{f}:{sums[f]}" for f in fs) or "0:0")
    out += f" overutilized_us={ou_set} overutilized_unknown_us={ou_unk}"
    out += (f" trace_events={counted} trace_guessed={','.join(guessed) or 'none'}"
            f" trace_rates={'clk' if run.clkmap else 'cpufreq'}")
    return out


def bench_traces(lg: vxu4log.Log, out: str, prefix: str) -> dict[int, str]:
    """The keys of each traced bench run of LOG (opp_busy()), by run: from
    the trace.dat its guest sent (written as OUT/PREFIXR.dat) and its
    "@bench_trace" line."""
    return {run: opp_busy(read_events(sh.path), BenchRun.of(sh.rec))
            for run, sh in shipped(lg, "bench", out, prefix).items()}


def bench_records(lg: vxu4log.Log, out: str, prefix: str) -> list[vxu4log.Record]:
    """LOG's "@bench" Records, an rt-app run's with its trace's keys
    added at its end (bench_traces())."""
    traced = bench_traces(lg, out, prefix)
    recs = []
    for rec in lg.records("bench"):
        run = rec.opt_int("run", 1)
        if rec.words[:1] == ["rtapp"] and run in traced:
            rec = vxu4log.Record(rec.kind, rec.text + traced[run], rec.path, rec.line, rec.fix)
        recs.append(rec)
    return recs


CAPACITY_FIELDS = ("capacity", "capacity_orig", "cpufreq_pressure", "hw_pressure")


def capacity_medians(events: Sequence[Event]) -> str:
    """The scheduler's view of a boost sample's CPUs (make check-boost,
    tools/testing/vxu4/guest/boost): " events=N capacity=..
    capacity_orig=.. cpufreq_pressure=.. hw_pressure=..", each the median
    of its sched_eas/sched_cpu_capacity updates (of an even count the
    lower middle one, as the guest's sort and awk took it), none without
    any."""
    caps = [e for e in events if e.name == "sched_eas:sched_cpu_capacity"]
    out = f" events={len(caps)}"
    for k in CAPACITY_FIELDS:
        vals = sorted(e.num(k) for e in caps)
        out += f" {k}={vals[(len(vals) + 1) // 2 - 1] if vals else 'none'}"
    return out


def boost_capacity(lg: vxu4log.Log, out: str, prefix: str) -> list[str]:
    """The text after "@boost_capacity " of each boost sample whose trace
    LOG's guest sent (written as OUT/PREFIXR.dat): "case=.. busy=..
    events=.. capacity=.. ..." (capacity_medians())."""
    return [f"case={sh.rec.need_str('case')} busy={sh.rec.need_int('busy')}"
            + capacity_medians(read_events(sh.path))
            for _, sh in sorted(shipped(lg, "boost", out, prefix).items())]


def awk_ms(e: Event) -> float:
    """The event's time in ms as the guest's awk had it: the text's
    "SECONDS.USECS" times 1000, in floating point."""
    us = e.us()
    return float(f"{us // 1000000}.{us % 1000000:06d}") * 1000


RAMP_MARK = re.compile(r"\[0\] begins loop 0 phase 1 step 0")


def pelt_ramp(events: Sequence[Event], it: int, opp: int, fq0: int) -> list[str]:
    """The RampUp run of make pelt-bench's iteration IT reduced, as the
    lines "@pelt_ramp iter=IT t_big_ms=.. t_opp_ms=.. opp_khz=OPP
    samples=N" and (IT 1) "@pelt_util iter=1 t_ms=.. util=.. cpu=.." for
    each of the task's PELT updates, or one "@pelt_error ..." line.

    t = 0 is rt-app's marker of the 70% phase ("[0] begins loop 0 phase 1
    step 0"); t_big_ms: to the task's first PELT update (sched_eas/
    sched_pelt_task) on an A15 (cpu 4-7), 0 if it was on one already;
    t_opp_ms: to the first time, the task on an A15, that the A15s'
    rate (power/cpu_frequency of cpu 4-7; FQ0 before the first) is OPP
    or above. The times are in the ftrace text's ms, as the guest's awk
    computed them (awk_ms()), printed as it did."""
    fq = fq0
    cpu: int | None = None
    t0: float | None = None
    fq_at0 = 0
    cpu_at0: int | None = None
    tbig: float | None = None
    topp: float | None = None
    samples: list[tuple[float, int, int]] = []
    for e in events:
        if e.name == "ftrace:print":
            if t0 is None and RAMP_MARK.match(e.text("buf")):
                t0, fq_at0, cpu_at0 = awk_ms(e), fq, cpu
        elif e.name == "power:cpu_frequency":
            c = e.num("cpu_id")
            if c >= 4:
                fq = e.num("state")
                if (t0 is not None and topp is None and cpu is not None and cpu >= 4
                        and fq >= opp):
                    topp = awk_ms(e) - t0
        elif e.name == "sched_eas:sched_pelt_task":
            t, c = awk_ms(e), e.num("cpu")
            cpu = c
            if t0 is not None:
                if tbig is None and c >= 4:
                    tbig = t - t0
                if topp is None and c >= 4 and fq >= opp:
                    topp = t - t0
            samples.append((t, e.num("util_avg"), c))
    if t0 is None:
        return ["@pelt_error ramp: no phase marker in the trace (rt-app ftrace)"]
    if cpu_at0 is not None and cpu_at0 >= 4:
        tbig = 0
        if fq_at0 >= opp:
            topp = 0

    def ms1(v: float | None) -> str:
        return "none" if v is None else f"{v:.1f}"
    out = [f"@pelt_ramp iter={it} t_big_ms={ms1(tbig)} t_opp_ms={ms1(topp)} opp_khz={opp}"
           f" samples={len(samples)}"]
    if it == 1:
        out += [f"@pelt_util iter=1 t_ms={t - t0:.2f} util={u} cpu={c}" for t, u, c in samples]
    return out


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[1] == "bench":
        vxu4log.out_dir(argv[3], create=True)
        lg = vxu4log.Log(argv[2], "give the console log of a bench boot",
                         "run the bench again (the log is cut or garbled)")
        for rec in bench_records(lg, argv[3], "run"):
            print(rec.text)
        return 0
    if len(argv) == 4 and argv[1] == "boost":
        vxu4log.out_dir(argv[3], create=True)
        lg = vxu4log.Log(argv[2], "give the console log of a boost boot (make check-boost)",
                         "run make check-boost again (the log is cut or garbled)")
        for line in boost_capacity(lg, argv[3], "boost-run"):
            print(line)
        return 0
    print(__doc__.split("\n\n")[-2], file=sys.stderr)
    return 2


if __name__ == "__main__":
    vxu4log.guard(lambda: main(sys.argv))
