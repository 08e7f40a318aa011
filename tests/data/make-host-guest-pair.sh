#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-host-guest-pair.sh: remake tests/data/pair/pair-host-v6.dat and
# tests/data/pair/pair-guest-v6.dat, a host recording and the recording of
# a QEMU guest taken at the same time, tied together as trace-cmd ties a
# KVM host and its guest (TRACEID, GUEST and TIME_SHIFT options, TSC2NSEC).
# They sit in their own folder: trace-cmd report applies the guest's
# TIME_SHIFT, so the tests that compare every tests/data/*.dat with report
# would see other times than Chronoscope's reader gives (it applies the
# shift only when relating the pair).
#
# Usage: sudo tests/data/make-host-guest-pair.sh [BUILD_DIR]   (about a minute)
#
# Nested KVM does not run here, so the guest is Debian's kernel under QEMU
# TCG (2 vCPUs, multi-threaded TCG: one host thread per vCPU), with the
# kmod test's busybox init (tests/kmod/guest-init.sh) and `chronoscope` with
# its libraries.  Both sides record with `chronoscope record -C x86-tsc`
# (sched_switch and sched_wakeup, plus their trace_marker lines), each in its
# own private tracefs instance; under TCG the guest's TSC is the host's TSC
# plus a constant, so the clocks are related by an offset.  The clock
# relation is measured, not read from QEMU: pair-probe.c exchanges bytes
# over a second serial port (host: QEMU's UNIX socket; guest: /dev/ttyS1),
# and both sides write a marker for each exchange (host "send N" before the
# byte, guest "guest N" on receipt, host "recv N" on the answer), in batches
# of 16 per vCPU.  Then make-host-guest-pair (tests/index/) reads both
# recordings with Chronoscope's reader, keeps per vCPU and batch the offsets
# every exchange allows (host send − guest ≤ offset ≤ host recv − guest),
# and rewrites both files with Chronoscope's writer: the guest's with a
# TIME_SHIFT option (the host's trace ID, interpolated samples per vCPU),
# the host's with a GUEST option (the vCPU threads that QEMU's monitor
# names in `info cpus`), each with a random TRACEID and the same TSC2NSEC:
# the kernel's perf time_mult and time_shift (pair-probe tsc2nsec) where it
# offers them, else from the host's TSC frequency measured by
# tests/kmod/tsc-khz.c (this VM's kernel has cap_user_time 0).
#
# /proc/kallsyms is bind-mounted over by an empty file on both sides (no
# recorded event prints a kernel address), which keeps the files small.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srcroot=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$srcroot/build}" && pwd)
chronoscope=$build/gui/chronoscope
pair_tool=$build/tests/index/make-host-guest-pair
count=${CS_PAIR_EXCHANGES:-128}

