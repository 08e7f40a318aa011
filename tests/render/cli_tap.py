"""What the render/ CLI tests share: $CHRONOSCOPE in a private cache, TAP.

check() records a result, skip() a skipped check, run() runs the built
executable with -q in the C.UTF-8 locale and the cache set by set_cache()
(main_in_private_cache() makes one), kvm_dir() finds the real KVM pair,
report() prints the TAP lines and returns the exit status.
"""

import os
import subprocess
import sys
import tempfile

RESULTS = []
SKIPS = []
_CACHE = [None]


def set_cache(path):
    _CACHE[0] = path


def check(name, ok, detail=""):
    RESULTS.append((name, bool(ok), detail))


def skip(reason):
    SKIPS.append(reason)


def run(*args):
    """(exit status, stdout, stderr) of `chronoscope -q ARGS`."""
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = _CACHE[0]
    env["LC_ALL"] = "C.UTF-8"
    proc = subprocess.run([os.environ["CHRONOSCOPE"], "-q"] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=env, timeout=300)
    return proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")


def kvm_dir():
    """../shared/testdata/kvm when it holds the real KVM pair, else None
    (and a skipped check saying so)."""
    pub = os.environ.get("CS_SHARED_TESTDATA", "")
    kvm = os.path.normpath(os.path.join(pub, "..", "kvm")) if pub else ""
    if kvm and os.path.exists(os.path.join(kvm, "kvm-guest-x86-v7-zlib.dat")):
        return kvm
    skip("the real KVM pair: ../shared/testdata/kvm is absent")
    return None


def main_in_private_cache(main):
    """Exits with main()'s status, run with a cache of its own."""
    with tempfile.TemporaryDirectory() as d:
        set_cache(d)
        sys.exit(main())


def report():
    print("1..%d" % (len(RESULTS) + len(SKIPS)))
    failed = False
    for n, (name, ok, detail) in enumerate(RESULTS, 1):
        print("%s %d %s" % ("ok" if ok else "not ok", n, name))
        if not ok:
            failed = True
            for line in str(detail).splitlines() or [""]:
                print("# " + line)
    for n, reason in enumerate(SKIPS, len(RESULTS) + 1):
        print("ok %d # SKIP %s" % (n, reason))
    return 1 if failed else 0
