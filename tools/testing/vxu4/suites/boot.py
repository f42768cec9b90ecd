#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""boot.py: the one way a suite boots the virtual XU4.

Usage: boot.py NAME [--log FILE] [--dtb FILE] [--kernel FILE] [--initrd FILE]
               [--disk FILE] [--console | --stdout] [KERNEL_ARG...]

Boots [boot.NAME] of tools/testing/vxu4/suites/registry.toml with scripts/vxu4.sh:
its kernel (build/obj's zImage, build/obj-debug's for kernel = "debug",
or the caller's VXU4_KERNEL), DTB, initramfs, time scale, cost model and
its weights (VXU4_COST, VXU4_WEIGHTS, where the boot sets them), timeout (the
caller's VXU4_TIMEOUT wins) and arguments (vxu4.mode=MODE, then args,
then KERNEL_ARG...: what a suite adds or changes, each replacing a
declared argument of the same name, e.g. a count it was given);
its console in the boot's log (or --log FILE), made empty first, and not
shown (--console: on standard error; --stdout: on standard output, as it
comes, for a caller that reads it then, make bench's bench-job.sh). The
options stand for the files a suite or bench makes for one boot (a DTB
of its own or of a bench configuration, a kernel package's zImage or a
variant's, an initramfs with a bench's files appended, a results disk).

Beside the log, LOG.boot (JSON): the SHA-256 of every file booted, the
arguments, the time scale, scripts/vxu4.sh's settings that change the
guest, and the boot's exit status; tools/testing/check.sh reuses a log
only when that says the same as now (registry.py: current()).

Exit: scripts/vxu4.sh's (0: the guest powered off); 2: bad usage or a
broken registry, one line naming it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
import registry  # noqa: E402

TOP = registry.TOP
USAGE = ("usage: boot.py NAME [--log FILE] [--dtb FILE] [--kernel FILE] [--initrd FILE] "
         "[--disk FILE] [--console | --stdout] [KERNEL_ARG...]")


def fail(msg: str) -> int:
    print(f"boot.py: {msg}", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        return fail(USAGE)
    name, rest = argv[0], argv[1:]
    opts: dict[str, str] = {}
    shown = ""
    extra: list[str] = []
    while rest:
        a = rest.pop(0)
        if a in ("--console", "--stdout"):
            if shown and shown != a:
                return fail(f"{shown} and {a}: give one of them ({USAGE})")
            shown = a
        elif a in ("--log", "--dtb", "--kernel", "--initrd", "--disk"):
            if not rest or not rest[0]:
                return fail(f"{a}: want a file after it ({USAGE})")
            opts[a[2:]] = rest.pop(0)
        elif a.startswith("--"):
            return fail(f"unknown option {a} ({USAGE})")
        else:
            extra.append(a)
            extra.extend(rest)
            break
    try:
        reg = registry.load(registry.default_path(TOP), TOP)
    except registry.RegistryError as e:
        return fail(str(e))
    boot = reg.boots.get(name)
    if boot is None:
        return fail(f"no boot '{name}' in {reg.rel()}: want one of {', '.join(reg.boots)}")
    if boot.disk and "disk" not in opts:
        return fail(f"boot {name} has a disk: give it with --disk FILE")
    if not boot.disk and "disk" in opts:
        return fail(f"boot {name} has no disk (disk = true in {reg.rel()}): drop --disk")
    if boot.initrd == "none" and "initrd" in opts:
        return fail(f"boot {name} has no initramfs (initrd = \"none\" in {reg.rel()}): drop --initrd")

    env = boot.environ(TOP, registry.environ())
    files = registry.plan_files(reg, boot, env)
    if "kernel" in opts:
        files["kernel"] = str(Path(opts["kernel"]).resolve())
    if "dtb" in opts:
        files["dtb"] = str(Path(opts["dtb"]).resolve())
    if "initrd" in opts:
        files["initrd"] = str(Path(opts["initrd"]).resolve())
    log = Path(opts["log"]).resolve() if "log" in opts else TOP / boot.log
    # KERNEL_ARG... replace the declared ones of the same name.
    keys = {a.split("=", 1)[0] for a in extra}
    args = [a for a in boot.kernel_args(env) if a.split("=", 1)[0] not in keys] + extra

    env["VXU4_KERNEL"] = files["kernel"]
    env["VXU4_DTB"] = files["dtb"]
    env["VXU4_INITRD"] = files["initrd"]
    env["VXU4_LOG"] = str(log)
    if "disk" in opts:
        env["VXU4_DISK"] = opts["disk"]
    if boot.timeout is not None and not env.get("VXU4_TIMEOUT"):
        env["VXU4_TIMEOUT"] = str(boot.timeout)

    stamp_file = Path(str(log) + ".boot")
    for p in (log, stamp_file):
        try:
            p.unlink()
        except FileNotFoundError:
            pass
        except OSError as e:
            return fail(f"cannot remove {p} ({e.strerror})")
    # The console: scripts/vxu4.sh's standard output.
    out: int | None = {"--console": 2, "--stdout": None}.get(shown, subprocess.DEVNULL)
    try:
        rc = subprocess.run([str(TOP / "scripts/vxu4.sh"), "boot", *args], env=env,
                            stdout=out, stdin=subprocess.DEVNULL).returncode
        rc = int(rc)
    except KeyboardInterrupt:
        return 130
    if rc == 2 or not log.parent.is_dir():
        # Refused before booting (scripts/vxu4.sh said why): no stamp.
        return rc
    st = registry.stamp(TOP, files, args, env)
    st["boot"] = name
    st["status"] = rc
    try:
        stamp_file.write_text(json.dumps(st, indent=1) + "\n")
    except OSError as e:
        print(f"boot.py: cannot write {stamp_file} ({e.strerror}): the log will not be reused",
              file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
