# SPDX-License-Identifier: GPL-2.0
"""The guest's workloads as data, written as rt-app JSON on the host.

A workload is tasks (Task), each a list of phases; a phase is periodic
(Periodic: RUN us of work every PERIOD us for LOOPS periods, or sized
from a util in capacity units: Periodic.util()), CPU-bound for a time
(Busy) or rt-app's own events in their order (Custom: run, sleep,
timer, ... as rt-app names them). ramp() and step() make the phases of
a util that climbs, falls or jumps. Sizes come from the board (Board:
each CPU's capacity and the OPPs schedutil can choose, from eas-em's
JSON of the board's DTB) and from rt-app's calibration: duty is work of
the biggest CPU at its top OPP (capacity 1024), as LISA states it, so a
util U of a PERIOD us task is U x PERIOD / 1024 us of that work
(a periodic 20% task of 16 ms runs 3200 us a 16000 us period).

Values only the booted guest knows are placeholders (Placeholder): the
string "@NAME@" in the JSON, which the guest replaces, quotes included,
by a number in one substitution (the guest's lib: rtapp NAME FILE KEY=VALUE):
  PLOAD_A15, PLOAD_A7  rt-app's ns per loop on the first CPU of a cluster
                       at its top OPP, measured once a boot (the guest's
                       calibrate); rt-app reads an integer "calibration"
                       as ns per loop. Its string form "CPUn" makes rt-app
                       calibrate itself at start, on CPUn at whatever OPP
                       the governor gives it: the workloads that always
                       ran so (stress, timescale-bench) keep it.
  DURATION             a duration in s chosen by a kernel argument;
  INSTANCES            a task's number of copies, the same.
A placeholder left in a file is a string where rt-app wants a number: it
refuses the file (the guest's rtapp refuses it first).

  workloads.py write OUTDIR [--em EM.json]

writes the guest's files (OUTDIR/NAME.json, make initramfs: in the
initramfs as /usr/share/vxu4/rtapp/NAME.json); with --em (eas-em compute
--json of build/vxu4.dtb) also the EAS behaviour tests' workloads, sized
from that board (OUTDIR/eas-behaviour/TEST.json, board.txt).

  workloads.py overlay OUT.cpio.gz KIND:N...

writes the workloads whose shape a run's setting chooses (KIND frames,
frames-split, audio, video: guest_workloads.py) for that setting N, as
a gzip'd cpio of /usr/share/vxu4/rtapp/KIND-N.json that a bench appends
to the initramfs (the kernel unpacks concatenated archives): the bench
writes them on the host for its run, the guest reads them by name.

  workloads.py show KIND ARG...

prints one workload's JSON on stdout (periodic UTIL_PCT PERIOD_US MS,
ramp FROM_PCT TO_PCT STEP_PCT PERIOD_US MS_A_STEP): for a look, and for
the tests.

Exit: 0, or 2 with one line on stderr for bad input.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import NoReturn, Sequence, Union

# The biggest CPU's capacity: duty is work of that CPU.
SCALE = 1024
# The guest's folder of rt-app's files (its lib's RTAPP).
GUEST_DIR = "usr/share/vxu4/rtapp"


class WorkloadError(Exception):
    """A workload that rt-app cannot run as asked (a bad size or name)."""


def die(msg: str) -> NoReturn:
    print(f"workloads.py: {msg}", file=sys.stderr)
    sys.exit(2)


@dataclass(frozen=True)
class Placeholder:
    """A value the booted guest fills in: "@NAME@" in the JSON."""
    name: str

    def __post_init__(self) -> None:
        if not self.name or not all(c.isupper() or c.isdigit() or c == "_" for c in self.name):
            raise WorkloadError(f"placeholder {self.name!r}: want capitals, digits and _")

    def json(self) -> str:
        return f"@{self.name}@"


Value = Union[int, str, Placeholder]
PLOAD_A15 = Placeholder("PLOAD_A15")
PLOAD_A7 = Placeholder("PLOAD_A7")
DURATION = Placeholder("DURATION")
INSTANCES = Placeholder("INSTANCES")


def _value(v: Value) -> int | str:
    return v.json() if isinstance(v, Placeholder) else v


def _positive(what: str, v: int, zero: bool = False) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < (0 if zero else 1):
        raise WorkloadError(f"{what} {v!r}: want a whole number {'>= 0' if zero else '> 0'}")
    return v


@dataclass(frozen=True)
class Periodic:
    """RUN_US of work every PERIOD_US, LOOPS times (-1: until the run's
    duration ends), on CPUS if given; its timer named REF (by default
    the task's: the task's phases keep one time line)."""
    run_us: int
    period_us: int
    loops: int = 1
    cpus: tuple[int, ...] = ()
    ref: str | None = None

    def __post_init__(self) -> None:
        _positive("run (us)", self.run_us)
        _positive("period (us)", self.period_us)
        if self.loops != -1:
            _positive("loops", self.loops)
        if self.run_us > self.period_us:
            raise WorkloadError(f"run {self.run_us} us is longer than its period {self.period_us} us")

    @staticmethod
    def util(util: float, period_us: int, ms: int, cpus: Sequence[int] = ()) -> Periodic:
        """A periodic phase of UTIL (capacity units of the biggest CPU,
        0 < UTIL <= 1024) for MS ms: run UTIL x PERIOD / 1024 us (rounded),
        as many whole periods as fit in MS."""
        if not 0 < util <= SCALE:
            raise WorkloadError(f"util {util}: want more than 0 and at most {SCALE}")
        _positive("period (us)", period_us)
        loops = ms * 1000 // period_us
        if loops < 1:
            raise WorkloadError(f"{ms} ms holds no whole period of {period_us} us")
        return Periodic(int(util * period_us / SCALE + 0.5), period_us, loops, tuple(cpus))

    @staticmethod
    def pct(pct: float, period_us: int, loops: int = -1, cpus: Sequence[int] = (),
            ref: str | None = None) -> Periodic:
        """A periodic phase of PCT % of the biggest CPU."""
        if not 0 < pct <= 100:
            raise WorkloadError(f"duty {pct}%: want more than 0 and at most 100")
        return Periodic(int(pct * period_us / 100 + 0.5), period_us, loops, tuple(cpus), ref)

    def util_of(self) -> int:
        """The phase's util in capacity units (rounded)."""
        return int(self.run_us * SCALE / self.period_us + 0.5)

    def events(self, task: str) -> list[tuple[str, object]]:
        ev: list[tuple[str, object]] = [("loop", self.loops), ("run", self.run_us),
                                        ("timer", {"ref": self.ref or task, "period": self.period_us})]
        if self.cpus:
            ev.append(("cpus", list(self.cpus)))
        return ev


