#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One boot of make bench (tools/testing/vxu4/benches/bench.sh), the same whether
# bench.sh runs it here or GNU parallel runs it on another host (HOSTS=):
#
#   bench-job.sh PREFIX LIMIT SCALE KERNEL DTB INITRD GUEST_ARG...
#
# boots the virtual XU4 with KERNEL, DTB and INITRD at time scale SCALE
# for at most LIMIT seconds, with GUEST_ARGs on the kernel's command line,
# and writes
#   PREFIX.log     the console
#   PREFIX.stamps  this host's arrival time of each run marker
#                  ("EPOCH_S @bench_start run=R", "... @bench_end ...")
#   PREFIX.rc      the boot's exit status (scripts/vxu4.sh's)
# and on stdout one progress line a run, "[NAME] ...", NAME being
# PREFIX's last component. It boots the way its place says, the tree or
# bench.sh's bundle (which keeps the tree's layout):
#   - in the tree, through tools/testing/vxu4/suites/boot.py, the one way
#     the virtual XU4 is booted, its [boot.bench] (the registry's), which
#     also writes PREFIX.log.boot: what was booted (boot.py);
#   - in the bundle, on the hosts of HOSTS=, through the bundle's copy of
#     scripts/vxu4.sh: nothing but bash, coreutils and what vxu4.sh needs
#     (QEMU 10, fdtget/fdtput, util-linux) runs there, no Python and no
#     registry. The same arguments and settings either way, so the same
#     console (tools/testing/vxu4/suites/hosts-test.sh compares them).
# Exit: the boot's status; 2 bad usage.

set -uo pipefail

if [ $# -lt 7 ]; then
	echo "usage: $0 PREFIX LIMIT SCALE KERNEL DTB INITRD GUEST_ARG..." >&2
	exit 2
fi
prefix=$1 limit=$2 scale=$3 kernel=$4 dtb=$5 initrd=$6
shift 6
name=${prefix##*/}
top=$(cd "$(dirname "$0")/../../../.." && pwd)
boot_py=$top/tools/testing/vxu4/suites/boot.py
rm -f "$prefix.log" "$prefix.stamps" "$prefix.rc"
: >"$prefix.stamps"

# progress LINE: "@bench TEST key=value ..." as one line of progress.
progress() {
	awk -v name="$name" '{
		for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = substr($i, length(kv[1]) + 2) }
		printf "    [%s] %s%s iteration %s, configuration %s: %s ms of guest time\n", name, $2,
			(v["tasks"] != "" ? " " v["tasks"] " tasks," : ""), v["iter"], v["cfg"], v["guest_ms"]
	}' <<<"$1"
}

# The console as it comes: run markers stamped, runs and errors shown.
stamp() {
	local line
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		@bench_start\ * | @bench_end\ *)
			printf '%s %s\n' "$EPOCHREALTIME" "$line" >>"$prefix.stamps" ;;
		@bench\ *) progress "$line" ;;
		@bench_error*) echo "    [$name] $line" ;;
		"==> "* | *"Kernel panic"* | *"BUG:"* | *"Oops"*) echo "    [$name] $line" ;;
		esac
	done
}

if [ -f "$boot_py" ]; then
	VXU4_INITRD=$initrd VXU4_TIME_SCALE=$scale VXU4_TIMEOUT=$limit "$boot_py" bench --stdout \
		--kernel "$kernel" --dtb "$dtb" --log "$prefix.log" "$@" | stamp
else
	VXU4_KERNEL=$kernel VXU4_DTB=$dtb VXU4_INITRD=$initrd VXU4_TIME_SCALE=$scale \
		VXU4_TIMEOUT=$limit VXU4_LOG=$prefix.log bash "$top/scripts/vxu4.sh" boot "$@" | stamp
fi
rc=${PIPESTATUS[0]}
echo "$rc" >"$prefix.rc"
exit "$rc"
