# SPDX-License-Identifier: GPL-2.0
"""The virtual XU4's console logs: the guest's "@KIND key=value ..." lines.

The guest (tools/testing/vxu4/guest: init, bench) reports what it
measured as lines "@KIND key=value ..." among the kernel's console output.
This module is the one reader of them, by key, never by position: for the
Python tools (import it) and for the shell suites (suite-lib.sh calls it):

  vxu4log.py at LOG KIND            the text after "@KIND " of LOG's lines
  vxu4log.py value KEY [K=V ...]    of each stdin line of key=value words
                                    that has every K=V: its KEY's value
  vxu4log.py em-cpus EM.json        per CPU, from "eas-em compute --json":
                                    "cpu=N capacity=C fmax_khz=F
                                    power=KHZ:UW,KHZ:UW,..."
  vxu4log.py bench-configs [--markdown]
                                    make bench's configurations
                                    (bench-configs, bench_configs()):
                                    "CFG DTB EAS LEVELS" a line, or
                                    docs/benches.md's table of them

and, for the reports: Log(PATH) (a log read once; its records(KIND):
each line a Record whose typed accessors, need_int(KEY) and the like,
raise LogError naming the file, the line and the key), em_domains(PATH)
(eas-em's JSON, its shape checked: the one reader of it) and
em_clusters(PATH) (its two clusters' power at each OPP), bench_configs()
(make bench's configurations, from bench-configs), out_dir(PATH)
(OUT_DIR checked before anything is written), guard(MAIN) (a report's top: a LogError or a write
that failed, stdout's included, is one line and exit 2), report_args(DOC)
(their command line), at_lines(LINES, KIND), mean_rsd(VALUES),
mann_whitney(A, B), table(HEAD, ROWS), write_report(OUT, LINES) and
gnuplot(SCRIPT, PROG).

Exit: 0, or 2 for bad usage or an unreadable file.
"""

import json
import math
import os
import re
import shutil
import statistics
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, NoReturn, Sequence


def prog() -> str:
    """The running program's name, for its messages (without ".py")."""
    name = os.path.basename(sys.argv[0]) or "vxu4log"
    return name[:-3] if name.endswith(".py") else name


def die(msg: str, code: int = 2) -> NoReturn:
    """Print "PROGRAM: MSG" on stderr and exit with CODE (2: bad input)."""
    if sys.stderr is not None:
        print(f"{prog()}: {msg}", file=sys.stderr)
    sys.exit(code)


class LogError(Exception):
    """Input that cannot be read as it should: a file (a console log, its
    stamps, an EM JSON, OUT_DIR), where in it (LINE, a line's number, or 0),
    what (FIELD, e.g. "@bench energy_a7_uj=abc", or ""), why, and the fix.
    guard() makes it one line and exit 2."""

    def __init__(self, path: str, line: int, field: str, why: str, fix: str = "") -> None:
        super().__init__(why)
        self.path, self.line, self.field, self.why, self.fix = path, line, field, why, fix

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        what = f"{where}: {self.field}: {self.why}" if self.field else f"{where}: {self.why}"
        return what + (f"; fix: {self.fix}" if self.fix else "")


def escape(text: str, width: int = 40) -> str:
    """TEXT made safe and short for a message: at most WIDTH characters,
    control and non-ASCII characters escaped as Python does (\\x01,
    \\ufffd), "..." where cut."""
    return ascii(text[:width])[1:-1] + ("..." if len(text) > width else "")


# A value the guest prints where it has none (its error is said on a line
# of its own): as if the key were not there.
NO_VALUE = ("none", "")
INT_RE = re.compile(r"-?[0-9]+")


