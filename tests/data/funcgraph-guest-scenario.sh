#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Guest scenario of make-funcgraph-recording.sh, run by tests/kmod/guest-init.sh
# in the QEMU guest (function tracing is refused on the host, the guest's
# Debian kernel allows it): one short recording of a known command with
# trace-cmd, plus the scheduler's switches so that the task plot has states.
# $tracer (set by make-funcgraph-recording.sh before this text) chooses it:
# function_graph with the graph depth limited to 3, or function limited to
# the VFS's vfs_* functions, so that the file stays small.  For function,
# the file's kallsyms is cut to what it needs too: a copy holding the
# vfs_* text symbols and, for each, the next symbol up (libtraceevent
# bounds a function by it) is bind-mounted over /proc/kallsyms, which
# trace-cmd copies into the file.
# Leaves /out/funcgraph-v7.dat or /out/function-v7.dat, and /out/funcgraph.log.

log() {
	read -r up _ </proc/uptime
	echo "guest: [$up] $*"
}

case ${tracer:-function_graph} in
function_graph)
	out=/out/funcgraph-v7.dat
	set -- -p function_graph --max-graph-depth 3 ;;
function)
	out=/out/function-v7.dat
	sort /proc/kallsyms | awk 'keep { print; keep = 0 }
		$2 ~ /^[tT]$/ && $3 ~ /^vfs_/ && NF == 3 { print; keep = 1 }' >/tmp/kallsyms
	mount --bind /tmp/kallsyms /proc/kallsyms
	log "kallsyms cut to $(wc -l </tmp/kallsyms) symbols"
	set -- -p function -l 'vfs_*' ;;
esac

mkdir -p /tmp/fg && cd /tmp/fg || exit 1
log "recording $* of ls -lR /sys/kernel/tracing/events/sched"
trace-cmd record "$@" -F \
	-e sched:sched_switch -e sched:sched_wakeup \
	--file-version 7 --compression zstd -o "$out" \
	ls -lR /sys/kernel/tracing/events/sched >/out/funcgraph.log 2>&1 || {
	cat /out/funcgraph.log
	exit 1
}
tail -n 5 /out/funcgraph.log
ls -l "$out"
