# SPDX-License-Identifier: GPL-2.0-or-later
"""bench_plugins.py: the first open with every built-in plugin and with none
(issue 11 part 6), for bench.py.

What enabling the built-ins adds to a first open: `chronoscope index-worker`
never loads a plugin (it is one of Chronoscope's own commands, dispatched
before the plugin host scans anything; only `index-worker --pass` loads the
one plugin it is given).  The plugins' work on a new recording is done by
the process that opens it: every enabled plugin's instance opens on the
recording (kmod counts its events and asks for its pass when there are any),
the automatic passes run (none of today's built-ins has one), and `info
--json` adds each plugin's members.  So a "first open" here is two
processes on a fresh cache, one after the other:

  worker   `chronoscope index-worker FILE` (the index build)
  info     `chronoscope info FILE --json` on the new index: the plugin host
           loads the plugins, opens them on the recording, runs their
           automatic passes (in `index-worker --pass` children) and writes
           their members

measured with two environments that differ only in the plugins found:

  all      CHRONOSCOPE_PLUGIN_PATH = every built-in's build folder
           (plugins/NAME/ of the build, the names read from
           plugins/meson.build), GSettings in memory (nothing disabled)
  none     CHRONOSCOPE_PLUGIN_PATH empty

and, for both, XDG_DATA_HOME an empty folder (no user plugins) and a fresh
XDG_CACHE_HOME.  No plugins may be installed in PLUGINDIR: bench.py refuses
to run when the build's PLUGINDIR holds any file, since they would be loaded
in the "none" run too.

Wall and CPU times add up the two processes; peak RssAnon is the largest of
any one process of either (the sampler follows the children).  The ratios
are to the raw libtracecmd iteration of the same run (DESIGN.md: first open
<= 1.3x, indexer <= 256 MiB).
"""

import json
import os
import re
import shutil
import statistics
import tempfile

MIB = 1024 * 1024
MODES = ("all", "none")
TARGET_RATIO = 1.3
TARGET_RSS_MIB = 256


def builtin_names(source):
    """The built-ins' folder names, from plugins/meson.build's list."""
    with open(os.path.join(source, "plugins", "meson.build")) as f:
        text = f.read()
    m = re.search(r"builtin_plugins\s*=\s*\[(.*?)\]", text, re.S)
    if not m:
        raise SystemExit("bench.py: no builtin_plugins list in plugins/meson.build")
    return re.findall(r"'([^']+)'", m.group(1))


def plugin_dirs(build, source):
    """The build folders of the built-ins, each checked to hold a .so."""
    dirs = []
    for name in builtin_names(source):
        d = os.path.join(build, "plugins", name)
        if not os.path.isdir(d) or not any(f.endswith(".so") for f in os.listdir(d)):
            raise SystemExit(f"bench.py: the built-in plugin {name} is not built in {d}")
        dirs.append(d)
    return dirs


def installed_plugins(build):
    """Files in the build's PLUGINDIR (config.h), which every run would load."""
    try:
        with open(os.path.join(build, "config.h")) as f:
            m = re.search(r'#define PLUGINDIR "([^"]+)"', f.read())
    except OSError:
        return []
    if not m or not os.path.isdir(m.group(1)):
        return []
    return sorted(os.path.join(m.group(1), f) for f in os.listdir(m.group(1)))