class Record:
    """One "@KIND key=value ..." line of a file: its key=value words
    (fields), its other words (words, in order), its text after "@KIND",
    and where it is (path, line). The accessors need_*() and opt_*() give
    a field typed and in range, or raise LogError naming the file, the
    line and the key (FIX: what to do about a cut or garbled log)."""

    def __init__(self, kind: str, text: str, path: str, line: int, fix: str = "") -> None:
        self.kind, self.text, self.path, self.line, self.fix = kind, text, path, line, fix
        self.fields = kv(text)
        self.words = [w for w in text.split() if "=" not in w]

    def error(self, key: str, why: str) -> LogError:
        """A LogError on this line, about KEY's value (or the line, KEY "")."""
        what = f"@{self.kind} {key}={escape(self.fields.get(key, ''))}" if key else f"@{self.kind}"
        return LogError(self.path, self.line, what, why, self.fix)

    def has(self, key: str) -> bool:
        """Whether KEY is there with a value (not "none" or empty)."""
        return self.fields.get(key, "") not in NO_VALUE

    def need_str(self, key: str, choices: Sequence[str] | None = None) -> str:
        """KEY's value, required (one of CHOICES, if given)."""
        if key not in self.fields:
            raise LogError(self.path, self.line, f"@{self.kind}",
                           f"no {key}= (the line is cut short?)", self.fix)
        v = self.fields[key]
        if choices is not None and v not in choices:
            raise self.error(key, f"want {' or '.join(choices)}")
        if not v:
            raise self.error(key, "empty")
        return v

    def _int(self, key: str, text: str, lo: int, hi: int | None) -> int:
        if not INT_RE.fullmatch(text):
            raise self.error(key, f"want a whole number >= {lo}")
        v = int(text)
        if v < lo or (hi is not None and v > hi):
            raise self.error(key, f"want a whole number from {lo} to {hi}" if hi is not None
                             else f"want a whole number >= {lo}")
        return v

    def need_int(self, key: str, lo: int = 0, hi: int | None = None) -> int:
        """KEY's value, required, a whole number from LO to HI (or above)."""
        return self._int(key, self.need_str(key), lo, hi)

    def opt_int(self, key: str, lo: int = 0, hi: int | None = None) -> int | None:
        """KEY's value as need_int(), or None if it is absent or none."""
        return self._int(key, self.fields[key], lo, hi) if self.has(key) else None

    def _num(self, key: str, text: str, lo: float) -> float:
        try:
            v = float(text)
        except ValueError:
            v = math.nan
        if not math.isfinite(v) or v < lo:
            raise self.error(key, f"want a number >= {lo:g}" if lo > -math.inf else "want a number")
        return v

    def need_num(self, key: str, lo: float = 0) -> float:
        """KEY's value, required, a number >= LO."""
        return self._num(key, self.need_str(key), lo)

    def opt_num(self, key: str, lo: float = 0) -> float | None:
        """KEY's value as need_num(), or None if it is absent or none."""
        return self._num(key, self.fields[key], lo) if self.has(key) else None

    def need_ints(self, key: str, lo: int = 0, least: int = 1) -> list[int]:
        """KEY's value, required, whole numbers >= LO, comma-separated, at
        least LEAST of them."""
        parts = self.need_str(key).split(",")
        if len(parts) < least:
            raise self.error(key, f"want {least} or more comma-separated numbers")
        return [self._int(key, p, lo, None) for p in parts]

    def opt_pairs(self, key: str) -> dict[int, float] | None:
        """KEY's value "K:N,K:N,..." (whole K >= 0, N >= 0, the N of a K
        given twice summed), or None if it is absent or none."""
        if not self.has(key):
            return None
        out: dict[int, float] = {}
        for part in self.fields[key].split(","):
            k, colon, n = part.partition(":")
            if not colon or not INT_RE.fullmatch(k) or int(k) < 0:
                raise self.error(key, "want K:N,K:N,... (K a whole number, N a number >= 0)")
            out[int(k)] = out.get(int(k), 0) + self._num(key, n, 0)
        return out


def read_lines(log: str, hint: str = "boot the virtual XU4 first (make check)") -> list[str]:
    """The lines of LOG without carriage returns; dies naming LOG and HINT
    (what to do) if it cannot be read (a folder: "Is a directory")."""
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            return [line.rstrip("\r\n").replace("\r", "") for line in f]
    except OSError as e:
        die(f"{log}: {e.strerror}: {hint}")


class Log:
    """A console log (PATH), read once: its lines, and its "@KIND" lines
    as Records (records()). HINT: what to do if it cannot be read; FIX:
    what to do if a line of it is cut or garbled."""

    def __init__(self, path: str, hint: str = "boot the virtual XU4 first (make check)",
                 fix: str = "", lines: list[str] | None = None) -> None:
        self.path, self.fix = path, fix
        self.lines = read_lines(path, hint) if lines is None else lines

    def records(self, kind: str) -> list[Record]:
        """Each "@KIND ..." line, in order."""
        tag = "@" + kind
        out = []
        for n, line in enumerate(self.lines, 1):
            line = line.strip()
            if line == tag or line.startswith(tag + " "):
                out.append(Record(kind, line[len(tag) + 1:], self.path, n, self.fix))
        return out

    def at(self, kind: str) -> list[str]:
        """The text after "@KIND " of each "@KIND" line (at_lines)."""
        return at_lines(self.lines, kind)


