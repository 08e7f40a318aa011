#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-demos.py CHRONOSCOPE OUTDIR

Checks, on the host, the recordings the classroom demos made in the test
guest (guest-scenario.sh: OUTDIR/NAME.dat and the markers the guest printed
in OUTDIR/NAME.json), through Chronoscope's own index:

 - `chronoscope info NAME.dat --json` lists the kernel module's sections and
   wakeup_latency events ("kmod");
 - `chronoscope demo NAME --from NAME.dat --json --no-open` finds markers A
   and B on the host where the guest found them;
 - irqs-off: an irqs-off section on the demo's CPU, begin and end 18-40 ms
   apart (20 ms requested), measured the same by the module, markers on its
   begin and end;
 - wakeup-latency: a wakeup_latency event over the threshold naming the
   demo's sleeper (pid and comm), woken onto the section's CPU; its wakeup
   (marker A) inside the 80 ms preempt-off section and its switch-in
   (marker B) after the section's end;
 - preemption: a 50 ms preempt-off section, and the spinner runnable but
   off its CPU (markers A and B) across it;
 - trace-cmd report, the reference reader, reads every file and counts the
   module's events as the index does.

Prints the figures; exits 1 on a mismatch.
"""
import json
import subprocess
import sys

MS = 1000000
failures = []


def bad(demo, message):
    failures.append("%s: %s" % (demo, message))
    print("check-demos: FAIL: %s: %s" % (demo, message))


def run_json(argv):
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def ms(ns):
    return "%.3f ms" % (ns / MS)


def sections_of(info, kind, cpu):
    return [s for s in info.get("kmod", {}).get("sections", [])
            if s["kind"] == kind and s["cpu"] == cpu]


def check_common(demo, chronoscope, path, guest):
    info = run_json([chronoscope, "info", path, "--json"])
    host = run_json([chronoscope, "demo", demo, "--from", path, "--json", "--no-open"])
    if "kmod" not in info:
        bad(demo, "chronoscope info lists no events of the module")
    if info.get("file_version") != 6:
        bad(demo, "the recorder wrote file version %s, not 6" % info.get("file_version"))
    for key in ("marker_a_ns", "marker_b_ns", "pid", "cpu"):
        if host[key] != guest[key]:
            bad(demo, "%s is %s on the host, %s in the guest" % (key, host[key], guest[key]))
    if not host["marker_a_ns"] < host["marker_b_ns"]:
        bad(demo, "marker A %d is not before marker B %d" % (host["marker_a_ns"], host["marker_b_ns"]))
    if host["cpu"] != 1:
        bad(demo, "ran on CPU %d, not CPU 1 (--cpu 1)" % host["cpu"])

    # The reference reader agrees on the module's events.
    report = subprocess.run(["trace-cmd", "report", path], capture_output=True, text=True)
    if report.returncode != 0:
        bad(demo, "trace-cmd report cannot read it: %s" % report.stderr.strip()[-200:])
    else:
        for key, n in info["events"].items():
            if key.startswith("chronoscope:"):
                name = key.split(":", 1)[1]
                seen = sum(1 for line in report.stdout.splitlines() if (" %s:" % name) in line)
                if seen != n:
                    bad(demo, "%s: %d in the index, %d in trace-cmd report" % (key, n, seen))
    return info, host


def check_irqs_off(chronoscope, path, guest):
    info, host = check_common("irqs-off", chronoscope, path, guest)
    sections = sections_of(info, "irqs-off", host["cpu"])
    if len(sections) != 1:
        bad("irqs-off", "%d irqs-off sections on CPU %d, not 1" % (len(sections), host["cpu"]))
        return
    s = sections[0]
    d = s["end_ns"] - s["begin_ns"]
    print("irqs-off: section on CPU %d from irqs_off_begin to irqs_off_end %s (module measured %s); "
          "markers A..B %s" % (s["cpu"], ms(d), ms(s["measured_ns"]),
                               ms(host["marker_b_ns"] - host["marker_a_ns"])))
    if s["requested_ns"] != 20 * MS:
        bad("irqs-off", "requested %d ns, not 20 ms" % s["requested_ns"])
    if not 18 * MS <= d <= 40 * MS:
        bad("irqs-off", "the section lasted %s in the recording, not 18-40 ms" % ms(d))
    if not 18 * MS <= s["measured_ns"] <= 40 * MS:
        bad("irqs-off", "the module measured %s, not 18-40 ms" % ms(s["measured_ns"]))
    if (host["marker_a_ns"], host["marker_b_ns"]) != (s["begin_ns"], s["end_ns"]):
        bad("irqs-off", "markers %d..%d are not on the section %d..%d" %
            (host["marker_a_ns"], host["marker_b_ns"], s["begin_ns"], s["end_ns"]))


def check_wakeup_latency(chronoscope, path, guest):
    info, host = check_common("wakeup-latency", chronoscope, path, guest)
    pid = guest["pid"]
    mine = [l for l in info.get("kmod", {}).get("wakeup_latencies", []) if l["pid"] == pid]
    over = [l for l in mine if l["latency_ns"] > l["threshold_ns"]]
    if not over:
        bad("wakeup-latency", "no wakeup_latency event over the threshold for the sleeper, pid %d" % pid)
        return
    lat = max(over, key=lambda l: l["latency_ns"])
    if lat["comm"] != "cs-demo-sleeper":
        bad("wakeup-latency", "the event names %r, not cs-demo-sleeper" % lat["comm"])
    if lat["target_cpu"] != host["cpu"]:
        bad("wakeup-latency", "woken onto CPU %d, not CPU %d" % (lat["target_cpu"], host["cpu"]))
    a, b = host["marker_a_ns"], host["marker_b_ns"]
    sections = [s for s in sections_of(info, "preempt-off", host["cpu"]) if s["begin_ns"] <= a <= s["end_ns"]]
    print("wakeup-latency: cs-demo-sleeper (pid %d) waited %s (module: %s, threshold %s); "
          "markers A..B %s" % (pid, ms(b - a), ms(lat["latency_ns"]), ms(lat["threshold_ns"]), ms(b - a)))
    if not sections:
        bad("wakeup-latency", "marker A (the sleeper's sched_waking, %d) is not inside a preempt-off section" % a)
        return
    s = sections[0]
    print("wakeup-latency: preempt-off section on CPU %d, %s" % (s["cpu"], ms(s["end_ns"] - s["begin_ns"])))
    if s["requested_ns"] != 80 * MS:
        bad("wakeup-latency", "section requested %d ns, not 80 ms" % s["requested_ns"])
    if b < s["end_ns"]:
        bad("wakeup-latency", "the sleeper ran (marker B %d) before the section ended (%d)" % (b, s["end_ns"]))
    if b != lat["time_ns"] and abs(b - lat["time_ns"]) > 5 * MS:
        bad("wakeup-latency", "marker B %d is not at the wakeup_latency event %d" % (b, lat["time_ns"]))
    # The module's clock and the recording's agree within QEMU's stalls.
    if not (s["end_ns"] - a) - 5 * MS <= lat["latency_ns"] <= (b - a) + 20 * MS:
        bad("wakeup-latency", "the module's latency %s does not fit the recording's %s" %
            (ms(lat["latency_ns"]), ms(b - a)))


def check_preemption(chronoscope, path, guest):
    info, host = check_common("preemption", chronoscope, path, guest)
    sections = sections_of(info, "preempt-off", host["cpu"])
    if len(sections) != 1:
        bad("preemption", "%d preempt-off sections on CPU %d, not 1" % (len(sections), host["cpu"]))
        return
    s = sections[0]
    a, b = host["marker_a_ns"], host["marker_b_ns"]
    print("preemption: preempt-off section %s on CPU %d; cs-demo-spinner (pid %d) runnable off its "
          "CPU for %s (markers A..B)" % (ms(s["end_ns"] - s["begin_ns"]), s["cpu"], host["pid"], ms(b - a)))
    if host["comm"] != "cs-demo-spinner" or host["pid"] <= 0:
        bad("preemption", "the spinner is not in the recording (%r, pid %d)" % (host["comm"], host["pid"]))
    if s["requested_ns"] != 50 * MS:
        bad("preemption", "section requested %d ns, not 50 ms" % s["requested_ns"])
    if not (a <= s["begin_ns"] + MS and b >= s["end_ns"]):
        bad("preemption", "markers %d..%d do not span the section %d..%d" % (a, b, s["begin_ns"], s["end_ns"]))
    if b - a > (s["end_ns"] - s["begin_ns"]) + 40 * MS:
        bad("preemption", "the spinner waited %s, far longer than the section" % ms(b - a))


def main():
    if len(sys.argv) != 3:
        print("usage: check-demos.py CHRONOSCOPE OUTDIR", file=sys.stderr)
        return 2
    chronoscope, outdir = sys.argv[1:]
    checks = {"irqs-off": check_irqs_off, "wakeup-latency": check_wakeup_latency,
              "preemption": check_preemption}
    for demo, check in checks.items():
        path = "%s/%s.dat" % (outdir, demo)
        try:
            with open("%s/%s.json" % (outdir, demo)) as f:
                guest = json.load(f)
            check(chronoscope, path, guest)
        except (OSError, ValueError, subprocess.CalledProcessError) as e:
            detail = getattr(e, "stderr", "") or ""
            bad(demo, "%s %s" % (e, detail.strip()))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