@dataclass(frozen=True)
class Busy:
    """CPU-bound for MS ms (rt-app's runtime), on CPUS if given."""
    ms: int
    cpus: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _positive("busy time (ms)", self.ms)

    def events(self, task: str) -> list[tuple[str, object]]:
        ev: list[tuple[str, object]] = [("loop", 1), ("runtime", self.ms * 1000)]
        if self.cpus:
            ev.append(("cpus", list(self.cpus)))
        return ev


@dataclass(frozen=True)
class Custom:
    """rt-app's events as given, in their order (rt-app runs a phase's
    events in the order of its JSON: "run1", "sleep", "run2", ...)."""
    items: tuple[tuple[str, object], ...]

    def events(self, task: str) -> list[tuple[str, object]]:
        return list(self.items)


Phase = Union[Periodic, Busy, Custom]


def ramp_levels(start: float, stop: float, step: float) -> list[int]:
    """The utils from START to STOP (capacity units) in steps of STEP:
    START, START + STEP, ... (each rounded) while more than half a step
    short of STOP, then STOP; down when STOP < START."""
    if step <= 0:
        raise WorkloadError(f"ramp step {step}: want more than 0")
    up = stop >= start
    lo, hi = (start, stop) if up else (stop, start)
    levels: list[int] = []
    u = float(lo)
    while u < hi - step / 2:
        levels.append(int(u + 0.5))
        u += step
    levels.append(int(hi))
    if not up:
        levels.reverse()
    return levels