def out_dir(path: str, create: bool = False) -> str:
    """PATH as a report's OUT_DIR: a folder it can write in, or (CREATE)
    one it can make; raises LogError naming it otherwise. Nothing is
    written (a file made to prove it is removed)."""
    fix = "give a folder you can write in"
    if not path:
        raise LogError("OUT_DIR", 0, "", "empty", fix)
    if not os.path.isdir(path):
        if os.path.lexists(path):
            raise LogError(path, 0, "", "not a folder (OUT_DIR)", fix)
        if not create:
            raise LogError(path, 0, "", "no such folder (OUT_DIR)", fix + " (mkdir it)")
        parent = os.path.dirname(os.path.abspath(path))
        while not os.path.lexists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise LogError(path, 0, "", f"cannot be made: {parent} is not a folder (OUT_DIR)", fix)
        path_to_try = parent
    else:
        path_to_try = path
    try:
        fd, name = tempfile.mkstemp(dir=path_to_try, prefix=".write-test.")
        os.close(fd)
        os.unlink(name)
    except OSError as e:
        raise LogError(path, 0, "", f"cannot write in {path_to_try}: {e.strerror} (OUT_DIR)",
                       fix) from None
    return path


def guard(main: Callable[[], int | None]) -> NoReturn:
    """Run a report's MAIN and exit with its status; input it cannot read
    (LogError) and output it cannot write (OSError: OUT_DIR's files,
    stdout on a full device, stdout closed) are one line on stderr and
    exit 2, never a traceback, never exit 0. A reader that stops early
    (head) ends it quietly, as it would awk (SIGPIPE's default)."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if sys.stdout is None:
        die("stdout is closed: give the report's text somewhere to go (a file, a pipe)")
    try:
        try:
            rc: int | None = main()
        except SystemExit as e:
            sys.stdout.flush()
            raise e
        sys.stdout.flush()
    except LogError as e:
        die(str(e))
    except OSError as e:
        # what stdout still holds would fail again at exit: drop it
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        die(f"{e.filename or 'stdout'}: {e.strerror or e}")
    sys.exit(rc or 0)


def mean_rsd(values: Sequence[float]) -> tuple[float, float]:
    """The mean of VALUES and their relative standard deviation, % (0 for
    a single value)."""
    mean = statistics.mean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, (sd / mean * 100 if mean else 0.0)


def report_args(doc: str, options: Sequence[str] = (), logs: int | str = 1,
                create: bool = False) -> Any:
    """A report's arguments: OUT_DIR, then LOGS LOG arguments (a number,
    0 for none, or "+": one or more), after any of OPTIONS, each given
    as "--NAME VALUE" (the last one given wins). Returns OUT_DIR and the
    LOG (LOGS 1) or the list of LOGs (any other LOGS), and with OPTIONS
    a third value, the
    dict {NAME: VALUE, or None where not given}. With other arguments,
    DOC's usage on stderr (its paragraph that starts with "Usage:", else
    its first) and exit 2. OUT_DIR is checked (out_dir(), CREATE) before
    anything is written: one that is not a folder it can write in (or,
    with CREATE, make) is one line and exit 2."""
    args, opts = sys.argv[1:], dict.fromkeys(options)
    while len(args) >= 2 and args[0].startswith("--") and args[0][2:] in opts:
        opts[args[0][2:]] = args[1]
        args = args[2:]
    nlogs = len(args) - 1
    if (nlogs < 1 if logs == "+" else nlogs != logs) or args[0].startswith("-"):
        paras = doc.strip("\n").split("\n\n")
        print(next((p for p in paras if p.startswith("Usage:")), paras[0]), file=sys.stderr)
        sys.exit(2)
    out, rest = args[0], args[1:]
    try:
        out_dir(out, create)
    except LogError as e:
        die(str(e))
    ret = (out, rest[0] if logs == 1 else rest)
    return ret + (opts,) if options else ret


def mann_whitney(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p-value of the Mann-Whitney U test that samples A and B
    come from one distribution: the normal approximation with the ties'
    correction and a continuity correction (Mann and Whitney, 1947; for
    1..10 against 4..13 it gives 0.058, the exact permutation p 0.056).
    1.0 when all values are equal."""
    n1, n2 = len(a), len(b)
    pooled = sorted((v, i) for i, v in enumerate(list(a) + list(b)))
    ranks, i = [0.0] * (n1 + n2), 0
    ties = 0.0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[pooled[k][1]] = (i + j) / 2 + 1
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    u = sum(ranks[:n1]) - n1 * (n1 + 1) / 2
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = max(abs(u - n1 * n2 / 2) - 0.5, 0) / var ** 0.5
    return math.erfc(z / 2 ** 0.5)


