#!/usr/bin/env python3
"""List the events of Chronoscope's kernel module as `trace-cmd report` sees them.

Usage: kmod-events.py [--trace-cmd PATH] FILE.dat

Prints one JSON object on stdout:

  {"file": "FILE.dat",
   "events": [{"name": "irqs_off_begin", "cpu": 1, "ts_ns": 11584191265,
               "pid": 44, "comm": "kworker/1:1H",
               "fields": {"requested_ns": "20000000"}}, ...]}

in the order report prints them (time order).  It runs
`trace-cmd report -t -F chronoscope FILE` (-t: nanosecond timestamps, -F:
the module's trace system only, kmod/chronoscope_trace.h; an empty list when
the file's formats, `report -E`, lack that system) and splits each
header line "COMM-PID [CPU] SECONDS.NANOS: NAME: TEXT".  The fields are the
TEXT's "key=value" words as the module's TP_printk prints them (every event
but mark); mark's text is "text".  Exit 1 when trace-cmd cannot read the file.
Python standard library only.
"""
import argparse
import json
import re
import subprocess
import sys

HEADER = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+"
                    r"(?P<sec>\d+)\.(?P<frac>\d+):\s+(?P<name>[\w]+):\s*(?P<text>.*)$")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace-cmd", default="trace-cmd")
    parser.add_argument("file")
    args = parser.parse_args()

    # -F fails on a recording whose formats lack the system: ask first.
    formats = subprocess.run([args.trace_cmd, "report", "-E", args.file],
                             capture_output=True, text=True, errors="replace")
    if formats.returncode != 0:
        sys.stderr.write(f"trace-cmd report -E failed on {args.file}: {formats.stderr}")
        return 1
    if not re.search(r"^chronoscope:", formats.stdout, re.M):
        json.dump({"file": args.file, "events": []}, sys.stdout)
        print()
        return 0

    proc = subprocess.run([args.trace_cmd, "report", "-t", "-F", "chronoscope", args.file],
                          capture_output=True, text=True, errors="replace")
    if proc.returncode != 0 or not re.search(r"^cpus=\d+", proc.stdout, re.M):
        sys.stderr.write(f"trace-cmd report failed on {args.file}: {proc.stderr}")
        return 1

    events = []
    for line in proc.stdout.splitlines():
        m = HEADER.match(line)
        if m is None:
            continue
        frac = m["frac"]
        if len(frac) != 9:
            sys.stderr.write(f"not a nanosecond timestamp (report -t): {line}\n")
            return 1
        if m["name"] == "mark":
            fields = {"text": m["text"]}
        else:
            fields = dict(re.findall(r"(\w+)=(\S+)", m["text"]))
        events.append({"name": m["name"], "cpu": int(m["cpu"]),
                       "ts_ns": int(m["sec"]) * 1_000_000_000 + int(frac),
                       "pid": int(m["pid"]), "comm": m["comm"].strip(),
                       "fields": fields})
    json.dump({"file": args.file, "events": events}, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
