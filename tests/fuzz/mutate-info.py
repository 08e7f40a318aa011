#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Mutation test: damaged copies of the test recordings through `chronoscope info`.

For every recording in tests/data/*.dat, --mutants damaged copies are made
from a deterministic seed (the same copies on every run and machine): bits
flipped, bytes and 2/4/8-byte fields overwritten with telling values (0, -1,
0x7f.., 0x80.., random), chunks duplicated or cut out, the file truncated;
one to three such changes each, half of them in the first 64 KiB where the
headers, formats and section tables are.

Each copy is opened with `chronoscope info FILE` in its own session, with a
private XDG_CACHE_HOME and a timeout.  What must hold for every copy:

  - no signal death of `chronoscope info` (exit 0 or 1 only);
  - no hang: it ends within --timeout seconds;
  - a failure is a named error: exit status 1 and a last stderr line
    "chronoscope info: ... FILE ...: reason" naming the copy;
  - nothing left behind: no process of its session once it has exited
    (the index worker dies with it), and no *.tmp* file in the cache.

Lines the libraries print on stderr before that last line (libtracecmd's
"mmap: ..." chatter) are counted, not failures.  Copies that break a rule
are kept in --keep (default: a folder named in the output) with the command
that reproduces them; they are what tests/data/damaged/ regression files
are made from (tests/fuzz/README.md).

With FILE arguments instead of --data, each FILE (a regression file from
tests/data/damaged/) is checked by the same rules once, and must fail: a
file that opens without an error fails the check.

Exit status: 0 when every copy passed, 1 otherwise, 2 on a usage error.
"""

import argparse
import concurrent.futures
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

INTERESTING = [
    b"\x00", b"\xff", b"\x7f", b"\x80",
    b"\x00\x00", b"\xff\xff", b"\xff\x7f", b"\x00\x80",
    b"\x00\x00\x00\x00", b"\xff\xff\xff\xff", b"\xff\xff\xff\x7f", b"\x00\x00\x00\x80",
    b"\x00\x10\x00\x00", b"\x00\x00\x01\x00",
    b"\x00" * 8, b"\xff" * 8, b"\xff" * 7 + b"\x7f", b"\x00" * 7 + b"\x80",
]


def pick_offset(rng, size):
    """Half in the first 64 KiB (headers, formats, options), half anywhere."""
    if size <= 1:
        return 0
    if rng.random() < 0.5:
        return rng.randrange(min(size, 65536))
    return rng.randrange(size)


def mutate(rng, data):
    """Returns (damaged bytes, description) made with one to three changes."""
    data = bytearray(data)
    steps = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        size = len(data)
        if size == 0:
            break
        kind = rng.choice(("flip", "flip", "byte", "field", "field", "dup", "cut", "truncate"))
        off = pick_offset(rng, size)
        if kind == "flip":
            bit = rng.randrange(8)
            data[off] ^= 1 << bit
            steps.append(f"flip bit {bit} at {off}")
        elif kind == "byte":
            value = rng.randrange(256)
            data[off] = value
            steps.append(f"byte 0x{value:02x} at {off}")
        elif kind == "field":
            value = rng.choice(INTERESTING + [bytes(rng.randrange(256) for _ in range(rng.choice((2, 4, 8))))])
            value = value[: size - off]
            data[off:off + len(value)] = value
            steps.append(f"bytes {value.hex()} at {off}")
        elif kind == "dup":
            length = min(rng.choice((1, 8, 64, 512, 4096)), size - off)
            chunk = data[off:off + length]
            at = pick_offset(rng, size)
            data[at:at] = chunk
            steps.append(f"duplicate {length} bytes from {off} at {at}")
        elif kind == "cut":
            length = min(rng.choice((1, 8, 64, 512, 4096)), size - off)
            del data[off:off + length]
            steps.append(f"cut {length} bytes at {off}")
        else:
            del data[off:]
            steps.append(f"truncate at {off}")
    return bytes(data), "; ".join(steps)


def session_alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def run_one(args, work, stem, data, description, must_fail=False):
    """Runs one copy; returns (verdict, detail, extra stderr lines, seconds)
    with verdict one of 'ok', 'error', 'crash-contained' or 'FAIL'."""
    path = os.path.join(work, stem + ".dat")
    cache = os.path.join(work, stem + ".cache")
    with open(path, "wb") as f:
        f.write(data)
    os.mkdir(cache)
    env = dict(os.environ, XDG_CACHE_HOME=cache, LC_ALL="C.UTF-8")
    env.pop("G_MESSAGES_DEBUG", None)
    problems = []
    proc = subprocess.Popen([args.chronoscope, "info", path], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    start = time.monotonic()
    try:
        _, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
        problems.append(f"hang: still running after {args.timeout} s")
    elapsed = time.monotonic() - start
    rc = proc.returncode
    err = err.decode("utf-8", "replace")
    lines = [l for l in err.splitlines() if l.strip()]

    # The worker must not outlive the command (it is in the same session).
    deadline = time.monotonic() + 2.0
    while session_alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if session_alive(proc.pid):
        os.killpg(proc.pid, signal.SIGKILL)
        problems.append("a process of its session outlived `chronoscope info`")

    if not problems:
        if rc < 0:
            problems.append(f"killed by signal {-rc} ({signal.Signals(-rc).name})")
        elif rc not in (0, 1):
            problems.append(f"exit status {rc}")
        elif rc == 0 and must_fail:
            problems.append("opened without an error")
        elif rc == 1:
            last = lines[-1] if lines else ""
            base = os.path.basename(path)
            # The reason may come before the name ("The indexer crashed
            # ... while reading “FILE”") or after it ("FILE: ...").
            rest = last[len("chronoscope info: "):].replace(path, "").replace(base, "")
            reason = [w for w in rest.split() if sum(c.isalpha() for c in w) >= 2]
            if not last.startswith("chronoscope info: ") or base not in last or len(reason) < 2:
                problems.append(f"exit 1 without a named error naming the file: {last!r}")

    left = []
    for root, _, files in os.walk(cache):
        left += [os.path.join(root, f) for f in files if ".tmp" in f]
    if left:
        problems.append("left in the cache: " + ", ".join(os.path.basename(f) for f in left))

    detail = f"{stem} [{description}] rc={rc} {elapsed:.2f} s"
    if problems:
        keep = os.path.join(args.keep, stem + ".dat")
        os.makedirs(args.keep, exist_ok=True)
        shutil.copyfile(path, keep)
        detail += ": " + "; ".join(problems) + f"\n    kept as {keep}\n    last stderr: {lines[-1] if lines else ''!r}"
        verdict = "FAIL"
    elif rc == 0:
        verdict = "ok"
    elif "crashed" in lines[-1]:
        verdict = "crash-contained"
        detail += ": " + lines[-1]
    else:
        verdict = "error"
    extra = max(len(lines) - 1, 0) if rc == 1 else len(lines)
    shutil.rmtree(cache, ignore_errors=True)
    os.unlink(path)
    return verdict, detail, extra, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chronoscope", required=True, help="the built executable (build/gui/chronoscope)")
    parser.add_argument("--data", help="folder of *.dat recordings to damage (tests/data)")
    parser.add_argument("--mutants", type=int, default=200, help="damaged copies per recording (default 200)")
    parser.add_argument("--seed", type=int, default=10, help="random seed (default 10)")
    parser.add_argument("--jobs", type=int, default=max(os.cpu_count() or 1, 1),
                        help="copies run at once (default: the number of CPUs)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds before a copy counts as a hang (default 30)")
    parser.add_argument("--keep", help="where failing copies are kept")
    parser.add_argument("damaged", nargs="*",
                        help="instead of making copies, check these damaged recordings, "
                             "each of which must fail with a named error")
    args = parser.parse_args()

    if args.damaged:
        recordings = args.damaged
    elif args.data:
        recordings = sorted(glob.glob(os.path.join(args.data, "*.dat")))
    else:
        parser.error("give --data or damaged files")
    if not recordings:
        print(f"mutate-info: no *.dat in {args.data}", file=sys.stderr)
        return 2
    if not os.access(args.chronoscope, os.X_OK):
        print(f"mutate-info: {args.chronoscope} is not an executable", file=sys.stderr)
        return 2

    work = tempfile.mkdtemp(prefix="cs-mutants-")
    args.keep = args.keep or os.path.join(tempfile.gettempdir(), "cs-mutants-failed")
    counts = {"ok": 0, "error": 0, "crash-contained": 0, "FAIL": 0}
    failures, contained = [], []
    n_chatter = 0
    slowest = (0.0, "")
    start = time.monotonic()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = []
            for recording in recordings:
                name = os.path.basename(recording)
                stem = os.path.splitext(name)[0]
                with open(recording, "rb") as f:
                    original = f.read()
                if args.damaged:
                    futures.append(pool.submit(run_one, args, work, stem, original,
                                               "as committed", True))
                    continue
                # One generator per recording: adding a recording does not
                # change the copies of the others.
                rng = random.Random(f"{args.seed}:{name}")
                for i in range(args.mutants):
                    data, description = mutate(rng, original)
                    futures.append(pool.submit(run_one, args, work, f"{stem}-m{i:04d}",
                                               data, description))
            for future in futures:
                verdict, detail, extra, elapsed = future.result()
                counts[verdict] += 1
                n_chatter += extra
                if elapsed > slowest[0]:
                    slowest = (elapsed, detail.split(" [")[0])
                if verdict == "FAIL":
                    failures.append(detail)
                    print("FAIL " + detail, flush=True)
                elif verdict == "crash-contained":
                    contained.append(detail)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    total = sum(counts.values())
    if args.damaged:
        print(f"mutate-info: {total} damaged recordings in {time.monotonic() - start:.1f} s")
    else:
        print(f"mutate-info: {total} damaged copies of {len(recordings)} recordings "
              f"(seed {args.seed}, {args.mutants} each) in {time.monotonic() - start:.0f} s "
              f"with {args.jobs} at once")
    print(f"  opened: {counts['ok']}, named errors: {counts['error']}, "
          f"worker crashes reported as named errors: {counts['crash-contained']}, "
          f"failures: {counts['FAIL']}")
    print(f"  other stderr lines (library chatter): {n_chatter}; "
          f"slowest: {slowest[1]} {slowest[0]:.2f} s")
    for detail in contained if args.damaged else contained[:20]:
        print("  contained: " + detail)
    if failures:
        print(f"mutate-info: {len(failures)} copies broke a rule; kept in {args.keep}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
