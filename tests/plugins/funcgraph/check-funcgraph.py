#!/usr/bin/env python3
"""`chronoscope funcgraph` against tests/oracle/funcgraph-calls.py (TAP).

Usage: check-funcgraph.py  (environment: CS_FUNCGRAPH_CLI, CS_FUNCGRAPH_ORACLE,
CS_TESTDATA, CS_SHARED_TESTDATA)

CS_FUNCGRAPH_CLI is the chronoscope executable (it runs the pass in its
indexing worker, as `chronoscope funcgraph` does for users).  On the
function_graph and function recordings of tests/data and, where it is
there, of ../shared/testdata/public, the command's --json table must have exactly
the oracle's functions, each with the same calls, function events, total,
self and max, the same worst call, and a name kallsyms gives its address; it must be sorted by
total time; --top N must be its first N lines; a range (--begin/--end)
must give the oracle's figures for that range; `render --row funcgraph:PID`
must draw the calls from an empty cache.  A recording without those
events must fail with a message that says so.  Exit 77 (skip) without
trace-cmd.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import Tap, public_recording  # noqa: E402

LOCAL = ["funcgraph-v7.dat", "function-v7.dat"]
PUBLIC = ["function-graph-i686-v6.dat", "function-i686-v6.dat"]
FIGURES = ["calls", "function_events", "total_ns", "self_ns", "max_ns"]

tap = Tap('cs-funcgraph-test.')
# The built-ins from the build tree, as the meson test environment says.
tap.env['CHRONOSCOPE_PLUGIN_PATH'] = os.environ.get('CHRONOSCOPE_PLUGIN_PATH', '')


def cli(args):
    cmd = os.environ["CS_FUNCGRAPH_CLI"].split() + ["funcgraph"] + args
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                          timeout=300, env=tap.env)


def oracle(args):
    cmd = [sys.executable, os.environ["CS_FUNCGRAPH_ORACLE"]] + args
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=300)


def compare(path, what, args):
    """The command's table for ARGS against the oracle's; returns the oracle's."""
    got = cli([path, "--json", "--top", "0"] + args)
    want = oracle(args + [path])
    tap.ok(got.returncode == 0, f"{what}: chronoscope funcgraph --json", got.stderr)
    tap.ok(want.returncode == 0, f"{what}: oracle", want.stderr)
    if got.returncode != 0 or want.returncode != 0:
        return None
    table = json.loads(got.stdout)["functions"]
    expected = json.loads(want.stdout)["functions"]
    # The oracle keys functions by address, and by name where report
    # prints a name that kallsyms has at several addresses.
    by_name = {w["names"][0] for w in expected if w["address"] is None}
    got_key = {}
    for f in table:
        key = f["name"] if f["name"] in by_name else int(f["address"], 16)
        if key in got_key:
            g = got_key[key]
            for k in FIGURES:
                g[k] = max(g[k], f[k]) if k == "max_ns" else g[k] + f[k]
        else:
            got_key[key] = dict(f)
    want_key = {(w["names"][0] if w["address"] is None else int(w["address"], 16)): w
                for w in expected}

    def show(key):
        return key if isinstance(key, str) else hex(key)
    missing = [show(k) for k in want_key if k not in got_key]
    extra = [show(k) for k in got_key if k not in want_key]
    tap.ok(not missing and not extra, f"{what}: the oracle's {len(want_key)} functions",
           f"missing {missing[:10]}, extra {extra[:10]}")
    bad = []
    for key, w in want_key.items():
        g = got_key.get(key)
        if g is None:
            continue
        for k in FIGURES:
            if g[k] != w[k]:
                bad.append(f"{w['names']} {k}: {g[k]} != {w[k]}")
        if isinstance(key, int) and w["worst"] is not None and (
                g["worst"] is None or
                [g["worst"][k] for k in ("begin_ns", "duration_ns", "pid")] !=
                [w["worst"][k] for k in ("begin_ns", "duration_ns", "pid")]):
            bad.append(f"{w['names']} worst call: {g['worst']} != {w['worst']}")
        if w["names"] and g["name"] not in w["names"]:
            bad.append(f"{show(key)} named {g['name']}, kallsyms says {w['names']}")
    tap.ok(not bad, f"{what}: calls, events, total, self, max, worst call and name per function",
           "\n".join(bad[:20]))
    keys = [(-f["total_ns"], -f["function_events"], -f["calls"]) for f in table]
    tap.ok(keys == sorted(keys), f"{what}: sorted by total time")
    return expected


def check_file(path, name):
    expected = compare(path, name, [])
    if not expected:
        return
    top = cli([path, "--json", "--top", "3"])
    whole = cli([path, "--json", "--top", "0"])
    tap.ok(top.returncode == 0 and
           json.loads(top.stdout)["functions"] == json.loads(whole.stdout)["functions"][:3],
           f"{name}: --top 3 is the table's first 3 lines", top.stderr)
    worst = next((f["worst"] for f in expected if f["worst"]), None)
    if worst is not None:
        begin = worst["begin_ns"]
        end = begin + 4 * worst["duration_ns"] + 1
        compare(path, f"{name} [{begin}, {end})", ["--begin", str(begin), "--end", str(end)])


def check_render(path):
    """`render --row funcgraph:PID` computes the calls it draws: from an
    empty cache it draws what it draws once `funcgraph` computed them."""
    table = json.loads(cli([path, "--json", "--top", "1"]).stdout)["functions"]
    pid = table[0]["worst"]["pid"]
    worst = table[0]["worst"]
    cmd = os.environ["CS_FUNCGRAPH_CLI"].split() + ["render", path, "--width", "800",
                                                     "--begin", str(worst["begin_ns"]),
                                                     "--end", str(worst["end_ns"])]
    pictures = []
    for n in range(2):
        env = dict(tap.env, XDG_CACHE_HOME=os.path.join(tap.tmp, f"render-cache-{n}"))
        if n == 1:
            subprocess.run(os.environ["CS_FUNCGRAPH_CLI"].split() + ["funcgraph", path],
                           capture_output=True, env=env, timeout=300)
        out = os.path.join(tap.tmp, f"row-{n}.png")
        r = subprocess.run(cmd + ["--row", f"funcgraph:{pid}", "-o", out],
                           capture_output=True, text=True, errors="replace", env=env, timeout=300)
        tap.ok(r.returncode == 0, f"render --row funcgraph:{pid} ({'after funcgraph' if n else 'empty'} cache)",
               r.stderr)
        pictures.append(open(out, "rb").read() if r.returncode == 0 else None)
    tap.ok(pictures[0] is not None and pictures[0] == pictures[1],
           "render draws the calls from an empty cache as after chronoscope funcgraph")


def main():
    if shutil.which("trace-cmd") is None:
        print("1..0 # SKIP trace-cmd is not installed")
        sys.exit(77)
    for name in LOCAL:
        path = os.path.join(os.environ["CS_TESTDATA"], name)
        if not os.path.exists(path):
            tap.ok(False, f"{name}: the recording is there", path)
            continue
        check_file(path, name)
    for name in PUBLIC:
        path, why = public_recording(name)
        if path is None:
            tap.skip(f"{name}: the command against the oracle", why)
            continue
        check_file(path, name)
    check_render(os.path.join(os.environ["CS_TESTDATA"], LOCAL[0]))
    none = os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v7.dat")
    r = cli([none])
    tap.ok(r.returncode == 1 and "function_graph" in r.stderr and "sched-irq-v7.dat" in r.stderr,
           "a recording without function events: a message naming the file", r.stderr)
    tap.finish()


if __name__ == "__main__":
    main()
