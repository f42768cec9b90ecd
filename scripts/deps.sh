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
	qemu-user-static file		# eas-em's cross build, run in its tests
	gnuplot-nox			# eas-em plot
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
want=("${missing[@]}")

if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
echo "==> installing with apt: ${want[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >/dev/null
if ! $SUDO apt-get install -y -q --no-install-recommends "${want[@]}" >/tmp/odroid-eas-apt.log 2>&1; then
	tail -20 /tmp/odroid-eas-apt.log >&2
	echo "deps.sh: apt-get install failed (log: /tmp/odroid-eas-apt.log)" >&2
	exit 1
fi
