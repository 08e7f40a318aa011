#!/bin/bash
# Lays the built desktop file, metainfo and icons out as they are installed and
# lets appstreamcli check them together: the metainfo's launchable must name
# the desktop file, and the desktop file's Icon= must exist in hicolor.
#
# usage: check-tree.sh APP_ID DESKTOP_FILE METAINFO_FILE ICONS_DIR
set -euo pipefail

app_id=$1 desktop=$2 metainfo=$3 icons=$4

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cs-tree.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
share=$tmp/usr/share
mkdir -p "$share/applications" "$share/metainfo" "$share/icons"
cp "$desktop" "$share/applications/"
cp "$metainfo" "$share/metainfo/"
cp -r "$icons" "$share/icons/"

failed=0
icon=$(sed -n 's/^Icon=//p' "$desktop")
if [[ $icon != "$app_id" ]]; then
  echo "FAIL: Icon=$icon, expected $app_id"; failed=1
fi
for f in "scalable/apps/$app_id.svg" "symbolic/apps/$app_id-symbolic.svg"; do
  if ! xmllint --noout "$share/icons/hicolor/$f"; then
    echo "FAIL: icon $f is missing or not well-formed"; failed=1
  elif ! grep -q '<svg' "$share/icons/hicolor/$f"; then
    echo "FAIL: icon $f is not an SVG"; failed=1
  else
    echo "ok: icon $f"
  fi
done

appstreamcli validate-tree --no-net --explain "$tmp" || failed=1
exit $failed
