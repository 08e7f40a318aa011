#!/usr/bin/env python3
"""`chronoscope latency --explain/--blockers` against
tests/oracle/latency-explain.py (TAP).

Usage: check-explain.py  (environment: CS_LATENCY_CLI, CS_EXPLAIN_ORACLE,
CS_TESTDATA, CS_SHARED_TESTDATA, TRACE_CMD)

On every recording of tests/data with wakeups and those of
../shared/testdata/public (skipped with a message when absent): the five
worst wakeup pairs (30 on the recordings made for it) must be the oracle's, each cut into the same
contributors (kind, id, name) whose times agree to 1 µs and add up
exactly to the pair's duration; the first three links of each pair's
wakeup chain (the pair, its waker's wakeup, and that waker's) must be
the oracle's, with their breakdowns, and end for the same reason; the
five top blockers over the p99 pairs must be the oracle's (time to 1 µs,
pair counts exactly).  On the recordings made for it, the SQL tables
latency_breakdown, wakeup_chain and critical_path hold what the command
line printed, and the critical path of the worst pair's task tiles the
recording, its own running segments being exactly the task's runs that
`trace-cmd report` shows whole.  Prints, without asserting, the time to explain
one pair and the blockers pass against the first open.  Exit 77 (skip)
without trace-cmd.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import Tap, public_recording  # noqa: E402

# kmod-sections-v7.dat is the classroom demos' recording (the module's
# preempt-off section holding a sleeper); ../../data/sample/sample.dat the
# bundled demo recording.
# Recordings whose SQL tables and critical path are checked too, and whose
# 30 worst pairs are compared (the prio recording's include migrations and
# real-time preemption).
# preemptirq-v7.dat has the kernel's preemptirq:* events (a guest kernel
# built with the preempt-off and irqs-off tracers,
# tests/data/make-preemptirq-recording.sh): its sections come from them.
DEEP = ["sched-irq-v6.dat", "sched-prio-migrate-v7.dat", "preemptirq-v7.dat"]
LOCAL = ["sched-irq-v6.dat", "sched-irq-v7.dat", "kmod-sections-v7.dat", "missed-events-v7.dat",
         "sched-i686-v6.dat", "sched-prio-migrate-v7.dat", "preemptirq-v7.dat",
         "../../data/sample/sample.dat"]
PUBLIC = ["sched-x86-v7-zstd.dat", "buildroot-fifo-i686-v6.dat", "rpi-sched-arm32-v6.dat",
          "lisa-rtapp-arm64-v6.dat", "kstack-x86-v7-zstd.dat"]
TOLERANCE_NS = 1000
CHAIN_ENDS = {"irq": "woken from an interrupt", "idle": "woken by the idle task",
              "not waiting": "the waker was not waiting", "depth": "the depth asked for"}

tap = Tap("cs-explain-")
# The built-in plugins of the build (meson's environment), in a private cache.
ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(tap.tmp, "cache"),
           XDG_DATA_HOME=os.path.join(tap.tmp, "data"))


def cli(args, env=None):
    cmd = os.environ["CS_LATENCY_CLI"].split() + args
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=600,
                          env=env or ENV)


def parts(breakdown):
    """Parts by kind, id, name and whether the latency flags showed them
    (README.md rule 8; the oracle marks only those)."""
    return {(c["kind"], c["id"], c["name"], c.get("source") == "latency-flags"): c["ns"]
            for c in breakdown}


def n_flag_sections(pairs):
    """The parts the latency flags showed, in the pairs and their chains."""
    return sum(1 for p in pairs for x in [p] + p.get("chain", [])
               for c in x["breakdown"] if c.get("source") == "latency-flags")


def diff_parts(got, want):
    g, w = parts(got), parts(want)
    out = []
    for k in sorted(set(g) | set(w), key=str):
        if k not in g or k not in w or abs(g[k] - w[k]) > TOLERANCE_NS:
            out.append(f"{k}: chronoscope {g.get(k)} oracle {w.get(k)}")
    return out


def same_link(got, want):
    return (got["pid"], got["a_ts_ns"], got["b_ts_ns"], got["waker_pid"]) == \
           (want["pid"], want["a_ts_ns"], want["b_ts_ns"], want["waker_pid"])


def outranks(c, waiting_prio):
    return c["kind"] in ("task", "irqs_off", "preempt_off") and c["prio"] >= 0 and \
        waiting_prio >= 0 and c["prio"] < waiting_prio


def check_explain(path, name, expected, top):
    got = cli(["latency", path, "--preset", "wakeup", "--explain", str(top), "--depth", "3",
               "--json"])
    if got.returncode != 0:
        tap.ok(False, f"{name}: --explain succeeds", got.stderr)
        return
    actual = json.loads(got.stdout)["pairs"]
    want = expected["worst"]
    tap.ok([(p["pid"], p["a_ts_ns"], p["b_ts_ns"]) for p in actual] ==
           [(p["pid"], p["a_ts_ns"], p["b_ts_ns"]) for p in want],
           f"{name}: the {len(want)} worst wakeups are the oracle's",
           f"chronoscope {[(p['pid'], p['a_ts_ns']) for p in actual]}\n"
           f"oracle      {[(p['pid'], p['a_ts_ns']) for p in want]}")
    sums = [p for p in actual if sum(c["ns"] for c in p["breakdown"]) != p["duration_ns"]]
    tap.ok(not sums, f"{name}: every breakdown adds up exactly to its latency",
           "\n".join(f"pid {p['pid']} at {p['a_ts_ns']}: parts "
                     f"{sum(c['ns'] for c in p['breakdown'])} != {p['duration_ns']}" for p in sums))
    bad, chains, ranks = [], [], []
    for g, w in zip(actual, want):
        prio_of = {(c["kind"], c["id"], c["name"]): c["prio"] for c in w["breakdown"]}
        for c in g["breakdown"]:
            k = (c["kind"], c["id"], c["name"])
            want_c = dict(c, prio=prio_of.get(k, -2))
            if c["prio"] != want_c["prio"] or c["outranks"] != outranks(want_c, w["prio"]):
                ranks.append(f"pid {w['pid']} at {w['a_ts_ns']} (prio {w['prio']}): {k} prio "
                             f"{c['prio']} outranks {c['outranks']}, oracle prio {want_c['prio']}")
        if (g["prio"], g["n_cpus_queued"]) != (w["prio"], w["n_cpus_queued"]):
            ranks.append(f"pid {w['pid']} at {w['a_ts_ns']}: prio, queues {g['prio']}, "
                         f"{g['n_cpus_queued']}, oracle {w['prio']}, {w['n_cpus_queued']}")
        d = diff_parts(g["breakdown"], w["breakdown"])
        if d:
            bad.append(f"pid {w['pid']} at {w['a_ts_ns']} ({w['duration_ns']} ns):")
            bad += ["  " + x for x in d]
        links_g, links_w = g.get("chain", []), w["chain"]
        if len(links_g) != len(links_w) or not all(same_link(a, b) for a, b in zip(links_g, links_w)):
            chains.append(f"pid {w['pid']} at {w['a_ts_ns']}: chronoscope "
                          f"{[(x['pid'], x['a_ts_ns'], x['b_ts_ns'], x['waker_pid']) for x in links_g]}"
                          f" oracle {[(x['pid'], x['a_ts_ns'], x['b_ts_ns'], x['waker_pid']) for x in links_w]}")
            continue
        for a, b in zip(links_g, links_w):
            d = diff_parts(a["breakdown"], b["breakdown"])
            if d:
                chains.append(f"link pid {b['pid']} at {b['a_ts_ns']}: " + "; ".join(d))
        if g.get("chain_end") != CHAIN_ENDS[w["chain_end"]]:
            chains.append(f"pid {w['pid']}: chain ends '{g.get('chain_end')}', oracle "
                          f"'{w['chain_end']}'")
    tap.ok(not bad, f"{name}: the breakdowns agree to 1 µs per contributor", "\n".join(bad))
    tap.ok(not chains, f"{name}: the first three links of each chain agree", "\n".join(chains))
    n_migrated = sum(1 for p in want if p["n_cpus_queued"] > 1)
    n_outranked = sum(1 for p in want if any(outranks(c, p["prio"]) for c in p["breakdown"]))
    tap.ok(not ranks, f"{name}: priorities, who outranked the woken task and its migrations "
           f"agree ({n_outranked} pairs outranked, {n_migrated} migrated)", "\n".join(ranks))
    resched = [f"pid {w['pid']} at {w['a_ts_ns']}: chronoscope {g.get('need_resched_ns')} "
               f"oracle {w['need_resched_ns']}" for g, w in zip(actual, want)
               if abs(g.get("need_resched_ns", -10**9) - w["need_resched_ns"]) > TOLERANCE_NS]
    n_resched = sum(1 for w in want if w["need_resched_ns"] > 0)
    tap.ok(not resched, f"{name}: the time lower-priority tasks ran with a reschedule pending "
           f"agrees ({n_resched} pairs have some)", "\n".join(resched))
    n_flags = n_flag_sections(want)
    tap.ok(n_flag_sections(actual) == n_flags,
           f"{name}: {n_flags} sections from the events' latency flags, as the oracle finds them")
    if name == "sched-prio-migrate-v7.dat":
        tap.ok(n_flags > 0, f"{name}: the breakdowns compared include sections from the latency "
               "flags")
    if name == "preemptirq-v7.dat":
        check_preemptirq_verdict(name, actual, want)
    if name == "sched-prio-migrate-v7.dat":
        tap.ok(n_migrated > 0 and n_outranked > 0,
               f"{name}: the pairs compared include migrated and outranked wakeups")
    if actual:
        print(f"# {name}: explaining the worst pair (breakdown and chain of 3) took "
              f"{actual[0]['explain_us'] / 1000:.1f} ms")


def check_preemptirq_verdict(name, actual, want):
    """Some pair is held mostly by a section of preemptirq:* events, the
    oracle gives that section the same time, and the verdict names it."""
    words = {"irqs_off": "interrupts disabled by", "preempt_off": "preemption disabled by"}
    found, seen = [], []
    for g, w in zip(actual, want):
        top = g["breakdown"][0] if g["breakdown"] else None
        if top is None or top.get("source") != "preemptirq":
            continue
        oracle = parts(w["breakdown"]).get((top["kind"], top["id"], top["name"], False))
        seen.append(f"pid {g['pid']} at {g['a_ts_ns']}: {top['kind']} {top['ns']} ns, oracle "
                    f"{oracle}; verdict '{g['verdict']}'")
        if oracle is not None and abs(oracle - top["ns"]) <= TOLERANCE_NS and \
                g["verdict"].startswith(f"{words[top['kind']]} {top['name']} (pid {top['id']})"):
            found.append((top["ns"], f"{g['verdict']} (oracle {oracle} ns)"))
    found.sort(reverse=True)
    tap.ok(bool(found), f"{name}: {len(found)} pairs are held mostly by a section of "
           f"preemptirq:* events, the oracle agrees on its time and the verdict names it; the "
           f"longest: {found[0][1] if found else None}", "\n".join(seen) or "no such pair")


def check_blockers(path, name, expected):
    env = dict(ENV, XDG_CACHE_HOME=os.path.join(tap.tmp, "cache-" + name))
    start = time.monotonic()
    opened = cli(["info", path, "--json"], env=env)
    first_open = time.monotonic() - start
    if opened.returncode != 0:
        tap.ok(False, f"{name}: opens", opened.stderr)
        return
    got = cli(["latency", path, "--preset", "wakeup", "--blockers", "--top", "5", "--json"],
              env=env)
    if got.returncode != 0:
        tap.ok(False, f"{name}: --blockers succeeds", got.stderr)
        return
    actual = json.loads(got.stdout)
    tap.ok((actual["threshold_ns"], actual["n_pairs"]) ==
           (expected["threshold_ns"], expected["n_selected"]),
           f"{name}: the p99 threshold and the pairs at or above it are the oracle's "
           f"({expected['n_selected']} pairs >= {expected['threshold_ns']} ns)",
           f"chronoscope {actual['threshold_ns']} ns, {actual['n_pairs']} pairs")
    g = [(b["kind"], b["id"], b["name"], b["n_pairs"]) for b in actual["blockers"]]
    w = [(b["kind"], b["id"], b["name"], b["n_pairs"]) for b in expected["blockers"]]
    times = [f"{x}: chronoscope {a['ns']} oracle {b['ns']}"
             for x, a, b in zip(w, actual["blockers"], expected["blockers"])
             if abs(a["ns"] - b["ns"]) > TOLERANCE_NS]
    tap.ok(g == w and not times, f"{name}: the five top blockers agree",
           "\n".join([f"chronoscope {g}", f"oracle      {w}"] + times))
    print(f"# {name}: first open {first_open * 1000:.0f} ms (whole command); blockers pass "
          f"{actual['pass_us'] / 1000:.0f} ms = {actual['pass_us'] / 1e6 / first_open:.2f}x "
          f"(in the worker: sweep {actual['sweep_us'] / 1000:.1f} ms, chains of the worst "
          f"{actual['chains_us'] / 1000:.1f} ms)")




def query(path, sql, env):
    got = cli(["query", path, sql, "--json"], env=env)
    if got.returncode != 0:
        raise AssertionError(f"query {sql!r} failed: {got.stderr}")
    return json.loads(got.stdout)


def rows_of(result):
    """Rows of `chronoscope query --json` as lists."""
    rows = result["rows"] if isinstance(result, dict) else result
    return [list(r.values()) if isinstance(r, dict) else r for r in rows]


def check_sql_and_path(path, name, expected):
    env = dict(ENV, XDG_CACHE_HOME=os.path.join(tap.tmp, "cache-" + name))
    sums = rows_of(query(path, "SELECT ts, pid, duration_ns, sum(ns) FROM latency_breakdown "
                               "GROUP BY selection, ts, pid", env))
    tap.ok(len(sums) == expected["n_selected"] and all(r[2] == r[3] for r in sums),
           f"{name}: latency_breakdown holds the {expected['n_selected']} pairs at or above "
           f"p99, each adding up to its latency", str(sums[:10]))
    chain0 = rows_of(query(path, "SELECT pair_pid, pair_ts, pid, ts FROM wakeup_chain "
                                 "WHERE depth = 0", env))
    tap.ok(len(chain0) == min(expected["n_selected"], 8) and
           all(r[0] == r[2] and r[1] == r[3] for r in chain0),
           f"{name}: wakeup_chain starts each stored chain with its pair", str(chain0[:10]))
    pid = expected["worst"][0]["pid"]
    want = subprocess.run([sys.executable, os.environ["CS_EXPLAIN_ORACLE"], "--top", "0",
                           "--runs", str(pid), path], capture_output=True, text=True,
                          errors="replace", timeout=600)
    runs = json.loads(want.stdout)["runs"]
    got = cli(["critical-path", path, "--pid", str(pid), "--json"], env=env)
    if got.returncode != 0:
        tap.ok(False, f"{name}: critical-path succeeds", got.stderr)
        return
    segs = json.loads(got.stdout)["path"]
    gaps = [(a["end_ns"], b["begin_ns"]) for a, b in zip(segs, segs[1:])
            if a["end_ns"] != b["begin_ns"]]
    tap.ok(segs and not gaps and all(s["end_ns"] > s["begin_ns"] for s in segs),
           f"{name}: the critical path of pid {pid} tiles the recording "
           f"({len(segs)} segments)", f"gaps {gaps[:5]}")
    own = [(s["begin_ns"], s["end_ns"], s["cpu"]) for s in segs
           if s["depth"] == 0 and s["state"] == "running"]
    # A run whose switch-in or switch-out the recording lacks (at its ends,
    # or where its CPU's data stops before the others': the path says
    # "unknown" there) is not whole.
    cut = {s["end_ns"] for s, t in zip(segs, segs[1:]) if t["state"] == "unknown"} | \
        {t["begin_ns"] for s, t in zip(segs, segs[1:]) if s["state"] == "unknown"}
    whole = [tuple(r) for r in runs]
    missing = [r for r in whole if r not in own]
    extra = [r for r in own if not any(w[0] <= r[0] and r[1] <= w[1] for w in whole)
             and r[0] != segs[0]["begin_ns"] and r[1] != segs[-1]["end_ns"]
             and r[0] not in cut and r[1] not in cut]
    tap.ok(not missing and not extra,
           f"{name}: its own running segments are its {len(whole)} whole runs",
           f"missing {missing[:5]}\nnot a run {extra[:5]}")
    rows = rows_of(query(path, "SELECT count(*), sum(duration_ns) FROM critical_path", env))
    tap.ok(rows and rows[0][0] == len(segs) and
           rows[0][1] == segs[-1]["end_ns"] - segs[0]["begin_ns"],
           f"{name}: critical_path holds the same segments", f"{rows} vs {len(segs)}")


def check(path, name):
    top = 30 if name in DEEP else 5
    want = subprocess.run([sys.executable, os.environ["CS_EXPLAIN_ORACLE"], "--top", str(top),
                           "--depth", "3", "--blockers", "5", path],
                          capture_output=True, text=True, errors="replace", timeout=1200)
    if want.returncode == 2:
        tap.skip(f"{name}: explained", "no wakeup pair in it")
        return
    if want.returncode != 0:
        tap.ok(False, f"{name}: the oracle reads it", want.stderr)
        return
    expected = json.loads(want.stdout)
    try:
        check_explain(path, name, expected, top)
        check_blockers(path, name, expected)
        if name in DEEP:
            check_sql_and_path(path, name, expected)
        if name == "sched-irq-v6.dat":
            for preset in ("softirq", "irq", "syscall"):
                check_windows(path, name, preset)
    except Exception:
        tap.ok(False, f"{name}: runs without an exception", traceback.format_exc())


def check_windows(path, name, preset):
    """Pairs of another preset: B's CPU broken down from A to B."""
    got = cli(["latency", path, "--preset", preset, "--explain", "5", "--json"])
    if got.returncode != 0:
        tap.ok(False, f"{name}: --preset {preset} --explain succeeds", got.stderr)
        return
    pairs = json.loads(got.stdout)["pairs"]
    args = []
    for p in pairs:
        args += ["--window", f"{p['b_cpu']}:{p['a_ts_ns']}:{p['b_ts_ns']}"]
    want = subprocess.run([sys.executable, os.environ["CS_EXPLAIN_ORACLE"]] + args + [path],
                          capture_output=True, text=True, errors="replace", timeout=600)
    windows = json.loads(want.stdout)["windows"]
    bad = []
    for p, w in zip(pairs, windows):
        if sum(c["ns"] for c in p["breakdown"]) != p["duration_ns"]:
            bad.append(f"{p['a_ts_ns']}: parts do not add up to {p['duration_ns']}")
        bad += [f"{p['a_ts_ns']}: {d}" for d in diff_parts(p["breakdown"], w["breakdown"])]
    tap.ok(pairs and not bad, f"{name}: the {len(pairs)} worst {preset} pairs are broken down "
           f"on B's CPU as the oracle does", "\n".join(bad))


