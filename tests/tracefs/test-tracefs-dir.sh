#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tracefs-dir.sh, as the scripts that make recordings use it: it names a
# mounted tracefs with an instances folder (mounting it when root and it is
# not mounted yet), or exits 77 saying why.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rc=0
dir=$("$here/tracefs-dir.sh") || rc=$?
if [ "$rc" != 0 ]; then
	echo "tracefs-dir.sh exited with $rc"
	exit "$rc"
fi
echo "tracefs at $dir"
[ -d "$dir/instances" ] || { echo "FAIL: $dir has no instances folder"; exit 1; }
awk -v d="$dir" '$2 == d && ($3 == "tracefs" || $3 == "debugfs") { found = 1 } END { exit !found }' \
	/proc/mounts || { echo "FAIL: nothing is mounted at $dir"; exit 1; }
echo "PASS"
