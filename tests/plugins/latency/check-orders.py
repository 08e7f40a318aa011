#!/usr/bin/env python3
"""The latency pass's sorted orders against SQL over its own pairs (TAP).

Usage: check-orders.py  (environment: CS_LATENCY_CLI, CS_TESTDATA,
CS_SHARED_TESTDATA)

The pass (plugins/latency/cs-latency-table.c, a result table of the plugin API) writes every pair as a row
of `latency` (a view of the virtual table `latency_rows` over the blobs of
`latency_chunks`, index/plugin/cs-plugin-result-rows.c: decoded here by a
reading of its own, into a table of rows under the pass's own view), and
sorts the pairs in C, in bounded memory, for two more
orders stored as columns in chunks: latency_worst (worst first: longest,
then A's time, CPU and row) and latency_task (by pid, then longest
first, then A's time), with latency_task_span.  For a few presets on
recordings of tests/data and ../shared/testdata/public, run once with
the sorters' usual runs and once with CS_LATENCY_SORT_RUN=7 (so that
many runs are spilled to a file and merged), this checks:
  - latency_chunks holds chunks 0..n-1 of 512 rows, the last one
    shorter;
  - both orders hold each pair exactly once and equal the order SQLite
    gives with ORDER BY over `latency`;
  - each task's span holds exactly that task's pairs;
  - `chronoscope latency --json --top 100000 --histogram` prints the same
    with short runs as with long ones;
  - damaged blobs of latency_chunks make it fail with a message, not
    crash.
"""
import glob
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

CHUNK = 4096
ROW_CHUNK = 512
CASES = [("sched-x86-v7-zstd.dat", "wakeup"), ("buildroot-fifo-i686-v6.dat", "wakeup"),
         ("no-sched-v6.dat", "syscall"), ("sched-irq-v6.dat", "softirq")]
SHORT_RUN = 7

n_test = 0
n_failed = 0


def ok(good, name, detail=""):
    global n_test, n_failed
    n_test += 1
    if not good:
        n_failed += 1
    print(f"{'ok' if good else 'not ok'} {n_test} - {name}")
    if not good and detail:
        for line in str(detail).splitlines()[:20]:
            print(f"# {line}")


def find(name):
    for folder in (os.environ.get("CS_TESTDATA", ""), os.environ.get("CS_SHARED_TESTDATA", "")):
        path = os.path.join(folder, name)
        if folder and os.path.exists(path):
            return path
    return None


def decode_chunk(blob):
    """A chunk's numbers: zigzag varints of each one's difference to the one before."""
    return decode_chunk_fields(blob, 1)


def decode_fields(blob, n_fields):
    """Records of n_fields numbers, each field a difference to its value in
    the record before."""
    values = decode_chunk_fields(blob, n_fields)
    return [values[i:i + n_fields] for i in range(0, len(values), n_fields)]


def decode_chunk_fields(blob, n_fields):
    values, prev, v, shift, field = [], [0] * n_fields, 0, 0, 0
    for byte in blob:
        v |= (byte & 0x7F) << shift
        shift += 7
        if byte & 0x80:
            continue
        prev[field] = (prev[field] + ((v >> 1) ^ -(v & 1)) + 2**63) % 2**64 - 2**63
        values.append(prev[field])
        field = (field + 1) % n_fields
        v, shift = 0, 0
    return values


def row_chunks(db):
    """The rows of latency_rows from the blobs of latency_chunks: a byte K
    (key columns), 4 bytes little-endian L, L bytes of (a_ts, b_ts, ids,
    pp, n_keys) records, then (k0..k(K-1)) records."""
    chunks = []
    for chunk, blob in db.execute("SELECT chunk, data FROM latency_chunks ORDER BY chunk"):
        n_keys, main_len = blob[0], int.from_bytes(blob[1:5], "little")
        main = decode_fields(blob[5:5 + main_len], 5)
        keys = decode_fields(blob[5 + main_len:], n_keys) if n_keys else [[]] * len(main)
        rows = [m[:4] + [k[i] if i < m[4] else None for i in range(4)]
                for m, k in zip(main, keys)]
        chunks.append((chunk, rows, len(keys) == len(main)))
    return chunks


def rows_db(db):
    """An in-memory database with the rows decoded into a real table
    latency_rows, under the pass's own view `latency`."""
    mem = sqlite3.connect(":memory:")
    mem.execute("CREATE TABLE latency_rows (a_ts, b_ts, ids, pp, k0, k1, k2, k3)")
    for _, rows, _ in row_chunks(db):
        mem.executemany("INSERT INTO latency_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    (view,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'latency'").fetchone()
    mem.execute(view)
    return mem


def column(db, table, name):
    """A column of chunks as one list of numbers, in position order."""
    values = []
    for (blob,) in db.execute(f"SELECT {name} FROM {table} ORDER BY chunk"):
        values += decode_chunk(blob)
    return values


