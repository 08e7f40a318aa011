#!/usr/bin/env python3
# check-screenshots.py METAINFO SOURCE_ROOT
#
# The metainfo's <screenshots> and the README show pictures that are in the
# tree: each <image> URL is the project's raw-file address of a PNG under
# data/screenshots/ that exists, whose size is the one the <image> gives;
# exactly one screenshot is the default, each has a caption of at most 50
# characters (appstream-util's strict limit); README.md shows each of them,
# and every PNG in data/screenshots/ is listed.  Exits 1 naming what is
# wrong.  (appstreamcli validate --no-net cannot fetch the
# URLs; this checks what the URLs will point at once main is pushed.)
#
# SPDX-License-Identifier: GPL-2.0-or-later

import os
import struct
import sys
import xml.etree.ElementTree as ET

RAW_PREFIX = "https://raw.githubusercontent.com/chronoscope/chronoscope/main/"
SHOT_DIR = "data/screenshots"
MAX_BYTES = 300 * 1024
MAX_CAPTION = 50

problems = []


def problem(text):
    problems.append(text)
    print("not ok: " + text, file=sys.stderr)


def png_size(path):
    """(width, height) from a PNG's IHDR, or None when it is no PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def main():
    if len(sys.argv) != 3:
        print("usage: check-screenshots.py METAINFO SOURCE_ROOT", file=sys.stderr)
        return 2
    metainfo, root = sys.argv[1], sys.argv[2]
    tree = ET.parse(metainfo)
    shots = tree.getroot().findall("./screenshots/screenshot")
    if not shots:
        problem(f"{metainfo}: no <screenshots>")
    defaults = [s for s in shots if s.get("type") == "default"]
    if len(defaults) != 1:
        problem(f"{metainfo}: {len(defaults)} screenshots of type default, want 1")

    listed = []
    for n, shot in enumerate(shots, 1):
        captions = [c for c in shot.findall("caption") if not c.get("{http://www.w3.org/XML/1998/namespace}lang")]
        if len(captions) != 1 or not (captions[0].text or "").strip():
            problem(f"{metainfo}: screenshot {n} has no caption")
        elif len(captions[0].text.strip()) > MAX_CAPTION:
            # appstream-util validate (strict) refuses longer ones.
            problem(f"{metainfo}: screenshot {n}'s caption is longer than {MAX_CAPTION} characters")
        images = shot.findall("image")
        if len(images) != 1:
            problem(f"{metainfo}: screenshot {n} has {len(images)} images, want 1")
            continue
        image = images[0]
        url = (image.text or "").strip()
        if not url.startswith(RAW_PREFIX):
            problem(f"{metainfo}: screenshot {n}: {url} is not under {RAW_PREFIX}")
            continue
        rel = url[len(RAW_PREFIX):]
        if os.path.dirname(rel) != SHOT_DIR:
            problem(f"{metainfo}: screenshot {n}: {rel} is not in {SHOT_DIR}/")
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            problem(f"{metainfo}: screenshot {n}: {rel} is not in the tree")
            continue
        listed.append(rel)
        size = png_size(path)
        if size is None:
            problem(f"{rel}: not a PNG")
            continue
        want = (int(image.get("width", "0")), int(image.get("height", "0")))
        if size != want:
            problem(f"{rel}: {size[0]}×{size[1]} px, the metainfo says {want[0]}×{want[1]}")
        if os.path.getsize(path) > MAX_BYTES:
            problem(f"{rel}: {os.path.getsize(path)} bytes, more than {MAX_BYTES}")
        print(f"ok: screenshot {n}: {rel}, {size[0]}×{size[1]} px, {os.path.getsize(path)} bytes")

    in_tree = sorted(os.path.join(SHOT_DIR, f) for f in os.listdir(os.path.join(root, SHOT_DIR))
                     if f.endswith(".png"))
    for rel in in_tree:
        if rel not in listed:
            problem(f"{rel} is in the tree but not in the metainfo's <screenshots>")

    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for rel in listed:
        if f"]({rel})" not in readme:
            problem(f"README.md does not show {rel}")

    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
