#!/bin/bash
# Chronoscope developer helper for a Debian 12 machine.
#
#   ./dev.sh run [FILE...]   install what is missing, build, open FILE
#                            (default data/sample/sample.dat) in the window
#   ./dev.sh test [ARGS...]  install what is missing, build, run every test suite
#                            (ARGS go to `meson test`, e.g. --suite data); in CI
#                            (CI=true) or with CS_SANITIZE=1, then again in a
#                            second build with AddressSanitizer and UBSan
#   ./dev.sh cli ARGS...     the built chronoscope with ARGS (e.g. latency FILE
#                            --preset wakeup), with the build tree's settings,
#                            as an installed one has them (build/gui/chronoscope
#                            alone finds the build tree's built-in plugins too)
#   ./dev.sh build           install what is missing and build
#   ./dev.sh deps            only install what is missing
#
# Packages come from .ci/packages.txt, the one list of them. apt-get runs only
# when dpkg-query says a package is missing (through sudo when not root).
#
# Environment:
#   CS_BUILD_DIR     build folder (default: build)
#   CS_MESON_ARGS    extra `meson setup` arguments for a new build folder
#                    (-Dkmod=true is added when Debian's kernel headers are there)
#   CS_APT_UPDATED=1 skip `apt-get update` before installing (.ci/run sets it)
#   CS_SANITIZE      1: `test` also runs the suites in $CS_BUILD_DIR-asan, built
#                    with -Db_sanitize=address,undefined (default 1 when CI=true)
set -euo pipefail

ROOT=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
cd "$ROOT"
BUILD_DIR=${CS_BUILD_DIR:-build}
PACKAGES_FILE=.ci/packages.txt
SAMPLE=data/sample/sample.dat

