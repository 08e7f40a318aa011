#!/usr/bin/env python3
"""Why wakeups were late, as `trace-cmd report` sees them.

Usage: latency-explain.py [--trace-cmd PATH] [--top N] [--depth N]
                          [--blockers N] [--percentile P] FILE.dat

Prints one JSON object on stdout:

  {"file": .., "wake_events": ["sched:sched_waking", ...], "n_pairs": ..,
   "threshold_ns": .., "n_selected": ..,
   "worst": [{"pid", "prio", "a_ts_ns", "b_ts_ns", "duration_ns", "a_cpu", "b_cpu",
              "waker_pid", "waker_flags",
              "n_cpus_queued", "breakdown": [{"kind", "id", "name", "prio", "ns"}, ...],
              "chain": [{"pid", "a_ts_ns", "b_ts_ns", "waker_pid", "breakdown": [..]}, ...],
              "chain_end": "irq" | "idle" | "not waiting" | "depth"}, ...],
   "blockers": [{"kind", "id", "name", "ns", "n_pairs"}, ...]}

Written from issue 24 and plugins/latency/explain/README.md ("Rules"),
not from Chronoscope's code.  Events come from one `trace-cmd report -t
-R -l` of the types below (-l adds each event's common_flags as
CPU-0xFLAGS), in time order over all CPUs, ties in CPU order, then in
report order, read from the first event of the recording:

- wakeup pairs: those of Chronoscope's one wakeup rule, taken from the
  latency oracle (latency-pairs.py's wakeup_waits(), imported, not written
  again): over every sched_waking, sched_wakeup and sched_wakeup_new and
  sched_switch, A is the wakeup that opened the wait of a sleeping task
  T, B the sched_switch that ran T next; T waits on A's target_cpu, then
  on each sched_migrate_task's dest_cpu for T;
- per CPU: the running task (next_pid/next_comm/next_prio; before the
  CPU's first sched_switch its prev_pid, prev_comm and prev_prio), the
  hard interrupts in progress (irq_handler_entry .. exit, a stack), the
  softirq (softirq_entry .. exit), interrupts off (preemptirq:irq_disable
  .. irq_enable, chronoscope:irqs_off_begin .. end) and preemption off
  (preemptirq:preempt_disable .. enable, chronoscope:preempt_off_begin ..
  end); a sched_switch clears the interrupts, the softirq and both
  sections;
- what holds a CPU: the innermost IRQ ("irq", its number, its name), else
  the softirq ("softirq", vector, HI..RCU), else "irqs_off" or
  "preempt_off" (the running task's pid and comm), else "idle" (pid 0; id
  -1) or the "task" (pid, comm); a task's or section's prio is the first
  one known while it held the CPU (next_prio; prev_prio for the time
  before a CPU's first sched_switch);
- n_cpus_queued is 1 plus the task's migrations while it waited;
- between two events the time goes to what held the CPU each waiting
  task was queued on; a pair's parts are summed by (kind, id, name);
- chain: a link's waker is A's common_pid; the chain ends when A's
  common_flags has 0x08, 0x10 or 0x40 (interrupt), when the waker is pid
  0 (idle), or at --depth links; the next link is the waker's latest
  wakeup pair whose B is at or before this link's A ("not waiting" when
  there is none);
- the worst --top pairs: longest first, then A's time, A's CPU, report
  order; top blockers: the parts of the pairs lasting at least the
  --percentile's duration (nearest rank, the ceil(q * count)-th shortest)
  summed per contributor with the count of pairs, largest first, then
  kind, id, name;
- --window CPU:A:B (repeatable) prints instead {"windows": [{"cpu",
  "a_ts_ns", "b_ts_ns", "breakdown"}]}: what held CPU from A to B, for
  pairs of the other presets (the window opens before the events at A and
  closes before those at B);
- sections from the latency flags (README.md rule 8), in the breakdowns
  printed (the worst pairs, their chains, the windows; not in the
  blockers' sums, which the sweep makes): from a second `trace-cmd report -t
  -l` of every event, whose latency columns after the CPU read "d" for
  interrupts off, then need-resched, then h/s/H/z/Z for an interrupt,
  then the preemption depth in hex ("." for 0); on a CPU whose events
  over the pair's time on it hold no preemptirq:* nor chronoscope:*_off_*
  event, in a pair with no section already, each maximal stretch where
  the pair waited on that CPU held by one task loses to
  ("irqs_off"/"preempt_off", pid, comm) the time between two consecutive
  events of the CPU inside the stretch (ends included), both of that
  task's pid, both outside interrupts, both "d" (irqs_off), else both with
  a depth above 0 (preempt_off); the part gets "source": "latency-flags";
  need_resched_ns: in those stretches held by a task not outranking the
  pair's (nor its own), the gaps between two such consecutive events both
  with "N" or "n" in the need-resched column;
- --runs PID adds "runs": [[in_ns, out_ns, cpu], ...], each sched_switch
  with next_pid PID up to the next sched_switch with prev_pid PID on that
  CPU (the task's runs that the recording shows whole).

Exit 1 when trace-cmd cannot read the file, 2 when it has no wakeup pair.
Standard library only.
"""
import argparse
import bisect
import importlib.util
import json
import math
import os
import re
import subprocess
import sys

