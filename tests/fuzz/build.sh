#!/bin/bash
# Builds the libFuzzer target tests/fuzz/fuzz-tracedat with clang 14.
#
#   tests/fuzz/build.sh [BUILD_DIR]      (default: build-fuzz, in the source tree)
#
# A separate meson build folder, configured once with CC=clang and
# -Dfuzzing=true: index/ is compiled with -fsanitize=fuzzer-no-link (coverage
# for libFuzzer) plus AddressSanitizer and UndefinedBehaviorSanitizer, the
# target is linked with -fsanitize=fuzzer.  Only the target and what it links
# (index/) are built, not the window.  werror is off in this folder: the
# warnings that gate the tree are gcc's (the normal build), and clang's
# differ.  Prints the target's path on its last line.
set -euo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)
BUILD_DIR=${1:-$ROOT/build-fuzz}

say() { printf 'fuzz/build.sh: %s\n' "$*" >&2; }

command -v clang >/dev/null || { say "error: clang is not installed (.ci/packages.txt lists clang and libclang-rt-14-dev)"; exit 1; }

if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  [[ -d $BUILD_DIR ]] && rm -rf "$BUILD_DIR"   # half configured: start again
  CC=clang meson setup "$BUILD_DIR" "$ROOT" \
    -Dfuzzing=true \
    -Dgui_tests=false \
    -Dbuildtype=debugoptimized \
    -Dwerror=false \
    -Db_sanitize=address,undefined \
    -Db_lundef=false \
    -Dc_args='-fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer' \
    >&2
fi
ninja -C "$BUILD_DIR" tests/fuzz/fuzz-tracedat >&2
echo "$BUILD_DIR/tests/fuzz/fuzz-tracedat"
