#!/bin/bash
# Fuzzes the trace.dat reader, the per-CPU scanner and the index builder
# with libFuzzer (tests/fuzz/fuzz-tracedat.c) for a bounded time.
#
#   tests/fuzz/run-fuzz.sh [--seconds N] [--timeout S] [--jobs N] [--seed N]
#                          [--build DIR] [--work DIR] [--keep-corpus]
#
#   --seconds N    total fuzzing time (default 150)
#   --timeout S    one input taking longer is a hang, a finding (default 10)
#   --jobs N       parallel fuzzing processes (default 1)
#   --seed N       libFuzzer's random seed (default 0: a new one each run)
#   --build DIR    the clang build folder (default build-fuzz; tests/fuzz/build.sh)
#   --work DIR     corpus, seeds and findings (default DIR/fuzz-work of --build)
#   --keep-corpus  go on from the corpus of an earlier run instead of the seeds
#
# Seeds are the recordings themselves, read where they are: tests/data/*.dat
# and $CS_SHARED_TESTDATA/*.dat (default ../shared/testdata/public next to
# the source tree).
#
# libFuzzer runs in fork mode and goes on after a finding, which it writes to
# WORK/artifacts/ (crash-*, timeout-*, leak-*, oom-*).  Each crash is then
# replayed and sorted by the frame that failed: a crash inside libtraceevent
# or libtracecmd themselves (their parsers on a damaged event format or
# instance section) is contained by the index worker process, so it is
# listed and kept in WORK/library/ but does not fail the run; any other
# crash, every hang, leak and out-of-memory does (exit 1).  A finding
# becomes a regression file in tests/data/damaged/ with a test
# (tests/fuzz/README.md).  Exit 0: nothing of ours found.
set -euo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
seconds=150
timeout=10
jobs=1
seed=0
build_dir=$ROOT/build-fuzz
work_dir=
keep_corpus=0

say() { printf 'fuzz/run-fuzz.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 2; }

while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --build) build_dir=$2; shift 2 ;;
    --work) work_dir=$2; shift 2 ;;
    --keep-corpus) keep_corpus=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[[ $seconds =~ ^[0-9]+$ && $timeout =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ && $seed =~ ^[0-9]+$ ]] ||
  die "--seconds, --timeout, --jobs and --seed take whole numbers"
work_dir=${work_dir:-$build_dir/fuzz-work}

fuzzer=$("$ROOT/tests/fuzz/build.sh" "$build_dir" | tail -n 1)
[[ -x $fuzzer ]] || die "the build did not make $fuzzer"

mkdir -p "$work_dir"
corpus=$work_dir/corpus
seeds=$work_dir/seeds
artifacts=$work_dir/artifacts
((keep_corpus)) || rm -rf "$corpus"
rm -rf "$seeds" "$artifacts"
mkdir -p "$corpus" "$seeds" "$artifacts"

