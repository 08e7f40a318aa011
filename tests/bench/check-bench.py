#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-bench.py: the benchmark as a test, so that CI sees a regression
(issue 22 part 5; meson test `bench`, suite 'bench').

Usage: check-bench.py --build BUILD [--source SRC] [--size medium|large]
                      [--runs N] [--outdir DIR] [--timeout S] [--skip WHY]

Alone: `meson test -C build --suite bench --print-errorlogs` (root, for
tracefs).  The full benchmark with KernelShark, v7, frames and the README's
figures stays tests/bench/run-bench.sh --size large.

1. The recording.  OUTDIR/SIZE-v6.dat (default /var/tmp/chronoscope-bench,
   or CS_BENCH_OUTDIR as for run-bench.sh) is reused when SIZE.meta says it
   was made by this very make-recording.sh (its script_sha256); otherwise
   make-recording.sh makes it on this machine's top tracefs buffer, holding
   /var/tmp/chronoscope-tracefs.lock (flock(2), the lock `flock
   /var/tmp/chronoscope-tracefs.lock CMD` takes) so that no two makers drive
   tracefs at once.  tracefs is mounted when it is not, as libtracefs does
   for `chronoscope record` (and left mounted, as libtracefs leaves it).
   Skips (exit 77), saying why, when it has to make the recording and
   cannot: not root, no trace-cmd, no tracefs in the kernel or not
   mountable.  The medium recording (9 M events, 420 MB as v6, and its v7
   twin; 768 MiB of ring buffer while it is made) takes 15-20 s to make on
   2 cores; the small one (1.3 M events) is too small for the targets below
   (commands' start-up would weigh half of what they are compared with).

2. The measurements: RUNS runs (default 3), each one after the other on the
   same v6 file from a warm page cache, with a fresh index cache:
     first open   `chronoscope index-worker FILE` (the index build)
     render       `chronoscope render FILE -o x.png --width 1920 --height
                  1080` on that index: reopen to the first frame
     latency      `chronoscope latency FILE --preset wakeup` (the latency
                  plugin's pass and its statistics)
     SQL scan     `chronoscope query FILE 'SELECT count(ts) FROM events'`
                  (every event read back from the index: count(*) alone
                  is answered from the index's counts)
     libtracecmd  tracecmd-iterate FILE (tracecmd_open + iterate_events)
   each timed by bench.py's run_measured: wall, user+sys CPU of the
   process tree, peak RssAnon sampled every 20 ms.  The built-in plugins
   are those of the build tree (CHRONOSCOPE_PLUGIN_PATH, as the test
   environment sets it), with no user plugins (an empty XDG_DATA_HOME) and
   settings in memory: what an installed chronoscope runs with.

3. The checks: ratios of medians of figures measured in this one run
   (CHECKS below, with their targets and noise bands), and the indexer's
   peak RssAnon.  A check fails when its figure is worse than target x (1
   + band).  The whole table is printed either way; exit 1 when a check
   fails or a measurement failed.

The targets come from DESIGN.md's TARGETS and the issues; each band says why
it is that wide.  They were set from runs on the project's 2-core machines
while other builds ran (load average 9-18), where the per-run ratios moved by
up to ~45 % (wall) and ~25 % (CPU) around their medians.  The whole test
takes about a minute on 2 cores (making the recording included).
"""

import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import bench  # noqa: E402  (tests/bench/bench.py: run_measured and the measure_*())
import bench_plugins  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TRACEFS = "/sys/kernel/tracing"
TRACEFS_LOCK = "/var/tmp/chronoscope-tracefs.lock"
SQL_SCAN = "SELECT count(ts) FROM events"
SKIP = 77

# name, numerator, denominator (each (tool, key) of a run's results), target,
# band, why.  A ratio of medians; fails above target x (1 + band).  CPU is
# user + sys of the process and its children.  The targets hold for the
# medium recording (9 M events) and larger: on the small one (1.3 M) the
# commands' fixed costs (render's 0.2 s of CPU, see below) are as much as
# the first open's 0.24 s.
WALL_BAND_WHY = ("wall times of two processes taken seconds apart on a shared 2-core machine: "
                 "per-run ratios moved by up to ~45 % around their median, medians of 3 by up to "
                 "~40 % between runs")
CPU_BAND_WHY = ("CPU times suffer less from other load (caches and memory bandwidth are shared "
                "still): per-run ratios moved by up to ~25 %, medians of 3 by ~15 % between runs")
CHECKS = [
    ("first open ÷ libtracecmd iterate, wall", ("first_open", "wall_s"), ("iterate", "seconds"),
     1.3, 0.4,
     "DESIGN.md: <= 1.3x (the first open is a whole process, start-up to exit; libtracecmd's "
     "figure is its in-process open + iteration, which leans against Chronoscope); "
     + WALL_BAND_WHY + ": a 40 % band"),
    ("first open ÷ libtracecmd iterate, CPU", ("first_open", "cpu_s"), ("iterate", "cpu_s"),
     1.3, 0.25,
     "DESIGN.md: <= 1.3x (1.03x measured on the large recording; issue 22 saw 1.24x); "
     + CPU_BAND_WHY + ": a 25 % band"),
    ("reopen to first frame ÷ first open, CPU", ("render", "cpu_s"), ("first_open", "cpu_s"),
     0.2, 0.25,
     "issue 22.4: the first frame computes nothing over the whole recording: the legend's tasks "
     "come from the task times (cs_document_compute_task_times()), the event formats are parsed "
     "only when needed.  What is left does not grow with the events: start-up and the 1920x1080 "
     "PNG encoded (0.14x of the first open's CPU on the medium recording).  Target 0.2x; the "
     "regression of issue 22 (the whole recording's wakeup summary first) made it 0.56x.  "
     "Short processes' CPU times: a 25 % band"),
    # The pass against libtracecmd's iteration, not against the first open:
    # both read every record of the file, and the first open became ~35 %
    # cheaper in issue 26's round while the pass did not, which moved "pass
    # ÷ first open" on this recording from ~0.85x to ~1.14x of CPU with no
    # change to the pass.  Target 1.0x keeps the bar where it was in
    # absolute terms (the pass at most the first open, which was ~0.8x of
    # the iteration); issue 12's own ≤ 1x of the first open on the large
    # recording is printed by tests/bench/bench-latency.py.
    ("latency pass ÷ libtracecmd iterate, CPU", ("latency", "cpu_s"),
     ("iterate", "cpu_s"),
     1.0, 0.25,
     "issue 12: the preset's pass over the whole recording costs no more than reading it "
     "(0.91x of the iteration's CPU on the medium recording at a91b9b4, where loading the "
     "plugins weighs more than on the large one); " + CPU_BAND_WHY + ": a 25 % band"),
    ("latency pass ÷ libtracecmd iterate, wall", ("latency", "wall_s"),
     ("iterate", "seconds"),
     1.0, 0.5,
     "the same in wall time (the pass is a whole process, the iteration in-process, which "
     "leans against Chronoscope); " + WALL_BAND_WHY + ", and the pass uses the second core "
     "only for reading: a 50 % band"),
    ("SQL scan ÷ first open, CPU", ("sql", "cpu_s"), ("first_open", "cpu_s"),
     1.0, 0.25,
     "issue 13: reading every event back from the index (" + SQL_SCAN + ") costs no more than "
     "building it; " + CPU_BAND_WHY + ": a 25 % band"),
    # The scan's wall time against libtracecmd's iteration, not against the
    # first open: the scan runs on one core (SQLite steps the virtual table
    # in the query's thread) and the first open on two, so "scan wall ÷
    # first open wall" is about the CPU ratio above times the first open's
    # use of the second core (~1.6x), and it grew past 1.5x whenever the
    # first open got faster (1.57x on an empty clone at 8b02e74, 1.39x at
    # 9b41023 with runs up to 1.55x) with no change to the scan.  The
    # iteration is one core too, and the reader every tool pays.
    ("SQL scan ÷ libtracecmd iterate, wall", ("sql", "wall_s"), ("iterate", "seconds"),
     1.0, 0.5,
     "issue 26: a query over every event comes back no slower than reading the recording "
     "(0.68x of the iteration's wall time on the medium recording at 9b41023); the scan is a "
     "whole process, the iteration in-process, which leans against Chronoscope; "
     + WALL_BAND_WHY + ": a 50 % band"),
]
# The indexer's peak RssAnon (the largest of the runs), in MiB.  Memory is not
# noisy, and 256 MiB is a ceiling whatever the recording: no band.
RSS_TARGET_MIB = 256
RSS_BAND = 0.0
RSS_WANTED_MIB = 64  # issue 26; printed, not checked yet
# Reopen to first frame in seconds, an absolute ceiling beside the ratio:
# issue 22.4's target is 0.3 s on the large recording (0.13 s measured
# quietly, 0.16 s on the medium one); with other work on both cores, 0.5 s
# is the margin (the regression took 1.8 s on medium, 5.8 s on large).
RENDER_CEILING_S = {"medium": 0.5, "large": 0.5}
# render after a fresh open needs no more memory than the indexer (issue
# 22.4: <= 64 MiB RssAnon; 12-14 MiB measured, 68-264 MiB before).
RENDER_RSS_TARGET_MIB = 64

RUNS_TOOLS = ("first_open", "render", "latency", "sql", "iterate")


class Skip(Exception):
    """The machine cannot run the benchmark; the message says why."""


def log(msg):
    print(f"check-bench: {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# The recording


def script_sha256():
    with open(os.path.join(HERE, "make-recording.sh"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def reusable(outdir, size, digest):
    """Whether OUTDIR holds SIZE's v6 file made by this make-recording.sh."""
    meta = bench.read_meta(os.path.join(outdir, f"{size}.meta"))
    return os.path.isfile(os.path.join(outdir, f"{size}-v6.dat")) and meta.get("script_sha256") == digest


def ensure_tracefs():
    """Mounts tracefs at TRACEFS when it is not there (as libtracefs's
    tracefs_tracing_dir() does), or raises Skip saying why it cannot."""
    if os.access(os.path.join(TRACEFS, "tracing_on"), os.W_OK):
        return
    with open("/proc/filesystems") as f:
        if not any(line.split()[-1:] == ["tracefs"] for line in f):
            raise Skip("this kernel has no tracefs (not in /proc/filesystems)")
    r = subprocess.run(["mount", "-t", "tracefs", "nodev", TRACEFS], capture_output=True, text=True)
    if r.returncode != 0 or not os.access(os.path.join(TRACEFS, "tracing_on"), os.W_OK):
        raise Skip(f"no tracefs at {TRACEFS} and `mount -t tracefs nodev {TRACEFS}` failed: "
                   f"{(r.stderr or r.stdout).strip() or 'tracing_on not writable'}")
    log(f"mounted tracefs at {TRACEFS}")


def recording(args):
    """The v6 file to measure, made or reused; and how long making it took (s)."""
    digest = script_sha256()
    v6 = os.path.join(args.outdir, f"{args.size}-v6.dat")
    if reusable(args.outdir, args.size, digest):
        log(f"reusing {v6} (made by this make-recording.sh)")
        return v6, 0.0
    if os.geteuid() != 0:
        raise Skip(f"no {args.size} recording in {args.outdir} made by this make-recording.sh, "
                   "and making one needs root (tracefs)")
    if not shutil.which("trace-cmd"):
        raise Skip("trace-cmd is not installed: it writes the recording (trace-cmd extract)")
    os.makedirs(args.outdir, exist_ok=True)
    with open(TRACEFS_LOCK, "a") as lock:
        log(f"waiting for {TRACEFS_LOCK}")
        fcntl.flock(lock, fcntl.LOCK_EX)
        if reusable(args.outdir, args.size, digest):  # made while we waited
            log(f"reusing {v6}, made meanwhile")
            return v6, 0.0
        ensure_tracefs()
        log(f"making the {args.size} recording in {args.outdir}")
        t0 = time.monotonic()
        r = subprocess.run([os.path.join(HERE, "make-recording.sh"), args.size, args.outdir],
                           stdout=sys.stderr, stderr=sys.stderr)
        made_s = time.monotonic() - t0
    if r.returncode != 0 or not reusable(args.outdir, args.size, digest):
        raise RuntimeError(f"make-recording.sh {args.size} {args.outdir} failed (exit {r.returncode})")
    log(f"made {v6} in {made_s:.0f} s")
    return v6, made_s


# --------------------------------------------------------------------------
# Measuring


def environment(args, data_home):
    """The commands' environment: the build tree's built-ins, no user plugin,
    settings in memory."""
    env = dict(os.environ)
    if "CHRONOSCOPE_PLUGIN_PATH" not in env:
        env["CHRONOSCOPE_PLUGIN_PATH"] = ":".join(bench_plugins.plugin_dirs(args.build, args.source))
    env["XDG_DATA_HOME"] = data_home
    env["GSETTINGS_BACKEND"] = "memory"
    env.setdefault("G_MESSAGES_DEBUG", "")
    return env


def measure_run(args, path, env_base, cache_root):
    """One run of every tool on PATH: {tool: result of bench.timed()}."""
    chronoscope = os.path.join(args.build, "gui", "chronoscope")

    def run(cmd, env=None, stdout_path=None):
        return bench.timed(cmd, env=env, timeout_s=args.timeout, stdout_path=stdout_path)

    res = {}
    bench.warm_file(path)
    cache = tempfile.mkdtemp(prefix="check-", dir=cache_root)
    env = dict(env_base, XDG_CACHE_HOME=cache)
    try:
        res["first_open"] = bench.measure_first_open(chronoscope, path, env, run)
        if not bench.failed(res["first_open"]):
            res["render"] = bench.measure_render(chronoscope, path, os.path.join(cache, "frame.png"),
                                                 env, run)
            res["latency"] = run([chronoscope, "latency", path, "--preset", "wakeup"], env)
            res["sql"] = run([chronoscope, "query", path, SQL_SCAN, "--csv"], env)
            lines = res["sql"].get("stdout", "").split()
            if not bench.failed(res["sql"]) and lines and lines[-1].isdigit():
                res["sql"]["events"] = int(lines[-1])
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    res["iterate"] = bench.measure_iterate(os.path.join(args.build, "tests", "bench", "tracecmd-iterate"),
                                           path, run)
    for tool, r in res.items():
        r.pop("stdout", None)
        if bench.failed(r):
            log(f"  {tool}: {bench.describe(r, 'wall_s', 's')}")
    log("  " + ", ".join(f"{tool} {r['wall_s']:.3f} s" for tool, r in res.items() if "wall_s" in r))
    return res


# --------------------------------------------------------------------------
# Summing up


def values(runs, tool, key):
    return [run[tool][key] for run in runs
            if tool in run and not bench.failed(run[tool]) and isinstance(run[tool].get(key), (int, float))]


def evaluate(runs, size):
    """The check rows: name, value, per-run range, target, limit, ok, unit."""
    rows = []
    for name, num, den, target, band, _why in CHECKS:
        a, b = bench.Stat(values(runs, *num)), bench.Stat(values(runs, *den))
        value = bench.ratio(a.value, b.value)
        per_run = [run[num[0]][num[1]] / run[den[0]][den[1]] for run in runs
                   if all(t in run and not bench.failed(run[t]) and run[t].get(k) for t, k in (num, den))]
        rows.append({"name": name, "value": value, "per_run": per_run, "target": target,
                     "band": band, "limit": target * (1 + band), "unit": "×"})
    render = bench.Stat(values(runs, "render", "wall_s"))
    ceiling = RENDER_CEILING_S[size]
    rows.append({"name": "reopen to first frame, wall", "value": render.value, "per_run": render.values,
                 "target": ceiling, "band": 0.0, "limit": ceiling, "unit": " s"})
    render_rss = bench.Stat(values(runs, "render", "peak_rss_anon_mib"), agg="max")
    rows.append({"name": "reopen to first frame, peak RssAnon", "value": render_rss.value,
                 "per_run": render_rss.values, "target": RENDER_RSS_TARGET_MIB, "band": 0.0,
                 "limit": RENDER_RSS_TARGET_MIB, "unit": " MiB"})
    rss = bench.Stat(values(runs, "first_open", "peak_rss_anon_mib"), agg="max")
    rows.append({"name": "indexer peak RssAnon", "value": rss.value, "per_run": rss.values,
                 "target": RSS_TARGET_MIB, "band": RSS_BAND, "limit": RSS_TARGET_MIB * (1 + RSS_BAND),
                 "unit": " MiB"})
    for r in rows:
        r["ok"] = r["value"] is not None and r["value"] <= r["limit"]
    return rows


def fmt_value(v, unit):
    if v is None:
        return "–"
    return f"{v:.0f}{unit}" if unit == " MiB" else f"{v:.3f}{unit}" if unit == " s" else f"{v:.2f}{unit}"


def report(args, path, runs, rows, made_s, elapsed_s):
    """The whole table, on stdout (meson's log keeps it)."""
    events = bench.Stat(values(runs, "iterate", "events"))
    sql_events = sorted(set(values(runs, "sql", "events")))
    loads = [run["loadavg"] for run in runs]
    n_events = f"{events.value / 1e6:.2f} M events" if events.value else "? events"
    out = [f"Benchmark check (suite 'bench'): {args.size} recording {path}, "
           f"{os.path.getsize(path) / 1e6:.0f} MB, {n_events}",
           f"  {len(runs)} runs, medians (min–max); {os.cpu_count()} CPUs; load average "
           f"{loads[0]} at the start, {bench.loadavg()} at the end; "
           + (f"recording made in {made_s:.0f} s" if made_s else "recording reused")
           + f"; {elapsed_s:.0f} s in all"]
    if sql_events and events.value and sql_events != [events.value]:
        out.append(f"  NOTE: the SQL scan counted {sql_events} events, libtracecmd {events.value:.0f}")
    out.append("")
    figures = [("first open (index-worker)", "first_open"),
               ("reopen to first frame (render 1920×1080)", "render"),
               ("latency --preset wakeup", "latency"),
               (f"SQL scan ({SQL_SCAN})", "sql"),
               ("libtracecmd open + iterate (process)", "iterate")]
    w = max(len(n) for n, _ in figures) + 2
    out.append(f"{'':<{w}}{'wall':<24}{'CPU (user+sys)':<24}peak RssAnon")
    for name, tool in figures:
        wall = bench.Stat(values(runs, tool, "wall_s")).fmt(".3f", " s")
        cpu = bench.Stat(values(runs, tool, "cpu_s")).fmt(".3f", " s")
        rss = bench.Stat(values(runs, tool, "peak_rss_anon_mib"), agg="max").fmt(".0f", " MiB")
        why = next((bench.describe(run[tool], "wall_s", "s") for run in runs
                    if tool in run and bench.failed(run[tool])), "")
        out.append(f"{name:<{w}}{wall:<24}{cpu:<24}{rss}" + (f"   ({why})" if why else ""))
        steps = [(step, bench.Stat(values(runs, tool, f"step_{step}_s")))
                 for step in [n for n, _ in bench.INDEX_STEPS] + ["other"]]
        if tool == "first_open" and all(st.value is not None for _, st in steps):
            out.append(f"{'  of which CPU by step':<{w}}"
                       + ", ".join(f"{step} {st.value:.3f}" for step, st in steps) + " s")
    inproc = bench.Stat(values(runs, "iterate", "seconds")).fmt(".3f", " s")
    out.append(f"{'  of which open + iterate in-process':<{w}}{inproc}")
    out.append("")
    out.append(f"{'check':<44}{'measured':>10}  {'runs':<14}{'target':>9}{'band':>6}{'limit':>10}  verdict")
    for r in rows:
        runs_s = (f"{min(r['per_run']):.2f}–{max(r['per_run']):.2f}" if len(r["per_run"]) > 1 else "")
        verdict = "ok" if r["ok"] else ("FAILED" if r["value"] is not None else "FAILED (not measured)")
        out.append(f"{r['name']:<44}{fmt_value(r['value'], r['unit']):>10}  {runs_s:<14}"
                   f"{fmt_value(r['target'], r['unit']):>9}{r['band']:>6.0%}"
                   f"{fmt_value(r['limit'], r['unit']):>10}  {verdict}")
    rss = next(r for r in rows if r["name"] == "indexer peak RssAnon")
    if rss["value"] is not None:
        out.append(f"  (issue 26 wants <= {RSS_WANTED_MIB} MiB, not checked yet: "
                   f"{'within' if rss['value'] <= RSS_WANTED_MIB else 'over'})")
    out.append("")
    out.append("Bands (a ratio fails above target × (1 + band)):")
    for name, _num, _den, _target, band, why in CHECKS:
        out.append(f"  {name}: {why}.")
    out.append(f"  reopen to first frame, wall: an absolute ceiling of {RENDER_CEILING_S[args.size]:g} s "
               "(issue 22.4's target is 0.3 s on the large recording).")
    out.append(f"  reopen to first frame, peak RssAnon: issue 22.4's {RENDER_RSS_TARGET_MIB} MiB, no more than "
               "the indexer; no band.")
    out.append(f"  indexer peak RssAnon: DESIGN.md's {RSS_TARGET_MIB} MiB whatever the recording; "
               "memory is not noisy: no band.")
    print("\n".join(out), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True, help="the meson build folder")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(HERE)))
    ap.add_argument("--size", choices=sorted(RENDER_CEILING_S), default="medium")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--outdir", default=os.environ.get("CS_BENCH_OUTDIR", "/var/tmp/chronoscope-bench"))
    ap.add_argument("--timeout", type=float, default=120, help="seconds before a command is given up")
    ap.add_argument("--skip", metavar="WHY", help="skip (exit 77), saying WHY")
    args = ap.parse_args()
    if args.skip:
        print(f"SKIP: {args.skip}")
        return SKIP
    if args.runs < 3:
        ap.error("--runs: at least 3 (medians)")

    t0 = time.monotonic()
    try:
        path, made_s = recording(args)
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    cache_root = os.path.join(args.outdir, "cache")
    os.makedirs(cache_root, exist_ok=True)
    data_home = tempfile.mkdtemp(prefix="check-data-", dir=cache_root)
    runs = []
    try:
        env = environment(args, data_home)
        bench.warm_file(path)
        for i in range(args.runs):
            log(f"run {i + 1}/{args.runs} (load average {bench.loadavg()})")
            run = {"loadavg": bench.loadavg()}
            run.update(measure_run(args, path, env, cache_root))
            runs.append(run)
    finally:
        shutil.rmtree(data_home, ignore_errors=True)
    rows = evaluate(runs, args.size)
    report(args, path, runs, rows, made_s, time.monotonic() - t0)
    broken = sorted({tool for run in runs for tool in RUNS_TOOLS if tool in run and bench.failed(run[tool])})
    if broken:
        print(f"FAILED: {', '.join(broken)} did not give figures (see above)")
    failed_checks = [r["name"] for r in rows if not r["ok"]]
    if failed_checks:
        print(f"FAILED: {'; '.join(failed_checks)}")
    return 1 if broken or failed_checks else 0


if __name__ == "__main__":
    sys.exit(main())
