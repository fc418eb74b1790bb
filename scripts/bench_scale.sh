#!/usr/bin/env bash
# How time and memory grow with the size of a native report: `many_basic.ncu-rep` (54 MB, 400
# results) and copies of it made K times larger with `bigrep.py` (every result repeated K times
# inside its own block). For each size it runs, one after the other in each round (so every
# command sees the same machine state): `cat` of the file (reading the bytes), every headless
# command in every output form (`summary` table/JSON/CSV/HTML, `sections` text/JSON, `occupancy`
# and `roofline` table/JSON, `source` JSON, `diff` of the report against a copy of itself in
# every format), and NVIDIA's report module reading every value of every result
# (`full_decode.py`) when a Python with `ncu_report` is given. Each run is timed with GNU time
# (`/usr/bin/time -f "%e %M"`: wall seconds and peak resident memory). It prints the machine and
# one Markdown table per size (median time, min–max, peak memory, time as a share of NVIDIA's
# module), then how each command's time grows from the smallest size to the others.
#
# Usage: scripts/bench_scale.sh [options] BINARY [K...]
#   BINARY  the sightline release binary to measure (for example target/release/sightline).
#   K...    the sizes, as multiples of many_basic (default: 1 10; 40 makes the 909 MB report).
# Options:
#   --runs N          rounds per size (default 3).
#   --module-python P a Python that has `ncu_report` (for example venv/bin/python after
#                     `pip install ncu-report`, or from wheels: `pip install --no-index
#                     --find-links WHEELS ncu-report`); also taken from NCU_REPORT_PYTHON.
#                     Without it the module's row is left out (said on stderr).
#   --module-venv DIR the same, as a virtual environment folder (DIR/bin/python).
#   --dir DIR         where the reports are made and kept (default /tmp/sightline-scale).
#   --report FILE     the 1x report (default: fixtures/big/many_basic.ncu-rep.xz next to this
#                     script, else ../shared/corpus/big/many_basic.ncu-rep.xz; .xz is unpacked).
#   --tools DIR       where bigrep.py and full_decode.py are (default scripts/scale_tools next
#                     to this script, else ../shared/tools).
#   --only LIST       a comma list of row names to run (names as printed), for quick checks.
# Everything it needs is in the repository (scripts/scale_tools) and the binary, so it can run
# from a copy of the repository with a prebuilt binary and no network.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
die() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}

runs=3
module_python="${NCU_REPORT_PYTHON:-}"
dir=/tmp/sightline-scale
report=""
tools=""
only=""
while (($#)); do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --module-python) module_python="$2"; shift 2 ;;
        --module-venv) module_python="$2/bin/python"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --report) report="$2"; shift 2 ;;
        --tools) tools="$2"; shift 2 ;;
        --only) only=",$2,"; shift 2 ;;
        -h | --help) sed -n '2,32p' "$0"; exit 0 ;;
        --*) die "unknown option $1" ;;
        *) break ;;
    esac
