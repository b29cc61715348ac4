#!/usr/bin/env python3
"""Checks that the files of each crate import one way: no two files import each other, directly
or through others. Prints each crate's layers from the bottom, and exits 1 naming every circle.

Usage: scripts/layers.py [--imports] [CRATE_DIR ...]   (default: core sim widgets generator)

What counts as an import of file A by file B (an edge B -> A):

- a `use` of an item, by any path (`crate::…`, `super::…`, `self::…`, a child module's name),
  and a path of that kind written in code (`crate::log::meter::unmetered()`);
- the path is followed to the file that DEFINES the item, through every re-export (`pub use`)
  on the way: `crate::log::ColocatedNode` is an edge to `log/node/mod.rs`, not to `log/mod.rs`;
- `super::X` from a child file names an item of its parent module: it is an edge to the parent's
  file (`mod.rs`, or `node.rs` for the children in `node/`), or on to wherever X is defined.

What does not count:

- a `mod` declaration: declaring a child is not using it;
- a `pub use` that only re-exports (its names appear nowhere else in the file's code): it passes
  a path through, and the path's users get the edge to the defining file instead. A re-exported
  name that the file's own code uses is an import like any other;
- method calls: `self.on_prepare(…)` in one file calling a method an `impl` block of another file
  defines is not a path, and the check cannot see it. A type's `impl` blocks split over a
  parent and its children therefore stand on the parent (the children name the type through
  `super::`), and the parent must not name anything its children define;
- test code: files declared under `#[cfg(test)]`, and `#[cfg(test)]` items inside a file (test
  modules, test-only functions). Tests sit on top of everything they test and import from every
  layer by design, often by `use super::*`; they are no part of the crate's structure.

Each binary target (`src/main.rs`, `src/bin/…`) is checked as a crate of its own: its `crate::`
is the binary, and it reaches the library only by the library's name, which is not an edge.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_strings(text):
    """The code with comments removed and string and char literals emptied, lines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:i + 300]) and not re.match(r"\w", text[i - 1] if i else " "):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + len(hashes) + 2)
            end = n if end < 0 else end + 1 + len(hashes)
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:  # a char literal; otherwise a lifetime, kept
                out.append("' '")
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def item_end(code, start):
    """The end of the item that begins at `start`: after its `;`, or its `{…}` block."""
    depth_paren, i = 0, start
    while i < len(code):
        c = code[i]
        if c in "([":
            depth_paren += 1
        elif c in ")]":
            depth_paren -= 1
        elif c == ";" and depth_paren == 0:
            return i + 1
        elif c == "{" and depth_paren == 0:
            depth = 0
            while i < len(code):
                if code[i] == "{":
                    depth += 1
                elif code[i] == "}":
                    depth -= 1
                    if depth == 0:
                        return i + 1
                i += 1
            return i
        i += 1
    return i


TEST_ATTR = re.compile(r"#\[cfg\((test|all\(\s*test\b[^\]]*)\)\]")


def strip_test_items(code):
    """The code without its `#[cfg(test)]` items (and `cfg(all(test, …))` ones)."""
    while True:
        m = TEST_ATTR.search(code)
        if not m:
            return code
        end = item_end(code, m.end())
        code = code[: m.start()] + "\n" * code.count("\n", m.start(), end) + code[end:]


def split_use_tree(tree):
    """`a::{b, c::{d as e}, f::*}` into [(path, binding)], binding None for a glob."""
    tree = re.sub(r"\s+", "", tree)
    results = []

    def walk(prefix, text):
        depth, start, parts = 0, 0, []
        for index, char in enumerate(text):
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            elif char == "," and depth == 0:
                parts.append(text[start:index])
                start = index + 1
        parts.append(text[start:])
        for part in filter(None, parts):
            brace = part.find("{")
            if brace >= 0:
                head = [s for s in part[:brace].split("::") if s]
                walk(prefix + head, part[brace + 1 : part.rindex("}")])
                continue
            name, _, alias = part.partition("as")
            if not _ or not re.fullmatch(r".*::" + IDENT + "|" + IDENT, name):
                name, alias = part, None
            segments = [s for s in name.split("::") if s]
            if segments == ["*"] or segments[-1:] == ["*"]:
                results.append((prefix + segments[:-1], None))
            elif segments == ["self"]:
                results.append((prefix, alias or prefix[-1]))
            else:
                results.append((prefix + segments, alias or segments[-1]))

    walk([], tree)
    return results


USE = re.compile(r"(?<![\w:])(pub(\s*\([^)]*\))?\s+)?use\s+([^;]*);")
MOD = re.compile(r'((?:#\[[^\]]*\]\s*)*)(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(' + IDENT + r")\s*;")
PATH_ATTR = re.compile(r'#\[path\s*=\s*"([^"]*)"\]')


