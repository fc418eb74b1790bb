#!/usr/bin/env python3
"""Checks that NVIDIA's report module reads a zstd-compressed report (.ncu-repz) with the same
values as the plain report, so sightline's reading of .ncu-repz matches NVIDIA's.

    python3 -m venv V && V/bin/pip install ncu-report==2026.3.1
    V/bin/python scripts/check_ncu_repz.py PLAIN.ncu-rep COMPRESSED.ncu-repz

Prints the number of results and values compared; exits 1 on the first difference.
"""
import math
import sys

import ncu_report


def values(path):
    ctx = ncu_report.load_report(path)
    out = []
    for ri in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(ri)
        for ai in range(rng.num_actions()):
            action = rng.action_by_idx(ai)
            metrics = {}
            for name in action.metric_names():
                m = action.metric_by_name(name)
                metrics[name] = m.value() if m.has_value() else None
            out.append((action.name(), metrics))
    return out


def same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def main():
    plain, packed = values(sys.argv[1]), values(sys.argv[2])
    if len(plain) != len(packed):
        sys.exit(f"result count: {len(plain)} vs {len(packed)}")
    compared = 0
    for i, ((name_a, a), (name_b, b)) in enumerate(zip(plain, packed)):
        if name_a != name_b or a.keys() != b.keys():
            sys.exit(f"result {i}: names or metric names differ")
        for k in a:
            if not same(a[k], b[k]):
                sys.exit(f"result {i}: {k}: {a[k]!r} vs {b[k]!r}")
            compared += 1
    print(f"{len(plain)} results, {compared} values equal")


if __name__ == "__main__":
    main()
