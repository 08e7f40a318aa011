# SPDX-License-Identifier: GPL-2.0-or-later
"""bench_window.py: the window's reopen to first frame (issue 22 part 4),
for bench.py; printed beside `chronoscope render`'s.

What a user waits for after double-clicking a recording whose index is
already in the cache: from the launch of `chronoscope FILE` to the first
frame whose timeline drew the recording's plots.  A real window, under Xvfb
with a private session bus, as the GUI tests run (GDK_BACKEND=x11,
GSK_RENDERER=cairo):

  xvfb-run -a dbus-run-session -- python3 bench_window.py --child TIMEOUT_S CHRONOSCOPE FILE

The child (this file again, inside the display and the bus, so their
start-up is not timed) reads the monotonic clock, starts the application
with G_MESSAGES_DEBUG=Chronoscope and reads its output for the timeline's
debug message "First timeline frame painted: FILE, N us monotonic"
(gui/timeline/cs-timeline.c: after the paint of the first frame that drew the
document's plots, on CLOCK_MONOTONIC, the clock of time.monotonic()), then
ends the application and prints `window_first_frame_s=S` and, sampled
every 20 ms until that frame, `peak_rss_anon_mib=M`.  The index cache is
the caller's XDG_CACHE_HOME (the reopen); configuration, data and state
are empty folders of the child's own and GSettings is in memory, so no
earlier session is restored.

Usage from bench.py: measure(chronoscope, path, env, timeout_s) returns a
run_measured-like dict (wall_s is the first frame's time) or one with
"skipped" when xvfb-run or dbus-run-session is missing.
"""

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

FRAME_RE = re.compile(r"First timeline frame painted: .*, (\d+) us monotonic")
SAMPLE_INTERVAL_S = 0.020


def missing_tools():
    """The programs the measurement needs that are not installed."""
    return [t for t in ("xvfb-run", "dbus-run-session", "Xvfb") if shutil.which(t) is None]


def measure(chronoscope, path, env, timeout_s):
    """The window's reopen to first frame of PATH, with ENV's index cache."""
    missing = missing_tools()
    if missing:
        return {"skipped": f"no {', '.join(missing)} (packages xvfb, xauth, dbus)"}
    argv = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", "dbus-run-session", "--",
            sys.executable, os.path.abspath(__file__), "--child", str(timeout_s), chronoscope, path]
    try:
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout_s + 30)
    except subprocess.TimeoutExpired:
        return {"not_finished": f"> {timeout_s:g} s, no first frame"}
    values = dict(kv.split("=", 1) for kv in p.stdout.split() if "=" in kv)
    if p.returncode != 0 or "window_first_frame_s" not in values:
        lines = (p.stdout + p.stderr).strip().splitlines()
        return {"error": lines[-1] if lines else f"exit status {p.returncode}", "rc": p.returncode}
    return {"wall_s": float(values["window_first_frame_s"]),
            "peak_rss_anon_mib": float(values.get("peak_rss_anon_mib", "nan")), "rc": 0}


def rss_anon_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            m = re.search(r"RssAnon:\s+(\d+)", f.read())
        return int(m.group(1)) if m else 0
    except OSError:
        return 0


def stop(proc):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=3)
            break
        except subprocess.TimeoutExpired:
            continue


def child(timeout_s, chronoscope, path):
    """Inside Xvfb and the session bus: launch, wait for the frame, stop."""
    with tempfile.TemporaryDirectory(prefix="cs-bench-window-") as home:
        env = dict(os.environ, GDK_BACKEND="x11", GSK_RENDERER="cairo",
                   G_MESSAGES_DEBUG="Chronoscope", GSETTINGS_BACKEND="memory",
                   XDG_CONFIG_HOME=os.path.join(home, "config"),
                   XDG_DATA_HOME=os.path.join(home, "data"),
                   XDG_STATE_HOME=os.path.join(home, "state"))
        t0 = time.monotonic()
        # GLib writes debug messages to stdout (g_log_writer_standard_streams).
        proc = subprocess.Popen([chronoscope, path], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        frame_s, peak_kib, buf, log = None, 0, b"", []
        try:
            while frame_s is None and time.monotonic() - t0 < timeout_s:
                peak_kib = max(peak_kib, rss_anon_kib(proc.pid))
                ready, _, _ = select.select([proc.stdout], [], [], SAMPLE_INTERVAL_S)
                if not ready:
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break       # the application ended
                buf += chunk
                *lines, buf = buf.split(b"\n")
                for line in lines:
                    text = line.decode("utf-8", "replace")
                    log.append(text)
                    m = FRAME_RE.search(text)
                    if m and frame_s is None:
                        frame_s = int(m.group(1)) / 1e6 - t0
        finally:
            stop(proc)
    if frame_s is None:
        print("\n".join(log[-5:]), file=sys.stderr)
        print(f"error: no first frame within {timeout_s:g} s (exit status {proc.returncode})",
              file=sys.stderr)
        return 1
    print(f"window_first_frame_s={frame_s:.4f} peak_rss_anon_mib={peak_kib / 1024:.1f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        sys.exit(child(float(sys.argv[2]), sys.argv[3], sys.argv[4]))
    sys.exit("usage: bench_window.py --child TIMEOUT_S CHRONOSCOPE FILE (run by bench.py)")
