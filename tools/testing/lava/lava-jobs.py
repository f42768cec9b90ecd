#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The LAVA jobs of this folder: made ready for a lab, and checked.

Usage: lava-jobs.py render URL OUT_DIR [--release REL] [--plugin PATH] [--dtb DTB]
       lava-jobs.py check

render: each job template of this folder (odroid-xu3.yaml, vxu4-qemu.yaml)
with @ARTIFACTS@ replaced by URL (where the lab fetches zImage, the DTBs,
the image and the root tarball from), @RELEASE@ by REL (the kernel's
release, default build/obj's), @PLUGIN@ by PATH (the QEMU plugin on the
worker, default build/insn-count.so's absolute path) and @OFFSET@ by the
offset of the plugin's page in the guest RAM (from DTB, default
build/vxu4.dtb), and the test definition eas-board.yaml put inline, each
job's "parameters" as its "params"; written to OUT_DIR/NAME.yaml, then
checked as check does.

check: KTAP. Each job, rendered with example values, against LAVA's own
job schema (lava_common.schemas.validate, strict, as lava-server checks
a submitted job; Debian's lava-common); the test definition against
LAVA's test definition schema; and three broken jobs that the schema must
refuse, so that the check can fail.

Exit: 0 ok, 1 a check failed, 2 bad usage or input (no lava-common, a
template that is no YAML, a placeholder left).
"""

import copy
import os
import re
import subprocess
import sys
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
JOBS = ("odroid-xu3.yaml", "vxu4-qemu.yaml")
TESTDEF = "eas-board.yaml"
EXAMPLE_URL = "https://lab.example.invalid/odroid-eas"

try:
    import yaml
    from lava_common.schemas import validate as lava_validate
    from lava_common.schemas.test.testdef import testdef as lava_testdef
    from voluptuous import Invalid, Schema
except ImportError as e:
    print(f"lava-jobs.py: {e}: install Debian's lava-common (apt-get install lava-common; "
          "scripts/deps.sh does) and run with /usr/bin/python3", file=sys.stderr)
    sys.exit(2)


def die(msg: str) -> None:
    print(f"lava-jobs.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(name: str) -> Any:
    path = os.path.join(HERE, name)
    try:
        with open(path) as f:
            return yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        die(f"{path}: {e}")


def plugin_offset(dtb: str) -> str:
    """The offset of the insn-counters page in the guest RAM (vxu4.sh's
    computation), or "0" when the DTB is not there yet (check's)."""
    def fdtget(*args: str) -> list[str]:
        r = subprocess.run(["fdtget", *args], capture_output=True, text=True)
        return r.stdout.split() if r.returncode == 0 else []

    nodes = [n for n in fdtget("-l", dtb, "/reserved-memory") if n.startswith("insn-counters@")]
    mems = [n for n in fdtget("-l", dtb, "/") if n.startswith("memory@")]
    if not nodes or not mems:
        return "0"
    page = fdtget("-t", "x", dtb, f"/reserved-memory/{nodes[0]}", "reg")
    base = fdtget("-t", "x", dtb, f"/{mems[0]}", "reg")
    if len(page) < 2 or len(base) < 2:
        return "0"
    return str(int(page[1], 16) - int(base[1], 16))


def substitute(node: Any, values: dict[str, str]) -> Any:
    """NODE with every "@NAME@" of its strings replaced by values[NAME]."""
    if isinstance(node, dict):
        return {k: substitute(v, values) for k, v in node.items()}
    if isinstance(node, list):
        return [substitute(v, values) for v in node]
    if isinstance(node, str):
        for k, v in values.items():
            node = node.replace(f"@{k}@", v)
    return node


def render(name: str, values: dict[str, str], testdef: Any) -> Any:
    """The job template NAME, made ready: placeholders replaced, the test
    definition inline with the job's parameters as its params."""
    job = substitute(load(name), values)
    for action in job.get("actions", []):
        for d in action.get("test", {}).get("definitions", []):
            if d.get("repository") == "@TESTDEF@" and d.get("from") == "inline":
                td = copy.deepcopy(testdef)
                td.setdefault("params", {}).update(d.pop("parameters", {}))
                d["repository"] = td
    left = re.findall(r"@[A-Z]+@", yaml.safe_dump(job))
    if left:
        die(f"{name}: placeholders left after rendering: {', '.join(sorted(set(left)))}")
    return job


def check_job(job: Any) -> str:
    """"" if LAVA's job schema takes JOB, else its error."""
    try:
        lava_validate(job, strict=True)
    except Invalid as e:
        return f"{e.path}: {e.msg}" if getattr(e, "path", None) else str(e)
    return ""


def check_testdef(td: Any) -> str:
    try:
        Schema(lava_testdef())(td)
    except Invalid as e:
        return str(e)
    return ""


def default_values() -> dict[str, str]:
    rel = os.path.join(TOP, "build", "obj", "include", "config", "kernel.release")
    try:
        with open(rel) as f:
            release = f.read().strip()
    except OSError:
        release = "6.12.0-odroid-eas"
    return {"RELEASE": release, "PLUGIN": os.path.join(TOP, "build", "insn-count.so"),
            "OFFSET": plugin_offset(os.path.join(TOP, "build", "vxu4.dtb"))}


def cmd_check() -> int:
    results: list[tuple[bool, str, str]] = []
    testdef = load(TESTDEF)
    err = check_testdef(testdef)
    results.append((not err, f"{TESTDEF}: LAVA's test definition schema", err))
    values = {"ARTIFACTS": EXAMPLE_URL, **default_values()}
    jobs = {}
    for name in JOBS:
        jobs[name] = render(name, values, testdef)
        err = check_job(jobs[name])
        results.append((not err, f"{name}: LAVA's job schema (strict), rendered, "
                        f"test definition inline", err))

    # The schema must refuse these: the check can fail.
    def broken(desc: str, name: str, edit: Callable[[Any], None]) -> None:
        job = copy.deepcopy(jobs[name])
        edit(job)
        err = check_job(job)
        results.append((bool(err), f"refused by the schema: {desc}",
                        "" if err else "the schema took it"))

    def no_kernel(job: Any) -> None:
        del job["actions"][0]["deploy"]["images"]["kernel"]["url"]

    def bad_context(job: Any) -> None:
        job["context"]["no_such_variable"] = 1

    def bad_testdef(job: Any) -> None:
        del job["actions"][2]["test"]["definitions"][0]["repository"]["metadata"]["format"]

    broken("the QEMU job with no kernel URL", "vxu4-qemu.yaml", no_kernel)
    broken("a context variable LAVA does not know", "vxu4-qemu.yaml", bad_context)
    broken("the XU3 job's test definition without its format", "odroid-xu3.yaml", bad_testdef)

    print("KTAP version 1")
    print(f"1..{len(results)}")
    failed = 0
    for i, (ok, desc, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} {desc}")
        if not ok:
            failed += 1
            for line in detail.splitlines():
                print(f"# {line}")
    print(f"# Totals: pass:{len(results) - failed} fail:{failed} skip:0 todo:0 total:{len(results)}")
    return 1 if failed else 0


def cmd_render(args: list[str]) -> int:
    if len(args) < 2 or len(args) % 2:
        die("usage: lava-jobs.py render URL OUT_DIR [--release REL] [--plugin PATH] [--dtb DTB]")
    url, out = args[0].rstrip("/"), args[1]
    values = {"ARTIFACTS": url, **default_values()}
    opts = dict(zip(args[2::2], args[3::2]))
    for k, v in opts.items():
        if k == "--release":
            values["RELEASE"] = v
        elif k == "--plugin":
            values["PLUGIN"] = v
        elif k == "--dtb":
            if not os.path.isfile(v):
                die(f"--dtb {v}: no such file (make vxu4 makes build/vxu4.dtb)")
            values["OFFSET"] = plugin_offset(v)
        else:
            die(f"render: unknown option {k}: want --release, --plugin or --dtb")
    testdef = load(TESTDEF)
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        die(f"{out}: {e.strerror}")
    bad = 0
    for name in JOBS:
        job = render(name, values, testdef)
        err = check_job(job)
        if err:
            print(f"lava-jobs.py: {name}: LAVA's schema refuses it: {err}", file=sys.stderr)
            bad = 1
            continue
        path = os.path.join(out, name)
        with open(path + ".tmp", "w") as f:
            yaml.safe_dump(job, f, sort_keys=False, width=1000)
        os.replace(path + ".tmp", path)
        print(path)
    return bad


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[1] == "check":
        return cmd_check()
    if len(argv) >= 2 and argv[1] == "render":
        return cmd_render(argv[2:])
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
