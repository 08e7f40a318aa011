#!/usr/bin/env python3
"""`chronoscope index-worker` with CHRONOSCOPE_INDEX_STEPS=1 prints the CPU
time of each step of the index build (issue 26 item 5), TAP.

Builds the index of recordings of tests/data ($CS_TESTDATA; an uncompressed
v6 file and a zstd v7 one, so that reading means pread() in one and
decompressing in the other) with the built executable ($CHRONOSCOPE) in a
fresh cache, and checks the last line on stderr: one JSON object with the
five steps (read, decode, summarise, encode, write), each a number of
seconds above zero (every step runs on a recording with events), whose sum
is within the worker's CPU time as wait4() measures it (user + system of the
process: the steps are its threads' CPU clocks, so they cannot add up to
more), and the worker's own figure of its CPU time (getrusage()) within it
too.  Without the variable the worker prints no such line.  Not timed: the
figures only have to be consistent.
"""

import json
import os
import subprocess
import sys
import tempfile

STEPS = ("read", "decode", "summarise", "encode", "write")
RECORDINGS = ("sched-irq-v6.dat", "sched-irq-v7.dat")
# getrusage() and wait4() give microseconds; the steps nanoseconds.
SLACK_S = 0.002

RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append((name, bool(ok), detail))


def run_worker(path, steps):
    """(protocol stdout, stderr, CPU seconds from wait4) of one first open."""
    with tempfile.TemporaryDirectory(prefix="cs-steps-") as cache, \
            tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        env = dict(os.environ, XDG_CACHE_HOME=cache, LC_ALL="C.UTF-8")
        env.pop("CHRONOSCOPE_INDEX_STEPS", None)
        if steps:
            env["CHRONOSCOPE_INDEX_STEPS"] = "1"
        proc = subprocess.Popen([os.environ["CHRONOSCOPE"], "index-worker", path],
                                stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (proc.returncode, out.read().decode("utf-8", "replace"),
                err.read().decode("utf-8", "replace"), usage.ru_utime + usage.ru_stime)


def steps_line(stderr):
    """The parsed index_steps object of STDERR's last line, or None."""
    lines = stderr.strip().splitlines()
    if not lines:
        return None
    try:
        doc = json.loads(lines[-1])
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and "index_steps" in doc else None


def check_recording(name):
    path = os.path.join(os.environ["CS_TESTDATA"], name)
    rc, out, err, cpu_s = run_worker(path, True)
    check(f"{name}: the worker builds the index", rc == 0 and "\ndone " in "\n" + out, out + err)
    doc = steps_line(err)
    check(f"{name}: the last line on stderr is the steps' JSON", doc is not None, err[-500:])
    if doc is None:
        return
    steps = doc["index_steps"]
    check(f"{name}: exactly the five steps", sorted(steps) == sorted(s + "_s" for s in STEPS), steps)
    values = [steps.get(s + "_s") for s in STEPS]
    numbers = all(isinstance(v, (int, float)) for v in values)
    check(f"{name}: every step ran (seconds > 0)", numbers and all(v > 0 for v in values), steps)
    total = sum(values) if numbers else float("inf")
    check(f"{name}: their sum {total:.6f} s is within the process's CPU time {cpu_s:.6f} s (wait4)",
          total <= cpu_s + SLACK_S, steps)
    own = doc.get("process_cpu_s")
    check(f"{name}: the worker's own CPU time {own} s (getrusage) holds the steps and is within wait4's",
          isinstance(own, (int, float)) and total <= own + SLACK_S and own <= cpu_s + SLACK_S,
          (own, total, cpu_s))


def main():
    for name in RECORDINGS:
        check_recording(name)

    rc, out, err, _ = run_worker(os.path.join(os.environ["CS_TESTDATA"], RECORDINGS[0]), False)
    check("without CHRONOSCOPE_INDEX_STEPS the worker prints no steps",
          rc == 0 and "index_steps" not in err, err[-500:])

    print(f"1..{len(RESULTS)}")
    for i, (name, ok, detail) in enumerate(RESULTS, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {name}")
        if not ok and detail != "":
            print("# " + str(detail).replace("\n", "\n# "))
    return 0 if all(ok for _, ok, _ in RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
