#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench.py: measure Chronoscope against its anchors on one pair of recordings.

Called by run-bench.sh, which builds the tools and makes the recordings; see
there for the command line users run.  This file measures, in ONE run and on
the same two files (the v6 recording and its v7 zstd twin), N runs each,
interleaved (run 1 of everything, then run 2, ...) so that the machine's noise
falls on every tool alike:

  first open   `chronoscope index-worker FILE` with a fresh XDG_CACHE_HOME:
               wall time of the process, peak RssAnon (sampled from
               /proc/PID/status every 20 ms), max RSS (/usr/bin/time -v), the
               index's size, and the CPU time of each step of the build
               (read, decode, summarise, encode, write: the worker's
               CHRONOSCOPE_INDEX_STEPS=1 line, see index/cs-index-steps.c)
               with what no step holds ("other": start-up, formats, the
               queue between threads, opening the finished index).
               Measuring the steps reads each thread's CPU clock ~35 k
               times for the medium recording, ~3 % of the first open's
               CPU time on the project's VMs; CS_BENCH_STEPS=0 in the
               environment leaves them out
  reopen       the same command again with the index present; `chronoscope
               info`; `chronoscope render FILE -o x.png --width 1920 --height
               1080` (launch to the first complete frame, PNG written; its
               peak RssAnon); the window's reopen: `chronoscope FILE` under
               Xvfb, launch to the first painted frame of the plots (see
               bench_window.py)
  frame        bench-frame FILE (1920x1080, full zoom-out and a 10 us window;
               median of its frames)
  libtracecmd  tracecmd-iterate FILE (open + tracecmd_iterate_events)
  KernelShark  kshark-load FILE (kshark_open + kshark_load_entries)
  report       `trace-cmd report FILE > /dev/null` (not for the large size)
  plugins      the first open again, twice: with every built-in plugin and
               with none (`index-worker` then `info --json` on a fresh cache;
               see bench_plugins.py), against the same run's libtracecmd
               iteration.  --plugins-only measures only this and libtracecmd's
               iteration (--formats v6 to leave v7 out).

Ratios are conservative for Chronoscope: its first open is the whole process
(start-up, index build, rename, exit) while libtracecmd's and KernelShark's
times are the in-process open + read/load only (no start-up, no free, no exit).

Prints the table and the ratios of DESIGN.md's TARGETS, and writes them as
JSON and markdown into OUTDIR/results/.
"""

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import bench_plugins
import bench_window

MIB = 1024 * 1024
SAMPLE_INTERVAL_S = 0.020

TARGETS = {
    "open_vs_iterate": 1.3,
    "kshark_vs_open": 2.0,
    "v7_vs_v6": 2.0,
    "rss_anon_mib": 256,
    "bytes_per_event": 10,
    "reopen_s": 0.3,
    "render_rss_anon_mib": 64,
    "frame_ms": 16,
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Running one measured process


def read_status_kib(pid):
    """RssAnon, VmRSS and VmHWM of PID in KiB, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            text = f.read()
    except OSError:
        return None
    values = {}
    for key in ("RssAnon", "VmRSS", "VmHWM"):
        m = re.search(rf"^{key}:\s+(\d+) kB", text, re.M)
        if m:
            values[key] = int(m.group(1))
    return values


def children_of(pid):
    """The children of PID's threads."""
    kids = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids += [int(k) for k in f.read().split()]
    except OSError:
        pass
    return kids


def child_of(pid):
    """The first child of PID (the command /usr/bin/time runs), or None."""
    kids = children_of(pid)
    return kids[0] if kids else None


def descendants(pid):
    """PID's children, their children, ... (a command's pass workers)."""
    out, todo = [], children_of(pid)
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children_of(p)
    return out


class Sampler(threading.Thread):
    """Samples the measured process's memory every 20 ms until stopped."""

    def __init__(self, pid, through_time):
        super().__init__(daemon=True)
        self.pid = pid
        self.through_time = through_time
        self.stop = threading.Event()
        self.peak_rss_anon_kib = 0
        self.peak_rss_kib = 0
        self.hwm_kib = 0
        self.n_samples = 0

    def run(self):
        target = None if self.through_time else self.pid
        while not self.stop.is_set():
            if target is None:
                target = child_of(self.pid)
            if target is not None:
                # The command and any process it starts (plugin passes run
                # in `index-worker --pass` children): the peak of any one.
                s = read_status_kib(target)
                if s:
                    self.n_samples += 1
                    for other in descendants(target):
                        o = read_status_kib(other) or {}
                        for key in s:
                            s[key] = max(s[key], o.get(key, 0))
                    self.peak_rss_anon_kib = max(self.peak_rss_anon_kib, s.get("RssAnon", 0))
                    self.peak_rss_kib = max(self.peak_rss_kib, s.get("VmRSS", 0))
                    self.hwm_kib = max(self.hwm_kib, s.get("VmHWM", 0))
            self.stop.wait(SAMPLE_INTERVAL_S)


