#!/usr/bin/env python3
"""`chronoscope query` and `chronoscope stats` from the outside (TAP).

Runs the built executable ($CHRONOSCOPE) with no display, in a private
cache, on tests/data/sched-irq-v6.dat: the three output formats carry the
same rows; --tables and --schema describe the tables; a bad query and a
write print a message (with a caret under the position) on stderr and exit
1; `stats --json` equals tests/oracle/report-stats.py ($CS_STATS_ORACLE)
for the whole recording and for a span.
"""

import csv
import io
import json
import os
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


def check_latency_pairs(env):
    """latency_pairs (the latency plugin's SQL table) against `chronoscope latency --json`."""
    data = os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v7.dat")
    wakeup = "SELECT count(*) AS n FROM latency_pairs WHERE definition = 'wakeup'"

    rc, out, _ = run("query", data, "--tables", env=env)
    check("--tables lists latency_pairs", rc == 0 and "latency_pairs" in out.split(), out[-300:])
    rc, out, err = run("query", data, wakeup, env=env)
    check("latency_pairs before the pass says how to compute it",
          rc == 1 and "wakeup" in err and "chronoscope latency" in err, err)

    counts = {}
    for preset in ("wakeup", "irq"):
        rc, out, err = run("latency", data, "--preset", preset, "--json", "--top", "100000", env=env)
        check("latency --preset %s runs" % preset, rc == 0, err)
        counts[preset] = json.loads(out) if rc == 0 else {"count": -1, "worst": []}
    rc, out, err = run("query", data, "SELECT definition, count(*) AS n, min(duration_ns) AS lo,"
                       " max(duration_ns) AS hi FROM latency_pairs GROUP BY definition ORDER BY definition",
                       "--json", env=env)
    got = {r["definition"]: r for r in json.loads(out)} if rc == 0 else {}
    check("latency_pairs has each computed definition's count, min and max",
          set(got) == {"wakeup", "irq"} and all(
              got[p]["n"] == counts[p]["count"] and got[p]["lo"] == counts[p]["min_ns"]
              and got[p]["hi"] == counts[p]["max_ns"] for p in got),
          "%s\n%s" % (out, err))

    rc, out, err = run("query", data, "SELECT pair, a_ts, b_ts, duration_ns, cpu, b_cpu, pid FROM latency_pairs"
                       " WHERE definition = 'wakeup'", "--json", env=env)
    rows = sorted((r["a_ts"], r["b_ts"], r["duration_ns"], r["cpu"], r["b_cpu"], r["pid"], r["pair"])
                  for r in json.loads(out)) if rc == 0 else []
    want = sorted((w["a_ts_ns"], w["b_ts_ns"], w["duration_ns"], w["cpu"], w["b_cpu"], w["pid"], w["pair"])
                  for w in counts["wakeup"]["worst"])
    check("latency_pairs rows equal latency --json's pairs", len(rows) > 100 and rows == want,
          "%d rows, %d from latency --json\n%s" % (len(rows), len(want), err))
    check("a pair's ts is its A event's", rc == 0 and all(
        r["ts"] == r["a_ts"] for r in json.loads(run("query", data, "SELECT ts, a_ts FROM latency_pairs",
                                                       "--json", env=env)[1])))
    rc, out, err = run("query", data, "SELECT count(*) FROM latency_pairs WHERE definition = 'softirq'", env=env)
    check("a definition not computed says how to compute it", rc == 1 and "softirq" in err
          and "--preset" in err, err)
    rc, out, err = run("query", data, "DELETE FROM latency_pairs", env=env)
    check("latency_pairs cannot be written", rc == 1 and "read-only" in err, err)


