#!/usr/bin/env python3
"""`chronoscope info` says the clock truly and names the peer (issue 25), TAP.

Runs the built executable ($CHRONOSCOPE) in a private cache.  On the real
KVM pair of ../shared/testdata/kvm ($CS_SHARED_TESTDATA/../kvm; skipped
with a message when absent) this test reads the options section itself
(trace-cmd.dat.v7(5): the header, then the chain of options sections,
zlib-compressed here) and computes what trace-cmd 3.x's trace-input.c
makes of the TRACEID, GUEST, TSC2NSEC and TIME_SHIFT options, then checks
that `info --json` and `info` report the same: the clock as converted by
TSC2NSEC, the trace IDs, role, vCPU -> host thread, the offsets and
scaling applied (offset_ns = mul_u64_u32_shr(offset, mult, shift)), and
with --peer where the guest's first event lands on the host's clock and
the host's view of the vCPU thread (exits by reason, time in the guest,
longest exit) as SQL over the index counts and pairs its kvm events.
Bad pairs (the guest with itself, the host with itself) say why they are
not aligned.  Without ../shared it checks that a recording of tests/data
reports its local clock as recorded and no peer.
"""

import json
import os
import struct
import zlib

from cli_tap import check, kvm_dir, main_in_private_cache, report, run

def cstr(b, p):
    e = b.index(b"\0", p)
    return b[p:e].decode(), e + 1


def read_options(path):
    """[(id, payload bytes)] of a v7 file's options, in file order (zlib or none)."""
    b = open(path, "rb").read()
    assert b[:10] == b"\x17\x08\x44tracing", path
    ver, p = cstr(b, 10)
    assert ver == "7", ver
    e = ">" if b[p] else "<"
    p += 2 + 4
    comp, p = cstr(b, p)
    _, p = cstr(b, p)
    off, = struct.unpack_from(e + "Q", b, p)
    out = []
    while off:
        _sid, flags, _strid, size = struct.unpack_from(e + "HHIQ", b, off)
        data = b[off + 16: off + 16 + size]
        if flags & 1:
            assert comp == "zlib", comp
            csize, _usize = struct.unpack_from(e + "II", data, 0)
            data = zlib.decompress(data[8:8 + csize])
        q, nxt = 0, 0
        while q + 6 <= len(data):
            oid, osz = struct.unpack_from(e + "HI", data, q)
            q += 6
            out.append((oid, data[q:q + osz]))
            q += osz
            if oid == 0:
                nxt, = struct.unpack_from(e + "Q", out[-1][1], 0)
                break
        off = nxt
    return e, out


def decode(path):
    """What trace-input.c's handle_options() keeps of the four options."""
    e, opts = read_options(path)
    info = {"trace_id": None, "tsc2nsec": None, "guests": [], "time_shift": None}
    for oid, d in opts:
        if oid == 11 and len(d) >= 8:
            info["trace_id"] = struct.unpack_from(e + "Q", d, 0)[0]
        elif oid == 14 and len(d) >= 16:
            info["tsc2nsec"] = struct.unpack_from(e + "IIQ", d, 0)
        elif oid == 13:
            name, p = cstr(d, 0)
            tid, n = struct.unpack_from(e + "QI", d, p)
            p += 12
            tids = {}
            for _ in range(n):
                v, pid = struct.unpack_from(e + "II", d, p)
                p += 8
                tids[v] = pid
            info["guests"].append({"name": name, "trace_id": tid, "tids": tids})
        elif oid == 12 and len(d) >= 16:
            peer, flags, ncpu = struct.unpack_from(e + "QII", d, 0)
            p = 16
            cpus = []
            for _ in range(ncpu):
                n, = struct.unpack_from(e + "I", d, p)
                p += 4
                cols = []
                for _k in range(3):
                    cols.append(list(struct.unpack_from(e + "%dq" % n, d, p)))
                    p += 8 * n
                cpus.append([list(s) + [0] for s in zip(*cols)])
            if p < len(d):
                for c in cpus:
                    for s in c:
                        s[3], = struct.unpack_from(e + "q", d, p)
                        p += 8
            for c in cpus:
                c.sort(key=lambda s: s[0])
            info["time_shift"] = {"peer": peer, "flags": flags, "cpus": cpus}
    return info


def mul_shr(ticks, mult, shift):
    """The kernel's mul_u64_u32_shr() for ticks < 2^64: floor(ticks * mult / 2^shift)."""
    return (ticks * mult) >> shift


def hex_id(i):
    return "0x%016X" % i


