#!/bin/bash
# make-recordings.sh: remake Chronoscope's test recordings (tests/data/*.dat)
# and the bundled demo recording (data/sample/sample.dat) from real kernel
# activity on this machine.  See tests/data/README.md for what each file is.
#
# Usage: sudo tests/data/make-recordings.sh [tests|sample|block|prio|all]   (default all)
#        (block: only block-v7.dat, prio: only sched-prio-migrate-v7.dat, which
#        `tests` and `all` make too)
#
# Needs root, tracefs (mounted if need be, as libtracefs does: see
# tests/tracefs/tracefs-dir.sh), trace-cmd (3.1.6), unshare and
# mount (util-linux).  `trace-cmd record` cannot run on our VMs, so each
# recording configures tracefs by hand, runs a short known workload, stops
# tracing and writes the ring buffers out with `trace-cmd extract`.
#
# Which buffer: trace-cmd extract -B NAME stores a private instance's data as a
# *named* buffer and leaves the file's main buffer empty, which is not what a
# user's `trace-cmd record` file looks like.  So the main recordings use the top
# tracefs buffer, after checking nobody else uses it (no event enabled, nop
# tracer), and restore it exactly; instance-only-v7.dat is the one recording
# made in a private instance (instances/cs-testdata-$$) with -B, on purpose.
#
# Event formats and kallsyms: extract copies the format of every event the
# kernel has (2 MB here) and /proc/kallsyms (5.4 MB) into every file, while
# `trace-cmd record -e ...` stores only the recorded events' formats (plus the
# ftrace ones).  So extract runs in a private mount namespace where a copy of
# events/ holding only the enabled events (and ftrace/, header_page,
# header_event) is bind-mounted over $T/events: the file then carries what
# record would have written.  For tests/data, /proc/kallsyms is bind-mounted
# over too, by the subset of symbols the recorded events print (the %ps
# timer/hrtimer callbacks, found in the buffer's non-consuming `trace` text),
# so the uncompressed v6 twins stay small.  data/sample/sample.dat keeps the
# full kallsyms, as users' files do.
#
# Whatever way the script ends (error, ^C, TERM), the EXIT trap stops tracing,
# disables the events and filters it set, restores buffer_size_kb, trace_clock
# and tracing_on, clears the buffer and removes the private instance.

# The workloads are sh -c scripts in single quotes on purpose.
# shellcheck disable=SC2016
set -euo pipefail

T=              # the tracefs folder, as libtracefs finds or mounts it
HERE=$(cd -- "$(dirname -- "$0")" && pwd)
ROOT=$(cd -- "$HERE/../.." && pwd)
OUT_TESTS=$HERE
OUT_SAMPLE=$ROOT/data/sample
WHAT=${1:-all}
INST=cs-testdata-$$

WORK=
UPROBE=         # "group/event" of the uprobe we created, if any
SAVED_ON=
SAVED_KB=
SAVED_CLOCK=
ENABLED=()      # event directories whose enable/filter we wrote

die() { echo "make-recordings: $*" >&2; exit 1; }

cleanup() {
  local rc=$?
  set +e
  trap - EXIT INT TERM HUP
  # Our own background workload, if we were interrupted during it.
  local pids=()
  mapfile -t pids < <(jobs -p)
  if [ "${#pids[@]}" -gt 0 ]; then kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; fi
  [ -n "$SAVED_ON" ] && echo 0 > "$T/tracing_on"
  local d
  for d in "${ENABLED[@]}"; do
    [ -d "$d" ] || continue
    echo 0 > "$d/enable"
    echo 0 > "$d/filter"
  done
  if [ -n "$UPROBE" ]; then
    echo 0 > "$T/events/$UPROBE/enable"
    echo "-:$UPROBE" >> "$T/uprobe_events" ||
      echo "make-recordings: could not remove uprobe $UPROBE" >&2
  fi
  if [ -d "$T/instances/$INST" ]; then
    echo 0 > "$T/instances/$INST/tracing_on"
    echo 0 > "$T/instances/$INST/events/enable"
    rmdir "$T/instances/$INST" || echo "make-recordings: could not remove instance $INST" >&2
  fi
  if [ -n "$SAVED_ON" ]; then
    : > "$T/trace"
    echo "$SAVED_CLOCK" > "$T/trace_clock"
    echo "$SAVED_KB" > "$T/buffer_size_kb"
    echo "$SAVED_ON" > "$T/tracing_on"
  fi
  [ -n "$WORK" ] && rm -rf -- "$WORK"
  exit "$rc"
}

