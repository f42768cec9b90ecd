# SPDX-License-Identifier: GPL-2.0
"""The virtual XU4's console logs: the guest's "@KIND key=value ..." lines.

The guest (tools/testing/vxu4/guest: init, bench) reports what it
measured as lines "@KIND key=value ..." among the kernel's console output.
This module reads them, by key, never by position.
"""

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


def at(log, kind):
    """The text after "@KIND " of each of LOG's "@KIND" lines, in order."""
    tag = "@" + kind + " "
    return [line[len(tag):] for line in read_lines(log) if line.startswith(tag)]


def kv(text):
    """A dict of the "key=value" words of TEXT (other words are ignored)."""
    out = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        if eq:
            out[key] = value
    return out
