#!/usr/bin/env python3
"""Draws the sightline icon (assets/icons/sightline.png, 256x256 RGBA) with the standard
library only: three speed-of-light bars on a dark rounded square, and the 100 % line."""

import struct
import sys
import zlib
from pathlib import Path

SIZE = 256
SUPERSAMPLE = 4


def rounded_rect(x, y, x0, y0, x1, y1, r):
    """Whether (x, y) lies inside the rounded rectangle."""
    if x < x0 or x > x1 or y < y0 or y > y1:
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


BARS = [  # (top, fraction of the track, colour)
    (74, 0.62, (74, 144, 226)),
    (116, 0.38, (43, 179, 154)),
    (158, 0.86, (240, 160, 48)),
]
TRACK_X0, TRACK_X1, BAR_H = 44, 200, 28


def shade(x, y):
    """The colour at a point (RGBA)."""
    if not rounded_rect(x, y, 8, 8, 248, 248, 44):
        return (0, 0, 0, 0)
    # Background: vertical gradient.
    t = y / SIZE
    bg = (int(30 - 10 * t), int(38 - 12 * t), int(56 - 16 * t))
    for top, frac, color in BARS:
        if rounded_rect(x, y, TRACK_X0, top, TRACK_X1, top + BAR_H, 6):
            if x <= TRACK_X0 + (TRACK_X1 - TRACK_X0) * frac:
                return color + (255,)
            return (52, 62, 84, 255)
    # The 100 % sight line, dashed.
    if 204 <= x <= 210 and 56 <= y <= 204 and int(y - 56) % 18 < 11:
        return (235, 240, 250, 255)
    return bg + (255,)


def render():
    rows = []
    n = SUPERSAMPLE
    for py in range(SIZE):
        row = bytearray([0])  # filter type: none
        for px in range(SIZE):
            acc = [0, 0, 0, 0]
            for sy in range(n):
                for sx in range(n):
                    c = shade(px + (sx + 0.5) / n, py + (sy + 0.5) / n)
                    a = c[3]
                    acc[0] += c[0] * a
                    acc[1] += c[1] * a
                    acc[2] += c[2] * a
                    acc[3] += a
            alpha = acc[3] / (n * n)
            if acc[3]:
                rgb = [round(acc[i] / acc[3]) for i in range(3)]
            else:
                rgb = [0, 0, 0]
            row += bytes(rgb + [round(alpha)])
        rows.append(bytes(row))
    return b"".join(rows)


def png(raw):
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "assets/icons/sightline.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png(render()))
    print(out)


if __name__ == "__main__":
    main()
