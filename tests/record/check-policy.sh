#!/bin/sh
# Checks the polkit policy the window records with.
#
# usage: check-policy.sh POLICY HELPER
# The policy must be well-formed, valid against polkit's DTD when it is
# installed (/usr/share/polkit-1/policyconfig-1.dtd), and name the record
# helper as the program pkexec may run; the built helper (render/cli/) must
# be an executable of that name.
set -eu

policy=$1
helper=$2
dtd=/usr/share/polkit-1/policyconfig-1.dtd

command -v xmllint >/dev/null || { echo "xmllint is missing (libxml2-utils)"; exit 77; }

if [ -f "$dtd" ]; then
  xmllint --noout --dtdvalid "$dtd" "$policy"
  echo "ok: $policy is valid against $dtd"
else
  xmllint --noout "$policy"
  echo "ok: $policy is well-formed ($dtd not installed)"
fi

path=$(xmllint --xpath 'string(//annotate[@key="org.freedesktop.policykit.exec.path"])' "$policy")
case $path in
  /*/chronoscope-record-helper) echo "ok: exec.path is $path" ;;
  *) echo "FAIL: exec.path is '$path'"; exit 1 ;;
esac

[ "$(basename "$helper")" = "$(basename "$path")" ] && [ -x "$helper" ] ||
  { echo "FAIL: $helper is not the executable $path names"; exit 1; }
echo "ok: $helper"