def load_pairs_oracle():
    """tests/oracle/latency-pairs.py, whose wakeup_waits() is the wakeup rule."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "latency-pairs.py")
    spec = importlib.util.spec_from_file_location("latency_pairs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pairs_oracle = load_pairs_oracle()

HEADER = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>-?\d+)\s+(?P<cpu>\d+)-0x(?P<flags>[0-9a-fA-F]+)\s+"
                    r"(?P<sec>\d+)\.(?P<frac>\d+):\s+(?P<name>\w+):\s*(?P<text>.*)$")

TYPES = {
    "sched_switch": "sched", "sched_waking": "sched", "sched_wakeup": "sched",
    "sched_wakeup_new": "sched", "sched_migrate_task": "sched",
    "irq_handler_entry": "irq", "irq_handler_exit": "irq",
    "softirq_entry": "irq", "softirq_exit": "irq",
    "irq_disable": "preemptirq", "irq_enable": "preemptirq",
    "preempt_disable": "preemptirq", "preempt_enable": "preemptirq",
    "irqs_off_begin": "chronoscope", "irqs_off_end": "chronoscope",
    "preempt_off_begin": "chronoscope", "preempt_off_end": "chronoscope",
}
SOFTIRQS = ["HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
            "HRTIMER", "RCU"]
IRQ_FLAGS = 0x08 | 0x10 | 0x40


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed: {proc.stderr}")
        sys.exit(1)
    return proc.stdout


def num(text, name, default=None):
    m = re.search(r"(?:^|\s)" + name + r"=(-?(?:0x)?[0-9a-fA-F]+)", text)
    if m is None:
        return default
    v = m.group(1)
    return int(v, 16) if v.lower().startswith(("0x", "-0x")) else int(v, 10)


def comm(text, name, next_field):
    m = re.search(r"(?:^|\s)" + name + r"=(.*?) " + next_field + "=", text)
    return m.group(1) if m else ""


def read_events(trace_cmd, path):
    formats = set(run([trace_cmd, "report", "-E", path]).split())
    cmd = [trace_cmd, "report", "-t", "-R", "-l"]
    for name, system in sorted(TYPES.items()):
        if f"{system}:{name}" in formats:
            cmd += ["-F", f"{system}/{name}"]
    out = run(cmd + [path])
    if not re.search(r"^cpus=\d+", out, re.M):
        sys.stderr.write(f"trace-cmd report cannot read {path}\n")
        sys.exit(1)
    n_cpus = int(re.search(r"^cpus=(\d+)", out, re.M).group(1))
    events = []
    for line in out.splitlines():
        m = HEADER.match(line)
        if m is None or m["name"] not in TYPES:
            continue
        frac = (m["frac"] + "000000000")[:9]
        events.append((int(m["sec"]) * 1000000000 + int(frac), int(m["cpu"]), len(events),
                       m["name"], int(m["pid"]), int(m["flags"], 16), " " + m["text"]))
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    return n_cpus, events


class Cpu:
    def __init__(self):
        self.last = None
        self.pid = None          # None: before the first sched_switch
        self.comm = ""
        self.prio = -1
        self.irqs = []           # (irq, name)
        self.softirq = None
        self.irqs_off = False
        self.preempt_off = False
        self.waiting = []        # open pairs queued here

    def holder(self):
        if self.irqs:
            irq, name = self.irqs[-1]
            return ("irq", irq, name)
        if self.softirq is not None:
            v = self.softirq
            return ("softirq", v, SOFTIRQS[v] if 0 <= v < len(SOFTIRQS) else "?")
        if self.pid is None:
            return ("unknown", -1, "")
        if self.irqs_off:
            return ("irqs_off", self.pid, self.comm)
        if self.preempt_off:
            return ("preempt_off", self.pid, self.comm)
        if self.pid == 0:
            return ("idle", -1, "")
        return ("task", self.pid, self.comm)


LAT = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>-?\d+)\s+(?P<cpu>\d+)(?P<irqs>[dX.])(?P<need>[NnpPbB.])"
                 r"(?P<hs>[hsHzZ.])(?P<depth>[0-9a-fA-F.])\S*\s+"
                 r"(?P<sec>\d+)\.(?P<frac>\d+):\s+(?P<system>\w+:)?\s*(?P<name>\w+):")
KMOD_SECTIONS = ("irqs_off_begin", "irqs_off_end", "preempt_off_begin", "preempt_off_end")


MAX_FLAG_EVENTS = 20000


def read_marks(trace_cmd, path):
    """{cpu: [(ts, pid, irqs_off, in_irq, depth, is_section, need_resched), ...]} of every
    event, from `trace-cmd report -l`'s latency columns."""
    sections = {n for n, sysname in TYPES.items() if sysname == "preemptirq"} | set(KMOD_SECTIONS)
    marks = {}
    for line in run([trace_cmd, "report", "-t", "-l", path]).splitlines():
        m = LAT.match(line)
        if m is None:
            continue
        frac = (m["frac"] + "000000000")[:9]
        depth = 0 if m["depth"] == "." else int(m["depth"], 16)
        marks.setdefault(int(m["cpu"]), []).append(
            (int(m["sec"]) * 1000000000 + int(frac), int(m["pid"]), m["irqs"] == "d",
             m["hs"] != ".", depth, m["name"] in sections, m["need"] in "Nn"))
    for lst in marks.values():
        lst.sort(key=lambda e: e[0])
    return marks


