#!/usr/bin/env python3
"""Checks that an HTML page of sightline (`diff`, `summary` or `trend --format html`) reads
without horizontal scrolling in a real browser window of a given width (1280 px by default).

Usage: scripts/check_html_width.py PAGE.html [--width 1280] [--screenshot OUT.png]

The page is copied with a few lines of script that record, once it is laid out, how wide the
document is; headless Chromium (Debian's `chromium`) loads the copy at that window width and
prints the document, from which the width is read. Exits 1 when the document is wider than the
window (the widest elements are named), 2 when Chromium cannot be run. With --screenshot the
page itself is also drawn to a PNG at that width, to look at.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

PROBE = """<script>
addEventListener('load', () => {
  const root = document.documentElement;
  const wide = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
    .slice(0, 5)
    .map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : ''));
  const mark = document.createElement('pre');
  mark.id = 'width-probe';
  mark.textContent = 'scroll-width=' + root.scrollWidth + ' window=' + innerWidth +
    ' wide=' + wide.join(',');
  document.body.appendChild(mark);
});
</script>
"""


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("page")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=1600)
    parser.add_argument("--screenshot")
    args = parser.parse_args()
    chrome = browser()
    if chrome is None:
        print("no chromium found (apt-get install chromium)", file=sys.stderr)
        return 2
    with open(args.page, encoding="utf-8") as f:
        page = f.read()
    if "</body>" not in page:
        print(f"{args.page}: no </body>", file=sys.stderr)
        return 2
    common = [
        chrome,
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--window-size={args.width},{args.height}",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe.html")
        with open(probe, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", PROBE + "</body>", 1))
        run = subprocess.run(
            common + ["--virtual-time-budget=2000", "--dump-dom", "file://" + probe],
            capture_output=True,
            text=True,
            timeout=120,
        )
        found = re.search(r"scroll-width=(\d+) window=(\d+) wide=([^<]*)", run.stdout)
        if not found:
            print(f"chromium printed no width:\n{run.stderr[-2000:]}", file=sys.stderr)
            return 2
        if args.screenshot:
            subprocess.run(
                common + [f"--screenshot={os.path.abspath(args.screenshot)}",
                          "file://" + os.path.abspath(args.page)],
                capture_output=True,
                timeout=120,
            )
    width, window, wide = int(found.group(1)), int(found.group(2)), found.group(3)
    if width > window:
        print(f"{args.page}: {width} px wide in a window of {window} px (widest: {wide})")
        return 1
    print(f"{args.page}: {width} px wide, fits a window of {window} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
