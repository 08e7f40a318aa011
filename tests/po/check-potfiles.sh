#!/bin/bash
# check-potfiles.sh SRCDIR: every source file that marks strings for translation
# (_(), N_(), C_(), NC_(), ngettext(), g_dngettext(), or translatable="yes" in a
# .ui file) is listed in po/POTFILES.in, and every listed file exists.
# Prints each offending file and exits 1 when any is found.
set -euo pipefail
cd "$1"
status=0
listed=$(grep -v '^\s*#' po/POTFILES.in | sed '/^\s*$/d' | sort -u)
for f in $listed; do
  if [ ! -e "$f" ]; then
    echo "po/POTFILES.in lists $f, which does not exist" >&2
    status=1
  fi
done
marked=$( { grep -rlE '(^|[^A-Za-z0-9_])(N?_|C_|NC_|ngettext|g_dngettext)[[:space:]]*\(' \
              --include='*.c' gui index render plugins || true
            grep -rl 'translatable="yes"' --include='*.ui' gui plugins || true; } | sort -u)
for f in $marked; do
  if ! grep -qxF "$f" <<<"$listed"; then
    echo "$f marks strings for translation but is missing from po/POTFILES.in" >&2
    status=1
  fi
done
exit $status
