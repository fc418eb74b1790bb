#!/usr/bin/env bash
# Whole-process timing of `sightline summary` on a native report: runs the release binary
# several times and prints the median wall time and the peak resident memory (/usr/bin/time).
#
# Usage: scripts/bench_summary.sh [REPORT.ncu-rep] [RUNS]
#   REPORT defaults to /tmp/many_basic.ncu-rep, decompressed from
#   fixtures/big/many_basic.ncu-rep.xz when missing. RUNS defaults to 7.
#   Build first: cargo build --release
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
report="${1:-/tmp/many_basic.ncu-rep}"
runs="${2:-7}"
bin="${SIGHTLINE_BIN:-$root/target/release/sightline}"

if [[ ! -x "$bin" ]]; then
    echo "no release binary at $bin: run 'cargo build --release' first" >&2
    exit 1
fi
if [[ ! -f "$report" ]]; then
    xz -dc "$root/fixtures/big/many_basic.ncu-rep.xz" > "$report"
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "/usr/bin/time (GNU time) is needed for the memory figures" >&2
    exit 1
fi

# One warm-up run so the report is in the page cache.
"$bin" summary "$report" > /dev/null

measure() {
    local label="$1"; shift
    local times=() peak=0 t rss
    for _ in $(seq "$runs"); do
        local log
        log="$(mktemp)"
        /usr/bin/time -f "%e %M" -o "$log" "$bin" "$@" > /dev/null
        read -r t rss < "$log"
        rm -f "$log"
        times+=("$t")
        (( rss > peak )) && peak=$rss
    done
    local median
    median="$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
    printf '%-32s median %6.3f s   min %6.3f s   max %6.3f s   peak RSS %4d MB   (%d runs)\n' \
        "$label" "$median" \
        "$(printf '%s\n' "${times[@]}" | sort -n | head -1)" \
        "$(printf '%s\n' "${times[@]}" | sort -n | tail -1)" \
        "$((peak / 1024))" "$runs"
}

echo "report: $report ($(du -h "$report" | cut -f1)), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
measure "sightline summary" summary "$report"
measure "sightline summary --json" summary --json "$report"