def ramp(start: float, stop: float, step: float, period_us: int, ms: int) -> list[Periodic]:
    """Periodic phases of MS ms each at ramp_levels(START, STOP, STEP)."""
    return [Periodic.util(v, period_us, ms) for v in ramp_levels(start, stop, step)]


def step(before: float, after: float, period_us: int, ms_before: int, ms_after: int) -> list[Periodic]:
    """Two periodic phases: util BEFORE for MS_BEFORE ms, then AFTER."""
    return [Periodic.util(before, period_us, ms_before), Periodic.util(after, period_us, ms_after)]


@dataclass(frozen=True)
class Task:
    """A task of PHASES (named PHASE_NAMES, by default p0, p1, ...).
    INSTANCES copies of it; LOOP: its phases' repetitions (-1: until the
    run's duration ends). FLAT: one phase written into the task itself,
    as rt-app also reads a task."""
    name: str
    phases: tuple[Phase, ...]
    loop: int = 1
    instances: int | Placeholder | None = None
    flat: bool = False
    phase_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.name or not all(c.isalnum() or c in "_-" for c in self.name):
            raise WorkloadError(f"task name {self.name!r}: want letters, digits, _ and -")
        if not self.phases:
            raise WorkloadError(f"task {self.name}: no phase")
        if self.flat and len(self.phases) != 1:
            raise WorkloadError(f"task {self.name}: flat with {len(self.phases)} phases, want 1")
        if self.phase_names and len(self.phase_names) != len(self.phases):
            raise WorkloadError(f"task {self.name}: {len(self.phase_names)} phase names "
                                f"for {len(self.phases)} phases")
        if isinstance(self.instances, int):
            _positive(f"task {self.name}: instances", self.instances)

    def json(self) -> dict[str, object]:
        d: dict[str, object] = {}
        if self.instances is not None:
            d["instance"] = _value(self.instances)
        if self.flat:
            ev = self.phases[0].events(self.name)
            if ev and ev[0][0] == "loop":
                ev = ev[1:]
            d["loop"] = self.loop
            d.update(ev)
            return d
        d["loop"] = self.loop
        names = self.phase_names or tuple(f"p{i}" for i in range(len(self.phases)))
        d["phases"] = {n: dict(p.events(self.name)) for n, p in zip(names, self.phases)}
        return d


@dataclass(frozen=True)
class Workload:
    """rt-app's file: its tasks (in their order: rt-app starts them so)
    and its global settings. DURATION s (-1: until every task ends);
    CALIBRATION ns per loop, rt-app's own "CPUn" or a placeholder;
    LOG_BASENAME and LOG_SIZE (MB, or "disable") only where given."""
    tasks: tuple[Task, ...]
    calibration: Value = PLOAD_A15
    duration: Value = -1
    logdir: str = "/tmp"
    policy: str | None = "SCHED_OTHER"
    log_basename: str | None = None
    log_size: int | str | None = None
    ftrace: bool | None = None

    def __post_init__(self) -> None:
        names = [t.name for t in self.tasks]
        if not names:
            raise WorkloadError("a workload of no task")
        if len(set(names)) != len(names):
            raise WorkloadError(f"tasks named twice: {', '.join(sorted(set(n for n in names if names.count(n) > 1)))}")
        if isinstance(self.calibration, str) and not (self.calibration.startswith("CPU")
                                                       and self.calibration[3:].isdigit()):
            raise WorkloadError(f"calibration {self.calibration!r}: want ns per loop, \"CPUn\" or a placeholder")

    def json(self) -> dict[str, object]:
        g: dict[str, object] = {"duration": _value(self.duration), "calibration": _value(self.calibration)}
        if self.policy:
            g["default_policy"] = self.policy
        g["logdir"] = self.logdir
        if self.log_basename is not None:
            g["log_basename"] = self.log_basename
        if self.log_size is not None:
            g["log_size"] = self.log_size
        g["lock_pages"] = False
        if self.ftrace is not None:
            g["ftrace"] = self.ftrace
        return {"global": g, "tasks": {t.name: t.json() for t in self.tasks}}

    def text(self) -> str:
        """The file's text: the keys in the order rt-app reads them (its
        JSON parser keeps an object's order: the tasks start in it, a
        phase's events run in it); a task, or each of its phases, a line."""
        d = self.json()
        dump = lambda v: json.dumps(v, separators=(", ", ": "))  # noqa: E731
        out = ["{", f' "global": {dump(d["global"])},', ' "tasks": {']
        tasks = list(d["tasks"].items())  # type: ignore[union-attr]
        for i, (name, t) in enumerate(tasks):
            end = "," if i < len(tasks) - 1 else ""
            if "phases" not in t:
                out.append(f"  {dump(name)}: {dump(t)}{end}")
                continue
            head = {k: v for k, v in t.items() if k != "phases"}
            out.append(f"  {dump(name)}: {dump(head)[:-1]}, \"phases\": {{")
            phases = list(t["phases"].items())
            out.extend(f"   {dump(n)}: {dump(p)}{',' if j < len(phases) - 1 else ''}"
                       for j, (n, p) in enumerate(phases))
            out.append(f"  }}}}{end}")
        out += [" }", "}"]
        return "\n".join(out) + "\n"

    def placeholders(self) -> list[str]:
        """The placeholders' names in the file (the guest fills each)."""
        vals = [self.calibration, self.duration] + [t.instances for t in self.tasks]
        return sorted({p.name for p in vals if isinstance(p, Placeholder)})


