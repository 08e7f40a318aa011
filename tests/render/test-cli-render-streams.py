#!/usr/bin/env python3
"""`chronoscope render FILE --add FILE2` draws both on one axis (issue 25), TAP.

Runs the built executable ($CHRONOSCOPE) in a private cache.  Two
recordings of tests/data ($CS_TESTDATA) of one machine and clock must be
said to line up as recorded, and the picture (PNG, read here by its IHDR
chunk) must be as tall as the first recording's plain picture plus the
second's group and the two header rows; an SVG and a PDF are written too.
A recording of another machine is said not to be aligned.  On the real
KVM pair ($CS_SHARED_TESTDATA/../kvm; skipped with a message when absent)
the guest is said to be converted by its TIME_SHIFT option.
"""

import os
import struct
import tempfile

from cli_tap import check, kvm_dir, main_in_private_cache, report, run

HEADER_PX = 34   # CS_STREAM_HEADER_HEIGHT_PX


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def check_same_clock(data, out):
    a = os.path.join(data, "sched-irq-v7.dat")
    b = os.path.join(data, "sched-prio-migrate-v7.dat")
    one, two, three = (os.path.join(out, n) for n in ("one.png", "two.png", "b.png"))
    rc1, _, err1 = run("render", a, "--plain", "--width", "700", "-o", one)
    rc2, _, err2 = run("render", a, "--add", b, "--width", "700", "-o", two)
    rc3, _, err3 = run("render", b, "--plain", "--width", "700", "-o", three)
    check("render of one recording", rc1 == 0 and rc3 == 0, err1 + err3)
    check("render --add of a second one", rc2 == 0, err2)
    check("the second is said to line up as recorded", "as recorded" in err2, err2)
    s1, s2, s3 = png_size(one), png_size(two), png_size(three)
    check("the picture holds both groups and their headers",
          s1 and s2 and s3 and s2[0] == 700 and s2[1] >= s1[1] + s3[1] + 2 * HEADER_PX,
          "%s %s %s" % (s1, s2, s3))
    for ext in ("svg", "pdf"):
        path = os.path.join(out, "two." + ext)
        rc, _, err = run("render", a, "--add", b, "--width", "700", "-o", path)
        with open(path, "rb") as f:
            start = f.read(5)
        check("render --add writes a %s" % ext.upper(),
              rc == 0 and (start.startswith(b"<?xml") or start.startswith(b"<svg") or start == b"%PDF-"),
              err)


def check_unrelated(data, out):
    rc, _, err = run("render", os.path.join(data, "sched-irq-v7.dat"),
                     "--add", os.path.join(data, "sched-i686-v6.dat"),
                     "-o", os.path.join(out, "u.png"))
    check("a recording of another machine is not aligned, and said so",
          rc == 0 and "Not aligned" in err and "shift it by hand" in err, err)


def check_pair(kvm, out):
    rc, _, err = run("render", os.path.join(kvm, "kvm-host-x86-v7-zlib.dat"),
                     "--add", os.path.join(kvm, "kvm-guest-x86-v7-zlib.dat"),
                     "-o", os.path.join(out, "kvm.png"))
    check("the KVM guest is converted to its host's clock",
          rc == 0 and "Guest of kvm-host-x86-v7-zlib.dat" in err and "TIME_SHIFT" in err, err)


def main():
    data = os.environ["CS_TESTDATA"]
    with tempfile.TemporaryDirectory() as out:
        check_same_clock(data, out)
        check_unrelated(data, out)
        kvm = kvm_dir()
        if kvm is not None:
            check_pair(kvm, out)

    return report()


if __name__ == "__main__":
    main_in_private_cache(main)