def flag_sections(p, marks):
    """p's parts with the sections the latency flags show (rule 8), the
    keys of those sections, and the time a task not outranking p's kept
    its CPU with a reschedule pending (both events 'N' or 'n')."""
    parts, prio_of = dict(p["parts"]), dict(p["prio_of"])
    added = set()
    need = 0
    if any(k[0] in ("irqs_off", "preempt_off") for k in parts):
        return parts, prio_of, added, need
    by_cpu = {}
    for b, e, c, who in p.get("holds", []):
        runs = by_cpu.setdefault(c, [])
        if runs and runs[-1][1] == b and runs[-1][2] == who:
            runs[-1][1] = e
        else:
            runs.append([b, e, who])
    for c, runs in by_cpu.items():
        lst = marks.get(c, [])
        lo, hi = min(r[0] for r in runs), max(r[1] for r in runs)
        ts_list = [m[0] for m in lst]
        inside = lst[bisect.bisect_left(ts_list, lo):bisect.bisect_right(ts_list, hi)]
        # as the engine: a CPU with more events over the stretch than
        # MAX_FLAG_EVENTS (cs-explain-flags.c) is not read for its flags
        if any(m[5] for m in inside) or len(inside) > MAX_FLAG_EVENTS:
            continue
        for b, e, who in runs:
            if who[0] != "task":
                continue
            ms = [m for m in inside if b <= m[0] <= e]
            lower = who[1] != p.get("pid", -1) and not (0 <= prio_of.get(who, -1) < p.get("prio", -1))
            for m1, m2 in zip(ms, ms[1:]):
                if m1[1] != who[1] or m2[1] != who[1] or m1[3] or m2[3] or m2[0] <= m1[0]:
                    continue
                if lower and m1[6] and m2[6]:
                    need += m2[0] - m1[0]
                if m1[2] and m2[2]:
                    kind = "irqs_off"
                elif m1[4] > 0 and m2[4] > 0:
                    kind = "preempt_off"
                else:
                    continue
                key = (kind, who[1], who[2])
                parts[who] -= m2[0] - m1[0]
                parts[key] = parts.get(key, 0) + m2[0] - m1[0]
                prio_of.setdefault(key, prio_of.get(who, -1))
                added.add(key)
    return {k: v for k, v in parts.items() if v > 0}, prio_of, added, need


