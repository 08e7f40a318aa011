#!/bin/bash
# Makes tests/data/perf-sched.data and perf-sched.txt (issue 14): a perf
# recording of scheduler tracepoints on this machine and the text
# `perf script --ns` prints of it.  Needs root and Debian's linux-perf;
# perf may record tracepoints on these VMs (trace-cmd record may not).
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
perf record --no-buildid --no-buildid-cache \
  -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup \
  -a -o "$tmp/perf.data" sleep 0.05
perf script --ns -i "$tmp/perf.data" > perf-sched.txt
install -m 0644 "$tmp/perf.data" perf-sched.data
