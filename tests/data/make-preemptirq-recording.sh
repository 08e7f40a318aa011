#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-preemptirq-recording.sh: remake tests/data/preemptirq-v7.dat, a
# recording with the kernel's preemptirq:* events (preempt_disable/enable,
# irq_disable/enable), which no Debian 12 kernel image can make: they need
# CONFIG_PREEMPT_TRACER / CONFIG_IRQSOFF_TRACER.
#
# Usage: sudo tests/data/make-preemptirq-recording.sh
#        (the kernel build takes most of it: 12 minutes at nice 19 on 2 cores
#        shared with other builds; the guest about 40 s)
#
# Needs root and Debian's archive: it installs, with `apt-get install -y
# --no-install-recommends` (nothing happens when they are there already),
# linux-source-6.1 flex bison bc libelf-dev libssl-dev cpio busybox-static
# qemu-system-x86 util-linux coreutils trace-cmd.  It then
#
# 1. unpacks /usr/src/linux-source-6.1.tar.xz in a temporary folder and
#    builds a small x86_64 kernel: `make tinyconfig`, plus what a busybox
#    initramfs guest needs (serial console, initramfs, ELF and scripts,
#    proc/sys/devtmpfs/tmpfs, futex, epoll, UNIX sockets, modules, debugfs;
#    ACPI, without which the kernel finds one CPU in SeaBIOS's MP table)
#    and full preemption with the preempt-off and irqs-off latency tracers,
#    which create the preemptirq tracepoints (CONFIG_PREEMPTIRQ_TRACEPOINTS);
#    `nice -n 19 make -j2`;
# 2. builds kmod/chronoscope_tracer.ko against that tree; the module only
#    injects the sections (its own chronoscope:* events are not recorded,
#    so every section in the file comes from preemptirq:*);
# 3. boots the kernel under QEMU (KVM when it works, else TCG; 2 CPUs, a
#    busybox initramfs with the host's trace-cmd, chrt and nice and their
#    libraries, no disk) whose init runs `trace-cmd record --file-version 7
#    --compression zstd` of sched:*, irq:* and preemptirq:* around this
#    workload: on CPU 1 a sleeper that wakes every 2 ms (usleep), a nice 0
#    and a nice 10 busy loop, a SCHED_FIFO 10 task that wakes every 3 ms,
#    and a SCHED_FIFO 20 pipe reader fed about every millisecond by a
#    writer on CPU 0; 200 ms later (the tasks take that long to start
#    under TCG) the module runs on CPU 1 (a high-priority work item) a
#    12 ms preempt-off section (a wakeup inside it waits for
#    preempt_enable) and 60 ms later an 8 ms irqs-off section (the
#    writer's wakeup of the reader waits for irq_enable, which lets the
#    reschedule interrupt in);
# 4. prints the file in base64 on the guest's console between two marker
#    lines; this script decodes it into tests/data/preemptirq-v7.dat.
#
# The temporary folders are removed on exit.  CS_PREEMPTIRQ_WORK=DIR builds
# in DIR instead and keeps it (a second run reuses the built kernel).
set -euo pipefail

HERE=$(cd -- "$(dirname -- "$0")" && pwd)
SRCROOT=$(cd -- "$HERE/../.." && pwd)
OUT=$HERE/preemptirq-v7.dat

die() { echo "make-preemptirq-recording: $*" >&2; exit 1; }
say() { echo "make-preemptirq-recording: $*"; }

[ "$(id -u)" = 0 ] || die "needs root (apt-get)"

if [ -n "${CS_PREEMPTIRQ_WORK:-}" ]; then
  WORK=$CS_PREEMPTIRQ_WORK
  mkdir -p "$WORK"
  KEEP=1
else
  WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/cs-preemptirq.XXXXXX")
  KEEP=
fi
cleanup() {
  set +e
  [ -n "$KEEP" ] || rm -rf "$WORK"
}
trap cleanup EXIT