done
(($#)) || die "usage: $0 [options] BINARY [K...] (see --help)"
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
factors=("$@")
((${#factors[@]})) || factors=(1 10)
[[ -x "$bin" ]] || die "no binary at $bin"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "--runs must be a positive number, not '$runs'"
for k in "${factors[@]}"; do
    [[ "$k" =~ ^[1-9][0-9]*$ ]] || die "K must be a positive number, not '$k'"
done
[[ -x /usr/bin/time ]] || die "GNU time (/usr/bin/time) is needed"
if [[ -z "$tools" ]]; then
    for t in "$root/scripts/scale_tools" "$root/../shared/tools"; do
        [[ -f "$t/bigrep.py" ]] && { tools="$t"; break; }
    done
fi
[[ -n "$tools" && -f "$tools/bigrep.py" ]] || die "no bigrep.py (give --tools DIR)"
if [[ -z "$report" ]]; then
    for r in "$root/fixtures/big/many_basic.ncu-rep.xz" \
        "$root/../shared/corpus/big/many_basic.ncu-rep.xz"; do
        [[ -f "$r" ]] && { report="$r"; break; }
    done
fi
[[ -n "$report" && -f "$report" ]] || die "no many_basic report (give --report FILE)"
module=0
if [[ -n "$module_python" ]]; then
    if "$module_python" -c 'import ncu_report' 2> /dev/null; then
        module=1
    else
        die "$module_python cannot import ncu_report"
    fi
else
    echo "NVIDIA's module: left out (give --module-python or --module-venv)" >&2
fi

mkdir -p "$dir"
base="$dir/many_basic.ncu-rep"
if [[ ! -s "$base" ]]; then
    if [[ "$report" == *.xz ]]; then
        xz -dc "$report" > "$base.part"
    else
        cp "$report" "$base.part"
    fi
    mv "$base.part" "$base"
fi
# The report K times larger, and a copy of it (the other side of `diff`).
report_of() {
    local k="$1" out
    if ((k == 1)); then
        out="$base"
    else
        out="$dir/many_basic.x$k.ncu-rep"
        if [[ ! -s "$out" ]]; then
            python3 "$tools/bigrep.py" "$base" "$out.part" "$k" > /dev/null
            mv "$out.part" "$out"
        fi
    fi
    if [[ ! -s "$out.copy.ncu-rep" ]]; then
        cp "$out" "$out.copy.ncu-rep.part"
        mv "$out.copy.ncu-rep.part" "$out.copy.ncu-rep"
    fi
    echo "$out"
}

cpu="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
echo "machine: ${cpu:-unknown CPU}, $(nproc) logical CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) memory"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "binary: $bin ($(date -r "$bin" '+%Y-%m-%d %H:%M'))"
echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# The rows: a name, then the command (run under sh; {FILE} and {COPY} stand for the report and
# its copy, {BIN} for the binary, {PY} for the Python with NVIDIA's module).
rows=(
    "cat|cat {FILE}"
    "summary|{BIN} summary {FILE}"
    "summary --json|{BIN} summary --json {FILE}"
    "summary --csv|{BIN} summary --csv {FILE}"
    "summary --format html|{BIN} summary --format html {FILE}"
    "sections|{BIN} sections {FILE}"
    "sections --json|{BIN} sections --json {FILE}"
    "occupancy|{BIN} occupancy {FILE}"
    "occupancy --json|{BIN} occupancy --json {FILE}"
    "roofline|{BIN} roofline {FILE}"
    "roofline --json|{BIN} roofline --json {FILE}"
    "source --json|{BIN} source --json {FILE}"
    "diff|{BIN} diff {FILE} {COPY}"
    "diff --format md|{BIN} diff --format md {FILE} {COPY}"
    "diff --format json|{BIN} diff --format json {FILE} {COPY}"
    "diff --format csv|{BIN} diff --format csv {FILE} {COPY}"
    "diff --format html|{BIN} diff --format html {FILE} {COPY}"
)
if ((module)); then
    rows+=("NVIDIA module, every value|{PY} $tools/full_decode.py {FILE}")
fi

declare -A median_of
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for k in "${factors[@]}"; do
    file="$(report_of "$k")"
    size="$(stat -c %s "$file" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
    results="$(("$("$bin" summary "$file" | wc -l)" - 1))"
    declare -A times=() peaks=()
    for _ in $(seq "$runs"); do
        for row in "${rows[@]}"; do
            name="${row%%|*}"
            [[ -z "$only" || "$only" == *",$name,"* || "$name" == cat ]] || continue
            cmd="${row#*|}"
            cmd="${cmd//\{BIN\}/$bin}"
            cmd="${cmd//\{PY\}/$module_python}"
            cmd="${cmd//\{COPY\}/$file.copy.ncu-rep}"
            cmd="${cmd//\{FILE\}/$file}"
            status=0
            /usr/bin/time -f "%e %M" -o "$log" sh -c "$cmd > /dev/null 2>&1" || status=$?
            ((status <= 1)) || die "'$cmd' failed (exit status $status)"
            read -r secs kb < <(tail -1 "$log")
            times[$name]+="$secs "
            if ((kb > ${peaks[$name]:-0})); then peaks[$name]=$kb; fi
        done
    done
    module_med=""
    if [[ -n "${times[NVIDIA module, every value]:-}" ]]; then
        module_med="$(tr ' ' '\n' <<< "${times[NVIDIA module, every value]}" | grep . | sort -g |
            awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')"
    fi
    echo "### ×$k: $size, $results results, $runs runs"
    echo
    echo "| command | median | min – max | peak memory | ÷ NVIDIA module |"
    echo "| --- | --- | --- | --- | --- |"
    for row in "${rows[@]}"; do
        name="${row%%|*}"
        [[ -n "${times[$name]:-}" ]] || continue
        sorted="$(tr ' ' '\n' <<< "${times[$name]}" | grep . | sort -g)"
        med="$(awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}' <<< "$sorted")"
        median_of["$k|$name"]="$med"
        share="-"
        if [[ -n "$module_med" ]]; then
            share="$(awk -v a="$med" -v b="$module_med" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
        fi
        printf '| `%s` | %.2f s | %.2f – %.2f s | %d MB | %s |\n' "$name" "$med" \
            "$(head -1 <<< "$sorted")" "$(tail -1 <<< "$sorted")" "$((peaks[$name] / 1024))" "$share"
    done
    echo
    unset times peaks
done

# How time grows: each size's median over the smallest size's, next to the size ratio.
if ((${#factors[@]} > 1)); then
    first="${factors[0]}"
    header="| command |"
    rule="| --- |"
    for k in "${factors[@]:1}"; do
        header+=" ×$k ÷ ×$first (size ×$((k / first))) |"
        rule+=" --- |"
    done
    echo "### Growth of the median time with the report"
    echo
    echo "$header"
    echo "$rule"
    for row in "${rows[@]}"; do
        name="${row%%|*}"
        [[ -n "${median_of["$first|$name"]:-}" ]] || continue
        line="| \`$name\` |"
        for k in "${factors[@]:1}"; do
            line+=" $(awk -v a="${median_of["$k|$name"]:-0}" -v b="${median_of["$first|$name"]}" \
                'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "-" }') |"
        done
        echo "$line"
    done
    echo
fi
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
