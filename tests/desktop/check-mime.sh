#!/bin/bash
# Checks that data/'s shared-mime-info package makes GIO recognise trace-cmd
# recordings by their magic bytes, whatever their name, and nothing else.
#
# usage: check-mime.sh MIME_XML [TRACE.dat...]
set -euo pipefail

mime_xml=$1; shift
expected=application/x-trace-cmd

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cs-mime.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/mime/packages"
cp "$mime_xml" "$tmp/mime/packages/"
# update-mime-database exits 0 even when it cannot parse a package: read what it says.
if update-mime-database "$tmp/mime" 2>&1 | grep -Ei 'fail|error|warn'; then
  echo "FAIL: update-mime-database did not accept $mime_xml" >&2
  exit 1
fi

content_type() {
  XDG_DATA_HOME=$tmp XDG_DATA_DIRS=/usr/local/share:/usr/share GIO_USE_VFS=local \
    gio info -a standard::content-type "$1" | sed -n 's/^ *standard::content-type: //p'
}

failed=0
expect() {  # expect FILE TYPE-OR-!TYPE
  local got
  got=$(content_type "$1")
  if [[ $2 == !* ]]; then
    if [[ $got == "${2#!}" ]]; then
      echo "FAIL: $1 detected as $got"; failed=1
    else
      echo "ok: $1 is $got"
    fi
  elif [[ $got != "$2" ]]; then
    echo "FAIL: $1 detected as '$got', expected $2"; failed=1
  else
    echo "ok: $1 is $got"
  fi
}

# Headers of a v6 and a v7 file under names that give no hint.
printf '\027\010Dtracing6\0\0\004\0\020\0\0' > "$tmp/recording-v6.bin"
printf '\027\010Dtracing7\0\0\010\0\020\0\0' > "$tmp/capture"
expect "$tmp/recording-v6.bin" "$expected"
expect "$tmp/capture" "$expected"

# Almost the magic is not the magic.
printf '\027\010Dtracinx6\0' > "$tmp/near-miss.bin"
expect "$tmp/near-miss.bin" "!$expected"
echo 'tracing is fun' > "$tmp/notes.txt"
expect "$tmp/notes.txt" "!$expected"

# Real recordings, when the caller passes some.
for f in "$@"; do
  if [[ ! -f $f ]]; then
    echo "skipped: $f is absent"
    continue
  fi
  cp "$f" "$tmp/$(basename "$f").renamed"
  expect "$tmp/$(basename "$f").renamed" "$expected"
done

exit $failed