def run(rec, preset, cache, run_records):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    if run_records:
        env["CS_LATENCY_SORT_RUN"] = str(run_records)
    cmd = os.environ["CS_LATENCY_CLI"].split() + [
        "latency", rec, "--preset", preset, "--json", "--top", "100000", "--histogram"]
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=env,
                          timeout=300)


def check_db(path, what):
    db = sqlite3.connect(path)
    chunks = row_chunks(db)
    ok([c for c, _, _ in chunks] == list(range(len(chunks))) and all(k for _, _, k in chunks)
       and all(len(r) == ROW_CHUNK for _, r, _ in chunks[:-1])
       and (not chunks or 0 < len(chunks[-1][1]) <= ROW_CHUNK),
       f"{what}: latency_chunks holds chunks 0..n-1 of {ROW_CHUNK} rows, the last shorter",
       f"chunk sizes {[len(r) for _, r, _ in chunks][:8]}")
    mem = rows_db(db)
    chunks = [c for (c,) in db.execute("SELECT chunk FROM latency_worst ORDER BY chunk")]
    ok(chunks == list(range(len(chunks))), f"{what}: latency_worst's chunks are 0..n-1")
    worst_dur = column(db, "latency_worst", "dur_ns")
    worst_id = column(db, "latency_worst", "id")
    truth = mem.execute("SELECT rowid, dur_ns FROM latency"
                       " ORDER BY dur_ns DESC, a_ts, a_cpu, a_row, rowid").fetchall()
    ok(worst_id == [r for r, _ in truth] and worst_dur == [d for _, d in truth],
       f"{what}: latency_worst is the worst-first order of {len(truth)} pairs",
       f"first ids {worst_id[:8]} against {[r for r, _ in truth][:8]}")
    sizes = [len(decode_chunk(b)) for (b,) in
             db.execute("SELECT dur_ns FROM latency_worst ORDER BY chunk")]
    ok(all(n == CHUNK for n in sizes[:-1]) and (not sizes or 0 < sizes[-1] <= CHUNK),
       f"{what}: every chunk but the last is full", f"chunk sizes {sizes[:8]}")
    task_dur = column(db, "latency_task", "dur_ns")
    task_a = column(db, "latency_task", "a_ts")
    truth = mem.execute("SELECT pid, dur_ns, a_ts FROM latency"
                       " ORDER BY pid, dur_ns DESC, a_ts").fetchall()
    ok(task_dur == [d for _, d, _ in truth] and task_a == [a for _, _, a in truth],
       f"{what}: latency_task is the by-task order")
    spans = db.execute("SELECT pid, lo, hi FROM latency_task_span ORDER BY lo").fetchall()
    good = True
    end = 0
    for pid, lo, hi in spans:
        good = good and lo == end and hi > lo and all(t[0] == pid for t in truth[lo:hi])
        end = hi
    ok(good and end == len(truth) and len({p for p, _, _ in spans}) == len(spans),
       f"{what}: latency_task_span covers each task's pairs once ({len(spans)} tasks)")
    db.close()
    mem.close()


def check_damaged(rec, preset):
    with tempfile.TemporaryDirectory(prefix="cs-latency-orders-") as cache:
        run(rec, preset, cache, 0)
        for path in glob.glob(os.path.join(cache, "chronoscope", "*.latency.*.cspass")):
            db = sqlite3.connect(path)
            db.execute("UPDATE latency_chunks SET data = x'00ffffffff'")
            db.commit()
            db.close()
        result = run(rec, preset, cache, 0)
        ok(result.returncode > 0, f"{os.path.basename(rec)} {preset}: damaged chunks fail the"
           f" command (exit {result.returncode})", result.stderr)
        ok("damaged" in result.stderr, "the message names the damaged chunk", result.stderr)


def main():
    if not os.environ.get("CS_LATENCY_CLI"):
        print("1..0 # SKIP CS_LATENCY_CLI is not set")
        return 0
    cases = [(find(name), preset) for name, preset in CASES if find(name)]
    print(f"1..{len(cases) * 17 + (2 if cases else 0)}")
    for rec, preset in cases:
        outputs = []
        for run_records in (0, SHORT_RUN):
            what = f"{os.path.basename(rec)} {preset} runs of {run_records or 'default size'}"
            with tempfile.TemporaryDirectory(prefix="cs-latency-orders-") as cache:
                result = run(rec, preset, cache, run_records)
                ok(result.returncode == 0, f"{what}: chronoscope latency succeeds", result.stderr)
                outputs.append(result.stdout)
                dbs = glob.glob(os.path.join(cache, "chronoscope", "*.cspass"))
                ok(len(dbs) == 1, f"{what}: one pass database", dbs)
                if len(dbs) == 1:
                    check_db(dbs[0], what)
                else:
                    for _ in range(6):
                        ok(False, f"{what}: no database to check")
        same = outputs[0] == outputs[1] and bool(outputs[0])
        ok(same and json.loads(outputs[0]) is not None,
           f"{os.path.basename(rec)} {preset}: the same figures and list with short runs")
    if cases:
        check_damaged(*cases[0])
    return 1 if n_failed else 0


if __name__ == "__main__":
    sys.exit(main())