def run_measured(cmd, env=None, timeout_s=None, stdout_path=None):
    """Runs CMD, returns a dict: wall_s, rc, timed_out, stdout, stderr,
    peak_rss_anon_mib (sampled), peak_rss_mib (sampled), max_rss_mib
    (/usr/bin/time -v, else wait4's ru_maxrss), n_samples."""
    have_time = os.access("/usr/bin/time", os.X_OK)
    with tempfile.TemporaryDirectory(prefix="cs-bench-") as tmp:
        time_out = os.path.join(tmp, "time")
        out_path = stdout_path or os.path.join(tmp, "stdout")
        err_path = os.path.join(tmp, "stderr")
        argv = (["/usr/bin/time", "-v", "-o", time_out] if have_time else []) + list(cmd)
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            t0 = time.monotonic()
            # A session of its own: a timeout kills the whole tree.
            proc = subprocess.Popen(argv, stdout=out, stderr=err, env=env, start_new_session=True)
        sampler = Sampler(proc.pid, have_time)
        sampler.start()
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    return
                time.sleep(3)

        timer = threading.Timer(timeout_s, kill) if timeout_s else None
        if timer:
            timer.daemon = True
            timer.start()
        _, status, rusage = os.wait4(proc.pid, 0)
        t1 = time.monotonic()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if timer:
            timer.cancel()
        sampler.stop.set()
        sampler.join()

        max_rss_kib = rusage.ru_maxrss
        if have_time and os.path.exists(time_out):
            with open(time_out) as f:
                m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", f.read())
            if m:
                max_rss_kib = int(m.group(1))
        with open(out_path, "rb") as f:
            stdout = f.read().decode("utf-8", "replace") if not stdout_path else ""
        with open(err_path, "rb") as f:
            stderr = f.read().decode("utf-8", "replace")
    return {
        "wall_s": t1 - t0,
        "rc": proc.returncode,
        "timed_out": timed_out.is_set(),
        "stdout": stdout,
        "stderr": stderr[-2000:],
        "peak_rss_anon_mib": sampler.peak_rss_anon_kib / 1024,
        "peak_rss_mib": max(sampler.peak_rss_kib, sampler.hwm_kib) / 1024,
        "max_rss_mib": max_rss_kib / 1024,
        # The waited-for descendants' time is included: /usr/bin/time's
        # rusage holds the command's.
        "cpu_s": rusage.ru_utime + rusage.ru_stime,
        "n_samples": sampler.n_samples,
    }


def key_values(text):
    """The key=value pairs of the last line of TEXT that has any."""
    for line in reversed(text.strip().splitlines()):
        pairs = dict(p.split("=", 1) for p in line.split() if "=" in p)
        if pairs:
            return pairs
    return {}


def numeric_key_values(text):
    """The numeric key=value pairs of key_values(TEXT), as ints and floats."""
    return {k: float(v) if "." in v else int(v) for k, v in key_values(text).items()
            if re.fullmatch(r"[\d.]+", v)}


def timed(cmd, env=None, timeout_s=None, stdout_path=None):
    """run_measured, with "not_finished" set when CMD timed out and "error"
    (its last line on stderr) when it exited with another status than 0."""
    r = run_measured(cmd, env=env, timeout_s=timeout_s, stdout_path=stdout_path)
    if r["timed_out"]:
        r["not_finished"] = f"> {timeout_s:g} s, not finished"
    elif r["rc"] != 0:
        r["error"] = (r["stderr"].strip().splitlines() or [f"exit status {r['rc']}"])[-1]
    return r


def failed(r):
    """Whether the result R of timed() holds no figure (skipped, not
    finished or failed)."""
    return any(k in r for k in ("skipped", "not_finished", "error"))


# --------------------------------------------------------------------------
# One measurement each.  RUN is timed() or a wrapper of it with the same
# arguments (Bench's, which stops running a tool that did not finish once);
# ENV carries the XDG_CACHE_HOME the index goes to.


# The steps of the index build whose CPU time the worker prints with
# CHRONOSCOPE_INDEX_STEPS=1 (index/cs-index-steps.c), in its order, and what
# the tables call them.
INDEX_STEPS = (("read", "pread, decompress"), ("decode", "page walk, fields"),
               ("summarise", "counts, slices, tasks, pyramid"), ("encode", "cs_chunk_encode"),
               ("write", "SQLite, writer thread"))


def index_steps(r):
    """Adds to R (a first open's result) step_<name>_s for each of
    INDEX_STEPS and step_other_s (its CPU time no step holds), from the
    worker's last line on stderr, when it printed one."""
    for line in reversed(r.get("stderr", "").strip().splitlines()):
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        steps = doc.get("index_steps") if isinstance(doc, dict) else None
        if not isinstance(steps, dict):
            continue
        values = {name: steps.get(f"{name}_s") for name, _ in INDEX_STEPS}
        if all(isinstance(v, (int, float)) for v in values.values()):
            for name, v in values.items():
                r[f"step_{name}_s"] = v
            if isinstance(r.get("cpu_s"), (int, float)):
                r["step_other_s"] = max(0.0, r["cpu_s"] - sum(values.values()))
        return


def measure_first_open(chronoscope, path, env, run=timed):
    """Chronoscope's first open: `chronoscope index-worker PATH`, the index
    build in the worker process (ENV's cache should be empty), with the CPU
    time of each of its steps (index_steps()).  Adds index_path,
    index_bytes and cache_bytes when the worker said "done"."""
    if os.environ.get("CS_BENCH_STEPS", "1") != "0":
        env = dict(env, CHRONOSCOPE_INDEX_STEPS="1")
    r = run([chronoscope, "index-worker", path], env)
    index_steps(r)
    done = [l for l in r.get("stdout", "").splitlines() if l.startswith(("done ", "error "))]
    r["protocol"] = done[-1] if done else ""
    if done and done[-1].startswith("done "):
        index_path = done[-1][5:]
        r["index_path"] = index_path
        r["index_bytes"] = os.path.getsize(index_path)
        cache = env["XDG_CACHE_HOME"]
        r["cache_bytes"] = sum(os.path.getsize(os.path.join(d, f))
                               for d, _, fs in os.walk(cache) for f in fs)
    elif not failed(r):
        r["error"] = r["protocol"] or "no 'done' line from index-worker"
    return r


