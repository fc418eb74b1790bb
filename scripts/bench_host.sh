#!/usr/bin/env bash
# The text, series and comparison figures of docs/benchmarks.md ("Text at the speed of the
# native form"), side by side with `cat` of the same bytes and NVIDIA's tools, in one run:
#
#   scripts/bench_host.sh SIGHTLINE MANY_BASIC.ncu-rep[.xz] BIGREP.py WORKDIR [TEXT]
#
# Makes in WORKDIR: many_basic ×10 (251 MB) and ×40 (909 MB, and a copy) with BIGREP.py, and
# 100 copies of many_basic as one series; the text is TEXT (ncu's `--print-details all` of a
# report, .xz or plain) repeated to 111 MB, or, without TEXT, ncu's own `--print-details all`
# of ×10 (ncu on PATH; it takes ncu over nine minutes on a 16-core host). Then times each
# command (seconds, peak resident MB, read by a Python parent: the host has no /usr/bin/time), with the default worker threads
# and with RAYON_NUM_THREADS=2, and prints one line per run.
set -uo pipefail
# shellcheck source=bench_common.sh
source "$(cd "$(dirname "$0")" && pwd)/bench_common.sh"
[ $# -ge 4 ] || { echo "usage: $0 SIGHTLINE MANY_BASIC.ncu-rep[.xz] BIGREP.py WORKDIR [TEXT]" >&2; exit 2; }
# Paths are taken before the script moves into WORKDIR.
bin=$(realpath "$1") seed=$(realpath "$2") bigrep=$(realpath "$3") work=$4 text=${5:+$(realpath "$5")}
mkdir -p "$work" && cd "$work" || exit 2
case $seed in
*.xz) xz -dc "$seed" > many_basic.ncu-rep ;;
*) cp "$seed" many_basic.ncu-rep ;;
esac
[ -s many_basic.ncu-rep ] || { echo "$0: $seed gave no report" >&2; exit 2; }
[ -s x10.ncu-rep ] || python3 "$bigrep" many_basic.ncu-rep x10.ncu-rep 10 >/dev/null
[ -s x40.ncu-rep ] || python3 "$bigrep" many_basic.ncu-rep x40.ncu-rep 40 >/dev/null
[ -s x40_copy.ncu-rep ] || cp x40.ncu-rep x40_copy.ncu-rep
mkdir -p series
for i in $(seq -w 1 100); do ln -f many_basic.ncu-rep "series/run$i.ncu-rep" 2>/dev/null || cp many_basic.ncu-rep "series/run$i.ncu-rep"; done

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) logical CPUs, $(free -g | awk '/Mem:/{print $2}') GB"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "ncu: $(ncu --version 2>/dev/null | tail -1)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

run() { bench_timed "$@"; }

if [ -n "$text" ]; then
    case $text in *.xz) xz -dc "$text" > one.txt ;; *) cp "$text" one.txt ;; esac
    [ -s one.txt ] || { echo "$0: $text gave no text" >&2; exit 2; }
    rm -f x10.details_all.txt
    while [ "$(stat -c %s x10.details_all.txt 2>/dev/null || echo 0)" -lt 111000000 ]; do cat one.txt >> x10.details_all.txt; done
else
    run "ncu --print-details all of x10 (NVIDIA, writes the text)" sh -c "ncu -i x10.ncu-rep --page details --print-details all > x10.details_all.txt"
fi
ls -l x10.details_all.txt | awk '{print "text bytes: " $5}'
echo "text results: $(grep -c '^  [^ ].*Context [0-9]*, Stream' x10.details_all.txt)"
run "ncu -i x10 --page raw --csv (NVIDIA)" ncu -i x10.ncu-rep --page raw --csv
for threads in default 2; do
    if [ "$threads" = default ]; then unset RAYON_NUM_THREADS; else export RAYON_NUM_THREADS=$threads; fi
    for r in 1; do
        run "cat text [$threads]" cat x10.details_all.txt
        run "summary text [$threads]" "$bin" summary x10.details_all.txt
        run "summary --json text [$threads]" "$bin" summary --json x10.details_all.txt
        run "trend 100 x 54 MB [$threads]" "$bin" trend series
        run "cat x40 twice [$threads]" cat x40.ncu-rep x40_copy.ncu-rep
        run "diff --format json x40 [$threads]" "$bin" diff --format json x40.ncu-rep x40_copy.ncu-rep
        run "summary x40 [$threads]" "$bin" summary x40.ncu-rep
    done
done
unset RAYON_NUM_THREADS
