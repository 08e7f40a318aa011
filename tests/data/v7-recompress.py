#!/usr/bin/env python3
"""Rewrite a compressed trace.dat v7 file with another compression codec.

Usage: v7-recompress.py --codec zlib|zstd|none IN.dat OUT.dat

The input is a v7 file compressed with zstd or zlib.  --codec none writes
it uncompressed (the sections in place with the compress flag cleared, each
CPU's pages page-aligned, as `trace-cmd convert --compression none` does);
the oracle (tests/oracle/report-counts.py) uses that to let trace-cmd read
a zlib file.  Only zlib input and none output need nothing but Python.

Why: Debian's trace-cmd 3.1.6 is built with zstd only, so it cannot write
(or read) a v7 file compressed with zlib, yet trace-cmd built with zlib
(other distributions) writes them, and Chronoscope's own v7 reader must
read both.  This tool makes tests/data/zlib/sched-irq-v7-zlib.dat from the zstd
recording, laid out exactly as trace-cmd's writer lays out a compressed file
(lib/trace-cmd/trace-output.c and trace-compress-zlib.c):

  - the file header names the codec and its version ("zlib\\0" +
    zlibVersion(), e.g. "1.2.13\\0");
  - every section keeps its place, id, flags and description string; a
    section with the compress flag holds <u32 compressed size><u32
    uncompressed size><data>;
  - each CPU's ring-buffer data in a BUFFER FLYRECORD section starts on a
    page boundary and is <u32 chunk count> then per chunk <u32 compressed
    size><u32 uncompressed size><data>; the BUFFER option's per-CPU size
    counts the chunks with or without the 4-byte count, as in the input
    (trace-cmd 3.1.6 leaves it out, files written by 3.2.0 count it); chunk
    boundaries are kept from the input;
  - zlib data is what compress2(..., Z_BEST_COMPRESSION) writes: a zlib
    stream at level 9; zstd data comes from libzstd (through ctypes) at
    level 19 (the level is not recorded in the file).

Offsets in the header (first options section), in the options that point
at sections (HEADER_INFO, FTRACE_EVENTS, EVENT_FORMATS, KALLSYMS, PRINTK,
CMDLINES, DONE's next-options offset) and in BUFFER options are remapped.
The tool refuses what it does not understand (v6, uncompressed input,
latency text buffers, big-endian files) rather than guess.

Proof that the layout is right: `--codec zstd` on a trace-cmd written zstd
file gives a file that trace-cmd reads to the same `trace-cmd report`
output (see tests/data/README.md), and zlib -> zstd round trips too.
Python standard library plus libzstd.so.1 (installed with libtracecmd).
"""

import argparse
import ctypes
import ctypes.util
import struct
import sys
import zlib

MAGIC = b"\x17\x08Dtracing"
SEC_FL_COMPRESS = 1

OPT_DONE = 0
OPT_BUFFER = 3
OPT_BUFFER_TEXT = 22
# Options whose data is the 8-byte offset of a section.
OPT_SECTION_POINTERS = {16, 17, 18, 19, 20, 21}


class FormatError(Exception):
    pass


class Zstd:
    name = "zstd"

    def __init__(self):
        path = ctypes.util.find_library("zstd") or "libzstd.so.1"
        self.lib = ctypes.CDLL(path)
        self.lib.ZSTD_decompress.restype = ctypes.c_size_t
        self.lib.ZSTD_compress.restype = ctypes.c_size_t
        self.lib.ZSTD_compressBound.restype = ctypes.c_size_t
        self.lib.ZSTD_isError.restype = ctypes.c_uint
        self.lib.ZSTD_versionString.restype = ctypes.c_char_p
        self.version = self.lib.ZSTD_versionString().decode()

    def decompress(self, data, size):
        out = ctypes.create_string_buffer(max(size, 1))
        n = self.lib.ZSTD_decompress(out, ctypes.c_size_t(size), data,
                                     ctypes.c_size_t(len(data)))
        if self.lib.ZSTD_isError(ctypes.c_size_t(n)) or n != size:
            raise FormatError("zstd: cannot decompress a block of %d bytes" % size)
        return out.raw[:size]

    def compress(self, data):
        cap = self.lib.ZSTD_compressBound(ctypes.c_size_t(len(data)))
        out = ctypes.create_string_buffer(cap)
        n = self.lib.ZSTD_compress(out, ctypes.c_size_t(cap), data,
                                   ctypes.c_size_t(len(data)), 19)
        if self.lib.ZSTD_isError(ctypes.c_size_t(n)):
            raise FormatError("zstd: cannot compress")
        return out.raw[:n]


class Plain:
    """Output only: an uncompressed v7 file, as `trace-cmd convert
    --compression none` writes it ("none\0" and an empty version)."""
    name = "none"
    version = ""


class Zlib:
    name = "zlib"
    version = zlib.ZLIB_RUNTIME_VERSION

    @staticmethod
    def decompress(data, size):
        out = zlib.decompress(data)
        if len(out) != size:
            raise FormatError("zlib: block is %d bytes, header says %d" % (len(out), size))
        return out

    @staticmethod
    def compress(data):
        return zlib.compress(data, 9)          # compress2(Z_BEST_COMPRESSION)


