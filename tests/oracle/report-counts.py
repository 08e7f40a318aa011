#!/usr/bin/env python3
"""Count the events of a trace.dat as `trace-cmd report` (3.1.6) sees them.

Usage: report-counts.py [--check] [--trace-cmd PATH] FILE.dat

Prints one JSON object on stdout:

  {"file": "FILE.dat",
   "n_events": 2512,                         # events in all buffers
   "n_cpus": 2,                              # the "cpus=N" line of report
   "cpus": {"0": 979, "1": 1533},            # CPUs with at least one event
   "events": {"sched:sched_switch": 448, ...},
   "buffers": {"": 2512},                    # "" is the top (main) buffer
   "missed_events": {},                      # CPU -> events dropped, -1 = unknown
   "via": null,                              # see rule 5
   "warnings": []}

Chronoscope's tests compare their index with n_events, cpus and events.
Exit status: 0 on success, 1 when trace-cmd cannot read the file (the reason
goes to stderr), 2 when --check finds a disagreement (the JSON is printed).

The rules it applies, all checked against the public recordings in
shared/testdata/public and the recordings in tests/data:

1. One event is one *header line* of `trace-cmd report FILE` (default
   options, plugins loaded), i.e. a line of the form
       [BUFFER: ]COMM-PID [CPU] SECONDS.MICROS: NAME: ...
   COMM is right-aligned and may contain spaces, dashes and digits ("<...>"
   when unknown), so it is matched lazily: the first "-PID [CPU] TS: NAME:"
   on the line ends it.  CPU is the decimal in brackets.
2. report must exit 0 and print its "cpus=N" line: on a file truncated
   inside its metadata trace-cmd 3.1.6 exits 0 and prints nothing, so a
   report without that line is an error (exit 1), not an empty recording
   (truncated inside the data it prints "File possibly truncated..." and
   "failed to init data" and exits 22).
   Every other line is not an event: the leading "cpus=N" line, the
   "=> symbol" lines that kernel_stack/user_stack events print after their
   header (so a multi-line event counts once), blank lines, and the
   "CPU:N [M EVENTS DROPPED]" / "CPU:N [EVENTS DROPPED]" lines that report
   prints where the ring buffer lost events (those are collected into
   missed_events, -1 when report does not know how many).  Any other
   non-header line is listed in warnings (print/bprint text containing a
   newline would produce one; text crafted to look like a header line
   would be counted as an event, which no rule here can detect).
3. report prints only the event name.  Its system comes from the formats
   stored in the file (`trace-cmd report -E`, one "system:name" per stored
   format, ftrace's own formats included).  A name stored under a single
   system maps to it.  A name stored under several systems is counted again
   once per candidate with `trace-cmd report -F 'SYSTEM/NAME'` (trace-cmd
   anchors both parts), so the split follows the event id in each record,
   not the name.  A printed name with no stored format is reported as
   "?:NAME" with a warning.
4. Instance buffers: report prefixes the lines of a named buffer with
   "NAME: ".  The names come from the BUFFER options (`trace-cmd dump
   --options`), so a prefix is only recognised for a buffer the file
   declares.  n_events, cpus and events sum over all buffers; buffers splits
   n_events per buffer (every declared buffer is listed, even when empty).
5. A v7 file compressed with a codec this trace-cmd lacks (zlib: Debian's
   3.1.6 has zstd only, see `trace-cmd list -c`) is first rewritten
   uncompressed into a temporary file by tests/data/v7-recompress.py (same
   sections, same ring-buffer pages; its zstd/zlib/none round trips give
   identical reports on every v7 file we have), and that file is read; "via"
   in the JSON says so (null otherwise).
6. With --check, the counts are confirmed by independent runs:
   `trace-cmd report --cpu N` for every CPU must give the same per-CPU counts
   for the top buffer (report 3.1.6 ignores --cpu for named buffers, so those
   are not re-checked), and where the file saved per-CPU ring-buffer
   statistics for the top buffer with "entries: 0" and "overrun: 0" (nothing
   left in or lost from the kernel buffer when recording ended), their "read
   events" must equal the per-CPU counts.  Disagreements go to warnings and
   make the exit status 2.

6. function_graph: report prints a leaf call, a funcgraph_entry whose
   funcgraph_exit is the next record of its CPU, as one funcgraph_entry
   line ending in "func();" with the call's duration; such a line counts
   as two events, the entry and the exit (`report -R` prints both).

Only the Python standard library is used; trace-cmd's output is read as a
stream, so large files do not need memory for their text.
"""