def measure_render(chronoscope, path, png, env, run=timed):
    """Reopen to the first complete frame: `chronoscope render PATH -o PNG
    --width 1920 --height 1080` on the index ENV's cache holds (launch to
    PNG written)."""
    return run([chronoscope, "render", path, "-o", png, "--width", "1920", "--height", "1080"], env)


def measure_iterate(iterate, path, run=timed):
    """libtracecmd's raw iteration, the anchor of the first open:
    tracecmd-iterate PATH, from a warm page cache.  Adds its key=value
    figures (events, seconds: open + iterate inside the process, ...)."""
    warm_file(path)
    r = run([iterate, path])
    r.update(numeric_key_values(r.get("stdout", "")))
    return r


# --------------------------------------------------------------------------
# The measurements


class Bench:
    def __init__(self, args):
        self.args = args
        b = args.build
        self.chronoscope = os.path.join(b, "gui", "chronoscope")
        self.bench_frame = os.path.join(b, "tests", "render", "bench-frame")
        self.iterate = os.path.join(b, "tests", "bench", "tracecmd-iterate")
        self.kshark = os.path.join(b, "tests", "bench", "kshark-load")
        self.have_kshark = os.access(self.kshark, os.X_OK)
        self.files = {fmt: os.path.join(args.outdir, f"{args.size}-{fmt}.dat") for fmt in args.formats}
        self.cache_root = os.path.join(args.outdir, "cache")
        self.plugins = None  # a bench_plugins.PluginBench once run() starts
        self.run_index = 0
        self.gave_up = {}   # (tool, fmt) -> why it is not run again
        self.runs = []      # one dict per run: fmt -> tool -> result

    def env_with_cache(self, cache):
        env = dict(os.environ)
        env["XDG_CACHE_HOME"] = cache
        env.setdefault("G_MESSAGES_DEBUG", "")
        return env

    def timed(self, tool, fmt, cmd, env=None, stdout_path=None):
        """run_measured, unless TOOL already failed to finish on FMT."""
        if (tool, fmt) in self.gave_up:
            return {"skipped": self.gave_up[(tool, fmt)]}
        r = timed(cmd, env=env, timeout_s=self.args.timeout, stdout_path=stdout_path)
        if "not_finished" in r:
            self.gave_up[(tool, fmt)] = r["not_finished"]
        return r

    def runner(self, tool, fmt):
        """timed() for the measure_*() functions, through self.timed."""
        return lambda cmd, env=None, stdout_path=None: self.timed(tool, fmt, cmd, env, stdout_path)

    def measure_frames(self, fmt, paths, env, allow_build=False):
        """bench-frame on PATHS (one recording, or two drawn as streams):
        median ms at full zoom-out and at a 10 µs window."""
        cmd = [self.bench_frame, paths[0], str(self.args.frames)] + paths[1:]
        rf = self.timed("frame" if len(paths) == 1 else "frame_streams", fmt, cmd, env)
        built = 0
        for line in rf.get("stdout", "").splitlines():
            m = re.match(r"(zoom-out|10 µs)\s.*median\s+([\d.]+) ms", line)
            if m:
                rf["zoom_out_ms" if m.group(1) == "zoom-out" else "window_10us_ms"] = float(m.group(2))
            if line.startswith("index ") and "built" in line:
                built += 1
        if built > (len(paths) - 1 if allow_build else 0):
            rf["odd"] = "bench-frame rebuilt the index"
        return rf

    def measure_file(self, fmt, path):
        res = {}
        res["plugins"] = self.plugins.measure(fmt, path, self.run_index, warm_file, log, describe)
        if self.args.plugins_only:
            self.measure_iterate(fmt, path, res)
            return res
        # Again before each tool: the runs before may have pushed the file
        # out of the page cache (libtracecmd's unfinished v7 read and
        # KernelShark's loader take gigabytes), and a cold read would
        # penalise whichever tool comes next (twice the CPU time for the
        # large file's first open).
        warm_file(path)
        cache = tempfile.mkdtemp(prefix=f"run-{fmt}-", dir=self.cache_root)
        env = self.env_with_cache(cache)
        try:
            # First open: the index build in the worker process, fresh cache.
            r = measure_first_open(self.chronoscope, path, env, self.runner("chronoscope", fmt))
            res["first_open"] = r
            log(f"  {fmt} first open: {describe(r, 'wall_s', 's')}"
                + (f", peak RssAnon {r['peak_rss_anon_mib']:.0f} MiB, index {r['index_bytes'] / MIB:.1f} MiB"
                   if "index_bytes" in r else "")
                + ("; CPU " + ", ".join(f"{name} {r[f'step_{name}_s']:.2f}"
                                        for name in [n for n, _ in INDEX_STEPS] + ["other"]) + " s"
                   if "step_other_s" in r else ""))

            if "index_bytes" in r:
                res["reopen_worker"] = self.timed("reopen", fmt, [self.chronoscope, "index-worker", path], env)
                ri = self.timed("info", fmt, [self.chronoscope, "info", path, "--json"], env)
                try:
                    ri["n_events"] = json.loads(ri["stdout"])["n_events"]
                except (KeyError, ValueError):
                    pass
                ri["stdout"] = ""
                res["reopen_info"] = ri
                png = os.path.join(cache, "frame.png")
                res["reopen_render"] = measure_render(self.chronoscope, path, png, env,
                                                      self.runner("render", fmt))
                res["reopen_window"] = bench_window.measure(self.chronoscope, path, env, self.args.timeout)
                res["frame"] = self.measure_frames(fmt, [path], env)
                other = self.files.get("v6")
                if fmt == "v7" and other is not None and os.path.exists(other):
                    # Issue 25: both large recordings as streams of one
                    # window (same machine and clock: aligned as recorded).
                    # bench-frame indexes v6 in this cache first, untimed.
                    res["frame_streams"] = self.measure_frames(fmt, [path, other], env,
                                                               allow_build=True)
                    log(f"  two recordings (v7 + v6) frame {res['frame_streams'].get('zoom_out_ms', '?')}"
                        f" / {res['frame_streams'].get('window_10us_ms', '?')} ms")
                rf = res["frame"]
                log(f"  {fmt} reopen: worker {describe(res['reopen_worker'], 'wall_s', 's')}, "
                    f"render {describe(res['reopen_render'], 'wall_s', 's')}, "
                    f"window {describe(res['reopen_window'], 'wall_s', 's')}; frame "
                    f"{rf.get('zoom_out_ms', '?')} / {rf.get('window_10us_ms', '?')} ms")
        finally:
            shutil.rmtree(cache, ignore_errors=True)

        self.measure_iterate(fmt, path, res)

        if not self.have_kshark:
            res["kshark"] = {"skipped": "kshark-load not built (libkshark-dev, libjson-c-dev)"}
        elif ("tracecmd", fmt) in self.gave_up:
            # KernelShark reads through libtracecmd: it cannot finish either.
            res["kshark"] = {"skipped": "not run: libtracecmd's iteration did not finish"}
        else:
            warm_file(path)
            r = self.timed("kshark", fmt, [self.kshark, path])
            r.update(numeric_key_values(r.get("stdout", "")))
            res["kshark"] = r
            log(f"  {fmt} KernelShark loader: {describe(r, 'seconds', 's')}"
                + (f", max RSS {r['max_rss_mib']:.0f} MiB" if "seconds" in r else ""))

        if self.args.report:
            r = self.timed("report", fmt, ["trace-cmd", "report", path], stdout_path=os.devnull)
            res["report"] = r
            log(f"  {fmt} trace-cmd report: {describe(r, 'wall_s', 's')}")
        return res

    def measure_iterate(self, fmt, path, res):
        """libtracecmd's raw iteration, the anchor of the first open."""
        r = measure_iterate(self.iterate, path, self.runner("tracecmd", fmt))
        res["tracecmd_iterate"] = r
        log(f"  {fmt} libtracecmd iterate: {describe(r, 'seconds', 's')}")

    def warm(self):
        """Reads both files once so that every tool starts from a warm page
        cache (a cold first run would penalise whichever tool runs first)."""
        for path in self.files.values():
            warm_file(path)

    def run(self):
        os.makedirs(self.cache_root, exist_ok=True)
        self.plugins = bench_plugins.PluginBench(self)
        self.warm()
        for i in range(self.args.runs):
            self.run_index = i
            log(f"run {i + 1}/{self.args.runs} (load average {loadavg()})")
            run = {"loadavg_before": loadavg()}
            for fmt, path in self.files.items():
                run[fmt] = self.measure_file(fmt, path)
            run["loadavg_after"] = loadavg()
            self.runs.append(run)
        shutil.rmtree(self.plugins.data_home, ignore_errors=True)


