#!/usr/bin/env python3
"""The values of one number field of one event type, as `trace-cmd report`
prints them.

Usage: field-values.py [--trace-cmd PATH] FILE.dat SYSTEM:EVENT FIELD
                       [--cpu N | --pid N | --where NAME=VALUE]

Prints a JSON list in report's order (time, then CPU):

  [[ts_ns, cpu, pid, value], ...]

It runs `trace-cmd report -t -R -F SYSTEM/EVENT FILE`: -R prints every
field of the event's format as NAME=VALUE in decimal (or 0x hex), -t the
timestamp in nanoseconds, and -F keeps that event type only (trace-cmd
anchors both parts).  A header line is "COMM-PID [CPU] SECONDS.NANOS:
EVENT: FIELDS", COMM being anything (the first "-PID [CPU] TS:" on the
line ends it); PID is common_pid.  --cpu keeps the events of one CPU's
ring buffer, --pid those of one common_pid, --where those whose field
NAME has VALUE.  Python standard library only; exit 1 when trace-cmd
cannot read the file.
"""
import argparse
import json
import os
import re
import subprocess
import sys

HEADER = re.compile(r"^\s*.*?-(?P<pid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<s>\d+)\.(?P<ns>\d{9}):"
                    r"\s+(?P<name>[^:\s]+):\s*(?P<fields>.*)$")


def field_value(fields, name):
    m = re.search(r"(?:^|\s)" + re.escape(name) + r"=(\S+)", fields)
    if m is None:
        return None
    return int(m.group(1), 0)


def field_values(text, event, args, where):
    """[ts, cpu, pid, value] of each matching event in the report's text."""
    values = []
    for line in text.splitlines()[1:]:
        m = HEADER.match(line)
        if m is None or m.group("name") != event:
            continue
        cpu, pid = int(m.group("cpu")), int(m.group("pid"))
        fields = m.group("fields")
        if args.cpu is not None and cpu != args.cpu:
            continue
        if args.pid is not None and pid != args.pid:
            continue
        if where is not None and field_value(fields, where[0]) != int(where[1], 0):
            continue
        value = field_value(fields, args.field)
        if value is None:
            continue
        ts = int(m.group("s")) * 1000000000 + int(m.group("ns"))
        values.append([ts, cpu, pid, value])
    return values


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("event", help="SYSTEM:EVENT")
    parser.add_argument("field")
    parser.add_argument("--cpu", type=int)
    parser.add_argument("--pid", type=int)
    parser.add_argument("--where")
    parser.add_argument("--trace-cmd", default=os.environ.get("TRACE_CMD", "trace-cmd"))
    args = parser.parse_args()

    system, event = args.event.split(":", 1)
    where = args.where.split("=", 1) if args.where else None
    # trace-cmd 3.1.6 was seen, rarely and only on a loaded machine, to print
    # nothing, or its "cpus=" line and no event, with nothing on stderr and
    # exit 0, for a recording it reads in full every other time (hundreds of
    # runs made to reproduce it never did).  Read twice before saying it
    # cannot be read or holds no such value, and say on stderr what came.
    for attempt in range(2):
        proc = subprocess.run([args.trace_cmd, "report", "-t", "-R", "-F", system + "/" + event,
                               args.file], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        text = proc.stdout.decode("utf-8", "replace")
        err = proc.stderr.decode("utf-8", "replace").strip()
        if proc.returncode != 0 or not text.startswith("cpus="):
            sys.stderr.write("trace-cmd cannot read %s (exit %d, %d bytes out, attempt %d): %s\n"
                             % (args.file, proc.returncode, len(text), attempt + 1, err))
            if err or attempt == 1:
                return 1
            continue
        values = field_values(text, event, args, where)
        if values:
            break
        sys.stderr.write("%s: no %s value in %d lines of trace-cmd report (attempt %d)\n"
                         % (args.file, args.field, text.count("\n"), attempt + 1))
    json.dump(values, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
