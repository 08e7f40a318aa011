#!/usr/bin/env python3
"""The house's shape: rooms, include circles, long files, GTK in the GTK-free rooms (TAP).

Usage: check-house.py [--report [--build BUILD_DIR]] [SOURCE_ROOT]

With --report it prints, for a person, the folders with their files and
lines, the include circles, the files over 1,000 lines and, with
--build, the shared libraries (ldd) of each installed executable of
BUILD_DIR, and exits 0.
Without it, it checks (TAP) the rules of README.md's "Source tree":

- no source file over 1,000 lines (files are cut by job, and a job that
  long is two jobs);
- no include circle of more than two modules unless its modules are one
  object split across files (they all include, or are, the same
  *-private.h) or it is one of KNOWN_CIRCLES, which may not grow;
- index/, render/ and the plugin API's core header include no GTK,
  libadwaita or GtkSourceView header (only the application links GTK);
- every .c file of gui/ but main.c uses GTK: headless code has its room
  below (render/cli/ for what the window and the command line share);
- layouts come from .ui files: the .c files of gui/ and plugins/ make no
  container (a box, grid, scrolled window, list box row…) in code but the
  KNOWN_LAYOUTS_IN_CODE, by file and count, which may not grow (each
  names why it stays).

A module is a .c file and the headers of the same stem (cs-foo.c,
cs-foo.h, cs-foo-private.h); module A uses module B when a file of A
includes a header of B.  Headers are found by name, as the build's include
folders find them.  Standard library only.
"""
import os
import re
import subprocess
import sys
from collections import defaultdict

SOURCE_DIRS = ["gui", "render", "index", "plugins", "include", "kmod"]
FREE_OF_GTK = ["index", "render", "include/chronoscope-1/chronoscope-plugin-core.h"]
GTK_USE = re.compile(r"\b(gtk_|Gtk|GTK_|adw_|Adw|ADW_|gdk_|Gdk|GDK_)")
GTK_INCLUDE = re.compile(r'#\s*include\s*<(gtk/|adwaita\.h|gtksourceview/|gdk/)')
INCLUDE = re.compile(r'#\s*include\s*"([^"]+)"')
MAX_LINES = 1000
# Circles known and not yet undone, by module names: none may grow, and a new
# one fails.  None is left: the window's (pages and sessions calling its
# getters) was undone by issue 23's view model (item 3).
KNOWN_CIRCLES = []
# Containers made in code, which a layout in a .ui file would make.
CONTAINER_NEW = re.compile(r"\bgtk_(box|grid|scrolled_window|paned|flow_box|list_box|list_box_row|"
                           r"notebook|stack|frame|center_box|overlay|header_bar|expander|popover|"
                           r"window|dialog)_new\b")
# Where they stay, and why; none may grow, a new file fails.  The cells of
# a list view, made by its factory's setup for each row shown, are small
# enough to read in code (a row of a list box made per item is a .ui file
# loaded per item: cs-plugin-row.ui, cs-cpu-check.ui...).
KNOWN_LAYOUTS_IN_CODE = {
    "gui/events/cs-filter-dialog.c": 1,   # a cell of the event types' list
    "gui/record/cs-record-event-tree.c": 1,  # a cell of the event tree
}


def sources(root):
    for top in SOURCE_DIRS:
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, f), root)


def lines_of(root, path):
    with open(os.path.join(root, path), errors="replace") as f:
        return f.read().count("\n")


def module_of(path):
    stem = os.path.basename(path)[:-2]
    if stem.endswith("-private"):
        stem = stem[:-len("-private")]
    return os.path.join(os.path.dirname(path), stem)


