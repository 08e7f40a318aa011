#!/usr/bin/env python3
"""Every event of a trace.dat and the raw fields of a sample, as `trace-cmd
report -R -t` (3.1.6) prints them.

Usage: report-fields.py [--every N] [--trace-cmd PATH] FILE.dat

Prints one JSON object on stdout:

  {"file": "FILE.dat",
   "events": [[cpu, ts_ns, "name"], ...],        # every event of the top
                                                  # buffer, in report's order
   "samples": [{"cpu": 1, "ts": 575580068992, "name": "sched_process_fork",
                "fields": {"parent_comm": "make-recordings", ...}}, ...]}

-R prints each field of the event's format raw (libtraceevent's
tep_print_field: numbers in decimal, pointers and longs in hex, char
arrays as text) as NAME=VALUE after the event name; a value runs to the
next " NAME=" (names are C identifiers).  -t prints timestamps in ns.
The samples are the first event of each name on each CPU and every N-th
event (default 25).  Lines of instance buffers (prefixed "NAME: ") are
left out: Chronoscope's tables show them too, but these checks look at
the top buffer.  Exit 1 when trace-cmd cannot read the file (as
report-counts.py, whose rules for header lines, buffers and v7 zlib files
this reuses).  Python standard library only.
"""

import argparse
import importlib.util
import json
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("report_counts", os.path.join(HERE, "report-counts.py"))
rc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rc)

FIELD = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=")


def parse_fields(text):
    fields = {}
    matches = list(FIELD.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        fields[m.group(1)] = text[m.end():end].rstrip()
    return fields


def ts_ns(text):
    sec, _, frac = text.partition(".")
    return int(sec) * 1000000000 + int((frac + "000000000")[:9])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--every", type=int, default=25)
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("file")
    args = ap.parse_args()

    oracle = rc.Oracle(args.trace_cmd, args.file)
    events, samples, seen = [], [], set()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            path, _ = rc.uncompressed_copy(args.trace_cmd, args.file, tmp)
            for line in oracle._stream(["report", "-R", "-t", path]):
                m = oracle.header.match(line)
                if not m or (m.groupdict().get("buf") or ""):
                    continue
                cpu, ts, name = int(m.group("cpu")), ts_ns(m.group("ts")), m.group("name")
                events.append([cpu, ts, name])
                key = (cpu, name)
                if key not in seen or len(events) % args.every == 0:
                    seen.add(key)
                    samples.append({"cpu": cpu, "ts": ts, "name": name,
                                    "fields": parse_fields(line[m.end():])})
        except rc.ReportError as e:
            print("report-fields: %s: %s" % (args.file, e), file=sys.stderr)
            return 1
    json.dump({"file": args.file, "events": events, "samples": samples}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
