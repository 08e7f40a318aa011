# SPDX-License-Identifier: GPL-2.0-or-later
#
# qemu-guest.sh: how the tests start QEMU, talk to its monitor and fill
# the guest's initramfs, sourced by run-guest-test.sh (the kmod guest),
# test-deep-paths.sh (the same set-up from a build folder deeper than a
# UNIX socket path may be) and tests/data/make-host-guest-pair.sh.
#
# A UNIX socket's path must fit in sun_path (108 bytes with its NUL), so
# QEMU refuses a monitor socket under a deep build folder.  The socket goes
# into a private folder with a short name in /tmp (not $TMPDIR, which may
# be as deep), made by cs_qemu_rundir_make and removed by
# cs_qemu_rundir_remove; the guest's other files (disks, logs) stay in the
# caller's work folder, whose length does not matter.
#
# Shell: POSIX sh.  Variables set: cs_qemu_rundir, cs_qemu_pid.
# shellcheck shell=sh disable=SC2034

cs_qemu_rundir=
cs_qemu_pid=

# Makes $cs_qemu_rundir: a new folder, mode 0700, such as /tmp/cs.Ab12Cd.
cs_qemu_rundir_make() {
	cs_qemu_rundir=$(mktemp -d /tmp/cs.XXXXXX)
}

# Removes $cs_qemu_rundir and what is in it (no-op when there is none).
cs_qemu_rundir_remove() {
	if [ -n "$cs_qemu_rundir" ]; then
		rm -rf "$cs_qemu_rundir"
		cs_qemu_rundir=
	fi
}

# The monitor's socket (in $cs_qemu_rundir).
cs_qemu_monitor_socket() {
	echo "$cs_qemu_rundir/monitor.sock"
}

# cs_qemu_start LOG QEMU-ARG...: starts qemu-system-x86_64 in the
# background with QEMU-ARG... and its monitor on cs_qemu_monitor_socket
# (a server that does not wait for a client), stdin from /dev/null, stdout
# and stderr to LOG; sets cs_qemu_pid.  Call cs_qemu_rundir_make first.
cs_qemu_start() {
	_log=$1
	shift
	rm -f "$(cs_qemu_monitor_socket)"
	qemu-system-x86_64 \
		-monitor "unix:$(cs_qemu_monitor_socket),server=on,wait=off" \
		"$@" </dev/null >"$_log" 2>&1 &
	cs_qemu_pid=$!
}

# cs_qemu_monitor COMMAND: sends one human monitor command to the running
# QEMU and prints what the monitor answers within a second (its banner and
# prompts included).  Waits up to 10 s for QEMU to create the socket.
# Fails when it cannot connect.
cs_qemu_monitor() {
	python3 - "$(cs_qemu_monitor_socket)" "$1" <<-'PY'
		import socket, sys, time
		path, command = sys.argv[1], sys.argv[2]
		s = socket.socket(socket.AF_UNIX)
		deadline = time.monotonic() + 10
		while True:
		    try:
		        s.connect(path)
		        break
		    except (FileNotFoundError, ConnectionRefusedError) as e:
		        if time.monotonic() > deadline:
		            sys.exit("cannot connect to QEMU's monitor at %s: %s" % (path, e))
		        time.sleep(0.1)
		s.settimeout(1)
		s.sendall(command.encode() + b"\n")
		time.sleep(1)
		out = b""
		try:
		    while True:
		        chunk = s.recv(65536)
		        if not chunk:
		            break
		        out += chunk
		except socket.timeout:
		    pass
		sys.stdout.write(out.decode(errors="replace"))
	PY
}

# cs_guest_copy_modules KVER ROOT: puts the virtio modules the guest's init
# loads (tests/kmod/guest-init.sh: the PCI transport and the block driver,
# for its disks) into ROOT/modules, unpacked, from /lib/modules/KVER of
# Debian's kernel package.  Prints what is missing and fails without it.
cs_guest_copy_modules() {
	for _m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
		 virtio_pci virtio_blk; do
		_ko=$(find "/lib/modules/$1/kernel" -name "$_m.ko*" | head -n 1)
		case $_ko in
		*.ko) cp "$_ko" "$2/modules/$_m.ko" ;;
		*.ko.xz) xz -dc "$_ko" >"$2/modules/$_m.ko" ;;
		*.ko.zst) zstd -qdc "$_ko" >"$2/modules/$_m.ko" ;;
		*.ko.gz) gzip -dc "$_ko" >"$2/modules/$_m.ko" ;;
		'') echo "no $_m module for $1" >&2; return 1 ;;
		*) echo "cannot unpack $_ko" >&2; return 1 ;;
		esac || return 1
	done
}

# cs_guest_copy_exe EXE ROOT: copies EXE and the shared libraries ldd names
# for it (the loader too) into ROOT at their own paths, so that it runs in
# the guest as here; the caller moves EXE where the guest looks for it.
cs_guest_copy_exe() {
	for _f in "$1" $(ldd "$1" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) .*/\1/p'); do
		mkdir -p "$2$(dirname "$_f")"
		cp -L "$_f" "$2$_f"
	done
}
