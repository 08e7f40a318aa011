#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The suite's QEMU and Xvfb set-ups from a folder deeper than a UNIX
# socket's path may be (sun_path: 108 bytes), as a build folder is when the
# clone lies deep: a path under it cannot name a socket.
#
# Usage: test-deep-paths.sh BASE [LAUNCHER...]
#
#   BASE      where to make the deep folder (the build's tests/kmod); it is
#             removed afterwards
#   LAUNCHER  the window tests' launcher and a program to run under it:
#             xvfb-run gui_test_launcher... check-session (tests/gui)
#
# From the deep folder, with TMPDIR pointing into it too:
#   1. QEMU, started as run-guest-test.sh starts the guest (qemu-guest.sh:
#      cs_qemu_rundir_make, cs_qemu_start, cs_qemu_monitor), paused (-S)
#      with no kernel, answers "info status" on its monitor socket, quits
#      when told to, and its socket folder is removed;
#   2. the launcher gives the program a display and a session bus.
# TAP output; a part whose tool is missing is skipped.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
base=${1:?usage: test-deep-paths.sh BASE [LAUNCHER...]}
shift

# shellcheck source=tests/kmod/qemu-guest.sh
. "$here/qemu-guest.sh"

top=$base/deep-paths
deep=$top
while [ "${#deep}" -le 120 ]; do
	deep=$deep/a-folder-as-deep-as-a-clone-may-lie
done
rm -rf "$top"
mkdir -p "$deep"

cleanup() {
	[ -z "$cs_qemu_pid" ] || kill "$cs_qemu_pid" 2>/dev/null || true
	cs_qemu_rundir_remove
	rm -rf "$top"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

cd "$deep"
TMPDIR=$deep
export TMPDIR

echo "1..2"
echo "# working folder ($(printf %s "$deep" | wc -c) bytes): $deep"
echo "# a socket there would be $(printf %s "$deep/monitor.sock" | wc -c) bytes long"

# --- 1. QEMU ----------------------------------------------------------------

qemu_check() {
	cs_qemu_rundir_make
	rundir=$cs_qemu_rundir
	echo "# monitor socket: $(cs_qemu_monitor_socket)"
	cs_qemu_start "$deep/qemu.log" -accel tcg -S -m 64 -display none \
		-nodefaults -no-reboot -nic none
	if ! status=$(cs_qemu_monitor "info status"); then
		sed 's/^/# qemu: /' "$deep/qemu.log"
		return 1
	fi
	printf '%s\n' "$status" | tr -d '\r' | sed -n 's/^\(VM status.*\)/# \1/p'
	printf '%s\n' "$status" | grep -q 'VM status: paused' || {
		echo "# the monitor did not say the VM is paused:"
		printf '%s\n' "$status" | sed 's/^/#   /'
		return 1
	}
	cs_qemu_monitor quit >/dev/null || true
	n=0
	while kill -0 "$cs_qemu_pid" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -le 100 ] || { echo "# QEMU did not quit within 10 s"; return 1; }
		sleep 0.1
	done
	rc=0
	wait "$cs_qemu_pid" || rc=$?
	cs_qemu_pid=
	[ "$rc" = 0 ] || { echo "# QEMU exited with $rc"; sed 's/^/# qemu: /' "$deep/qemu.log"; return 1; }
	cs_qemu_rundir_remove
	[ ! -e "$rundir" ] || { echo "# $rundir is still there"; return 1; }
}

if ! command -v qemu-system-x86_64 >/dev/null; then
	echo "ok 1 - QEMU's monitor socket from a deep folder # SKIP qemu-system-x86_64 is not installed"
elif qemu_check; then
	echo "ok 1 - QEMU's monitor socket from a deep folder"
else
	echo "not ok 1 - QEMU's monitor socket from a deep folder"
fi

# --- 2. Xvfb and the session bus ---------------------------------------------

if [ "$#" -eq 0 ]; then
	echo "ok 2 - the window tests' launcher from a deep folder # SKIP no launcher (gui_tests is off)"
elif out=$("$@" 2>&1); then
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "ok 2 - the window tests' launcher from a deep folder"
else
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "not ok 2 - the window tests' launcher from a deep folder"
fi
