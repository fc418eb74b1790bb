#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seeds from the fixtures: each target gets the fixtures of its
# form, whole and cut to their first 16 KB (short inputs run faster); the result target gets every
# result entry of the .ncu-rep fixtures as a message of its own.
# Usage (from the repository root): bash fuzz/seed.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fx="$root/fixtures"
corpus="$root/fuzz/corpus"

seed() {
    local target="$1"; shift
    mkdir -p "$corpus/$target"
    for f in "$@"; do
        local name
        name="$(basename "${f%.xz}")"
        if [[ "$f" == *.xz ]]; then xz -dc "$f"; else cat "$f"; fi > "$corpus/$target/$name"
        head -c 16384 "$corpus/$target/$name" > "$corpus/$target/$name.head"
    done
}

seed ncu_rep_container "$fx"/h100/kernels_basic.ncu-rep.xz "$fx"/tensor/tensor_full.ncu-rep.xz
seed cli_text "$fx"/h100/*.details.txt "$fx"/h100/*.details_base.txt "$fx"/h100/*.summary.txt \
    "$fx"/h100/kernels_cli_*.txt "$fx"/h100/kernels_basic.raw.txt.xz "$fx"/seeds/cli_*.txt \
    "$fx"/tensor/tensor_full.details.txt
seed gui_copy "$fx"/seeds/gui_details_copy_a100.txt
seed csv_details "$fx"/h100/kernels_basic.details.csv "$fx"/h100/kernels_full.details.csv.xz
seed csv_raw "$fx"/h100/*.raw.csv "$fx"/h100/*.raw_base.csv "$fx"/h100/*.raw.csv.xz \
    "$fx"/h100/*.raw_base.csv.xz "$fx"/tensor/tensor_full.raw.csv.xz
seed session "$fx"/h100/*.session.csv "$fx"/h100/*.session.txt

# Each ProfileResult entry of the native fixtures, cut out along the container's framing.
mkdir -p "$corpus/ncu_rep_result"
for f in "$fx"/h100/kernels_basic.ncu-rep.xz "$fx"/h100/kernels_full.ncu-rep.xz \
    "$fx"/tensor/tensor_full.ncu-rep.xz; do
    xz -dc "$f" | python3 "$root/fuzz/result_entries.py" "$corpus/ncu_rep_result/$(basename "${f%.ncu-rep.xz}")"
done
ls "$corpus" | while read -r t; do echo "$t: $(ls "$corpus/$t" | wc -l) seeds"; done
