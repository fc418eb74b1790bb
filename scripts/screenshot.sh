#!/usr/bin/env bash
# Takes a screenshot of the app showing FILE under Xvfb and writes OUT.png.
#
#   scripts/screenshot.sh FILE OUT.png [PAGE] [ROW] [THEME] [BASELINES]
#
# FILE may list several files separated by commas (opened in that order). PAGE is a tab name
# (Details, Raw, Session, Roofline, Occupancy, Compare, "Report vs report"), ROW the row of the
# results table to select (0 = first, across all files), THEME dark or light, BASELINES the
# rows to make baselines first (comma-separated). SIGHTLINE_SCREENSHOT_SIZE=WIDTHxHEIGHT in the
# environment sets the window size (default 1360x860, at most 1920x1600 here);
# SIGHTLINE_SCREENSHOT_SECTION=TEXT shows only the Details sections whose name contains TEXT
# (their charts and tables at the top); SIGHTLINE_SCREENSHOT_ZOOM=FACTOR zooms the whole window
# (e.g. 1.5); SIGHTLINE_SCREENSHOT_FILTER=TEXT types TEXT into the results table's filter;
# SIGHTLINE_SCREENSHOT_TREND=size shows the Trend page's By size view.
# Builds the release binary if it is missing. Needs `xvfb-run` (Debian: apt-get install xvfb xauth).
set -euo pipefail

if [ $# -lt 2 ]; then
    echo "usage: $0 FILE OUT.png [PAGE] [ROW] [THEME]" >&2
    exit 2
fi
IFS=, read -r -a files <<< "$1"
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${CARGO_TARGET_DIR:-$root/target}/release/sightline"

if ! command -v xvfb-run >/dev/null; then
    echo "xvfb-run not found: apt-get install xvfb xauth" >&2
    exit 1
fi
if [ ! -x "$bin" ]; then
    (cd "$root" && cargo build --release --bin sightline)
fi
case "$out" in
    /*) ;;
    *) out="$PWD/$out" ;;
esac
mkdir -p "$(dirname "$out")"
rm -f "$out"

runtime=$(mktemp -d)
chmod 700 "$runtime"
trap 'rm -rf "$runtime"' EXIT

# A private HOME keeps the user's saved settings out of the picture (and untouched).
env -u WAYLAND_DISPLAY \
    HOME="$runtime" XDG_RUNTIME_DIR="$runtime" XDG_DATA_HOME="$runtime/data" \
    EFRAME_SCREENSHOT_TO="$out" \
    SIGHTLINE_SCREENSHOT_PAGE="${3:-Details}" \
    SIGHTLINE_SCREENSHOT_ROW="${4:-0}" \
    SIGHTLINE_SCREENSHOT_THEME="${5:-dark}" \
    SIGHTLINE_SCREENSHOT_BASELINES="${6:-}" \
    SIGHTLINE_SCREENSHOT_SIZE="${SIGHTLINE_SCREENSHOT_SIZE:-}" \
    SIGHTLINE_SCREENSHOT_ZOOM="${SIGHTLINE_SCREENSHOT_ZOOM:-1}" \
    ${SIGHTLINE_SCREENSHOT_FILTER:+SIGHTLINE_SCREENSHOT_FILTER="$SIGHTLINE_SCREENSHOT_FILTER"} \
    ${SIGHTLINE_SCREENSHOT_TREND:+SIGHTLINE_SCREENSHOT_TREND="$SIGHTLINE_SCREENSHOT_TREND"} \
    xvfb-run -a -s "-screen 0 1920x1600x24" "$bin" "${files[@]}"

if [ ! -s "$out" ]; then
    echo "no screenshot written to $out" >&2
    exit 1
fi
echo "$out"