class Module:
    def __init__(self, path, file, parent):
        self.path = path  # tuple of names from the crate root
        self.file = file
        self.parent = parent
        self.children = {}
        self.uses = []  # (segments, binding or None, is_pub)
        self.code = ""  # code outside `use` items


class Crate:
    """One crate's module tree, from a root file, with test code left out."""

    def __init__(self, root_file, src_dir):
        self.src_dir = src_dir
        self.modules = {}
        raw = open(root_file, encoding="utf-8").read()
        self.load((), root_file, None, os.path.dirname(root_file), raw)

    def load(self, path, file, parent, child_dir, raw):
        module = Module(path, file, parent)
        self.modules[path] = module
        if parent is not None:
            parent.children[path[-1]] = module
        text = strip_comments_and_strings(raw)
        # `#[path]` values live in strings, which the stripping emptied: read them first.
        declared = {}
        for m in MOD.finditer(strip_test_items(re.sub(r"//.*", "", raw))):
            attrs, name = m.group(1), m.group(2)
            at = PATH_ATTR.search(attrs)
            declared[name] = os.path.join(os.path.dirname(file), at.group(1)) if at else None
        code = strip_test_items(text)
        for m in USE.finditer(code):
            for segments, binding in split_use_tree(m.group(3)):
                module.uses.append((segments, binding, bool(m.group(1))))
        module.code = USE.sub(lambda m: "\n" * m.group(0).count("\n"), code)
        for m in MOD.finditer(code):
            name = m.group(2)
            child_file = declared.get(name)
            if child_file is None:
                for candidate in (os.path.join(child_dir, name + ".rs"), os.path.join(child_dir, name, "mod.rs")):
                    if os.path.exists(candidate):
                        child_file = candidate
                        break
            if child_file is None or not os.path.exists(child_file):
                raise SystemExit(f"error: {file}: module `{name}` has no file")
            if os.path.basename(child_file) == "mod.rs":
                grand_dir = os.path.dirname(child_file)
            else:
                grand_dir = os.path.join(os.path.dirname(child_file), name)
                if declared.get(name):  # `#[path]`: children beside the file, by its stem
                    grand_dir = os.path.join(os.path.dirname(child_file), os.path.basename(child_file)[:-3])
            self.load(path + (name,), child_file, module, grand_dir, open(child_file, encoding="utf-8").read())

    def resolve(self, module, segments, depth=0):
        """The file defining the item `segments` names from `module`; None outside the crate."""
        if depth > 20 or not segments:
            return None
        head, rest = segments[0], segments[1:]
        if head == "crate":
            return self.walk(self.modules[()], rest, depth)
        if head == "self":
            return self.walk(module, rest, depth)
        if head == "super":
            return self.resolve_super(module, rest, depth)
        if head in module.children:
            return self.walk(module.children[head], rest, depth)
        for used, binding, _ in module.uses:
            if binding == head:
                return self.resolve(module, used + rest, depth + 1)
        return None  # an external crate, a prelude name or a local item

    def resolve_super(self, module, rest, depth):
        parent = module.parent
        while rest[:1] == ["super"]:
            parent, rest = parent.parent, rest[1:]
        return self.walk(parent, rest, depth)

    def walk(self, module, rest, depth):
        """From `module`, down `rest`: through child modules and re-exports to a defining file."""
        if not rest or rest == ["self"]:
            return module.file
        head = rest[0]
        if head == "super":
            return self.resolve_super(module, rest[1:], depth)
        if head in module.children:
            return self.walk(module.children[head], rest[1:], depth)
        for used, binding, _ in module.uses:
            if binding == head:
                return self.resolve(module, used + rest[1:], depth + 1)
        for used, binding, _ in module.uses:
            if binding is None:  # a glob: the name may come through it
                target = self.find_module(module, used)
                if target and (head in target.children or self.defines(target, head)
                               or any(b == head for _, b, _ in target.uses)):
                    return self.walk(target, rest, depth + 1)
        return module.file  # defined here

    def find_module(self, module, segments):
        head, rest = segments[0], segments[1:]
        if head == "crate":
            found = self.modules[()]
        elif head == "self":
            found = module
        elif head == "super":
            found = module.parent
            while rest[:1] == ["super"]:
                found, rest = found.parent, rest[1:]
        elif head in module.children:
            found = module.children[head]
        else:
            return None
        for name in rest:
            found = found.children.get(name) if found else None
        return found

    @staticmethod
    def defines(module, name):
        item = r"\b(fn|struct|enum|trait|type|const|static|union|macro_rules!)\s+" + re.escape(name) + r"\b"
        return re.search(item, module.code) is not None

    def edges(self):
        """For each file, the files it imports, each with the paths that import it."""
        found = {module.file: {} for module in self.modules.values()}
        for module in self.modules.values():
            out = found[module.file]
            for segments, binding, is_pub in module.uses:
                if binding is None:
                    target = self.find_module(module, segments)
                    targets = [target.file] if target else []
                else:
                    if is_pub and not re.search(r"\b" + re.escape(binding) + r"\b", module.code):
                        continue  # only re-exported
                    targets = [self.resolve(module, segments)]
                for target in targets:
                    if target and target != module.file:
                        out.setdefault(target, []).append("::".join(segments + ([] if binding else ["*"])))
            for m in re.finditer(r"(?<![\w:])(" + IDENT + r")((?:\s*::\s*" + IDENT + r")+)", module.code):
                head = m.group(1)
                if head not in ("crate", "super", "self") and head not in module.children:
                    continue
                segments = [head] + [s.strip() for s in m.group(2).split("::") if s.strip()]
                target = self.resolve(module, segments)
                if target and target != module.file:
                    out.setdefault(target, []).append("::".join(segments))
        return found


