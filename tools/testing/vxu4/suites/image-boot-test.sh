#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make image's SD card image booted in the virtual XU4, before any board
# boots it (KTAP), after the image's own checks (tools/testing/image-test.sh,
# its results here as "image: ..."): the root file system of a copy of the image as the
# guest's virtio disk (/dev/vda2), no initramfs, its init systemd; the
# kernel the zImage of the image's own linux-image package (its
# /boot/vmlinuz, read out of the image), build/vxu4.dtb. A check script
# written into the copy runs as systemd's kernel-command-line unit
# (systemd.run=) and powers off; it prints "@image_*" lines, judged here:
#   - the kernel running is the packaged one (uname -r, dpkg -S of its
#     /boot/vmlinuz) and its file is the build's zImage (build/obj's, as
#     make odroid packaged it);
#   - PID 1 is systemd, the system reached its kernel-command-line unit;
#   - EAS on: "starting EAS" in the kernel log, eas-bench check passes
#     (schedutil on both policies, sched_energy_aware 1, 2 perf domains);
#   - eas-em show equals eas-em compute of the DTB the guest booted
#     (/sys/firmware/fdt): eas-em diff inside, exit 0; and the guest's
#     debugfs EM (eas-em show --format=debugfs) equals the host's eas-em
#     compute --format=debugfs of build/vxu4.dtb, line for line;
#   - the board bench runs: eas-bench run -n 1 -d 2 -l 10 writes a whole
#     results file, which eas-bench report on the host reads.
#
# Usage: image-boot-test.sh [IMAGE_DIR]   (default build/image; needs
# make odroid image vxu4 tools). The console: build/image-boot.log.
# Exit: 0 passed, 1 a check failed, 2 nothing to boot.

set -uo pipefail

top=$(cd "$(dirname "$0")/../../../.." && pwd)
out=${1:-$top/build/image}
img=$out/odroid-eas.img
dtb=$top/build/vxu4.dtb
zimage=$top/build/obj/arch/arm/boot/zImage
em=$top/tools/power/eas/eas-em
log=$top/build/image-boot.log
for f in "$img" "$dtb" "$zimage" "$em"; do
	[ -f "$f" ] || { echo "image-boot-test.sh: no $f: run 'make odroid image vxu4 tools' first" >&2; exit 2; }
done

. "$top/tools/testing/ktap.sh"
tmp=$(mktemp -d "$top/build/image-boot.XXXXXX")
ktap_atexit rm -rf "$tmp"

# The image as written, first (tools/testing/image-test.sh): its results
# as ours, "image: " before each.
res=$("$top/tools/testing/image-test.sh" "$out" 2>&1)
re='^(not )?ok [0-9]+ (.*)$'
while IFS= read -r l; do
	[[ $l =~ $re ]] || continue
	if [ -z "${BASH_REMATCH[1]}" ]; then
		ktap_ok "image: ${BASH_REMATCH[2]}"
	else
		ktap_fail "image: ${BASH_REMATCH[2]}" "$res"
	fi
done <<<"$res"

# The root partition of the copy (image.sh's layout: p2 at sector 139264).
disk=$tmp/disk.img
cp --sparse=always "$img" "$disk"
p2="$disk?offset=$((139264 * 512))"
release=$(debugfs -R "ls -p /boot" "$p2" 2>/dev/null | tr '/' '\n' | sed -n 's/^vmlinuz-//p' | head -1)
[ -n "$release" ] || { echo "image-boot-test.sh: $img has no /boot/vmlinuz-*: make image again" >&2; exit 2; }
debugfs -R "dump /boot/vmlinuz-$release $tmp/zImage" "$p2" 2>/dev/null
if cmp -s "$tmp/zImage" "$zimage"; then
	ktap_ok "the image's /boot/vmlinuz-$release is the build's zImage (build/obj)"
else
	ktap_fail "the image's /boot/vmlinuz-$release is the build's zImage (build/obj)" \
		"$(ls -l "$tmp/zImage" "$zimage" 2>&1)"
fi

# The check, as root inside the guest once systemd is up.
cat >"$tmp/image-check" <<'EOF'
#!/bin/sh
# odroid-eas image-boot-test.sh's check, run by systemd (systemd.run=)
exec >/dev/console 2>&1
rel=$(uname -r)
echo "@image_kernel release=$rel owner=$(dpkg -S "/boot/vmlinuz-$rel" 2>/dev/null | cut -d: -f1) pid1=$(cat /proc/1/comm) state=$(systemctl is-system-running 2>/dev/null)"
n=0
while ! dmesg | grep -q "sched_energy_set: starting EAS" && [ $n -lt 120 ]; do
	sleep 1
	n=$((n + 1))