# shellcheck source=tests/kmod/qemu-guest.sh
. "$SRCROOT/tests/kmod/qemu-guest.sh"

DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  linux-source-6.1 flex bison bc libelf-dev libssl-dev cpio busybox-static \
  qemu-system-x86 util-linux coreutils trace-cmd >/dev/null

# 1. The kernel.
KSRC=$WORK/linux
if [ ! -e "$KSRC/arch/x86/boot/bzImage" ]; then
  rm -rf "$KSRC" "$WORK/linux-source-6.1"
  say "unpacking the kernel source"
  tar -C "$WORK" -xJf /usr/src/linux-source-6.1.tar.xz
  mv "$WORK/linux-source-6.1" "$KSRC"
  make -C "$KSRC" -s tinyconfig >/dev/null
  "$KSRC/scripts/config" --file "$KSRC/.config" \
    -e 64BIT -e SMP -e PRINTK -e PRINTK_TIME -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE \
    -e BLK_DEV_INITRD -e RD_GZIP -e BINFMT_ELF -e BINFMT_SCRIPT \
    -e PROC_FS -e PROC_SYSCTL -e SYSFS -e DEVTMPFS -e DEVTMPFS_MOUNT -e TMPFS -e SHMEM \
    -e FUTEX -e EPOLL -e SIGNALFD -e TIMERFD -e EVENTFD -e FILE_LOCKING -e POSIX_TIMERS \
    -e MULTIUSER -e NET -e UNIX \
    -d PREEMPT_NONE -d PREEMPT_VOLUNTARY -e PREEMPT -e HIGH_RES_TIMERS -e NO_HZ_IDLE \
    -e PCI -e ACPI -e X86_TSC -e MODULES -e MODULE_UNLOAD -e DEBUG_FS -e DEBUG_FS_ALLOW_ALL -e KALLSYMS \
    -e DEBUG_KERNEL -e FTRACE -e TRACING -e EVENT_TRACING -e PREEMPT_TRACER -e IRQSOFF_TRACER \
    -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -e DEBUG_INFO_NONE
  make -C "$KSRC" -s olddefconfig >/dev/null
  for opt in PREEMPT PREEMPT_TRACER IRQSOFF_TRACER PREEMPTIRQ_TRACEPOINTS SMP MODULES DEBUG_FS \
             SERIAL_8250_CONSOLE BLK_DEV_INITRD UNIX; do
    grep -qx "CONFIG_$opt=y" "$KSRC/.config" || die "CONFIG_$opt is not y in the kernel's .config"
  done
  say "building the kernel (nice -n 19 make -j2)"
  nice -n 19 make -C "$KSRC" -j2 bzImage modules >"$WORK/kernel-build.log" 2>&1 ||
    { tail -n 30 "$WORK/kernel-build.log"; die "the kernel build failed"; }
fi
kver=$(make -C "$KSRC" -s kernelrelease)

# 2. The module, against that tree.
rm -rf "$WORK/kmod"
cp -r "$SRCROOT/kmod" "$WORK/kmod"
make -C "$KSRC" M="$WORK/kmod" modules >"$WORK/kmod-build.log" 2>&1 ||
  { cat "$WORK/kmod-build.log"; die "the module build failed"; }

# 3. The initramfs and the guest.
r=$WORK/root
rm -rf "$r"
mkdir -p "$r/bin" "$r/usr/bin" "$r/proc" "$r/sys" "$r/tmp" "$r/dev" "$r/modules"
cp /bin/busybox "$r/bin/busybox"
for exe in /usr/bin/trace-cmd /usr/bin/chrt /usr/bin/nice; do
  cs_guest_copy_exe "$exe" "$r"
done
cp "$WORK/kmod/chronoscope_tracer.ko" "$r/modules/"

