#!/usr/bin/env python3
"""Check report-counts.py itself (TAP output; exit 0 pass, 1 fail, 77 skip).

Usage: check-oracle.py [PUBLIC_DIR]

- On the public recordings (default: ../shared/testdata/public next to the
  repository, or $CS_PUBLIC_TESTDATA), the totals must be those written in
  their MANIFEST.md, as counted by `trace-cmd report` 3.1.6.
- On tests/data, the twins must agree, and the edge-case files must show
  what they were made for (missed events, two "print" events, a named
  buffer, a zlib file that this trace-cmd reads only once rewritten).
Skips (77) when trace-cmd is not installed.
"""

import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ORACLE = os.path.join(HERE, "report-counts.py")
DATA = os.path.join(ROOT, "tests", "data")

# Totals from shared/testdata/public/MANIFEST.md.
PUBLIC_TOTALS = {
    "lisa-rtapp-arm64-v6.dat": 7820,
    "trappy-thermal-arm32-v6.dat": 525,
    "sched-x86-v7-zstd.dat": 3562,
    "kstack-x86-v7-zstd.dat": 406,
    "empty-truncated-v6.dat": 0,
    "rpi-sched-arm32-v6.dat": 4427,
    "buildroot-fifo-i686-v6.dat": 1154,
    "empty-v7-zstd.dat": 0,
    "function-i686-v6.dat": 12527,
    "function-graph-i686-v6.dat": 21,
}

results = []


def check(ok, what):
    results.append((bool(ok), what))


def oracle(path, *extra):
    proc = subprocess.run([sys.executable, ORACLE] + list(extra) + [path],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = json.loads(proc.stdout) if proc.returncode in (0, 2) else None
    return proc.returncode, out


def main():
    if shutil.which(os.environ.get("TRACE_CMD", "trace-cmd")) is None:
        print("1..0 # SKIP trace-cmd is not installed")
        return 77
    public = (sys.argv[1] if len(sys.argv) > 1 else
              os.environ.get("CS_PUBLIC_TESTDATA",
                             os.path.join(ROOT, "..", "shared", "testdata", "public")))

    if os.path.isdir(public):
        for name, total in sorted(PUBLIC_TOTALS.items()):
            rc, out = oracle(os.path.join(public, name), "--check")
            check(rc == 0 and out["n_events"] == total
                  and sum(out["cpus"].values()) == total
                  and sum(out["events"].values()) == total,
                  "public %s: %d events" % (name, total))
        rc, out = oracle(os.path.join(public, "kstack-x86-v7-zstd.dat"))
        check(out and out["events"].get("ftrace:kernel_stack") == 203,
              "kstack: multi-line kernel_stack events count once (203)")

    twins = ["sched-irq-v7.dat", "sched-irq-v6.dat", "sched-irq-v7-nocompress.dat"]
    outs = [oracle(os.path.join(DATA, t), "--check") for t in twins]
    check(all(rc == 0 for rc, _ in outs), "sched-irq twins read and pass --check")
    keys = ("n_events", "cpus", "events", "missed_events")
    check(all(o and all(o[k] == outs[0][1][k] for k in keys) for _, o in outs),
          "sched-irq v7 zstd, v6 and v7 uncompressed give the same counts")
    first = outs[0][1] or {}
    check(len(first.get("cpus", {})) == 2 and "sched:sched_switch" in first.get("events", {}),
          "sched-irq has sched_switch on 2 CPUs")

    rc, out = oracle(os.path.join(DATA, "zlib", "sched-irq-v7-zlib.dat"), "--check")
    check(rc == 0 and out["via"] and all(out[k] == first.get(k) for k in keys),
          "zlib twin: read through an uncompressed rewrite, same counts as zstd")

    rc, out = oracle(os.path.join(DATA, "no-sched-v6.dat"), "--check")
    check(rc == 0 and out["n_events"] > 0
          and not any(e.startswith("sched:") for e in out["events"]),
          "no-sched has events and no sched event")

    rc, out = oracle(os.path.join(DATA, "missed-events-v7.dat"))
    check(rc == 0 and out["missed_events"] and all(n > 0 for n in out["missed_events"].values()),
          "missed-events: report shows events dropped")

    rc, out = oracle(os.path.join(DATA, "dup-name-v7.dat"), "--check")
    check(rc == 0 and out["events"].get("ftrace:print", 0) > 0
          and out["events"].get("uprobes:print", 0) > 0,
          "dup-name: ftrace:print and uprobes:print are told apart")

    rc, out = oracle(os.path.join(DATA, "instance-only-v7.dat"), "--check")
    check(rc == 0 and out["buffers"].get("") == 0
          and sum(out["buffers"].values()) == out["n_events"] > 0,
          "instance-only: all events in the named buffer, none in the top one")

    print("1..%d" % len(results))
    for i, (ok, what) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, what))
    return 0 if all(ok for ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
