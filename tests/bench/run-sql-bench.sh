#!/bin/bash
# run-sql-bench.sh: issues 13 and 26's benchmark, SQL over a recording against
# the seed's `trace-cmd report | awk`, both in one run on the same recording.
#
# Usage: tests/bench/run-sql-bench.sh [--build DIR] [--runs N] [FILE.dat]
#
#   FILE     default: the large benchmark recording
#            (/var/tmp/chronoscope-bench/large-v6.dat, made by run-bench.sh
#            --size large), else the medium one
#   --runs   runs of each SQL query, medians reported (default 3); the
#            report | awk pass runs once (it takes minutes)
#
# Prints the figures and the ratios against the targets of issue 13: the
# two questions (sched_switch with prev_state = 2; CPU time GROUP BY comm)
# >= 20x faster than trace-cmd report | awk, and a 1 ms-range query
# <= 50 ms; and of issue 26: events GROUP BY comm <= 0.3x and the
# prev_state = 2 count <= 0.1x the first open, and a count by type over a span
# of one CPU and 1 ms time buckets of every event (against the same asked row
# by row, which must agree; the buckets against awk too); the index
# is built afresh, in the same process, to time the first open.  The answers of both ways
# must agree (exit 1 when they do not).  The index cache goes to a fresh
# directory under $OUTDIR (default /var/tmp/chronoscope-bench), removed at
# the end.
# It prints figures; it is not a timed test.
set -euo pipefail

HERE=$(cd -- "$(dirname -- "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
ROOT=$(cd -- "$HERE/../.." && pwd)
BUILD=$ROOT/build
RUNS=3
OUTDIR=${CS_BENCH_OUTDIR:-/var/tmp/chronoscope-bench}
FILE=

while [ $# -gt 0 ]; do
  case $1 in
    --build) BUILD=${2:?}; shift 2 ;;
    --runs) RUNS=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) FILE=$1; shift ;;
  esac
done
if [ -z "$FILE" ]; then
  for f in "$OUTDIR/large-v6.dat" "$OUTDIR/medium-v6.dat"; do
    [ -f "$f" ] && { FILE=$f; break; }
  done
fi
[ -n "$FILE" ] && [ -f "$FILE" ] || { echo "run-sql-bench: no recording (see --help)" >&2; exit 2; }

ninja -C "$BUILD" tests/bench/bench-sql >/dev/null
WORK=$(mktemp -d)
mkdir -p "$OUTDIR"
export XDG_CACHE_HOME=$(mktemp -d "$OUTDIR/sql-cache.XXXXXX")
trap 'rm -rf "$WORK" "$XDG_CACHE_HOME"' EXIT

echo "recording: $FILE ($(du -h "$FILE" | cut -f1)); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# The index is built by bench-sql's open: its "open" is the first open.
CS_BENCH_OUT=$WORK/sql /usr/bin/time -f "%M" -o "$WORK/sql.rss" \
  "$BUILD/tests/bench/bench-sql" "$FILE" "$RUNS" > "$WORK/sql.txt"
start=$(date +%s.%N)
"$HERE/report-awk.sh" "$FILE" "$WORK/awk.comm-cpu.tsv" "$WORK/awk.comm-events.tsv" \
  "$WORK/awk.buckets-1ms.tsv" > "$WORK/awk.txt"
end=$(date +%s.%N)
awk_s=$(echo "$end - $start" | bc -l)

python3 - "$WORK" "$awk_s" <<'PY'
import sys
work, awk_s = sys.argv[1], float(sys.argv[2])
sql = {l.split()[0]: l.split()[1:] for l in open(work + "/sql.txt") if l.strip()}
cpu = {l.split()[1]: float(l.split()[2]) for l in open(work + "/sql.txt") if l.startswith("cpu ")}
awk = {l.split()[0]: l.split()[1:] for l in open(work + "/awk.txt") if l.strip()}
def tsv(p):
    return {line.rsplit("\t", 1)[0]: int(line.rsplit("\t", 1)[1]) for line in open(p) if line.strip()}
