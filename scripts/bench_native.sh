#!/usr/bin/env bash
# The native form's rows of docs/benchmarks.md, before and after, in turns in one run:
# `summary` of 909 MB and 251 MB reports on every core and on two (`taskset -c 0,1`), and
# `diff --format json` of the 909 MB report against a copy; `cat` of the same bytes and
# NVIDIA's raw page of the 251 MB report (ncu on PATH, once) beside them.
#
#   scripts/bench_native.sh BEFORE AFTER MANY_BASIC.ncu-rep[.xz] BIGREP.py WORKDIR [ROUNDS]
#
# Makes many_basic ×10 and ×40 in WORKDIR with BIGREP.py (../shared/tools/bigrep.py) and prints
# one line per run: what, seconds, peak resident MB.
set -uo pipefail
# shellcheck source=bench_common.sh
source "$(cd "$(dirname "$0")" && pwd)/bench_common.sh"
[ $# -ge 5 ] || { echo "usage: $0 BEFORE AFTER MANY_BASIC.ncu-rep[.xz] BIGREP.py WORKDIR [ROUNDS]" >&2; exit 2; }
before=$(realpath "$1") after=$(realpath "$2") seed=$(realpath "$3") bigrep=$(realpath "$4")
work=$5 rounds=${6:-3}
mkdir -p "$work" && cd "$work" || exit 2
case $seed in
*.xz) xz -dc "$seed" > many_basic.ncu-rep ;;
*) cp "$seed" many_basic.ncu-rep ;;
esac
[ -s x10.ncu-rep ] || python3 "$bigrep" many_basic.ncu-rep x10.ncu-rep 10 > /dev/null
[ -s x40.ncu-rep ] || python3 "$bigrep" many_basic.ncu-rep x40.ncu-rep 40 > /dev/null
[ -s x40_copy.ncu-rep ] || cp x40.ncu-rep x40_copy.ncu-rep
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) logical CPUs, $(free -g | awk '/Mem:/{print $2}') GB"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "ncu: $(ncu --version 2>/dev/null | tail -1)"
for r in $(seq "$rounds"); do
    bench_timed "cat x40 | run $r" cat x40.ncu-rep
    for name in before after; do
        bin=$before
        [ "$name" = after ] && bin=$after
        bench_timed "summary x40 | $name | run $r" "$bin" summary x40.ncu-rep
        bench_timed "summary x10 | $name | run $r" "$bin" summary x10.ncu-rep
        bench_timed "2 cores | summary x40 | $name | run $r" taskset -c 0,1 "$bin" summary x40.ncu-rep
        bench_timed "diff --format json x40 | $name | run $r" "$bin" diff --format json x40.ncu-rep x40_copy.ncu-rep
    done
done
command -v ncu > /dev/null && bench_timed "ncu -i x10 --page raw --csv (NVIDIA)" ncu -i x10.ncu-rep --page raw --csv
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
