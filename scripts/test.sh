#!/usr/bin/env bash
# Checks the layering (scripts/check_layers.py: no import circles inside a crate, no egui below
# ui, nothing under crates/ui that sorts or starts a thread, the map of the workspace in
# docs/architecture.md up to date), formatting and lints (warnings are errors), then runs the whole test suite, on a fresh
# Debian machine with only the Rust toolchain (rustfmt and clippy included).
# The UI snapshot tests render on the CPU through Mesa (EGL/llvmpipe); no GPU or display needed.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
ldconfig -p | grep -q 'libEGL_mesa' || need+=(libegl1 libegl-mesa0 libgl1-mesa-dri libgbm1)
if ((${#need[@]})); then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"
    else
        echo "missing packages for the UI snapshot tests: ${need[*]}" >&2
    fi
fi

export WGPU_BACKEND=gl
if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -d "${XDG_RUNTIME_DIR}" ]; then
    XDG_RUNTIME_DIR=$(mktemp -d)
    chmod 700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
fi

# The real nvdisasm for the SASS tests, as users get it without the CUDA toolkit: pip's
# nvidia-cuda-nvdisasm in a virtual environment (kept in target/), not on PATH.
venv="${SIGHTLINE_TEST_VENV:-$PWD/target/tools-venv}"
if ! compgen -G "$venv/lib/python3*/site-packages/nvidia/cu*/bin/nvdisasm" >/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install --quiet nvidia-cuda-nvdisasm \
        || echo "could not install nvidia-cuda-nvdisasm into $venv; the SASS tests will fail" >&2
fi
export SIGHTLINE_TEST_VENV="$venv"

python3 scripts/check_layers.py
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo test --locked --workspace "$@"
