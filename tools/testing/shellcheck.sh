#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ShellCheck on our shell scripts, every severity (style included), the
# files they source followed (.shellcheckrc): scripts/*.sh, .ci/run,
# tools/testing/*.sh and the *.sh of its folders and of theirs, and the
# guest's payloads in tools/testing/vxu4/guest/ and the board command
# tools/power/eas/eas-bench (busybox ash: checked as dash, its fellow
# Almquist shell; ShellCheck 0.9 of Debian 12 has no busybox dialect).
# KTAP, one result a file, failed with ShellCheck's findings.
#
# A finding is fixed, or disabled on its line with a comment giving the
# reason (# shellcheck disable=SCnnnn # why), never for a whole file.
#
# Usage: tools/testing/shellcheck.sh [FILE...]   (default: all of the above)

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
command -v shellcheck >/dev/null ||
	{ echo "shellcheck.sh: no shellcheck: run scripts/deps.sh (Debian's shellcheck)" >&2; exit 2; }

# shellcheck source=tools/testing/ktap.sh
. tools/testing/ktap.sh

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
	shopt -s nullglob
	files=(scripts/*.sh .ci/run tools/testing/*.sh tools/testing/*/*.sh tools/testing/*/*/*.sh
		tools/power/eas/eas-bench)
	# The guest's files but its C source and its package list.
	for f in tools/testing/vxu4/guest/*; do
		case $f in *.c | *.txt) ;; *) files+=("$f") ;; esac
	done
fi
for f in "${files[@]}"; do
	opt=()
	# The guest's shell is busybox ash, an Almquist shell as dash is (with
	# "local", which POSIX sh lacks): checked as dash.
	# So is the board command's (the same file runs on the board's Debian
	# and in the virtual XU4).
	case $f in tools/testing/vxu4/guest/* | tools/power/eas/eas-bench) opt=(--shell=dash) ;; esac
	if out=$(shellcheck -x -f gcc "${opt[@]}" "$f" 2>&1); then
		ktap_ok "shellcheck $f"
	else
		ktap_fail "shellcheck $f" "$out"
	fi
done
ktap_finish
