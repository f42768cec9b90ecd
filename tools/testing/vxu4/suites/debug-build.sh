#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the debug kernel (kernel-variant.sh debug: the board's config plus
# tools/testing/vxu4/board/debug.config, in build/obj-debug) and say so in
# KTAP: one result, with the time it took and the debugging options it
# has. Its build output goes to stderr.

. "$(dirname "$0")/../../ktap.sh"
top=$(cd "$(dirname "$0")/../../../.." && pwd)
start=$SECONDS
if "$top/tools/testing/vxu4/board/kernel-variant.sh" debug >/dev/null; then
	cfg=$top/build/obj-debug/.config
	opts=$(grep -oE '^CONFIG_(PROVE_LOCKING|DEBUG_ATOMIC_SLEEP|KASAN_GENERIC|UBSAN|DEBUG_LIST|DEBUG_OBJECTS_TIMERS|DETECT_HUNG_TASK|SOFTLOCKUP_DETECTOR)=y' "$cfg" |
		sed 's/^CONFIG_//; s/=y$//' | tr '\n' ' ')
	ktap_ok "the debug kernel built in $((SECONDS - start)) s (build/obj-debug: ${opts% })"
else
	ktap_fail "the debug kernel built" "see build/kernel-build-debug.log"
fi
ktap_finish
