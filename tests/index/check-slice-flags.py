#!/usr/bin/env python3
"""The index's slices and their flags against `trace-cmd report` (TAP).

Usage: check-slice-flags.py  (environment: CHRONOSCOPE, CS_SLICES_ORACLE,
CS_TESTDATA, CS_SHARED_TESTDATA, TRACE_CMD)

On every recording of tests/data with sched_switch, the bundled sample and
those of ../shared/testdata/public (skipped with a message when absent):
the SQL table sched_slices (cpu, ts, end_ts, pid, switched, same_task,
next_comm, next_prio) must be, row for row, what tests/oracle/cpu-slices.py
computes from `trace-cmd report -t -R` by the meaning of CS_SLICE_SWITCHED,
CS_SLICE_SAME_TASK and CsSlice's next_comm and next_prio
(index/model/cs-document.h).  An explanation takes a long wait's
sched_switch events from the slices these flags vouch for, with the comm
and prio the slices keep (plugins/latency/explain/cs-explain-slices.c), so
a flag set where a switch was lost, or a comm or prio not the record's,
would change a breakdown.  The project's recordings must
hold slices in the middle of a CPU's time that are not switched (events
lost there), so that the check is not vacuous.  Exit 77 (skip) without
trace-cmd.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'plugins'))
from tap import Tap, public_recording  # noqa: E402

LOCAL = ["sched-irq-v6.dat", "sched-irq-v7.dat", "sched-irq-v7-nocompress.dat",
         "kmod-sections-v7.dat", "missed-events-v7.dat", "sched-i686-v6.dat",
         "sched-prio-migrate-v7.dat", "preemptirq-v7.dat", "funcgraph-v7.dat", "block-v7.dat",
         "../../data/sample/sample.dat"]
PUBLIC = ["sched-x86-v7-zstd.dat", "buildroot-fifo-i686-v6.dat", "rpi-sched-arm32-v6.dat",
          "lisa-rtapp-arm64-v6.dat", "kstack-x86-v7-zstd.dat"]
QUERY = ("SELECT cpu, ts, end_ts, pid, switched, same_task, next_comm, next_prio"
         " FROM sched_slices ORDER BY cpu, ts")

trace_cmd = os.environ.get("TRACE_CMD", "trace-cmd")
if shutil.which(trace_cmd) is None:
    print("1..0 # SKIP no trace-cmd")
    sys.exit(77)
tap = Tap("cs-slice-flags-")
unswitched_inside = 0


def check(name, path):
    global unswitched_inside
    oracle = subprocess.run([sys.executable, os.environ["CS_SLICES_ORACLE"], "--trace-cmd",
                             trace_cmd, path], capture_output=True, text=True, errors="replace")
    query = subprocess.run([os.environ["CHRONOSCOPE"], "query", path, QUERY, "--json"],
                           capture_output=True, text=True, errors="replace", env=tap.env)
    if oracle.returncode != 0 or query.returncode != 0:
        tap.ok(False, f"{name}: read both ways", oracle.stderr + query.stderr)
        return
    want = json.loads(oracle.stdout)
    got = [[r["cpu"], r["ts"], r["end_ts"], r["pid"], r["switched"], r["same_task"],
            r["next_comm"], r["next_prio"]]
           for r in json.loads(query.stdout or "[]")]
    first = next((f"row {i}: index {g} vs report {w}" for i, (g, w) in enumerate(zip(got, want))
                  if g != w), f"{len(got)} rows vs {len(want)}")
    n_unswitched = sum(1 for r in want if not r[4])
    n_comms = len({r[6] for r in want if r[6] is not None})
    tap.ok(got == want, f"{name}: {len(want)} slices, {n_unswitched} not switched, "
           f"{n_comms} next_comm values, as report says", first)
    for i in range(1, len(want) - 1):
        if not want[i][4] and want[i - 1][0] == want[i][0] == want[i + 1][0]:
            unswitched_inside += 1


data = os.environ.get("CS_TESTDATA", os.path.join(os.path.dirname(__file__), "..", "data"))
for f in LOCAL:
    check(os.path.basename(f), os.path.join(data, f))
tap.ok(unswitched_inside > 0,
       f"the project's recordings hold {unswitched_inside} slices not switched inside a CPU's time")
for f in PUBLIC:
    path, why = public_recording(f)
    if path is None:
        tap.skip(f"{f}: slices as report says", why)
        continue
    check(f, path)
tap.finish()
