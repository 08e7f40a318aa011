#!/bin/bash
# check-catalogues.sh SRCDIR XGETTEXT-ARG...: every catalogue in po/LINGUAS translates every
# string the sources mark today, not only those of po/chronoscope.pot as it
# was last refreshed.  The strings are extracted afresh into a temporary
# template (xgettext over po/POTFILES.in, with the keywords and flags
# po/meson.build gives its own template, passed after SRCDIR), each catalogue is
# merged with it in a temporary copy, and a string left untranslated
# fails, named by its places.  Nothing in SRCDIR is written.  The fix is what README.md's
# "Translations" says: refresh with chronoscope-pot and chronoscope-update-po,
# then translate what is new.
set -euo pipefail
src=$1
shift
xgettext_args=("$@")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^\s*#' "$src/po/POTFILES.in" | sed '/^\s*$/d' > "$tmp/files"
xgettext --directory="$src" --files-from="$tmp/files" --output="$tmp/new.pot" \
  --package-name=chronoscope "${xgettext_args[@]}"
status=0
for lang in $(grep -v '^\s*#' "$src/po/LINGUAS"); do
  msgmerge --quiet --no-fuzzy-matching "$src/po/$lang.po" "$tmp/new.pot" -o "$tmp/$lang.po"
  missing=$(msgattrib --untranslated --no-obsolete "$tmp/$lang.po" | grep -c '^msgid ' || true)
  # The header is an entry with an empty msgid; it is always "untranslated".
  missing=$((missing > 0 ? missing - 1 : 0))
  # (Without fuzzy matching, a string whose msgid changed is untranslated
  # here, where update-po would have kept a fuzzy guess.)
  if [ "$missing" -gt 0 ]; then
    echo "po/$lang.po lacks $missing string(s) of the sources (or has them fuzzy), at:" >&2
    msgattrib --untranslated --no-obsolete "$tmp/$lang.po" | grep '^#:' >&2 || true
    status=1
  else
    echo "po/$lang.po translates every string of the sources"
  fi
done
exit $status