def warm_file(path):
    """Reads @path through the page cache (not timed)."""
    with open(path, "rb") as f:
        while f.read(16 * MIB):
            pass


def describe(r, key, unit):
    if "skipped" in r:
        return r["skipped"]
    if "not_finished" in r:
        return r["not_finished"]
    if "error" in r:
        return f"failed ({r['error']})"
    v = r.get(key)
    return f"{v:.3f} {unit}" if isinstance(v, (int, float)) else "?"


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# --------------------------------------------------------------------------
# Summaries


def collect(runs, fmt, tool, key):
    """Values of KEY over the runs where TOOL finished, and why not if none."""
    values, why = [], None
    for run in runs:
        r = run[fmt].get(tool)
        if r is None:
            continue
        if "skipped" in r or "not_finished" in r or "error" in r:
            why = why or r.get("not_finished") or r.get("skipped") or f"failed: {r['error']}"
            continue
        if isinstance(r.get(key), (int, float)):
            values.append(r[key])
    return values, why


class Stat:
    def __init__(self, values, why=None, agg="median"):
        self.values = values
        self.why = why
        self.agg = agg
        if values:
            self.value = statistics.median(values) if agg == "median" else max(values)
        else:
            self.value = None

    def fmt(self, spec, unit=""):
        if self.value is None:
            return self.why or "–"
        s = format(self.value, spec) + unit
        if self.agg == "median" and len(self.values) > 1:
            s += f" ({format(min(self.values), spec)}–{format(max(self.values), spec)})"
        return s

    def json(self):
        return {"value": self.value, "values": self.values, "aggregate": self.agg, "why_missing": self.why}