say() { echo "make-host-guest-pair: $*"; }
die() { say "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root (tracefs)"
[ -x "$chronoscope" ] || die "no $chronoscope (build first)"
[ -x "$pair_tool" ] || die "no $pair_tool (build first)"
kver=$(for v in /boot/vmlinuz-*; do
	v=${v#/boot/vmlinuz-}
	[ -d "/lib/modules/$v/kernel" ] && echo "$v"
done | sort -V | tail -n 1)
[ -n "$kver" ] || die "no /boot/vmlinuz-* with modules (linux-image-amd64)"

# shellcheck source=tests/kmod/qemu-guest.sh
. "$srcroot/tests/kmod/qemu-guest.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-pair.XXXXXX")
cs_qemu_rundir_make
cleanup() {
	[ -z "$cs_qemu_pid" ] || kill "$cs_qemu_pid" 2>/dev/null || true
	cs_qemu_rundir_remove
	[ -n "${CS_PAIR_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- The initramfs ----------------------------------------------------------

root=$work/initramfs
mkdir -p "$root/bin" "$root/modules"
cp "$(command -v busybox)" "$root/bin/busybox"
ldd "$root/bin/busybox" >/dev/null 2>&1 && die "busybox is not static (busybox-static)"
cp "$srcroot/tests/kmod/guest-init.sh" "$root/init"
${CC:-cc} -static -O2 -o "$root/bin/pair-probe" "$here/pair-probe.c"
cp "$root/bin/pair-probe" "$work/pair-probe"
# The UART's receive interrupt at the first byte (its FIFO trigger level
# is 8, and a lone byte would wait for the FIFO timeout, 0.35 ms at
# 115200 baud, making the way in slower than the way back).
cat >"$root/scenario.sh" <<-'EOF'
	echo 1 >/sys/class/tty/ttyS1/rx_trig_bytes || echo "cs-pair: cannot set rx_trig_bytes"
	: >/tmp/kallsyms
	mount -o bind /tmp/kallsyms /proc/kallsyms
	chronoscope record -C x86-tsc -e sched:sched_switch -e sched:sched_wakeup \
		-o /out/guest-raw.dat -- /bin/pair-probe guest /dev/ttyS1
EOF
chmod 755 "$root/init" "$root/scenario.sh"
cs_guest_copy_modules "$kver" "$root" || die "cannot give the guest its virtio modules"
cs_guest_copy_exe "$chronoscope" "$root"
mv "$root$chronoscope" "$root/bin/chronoscope"
(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$work/initramfs.cpio.gz"

# --- The clock's conversion -------------------------------------------------

# The kernel's own conversion (perf's time_mult and time_shift, which
# trace-cmd writes) when it offers one, else from the measured frequency.
${CC:-cc} -O2 -o "$work/tsc-khz" "$srcroot/tests/kmod/tsc-khz.c"
khz=$("$work/tsc-khz")
if conversion=$("$work/pair-probe" tsc2nsec 2>/dev/null); then
	tsc_mult=${conversion% *}
	tsc_shift=${conversion#* }
	say "host TSC at $khz kHz; the kernel's TSC2NSEC: multiplier $tsc_mult, shift $tsc_shift"
else
	tsc_shift=31
	tsc_mult=$(( (1000000 << tsc_shift) / khz ))
	say "host TSC at $khz kHz: TSC2NSEC multiplier $tsc_mult, shift $tsc_shift (measured)"
fi

# --- The guest --------------------------------------------------------------

truncate -s 64M "$work/out.img"
truncate -s 1M "$work/spare.img"
pair_sock=$cs_qemu_rundir/pair.sock
cs_qemu_start "$work/qemu.log" \
	-accel tcg,thread=multi -m 1024 -smp 2 \
	-kernel "/boot/vmlinuz-$kver" -initrd "$work/initramfs.cpio.gz" \
	-display none -no-reboot -nic none \
	-serial "file:$work/console.log" \
	-serial "unix:$pair_sock,server=on,wait=off" \
	-drive "file=$work/out.img,format=raw,if=virtio" \
	-drive "file=$work/spare.img,format=raw,if=virtio" \
	-append "console=ttyS0 quiet panic=-1 tsc=reliable tsc_early_khz=$khz cs_guest_timeout=240"
qemu=$cs_qemu_pid
say "guest booting (QEMU pid $qemu)"
waited=0
until grep -q 'cs-pair: ready' "$work/console.log" 2>/dev/null; do
	kill -0 "$qemu" 2>/dev/null || { cat "$work/console.log"; die "the guest stopped"; }
	[ $waited -lt 300 ] || { cat "$work/console.log"; die "the guest is not ready after 300 s"; }
	sleep 1
	waited=$((waited + 1))
done
tids=$(cs_qemu_monitor "info cpus" | sed -n 's/.*CPU #\([0-9]*\):.*thread_id=\([0-9]*\).*/\1:\2/p' | tr -d '\r' | tr '\n' ',' | sed 's/,$//')
say "guest ready after $waited s; vCPU threads $tids"
# The host's sched events of the vCPU threads only: the machine's others
# would make the file ten times larger.
switch_filter=''
wakeup_filter=''
for t in $(echo "$tids" | tr ',' ' '); do
	t=${t#*:}
	switch_filter="${switch_filter:+$switch_filter || }prev_pid == $t || next_pid == $t"
	wakeup_filter="${wakeup_filter:+$wakeup_filter || }pid == $t"
done
[ -n "$switch_filter" ] || die "QEMU's monitor named no vCPU thread"

# --- The host, during the exchanges -----------------------------------------

: >"$work/kallsyms"
# shellcheck disable=SC2016
flock /var/tmp/chronoscope-tracefs.lock unshare -m sh -c '
	mount --bind "$1/kallsyms" /proc/kallsyms &&
	"$2" record -q -C x86-tsc -e sched:sched_switch -f "$5" -e sched:sched_wakeup -f "$6" \
		-o "$1/host-raw.dat" -- "$1/pair-probe" host "$3" "$4"' \
	sh "$work" "$chronoscope" "$pair_sock" "$count" "$switch_filter" "$wakeup_filter"

waited=0
while kill -0 "$qemu" 2>/dev/null; do
	[ $waited -lt 240 ] || { kill "$qemu"; die "the guest did not power off"; }
	sleep 1
	waited=$((waited + 1))
done
wait "$qemu" || true
cs_qemu_pid=
mkdir -p "$work/out"
tar xf "$work/out.img" -C "$work/out" 2>/dev/null || { cat "$work/console.log"; die "no results"; }
[ "$(cat "$work/out/scenario.rc")" = 0 ] || { cat "$work/console.log"; die "the guest scenario failed"; }
sed -n 's/^cs-pair: /  guest: /p' "$work/console.log"

# --- The pair ---------------------------------------------------------------

"$pair_tool" --vcpu-threads "$tids" --tsc2nsec "$tsc_mult,$tsc_shift" --guest-name cs-pair-guest \
	"$work/host-raw.dat" "$work/out/guest-raw.dat" \
	"$here/pair/pair-host-v6.dat" "$here/pair/pair-guest-v6.dat"
ls -l "$here/pair/pair-host-v6.dat" "$here/pair/pair-guest-v6.dat"
