#!/usr/bin/env python3
"""Who ran on each CPU, and whether the switches around each run were all
recorded, as `trace-cmd report` sees them.

Usage: cpu-slices.py [--trace-cmd PATH] FILE.dat

Prints JSON: [[cpu, begin_ns, end_ns, pid, switched, same_task, next_comm,
next_prio], ...],
by CPU and begin.  Written from the meaning of CS_SLICE_SWITCHED and
CS_SLICE_SAME_TASK (index/model/cs-document.h, the SQL table
sched_slices' columns `switched` and `same_task`), not from the index's
code.  From one `trace-cmd report -t -R` of the top buffer, per CPU in
report order:

- a run of prev_pid ends at each sched_switch; it began at the switch
  before (or at the CPU's first event, before its first switch); the
  task that ran since the CPU's last switch runs to its last event;
- a switch is *seen* when the switch before it on that CPU switched in
  its prev_pid (the CPU's first switch is not);
- runs of pid 0 (idle) and runs of zero length are not slices;
- a slice is switched when the switch that ended it is seen and so was
  every switch since the end of the CPU's slice before (the first run
  and the last, which no switch ends, are not);
- a switched slice has same_task when the switch that began it had the
  next_comm and next_prio of the one that began the task's switched
  slice before on that CPU (none: not);
- a slice that a switch to its task began (the switch before it on that
  CPU, when that switch's next_pid is the slice's pid) has that switch's
  next_comm and next_prio; others have null for both.
"""
import argparse
import json
import re
import subprocess
import sys

HEADER = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+"
                    r"(?P<sec>\d+)\.(?P<frac>\d+):\s+(?P<name>[\w]+):\s*(?P<text>.*)$")
SWITCH = re.compile(r"prev_comm=(?P<pcomm>.*?) prev_pid=(?P<ppid>-?\d+) prev_prio=(?P<pprio>-?\d+)"
                    r" prev_state=\S+ next_comm=(?P<ncomm>.*?) next_pid=(?P<npid>-?\d+)"
                    r" next_prio=(?P<nprio>-?\d+)")


def events(trace_cmd, path):
    proc = subprocess.run([trace_cmd, "report", "-t", "-R", path], capture_output=True,
                          text=True, errors="replace")
    if proc.returncode != 0 or not re.search(r"^cpus=\d+", proc.stdout, re.M):
        sys.stderr.write(f"trace-cmd report cannot read {path}: {proc.stderr}")
        sys.exit(1)
    for line in proc.stdout.splitlines():
        m = HEADER.match(line)
        if m is None:
            continue
        ts = int(m["sec"]) * 1000000000 + int((m["frac"] + "000000000")[:9])
        s = SWITCH.search(m["text"]) if m["name"] == "sched_switch" else None
        yield int(m["cpu"]), ts, s


def slices(trace_cmd, path):
    cpus = {}
    for cpu, ts, s in events(trace_cmd, path):
        c = cpus.setdefault(cpu, {"first": ts, "last": ts, "running": None, "since": ts,
                                  "begin_task": None, "clean": False, "runs": {}, "out": []})
        c["last"] = ts
        if s is None:
            continue
        prev_pid, next_pid = int(s["ppid"]), int(s["npid"])
        seen = c["running"] is not None and c["running"] == prev_pid
        if not seen:
            c["clean"] = False
        begin = c["since"] if c["running"] is not None else c["first"]
        store(c, cpu, prev_pid, begin, ts, c["clean"], c["begin_task"] if seen else None)
        c["running"], c["since"] = next_pid, ts
        c["begin_task"] = (s["ncomm"], int(s["nprio"]))
    out = []
    for cpu in sorted(cpus):
        c = cpus[cpu]
        if c["running"] is not None:
            store(c, cpu, c["running"], c["since"], c["last"], False, c["begin_task"])
        out += c["out"]
    return out


def store(c, cpu, pid, begin, end, switched, began):
    if pid == 0 or end <= begin:
        return
    same = False
    if switched:
        same = c["runs"].get(pid) == c["begin_task"]
        c["runs"][pid] = c["begin_task"]
    else:
        c["runs"].pop(pid, None)
    comm, prio = began if began is not None else (None, None)
    c["out"].append([cpu, begin, end, pid, int(switched), int(same), comm, prio])
    c["clean"] = True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace-cmd", default="trace-cmd")
    parser.add_argument("file")
    args = parser.parse_args()
    json.dump(slices(args.trace_cmd, args.file), sys.stdout)


if __name__ == "__main__":
    main()