sql_comm, awk_comm = tsv(work + "/sql.comm-cpu.tsv"), tsv(work + "/awk.comm-cpu.tsv")
sql_ev, awk_ev = tsv(work + "/sql.comm-events.tsv"), tsv(work + "/awk.comm-events.tsv")
d_ok = sql["d_switches"][1] == awk["d_switches"][0]
diff = sorted(c for c in set(sql_comm) | set(awk_comm) if sql_comm.get(c) != awk_comm.get(c))
diff_ev = sorted(c for c in set(sql_ev) | set(awk_ev) if sql_ev.get(c) != awk_ev.get(c))
span_fast, span_rowwise = tsv(work + "/sql.span-names.tsv"), tsv(work + "/sql.span-names-rowwise.tsv")
span_ok = span_fast == span_rowwise and len(span_fast) > 0
rss_kb = int(open(work + "/sql.rss").read().split()[-1])
first_open, first_open_cpu = float(sql["open"][0]), float(sql["open"][1])
print("trace-cmd report -R -t | awk, all answers in one pass: %.1f s" % awk_s)
print("first open (index built, document + SQL session): %.2f s wall, %.2f s CPU; bench-sql peak RSS %d MiB"
      % (first_open, first_open_cpu, rss_kb // 1024))
print()
print("| question (issue 26) | SQL wall (median) | ÷ first open wall | SQL CPU | ÷ first open CPU | target | report + awk | answers |")
print("|---|---|---|---|---|---|---|---|")
for key, text, target, answers in (
        ("comm_events", "SELECT comm, count(*) FROM events GROUP BY comm", "<= 0.3x",
         "%s (%s comms)" % ("agree" if not diff_ev else "%d DIFFER" % len(diff_ev), sql["comm_events"][1])),
        ("d_switches", "SELECT count(*) FROM sched_sched_switch WHERE prev_state = 2", "<= 0.1x",
         "%s (%s)" % ("agree" if d_ok else "DIFFER", sql["d_switches"][1]))):
    t, c = float(sql[key][0]), cpu[key]
    print("| %s | %.3f s | %.3fx | %.3f s | %.3fx | %s | %.1f s | %s |"
          % (text, t, t / first_open, c, c / first_open_cpu, target, awk_s, answers))
t, c = float(sql["span_names"][0]), cpu["span_names"]
print("| SELECT name, count(*) FROM events WHERE cpu = LAST AND ts over the middle 60 %% GROUP BY name"
      " | %.3f s | %.3fx | %.3f s | %.3fx | <= 0.3x | row by row %.1f s (%.0fx) | %s (%s names) |"
      % (t, t / first_open, c, c / first_open_cpu, float(sql["span_names_rowwise"][0]),
         float(sql["span_names_rowwise"][0]) / max(t, 1e-3), "agree" if span_ok else "DIFFER",
         sql["span_names"][1]))
t, c = float(sql["buckets_1ms"][0]), cpu["buckets_1ms"]
buckets_fast = tsv(work + "/sql.buckets-1ms.tsv")
buckets_ok = (buckets_fast == tsv(work + "/sql.buckets-1ms-rowwise.tsv")
              == tsv(work + "/awk.buckets-1ms.tsv") and len(buckets_fast) > 0)
print("| SELECT ts / 1000000 AS ms, count(*) FROM events GROUP BY ms"
      " | %.3f s | %.3fx | %.3f s | %.3fx | <= 0.3x | row by row %.1f s (%.0fx); report + awk %.1f s |"
      " %s (%s buckets; row by row and awk) |"
      % (t, t / first_open, c, c / first_open_cpu, float(sql["buckets_1ms_rowwise"][0]),
         float(sql["buckets_1ms_rowwise"][0]) / max(t, 1e-3), awk_s, "agree" if buckets_ok else "DIFFER",
         sql["buckets_1ms"][1]))
print()
print("| question (issue 13) | SQL (median) | report + awk | ratio | target | answers |")
print("|---|---|---|---|---|---|")
t = float(sql["d_switches"][0])
# answered from the index's counts, a query can take less than the clock's
# resolution: the ratio is then a lower bound on 1 ms
print("| count(*) sched_switch WHERE prev_state = 2 | %.3f s | %.1f s | %.0fx | >= 20x | %s (%s) |"
      % (t, awk_s, awk_s / max(t, 1e-3), "agree" if d_ok else "DIFFER", sql["d_switches"][1]))
t = float(sql["comm_cpu"][0])
print("| CPU time GROUP BY comm, sched_slices | %.2f s | %.1f s | %.1fx | >= 20x | %s (%d comms) |"
      % (t, awk_s, awk_s / max(t, 1e-3), "agree" if not diff else "%d DIFFER" % len(diff), len(sql_comm)))
t = float(sql["comm_cpu_tasks"][0])
print("| CPU time GROUP BY comm, tasks table | %.3f s | %.1f s | %.0fx | >= 20x | %s comms |"
      % (t, awk_s, awk_s / max(t, 1e-6), sql["comm_cpu_tasks"][1]))
t = float(sql["range_1ms"][0])
print("| 1 ms range: count, min, max of events | %.1f ms | | | <= 50 ms | %s events |"
      % (t * 1000, sql["range_1ms"][1]))
t = float(sql["range_1ms_fields"][0])
print("| 1 ms range: every sched_switch field | %.1f ms | | | <= 50 ms | %s rows |"
      % (t * 1000, sql["range_1ms_fields"][1]))
print("| stats, whole recording | %s s | | | <= 0.5 s | |" % sql["stats_whole"][0])
print("| stats, 1 ms range | %.1f ms | | | | |" % (float(sql["stats_1ms"][0]) * 1000))
for c in diff[:10]:
    print("  differs: %r SQL %s awk %s" % (c, sql_comm.get(c), awk_comm.get(c)))
for c in diff_ev[:10]:
    print("  events differ: %r SQL %s awk %s" % (c, sql_ev.get(c), awk_ev.get(c)))
sys.exit(0 if d_ok and span_ok and buckets_ok and not diff and not diff_ev else 1)
PY
