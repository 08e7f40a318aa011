#!/usr/bin/env python3
"""A pair explained from the index's slices is the pair explained from the
records (TAP).

Usage: check-explain-slices.py  (environment: CS_LATENCY_CLI, CS_TESTDATA,
CS_SHARED_TESTDATA)

A long stay of a waiting task takes its sched_switch events from the
index's slices (plugins/latency/explain/cs-explain-slices.c), a short one
from the records; CHRONOSCOPE_EXPLAIN_SLICES=always and =never force one
way for every stay.  On every recording of tests/data with wakeups, the
bundled sample and those of ../shared/testdata/public (skipped with a
message when absent), `chronoscope latency --preset wakeup --explain 30
--depth 3 --json` must print the same pairs, breakdowns, verdicts and
chains both ways (and every pair, with its first link, of three of
them), and the slices must have fed stays (the steps'
"stays from slices N of M", CHRONOSCOPE_EXPLAIN_STEPS=1) on the
recordings made here, including the one that lost events
(missed-events-v7.dat: its stays read the records around the loss).
tests/plugins/latency/check-explain.py holds the default way to the
oracle over `trace-cmd report`.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import Tap, public_recording  # noqa: E402

LOCAL = ["sched-irq-v6.dat", "sched-irq-v7.dat", "kmod-sections-v7.dat", "missed-events-v7.dat",
         "sched-i686-v6.dat", "sched-prio-migrate-v7.dat", "preemptirq-v7.dat",
         "funcgraph-v7.dat", "instance-only-v7.dat", "../../data/sample/sample.dat"]
# Every pair, with its first link only, on these (a few seconds each).
EVERY_PAIR = ["sched-prio-migrate-v7.dat", "missed-events-v7.dat", "sched-irq-v6.dat"]
PUBLIC = ["sched-x86-v7-zstd.dat", "buildroot-fifo-i686-v6.dat", "rpi-sched-arm32-v6.dat",
          "lisa-rtapp-arm64-v6.dat", "kstack-x86-v7-zstd.dat"]

tap = Tap("cs-explain-slices-")
ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(tap.tmp, "cache"),
           XDG_DATA_HOME=os.path.join(tap.tmp, "data"), CHRONOSCOPE_EXPLAIN_STEPS="1")


def explain(path, way, every=False):
    """The JSON without the timings, and (stays from slices, stays)."""
    cmd = os.environ["CS_LATENCY_CLI"].split() + [
        "latency", path, "--preset", "wakeup", "--explain", "100000" if every else "30",
        "--depth", "1" if every else "3", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=600,
                          env=dict(ENV, CHRONOSCOPE_EXPLAIN_SLICES=way))
    if proc.returncode != 0:
        return None, (0, 0), proc.stderr

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k != "explain_us"}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    stays = [tuple(map(int, m)) for m in
             re.findall(r"stays from slices (\d+) of (\d+)", proc.stderr)]
    return (strip(json.loads(proc.stdout)),
            (sum(s for s, _ in stays), sum(n for _, n in stays)), proc.stderr)


def first_difference(a, b, where="pairs"):
    if type(a) is not type(b):
        return f"{where}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            d = first_difference(a.get(k), b.get(k), f"{where}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{where}: {a!r} vs {b!r}"


def check(name, path, local, every=False):
    slices, (fed, stays), err = explain(path, "always", every)
    records, _, err2 = explain(path, "never", every)
    if slices is None and records is None and err == err2 and (
            "does not fit" in err or "no pair" in err):
        tap.skip(f"{name}: the same from the slices", err.strip().splitlines()[-1])
        return
    if slices is None or records is None:
        tap.ok(False, f"{name}: explained both ways", err or err2)
        return
    n = len(records.get("pairs", []))
    what = "every pair" if every else "pairs and their chains"
    tap.ok(slices == records, f"{name}: {n} {what} the same from the slices",
           first_difference(slices, records))
    if local and n > 0:
        tap.ok(fed > 0, f"{name}: {fed} of {stays} stays fed from the slices", err)


data = os.environ.get("CS_TESTDATA",
                      os.path.join(os.path.dirname(__file__), "..", "..", "data"))
for f in LOCAL:
    check(os.path.basename(f), os.path.join(data, f), True)
for f in EVERY_PAIR:
    check(f, os.path.join(data, f), True, every=True)
for f in PUBLIC:
    path, why = public_recording(f)
    if path is None:
        tap.skip(f"{f}: the same from the slices", why)
        continue
    check(f, path, False)
tap.finish()