def cstr(buf, pos):
    end = buf.index(b"\0", pos)
    return buf[pos:end], end + 1


class Section:
    def __init__(self, offset, sid, flags, desc, body):
        self.offset = offset            # in the input file
        self.sid = sid
        self.flags = flags
        self.desc = desc                # string id
        self.body = body                # raw bytes after the 16-byte header
        self.data = None                # uncompressed content (non-flyrecord)
        self.new_offset = None


def parse(buf):
    if not buf.startswith(MAGIC):
        raise FormatError("not a trace.dat file")
    version, pos = cstr(buf, len(MAGIC))
    if version != b"7":
        raise FormatError("version %r: only v7 files have sections" % version)
    if buf[pos] != 0:
        raise FormatError("big-endian files are not handled")
    long_size = buf[pos + 1]
    page_size = struct.unpack_from("<I", buf, pos + 2)[0]
    pos += 6
    codec, pos = cstr(buf, pos)
    codec_version, pos = cstr(buf, pos)
    first_options = struct.unpack_from("<Q", buf, pos)[0]
    pos += 8
    head = {"long_size": long_size, "page_size": page_size, "codec": codec.decode(),
            "codec_version": codec_version.decode(), "first_options": first_options,
            "end": pos}
    sections = []
    while pos < len(buf):
        if pos + 16 > len(buf):
            raise FormatError("truncated section header at %d" % pos)
        sid, flags, desc, size = struct.unpack_from("<HHIQ", buf, pos)
        if pos + 16 + size > len(buf):
            raise FormatError("section %d at %d runs past the end of the file" % (sid, pos))
        sections.append(Section(pos, sid, flags, desc, buf[pos + 16:pos + 16 + size]))
        pos += 16 + size
    return head, sections


def options_of(data):
    """Yield (id, payload) of an options section's content."""
    pos = 0
    while pos < len(data):
        oid, size = struct.unpack_from("<HI", data, pos)
        yield oid, data[pos + 6:pos + 6 + size]
        pos += 6 + size


def parse_buffer_option(payload):
    offset = struct.unpack_from("<Q", payload, 0)[0]
    name, pos = cstr(payload, 8)
    clock, pos = cstr(payload, pos)
    page_size, n_cpus = struct.unpack_from("<II", payload, pos)
    pos += 8
    cpus = []
    for _ in range(n_cpus):
        cpu, off, size = struct.unpack_from("<IQQ", payload, pos)
        cpus.append([cpu, off, size])
        pos += 20
    return {"offset": offset, "name": name, "clock": clock, "page_size": page_size,
            "cpus": cpus, "tail": payload[pos:]}


def build_buffer_option(b):
    out = struct.pack("<Q", b["offset"]) + b["name"] + b"\0" + b["clock"] + b"\0"
    out += struct.pack("<II", b["page_size"], len(b["cpus"]))
    for cpu, off, size in b["cpus"]:
        out += struct.pack("<IQQ", cpu, off, size)
    return out + b["tail"]


def read_chunks(buf, offset, size, codec):
    """Decompress one CPU's chunk stream; return the uncompressed chunks."""
    if size == 0:
        return [], False
    count = struct.unpack_from("<I", buf, offset)[0]
    pos = offset + 4
    chunks = []
    for _ in range(count):
        csize, usize = struct.unpack_from("<II", buf, pos)
        chunks.append(codec.decompress(buf[pos + 8:pos + 8 + csize], usize))
        pos += 8 + csize
    # trace-cmd is not consistent here: 3.1.6 (extract, convert) stores the
    # size of the chunks without the 4-byte count, files written by 3.2.0
    # with it.  Keep whichever convention the input uses.
    used = pos - offset
    if size not in (used, used - 4):
        raise FormatError("CPU data at %d: chunks take %d bytes, the BUFFER option says %d"
                          % (offset, used, size))
    return chunks, size == used