def rule_waits(events):
    """{seq of the wakeup that opened a wait: seq of the sched_switch that
    ended it}, by the latency oracle's wakeup rule over the same events in
    the same order."""
    as_dicts = [{"type": TYPES[name] + ":" + name, "ts": ts, "cpu": c, "pid": pid, "text": text,
                 "seq": seq}
                for ts, c, seq, name, pid, flags, text in events
                if "sched:" + name in pairs_oracle.WAKEUPS or name == "sched_switch"]
    return {what[1]["seq"]: what[2]["seq"] for what in pairs_oracle.wakeup_waits(as_dicts)
            if what[0] == "wait"}


def sweep(n_cpus, events, windows=()):
    cpus = [Cpu() for _ in range(n_cpus)]
    waits = rule_waits(events)
    open_pairs = {}
    pairs = []
    prios = {}

    def flush(c, ts):
        cpu = cpus[c]
        if cpu.last is not None and ts > cpu.last and cpu.waiting:
            who = cpu.holder()
            prio = cpu.prio if who[0] in ("task", "irqs_off", "preempt_off") else -1
            for p in cpu.waiting:
                p["parts"][who] = p["parts"].get(who, 0) + ts - cpu.last
                p.setdefault("holds", []).append((cpu.last, ts, c, who))
                if p["prio_of"].get(who, -1) < 0:
                    p["prio_of"][who] = prio
        if cpu.last is None or ts > cpu.last:
            cpu.last = ts

    # Windows (other presets): CPU c from a to b, opened before the events
    # at a, closed before the events at b.
    pending = sorted(windows, key=lambda w: w["a"])
    open_windows = []

    def windows_until(ts):
        for w in [w for w in open_windows if w["b"] <= ts]:
            flush(w["cpu"], w["b"])
            cpus[w["cpu"]].waiting.remove(w)
            open_windows.remove(w)
        while pending and pending[0]["a"] <= ts:
            w = pending.pop(0)
            if w["b"] <= ts:
                w["parts"][cpus[w["cpu"]].holder()] = w["b"] - w["a"]
                w["holds"] = [(w["a"], w["b"], w["cpu"], cpus[w["cpu"]].holder())]
                continue
            flush(w["cpu"], w["a"])
            cpus[w["cpu"]].waiting.append(w)
            open_windows.append(w)

    for ts, c, seq, name, pid, flags, text in events:
        if c >= n_cpus:
            continue
        windows_until(ts)
        cpu = cpus[c]
        flush(c, ts)
        if name == "sched_switch":
            prev_pid, next_pid = num(text, "prev_pid"), num(text, "next_pid")
            prios[prev_pid] = num(text, "prev_prio", -1)
            prios[next_pid] = num(text, "next_prio", -1)
            if cpu.pid is None:
                known = ("idle", -1, "") if prev_pid == 0 else \
                        ("task", prev_pid, comm(text, "prev_comm", "prev_pid"))
                for p in cpu.waiting:
                    t = p["parts"].pop(("unknown", -1, ""), None)
                    p["holds"] = [(b, e, hc, known if who == ("unknown", -1, "") and hc == c
                                   else who) for b, e, hc, who in p.get("holds", [])]
                    if t is not None:
                        p["parts"][known] = p["parts"].get(known, 0) + t
                        if p["prio_of"].get(known, -1) < 0:
                            p["prio_of"][known] = num(text, "prev_prio", -1) if prev_pid else -1
            cpu.pid = next_pid
            cpu.comm = comm(text, "next_comm", "next_pid")
            cpu.prio = num(text, "next_prio", -1)
            cpu.irqs, cpu.softirq, cpu.irqs_off, cpu.preempt_off = [], None, False, False
            p = open_pairs.get(next_pid)
            if p is not None and p["end_seq"] == seq:
                del open_pairs[next_pid]
                if p["cpu"] != c and p["cpu"] is not None:
                    flush(p["cpu"], ts)
                if p["cpu"] is not None:
                    cpus[p["cpu"]].waiting.remove(p)
                p["b"], p["b_cpu"], p["seq_b"] = ts, c, seq
                pairs.append(p)
        elif seq in waits:
            # A wakeup that opened a wait the rule ends with a switch-in
            # (the other wakeups make no pair).
            t = num(text, "pid")
            target = num(text, "target_cpu", c)
            p = {"pid": t, "prio": num(text, "prio", -1), "a": ts, "a_cpu": c, "seq": seq,
                 "end_seq": waits[seq],
                 "waker": pid, "flags": flags, "parts": {}, "prio_of": {}, "n_queued": 1,
                 "cpu": target if 0 <= target < n_cpus else None}
            open_pairs[t] = p
            if p["cpu"] is not None:
                flush(p["cpu"], ts)
                cpus[p["cpu"]].waiting.append(p)
        elif name == "sched_migrate_task":
            p = open_pairs.get(num(text, "pid"))
            dest = num(text, "dest_cpu", -1)
            if p is None or dest < 0 or dest == p["cpu"] or dest >= n_cpus:
                continue
            if p["cpu"] is not None:
                flush(p["cpu"], ts)
                cpus[p["cpu"]].waiting.remove(p)
            flush(dest, ts)
            p["cpu"] = dest
            p["n_queued"] += 1
            cpus[dest].waiting.append(p)
        elif name == "irq_handler_entry":
            m = re.search(r"\sname=(.*)$", text)
            cpu.irqs.append((num(text, "irq", -1), m.group(1).strip() if m else ""))
        elif name == "irq_handler_exit":
            if cpu.irqs:
                cpu.irqs.pop()
        elif name == "softirq_entry":
            cpu.softirq = num(text, "vec", -1)
        elif name == "softirq_exit":
            cpu.softirq = None
        elif name in ("irq_disable", "irqs_off_begin"):
            cpu.irqs_off = True
        elif name in ("irq_enable", "irqs_off_end"):
            cpu.irqs_off = False
        elif name in ("preempt_disable", "preempt_off_begin"):
            cpu.preempt_off = True
        elif name in ("preempt_enable", "preempt_off_end"):
            cpu.preempt_off = False
    windows_until(float("inf"))
    return pairs, prios


