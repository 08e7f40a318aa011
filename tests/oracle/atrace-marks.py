#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Atrace slices and counters of a tracefs / systrace text, read from the text.

Usage: atrace-marks.py FILE.txt

Prints one JSON object on stdout, in the shape of `chronoscope atrace --json`:

  {"slices": [{"name", "count", "closed", "total_ns", "max_ns"}],
   "async": [...same...],
   "counters": [{"name", "tgid", "samples", "min", "max"}],
   "orphan_ends": N}

The rules, written from issue 14 (part 1) and the atrace format, not from
Chronoscope's code:

- a marker is a line "TASK-PID ( TGID) [CPU] FLAGS SECONDS.MICROS:
  tracing_mark_write: TEXT" (the TGID column is optional); TEXT's first
  character is its kind, the rest '|'-separated: B|tgid|name, E,
  C|tgid|name|value, S|tgid|name|cookie, F|tgid|name|cookie; other texts
  (trace_event_clock_sync: ...) are not markers;
- markers are taken in time order, ties in CPU order, then file order;
- B opens a slice of the line's PID (the thread); E closes that PID's
  innermost open slice, or counts as an orphan E when it has none; a
  slice still open at the end counts (count) but not as closed, and is
  left out of total_ns and max_ns (the durations of closed slices);
- S opens (tgid, name, cookie) (a second S restarts it), F closes it;
- C is one sample of the counter (tgid, name).
Python standard library only.
"""
import json
import re
import sys

LINE = re.compile(r'^\s*(?P<task>.+?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?\[(?P<cpu>\d+)\]\s+'
                  r'(?:\S+\s+)?(?P<sec>\d+)\.(?P<frac>\d+):\s+tracing_mark_write:\s?(?P<text>.*)$')


def ts_ns(sec, frac):
    return int(sec) * 1000000000 + int((frac + '000000000')[:9])


def number(text):
    try:
        return int(text.strip(), 0)
    except ValueError:
        return 0


def marks(path):
    out = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for order, line in enumerate(f):
            m = LINE.match(line.rstrip('\n'))
            if m is None or not m['text'] or m['text'][0] not in 'BECSF':
                continue
            text = m['text']
            parts = text.split('|')
            if text[0] != 'E' and (len(parts) < 3 or parts[0] != text[0]):
                continue
            out.append((ts_ns(m['sec'], m['frac']), int(m['cpu']), order, int(m['pid']), parts))
    out.sort()
    return out


def summary(durations):
    rows = []
    for name, (count, closed) in sorted(durations.items()):
        rows.append({"name": name, "count": count, "closed": len(closed),
                     "total_ns": sum(closed), "max_ns": max(closed) if closed else 0})
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    stacks, slices, opened, asyncs, counters = {}, {}, {}, {}, {}
    orphan_ends = 0

    def note(table, name, dur):
        count, closed = table.get(name, (0, []))
        if dur is not None:
            closed.append(dur)
        table[name] = (count + 1, closed)

    for ts, _cpu, _order, pid, parts in marks(sys.argv[1]):
        kind = parts[0][0]
        if kind == 'B':
            stacks.setdefault(pid, []).append((ts, parts[2]))
        elif kind == 'E':
            if stacks.get(pid):
                begin, name = stacks[pid].pop()
                note(slices, name, ts - begin)
            else:
                orphan_ends += 1
        elif kind == 'C':
            key = (parts[2], number(parts[1]))
            counters.setdefault(key, []).append(number(parts[3]) if len(parts) > 3 else 0)
        else:
            key = (number(parts[1]), parts[2], number(parts[3]) if len(parts) > 3 else 0)
            if kind == 'S':
                opened[key] = ts
            elif key in opened:
                note(asyncs, key[1], ts - opened.pop(key))
    for stack in stacks.values():
        for _begin, name in stack:
            note(slices, name, None)
    for key in opened:
        note(asyncs, key[1], None)
    print(json.dumps({
        "file": sys.argv[1],
        "slices": summary(slices),
        "async": summary(asyncs),
        "counters": [{"name": n, "tgid": t, "samples": len(v), "min": min(v), "max": max(v)}
                     for (n, t), v in sorted(counters.items())],
        "orphan_ends": orphan_ends,
    }, indent=1))


if __name__ == '__main__':
    main()