def check_refusals():
    """Arguments that make no sense are refused with a message, exit 1."""
    path = os.path.join(os.environ.get("CS_TESTDATA", ""), "sched-irq-v6.dat")
    for args, words in [(["--preset", "wakeup", "--blockers", "--begin", "5"], "whole recording"),
                        (["--preset", "irq", "--blockers"], "--preset wakeup"),
                        (["--preset", "wakeup", "--explain=0"], "1 or more"),
                        (["--preset", "wakeup", "--blockers", "--percentile", "101"], "0 to 100")]:
        got = cli(["latency", path] + args)
        tap.ok(got.returncode == 1 and words in got.stderr and
               got.stderr.startswith("chronoscope latency:"),
               f"latency {' '.join(args)} is refused ({words})",
               f"exit {got.returncode}: {got.stderr}")


def main():
    if shutil.which(os.environ.get("TRACE_CMD", "trace-cmd")) is None:
        print("1..0 # SKIP no trace-cmd")
        sys.exit(77)
    data = os.environ.get("CS_TESTDATA", os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "data"))
    check_refusals()
    for f in LOCAL:
        check(os.path.normpath(os.path.join(data, f)), os.path.basename(f))
    for f in PUBLIC:
        path, why = public_recording(f)
        if path is None:
            tap.skip(f"{f}: explained", why)
            continue
        check(path, f)
    tap.finish()


if __name__ == "__main__":
    main()
