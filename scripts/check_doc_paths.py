#!/usr/bin/env python3
"""Checks that what a document names in backticks still exists in the workspace.

Two kinds of names are checked (code blocks are left out, and so are names with a placeholder
such as `<feature>`):

* file and folder paths (`crates/app/src/core/loader.rs`, `tests/cli/`): from the root of the
  workspace, or from a crate's source folder where the path starts with the crate's layer
  (`app/core/loader.rs`, `ui/pages/rules.rs`), or as the end of a path in the workspace
  (`views/rules.rs`, `ncu_rep/`); `*` matches as in a shell;
* Rust paths (`analysis::series::trend`, `output::trend_json`, `Command::Open`,
  `KernelResult::body()`): the modules are looked up among the workspace's modules (a path may
  start at any module, `views::rules` for `app::views::rules`), then each item in the module
  (defined in its file or a file below it, or re-exported there with `pub use`), then each
  member of a type (a variant, field or method named in a file that defines or implements it).

Prints each name that is not found, with its line, and exits 1 when there is one.
Usage: scripts/check_doc_paths.py [ROOT] [DOC...] (default: docs/architecture.md)
"""
import fnmatch
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, ".."))
docs = sys.argv[2:] or ["docs/architecture.md"]

# Each crate's source folder and the name its modules have in the documents (the engine's
# folders are the layers parse, model, analysis and output themselves).
CRATES = {
    "crates/engine/src": "",
    "crates/app/src": "app",
    "crates/ui/src": "ui",
    "crates/cli/src": "cli",
    "src": "sightline",
}
# How code and documents name a crate's root.
CRATE_NAMES = {
    "sightline_engine": "",
    "sightline_app": "app",
    "sightline_ui": "ui",
    "sightline_cli": "cli",
    "sightline": "",
}
SKIPPED_DIRS = {".git", "target", "node_modules", "corpus"}

# Every file and folder of the workspace, relative to the root.
paths = set()
for folder, dirs, files in os.walk(root):
    dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".")]
    rel = os.path.relpath(folder, root)
    if rel != ".":
        paths.add(rel.replace(os.sep, "/") + "/")
    for name in files:
        paths.add(os.path.normpath(os.path.join(rel, name)).replace(os.sep, "/"))

# Module path (segments, as the documents name them) -> the files of the module.
modules = {}
for src, prefix in CRATES.items():
    base = os.path.join(root, src)
    for folder, _, files in os.walk(base):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(folder, name)
            parts = os.path.relpath(path, base)[:-3].split(os.sep)
            if parts[-1] in ("mod", "lib", "main"):
                parts = parts[:-1]
            key = tuple(([prefix] if prefix else []) + parts)
            modules.setdefault(key, []).append(path)

texts = {}


def text_of(path):
    if path not in texts:
        texts[path] = open(path, encoding="utf-8").read()
    return texts[path]


def files_below(module):
    """The files of a module and of every module inside it."""
    return [f for key, fs in modules.items() if key[: len(module)] == module for f in fs]


def defines(files, item):
    pattern = re.compile(
        r"\b(?:fn|struct|enum|trait|type|const|static|mod|macro_rules!)\s+" + re.escape(item) + r"\b"
    )
    reexport = re.compile(r"pub use [^;]*\b" + re.escape(item) + r"\b[^;]*;", re.S)
    return any(pattern.search(text_of(f)) or reexport.search(text_of(f)) for f in files)


def type_files(name):
    """The files that define or implement the type (or trait) `name`."""
    pattern = re.compile(
        r"\b(?:struct|enum|trait|type)\s+" + re.escape(name) + r"\b"
        r"|\bimpl(?:<[^>]*>)?\s+(?:[\w:]+(?:<[^>]*>)?\s+for\s+)?(?:[\w]+::)*" + re.escape(name) + r"\b"
    )
    return [f for fs in modules.values() for f in fs if pattern.search(text_of(f))]


def has_member(files, member):
    word = re.compile(r"\b" + re.escape(member) + r"\b")
    return any(word.search(text_of(f)) for f in files)


def rust_path_exists(segments):
    if segments[0] in CRATE_NAMES:
        crate = CRATE_NAMES[segments[0]]
        segments = ([crate] if crate else []) + segments[1:]
        if not segments:
            return True
    # The longest run of leading segments that ends a module path.
    for n in range(len(segments), 0, -1):
        head = tuple(segments[:n])
        found = [key for key in modules if key[-n:] == head]
        if not found:
            continue
        rest = segments[n:]
        if not rest:
            return True
        for key in found:
            if not defines(files_below(key), rest[0]):
                continue
            if len(rest) == 1 or all(has_member(type_files(rest[0]), m) for m in rest[1:]):
                return True
        return False
    # A type first: each member named where the type is defined or implemented.
    files = type_files(segments[0])
    return bool(files) and all(has_member(files, m) for m in segments[1:])


def file_path_exists(name):
    candidates = [name] if name.endswith("/") else [name, name + "/"]
    layer = name.split("/")[0]
    for src, prefix in CRATES.items():
        if prefix and layer == prefix:
            candidates += [src + c[len(layer):] for c in list(candidates)]
    for candidate in candidates:
        if any(ch in candidate for ch in "*?["):
            if any(fnmatch.fnmatch(p, candidate) or fnmatch.fnmatch(p, "*/" + candidate) for p in paths):
                return True
        elif candidate in paths or any(p.endswith("/" + candidate) for p in paths):
            return True
    return False


# A path of two segments or more (`output::text`, `Step::line`), or a name followed by the
# members it groups or a call (`SourceStatus::{Reading, Ready}`, `body()`: a single name alone
# is a word, not checked).
RUST_PATH = re.compile(
    r"^((?:[A-Za-z_]\w*::)+[A-Za-z_]\w*)(?:\(.*\)|::\{(.*)\}|::)?$"
    r"|^([A-Za-z_]\w*)::\{(.*)\}$"
)
PLANNED = re.compile(r"<!-- check_doc_paths: planned (.*?) -->")
FILE_PATH = re.compile(r"^[\w.\-*/]+$")

problems = []
for doc in docs:
    text = open(os.path.join(root, doc), encoding="utf-8").read()
    # Names of what is to come, listed in a comment of the document: not checked, and named as
    # a problem once they exist (take them off the list then).
    planned = {name for found in PLANNED.findall(text) for name in found.split()}
    for name in sorted(planned):
        exists = (
            file_path_exists(name)
            if "/" in name
            else RUST_PATH.match(name) and rust_path_exists(name.split("::"))
        )
        if exists:
            problems.append(f"{doc}: `{name}` exists now: take it off the planned names")
    in_code = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for name in re.findall(r"`([^`\n]+)`", line):
            if "<" in name or name in planned:
                continue
            rust = RUST_PATH.match(name)
            if rust:
                segments = (rust.group(1) or rust.group(3)).split("::")
                if segments[0] in ("crate", "self", "super", "std"):
                    continue
                grouped = rust.group(2) or rust.group(4) or ""
                members = [m.strip() for m in grouped.split(",") if m.strip()]
                named = [segments + [m] for m in members] or [segments]
                if not all(rust_path_exists(path) for path in named):
                    problems.append(f"{doc}:{n}: `{name}` names nothing in the workspace")
            elif " " in name:
                continue
            elif "/" in name and FILE_PATH.match(name) and not name.startswith("-"):
                if not file_path_exists(name):
                    problems.append(f"{doc}:{n}: `{name}` is no file or folder of the workspace")

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