def check_pair(kvm):
    host = os.path.join(kvm, "kvm-host-x86-v7-zlib.dat")
    guest = os.path.join(kvm, "kvm-guest-x86-v7-zlib.dat")
    h, g = decode(host), decode(guest)
    mult, shift, toff = g["tsc2nsec"]

    rc, out, err = run("info", "--json", guest, "--peer", host)
    check("guest info --json --peer runs", rc == 0, err)
    gj = json.loads(out) if rc == 0 else {}
    rc, out, err = run("info", "--json", host)
    check("host info --json runs", rc == 0, err)
    hj = json.loads(out) if rc == 0 else {}

    for name, j, d in (("host", hj, h), ("guest", gj, g)):
        m, s, o = d["tsc2nsec"]
        check("%s: clock x86-tsc converted by TSC2NSEC" % name,
              j.get("clock_description", "").startswith("x86-tsc, converted to ns by TSC2NSEC")
              and j.get("tsc2nsec") == {"multiplier": m, "shift": s, "offset": o},
              (j.get("clock_description"), j.get("tsc2nsec"), d["tsc2nsec"]))
        check("%s: trace ID" % name, j.get("trace_id") == hex_id(d["trace_id"]),
              (j.get("trace_id"), hex(d["trace_id"])))
    check("host: role and guest", hj.get("role") == "host" and hj.get("guests") == [
        {"name": x["name"], "trace_id": hex_id(x["trace_id"]),
         "vcpu_threads": {str(v): t for v, t in sorted(x["tids"].items())}} for x in h["guests"]],
        (hj.get("role"), hj.get("guests"), h["guests"]))
    check("host: no time shift", hj.get("time_shift") is None, hj.get("time_shift"))

    ts = g["time_shift"]
    want = {"peer_trace_id": hex_id(ts["peer"]), "flags": ts["flags"],
            "interpolate": bool(ts["flags"] & 1), "applied_to_times": False,
            "vcpus": [{"vcpu": v, "samples": [
                {"time": s[0], "offset": s[1], "offset_ns": mul_shr(s[1], mult, shift),
                 "scaling": s[2], "fraction_bits": s[3]} for s in c]}
                for v, c in enumerate(ts["cpus"])]}
    check("guest: role and TIME_SHIFT as trace-input.c reads it",
          gj.get("role") == "guest" and gj.get("time_shift") == want, (gj.get("time_shift"), want))

    peer = gj.get("peer", {})
    entry = [x for x in h["guests"] if x["trace_id"] == g["trace_id"]]
    check("guest names the host by TRACEID", ts["peer"] == h["trace_id"] and len(entry) == 1)
    # Flags 0: the first sample's offset applies, scaled by its ratio.
    s0 = ts["cpus"][0][0]
    check("peer: related, offsets and thread as the options give",
          peer.get("related") is True and peer.get("role") == "host"
          and peer.get("guest_name") == entry[0]["name"]
          and [{k: v for k, v in x.items() if k != "host"} for x in peer.get("vcpus", [])] == [{"vcpu": 0, "host_thread": entry[0]["tids"][0],
                                     "offset_ticks": s0[1], "offset_ns": mul_shr(s0[1], mult, shift),
                                     "scaling": s0[2], "fraction_bits": s0[3]}],
          peer)
    # The guest's first event: its own time (mul_shr of its raw time) plus
    # the offset in ns, within the 2 ns that two floor() roundings allow.
    first_host = gj.get("first_ns", 0) + mul_shr(s0[1], mult, shift)
    check("peer: the guest's first event on the host's clock",
          abs(peer.get("guest_first_host_ns", 0) - first_host) <= 2
          and peer.get("n_unconverted_events") == 0,
          (peer.get("guest_first_host_ns"), first_host))
    check("peer: the guest's events overlap the host's recording",
          peer.get("overlap_ns", -1) > 0
          and peer.get("host_first_ns") == hj.get("first_ns")
          and peer.get("host_last_ns") == hj.get("last_ns"), peer)

    check_host_view(host, peer.get("vcpus", [{}])[0])

    rc, out, err = run("info", guest, "--peer", host)
    check("guest text: clock, host and alignment",
          rc == 0 and "x86-tsc, converted to ns by TSC2NSEC" in out
          and hex_id(h["trace_id"]) in out and "Aligned with:" in out, out + err)
    rc, out, err = run("info", host)
    check("host text: guest and its vCPU thread",
          rc == 0 and hex_id(g["trace_id"]) in out
          and "vCPU 0 runs on host thread %d" % entry[0]["tids"][0] in out, out + err)

    # Bad pairs: not aligned, and why.
    rc, out, err = run("info", "--json", guest, "--peer", guest)
    p = json.loads(out).get("peer", {}) if rc == 0 else {}
    check("guest with itself: not related, the trace IDs named",
          p.get("related") is False and hex_id(ts["peer"]) in (p.get("error") or "")
          and "not recorded together" in (p.get("error") or ""), (rc, p, err))
    rc, out, err = run("info", host, "--peer", host)
    check("host with itself: no TIME_SHIFT said",
          rc == 0 and "Not aligned:" in out and "no TIME_SHIFT" in out, out + err)