[ "$(id -u)" = 0 ] || die "needs root (tracefs)"
# Where `chronoscope record` would record: libtracefs mounts tracefs when it
# is not mounted yet (tests/tracefs/tracefs-dir.sh says why it cannot).
T=$("$HERE/../tracefs/tracefs-dir.sh") || die "no tracefs to record with (see above)"
[ -w "$T/tracing_on" ] || die "no writable tracefs at $T"
command -v trace-cmd > /dev/null || die "trace-cmd is not installed"
case $WHAT in tests|sample|block|prio|all) ;; *) die "usage: $0 [tests|sample|block|prio|all]" ;; esac

# Refuse to take over a top buffer someone else is using.
! grep -q '^[^#]' "$T/set_event" || die "events are enabled in $T (set_event); is someone tracing?"
[ "$(cat "$T/current_tracer")" = nop ] || die "current_tracer is not nop; is someone tracing?"

trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

WORK=$(mktemp -d /tmp/cs-testdata.XXXXXX)
SAVED_ON=$(cat "$T/tracing_on")
# "7 (expanded: 1408)" means the buffer was never expanded; 1408 is its size.
SAVED_KB=$(sed -E 's/.*expanded: ([0-9]+).*/\1/' "$T/buffer_size_kb")
SAVED_CLOCK=$(sed -E 's/.*\[([^]]+)\].*/\1/' "$T/trace_clock")

# Workload programs get their own comm names (comm comes from the name that
# was exec'd), so syscall filters and readers can pick them out.
BIN=$WORK/bin
mkdir -p "$BIN"
ln -s /bin/dash "$BIN/cs-spin"
ln -s /bin/dash "$BIN/cs-sleeper"
ln -s /bin/dash "$BIN/cs-ticker"
ln -s /bin/dash "$BIN/cs-reader"
ln -s /usr/bin/dd "$BIN/cs-writer"
ln -s /usr/bin/yes "$BIN/cs-yes"
ln -s /bin/gzip "$BIN/cs-gzip"

# Syscall events are limited to the workload, whatever else the machine runs.
SYSCALL_FILTER='comm ~ "cs-*"'

SCHED_EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup
  sched/sched_wakeup_new sched/sched_migrate_task sched/sched_process_fork
  sched/sched_process_exec sched/sched_process_exit sched/sched_process_free"
IRQ_EVENTS="irq/irq_handler_entry irq/irq_handler_exit irq/softirq_raise
  irq/softirq_entry irq/softirq_exit"
TIMER_EVENTS="timer/timer_start timer/timer_expire_entry timer/timer_expire_exit
  timer/timer_cancel timer/hrtimer_start timer/hrtimer_expire_entry
  timer/hrtimer_expire_exit timer/hrtimer_cancel"
WRITE_EVENTS="syscalls/sys_enter_write syscalls/sys_exit_write"
RAW_SYSCALL_EVENTS="raw_syscalls/sys_enter raw_syscalls/sys_exit"

marker() { echo "$2" > "$1/trace_marker"; }

# ---- workloads: each takes the tracefs directory (for trace_marker) ----

