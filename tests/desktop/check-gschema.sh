#!/bin/bash
# Checks the compiled GSettings schema in the build folder: every key the GUI
# reads is there with the documented default.
#
# usage: check-gschema.sh SCHEMAS_DIR
set -euo pipefail

schemas_dir=$1
schema=org.chronoscope.Chronoscope
export GSETTINGS_BACKEND=memory

failed=0
expect() {  # expect KEY VALUE
  local got
  if ! got=$(gsettings --schemadir "$schemas_dir" get "$schema" "$1" 2>&1); then
    echo "FAIL: $1: $got"; failed=1
  elif [[ $got != "$2" ]]; then
    echo "FAIL: $1 is $got, expected $2"; failed=1
  else
    echo "ok: $1 = $got"
  fi
}

expect window-width 1280
expect window-height 800
expect window-maximized false
expect last-directory "''"
expect graph-follows true
expect restore-session false
expect disabled-plugins '@as []'
expect record-events "['sched']"
expect record-filters "@a{ss} {}"
expect record-duration 0.0
expect record-buffer-size-kb "uint32 0"
expect record-clock "'local'"
expect record-tracer "''"
expect record-tracer-optional true
expect record-stacktrace false
expect demo-module "''"
expect color-scheme "'default'"

keys=$(gsettings --schemadir "$schemas_dir" list-keys "$schema" | sort | tr '\n' ' ')
want='color-scheme demo-module disabled-plugins graph-follows last-directory record-buffer-size-kb record-clock record-command record-command-only record-cpumask record-directory record-duration record-events record-extra-events record-filters record-follow-children record-pids record-stacktrace record-tracer record-tracer-optional restore-session window-height window-maximized window-width '
if [[ $keys != "$want" ]]; then
  echo "FAIL: keys are '$keys', expected '$want' (update this test and the README when adding one)"
  failed=1
fi
exit $failed
