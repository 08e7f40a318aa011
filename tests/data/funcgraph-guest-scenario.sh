#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest scenario of make-funcgraph-recording.sh, run by tests/kmod/guest-init.sh
# in the QEMU guest (function tracing is refused on the host, the guest's
# Debian kernel allows it): one short function_graph recording of a known
# command with trace-cmd, graph depth limited to 3 so that the file stays
# small, plus the scheduler's switches so that the task plot has states.
# Leaves /out/funcgraph-v7.dat and /out/funcgraph.log.

log() {
	read -r up _ </proc/uptime
	echo "guest: [$up] $*"
}

mkdir -p /tmp/fg && cd /tmp/fg || exit 1
log "recording function_graph (depth 3) of ls -lR /sys/kernel/tracing/events/sched"
trace-cmd record -p function_graph --max-graph-depth 3 -F \
	-e sched:sched_switch -e sched:sched_wakeup \
	--file-version 7 --compression zstd -o /out/funcgraph-v7.dat \
	ls -lR /sys/kernel/tracing/events/sched >/out/funcgraph.log 2>&1 || {
	cat /out/funcgraph.log
	exit 1
}
tail -n 5 /out/funcgraph.log
ls -l /out/funcgraph-v7.dat