# VMX exit reasons by number, as arch/x86/include/uapi/asm/vmx.h names them
# (those this host's guest took).
VMX_EXIT_REASONS = {1: "EXTERNAL_INTERRUPT", 10: "CPUID", 12: "HLT", 31: "MSR_READ",
                    32: "MSR_WRITE", 40: "PAUSE_INSTRUCTION", 45: "EOI_INDUCED",
                    48: "EPT_VIOLATION", 49: "EPT_MISCONFIG", 52: "PREEMPTION_TIMER",
                    56: "APIC_WRITE"}


def query(path, sql):
    rc, out, err = run("query", path, sql, "--json")
    assert rc == 0, err
    return json.loads(out)


def check_host_view(host, vcpu):
    """The host view of the vCPU in `info --peer` against SQL over the index."""
    tid = vcpu.get("host_thread")
    view = vcpu.get("host") or {}
    rows = query(host, "SELECT exit_reason AS r, count(*) AS n FROM kvm_kvm_exit "
                       "WHERE pid = %d GROUP BY exit_reason" % tid)
    rows = rows.get("rows", rows) if isinstance(rows, dict) else rows
    want = {}
    for row in rows:
        r, n = (row["r"], row["n"]) if isinstance(row, dict) else row
        want[VMX_EXIT_REASONS.get(r, str(r))] = n
    got = {x["reason"]: x["n_exits"] for x in view.get("exits_by_reason", [])}
    check("host view: exits by reason as SQL counts them", got == want and
          view.get("n_exits") == sum(want.values()), (got, want))
    pairs = ("SELECT {agg} AS v FROM (SELECT ts, name, LAG(ts) OVER (ORDER BY ts) AS pts, "
             "LAG(name) OVER (ORDER BY ts) AS pname FROM events WHERE pid = %d AND name IN "
             "('kvm_entry', 'kvm_exit')) WHERE name = '{cur}' AND pname = '{prev}'" % tid)

    def value(agg, cur, prev):
        r = query(host, pairs.format(agg=agg, cur=cur, prev=prev))
        r = r.get("rows", r) if isinstance(r, dict) else r
        return r[0]["v"] if isinstance(r[0], dict) else r[0][0]

    in_guest = value("sum(ts - pts)", "kvm_exit", "kvm_entry")
    longest = value("max(ts - pts)", "kvm_entry", "kvm_exit")
    check("host view: time in the guest and longest exit as SQL pairs them",
          view.get("time_in_guest_ns") == in_guest and view.get("longest_exit_ns") == longest,
          (view.get("time_in_guest_ns"), in_guest, view.get("longest_exit_ns"), longest))
    # The pair's host recorded only kvm events: whether the thread ran is unknown.
    n_switch = query(host, "SELECT count(*) AS n FROM events WHERE name = 'sched_switch'")
    n_switch = n_switch.get("rows", n_switch) if isinstance(n_switch, dict) else n_switch
    n_switch = n_switch[0]["n"] if isinstance(n_switch[0], dict) else n_switch[0][0]
    check("host view: time not running only where the host recorded sched_switch",
          "time_not_running_ns" in view and
          (view["time_not_running_ns"] is None) == (n_switch == 0), (view, n_switch))


def check_local():
    path = os.path.join(os.environ["CS_TESTDATA"], "sched-irq-v7.dat")
    rc, out, err = run("info", "--json", path)
    j = json.loads(out) if rc == 0 else {}
    check("local recording: the clock as recorded, no conversion, no peer",
          rc == 0 and j.get("clock_description") == j.get("clock") == "local"
          and j.get("tsc2nsec") is None and j.get("time_shift") is None
          and j.get("guests") == [] and j.get("role") is None
          and (j.get("trace_id") or "").startswith("0x"), (rc, err, {k: j.get(k) for k in (
              "clock", "clock_description", "tsc2nsec", "time_shift", "guests", "role", "trace_id")}))
    rc, out, err = run("info", path)
    check("local recording: text clock line", rc == 0 and "Trace clock:   local\n" in out, out + err)


def main():
    check_local()
    kvm = kvm_dir()
    if kvm is not None:
        check_pair(kvm)

    return report()


if __name__ == "__main__":
    main_in_private_cache(main)