def gnuplot(script: str, prog: str) -> bool:
    """Run gnuplot on SCRIPT; True if it drew. If gnuplot is missing or
    fails, say so on stderr as PROG and return False (no plot, the rest of
    the report stands)."""
    if not shutil.which("gnuplot"):
        print(f"{prog}: gnuplot is missing (apt-get install gnuplot-nox): no plot",
              file=sys.stderr)
        return False
    res = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if res.returncode:
        print(f"{prog}: gnuplot failed: {res.stderr.strip()}", file=sys.stderr)
        return False
    return True


def table(head: list[str], rows: list[list[str]], sep: str = " | ", align: str | None = None,
          widths: list[int] | None = None) -> list[str]:
    """HEAD and ROWS (lists of strings) as text lines, columns padded and
    separated by SEP. ALIGN: a column's alignment, "<" (left, the
    default) or ">" (right), one character a column. WIDTHS: the
    columns' widths, fixed (a longer cell shifts the rest of its row,
    not its column); default the widest cell's."""
    if widths is None:
        widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    align = align or "<" * len(head)
    return [sep.join(f"{c:{a}{w}}" for c, a, w in zip(r, align, widths)).rstrip()
            for r in [head] + rows]


def write_report(out: str, lines: list[str]) -> None:
    """LINES as OUT/report.txt, and on stdout."""
    text = "\n".join(lines) + "\n"
    with open(f"{out}/report.txt", "w") as f:
        f.write(text)
    print(text, end="")


def at_lines(lines: list[str], kind: str) -> list[str]:
    """The text after "@KIND " of each of LINES that is an "@KIND" line,
    in order (for a log already read with read_lines)."""
    tag = "@" + kind + " "
    return [line[len(tag):] for line in lines if line.startswith(tag)]


def at(log: str, kind: str) -> list[str]:
    """The text after "@KIND " of each of LOG's "@KIND" lines, in order."""
    return at_lines(read_lines(log), kind)


def bench_log(log: str, kind: str, target: str, script: str) -> tuple[Log, Record]:
    """The console LOG of a bench's boot (make TARGET), whose guest
    SCRIPT reports its setup as "@KIND ...", its runs, errors as
    "@KIND_error ..." and its end as "@KIND_done": LOG read (a Log whose
    fix is to run make TARGET again) and its setup's Record. Dies (exit
    1), naming LOG, when the guest reported errors, did not run SCRIPT or
    stopped early."""
    lg = Log(log, f"run make {target}", f"run make {target} again (the log is cut or garbled)")
    errors = lg.at(f"{kind}_error")
    if errors:
        die(f"{log}: the guest reported errors: {'; '.join(errors)}", 1)
    head = lg.records(kind)
    if not head:
        die(f"{log}: no @{kind} line: the boot did not run {script} (see the log's end)", 1)
    if not lg.records(f"{kind}_done"):
        die(f"{log}: no @{kind}_done line: the boot stopped early (timeout?)", 1)
    return lg, head[0]


def kv(text: str) -> dict[str, str]:
    """A dict of the "key=value" words of TEXT (other words are ignored)."""
    out = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        if eq:
            out[key] = value
    return out


def value(lines: list[str], key: str, conds: Sequence[str]) -> list[str]:
    """KEY's value of each of LINES (key=value words) that has every
    "k=v" of CONDS, in order; lines without KEY give nothing."""
    want = [c.partition("=")[::2] for c in conds]
    out = []
    for line in lines:
        d = kv(line)
        if key in d and all(d.get(k) == v for k, v in want):
            out.append(d[key])
    return out