def crate_roots(crate_dir):
    src = os.path.join(crate_dir, "src")
    roots = [os.path.join(src, name) for name in ("lib.rs", "main.rs") if os.path.exists(os.path.join(src, name))]
    bin_dir = os.path.join(src, "bin")
    if os.path.isdir(bin_dir):
        for entry in sorted(os.listdir(bin_dir)):
            path = os.path.join(bin_dir, entry)
            if entry.endswith(".rs"):
                roots.append(path)
            elif os.path.exists(os.path.join(path, "main.rs")):
                roots.append(os.path.join(path, "main.rs"))
    return src, roots


def circles(edges):
    """The strongly connected components with more than one file (Tarjan), each sorted."""
    index, low, stack, on_stack, found, counter = {}, {}, [], set(), [], [0]

    def connect(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def one_cycle(edges, component):
    """A shortest cycle through the component's first file, as a list of files."""
    start, members = component[0], set(component)
    previous, frontier = {start: None}, [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(edges[node]):
                if target == start:
                    cycle = [node]
                    while previous[cycle[-1]] is not None:
                        cycle.append(previous[cycle[-1]])
                    return list(reversed(cycle)) + [start]
                if target in members and target not in previous:
                    previous[target] = node
                    following.append(target)
        frontier = following
    return component


def layers(edges):
    """Each file's layer: one above the highest layer it imports from (the graph is acyclic)."""
    layer = {}

    def visit(node):
        if node not in layer:
            layer[node] = 1 + max((visit(target) for target in edges[node]), default=-1)
        return layer[node]

    for node in edges:
        visit(node)
    return layer


def check(crate_dir, show_imports):
    src, roots = crate_roots(crate_dir)
    if not roots:
        print(f"error: {crate_dir}: no src/lib.rs, src/main.rs or src/bin/", file=sys.stderr)
        return False
    clean = True
    for root in roots:
        crate = Crate(root, src)
        edges = crate.edges()
        name = os.path.relpath(root, src)
        rel = lambda path: os.path.relpath(path, src)  # noqa: E731
        print(f"{os.path.basename(os.path.normpath(crate_dir))} ({name}): {len(edges)} files")
        if show_imports:
            for file in sorted(edges):
                imports = "; ".join(f"{rel(t)} ({', '.join(sorted(set(why)))})" for t, why in sorted(edges[file].items()))
                print(f"  {rel(file)} imports {imports or '-'}")
        found = circles(edges)
        if found:
            clean = False
            for component in found:
                cycle = one_cycle(edges, component)
                steps = [rel(cycle[0])]
                for here, there in zip(cycle, cycle[1:]):
                    steps.append(f"{rel(there)} (by {edges[here][there][0]})")
                print(f"  circle of {len(component)} files: {', '.join(rel(f) for f in component)}")
                print("    e.g. " + " -> ".join(steps))
            continue
        layer = layers(edges)
        print("  layers, bottom first (a file imports only from layers below it):")
        for level in range(max(layer.values()) + 1):
            names = sorted(rel(file) for file in layer if layer[file] == level)
            print(f"    {level}: {', '.join(names)}")
    return clean


def main(argv):
    show_imports = "--imports" in argv
    dirs = [arg for arg in argv if arg != "--imports"]
    if not dirs:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
        dirs = [os.path.join(here, name) for name in ("core", "sim", "widgets", "generator")]
    results = [check(os.path.normpath(crate_dir), show_imports) for crate_dir in dirs]
    if not all(results):
        print("error: a crate's files import in a circle (see above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