done
sleep 2
dmesg | grep -q "sched_energy_set: starting EAS" && eas=1 || eas=0
eas-bench check | sed 's/^/@image_check_line /'
echo "@image_eas started=$eas check_status=$(eas-bench check >/dev/null 2>&1; echo $?) sched_energy_aware=$(cat /proc/sys/kernel/sched_energy_aware)"
eas-em diff /sys/firmware/fdt /sys/kernel/debug/energy_model >/tmp/diff.out 2>&1
echo "@image_em diff_status=$?"
sed 's/^/@image_diff_line /' /tmp/diff.out
eas-em show --format=debugfs | sed 's/^/@em /'
eas-bench run -n 1 -d 2 -l 10 -o /root/bench.txt >/tmp/bench.out 2>&1
echo "@image_bench status=$?"
sed 's/^/@image_bench_line /' /tmp/bench.out
cat /root/bench.txt
echo "@image_done"
EOF
chmod 755 "$tmp/image-check"
debugfs -w -R "write $tmp/image-check /root/image-check" "$p2" >/dev/null 2>&1
debugfs -w -R "set_inode_field /root/image-check mode 0100755" "$p2" >/dev/null 2>&1
if ! grep -q "Mode:  0755" <<<"$(debugfs -R "stat /root/image-check" "$p2" 2>/dev/null)"; then
	ktap_fail "the check written into the image's copy (debugfs)" "$(debugfs -R "stat /root/image-check" "$p2" 2>&1 | head -3)"
	ktap_finish
fi

# The boot: not isolated (a disk's I/O needs QEMU's main thread).
start=$SECONDS
"$top/tools/testing/vxu4/suites/boot.py" image --kernel "$tmp/zImage" --dtb "$dtb" --disk "$disk" \
	2>"$tmp/boot.err"
rc=$?
echo "boot: exit $rc, $((SECONDS - start)) s of wall time, console $log"
line() { tr -d '\r' <"$log" | sed -n "s/^@$1 //p" | tail -1; }
val() { sed -n "s/.*\\b$2=\\([^ ]*\\).*/\\1/p" <<<"$1"; }
# "@image_done" has no values: its line as a whole (line() reads values)
if [ "$(tr -d '\r' <"$log" | grep -cx '@image_done')" = 0 ]; then
	ktap_fail "the image booted to its check and the check ran to its end" "boot exit $rc" \
		"$(cat "$tmp/boot.err")" "$(tail -15 "$log" 2>&1)"
	ktap_finish
fi
ktap_ok "booted from the image's root with systemd, the check ran to its end ($((SECONDS - start)) s)"

k=$(line image_kernel)
if [ "$(val "$k" release)" = "$release" ] && [ "$(val "$k" owner)" = "linux-image-$release" ] &&
	[ "$(val "$k" pid1)" = systemd ]; then
	ktap_ok "the running kernel is linux-image-$release's (uname -r, dpkg -S); PID 1 systemd"
else
	ktap_fail "the running kernel is linux-image-$release's; PID 1 systemd" "$k"
fi
e=$(line image_eas)
if [ "$(val "$e" started)" = 1 ] && [ "$(val "$e" check_status)" = 0 ] && [ "$(val "$e" sched_energy_aware)" = 1 ]; then
	ktap_ok "EAS on (starting EAS; eas-bench check: schedutil, EAS, the meters)"
else
	ktap_fail "EAS on (starting EAS; eas-bench check)" "$e" "$(tr -d '\r' <"$log" | sed -n 's/^@image_check_line //p')"
fi
d=$(line image_em)
"$em" compute --format=debugfs "$dtb" >"$tmp/host.em" 2>&1
tr -d '\r' <"$log" | sed -n 's/^@em //p' >"$tmp/guest.em"
if [ "$(val "$d" diff_status)" = 0 ] && [ -s "$tmp/guest.em" ] && cmp -s "$tmp/host.em" "$tmp/guest.em"; then
	ktap_ok "eas-em show = eas-em compute of the DTB: diff in the guest exit 0; $(wc -l <"$tmp/guest.em") debugfs lines as the host computes from build/vxu4.dtb"
else
	ktap_fail "eas-em show = eas-em compute of the DTB" "$d" \
		"$(tr -d '\r' <"$log" | sed -n 's/^@image_diff_line //p' | head -5)" \
		"$(diff "$tmp/host.em" "$tmp/guest.em" | head -5)"
fi
b=$(line image_bench)
tr -d '\r' <"$log" | grep '^@eas_bench' >"$tmp/bench.txt"
if [ "$(val "$b" status)" = 0 ] && "$top/tools/power/eas/eas-bench" report "$tmp/bench.txt" >"$tmp/report" 2>&1 &&
	grep -q "rtapp energy" "$tmp/report"; then
	ktap_ok "the board bench runs: eas-bench run -n 1, a whole results file with the meters' energy"
	sed 's/^/  /' "$tmp/report"
else
	ktap_fail "the board bench runs: eas-bench run -n 1" "$b" "$(cat "$tmp/report" 2>&1)" \
		"$(tr -d '\r' <"$log" | sed -n 's/^@image_bench_line //p' | tail -5)"
fi
ktap_finish
