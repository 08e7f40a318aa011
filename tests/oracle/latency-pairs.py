#!/usr/bin/env python3
"""Latency pairs of a recording as `trace-cmd report` sees them.

Usage: latency-pairs.py [--trace-cmd PATH] (--preset NAME | --from A --to B)
                        [--begin NS] [--end NS] [--top N] FILE.dat

A and B are SYSTEM:EVENT[.FIELD[,FIELD...]]; a FIELD is a field of the
event (as `trace-cmd report -R` prints it), @pid (the task that logged it:
common_pid) or @cpu.  A side without fields takes the other side's; a pair
without any is keyed by @pid.

Prints one JSON object on stdout:

  {"file": ..., "pairs": [{"a": "sched:sched_waking", "b": ..., "a_keys": [...],
   "n_a": .., "n_b": .., "n_pairs": .., "n_unmatched": ..}, ...],
   "count": N, "min_ns", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "max_ns",
   "worst": [{"duration_ns", "a_ts_ns", "b_ts_ns", "cpu", "pid", "key": [..]}, ...]}

The rules, written from issue 12 and plugins/latency/README.md, not from
Chronoscope's code:

- events are those of `trace-cmd report -t -R -F SYSTEM/EVENT ...`, in
  time order over all CPUs, ties in CPU order, then in report order;
- an event that is a B of a pair closes the open A with the same key (the
  key's values on B equal those on A): one pair of B's time − A's time;
  then an event that is an A opens its key, replacing (and counting as
  unmatched) an A open under the same key; A's open at the end are
  unmatched;
- a pair's pid is the value of A's first key that is a pid (@pid,
  common_pid, pid, *_pid), else A's common_pid;
- presets: wakeup is sched_waking.pid (sched_wakeup.pid when the recording
  has no sched_waking event) → sched_switch.next_pid, paired by the wakeup
  rule below, not by the latest A; irq, softirq: same
  irq/vec and CPU, entry → exit; softirq-raise: raise → entry; syscall:
  raw_syscalls sys_enter → sys_exit by @pid and id, or, when the recording
  has no raw_syscalls:sys_enter event, every syscalls:sys_enter_X that has
  events and a sys_exit_X, by @pid; block: issue → complete by dev and
  sector; funcgraph: entry → exit by @pid and depth; kmod-irqs-off and
  kmod-preempt-off: the module's begin → end on the same CPU; kmod-wakeup:
  the wakeup event (as for wakeup) .pid → chronoscope:wakeup_latency.pid;
- the wakeup rule (Chronoscope's one rule, from the text of
  include/chronoscope-1/cs-plugin-wakeup.h and the kernel's
  try_to_wake_up() and sched_switch, not from its code): every
  sched_waking, sched_wakeup and sched_wakeup_new the recording has is a
  wakeup of its "pid"; each task is unknown until its first event, then
  running, sleeping, preempted or woken.  A wakeup of an unknown or
  sleeping task opens a wait (its A); of a running, woken or preempted
  task it changes nothing.  A sched_switch first switches prev_pid out:
  preempted when prev_state prints as R or R+ (no bit of the low byte set),
  else sleeping, and an open wait is dropped; then switches next_pid in:
  running, and an open wait ends there, one pair (B is the sched_switch).
  Pid 0 is left out.  n_a counts every wakeup, n_unmatched those that made
  no pair;
- a pair lies in [--begin, --end) when A's time >= begin and B's < end;
- percentiles are nearest-rank: the ceil(q * count)-th shortest;
- the worst list is ordered by duration (longest first), then A's time,
  A's CPU and A's order in the report.

Exit 1 when trace-cmd cannot read the file, 2 on a definition the
recording does not fit (the message on stderr).  Standard library only.
"""
import argparse
import json
import re
import subprocess
import sys

HEADER = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+"
                    r"(?P<sec>\d+)\.(?P<frac>\d+):\s+(?P<name>[\w]+):\s*(?P<text>.*)$")

WAKEUPS = ["sched:sched_waking", "sched:sched_wakeup", "sched:sched_wakeup_new"]

PRESETS = {
    "wakeup": (["sched:sched_waking", "sched:sched_wakeup"], "pid", "sched:sched_switch", "next_pid"),
    "irq": (["irq:irq_handler_entry"], "irq,@cpu", "irq:irq_handler_exit", "irq,@cpu"),
    "softirq": (["irq:softirq_entry"], "vec,@cpu", "irq:softirq_exit", "vec,@cpu"),
    "softirq-raise": (["irq:softirq_raise"], "vec,@cpu", "irq:softirq_entry", "vec,@cpu"),
    "syscall": (["raw_syscalls:sys_enter"], "@pid,id", "raw_syscalls:sys_exit", "@pid,id"),
    "block": (["block:block_rq_issue"], "dev,sector", "block:block_rq_complete", "dev,sector"),
    "funcgraph": (["ftrace:funcgraph_entry"], "@pid,depth", "ftrace:funcgraph_exit", "@pid,depth"),
    "kmod-irqs-off": (["chronoscope:irqs_off_begin"], "@cpu", "chronoscope:irqs_off_end", "@cpu"),
    "kmod-preempt-off": (["chronoscope:preempt_off_begin"], "@cpu",
                         "chronoscope:preempt_off_end", "@cpu"),
    "kmod-wakeup": (["sched:sched_waking", "sched:sched_wakeup"], "pid",
                    "chronoscope:wakeup_latency", "pid"),
}


