#!/usr/bin/env python3
"""A plugin pass sees exactly the events `trace-cmd report` shows (TAP).

usage: check-pass.py CHRONOSCOPE CENSUS.so ORACLE RECORDING...

For each recording, the census test plugin (census.c) runs its pass in
the worker over every event type the oracle (tests/oracle/report-counts.py,
a parse of `trace-cmd report`) reports, given as "system:*" patterns, then
over two named types only; the counts per type, per CPU and in all must
equal the oracle's, and the events must arrive in time order.  Then once
more with CS_PASS_FEED_THREADS=0 (and a cache of its own), which reads the
events without the feed's threads, as for recordings libtracecmd reads:
the same census.  Recordings with instance buffers are skipped:
Chronoscope indexes the top buffer.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap, public_recording  # noqa: E402

exe, census, oracle = sys.argv[1:4]
recordings = sys.argv[4:]
tap = Tap('cs-pass-')
tmp, env, ok = tap.tmp, tap.env, tap.ok


serial_env = dict(env, CS_PASS_FEED_THREADS='0',
                  XDG_CACHE_HOME=os.path.join(tmp, 'cache-serial'))


def census_of(recording, types, run_env=env):
    p = subprocess.run([exe, 'census', recording, ','.join(types), '-p', census],
                       capture_output=True, text=True, env=run_env, timeout=600)
    if p.returncode != 0:
        return None, p.stderr
    return json.loads(p.stdout), p.stderr


for recording in recordings:
    name = os.path.basename(recording)
    if recording.startswith('public/'):
        recording, why = public_recording(recording[len('public/'):])
        if recording is None:
            tap.skip('%s: the pass sees what trace-cmd report shows' % name, why)
            continue
    o = subprocess.run([sys.executable, oracle, recording], capture_output=True, text=True)
    if o.returncode != 0:
        print('# %s: trace-cmd cannot read it, skipped' % name)
        continue
    expected = json.loads(o.stdout)
    if set(expected.get('buffers', {'': 0})) != {''} or expected['n_events'] == 0:
        print('# %s: instance buffers or no events, skipped' % name)
        continue
    systems = sorted({t.split(':')[0] for t in expected['events']})
    got, err = census_of(recording, [s + ':*' for s in systems])
    ok(got is not None, '%s: the pass ran over every system' % name, err)
    if got is None:
        continue
    ok(got['n_events'] == expected['n_events'],
       '%s: %d events, as trace-cmd report' % (name, expected['n_events']), got['n_events'])
    ok(got['cpus'] == expected['cpus'], '%s: events per CPU as trace-cmd report' % name,
       '%s\n%s' % (got['cpus'], expected['cpus']))
    ok(got['events'] == expected['events'], '%s: events per type as trace-cmd report' % name,
       json.dumps({k: (got['events'].get(k), expected['events'].get(k))
                   for k in set(got['events']) | set(expected['events'])
                   if got['events'].get(k) != expected['events'].get(k)}))
    ok(got['ordered'], '%s: in time order over all CPUs' % name)
    serial, err = census_of(recording, [s + ':*' for s in systems], serial_env)
    ok(serial == got, '%s: the same census read without the feed\'s threads' % name,
       err if serial is None else '%s\n%s' % (serial, got))

    # Two named types only (the most frequent and the rarest).
    ranked = sorted(expected['events'].items(), key=lambda kv: (-kv[1], kv[0]))
    some = sorted({ranked[0][0], ranked[-1][0]})
    got, err = census_of(recording, some + ['nosuch:event'])
    ok(got is not None and got['events'] == {t: expected['events'][t] for t in some},
       '%s: only %s, as trace-cmd report' % (name, ', '.join(some)), err if got is None else got)
    # The threads skip the chunks without these types (their types'
    # dictionary says so); without threads every chunk is decoded.
    serial, err = census_of(recording, some + ['nosuch:event'], serial_env)
    ok(serial is not None and serial == got,
       '%s: only %s, the same without the feed\'s threads' % (name, ', '.join(some)),
       err if serial is None else '%s\n%s' % (serial, got))

# A parameter the pass refuses: CS_PLUGIN_ERROR_USAGE crosses the worker.
p = subprocess.run([exe, 'census', recordings[0], '', '-p', census],
                   capture_output=True, text=True, env=env, timeout=120)
ok(p.returncode == 2 and 'census needs a list of event types' in p.stderr,
   'a pass refusing its parameter is a usage error with its message', p.stderr)

# Results an older version of the pass left are removed when the pass
# stores new ones; a newer version's (another build sharing the cache) and
# this version's stay.
def pass_files():
    found = []
    for root, _, files in os.walk(os.path.join(tmp, 'cache')):
        found += [os.path.join(root, f) for f in files if f.endswith('.cspass')]
    return sorted(found)


def forge(source, hash_, version):
    target = source.rsplit('.', 2)[0] + '.' + hash_ + '.cspass'
    shutil.copyfile(source, target)
    db = sqlite3.connect(target)
    db.execute("UPDATE chronoscope_pass SET value = ? WHERE key = 'version'", (str(version),))
    db.commit()
    db.close()
    return target


before = pass_files()
first = census_of(recordings[0], ['sched:*', 'nosuch:first'])[0]
current = sorted(set(pass_files()) - set(before))
ok(first is not None and len(current) == 1, 'a pass stores its results next to the index', current)
if len(current) == 1:
    db = sqlite3.connect(current[0])
    version = int(db.execute("SELECT value FROM chronoscope_pass WHERE key = 'version'").fetchone()[0])
    db.close()
    older = forge(current[0], '0' * 16, version - 1)
    newer = forge(current[0], 'f' * 16, version + 1)
    again = census_of(recordings[0], ['sched:*', 'nosuch:again'])[0]
    left = pass_files()
    ok(again is not None and older not in left,
       'storing new results removes an older version\'s', left)
    ok(newer in left and current[0] in left,
       'a newer version\'s results and this version\'s stay', left)

tap.finish()
