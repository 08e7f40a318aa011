#!/bin/bash
# make-i686-recording.sh: remake tests/data/sched-i686-v6.dat, a recording
# with a 32-bit kernel's layout (4-byte long, 32-bit ring-buffer page
# header), made in a QEMU guest that boots Debian's own i386 kernel.
#
# Usage: sudo tests/data/make-i686-recording.sh   (about a minute)
#
# Needs root, apt-get (Debian's archive), qemu-system-i386 (qemu-system-x86)
# and cpio.  The script downloads, with `apt-get download`, Debian 12's
# linux-image-686 kernel, busybox-static, trace-cmd and the libraries
# trace-cmd needs, all for i386, into a temporary folder: for that it
# enables the i386 architecture in dpkg for the time of the download only
# (when it was not enabled already), installs nothing, and removes what it
# downloaded at the end.  The guest (TCG, 2 CPUs, a busybox initramfs, no
# disk and no module) runs `trace-cmd record` of the scheduler's and
# softirqs' events around a known workload (two busy shell loops, a
# sleeper), with an empty file bind-mounted over /proc/kallsyms (the events
# print no kernel address, and the file stays small), and prints the file
# in base64 on its console between two marker lines; the script decodes it.
set -euo pipefail

HERE=$(cd -- "$(dirname -- "$0")" && pwd)
OUT=$HERE/sched-i686-v6.dat
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cs-i686.XXXXXX")
ADDED_ARCH=

die() { echo "make-i686-recording: $*" >&2; exit 1; }

# A mirror in the middle of a sync fails a list or two: what was read is
# enough for the packages asked for.
apt_update() {
  apt-get update -qq || echo "make-i686-recording: apt-get update reported errors; going on" >&2
}

cleanup() {
  set +e
  if [ -n "$ADDED_ARCH" ]; then
    dpkg --remove-architecture i386
    apt_update
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || die "needs root (apt-get, dpkg)"
command -v qemu-system-i386 >/dev/null || die "needs qemu-system-i386 (qemu-system-x86)"

if ! dpkg --print-foreign-architectures | grep -qx i386; then
  dpkg --add-architecture i386
  ADDED_ARCH=1
fi
apt_update
kernel=$(apt-cache depends linux-image-686:i386 | sed -n 's/^ *Depends: \(linux-image-[0-9.-]*-686\).*/\1/p' | head -n 1)
[ -n "$kernel" ] || die "no linux-image-686 for i386 in the archive"
(cd "$WORK" && apt-get download -q "$kernel:i386" busybox-static:i386 trace-cmd:i386 \
  libtracefs1:i386 libtraceevent1:i386 libtraceevent1-plugin:i386 libzstd1:i386 libc6:i386)
if [ -n "$ADDED_ARCH" ]; then
  dpkg --remove-architecture i386
  apt_update
  ADDED_ARCH=
fi

mkdir "$WORK/pkg" "$WORK/root"
for deb in "$WORK"/*.deb; do dpkg -x "$deb" "$WORK/pkg"; done
vmlinuz=$(ls "$WORK"/pkg/boot/vmlinuz-*)

# The initramfs: busybox, trace-cmd and its libraries (not the kernel's
# modules, nor locales).
r=$WORK/root
mkdir -p "$r/bin" "$r/lib" "$r/usr/bin" "$r/usr/lib" "$r/proc" "$r/sys" "$r/tmp" "$r/dev"
cp "$WORK/pkg/bin/busybox" "$r/bin/busybox"
cp "$WORK/pkg/usr/bin/trace-cmd" "$r/usr/bin/"
cp -a "$WORK/pkg/lib/i386-linux-gnu" "$r/lib/"
cp -a "$WORK"/pkg/lib/ld-linux.so.2 "$r/lib/"
cp -a "$WORK/pkg/usr/lib/i386-linux-gnu" "$r/usr/lib/"
rm -rf "$r/usr/lib/i386-linux-gnu/gconv"

cat >"$r/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t tracefs nodev /sys/kernel/tracing
: >/tmp/kallsyms
mount --bind /tmp/kallsyms /proc/kallsyms
cd /tmp
echo "guest: $(uname -m) $(uname -r), $(nproc) CPUs"
trace-cmd record --file-version 6 -b 1024 \
  -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup \
  -e sched:sched_wakeup_new -e sched:sched_process_fork -e sched:sched_process_exec \
  -e sched:sched_process_exit -e irq:softirq_entry -e irq:softirq_exit \
  -o /tmp/i686.dat \
  sh -c 'spin() { i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done; }
         spin & spin &
         for n in 1 2 3 4 5 6 7 8 9 10; do sleep 0.02; ls / >/dev/null; done
         wait' >/tmp/record.log 2>&1 || cat /tmp/record.log
tail -n 3 /tmp/record.log
echo "==== cs-i686 begin"
base64 /tmp/i686.dat
echo "==== cs-i686 end"
poweroff -f
INIT
chmod +x "$r/init"
(cd "$r" && find . | cpio -o -H newc --quiet | gzip -1) >"$WORK/initramfs.cpio.gz"

timeout 600 qemu-system-i386 -accel tcg -m 512 -smp 2 -kernel "$vmlinuz" \
  -initrd "$WORK/initramfs.cpio.gz" -nographic -no-reboot -nic none \
  -append 'console=ttyS0 quiet panic=-1 tsc=reliable' >"$WORK/console.log" 2>&1 || true
grep '^guest:' "$WORK/console.log" || true
sed -n '/^==== cs-i686 begin/,/^==== cs-i686 end/p' "$WORK/console.log" | tr -d '\r' |
  sed '1d;$d' | base64 -d >"$WORK/i686.dat" || { tail -n 30 "$WORK/console.log"; die "no recording from the guest"; }
[ -s "$WORK/i686.dat" ] || { tail -n 30 "$WORK/console.log"; die "no recording from the guest"; }
cp "$WORK/i686.dat" "$OUT"
ls -l "$OUT"
