#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs (gzip'd newc cpio) from Debian armhf packages.
#
#   GUEST_PACKAGES=LIST scripts/mkinitramfs.sh OUT.cpio.gz INIT_SCRIPT [EXTRA_DIR...]
#
# The packages named in LIST (make initramfs gives the virtual XU4's guest
# list, tools/testing/vxu4/guest/packages.txt) and their run-time
# dependencies are fetched with 'apt-get download' and unpacked with
# 'dpkg -x' into build/initramfs-root/<name of OUT>/ (no chroot, no
# qemu-user). INIT_SCRIPT becomes /init; the contents of each EXTRA_DIR are
# copied over the root afterwards. At the end every ELF file in the root is
# checked: its program interpreter and all its NEEDED libraries must be there.
#
# Environment:
#   GUEST_PACKAGES  the package list (needed; its format: below)
#   DEBCACHE   where the .debs are kept (default: <repo>/build/debs). A
#              second run downloads nothing.
#
# Needs: apt-get/apt-cache/dpkg, cpio, gzip, readelf (binutils or
# arm-linux-gnueabihf-readelf). Root only if armhf has to be enabled in dpkg.

set -euo pipefail

ARCH=armhf
TRIPLET=arm-linux-gnueabihf
PROG=${0##*/}

# Commands the guest scripts rely on: busybox applets, or files from the
# packages or an EXTRA_DIR (Debian's busybox has no chrt, for instance).
# The build fails if one is missing from /usr/bin and /usr/sbin.
REQUIRED_COMMANDS=(
	sh mount umount mkdir cat echo ls sleep grep sed awk find sort head tail
	tr cut wc dmesg poweroff reboot taskset chrt nproc date seq printf test
	'[' expr kill ps cp mv rm ln uname timeout xargs basename dirname stat env
	time readlink true false uniq tee od hexdump md5sum cmp
)

# Unpacked files the guest never needs.
PRUNE=(
	usr/share/doc usr/share/man usr/share/info usr/share/lintian
	usr/share/locale usr/share/initramfs-tools
	"usr/lib/$TRIPLET/gconv"
)

usage() {
	cat >&2 <<EOF
usage: GUEST_PACKAGES=LIST $PROG OUT.cpio.gz INIT_SCRIPT [EXTRA_DIR...]

Build a gzip'd newc initramfs from the Debian $ARCH packages listed in
LIST (plus their dependencies). INIT_SCRIPT becomes /init; each
EXTRA_DIR's contents are copied over the root.
Downloaded .debs are cached in \$DEBCACHE (default: build/debs).
EOF
	exit 2
}

msg() { printf '%s: %s\n' "$PROG" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }
die() { printf '%s: error: %s\n' "$PROG" "$*" >&2; exit 1; }

# ---------------------------------------------------------------- arguments

[ $# -ge 2 ] || usage
case $1 in -h | --help) usage ;; esac
[ -f "$2" ] || { printf '%s: INIT_SCRIPT %s is not a file\n' "$PROG" "$2" >&2; usage; }
for d in "${@:3}"; do
	[ -d "$d" ] || { printf '%s: EXTRA_DIR %s is not a directory\n' "$PROG" "$d" >&2; usage; }
done
# The package list is the caller's (make initramfs: the virtual XU4's).
if [ -z "${GUEST_PACKAGES:-}" ]; then
	echo "$PROG: GUEST_PACKAGES is not set: name the file that lists the guest's Debian packages: GUEST_PACKAGES=FILE $PROG $* (make initramfs sets it)" >&2
	exit 2
fi
[ -f "$GUEST_PACKAGES" ] || {
	echo "$PROG: GUEST_PACKAGES=$GUEST_PACKAGES is not a file: name the file that lists the guest's Debian packages" >&2
	exit 2
}

OUT=$(realpath -m -- "$1")
INIT=$(realpath -- "$2")
EXTRA_DIRS=()
for d in "${@:3}"; do EXTRA_DIRS+=("$(realpath -- "$d")"); done

REPO=$(cd "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
PKGLIST=$(realpath -- "$GUEST_PACKAGES")
DEBCACHE=$(realpath -m -- "${DEBCACHE:-$REPO/build/debs}")
name=${OUT##*/}
name=${name%%.*}
ROOT=$REPO/build/initramfs-root/${name:-initramfs}

for tool in apt-get apt-cache dpkg cpio gzip xz tar flock sha256sum; do
	command -v "$tool" >/dev/null || die "'$tool' not found"
done
READELF=$(command -v "$TRIPLET-readelf" || command -v readelf) ||
	die "no readelf found: apt-get install binutils"

mkdir -p "$DEBCACHE" "$(dirname "$OUT")"
SECONDS=0

# One run at a time per cache, until the downloads are done.
exec 9>"$DEBCACHE/.lock"
flock 9

# ---------------------------------------------------------------- apt setup

apt_update() {
	msg "running apt-get update"
	apt-get update -qq ||
		warn "apt-get update reported errors; carrying on with the lists it got"
}

if ! dpkg --print-foreign-architectures | grep -qx "$ARCH"; then
	[ "$(id -u)" = 0 ] ||
		die "$ARCH is not enabled in dpkg; as root run: dpkg --add-architecture $ARCH && apt-get update"
	msg "enabling $ARCH: dpkg --add-architecture $ARCH"
	dpkg --add-architecture "$ARCH"
	apt_update
fi

# ---------------------------------------------------------------- package list

# "PKG" takes the whole package and follows its dependencies; "PKG PATH..."
# takes only those files of it and follows none; "!PKG" is never followed.
WANT=() SKIP=()
declare -A PARTIAL=()
while IFS= read -r line; do
	line=${line%%#*}
	read -r pkg files <<<"$line" || true
	case $pkg in
	'') ;;
	!*) SKIP+=("${pkg#!}") ;;
	*)
		WANT+=("$pkg")
		[ -z "$files" ] || PARTIAL[$pkg]=$files
		;;
	esac
done <"$PKGLIST"
[ ${#WANT[@]} -gt 0 ] || die "no packages listed in $PKGLIST"

# ---------------------------------------------------------------- resolve
#
# apt's own solver computes the closure: a simulated install ('apt-get -s')
# of the wanted packages into an empty $ARCH system. Its dpkg status is a
# file of ours that holds only the packages not to follow ('!' lines and the
# packages taken in part), as if they were installed at their candidate
# version. Result: lines "PACKAGE[:armhf] VERSION ARCH", kept in $DEBCACHE
# and reused while the package list and apt's lists/config are unchanged.

APT_ARCH_OPTS=(-o "APT::Architecture=$ARCH" -o "APT::Architectures::=$ARCH"
	       -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)

# "VERSION ARCH" of the candidate of package $1 for $ARCH (or an
# Architecture: all one); nothing if there is none.
candidate() {
	apt-cache "${APT_ARCH_OPTS[@]}" show --no-all-versions "$1" 2>/dev/null |
		awk '/^Version:/ { v = $2 } /^Architecture:/ { a = $2 }
		     /^$/ { exit } END { if (v != "") print v, a }' || true
}

resolve() {
	local status=$DEBCACHE/status.tmp full=() n v a out
	: >"$status"
	for n in "${SKIP[@]}" "${!PARTIAL[@]}"; do
		read -r v a < <(candidate "$n") || v=
		if [ -z "$v" ]; then
			[ -z "${PARTIAL[$n]:-}" ] || {
				echo "package '$n' has no $ARCH candidate" >&2
				rm -f "$status"
				return 1
			}
			continue
		fi
		printf 'Package: %s\nStatus: install ok installed\nArchitecture: %s\nVersion: %s\nMaintainer: none\nDescription: not followed\n\n' \
			"$n" "$a" "$v" >>"$status"
		[ -n "${PARTIAL[$n]:-}" ] || {
			msg "  not following $n (marked '!' in ${PKGLIST##*/})"
			continue
		}
		if [ "$a" = "$ARCH" ]; then echo "$n:$ARCH $v $a"; else echo "$n $v $a"; fi
	done
	for n in "${WANT[@]}"; do [ -n "${PARTIAL[$n]:-}" ] || full+=("$n"); done
	[ ${#full[@]} -gt 0 ] || return 0
	out=$(apt-get -s -qq -o "Dir::State::status=$status" "${APT_ARCH_OPTS[@]}" \
		--no-install-recommends install "${full[@]}" 2>&1) || {
		rm -f "$status"
		printf '%s\n' "$out" | sed 's/^/    apt-get: /' >&2
		return 1
	}
	rm -f "$status"
	# "Inst NAME (VERSION SUITE [ARCH])", or "Inst NAME [OLD] (VERSION
	# SUITE [ARCH])" where the status file has the package (one listed
	# with paths that is also a dependency)
	awk -v arch="$ARCH" '/^Inst / {
		if (!match($0, /\([^ ]+ /)) next
		v = substr($0, RSTART + 1, RLENGTH - 2)
		if (!match($0, /\[[a-z0-9]+\]\)/)) next
		a = substr($0, RSTART + 1, RLENGTH - 3)
		print (a == arch ? $2 ":" arch : $2), v, a
	}' <<<"$out"
}

apt_state() {
	cat "$PKGLIST"
	dpkg --print-foreign-architectures
	find /var/lib/apt/lists /etc/apt -maxdepth 2 -type f ! -name lock \
		! -path '*/partial/*' -printf '%p %s %T@\n' 2>/dev/null | LC_ALL=C sort
}

RESOLVED=$DEBCACHE/resolved.txt
key=$(apt_state | sha256sum | cut -d' ' -f1)
if [ -f "$RESOLVED" ] && [ "$(head -n1 "$RESOLVED")" = "# $key" ]; then
	msg "dependencies: unchanged since the last run ($RESOLVED)"
else
	msg "resolving dependencies of: ${WANT[*]}"
	ok=1
	list=$(resolve) || ok=
	if [ -z "$ok" ] && [ "$(id -u)" = 0 ] &&
		! compgen -G "/var/lib/apt/lists/*binary-${ARCH}_Packages*" >/dev/null; then
		# The armhf lists were never fetched: update and try again.
		apt_update
		key=$(apt_state | sha256sum | cut -d' ' -f1)
		ok=1
		list=$(resolve) || ok=
	fi
	if [ -z "$ok" ]; then
		die "apt cannot install ${WANT[*]} for $ARCH (above); check the names in $PKGLIST, run apt-get update (armhf must be enabled: dpkg --add-architecture armhf), or mark a dependency the guest does not need with '!'"
	fi
	{ echo "# $key"; echo "$list"; } >"$RESOLVED.tmp"
	mv "$RESOLVED.tmp" "$RESOLVED"
fi

# ---------------------------------------------------------------- download

PKGS=() DEBS=() FETCH=()
declare -A STATE=()
while read -r q v a; do
	bare=${q%%:*}
	deb=$DEBCACHE/${bare}_${v//:/%3a}_$a.deb
	PKGS+=("$q=$v")
	DEBS+=("$deb")
	if [ -s "$deb" ]; then
		STATE[$bare]=cached
	else
		STATE[$bare]=downloaded
		FETCH+=("$q=$v")
	fi
done < <(grep -v '^#' "$RESOLVED")

apt_download() {
	local sandbox=()
	# apt's _apt user may not be able to write into the cache; don't ask it.
	[ "$(id -u)" != 0 ] || sandbox=(-o APT::Sandbox::User=root)
	(cd "$DEBCACHE" && apt-get -qq "${sandbox[@]}" download "$@")
}

if [ ${#FETCH[@]} -gt 0 ]; then
	msg "downloading ${#FETCH[@]} packages into $DEBCACHE"
	if ! apt_download "${FETCH[@]}"; then
		# One at a time, to name the one that fails.
		for p in "${FETCH[@]}"; do
			apt_download "$p" ||
				die "downloading ${p%%=*} (version ${p#*=}) failed; check the network and run 'apt-get update' (armhf must be enabled: dpkg --add-architecture armhf)"
		done
	fi
fi

msg "packages (cache: $DEBCACHE):"
for i in "${!PKGS[@]}"; do
	p=${PKGS[i]} bare=${PKGS[i]%%[:=]*}
	[ -s "${DEBS[i]}" ] || die "apt-get download ${p} did not produce ${DEBS[i]}"
	printf '  %-20s %-28s %s\n' "$bare" "${p#*=}" "${STATE[$bare]}" >&2
done

flock -u 9

# ---------------------------------------------------------------- unpack

msg "unpacking into $ROOT"
rm -rf "$ROOT"
mkdir -p "$ROOT"
for i in "${!DEBS[@]}"; do
	bare=${PKGS[i]%%[:=]*}
	if [ -z "${PARTIAL[$bare]:-}" ]; then
		dpkg -x "${DEBS[i]}" "$ROOT"
		continue
	fi
	part=$ROOT.part
	rm -rf "$part"
	dpkg -x "${DEBS[i]}" "$part"
	read -ra files <<<"${PARTIAL[$bare]}"
	for f in "${files[@]}"; do
		f=${f#/}
		[ -e "$part/$f" ] || [ -L "$part/$f" ] ||
			die "$bare has no /$f (see ${PKGLIST##*/}; dpkg-deb -c ${DEBS[i]} lists its files)"
		(cd "$part" && cp -a --parents "$f" "$ROOT/")
	done
	rm -rf "$part"
	msg "  from $bare only: ${files[*]}"
done

# Merged /usr: bookworm packages still ship /lib, /bin, /sbin; move them
# under /usr and leave relative symlinks (so /lib/ld-linux-armhf.so.3 works).
for d in bin sbin lib; do
	mkdir -p "$ROOT/usr/$d"
	if [ -d "$ROOT/$d" ] && [ ! -L "$ROOT/$d" ]; then
		cp -a "$ROOT/$d/." "$ROOT/usr/$d/"
		rm -rf "${ROOT:?}/$d"
	fi
	ln -sfn "usr/$d" "$ROOT/$d"
done

for p in "${PRUNE[@]}"; do rm -rf "${ROOT:?}/$p"; done

# ---------------------------------------------------------------- busybox

BUSYBOX=$ROOT/usr/bin/busybox
[ -f "$BUSYBOX" ] || die "no /usr/bin/busybox in the root; is busybox-static in $PKGLIST?"

# 'busybox --list' cannot run on the build host, so read the applet table
# from the binary: a run of NUL-terminated names "[", "[[", "acpid", ...
# ending with an empty string.
mapfile -t APPLETS < <(tr '\0' '\n' <"$BUSYBOX" | awk '
	on && $0 == "" { exit }
	on { if ($0 !~ /^[a-z0-9_.-]+$/) { n = 0; exit }; a[n++] = $0 }
	prev == "[" && $0 == "[[" { on = 1; n = 0; a[n++] = "["; a[n++] = "[[" }
	{ prev = $0 }
	END { for (i = 0; i < n; i++) print a[i] }')
if [ ${#APPLETS[@]} -lt 100 ]; then
	warn "could not read busybox's applet table; linking only the required commands"
	APPLETS=("${REQUIRED_COMMANDS[@]}")
fi
for a in "${APPLETS[@]}"; do
	[ -e "$ROOT/usr/bin/$a" ] || [ -L "$ROOT/usr/bin/$a" ] || ln -s busybox "$ROOT/usr/bin/$a"
done
ln -sfn busybox "$ROOT/usr/bin/sh"
msg "busybox: ${#APPLETS[@]} applet links in /usr/bin"

# ---------------------------------------------------------------- skeleton

mkdir -p "$ROOT"/{proc,sys,dev,tmp,run,root,etc,var} "$ROOT/sys/kernel/debug"
chmod 1777 "$ROOT/tmp"
echo 'root:x:0:0:root:/root:/bin/sh' >"$ROOT/etc/passwd"
echo 'root:x:0:' >"$ROOT/etc/group"
echo 'guest' >"$ROOT/etc/hostname"

for d in "${EXTRA_DIRS[@]}"; do
	msg "adding $d"
	# tar rather than cp: keeps the /bin, /lib -> usr/... symlinks intact.
	tar -C "$d" -cf - . | tar -C "$ROOT" -xf - --keep-directory-symlink
done

install -m 0755 "$INIT" "$ROOT/init"

# ---------------------------------------------------------------- verify

# Does absolute guest path $1 exist in the root? Follows symlinks inside it.
in_root() {
	local p=$1 t i
	for ((i = 0; i < 40; i++)); do
		[ -L "$ROOT$p" ] || { [ -e "$ROOT$p" ]; return; }
		t=$(readlink "$ROOT$p")
		case $t in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
	done
	return 1
}

LIBDIRS=("/lib/$TRIPLET" "/usr/lib/$TRIPLET" /lib /usr/lib)
problems=() nelf=0
declare -A MISSING=()	# library -> the files that need it
while IFS= read -r -d '' f; do
	magic=
	LC_ALL=C read -r -n 4 magic <"$f" 2>/dev/null || true
	[ "$magic" = $'\x7fELF' ] || continue
	nelf=$((nelf + 1))
	rel=/${f#"$ROOT"/}
	if ! "$READELF" -hW "$f" | grep -Eq 'Machine:[[:space:]]+ARM$'; then
		problems+=("$rel is not a 32-bit ARM binary (from an EXTRA_DIR?)")
		continue
	fi
	interp=$("$READELF" -lW "$f" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
	if [ -n "$interp" ] && ! in_root "$interp"; then
		problems+=("$rel: program interpreter $interp is missing")
	fi
	while read -r lib; do
		ok=
		for d in "${LIBDIRS[@]}"; do
			if in_root "$d/$lib"; then ok=1; break; fi
		done
		[ -n "$ok" ] || MISSING[$lib]+=" $rel"
	done < <("$READELF" -dW "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
done < <(find "$ROOT" -type f -print0)
for lib in "${!MISSING[@]}"; do
	problems+=("missing library $lib, needed by${MISSING[$lib]}; add the package that provides it to $PKGLIST (or stop skipping it)")
done
if [ ${#problems[@]} -gt 0 ]; then
	for p in "${problems[@]}"; do printf '%s: error: %s\n' "$PROG" "$p" >&2; done
	die "the root in $ROOT failed the checks above"
fi
msg "checked $nelf ELF files: all interpreters and NEEDED libraries present"

for c in "${REQUIRED_COMMANDS[@]}"; do
	in_root "/usr/bin/$c" || in_root "/usr/sbin/$c" ||
		die "no '$c' in the root: busybox lacks that applet; add a package providing it to $PKGLIST"
done

# ---------------------------------------------------------------- archive

# The kernel's own tools write it: usr/gen_initramfs.sh lists the root, and
# /dev/console (a node that a non-root user cannot mknod, so that init has
# a console before it mounts devtmpfs), for usr/gen_init_cpio; both from
# the kernel source (the unpacked tree, else Debian's tarball), the tool
# built for the host. All files owned by root.
gic=$REPO/build/gen-init-cpio
ksrc=$REPO/build/linux-source-6.12
ktar=${KTAR:-/usr/src/linux-source-6.12.tar.xz}
if [ ! -x "$gic/usr/gen_init_cpio" ] || [ ! -f "$gic/gen_initramfs.sh" ]; then
	mkdir -p "$gic/usr"
	for f in usr/gen_init_cpio.c usr/gen_initramfs.sh; do
		if [ -f "$ksrc/$f" ]; then
			cp "$ksrc/$f" "$gic/${f#usr/}"
		else
			[ -f "$ktar" ] || die "no kernel source for $f: neither $ksrc nor $ktar (make deps installs linux-source-6.12)"
			tar -xJOf "$ktar" "linux-source-6.12/$f" >"$gic/${f#usr/}" ||
				die "cannot extract $f from $ktar"
		fi
	done
	"${HOSTCC:-cc}" -O2 -o "$gic/usr/gen_init_cpio" "$gic/gen_init_cpio.c" ||
		die "cannot build the kernel's usr/gen_init_cpio.c for the host: install gcc"
fi
echo 'nod /dev/console 0600 0 0 c 5 1' >"$gic/console.list"

msg "writing $OUT (the kernel's usr/gen_initramfs.sh and usr/gen_init_cpio)"
tmp=$OUT.tmp.$$
trap 'rm -f "$tmp" "$tmp.cpio"' EXIT
# One mtime for every file, and none in the gzip header (-n): the same
# packages make the same image on every machine (the guest's boot, whose
# time is its instruction count, unpacks the same bytes).
(cd "$gic" && sh gen_initramfs.sh -o "$tmp.cpio" -u squash -g squash -d '2026-01-01 00:00:00 UTC' \
	"$ROOT" console.list) ||
	die "usr/gen_initramfs.sh failed on $ROOT"
gzip -9 -n <"$tmp.cpio" >"$tmp"
rm -f "$tmp.cpio"
mv "$tmp" "$OUT"
trap - EXIT

listing=$(gzip -dc "$OUT" | cpio -t --quiet)
for p in init usr/bin/sh usr/bin/busybox lib "usr/lib/$TRIPLET/ld-linux-armhf.so.3"; do
	grep -qx -- "$p" <<<"$listing" || die "$p is missing from $OUT"
done

msg "done: $OUT ($(du -h "$OUT" | cut -f1), ${#PKGS[@]} packages, ${SECONDS}s)"
