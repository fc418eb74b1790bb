#!/usr/bin/env python3
"""Times the release binary on decompression bombs and damaged streams (docs/security.md).

Usage: python3 scripts/bench_bombs.py [BINARY]

Writes, in a temporary folder, zstd streams made by hand (RLE blocks: gigabytes from kilobytes):
2 GiB of zeros; a real report (fixtures/h100/kernels_basic) followed by 1 GiB of zeros; the
report's details text followed by 1 GiB of zeros. Runs `sightline summary` on each under
`/usr/bin/time -f "%e %M"` with a private TMPDIR, and prints the time, the peak memory, the
exit code and the largest size the temporary folder reached.
"""
import lzma
import os
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "sightline")
BLOCK = 128 << 10


def zstd(parts):
    """A zstd frame of (raw bytes) and (byte, count) RLE runs, 128 KiB blocks."""
    blocks = []
    for p in parts:
        if isinstance(p, bytes):
            blocks += [(0, len(p[i:i + BLOCK]), p[i:i + BLOCK]) for i in range(0, len(p), BLOCK)]
        else:
            byte, n = p
            blocks += [(1, min(BLOCK, n - i), bytes([byte])) for i in range(0, n, BLOCK)]
    out = bytearray(b"\x28\xb5\x2f\xfd\x00\x38")
    for i, (kind, size, stored) in enumerate(blocks):
        header = (size << 3) | (kind << 1) | (1 if i == len(blocks) - 1 else 0)
        out += header.to_bytes(4, "little")[:3] + stored
    return bytes(out)


def folder_size(path):
    return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))


def run(name, data, work):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(data)
    tmp = tempfile.mkdtemp(dir=work)
    peak = [0]
    done = threading.Event()

    def watch():
        while not done.is_set():
            try:
                peak[0] = max(peak[0], folder_size(tmp))
            except OSError:
                pass
            done.wait(0.01)

    watcher = threading.Thread(target=watch)
    watcher.start()
    env = dict(os.environ, TMPDIR=tmp)
    p = subprocess.run(["/usr/bin/time", "-f", "%e %M", BIN, "summary", path],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    done.set()
    watcher.join()
    secs, kb = p.stderr.strip().splitlines()[-1].split()
    first = p.stderr.strip().splitlines()[0] if p.returncode else ""
    print(f"| {name} | {len(data):,} B | {secs} s | {int(kb) // 1024} MB | {p.returncode} | {peak[0]:,} B | {first[:90]} |")


def main():
    report = lzma.open(os.path.join(ROOT, "fixtures/h100/kernels_basic.ncu-rep.xz")).read()
    text = open(os.path.join(ROOT, "fixtures/h100/kernels_basic.details.txt"), "rb").read()
    print("| input | file | time | peak memory | exit | named files in the temporary folder, at most | stderr |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as work:
        run("zeros_2GiB.zst", zstd([(0, 2 << 30)]), work)
        run("report_then_1GiB_zeros.ncu-repz", zstd([report, (0, 1 << 30)]), work)
        run("text_then_1GiB_zeros.txt.zst", zstd([text, (0, 1 << 30)]), work)


if __name__ == "__main__":
    main()
