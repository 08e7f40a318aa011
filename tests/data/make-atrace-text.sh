#!/bin/bash
# make-atrace-text.sh: remake tests/data/atrace-tgid.txt, an Android-style
# systrace text (atrace markers in a tracefs `trace` text with a TGID
# column) recorded on this machine.
#
# Usage: sudo tests/data/make-atrace-text.sh   (about 2 s)
#
# Needs root and tracefs at /sys/kernel/tracing.  Everything happens in a
# private instance (instances/cs-atrace-$$), removed at the end whatever
# way the script ends: record-tgid on, sched_switch, sched_waking and
# sched_wakeup enabled, then three processes with their own names
# (symlinks cs-app, cs-ui, cs-loader -> dash) write atrace markers into the
# instance's trace_marker as Android's libcutils does: B|tgid|name opens a
# slice of the writing thread, E closes its innermost one, C|tgid|name|value
# is a counter sample, S|tgid|name|cookie and F|tgid|name|cookie an async
# slice.  cs-app nests slices and ends with an E too many (an orphan E),
# cs-ui leaves one slice open, cs-loader runs two async slices that
# overlap; a trace_event_clock_sync line is there as atrace writes it.
# The pid of cs-app is written in tests/plugins/test-plugins-gui.c (the
# task whose plot it opens): update it there after remaking the file.
# The instance's non-consuming `trace` text is the file.
set -euo pipefail

T=/sys/kernel/tracing
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
OUT=$HERE/atrace-tgid.txt
I=$T/instances/cs-atrace-$$
WORK=

die() { echo "make-atrace-text: $*" >&2; exit 1; }

cleanup() {
  set +e
  if [ -d "$I" ]; then
    echo 0 >"$I/tracing_on"
    for e in sched_switch sched_waking sched_wakeup; do echo 0 >"$I/events/sched/$e/enable"; done
    rmdir "$I"
  fi
  [ -n "$WORK" ] && rm -rf "$WORK"
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || die "needs root (tracefs)"
[ -d "$T/instances" ] || die "no tracefs at $T"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cs-atrace.XXXXXX")
for name in cs-app cs-ui cs-loader; do ln -s "$(command -v dash)" "$WORK/$name"; done

mkdir "$I"
echo 0 >"$I/tracing_on"
echo 1024 >"$I/buffer_size_kb"
echo 1 >"$I/options/record-tgid"
for e in sched_switch sched_waking sched_wakeup; do echo 1 >"$I/events/sched/$e/enable"; done
echo 1 >"$I/tracing_on"

M=$I/trace_marker
# What each process's script can use, as libcutils' ATRACE_* macros write
# them: mark TEXT writes TEXT; slice NAME SECONDS is a B, a sleep and its E;
# count NAME VALUE is a C.
# shellcheck disable=SC2016
ATRACE='m=$1
mark() { echo "$1" >"$m"; }
slice() { mark "B|$$|$1"; sleep "$2"; mark "E|$$"; }
count() { mark "C|$$|$1|$2"; }
'
# Runs the script $2 with the helpers above, as a process named $1.
run() { "$WORK/$1" -c "$ATRACE$2" "$1" "$M" & }

# shellcheck disable=SC2016
run cs-app '
  mark "trace_event_clock_sync: parent_ts=0.000000"
  for f in 1 2 3 4 5 6; do
    mark "B|$$|Choreographer#doFrame $f"
    slice traversal 0.01; count frames "$f"; slice draw 0.005
    mark "E|$$"
    sleep 0.02
  done
  mark "E|$$"'
# shellcheck disable=SC2016
run cs-ui '
  for i in 1 2 3 4; do slice inflate 0.015; count queue $((i * 3)); sleep 0.01; done
  mark "B|$$|still open"'
# shellcheck disable=SC2016
run cs-loader '
  mark "S|$$|load images|1"; sleep 0.03
  mark "S|$$|load fonts|2"; sleep 0.05
  mark "F|$$|load images|1"; sleep 0.02
  mark "F|$$|load fonts|2"
  count bytes 65536'
wait
echo 0 >"$I/tracing_on"

grep -q 'tracing_mark_write: B|' "$I/trace" || die "no marker in $I/trace"
cp "$I/trace" "$OUT"
echo "make-atrace-text: $(grep -c 'tracing_mark_write' "$OUT") markers, $(wc -l <"$OUT") lines in $OUT"