@dataclass
class EmState:
    """A performance state of an EM perf domain (eas-em's JSON)."""
    frequency_khz: int
    power_uw: int | None
    performance: int | None
    inefficient: bool | None


@dataclass
class PerfDomain:
    """An EM perf domain (eas-em's JSON): its states in its order."""
    name: str
    cpus: list[int]
    capacity: int | None
    flags: int | None
    states: list[EmState]


EM_FIX = "make it with 'tools/power/eas/eas-em compute --json DTB'"


def em_domains(path: str, text: str | None = None, power: bool = True) -> list[PerfDomain]:
    """The perf domains of eas-em's JSON ("eas-em compute --json" or
    "show --format=json") at PATH, or in TEXT (PATH then names where it
    came from), their shape checked: the one reader of it. POWER: every
    state needs power_uw (not an abstract scale). Raises LogError naming
    PATH and the wrong field (e.g. perf_domains[0].states[2].power_uw)."""
    try:
        if text is None:
            with open(path) as f:
                text = f.read()
        doc = json.loads(text)
    except OSError as e:
        raise LogError(path, 0, "", e.strerror or str(e), EM_FIX) from None
    except ValueError as e:
        raise LogError(path, 0, "", f"not JSON ({e})", EM_FIX) from None

    def bad(where: str, want: str) -> LogError:
        return LogError(path, 0, where, f"want {want}", EM_FIX)

    def whole(v: Any, where: str, lo: int, null: bool = False) -> int | None:
        if v is None and null:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise bad(where, f"a whole number >= {lo}" + (" or null" if null else ""))
        return v

    pds = doc.get("perf_domains") if isinstance(doc, dict) else None
    if not isinstance(pds, list) or not pds:
        raise bad("perf_domains", "a list of perf domains (an object holding one)")
    out = []
    for i, pd in enumerate(pds):
        w = f"perf_domains[{i}]"
        if not isinstance(pd, dict):
            raise bad(w, "an object")
        cpus = pd.get("cpus")
        if not isinstance(cpus, list) or not cpus:
            raise bad(f"{w}.cpus", "a list of CPU numbers")
        cpus = [whole(c, f"{w}.cpus", 0) for c in cpus]
        states = pd.get("states")
        if not isinstance(states, list) or not states:
            raise bad(f"{w}.states", "a list of performance states")
        sts = []
        for j, st in enumerate(states):
            ws = f"{w}.states[{j}]"
            if not isinstance(st, dict):
                raise bad(ws, "an object")
            ineff = st.get("inefficient")
            if ineff is not None and not isinstance(ineff, bool):
                raise bad(f"{ws}.inefficient", "true, false or null")
            khz = whole(st.get("frequency_khz"), f"{ws}.frequency_khz", 1)
            if khz is None:
                raise bad(f"{ws}.frequency_khz", "a whole number >= 1")
            sts.append(EmState(khz,
                               whole(st.get("power_uw"), f"{ws}.power_uw", 0, not power),
                               whole(st.get("performance"), f"{ws}.performance", 0, True),
                               ineff))
        name = pd.get("name", "")
        if not isinstance(name, str):
            raise bad(f"{w}.name", "a string")
        out.append(PerfDomain(name, cpus, whole(pd.get("capacity"), f"{w}.capacity", 0, True),
                              whole(pd.get("flags"), f"{w}.flags", 0, True), sts))
    return out


def em_clusters(path: str) -> dict[str, list[tuple[int, int]]]:
    """The board's two clusters in eas-em's JSON at PATH (em_domains()):
    {"a7": [(kHz, uW), ...], "a15": [...]}, each ascending; a7 the perf
    domain of CPUs 0-3, a15 of 4-7. Raises LogError naming PATH if it
    holds other domains."""
    out: dict[str, list[tuple[int, int]]] = {}
    for pd in em_domains(path):
        cl = "a7" if min(pd.cpus) < 4 else "a15"
        out[cl] = sorted((s.frequency_khz, s.power_uw or 0) for s in pd.states)
    if set(out) != {"a7", "a15"}:
        raise LogError(path, 0, "perf_domains", "want the perf domains of both "
                       f"clusters (CPUs 0-3, 4-7), got {sorted(out)}", EM_FIX)
    return out


