#!/bin/bash
# report-awk.sh: the seed's way of answering issue 13's benchmark questions,
# `trace-cmd report | awk`, in one pass over the report.
#
# Usage: report-awk.sh FILE.dat COMM_OUT.tsv [COMM_EVENTS_OUT.tsv [BUCKETS_OUT.tsv]]
#
# Prints "d_switches N" (sched_switch with prev_state = 2, TASK_UNINTERRUPTIBLE)
# and writes "comm<TAB>count" lines to COMM_EVENTS_OUT.tsv (events per command
# name: SELECT comm, count(*) FROM events GROUP BY comm, where pid 0 is
# "<idle>" and a pid sched_switch never named has the name report prints in
# its header, from the recording's saved cmdlines)
# and "comm<TAB>ns" lines to COMM_OUT.tsv: CPU time per command name,
# with the rules of tests/oracle/report-stats.py (a run ends at sched_switch and
# began at the CPU's previous one or its first event; the last one runs to the
# CPU's last event; idle is not counted); a pid's command name is the last one
# sched_switch gave it (prev_comm / next_comm), as in Chronoscope's tasks table;
# and "ms<TAB>count" lines to BUCKETS_OUT.tsv, the events per 1 ms time bucket
# (SELECT ts / 1000000 AS ms, count(*) FROM events GROUP BY ms).
# -R prints raw field values (prev_state as a number), -t nanoseconds.
set -euo pipefail
FILE=${1:?usage: report-awk.sh FILE.dat COMM_OUT.tsv}
OUT=${2:?usage: report-awk.sh FILE.dat COMM_OUT.tsv}
EVENTS_OUT=${3:-/dev/null}
BUCKETS_OUT=${4:-/dev/null}

LC_ALL=C trace-cmd report -R -t "$FILE" 2>/dev/null | LC_ALL=C awk -v out="$OUT" -v events_out="$EVENTS_OUT" -v buckets_out="$BUCKETS_OUT" '
function field(name,    i, v) {
  i = index(rest, " " name "=")
  if (i == 0) return ""
  v = substr(rest, i + length(name) + 2)
  sub(/ .*/, "", v)
  return v
}
# A command name may hold spaces ("dconf worker"): it runs to the next field.
function comm_field(name, next_name,    i, j, v) {
  i = index(rest, " " name "=")
  if (i == 0) return ""
  v = substr(rest, i + length(name) + 2)
  j = index(v, " " next_name "=")
  return j > 0 ? substr(v, 1, j - 1) : v
}
{
  if (!match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+: [^ :]+:/)) next
  hdr = substr($0, RSTART, RLENGTH)
  rest = substr($0, RSTART + RLENGTH)
  # "COMM-PID " before the CPU: the pid, and the name report gives it.
  who = substr($0, 1, RSTART - 1)
  sub(/ +$/, "", who)
  if (match(who, /-[0-9]+$/)) {
    pid = substr(who, RSTART + 1) + 0
    n_events[pid]++
    hdr_comm[pid] = substr(who, 1, RSTART - 1)
    sub(/^ +/, "", hdr_comm[pid]); sub(/^.*: /, "", hdr_comm[pid])
  }
  split(hdr, h, /[][ :]+/)
  cpu = h[2]; name = h[4]
  split(h[3], t, ".")
  ts = t[1] * 1000000000 + t[2]
  if (!(cpu in first)) first[cpu] = ts
  last[cpu] = ts
  n_ms[int(ts / 1000000)]++
  if (name != "sched_switch") next
  prev_pid = field("prev_pid"); next_pid = field("next_pid")
  if (field("prev_state") == 2) d++
  begin = (cpu in since) ? since[cpu] : first[cpu]
  if (prev_pid != 0) run[prev_pid] += ts - begin
  since[cpu] = ts; running[cpu] = next_pid
  comm[prev_pid] = comm_field("prev_comm", "prev_pid"); comm[next_pid] = comm_field("next_comm", "next_pid")
}
END {
  for (cpu in running)
    if (running[cpu] != 0) run[running[cpu]] += last[cpu] - since[cpu]
  for (pid in run)
    if (run[pid] > 0) bycomm[comm[pid]] += run[pid]
  for (c in bycomm) printf "%s\t%.0f\n", c, bycomm[c] > out
  for (pid in n_events) {
    c = pid == 0 ? "<idle>" : (pid in comm && comm[pid] != "") ? comm[pid] : hdr_comm[pid]
    events_bycomm[c] += n_events[pid]
  }
  for (c in events_bycomm) printf "%s\t%d\n", c, events_bycomm[c] > events_out
  for (ms in n_ms) printf "%d\t%d\n", ms, n_ms[ms] > buckets_out
  printf "d_switches %d\n", d
}'