class Unfit(Exception):
    pass


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if proc.returncode != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed: {proc.stderr}")
        sys.exit(1)
    return proc.stdout


def number(text):
    text = text.rstrip(",")
    if text.lower().startswith(("0x", "-0x")):
        return int(text, 16)
    return int(text, 10)


def read_events(trace_cmd, path, types):
    """Events of types ("system:name"), as dicts, in pairing order."""
    by_name = {}
    for t in types:
        system, name = t.split(":")
        if name in by_name and by_name[name] != system:
            raise Unfit(f"two systems have an event {name}: the oracle cannot tell them apart")
        by_name[name] = system
    cmd = [trace_cmd, "report", "-t", "-R"]
    for t in sorted(types):
        cmd += ["-F", t.replace(":", "/")]
    out = run(cmd + [path])
    if not re.search(r"^cpus=\d+", out, re.M):
        sys.stderr.write(f"trace-cmd report cannot read {path}\n")
        sys.exit(1)
    events = []
    for line in out.splitlines():
        m = HEADER.match(line)
        if m is None or m["name"] not in by_name:
            continue
        frac = (m["frac"] + "000000000")[:9]
        events.append({"type": by_name[m["name"]] + ":" + m["name"],
                       "ts": int(m["sec"]) * 1000000000 + int(frac),
                       "cpu": int(m["cpu"]), "pid": int(m["pid"]),
                       "text": " " + m["text"], "seq": len(events)})
    events.sort(key=lambda e: (e["ts"], e["cpu"], e["seq"]))
    return events


def field(event, name):
    if name == "@cpu":
        return event["cpu"]
    if name in ("@pid", "common_pid"):
        return event["pid"]
    m = re.search(r"\s" + re.escape(name) + r"=(\S+)", event["text"])
    if m is None:
        raise Unfit(f"{event['type']} has no field {name} in: {event['text'].strip()}")
    return number(m.group(1))


def is_pid_key(name):
    return name in ("@pid", "pid", "common_pid") or name.endswith("_pid")


def resolve(trace_cmd, path, args, formats):
    """The definition's pairs: (a_type, a_keys, b_type, b_keys).

    A definition whose A or B has no record in the recording does not fit
    it, whether or not the recording carries its format (`trace-cmd
    record` saves the format of every event of the kernel)."""
    def need(*types, counted=None):
        """Refuses unless each of types has records; counted: counts read already."""
        counts = dict(counted or {})
        counts.update(count_types(trace_cmd, path,
                                  sorted({t for t in types if t in formats and t not in counts})))
        for t in types:
            if counts.get(t, 0) == 0:
                raise Unfit(f"the recording has no event {t}")

    if args.preset is None:
        def side(text):
            t, _, keys = text.partition(".")
            return t, [k.strip() for k in keys.split(",")] if keys else None
        a, a_keys = side(args.from_)
        b, b_keys = side(args.to)
        a_keys = a_keys or b_keys or ["@pid"]
        b_keys = b_keys or a_keys
        need(a, b)
        return [(a, a_keys, b, b_keys)]
    if args.preset not in PRESETS:
        raise Unfit(f"no preset {args.preset}")
    alternatives, a_keys, b, b_keys = PRESETS[args.preset]
    present = [t for t in alternatives if t in formats]
    counts = count_types(trace_cmd, path, present)
    if args.preset == "syscall" and counts.get("raw_syscalls:sys_enter", 0) == 0:
        enters = [t for t in formats if t.startswith("syscalls:sys_enter_")
                  and "syscalls:sys_exit_" + t[len("syscalls:sys_enter_"):] in formats]
        exits = ["syscalls:sys_exit_" + t[len("syscalls:sys_enter_"):] for t in enters]
        family_counts = count_types(trace_cmd, path, enters + exits)
        family = [(t, ["@pid"], x, ["@pid"])
                  for t, x in sorted(zip(enters, exits), key=lambda p: p[0].split(":")[1])
                  if family_counts.get(t, 0) > 0 and family_counts.get(x, 0) > 0]
        if family:
            return family
    with_events = [t for t in present if counts.get(t, 0) > 0]
    a = (with_events or present or alternatives)[0]
    need(a, b, counted={t: counts.get(t, 0) for t in present})
    return [(a, a_keys.split(","), b, b_keys.split(","))]


def count_types(trace_cmd, path, types):
    if not types:
        return {}
    counts = {}
    for e in read_events(trace_cmd, path, types):
        counts[e["type"]] = counts.get(e["type"], 0) + 1
    return counts


def prints_runnable(prev_state):
    """sched_switch's print fmt: no S D T t X Z P I letter (low byte) is R, R+."""
    return prev_state >= 0 and not prev_state & 0xff


