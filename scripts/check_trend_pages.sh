#!/usr/bin/env bash
# Writes the trend's HTML pages from the fixtures and checks each in headless Chromium at 1280 px
# (scripts/check_html_width.py: no sideways scrolling), with a screenshot of each to look at:
# the series (fixtures/series, five runs), a long series (36 nightly runs of the sweep's GEMM,
# long file names, a span of more than tenfold: the log scale and turned labels), and the sweep
# over problem sizes (fixtures/sweep, `trend --by-size`).
#
#   scripts/check_trend_pages.sh OUTDIR
#
# Uses ${SIGHTLINE:-target/debug/sightline}. Exits 1 when a page is wider than the window.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: $0 OUTDIR}
bin=${SIGHTLINE:-$root/target/debug/sightline}
mkdir -p "$out"
long=$(mktemp -d)
trap 'rm -rf "$long"' EXIT
day=0
for round in 1 2 3; do
    for n in 256 512 1024 2048; do
        for v in 1 3 5; do
            day=$((day + 1))
            cp "$root/fixtures/sweep/N=$n/v$v.ncu-rep.xz" \
                "$long/$(printf 'nightly-2026-11-%02d-build-gemm-variant-%s' "$day" "$v").ncu-rep.xz"
        done
    done
done
"$bin" trend --format html "$root"/fixtures/series/v*.ncu-rep.xz > "$out/trend_series.html"
"$bin" trend --format html "$long" > "$out/trend_long.html"
"$bin" trend --by-size --format html "$root/fixtures/sweep" > "$out/trend_sweep.html"
status=0
for page in trend_series trend_long trend_sweep; do
    python3 "$root/scripts/check_html_width.py" "$out/$page.html" --screenshot "$out/$page.png" || status=1
done
exit $status