def recompress(buf, out_codec, in_codec_for):
    head, sections = parse(buf)
    in_codec = in_codec_for(head["codec"])
    by_offset = {s.offset: s for s in sections}

    # Decompress metadata sections; collect the options sections' content.
    for s in sections:
        if s.sid == OPT_BUFFER:
            continue
        if s.flags & SEC_FL_COMPRESS:
            csize, usize = struct.unpack_from("<II", s.body, 0)
            s.data = in_codec.decompress(s.body[8:8 + csize], usize)
        else:
            s.data = s.body

    # Find BUFFER options and the flyrecord sections they describe.
    flyrecords = {}
    for s in sections:
        if s.sid != 0:
            continue
        for oid, payload in options_of(s.data):
            if oid == OPT_BUFFER_TEXT:
                raise FormatError("latency (text) buffers are not handled")
            if oid == OPT_BUFFER:
                b = parse_buffer_option(payload)
                sec = by_offset.get(b["offset"])
                if sec is None or sec.sid != OPT_BUFFER:
                    raise FormatError("BUFFER option points at %d, not a flyrecord section"
                                      % b["offset"])
                if not sec.flags & SEC_FL_COMPRESS:
                    raise FormatError("flyrecord data is not compressed")
                per_cpu = [read_chunks(buf, off, size, in_codec) for _, off, size in b["cpus"]]
                b["chunks"] = [chunks for chunks, _ in per_cpu]
                b["size_has_count"] = any(has for _, has in per_cpu)
                flyrecords[b["offset"]] = b

    page = head["page_size"]
    codec_hdr = out_codec.name.encode() + b"\0" + out_codec.version.encode() + b"\0"
    header_len = len(MAGIC) + 2 + 2 + 4 + len(codec_hdr) + 8

    # Compress every metadata section once (options sections are rewritten
    # below with new offsets; compressed ones would need a fixed point).
    plain = out_codec.name == "none"
    for s in sections:
        if s.sid == 0 and s.flags & SEC_FL_COMPRESS:
            raise FormatError("compressed options sections are not handled")
        s.new_flags = s.flags & ~SEC_FL_COMPRESS if plain else s.flags
        if s.sid not in (0, OPT_BUFFER) and s.new_flags & SEC_FL_COMPRESS:
            c = out_codec.compress(s.data)
            s.new_body = struct.pack("<II", len(c), len(s.data)) + c
        else:
            s.new_body = s.data         # options: same size after patching offsets
    # Per CPU: the bytes to write at its page-aligned offset and the size to
    # store in the BUFFER option.
    for b in flyrecords.values():
        b["blobs"] = []
        for chunks in b["chunks"]:
            if not chunks:
                b["blobs"].append((b"", 0))
            elif plain:
                raw = b"".join(chunks)
                b["blobs"].append((raw, len(raw)))
            else:
                stream = b""
                for u in chunks:
                    c = out_codec.compress(u)
                    stream += struct.pack("<II", len(c), len(u)) + c
                size = len(stream) + (4 if b["size_has_count"] else 0)
                b["blobs"].append((struct.pack("<I", len(chunks)) + stream, size))

    # Lay the sections out in their original order.
    pos = header_len
    for s in sections:
        s.new_offset = pos
        if s.sid == OPT_BUFFER:
            b = flyrecords.get(s.offset)
            if b is None:
                raise FormatError("flyrecord section at %d has no BUFFER option" % s.offset)
            p = pos + 16
            for i, (blob, size) in enumerate(b["blobs"]):
                p = (p + page - 1) // page * page if blob else p
                b["cpus"][i][1] = (p + page - 1) // page * page
                b["cpus"][i][2] = size
                p += len(blob)
            b["end"] = p
            pos = p
        else:
            pos += 16 + len(s.new_body)
    remap = {s.offset: s.new_offset for s in sections}

    def new_off(old):
        if old == 0:
            return 0
        if old not in remap:
            raise FormatError("an option points at %d, which is no section start" % old)
        return remap[old]

    # Patch offsets inside the options sections.
    for s in sections:
        if s.sid != 0:
            continue
        out = b""
        for oid, payload in options_of(s.data):
            if oid == OPT_DONE or oid in OPT_SECTION_POINTERS:
                payload = struct.pack("<Q", new_off(struct.unpack("<Q", payload)[0]))
            elif oid == OPT_BUFFER:
                b = flyrecords[struct.unpack_from("<Q", payload, 0)[0]]
                b2 = dict(b, offset=remap[b["offset"]])
                payload = build_buffer_option(b2)
            out += struct.pack("<HI", oid, len(payload)) + payload
        if len(out) != len(s.data):
            raise FormatError("options section changed size")
        s.new_body = out

    # Write.
    out = bytearray()
    out += MAGIC + b"7\0" + bytes([0, head["long_size"]]) + struct.pack("<I", page)
    out += codec_hdr + struct.pack("<Q", new_off(head["first_options"]))
    assert len(out) == header_len
    for s in sections:
        assert len(out) == s.new_offset
        if s.sid == OPT_BUFFER:
            b = flyrecords[s.offset]
            size = b["end"] - (s.new_offset + 16)
            out += struct.pack("<HHIQ", s.sid, s.new_flags, s.desc, size)
            for (blob, _), (_, off, _) in zip(b["blobs"], b["cpus"]):
                if blob:
                    out += b"\0" * (off - len(out))
                    out += blob
            assert len(out) == b["end"]
        else:
            out += struct.pack("<HHIQ", s.sid, s.new_flags, s.desc, len(s.new_body))
            out += s.new_body
    return bytes(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codec", choices=("zlib", "zstd", "none"), required=True)
    parser.add_argument("input")
    parser.add_argument("output")
    args = parser.parse_args()

    def codec_for(name):
        if name == "zstd":
            return Zstd()
        if name == "zlib":
            return Zlib()
        raise FormatError("input compression %r is not handled (need zstd or zlib)" % name)

    try:
        out_codec = Plain() if args.codec == "none" else codec_for(args.codec)
        with open(args.input, "rb") as f:
            data = f.read()
        result = recompress(data, out_codec, codec_for)
    except (FormatError, OSError, struct.error, ValueError, zlib.error) as e:
        print("v7-recompress: %s: %s" % (args.input, e), file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
