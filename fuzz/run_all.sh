#!/usr/bin/env bash
# Runs every fuzz target for a fixed time, one after another, and prints a line per target:
# executions, coverage and whether a crash, hang or out-of-memory was found.
# Usage (from the repository root): bash fuzz/run_all.sh [SECONDS_PER_TARGET] [TARGET...]
# MAX_LEN (bytes, default 262144) bounds the inputs; smaller inputs run many times faster.
# Needs: cargo install cargo-fuzz; a nightly toolchain; seeds from `bash fuzz/seed.sh`.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${1:-600}"
max_len="${MAX_LEN:-262144}"
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(ncu_rep_container ncu_rep_result cli_text gui_copy csv_details csv_raw session)
fi
mkdir -p fuzz/logs
for t in "${targets[@]}"; do
    log="fuzz/logs/$t.log"
    # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: a run above 2 GB is an
    # out-of-memory finding; -malloc_limit_mb: so is any single allocation above 512 MB.
    cargo +nightly fuzz run -O "$t" "fuzz/corpus/$t" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
        -max_len="$max_len" -print_final_stats=1 > "$log" 2>&1
    rc=$?
    execs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')"
    finding="none"
    if [[ $rc -ne 0 ]]; then
        finding="$(grep -m1 -E 'ERROR: libFuzzer|panicked at|SUMMARY' "$log" || echo "exit $rc")"
    fi
    echo "$t: ${seconds}s, max_len $max_len, ${execs:-?} executions, coverage ${cov:-?} edges, finding: $finding"
done
