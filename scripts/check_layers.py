#!/usr/bin/env python3
"""Checks the layering of src/ that the compiler does not:

* no import circle between modules (`use crate::…`, `super::…` and paths in code, comments
  left out; a module and its own submodules do not count as a circle);
* the layers below the window (parse, model, analysis, app, cli) do not use egui or eframe;
* nothing under src/ui starts a thread or sorts: pages draw what the view-models in
  src/app/views built;
* the map of src/ in docs/architecture.md is the one scripts/file_map.py prints.

Prints each problem and exits 1 when there is one. Usage: scripts/check_layers.py [ROOT]
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
src = os.path.join(root, "src")


def code_of(path):
    """The file's code: comments and string literals removed, test modules cut off."""
    text = open(path, encoding="utf-8").read()
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//.*", "", text)


modules = {}
for folder, _, files in os.walk(src):
    for name in files:
        if not name.endswith(".rs"):
            continue
        path = os.path.join(folder, name)
        parts = os.path.relpath(path, src)[:-3].split(os.sep)
        if parts[-1] == "mod":
            parts = parts[:-1]
        if parts in (["lib"], ["main"]):
            continue
        modules["::".join(parts)] = path


def resolve(module, path):
    """The module a path names (the longest known prefix), or None."""
    segments = path.split("::")
    if segments[0] == "crate":
        base, segments = [], segments[1:]
    elif segments[0] in ("super", "self"):
        base = module.split("::")
        while segments and segments[0] == "super":
            base = base[:-1]
            segments = segments[1:]
        if segments and segments[0] == "self":
            segments = segments[1:]
    else:
        return None
    for n in range(len(segments), 0, -1):
        candidate = "::".join(base + segments[:n])
        if candidate in modules:
            return candidate
    return None


problems = []
edges = {m: set() for m in modules}
for module, path in modules.items():
    code = code_of(path)
    for match in re.finditer(r"\b((?:crate|super|self)(?:::\w+)+)", code):
        target = resolve(module, match.group(1))
        if target and target != module and not module.startswith(target + "::") and not target.startswith(module + "::"):
            edges[module].add(target)
    layer = module.split("::")[0]
    if layer != "ui" and re.search(r"\b(egui|eframe|egui_plot|egui_extras)::", code):
        problems.append(f"{os.path.relpath(path, root)}: uses egui below the ui layer")
    if layer == "ui":
        for n, line in enumerate(code.splitlines(), 1):
            if re.search(r"\.sort(_unstable)?(_by(_key|_cached_key)?)?\(|thread::spawn|thread::Builder|rayon::", line):
                problems.append(f"{os.path.relpath(path, root)}:{n}: sorts or starts a thread in ui: {line.strip()}")

# Strongly connected components (Tarjan), iteratively.
index, low, on_stack, stack, counter = {}, {}, set(), [], [0]
for start in modules:
    if start in index:
        continue
    work = [(start, iter(sorted(edges[start])))]
    index[start] = low[start] = counter[0]
    counter[0] += 1
    stack.append(start)
    on_stack.add(start)
    while work:
        node, children = work[-1]
        advanced = False
        for child in children:
            if child not in index:
                index[child] = low[child] = counter[0]
                counter[0] += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
                advanced = True
                break
            if child in on_stack:
                low[node] = min(low[node], index[child])
        if advanced:
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[node])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                problems.append("import circle: " + " <-> ".join(sorted(component)))

# The map of src/ in docs/architecture.md is the one the code gives.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from file_map import file_map  # noqa: E402

doc = open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8").read()
found = re.search(r"<!-- file map: scripts/file_map.py -->\n```\n(.*?)\n```\n<!-- end of file map -->", doc, re.S)
if not found or found.group(1) != file_map(root):
    problems.append("docs/architecture.md: the map of src/ is out of date (print it with scripts/file_map.py)")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
