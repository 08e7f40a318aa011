#!/usr/bin/env python3
"""`chronoscope latency` against tests/oracle/latency-pairs.py (TAP).

Usage: check-latency.py  (environment: CS_LATENCY_CLI, CS_LATENCY_ORACLE,
CS_TESTDATA, CS_SHARED_TESTDATA)

CS_LATENCY_CLI is the chronoscope executable (it runs the pass in its
indexing worker, as `chronoscope latency` does for users).  For every preset on every recording of
tests/data and ../shared/testdata/public, and for a few pairs given with
--from/--to and ranges, the command's --json figures must equal the
oracle's exactly: count, min, p50, p90, p99, p99.9, max, the counts of
A's, B's, pairs and unmatched A's, and the worst ten pairs (duration, A's
and B's times, CPU, pid, key).  On every recording the wakeup preset and
`chronoscope stats` (statistics for a range, over the whole recording)
must give the same wakeup latencies: one rule (cs-plugin-wakeup.h).  A definition the recording does not fit,
or one that never pairs, must fail with a message that says why.  A
second run must reuse the stored pairs.  Exit 77 (skip) without trace-cmd.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import public_recording  # noqa: E402

PRESETS = ["wakeup", "irq", "softirq", "softirq-raise", "syscall", "block", "funcgraph",
           "kmod-irqs-off", "kmod-preempt-off", "kmod-wakeup"]
LOCAL = ["sched-irq-v6.dat", "sched-irq-v7.dat", "no-sched-v6.dat", "kmod-sections-v7.dat",
         "block-v7.dat", "missed-events-v7.dat", "dup-name-v7.dat", "sched-i686-v6.dat",
         "preemptirq-v7.dat"]
PUBLIC = ["sched-x86-v7-zstd.dat", "buildroot-fifo-i686-v6.dat", "rpi-sched-arm32-v6.dat",
          "function-graph-i686-v6.dat", "lisa-rtapp-arm64-v6.dat", "kstack-x86-v7-zstd.dat"]
FIGURES = ["count", "min_ns", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "max_ns"]

n_test = 0
n_failed = 0


def ok(good, name, detail=""):
    global n_test, n_failed
    n_test += 1
    if not good:
        n_failed += 1
    print(f"{'ok' if good else 'not ok'} {n_test} - {name}")
    if not good and detail:
        for line in str(detail).splitlines()[:40]:
            print(f"# {line}")


def cli(args):
    cmd = os.environ["CS_LATENCY_CLI"].split() + ["latency"] + args
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=300)


def oracle(args):
    cmd = [sys.executable, os.environ["CS_LATENCY_ORACLE"]] + args
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=300)


def definition_args(preset=None, a=None, b=None):
    return ["--preset", preset] if preset else ["--from", a, "--to", b]


def worst_tuple(p):
    key = p["key"]
    if isinstance(key, dict):
        key = list(key.values())
    return (p["duration_ns"], p["a_ts_ns"], p["b_ts_ns"], p["cpu"], p["pid"], tuple(key))


def compare(path, name, defn, extra=()):
    """One definition on one recording; returns the oracle's result or None.

    Any exception (a timeout, output that is not JSON) is a failed test
    that shows what went wrong, not the end of the run."""
    try:
        return compare_unguarded(path, name, defn, extra)
    except Exception:
        ok(False, f"{name}: runs without an exception", traceback.format_exc())
        return None


def compare_unguarded(path, name, defn, extra):
    want = oracle(defn + list(extra) + ["--top", "10", path])
    got = cli([path] + defn + list(extra) + ["--top", "10", "--json"])
    if want.returncode == 1:
        ok(False, f"{name}: the oracle reads the recording", want.stderr)
        return None
    if want.returncode == 2:
        # The recording lacks an event or field: a clear refusal.
        ok(got.returncode != 0 and "chronoscope latency" in got.stderr and
           ("has no event" in got.stderr or "has no field" in got.stderr),
           f"{name}: refused as the oracle does ({want.stderr.strip()})",
           f"exit {got.returncode}\n{got.stdout}\n{got.stderr}")
        return None
    expected = json.loads(want.stdout)
    n_pairs = sum(p["n_pairs"] for p in expected["pairs"])
    if n_pairs == 0:
        ok(got.returncode != 0 and "no pair" in got.stderr,
           f"{name}: a definition that never pairs says so",
           f"exit {got.returncode}\n{got.stdout}\n{got.stderr}")
        return expected
    if got.returncode != 0:
        ok(False, f"{name}: the command succeeds", got.stderr)
        return expected
    actual = json.loads(got.stdout)
    diffs = [f"{k}: chronoscope {actual.get(k)} oracle {expected.get(k)}"
             for k in FIGURES if actual.get(k) != expected.get(k)]
    ok(not diffs, f"{name}: count, min, percentiles and max agree "
       f"({expected['count']} pairs, p50 {expected['p50_ns']} ns)", "\n".join(diffs))
    got_pairs = [(p["n_a"], p["n_b"], p["n_pairs"], p["n_unmatched"]) for p in actual["pairs"]]
    want_pairs = [(p["n_a"], p["n_b"], p["n_pairs"], p["n_unmatched"]) for p in expected["pairs"]]
    ok(got_pairs == want_pairs, f"{name}: A's, B's, pairs and unmatched A's agree",
       f"chronoscope {got_pairs}\noracle      {want_pairs}")
    got_worst = [worst_tuple(p) for p in actual["worst"]]
    want_worst = [worst_tuple(p) for p in expected["worst"]]
    ok(got_worst == want_worst, f"{name}: the worst ten agree",
       "\n".join(f"chronoscope {g}\noracle      {w}" for g, w in zip(got_worst, want_worst)
                 if g != w) or f"{len(got_worst)} against {len(want_worst)}")
    return expected


def recordings():
    testdata = os.environ["CS_TESTDATA"]
    found = [os.path.join(testdata, f) for f in LOCAL]
    for f in PUBLIC:
        path, why = public_recording(f)
        if path is None:
            print(f"# {f} skipped: {why}")
        else:
            found.append(path)
    return found


def check_reuse(path, cache):
    before = {f: os.stat(f).st_mtime_ns for f in glob.glob(os.path.join(cache, "**", "*.cspass"),
                                                            recursive=True)}
    got = cli([path, "--preset", "wakeup", "--json"])
    after = {f: os.stat(f).st_mtime_ns for f in glob.glob(os.path.join(cache, "**", "*.cspass"),
                                                           recursive=True)}
    ok(got.returncode == 0 and before and before == after,
       "a second run reuses the stored pairs (no pass database rewritten)",
       f"exit {got.returncode} {got.stderr}\nbefore {before}\nafter {after}")


def check_same_as_stats(path):
    """The latency page's wakeups are those of statistics for a range."""
    name = os.path.basename(path)
    stats = subprocess.run(os.environ["CS_LATENCY_CLI"].split() + ["-q", "stats", path, "--json"],
                           capture_output=True, text=True, errors="replace", timeout=300)
    got = cli([path, "--preset", "wakeup", "--json"])
    if stats.returncode != 0:
        ok(False, f"{name}: chronoscope stats runs", stats.stderr)
        return
    want = json.loads(stats.stdout)["wakeup_latency"]
    if got.returncode != 0:
        # The preset does not fit (no wakeup or no sched_switch event).
        ok(want["count"] == 0, f"{name}: no wakeup preset, no wakeup in the statistics",
           f"{want}\n{got.stderr}")
        return
    figures = json.loads(got.stdout)
    keys = ["count", "min_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns"]
    mine = {k: figures[k] if figures["count"] else 0 for k in keys}
    ok(mine == {k: want[k] for k in keys},
       f"{name}: wakeup preset and statistics agree ({want['count']} wakeups, "
       f"p50 {want['p50_ns']} ns, max {want['max_ns']} ns)",
       f"latency {mine}\nstats   {want}")


