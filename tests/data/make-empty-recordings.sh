#!/bin/bash
# make-empty-recordings.sh: remake tests/data/empty-v7.dat and
# tests/data/empty-cut-v6.dat, recordings without a single event.
#
# Usage: sudo tests/data/make-empty-recordings.sh [BUILD_DIR]   (default build)
#
# Needs root and tracefs.  `chronoscope record` (the project's own recorder
# and trace.dat writer, from BUILD_DIR) records for 0.2 s the one event
# sched_process_exec with the filter `pid == 1`, which never matches: a
# v6 file with both CPUs and no data.  It runs in a private mount
# namespace where an empty file is bind-mounted over /proc/kallsyms, so
# that the file does not carry 5 MB of symbols it has no use for.  Then:
#   empty-v7.dat      `trace-cmd convert --file-version 7 --compression zstd`
#                     of it (v7, zstd, 2 CPUs, no data);
#   empty-cut-v6.dat  the v6 file cut right after its trace clock line, so
#                     that the CPUs' data offsets point past the end of the
#                     file, as in a trace-cmd 2.9 file whose copy stopped
#                     early.
set -euo pipefail

HERE=$(cd -- "$(dirname -- "$0")" && pwd)
BUILD=${1:-$HERE/../../build}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/cs-empty.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

[ "$(id -u)" = 0 ] || { echo "make-empty-recordings: needs root (tracefs)" >&2; exit 1; }

: >"$WORK/kallsyms"
unshare -m sh -c 'mount --bind "$1/kallsyms" /proc/kallsyms &&
  "$2" record -e sched:sched_process_exec -f "pid == 1" --duration 0.2 -o "$1/empty-v6.dat"' \
  sh "$WORK" "$BUILD/gui/chronoscope"
trace-cmd convert --file-version 7 --compression zstd -i "$WORK/empty-v6.dat" -o "$HERE/empty-v7.dat"

python3 - "$WORK/empty-v6.dat" "$HERE/empty-cut-v6.dat" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
# v6 ends with "flyrecord\0", (offset, size) of 8 bytes each per CPU, then
# the trace clock text: <u64 size> text.
at = data.rindex(b'flyrecord\0') + len(b'flyrecord\0')
end = data.index(b'\n', data.index(b'[', at)) + 1
open(sys.argv[2], 'wb').write(data[:end])
print('cut at', end, 'of', len(data))
PY
ls -l "$HERE/empty-v7.dat" "$HERE/empty-cut-v6.dat"
