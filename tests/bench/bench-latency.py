#!/usr/bin/env python3
"""Latency pairs benchmark (issue 12 part 2): a preset's pass against the first open.

Usage: bench-latency.py [--runs N] [--preset NAME] [--no-explain]
                        --chronoscope EXE [--latency-cli CMD] RECORDING...

For each recording, N times: with a fresh index cache, `chronoscope info`
(the first open: the index built in the worker process), then
`LATENCY-CLI latency RECORDING --preset NAME` (the pass over the whole
recording, in a worker or in-process, and its statistics), each timed
(wall, user+sys CPU of the process and its children) with its peak
RssAnon (sampled every 20 ms over the process tree).  Prints the medians
and the pass's ratio to the first open.  LATENCY-CLI defaults to
`EXE`.  The latency plugin is found through CHRONOSCOPE_PLUGIN_PATH;
when it is unset and EXE is in a build folder (BUILD/gui/chronoscope),
BUILD/plugins/latency is used.  Prints figures: never a pass/fail test.

The ratio "latency PRESET pass ÷ first open" is of the medians of the two
measured in the same runs, one after the other, on the same machine; the
CPU ratio (user+sys) is printed too, as it suffers less from other load.
The issue's figure (issue 12, part 2) is taken on the large benchmark
recording:

With the preset `wakeup` it measures the explain room too (issue 24,
part 6), in the same index cache after the pass: `latency RECORDING
--preset wakeup --explain 1 --depth 1 --json` (the worst pair's
breakdown, EXPLAIN_REPEATS times a run: the CLI's explain_us, wall, and with
CHRONOSCOPE_EXPLAIN_STEPS=1 the explain engine's thread CPU time, median and
min, target <= 50 ms), the same with
its chain of 8 links (wall), and `latency
RECORDING --preset wakeup --blockers --json` (top blockers over the p99
pairs: wall, CPU and peak RssAnon of the whole command against the first
open, target <= 1x and <= 256 MiB, with the pass's own pass_us, sweep_us
and chains_us).

    tests/bench/bench-latency.py --chronoscope build/gui/chronoscope \
        /var/tmp/chronoscope-bench/large-v6.dat
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time


def tree_rss_anon_kib(pid):
    total = 0
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("RssAnon:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def measure(cmd, env, out=None):
    """Wall s, user+sys CPU s, peak RssAnon MiB; stdout to the file @out."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdout=out or subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss_anon_kib(proc.pid))
        time.sleep(0.02)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.read().decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, peak / 1024


def run_json(cmd, env):
    """measure() of @cmd, with its JSON output parsed."""
    with tempfile.TemporaryFile() as out:
        figures = measure(cmd, env, out)
        out.seek(0)
        return figures, json.load(out)


# The worst pair's breakdown is explained this many times a run: a figure
# of ~0.1 s on a shared 2-core host moves by a third from one run to the
# next, and the runs of the whole benchmark are few.
EXPLAIN_REPEATS = 5


def explain_one_pair(latency_cli, rec, env):
    """The worst wakeup pair explained: (ms of its breakdown alone, wall and
    thread CPU, each a list of EXPLAIN_REPEATS; ms of its breakdown and chain
    of 8, wall; links; its length).  The CPU time is the explain engine's own
    (CHRONOSCOPE_EXPLAIN_STEPS=1's total on stderr), apart from the process's
    start and the pass."""
    cmd = latency_cli + ["latency", rec, "--preset", "wakeup", "--explain", "1", "--json"]
    walls, cpus = [], []
    for _ in range(EXPLAIN_REPEATS):
        proc = subprocess.run(cmd + ["--depth", "1"],
                              env=dict(env, CHRONOSCOPE_EXPLAIN_STEPS="1"),
                              capture_output=True, text=True, check=True)
        alone = json.loads(proc.stdout)["pairs"][0]
        cpu = re.search(r"total ([0-9.]+) ms", proc.stderr)
        walls.append(alone["explain_us"] / 1000)
        cpus.append(float(cpu.group(1)) if cpu else float("nan"))
    _, doc = run_json(cmd, env)
    pair = doc["pairs"][0]
    return (walls, cpus, pair["explain_us"] / 1000, 1 + len(pair.get("chain", [])),
            pair["duration_ns"])


def top_blockers(latency_cli, rec, env):
    """(wall s, cpu s, peak MiB) of `--blockers`, and its pass's timings in s."""
    figures, doc = run_json(latency_cli + ["latency", rec, "--preset", "wakeup", "--blockers",
                                           "--json"], env)
    timings = [(doc.get(k) or 0) / 1e6 for k in ("pass_us", "sweep_us", "chains_us")]
    return figures, timings


