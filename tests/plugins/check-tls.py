#!/usr/bin/env python3
"""No plugin built here has thread-local variables of its own (TAP).

usage: check-tls.py PLUGIN.so...

A plugin is dlopen()ed, so its __thread variables would live in dynamic
TLS blocks that glibc malloc()s on each thread's first use
(__tls_get_addr).  GCC 12's AddressSanitizer runtime (Debian 12's
libasan8) misreads such a block when it happens to start 16 bytes past a
page boundary, and LeakSanitizer's tracer then crashes at exit ("Tracer
caught signal 11", google/sanitizers#1322): the ASan suite failed now and
then that way while the latency plugin had __thread variables
(plugins/latency/explain/cs-explain-steps.c says more).  A per-thread
value in a plugin goes behind a GPrivate instead.

The check reads each module's ELF program headers: a PT_TLS segment is
what __thread variables make.
"""
import os
import struct
import sys

PT_TLS = 7


def tls_segment(path):
    """Whether the ELF file at @path has a PT_TLS program header."""
    with open(path, 'rb') as f:
        head = f.read(64)
        if head[:4] != b'\x7fELF':
            raise ValueError('%s is not an ELF file' % path)
        order = '<' if head[5] == 1 else '>'
        if head[4] == 2:  # ELFCLASS64
            phoff, = struct.unpack_from(order + 'Q', head, 0x20)
            phentsize, phnum = struct.unpack_from(order + 'HH', head, 0x36)
        else:
            phoff, = struct.unpack_from(order + 'I', head, 0x1c)
            phentsize, phnum = struct.unpack_from(order + 'HH', head, 0x2a)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    return any(struct.unpack_from(order + 'I', table, i * phentsize)[0] == PT_TLS
               for i in range(phnum))


failed = False
for n, path in enumerate(sys.argv[1:], 1):
    name = os.path.basename(path)
    if tls_segment(path):
        failed = True
        print('not ok %d - %s has no thread-local variables' % (n, name))
        print('# it has a PT_TLS segment: a __thread variable of a plugin makes LeakSanitizer\'s')
        print('# tracer crash now and then under GCC 12 (see this script\'s docstring); use a GPrivate')
    else:
        print('ok %d - %s has no thread-local variables' % (n, name))
print('1..%d' % (len(sys.argv) - 1))
sys.exit(1 if failed else 0)
