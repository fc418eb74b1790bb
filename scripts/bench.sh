#!/usr/bin/env bash
# Whole-process benchmarks of the release binary: `sightline summary` on the 400-result fixture
# in each form (.ncu-rep, details text, raw CSV) and on a 100 MB text (the details text 34 times,
# which reads as one report of 13,600 results), then, when the binary has the hidden
# `--time-to-table` option, the time the app takes to show the results table of 10 copies of the
# details text (under xvfb-run). Prints the machine and a Markdown table: median and min–max
# wall time over several runs, and the peak resident memory (GNU /usr/bin/time). Last, the
# release build of the app opens and closes the 4,000-result report 20 times (`cargo bench
# --bench open_close`) and prints the live heap and resident set of every round.
#
# Usage: scripts/bench.sh [RUNS]
#   RUNS defaults to 7. Build first: cargo build --release.
#   BENCH_DIR (default /tmp) holds the inputs, decompressed from fixtures/big/*.xz when missing.
#   SIGHTLINE_BIN picks another binary; SKIP_APP=1 leaves out the app step; SKIP_ROUNDS=1 the
#   open/close rounds (ROUNDS=N sets their number).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-7}"
bin="${SIGHTLINE_BIN:-$root/target/release/sightline}"
dir="${BENCH_DIR:-/tmp}"
# shellcheck source=scripts/bench_common.sh
source "$root/scripts/bench_common.sh"

bench_start

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

# The size of FILE in MB, or "N × size" for several files of one size.
size_of() {
    stat -c %s "$@" | awk '{ s = $1 } END { printf (NR > 1 ? NR " × " : "") "%.1f MB", s / 1e6 }'
}

# Times `sightline summary [OPTIONS] FILE` RUNS times after one run that counts the results.
bench_summary() {
    local label="$1" file="$2" results
    shift 2
    results="$(summary_results "$file")" || exit 1
    bench_command "$label" "$(size_of "$file")" "$results" ms "$bin" summary "$@" "$file"
}

bench_summary "\`summary\` many_basic.ncu-rep" "$dir/many_basic.ncu-rep"
bench_summary "\`summary --json\` many_basic.ncu-rep" "$dir/many_basic.ncu-rep" --json
bench_summary "\`summary\` many_basic.details.txt" "$details"
bench_summary "\`summary\` many_basic.raw.csv" "$dir/many_basic.raw.csv"
bench_summary "\`summary\` details.txt × 34" "$big"
if bench_app_available; then
    # The app showing the results table of 10 copies of the details text.
    copies=()
    for i in $(seq -w 1 10); do
        copies+=("$dir/many_basic.details.copy$i.txt")
        [[ -s "${copies[-1]}" ]] || cp "$details" "${copies[-1]}"
    done
    bench_app "app: results table shown (\`--time-to-table\`)" "$(size_of "${copies[@]}")" \
        table "${copies[@]}"
fi

bench_table

# Opening and closing the 4,000-result report in the release app, round after round: the live
# heap and resident set of each round with the reports open and after closing them
# (`benches/open_close.rs`; SKIP_ROUNDS=1 leaves it out, ROUNDS sets how many, default 20).
# First 10 copies of the details text (4,000 results), then, when bigrep.py is at hand, the
# many_basic report repeated 10 times (one 4,000-result .ncu-rep).
if [[ -z "${SKIP_ROUNDS:-}" ]]; then
    rounds="${ROUNDS:-20}"
    echo
    echo "Open and close, $rounds rounds, 10 × many_basic.details.txt (4,000 results):"
    (cd "$root" && cargo bench --quiet --bench open_close -- "$rounds")
    bigrep="${BIGREP:-$root/../shared/tools/bigrep.py}"
    rep10="$dir/many_basic.x10.ncu-rep"
    if [[ ! -s "$rep10" && -f "$bigrep" ]]; then
        python3 "$bigrep" "$dir/many_basic.ncu-rep" "$rep10.part" 10 > /dev/null
        mv "$rep10.part" "$rep10"
    fi
    if [[ -s "$rep10" ]]; then
        echo
        echo "Open and close, $rounds rounds, many_basic.ncu-rep × 10 (one 4,000-result report):"
        (cd "$root" && SIGHTLINE_BENCH_FILE="$rep10" cargo bench --quiet --bench open_close -- "$rounds")
    fi
fi
