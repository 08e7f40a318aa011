#!/bin/bash
# The example plugin builds out of tree against an installed Chronoscope,
# with only its installed headers and pkg-config, and the installed
# executable loads it; a pass-only plugin (census.c) builds with the core
# API alone, which reaches no GTK header (TAP).
#
# usage: check-install.sh BUILD_DIR EXAMPLE_SOURCE RECORDING ORACLE [PASS_SOURCE]
#
# `meson install --destdir` puts the tree in a temporary folder; the
# installed chronoscope-plugin-1.pc and chronoscope-plugin-ui-1.pc are
# copied with their prefix pointing there (what a relocated install looks
# like), and the example is built with exactly `cc -shared -fPIC ...
# $(pkg-config --cflags --libs chronoscope-plugin-ui-1)` from a copy of its
# source in an empty folder.
set -uo pipefail

build_dir=$1 example_source=$2 recording=$3 oracle=$4 pass_source=${5:-}
tmp=$(mktemp -d /tmp/cs-install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); if [[ $1 == 0 ]]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi; }

meson install -C "$build_dir" --destdir "$tmp/root" --no-rebuild --quiet >"$tmp/install.log" 2>&1
ok $? "meson install --destdir" || cat "$tmp/install.log" | sed 's/^/# /'

pc=$(find "$tmp/root" -name chronoscope-plugin-1.pc | head -n 1)
header=$(find "$tmp/root" -path '*/chronoscope-1/chronoscope-plugin.h' | head -n 1)
exe=$(find "$tmp/root" -path '*/bin/chronoscope' | head -n 1)
[[ -n $pc && -n $header && -n $exe ]]
ok $? "the pkg-config file, the header and the executable are installed"

prefix=$(sed -n 's/^prefix=//p' "$pc")
mkdir -p "$tmp/pkgconfig" "$tmp/src"
for f in "$pc" "$(dirname "$pc")/chronoscope-plugin-ui-1.pc"; do
  sed "s|^prefix=.*|prefix=$tmp/root$prefix|" "$f" >"$tmp/pkgconfig/$(basename "$f")"
done
cp "$example_source" "$tmp/src/migrations.c"
(cd "$tmp/src" &&
 PKG_CONFIG_PATH="$tmp/pkgconfig" cc -shared -fPIC -Wall -Werror -o migrations.so migrations.c \
   $(PKG_CONFIG_PATH="$tmp/pkgconfig" pkg-config --cflags --libs chronoscope-plugin-ui-1)) >"$tmp/cc.log" 2>&1
ok $? "cc -shared -fPIC migrations.c \$(pkg-config --cflags --libs chronoscope-plugin-ui-1)" ||
  sed 's/^/# /' "$tmp/cc.log"

# The core API alone (issue 23): a plugin of passes, tables and commands
# builds with chronoscope-plugin-1, whose flags name no GTK or cairo folder,
# and the headers it reaches (cc -M) are none of GTK's, GDK's or cairo's:
# on a machine without GTK's headers it builds the same.
if [[ -n $pass_source ]]; then
  core_flags=$(PKG_CONFIG_PATH="$tmp/pkgconfig" pkg-config --cflags --libs chronoscope-plugin-1)
  cp "$pass_source" "$tmp/src/census.c"
  (cd "$tmp/src" && cc -shared -fPIC -Wall -Werror -o census.so census.c $core_flags) >"$tmp/cc-core.log" 2>&1
  ok $? "cc -shared -fPIC census.c \$(pkg-config --cflags --libs chronoscope-plugin-1)" ||
    sed 's/^/# /' "$tmp/cc-core.log"
  (cd "$tmp/src" && cc -M census.c $core_flags) >"$tmp/deps" 2>&1 &&
    ! grep -Eq '/(gtk-4\.0|gdk|cairo|graphene|pango)[^ ]*/' "$tmp/deps" && ! grep -Eq 'gtk|cairo' <<<"$core_flags"
  ok $? "the core API's flags and headers reach no GTK, GDK or cairo header" ||
    { echo "# flags: $core_flags"; grep -Eo '[^ ]*(gtk|gdk|cairo)[^ ]*' "$tmp/deps" | head -5 | sed 's/^/# /'; }
fi

expected=$(python3 "$oracle" "$recording" |
           python3 -c 'import json,sys; print(json.load(sys.stdin)["events"].get("sched:sched_migrate_task", 0))')
got=$(XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" CHRONOSCOPE_PLUGIN_PATH= \
      "$exe" info "$recording" --json -p "$tmp/src/migrations.so" 2>"$tmp/info.log" |
      python3 -c 'import json,sys; print(json.load(sys.stdin).get("migrations", {}).get("n_migrations"))')
[[ $got == "$expected" ]]
ok $? "the installed chronoscope loads it with -p: $got migrations, trace-cmd report shows $expected" ||
  sed 's/^/# /' "$tmp/info.log"

XDG_CACHE_HOME="$tmp/cache" XDG_DATA_HOME="$tmp/data" CHRONOSCOPE_PLUGIN_PATH= \
  "$exe" render "$recording" -o "$tmp/row.png" --row migrations:all -p "$tmp/src/migrations.so" \
  >"$tmp/render.log" 2>&1
ok $? "render --row migrations:all draws its row" || sed 's/^/# /' "$tmp/render.log"

echo "1..$n"
exit $failed