def check_streams(env):
    """`query -i A -i B`: one session over two recordings."""
    a = os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v6.dat")
    b = os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v7.dat")
    rc, out, err = run("query", "-i", a, "-i", b, "SELECT stream, count(*) AS n FROM events"
                       " GROUP BY stream ORDER BY stream", "--json", env=env)
    got = json.loads(out) if rc == 0 else []
    alone = []
    for path in (a, b):
        rc1, out1, _ = run("query", path, "SELECT count(*) AS n FROM events", "--json", env=env)
        alone.append(json.loads(out1)[0]["n"] if rc1 == 0 else -1)
    check("query -i A -i B counts each stream's events as alone",
          rc == 0 and [(r["stream"], r["n"]) for r in got] == [(0, alone[0]), (1, alone[1])],
          "%s\n%s\n%s" % (out, err, alone))
    rc, out, err = run("query", "-i", a, "-i", b, "--tables", env=env)
    check("query -i A -i B --tables lists streams", rc == 0 and "streams" in out.split(), out + err)
    rc, out, err = run("query", "-i", a, "-i", b, "SELECT id, file FROM streams", "--json", env=env)
    check("the streams table names the files in order",
          rc == 0 and json.loads(out) == [{"id": 0, "file": a}, {"id": 1, "file": b}], out + err)
    # Host and kernel are the UNAME option's (trace-cmd dump --options);
    # the same machine and clock line up as recorded, as in a window.
    rc, out, err = run("query", "-i", a, "-i", b, "SELECT host, kernel, aligned, note FROM streams"
                       " ORDER BY id", "--json", env=env)
    unames = []
    for path in (a, b):
        dump = subprocess.run([os.environ.get("TRACE_CMD", "trace-cmd"), "dump", "--options", path],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True).stdout.splitlines()
        at = [i for i, line in enumerate(dump) if "Option UNAME" in line]
        unames.append(dump[at[0] + 1].split(" ") if at else [])
    got = json.loads(out) if rc == 0 else []
    check("the streams table says each recording's host and kernel from its UNAME option",
          len(got) == 2 and all(len(u) >= 3 and (r["host"], r["kernel"]) == (u[1], u[2])
                                for r, u in zip(got, unames)), (out, err, unames))
    check("a recording of the same machine and clock is aligned as recorded",
          len(got) == 2 and got[0]["aligned"] == 1 and got[1]["aligned"] == 1
          and "as recorded" in (got[1]["note"] or ""), out)
    rc, out, err = run("query", "-i", a, "-i", b, env=env)
    check("query -i without SQL is an error", rc == 1 and "Missing SQL" in err, err)

    # A guest's wakeup latency split by its host's view of the vCPU: the
    # real KVM pair of ../shared/testdata/kvm, when it is there.
    pub = os.environ.get("CS_SHARED_TESTDATA", "")
    kvm = os.path.normpath(os.path.join(pub, "..", "kvm")) if pub else ""
    guest = os.path.join(kvm, "kvm-guest-x86-v7-zlib.dat")
    if not kvm or not os.path.exists(guest):
        print("# skipped: the real KVM pair (../shared/testdata/kvm is absent)")
        return
    host = os.path.join(kvm, "kvm-host-x86-v7-zlib.dat")
    rc, out, err = run("query", "-i", guest, "-i", host,
                       "SELECT latency_ns, vcpu_out_ns(stream, cpu, ts, run_ts) AS vcpu_out_ns,"
                       " latency_ns - vcpu_out_ns(stream, cpu, ts, run_ts) AS guest_wait_ns"
                       " FROM wakeups WHERE stream = 0", "--json", env=env)
    rows = json.loads(out) if rc == 0 else []
    known = [r for r in rows if r["vcpu_out_ns"] is not None]
    check("a guest wakeup latency splits into its own wait and the vCPU's time out",
          len(rows) > 1000 and len(known) >= len(rows) - len(rows) // 100
          and all(r["guest_wait_ns"] + r["vcpu_out_ns"] == r["latency_ns"]
                  and -2 <= r["vcpu_out_ns"] <= r["latency_ns"] + 2 for r in known)
          and any(r["vcpu_out_ns"] > 0 for r in known), (rc, err, rows[:5]))


