#!/bin/bash
# make-recording.sh: make one of the benchmark's big recordings from real
# activity on this machine, as a v7 zstd file (what `trace-cmd extract` writes
# here) and its uncompressed v6 twin.
#
# Usage: sudo tests/bench/make-recording.sh SIZE [OUTDIR]
#
#   SIZE    small   ~1 M events   (~50 MB as v6)
#           medium  ~8.8 M events (~400 MB as v6)
#           large   ~84 M events  (~4 GB as v6; 3 GiB of ring buffer per CPU)
#   OUTDIR  where the files go (default /var/tmp/chronoscope-bench); never
#           the repository.  Writes SIZE-v7.dat, SIZE-v6.dat and SIZE.meta
#           (key=value lines: events, per-CPU ring buffer stats, kernel,
#           this script's sha256...).
#           The files appear only when complete (written under temporary names
#           and renamed), so a half-made recording is never reused.
#
# Needs root, tracefs (mounted if need be, as libtracefs does: see
# tests/tracefs/tracefs-dir.sh) and trace-cmd (3.1.6).
# `trace-cmd record` cannot run on our VMs (it writes the read-only
# /proc/sys/kernel/ftrace_enabled), so, as ENVIRONMENT.md describes, this
# configures the top tracefs buffer by hand: raises buffer_size_kb, enables
# ~57 sched, irq, timer and syscall event types, runs a busy workload on both
# CPUs until the ring buffers hold SIZE's number of events, stops tracing and
# writes the buffers out with `trace-cmd extract`.  `trace-cmd convert
# --file-version 6 --compression none` makes the v6 twin.
#
# Why the top buffer and not a private instance: `trace-cmd extract -B NAME`
# stores an instance's events as a named buffer and leaves the file's main
# buffer empty, which is not what a user's recording looks like.  So the script
# refuses to run when someone else uses the top buffer (an event enabled, a
# tracer set) and restores it exactly.
#
# The recording is real, not synthetic: besides the workload (whose programs
# are named cs-bench-* so they can be told apart) it holds whatever else the
# machine did meanwhile, and every event's format and /proc/kallsyms, as
# extract copies them.  No event is filtered.
#
# Whatever way the script ends (error, ^C, TERM, HUP), the EXIT trap stops
# tracing, kills the workload, disables the events it enabled, clears the
# buffer and restores buffer_size_kb, trace_clock, options/overwrite and
# tracing_on.  Each workload also runs under timeout(1), so it dies by itself
# even if this script is killed with SIGKILL.

# The workloads are sh -c scripts in single quotes on purpose.
# shellcheck disable=SC2016
set -euo pipefail

T=              # the tracefs folder, as libtracefs finds or mounts it
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
SIZE=${1:-}
OUTDIR=${2:-/var/tmp/chronoscope-bench}

WORK=
SAVED_ON=
SAVED_KB=
SAVED_CLOCK=
SAVED_OVERWRITE=
ENABLED=()       # event directories whose enable we wrote
WORKLOAD_PIDS=() # timeout(1) processes leading each workload's process group

say() { printf 'make-recording: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

stop_workload() {
  local pid
  for pid in "${WORKLOAD_PIDS[@]}"; do
    # timeout(1) passes TERM on to its whole process group.
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${WORKLOAD_PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  WORKLOAD_PIDS=()
}

# Idempotent: called once the buffers are extracted (to give the ring buffer
# memory back before the slow conversion) and again by the EXIT trap.
restore_tracefs() {
  [ -n "$SAVED_ON" ] || return 0
  echo 0 > "$T/tracing_on"
  local d
  for d in "${ENABLED[@]}"; do
    [ -d "$d" ] && echo 0 > "$d/enable"
  done
  ENABLED=()
  : > "$T/trace"
  echo "$SAVED_CLOCK" > "$T/trace_clock"
  echo "$SAVED_OVERWRITE" > "$T/options/overwrite"
  echo "$SAVED_KB" > "$T/buffer_size_kb" || say "could not restore buffer_size_kb to $SAVED_KB"
  echo "$SAVED_ON" > "$T/tracing_on"
  SAVED_ON=
  say "tracefs restored (buffer_size_kb $(cat "$T/buffer_size_kb"), events off, buffer cleared)"
}

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM HUP
  stop_workload
  restore_tracefs
  [ -n "$WORK" ] && rm -rf -- "$WORK"
  rm -f -- "$OUTDIR/.$SIZE-v7.dat.tmp" "$OUTDIR/.$SIZE-v6.dat.tmp" "$OUTDIR/.$SIZE-v7.dat.tmp".cpu* \
           "$OUTDIR/.$SIZE-v6.dat.tmp".cpu* 2>/dev/null
  exit "$rc"
}

# ---- arguments and checks ----

# target events, ring buffer per CPU in KiB, longest workload in seconds
case $SIZE in
  small)  TARGET_EVENTS=1000000;  BUFFER_KB=$((96 * 1024));   MAX_SECONDS=120 ;;
  medium) TARGET_EVENTS=8800000;  BUFFER_KB=$((384 * 1024));  MAX_SECONDS=300 ;;
  large)  TARGET_EVENTS=84000000; BUFFER_KB=$((3072 * 1024)); MAX_SECONDS=1200 ;;
  *) die "usage: $0 small|medium|large [OUTDIR]" ;;
