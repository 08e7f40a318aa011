#!/usr/bin/env python3
"""No plugin built here has thread-local variables of its own (TAP).

usage: check-tls.py PLUGIN.so...

A plugin is dlopen()ed, so its __thread variables would live in dynamic
TLS blocks that glibc malloc()s on each thread's first use
(__tls_get_addr).  GCC 12's AddressSanitizer runtime (Debian 12's
libasan8) intercepts that call and, when such a block happens to start 16
bytes past a page boundary, takes the 16 bytes before it for the header
glibc 2.19 to 2.24 put there: it reads ASan's own chunk header as the
block's start and size, and at exit LeakSanitizer's tracer scans that
bogus range and dies ("Tracer caught signal 11 ... LeakSanitizer has
encountered a fatal error"; google/sanitizers#1322).  Where the block
lands depends on what was allocated before it, so the ASan suite failed
now and then, on a different recording each time, while the latency
plugin kept its explain steps' timers in __thread variables.  A
per-thread value of a plugin goes behind a GPrivate (a pthread key, no
TLS segment) instead, as plugins/latency/explain/cs-explain-steps.c does.

The check reads each module's program headers with binutils' readelf (as
check-sym.py reads symbols with nm): a TLS segment is what __thread
variables make.
"""
import os
import subprocess
import sys

from tap import Tap

t = Tap('cs-tls-')
for path in sys.argv[1:]:
    headers = subprocess.run(['readelf', '--program-headers', '--wide', path],
                             capture_output=True, text=True, check=True).stdout
    tls = [line.strip() for line in headers.splitlines() if line.split()[:1] == ['TLS']]
    t.ok(not tls, '%s has no thread-local variables' % os.path.basename(path),
         'it has a TLS segment (%s): a __thread variable of a plugin makes LeakSanitizer\'s '
         'tracer crash now and then under GCC 12 (see this script); use a GPrivate'
         % '; '.join(tls))
t.finish()