# About 0.5 s: on CPU 1, tasks of three priorities compete (a SCHED_FIFO 10
# loop that runs about a millisecond then sleeps 3 ms, a nice -10 `yes` and
# a nice 0 busy shell); a pipe chain (ticker -> reader -> reader) whose
# wakeups lead one to another; and a sleeper whose CPU affinity flips every
# 10 ms, so that its wakeups migrate it (sched_migrate_task between waking
# and running).  For the latency explanation (issue 24).
workload_prio() {
  local d=$1 s i
  marker "$d" "chronoscope-test: prio start"
  taskset -c 1 nice -n 0 timeout 0.5 "$BIN/cs-spin" -c 'while :; do :; done' &
  taskset -c 1 nice -n -10 timeout 0.5 "$BIN/cs-yes" > /dev/null &
  taskset -c 1 chrt -f 10 timeout 0.5 "$BIN/cs-ticker" -c \
    'while :; do i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; sleep 0.003; done' &
  timeout 0.5 "$BIN/cs-ticker" -c 'while :; do sleep 0.01; echo t; done' |
    "$BIN/cs-reader" -c 'while read -r l; do echo "$l"; done' |
    "$BIN/cs-reader" -c 'while read -r l; do :; done' &
  "$BIN/cs-sleeper" -c 'i=0; while [ $i -lt 150 ]; do sleep 0.002; i=$((i+1)); done' &
  s=$!
  for i in $(seq 1 40); do
    taskset -p -c $((i % 2)) "$s" > /dev/null 2>&1 || break
    sleep 0.01
  done
  wait
  marker "$d" "chronoscope-test: prio end"
}

# About 0.4 s: two CPU-bound shells (preemption on both CPUs), a shell that
# forks ten `sleep 0.02` (fork/exec/exit, wakeups, hrtimers, writes) and dd
# writing 128 KiB to disk with fsync (block irqs, writes).
workload_small() {
  local d=$1
  marker "$d" "chronoscope-test: begin"
  timeout 0.4 "$BIN/cs-spin" -c 'while :; do :; done' &
  timeout 0.4 "$BIN/cs-spin" -c 'while :; do :; done' &
  "$BIN/cs-sleeper" -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.02; echo tick $i; done' > /dev/null &
  "$BIN/cs-writer" if=/dev/zero of="$WORK/dd.out" bs=4k count=32 conv=fsync status=none &
  wait
  marker "$d" "chronoscope-test: end"
}

# About 0.25 s, for the recording without scheduler events.
workload_tiny() {
  local d=$1
  marker "$d" "chronoscope-test: begin"
  timeout 0.2 "$BIN/cs-spin" -c 'while :; do :; done' &
  "$BIN/cs-sleeper" -c 'for i in 1 2 3 4 5; do sleep 0.02; echo tick $i; done' > /dev/null &
  "$BIN/cs-writer" if=/dev/zero of="$WORK/dd.out" bs=4k count=16 conv=fsync status=none &
  wait
  marker "$d" "chronoscope-test: end"
}

# About 2.5 s in phases, each announced by a trace_marker: two spinners for
# 2 s plus gzip compressing 16 MB of urandom fed through a pipe (three busy
# tasks on two CPUs), then a disk writer with O_DSYNC, a periodic sleeper and
# a yes | read pipe (many wakeups).
workload_sample() {
  local d=$1
  marker "$d" "sample: phase 1: two spinners and gzip on two CPUs"
  timeout 2 "$BIN/cs-spin" -c 'while :; do :; done' &
  timeout 2 "$BIN/cs-spin" -c 'while :; do :; done' &
  head -c 16M /dev/urandom | "$BIN/cs-gzip" -1 > /dev/null &
  sleep 0.5
  marker "$d" "sample: phase 2: disk writer with O_DSYNC"
  "$BIN/cs-writer" if=/dev/zero of="$WORK/sample.out" bs=64k count=48 oflag=dsync status=none &
  sleep 0.3
  marker "$d" "sample: phase 3: periodic sleeper and a pipe"
  "$BIN/cs-ticker" -c 'i=0; while [ $i -lt 50 ]; do sleep 0.01; echo $i; i=$((i+1)); done' > /dev/null &
  timeout 1 "$BIN/cs-yes" | "$BIN/cs-reader" -c 'while read -r l; do :; done' &
  wait
  marker "$d" "sample: end"
}

