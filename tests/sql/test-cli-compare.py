#!/usr/bin/env python3
"""`chronoscope stats A --compare B` from the outside (TAP).

Runs the built executable ($CHRONOSCOPE) with no display, in a private
cache, on two different recordings of tests/data ($CS_TESTDATA):
sched-irq-v6.dat (A) and missed-events-v7.dat (B).  The comparison's JSON
must equal what this test computes itself from the two single
`stats --json` outputs: tasks matched by comm, a row of their own for the
pids that ran under that comm in both, the other tasks of the comm summed;
CPUs by number; event types by system and name; the wakeup latency
summary; each figure as a, b, diff = b - a and pct = 100 (b - a) / a (null
when a is 0).  The same for a span: --begin/--end name a span of A, and B's
span is the same one relative to B's first event.  The text carries the
same figures, and a missing B fails with its name.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append((name, ok, detail))


def run(*args, env=None):
    proc = subprocess.run([os.environ["CHRONOSCOPE"]] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env, timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def pair(a, b, integer=True):
    return {"a": a, "b": b, "diff": b - a, "pct": None if a == 0 else 100.0 * (b - a) / a}


def same_pair(got, want):
    if set(got) != {"a", "b", "diff", "pct"}:
        return False
    for key in ("a", "b", "diff"):
        if abs(got[key] - want[key]) > 1e-9:
            return False
    if (got["pct"] is None) != (want["pct"] is None):
        return False
    return got["pct"] is None or abs(got["pct"] - want["pct"]) <= 1e-9 * max(1.0, abs(want["pct"]))


def expected_tasks(sa, sb):
    """{(comm, pid or None): (n_a, n_b, runtime pair, share pair)} from the single outputs."""
    def by_comm(stats):
        groups = {}
        for t in stats["tasks"]:
            groups.setdefault(t["comm"], {})[t["pid"]] = t
        return groups

    ga, gb = by_comm(sa), by_comm(sb)
    rows = {}
    for comm in set(ga) | set(gb):
        ta, tb = ga.get(comm, {}), gb.get(comm, {})
        for pid in set(ta) & set(tb):
            rows[(comm, pid)] = (1, 1, pair(ta[pid]["runtime_ns"], tb[pid]["runtime_ns"]),
                                 pair(ta[pid]["share"], tb[pid]["share"]))
        rest_a = [t for pid, t in ta.items() if pid not in tb]
        rest_b = [t for pid, t in tb.items() if pid not in ta]
        if rest_a or rest_b:
            rows[(comm, None)] = (len(rest_a), len(rest_b),
                                  pair(sum(t["runtime_ns"] for t in rest_a), sum(t["runtime_ns"] for t in rest_b)),
                                  pair(sum(t["share"] for t in rest_a), sum(t["share"] for t in rest_b)))
    return rows


def compare_with_singles(what, cmp, sa, sb):
    """Checks the comparison @cmp against the single outputs @sa and @sb."""
    check("%s: spans are those of the single outputs" % what,
          (cmp["a"]["begin_ns"], cmp["a"]["end_ns"], cmp["b"]["begin_ns"], cmp["b"]["end_ns"])
          == (sa["begin_ns"], sa["end_ns"], sb["begin_ns"], sb["end_ns"])
          and cmp["a"]["whole"] == sa["whole"] and cmp["b"]["whole"] == sb["whole"], str((cmp["a"], cmp["b"])))
    check("%s: events" % what, same_pair(cmp["n_events"], pair(sa["n_events"], sb["n_events"])))

    want = expected_tasks(sa, sb)
    got = {(t["comm"], t["pid"]): t for t in cmp["tasks"]}
    bad = [key for key, (n_a, n_b, runtime, share) in want.items()
           if key not in got or (got[key]["n_a"], got[key]["n_b"]) != (n_a, n_b)
           or not same_pair(got[key]["runtime_ns"], runtime) or not same_pair(got[key]["share"], share)]
    check("%s: tasks matched by comm and pid, the rest summed per comm" % what,
          len(want) > 3 and set(got) == set(want) and len(got) == len(cmp["tasks"]) and not bad,
          "bad %s; missing %s; extra %s" % (bad[:5], sorted(set(want) - set(got), key=str)[:5],
                                           sorted(set(got) - set(want), key=str)[:5]))
    check("%s: some tasks matched by pid and some summed" % what,
          any(pid is not None for _, pid in got) and any(pid is None for _, pid in got))
    keys = [max(t["runtime_ns"]["a"], t["runtime_ns"]["b"]) for t in cmp["tasks"]]
    check("%s: tasks longest-running first" % what, keys == sorted(keys, reverse=True))

    cpus_a = {c["cpu"]: c for c in sa["cpus"]}
    cpus_b = {c["cpu"]: c for c in sb["cpus"]}
    zero = {"busy_ns": 0, "n_events": 0}
    ok = [c["cpu"] for c in cmp["cpus"]] == sorted(set(cpus_a) | set(cpus_b))
    for c in cmp["cpus"]:
        ca, cb = cpus_a.get(c["cpu"], zero), cpus_b.get(c["cpu"], zero)
        ok = ok and same_pair(c["busy_ns"], pair(ca["busy_ns"], cb["busy_ns"])) \
            and same_pair(c["n_events"], pair(ca["n_events"], cb["n_events"]))
    check("%s: CPUs busy time and events" % what, ok)

    types_a = {(t["system"], t["name"]): t["n_events"] for t in sa["event_types"]}
    types_b = {(t["system"], t["name"]): t["n_events"] for t in sb["event_types"]}
    got_types = {(t["system"], t["name"]): t["n_events"] for t in cmp["event_types"]}
    check("%s: event types, a type missing from one counting 0 there" % what,
          set(got_types) == set(types_a) | set(types_b) and len(got_types) == len(cmp["event_types"])
          and all(same_pair(v, pair(types_a.get(k, 0), types_b.get(k, 0))) for k, v in got_types.items()))

    names = ["count", "min_ns", "p50_ns", "p90_ns", "p99_ns", "max_ns"]
    check("%s: wakeup latency summary" % what,
          all(same_pair(cmp["wakeup_latency"][n], pair(sa["wakeup_latency"][n], sb["wakeup_latency"][n]))
              for n in names))


def text_rows(text, title):
    """The rows (key, a, b) of the text table under the line starting with @title."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title)) + 2
    rows = {}
    for line in lines[start:]:
        if not line.startswith("  "):
            break
        parts = re.split(r"\s{2,}", line.strip())
        rows[parts[0]] = parts[1:]
    return rows


