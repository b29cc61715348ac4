#!/usr/bin/env python3
"""Lists each file's `crate::` imports in widgets/src and checks the modules form a one-way stack.

Every `crate::a::...` path in code (comments are skipped) is an edge from the file's top-level
module to `a`. A path to an item of the crate root (`crate::Game`) counts as an edge to `lib`,
the facade, which nothing inside the crate may lean on. Prints the imports per file, then the
layers from the bottom, and exits 1 on a cycle.

Usage: scripts/widgets-layers.py [widgets/src]
"""

import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "widgets", "src")
ROOT = os.path.normpath(ROOT)

MODULES = set()
for entry in os.listdir(ROOT):
    if entry.endswith(".rs") and entry != "lib.rs":
        MODULES.add(entry[:-3])
    elif os.path.isdir(os.path.join(ROOT, entry)):
        MODULES.add(entry)


def top_module(path):
    rel = os.path.relpath(path, ROOT)
    first = rel.split(os.sep)[0]
    return first[:-3] if first.endswith(".rs") else first


def first_segments(group):
    """The first segment of each path in a `{...}` group, at depth one."""
    segments, depth, token, at_start = [], 0, "", True
    for char in group[1:-1]:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            at_start, token = True, ""
            continue
        if depth == 0 and at_start:
            if char.isalnum() or char == "_":
                token += char
            elif token:
                segments.append(token)
                at_start, token = False, ""
    if at_start and token:
        segments.append(token)
    return segments


def imports(path):
    code = "\n".join(re.sub(r"//.*", "", line) for line in open(path, encoding="utf-8"))
    found = set()
    for match in re.finditer(r"crate::(\{(?:[^{}]|\{[^{}]*\})*\}|[A-Za-z_][A-Za-z0-9_]*)", code):
        target = match.group(1)
        names = first_segments(target) if target.startswith("{") else [target]
        for name in names:
            found.add(name if name in MODULES else "lib")
    return found


edges = {module: set() for module in MODULES}
print("imports per file:")
for directory, _, files in sorted(os.walk(ROOT)):
    for name in sorted(files):
        if not name.endswith(".rs"):
            continue
        path = os.path.join(directory, name)
        found = imports(path)
        print(f"  {os.path.relpath(path, ROOT)}: {', '.join(sorted(found)) or '-'}")
        if name == "lib.rs" and directory == ROOT:
            continue  # the facade: declares and re-exports everything
        module = top_module(path)
        edges[module] |= found - {module}

# Layers by longest path from the bottom; a cycle stops the walk.
layer, state, cycle = {}, {}, []


def visit(module, stack):
    if state.get(module) == "done":
        return layer[module]
    if state.get(module) == "open":
        cycle.append(stack[stack.index(module):] + [module])
        return 0
    state[module] = "open"
    below = [visit(target, stack + [module]) for target in sorted(edges.get(module, ()))]
    state[module] = "done"
    layer[module] = 1 + max(below, default=-1)
    return layer[module]


for module in sorted(edges):
    visit(module, [])

if cycle:
    for found in cycle:
        print("cycle: " + " -> ".join(found))
    sys.exit(1)
print("layers, bottom first (a module imports only from layers below it):")
for level in range(max(layer.values()) + 1):
    names = sorted(module for module in layer if layer[module] == level)
    print(f"  {level}: {', '.join(names)}")
