#!/bin/bash
# run-bench.sh: Chronoscope's benchmark against its anchors (issue 3, DESIGN.md
# "Targets"): the one command that reproduces the README's figures.
#
# Usage: sudo tests/bench/run-bench.sh [--size small|medium|large] [--runs N]
#          [--build DIR] [--outdir DIR] [--timeout SECONDS] [--[no-]report]
#          [--remake] [--plugins-only [--formats v6|v7|v6,v7]]
#
#   --size     which recording (default medium; CS_BENCH_SIZE): medium is
#              ~8.8 M events / ~400 MB as v6, large ~84 M / ~4 GB (and 6 GiB of
#              ring buffer while it is made), small ~1 M for a quick check
#   --runs     runs of each measurement; medians are reported (default 3;
#              CS_BENCH_RUNS)
#   --build    meson build folder (default: the one `ninja bench` runs in,
#              else ./build); the tools are (re)built there first
#   --outdir   recordings, index caches and results (default
#              /var/tmp/chronoscope-bench; CS_BENCH_OUTDIR), never the repository
#   --timeout  seconds before a run is given up as "not finished" (default 300;
#              libtracecmd never finishes the large v7 file)
#   --report   also time `trace-cmd report > /dev/null` (default: not for large)
#   --remake   make the recordings again even if they exist
#   --plugins-only  measure only the first open with every built-in plugin
#              and with none, and libtracecmd's iteration (no reopen, frames,
#              KernelShark or trace-cmd report); --formats v6 leaves the v7
#              file out (libtracecmd never finishes it: no ratio to show)
#
# What it does:
#  1. builds chronoscope, bench-frame, tracecmd-iterate and kshark-load;
#  2. makes the recordings with make-recording.sh (root and tracefs needed) or
#     reuses OUTDIR/SIZE-v6.dat and SIZE-v7.dat;
#  3. runs bench.py, which measures, in one run on those two files, N runs
#     each: Chronoscope's first open (index build in the worker process,
#     fresh cache), the CPU time of each of its steps (read, decode,
#     summarise, encode, write: CHRONOSCOPE_INDEX_STEPS=1, see
#     index/cs-index-steps.c), its peak RssAnon and max RSS, the index's size, reopen,
#     frame times, libtracecmd's raw iteration, KernelShark 2.2.1's loader and
#     trace-cmd report, and the first open again with every built-in plugin
#     and with none (bench_plugins.py); prints the table and the TARGETS
#     ratios and writes them to OUTDIR/results/bench-SIZE-TIME.{json,md} and
#     OUTDIR/bench-SIZE-latest.{json,md} (bench-plugins-SIZE-... for
#     --plugins-only).
#
# The machines are shared: run it when nothing else is busy, and read the
# ratios (every anchor is measured in the same run) rather than the seconds.
set -euo pipefail

HERE=$(cd -- "$(dirname -- "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
ROOT=$(cd -- "$HERE/../.." && pwd)

SIZE=${CS_BENCH_SIZE:-medium}
RUNS=${CS_BENCH_RUNS:-3}
OUTDIR=${CS_BENCH_OUTDIR:-/var/tmp/chronoscope-bench}
BUILD=${MESON_BUILD_ROOT:-$ROOT/build}
TIMEOUT=300
REPORT=()
REMAKE=no
ONLY=()

say() { printf 'run-bench: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }
usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2; exit "$1"; }

while [ $# -gt 0 ]; do
  case $1 in
    --size) SIZE=${2:?}; shift 2 ;;
    --size=*) SIZE=${1#*=}; shift ;;
    --runs) RUNS=${2:?}; shift 2 ;;
    --runs=*) RUNS=${1#*=}; shift ;;
    --build) BUILD=${2:?}; shift 2 ;;
    --build=*) BUILD=${1#*=}; shift ;;
    --outdir) OUTDIR=${2:?}; shift 2 ;;
    --outdir=*) OUTDIR=${1#*=}; shift ;;
    --timeout) TIMEOUT=${2:?}; shift 2 ;;
    --timeout=*) TIMEOUT=${1#*=}; shift ;;
    --report) REPORT=(--report); shift ;;
    --no-report) REPORT=(--no-report); shift ;;
    --remake) REMAKE=yes; shift ;;
    --plugins-only) ONLY+=(--plugins-only); shift ;;
    --formats) ONLY+=(--formats "${2:?}"); shift 2 ;;
    --formats=*) ONLY+=(--formats "${1#*=}"); shift ;;
    -h|--help) usage 0 ;;
    *) say "unknown argument $1"; usage 2 ;;
  esac
done
case $SIZE in small|medium|large) ;; *) die "--size must be small, medium or large" ;; esac
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive number"
case $(readlink -f -- "$OUTDIR")/ in "$ROOT"/*) die "keep the recordings out of the repository (--outdir)" ;; esac
command -v python3 > /dev/null || die "python3 is not installed"
command -v trace-cmd > /dev/null || die "trace-cmd is not installed"
[ -x /usr/bin/time ] || say "no /usr/bin/time (package time): max RSS comes from wait4() instead"

# ---- 1. tools ----
[ -f "$BUILD/build.ninja" ] || die "no meson build in $BUILD (meson setup $BUILD $ROOT, or --build DIR)"
if [ -z "${MESON_BUILD_ROOT:-}" ]; then
  # Under `ninja bench` they are built already (and ninja holds the lock).
  # The built-in plugins: cs-NAME.so in plugins/NAME/ (not the example).
  mapfile -t PLUGIN_TARGETS < <(grep -o '^build plugins/[^/ ]*/cs-[^/ :]*\.so:' "$BUILD/build.ninja" |
                                sed -e 's/^build //' -e 's/:$//' | sort -u)
  ninja -C "$BUILD" gui/chronoscope tests/render/bench-frame tests/bench/tracecmd-iterate \
        ${PLUGIN_TARGETS[@]+"${PLUGIN_TARGETS[@]}"} > /dev/null ||
    die "cannot build the tools in $BUILD (is subdir('bench') in tests/meson.build?)"
  ninja -C "$BUILD" tests/bench/kshark-load > /dev/null 2>&1 ||
    say "kshark-load is not built (libkshark-dev and libjson-c-dev missing?): KernelShark will not be measured"
fi
for tool in gui/chronoscope tests/render/bench-frame tests/bench/tracecmd-iterate; do
  [ -x "$BUILD/$tool" ] || die "$BUILD/$tool is missing"
done

# ---- 2. recordings ----
mkdir -p -- "$OUTDIR"
if [ "$REMAKE" = yes ] || [ ! -f "$OUTDIR/$SIZE-v6.dat" ] || [ ! -f "$OUTDIR/$SIZE-v7.dat" ]; then
  say "making the $SIZE recording in $OUTDIR"
  if [ "$(id -u)" = 0 ]; then
    "$HERE/make-recording.sh" "$SIZE" "$OUTDIR"
  elif command -v sudo > /dev/null; then
    sudo "$HERE/make-recording.sh" "$SIZE" "$OUTDIR"
  else
    die "making a recording needs root (tracefs)"
  fi
else
  say "reusing $OUTDIR/$SIZE-v6.dat and $SIZE-v7.dat (--remake to make them again)"
fi

# ---- 3. measure ----
exec python3 "$HERE/bench.py" --build "$BUILD" --source "$ROOT" --outdir "$OUTDIR" \
  --size "$SIZE" --runs "$RUNS" --timeout "$TIMEOUT" ${REPORT[@]+"${REPORT[@]}"} \
  ${ONLY[@]+"${ONLY[@]}"}
