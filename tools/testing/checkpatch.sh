#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch --strict on our C files that the series does not carry (the
# series suite checks the others, in their patches): tools/, scripts/.
# KTAP (tools/testing/ktap.sh), one result a file.
#
# Usage: tools/testing/checkpatch.sh   (needs make kernel: the kernel
# tree's scripts/checkpatch.pl, run from that tree as it expects)

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
ksrc=$top/build/linux-source-6.12
[ -x "$ksrc/scripts/checkpatch.pl" ] ||
	{ echo "checkpatch.sh: no $ksrc/scripts/checkpatch.pl: run 'make kernel'" >&2; exit 2; }

# shellcheck source=tools/testing/ktap.sh
. "$top/tools/testing/ktap.sh"

files=()
mapfile -t files < <(cd "$top" && git ls-files 'scripts/*.c' 'tools/*.[ch]')
for file in "${files[@]}"; do
	opt=(-f)
	case "$file" in
	# libFuzzer's entry point has to be called LLVMFuzzerTestOneInput.
	tools/power/eas/fuzz/*) opt=(-f --ignore CAMELCASE) ;;
	# A QEMU plugin, and its test that stubs QEMU's plugin API, use
	# glib's types (GArray, GByteArray).
	tools/testing/vxu4/board/insn-count-plugin.c | tools/testing/vxu4/board/plugin-test.c)
		opt=(-f --ignore CAMELCASE) ;;
	esac
	if out=$(cd "$ksrc" && ./scripts/checkpatch.pl --strict -q --no-summary \
			"${opt[@]}" "$top/$file" 2>&1) && [ -z "$out" ]; then
		ktap_ok "checkpatch --strict $file"
	else
		ktap_fail "checkpatch --strict $file" "$out"
	fi
done
ktap_finish
