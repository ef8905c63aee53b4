#!/usr/bin/env python3
"""Checks that the folders of src/ depend on each other one way only.

Every `#include "folder/file.h"` in src/<folder>/ is an edge between folders. The layers,
bottom-up (docs/architecture.md):

    util -> io -> {pde, nn, gp} -> {model, solve, eval} -> config -> report -> pipeline -> cli

A folder may include its own headers and those of any lower layer; folders of one
layer may include each other only where ALLOWED_SIDEWAYS says so. The script prints
every edge that breaks the order, every cycle in the folder graph, and exits 1 if there
is any. `--list` also prints each layer's folders with their files and line counts.

Usage: check_layers.py SRC_DIR [--list]
"""

import os
import re
import sys

LAYERS = [["util"], ["io"], ["pde", "nn", "gp"], ["model", "solve", "eval"], ["config"],
          ["report"], ["pipeline"], ["cli"]]
# Edges between folders of one layer that are part of the design, as (from, to) pairs;
# none today. Add one only with a line in docs/architecture.md saying why.
ALLOWED_SIDEWAYS = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.MULTILINE)


def layer_of(folder):
    for index, layer in enumerate(LAYERS):
        if folder in layer:
            return index
    return None


def source_files(src, folder):
    path = os.path.join(src, folder)
    return sorted(f for f in os.listdir(path) if f.endswith((".h", ".cpp")))


def edges(src):
    """(from_folder, to_folder) -> first 'file: include' that makes the edge."""
    found = {}
    for folder in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, folder)):
            continue
        for name in source_files(src, folder):
            with open(os.path.join(src, folder, name), encoding="utf-8") as handle:
                for target in INCLUDE.findall(handle.read()):
                    if target != folder:
                        found.setdefault((folder, target), f"src/{folder}/{name} includes {target}/")
    return found


def cycles(graph):
    """Every elementary cycle found by depth-first search, as folder lists."""
    found, stack = [], []

    def visit(node, on_path):
        stack.append(node)
        on_path.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ in on_path:
                cycle = stack[stack.index(succ):] + [succ]
                if sorted(cycle[:-1]) not in [sorted(c[:-1]) for c in found]:
                    found.append(cycle)
            elif succ > stack[0]:
                visit(succ, on_path)
        on_path.discard(node)
        stack.pop()

    for start in sorted(graph):
        visit(start, set())
    return found


def line_count(path):
    with open(path, encoding="utf-8") as handle:
        return sum(1 for _ in handle)


def print_listing(src):
    for index, layer in enumerate(LAYERS):
        total = 0
        rows = []
        for folder in layer:
            files = source_files(src, folder)
            lines = sum(line_count(os.path.join(src, folder, f)) for f in files)
            total += lines
            rows.append(f"    {folder + '/':8} {len(files):3} files {lines:6} lines")
        print(f"layer {index}: {', '.join(layer)} ({total} lines)")
        print("\n".join(rows))


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    src = argv[1]
    found = edges(src)
    problems = []
    folders = {f for f in os.listdir(src) if os.path.isdir(os.path.join(src, f))}
    for folder in sorted(folders):
        if layer_of(folder) is None:
            problems.append(f"src/{folder}/ is in no layer (add it to LAYERS and docs/architecture.md)")
    for (source, target), where in sorted(found.items()):
        low, high = layer_of(target), layer_of(source)
        if low is None or high is None:
            continue
        if low > high or (low == high and (source, target) not in ALLOWED_SIDEWAYS):
            problems.append(f"{source} -> {target} goes against the layers ({where})")
    graph = {}
    for source, target in found:
        graph.setdefault(source, set()).add(target)
    for cycle in cycles(graph):
        problems.append("cycle: " + " -> ".join(cycle))
    if "--list" in argv:
        print_listing(src)
    for problem in problems:
        print("layers: " + problem)
    print(f"{len(found)} folder edges checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
