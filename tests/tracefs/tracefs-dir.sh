#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tracefs-dir.sh: prints the tracefs folder `chronoscope record` would use,
# mounting tracefs as libtracefs does (tracefs_tracing_dir()) when it is not
# mounted yet, so that the scripts which configure tracefs by hand find it
# as the product and the C tests (tracefs-test-util.c) do.
#
# Usage: T=$(tests/tracefs/tracefs-dir.sh) || exit
#
# Prints one line (e.g. /sys/kernel/tracing) and exits 0; otherwise says
# why on stderr ("not root", "the kernel has no tracefs", "mount failed:
# ...") and exits 77, or 1 when the helper cannot be built.  It builds
# tracefs-dir.c with cc and libtracefs (pkg-config) in a private
# temporary folder, removed afterwards: the scripts need no meson build.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cs-tracefs-dir.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC2046
if ! ${CC:-cc} -O1 -o "$tmp/tracefs-dir" "$here/tracefs-dir.c" "$here/tracefs-test-util.c" \
	$(pkg-config --cflags --libs glib-2.0 libtracefs) 2>"$tmp/cc.log"; then
	cat "$tmp/cc.log" >&2
	echo "tracefs-dir.sh: cannot build tracefs-dir.c (needs cc, libglib2.0-dev, libtracefs-dev)" >&2
	exit 1
fi
rc=0
"$tmp/tracefs-dir" || rc=$?
exit "$rc"