def print_explain(explains, blockers, first_open):
    walls = [x for e in explains for x in e[0]]
    cpus = [x for e in explains for x in e[1]]
    ms, cpu_ms = statistics.median(walls), statistics.median(cpus)
    chain_ms = statistics.median(e[2] for e in explains)
    _, _, _, links, duration_ns = explains[0]
    print(f"  explain one pair    wall {ms:7.1f} ms  cpu {cpu_ms:7.1f} ms, min {min(cpus):.1f} ms "
          f"of {len(cpus)} (the worst, "
          f"{duration_ns / 1e6:.1f} ms long, its breakdown) "
          f"{'ok' if cpu_ms <= 50 else 'OVER'} (target <= 50 ms); with its chain of {links} "
          f"link{'' if links == 1 else 's'} wall {chain_ms:.1f} ms")
    b = [statistics.median(x) for x in zip(*(f for f, _ in blockers))]
    t = [statistics.median(x) for x in zip(*(t for _, t in blockers))]
    print(f"  top blockers        wall {b[0]:7.2f} s  cpu {b[1]:7.2f} s  peak RssAnon {b[2]:6.0f} MiB"
          f"  (pass {t[0]:.2f} s: sweep {t[1]:.2f} s, chains {t[2]:.2f} s)")
    ratio = b[0] / first_open[0]
    print(f"  top blockers ÷ first open: wall {ratio:.2f}x "
          f"{'ok' if ratio <= 1 else 'OVER'} (target <= 1x), "
          f"cpu (user+sys) {b[1] / first_open[1]:.2f}x, pass alone {t[0] / first_open[0]:.2f}x; "
          f"peak RssAnon {b[2]:.0f} MiB {'ok' if b[2] <= 256 else 'OVER'} (target <= 256 MiB)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--preset", default="wakeup")
    parser.add_argument("--chronoscope", required=True)
    parser.add_argument("--latency-cli")
    parser.add_argument("--no-explain", action="store_true",
                        help="skip --explain 1 and --blockers (preset wakeup only)")
    parser.add_argument("recordings", nargs="+")
    args = parser.parse_args()
    latency_cli = (args.latency_cli or args.chronoscope).split()
    plugins = os.path.join(os.path.dirname(os.path.abspath(args.chronoscope)), "..",
                           "plugins", "latency")
    if "CHRONOSCOPE_PLUGIN_PATH" not in os.environ and os.path.isdir(plugins):
        os.environ["CHRONOSCOPE_PLUGIN_PATH"] = os.path.normpath(plugins)

    for rec in args.recordings:
        opens, passes, explains, blockers = [], [], [], []
        explain = args.preset == "wakeup" and not args.no_explain
        for _ in range(args.runs):
            cache = tempfile.mkdtemp(prefix="cs-bench-latency-", dir="/var/tmp")
            env = dict(os.environ, XDG_CACHE_HOME=cache)
            try:
                opens.append(measure([args.chronoscope, "info", rec], env))
                passes.append(measure(latency_cli + ["latency", rec, "--preset", args.preset], env))
                if explain:
                    explains.append(explain_one_pair(latency_cli, rec, env))
                    blockers.append(top_blockers(latency_cli, rec, env))
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        o = [statistics.median(x) for x in zip(*opens)]
        p = [statistics.median(x) for x in zip(*passes)]
        print(f"{os.path.basename(rec)} (medians of {args.runs}):")
        print(f"  first open          wall {o[0]:7.2f} s  cpu {o[1]:7.2f} s  peak RssAnon {o[2]:6.0f} MiB")
        print(f"  latency {args.preset:<11} wall {p[0]:7.2f} s  cpu {p[1]:7.2f} s  peak RssAnon {p[2]:6.0f} MiB")
        ratio = p[0] / o[0]
        print(f"  latency {args.preset} pass ÷ first open: wall {ratio:.2f}x "
              f"{'ok' if ratio <= 1 else 'OVER'} (target <= 1x), "
              f"cpu (user+sys) {p[1] / o[1]:.2f}x")
        print(f"  latency {args.preset} pass peak RssAnon: {p[2]:.0f} MiB "
              f"{'ok' if p[2] <= 256 else 'OVER'} (target <= 256 MiB)")
        if explains:
            print_explain(explains, blockers, o)
        print(f"  runs (wall ratio): "
              + " ".join(f"{b[0] / a[0]:.2f}x" for a, b in zip(opens, passes))
              + f"; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
