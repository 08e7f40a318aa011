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
3. Wakeup latency: Chronoscope's one wakeup rule, as latency-pairs.py
   writes it (wakeup_waits(): the first sched_waking, sched_wakeup or
   sched_wakeup_new of a sleeping task opens a wait, its next switch-in
   ends it; a wakeup of a running, woken or preempted task changes
   nothing; a switch-out drops an open wait), over the events of every
   CPU in time order, ties in CPU order.  A wakeup counts in the span the
   wakeup that opened its wait lies in; a wait the end of the recording
   cuts is none.  Percentiles are nearest-rank.

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
_spec = importlib.util.spec_from_file_location("latency_pairs", os.path.join(HERE, "latency-pairs.py"))
lp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(lp)

FIELD = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=(\S*)")
WAKEUPS = ("sched_waking", "sched_wakeup", "sched_wakeup_new")


def ts_ns(text):
    sec, _, frac = text.partition(".")
    return int(sec) * 1000000000 + int((frac + "000000000")[:9])


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
            if name == "sched_switch" or name in WAKEUPS:
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

    # Rule 1: runs per CPU.
    runs = []           # (cpu, pid, begin, end, prev_state)
    running = {}        # cpu -> (pid, since)
    for cpu, ts, name, f in events:
        if name == "sched_switch":
            prev_pid, next_pid = int(f["prev_pid"]), int(f["next_pid"])
            prev_state = int(f.get("prev_state", "0"))
            since = running[cpu][1] if cpu in running else cpu_first[cpu]
            runs.append((cpu, prev_pid, since, ts, prev_state))
            running[cpu] = (next_pid, ts)
    for cpu, (pid, since) in running.items():
        runs.append((cpu, pid, since, cpu_last[cpu], -1))

    busy = collections.Counter()
    runtime = collections.Counter()
    for cpu, pid, b, e, prev_state in runs:
        if pid == 0 or e <= b:
            continue
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
    stream = [{"type": "sched:" + name, "ts": ts, "cpu": cpu, "seq": seq,
               "text": "".join(" %s=%s" % kv for kv in f.items())}
              for seq, (cpu, ts, name, f) in enumerate(events)
              if name == "sched_switch" or (name in WAKEUPS and "pid" in f)]
    stream.sort(key=lambda e: (e["ts"], e["cpu"], e["seq"]))
    latencies = [switch["ts"] - wakeup["ts"]
                 for what, *rest in lp.wakeup_waits(stream) if what == "wait"
                 for wakeup, switch, _pid in [rest] if begin <= wakeup["ts"] < end]

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
