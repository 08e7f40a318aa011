#!/bin/bash
# A long fuzzing campaign on the trace.dat reader, scanner and index builder.
#
#   tests/fuzz/run-campaign.sh [--hours H] [--jobs N] [--work DIR]
#
#   --hours H   how long (default 4; fractions like 0.5 work)
#   --jobs N    fuzzing processes (default: the number of CPUs)
#   --work DIR  corpus and findings, kept between campaigns
#               (default /var/tmp/chronoscope-fuzz)
#
# The same target and seeds as the CI run (tests/fuzz/run-fuzz.sh), without
# its time bound, a new random seed each time, and the corpus kept: a
# campaign goes on from where the last one stopped.  Findings are listed at
# the end, in DIR/artifacts/ (ours: the exit status is 1) and DIR/library/
# (crashes inside libtraceevent/libtracecmd, contained by the index worker).
set -euo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
hours=4
jobs=$(nproc)
work=/var/tmp/chronoscope-fuzz

while (($#)); do
  case $1 in
    --hours) hours=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "run-campaign.sh: unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
seconds=$(python3 -c "import sys; print(int(float(sys.argv[1]) * 3600))" "$hours") ||
  { echo "run-campaign.sh: --hours takes a number" >&2; exit 2; }

mkdir -p "$work"
echo "run-campaign.sh: fuzzing for $hours h ($seconds s) with $jobs job(s) in $work" >&2
exec "$ROOT/tests/fuzz/run-fuzz.sh" --seconds "$seconds" --jobs "$jobs" --timeout 10 \
  --build "$ROOT/build-fuzz" --work "$work" --keep-corpus