@dataclass(frozen=True)
class PerfDomain:
    """A perf domain: its CPUs, their capacity and the OPPs (kHz)
    schedutil can choose (the EM's states, but its inefficient ones when
    the domain skips them, as cpufreq then resolves every request to an
    efficient frequency)."""
    cpus: tuple[int, ...]
    capacity: int
    opps_khz: tuple[int, ...]


@dataclass(frozen=True)
class Board:
    """The board's CPUs as the EM describes them (Board.from_em)."""
    domains: tuple[PerfDomain, ...] = field(default_factory=tuple)

    @staticmethod
    def from_em(path: str) -> Board:
        """From eas-em's JSON (eas-em compute --json DTB); a file that is
        not one raises vxu4log.LogError naming it."""
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import vxu4log  # the one reader of eas-em's JSON
        doms = []
        for pd in vxu4log.em_domains(path, power=False):
            if pd.capacity is None:
                raise vxu4log.LogError(path, 0, f"perf domain {pd.name}", "no capacity",
                                       "make it with this tree's eas-em (make -C tools/power/eas)")
            skip = bool((pd.flags or 0) & 2)
            opps = sorted(s.frequency_khz for s in pd.states if not (skip and s.inefficient))
            doms.append(PerfDomain(tuple(pd.cpus), pd.capacity, tuple(opps)))
        return Board(tuple(doms))

    def cpus(self) -> list[int]:
        return sorted(c for d in self.domains for c in d.cpus)

    def domain(self, cpu: int) -> PerfDomain:
        for d in self.domains:
            if cpu in d.cpus:
                return d
        raise WorkloadError(f"cpu{cpu}: in no perf domain")

    def capacity(self, cpu: int) -> int:
        return self.domain(cpu).capacity

    def by_capacity(self) -> list[int]:
        """The CPUs, the biggest first (the lower number first among
        equals)."""
        return sorted(self.cpus(), key=lambda c: (-self.capacity(c), c))

    def littlest(self) -> int:
        return min(self.cpus(), key=lambda c: (self.capacity(c), c))

    def biggest(self) -> int:
        return self.by_capacity()[0]

    def bigs(self) -> list[int]:
        top = self.capacity(self.biggest())
        return [c for c in self.by_capacity() if self.capacity(c) == top]


def write(path: str, wl: Workload) -> None:
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(wl.text())
    os.replace(tmp, path)


def _pct(arg: str, what: str) -> float:
    try:
        v = float(arg)
    except ValueError:
        raise WorkloadError(f"{what} {arg!r}: want a number") from None
    return v


def _int(arg: str, what: str) -> int:
    if not arg.isdigit():
        raise WorkloadError(f"{what} {arg!r}: want a whole number")
    return int(arg)


