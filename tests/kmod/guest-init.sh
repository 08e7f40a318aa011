#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the kmod test guest (see run-guest-test.sh): mount the kernel
# file systems, attach the virtio disks, run /scenario.sh with its output
# in /out, write /out as a tar archive onto the first disk and power off.
# cs_guest_timeout=SECONDS on the kernel command line bounds the scenario.

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /out
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
# The kmod plugin, whose pass the demos read (run-guest-test.sh).
export CHRONOSCOPE_PLUGIN_PATH=/plugins

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug

for m in virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev \
	 virtio_pci virtio_blk; do
	insmod /modules/$m.ko || echo "guest: cannot load $m"
done
i=0
while { [ ! -b /dev/vda ] || [ ! -b /dev/vdb ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

# The kernel's symbols go to the second disk at once, so that the host can
# name the addresses where a guest that never finishes is stuck.
[ -b /dev/vdb ] && grep ' [tT] ' /proc/kallsyms | dd of=/dev/vdb bs=64k conv=fsync 2>/dev/null
echo "guest: Linux $(uname -r), $(nproc) CPUs, $(dmesg | sed -n 's/.*tsc: Detected \(.*\) processor/TSC at \1/p')"
# The scenario's output goes to the console as it runs and to
# /out/guest.log.  If it has not finished after $limit seconds, the
# blocked tasks and the CPUs' backtraces are shown, rather than a silent
# timeout on the host.
limit=${cs_guest_timeout:-120}
(
	sh /scenario.sh
	echo $? >/out/scenario.rc
) 2>&1 | tee /out/guest.log &
waited=0
while [ ! -e /out/scenario.rc ]; do
	if [ $waited -ge "$limit" ]; then
		echo "guest: scenario still running after $limit s"
		echo w >/proc/sysrq-trigger
		echo l >/proc/sysrq-trigger
		sleep 1
		dmesg | tail -n 400
		ps
		echo 124 >/out/scenario.rc
		break
	fi
	sleep 1
	waited=$((waited + 1))
done
[ "$(cat /out/scenario.rc)" = 124 ] || wait
dmesg >/out/dmesg.txt

if [ -b /dev/vda ]; then
	tar cf /dev/vda -C /out .
	sync
else
	echo "guest: no /dev/vda, results lost"
fi
poweroff -f
