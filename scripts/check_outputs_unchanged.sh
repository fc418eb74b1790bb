#!/usr/bin/env bash
# Checks that two builds of sightline print the same bytes: every headless command in every
# output form (`summary` table/JSON/CSV/HTML, `sections` text/JSON and against a baseline,
# `source` JSON/CSV, `occupancy` and `roofline` table/JSON, `diff` in every format of a report
# against itself and of pairs of reports) for every report under fixtures/ and a few of the
# public corpus, and `trend` in every format over the series and the sweep of fixtures/. Standard output, standard error and the exit status of each case are compared.
#
# Usage: scripts/check_outputs_unchanged.sh OLD NEW [WORK_DIR]
#   OLD and NEW are each a sightline binary, or a folder of outputs saved by an earlier run
#   (WORK_DIR/old or WORK_DIR/new), so the outputs of a release can be kept and compared later.
#   WORK_DIR (default /tmp/sightline-outputs) receives old/ and new/ (one .out, .err and .rc per
#   case) and cases.tsv.
#   CHECK_EXTRA: more report files to include (space-separated paths); by default up to four
#   reports of ../shared/corpus/public next to the project, when it is there.
#   CHECK_JOBS: how many cases run at once (default: the number of CPUs).
#   CHECK_CASES: an extended regular expression; only the cases whose names match it run (such
#   as `^trend` to save the outputs of cases added since a folder of outputs was kept).
# Exit status 0 when every case matches, 1 when one differs (listed), 2 on bad usage.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
die() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}
(($# >= 2)) || die "usage: $0 OLD NEW [WORK_DIR] (OLD and NEW: binaries or saved output folders)"
old="$1"
new="$2"
work="${3:-/tmp/sightline-outputs}"
jobs="${CHECK_JOBS:-$(nproc)}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
cd "$root"

# The report files: every fixture that is a report in some form (not sources, scripts, docs,
# oracle values or cubins), then the extra ones.
mapfile -t files < <(find fixtures -type f \
    ! -name '*.cu' ! -name '*.py' ! -name '*.sh' ! -name '*.md' ! -name '*.cubin' \
    ! -name '*truth.json*' ! -name 'ncu_version.txt' | LC_ALL=C sort)
if [[ -n "${CHECK_EXTRA+set}" ]]; then
    read -r -a extra <<< "$CHECK_EXTRA"
else
    mapfile -t extra < <(find "$root/../shared/corpus/public" -name '*.ncu-rep.xz' 2> /dev/null |
        LC_ALL=C sort | head -4)
fi
files+=("${extra[@]}")

# One case per line: a name, then the arguments, tab-separated. A case added with `same_as`
# names an older spelling whose old output it must give (`same_as.tsv`: name, older name).
cases="$work/cases.tsv"
same="$work/same_as.tsv"
: > "$cases"
: > "$same"
same_as() {
    local name="${1//\//_}" older="${2//\//_}"
    shift 2
    printf '%s\t%s\n' "$name" "$older" >> "$same"
    add "$name" "$@"
}
add() {
    local name="$1"
    shift
    name="${name//\//_}"
    printf '%s' "$name" >> "$cases"
    printf '\t%s' "$@" >> "$cases"
    printf '\n' >> "$cases"
}
for f in "${files[@]}"; do
    n="$(basename "$(dirname "$f")")__$(basename "$f")"
    add "$n.summary" summary "$f"
    add "$n.summary-json" summary --json "$f"
    add "$n.summary-csv" summary --csv "$f"
    add "$n.summary-html" summary --format html "$f"
    add "$n.sections" sections "$f"
    add "$n.sections-json" sections --json "$f"
    add "$n.source-json" source --json "$f"
    add "$n.source-csv" source --csv "$f"
    add "$n.occupancy" occupancy "$f"
    add "$n.occupancy-json" occupancy --json "$f"
    add "$n.roofline" roofline "$f"
    add "$n.roofline-json" roofline --json "$f"
    # Every `--format` spelling gives the bytes of the flag it replaces.
    same_as "$n.summary-format-text" "$n.summary" summary --format text "$f"
    same_as "$n.summary-format-table" "$n.summary" summary --format table "$f"
    same_as "$n.summary-format-json" "$n.summary-json" summary --format json "$f"
    same_as "$n.summary-format-csv" "$n.summary-csv" summary --format csv "$f"
    same_as "$n.sections-format-text" "$n.sections" sections --format text "$f"
    same_as "$n.sections-format-json" "$n.sections-json" sections --format json "$f"
    same_as "$n.source-format-json" "$n.source-json" source --format json "$f"
    same_as "$n.source-format-csv" "$n.source-csv" source --format csv "$f"
    for form in text md json csv html; do
        add "$n.diff-self-$form" diff --format "$form" "$f" "$f"
    done
done
# Pairs of reports: the same kernels before and after a change, in each form they were saved
# in, and reports of different programs.
pairs=(
    "fixtures/pair/before.ncu-rep.xz fixtures/pair/after.ncu-rep.xz"
    "fixtures/pair/before.details.txt.xz fixtures/pair/after.details.txt.xz"
    "fixtures/pair/before.details.csv.xz fixtures/pair/after.details.csv.xz"
    "fixtures/pair/before.raw.csv.xz fixtures/pair/after.raw.csv.xz"
    "fixtures/pair/before.cli.txt.xz fixtures/pair/after.cli.txt.xz"
    "fixtures/pair/before.ncu-rep.xz fixtures/pair/after.details.txt.xz"
    "fixtures/h100/kernels_basic.ncu-rep.xz fixtures/h100/kernels_full.ncu-rep.xz"
    "fixtures/graph/graph_node.ncu-rep.xz fixtures/graph/graph_graph.ncu-rep.xz"
    "fixtures/range/range_kernels.ncu-rep.xz fixtures/range/apprange.ncu-rep.xz"
    "fixtures/h100/kernels_full.ncu-rep.xz fixtures/pair/after.ncu-rep.xz"
)
i=0
for p in "${pairs[@]}"; do
    read -r a b <<< "$p"
    [[ -f "$a" && -f "$b" ]] || continue
    i=$((i + 1))
    for form in text md json csv html; do
        add "pair$i.diff-$form" diff --format "$form" "$a" "$b"
        add "pair$i.diff-rev-$form" diff --format "$form" "$b" "$a"
    done
    add "pair$i.diff-threshold" diff --threshold 1 --fail-on none "$a" "$b"
    add "pair$i.diff-metrics-json" diff --format json --metrics 'Duration,*hit_rate*' "$a" "$b"
    add "pair$i.sections-baseline" sections --baseline "$a" "$b"
    add "pair$i.sections-baseline-json" sections --json --baseline "$a" "$b"
    same_as "pair$i.sections-baseline-format-json" "pair$i.sections-baseline-json" \
        sections --format json --baseline "$a" "$b"
    add "pair$i.source-baseline-json" source --json --baseline "$a" "$b"
done
# Several files at once.
several=(fixtures/pair/before.ncu-rep.xz fixtures/h100/kernels_basic.details.txt
    fixtures/range/apprange.ncu-rep.xz fixtures/no/such/file.ncu-rep)
for c in "summary" "summary --json" "summary --csv" "summary --format html" "sections" \
    "sections --json" "source --json" "source --csv" "occupancy" "occupancy --json" "roofline" \
    "roofline --json"; do
    read -r -a args <<< "$c"
    add "several.${c// /_}" "${args[@]}" "${several[@]}"
done
for c in "summary --format text=summary" "summary --format json=summary --json" \
    "summary --format csv=summary --csv" "sections --format text=sections" \
    "sections --format json=sections --json" "source --format json=source --json" \
    "source --format csv=source --csv"; do
    read -r -a args <<< "${c%%=*}"
    older="${c#*=}"
    same_as "several.${args[*]// /_}" "several.${older// /_}" "${args[@]}" "${several[@]}"
done
# A series of runs and a sweep over problem sizes, in every form.
series=(fixtures/series/v1.ncu-rep.xz fixtures/series/v2.ncu-rep.xz fixtures/series/v3.ncu-rep.xz
    fixtures/series/v4.ncu-rep.xz fixtures/series/v5.ncu-rep.xz)
series_text=(fixtures/series/v1.details.txt fixtures/series/v2.details.txt
    fixtures/series/v3.details.txt fixtures/series/v4.details.txt fixtures/series/v5.details.txt)
for form in text json csv md html; do
    add "trend.series-$form" trend --format "$form" "${series[@]}"
    add "trend.series-captured-$form" trend --order captured --format "$form" "${series[@]}"
    add "trend.series-text-forms-$form" trend --format "$form" "${series_text[@]}"
    add "trend.series-metric-$form" trend --format "$form" \
        --metric sm__throughput.avg.pct_of_peak_sustained_elapsed "${series[@]}"
    add "trend.series-fail-on-$form" trend --format "$form" --fail-on 'duration>5%' "${series[@]}"
    add "trend.folder-$form" trend --format "$form" fixtures/series
    add "trend.renames-$form" trend --format "$form" fixtures/renames/before.ncu-rep.xz \
        fixtures/renames/after.ncu-rep.xz
    add "trend.sweep-$form" trend --by-size --format "$form" fixtures/sweep
    add "trend.sweep-pattern-$form" trend --by-size --size-pattern 'N=(\d+)' --format "$form" \
        fixtures/sweep
    add "trend.sweep-metric-$form" trend --by-size --format "$form" \
        --metric sm__throughput.avg.pct_of_peak_sustained_elapsed fixtures/sweep
done
add "trend.order-given" trend --order given "${series[@]}"
add "trend.bad-order" trend --order sideways "${series[@]}"
add "trend.bad-fail-on" trend --fail-on 'duration>x' "${series[@]}"
add "trend.missing-file" trend "${series[@]}" fixtures/no/such/file.ncu-rep
add "trend.sweep-bad-pattern" trend --by-size --size-pattern 'N=(' fixtures/sweep
add "trend.sweep-no-size" trend --by-size fixtures/series
add "trend.watch-json" trend --watch --format json fixtures/series
if [[ -n "${CHECK_CASES:-}" ]]; then
    awk -F '\t' -v re="$CHECK_CASES" '$1 ~ re' "$cases" > "$cases.kept"
    mv "$cases.kept" "$cases"
fi

# Runs every case with binary $1 into folder $2.
run_all() {
    local bin="$1" out="$2"
    rm -rf "$out" "$out.cache"
    mkdir -p "$out" "$out.cache"
    # Each run starts with an empty disassembly cache of its own: SASS text a run on this
    # machine left there earlier would otherwise show in one side's Source outputs only.
    export XDG_CACHE_HOME="$out.cache"
    export bin out
    # shellcheck disable=SC2016
    tr '\n' '\0' < "$cases" | xargs -0 -P "$jobs" -n 1 bash -c '
        IFS=$'"'"'\t'"'"' read -r -a a <<< "$1"
        name="${a[0]}"
        rc=0
        timeout 900 "$bin" "${a[@]:1}" > "$out/$name.out" 2> "$out/$name.err" || rc=$?
        echo "$rc" > "$out/$name.rc"
    ' _
}

side() {
    local what="$1" label="$2"
    if [[ -d "$what" ]]; then
        echo "$what"
    elif [[ -x "$what" ]]; then
        echo "running $(wc -l < "$cases") cases with $what" >&2
        run_all "$(cd "$(dirname "$what")" && pwd)/$(basename "$what")" "$work/$label"
        echo "$work/$label"
    else
        die "$what is neither a binary nor a folder of saved outputs"
    fi
}
old_dir="$(side "$old" old)"
new_dir="$(side "$new" new)"

failed=0
checked=0
declare -A older_name
while IFS=$'\t' read -r name older; do
    older_name[$name]="$older"
done < "$same"
while IFS=$'\t' read -r name _; do
    older="${older_name[$name]:-$name}"
    for ext in out err rc; do
        checked=$((checked + 1))
        if [[ ! -f "$old_dir/$older.$ext" || ! -f "$new_dir/$name.$ext" ]]; then
            echo "missing: $name.$ext"
            failed=$((failed + 1))
        elif ! cmp -s "$old_dir/$older.$ext" "$new_dir/$name.$ext"; then
            echo "differs: $name.$ext ($old_dir/$older.$ext vs $new_dir/$name.$ext)"
            failed=$((failed + 1))
        fi
    done
done < "$cases"
echo "$checked outputs of $(wc -l < "$cases") cases compared, $failed differ"
((failed == 0))