def em_cpus(path: str) -> list[str]:
    """Per CPU of "eas-em compute --json" output at PATH: its line
    "cpu=N capacity=C fmax_khz=F power=KHZ:UW,...", in CPU order."""
    rows = {}
    for pd in em_domains(path):
        power = ",".join(f"{s.frequency_khz}:{s.power_uw}" for s in pd.states)
        for c in pd.cpus:
            rows[c] = (f"cpu={c} capacity={pd.capacity} "
                       f"fmax_khz={pd.states[-1].frequency_khz} power={power}")
    return [rows[c] for c in sorted(rows)]


BENCH_CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benches", "bench-configs")
BENCH_CONFIGS_FIX = "give each line as CFG|DTB|EAS|LEVELS|NAME|MEANING (the file's head says how)"


@dataclass
class BenchConfig:
    """One of make bench's configurations (tools/testing/vxu4/benches/bench-configs):
    its letter, the DTB it boots (a name in build/), the
    sched_energy_aware it sets (None: no EM, nothing set), its boards'
    sched domain levels, its short name and what it means (Markdown)."""
    cfg: str
    dtb: str
    eas: int | None
    levels: int
    name: str
    meaning: str


def bench_configs(path: str = BENCH_CONFIGS) -> list[BenchConfig]:
    """make bench's configurations, in the file's order: the one
    definition of them. Raises LogError naming PATH and the line that is
    not one (or a letter given twice, or configurations that set
    sched_energy_aware, and so share a boot, on different DTBs)."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise LogError(path, 0, "", e.strerror or str(e), "restore it from git") from None
    out: list[BenchConfig] = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("|")

        def bad(why: str) -> LogError:
            return LogError(path, n, escape(line), why, BENCH_CONFIGS_FIX)
        if len(parts) != 6:
            raise bad(f"{len(parts)} fields, want 6")
        cfg, dtb, eas, levels, name, meaning = parts
        if not re.fullmatch(r"[a-z]", cfg) or cfg in (c.cfg for c in out):
            raise bad("CFG: want a letter a-z, not given before")
        if not re.fullmatch(r"[A-Za-z0-9_.-]+\.dtb", dtb):
            raise bad("DTB: want a file name ending in .dtb")
        if eas not in ("0", "1", "-"):
            raise bad("EAS: want 1, 0 or -")
        if levels not in ("1", "2"):
            raise bad("LEVELS: want 1 or 2")
        if not name or not meaning:
            raise bad("NAME and MEANING: want some text")
        out.append(BenchConfig(cfg, dtb, None if eas == "-" else int(eas), int(levels), name,
                               meaning))
    if not out:
        raise LogError(path, 0, "", "no configuration in it", BENCH_CONFIGS_FIX)
    if len({c.dtb for c in out if c.eas is not None}) > 1:
        raise LogError(path, 0, "", "the configurations that set sched_energy_aware take turns"
                       " in one boot: want them on one DTB", BENCH_CONFIGS_FIX)
    return out


def bench_configs_table(cfgs: Sequence[BenchConfig]) -> list[str]:
    """The configurations as docs/benches.md's Markdown table."""
    turns = "".join(c.cfg for c in cfgs if c.eas is not None)
    rows = ["| | configuration | board | `sched_energy_aware` | boots |",
            "|---|---|---|---|---|"]
    for c in cfgs:
        boots = (f"{turns}1, {turns}2, taking turns ({', '.join(turns)})" if c.eas is not None
                 else c.cfg)
        rows.append(f"| {c.cfg} | {c.meaning} | `build/{c.dtb}`, {c.levels} sched domain "
                    f"level{'s' if c.levels > 1 else ''} | {'-' if c.eas is None else c.eas} "
                    f"| {boots} |")
    return rows


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[1] == "at":
        out = at(argv[2], argv[3])
    elif len(argv) >= 3 and argv[1] == "value":
        out = value(sys.stdin.read().splitlines(), argv[2], argv[3:])
    elif len(argv) == 3 and argv[1] == "em-cpus":
        out = em_cpus(argv[2])
    elif len(argv) == 2 and argv[1] == "bench-configs":
        out = [f"{c.cfg} {c.dtb} {'-' if c.eas is None else c.eas} {c.levels}"
               for c in bench_configs()]
    elif len(argv) == 3 and argv[1:] == ["bench-configs", "--markdown"]:
        out = bench_configs_table(bench_configs())
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if out:
        print("\n".join(out))
    return 0


if __name__ == "__main__":
    guard(lambda: main(sys.argv))