def summarise(runs, report):
    S = {}
    for fmt in [f for f in ("v6", "v7") if f in runs[0]]:
        s = {}
        s["first_open_s"] = Stat(*collect(runs, fmt, "first_open", "wall_s"))
        s["first_open_cpu_s"] = Stat(*collect(runs, fmt, "first_open", "cpu_s"))
        for name in [n for n, _ in INDEX_STEPS] + ["other"]:
            s[f"first_open_{name}_cpu_s"] = Stat(*collect(runs, fmt, "first_open", f"step_{name}_s"))
        s["indexer_rss_anon_mib"] = Stat(*collect(runs, fmt, "first_open", "peak_rss_anon_mib"), agg="max")
        s["indexer_max_rss_mib"] = Stat(*collect(runs, fmt, "first_open", "max_rss_mib"), agg="max")
        s["index_bytes"] = Stat(*collect(runs, fmt, "first_open", "index_bytes"))
        s["reopen_worker_s"] = Stat(*collect(runs, fmt, "reopen_worker", "wall_s"))
        s["reopen_info_s"] = Stat(*collect(runs, fmt, "reopen_info", "wall_s"))
        s["reopen_render_s"] = Stat(*collect(runs, fmt, "reopen_render", "wall_s"))
        s["render_rss_anon_mib"] = Stat(*collect(runs, fmt, "reopen_render", "peak_rss_anon_mib"), agg="max")
        s["reopen_window_s"] = Stat(*collect(runs, fmt, "reopen_window", "wall_s"))
        s["frame_zoom_out_ms"] = Stat(*collect(runs, fmt, "frame", "zoom_out_ms"))
        s["frame_10us_ms"] = Stat(*collect(runs, fmt, "frame", "window_10us_ms"))
        s["frame_streams_zoom_out_ms"] = Stat(*collect(runs, fmt, "frame_streams", "zoom_out_ms"))
        s["frame_streams_10us_ms"] = Stat(*collect(runs, fmt, "frame_streams", "window_10us_ms"))
        s["iterate_s"] = Stat(*collect(runs, fmt, "tracecmd_iterate", "seconds"))
        s["iterate_wall_s"] = Stat(*collect(runs, fmt, "tracecmd_iterate", "wall_s"))
        s["iterate_cpu_s"] = Stat(*collect(runs, fmt, "tracecmd_iterate", "cpu_s"))
        s["iterate_rss_anon_mib"] = Stat(*collect(runs, fmt, "tracecmd_iterate", "peak_rss_anon_mib"), agg="max")
        s["kshark_s"] = Stat(*collect(runs, fmt, "kshark", "seconds"))
        s["kshark_wall_s"] = Stat(*collect(runs, fmt, "kshark", "wall_s"))
        s["kshark_cpu_s"] = Stat(*collect(runs, fmt, "kshark", "cpu_s"))
        s["kshark_max_rss_mib"] = Stat(*collect(runs, fmt, "kshark", "max_rss_mib"), agg="max")
        if report:
            s["report_s"] = Stat(*collect(runs, fmt, "report", "wall_s"))
        events = {}
        for name, tool, key in (("chronoscope", "reopen_info", "n_events"),
                                ("libtracecmd", "tracecmd_iterate", "events"),
                                ("kernelshark", "kshark", "events")):
            vals, _ = collect(runs, fmt, tool, key)
            if vals:
                events[name] = sorted(set(vals))
        s["events"] = events
        n = (events.get("libtracecmd") or events.get("chronoscope") or events.get("kernelshark") or [None])[0]
        s["n_events"] = n
        if n and s["index_bytes"].value is not None:
            s["bytes_per_event"] = s["index_bytes"].value / n
        S[fmt] = s
    return S


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def paired(runs, a, b):
    """Per-run ratios A / B, each (fmt, tool, key), over the runs where both
    finished: measured minutes apart, they show how much of a ratio is noise."""
    out = []
    for run in runs:
        ra, rb = run[a[0]].get(a[1], {}), run[b[0]].get(b[1], {})
        va, vb = ra.get(a[2]), rb.get(b[2])
        if all(k not in r for r in (ra, rb) for k in ("skipped", "not_finished", "error")) \
                and isinstance(va, (int, float)) and isinstance(vb, (int, float)) and vb:
            out.append(va / vb)
    return out