MARKS = None    # read_marks()'s, when the breakdowns printed get rule 8


def parts_list(p):
    parts, prio_of, added = p["parts"], p["prio_of"], set()
    if MARKS is not None:
        parts, prio_of, added, p["need_resched_ns"] = flag_sections(p, MARKS)
    out = [{"kind": k, "id": i, "name": n, "ns": ns, "prio": prio_of.get((k, i, n), -1)}
           for (k, i, n), ns in parts.items()]
    for x in out:
        if (x["kind"], x["id"], x["name"]) in added:
            x["source"] = "latency-flags"
    out.sort(key=lambda x: (-x["ns"], x["kind"], x["id"], x["name"]))
    return out


def link(p):
    return {"pid": p["pid"], "a_ts_ns": p["a"], "b_ts_ns": p["b"], "a_cpu": p["a_cpu"],
            "b_cpu": p["b_cpu"], "waker_pid": p["waker"], "n_cpus_queued": p["n_queued"],
            "breakdown": parts_list(p), "need_resched_ns": p.get("need_resched_ns", 0)}


def chain(p, by_task, depth):
    links, end = [], "depth"
    cur = p
    while len(links) + 1 < depth:
        if cur["flags"] & IRQ_FLAGS:
            end = "irq"
            break
        if cur["waker"] <= 0:
            end = "idle"
            break
        history = by_task.get(cur["waker"], ([], []))
        i = bisect.bisect_right(history[0], cur["a"]) - 1
        if i < 0:
            end = "not waiting"
            break
        cur = history[1][i]
        links.append(link(cur))
    return links, end


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace-cmd", default=os.environ.get("TRACE_CMD", "trace-cmd"))
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--blockers", type=int, default=5)
    ap.add_argument("--percentile", type=float, default=99.0)
    ap.add_argument("--runs", type=int)
    ap.add_argument("--window", action="append", default=[],
                    help="CPU:A:B, a pair of another preset: its CPU's time from A to B")
    ap.add_argument("--no-flags", action="store_true",
                    help="leave out the sections the latency flags show (rule 8)")
    ap.add_argument("file")
    args = ap.parse_args()
    global MARKS

    n_cpus, events = read_events(args.trace_cmd, args.file)
    wake_events = sorted({"sched:" + e[3] for e in events
                          if "sched:" + e[3] in pairs_oracle.WAKEUPS})
    windows = []
    for text in args.window:
        c, a, b = (int(x) for x in text.split(":"))
        windows.append({"cpu": c, "a": a, "b": b, "parts": {}, "prio_of": {}, "n_queued": 1})
    pairs, _ = sweep(n_cpus, events, windows)
    if not args.no_flags:
        MARKS = read_marks(args.trace_cmd, args.file)
    if windows:
        json.dump({"file": args.file, "windows": [
            {"cpu": w["cpu"], "a_ts_ns": w["a"], "b_ts_ns": w["b"], "breakdown": parts_list(w)}
            for w in windows]}, sys.stdout, indent=1)
        print()
        return
    if not pairs:
        sys.stderr.write(f"{args.file}: no wakeup pair\n")
        sys.exit(2)
    by_task = {}
    for p in sorted(pairs, key=lambda p: p["b"]):
        h = by_task.setdefault(p["pid"], ([], []))
        h[0].append(p["b"])
        h[1].append(p)
    worst = sorted(pairs, key=lambda p: (-(p["b"] - p["a"]), p["a"], p["a_cpu"], p["seq"]))
    durations = sorted(p["b"] - p["a"] for p in pairs)
    rank = min(max(math.ceil(args.percentile / 100.0 * len(durations)), 1), len(durations))
    threshold = durations[rank - 1]
    sums = {}
    n_selected = 0
    for p in pairs:
        if p["b"] - p["a"] < threshold:
            continue
        n_selected += 1
        for key, ns in p["parts"].items():
            s = sums.setdefault(key, [0, 0])
            s[0] += ns
            s[1] += 1
    blockers = [{"kind": k, "id": i, "name": n, "ns": s[0], "n_pairs": s[1]}
                for (k, i, n), s in sums.items()]
    blockers.sort(key=lambda b: (-b["ns"], b["kind"], b["id"], b["name"]))
    out_worst = []
    for p in worst[:args.top]:
        item = link(p)
        item.update({"prio": p["prio"], "duration_ns": p["b"] - p["a"],
                     "waker_flags": p["flags"]})
        item["chain"], item["chain_end"] = chain(p, by_task, args.depth)
        out_worst.append(item)
    result = {"file": args.file, "wake_events": wake_events, "n_pairs": len(pairs),
              "threshold_ns": threshold, "n_selected": n_selected, "worst": out_worst,
              "blockers": blockers[:args.blockers]}
    if args.runs is not None:
        runs, since = [], {}
        for ts, c, _, name, _, _, text in events:
            if name != "sched_switch":
                continue
            if num(text, "prev_pid") == args.runs and c in since:
                runs.append([since.pop(c), ts, c])
            if num(text, "next_pid") == args.runs:
                since[c] = ts
        result["runs"] = runs
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