def main():
    data = os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v6.dat")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache, LC_ALL="C.UTF-8")
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        sql = ("SELECT ts, cpu, comm, prev_comm, prev_state, next_pid FROM sched_sched_switch"
               " WHERE ts < 575700000000 ORDER BY ts, cpu")

        rc_t, table, _ = run("query", data, sql, env=env)
        rc_c, text_csv, _ = run("query", data, sql, "--csv", env=env)
        rc_j, text_json, _ = run("query", data, sql, "--json", env=env)
        check("query exits 0 in every format", (rc_t, rc_c, rc_j) == (0, 0, 0))
        rows_csv = list(csv.DictReader(io.StringIO(text_csv)))
        rows_json = json.loads(text_json)
        check("csv and json carry the same rows", len(rows_csv) > 50 and len(rows_csv) == len(rows_json)
              and all(str(j["ts"]) == c["ts"] and j["prev_comm"] == c["prev_comm"]
                      and str(j["prev_state"]) == c["prev_state"] for c, j in zip(rows_csv, rows_json)),
              "%d csv rows, %d json rows" % (len(rows_csv), len(rows_json)))
        lines = table.splitlines()
        check("the table has a header, a rule and every row",
              lines[0].split() == ["ts", "cpu", "comm", "prev_comm", "prev_state", "next_pid"]
              and set(lines[1]) <= {"-", " "} and len(lines) == len(rows_csv) + 2)
        check("json rows are in time order", [r["ts"] for r in rows_json] == sorted(r["ts"] for r in rows_json))

        rc, out, _ = run("query", data, "SELECT NULL AS n, x'0aff' AS b, 1.5 AS f, 'a,\"b' AS s", "--json", env=env)
        check("json of NULL, blob, float and text", rc == 0 and json.loads(out) == [
            {"n": None, "b": "x'0aff'", "f": 1.5, "s": 'a,"b'}], out)
        rc, out, _ = run("query", data, "SELECT 'a,\"b' AS s, NULL AS n", "--csv", env=env)
        check("csv quotes text and leaves NULL empty", rc == 0 and out == 's,n\r\n"a,""b",\r\n', repr(out))

        rc, out, _ = run("query", data, "--tables", env=env)
        tables = out.split()
        check("--tables lists the tables", rc == 0 and {"events", "tasks", "cpus", "sched_slices", "task_states",
              "wakeups", "sched_sched_switch", "sched:sched_switch"} <= set(tables), out[:200])
        rc, out, _ = run("query", data, "--schema", "sched_sched_switch", env=env)
        check("--schema prints the columns", rc == 0 and out.startswith('CREATE TABLE "sched_sched_switch"(ts INTEGER')
              and '"prev_state" INTEGER' in out, out)
        rc, out, err = run("query", data, "--schema", "nothing", env=env)
        check("--schema of an unknown table fails", rc == 1 and "nothing" in err, err)

        rc, out, err = run("query", data, "SELECT ts FRM events", env=env)
        check("bad SQL: message, position and caret on stderr, exit 1",
              rc == 1 and out == "" and "syntax error" in err and "(at character 14)" in err
              and "\n  SELECT ts FRM events\n                " in err and err.rstrip().endswith("^"), err)
        rc, out, err = run("query", data, "DELETE FROM events", env=env)
        check("a write is refused, exit 1", rc == 1 and "read-only" in err, err)
        rc, out, err = run("query", data, env=env)
        check("a missing SQL argument is an error", rc == 1 and "Missing SQL" in err, err)

        first, last = rows_json[0]["ts"], rows_json[-1]["ts"]
        for what, args, oracle_args in (
                ("whole recording", [], []),
                ("span", ["--begin", str(first), "--end", str(last)],
                 ["--begin", str(first), "--end", str(last)])):
            rc, out, err = run("stats", data, "--json", *args, env=env)
            oracle = json.loads(subprocess.run(
                ["python3", os.environ["CS_STATS_ORACLE"]] + oracle_args + [data],
                stdout=subprocess.PIPE, check=True).stdout)
            st = json.loads(out) if rc == 0 else {}
            ok = (rc == 0 and st["begin_ns"] == oracle["begin"] and st["end_ns"] == oracle["end"]
                  and st["n_events"] == oracle["n_events"]
                  and {str(t["pid"]): t["runtime_ns"] for t in st["tasks"]} == oracle["tasks"]
                  and {str(c["cpu"]): {"busy_ns": c["busy_ns"], "n_events": c["n_events"]}
                       for c in st["cpus"]} == oracle["cpus"]
                  and {e["name"]: e["n_events"] for e in st["event_types"]} == oracle["events"]
                  and st["wakeup_latency"]["count"] == oracle["wakeups"]["count"]
                  and st["wakeup_latency"]["p99_ns"] == oracle["wakeups"].get("p99", 0))
            check("stats --json of the %s equals report-stats.py" % what, ok, err)
        rc, out, err = run("stats", data, "--begin", "10", "--end", "5", env=env)
        check("stats refuses an empty span", rc == 1 and "--begin" in err, err)
        rc, out, err = run("stats", data, "--top", "2", env=env)
        check("stats text lists --top tasks", rc == 0 and "Wakeup latency" in out and "more tasks" in out, out)

        check_latency_pairs(env)
        check_streams(env)

    print("1..%d" % len(RESULTS))
    for i, (name, ok, detail) in enumerate(RESULTS, 1):
        print("%s %d /cs/cli/sql/%s" % ("ok" if ok else "not ok", i, name.replace(" ", "-")))
        if not ok and detail:
            for line in str(detail).splitlines():
                print("# " + line)
    return 0 if all(ok for _, ok, _ in RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