class PluginBench:
    """Measures the first open in both modes for one file of one run."""

    def __init__(self, bench):
        self.bench = bench
        args = bench.args
        self.dirs = plugin_dirs(args.build, args.source)
        installed = installed_plugins(args.build)
        if installed:
            raise SystemExit("bench.py: plugins are installed (" + ", ".join(installed) +
                             "): the run without plugins would load them")
        self.data_home = tempfile.mkdtemp(prefix="data-", dir=bench.cache_root)

    def env(self, mode, cache):
        env = self.bench.env_with_cache(cache)
        env["XDG_DATA_HOME"] = self.data_home
        env["GSETTINGS_BACKEND"] = "memory"
        env["CHRONOSCOPE_PLUGIN_PATH"] = ":".join(self.dirs) if mode == "all" else ""
        # Not the uninstalled executable's own built-ins either: only self.dirs.
        env["CHRONOSCOPE_PLUGIN_SYSTEM_PATH"] = ""
        return env

    def measure(self, fmt, path, run_index, warm_file, log, describe):
        """{mode: {"worker": result, "info": result, "members": [...]}},
        the two modes in turn (which goes first alternates between runs)."""
        b = self.bench
        out = {}
        order = MODES if run_index % 2 == 0 else MODES[::-1]
        for mode in order:
            warm_file(path)
            cache = tempfile.mkdtemp(prefix=f"plugins-{mode}-{fmt}-", dir=b.cache_root)
            env = self.env(mode, cache)
            try:
                w = b.timed(f"worker-{mode}", fmt, [b.chronoscope, "index-worker", path], env)
                done = [l for l in w.get("stdout", "").splitlines() if l.startswith(("done ", "error "))]
                if not any(k in w for k in ("error", "not_finished", "skipped")) and \
                        not (done and done[-1].startswith("done ")):
                    w["error"] = done[-1] if done else "no 'done' line from index-worker"
                w["stdout"] = ""
                i = b.timed(f"info-{mode}", fmt, [b.chronoscope, "info", path, "--json"], env)
                try:
                    i["members"] = sorted(json.loads(i["stdout"]).keys())
                except ValueError:
                    i.setdefault("error", "info --json printed no JSON")
                i["stdout"] = ""
            finally:
                shutil.rmtree(cache, ignore_errors=True)
            out[mode] = {"worker": w, "info": i}
            log(f"  {fmt} first open, {mode} plugins: worker {describe(w, 'wall_s', 's')}, "
                f"info --json {describe(i, 'wall_s', 's')}, peak RssAnon "
                f"{max(w.get('peak_rss_anon_mib', 0), i.get('peak_rss_anon_mib', 0)):.0f} MiB")
        return out


def _ok(r):
    return isinstance(r, dict) and not any(k in r for k in ("error", "not_finished", "skipped"))


def _per_run(runs, fmt, mode):
    """Per run: (wall, cpu, rss, worker wall, info wall, iterate s, iterate cpu)
    or None where something did not finish."""
    rows = []
    for run in runs:
        res = run.get(fmt, {})
        p = res.get("plugins", {}).get(mode)
        it = res.get("tracecmd_iterate")
        if not p or not _ok(p["worker"]) or not _ok(p["info"]):
            rows.append(None)
            continue
        w, i = p["worker"], p["info"]
        rows.append({
            "wall_s": w["wall_s"] + i["wall_s"],
            "cpu_s": w["cpu_s"] + i["cpu_s"],
            "rss_anon_mib": max(w["peak_rss_anon_mib"], i["peak_rss_anon_mib"]),
            "worker_s": w["wall_s"],
            "info_s": i["wall_s"],
            "iterate_s": it.get("seconds") if _ok(it) else None,
            "iterate_cpu_s": it.get("cpu_s") if _ok(it) else None,
            "members": i.get("members", []),
        })
    return rows


def _median(vals):
    vals = [v for v in vals if isinstance(v, (int, float))]
    return statistics.median(vals) if vals else None


def summarise(runs, fmts):
    """{fmt: {mode: {...medians, ratios, per-run ratios}}}."""
    S = {}
    for fmt in fmts:
        s = {}
        for mode in MODES:
            rows = [r for r in _per_run(runs, fmt, mode) if r]
            m = {k: _median([r[k] for r in rows]) for k in
                 ("wall_s", "cpu_s", "worker_s", "info_s", "iterate_s", "iterate_cpu_s")}
            m["wall_range"] = (min(r["wall_s"] for r in rows), max(r["wall_s"] for r in rows)) if rows else None
            m["rss_anon_mib"] = max((r["rss_anon_mib"] for r in rows), default=None)
            m["n"] = len(rows)
            m["members"] = sorted({x for r in rows for x in r["members"]})
            m["wall_ratio"] = (m["wall_s"] / m["iterate_s"]) if m["wall_s"] and m["iterate_s"] else None
            m["cpu_ratio"] = (m["cpu_s"] / m["iterate_cpu_s"]) if m["cpu_s"] and m["iterate_cpu_s"] else None
            m["wall_ratio_runs"] = [r["wall_s"] / r["iterate_s"] for r in rows if r["iterate_s"]]
            s[mode] = m
        a, n = s["all"], s["none"]
        s["all_vs_none"] = (a["wall_s"] / n["wall_s"]) if a["wall_s"] and n["wall_s"] else None
        # Per run, measured a minute apart: how much of all ÷ none is noise.
        s["all_vs_none_runs"] = [ra["wall_s"] / rn["wall_s"] for ra, rn in
                                 zip(_per_run(runs, fmt, "all"), _per_run(runs, fmt, "none")) if ra and rn]
        S[fmt] = s
    return S


