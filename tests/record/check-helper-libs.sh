#!/bin/sh
# The program pkexec runs as root links neither GTK, libadwaita nor
# GtkSourceView (issue 23), not even through another library: ldd, which
# lists what the loader maps, names none of them.
#
# usage: check-helper-libs.sh HELPER
# HELPER is the built chronoscope-record-helper (render/cli/).
set -eu

helper=$1

command -v ldd >/dev/null || { echo "ldd is missing (libc-bin)"; exit 77; }
[ -x "$helper" ] || { echo "FAIL: $helper is not an executable"; exit 1; }

libs=$(ldd "$helper" | awk '{ print $1 }')
echo "$libs" | sed 's/^/# /'
echo "$libs" | grep -q '^libglib-2\.0\.so' ||
  { echo "FAIL: ldd $helper does not list libglib-2.0 (not ldd's output?)"; exit 1; }

bad=$(echo "$libs" | grep -E '^lib(gtk-4|adwaita-1|gtksourceview-5)\.so' || true)
if [ -n "$bad" ]; then
  echo "FAIL: $helper needs" $bad
  exit 1
fi
echo "ok: $helper maps $(echo "$libs" | wc -l) libraries, none of GTK, libadwaita or GtkSourceView"
