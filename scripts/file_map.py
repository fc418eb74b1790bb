#!/usr/bin/env python3
"""Prints the map of the workspace for docs/architecture.md: each crate's source folder (the
layers, bottom up) and the binary's, every folder and file with the first sentence of its
module doc (`//!`). Usage: scripts/file_map.py [ROOT] > map.txt"""
import os
import re
import sys
import textwrap

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
WIDTH = 100


def summary(path):
    """The first sentence of a file's `//!` comment, or ''."""
    doc = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("//!"):
            doc.append(line[3:].strip())
        elif doc or line.strip():
            break
    text = " ".join(d for d in doc if d)
    text = re.sub(r"\[`([^`]+)`\]\([^)]*\)", r"`\1`", text)
    text = re.sub(r"\[`([^`]+)`\]", r"`\1`", text)
    match = re.match(r"(.+?[.])(\s+[A-Z(`]|$)", text)
    return (match.group(1) if match else text).rstrip(".:;")


def walk(folder, prefix, out):
    entries = sorted(os.listdir(folder), key=lambda n: (n != "mod.rs", not os.path.isdir(os.path.join(folder, n)), n))
    # A folder's mod.rs is described on the folder's line.
    entries = [
        e
        for e in entries
        if (e.endswith(".rs") and e not in ("mod.rs", "lib.rs")) or os.path.isdir(os.path.join(folder, e))
    ]
    for i, name in enumerate(entries):
        last = i == len(entries) - 1
        path = os.path.join(folder, name)
        branch = "└── " if last else "├── "
        if os.path.isdir(path):
            mod = os.path.join(path, "mod.rs")
            text = summary(mod) if os.path.exists(mod) else ""
            label = name + "/"
        else:
            text = summary(path)
            label = name
        head = f"{prefix}{branch}{label}"
        pad = max(len(head) + 2, 34)
        lines = textwrap.wrap(text, max(30, WIDTH - pad), max_lines=2, placeholder=" …") or [""]
        out.append(head.ljust(pad) + lines[0])
        cont = prefix + ("    " if last else "│   ")
        for more in lines[1:]:
            out.append((cont + ("│   " if os.path.isdir(path) else "")).ljust(pad) + more)
        if os.path.isdir(path):
            walk(path, prefix + ("    " if last else "│   "), out)


# The source folders, bottom layer first, then the tests' shared kit; each is described by its
# lib.rs (the binary's folder by its main.rs).
FOLDERS = ["crates/engine/src", "crates/app/src", "crates/ui/src", "crates/cli/src", "src", "crates/testkit/src"]


def file_map(root_dir):
    """The map of the workspace's source folders as text."""
    out = []
    for folder in FOLDERS:
        if out:
            out.append("")
        lib = os.path.join(root_dir, folder, "lib.rs")
        if not os.path.exists(lib):
            lib = os.path.join(root_dir, folder, "main.rs")
        text = summary(lib) if os.path.exists(lib) else ""
        head = folder + "/"
        pad = max(len(head) + 2, 34)
        lines = textwrap.wrap(text, max(30, WIDTH - pad), max_lines=2, placeholder=" …") or [""]
        out.append(head.ljust(pad) + lines[0])
        for more in lines[1:]:
            out.append("│".ljust(pad) + more)
        walk(os.path.join(root_dir, folder), "", out)
    return "\n".join(line.rstrip() for line in out)


if __name__ == "__main__":
    print(file_map(root))
