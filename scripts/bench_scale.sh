#!/usr/bin/env bash
# How time and memory grow with the size of a native report: `many_basic.ncu-rep` (54 MB, 400
# results) and copies of it made K times larger with `bigrep.py` (every result repeated K times
# inside its own block). For each size it times the release binary's `summary`, `summary --json`
# and `diff` of the report against itself, and the app's hidden `--time-to-table` under xvfb-run
# when the binary has it, and the app clicking through the first 200 results one per frame on
# the Details page (`--click-through 200`). Prints the machine and a Markdown table: median and
# min–max wall time and the peak resident memory (GNU /usr/bin/time) over the runs.
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
# shellcheck source=scripts/bench_common.sh
source "$root/scripts/bench_common.sh"

for k in "${factors[@]}"; do
    [[ "$k" =~ ^[1-9][0-9]*$ ]] || bench_die "FACTOR must be a positive number, not '$k'"
done
bench_start

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
        [[ -f "$bigrep" ]] || bench_die "no bigrep.py at $bigrep (set BIGREP)"
        python3 "$bigrep" "$base" "$out.part" "$k" > /dev/null
        mv "$out.part" "$out"
    fi
    echo "$out"
}

size_of() {
    stat -c %s "$1" | awk '{ printf "%.0f MB", $1 / 1e6 }'
}

app=0
if bench_app_available; then app=1; fi

for k in "${factors[@]}"; do
    file="$(report_of "$k")"
    size="$(size_of "$file")"
    results="$(("$(/usr/bin/env "$bin" summary "$file" | wc -l)" - 1))"
    bench_command "\`summary\` ×$k" "$size" "$results" s "$bin" summary "$file"
    bench_command "\`summary --json\` ×$k" "$size" "$results" s "$bin" summary --json "$file"
    bench_command "\`diff\` of itself ×$k" "$size" "$results" s \
        "$bin" diff --format json "$file" "$file"
    if ((app)); then
        bench_app "app: results table shown ×$k" "$size" table "$file"
        bench_app "app: 200 results clicked through ×$k" "$size" "clicks 200" "$file"
    fi
done

bench_table
