#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The QEMU plugin's cost model on the host (tools/testing/vxu4/board/plugin-test.c:
# instruction classes, the weights file, the cores list, what a block adds
# in each cost mode), built against the installed QEMU's plugin header
# (build/qemu-plugin, made with the plugin: make run). One KTAP document.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
build=$top/build
hdr=$build/qemu-plugin/qemu-plugin.h
[ -f "$hdr" ] || { echo "plugin-test.sh: $hdr is missing: run make run (it builds the plugin)" >&2; exit 2; }
tmp=$(mktemp -d /tmp/plugin-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046 # pkg-config's flags: one word a flag
gcc -O2 -Wall -Wextra -Werror -I"$build/qemu-plugin" -I"$here" $(pkg-config --cflags glib-2.0) \
	-o "$tmp/plugin-test" "$here/plugin-test.c" $(pkg-config --libs glib-2.0) -lm
"$tmp/plugin-test" "$here/cycle-weights" "$tmp" 2>"$tmp/err" || { rc=$?; cat "$tmp/err" >&2; exit $rc; }