import argparse
import collections
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

RECOMPRESS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "data", "v7-recompress.py")

HEADER_TAIL = (r"\s*(?P<comm>.*?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+"
               r"(?P<ts>\d+\.\d+):\s+(?P<name>[^\s:]+):(?:\s|$)")
DROPPED_TAIL = r"CPU:(?P<cpu>\d+) \[(?:(?P<n>\d+) )?EVENTS DROPPED\]\s*$"
CPUS_LINE = re.compile(r"^cpus=(\d+)\s*$")
STACK_TAIL = r"\s*=> "


class ReportError(Exception):
    pass


def v7_codec(path):
    """The compression name of a v7 file, or None for anything else."""
    with open(path, "rb") as f:
        head = f.read(256)
    if not head.startswith(b"\x17\x08Dtracing7\0") or len(head) < 20:
        return None
    end = head.find(b"\0", 18)
    return head[18:end].decode("ascii", "replace") if end > 0 else None


def uncompressed_copy(trace_cmd, path, tmpdir):
    """Rule 5: return (path to read, "via" text)."""
    codec = v7_codec(path)
    if codec in (None, "none"):
        return path, None
    listing = subprocess.run([trace_cmd, "list", "-c"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode("utf-8", "replace")
    known = {line.strip().split(",")[0] for line in listing.splitlines() if "," in line}
    if codec in known or codec != "zlib":
        return path, None
    sys.dont_write_bytecode = True      # no __pycache__ in the source tree
    spec = importlib.util.spec_from_file_location("v7_recompress", RECOMPRESS)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    with open(path, "rb") as f:
        data = f.read()
    try:
        plain = tool.recompress(data, tool.Plain(), lambda name: tool.Zlib())
    except Exception as e:          # a damaged zlib file: report it like trace-cmd would
        raise ReportError("cannot rewrite the zlib file uncompressed: %s" % e)
    copy = os.path.join(tmpdir, "uncompressed.dat")
    with open(copy, "wb") as f:
        f.write(plain)
    return copy, ("v7 zlib, read by trace-cmd after tests/data/v7-recompress.py "
                  "rewrote it uncompressed")


class Oracle:
    def __init__(self, trace_cmd, path):
        self.trace_cmd = trace_cmd
        self.path = path
        self.via = None
        self.warnings = []
        self.last_stderr = ""
        self.buffers = self._buffer_names()
        named = [b for b in self.buffers if b]
        prefix = ""
        if named:
            alts = "|".join(re.escape(b) for b in sorted(named, key=len, reverse=True))
            prefix = r"(?:(?P<buf>" + alts + r"): )?"
        self.header = re.compile("^" + prefix + HEADER_TAIL)
        self.dropped = re.compile("^" + prefix + DROPPED_TAIL)
        self.stack = re.compile("^" + prefix.replace("?P<buf>", "") + STACK_TAIL)

    # -- running trace-cmd ------------------------------------------------

    def _env(self):
        env = dict(os.environ)
        env["LC_ALL"] = "C"
        return env

    def _capture(self, args):
        proc = subprocess.run([self.trace_cmd] + args, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=self._env())
        return (proc.returncode,
                proc.stdout.decode("utf-8", "replace"),
                proc.stderr.decode("utf-8", "replace"))

    def _stream(self, args):
        """Yield report's stdout lines; raise ReportError if it fails."""
        with tempfile.TemporaryFile() as err:
            proc = subprocess.Popen([self.trace_cmd] + args, stdout=subprocess.PIPE,
                                    stderr=err, env=self._env())
            for raw in proc.stdout:
                yield raw.decode("utf-8", "replace").rstrip("\n")
            rc = proc.wait()
            err.seek(0)
            text = err.read().decode("utf-8", "replace").strip()
        self.last_stderr = text
        if rc != 0:
            raise ReportError("trace-cmd %s failed (exit %d): %s"
                              % (" ".join(args[:-1]), rc, text or "no message"))
        if text:
            self.warnings.append("trace-cmd %s: %s" % (" ".join(args[:-1]), text[:500]))

    def _buffer_names(self):
        rc, out, _ = self._capture(["dump", "--options", "-i", self.path])
        names = [""]
        if rc != 0:
            return names
        lines = out.splitlines()
        for i, line in enumerate(lines):
            if "[Option BUFFER," in line:
                for follow in lines[i + 1:i + 4]:
                    m = re.match(r'^"(.*)" \[name\]$', follow.strip())
                    if m:
                        if m.group(1) not in names:
                            names.append(m.group(1))
                        break
        return names

    def stored_formats(self):
        rc, out, err = self._capture(["report", "-E", self.path])
        if rc != 0:
            raise ReportError("trace-cmd report -E failed (exit %d): %s" % (rc, err.strip()))
        systems = collections.defaultdict(list)
        for line in out.splitlines():
            system, sep, name = line.strip().partition(":")
            if sep and system and name and system not in systems[name]:
                systems[name].append(system)
        return systems

    # -- parsing ----------------------------------------------------------

    def scan(self, extra_args=()):
        """Run report and count its header lines."""
        # trace-cmd 3.1.6 was seen, about once in thirty runs on a loaded
        # machine, to print the header and no event at all for a recording
        # it reads every other time (latency-pairs.py says the same): a
        # whole report without an event is read again before it is
        # believed.  (A filtered one may well have none.)
        for attempt in range(3):
            result = self._scan_once(extra_args)
            if extra_args or sum(result["cpus"].values()) > 0:
                break
            sys.stderr.write("report-counts: %s: trace-cmd report printed no event "
                             "(attempt %d)\n" % (self.path, attempt + 1))
        return result

    def _scan_once(self, extra_args):
        result = {
            "n_cpus": None,
            "cpus": collections.Counter(),
            "names": collections.Counter(),
            "buffers": collections.Counter(),
            "top_cpus": collections.Counter(),
            "missed": {},
            "unparsed": 0,
            "unparsed_first": None,
        }
        args = ["report"] + list(extra_args) + [self.path]
        for line in self._stream(args):
            m = self.header.match(line)
            if m:
                buf = m.groupdict().get("buf") or ""
                cpu = str(int(m.group("cpu")))
                # Rule 6: a leaf call's line is its entry and its exit.
                names = [m.group("name")]
                if names[0] == "funcgraph_entry" and line.rstrip().endswith(");"):
                    names.append("funcgraph_exit")
                for name in names:
                    result["cpus"][cpu] += 1
                    result["names"][name] += 1
                    result["buffers"][buf] += 1
                    if not buf:
                        result["top_cpus"][cpu] += 1
                continue
            m = CPUS_LINE.match(line)
            if m and result["n_cpus"] is None:
                result["n_cpus"] = int(m.group(1))
                continue
            if not line.strip() or self.stack.match(line):
                continue
            m = self.dropped.match(line)
            if m:
                cpu = str(int(m.group("cpu")))
                n = int(m.group("n")) if m.group("n") else -1
                old = result["missed"].get(cpu, 0)
                result["missed"][cpu] = -1 if (n < 0 or old < 0) else old + n
                continue
            result["unparsed"] += 1
            if result["unparsed_first"] is None:
                result["unparsed_first"] = line[:200]
        if result["n_cpus"] is None:
            # report exits 0 and prints nothing on a file truncated inside
            # its metadata: without its "cpus=N" line nothing was read.
            raise ReportError("trace-cmd %s read nothing (no \"cpus=\" line): %s"
                              % (" ".join(args[:-1]),
                                 " / ".join(x for x in (result["unparsed_first"],
                                                        self.last_stderr) if x)
                                 or "no message"))
        return result

    def count_filtered(self, system, name):
        return sum(self.scan(["-F", "%s/%s" % (system, name)])["names"].values())

    # -- the answer -------------------------------------------------------

    def counts(self):
        systems = self.stored_formats()
        scan = self.scan()
        if scan["unparsed"] > max(sum(scan["cpus"].values()), 0) and scan["unparsed"] >= 16:
            # More lines it cannot read than events: trace-cmd printed the
            # file in a form the oracle does not know (libtracecmd 1.3.1
            # prints raw timestamps, "[000]7681726931543:", when it takes a
            # TRACECLOCK option for an unknown clock).  A count of 0 from
            # such a report would be a wrong answer, not a finding.
            raise ReportError("trace-cmd report printed %d lines that are not events against "
                              "%d that are; first: %r"
                              % (scan["unparsed"], sum(scan["cpus"].values()),
                                 scan["unparsed_first"]))
        if scan["unparsed"]:
            self.warnings.append("%d report lines are neither events nor known extra lines; "
                                 "first: %r" % (scan["unparsed"], scan["unparsed_first"]))
        events = collections.Counter()
        for name, n in scan["names"].items():
            candidates = systems.get(name, [])
            if len(candidates) == 1:
                events["%s:%s" % (candidates[0], name)] += n
            elif not candidates:
                events["?:%s" % name] += n
                self.warnings.append("no stored format named %r" % name)
            else:
                split = {s: self.count_filtered(s, name) for s in candidates}
                if sum(split.values()) != n:
                    self.warnings.append("%r: filtered counts %r do not add up to %d"
                                         % (name, split, n))
                for s, k in split.items():
                    if k:
                        events["%s:%s" % (s, name)] += k
        buffers = {b: scan["buffers"].get(b, 0) for b in self.buffers}
        for b, k in scan["buffers"].items():
            buffers.setdefault(b, k)
        return scan, {
            "file": self.path,
            "n_events": sum(scan["cpus"].values()),
            "n_cpus": scan["n_cpus"],
            "cpus": {c: scan["cpus"][c] for c in sorted(scan["cpus"], key=int)},
            "events": {e: events[e] for e in sorted(events)},
            "buffers": buffers,
            "missed_events": {c: scan["missed"][c] for c in sorted(scan["missed"], key=int)},
            "via": self.via,
            "warnings": self.warnings,
        }

    def check(self, scan):
        """Cross-check the per-CPU counts; return True when all agree."""
        ok = True
        n_cpus = scan["n_cpus"] or 0
        cpus = set(range(n_cpus)) | {int(c) for c in scan["top_cpus"]}
        for cpu in sorted(cpus):
            per_cpu = self.scan(["--cpu", str(cpu)])["top_cpus"]
            got = sum(per_cpu.values())
            want = scan["top_cpus"].get(str(cpu), 0)
            if got != want or set(per_cpu) - {str(cpu)}:
                ok = False
                self.warnings.append("check: report --cpu %d gives %d top-buffer events "
                                     "(on CPUs %s), the full report %d"
                                     % (cpu, got, sorted(per_cpu), want))
        for cpu, stats in self._top_stats().items():
            if stats.get("entries") == 0 and stats.get("overrun") == 0 \
                    and "read events" in stats:
                want = scan["top_cpus"].get(str(cpu), 0)
                if stats["read events"] != want:
                    ok = False
                    self.warnings.append("check: CPU %d stats say %d read events, report "
                                         "shows %d" % (cpu, stats["read events"], want))
        return ok

    def _top_stats(self):
        rc, out, _ = self._capture(["report", "--stat", self.path])
        stats = {}
        if rc != 0:
            return stats
        cpu = None
        for line in out.splitlines():
            if line.startswith("Buffer:"):
                break                   # named buffers follow the top one
            m = re.match(r"^CPU: (\d+)$", line.strip())
            if m:
                cpu = int(m.group(1))
                stats[cpu] = {}
                continue
            m = re.match(r"^(entries|overrun|read events): (\d+)$", line.strip())
            if m and cpu is not None:
                stats[cpu][m.group(1)] = int(m.group(2))
        return stats


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="a trace.dat file")
    parser.add_argument("--check", action="store_true",
                        help="confirm the counts with per-CPU reports and saved stats")
    parser.add_argument("--trace-cmd", default=os.environ.get("TRACE_CMD", "trace-cmd"),
                        help="trace-cmd executable (default: $TRACE_CMD or trace-cmd)")
    args = parser.parse_args()
    if not os.path.isfile(args.file):
        print("report-counts: %s: no such file" % args.file, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="report-counts-") as tmpdir:
        try:
            path, via = uncompressed_copy(args.trace_cmd, args.file, tmpdir)
            oracle = Oracle(args.trace_cmd, path)
            oracle.via = via
            scan, out = oracle.counts()
            ok = oracle.check(scan) if args.check else True
        except ReportError as e:
            print("report-counts: %s: %s" % (args.file, e), file=sys.stderr)
            return 1
        except OSError as e:
            print("report-counts: %s: %s" % (args.file, e), file=sys.stderr)
            return 1
    out["file"] = args.file
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