shared=${CS_SHARED_TESTDATA:-$ROOT/../shared/testdata/public}
n_seeds=0
for f in "$ROOT"/tests/data/*.dat "$shared"/*.dat; do
  [[ -f $f ]] || continue
  ln -s "$(readlink -f "$f")" "$seeds/$(basename "$(dirname "$f")")-$(basename "$f")"
  n_seeds=$((n_seeds + 1))
done
((n_seeds > 0)) || die "no seed recordings in tests/data or $shared"
say "$n_seeds seed recordings, ${seconds} s, ${timeout} s per input, $jobs job(s)"

# halt_on_error: the first sanitizer report is a finding.  Leaks are
# findings too (libFuzzer checks after each input that leaked memory).
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
if [[ -f $ROOT/tests/fuzz/lsan.supp ]]; then
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/tests/fuzz/lsan.supp:print_suppressions=0}
fi

args=(
  -fork="$jobs"               # a crash ends one child, not the run
  -ignore_crashes=1
  -ignore_timeouts=1
  -ignore_ooms=1
  -max_total_time="$seconds"
  -timeout="$timeout"
  -rss_limit_mb=4096
  -seed="$seed"
  -close_fd_mask=1            # libtracecmd's printf() chatter on stdout
  -print_final_stats=1
  -artifact_prefix="$artifacts/"
)

rc=0
(cd "$work_dir" && "$fuzzer" "${args[@]}" "$corpus" "$seeds") || rc=$?

# Which code failed: the first frame of the report that is not the
# sanitizer's own interceptor.  Prints "library NAME" for libtraceevent and
# libtracecmd, else "ours FRAME".
classify() {
  local report frame
  report=$(cd "$work_dir" && timeout 300 "$fuzzer" -runs=1 -close_fd_mask=1 "$1" 2>&1) || true
  frame=$(grep -E '^ +#[0-9]+ ' <<<"$report" |
          grep -v -E ' in (__interceptor_|__asan_|__sanitizer|__ubsan|__lsan)' | head -n 1 || true)
  case $frame in
    *libtraceevent.so*) echo "library libtraceevent" ;;
    *libtracecmd.so*) echo "library libtracecmd" ;;
    '') echo "ours (did not reproduce alone: a race?)" ;;
    *) echo "ours ${frame#*in }" ;;
  esac
}

# A timeout on a busy machine (2 cores shared with the build and other
# tests) is not always a hang: replay the input alone with six times the
# limit.  A real hang (work that grows with the time span the timestamps
# claim, a loop that does not consume input) runs out of that too.
replay_timeout() {
  local report ms
  report=$(cd "$work_dir" && timeout $((timeout * 6 + 60)) "$fuzzer" -runs=1 -close_fd_mask=1 \
             -timeout=$((timeout * 6)) "$1" 2>&1) || { echo "ours (hang: over $((timeout * 6)) s alone)"; return; }
  ms=$(sed -n 's/^Executed .* in \([0-9]*\) ms$/\1/p' <<<"$report")
  echo "slow (${ms:-?} ms alone: the machine was busy, not a hang)"
}

mkdir -p "$work_dir/library" "$work_dir/slow"
rm -f "$work_dir"/library/* "$work_dir"/slow/*
n_ours=0
n_library=0
n_slow=0
while IFS= read -r f; do
  name=$(basename "$f")
  case $name in
    crash-*) verdict=$(classify "$f") ;;
    timeout-*) verdict=$(replay_timeout "$f") ;;
    *) verdict="ours (${name%%-*})" ;;
  esac
  printf '  %s (%s bytes): %s\n' "$f" "$(stat -c %s "$f")" "$verdict" >&2
  if [[ $verdict == library* ]]; then
    mv "$f" "$work_dir/library/"
    n_library=$((n_library + 1))
  elif [[ $verdict == slow* ]]; then
    mv "$f" "$work_dir/slow/"
    n_slow=$((n_slow + 1))
  else
    n_ours=$((n_ours + 1))
  fi
done < <(find "$artifacts" -type f | sort)

((n_slow == 0)) ||
  say "$n_slow input(s) over ${timeout} s only while the machine was busy: $work_dir/slow/"
((n_library == 0)) ||
  say "$n_library crash(es) inside libtraceevent/libtracecmd, contained by the index worker: $work_dir/library/"
if ((n_ours > 0)); then
  say "$n_ours finding(s) in Chronoscope: $artifacts/"
  say "reproduce one with: $fuzzer FILE; make it a regression file as tests/fuzz/README.md says"
  exit 1
fi
# In fork mode libFuzzer exits non-zero when any job crashed, also when
# every crash was the libraries' (contained by the worker) or a slow input:
# only an exit that none of those explains is a failure.
if ((rc != 0 && n_library + n_slow == 0)); then
  say "libFuzzer exited $rc without leaving a finding"
  exit 1
fi
say "nothing of ours found in ${seconds} s; corpus: $(find "$corpus" -type f | wc -l) inputs in $corpus"
