#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench_text.py: index the text of `trace-cmd report` of a recording (issue 14).

    tests/bench/bench_text.py --build build [--recording FILE] [--work DIR] [--runs N]

Makes `trace-cmd report FILE` once into WORK (default
/var/tmp/chronoscope-text-bench/; reused while newer than the recording),
then, N times, indexes that text with `chronoscope index-worker` on a fresh
XDG_CACHE_HOME (conversion into a trace.dat in the cache, then the index) and
the recording itself the same way, sampling the peak RssAnon of the process
and its children every 20 ms (bench.run_measured).  Prints the text's size,
the wall times, MB/s of text, events/s and the peak RssAnon.  Figures only:
this is a benchmark, not a test.  The default recording is the medium one of
the latency benchmark, /var/tmp/lat-bench/rec/medium-v6.dat.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

MB = 1000 * 1000
MIB = 1024 * 1024


def make_text(recording, text):
    if os.path.exists(text) and os.path.getmtime(text) >= os.path.getmtime(recording):
        bench.log(f"reusing {text}")
        return None
    bench.log(f"trace-cmd report {recording} > {text}")
    t0 = time.monotonic()
    with open(text + ".part", "wb") as out:
        subprocess.run(["trace-cmd", "report", recording], stdout=out,
                       stderr=subprocess.DEVNULL, check=True)
    os.replace(text + ".part", text)
    return time.monotonic() - t0


def n_events(exe, path, env):
    out = subprocess.run([exe, "info", "--json", path], env=env, capture_output=True,
                         text=True, check=True).stdout
    doc = json.loads(out)
    return doc.get("n_events"), doc.get("format"), doc.get("n_bad_lines")


def index_once(exe, path, work):
    cache = tempfile.mkdtemp(prefix="cache-", dir=work)
    try:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        r = bench.run_measured([exe, "index-worker", path], env=env, timeout_s=3600)
        if r["rc"] != 0:
            raise SystemExit(f"index-worker {path} failed: {r['stderr']}")
        r["n_events"], r["format"], r["n_bad_lines"] = n_events(exe, path, env)
        r["cache_bytes"] = sum(os.path.getsize(os.path.join(d, f))
                               for d, _, fs in os.walk(cache) for f in fs)
        return r
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--recording", default="/var/tmp/lat-bench/rec/medium-v6.dat")
    ap.add_argument("--work", default="/var/tmp/chronoscope-text-bench")
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()

    exe = os.path.abspath(os.path.join(args.build, "gui", "chronoscope"))
    os.makedirs(args.work, exist_ok=True)
    text = os.path.join(args.work, os.path.basename(args.recording) + ".report.txt")
    report_s = make_text(args.recording, text)
    size = os.path.getsize(text)

    runs = {"text": [], "trace.dat": []}
    for i in range(args.runs):
        for kind, path in (("text", text), ("trace.dat", args.recording)):
            bench.warm_file(path)
            r = index_once(exe, path, args.work)
            runs[kind].append(r)
            bench.log(f"run {i + 1} {kind}: {r['wall_s']:.1f} s, peak RssAnon "
                      f"{r['peak_rss_anon_mib']:.0f} MiB, {r['n_events']} events")

    def med(kind, key):
        return statistics.median(r[key] for r in runs[kind])

    t, d = runs["text"][0], runs["trace.dat"][0]
    print(f"recording      {args.recording} ({os.path.getsize(args.recording) / MB:.0f} MB, "
          f"{d['n_events']} events)")
    print(f"text           {text} ({size / MB:.0f} MB, format \"{t['format']}\", "
          f"{t['n_bad_lines']} lines not understood)"
          + (f"; trace-cmd report took {report_s:.1f} s" if report_s else ""))
    print(f"runs           {args.runs} (medians)")
    print(f"text index     {med('text', 'wall_s'):.1f} s = {size / MB / med('text', 'wall_s'):.0f} MB/s "
          f"of text, {t['n_events'] / med('text', 'wall_s') / 1e6:.2f} M events/s; "
          f"peak RssAnon {med('text', 'peak_rss_anon_mib'):.0f} MiB; cache "
          f"{t['cache_bytes'] / MB:.0f} MB (converted trace.dat + index)")
    print(f"trace.dat      {med('trace.dat', 'wall_s'):.1f} s; peak RssAnon "
          f"{med('trace.dat', 'peak_rss_anon_mib'):.0f} MiB")
    print(f"text / trace.dat  {med('text', 'wall_s') / med('trace.dat', 'wall_s'):.1f}x; "
          f"same events: {t['n_events'] == d['n_events']}")


if __name__ == "__main__":
    main()
