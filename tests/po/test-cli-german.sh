#!/bin/bash
# test-cli-german.sh: the chronoscope CLI under LC_ALL=de_DE.UTF-8 speaks German
# (help, messages, tables) with German number formatting, while --json and
# --csv stay locale-free; the merged desktop file and metainfo carry German.
#
# Environment (set by tests/po/meson.build):
#   CHRONOSCOPE             the built executable
#   CHRONOSCOPE_LOCALEDIR   build/po, holding de/LC_MESSAGES/chronoscope.mo
#   CS_SAMPLE               a trace.dat recording (data/sample/sample.dat)
#   CS_DESKTOP, CS_METAINFO the merged data files
# Prints TAP; exits 1 when any check fails.
set -uo pipefail

locales=$(locale -a 2>/dev/null)
if ! grep -qiE '^de_DE\.utf-?8$' <<<"$locales"; then
  echo "Bail out! the de_DE.UTF-8 locale is missing: install the Debian package locales-all"
  exit 1
fi
export LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 LANGUAGE=de

n=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME FILE REGEX: FILE has a line matching the extended REGEX
check () {
  n=$((n + 1))
  if grep -qE -- "$3" "$2"; then
    echo "ok $n - $1"
  else
    echo "not ok $n - $1: no line matches /$3/ in:"
    sed 's/^/# /' "$2" | head -40
    failed=1
  fi
}
# check_not NAME FILE REGEX: no line of FILE matches REGEX
check_not () {
  n=$((n + 1))
  if grep -qE -- "$3" "$2"; then
    echo "not ok $n - $1: a line matches /$3/:"
    grep -E -- "$3" "$2" | sed 's/^/# /' | head -10
    failed=1
  else
    echo "ok $n - $1"
  fi
}

"$CHRONOSCOPE" --help > "$tmp/help" 2>&1
check "--help is German" "$tmp/help" 'Befehle, die keine Anzeige brauchen'
check "--help shows the latency plugin's command summary in German" "$tmp/help" \
  'chronoscope latency .*A → B-Latenzpaare messen'
"$CHRONOSCOPE" stats --help > "$tmp/stats-help" 2>&1
check "stats --help option descriptions are German" "$tmp/stats-help" 'Die Statistik als JSON ausgeben'

"$CHRONOSCOPE" info > "$tmp/info-missing" 2>&1
check "info without FILE says so in German" "$tmp/info-missing" 'Argument DATEI fehlt \(siehe --help\)'
"$CHRONOSCOPE" info "$tmp" > "$tmp/info-folder" 2>&1
check "info on a folder says so in German" "$tmp/info-folder" 'Keine reguläre Datei'

: > "$tmp/empty.dat"
"$CHRONOSCOPE" info "$tmp/empty.dat" > "$tmp/info-empty" 2>&1
check "info on an empty file explains in German" "$tmp/info-empty" 'ist leer, keine trace-cmd-Aufzeichnung'

# Messages built in index/ (the trace.dat reader, the format sniffer) are
# translated too, not only the CLI's own.
head -c 3000 "$CS_SAMPLE" > "$tmp/truncated.dat"
"$CHRONOSCOPE" info "$tmp/truncated.dat" > "$tmp/info-truncated" 2>&1
check "info on a truncated recording explains in German" "$tmp/info-truncated" \
  'truncated\.dat: .*Bytes bei Offset [0-9]+ reichen über das Dateiende hinaus \(3000 Bytes\)'
printf '\177ELF\002\001\001\000not a recording\000\001\002' > "$tmp/foreign.bin"
"$CHRONOSCOPE" info "$tmp/foreign.bin" > "$tmp/info-foreign" 2>&1
check "info on a foreign file explains in German" "$tmp/info-foreign" \
  'ist weder eine trace-cmd-Aufzeichnung noch Trace-Text.*; es liest trace-cmd-Aufzeichnungen'
check_not "info on a foreign file has no English left" "$tmp/info-foreign" \
  'is not a|Chronoscope reads|recordings \('

"$CHRONOSCOPE" info "$CS_SAMPLE" > "$tmp/info" 2>&1
check "info labels are German" "$tmp/info" '^Dateiversion: +7'
check "info plural: 2 CPUs" "$tmp/info" 'trace\.dat, 2 CPUs'
check "info durations have a decimal comma" "$tmp/info" '^Dauer: +[0-9]+,[0-9]+ s'

"$CHRONOSCOPE" stats "$CS_SAMPLE" > "$tmp/stats" 2>&1
check "stats headings are German" "$tmp/stats" '^Tasks nach CPU-Zeit'
check "stats event count is grouped with dots" "$tmp/stats" '^Ereignisse: [0-9]{1,3}(\.[0-9]{3})+$'
check "stats shares have a decimal comma" "$tmp/stats" ' [0-9]+,[0-9]{2}%'

"$CHRONOSCOPE" stats "$CS_SAMPLE" --json > "$tmp/stats.json" 2>&1
n=$((n + 1))
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/stats.json"; then
  echo "ok $n - stats --json stays valid JSON under a German locale"
else
  echo "not ok $n - stats --json is not JSON under a German locale"
  failed=1
fi
check_not "stats --json has no German words" "$tmp/stats.json" 'Ereignis|Spanne'

"$CHRONOSCOPE" query "$CS_SAMPLE" 'DELETE FROM events' > "$tmp/query-refused" 2>&1
check "query refuses a change in German" "$tmp/query-refused" 'SQL über eine Aufzeichnung ist nur lesend'

"$CHRONOSCOPE" query "$CS_SAMPLE" 'SELECT 1.5 AS x, 1234567 AS y' --csv 2>&1 | tr -d '\r' > "$tmp/query.csv"
check "query --csv keeps the decimal point and no grouping" "$tmp/query.csv" '^1\.5,1234567$'

check "the desktop file carries German" "$CS_DESKTOP" '^GenericName\[de\]=Betrachter für Kernel-Traces$'
check "the metainfo carries German" "$CS_METAINFO" 'xml:lang="de"'

echo "1..$n"
exit $failed