say() { printf 'dev.sh: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

# Package names from $PACKAGES_FILE, one a line, comments and blanks dropped.
read_packages() {
  sed -e 's/#.*//' "$PACKAGES_FILE" | tr -s ' \t' '\n\n' | sed '/^$/d'
}

missing_packages() {
  local -a wanted
  mapfile -t wanted < <(read_packages)
  # One dpkg-query for all; packages it has never heard of are simply absent
  # from its output (and make it exit 1), so they count as missing too.
  local installed
  installed=$({ dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${wanted[@]}" 2>/dev/null || true; } |
              awk '$1 == "ii" { print $2 }' | sort -u)
  local p
  for p in "${wanted[@]}"; do
    grep -qxF -- "$p" <<<"$installed" || printf '%s\n' "$p"
  done
}

as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    die "need root or sudo to run: $*"
  fi
}

install_deps() {
  command -v dpkg-query >/dev/null || die "this script expects Debian 12 (dpkg-query not found)"
  local -a missing
  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]} == 0)); then
    return 0
  fi
  say "installing ${#missing[@]} missing package(s): ${missing[*]}"
  if [[ ${CS_APT_UPDATED:-0} != 1 ]]; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  fi
  as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q -o DPkg::Lock::Timeout=600 "${missing[@]}"
  mapfile -t missing < <(missing_packages)
  ((${#missing[@]} == 0)) || die "still missing after apt-get: ${missing[*]}"
}

# configure [DIR [MESON_ARGS...]]: set up a build folder (default $BUILD_DIR).
configure() {
  local dir=${1:-$BUILD_DIR}
  (($#)) && shift
  if [[ -f $dir/build.ninja ]]; then
    return 0   # ninja re-runs meson itself when a meson.build changes
  fi
  local -a extra=() user=()
  [[ -n ${CS_MESON_ARGS:-} ]] && read -r -a user <<<"$CS_MESON_ARGS"
  extra=("${user[@]}" "$@")
  # Build kmod/ too when Debian's kernel headers are there (.ci/packages.txt
  # installs them): the demo tests then give the helper a real module built
  # for another kernel, which it must refuse without loading it.
  if [[ " ${extra[*]} " != *" -Dkmod="* ]] && kmod/build-module.sh newest-release >/dev/null 2>&1; then
    extra+=(-Dkmod=true)
  fi
  if [[ -f $dir/meson-private/coredata.dat ]]; then
    say "build folder $dir is half configured: wiping it"
    meson setup --wipe "$dir" "${extra[@]}"
  else
    meson setup "$dir" "${extra[@]}"
  fi
}

build() {
  install_deps
  configure
  meson compile -C "$BUILD_DIR"
}

# Run uninstalled: settings schema compiled in the build folder and icons
# from data/.  The built-in plugins need nothing: the executable of a build
# tree loads that build tree's own (cs_plugin_registry_dup_builtin_path()).
uninstalled_env() {
  export GSETTINGS_SCHEMA_DIR=$ROOT/$BUILD_DIR/data
  export XDG_DATA_DIRS=$ROOT/data:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}
}

cmd_cli() {
  [[ -x $BUILD_DIR/gui/chronoscope ]] || build >&2
  uninstalled_env
  exec "$BUILD_DIR/gui/chronoscope" "$@"
}

cmd_run() {
  build
  local -a files=("$@")
  if ((${#files[@]} == 0)); then
    [[ -f $SAMPLE ]] || die "$SAMPLE is not there yet: pass a trace.dat, e.g. ./dev.sh run ~/trace.dat"
    files=("$SAMPLE")
  fi
  if [[ -z ${DISPLAY:-} && -z ${WAYLAND_DISPLAY:-} ]]; then
    die "no display (DISPLAY and WAYLAND_DISPLAY are unset): run it from a desktop session, or try the headless commands: $BUILD_DIR/gui/chronoscope info FILE"
  fi
  uninstalled_env
  exec "$BUILD_DIR/gui/chronoscope" "${files[@]}"
}

sanitize_wanted() {
  case ${CS_SANITIZE:-} in
    1|true|yes) return 0 ;;
    0|false|no) return 1 ;;
  esac
  [[ ${CI:-} == true ]]
}

# Runs "$@" and says how long it took: .ci/run's log then shows where the
# time of a run went (issue 22: CI must stay well inside its 90 minutes).
timed() {
  local what=$1 t0=$SECONDS rc=0
  shift
  "$@" || rc=$?
  say "$what took $((SECONDS - t0)) s"
  return $rc
}

# The suites again in a build with AddressSanitizer and UBSan (issue 10):
# any report aborts the program under test, so the test fails.  What runs
# there is the C code that parses and stores what users give it (issue 22
# chose it, to keep CI well inside its limit):
# - every suite but those below, with leaks checked; what the system
#   libraries lose is suppressed by name in tests/fuzz/lsan.supp;
#   fast_unwind_on_malloc=0 because GLib is built without frame pointers,
#   and the fast unwinder stops inside it, before the frame a suppression
#   names;
# - 'libtracecmd-oracle' (test-tracedat-reader) without leak checks and with
#   the fast unwinder: it reads every record through libtracecmd too, one
#   malloc each, and the slow unwinder the leak suppressions need took it
#   from 76 s to 900 s.  The reader's own leaks are checked by the index
#   tests, which read the same recordings through it;
# - 'cli-oracle' (latency-oracle, latency-explain, plugin-pass-events)
#   without leak checks and with the fast unwinder too: each starts the
#   command line some hundred times, and every start parses the recording's
#   event formats through libtraceevent, thousands of mallocs that the slow
#   unwinder made cost seconds each.  In stop 34's CI these three took
#   1,316 s of the leak-checked run's 4,994 s of tests (2,923 s wall);
#   without leak checks latency-oracle took 97 s and plugin-pass-events
#   25 s, against 775 s and 317 s.  The code they drive keeps its leaks
#   checked in-process (latency-pass, latency-explain-api, test-sql,
#   field-plot) and through the command line in latency-orders and
#   missed-events;
# - 'window' (test-record-panel, the recording panel in the window) without
#   leak checks and with the fast unwinder too: under the slow one it took
#   264-266 s (15 s without), and in one CI run (fd436ea) its 60 s wait for
#   the selected row to come into view, after the written recording
#   opened, ran out; the recorder's own code keeps its leaks checked in
#   test-recorder and test-record-signals;
# - of the window's suite ('gui'), only the headless commands' tests (suite
#   'cli': the executable's parsing of command lines, files and worker
#   pipes), without leak checks: GTK 4.8
#   keeps what it loads until exit.  The window's own tests took half of
#   CI's time under ASan (GTK is slow there) and find what the normal run
#   finds;
# - not 'fuzz' (its fuzzer is a clang ASan build already), 'bench' (figures
#   from a sanitized build mean nothing), 'kmod' (a QEMU guest and a kernel
#   module: no sanitized code of ours), 'data' and 'po' (file validation).
# Timeouts are four times the normal ones: ASan code runs 2-3x slower.
cmd_test_sanitized() {
  local dir=$BUILD_DIR-asan rc=0
  timed "configuring the sanitizer build" configure "$dir" -Db_sanitize=address,undefined
  timed "the sanitizer build" meson compile -C "$dir"
  say "running the suites again in $dir (AddressSanitizer, UBSan)"
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
  export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$ROOT/tests/fuzz/lsan.supp:print_suppressions=0}
  local asan=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:fast_unwind_on_malloc=0}
  # A full unwind on every malloc (fast_unwind_on_malloc=0, for leak reports
  # through libraries without frame pointers) makes libtraceevent's parsing
  # of a recording's formats slow: 4.2-4.8 s for kmod-sections-v7.dat,
  # against 0.26 s with fast unwinds and 60 ms without sanitizers, before
  # the index worker's first progress line.
  # Under load that came near the 30 s the window's watchdog allows a
  # silent worker (cs-index-job.c), on a sound file.  The tests of the
  # watchdog set their own limit.
  export CS_INDEX_WATCHDOG_SECONDS=${CS_INDEX_WATCHDOG_SECONDS:-120}
  local -a run=(meson test -C "$dir" --print-errorlogs --timeout-multiplier 4)
  if (($#)); then
    # A chosen part of the suite (./dev.sh test --suite index): one run,
    # leaks checked unless it names the window's tests.
    local leaks=1
    [[ " $* " == *gui* ]] && leaks=0
    ASAN_OPTIONS=$asan:detect_leaks=$leaks "${run[@]}" --no-suite fuzz --no-suite bench "$@"
    return
  fi
  ASAN_OPTIONS=$asan:detect_leaks=1 timed "the sanitized suites (leaks checked)" \
    "${run[@]}" --no-suite fuzz --no-suite bench --no-suite kmod --no-suite data --no-suite po \
      --no-suite gui --no-suite libtracecmd-oracle --no-suite cli-oracle \
      --no-suite window || rc=$?
  # meson test starts from an empty log: keep the first half's for .ci/run.
  cp "$dir/meson-logs/testlog.json" "$dir/meson-logs/testlog-leaks.json" 2>/dev/null || true
  ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=0 \
    timed "the sanitized headless commands and the oracles of the command line" \
    "${run[@]}" --suite libtracecmd-oracle --suite cli --suite cli-oracle \
      --suite window --no-suite kmod || rc=$?
  return $rc
}

cmd_test() {
  local rc=0
  timed "the build" build
  # Every suite: GUI tests start their own Xvfb, so no display is needed.
  timed "the suites" meson test -C "$BUILD_DIR" --print-errorlogs "$@" || rc=$?
  if sanitize_wanted; then
    cmd_test_sanitized "$@" || rc=$?
  fi
  return $rc
}

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
}

case ${1:-} in
  run)  shift; cmd_run "$@" ;;
  cli)  shift; cmd_cli "$@" ;;
  test) shift; cmd_test "$@" ;;
  build) shift; build ;;
  deps) shift; install_deps ;;
  -h|--help|help) usage ;;
  *) usage >&2; exit 2 ;;
esac