cat >"$r/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/usr/bin:/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tmpfs tmp /tmp
mount -t tracefs nodev /sys/kernel/tracing
mount -t debugfs nodev /sys/kernel/debug
cd /tmp
echo "guest: $(uname -m) $(uname -r), $(nproc) CPUs"
D=/sys/kernel/debug/chronoscope
insmod /modules/chronoscope_tracer.ko threshold_us=0 cpu=1 || echo "guest: insmod failed"
taskset -p 1 $$ >/dev/null
cat >/tmp/workload <<'W'
D=/sys/kernel/debug/chronoscope
taskset -c 1 sh -c 'while :; do usleep 2000; done' &
pids=$!
taskset -c 1 sh -c 'while :; do :; done' &
pids="$pids $!"
taskset -c 1 nice -n 10 sh -c 'while :; do :; done' &
pids="$pids $!"
taskset -c 1 chrt -f 10 sh -c 'while :; do usleep 3000; done' &
pids="$pids $!"
# The writer waits about a millisecond between lines with a busy loop (no
# fork, which under TCG takes longer than the sections).
taskset -c 0 sh -c 'while :; do echo x; i=0; while [ $i -lt 40 ]; do i=$((i + 1)); done; done' |
  taskset -c 1 chrt -f 20 sh -c 'while read l; do :; done' &
pids="$pids $!"
usleep 200000
echo 12000 >$D/preempt_off_us
usleep 60000
echo 8000 >$D/irqs_off_us
usleep 40000
kill $pids
wait
W
trace-cmd record --file-version 7 --compression zstd -b 4096 \
  -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup \
  -e sched:sched_wakeup_new -e sched:sched_migrate_task \
  -e sched:sched_process_fork -e sched:sched_process_exec -e sched:sched_process_exit \
  -e irq:irq_handler_entry -e irq:irq_handler_exit -e irq:softirq_entry -e irq:softirq_exit \
  -e preemptirq:preempt_disable -e preemptirq:preempt_enable \
  -e preemptirq:irq_disable -e preemptirq:irq_enable \
  -o /tmp/preemptirq.dat sh /tmp/workload >/tmp/record.log 2>&1 || echo "guest: trace-cmd record failed"
tail -n 6 /tmp/record.log
echo "guest: stats $(tr '\n' ' ' <$D/stats)"
ls -l /tmp/preemptirq.dat
echo "==== cs-preemptirq begin"
base64 /tmp/preemptirq.dat
echo "==== cs-preemptirq end"
reboot -f
INIT
chmod +x "$r/init"
(cd "$r" && find . | cpio -o -H newc --quiet | gzip -1) >"$WORK/initramfs.cpio.gz"

# KVM when it works (`-cpu host`), else TCG (`-cpu max`): on a nested VM
# /dev/kvm may be there and QEMU still abort when it sets the vCPU's MSRs.
got=
for accel in "kvm -cpu host" "tcg -cpu max"; do
  if [ "${accel%% *}" = kvm ] && [ ! -w /dev/kvm ]; then
    continue
  fi
  say "booting $kver under QEMU (-accel $accel)"
  # shellcheck disable=SC2086
  timeout 900 qemu-system-x86_64 -accel $accel -m 768 -smp 2 \
    -kernel "$KSRC/arch/x86/boot/bzImage" -initrd "$WORK/initramfs.cpio.gz" \
    -nographic -no-reboot -nic none \
    -append 'console=ttyS0 quiet panic=-1 tsc=reliable' >"$WORK/console.log" 2>&1 || true
  grep -a '^guest:' "$WORK/console.log" || true
  if sed -n '/^==== cs-preemptirq begin/,/^==== cs-preemptirq end/p' "$WORK/console.log" |
       tr -d '\r' | sed '1d;$d' | base64 -d >"$WORK/preemptirq.dat" && [ -s "$WORK/preemptirq.dat" ]; then
    got=1
    break
  fi
  tail -n 30 "$WORK/console.log"
  say "no recording from the guest with -accel $accel"
done
[ -n "$got" ] || die "no recording from the guest"
cp "$WORK/preemptirq.dat" "$OUT"
ls -l "$OUT"
