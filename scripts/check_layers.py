#!/usr/bin/env python3
"""Checks what the crates of the workspace cannot say about the layering.

The compiler keeps the order of the layers: they are crates (crates/engine with parse, model
and analysis; crates/app; crates/ui; crates/cli), and a crate cannot use one above it. This
script checks the rest:

* no import circle between modules inside a crate (`use crate::…`, `super::…` and paths in
  code, comments left out; a module and its own submodules do not count as a circle);
* the layers below the window (parse, model, analysis, app, cli) do not use egui or eframe
  (their manifests do not name it either);
* the window's manifest names no thread pool (rayon): pages draw what the view-models in
  crates/app/src/views built. That the window sorts nothing and starts no thread of its own is
  Clippy's to check (`disallowed-methods` in crates/ui/clippy.toml);
* the map of the workspace in docs/architecture.md is the one scripts/file_map.py prints;
* tests live beside their crate (crates/*/tests, the root package's tests/ for those that run
  the binary or the window) and no test file is longer than 900 lines.

Prints each problem and exits 1 when there is one. Usage: scripts/check_layers.py [ROOT]
"""
import os
import re
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
# Each crate's source folder, and the module prefix its files get (the engine's folders are the
# layers parse, model and analysis themselves).
CRATES = {
    "engine": ("crates/engine/src", ""),
    "app": ("crates/app/src", "app"),
    "ui": ("crates/ui/src", "ui"),
    "cli": ("crates/cli/src", "cli"),
    "testkit": ("crates/testkit/src", "testkit"),
}
# How a crate names another crate's root.
EXTERN = {"sightline_engine": "", "sightline_app": "app"}


def code_of(path):
    """The file's code: comments and string literals removed, test modules cut off."""
    text = open(path, encoding="utf-8").read()
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//.*", "", text)


modules = {}
crate_of = {}
for crate, (folder_rel, prefix) in CRATES.items():
    src = os.path.join(root, folder_rel)
    for folder, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            parts = os.path.relpath(path, src)[:-3].split(os.sep)
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts == ["lib"]:
                parts = []
            parts = ([prefix] if prefix else []) + parts
            if not parts:
                continue
            modules["::".join(parts)] = path
            crate_of["::".join(parts)] = crate


def resolve(module, path):
    """The module a path names (the longest known prefix), or None. `crate::` is the module's
    own crate, whose root also sees the engine's layers by name."""
    segments = path.split("::")
    prefix = CRATES[crate_of[module]][1]
    if segments[0] == "crate":
        bases = [[prefix] if prefix else [], []]
        segments = segments[1:]
    elif segments[0] in EXTERN:
        bases = [[EXTERN[segments[0]]] if EXTERN[segments[0]] else []]
        segments = segments[1:]
    elif segments[0] in ("super", "self"):
        base = module.split("::")
        while segments and segments[0] == "super":
            base = base[:-1]
            segments = segments[1:]
        if segments and segments[0] == "self":
            segments = segments[1:]
        bases = [base]
    else:
        return None
    for base in bases:
        for n in range(len(segments), 0, -1):
            candidate = "::".join(base + segments[:n])
            if candidate in modules:
                return candidate
    return None


problems = []
edges = {m: set() for m in modules}
for module, path in modules.items():
    code = code_of(path)
    for match in re.finditer(r"\b((?:crate|super|self|sightline_engine|sightline_app)(?:::\w+)+)", code):
        target = resolve(module, match.group(1))
        if target and target != module and not module.startswith(target + "::") and not target.startswith(module + "::"):
            edges[module].add(target)
    layer = module.split("::")[0]
    if layer != "ui" and re.search(r"\b(egui|eframe|egui_plot|egui_extras)::", code):
        problems.append(f"{os.path.relpath(path, root)}: uses egui below the ui layer")

# Only the window's crate names egui in its manifest.
for crate in ("engine", "app", "cli", "testkit"):
    manifest = open(os.path.join(root, "crates", crate, "Cargo.toml"), encoding="utf-8").read()
    if re.search(r"^(egui|eframe|egui_plot|egui_extras|rfd)\b", manifest, re.M):
        problems.append(f"crates/{crate}/Cargo.toml: depends on egui below the ui layer")

# The window starts no thread: it does not depend on a thread pool (Clippy keeps it from
# std's threads and from sorting, crates/ui/clippy.toml).
ui_manifest = open(os.path.join(root, "crates", "ui", "Cargo.toml"), encoding="utf-8").read()
if re.search(r"^rayon\b", ui_manifest, re.M):
    problems.append("crates/ui/Cargo.toml: depends on rayon: the window starts no thread")

# Tests: every test file (crates/*/tests, tests/) stays under 900 lines, split by topic beyond.
TEST_FILE_LINES = 900
test_folders = [os.path.join(root, "tests")] + [
    os.path.join(root, "crates", c, "tests") for c in sorted(os.listdir(os.path.join(root, "crates")))
]
for folder in test_folders:
    for here, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".rs"):
                path = os.path.join(here, name)
                with open(path, encoding="utf-8") as f:
                    lines = sum(1 for _ in f)
                if lines > TEST_FILE_LINES:
                    problems.append(f"{os.path.relpath(path, root)}: {lines} lines, more than {TEST_FILE_LINES} (split it by topic)")

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
    problems.append("docs/architecture.md: the map of the workspace is out of date (print it with scripts/file_map.py)")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
