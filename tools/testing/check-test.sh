#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/testing/check.sh on a made-up registry, in a copy of the runner
# (check.sh, check.py, registry.py, boot.py, ktap.sh) in a temporary
# folder: no boot, no build. What it must do:
#  - a tier: each suite's KTAP nested, its result line under its name,
#    in the registry's order; a suite whose one failure is known (# TODO)
#    ok, that failure counted apart; the
#    closing line "N passed, N failed", exit 1 on a failure;
#  - the lanes computed from what the suites declare (--plan), the host
#    lane's commands with VXU4_ISOLATE=0, the iso lane's without it;
#  - the make targets (--targets) with what each needs made first,
#    computed from the same: a boot's files, a kernel, or make deps;
#  - a judge after the boot it reads ({log:NAME}), in the tier;
#  - a judge alone: the boot it reads made first by the suite whose
#    command makes it, unless the log is current (its .boot stamp equals
#    what would be booted now): then reused, and made again once a file
#    it was booted from changes.
# One KTAP document.
#
# Usage: check-test.sh

set -uo pipefail

. "$(dirname "$0")/ktap.sh"

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/check-test.XXXXXX) || exit 1
ktap_atexit rm -rf "$tmp"

t=$tmp/tree
mkdir -p "$t/tools/testing/vxu4/board" "$t/scripts" "$t/build/obj/arch/arm/boot" "$t/bin"
cp "$top/tools/testing/check.sh" "$top/tools/testing/check.py" "$top/tools/testing/ktap.sh" "$t/tools/testing/"
mkdir -p "$t/tools/testing/vxu4/suites"
cp "$top/tools/testing/vxu4/suites/registry.py" "$t/tools/testing/vxu4/suites/registry.py"
cp "$top/tools/testing/vxu4/suites/boot.py" "$t/tools/testing/vxu4/suites/boot.py"
for f in scripts/vxu4.sh build/obj/arch/arm/boot/zImage build/vxu4.dtb build/initramfs.cpio.gz \
	build/insn-count.so tools/testing/vxu4/board/cycle-weights; do
	echo "$f" >"$t/$f"
done

# The suites' commands: KTAP of one result, named and ok or not.
cat >"$t/bin/suite" <<'EOF'
#!/bin/bash
# suite RESULT NAME: one KTAP result; its VXU4_ISOLATE on stderr.
echo "KTAP version 1"
echo "1..1"
echo "VXU4_ISOLATE=${VXU4_ISOLATE:-unset}" >&2
case $1 in
ok) echo "ok 1 $2" ;;
todo) echo "not ok 1 $2 # TODO a known cause" ;;
*) echo "not ok 1 $2" ;;
esac
EOF
# The boot's maker: writes its log, as a boot would.
cat >"$t/bin/maker" <<'EOF'
#!/bin/bash
echo "made" >build/b1.log
echo "maker ran" >>build/maker-runs
echo "KTAP version 1"
echo "1..1"
echo "VXU4_ISOLATE=${VXU4_ISOLATE:-unset}" >&2
echo "ok 1 the boot's own checks"
EOF
# The judge of that log.
cat >"$t/bin/judge" <<'EOF'
#!/bin/bash
echo "KTAP version 1"
echo "1..1"
if [ "$(cat "$1" 2>/dev/null)" = made ]; then echo "ok 1 read $1"; else echo "not ok 1 read $1"; fi
EOF
chmod +x "$t/bin/suite" "$t/bin/maker" "$t/bin/judge"

cat >"$t/tools/testing/vxu4/suites/registry.toml" <<'EOF'
[boot.b1]
about = "a boot"
mode = "check"
log = "build/b1.log"

[suite.h1]
name = "host one"
tiers = ["check"]
run = ["bin/suite", "ok", "h1 passes"]
target = "t-h1"

[suite.m1]
name = "the boot's maker"
tiers = ["check"]
run = ["bin/maker"]
makes = ["b1"]
isolated = true
target = "t-m1"

[suite.j1]
name = "the boot's judge"
tiers = ["check"]
run = ["bin/judge", "{log:b1}"]
target = "t-j1"

[suite.f1]
name = "host failing"
tiers = ["check"]
run = ["bin/suite", "fail", "f1 fails"]

[suite.k1]
name = "host known failure"
tiers = ["check"]
run = ["bin/suite", "todo", "k1 is known"]
builds = "own"
target = "t-k1"

[suite.a1]
name = "either lane"
tiers = ["check"]
run = ["bin/suite", "ok", "a1 passes"]
boots-via = "bin/suite"
target = "t-a1"
EOF

c=$t/tools/testing/check.sh
# The runner's lanes set VXU4_ISOLATE themselves: this test runs in a
# tier's host lane, whose VXU4_ISOLATE=0 the copy must not inherit.
unset VXU4_ISOLATE

# --- the plan: the lanes computed
"$c" --plan check >"$tmp/plan" 2>&1
got=$(grep -E '^ *[0-9]+ ' "$tmp/plan" | awk '{ print $2 ":" $3 }' | xargs)
want="host:h1 iso:m1 here:j1 host:f1 host:k1 any:a1"
if [ "$got" = "$want" ]; then
	ktap_ok "--plan: the lanes from what the suites declare: $got"
else
	ktap_fail "--plan: the lanes from what the suites declare" "want: $want" "got:  $got" "$(cat "$tmp/plan")"