# About 0.5 s of disk I/O that bypasses the page cache, for the block
# layer's events: dd writes 64 blocks of 4 KiB with O_DIRECT|O_DSYNC to a
# file on disk (not /tmp, which may be a tmpfs), then reads them back.
workload_block() {
  local d=$1 file
  file=$(mktemp /var/tmp/cs-testdata-block.XXXXXX)
  marker "$d" "chronoscope-test: block writes"
  "$BIN/cs-writer" if=/dev/zero of="$file" bs=4k count=64 oflag=direct,dsync status=none
  marker "$d" "chronoscope-test: block reads"
  "$BIN/cs-writer" if="$file" of=/dev/null bs=4k iflag=direct status=none
  marker "$d" "chronoscope-test: end"
  rm -f -- "$file"
}

# About 0.2 s, for the duplicate-name recording: five `sleep` runs (each
# hits the uprobes:print uprobe once) between trace_marker prints.
workload_dup() {
  local d=$1 i
  for i in 1 2 3 4 5; do
    marker "$d" "chronoscope-test: sleep $i"
    sleep 0.02
  done
}

# Create uprobe event $1 ("group/name") at the ELF entry point of $2.
add_uprobe() {
  local offset
  offset=$(python3 - "$2" <<'PY'
import struct, sys
f = open(sys.argv[1], "rb").read()
assert f[:4] == b"\x7fELF" and f[4] == 2 and f[5] == 1, "need a 64-bit little-endian ELF"
entry, phoff = struct.unpack_from("<QQ", f, 0x18)
phentsize, phnum = struct.unpack_from("<HH", f, 0x36)
for i in range(phnum):
    p_type, _, off, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", f, phoff + i * phentsize)
    if p_type == 1 and vaddr <= entry < vaddr + filesz:
        print(hex(entry - vaddr + off))
        break
PY
)
  [ -n "$offset" ] || die "cannot find the entry point of $2"
  [ ! -d "$T/events/$1" ] || die "event $1 already exists"
  echo "p:$1 $2:$offset" >> "$T/uprobe_events"
  UPROBE=$1
}

# ---- recording ----

# Keep the kallsyms lines whose symbol name appears as a word in the text
# output of the recording (plus _text/_stext), and for each of them the next
# symbol up, which bounds its size: libtraceevent resolves an address inside
# a function (the ip of ftrace:print) only when the following symbol is known.
trim_kallsyms() {
  grep -oE '[A-Za-z_][A-Za-z0-9_.]*' "$1" | sort -u > "$WORK/words"
  python3 - "$WORK/words" /proc/kallsyms > "$2" <<'PY'
import sys
words = set(open(sys.argv[1]).read().split()) | {"_text", "_stext"}
lines = open(sys.argv[2]).read().splitlines()
addr = [int(line.split()[0], 16) for line in lines]
order = sorted(range(len(lines)), key=lambda i: addr[i])
keep = set()
for pos, i in enumerate(order):
    if lines[i].split()[2] in words:
        keep.add(i)
        for j in order[pos + 1:]:
            if addr[j] > addr[i]:
                keep.add(j)
                break
sys.stdout.write("".join(lines[i] + "\n" for i in sorted(keep)))
PY
}