def show(args: Sequence[str]) -> Workload:
    """The workload of "show KIND ARG..." (the CLI)."""
    kinds = {"periodic": 3, "ramp": 5}
    if not args or args[0] not in kinds:
        raise WorkloadError(f"show {args[0] if args else ''}: want one of {', '.join(kinds)}")
    if len(args) != kinds[args[0]] + 1:
        raise WorkloadError(f"show {args[0]}: want {kinds[args[0]]} arguments, got {len(args) - 1}")
    if args[0] == "periodic":
        pct = _pct(args[1], "util %")
        per = _int(args[2], "period (us)")
        ms = _int(args[3], "duration (ms)")
        ph: list[Phase] = [Periodic.util(pct * SCALE / 100, per, ms)]
    else:
        a, b, s = (_pct(x, w) for x, w in zip(args[1:4], ("from %", "to %", "step %")))
        per, ms = _int(args[4], "period (us)"), _int(args[5], "ms a step")
        ph = list(ramp(a * SCALE / 100, b * SCALE / 100, s * SCALE / 100, per, ms))
    return Workload((Task(args[0], tuple(ph)),))


def cpio(files: dict[str, bytes]) -> bytes:
    """A newc cpio archive of FILES (path -> contents) and their folders,
    as the kernel unpacks an initramfs (all owned by root, time 0)."""
    out = bytearray()
    ino = 0

    def entry(name: str, mode: int, data: bytes) -> None:
        nonlocal ino
        ino += 1
        nm = name.encode() + b"\0"
        fields = [ino, mode, 0, 0, 1 if mode & 0o100000 else 2, 0, len(data), 0, 0, 0, 0, len(nm), 0]
        out.extend(b"070701" + b"".join(b"%08X" % f for f in fields) + nm)
        out.extend(b"\0" * (-len(out) % 4) + data)
        out.extend(b"\0" * (-len(out) % 4))

    dirs = sorted({"/".join(p.split("/")[:i]) for p in files for i in range(1, p.count("/") + 1)})
    for d in dirs:
        entry(d, 0o40755, b"")
    for p, data in sorted(files.items()):
        entry(p, 0o100644, data)
    entry("TRAILER!!!", 0, b"")
    return bytes(out)


def overlay(out: str, specs: Sequence[str]) -> None:
    """OUT: a gzip'd cpio of the workloads SPECS ("KIND:N": their file
    KIND-N in the guest's folder), to append to the initramfs."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gzip
    import guest_workloads
    files = {}
    for spec in specs:
        kind, _, n = spec.partition(":")
        if kind not in guest_workloads.OVERLAYS or not n.isdigit() or int(n) < 1:
            raise WorkloadError(f"{spec}: want KIND:N, KIND one of "
                                f"{', '.join(guest_workloads.OVERLAYS)}, N a whole number > 0")
        wl = guest_workloads.OVERLAYS[kind](int(n))
        files[f"{GUEST_DIR}/{kind}-{int(n)}.json"] = wl.text().encode()
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(gzip.compress(cpio(files), mtime=0))
    os.replace(tmp, out)


def main(argv: Sequence[str]) -> int:
    usage = ("usage: workloads.py write OUTDIR [--em EM.json] | overlay OUT.cpio.gz KIND:N... | "
             "show KIND ARG...")
    if len(argv) < 2:
        die(usage)
    try:
        if argv[1] == "show":
            sys.stdout.write(show(argv[2:]).text())
            return 0
        if argv[1] == "overlay":
            if len(argv) < 4:
                die(usage)
            overlay(argv[2], argv[3:])
            return 0
        if argv[1] != "write" or len(argv) not in (3, 5) or (len(argv) == 5 and argv[3] != "--em"):
            die(usage)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import guest_workloads
        out = argv[2]
        files = guest_workloads.payload_workloads()
        board_text = ""
        if len(argv) == 5:
            board = Board.from_em(argv[4])
            eb, board_text = guest_workloads.eas_behaviour_workloads(board)
            files.update(eb)
        for name, wl in files.items():
            write(os.path.join(out, name + ".json"), wl)
        if board_text:
            with open(os.path.join(out, "eas-behaviour", "board.txt"), "w") as f:
                f.write(board_text)
        return 0
    except WorkloadError as e:
        die(str(e))
    except OSError as e:
        die(f"{e.filename}: {e.strerror}: name a folder that can be written")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import vxu4log
    vxu4log.guard(lambda: main(sys.argv))
