# SPDX-License-Identifier: GPL-2.0
"""The suites registry (tools/testing/vxu4/suites/registry.toml), read and checked.

The file is data: boots of the virtual XU4 and suites, described in its
own header. This module reads it with tomllib, refuses what breaks it
(RegistryError: the file, the line, the entry, the fix), computes each
suite's lane in a tier, and says whether a boot's log is current (its
LOG.boot stamp, written by boot.py, against the files and arguments of
now). Used by tools/testing/check.py and tools/testing/vxu4/suites/boot.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

TIERS: tuple[str, ...] = ("check", "ci", "full", "debug")
WORD = re.compile(r"^[A-Za-z0-9_.-]+$")
LOG_REF = re.compile(r"\{log:([^}]*)\}")
WEIGHTS_REF = re.compile(r"\{weights:([^}]*)\}")
ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*):-([^}]*)\}")

BOOT_KEYS: dict[str, type] = {
    "about": str, "mode": str, "args": list, "log": str, "kernel": str, "dtb": str,
    "scale": int, "timeout": int, "initrd": str, "disk": bool, "cost": str, "weights": str,
}
COSTS: tuple[str, ...] = ("insns", "cycles", "cycles-cache")
SUITE_KEYS: dict[str, type] = {
    "name": str, "tiers": list, "run": list, "prepare": list, "boots": list, "makes": list,
    "boots-via": str, "isolated": bool, "builds": str, "target": str,
}
FORM_KEYS: tuple[str, ...] = ("name", "run", "boots", "makes")


class RegistryError(Exception):
    """A broken registry: one line for the user (file, line, entry, fix)."""


@dataclass(frozen=True)
class Boot:
    """A boot of the virtual XU4, as boot.py makes it."""

    name: str
    about: str
    mode: str
    args: tuple[str, ...]
    log: str
    kernel: str
    dtb: str
    scale: int | None
    timeout: int | None
    initrd: str
    disk: bool
    line: int
    cost: str = ""
    weights: str = ""

    def environ(self, top: Path, env: dict[str, str]) -> dict[str, str]:
        """env with what this boot sets of scripts/vxu4.sh's settings: its
        time scale, cost and weights."""
        out = dict(env)
        if self.scale is not None:
            out["VXU4_TIME_SCALE"] = str(self.scale)
        if self.cost:
            out["VXU4_COST"] = self.cost
        if self.weights:
            out["VXU4_WEIGHTS"] = str(top / self.weights)
        return out

    def kernel_args(self, env: dict[str, str]) -> list[str]:
        """Its kernel arguments, ${VAR:-DEFAULT} taken from env."""
        out = [f"vxu4.mode={self.mode}"] if self.mode else []
        for a in self.args:
            out.append(ENV_REF.sub(lambda m: env.get(m.group(1)) or m.group(2), a))
        return out


@dataclass(frozen=True)
class Form:
    """A suite as one tier (or its make target) runs it."""

    name: str
    run: tuple[str, ...]
    boots: tuple[str, ...]
    makes: tuple[str, ...]

    @property
    def reads(self) -> tuple[str, ...]:
        """The boots of others whose logs its command reads ({log:NAME}
        that it does not boot itself), in order."""
        seen: list[str] = []
        for a in self.run:
            for m in LOG_REF.finditer(a):
                b = m.group(1)
                if b not in seen and b not in self.boots + self.makes:
                    seen.append(b)
        return tuple(seen)

    @property
    def logs(self) -> tuple[str, ...]:
        """Every boot its command names ({log:NAME})."""
        return tuple(dict.fromkeys(m.group(1) for a in self.run for m in LOG_REF.finditer(a)))


@dataclass(frozen=True)
class Suite:
    """A suite: its base form, the tiers that run it, their own forms."""

    id: str
    base: Form
    base_tiers: tuple[str, ...]
    tier_forms: dict[str, Form]
    prepare: tuple[str, ...]
    boots_via: str
    isolated: bool | None
    builds: str
    target: str
    line: int

    @property
    def tiers(self) -> tuple[str, ...]:
        return tuple(t for t in TIERS if t in self.base_tiers or t in self.tier_forms)

    def form(self, tier: str | None) -> Form:
        """The form of tier (None: the base form, its make target's)."""
        if tier is not None and tier in self.tier_forms:
            return self.tier_forms[tier]
        return self.base


@dataclass
class Registry:
    path: Path
    top: Path
    boots: dict[str, Boot] = field(default_factory=dict)
    suites: list[Suite] = field(default_factory=list)

    def rel(self) -> str:
        try:
            return str(self.path.relative_to(self.top))
        except ValueError:
            return str(self.path)

    def tier(self, tier: str) -> list[Suite]:
        return [s for s in self.suites if tier in s.tiers]

    def maker(self, boot: str) -> tuple[Suite, str | None] | None:
        """The suite (and its tier, None for its base form) whose command
        makes boot, or None when check.sh makes it (boots) or no one."""
        for s in self.suites:
            if boot in s.base.makes:
                return s, None
            for t, f in s.tier_forms.items():
                if boot in f.makes:
                    return s, t
        return None

    def lane(self, suite: Suite, tier: str | None) -> str:
        """The lane suite runs in, computed from what it declares:
        "head" (a build the tier's boots need: before the lanes), "host",
        "iso", "any" or "here" (a judge of logs)."""
        f = suite.form(tier)
        if suite.builds == "debug" and tier is not None and any(
                self.boots[b].kernel == "debug"
                for s in self.tier(tier) for b in s.form(tier).boots + s.form(tier).makes):
            return "head"
        if suite.builds:
            return "host"
        if f.boots or f.makes or suite.boots_via:
            return {True: "iso", False: "host", None: "any"}[suite.isolated]
        if f.reads:
            return "here"
        return "host"


    def make_needs(self, suite: Suite) -> str:
        """What suite's make target (make TARGET: check.sh --suite TARGET,
        its base form) has made first, computed from what it declares:
        "board" when it boots (boots, makes, a boot's log it reads, a
        launcher of its own): a boot's files (make vxu4 initramfs
        tools); else "kernel" when it builds a kernel of its own from
        the patched source (builds: kunit.py, the series, the packages:
        make kernel); else "deps" (what make deps installs)."""
        f = suite.base
        if f.boots or f.makes or f.reads or suite.boots_via:
            return "board"
        if suite.builds:
            return "kernel"
        return "deps"


def _line_of(text: list[str], table: str, key: str | None = None) -> int:
    """The line (1-based) of [table], or of key = in that table."""
    head = re.compile(r"^\s*\[\s*" + re.escape(table) + r"\s*\]\s*(#.*)?$")
    for i, ln in enumerate(text):
        if head.match(ln):
            if key is None:
                return i + 1
            for j in range(i + 1, len(text)):
                if text[j].lstrip().startswith("["):
                    break
                if re.match(r"^\s*" + re.escape(key) + r"\s*=", text[j]) or \
                        re.match(r'^\s*"' + re.escape(key) + r'"\s*=', text[j]):
                    return j + 1
            return i + 1
    return 0


def load(path: Path, top: Path) -> Registry:
    """Read and check the registry; RegistryError on the first fault."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise RegistryError(f"{path}: cannot read it ({e.strerror}): restore it from git") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise RegistryError(f"{path}: not TOML: {e}: see the file's header for its form") from None
    text = raw.decode("utf-8").splitlines()
    reg = Registry(path=path, top=top)

    def bad(table: str, key: str | None, msg: str) -> RegistryError:
        n = _line_of(text, table, key)
        where = f" line {n}" if n else ""
        entry = f"[{table}]" + (f" {key}" if key else "")
        return RegistryError(f"{path}{where}: {entry}: {msg}")

    def words(table: str, key: str, v: object, what: str = "strings") -> tuple[str, ...]:
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            raise bad(table, key, f"want a list of {what}, e.g. [\"a\", \"b\"]")
        return tuple(v)

    for top_key in data:
        if top_key not in ("boot", "suite"):
            raise bad(top_key, None, "unknown table: want [boot.NAME] or [suite.ID]")
    boots = data.get("boot", {})
    suites = data.get("suite", {})
    if not isinstance(boots, dict) or not isinstance(suites, dict) or not suites:
        raise RegistryError(f"{path}: want [boot.NAME] and [suite.ID] tables, at least one suite")

    for name, b in boots.items():
        t = f"boot.{name}"
        if not WORD.match(name):
            raise bad(t, None, f"boot name '{name}' is not a word (letters, digits, _ . -)")
        if not isinstance(b, dict):
            raise bad(t, None, "want a table")
        for k, v in b.items():
            if k not in BOOT_KEYS:
                raise bad(t, k, f"unknown key '{k}': want some of {', '.join(BOOT_KEYS)}")
            if not isinstance(v, BOOT_KEYS[k]) or (BOOT_KEYS[k] is int and isinstance(v, bool)):
                raise bad(t, k, f"want {BOOT_KEYS[k].__name__}, not {type(v).__name__}")
        for k in ("about", "log"):
            if k not in b:
                raise bad(t, None, f"no {k} = ...: every boot has one")
        kernel = b.get("kernel", "")
        if kernel not in ("", "debug"):
            raise bad(t, "kernel", f"unknown kernel '{kernel}': want \"debug\" or none (build/obj's)")
        initrd = b.get("initrd", "")
        if initrd not in ("", "none"):
            raise bad(t, "initrd", f"initrd '{initrd}': want \"none\" or none (build/initramfs.cpio.gz)")
        scale = b.get("scale")
        if scale is not None and not 1 <= scale <= 64:
            raise bad(t, "scale", f"scale {scale}: want 1 to 64")
        timeout = b.get("timeout")
        if timeout is not None and not 1 <= timeout <= 1000000:
            raise bad(t, "timeout", f"timeout {timeout}: want 1 to 1000000 s")
        cost = b.get("cost", "")
        if cost not in ("",) + COSTS:
            raise bad(t, "cost", f"cost '{cost}': want one of {', '.join(COSTS)} or none (insns)")
        if "weights" in b and cost not in ("cycles", "cycles-cache"):
            raise bad(t, "weights", "weights without cost = \"cycles\" or \"cycles-cache\": "
                      "the weights are the cycle model's")
        for k in ("log", "dtb", "weights"):
            if k in b and (b[k].startswith("/") or ".." in b[k].split("/")):
                raise bad(t, k, f"'{b[k]}': want a path inside the tree, from its top")
        args = words(t, "args", b.get("args", []))
        if any(a.startswith("vxu4.mode=") for a in args):
            raise bad(t, "args", "vxu4.mode= in args: write mode = \"...\" instead")
        reg.boots[name] = Boot(name=name, about=b["about"], mode=b.get("mode", ""), args=args,
                               log=b["log"], kernel=kernel, dtb=b.get("dtb", "build/vxu4.dtb"),
                               scale=scale, timeout=timeout, initrd=initrd,
                               disk=b.get("disk", False), line=_line_of(text, t),
                               cost=cost, weights=b.get("weights", ""))

    targets: dict[str, str] = {}
    for sid, s in suites.items():
        t = f"suite.{sid}"
        if not WORD.match(sid):
            raise bad(t, None, f"suite ID '{sid}' is not a word (letters, digits, _ . -)")
        if not isinstance(s, dict):
            raise bad(t, None, "want a table")
        tier_forms: dict[str, Form] = {}
        for k, v in s.items():
            if isinstance(v, dict) and k not in SUITE_KEYS:
                if k not in TIERS:
                    raise bad(f"{t}.{k}", None,
                              f"unknown tier '{k}': want one of {', '.join(TIERS)}")
                continue
            if k not in SUITE_KEYS:
                raise bad(t, k, f"unknown key '{k}': want some of {', '.join(SUITE_KEYS)}")
            if not isinstance(v, SUITE_KEYS[k]):
                raise bad(t, k, f"want {SUITE_KEYS[k].__name__}, not {type(v).__name__}")
        for k in ("name", "tiers", "run"):
            if k not in s:
                raise bad(t, None, f"no {k} = ...: every suite has one")
        base_tiers = words(t, "tiers", s["tiers"], "tiers") if s["tiers"] else ()
        for tier in base_tiers:
            if tier not in TIERS:
                raise bad(t, "tiers", f"unknown tier '{tier}': want some of {', '.join(TIERS)}, "
                          "or [] (none: only its make target runs it)")

        def form(table: str, d: dict[str, object], base: Form | None) -> Form:
            for k in d:
                if k not in FORM_KEYS:
                    raise bad(table, k, f"'{k}' cannot differ per tier: want some of {', '.join(FORM_KEYS)}")
            name = d.get("name", base.name if base else "")
            if not isinstance(name, str) or not name.strip() or name != name.strip() or "\n" in name:
                raise bad(table, "name", "want a name: one line, no leading or trailing blanks")
            if "#" in name:
                raise bad(table, "name", "a '#' in a name would end its KTAP result line: reword it")
            run = words(table, "run", d["run"]) if "run" in d else (base.run if base else ())
            bl = words(table, "boots", d["boots"]) if "boots" in d else (base.boots if base else ())
            mk = words(table, "makes", d["makes"]) if "makes" in d else (base.makes if base else ())
            f = Form(name=name, run=run, boots=bl, makes=mk)
            wrefs = [m.group(1) for a in f.run for m in WEIGHTS_REF.finditer(a)]
            for b in f.boots + f.makes + f.logs + tuple(wrefs):
                if b not in reg.boots:
                    key = "boots" if b in f.boots else ("makes" if b in f.makes else "run")
                    raise bad(table, key, f"no boot '{b}': declare [boot.{b}] or name one of "
                              f"{', '.join(reg.boots)}")
            for b in wrefs:
                if not reg.boots[b].weights:
                    raise bad(table, "run", f"{{weights:{b}}}: [boot.{b}] has no weights: "
                              "declare them there, or name the file")
            return f

        base = form(t, {k: v for k, v in s.items() if k in FORM_KEYS}, None)
        for k, v in s.items():
            if isinstance(v, dict) and k in TIERS:
                if k in base_tiers:
                    raise bad(f"{t}.{k}", None, f"tier {k} is in tiers too: drop it from one of them")
                tier_forms[k] = form(f"{t}.{k}", v, base)
        builds = s.get("builds", "")
        if builds not in ("", "own", "debug"):
            raise bad(t, "builds", f"unknown builds '{builds}': want \"own\" or \"debug\"")
        target = s.get("target", "")
        if target:
            if not WORD.match(target):
                raise bad(t, "target", f"target '{target}' is not a word")
            if target in targets:
                raise bad(t, "target", f"make target {target} is suite {targets[target]}'s too: "
                          "one suite a target")
            targets[target] = sid
        if any(x.id == sid for x in reg.suites):
            raise bad(t, None, f"suite {sid} twice: one entry, per-tier forms as [{t}.TIER]")
        reg.suites.append(Suite(
            id=sid, base=base, base_tiers=base_tiers, tier_forms=tier_forms,
            prepare=words(t, "prepare", s["prepare"]) if "prepare" in s else (),
            boots_via=s.get("boots-via", ""), isolated=s.get("isolated"),
            builds=builds, target=target, line=_line_of(text, t)))

    # Each tier: a judge reads only boots that a suite before it makes;
    # a boot is made by one suite of the tier; the builds that the tier's
    # boots need come first.
    for tier in TIERS:
        made: dict[str, str] = {}
        started = False
        for s in reg.tier(tier):
            f = s.form(tier)
            table = f"suite.{s.id}" + (f".{tier}" if tier in s.tier_forms else "")
            for b in f.reads:
                if b not in made:
                    raise bad(table, "run", f"in tier {tier} it reads boot '{b}' ({reg.boots[b].log}), "
                              "which no suite before it makes: move it after that suite, "
                              "or add that suite to the tier")
            for b in f.boots + f.makes:
                if b in made:
                    raise bad(table, None, f"in tier {tier} boot '{b}' is made by suite {made[b]} too: "
                              "one suite a boot in a tier")
                made[b] = s.id
            lane = reg.lane(s, tier)
            if lane == "head" and started:
                raise bad(table, None, f"it builds what tier {tier}'s boots need, so it runs first: "
                          "move it before that tier's other suites")
            started = started or lane != "head"
    return reg


# --- whether a log is from the current build -----------------------------

STAMP_ENV: tuple[str, ...] = ("VXU4_COST", "VXU4_SEED", "VXU4_ICOUNT_SHIFT", "VXU4_WEIGHTS")


def _sha256(p: Path) -> str:
    h = hashlib.sha256()
    try:
        with p.open("rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return "missing"
    return h.hexdigest()


def boot_files(top: Path, env: dict[str, str]) -> dict[str, str]:
    """What a boot's result depends on besides its kernel, DTB, initrd and
    arguments: the launcher and its settings' defaults (env-lib.sh: the
    time scale's), the plugin and its weights."""
    plugin = env.get("VXU4_PLUGIN") or str(top / "build/insn-count.so")
    weights = env.get("VXU4_WEIGHTS") or str(top / "tools/testing/vxu4/board/cycle-weights")
    return {"launcher": str(top / "scripts/vxu4.sh"),
            "launcher-settings": str(top / "tools/testing/vxu4/lib/env-lib.sh"),
            "plugin": plugin, "weights": weights}


def stamp(top: Path, files: dict[str, str], args: list[str], env: dict[str, str]) -> dict[str, object]:
    """What a boot was: its files' SHA-256, its arguments, the settings of
    scripts/vxu4.sh that change what the guest runs, its time scale (env
    holds the boot's own: Boot.environ())."""
    return {
        "files": {k: _sha256(Path(v)) for k, v in sorted(files.items()) if v != "none"},
        "args": args,
        "env": {k: env.get(k, "") for k in STAMP_ENV},
        "scale": env.get("VXU4_TIME_SCALE", ""),
    }


def current(top: Path, log: Path, want: dict[str, object]) -> bool:
    """Whether log is from a boot of exactly want, that powered off."""
    try:
        got = json.loads(Path(str(log) + ".boot").read_text())
    except (OSError, ValueError):
        return False
    if not isinstance(got, dict) or got.get("status") != 0 or not log.is_file():
        return False
    return {k: got.get(k) for k in want} == want


def plan_files(reg: Registry, boot: Boot, env: dict[str, str]) -> dict[str, str]:
    """The files boot.py boots for boot with no overrides."""
    top = reg.top
    if boot.kernel == "debug":
        kernel = str(top / "build/obj-debug/arch/arm/boot/zImage")
    else:
        kernel = env.get("VXU4_KERNEL") or str(top / "build/obj/arch/arm/boot/zImage")
    initrd = "none" if boot.initrd == "none" else (env.get("VXU4_INITRD") or str(top / "build/initramfs.cpio.gz"))
    files = {"kernel": kernel, "dtb": str(top / boot.dtb), "initrd": initrd}
    files.update(boot_files(top, env))
    return files


def want_stamp(reg: Registry, boot: Boot, env: dict[str, str]) -> dict[str, object]:
    """The stamp a current log of boot (no overrides) has."""
    env = boot.environ(reg.top, env)
    return stamp(reg.top, plan_files(reg, boot, env), boot.kernel_args(env), env)


def expand(reg: Registry, argv: tuple[str, ...]) -> list[str]:
    """A command's words, each {log:NAME} its boot's log and each
    {weights:NAME} its boot's weights (both from the top of the tree)."""
    return [WEIGHTS_REF.sub(lambda m: reg.boots[m.group(1)].weights,
                            LOG_REF.sub(lambda m: reg.boots[m.group(1)].log, a)) for a in argv]


# The registry, this module and boot.py live together; the top of the
# tree is the folder above that holds scripts/vxu4.sh.
HOME = Path(__file__).resolve().parent
BOOT_PY = HOME / "boot.py"


def find_top(start: Path) -> Path:
    for p in (start, *start.parents):
        if (p / "scripts/vxu4.sh").is_file():
            return p
    return start


TOP = find_top(HOME)


def default_path(top: Path) -> Path:
    return HOME / "registry.toml"


def environ() -> dict[str, str]:
    return dict(os.environ)
