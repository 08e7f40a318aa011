#!/usr/bin/env python3
"""The executable exports exactly the plugin API (TAP).

usage: check-sym.py SYM_FILE CHRONOSCOPE HEADER...

Every function declared in the public headers is in the dynamic list
(chronoscope-plugin.sym) and the other way round, and the executable's
dynamic symbol table defines exactly those (nothing of Chronoscope's
internals is visible to plugins).
"""
import re
import subprocess
import sys

sym_file, exe, headers = sys.argv[1], sys.argv[2], sys.argv[3:]
listed = set(re.findall(r'^\s*(\w+);', open(sym_file).read(), re.M))
declared = set()
for h in headers:
    text = re.sub(r'/\*.*?\*/', '', open(h).read(), flags=re.S)
    text = re.sub(r'#define[^\n]*(\\\n[^\n]*)*', '', text)
    for m in re.finditer(r'\b(cs_plugin_\w+)\s*\(', text):
        before = text[:m.start()].rstrip()
        if before.endswith('(*') or before.endswith('('):
            continue
        declared.add(m.group(1))
nm = subprocess.run(['nm', '-D', '--defined-only', exe], capture_output=True, text=True, check=True)
exported = set()
for line in nm.stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in 'TtDdBbRrVvWwi' and not parts[2].startswith('_'):
        exported.add(parts[2])
exported -= {'main', 'data_start', 'edata', 'end'}

n = 0
failed = False
for what, got, want in [('dynamic list = header declarations', listed, declared),
                        ('exported symbols = dynamic list', exported, listed)]:
    n += 1
    if got == want:
        print('ok %d - %s (%d)' % (n, what, len(got)))
    else:
        failed = True
        print('not ok %d - %s' % (n, what))
        print('# only left: %s' % sorted(got - want))
        print('# only right: %s' % sorted(want - got))
print('1..%d' % n)
sys.exit(1 if failed else 0)
