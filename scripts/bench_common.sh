# Shared by scripts/bench.sh, scripts/bench_scale.sh, scripts/bench_host.sh and
# scripts/bench_text.sh (sourced, not run): checks, the machine line, timed runs of a command or
# of the app, and the Markdown table of the results. The caller
# sets `runs` (how many runs per line) and `bin` (the binary), then calls `bench_start`, adds
# lines with `bench_command` and `bench_app`, and prints them with `bench_table`.

bench_die() {
    echo "$(basename "$0"): $*" >&2
    exit 1
}

# Checks what every benchmark needs and prints the machine, its load and the binary.
bench_start() {
    [[ "$runs" =~ ^[1-9][0-9]*$ ]] || bench_die "RUNS must be a positive number, not '$runs'"
    [[ -x "$bin" ]] || bench_die "no release binary at $bin: run 'cargo build --release' first"
    [[ -x /usr/bin/time ]] || bench_die "GNU time (/usr/bin/time) is needed for the memory figures"
    [[ -n "${EPOCHREALTIME:-}" ]] || bench_die "bash 5 or later is needed (EPOCHREALTIME)"
    local cpu
    cpu="$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
    echo "machine: ${cpu:-unknown CPU}, $(nproc) logical CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo) memory"
    echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "binary: $bin ($(date -r "$bin" '+%Y-%m-%d %H:%M'))"
    echo
}

bench_rows=()

# Adds a table row: LABEL, INPUT, RESULTS, peak RSS in KB, UNIT (ms or s), then the wall time
# of each run in that unit.
bench_row() {
    local label="$1" input="$2" results="$3" peak_kb="$4" unit="$5" sorted median format
    shift 5
    sorted="$(printf '%s\n' "$@" | sort -g)"
    median="$(awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}' <<< "$sorted")"
    if [[ "$unit" == ms ]]; then format='%.1f'; else format='%.2f'; fi
    bench_rows+=("$(printf "| %s | %s | %s | %s | $format %s | $format – $format %s | %d MB |" \
        "$label" "$input" "$results" "$#" "$median" "$unit" "$(head -1 <<< "$sorted")" \
        "$(tail -1 <<< "$sorted")" "$unit" "$((peak_kb / 1024))")")
}

# Microseconds since the epoch.
bench_now_us() {
    local t="${EPOCHREALTIME/[.,]/}"
    echo $((10#$t))
}

# Runs COMMAND... $runs times (its output dropped; exit status 0 or 1 taken as done) and adds a
# row: LABEL, INPUT, RESULTS, the wall time of each run in UNIT (ms or s) and the peak RSS (GNU
# time) of all.
bench_command() {
    local label="$1" input="$2" results="$3" unit="$4" times=() peak=0 log start end rss status
    shift 4
    log="$(mktemp)"
    for _ in $(seq "$runs"); do
        start="$(bench_now_us)"
        status=0
        /usr/bin/time -f "%M" -o "$log" "$@" > /dev/null || status=$?
        end="$(bench_now_us)"
        ((status <= 1)) || bench_die "'$*' failed (exit status $status)"
        rss="$(tail -1 "$log")"
        times+=("$(awk -v d="$((end - start))" -v u="$unit" 'BEGIN { printf "%.4f", u == "ms" ? d / 1e3 : d / 1e6 }')")
        if ((rss > peak)); then peak=$rss; fi
    done
    rm -f "$log"
    bench_row "$label" "$input" "$results" "$peak" "$unit" "${times[@]}"
}

# Whether the app can be measured: the binary has the hidden `--time-to-table` option and
# xvfb-run is there (SKIP_APP=1 leaves it out). Says why not on stderr.
bench_app_available() {
    if [[ "${SKIP_APP:-0}" == 1 ]]; then
        echo "app step: left out (SKIP_APP=1)" >&2
        return 1
    elif ! "$bin" --time-to-table --help > /dev/null 2>&1; then
        echo "app step: left out ($bin has no --time-to-table)" >&2
        return 1
    elif ! command -v xvfb-run > /dev/null; then
        echo "app step: left out (no xvfb-run)" >&2
        return 1
    fi
}

# Runs the app $runs times under xvfb-run with ARGS... and adds a row: LABEL, INPUT, the time
# the app prints and the peak RSS of the whole app process. With WHAT "table" the app runs
# with `--time-to-table` and the time is that of the complete results table; with "clicks N"
# (two words) it runs with `--click-through N` and the time is that of selecting N rows one
# per frame (after the table), the peak that of the whole run.
bench_app() {
    local label="$1" input="$2" what="$3" line results="" times=() peak=0 log rss re option
    shift 3
    if [[ "$what" == table ]]; then
        option=(--time-to-table)
        re='shown: ([0-9]+) results from ([0-9]+) reports in ([0-9.]+) ms'
    else
        option=(--click-through "${what#clicks }")
        re='clicked through ([0-9]+) results in ([0-9.]+) ms'
    fi
    log="$(mktemp)"
    for _ in $(seq "$runs"); do
        line="$(timeout 600 xvfb-run -a /usr/bin/time -f "%M" -o "$log" \
            "$bin" "${option[@]}" "$@" 2>&1 | grep -E "$re" || true)"
        if [[ ! "$line" =~ $re ]]; then
            echo "app step: no time printed for $label; left out" >&2
            rm -f "$log"
            return 0
        fi
        if [[ "$what" == table ]]; then
            results="${BASH_REMATCH[1]}"
            ((BASH_REMATCH[2] == 1)) || results+=" in ${BASH_REMATCH[2]} reports"
            times+=("${BASH_REMATCH[3]}")
        else
            results="${BASH_REMATCH[1]} clicked"
            times+=("${BASH_REMATCH[2]}")
        fi
        rss="$(tail -1 "$log")"
        if ((rss > peak)); then peak=$rss; fi
    done
    rm -f "$log"
    bench_row "$label" "$input" "$results" "$peak" ms "${times[@]}"
}

# Prints the rows as a Markdown table and the load average after the runs.
bench_table() {
    echo "| what | input | results | runs | median | min – max | peak RSS |"
    echo "| --- | --- | --- | --- | --- | --- | --- |"
    printf '%s\n' "${bench_rows[@]}"
    echo
    echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# Runs a command, its output thrown away, and prints `LABEL | S s, M MB`: its wall time and peak
# resident memory, read by a Python parent (a host without GNU time measures the same way).
bench_timed() {
    local label=$1
    shift
    local t
    t=$(python3 -c 'import resource, subprocess, sys, time
t = time.time()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print("%.2f s, %d MB" % (time.time() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024))' "$@")
    echo "$label | $t"
}