def include_graph(root, files):
    by_name = defaultdict(list)
    for f in files:
        by_name[os.path.basename(f)].append(f)
    uses = defaultdict(set)
    privates = defaultdict(set)
    for f in files:
        if f.endswith("-private.h"):
            privates[module_of(f)].add(f)
        with open(os.path.join(root, f), errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            # The header in the includer's folder first, else by name.
            near = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            targets = [near] if near in files else by_name.get(os.path.basename(inc), [])
            for t in targets[:1]:
                if module_of(t) != module_of(f):
                    uses[module_of(f)].add(module_of(t))
                if t.endswith("-private.h"):
                    privates[module_of(f)].add(t)
    return uses, privates


def circles(uses):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = sorted(set(uses) | {m for v in uses.values() for m in v})

    def visit(v):
        work = [(v, iter(sorted(uses.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(uses.get(w, ())))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    for v in nodes:
        if v not in index:
            visit(v)
    return sorted(out, key=lambda c: (-len(c), c))


def split_object(comp, privates):
    """True when every module of COMP includes one same private header."""
    common = None
    for m in comp:
        common = privates.get(m, set()) if common is None else common & privates.get(m, set())
    return bool(common)


def executables(build):
    """The product's executables in BUILD (not the tests'), by path."""
    out = []
    for d, dirs, files in os.walk(build):
        rel = os.path.relpath(d, build)
        if rel.split(os.sep)[0] in ("tests", "meson-private", "meson-logs", "meson-info"):
            dirs[:] = []
            continue
        for f in sorted(files):
            p = os.path.join(d, f)
            if os.access(p, os.X_OK) and not f.endswith((".so", ".sh")) and os.path.isfile(p):
                with open(p, "rb") as fh:
                    if fh.read(4) == b"\x7fELF":
                        out.append(p)
    return sorted(out)


def print_ldd(build):
    print("\nexecutables (ldd: libraries in all; GTK, libadwaita, GtkSourceView among them)")
    for exe in executables(build):
        libs = subprocess.run(["ldd", exe], capture_output=True, text=True).stdout.splitlines()
        names = [l.split()[0] for l in libs if l.strip()]
        ui = [n for n in names if re.match(r"lib(gtk-4|adwaita-1|gtksourceview-5)", n)]
        print(f"  {os.path.relpath(exe, build):45} {len(names):4}  {' '.join(ui) or '(none)'}")


def main():
    argv = sys.argv[1:]
    build = None
    if "--build" in argv:
        i = argv.index("--build")
        build = argv[i + 1]
        del argv[i:i + 2]
    args = [a for a in argv if not a.startswith("--")]
    report = "--report" in sys.argv
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    root = os.path.abspath(root)
    files = list(sources(root))
    fileset = set(files)
    uses, privates = include_graph(root, fileset)
    comps = circles(uses)
    long_files = [(lines_of(root, f), f) for f in files if lines_of(root, f) > MAX_LINES]
    gtk_in_free = []
    for f in files:
        if any(f == p or f.startswith(p + "/") for p in FREE_OF_GTK):
            with open(os.path.join(root, f), errors="replace") as fh:
                if GTK_INCLUDE.search(fh.read()):
                    gtk_in_free.append(f)

    headless_in_gui = []
    for f in files:
        if f.startswith("gui/") and f.endswith(".c") and f != "gui/main.c":
            with open(os.path.join(root, f), errors="replace") as fh:
                if not GTK_USE.search(fh.read()):
                    headless_in_gui.append(f)

    layouts_in_code = {}
    for f in files:
        if f.endswith(".c") and (f.startswith("gui/") or f.startswith("plugins/")):
            with open(os.path.join(root, f), errors="replace") as fh:
                k = len(CONTAINER_NEW.findall(fh.read()))
            if k:
                layouts_in_code[f] = k
    layouts_grown = [f"{f}: {k} container(s) made in code (known: {KNOWN_LAYOUTS_IN_CODE.get(f, 0)})"
                     for f, k in sorted(layouts_in_code.items())
                     if k > KNOWN_LAYOUTS_IN_CODE.get(f, 0)]

    if report:
        folders = defaultdict(lambda: [0, 0])
        for f in files:
            d = os.path.dirname(f)
            folders[d][0] += 1
            folders[d][1] += lines_of(root, f)
        print(f"{'folder':40} {'files':>6} {'lines':>7}")
        for d in sorted(folders):
            print(f"{d:40} {folders[d][0]:6} {folders[d][1]:7}")
        print(f"{'(all)':40} {len(files):6} {sum(v[1] for v in folders.values()):7}")
        print(f"\ninclude circles of more than one module: {len(comps)}")
        for c in comps:
            kind = "one object split across files" if split_object(c, privates) else "circle"
            print(f"  {len(c)} modules ({kind}): {' '.join(os.path.basename(m) for m in c)}")
        print(f"\nfiles over {MAX_LINES} lines: {len(long_files)}")
        for n, f in sorted(long_files, reverse=True):
            print(f"  {n:5} {f}")
        print(f"\nGTK headers in GTK-free rooms: {len(gtk_in_free)} {' '.join(gtk_in_free)}")
        print(f"files of gui/ that use no GTK: {len(headless_in_gui)} {' '.join(headless_in_gui)}")
        print(f"containers made in code: {sum(layouts_in_code.values())} in {len(layouts_in_code)} files")
        for f, k in sorted(layouts_in_code.items()):
            print(f"  {k:3} {f}")
        if build:
            print_ldd(build)
        return 0

    n = 0
    bad = 0

    def ok(cond, what, detail=""):
        nonlocal n, bad
        n += 1
        print(f"{'ok' if cond else 'not ok'} {n} - {what}")
        if not cond:
            bad += 1
            for line in detail.splitlines():
                print(f"# {line}")
    ok(not long_files, f"no source file over {MAX_LINES} lines",
       "\n".join(f"{f}: {k} lines" for k, f in long_files))
    def known(c):
        names = {os.path.basename(m) for m in c}
        return any(names <= k for k in KNOWN_CIRCLES)
    wrong = [c for c in comps if len(c) > 2 and not split_object(c, privates) and not known(c)]
    ok(not wrong, "no include circle of more than two modules but split objects "
       f"and the {len(KNOWN_CIRCLES)} known one(s), which may not grow",
       "\n".join(" ".join(c) for c in wrong))
    for k in KNOWN_CIRCLES:
        if not any({os.path.basename(m) for m in c} == k for c in comps):
            print(f"# a known circle is smaller or gone: shrink KNOWN_CIRCLES ({' '.join(sorted(k))})")
    ok(not gtk_in_free, "no GTK header in index/, render/ or the plugin API's core header",
       "\n".join(gtk_in_free))
    ok(not headless_in_gui, "every .c file of gui/ but main.c uses GTK",
       "\n".join(headless_in_gui))
    ok(not layouts_grown, "layouts come from .ui files: no container made in code in gui/ or "
       f"plugins/ but the {len(KNOWN_LAYOUTS_IN_CODE)} known file(s), which may not grow",
       "\n".join(layouts_grown))
    for f, k in sorted(KNOWN_LAYOUTS_IN_CODE.items()):
        if layouts_in_code.get(f, 0) < k:
            print(f"# {f} makes fewer containers in code: shrink KNOWN_LAYOUTS_IN_CODE")
    print(f"1..{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