def ratios(S, runs):
    """The TARGETS rows: the ratio of the medians, and the per-run ratios."""
    v6, v7 = S["v6"], S["v7"]
    rows = []

    def add(name, value, target, op, unit="", note="", per_run=None):
        ok = None if value is None or note == "informative" else (value <= target if op == "<=" else value >= target)
        rows.append({"name": name, "value": value, "target": target, "op": op, "unit": unit,
                     "ok": ok, "note": note, "per_run": per_run or []})

    first_open = ("first_open", "wall_s")
    iterate = ("tracecmd_iterate", "seconds")
    kshark = ("kshark", "seconds")
    add("first open ÷ libtracecmd iterate (v6)", ratio(v6["first_open_s"].value, v6["iterate_s"].value),
        1.3, "<=", "×", per_run=paired(runs, ("v6",) + first_open, ("v6",) + iterate))
    if v7["iterate_s"].value is None and v7["first_open_s"].value is not None:
        rows.append({"name": "first open ÷ libtracecmd iterate (v7)", "value": None, "target": None,
                     "op": "", "unit": "", "ok": None, "per_run": [],
                     "note": f"libtracecmd {v7['iterate_s'].why or 'missing'}; first open "
                             f"{v7['first_open_s'].value:.2f} s"})
    else:
        add("first open ÷ libtracecmd iterate (v7)", ratio(v7["first_open_s"].value, v7["iterate_s"].value),
            1.3, "<=", "×", "informative", paired(runs, ("v7",) + first_open, ("v7",) + iterate))
    add("KernelShark loader ÷ first open (v6)", ratio(v6["kshark_s"].value, v6["first_open_s"].value),
        2.0, ">=", "×", per_run=paired(runs, ("v6",) + kshark, ("v6",) + first_open))
    add("first open v7 ÷ v6", ratio(v7["first_open_s"].value, v6["first_open_s"].value),
        2.0, "<=", "×", per_run=paired(runs, ("v7",) + first_open, ("v6",) + first_open))
    rss = [x for x in (v6["indexer_rss_anon_mib"].value, v7["indexer_rss_anon_mib"].value) if x is not None]
    add("indexer peak RssAnon (max of v6, v7)", max(rss) if rss else None, 256, "<=", " MiB")
    add("index bytes per event (v6)", v6.get("bytes_per_event"), 10, "<=", " B")
    add("reopen to first frame, render 1920×1080 (v6)", v6["reopen_render_s"].value, TARGETS["reopen_s"],
        "<=", " s", "launch to PNG written")
    add("render after a fresh open, peak RssAnon (v6)", v6["render_rss_anon_mib"].value,
        TARGETS["render_rss_anon_mib"], "<=", " MiB")
    add("reopen to first frame, window (v6)", v6["reopen_window_s"].value, TARGETS["reopen_s"], "<=", " s",
        "informative")
    add("frame 1920×1080, full zoom-out (v6)", v6["frame_zoom_out_ms"].value, 16, "<=", " ms")
    add("frame 1920×1080, 10 µs window (v6)", v6["frame_10us_ms"].value, 16, "<=", " ms")
    # issue 25 item 6: two large recordings in one window stay in budget
    add("frame 1920×1080, v7 + v6 together, zoom-out", v7["frame_streams_zoom_out_ms"].value,
        16, "<=", " ms")
    add("frame 1920×1080, v7 + v6 together, 10 µs", v7["frame_streams_10us_ms"].value,
        16, "<=", " ms")
    return rows


def table_rows(S, report):
    def both(key, spec, unit=""):
        return [S["v6"][key].fmt(spec, unit), S["v7"][key].fmt(spec, unit)]

    rows = [
        ("Chronoscope first open (index-worker, wall)", both("first_open_s", ".2f", " s")),
        ("  CPU time (user + sys, whole process)", both("first_open_cpu_s", ".2f", " s")),
    ] + [
        (f"    {name} ({what})", [step_cell(S[f], name) for f in ("v6", "v7")])
        for name, what in INDEX_STEPS + (("other", "start-up, formats, queue, reopen"),)
    ] + [
        ("  indexer peak RssAnon (sampled every 20 ms)", both("indexer_rss_anon_mib", ".0f", " MiB")),
        ("  indexer max RSS (/usr/bin/time -v)", both("indexer_max_rss_mib", ".0f", " MiB")),
        ("  index size", [fmt_size(S[f]["index_bytes"].value, S[f].get("bytes_per_event")) for f in ("v6", "v7")]),
        ("Chronoscope reopen (index-worker)", both("reopen_worker_s", ".3f", " s")),
        ("Chronoscope reopen (info)", both("reopen_info_s", ".3f", " s")),
        ("Chronoscope reopen to first frame (render)", both("reopen_render_s", ".3f", " s")),
        ("  render peak RssAnon (sampled every 20 ms)", both("render_rss_anon_mib", ".0f", " MiB")),
        ("Chronoscope reopen to first frame (window)", both("reopen_window_s", ".3f", " s")),
        ("frame 1920×1080, zoom-out (bench-frame)", both("frame_zoom_out_ms", ".2f", " ms")),
        ("frame 1920×1080, 10 µs window", both("frame_10us_ms", ".2f", " ms")),
        ("  two recordings in one window (v7 + v6, CsStreamsRenderer): zoom-out",
         ["–", S["v7"]["frame_streams_zoom_out_ms"].fmt(".2f", " ms")]),
        ("  two recordings: 10 µs window", ["–", S["v7"]["frame_streams_10us_ms"].fmt(".2f", " ms")]),
        ("libtracecmd open + iterate", both("iterate_s", ".2f", " s")),
        ("  CPU time (user + sys, whole process)", both("iterate_cpu_s", ".2f", " s")),
        ("  peak RssAnon", both("iterate_rss_anon_mib", ".0f", " MiB")),
        ("KernelShark 2.2.1 loader (open + load)", both("kshark_s", ".2f", " s")),
        ("  CPU time (user + sys, whole process)", both("kshark_cpu_s", ".2f", " s")),
        ("  max RSS (/usr/bin/time -v)", both("kshark_max_rss_mib", ".0f", " MiB")),
    ]
    if report:
        rows.append(("trace-cmd report > /dev/null", both("report_s", ".1f", " s")))
    return rows


def step_cell(s, name):
    """A step's CPU time in the first open and its share of the process's,
    from the medians: "0.19 s, 18 % (0.18–0.20)"."""
    st, cpu = s[f"first_open_{name}_cpu_s"], s["first_open_cpu_s"].value
    if st.value is None:
        return st.why or "–"
    cell = f"{st.value:.2f} s"
    if cpu:
        cell += f", {100 * st.value / cpu:.0f} %"
    if len(st.values) > 1:
        cell += f" ({min(st.values):.2f}–{max(st.values):.2f})"
    return cell


