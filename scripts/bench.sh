#!/usr/bin/env bash
# Whole-process benchmarks of the release binary: `sightline summary` on the 400-result fixture
# in each form (.ncu-rep, details text, raw CSV) and on a 100 MB text (the details text 34 times,
# which reads as one report of 13,600 results), then, when the binary has the hidden
# `--time-to-table` option, the time the app takes to show the results table of 10 copies of the
# details text (under xvfb-run). Prints the machine and a Markdown table: median and min–max
# wall time over several runs, and the peak resident memory (GNU /usr/bin/time).
#
# Usage: scripts/bench.sh [RUNS]
#   RUNS defaults to 7. Build first: cargo build --release.
#   BENCH_DIR (default /tmp) holds the inputs, decompressed from fixtures/big/*.xz when missing.
#   SIGHTLINE_BIN picks another binary; SKIP_APP=1 leaves out the app step.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-7}"
bin="${SIGHTLINE_BIN:-$root/target/release/sightline}"
dir="${BENCH_DIR:-/tmp}"

die() {
    echo "bench.sh: $*" >&2
    exit 1
}

[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number, not '$runs'"
[[ -x "$bin" ]] || die "no release binary at $bin: run 'cargo build --release' first"
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time) is needed for the memory figures"
[[ -n "${EPOCHREALTIME:-}" ]] || die "bash 5 or later is needed (EPOCHREALTIME)"

# Inputs: the fixtures decompressed once, and the 100 MB concatenation.
mkdir -p "$dir"
for name in many_basic.ncu-rep many_basic.details.txt many_basic.raw.csv; do
    if [[ ! -s "$dir/$name" ]]; then
        xz -dc "$root/fixtures/big/$name.xz" > "$dir/$name.part"
        mv "$dir/$name.part" "$dir/$name"
    fi
done
details="$dir/many_basic.details.txt"
big="$dir/many_basic.details.x34.txt"
if [[ ! -s "$big" ]]; then
    for _ in $(seq 34); do cat "$details"; done > "$big.part"
    mv "$big.part" "$big"
fi

now_us() {
    local t="${EPOCHREALTIME/[.,]/}"
    echo $((10#$t))
}

# The number of results `sightline summary` prints for FILE (one row per result after a header),
# and checks that they are numbered 0..N-1 in one report.
summary_results() {
    "$bin" summary "$1" | awk -v file="$1" '
        NR == 1 { next }
        { if ($2 != NR - 2) { bad = 1 } rows++ ; reports[$1] = 1 }
        END {
            n = 0; for (r in reports) n++
            if (bad || n != 1) { printf "summary of %s: %d rows from %d reports, ids not 0..N-1\n", file, rows, n > "/dev/stderr"; exit 1 }
            print rows
        }'
}

rows=()
# Adds a table row: label, input size, results, then wall times (ms) and peak RSS (KB) of runs.
add_row() {
    local label="$1" size="$2" results="$3" peak_kb="$4"
    shift 4
    local sorted median
    sorted="$(printf '%s\n' "$@" | sort -n)"
    median="$(awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}' <<< "$sorted")"
    rows+=("$(printf '| %s | %s | %s | %s | %.1f ms | %.1f – %.1f ms | %d MB |' \
        "$label" "$size" "$results" "$#" "$median" "$(head -1 <<< "$sorted")" \
        "$(tail -1 <<< "$sorted")" "$((peak_kb / 1024))")")
}

# The size of FILE in MB, or "N × size" for several files of one size.
size_of() {
    stat -c %s "$@" | awk '{ s = $1 } END { printf (NR > 1 ? NR " × " : "") "%.1f MB", s / 1e6 }'
}

# Times `sightline summary [OPTIONS] FILE` RUNS times after one warm-up run (which also counts
# the results).
bench_summary() {
    local label="$1" file="$2" results times=() peak=0 log start end rss
    shift 2
    results="$(summary_results "$file")" || exit 1
    log="$(mktemp)"
    for _ in $(seq "$runs"); do
        start="$(now_us)"
        /usr/bin/time -f "%M" -o "$log" "$bin" summary "$@" "$file" > /dev/null
        end="$(now_us)"
        rss="$(tail -1 "$log")"
        times+=("$(awk -v d="$((end - start))" 'BEGIN { printf "%.3f", d / 1000 }')")
        if ((rss > peak)); then peak=$rss; fi
    done
    rm -f "$log"
    add_row "$label" "$(size_of "$file")" "$results" "$peak" "${times[@]}"
}

# Times the app showing the results table of 10 copies of the details text: the time the binary
# prints (`results table shown: N results from M reports in X ms`) and its peak RSS.
bench_app() {
    local copies=() i line results="" times=() peak=0 log rss
    for i in $(seq -w 1 10); do
        copies+=("$dir/many_basic.details.copy$i.txt")
        [[ -s "${copies[-1]}" ]] || cp "$details" "${copies[-1]}"
    done
    log="$(mktemp)"
    for _ in $(seq "$runs"); do
        line="$(timeout 300 xvfb-run -a /usr/bin/time -f "%M" -o "$log" \
            "$bin" --time-to-table "${copies[@]}" 2>&1 | grep 'results table shown:' || true)"
        if [[ ! "$line" =~ shown:\ ([0-9]+)\ results\ from\ ([0-9]+)\ reports\ in\ ([0-9.]+)\ ms ]]; then
            echo "app step: no 'results table shown' line; left out" >&2
            rm -f "$log"
            return 0
        fi
        results="${BASH_REMATCH[1]} in ${BASH_REMATCH[2]} reports"
        times+=("${BASH_REMATCH[3]}")
        rss="$(tail -1 "$log")"
        if ((rss > peak)); then peak=$rss; fi
    done
    rm -f "$log"
    add_row "app: results table shown (\`--time-to-table\`)" "$(size_of "${copies[@]}")" \
        "$results" "$peak" "${times[@]}"
}

cpu="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
echo "machine: ${cpu:-unknown CPU}, $(nproc) logical CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) memory"
echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $bin ($(date -r "$bin" '+%Y-%m-%d %H:%M'))"
echo

bench_summary "\`summary\` many_basic.ncu-rep" "$dir/many_basic.ncu-rep"
bench_summary "\`summary --json\` many_basic.ncu-rep" "$dir/many_basic.ncu-rep" --json
bench_summary "\`summary\` many_basic.details.txt" "$details"
bench_summary "\`summary\` many_basic.raw.csv" "$dir/many_basic.raw.csv"
bench_summary "\`summary\` details.txt × 34" "$big"
if [[ "${SKIP_APP:-0}" == 1 ]]; then
    echo "app step: left out (SKIP_APP=1)" >&2
elif ! "$bin" --time-to-table --help > /dev/null 2>&1; then
    echo "app step: left out ($bin has no --time-to-table)" >&2
elif ! command -v xvfb-run > /dev/null; then
    echo "app step: left out (no xvfb-run)" >&2
else
    bench_app
fi

echo "| what | input | results | runs | median | min – max | peak RSS |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
echo
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
