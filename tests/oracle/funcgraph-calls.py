#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Functions of a function_graph / function recording as `trace-cmd report` sees them.

Usage: funcgraph-calls.py [--trace-cmd PATH] [--begin NS] [--end NS] FILE.dat

Prints one JSON object on stdout:

  {"file": ..., "functions": [{"address": "0x...", "names": [...], "calls": N,
   "function_events": N, "total_ns": N, "self_ns": N, "max_ns": N,
   "worst": {"begin_ns": .., "duration_ns": .., "pid": ..}}, ...]}

sorted by total_ns (longest first), then function events, then calls.

The rules, written from issue 12 (part 4) and the brief, not from
Chronoscope's code:

- events are those of `trace-cmd report -t -R -F ftrace/funcgraph_entry
  -F ftrace/funcgraph_exit -F ftrace/function`, in report order;
- the open entries are kept per pid, and for pid 0 (the idle task, which
  runs on every CPU at once) per CPU;
- each funcgraph_exit is one call of its func, lasting rettime - calltime
  (hexadecimal fields of the raw output); it begins at the last
  funcgraph_entry of the same pid with the same depth and func when that
  entry is still open (no exit at its depth or above since), else at the
  exit's timestamp minus the duration;
- a call's self time is its duration minus the durations of the calls
  one depth deeper of the same pid that returned after its entry (or,
  without an entry, after the previous exit at its depth or the previous
  entry at its depth), never below 0;
- a call lies in [--begin, --end) when its begin does;
- each ftrace:function event counts once for the function of its ip;
- an address belongs to the kallsyms symbol with the greatest address at
  or below it (`trace-cmd report -f`, all names at that address listed);
  addresses below every symbol are their own;
- newer kernels' formats make report print func and ip as names, not
  addresses: a name kallsyms has at one address stands for that address;
  a name it has at several (static functions of different files) cannot
  be told apart, and its calls are summed under "address": null;
- the worst call is the longest, the earliest of equals.

Exit 1 when trace-cmd cannot read the file.  Standard library only.
"""
import argparse
import bisect
import json
import re
import subprocess
import sys

HEADER = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+"
                    r"(?P<sec>\d+)\.(?P<frac>\d+):\s+(?P<name>\w+):\s*(?P<text>.*)$")
FIELD = re.compile(r"(\w+)=(\S+)")


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed: {proc.stderr}")
        sys.exit(1)
    return proc.stdout


def load_symbols(tc, path):
    by_addr = {}
    for line in run([tc, "report", "-f", path]).splitlines():
        parts = line.split()
        if len(parts) >= 2:
            try:
                a = int(parts[0], 16)
            except ValueError:
                continue
            by_addr.setdefault(a, []).append(parts[1])
    addrs = sorted(by_addr)
    by_name = {}
    for a, ns in by_addr.items():
        for n in ns:
            by_name.setdefault(n, []).append(a)
    return addrs, by_addr, by_name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace-cmd", default="trace-cmd")
    ap.add_argument("--begin", type=int, default=-(1 << 63))
    ap.add_argument("--end", type=int, default=(1 << 63) - 1)
    ap.add_argument("file")
    args = ap.parse_args()
    tc = args.trace_cmd
    addrs, names, by_name = load_symbols(tc, args.file)

    def start_of(a):
        i = bisect.bisect_right(addrs, a) - 1
        return addrs[i] if i >= 0 else a

    funcs = {}

    def key_of(text):
        # An address in hex, or a name as newer formats print it.
        try:
            return start_of(int(text, 16))
        except ValueError:
            at = by_name.get(text.split("+")[0], [])
            return at[0] if len(at) == 1 else text

    def func(key):
        f = funcs.get(key)
        if f is None:
            if isinstance(key, int):
                address, fnames = "0x%x" % key, sorted(names.get(key, []))
            else:
                address, fnames = None, [key]
            f = funcs[key] = {"address": address, "names": fnames,
                              "calls": 0, "function_events": 0, "total_ns": 0,
                              "self_ns": 0, "max_ns": 0, "worst": None}
        return f

    # pid -> {depth: [entry_ts or None, func, children_ns]}
    stacks = {}
    out = run([tc, "report", "-t", "-R", "-F", "ftrace/funcgraph_entry",
               "-F", "ftrace/funcgraph_exit", "-F", "ftrace/function", args.file])
    for line in out.splitlines():
        m = HEADER.match(line)
        if m is None:
            continue
        name = m.group("name")
        pid = int(m.group("pid"))
        ts = int(m.group("sec")) * 1000000000 + int(m.group("frac").ljust(9, "0")[:9])
        fields = dict(FIELD.findall(m.group("text")))
        if name == "function":
            if "ip" in fields:
                f = func(key_of(fields["ip"]))
                if args.begin <= ts < args.end:
                    f["function_events"] += 1
            continue
        if name not in ("funcgraph_entry", "funcgraph_exit"):
            continue
        addr = key_of(fields["func"])
        depth = int(fields["depth"])
        stack = stacks.setdefault((pid, int(m.group("cpu")) if pid == 0 else -1), {})
        if name == "funcgraph_entry":
            for d in [d for d in stack if d > depth]:
                del stack[d]
            stack[depth] = [ts, addr, 0]
            continue
        dur = int(fields["rettime"], 16) - int(fields["calltime"], 16)
        if dur < 0:
            continue
        begin = ts - dur
        children = 0
        frame = stack.get(depth)
        if frame is not None:
            if frame[0] is not None and frame[1] == addr:
                begin = frame[0]
            children = frame[2]
        for d in [d for d in stack if d >= depth]:
            del stack[d]
        if depth > 0:
            parent = stack.setdefault(depth - 1, [None, None, 0])
            parent[2] += dur
        f = func(addr)
        if not args.begin <= begin < args.end:
            continue
        f["calls"] += 1
        f["total_ns"] += dur
        f["self_ns"] += max(dur - children, 0)
        if f["worst"] is None or dur > f["worst"]["duration_ns"]:
            f["worst"] = {"begin_ns": begin, "duration_ns": dur, "pid": pid}
        f["max_ns"] = max(f["max_ns"], dur)
    rows = [f for f in funcs.values() if f["calls"] or f["function_events"]]
    rows.sort(key=lambda f: (-f["total_ns"], -f["function_events"], -f["calls"]))
    json.dump({"file": args.file, "functions": rows}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