def fmt_size(n, per_event):
    if n is None:
        return "–"
    s = f"{n / MIB:.1f} MiB"
    if per_event is not None:
        s += f", {per_event:.2f} B/event"
    return s


def fmt_ratio(r):
    if r["value"] is None:
        return r["note"] or "–"
    v = f"{r['value']:.0f}{r['unit']}" if "MiB" in r["unit"] else f"{r['value']:.2f}{r['unit']}"
    t = f"{r['op']} {r['target']:g}{r['unit']}"
    verdict = {True: "ok", False: "MISSED", None: ""}[r["ok"]]
    note = f"  ({r['note']})" if r["note"] and r["note"] != "informative" else ""
    if len(r["per_run"]) > 1:
        note += f"  runs {min(r['per_run']):.2f}–{max(r['per_run']):.2f}×"
    if r["note"] == "informative":
        verdict = "(informative)"
    return f"{v:>12}   target {t:<10} {verdict}{note}"


def raw_runs(runs):
    """Every measurement of every run, without the tools' stdout."""
    out = []
    for run in runs:
        out.append({k: ({tool: {kk: vv for kk, vv in res.items() if kk != "stdout"}
                         for tool, res in v.items()} if k in ("v6", "v7") else v)
                    for k, v in run.items()})
    return out


def git_state(src):
    def git(*a):
        try:
            return subprocess.run(["git", "-C", src, *a], capture_output=True, text=True,
                                  timeout=20).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    return {"commit": git("rev-parse", "HEAD"),
            "dirty_files": len([l for l in git("status", "--porcelain").splitlines() if l.strip()])}


def read_meta(path):
    meta = {}
    try:
        with open(path) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    meta[k] = v
    except OSError:
        pass
    return meta


def header(doc):
    """The lines that say what was measured, where and when."""
    runs, recs, host = doc["raw_runs"], doc["recordings"], doc["host"]
    started = datetime.datetime.fromisoformat(doc["started"])
    out = [f"{started:%Y-%m-%d %H:%M} UTC, {host['node']}, {host['cpus']} CPUs, kernel {host['kernel']}, "
           f"commit {doc['source']['commit'][:12] or '?'}"
           f"{' + %d changed files' % doc['source']['dirty_files'] if doc['source']['dirty_files'] else ''}, "
           f"load average {runs[0]['loadavg_before']} → {runs[-1]['loadavg_after']}"]
    for fmt, r in recs.items():
        ev = f"{r['events'] / 1e6:.2f} M events" if r["events"] else "? events"
        out.append(f"  {fmt}: {r['path']}  {r['bytes'] / 1e6:.0f} MB, {ev}")
    return out


def busy_note(doc):
    """A note when the load average passed the number of CPUs."""
    runs, host, out = doc["raw_runs"], doc["host"], []
    busiest = max(float(run[k].split()[0]) for run in runs for k in ("loadavg_before", "loadavg_after"))
    if busiest > host["cpus"]:
        out.append(f"  NOTE: the machine was busy (load average up to {busiest:g} on {host['cpus']} CPUs):"
                   " expect noise; trust the ratios more than the seconds")
    return out


def render_plugins_only(doc):
    """The text and markdown of a --plugins-only results document."""
    runs = doc["raw_runs"]
    fmts = list(doc["recordings"])
    out = [f"Chronoscope benchmark, first open with and without plugins: {doc['size']} recording, "
           f"{len(runs)} run{'s' if len(runs) > 1 else ''} each, medians (min–max)"]
    out += header(doc) + busy_note(doc)
    out.append("")
    ptext, pmd, S = bench_plugins.render(runs, fmts)
    out.append(ptext)
    text = "\n".join(out)
    md = [f"# Chronoscope benchmark, first open with and without plugins, {doc['size']} recording",
          "", "```", text, "```", "", pmd]
    return text, "\n".join(md) + "\n", S


