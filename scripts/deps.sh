#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install, with apt, the Debian packages the build, the virtual board and
# the tests need, when they are missing. Does nothing when all are there.

set -euo pipefail

pkgs=(
	linux-source-6.12		# the kernel source, as one tarball
	gcc-arm-linux-gnueabihf		# ARM cross compiler
	libc6-dev-armhf-cross		# ...and its C library, for guest tools
	make gcc bc bison flex libssl-dev libelf-dev cpio kmod xz-utils rsync
	ccache quilt
	device-tree-compiler libfdt-dev	# dtc, fdtget and libfdt for our tools
	qemu-system-arm			# the virtual board
	python3				# JSON checks in the tests
	python3-ply python3-git		# checkpatch's SPDX check (scripts/spdxcheck.py)
	qemu-user-static file		# eas-em's cross build, run in its tests
	gnuplot-nox			# eas-em plot
	shellcheck			# the static suite's shell checks
	libglib2.0-dev			# the QEMU plugin (qemu-plugin.h includes glib.h)
	libtracecmd-dev libtracefs-dev libtraceevent-dev  # build/trace-events: the guest's trace.dat
	debhelper libssl-dev:armhf	# make odroid: the kernel's bindeb-pkg (its headers
					# package builds sign-file for armhf)
	parallel openssh-client openssh-server	# HOSTS= make bench: GNU parallel over ssh
					# (the server: its loopback test)
	lava-common			# the LAVA jobs' check: LAVA's own job schema
	mmdebstrap arch-test fdisk dosfstools mtools  # make image: the root (armhf,
					# under qemu-user), the MBR, the FAT boot partition
)

# QEMU comes from Debian 12's backports suite: QEMU 10 runs the 8 vCPUs
# under instruction counting (-icount), which Debian 12's QEMU 7.2 hangs
# in at boot. Only the QEMU packages are pinned from there; everything
# else stays Debian 12's.
qemu_pkgs=(qemu-system-arm qemu-system-common qemu-system-data
	qemu-user-static qemu-user qemu-user-binfmt)
qemu_min=10
sources=/etc/apt/sources.list.d/odroid-eas-backports.sources
prefs=/etc/apt/preferences.d/odroid-eas-qemu

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
qemu_ver=$(dpkg-query -W -f='${Version}' qemu-system-arm 2>/dev/null || true)
qemu_major=${qemu_ver#*:}
qemu_major=${qemu_major%%.*}
old_qemu=0
if [ -n "$qemu_ver" ] && [ "${qemu_major:-0}" -lt "$qemu_min" ] 2>/dev/null; then
	old_qemu=1
fi
if [ ${#missing[@]} -eq 0 ] && [ $old_qemu -eq 0 ] && [ -f "$prefs" ]; then
	exit 0
fi
want=("${missing[@]}")
[ $old_qemu -eq 1 ] && want+=(qemu-system-arm qemu-user-static)

if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
if [ ! -f "$sources" ] || [ ! -f "$prefs" ]; then
	echo "==> apt: adding bookworm-backports, pinned to the QEMU packages only ($prefs)"
	$SUDO tee "$sources" >/dev/null <<-EOF
		Types: deb
		URIs: http://deb.debian.org/debian
		Suites: bookworm-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	$SUDO tee "$prefs" >/dev/null <<-EOF
		# odroid-eas (scripts/deps.sh): QEMU 10 for -icount; nothing else.
		Package: ${qemu_pkgs[*]}
		Pin: release n=bookworm-backports
		Pin-Priority: 990
	EOF
fi
[ ${#want[@]} -eq 0 ] && want=(qemu-system-arm)
# armhf packages (libssl-dev:armhf; the guest's, scripts/mkinitramfs.sh)
# need armhf enabled in dpkg.
if ! dpkg --print-foreign-architectures | grep -qx armhf; then
	echo "==> dpkg: enabling armhf (dpkg --add-architecture armhf)"
	$SUDO dpkg --add-architecture armhf
fi
echo "==> installing with apt: ${want[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
if ! $SUDO apt-get install -y -q --no-install-recommends "${want[@]}" >/tmp/odroid-eas-apt.log 2>&1; then
	tail -20 /tmp/odroid-eas-apt.log >&2
	echo "deps.sh: apt-get install failed (log: /tmp/odroid-eas-apt.log)" >&2
	exit 1
fi
qemu_ver=$(dpkg-query -W -f='${Version}' qemu-system-arm)
qemu_major=${qemu_ver#*:}
qemu_major=${qemu_major%%.*}
if [ "$qemu_major" -lt "$qemu_min" ]; then
	echo "deps.sh: qemu-system-arm $qemu_ver is installed, the virtual XU4 needs $qemu_min or later" >&2
	echo "deps.sh: check $sources and $prefs (apt-cache policy qemu-system-arm)" >&2
	exit 1
fi
