#!/usr/bin/env python3
"""The plugin loader on the real executable (TAP).

usage: check-loader.py CHRONOSCOPE PLUGIN_DIR EXAMPLE.so RECORDING ORACLE

Loads refused plugins (another API version, a shared object without the
entry symbol, a file that is not a shared object, a plugin that calls an
internal function the executable does not export) with -p next to the
example plugin, and checks that each refusal names the file and the
reason while the command carries on and the example plugin still works.
The example's count of sched_migrate_task events is compared with
`trace-cmd report`'s (the oracle), not with Chronoscope's own index.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap import Tap  # noqa: E402

exe, plugin_dir, example, recording, oracle = sys.argv[1:6]
tap = Tap('cs-loader-')
tmp, env, ok = tap.tmp, tap.env, tap.ok


def info(*plugin_args, extra_env=None):
    run_env = dict(env, **(extra_env or {}))
    p = subprocess.run([exe, 'info', recording, '--json'] + list(plugin_args),
                       capture_output=True, text=True, env=run_env, timeout=120)
    return p


expected = json.loads(subprocess.run([sys.executable, oracle, recording], capture_output=True,
                                     text=True, check=True).stdout)
n_migrations = expected['events'].get('sched:sched_migrate_task', 0)

garbage = os.path.join(tmp, 'garbage.so')
with open(garbage, 'w') as f:
    f.write('not an ELF file\n')

refused = [
    (os.path.join(plugin_dir, 'bad-version.so'), 'was built for plugin API 42'),
    (os.path.join(plugin_dir, 'no-entry.so'), 'has no chronoscope_plugin_entry() function'),
    (garbage, 'is not a plugin: it cannot be loaded as a shared object'),
    (os.path.join(plugin_dir, 'internal-symbol.so'), 'it needs cs_document_get_n_cpus, which this Chronoscope does not provide'),
]
for path, reason in refused:
    p = info('-p', path, '-p', example)
    ok(p.returncode == 0, '%s: info carries on (exit 0)' % os.path.basename(path), p.stderr)
    ok(path in p.stderr and reason in p.stderr,
       '%s: refused with its file and "%s"' % (os.path.basename(path), reason), p.stderr)
    try:
        got = json.loads(p.stdout)
    except ValueError as e:
        got = {}
    ok(got.get('migrations', {}).get('n_migrations') == n_migrations,
       '%s: the example plugin still loaded, %d migrations as trace-cmd report shows'
       % (os.path.basename(path), n_migrations), p.stdout[-2000:])

# The pass's results are kept with the index and reused: a second run
# leaves them untouched.
cache = os.path.join(tmp, 'cache', 'chronoscope')
results = sorted(f for f in os.listdir(cache) if f.endswith('.cspass'))
stamps = {f: os.stat(os.path.join(cache, f)).st_mtime_ns for f in results}
p = info('-p', example)
ok(len(results) == 1 and '.migrations.migrations.' in results[0] and
   stamps == {f: os.stat(os.path.join(cache, f)).st_mtime_ns for f in results},
   'the pass results are kept next to the index and reused', results)

# The other ways to give a plugin: --plugin=FILE, CHRONOSCOPE_PLUGIN_PATH,
# $XDG_DATA_HOME/chronoscope/plugins/.
p = info('--plugin=' + example)
ok(p.returncode == 0 and json.loads(p.stdout).get('migrations', {}).get('n_migrations') == n_migrations,
   '--plugin=FILE loads it', p.stderr)
folder = os.path.join(tmp, 'path-plugins')
os.makedirs(folder)
shutil.copy(example, folder)
p = info(extra_env={'CHRONOSCOPE_PLUGIN_PATH': '/nonexistent:' + folder})
ok(p.returncode == 0 and 'migrations' in json.loads(p.stdout), 'CHRONOSCOPE_PLUGIN_PATH loads it', p.stderr)
# -p comes first: the same plugin found again later is listed as refused.
p = info('-p', example, extra_env={'CHRONOSCOPE_PLUGIN_PATH': folder})
copy = os.path.join(folder, os.path.basename(example))
ok(p.returncode == 0 and 'migrations' in json.loads(p.stdout) and
   copy in p.stderr and 'has the same id' in p.stderr,
   'a second file with the same id is refused, naming both', p.stderr)
user = os.path.join(tmp, 'data', 'chronoscope', 'plugins')
os.makedirs(user)
shutil.copy(example, user)
p = info()
ok(p.returncode == 0 and 'migrations' in json.loads(p.stdout), '$XDG_DATA_HOME/chronoscope/plugins loads it', p.stderr)
shutil.rmtree(user)
p = info()
ok(p.returncode == 0 and 'migrations' not in json.loads(p.stdout), 'without it, no plugin section', p.stdout)

# Its subcommand, listed in --help.
p = subprocess.run([exe, '--help', '-p', example], capture_output=True, text=True, env=env, timeout=60)
ok('chronoscope migrations' in p.stdout, '--help lists the plugin command', p.stdout)
p = subprocess.run([exe, 'migrations', recording, '-p', example], capture_output=True, text=True,
                   env=env, timeout=120)
lines = [l for l in p.stdout.splitlines() if ' -> CPU ' in l]
ok(p.returncode == 0 and len(lines) == n_migrations, 'the plugin command lists %d migrations' % n_migrations,
   p.stdout + p.stderr)

# The executable of the build tree, as a person runs it (issue 22): with no
# CHRONOSCOPE_* variable it loads its own build tree's built-in plugins, so
# a built-in's command works; without built-ins an unknown command says so,
# instead of reaching the window's "Unknown option".
plain_env = {k: v for k, v in env.items() if not k.startswith('CHRONOSCOPE_')}
p = subprocess.run([exe, 'latency', recording, '--preset', 'wakeup', '--top', '1'],
                   capture_output=True, text=True, env=plain_env, timeout=120)
ok(p.returncode == 0 and 'Pairs:' in p.stdout,
   'the uninstalled executable runs its build tree\'s latency plugin', p.stdout + p.stderr)
p = subprocess.run([exe, 'latency', recording, '--preset', 'wakeup'], capture_output=True, text=True,
                   env=dict(plain_env, CHRONOSCOPE_PLUGIN_SYSTEM_PATH=''), timeout=60)
ok(p.returncode == 1 and '“latency”' in p.stderr and 'Unknown option' not in p.stderr and
   'CHRONOSCOPE_PLUGIN_SYSTEM_PATH' in p.stderr,
   'without built-ins, `latency` says it is no command of a plugin loaded', p.stderr)

tap.finish()