def wakeup_waits(events):
    """The wakeup rule over events (dicts as read_events makes them), in
    pairing order.  Yields ("wait", wakeup, switch, pid) for each wait that a
    switch-in ends, and ("ignored", wakeup) / ("dropped", wakeup) /
    ("open", wakeup) for wakeups that make no pair."""
    task = {}       # pid -> "running" | "sleeping" | "preempted" | the waking event
    for e in events:
        if e["type"] == "sched:sched_switch":
            prev, nxt = field(e, "prev_pid"), field(e, "next_pid")
            if prev > 0:
                if isinstance(task.get(prev), dict):
                    yield ("dropped", task[prev])
                task[prev] = "preempted" if prints_runnable(field(e, "prev_state")) else "sleeping"
            if nxt > 0:
                if isinstance(task.get(nxt), dict):
                    yield ("wait", task[nxt], e, nxt)
                task[nxt] = "running"
        elif e["type"] in WAKEUPS:
            pid = field(e, "pid")
            if pid > 0 and task.get(pid, "sleeping") == "sleeping":
                task[pid] = e
            else:
                yield ("ignored", e)
    for state in task.values():
        if isinstance(state, dict):
            yield ("open", state)


def pair_wakeups(events, info):
    measured = []
    for what in wakeup_waits(events):
        if what[0] == "wait":
            _, start, e, pid = what
            measured.append({"duration_ns": e["ts"] - start["ts"], "a_ts_ns": start["ts"],
                             "b_ts_ns": e["ts"], "cpu": start["cpu"], "pid": pid,
                             "key": [pid], "seq": start["seq"]})
    info["n_a"] = sum(1 for e in events if e["type"] in WAKEUPS)
    info["n_b"] = sum(1 for e in events if e["type"] == "sched:sched_switch")
    info["n_pairs"] = len(measured)
    info["n_unmatched"] = info["n_a"] - len(measured)
    return [info], measured


def pair_up(events, pairs, wakeup_rule=False):
    infos = [{"a": a, "b": b, "a_keys": ak, "n_a": 0, "n_b": 0, "n_pairs": 0, "n_unmatched": 0}
             for a, ak, b, bk in pairs]
    if wakeup_rule:
        return pair_wakeups(events, infos[0])
    open_as = {}
    measured = []
    for e in events:
        for i, (a, ak, b, bk) in enumerate(pairs):
            if e["type"] == b:
                infos[i]["n_b"] += 1
                key = (i, tuple(field(e, k) for k in bk))
                start = open_as.pop(key, None)
                if start is not None:
                    infos[i]["n_pairs"] += 1
                    pid_key = next((n for n, k in enumerate(ak) if is_pid_key(k)), None)
                    measured.append({"duration_ns": e["ts"] - start["ts"], "a_ts_ns": start["ts"],
                                     "b_ts_ns": e["ts"], "cpu": start["cpu"],
                                     "pid": key[1][pid_key] if pid_key is not None else start["pid"],
                                     "key": list(key[1]), "seq": start["seq"]})
        for i, (a, ak, b, bk) in enumerate(pairs):
            if e["type"] == a:
                infos[i]["n_a"] += 1
                key = (i, tuple(field(e, k) for k in ak))
                if key in open_as:
                    infos[i]["n_unmatched"] += 1
                open_as[key] = e
    for (i, _key) in open_as:
        infos[i]["n_unmatched"] += 1
    return infos, measured


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace-cmd", default="trace-cmd")
    parser.add_argument("--preset")
    parser.add_argument("--from", dest="from_")
    parser.add_argument("--to")
    parser.add_argument("--begin", type=int)
    parser.add_argument("--end", type=int)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("file")
    args = parser.parse_args()

    formats = set(run([args.trace_cmd, "report", "-E", args.file]).split())
    try:
        pairs = resolve(args.trace_cmd, args.file, args, formats)
        types = {p[0] for p in pairs} | {p[2] for p in pairs}
        wakeup_rule = args.preset == "wakeup"
        if wakeup_rule:
            types |= {t for t in WAKEUPS if t in formats}
        infos, measured = pair_up(read_events(args.trace_cmd, args.file, sorted(types)), pairs,
                                  wakeup_rule)
    except Unfit as e:
        sys.stderr.write(f"{args.file}: {e}\n")
        return 2

    if args.begin is not None:
        measured = [p for p in measured if p["a_ts_ns"] >= args.begin]
    if args.end is not None:
        measured = [p for p in measured if p["b_ts_ns"] < args.end]
    durations = sorted(p["duration_ns"] for p in measured)
    n = len(durations)
    result = {"file": args.file, "pairs": infos, "count": n}
    for name, q in (("p50_ns", 500), ("p90_ns", 900), ("p99_ns", 990), ("p99_9_ns", 999)):
        result[name] = durations[max((n * q + 999) // 1000, 1) - 1] if n else None
    result["min_ns"] = durations[0] if n else None
    result["max_ns"] = durations[-1] if n else None
    measured.sort(key=lambda p: (-p["duration_ns"], p["a_ts_ns"], p["cpu"], p["seq"]))
    for p in measured:
        del p["seq"]
    result["worst"] = measured[:args.top]
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
