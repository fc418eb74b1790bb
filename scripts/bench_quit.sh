#!/usr/bin/env bash
# Times quitting the release app: opens FILE... under Xvfb, optionally presses KEYS (e.g.
# ctrl+7 for Report vs report), waits, presses Ctrl+Q and prints the seconds until the
# process is gone. Needs Xvfb and xdotool (Debian: apt-get install xvfb xdotool).
#
#   scripts/bench_quit.sh [--keys KEYS] [--wait SECONDS] FILE...
set -euo pipefail
keys=""
wait_s=8
while [ $# -gt 0 ]; do
    case "$1" in
        --keys) keys=$2; shift 2 ;;
        --wait) wait_s=$2; shift 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--keys KEYS] [--wait SECONDS] FILE..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
bin="${CARGO_TARGET_DIR:-$root/target}/release/sightline"
[ -x "$bin" ] || (cd "$root" && cargo build --release --bin sightline)
home=$(mktemp -d)
display=:$((70 + RANDOM % 20))
Xvfb "$display" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$home"' EXIT
sleep 2
HOME=$home DISPLAY=$display "$bin" "$@" >/dev/null 2>&1 &
app=$!
sleep "$wait_s"
window=$(DISPLAY=$display xdotool search --pid $app 2>/dev/null | tail -1)
DISPLAY=$display xdotool windowfocus --sync "$window" 2>/dev/null || true
sleep 0.5
if [ -n "$keys" ]; then
    DISPLAY=$display xdotool key $keys
    sleep 0.3
fi
start=$(date +%s.%N)
DISPLAY=$display xdotool key ctrl+q
for _ in $(seq 1 3000); do
    kill -0 $app 2>/dev/null || break
    sleep 0.01
done
end=$(date +%s.%N)
if kill -0 $app 2>/dev/null; then
    kill -9 $app
    echo "did not quit within 30 s"
    exit 1
fi
echo "quit: $(echo "$end - $start" | bc) s"
