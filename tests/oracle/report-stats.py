#!/usr/bin/env python3
"""Statistics of a span of a trace.dat, from `trace-cmd report -R -t` (3.1.6).

Usage: report-stats.py [--begin NS] [--end NS] [--trace-cmd PATH] FILE.dat

Prints one JSON object on stdout:

  {"begin": NS, "end": NS,                 # the span, clipped to the recording
   "n_events": N, "top_buffer_only": true,
   "tasks": {"PID": runtime_ns, ...},      # pid 0 (idle) left out
   "cpus": {"CPU": {"busy_ns": B, "n_events": N}, ...},
   "events": {"name": N, ...},             # report prints names only
   "wakeups": {"count": N, "min": .., "p50": .., "p90": .., "p99": .., "max": ..}}

The rules, from the kernel's sched events (include/trace/events/sched.h):

1. Who ran: on each CPU, a sched_switch ends the run of prev_pid, which began
   at the CPU's previous sched_switch or, for the first one, at the CPU's
   first event; the task switched in by the CPU's last sched_switch runs
   until the CPU's last event.  Runs of pid 0 (idle) are not CPU time; runs
   are clipped to the span.  A CPU's busy time is the sum of its runs.
2. Events: those whose timestamp is in [begin, end).
3. Wakeup latency: per task, in time order (at equal times sched_wakeup /
   sched_wakeup_new, then sched_waking, then a run starting), a
   sched_waking, sched_wakeup or sched_wakeup_new naming the task ("pid")
   starts a wait unless the task is already waiting to run (woken, or
   switched out with prev_state R / R+: preempted); the wait ends when a
   run of the task starts, and its length is the wakeup latency.  After a
   switch-out the task sleeps (prev_state S, D, I, ...) or waits (R, R+).
   A wait that ends at the very time it began is not counted, nor one the
   end of the recording cuts.  A wakeup counts in the span its sched_waking
   (or first sched_wakeup) lies in.  Percentiles are nearest-rank.

Only the top buffer is read (instance buffers are prefixed "NAME: " and
skipped; top_buffer_only says whether there were none).  Exit 1 when
trace-cmd cannot read the file.  Python standard library only.
"""

import argparse
import collections
import importlib.util
import json
import math
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("report_counts", os.path.join(HERE, "report-counts.py"))
rc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rc)

FIELD = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=(\S*)")
WAKEUP_KIND = {"sched_wakeup": 2, "sched_wakeup_new": 2, "sched_waking": 1}
RUN = 0


def ts_ns(text):
    sec, _, frac = text.partition(".")
    return int(sec) * 1000000000 + int((frac + "000000000")[:9])


def waits_after(prev_state):
    """Rule 3: True when the task switched out still runnable (R, R+)."""
    return prev_state >= 0 and (prev_state & 0xff) == 0


def percentile(values, p):
    return values[max(int(math.ceil(p / 100.0 * len(values))), 1) - 1]