def render(doc):
    """The text table and the markdown of a results document."""
    if doc.get("plugins_only"):
        return render_plugins_only(doc) + ([],)
    runs = doc["raw_runs"]
    report = doc.get("report", "report" in runs[0]["v6"])
    S = summarise(runs, report)
    R = ratios(S, runs)
    recs, meta = doc["recordings"], doc["recording_meta"]

    out = []
    out.append(f"Chronoscope benchmark: {doc['size']} recording, {len(runs)} run{'s' if len(runs) > 1 else ''} each, medians (min–max)")
    out += header(doc)
    for fmt in ("v6", "v7"):
        ev = S[fmt]["events"]
        if len({v for vals in ev.values() for v in vals}) > 1:
            out.append(f"  NOTE: the readers disagree on the number of events in {fmt}: {ev}")
    odd = sorted({res["odd"] for run in runs for fmt in ("v6", "v7")
                  for res in run[fmt].values() if "odd" in res})
    for o in odd:
        out.append(f"  NOTE: {o}")
    if meta.get("lost_events", "0") not in ("", "0"):
        out.append(f"  NOTE: {meta['lost_events']} events were lost while recording")
    out += busy_note(doc)
    out.append("")
    rows = table_rows(S, report)
    w0 = max(len(r[0]) for r in rows) + 2
    w1 = max(len(r[1][0]) for r in rows) + 3
    out.append(f"{'':<{w0}}{'v6 (uncompressed)':<{w1}}v7 (zstd)")
    for name, (a, b) in rows:
        out.append(f"{name:<{w0}}{a:<{w1}}{b}")
    out.append("")
    out.append("Ratios (DESIGN.md, TARGETS)")
    for r in R:
        out.append(f"  {r['name']:<48}{fmt_ratio(r)}")
    out.append("")
    out.append("First open is the index-worker process's wall time (start-up to exit); libtracecmd's and")
    out.append("KernelShark's are their in-process open + read/load (no start-up, free or exit): the ratios")
    out.append("lean against Chronoscope.  A ratio is of the medians; \"runs\" is the range of the ratios")
    out.append("within each run.  Warm page cache (each file is read again before each tool's run).")
    out.append("")
    ptext, pmd, _ = bench_plugins.render(runs, ["v6", "v7"])
    out.append(ptext)
    text = "\n".join(out)

    md = [f"# Chronoscope benchmark, {doc['size']} recording", "", "```", text, "```", ""]
    md.append(f"| measure | v6 ({recs['v6']['bytes'] / 1e6:.0f} MB) | v7 zstd ({recs['v7']['bytes'] / 1e6:.0f} MB) |")
    md.append("|---|---|---|")
    for name, (a, b) in rows:
        md.append(f"| {name.strip()} | {a} | {b} |")
    md.append("")
    md.append("| ratio | measured | target | |")
    md.append("|---|---|---|---|")
    for r in R:
        v = "–" if r["value"] is None else f"{r['value']:.2f}{r['unit']}"
        if len(r["per_run"]) > 1:
            v += f" (runs {min(r['per_run']):.2f}–{max(r['per_run']):.2f})"
        t = "" if r["target"] is None else f"{r['op']} {r['target']:g}{r['unit']}"
        ok = {True: "ok", False: "**missed**", None: r["note"]}[r["ok"]]
        md.append(f"| {r['name']} | {v} | {t} | {ok} |")
    md += ["", pmd]
    return text, "\n".join(md) + "\n", S, R


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    ap.add_argument("--outdir")
    ap.add_argument("--size")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--report", action=argparse.BooleanOptionalAction, default=None)
    ap.add_argument("--plugins-only", action="store_true",
                    help="measure only the first open with and without the built-in plugins, "
                         "and libtracecmd's iteration")
    ap.add_argument("--formats", default="v6,v7",
                    help="with --plugins-only: which recordings, v6 and/or v7 (default v6,v7)")
    ap.add_argument("--from-json", metavar="FILE",
                    help="print the table of earlier results (and rewrite FILE's .md) without measuring")
    args = ap.parse_args()

    if args.from_json:
        with open(args.from_json) as f:
            doc = json.load(f)
        text, md, _, _ = render(doc)
        print(text)
        with open(re.sub(r"\.json$", "", args.from_json) + ".md", "w") as f:
            f.write(md)
        return

    if not (args.build and args.outdir and args.size):
        ap.error("--build, --outdir and --size are needed (or --from-json)")
    if args.report is None:
        args.report = args.size != "large"
    args.formats = [f for f in args.formats.split(",") if f]
    if not args.formats or any(f not in ("v6", "v7") for f in args.formats):
        ap.error("--formats takes v6, v7 or v6,v7")
    if not args.plugins_only and args.formats != ["v6", "v7"]:
        ap.error("--formats needs --plugins-only (the full benchmark compares v6 and v7)")
    bench = Bench(args)
    for p in bench.files.values():
        if not os.path.exists(p):
            sys.exit(f"bench.py: no recording {p}")
    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.monotonic()
    bench.run()

    S = summarise(bench.runs, args.report)
    recs = {fmt: {"path": path, "bytes": os.path.getsize(path), "events": S[fmt]["n_events"]}
            for fmt, path in bench.files.items()}
    with open("/proc/meminfo") as f:
        mem_total_kib = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
    doc = {
        "size": args.size,
        "started": started.isoformat(),
        "seconds": time.monotonic() - t0,
        "runs": args.runs,
        "report": args.report,
        "timeout_s": args.timeout,
        "host": {"node": platform.node(), "kernel": platform.release(), "cpus": os.cpu_count(),
                 "mem_total_kib": mem_total_kib},
        "source": dict(git_state(args.source), path=args.source),
        "build": args.build,
        "recordings": recs,
        "recording_meta": read_meta(os.path.join(args.outdir, f"{args.size}.meta")),
        "raw_runs": raw_runs(bench.runs),
        "plugins_only": args.plugins_only,
    }
    text, md, S, R = render(doc)
    doc["summary"] = {fmt: {k: (v.json() if isinstance(v, Stat) else v) for k, v in S[fmt].items()}
                      for fmt in S}
    doc["ratios"] = R
    print(text)

    resdir = os.path.join(args.outdir, "results")
    os.makedirs(resdir, exist_ok=True)
    name = f"bench-{'plugins-' if args.plugins_only else ''}{args.size}"
    base = os.path.join(resdir, f"{name}-{started:%Y%m%dT%H%M%SZ}")
    with open(base + ".json", "w") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
    with open(base + ".md", "w") as f:
        f.write(md)
    for ext in (".json", ".md"):
        shutil.copyfile(base + ext, os.path.join(args.outdir, f"{name}-latest{ext}"))
    print(f"\nwrote {base}.json and .md (and {args.outdir}/{name}-latest.json/.md)")


if __name__ == "__main__":
    main()
