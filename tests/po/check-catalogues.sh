#!/bin/bash
# check-catalogues.sh SRCDIR: every catalogue in po/LINGUAS translates every
# string the sources mark today, not only those of po/chronoscope.pot as it
# was last refreshed.  The strings are extracted afresh into a temporary
# template (xgettext over po/POTFILES.in, with the keywords of meson's
# 'glib' gettext preset, which po/meson.build uses), each catalogue is
# merged with it in a temporary copy, and a string left untranslated
# fails, named by its places.  Nothing in SRCDIR is written.  The fix is what README.md's
# "Translations" says: refresh with chronoscope-pot and chronoscope-update-po,
# then translate what is new.
set -euo pipefail
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -v '^\s*#' "$src/po/POTFILES.in" | sed '/^\s*$/d' > "$tmp/files"
xgettext --directory="$src" --files-from="$tmp/files" --output="$tmp/new.pot" \
  --from-code=UTF-8 --add-comments=TRANSLATORS --package-name=chronoscope \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
  --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
  --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
  --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
  --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
  --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
  --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format
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
