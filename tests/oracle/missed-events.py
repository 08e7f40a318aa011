#!/usr/bin/env python3
"""Where `trace-cmd report` says a CPU's ring buffer lost events.

Usage: missed-events.py [--trace-cmd PATH] FILE.dat

Prints a JSON list, sorted by CPU then time:

  [{"cpu": 0, "ts_ns": 578834675525, "n_missed": 651}, ...]

report (3.1.6) prints "CPU:N [M EVENTS DROPPED]" (or "CPU:N [EVENTS
DROPPED]" when the kernel did not count: n_missed is then -1) just before
the first event it read from CPU N after the loss; that event's timestamp
(`report -t`: seconds and nanoseconds) is where the loss is.  Event header
lines are "COMM-PID [CPU] SECONDS.NANOS: NAME: ...", COMM being anything;
the first "[CPU] TS:" on the line is the one.  A loss with no event after
it on its CPU is listed with ts_ns null.  Only the top buffer is read
(report's default).  Python standard library only; exit 1 when trace-cmd
cannot read the file.
"""
import argparse
import json
import os
import re
import subprocess
import sys

DROPPED = re.compile(r"^CPU:(?P<cpu>\d+) \[(?:(?P<n>\d+) )?EVENTS DROPPED\]\s*$")
HEADER = re.compile(r"-\d+\s+\[(?P<cpu>\d+)\]\s+(?P<s>\d+)\.(?P<ns>\d{9}):")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--trace-cmd", default=os.environ.get("TRACE_CMD", "trace-cmd"))
    args = parser.parse_args()

    proc = subprocess.run([args.trace_cmd, "report", "-t", args.file],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    text = proc.stdout.decode("utf-8", "replace")
    if proc.returncode != 0 or not text.startswith("cpus="):
        sys.stderr.write("trace-cmd cannot read %s: %s\n"
                         % (args.file, proc.stderr.decode("utf-8", "replace").strip()))
        return 1

    pending = {}          # CPU -> losses waiting for that CPU's next event
    losses = []
    for line in text.splitlines():
        m = DROPPED.match(line)
        if m:
            loss = {"cpu": int(m.group("cpu")), "ts_ns": None,
                    "n_missed": int(m.group("n")) if m.group("n") is not None else -1}
            pending.setdefault(loss["cpu"], []).append(loss)
            losses.append(loss)
            continue
        m = HEADER.search(line)
        if m:
            cpu = int(m.group("cpu"))
            for loss in pending.pop(cpu, []):
                loss["ts_ns"] = int(m.group("s")) * 1000000000 + int(m.group("ns"))
    losses.sort(key=lambda l: (l["cpu"], l["ts_ns"] if l["ts_ns"] is not None else 1 << 63))
    json.dump(losses, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