esac

[ "$(id -u)" = 0 ] || die "needs root (tracefs)"
# Where `chronoscope record` would record: libtracefs mounts tracefs when it
# is not mounted yet (tests/tracefs/tracefs-dir.sh says why it cannot).
T=$("$HERE/../tracefs/tracefs-dir.sh") || die "no tracefs to record with (see above)"
[ -w "$T/tracing_on" ] || die "no writable tracefs at $T"
command -v trace-cmd > /dev/null || die "trace-cmd is not installed"
command -v python3 > /dev/null || die "python3 is not installed"
case $OUTDIR in
  "$(cd -- "$(dirname -- "$0")/../.." && pwd)"*) die "keep recordings out of the repository (OUTDIR $OUTDIR)" ;;
esac

# Refuse to take over a top buffer someone else is using.
! grep -q '^[^#]' "$T/set_event" || die "events are enabled in $T (set_event); is someone tracing?"
[ "$(cat "$T/current_tracer")" = nop ] || die "current_tracer is not nop; is someone tracing?"

mkdir -p -- "$OUTDIR"
# Room for extract's per-CPU temporary files, the v7 file and the v6 twin.
need_kb=$((BUFFER_KB * 2 * 2 + 1024 * 1024))
avail_kb=$(df -Pk -- "$OUTDIR" | awk 'NR == 2 { print $4 }')
[ "$avail_kb" -ge "$need_kb" ] || die "$OUTDIR has $((avail_kb / 1024)) MiB free, needs about $((need_kb / 1024)) MiB"
mem_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ "$mem_kb" -ge $((BUFFER_KB * $(nproc) + 2 * 1024 * 1024)) ] ||
  die "not enough free memory for $((BUFFER_KB / 1024)) MiB of ring buffer per CPU"

trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

WORK=$(mktemp -d "$OUTDIR/.make-recording.XXXXXX")
SAVED_ON=$(cat "$T/tracing_on")
# "7 (expanded: 1408)" means the buffer was never expanded; 1408 is its size.
SAVED_KB=$(sed -E 's/.*expanded: ([0-9]+).*/\1/' "$T/buffer_size_kb")
SAVED_CLOCK=$(sed -E 's/.*\[([^]]+)\].*/\1/' "$T/trace_clock")
SAVED_OVERWRITE=$(cat "$T/options/overwrite")

# ---- events: 26 sched + 7 irq + 14 timer + 10 syscall types here ----

