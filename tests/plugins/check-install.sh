#!/bin/bash
# The example plugin builds out of tree against an installed Chronoscope,
# with only its installed header and pkg-config, and the installed
# executable loads it (TAP).
#
# usage: check-install.sh BUILD_DIR EXAMPLE_SOURCE RECORDING ORACLE
#
# `meson install --destdir` puts the tree in a temporary folder; the
# installed chronoscope-plugin-1.pc is copied with its prefix pointing
# there (what a relocated install looks like), and the example is built
# with exactly `cc -shared -fPIC ... $(pkg-config --cflags --libs
# chronoscope-plugin-1)` from a copy of its source in an empty folder.
set -uo pipefail

build_dir=$1 example_source=$2 recording=$3 oracle=$4
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
sed "s|^prefix=.*|prefix=$tmp/root$prefix|" "$pc" >"$tmp/pkgconfig/chronoscope-plugin-1.pc"
cp "$example_source" "$tmp/src/migrations.c"
(cd "$tmp/src" &&
 PKG_CONFIG_PATH="$tmp/pkgconfig" cc -shared -fPIC -Wall -Werror -o migrations.so migrations.c \
   $(PKG_CONFIG_PATH="$tmp/pkgconfig" pkg-config --cflags --libs chronoscope-plugin-1)) >"$tmp/cc.log" 2>&1
ok $? "cc -shared -fPIC migrations.c \$(pkg-config --cflags --libs chronoscope-plugin-1)" ||
  sed 's/^/# /' "$tmp/cc.log"

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
