#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-trace.sh TRACE.DAT SLEEPER_PID
#
# Check the recording made by guest-scenario.sh:
#  - irqs_off_begin and irqs_off_end on the same CPU are 18-40 ms apart
#    (20 ms were requested) and the module measured the same;
#  - the sleeper's wakeup (sched_waking) fell inside the preempt-off
#    section, it ran only after the section ended, and a wakeup_latency
#    event over the threshold names it, with a latency between the end of
#    the section and the sched_switch that ran it;
#  - the two marks are there, with their text.
# Prints the figures and the wakeup_latency line; exits 1 on a mismatch.
#
# TODO(index): read the events through Chronoscope's own index instead of
# `trace-cmd report` once it can list them ($CS_CHRONOSCOPE, e.g.
# build/gui/chronoscope; `chronoscope info FILE` prints counts today).  Only
# list_events below has to change: it prints one line per event as
# "CPU TIMESTAMP_NS EVENT field=value ...".
set -eu

[ $# -eq 2 ] || { echo "usage: check-trace.sh TRACE.DAT SLEEPER_PID" >&2; exit 2; }
trace=$1
sleeper=$2

list_events() {
	trace-cmd report -R -t "$1" 2>/dev/null | awk '
	match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: [a-z_0-9]+: */) {
		head = substr($0, RSTART, RLENGTH)
		fields = substr($0, RSTART + RLENGTH)
		split(head, h, /[^0-9a-z_.]+/)
		split(h[3], t, ".")
		printf "%d %d%s %s %s\n", h[2], t[1], substr(t[2] "000000000", 1, 9), h[4], fields
	}'
}

events=$(mktemp "${TMPDIR:-/tmp}/cs-check-trace.XXXXXX")
trap 'rm -f "$events"' EXIT
list_events "$trace" >"$events"
[ -s "$events" ] || { echo "check-trace: FAIL: no events in $trace"; exit 1; }

awk -v sleeper="$sleeper" '
function field(name,    i, n, kv) {
	n = split(fields, kv, " ")
	for (i = 1; i <= n; i++)
		if (index(kv[i], name "=") == 1)
			return substr(kv[i], length(name) + 2)
	return ""
}
function ms(ns) {
	return sprintf("%.3f ms", ns / 1e6)
}
function bad(msg) {
	print "check-trace: FAIL: " msg
	failed = 1
}
{
	cpu = $1; ts = $2; ev = $3
	fields = $0
	sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", fields)
}
ev == "irqs_off_begin" && !irq_end { irq_begin = ts; irq_cpu = cpu }
ev == "irqs_off_end" && irq_begin && !irq_end && cpu == irq_cpu {
	irq_end = ts; irq_measured = field("measured_ns") + 0
}
ev == "preempt_off_begin" && !pre_end { pre_begin = ts; pre_cpu = cpu }
ev == "preempt_off_end" && pre_begin && !pre_end && cpu == pre_cpu { pre_end = ts }
# The sleeper may have been woken before (by its own migration to CPU 1):
# the wakeup that counts is the last one before its wakeup_latency event,
# and the sched_switch that ran it follows that event.
ev == "sched_waking" && field("pid") == sleeper && !lat_line { waking = ts }
ev == "wakeup_latency" && field("pid") == sleeper && !lat_line {
	lat_line = $0; lat_ns = field("latency_ns") + 0; lat_thr = field("threshold_ns") + 0
	lat_cpu = field("target_cpu") + 0
}
ev == "sched_switch" && field("next_pid") == sleeper && lat_line && !ran { ran = ts }
ev == "mark" { n_marks++ }
ev == "mark" && index(fields, "text=irqs-off 20 ms on CPU 1") == 1 { irq_mark = 1 }
END {
	if (!irq_begin || !irq_end) {
		bad("no irqs_off_begin/irqs_off_end pair")
	} else {
		d = irq_end - irq_begin
		printf "irqs-off section: %s from irqs_off_begin to irqs_off_end on CPU %d (module measured %s)\n", ms(d), irq_cpu, ms(irq_measured)
		if (d < 18e6 || d > 40e6)
			bad("irqs-off section lasted " ms(d) ", not 18-40 ms")
		if (irq_measured < 18e6 || irq_measured > 40e6)
			bad("the module measured " ms(irq_measured) ", not 18-40 ms")
	}
	if (!pre_begin || !pre_end) {
		bad("no preempt_off_begin/preempt_off_end pair")
	} else {
		printf "preempt-off section: %s on CPU %d\n", ms(pre_end - pre_begin), pre_cpu
	}
	if (!lat_line) {
		bad("no wakeup_latency event for pid " sleeper)
	} else {
		if (lat_ns <= lat_thr)
			bad("latency " lat_ns " ns is not over the threshold " lat_thr " ns")
		if (lat_cpu != pre_cpu)
			bad("woken onto CPU " lat_cpu ", not the preempt-off CPU " pre_cpu)
	}
	if (!waking || !ran) {
		bad("no sched_waking then sched_switch for pid " sleeper)
	} else {
		d = ran - waking
		printf "sleeper %s: sched_waking -> sched_switch %s in the recording, module said %s\n", sleeper, ms(d), ms(lat_ns)
		if (waking < pre_begin || waking > pre_end)
			bad("the sleeper was not woken during the preempt-off section")
		if (ran < pre_end)
			bad("the sleeper ran before the preempt-off section ended")
		# The task could run only after the section ended.  The module
		# reads its clock just before sched_waking and sched_switch are
		# recorded, and QEMU can stall a guest CPU between the two for a
		# few milliseconds, so bound the module figure by the recording
		# rather than demand equality.
		lo = pre_end - waking - 5e6
		hi = d + 20e6
		if (lat_line && (lat_ns < lo || lat_ns > hi))
			bad("the module latency " ms(lat_ns) " is outside " ms(lo) " .. " ms(hi) " given by the recording")
	}
	if (n_marks < 2)
		bad("expected 2 mark events, found " n_marks + 0)
	if (!irq_mark)
		bad("no mark event with the text written before the irqs-off section")
	exit failed
}' "$events"

echo "the wakeup_latency event, as trace-cmd report prints it:"
trace-cmd report -t -F chronoscope/wakeup_latency "$trace" 2>/dev/null |
	grep " pid=$sleeper "
