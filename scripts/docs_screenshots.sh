#!/usr/bin/env bash
# Takes again every screenshot of docs/screenshots/ that the window shows (scripts/screenshot.sh
# under Xvfb) from the fixtures, and reduces each to a 256-colour palette. The pictures written by
# tests (app_loading, app_reload, memory_chart_*, stall_chart_*) are renewed by their tests; see
# docs/screenshots/README.md.
#
#   scripts/docs_screenshots.sh [NAME...]     # all, or only the files whose name starts with NAME
#
# Needs xvfb-run and ImageMagick's convert, and the release binary (built when missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/docs/screenshots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in h100/kernels_full pair/before pair/after source/inl_src; do
    xz -dc "$root/fixtures/$f.ncu-rep.xz" > "$work/$(basename "$f").ncu-rep"
done
full="$work/kernels_full.ncu-rep"
pair="$work/before.ncu-rep,$work/after.ncu-rep"

ONLY=("$@")

# shot NAME SIZE SECTION FILES PAGE ROW THEME [BASELINES]
shot() {
    local name=$1 size=$2 section=$3
    shift 3
    if ((${#ONLY[@]})); then
        local match=0
        for w in "${ONLY[@]}"; do
            [[ $name == "$w"* ]] && match=1
        done
        ((match)) || return 0
    fi
    local files=$1
    shift
    SIGHTLINE_SCREENSHOT_SIZE=$size SIGHTLINE_SCREENSHOT_SECTION=$section \
        bash "$root/scripts/screenshot.sh" "$files" "$work/$name.png" "$@" >/dev/null
    convert "$work/$name.png" -colors 256 "PNG8:$out/$name.png"
    echo "$out/$name.png"
}

shot app_details 1360x860 "" "$full" Details 4 dark
shot roofline 1360x860 "" "$full" Roofline 4 dark 0
shot occupancy 1360x860 "" "$full" Occupancy 4 dark
shot compare_side_by_side 1360x860 "" "$pair" Compare 11 dark 2
shot compare_why_light 1360x860 "" "$pair" Compare 10 light 1
shot compare_reports 1360x860 "" "$pair" "Report vs report" 0 dark
for theme in dark light; do
    shot "source_$theme" 1360x860 "" "$work/inl_src.ncu-rep" Source 0 $theme
    shot "memory_tables_$theme" 1500x1500 "Memory Workload Analysis Tables" "$full" Details 2 $theme
    shot "numa_table_$theme" 1360x600 "NUMA" "$full" Details 2 $theme
    shot "pm_sampling_$theme" 1360x860 "PM Sampling" "$full" Details 2 $theme
    shot "compare_memory_$theme" 1500x1500 "Memory Workload Analysis" "$pair" Compare 10 $theme 1
    shot "compare_stall_chart_$theme" 1360x860 "Warp State" "$pair" Compare 10 $theme 1
    shot "pipe_utilization_$theme" 1400x1300 "Compute Workload" "$full" Details 4 $theme
    shot "instruction_mix_$theme" 1400x1300 "Instruction Statistics" "$full" Details 4 $theme
    shot "warps_per_scheduler_$theme" 1400x1000 "Scheduler Statistics" "$full" Details 4 $theme
    shot "occupancy_graphs_$theme" 1400x1500 "Occupancy" "$full" Details 4 $theme
    shot "source_counters_$theme" 1400x1500 "Source Counters" "$full" Details 4 $theme
done