def read_report(args, oracle):
    """Rule 2's events of the top buffer: (events, other_buffers, lines, unmatched)."""
    events = []         # (cpu, ts, name, fields or None)
    other_buffers = False
    n_lines = 0
    unmatched = []
    with tempfile.TemporaryDirectory() as tmp:
        path, _ = rc.uncompressed_copy(args.trace_cmd, args.file, tmp)
        for line in oracle._stream(["report", "-R", "-t", path]):
            n_lines += 1
            m = oracle.header.match(line)
            if not m:
                if len(unmatched) < 3:
                    unmatched.append(line)
                continue
            if m.groupdict().get("buf") or "":
                other_buffers = True
                continue
            name = m.group("name")
            fields = None
            if name == "sched_switch" or name in WAKEUP_KIND:
                fields = {k: v for k, v in FIELD.findall(line[m.end():])}
            events.append((int(m.group("cpu")), ts_ns(m.group("ts")), name, fields))
    return events, other_buffers, n_lines, unmatched


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--begin", type=int, default=None)
    ap.add_argument("--end", type=int, default=None)
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("file")
    args = ap.parse_args()

    oracle = rc.Oracle(args.trace_cmd, args.file)
    # (Reading twice when report printed nothing was a guard against
    # trace-cmd taking heap garbage for an empty TRACECLOCK option; the
    # tests' trace-cmd wrapper, tests/oracle/malloc0.c, removed the cause.)
    try:
        events, other_buffers, n_lines, unmatched = read_report(args, oracle)
    except rc.ReportError as e:
        print("report-stats: %s: %s" % (args.file, e), file=sys.stderr)
        return 1

    out = {"top_buffer_only": not other_buffers, "tasks": {}, "cpus": {}, "events": {},
           "n_events": 0, "wakeups": {"count": 0}}
    if not events:
        # No span to clip to: begin/end are left out.
        json.dump(out, sys.stdout)
        return 0
    first = min(e[1] for e in events)
    last = max(e[1] for e in events)
    begin = first if args.begin is None else max(args.begin, first)
    end = last + 1 if args.end is None else min(args.end, last + 1)
    out["begin"], out["end"] = begin, max(begin, end)

    cpu_first, cpu_last = {}, {}
    for cpu, ts, _, _ in events:
        cpu_first.setdefault(cpu, ts)
        cpu_last[cpu] = ts

    # Rule 1: runs per CPU; rows per task for rule 3.
    runs = []           # (cpu, pid, begin, end, prev_state)
    running = {}        # cpu -> (pid, since)
    rows = collections.defaultdict(list)    # pid -> [(ts, kind, duration, prev_state)]
    for cpu, ts, name, f in events:
        if name == "sched_switch":
            prev_pid, next_pid = int(f["prev_pid"]), int(f["next_pid"])
            prev_state = int(f.get("prev_state", "0"))
            since = running[cpu][1] if cpu in running else cpu_first[cpu]
            runs.append((cpu, prev_pid, since, ts, prev_state))
            running[cpu] = (next_pid, ts)
        elif name in WAKEUP_KIND and "pid" in f:
            rows[int(f["pid"])].append((ts, WAKEUP_KIND[name], 0, 0))
    for cpu, (pid, since) in running.items():
        runs.append((cpu, pid, since, cpu_last[cpu], -1))

    busy = collections.Counter()
    runtime = collections.Counter()
    for cpu, pid, b, e, prev_state in runs:
        if pid == 0 or e <= b:
            continue
        rows[pid].append((b, RUN, e - b, prev_state))
        part = min(e, end) - max(b, begin)
        if part > 0:
            busy[cpu] += part
            runtime[pid] += part

    # Rule 2.
    names = collections.Counter()
    cpu_events = collections.Counter()
    for cpu, ts, name, _ in events:
        if begin <= ts < end:
            names[name] += 1
            cpu_events[cpu] += 1

    # Rule 3.
    latencies = []
    for pid, task_rows in rows.items():
        if pid <= 0:
            continue
        task_rows.sort(key=lambda r: (r[0], -r[1]))
        known, waiting, woken_at = False, False, None
        for ts, kind, duration, prev_state in task_rows:
            if kind == RUN:
                if known and waiting and woken_at is not None and ts > woken_at \
                        and begin <= woken_at < end:
                    latencies.append(ts - woken_at)
                known = prev_state >= 0
                waiting = waits_after(prev_state)
                woken_at = None
            else:
                if known and waiting:
                    continue
                known, waiting, woken_at = True, True, ts

    out["n_events"] = sum(cpu_events.values())
    out["tasks"] = {str(p): v for p, v in runtime.items() if v > 0}
    out["cpus"] = {str(c): {"busy_ns": busy[c], "n_events": cpu_events[c]}
                   for c in sorted(set(cpu_first))}
    out["events"] = dict(names)
    latencies.sort()
    w = {"count": len(latencies)}
    if latencies:
        w.update(min=latencies[0], p50=percentile(latencies, 50), p90=percentile(latencies, 90),
                 p99=percentile(latencies, 99), max=latencies[-1])
    out["wakeups"] = w
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