fi

# --- the make targets, each with what it needs made first (the Makefile's)
got=$("$c" --targets 2>&1 | awk -F '\t' '{ print $1 "=" $3 }' | xargs)
want="t-h1=deps t-m1=board t-j1=board t-k1=kernel t-a1=board"
if [ "$got" = "$want" ]; then
	ktap_ok "--targets: what each target needs, from what its suite declares: $got"
else
	ktap_fail "--targets: what each target needs, from what its suite declares" "want: $want" "got:  $got"
fi

# --- the tier
"$c" check >"$tmp/out" 2>"$tmp/err"
rc=$?
got=$(grep -E '^(not )?ok [0-9]+ ' "$tmp/out" | paste -sd '|')
want="ok 1 host one|ok 2 the boot's maker|ok 3 the boot's judge|not ok 4 host failing|ok 5 host known failure|ok 6 either lane"
if [ "$got" = "$want" ]; then
	ktap_ok "a tier: each suite's result under its name, in the registry's order"
else
	ktap_fail "a tier: each suite's result under its name, in the registry's order" "want: $want" "got:  $got"
fi
if [ "$rc" = 1 ] && [ "$(tail -1 "$tmp/out")" = "4 passed, 1 failed" ] &&
	grep -qx "# known failures (# TODO, shown above with their numbers and causes): 1" "$tmp/out" &&
	grep -qx "# failed suites: host failing" "$tmp/out"; then
	ktap_ok "a tier: 4 passed, 1 failed (one known failure apart), exit 1"
else
	ktap_fail "a tier: 4 passed, 1 failed (one known failure apart), exit 1" "exit $rc" "$(tail -5 "$tmp/out")"
fi
if grep -q "^    # Subtest: the boot's judge" "$tmp/out" && grep -q "^    ok 1 read build/b1.log" "$tmp/out"; then
	ktap_ok "a tier: the judge read the log its boot wrote before it (nested KTAP)"
else
	ktap_fail "a tier: the judge read the log its boot wrote before it" "$(cat "$tmp/out")"
fi
iso=$(awk '/^    # Subtest: the boot.s maker/ { s = 1 } s && /^# VXU4_ISOLATE=/ { print; exit }' "$tmp/out")
host=$(awk '/^    # Subtest: host one/ { s = 1 } s && /^# VXU4_ISOLATE=/ { print; exit }' "$tmp/out")
if [ "$iso" = "# VXU4_ISOLATE=unset" ] && [ "$host" = "# VXU4_ISOLATE=0" ]; then
	ktap_ok "a tier: the host lane's commands with VXU4_ISOLATE=0, the iso lane's without"
else
	ktap_fail "a tier: the host lane's commands with VXU4_ISOLATE=0, the iso lane's without" \
		"iso lane: $iso" "host lane: $host"
fi

# --- a judge alone: its boot first, unless current
rm -f "$t/build/b1.log" "$t/build/maker-runs"
"$c" --suite j1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && [ "$(tail -1 "$tmp/out")" = "1 passed, 0 failed" ] &&
	grep -q "boot b1: build/b1.log is not current: made by suite m1's command" "$tmp/err" &&
	[ "$(grep -c . "$t/build/maker-runs")" = 1 ]; then
	ktap_ok "a judge alone: the boot it reads made first, by its maker's command"
else
	ktap_fail "a judge alone: the boot it reads made first" "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
fi
# As boot.py would stamp it: the files and arguments of now, powered off.
/usr/bin/python3 -I -c '
import json, sys
from pathlib import Path
sys.dont_write_bytecode = True
top = Path(sys.argv[1])
sys.path.insert(0, str(top / "tools/testing/vxu4/suites"))
import registry
reg = registry.load(top / "tools/testing/vxu4/suites/registry.toml", top)
st = registry.want_stamp(reg, reg.boots["b1"], {})
st["status"] = 0
(top / "build/b1.log.boot").write_text(json.dumps(st))
' "$t"
env -u VXU4_KERNEL -u VXU4_INITRD -u VXU4_PLUGIN -u VXU4_WEIGHTS -u VXU4_COST -u VXU4_SEED \
	-u VXU4_ICOUNT_SHIFT -u VXU4_TIME_SCALE "$c" --suite j1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && grep -q "boot b1: build/b1.log is current" "$tmp/err" &&
	[ "$(grep -c . "$t/build/maker-runs")" = 1 ]; then
	ktap_ok "a judge alone: a current log (its stamp: the same files and arguments) reused, no boot"
else
	ktap_fail "a judge alone: a current log reused" "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
fi
echo "another kernel" >"$t/build/obj/arch/arm/boot/zImage"
env -u VXU4_KERNEL -u VXU4_INITRD -u VXU4_PLUGIN -u VXU4_WEIGHTS -u VXU4_COST -u VXU4_SEED \
	-u VXU4_ICOUNT_SHIFT -u VXU4_TIME_SCALE "$c" --suite j1 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 0 ] && grep -q "boot b1: build/b1.log is not current" "$tmp/err" &&
	[ "$(grep -c . "$t/build/maker-runs")" = 2 ]; then
	ktap_ok "a judge alone: the log of another kernel not reused, its boot made again"
else
	ktap_fail "a judge alone: the log of another kernel not reused" "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
fi
ktap_finish