def render(runs, fmts):
    """Lines of text and of markdown for the comparison."""
    S = summarise(runs, fmts)

    def f(v, spec, unit=""):
        return "–" if v is None else format(v, spec) + unit

    def cell(m):
        wall = f(m["wall_s"], ".2f", " s")
        if m["wall_range"] and m["n"] > 1:
            wall += f" ({m['wall_range'][0]:.2f}–{m['wall_range'][1]:.2f})"
        return [
            wall,
            f"{f(m['worker_s'], '.2f', ' s')} + {f(m['info_s'], '.2f', ' s')}",
            f(m["cpu_s"], ".2f", " s"),
            f(m["rss_anon_mib"], ".0f", " MiB"),
            f(m["wall_ratio"], ".2f", "×") + (
                f" (runs {min(m['wall_ratio_runs']):.2f}–{max(m['wall_ratio_runs']):.2f})"
                if len(m["wall_ratio_runs"]) > 1 else ""),
            f(m["cpu_ratio"], ".2f", "×"),
        ]

    names = ["first open (worker + info --json, wall)", "  worker + info --json", "  CPU time (both processes)",
             "  peak RssAnon (any one process)", "  ÷ libtracecmd iterate, wall (≤ 1.3×)",
             "  ÷ libtracecmd iterate, CPU"]
    text, md = [], []
    for fmt in fmts:
        s = S[fmt]
        cols = {mode: cell(s[mode]) for mode in MODES}
        text.append(f"First open with and without the built-in plugins ({fmt}; libtracecmd iterate "
                    f"{f(s['none']['iterate_s'], '.2f', ' s')}, CPU {f(s['none']['iterate_cpu_s'], '.2f', ' s')})")
        w0 = max(len(n) for n in names) + 2
        w1 = max(len(c) for c in cols["all"]) + 3
        text.append(f"{'':<{w0}}{'all built-ins':<{w1}}none")
        md.append(f"| {fmt} | all built-in plugins | no plugins |")
        md.append("|---|---|---|")
        for k, name in enumerate(names):
            text.append(f"{name:<{w0}}{cols['all'][k]:<{w1}}{cols['none'][k]}")
            md.append(f"| {name.strip()} | {cols['all'][k]} | {cols['none'][k]} |")
        verdict = []
        for mode in MODES:
            m = s[mode]
            ok_t = None if m["wall_ratio"] is None else m["wall_ratio"] <= TARGET_RATIO
            ok_m = None if m["rss_anon_mib"] is None else m["rss_anon_mib"] <= TARGET_RSS_MIB
            verdict.append(f"{mode}: time {({True: 'ok', False: 'MISSED', None: '?'})[ok_t]}, "
                           f"memory {({True: 'ok', False: 'MISSED', None: '?'})[ok_m]}")
        text.append(f"  targets (≤ {TARGET_RATIO}×, ≤ {TARGET_RSS_MIB} MiB): " + "; ".join(verdict)
                    + f"; all ÷ none {f(s['all_vs_none'], '.3f', '×')}"
                    + (f" (runs {min(s['all_vs_none_runs']):.2f}–{max(s['all_vs_none_runs']):.2f}×)"
                       if len(s["all_vs_none_runs"]) > 1 else ""))
        extra = sorted(set(s["all"]["members"]) - set(s["none"]["members"]))
        text.append(f"  info --json members the plugins added: {', '.join(extra) or 'none (plugins not loaded?)'}")
        text.append("")
        md.append("")
    return "\n".join(text), "\n".join(md), S
