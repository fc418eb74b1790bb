#!/usr/bin/env python3
"""Writes crates/engine/src/model/rule_catalog.tsv: every guided-analysis rule message the given .ncu-rep
reports store, one line per distinct (rule, title, opening of the message).

Usage: scripts/rule_catalog.py [REPORT.ncu-rep[.xz] ...]   (default: every report under fixtures/)

Columns (tab-separated): rule identifier, rule name, section identifier, message title, and the
message's opening words as the ncu CLI prints them (link markup rendered, whitespace collapsed,
every number written `#`, so that the numbers a message quotes do not matter).
Text and CSV exports print a rule's message without its title (and text without its
identifier): the opening finds both again.
"""
import glob
import lzma
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "model", "rule_catalog.tsv")
# Payload entries of a block, in order: sources (1), kernel (2), range (7), cmdlist (8), graph (9)
# results, and the field holding the rule results of each result kind.
KINDS = [(1, None), (2, 19), (7, 20), (8, 21), (9, 22)]
OPENING_WORDS = 40
# A number as messages quote it: `32`, `1,024`, `60.0%`, `(2.3%)`, `1.5x`, `11.`.
NUMBER = re.compile(r"^[(\[]?[-+]?\d[\d.,]*[%x]?[)\]]?[.,:;]?$")


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(b, i)
        elif wire == 1:
            value, i = b[i:i + 8], i + 8
        elif wire == 5:
            value, i = b[i:i + 4], i + 4
        elif wire == 2:
            n, i = varint(b, i)
            value, i = b[i:i + n], i + n
        else:
            raise ValueError("wire type %d" % wire)
        yield number, value


def first(msg, number, default=b""):
    for n, v in fields(msg):
        if n == number:
            return v
    return default


def results(data):
    """(rule field number, result message) of every result of a report."""
    header = struct.unpack("<I", data[4:8])[0]
    off = 8 + header
    while off < len(data):
        n = struct.unpack("<I", data[off:off + 4])[0]
        hdr = dict()
        for k, v in fields(data[off + 4:off + 4 + n]):
            hdr.setdefault(k, v)
        p = off + 4 + n
        end = p + hdr.get(5, 0)
        for count_field, rule_field in KINDS:
            for _ in range(hdr.get(count_field, 0)):
                m = struct.unpack("<I", data[p:p + 4])[0]
                if rule_field is not None:
                    yield rule_field, data[p + 4:p + 4 + m]
                p += 4 + m
        off = end


def render(text):
    text = re.sub(r"@url:([^:@]*):([^@]*)@", r"\1 (\2)", text)
    text = re.sub(r"@section:[^:@]*:([^@]*)@", r"\1", text)
    text = re.sub(r"@source:[^:@]*:[^:@]*:([^@]*)@", r"\1", text)
    return text


def opening(text):
    words = render(text).split()
    return " ".join("#" if NUMBER.match(w) else w for w in words[:OPENING_WORDS])


def rows(path):
    data = open(path, "rb").read()
    if path.endswith(".xz"):
        data = lzma.decompress(data)
    for rule_field, result in results(data):
        for n, rule in fields(result):
            if n != rule_field:
                continue
            ident = first(rule, 1).decode()
            name = first(rule, 2).decode()
            section = first(rule, 4).decode()
            for n2, item in fields(first(rule, 3)):
                if n2 != 1:
                    continue
                msg = first(item, 1, None)
                if msg is None:
                    continue
                text = first(msg, 1).decode()
                title = first(msg, 4).decode()
                if text:
                    yield (ident, name, section, title, opening(text))


def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "fixtures", "**", "*.ncu-rep*"), recursive=True))
    found = set()
    for p in paths:
        found.update(rows(p))
    with open(OUT, "w") as f:
        f.write("# rule\tname\tsection\ttitle\topening (written by scripts/rule_catalog.py)\n")
        for row in sorted(found):
            f.write("\t".join(x.replace("\t", " ") for x in row) + "\n")
    seen = {}
    for row in sorted(found):
        key = (row[0], row[4])
        if key in seen and seen[key] != row[3]:
            print("same opening, two titles:", row[0], repr(seen[key]), repr(row[3]), file=sys.stderr)
        seen[key] = row[3]
    print(len(found), "rule messages from", len(paths), "reports ->", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