# Copy events/header_*, events/ftrace and the given events' formats to $2.
make_events_dir() {
  local from=$1 to=$2 ev
  shift 2
  rm -rf -- "$to"
  mkdir -p "$to"
  cp "$from/header_page" "$from/header_event" "$to/"
  for ev in $(cd "$from" && echo ftrace/*) "$@"; do
    [ -f "$from/$ev/format" ] || continue
    mkdir -p "$to/$ev"
    cp "$from/$ev/format" "$to/$ev/format"
  done
}

# record MODE(top|instance) KALLSYMS(trim|full) BUFFER_KB WORKLOAD OUT EVENT...
# BUFFER_KB "lossy" means 16 KiB per CPU, expected to overflow.
record() {
  local mode=$1 kallsyms=$2 kb=$3 workload=$4 out=$5
  shift 5
  local d=$T ev cpu lossy=no
  if [ "$kb" = lossy ]; then lossy=yes; kb=16; fi
  if [ "$mode" = instance ]; then
    mkdir "$T/instances/$INST"
    d=$T/instances/$INST
  fi
  echo 0 > "$d/tracing_on"
  echo "$kb" > "$d/buffer_size_kb"
  echo local > "$d/trace_clock"
  : > "$d/trace"
  for ev in "$@"; do
    [ -d "$d/events/$ev" ] || die "no event $ev in $d"
    ENABLED+=("$d/events/$ev")
    case $ev in
      syscalls/*|raw_syscalls/*) echo "$SYSCALL_FILTER" > "$d/events/$ev/filter" ;;
    esac
    echo 1 > "$d/events/$ev/enable"
  done
  echo 1 > "$d/tracing_on"
  "$workload" "$d"
  echo 0 > "$d/tracing_on"
  for ev in "$@"; do
    echo 0 > "$d/events/$ev/enable"
    echo 0 > "$d/events/$ev/filter"
  done

  echo "== $(basename "$out"): ring buffer stats before extract"
  for cpu in "$d"/per_cpu/cpu*; do
    echo "  $(basename "$cpu"): $(grep -E '^(entries|overrun|dropped events):' "$cpu/stats" | tr '\n' ' ')"
    if [ "$lossy" = no ] && grep -qE '^(overrun|dropped events): [1-9]' "$cpu/stats"; then
      echo "  WARNING: events were lost on $(basename "$cpu"); raise the buffer size" >&2
    fi
  done

  local ksyms=/proc/kallsyms
  if [ "$kallsyms" = trim ]; then
    cat "$d/trace" > "$WORK/trace.txt"        # `trace` does not consume
    trim_kallsyms "$WORK/trace.txt" "$WORK/kallsyms"
    ksyms=$WORK/kallsyms
    echo "  kallsyms trimmed to $(wc -l < "$ksyms") symbols"
  fi
  make_events_dir "$d/events" "$WORK/events" "$@"
  local buf=()
  if [ "$mode" = instance ]; then buf=(-B "$INST"); fi
  rm -f -- "$out"
  # Formats are read from the top events/ even for an instance (and a mount
  # inside the instance would stop extract from removing it).
  unshare -m --propagation private -- /bin/sh -c \
    'k=$1 e=$2 t=$3; shift 3
     mount --bind "$k" /proc/kallsyms && mount --bind "$e" "$t/events" &&
     exec trace-cmd extract "$@"' \
    sh "$ksyms" "$WORK/events" "$T" "${buf[@]}" -o "$out" > "$WORK/extract.log" 2>&1 ||
    { cat "$WORK/extract.log" >&2; die "trace-cmd extract failed for $out"; }
  # trace-cmd extract -B removes the instance itself; whatever is left of a
  # buffer is cleared (top) or removed (instance).
  if [ "$mode" = top ]; then
    : > "$d/trace"
  elif [ -d "$d" ]; then
    rmdir "$d"
  fi
  ENABLED=()
  echo "  wrote $out ($(stat -c %s "$out") bytes)"
}

v6_twin() {
  rm -f -- "$2"
  # "Cannot find description for buffer" is printed harmlessly by convert.
  trace-cmd convert --file-version 6 --compression none -i "$1" -o "$2" > /dev/null 2>&1 ||
    die "trace-cmd convert failed for $1"
  echo "  wrote $2 ($(stat -c %s "$2") bytes)"
}

if [ "$WHAT" != sample ] && [ "$WHAT" != prio ]; then
  # Block requests (issue, insert, complete) of a known dd, for the latency
  # plugin's block preset (dev and sector pair them).
  record top trim 1024 workload_block "$OUT_TESTS/block-v7.dat" \
    block/block_rq_insert block/block_rq_issue block/block_rq_complete sched/sched_switch
fi

if [ "$WHAT" = tests ] || [ "$WHAT" = prio ] || [ "$WHAT" = all ]; then
  # shellcheck disable=SC2086
  record top trim 8192 workload_prio "$OUT_TESTS/sched-prio-migrate-v7.dat" \
    $SCHED_EVENTS $IRQ_EVENTS
fi

if [ "$WHAT" != sample ] && [ "$WHAT" != block ] && [ "$WHAT" != prio ]; then
  # shellcheck disable=SC2086
  record top trim 4096 workload_small "$OUT_TESTS/sched-irq-v7.dat" \
    $SCHED_EVENTS $IRQ_EVENTS $TIMER_EVENTS $WRITE_EVENTS
  v6_twin "$OUT_TESTS/sched-irq-v7.dat" "$OUT_TESTS/sched-irq-v6.dat"

  # trace-cmd here cannot write zlib (it is built with zstd only); our own
  # rewriter does, and must round-trip to the same report.  The file lives in
  # zlib/ so that tests globbing tests/data/*.dat pick it up only when asked.
  mkdir -p "$OUT_TESTS/zlib"
  "$HERE/v7-recompress.py" --codec zlib "$OUT_TESTS/sched-irq-v7.dat" "$OUT_TESTS/sched-irq-v7-zlib.dat"
  "$HERE/v7-recompress.py" --codec zstd "$OUT_TESTS/sched-irq-v7-zlib.dat" "$WORK/back.dat"
  trace-cmd report "$OUT_TESTS/sched-irq-v7.dat" > "$WORK/a.txt" 2>&1
  trace-cmd report "$WORK/back.dat" > "$WORK/b.txt" 2>&1
  cmp -s "$WORK/a.txt" "$WORK/b.txt" || die "zlib file does not round-trip to the same report"
  echo "  wrote $OUT_TESTS/sched-irq-v7-zlib.dat (round trip checked)"

  rm -f -- "$OUT_TESTS/sched-irq-v7-nocompress.dat"
  trace-cmd convert --file-version 7 --compression none \
    -i "$OUT_TESTS/sched-irq-v7.dat" -o "$OUT_TESTS/sched-irq-v7-nocompress.dat" > /dev/null 2>&1 ||
    die "trace-cmd convert failed for the uncompressed v7 twin"
  echo "  wrote $OUT_TESTS/sched-irq-v7-nocompress.dat"

  # shellcheck disable=SC2086
  record top trim 2048 workload_tiny "$WORK/no-sched-v7.dat" \
    $IRQ_EVENTS $TIMER_EVENTS $RAW_SYSCALL_EVENTS
  v6_twin "$WORK/no-sched-v7.dat" "$OUT_TESTS/no-sched-v6.dat"

  # shellcheck disable=SC2086
  record instance trim 1024 workload_tiny "$OUT_TESTS/instance-only-v7.dat" \
    $SCHED_EVENTS $IRQ_EVENTS

  # The buffer overwrites its oldest pages: report shows "EVENTS DROPPED".
  # shellcheck disable=SC2086
  record top trim lossy workload_small "$OUT_TESTS/missed-events-v7.dat" \
    $SCHED_EVENTS $IRQ_EVENTS $TIMER_EVENTS

  # Two events named "print": ftrace:print (trace_marker) and a uprobe
  # uprobes:print on the entry of /usr/bin/sleep.
  add_uprobe uprobes/print /usr/bin/sleep
  record top trim 1024 workload_dup "$OUT_TESTS/dup-name-v7.dat" \
    uprobes/print sched/sched_process_exec sched/sched_process_exit
  echo 0 > "$T/events/$UPROBE/enable"
  echo "-:$UPROBE" >> "$T/uprobe_events"
  UPROBE=
fi

if [ "$WHAT" != tests ] && [ "$WHAT" != block ] && [ "$WHAT" != prio ]; then
  mkdir -p "$OUT_SAMPLE"
  # shellcheck disable=SC2086
  record top full 16384 workload_sample "$OUT_SAMPLE/sample.dat" \
    $SCHED_EVENTS $IRQ_EVENTS $TIMER_EVENTS $WRITE_EVENTS
fi

echo "done; tracefs restored"
