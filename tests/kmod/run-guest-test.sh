#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Test kmod/ in a real kernel: build chronoscope_tracer.ko against Debian's
# kernel, boot that kernel in QEMU (TCG) with a busybox initramfs holding
# the module and the chronoscope executable, run guest-scenario.sh there
# (load, reload under load, then the classroom demos wakeup-latency,
# irqs-off and preemption with `chronoscope demo`, which records with
# Chronoscope's own recorder) and check the recordings on the host with
# Chronoscope's index (check-demos.py).
#
# Needs: linux-image-amd64 linux-headers-amd64 qemu-system-x86
# busybox-static trace-cmd cpio make (installed with apt-get when missing and
# running as root, unless CS_KMOD_NO_INSTALL=1; otherwise the test is
# skipped with exit code 77).
#
# Environment:
#   CS_KMOD_WORKDIR         where to build (default: a new dir in $TMPDIR)
#   CS_KMOD_KEEP=1          keep the work dir (it is printed)
#   CS_KMOD_KERNEL_RELEASE  the guest kernel (default: newest /boot/vmlinuz-*
#                           with headers)
#   CS_KMOD_QEMU_TIMEOUT    seconds before the guest is killed, after its
#                           CPUs' registers are shown (default 300)
#   CS_KMOD_GUEST_TIMEOUT   seconds the scenario may run in the guest before
#                           its blocked tasks are shown (default 120)
#   CS_CHRONOSCOPE          the chronoscope executable (default: the build's,
#                           build/gui/chronoscope, found from $MESON_BUILD_ROOT)
#   CS_KMOD_PLUGIN          the built kmod plugin (cs-kmod.so): the demos read
#                           the module's sections from its pass; the guest
#                           finds it in /plugins (CHRONOSCOPE_PLUGIN_PATH)
#   CS_KMOD_WINDOW_TEST     test-demo-window, run on the recordings under Xvfb
#                           (set by meson when gui_tests is on)
#   CS_KMOD_TCG_THREAD      single (default) or multi: QEMU's TCG threading
#   CS_KMOD_SCENARIO        another guest scenario to run (for debugging,
#                           or to make a recording; the recording is then
#                           not checked)
#   CS_KMOD_EXTRA_BINS      more host executables (absolute paths, space
#                           separated) put in the guest's /bin with their
#                           shared libraries, for such a scenario (trace-cmd)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
srcroot=$(cd "$here/../.." && pwd)

say() {
	echo "kmod-test: $*"
}

skip() {
	say "SKIP: $*"
	exit 77
}

die() {
	say "FAIL: $*"
	exit 1
}

# shellcheck source=tests/kmod/qemu-guest.sh
. "$here/qemu-guest.sh"

# A guest that does not finish: show where its CPUs are, through the QEMU
# monitor, with kernel addresses named from the guest's own kallsyms, which
# it wrote to its second disk at boot (Debian's System.map is a stub).
show_guest_cpus() {
	say "the guest did not finish in ${CS_KMOD_QEMU_TIMEOUT:-300} s; its CPUs:"
	cs_qemu_monitor "info registers -a" >"$work/registers.log" || true
	python3 - "$work/registers.log" "$work/kallsyms.img" <<-'PY' || true
		import bisect, sys
		with open(sys.argv[1], "rb") as f:
		    out = f.read()
		syms = []
		with open(sys.argv[2], "rb") as f:
		    for line in f.read().replace(b"\0", b"").decode().splitlines():
		        parts = line.split()
		        if len(parts) >= 3:
		            syms.append((int(parts[0], 16), parts[2]))
		syms.sort()
		addrs = [a for a, _ in syms]
		cpu = "?"
		for line in out.decode(errors="replace").splitlines():
		    if line.startswith("CPU#"):
		        cpu = line[4:].strip()
		    elif line.startswith("RIP="):
		        rip = int(line[4:20], 16)
		        i = bisect.bisect_right(addrs, rip) - 1
		        where = "%s+0x%x" % (syms[i][1], rip - syms[i][0]) if i >= 0 and rip >= 1 << 63 else "user space"
		        print("  CPU %s at %s, %s" % (cpu, where, line.strip()))
	PY
}

# --- Packages ---------------------------------------------------------------

have_pkg() {
	dpkg-query -W -f '${Status}' "$1" 2>/dev/null | grep -q 'ok installed'
}

packages="linux-image-amd64 linux-headers-amd64 qemu-system-x86 busybox-static trace-cmd cpio make"
missing=
for p in $packages; do
	have_pkg "$p" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ] || [ -n "${CS_KMOD_NO_INSTALL:-}" ] ||
	   ! command -v apt-get >/dev/null; then
		skip "missing packages:$missing"
	fi
	say "installing$missing"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >/dev/null ||
	{ apt-get update -q >/dev/null &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >/dev/null; } ||
	skip "cannot install$missing"
