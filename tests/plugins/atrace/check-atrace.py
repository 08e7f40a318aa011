#!/usr/bin/env python3
"""`chronoscope atrace` against tests/oracle/atrace-marks.py (TAP).

Usage: check-atrace.py  (environment: CS_ATRACE_CLI, CS_ATRACE_ORACLE,
CS_TESTDATA, CS_SHARED_TESTDATA)

On a temporary copy of tests/data/atrace-tgid.txt (an Android-style
systrace recorded here with B/E/C/S/F markers) and, where it is there, of
../shared/testdata/public/text/raw-tgid.txt (a phone's systrace), the command's --json lists must have
exactly the oracle's slice names, each with the same count, closed count,
total and max, and the same orphan Es.  That text has no counters: a
second copy adds after each B marker a C marker of the same task and time
("C|tgid|opened|N", N counting the tgid's Bs), which the oracle reads
from the text as well.  A recording without markers must fail with a
message that says so.
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import Tap, public_recording  # noqa: E402

tap = Tap('cs-atrace-test.')
tap.env['CHRONOSCOPE_PLUGIN_PATH'] = os.environ.get('CHRONOSCOPE_PLUGIN_PATH', '')


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                          timeout=300, env=tap.env)


def compare(path, what):
    got = run(os.environ["CS_ATRACE_CLI"].split() + ["atrace", path, "--json"])
    want = run([sys.executable, os.environ["CS_ATRACE_ORACLE"], path])
    tap.ok(got.returncode == 0, f"{what}: chronoscope atrace --json", got.stderr)
    tap.ok(want.returncode == 0, f"{what}: oracle", want.stderr)
    if got.returncode != 0 or want.returncode != 0:
        return None
    got, want = json.loads(got.stdout), json.loads(want.stdout)
    for section, key in (("slices", ("name",)), ("async", ("name",)), ("counters", ("name", "tgid"))):
        g = {tuple(r[k] for k in key): r for r in got[section]}
        w = {tuple(r[k] for k in key): r for r in want[section]}
        tap.ok(set(g) == set(w), f"{what}: the oracle's {len(w)} {section}",
               f"missing {sorted(set(w) - set(g))[:10]}, extra {sorted(set(g) - set(w))[:10]}")
        bad = [(k, g[k], w[k]) for k in w if k in g and g[k] != w[k]]
        tap.ok(not bad, f"{what}: {section} figures as the oracle's", "\n".join(map(str, bad[:10])))
    tap.ok(got.get("orphan_ends") == want["orphan_ends"],
           f"{what}: {want['orphan_ends']} E markers without a B",
           f"got {got.get('orphan_ends')}")
    return want


def with_counters(src, dst):
    """SRC with a C marker after each B marker, same task and time."""
    mark = re.compile(r'^(.*tracing_mark_write: )B\|(\d+)\|')
    seen = {}
    with open(src, encoding='utf-8', errors='replace') as f, open(dst, 'w', encoding='utf-8') as out:
        for line in f:
            out.write(line)
            m = mark.match(line)
            if m:
                seen[m[2]] = seen.get(m[2], 0) + 1
                out.write(f"{m[1]}C|{m[2]}|opened|{seen[m[2]]}\n")
    return sum(seen.values())


def check_counter_row(path, counter):
    """`render --row atrace:TGID:NAME` draws the counter's row: the picture
    differs from the one without it, and an unknown key is dropped."""
    cmd = os.environ["CS_ATRACE_CLI"].split() + ["render", path, "--width", "800"]
    key = f"atrace:{counter['tgid']}:{counter['name']}"
    pictures = {}
    for what, extra in (("none", []), ("row", ["--row", key]), ("unknown", ["--row", "atrace:1:nothing"])):
        out = os.path.join(tap.tmp, f"counter-{what}.png")
        r = run(cmd + extra + ["-o", out])
        tap.ok(r.returncode == 0, f"render {' '.join(extra) or 'without a row'}", r.stderr)
        pictures[what] = open(out, "rb").read() if r.returncode == 0 else None
    tap.ok(pictures["row"] is not None and pictures["row"] != pictures["none"],
           f"render --row {key} draws a row")


def check_text(src, name, render_row):
    copy = os.path.join(tap.tmp, name)
    with open(src, 'rb') as f, open(copy, 'wb') as out:
        out.write(f.read())
    want = compare(copy, name)
    if want is not None:
        tap.ok(sum(s["count"] for s in want["slices"]) > 10, f"{name}: the oracle finds the text's slices",
               str(want["slices"][:3]))
    counted = os.path.join(tap.tmp, "counters-" + name)
    n = with_counters(src, counted)
    want = compare(counted, f"{name} with counters")
    if want is not None:
        opened = [c for c in want["counters"] if c["name"] == "opened"]
        tap.ok(sum(c["samples"] for c in opened) == n, f"{name}: the oracle finds the {n} C markers")
        if render_row:
            check_counter_row(counted, opened[0])


def main():
    check_text(os.path.join(os.environ["CS_TESTDATA"], "atrace-tgid.txt"), "atrace-tgid.txt", True)
    src, why = public_recording(os.path.join("text", "raw-tgid.txt"))
    if src is None:
        tap.skip("raw-tgid.txt: the command against the oracle", why)
    else:
        check_text(src, "raw-tgid.txt", False)
    none = run(os.environ["CS_ATRACE_CLI"].split() +
               ["atrace", os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v7.dat")])
    tap.ok(none.returncode == 1 and "atrace" in none.stderr,
           "a recording without markers fails and says so", none.stderr)
    tap.finish()


main()
