#!/usr/bin/env bash
# How time and memory grow with the size of a native report: `many_basic.ncu-rep` (54 MB, 400
# results) and copies of it made K times larger with `bigrep.py` (every result repeated K times
# inside its own block). For each size it times the release binary's `summary`, `summary --json`
# and `diff` of the report against itself, and the app's hidden `--time-to-table` under xvfb-run
# when the binary has it. Prints the machine and a Markdown table: median and min–max wall time
# and the peak resident memory (GNU /usr/bin/time "%e %M") over the runs.
#
# Usage: scripts/bench_scale.sh [RUNS] [FACTOR...]
#   RUNS defaults to 3; FACTORs default to "1 10" (add 40 for the 909 MB report).
#   BIGREP (default ../shared/tools/bigrep.py next to the project) makes the large reports.
#   BENCH_DIR (default /tmp/sightline-scale) holds them; SIGHTLINE_BIN picks another binary;
#   SKIP_APP=1 leaves out the app step.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-3}"
shift || true
factors=("$@")
((${#factors[@]})) || factors=(1 10)
bin="${SIGHTLINE_BIN:-$root/target/release/sightline}"
dir="${BENCH_DIR:-/tmp/sightline-scale}"
bigrep="${BIGREP:-$root/../shared/tools/bigrep.py}"

die() {
    echo "bench_scale.sh: $*" >&2
    exit 1
}

[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number, not '$runs'"
for k in "${factors[@]}"; do
    [[ "$k" =~ ^[1-9][0-9]*$ ]] || die "FACTOR must be a positive number, not '$k'"
done
[[ -x "$bin" ]] || die "no release binary at $bin: run 'cargo build --release' first"
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time) is needed for the memory figures"

mkdir -p "$dir"
base="$dir/many_basic.ncu-rep"
if [[ ! -s "$base" ]]; then
    xz -dc "$root/fixtures/big/many_basic.ncu-rep.xz" > "$base.part"
    mv "$base.part" "$base"
fi
# The report K times larger.
report_of() {
    local k="$1" out
    if ((k == 1)); then
        echo "$base"
        return
    fi
    out="$dir/many_basic.x$k.ncu-rep"
    if [[ ! -s "$out" ]]; then
        [[ -f "$bigrep" ]] || die "no bigrep.py at $bigrep (set BIGREP)"
        python3 "$bigrep" "$base" "$out.part" "$k" > /dev/null
        mv "$out.part" "$out"
    fi
    echo "$out"
}

rows=()
# Adds a table row: label, input, results, peak RSS (KB), then the wall times (s) of the runs.
add_row() {
    local label="$1" input="$2" results="$3" peak_kb="$4"
    shift 4
    local sorted median
    sorted="$(printf '%s\n' "$@" | sort -n)"
    median="$(awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}' <<< "$sorted")"
    rows+=("$(printf '| %s | %s | %s | %s | %.2f s | %.2f – %.2f s | %d MB |' \
        "$label" "$input" "$results" "$#" "$median" "$(head -1 <<< "$sorted")" \
        "$(tail -1 <<< "$sorted")" "$((peak_kb / 1024))")")
}

size_of() {
    stat -c %s "$1" | awk '{ printf "%.0f MB", $1 / 1e6 }'
}

# Runs COMMAND... RUNS times under GNU time; adds a row with LABEL, INPUT and RESULTS.
bench() {
    local label="$1" input="$2" results="$3" times=() peak=0 log e m
    shift 3
    log="$(mktemp)"
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %M" -o "$log" "$@" > /dev/null || [[ $? == 1 ]]
        read -r e m < <(tail -1 "$log")
        times+=("$e")
        if ((m > peak)); then peak=$m; fi
    done
    rm -f "$log"
    add_row "$label" "$input" "$results" "$peak" "${times[@]}"
}

# The app: the time the binary prints for the complete results table, and its peak RSS.
bench_app() {
    local input="$1" size="$2" line results="" times=() peak=0 log rss
    log="$(mktemp)"
    for _ in $(seq "$runs"); do
        line="$(timeout 600 xvfb-run -a /usr/bin/time -f "%M" -o "$log" \
            "$bin" --time-to-table "$input" 2>&1 | grep 'results table shown:' || true)"
        if [[ ! "$line" =~ shown:\ ([0-9]+)\ results\ from\ ([0-9]+)\ reports\ in\ ([0-9.]+)\ ms ]]; then
            echo "app step: no 'results table shown' line for $input; left out" >&2
            rm -f "$log"
            return 0
        fi
        results="${BASH_REMATCH[1]}"
        times+=("$(awk -v ms="${BASH_REMATCH[3]}" 'BEGIN { printf "%.3f", ms / 1000 }')")
        rss="$(tail -1 "$log")"
        if ((rss > peak)); then peak=$rss; fi
    done
    rm -f "$log"
    add_row "app: results table shown" "$size" "$results" "$peak" "${times[@]}"
}

app=1
if [[ "${SKIP_APP:-0}" == 1 ]]; then
    echo "app step: left out (SKIP_APP=1)" >&2
    app=0
elif ! "$bin" --time-to-table --help > /dev/null 2>&1; then
    echo "app step: left out ($bin has no --time-to-table)" >&2
    app=0
elif ! command -v xvfb-run > /dev/null; then
    echo "app step: left out (no xvfb-run)" >&2
    app=0
fi

cpu="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
echo "machine: ${cpu:-unknown CPU}, $(nproc) logical CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) memory"
echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "binary: $bin ($(date -r "$bin" '+%Y-%m-%d %H:%M'))"
echo

for k in "${factors[@]}"; do
    file="$(report_of "$k")"
    size="$(size_of "$file")"
    results="$(("$(/usr/bin/env "$bin" summary "$file" | wc -l)" - 1))"
    bench "\`summary\` ×$k" "$size" "$results" "$bin" summary "$file"
    bench "\`summary --json\` ×$k" "$size" "$results" "$bin" summary --json "$file"
    bench "\`diff\` of itself ×$k" "$size" "$results" "$bin" diff --format json "$file" "$file"
    if ((app)); then
        bench_app "$file" "$size"
        rows[-1]="${rows[-1]/app: results table shown/app: results table shown ×$k}"
    fi
done

echo "| what | input | results | runs | median | min – max | peak RSS |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
echo
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
