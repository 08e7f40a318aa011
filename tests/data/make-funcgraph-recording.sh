#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make-funcgraph-recording.sh: remake tests/data/funcgraph-v7.dat (a small
# function_graph recording) or tests/data/function-v7.dat (a small function
# recording), made in a QEMU guest (the host refuses function tracing; the
# guest boots Debian's kernel, which allows it).
#
# Usage: sudo tests/data/make-funcgraph-recording.sh [BUILD_DIR [TRACER]]
#        (default: build function_graph; TRACER: function_graph or function)
#
# Boots the guest of the kmod test (tests/kmod/run-guest-test.sh: Debian's
# kernel, a busybox initramfs) with trace-cmd added to it
# (CS_KMOD_EXTRA_BINS) and runs funcgraph-guest-scenario.sh there instead of
# the kmod scenario, with `tracer=TRACER` put before it: trace-cmd record
# -p function_graph --max-graph-depth 3 -F of `ls -lR`, or -p function
# limited to the VFS's functions, v7 with zstd (the file carries the
# guest's whole kallsyms, which zstd keeps small).  Takes a few minutes
# under TCG.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build}
tracer=${2:-function_graph}
case $tracer in
function_graph) out=funcgraph-v7.dat ;;
function) out=function-v7.dat ;;
*) echo "make-funcgraph-recording.sh: unknown tracer $tracer" >&2; exit 2 ;;
esac
work=$(mktemp -d "${TMPDIR:-/tmp}/cs-funcgraph.XXXXXX")
trap 'rm -rf "$work"' EXIT

{ echo "tracer=$tracer"; cat "$here/funcgraph-guest-scenario.sh"; } >"$work/scenario.sh"
CS_CHRONOSCOPE=$build/gui/chronoscope \
CS_KMOD_WORKDIR=$work \
CS_KMOD_SCENARIO=$work/scenario.sh \
CS_KMOD_EXTRA_BINS=$(command -v trace-cmd) \
	sh "$here/../kmod/run-guest-test.sh"

cp "$work/out/$out" "$here/$out"
ls -l "$here/$out"
