# SPDX-License-Identifier: GPL-2.0
"""The virtual XU4's console logs: the guest's "@KIND key=value ..." lines.

The guest (tools/testing/vxu4/guest: init, bench) reports what it
measured as lines "@KIND key=value ..." among the kernel's console output.
This module is the one reader of them, by key, never by position: for the
Python tools (import it) and for the shell suites (lib.sh calls it):

  vxu4log.py at LOG KIND            the text after "@KIND " of LOG's lines
  vxu4log.py value KEY [K=V ...]    of each stdin line of key=value words
                                    that has every K=V: its KEY's value
  vxu4log.py em-cpus EM.json        per CPU, from "eas-em compute --json":
                                    "cpu=N capacity=C fmax_khz=F
                                    power=KHZ:UW,KHZ:UW,..."

and, for the reports, report_args(DOC) (their command line),
at_lines(LINES, KIND) (at on a log already read), mean_rsd(VALUES),
mann_whitney(A, B), table(HEAD, ROWS), write_report(OUT, LINES) and
gnuplot(SCRIPT, PROG).

Exit: 0, or 2 for bad usage or an unreadable file.
"""

import json
import math
import shutil
import statistics
import signal
import subprocess
import sys


def die(msg, code=2):
    """Print "PROGRAM: MSG" on stderr and exit with CODE (2: bad input)."""
    print(f"{sys.argv[0].rsplit('/', 1)[-1]}: {msg}", file=sys.stderr)
    sys.exit(code)


def read_lines(log, hint="boot the virtual XU4 first (make check)"):
    """The lines of LOG without carriage returns; dies naming LOG and HINT
    (what to do) if it cannot be read."""
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            return [line.rstrip("\r\n").replace("\r", "") for line in f]
    except OSError as e:
        die(f"{log}: {e.strerror}: {hint}")


def mean_rsd(values):
    """The mean of VALUES and their relative standard deviation, % (0 for
    a single value)."""
    mean = statistics.mean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return mean, (sd / mean * 100 if mean else 0.0)


def report_args(doc, options=(), logs=1):
    """A report's arguments: OUT_DIR, then LOGS LOG arguments (a number,
    0 for none, or "+": one or more), after any of OPTIONS, each given
    as "--NAME VALUE" (the last one given wins). Returns OUT_DIR and the
    LOG (LOGS 1) or the list of LOGs (any other LOGS), and with OPTIONS
    a third value, the
    dict {NAME: VALUE, or None where not given}. With other arguments,
    DOC's usage on stderr (its paragraph that starts with "Usage:", else
    its first) and exit 2."""
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
    ret = (out, rest[0] if logs == 1 else rest)
    return ret + (opts,) if options else ret


def mann_whitney(a, b):
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


def gnuplot(script, prog):
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


def table(head, rows, sep=" | ", align=None, widths=None):
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


def write_report(out, lines):
    """LINES as OUT/report.txt, and on stdout."""
    text = "\n".join(lines) + "\n"
    with open(f"{out}/report.txt", "w") as f:
        f.write(text)
    print(text, end="")


def at_lines(lines, kind):
    """The text after "@KIND " of each of LINES that is an "@KIND" line,
    in order (for a log already read with read_lines)."""
    tag = "@" + kind + " "
    return [line[len(tag):] for line in lines if line.startswith(tag)]


def at(log, kind):
    """The text after "@KIND " of each of LOG's "@KIND" lines, in order."""
    return at_lines(read_lines(log), kind)


def bench_log(log, kind, target, script):
    """The console LOG of a bench's boot (make TARGET), whose guest
    SCRIPT reports its setup as "@KIND ...", its runs, errors as
    "@KIND_error ..." and its end as "@KIND_done": LOG's lines and the
    setup's key=value dict. Dies (exit 1), naming LOG, when the guest
    reported errors, did not run SCRIPT or stopped early."""
    lines = read_lines(log, f"run make {target}")
    errors = at_lines(lines, f"{kind}_error")
    if errors:
        die(f"{log}: the guest reported errors: {'; '.join(errors)}", 1)
    head = at_lines(lines, kind)
    if not head:
        die(f"{log}: no @{kind} line: the boot did not run {script} (see the log's end)", 1)
    if not at_lines(lines, f"{kind}_done"):
        die(f"{log}: no @{kind}_done line: the boot stopped early (timeout?)", 1)
    return lines, kv(head[0])


def kv(text):
    """A dict of the "key=value" words of TEXT (other words are ignored)."""
    out = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        if eq:
            out[key] = value
    return out


def value(lines, key, conds):
    """KEY's value of each of LINES (key=value words) that has every
    "k=v" of CONDS, in order; lines without KEY give nothing."""
    want = [c.partition("=")[::2] for c in conds]
    out = []
    for line in lines:
        d = kv(line)
        if key in d and all(d.get(k) == v for k, v in want):
            out.append(d[key])
    return out


def em_cpus(path):
    """Per CPU of "eas-em compute --json" output at PATH: its line
    "cpu=N capacity=C fmax_khz=F power=KHZ:UW,...", in CPU order."""
    try:
        with open(path) as f:
            pds = json.load(f)["perf_domains"]
    except (OSError, ValueError, KeyError) as e:
        die(f"{path}: {e}: want the output of eas-em compute --json")
    rows = {}
    for pd in pds:
        power = ",".join(f"{s['frequency_khz']}:{s['power_uw']}" for s in pd["states"])
        for c in pd["cpus"]:
            rows[c] = (f"cpu={c} capacity={pd['capacity']} "
                       f"fmax_khz={pd['states'][-1]['frequency_khz']} power={power}")
    return [rows[c] for c in sorted(rows)]


def main(argv):
    # A reader that stops early (head -1) ends us quietly, as it would awk.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(argv) == 4 and argv[1] == "at":
        out = at(argv[2], argv[3])
    elif len(argv) >= 3 and argv[1] == "value":
        out = value(sys.stdin.read().splitlines(), argv[2], argv[3:])
    elif len(argv) == 3 and argv[1] == "em-cpus":
        out = em_cpus(argv[2])
    else:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    if out:
        print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
