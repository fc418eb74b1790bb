#!/usr/bin/env bash
# The window's time to a complete results table, before and after, in turns in one run, with
# `cat` and `summary` of the same file beside it (docs/benchmarks.md):
#
#   scripts/bench_window.sh BEFORE AFTER REPORT [ROUNDS]
#
# BEFORE and AFTER are sightline release binaries; each round runs `cat REPORT`, then for each
# binary `summary REPORT` and the window under xvfb-run (`--time-to-table REPORT`). Prints one
# line per run: what, binary, the time the window printed (ms) or the wall time (s), and the
# peak resident memory (MB) by /usr/bin/time; then the median of each. ANCHOR, when set, is a
# command run once first with REPORT as its last argument, such as NVIDIA's module making the
# same table: ANCHOR="python3 ../shared/tools/table_only.py" (ncu_report installed).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BEFORE AFTER REPORT [ROUNDS]" >&2; exit 2; }
before=$(realpath "$1") after=$(realpath "$2") report=$(realpath "$3") rounds=${4:-10}
command -v xvfb-run > /dev/null || { echo "$0: needs xvfb-run" >&2; exit 2; }
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) logical CPUs, $(free -g | awk '/Mem:/{print $2}') GB"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "report: $report ($(stat -c %s "$report") bytes)"
timed() { # LABEL BINARY-NAME COMMAND...: wall seconds and peak MB of COMMAND
    local label=$1 name=$2
    shift 2
    /usr/bin/time -f "%e %M" -o "$log" "$@" > /dev/null 2>&1
    read -r wall kb < "$log"
    echo "$label $name ${wall}s $((kb / 1024))MB" | tee -a "$out"
}
if [ -n "${ANCHOR:-}" ]; then
    # shellcheck disable=SC2086 # ANCHOR is a command line
    timed anchor - $ANCHOR "$report"
fi
for round in $(seq "$rounds"); do
    timed cat - cat "$report"
    for name in before after; do
        bin=$before
        [ "$name" = after ] && bin=$after
        timed summary "$name" "$bin" summary "$report"
        line=$(xvfb-run -a /usr/bin/time -f "%M" -o "$log" "$bin" --time-to-table "$report" 2>&1 |
            grep -oE 'in [0-9.]+ ms' | grep -oE '[0-9.]+')
        echo "window $name ${line:-none}ms $(($(tail -1 "$log") / 1024))MB" | tee -a "$out"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "medians of $rounds rounds:"
for what in "anchor -" "cat -" "summary before" "summary after" "window before" "window after"; do
    grep "^$what " "$out" | awk '{v=$3; sub(/[a-z]+$/, "", v); print v, $4}' | sort -n |
        awk -v what="$what" '{t[NR]=$1; m[NR]=$2} END {if (NR) printf "  %s: %s (%s to %s), peak %s\n", what, t[int((NR+1)/2)], t[1], t[NR], m[int((NR+1)/2)]}'
done