def main():
    data = os.environ["CS_TESTDATA"]
    file_a = os.path.join(data, "sched-irq-v6.dat")
    file_b = os.path.join(data, "missed-events-v7.dat")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache, LC_ALL="C.UTF-8")
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)

        rc_a, out_a, err_a = run("stats", file_a, "--json", env=env)
        rc_b, out_b, err_b = run("stats", file_b, "--json", env=env)
        rc_c, out_c, err_c = run("stats", file_a, "--compare", file_b, "--json", env=env)
        check("stats A, stats B and stats A --compare B exit 0", (rc_a, rc_b, rc_c) == (0, 0, 0),
              err_a + err_b + err_c)
        sa, sb, cmp = json.loads(out_a), json.loads(out_b), json.loads(out_c)
        check("the comparison names both files",
              (cmp["a"]["file"], cmp["b"]["file"]) == ("sched-irq-v6.dat", "missed-events-v7.dat"))
        compare_with_singles("whole recordings", cmp, sa, sb)

        # A span of A, the same span relative to B's first event.
        first_a, first_b = sa["begin_ns"], sb["begin_ns"]
        begin, end = first_a + 50000000, first_a + 250000000
        rc_a, out_a, err_a = run("stats", file_a, "--json", "--begin", str(begin), "--end", str(end), env=env)
        rc_b, out_b, err_b = run("stats", file_b, "--json", "--begin", str(first_b + begin - first_a),
                                 "--end", str(first_b + end - first_a), env=env)
        rc_c, out_c, err_c = run("stats", file_a, "--compare", file_b, "--json", "--begin", str(begin),
                                 "--end", str(end), env=env)
        check("span: the three runs exit 0", (rc_a, rc_b, rc_c) == (0, 0, 0), err_a + err_b + err_c)
        span_cmp = json.loads(out_c)
        compare_with_singles("span aligned at the starts", span_cmp, json.loads(out_a), json.loads(out_b))
        check("span: the figures differ from the whole recordings'", span_cmp["n_events"] != cmp["n_events"])

        rc, text, err = run("stats", file_a, "--compare", file_b, "--top", "1000", env=env)
        check("the text comparison exits 0", rc == 0, err)
        lines = text.splitlines()
        check("the text names A and B first",
              lines[0].startswith("A: sched-irq-v6.dat") and lines[1].startswith("B: missed-events-v7.dat"),
              "\n".join(lines[:2]))
        types = text_rows(text, "Events per type:")
        want_types = {"%s:%s" % (t["system"], t["name"]): t["n_events"] for t in cmp["event_types"]}
        check("the text lists every event type with A, B and B - A",
              set(types) == set(want_types)
              and all(types[k][0] == str(v["a"]) and types[k][1] == str(v["b"])
                      and types[k][2].lstrip("+−±").replace("−", "") == str(abs(v["diff"]))
                      for k, v in want_types.items()), str(list(types.items())[:3]))
        tasks = text_rows(text, "Tasks by CPU time")
        check("the text lists every task row (and its share)",
              len([k for k in tasks if k != "share"]) == len(cmp["tasks"]), "%d rows" % len(tasks))
        gone = [k for k, v in want_types.items() if v["b"] == 0]
        check("a type only in A shows -100.0% in the text",
              bool(gone) and all(types[k][3] == "-100.0%" for k in gone), str(gone))
        rc, text, err = run("stats", file_b, "--compare", file_a, env=env)
        types = text_rows(text, "Events per type:")
        check("a type only in B shows new in the text (B --compare A)",
              rc == 0 and all(types[k][3] == "new" for k in gone), err + str([types.get(k) for k in gone]))

        missing = os.path.join(cache, "nothing.dat")
        rc, out, err = run("stats", file_a, "--compare", missing, env=env)
        check("a missing B fails naming it", rc == 1 and out == "" and "nothing.dat" in err, err)

    print("1..%d" % len(RESULTS))
    failed = 0
    for i, (name, ok, detail) in enumerate(RESULTS, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            failed += 1
            for line in str(detail).splitlines():
                print("# " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
