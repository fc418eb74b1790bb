#!/usr/bin/env bash
# The text figures of docs/benchmarks.md, two builds side by side with `cat` of the same bytes,
# on all cores and on two (`taskset -c 0,1`), with the default worker threads and with 16:
#
#   scripts/bench_text.sh BEFORE AFTER WORKDIR [RUNS]
#
# BEFORE and AFTER are sightline release binaries. Makes in WORKDIR three texts of 111 MB from
# the fixtures, each repeated: ncu's `--print-details all` of `many_basic` (400 small results
# with every section body: the text of a large report as ncu prints it), of `kernels_full` (13
# results with every section body, source counters included) and `--print-details` of
# `kernels_basic` (section tables only). Then times
# `summary` and `summary --json` of each (seconds, peak resident MB, read by a Python parent:
# a host without /usr/bin/time measures the same way), RUNS times each (default 2), and prints
# one line per run.
set -uo pipefail
before=$(realpath "$1") after=$(realpath "$2") work=$3 runs=${4:-2}
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=bench_common.sh
source "$root/scripts/bench_common.sh"
mkdir -p "$work" && cd "$work" || exit 2

make_text() { # name, source (.xz or plain): the source repeated to 111 MB
    local name=$1 source=$2
    [ -s "$name" ] && return
    case $source in *.xz) xz -dc "$source" > one.txt ;; *) cp "$source" one.txt ;; esac
    : > "$name"
    [ -s one.txt ] || { echo "$0: $source gave no text" >&2; exit 2; }
    while [ "$(stat -c %s "$name")" -lt 111000000 ]; do cat one.txt >> "$name"; done
    rm -f one.txt
}
make_text many_bodies.txt "$root/fixtures/big/many_basic.details_all.txt.xz"
make_text bodies.txt "$root/fixtures/h100/kernels_full.details_all.txt.xz"
make_text tables.txt "$root/fixtures/h100/kernels_basic.details.txt"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) logical CPUs, $(free -g | awk '/Mem:/{print $2}') GB"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for t in many_bodies.txt bodies.txt tables.txt; do
    echo "$t: $(stat -c %s "$t") bytes, $("$after" summary --format json "$t" 2> /dev/null | grep -c '"function"') results"
done

run() { bench_timed "$@"; }

for cpus in all 2; do
    pin=()
    [ "$cpus" = 2 ] && pin=(taskset -c 0,1)
    for t in many_bodies.txt bodies.txt tables.txt; do
        for r in $(seq 1 "$runs"); do
            run "$cpus cpus | $t | cat" "${pin[@]}" cat "$t"
            for b in before after; do
                bin=$before
                [ "$b" = after ] && bin=$after
                run "$cpus cpus | $t | $b | summary" "${pin[@]}" "$bin" summary "$t"
                run "$cpus cpus | $t | $b | summary --json" "${pin[@]}" "$bin" summary --json "$t"
                RAYON_NUM_THREADS=16 run "$cpus cpus | $t | $b | summary --json, 16 threads" \
                    "${pin[@]}" "$bin" summary --json "$t"
            done
        done
    done
done