def check_errors(path):
    cases = [
        (["--from", "sched:no_such_event", "--to", "sched:sched_switch"], "no event sched:no_such_event"),
        (["--from", "sched:sched_waking.no_such_field", "--to", "sched:sched_switch.next_pid"],
         "no field “no_such_field”"),
        (["--from", "sched:sched_waking.comm", "--to", "sched:sched_switch.next_comm"], "not a number"),
        (["--from", "sched:sched_waking.pid,prio", "--to", "sched:sched_switch.next_pid"],
         "as many fields"),
        (["--preset", "nonsense"], "is not a latency preset"),
        (["--preset", "wakeup", "--from", "sched:sched_waking"], "either --preset"),
    ]
    for args, message in cases:
        got = cli([path] + args)
        ok(got.returncode == 1 and message in got.stderr and path in got.stderr,
           f"{' '.join(args)}: refused with “{message}” naming the file",
           f"exit {got.returncode}\n{got.stderr}")


def main():
    if shutil.which("trace-cmd") is None:
        print("1..0 # SKIP trace-cmd is not installed")
        return 77
    cache = tempfile.mkdtemp(prefix="cs-latency-test-")
    os.environ["XDG_CACHE_HOME"] = cache
    try:
        files = recordings()
        for path in files:
            base = os.path.basename(path)
            for preset in PRESETS:
                compare(path, f"{base} --preset {preset}", definition_args(preset))
            check_same_as_stats(path)
        local = os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v6.dat")
        # Both sides the same event: off-CPU time, each switch closes then opens.
        for path in [local] + [f for f in files if f.endswith("rpi-sched-arm32-v6.dat")]:
            compare(path, f"{os.path.basename(path)} switch-out to switch-in",
                    definition_args(a="sched:sched_switch.prev_pid", b="sched:sched_switch.next_pid"))
        compare(local, "sched-irq-v6 default key @pid",
                definition_args(a="irq:softirq_raise", b="irq:softirq_exit"))
        compare(local, "sched-irq-v6 keys on one side only",
                definition_args(a="irq:softirq_entry.vec,@cpu", b="irq:softirq_exit"))
        never = compare(local, "sched-irq-v6 a pair that never matches",
                        definition_args(a="irq:softirq_entry.vec", b="irq:irq_handler_exit.irq"))
        ok(never is not None and sum(p["n_pairs"] for p in never["pairs"]) == 0,
           "the never-matching pair really never matches in the oracle")
        # Ranges: the middle half of the wakeups.
        whole = oracle(["--preset", "wakeup", "--top", "100000", local])
        worst = sorted(p["a_ts_ns"] for p in json.loads(whole.stdout)["worst"])
        begin, end = worst[len(worst) // 4], worst[3 * len(worst) // 4]
        compare(local, f"sched-irq-v6 wakeup in [{begin}, {end})", definition_args("wakeup"),
                ["--begin", str(begin), "--end", str(end)])
        compare(local, f"sched-irq-v6 syscall from {begin}", definition_args("syscall"),
                ["--begin", str(begin)])
        check_errors(local)
        check_reuse(local, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    print(f"1..{n_test}")
    print(f"# {n_test - n_failed} passed, {n_failed} failed")
    return 1 if n_failed else 0


if __name__ == "__main__":
    sys.exit(main())