EVENTS=()
for sys in sched irq timer; do
  for d in "$T/events/$sys"/*/; do
    EVENTS+=("$sys/$(basename "$d")")
  done
done
EVENTS+=(raw_syscalls/sys_enter raw_syscalls/sys_exit
         syscalls/sys_enter_read syscalls/sys_exit_read
         syscalls/sys_enter_write syscalls/sys_exit_write
         syscalls/sys_enter_openat syscalls/sys_exit_openat
         syscalls/sys_enter_close syscalls/sys_exit_close)

# ---- workload: both CPUs busy with a mix of what traces are made of ----

# Programs get their own comm names (comm is the name that was exec'd).
BIN=$WORK/bin
mkdir -p "$BIN"
ln -s "$(command -v dash || echo /bin/sh)" "$BIN/cs-bench-spin"
ln -s "$(command -v dash || echo /bin/sh)" "$BIN/cs-bench-forker"
ln -s "$(command -v dash || echo /bin/sh)" "$BIN/cs-bench-syncer"
ln -s "$(command -v dd)" "$BIN/cs-bench-dd"
# The interpreter itself, not a wrapper script (pyenv's shims exec python3
# under its own name, and the comm would be lost).
PYTHON=$(readlink -f /usr/bin/python3 2>/dev/null || readlink -f "$(command -v python3)")
ln -s "$PYTHON" "$BIN/cs-bench-pingpong"
ln -s "$PYTHON" "$BIN/cs-bench-sleeper"

cat > "$WORK/pingpong.py" <<'PY'
# Two processes passing one byte back and forth through pipes: a wakeup and
# two context switches per hop, migrations between the CPUs.
import os
r1, w1 = os.pipe()
r2, w2 = os.pipe()
if os.fork() == 0:
    while os.read(r1, 1):
        os.write(w2, b"x")
else:
    while True:
        os.write(w1, b"x")
        os.read(r2, 1)
PY
cat > "$WORK/sleeper.py" <<'PY'
# Short sleeps: hrtimers, timer softirqs, wakeups from idle.
import time
while True:
    time.sleep(0.0002)
PY

# start_workload SECONDS NAME ARGS...: run in the background under timeout(1),
# which leads the process group and ends all of it at SECONDS or on TERM.
start_workload() {
  local seconds=$1
  shift
  timeout "$seconds" "$@" > /dev/null 2>&1 < /dev/null &
  WORKLOAD_PIDS+=("$!")
}

run_workload() {
  local s=$MAX_SECONDS
  # Wakeups and context switches: a pair on each CPU (pinned, so that both
  # ring buffers fill at about the same rate), and a free pair that the
  # scheduler moves across the CPUs.
  start_workload "$s" taskset -c 0 "$BIN/cs-bench-pingpong" "$WORK/pingpong.py"
  start_workload "$s" taskset -c "$(($(nproc) - 1))" "$BIN/cs-bench-pingpong" "$WORK/pingpong.py"
  start_workload "$s" "$BIN/cs-bench-pingpong" "$WORK/pingpong.py"
  # fork, exec, exit, wait, free, wakeup_new, migrations; openat/close/read
  # of the dynamic loader.
  start_workload "$s" "$BIN/cs-bench-forker" -c 'while :; do /bin/true; done'
  # Timers.
  start_workload "$s" "$BIN/cs-bench-sleeper" "$WORK/sleeper.py"
  # Preemption of a CPU-bound task.
  start_workload "$s" "$BIN/cs-bench-spin" -c 'while :; do :; done'
  # Block I/O completions: device irqs and softirqs.
  start_workload "$s" "$BIN/cs-bench-syncer" -c \
    'while :; do dd if=/dev/zero of="$1" bs=64k count=16 oflag=dsync status=none; sleep 0.05; done' \
    sh "$WORK/sync.out"
}

elapsed() {  # elapsed START END: seconds between two $EPOCHREALTIME values
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'
}

cpu_stat() {  # cpu_stat CPU_DIR FIELD
  awk -v f="$2:" '$1 == f { print $2; exit }' "$1/stats"
}

# ---- record ----

say "$SIZE: ${#EVENTS[@]} event types, ${BUFFER_KB} KiB of ring buffer per CPU, target $TARGET_EVENTS events"
echo 0 > "$T/tracing_on"
echo "$BUFFER_KB" > "$T/buffer_size_kb" || die "cannot set buffer_size_kb to $BUFFER_KB"
echo local > "$T/trace_clock"
echo 1 > "$T/options/overwrite"
: > "$T/trace"
n_enabled=0
for ev in "${EVENTS[@]}"; do
  if [ ! -d "$T/events/$ev" ]; then
    say "no event $ev on this kernel; going on without it"
    continue
  fi
  ENABLED+=("$T/events/$ev")
  echo 1 > "$T/events/$ev/enable"
  n_enabled=$((n_enabled + 1))
done

buffer_bytes=$((BUFFER_KB * 1024))
start_s=$EPOCHREALTIME
SECONDS=0
echo 1 > "$T/tracing_on"
run_workload
# Stop at the target, or before any CPU's buffer wraps (overwriting the
# oldest events would make a lossy recording), or at MAX_SECONDS.
reason=
while [ -z "$reason" ]; do
  sleep 0.2
  total=0
  for cpu in "$T"/per_cpu/cpu*; do
    entries=$(cpu_stat "$cpu" entries)
    bytes=$(cpu_stat "$cpu" bytes)
    total=$((total + entries))
    if [ "$bytes" -ge $((buffer_bytes * 92 / 100)) ]; then
      reason="$(basename "$cpu") buffer 92 % full"
    fi
    # trace-cmd 3.1.6's extract writes a CPU's data of 2 GiB or more into a
    # file that names only its first pages (no error): stay under it.
    if [ "$bytes" -ge $((1900 * 1024 * 1024)) ]; then
      reason="$(basename "$cpu") holds 1900 MiB (trace-cmd extract's 2 GiB limit)"
    fi
  done
  [ "$total" -ge "$TARGET_EVENTS" ] && reason="target reached"
  if [ "$SECONDS" -ge "$MAX_SECONDS" ]; then
    reason="time limit ($MAX_SECONDS s)"
  fi
done
echo 0 > "$T/tracing_on"
end_s=$EPOCHREALTIME
stop_workload
for d in "${ENABLED[@]}"; do echo 0 > "$d/enable"; done

{
  echo "size=$SIZE"
  echo "made=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  # Which version of this script made it: tests/bench/check-bench.py (the
  # 'bench' test) reuses a recording only when this matches.
  echo "script_sha256=$(sha256sum < "${BASH_SOURCE[0]}" | cut -d ' ' -f 1)"
  echo "kernel=$(uname -r)"
  echo "ncpus=$(nproc)"
  echo "event_types_enabled=$n_enabled"
  echo "buffer_size_kb=$BUFFER_KB"
  echo "target_events=$TARGET_EVENTS"
  echo "stopped_because=$reason"
  echo "seconds=$(elapsed "$start_s" "$end_s")"
} > "$WORK/meta"
lost=0
total=0
for cpu in "$T"/per_cpu/cpu*; do
  c=$(basename "$cpu")
  for f in entries overrun "commit overrun" bytes "dropped events"; do
    v=$(awk -v f="$f:" 'index($0, f) == 1 { print $NF; exit }' "$cpu/stats")
    echo "${c}_${f// /_}=$v" >> "$WORK/meta"
    case $f in overrun|"commit overrun"|"dropped events") lost=$((lost + v)) ;; entries) total=$((total + v)) ;; esac
  done
done
echo "ring_buffer_entries=$total" >> "$WORK/meta"
echo "lost_events=$lost" >> "$WORK/meta"
say "stopped after $(elapsed "$start_s" "$end_s") s: $reason; $total events in the ring buffers"
[ "$lost" = 0 ] || say "WARNING: $lost events were lost (overrun/dropped); the recording has missed events"

# ---- extract, give the ring buffer back, convert ----

V7=$OUTDIR/$SIZE-v7.dat
V6=$OUTDIR/$SIZE-v6.dat
rm -f -- "$V7" "$V6" "$OUTDIR/$SIZE.meta"
say "trace-cmd extract (v7, zstd) ..."
t0=$EPOCHREALTIME
trace-cmd extract -o "$OUTDIR/.$SIZE-v7.dat.tmp" > "$WORK/extract.log" 2>&1 ||
  { cat "$WORK/extract.log" >&2; die "trace-cmd extract failed"; }
echo "extract_seconds=$(elapsed "$t0" "$EPOCHREALTIME")" >> "$WORK/meta"
restore_tracefs

say "trace-cmd convert --file-version 6 --compression none ..."
t0=$EPOCHREALTIME
# "Cannot find description for buffer" is printed harmlessly by convert.
trace-cmd convert --file-version 6 --compression none \
  -i "$OUTDIR/.$SIZE-v7.dat.tmp" -o "$OUTDIR/.$SIZE-v6.dat.tmp" > "$WORK/convert.log" 2>&1 ||
  { cat "$WORK/convert.log" >&2; die "trace-cmd convert failed"; }
echo "convert_seconds=$(elapsed "$t0" "$EPOCHREALTIME")" >> "$WORK/meta"
echo "v7_bytes=$(stat -c %s "$OUTDIR/.$SIZE-v7.dat.tmp")" >> "$WORK/meta"
echo "v6_bytes=$(stat -c %s "$OUTDIR/.$SIZE-v6.dat.tmp")" >> "$WORK/meta"

mv -- "$OUTDIR/.$SIZE-v7.dat.tmp" "$V7"
mv -- "$OUTDIR/.$SIZE-v6.dat.tmp" "$V6"
mv -- "$WORK/meta" "$OUTDIR/$SIZE.meta"
say "wrote $V7 ($(stat -c %s "$V7") bytes) and $V6 ($(stat -c %s "$V6") bytes)"
