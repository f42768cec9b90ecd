# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The settings that the benches (make bench, pelt-, boost-, idle- and
# timescale-bench) and the launcher (scripts/vxu4.sh) take from the
# environment, and the files they boot: each read once, at the start,
# and checked before anything is made or booted (sourced). Each reader
# prints the value, taken as
#
#   iter=$(env_int ITER 10 1 1000 "iterations") || exit
#
# A bad one is refused with one line on standard error naming the
# variable the user set, its value and what it wants ("bench.sh: ITER=0:
# want a whole number from 1 to 1000 (iterations)"), and exit status 2.
#
# Numbers are whole numbers in base 10, leading zeros read away: ITER=010
# is 10 (never octal 8), VXU4_TIME_SCALE=08 is 8. A variable set empty counts
# as unset (its default).
#
# The script that sources this may set env_prog (its name in the
# messages; default: its file name) first.

env_prog=${env_prog:-${0##*/}}
env_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)

# The guest's time scale K (scripts/vxu4.sh, VXU4_TIME_SCALE): its range,
# the one for every variable that gives one, and its one default, for
# make run, the tests and the benches alike (a boot of the suites'
# registry that needs another says so: its scale =). At 8 a hackbench
# loop costs what it costs on the board (docs/findings/time-scale.md).
env_scale_max=64
env_scale_default=8

# env_bad MESSAGE: refused: "PROG: MESSAGE", exit 2.
env_bad() {
	echo "$env_prog: $*" >&2
	exit 2
}

# env_get NAMES: sets env_name and env_val to the first of NAMES (words)
# set non-empty in the environment; else env_name to "" (the default).
# NAMES "-": none (a file of the tree's own, not a variable's).
env_get() {
	local n
	env_name='' env_val=''
	for n in $1; do
		if [ "$n" != - ] && [ -n "${!n:-}" ]; then
			env_name=$n env_val=${!n}
			return
		fi
	done
}

# env_num VALUE MIN MAX: VALUE as a whole number in base 10 from MIN to
# MAX, in env_n without its leading zeros; fails otherwise.
env_num() {
	local d=$1
	[[ $d =~ ^[0-9]+$ ]] || return 1
	while [[ $d == 0?* ]]; do d=${d#0}; done
	# More digits than any bound here: out of range, before bash's 64-bit
	# arithmetic would wrap it.
	[ ${#d} -le 15 ] || return 1
	((10#$d >= $2 && 10#$d <= $3)) || return 1
	env_n=$((10#$d))
}

# env_int NAMES DEFAULT MIN MAX [WHAT]: the first of NAMES set in the
# environment, else DEFAULT: a whole number from MIN to MAX, WHAT saying
# what it is.
env_int() {
	local min=$3 max=$4 what=${5:-}
	env_get "$1"
	[ -n "$env_name" ] || { echo "$2"; return; }
	env_num "$env_val" "$min" "$max" ||
		env_bad "$env_name=$env_val: want a whole number from $min to $max${what:+ ($what)}"
	echo "$env_n"
}

# env_scale: the time scale K, VXU4_TIME_SCALE's (the one name for it),
# else env_scale_default: 1 to env_scale_max. TIME_SCALE, its old name in
# the benches, is refused, so that a setting is never silently dropped.
env_scale() {
	[ -z "${TIME_SCALE:-}" ] ||
		env_bad "TIME_SCALE=$TIME_SCALE: the guest's time scale is VXU4_TIME_SCALE now (one name for every boot): set VXU4_TIME_SCALE=$TIME_SCALE"
	env_int VXU4_TIME_SCALE "$env_scale_default" 1 "$env_scale_max" "the guest's time scale K: a guest ns holds K instructions"
}

# env_scales NAME DEFAULT: the time scales (words) that NAME lists, else
# DEFAULT, each once, each as env_scale takes it.
env_scales() {
	local name=$1 k list=
	local want="want time scales K separated by blanks, each a whole number from 1 to $env_scale_max, each once, like \"1 2 4 8\""
	env_get "$name"
	[ -n "$env_name" ] || { echo "$2"; return; }
	for k in $env_val; do
		env_num "$k" 1 "$env_scale_max" || env_bad "$name=$env_val: $k is no time scale: $want"
		[[ " $list " != *" $env_n "* ]] || env_bad "$name=$env_val: $env_n twice: $want"
		list+=${list:+ }$env_n
	done
	[ -n "$list" ] || env_bad "$name=$env_val: no time scale in it: $want"
	echo "$list"
}

# env_match NAME DEFAULT REGEX WANT: NAME, else DEFAULT, which must match
# the extended regular expression REGEX (whole).
env_match() {
	env_get "$1"
	[ -n "$env_name" ] || { echo "$2"; return; }
	[[ $env_val =~ ^($3)$ ]] || env_bad "$1=$env_val: want $4"
	echo "$env_val"
}

# env_file NAME DEFAULT HINT [zimage]: the file NAME names, else DEFAULT; a regular file that can be read, and with "zimage" an ARM
# zImage (its magic number 0x016f2818, little-endian at offset 0x24: a
# vmlinux or any other file would be booted until the time limit). HINT
# says how to make DEFAULT ("run 'make kernel' (make bench does)").
env_file() {
	local name=$1 f who magic
	env_get "$name"
	if [ -n "$env_name" ]; then
		f=$env_val who="$name=$f"
	else
		f=$2 who=$f
	fi
	if [ -d "$f" ]; then
		env_bad "$who: a folder: want a file"
	elif [ ! -e "$f" ]; then
		[ -n "$env_name" ] && env_bad "$who: no such file"
		env_bad "$f is missing: $3"
	elif [ ! -f "$f" ] || [ ! -r "$f" ] || ! head -c 1 -- "$f" >/dev/null 2>&1; then
		env_bad "$who: not a regular file that can be read"
	fi
	if [ "${4:-}" = zimage ]; then
		magic=$(od -An -tx1 -j 36 -N 4 -- "$f" 2>/dev/null | tr -d ' \n')
		[ "$magic" = 18286f01 ] ||
			env_bad "$who: not an ARM zImage (no magic 0x016f2818 at offset 0x24; a vmlinux is not booted): want arch/arm/boot/zImage"
	fi
	echo "$f"
}

# env_log NAME: the file NAME names, or "" when unset: a file to write
# (made empty), not a folder, in a folder that exists.
env_log() {
	local name=$1 f
	env_get "$name"
	f=$env_val
	if [ -n "$env_name" ]; then
		[ ! -d "$f" ] || env_bad "$name=$f: a folder: want a file's path"
		[ -d "$(dirname -- "$f")" ] ||
			env_bad "$name=$f: its folder $(dirname -- "$f") does not exist"
		{ : >"$f"; } 2>/dev/null || env_bad "$name=$f: cannot be written"
	fi
	echo "$f"
}

# env_out_dir NAME DEFAULT: the folder NAME names, else DEFAULT, made if
# need be, a folder one can write in, as an absolute path.
env_out_dir() {
	local name=$1 d who probe
	env_get "$name"
	if [ -n "$env_name" ]; then
		d=$env_val who="$name=$d"
	else
		d=$2 who=$d
	fi
	[ ! -e "$d" ] || [ -d "$d" ] || env_bad "$who: not a folder: want a folder for the results"
	mkdir -p -- "$d" 2>/dev/null || env_bad "$who: cannot make that folder"
	probe=$(mktemp -- "$d/.write-test.XXXXXX" 2>/dev/null) ||
		env_bad "$who: cannot write in that folder (read-only?)"
	rm -f -- "$probe"
	realpath -- "$d"
}

# env_hosts NAME: the absolute path of the GNU parallel sshlogin file
# NAME names (make bench's HOSTS), or "" when unset. Read
# here first: a file that can be read, with at least one host, each line
# empty, a comment (#...) or "[N/]SSHLOGIN", SSHLOGIN being ":" (this
# machine), HOST, USER@HOST or an ssh command line ending in one
# ("ssh -p PORT HOST"), N at least 1. A bad line is named by its number.
env_hosts() {
	local name=$1 f line n=0 hosts=0 re hfd
	local want="want a host a line: [N/]HOST, [N/]USER@HOST, [N/]ssh OPTION... HOST or [N/]: (this machine), N at least 1"
	env_get "$name"
	f=$env_val
	[ -n "$env_name" ] || return 0
	[ -e "$f" ] || env_bad "$name=$f: no such file: want GNU parallel's sshlogin file, a host a line"
	[ ! -d "$f" ] || env_bad "$name=$f: a folder: want GNU parallel's sshlogin file, a host a line"
	{ [ -f "$f" ] && [ -r "$f" ] && exec {hfd}<"$f"; } 2>/dev/null ||
		env_bad "$name=$f: cannot be read"
	re='^([1-9][0-9]*/)?(:|([A-Za-z0-9._-]+@)?[A-Za-z0-9][A-Za-z0-9._-]*|(/[^ ]*/)?ssh( +[^ ]+)* +([A-Za-z0-9._-]+@)?[A-Za-z0-9][A-Za-z0-9._-]*)$'
	while IFS= read -r line <&"$hfd" || [ -n "$line" ]; do
		n=$((n + 1))
		line=${line//[$'\t\r']/ }
		line=${line#"${line%%[! ]*}"} line=${line%"${line##*[! ]}"}
		case $line in '' | '#'*) continue ;; esac
		[[ $line =~ $re ]] || { exec {hfd}<&-; env_bad "$name=$f: line $n, '$line': no host: $want"; }
		hosts=$((hosts + 1))
	done
	exec {hfd}<&-
	[ "$hosts" -gt 0 ] ||
		env_bad "$name=$f: no host in it (only blank lines and comments): $want"
	realpath -- "$f"
}

# env_kernel TARGET, env_initrd TARGET, env_plugin TARGET: the zImage,
# the initramfs and the QEMU plugin that scripts/vxu4.sh boots, as it
# finds them (VXU4_KERNEL, VXU4_INITRD, VXU4_PLUGIN, else build/'s),
# checked with env_file; one missing is named with the make target that
# builds it and TARGET, the bench's, which builds them all ("make bench
# does").
env_kernel() {
	env_file VXU4_KERNEL "$env_top/build/obj/arch/arm/boot/zImage" "run 'make kernel' (make $1 does)" zimage
}
env_initrd() {
	env_file VXU4_INITRD "$env_top/build/initramfs.cpio.gz" "run 'make initramfs' (make $1 does)"
}
env_plugin() {
	env_file VXU4_PLUGIN "$env_top/build/insn-count.so" "run 'make vxu4' (make $1 does)"
}

# env_dtb TARGET NAME DTB: the DTB that NAME names (or "-": none), else
# build/DTB, there and readable, else named with make vxu4, which makes
# it, and TARGET.
env_dtb() {
	env_file "$2" "$env_top/build/$3" "run 'make vxu4' (make $1 does)"
}