fi

chronoscope=${CS_CHRONOSCOPE:-}
[ -n "$chronoscope" ] && [ -x "$chronoscope" ] ||
	die "no chronoscope executable (set CS_CHRONOSCOPE to build/gui/chronoscope)"
chronoscope=$(cd "$(dirname "$chronoscope")" && pwd)/$(basename "$chronoscope")
kmod_plugin=${CS_KMOD_PLUGIN:-}
[ -n "$kmod_plugin" ] && [ -r "$kmod_plugin" ] ||
	die "no kmod plugin (set CS_KMOD_PLUGIN to build/plugins/kmod/cs-kmod.so)"
kmod_plugin=$(cd "$(dirname "$kmod_plugin")" && pwd)/$(basename "$kmod_plugin")

# --- The guest kernel -------------------------------------------------------

kver=${CS_KMOD_KERNEL_RELEASE:-}
if [ -z "$kver" ]; then
	kver=$(for v in /boot/vmlinuz-*; do
		v=${v#/boot/vmlinuz-}
		[ -e "/lib/modules/$v/build/Makefile" ] && echo "$v"
	done | sort -V | tail -n 1)
fi
[ -n "$kver" ] || skip "no /boot/vmlinuz-* with headers in /lib/modules/*/build"
vmlinuz=/boot/vmlinuz-$kver
[ -r "$vmlinuz" ] || skip "$vmlinuz is not readable"
say "guest kernel $kver"

# --- Work directory ---------------------------------------------------------

if [ -n "${CS_KMOD_WORKDIR:-}" ]; then
	work=$CS_KMOD_WORKDIR
	mkdir -p "$work"
	# Only what an earlier run left there.
	(cd "$work" && rm -rf kbuild initramfs out ./*.img initramfs.cpio.gz \
		chronoscope_tracer.ko tsc-khz ./*.log host-check)
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/cs-kmod.XXXXXX")
fi
work=$(cd "$work" && pwd)
remove_work=
if [ -z "${CS_KMOD_KEEP:-}" ] && [ -z "${CS_KMOD_WORKDIR:-}" ]; then
	remove_work=1
else
	say "work dir $work"
fi
# QEMU's monitor socket: in a folder with a short path (qemu-guest.sh),
# whatever the depth of $work; removed with the guest's QEMU.
cs_qemu_rundir_make
cleanup() {
	[ -z "$cs_qemu_pid" ] || kill "$cs_qemu_pid" 2>/dev/null || true
	cs_qemu_rundir_remove
	[ -z "$remove_work" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start=$(date +%s)

# --- The module -------------------------------------------------------------

"$srcroot/kmod/build-module.sh" build "$work/kbuild" \
	"/lib/modules/$kver/build" "$work/chronoscope_tracer.ko" \
	>"$work/kbuild.log" 2>&1 ||
	{ cat "$work/kbuild.log"; die "the module does not build for $kver"; }

# --- The initramfs ----------------------------------------------------------

root=$work/initramfs
mkdir -p "$root/bin" "$root/modules"

busybox=$(command -v busybox || echo /bin/busybox)
if ldd "$busybox" >/dev/null 2>&1; then
	die "$busybox is not static (install busybox-static)"
fi
cp "$busybox" "$root/bin/busybox"
cp "$here/guest-init.sh" "$root/init"
cp "${CS_KMOD_SCENARIO:-$here/guest-scenario.sh}" "$root/scenario.sh"
chmod 755 "$root/init" "$root/scenario.sh"
cp "$work/chronoscope_tracer.ko" "$root/modules/"

cs_guest_copy_modules "$kver" "$root" || die "cannot give the guest its virtio modules"

# Chronoscope itself, with its shared libraries and the loader at their own
# paths: the demos record with its recorder.  It links GTK, but its
# commands never initialise it.
# CS_KMOD_EXTRA_BINS go to /bin the same way.
# The kmod plugin goes to /plugins the same way.
for exe in "$chronoscope" ${CS_KMOD_EXTRA_BINS:-} "$kmod_plugin"; do
	cs_guest_copy_exe "$exe" "$root"
	if [ "$exe" = "$kmod_plugin" ]; then
		mkdir -p "$root/plugins"
		mv "$root$exe" "$root/plugins/$(basename "$exe")"
	else
		mv "$root$exe" "$root/bin/$(basename "$exe")"
	fi
done

(cd "$root" && find . | cpio -o -H newc -R 0:0 --quiet) | gzip -1 \
	>"$work/initramfs.cpio.gz"

# --- Boot -------------------------------------------------------------------

truncate -s 256M "$work/out.img"
rm -f "$work/kallsyms.img"
truncate -s 16M "$work/kallsyms.img"
# The guest's TSC is the host's: tell the guest its frequency rather than
# let it calibrate against emulated timers, which fails on a busy host.
guest_clock=
if ${CC:-cc} -O2 -o "$work/tsc-khz" "$here/tsc-khz.c" 2>"$work/tsc-khz.log" &&
   khz=$("$work/tsc-khz") && [ "$khz" -gt 0 ]; then
	guest_clock="tsc_early_khz=$khz"
	say "host TSC at $khz kHz"
else
	say "cannot measure the host's TSC frequency; the guest calibrates it"
fi
# A kernel that locks up panics at once, printing every CPU's backtrace
# (loglevel=5 lets them through "quiet"), so the test fails in seconds.
kernel_debug="loglevel=5 softlockup_panic=1 softlockup_all_cpu_backtrace=1 hung_task_panic=1"
# One host thread runs both guest CPUs.  With multi-threaded TCG, the
# kernel patching a hot call site (text_poke_bp() when the module's
# probes on sched_waking come or go) left a stale translated int3 in
# try_to_wake_up(), and both CPUs trapped on it forever with interrupts
# off, about once in 50 runs.  Single-threaded TCG is as fast here.
say "booting the guest (TCG, 2 CPUs on one host thread)"
boot_start=$(date +%s)
cs_qemu_start "$work/qemu.log" \
	-accel "tcg,thread=${CS_KMOD_TCG_THREAD:-single}" -m 1024 -smp 2 \
	-kernel "$vmlinuz" -initrd "$work/initramfs.cpio.gz" \
	-display none -serial "file:$work/console.log" \
	-no-reboot -nic none \
	-drive "file=$work/out.img,format=raw,if=virtio" \
	-drive "file=$work/kallsyms.img,format=raw,if=virtio" \
	-append "console=ttyS0 quiet panic=-1 tsc=reliable $guest_clock $kernel_debug cs_guest_timeout=${CS_KMOD_GUEST_TIMEOUT:-120}"
qemu=$cs_qemu_pid
deadline=$(($(date +%s) + ${CS_KMOD_QEMU_TIMEOUT:-300}))
qemu_rc=
while kill -0 "$qemu" 2>/dev/null; do
	if [ "$(date +%s)" -ge "$deadline" ]; then
		show_guest_cpus
		kill "$qemu" 2>/dev/null || true
		qemu_rc=124
		break
	fi
	sleep 1
done
wait "$qemu" || qemu_rc=${qemu_rc:-$?}
cs_qemu_pid=
say "guest ran for $(($(date +%s) - boot_start)) s"
if [ -n "$qemu_rc" ]; then
	cat "$work/qemu.log" "$work/console.log"
	die "qemu exited with $qemu_rc (124: timed out)"
fi

mkdir -p "$work/out"
tar xf "$work/out.img" -C "$work/out" 2>/dev/null ||
	{ cat "$work/console.log"; die "the guest left no results on its disk"; }
sed -n 's/^guest: /  guest: /p' "$work/console.log"
if [ "$(cat "$work/out/scenario.rc" 2>/dev/null)" != 0 ]; then
	cat "$work/console.log"
	die "the guest scenario failed"
fi

# --- Check the recording ----------------------------------------------------

if [ -n "${CS_KMOD_SCENARIO:-}" ]; then
	say "PASS (scenario $CS_KMOD_SCENARIO, recording not checked)"
	exit 0
fi

python3 "$here/check-demos.py" "$chronoscope" "$work/out" ||
	die "the recordings do not show what the demos did"

# The window opens each recording as after a demo, with markers A and B
# around the latency (test-demo-window.c; screenshots in $work).
if [ -n "${CS_KMOD_WINDOW_TEST:-}" ]; then
	if command -v xvfb-run >/dev/null && command -v dbus-run-session >/dev/null; then
		say "opening the recordings in the window (Xvfb)"
		CS_DEMO_RECORDINGS=$work/out CS_SCREENSHOT_DIR=$work GDK_BACKEND=x11 \
		GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
		xvfb-run -a -s '-screen 0 1280x1024x24' dbus-run-session -- \
			"$CS_KMOD_WINDOW_TEST" --tap >"$work/window-test.log" 2>&1 ||
			{ cat "$work/window-test.log"; die "the window does not place the demos' markers"; }
		grep -E '^(ok|not ok)' "$work/window-test.log" | sed 's/^/  window: /'
	else
		die "xvfb-run or dbus-run-session is missing for the window test"
	fi
fi

say "PASS in $(($(date +%s) - start)) s"
