#!/usr/bin/env bash
# Checks the layering (scripts/check_layers.py: no import circles inside a crate, no egui below
# ui, no thread pool in the window's manifest, the map of the workspace in docs/architecture.md
# up to date), that every path docs/architecture.md names exists (scripts/check_doc_paths.py),
# formatting and lints (warnings are errors; the manifests' lints forbid unsafe code
# and crates/ui/clippy.toml keeps the window from sorting and starting threads), then runs the whole test suite, on a fresh
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

# The real nvdisasm programs for the SASS tests, as users get them without the CUDA toolkit, in a
# virtual environment kept in target/ (not on PATH): pip's nvidia-cuda-nvdisasm (CUDA 13: Turing
# and newer) and the one the Triton wheel carries (CUDA 12.8: Maxwell to Blackwell, so Pascal
# and Volta reports get SASS too).
venv="${SIGHTLINE_TEST_VENV:-$PWD/target/tools-venv}"
site="$venv/lib/python3*/site-packages"
if ! compgen -G "$site/nvidia/cu*/bin/nvdisasm" >/dev/null; then
    python3 -m venv "$venv" && "$venv/bin/pip" install --quiet nvidia-cuda-nvdisasm \
        || echo "could not install nvidia-cuda-nvdisasm into $venv; the SASS tests will fail" >&2
fi
if ! compgen -G "$site/triton/backends/nvidia/bin/nvdisasm" >/dev/null; then
    "$venv/bin/pip" install --quiet --no-deps "triton<3.6" \
        || echo "could not install triton<3.6 into $venv; the CUDA 12 SASS tests will fail" >&2
fi
export SIGHTLINE_TEST_VENV="$venv"

# The suite's own home, empty at the start of each run: no test reads or writes the user's
# settings, caches (~/.cache/sightline) or desktop files, and no run sees what an earlier one
# left. The toolchain keeps its own folders.
run_home="$PWD/target/test-home"
rm -rf "$run_home"
mkdir -p "$run_home/cache" "$run_home/config" "$run_home/data"
export CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
if [ -z "${RUSTUP_HOME:-}" ] && [ -d "$HOME/.rustup" ]; then
    export RUSTUP_HOME="$HOME/.rustup"
fi
export HOME="$run_home" XDG_CACHE_HOME="$run_home/cache" XDG_CONFIG_HOME="$run_home/config" \
    XDG_DATA_HOME="$run_home/data"
unset SIGHTLINE_CACHE_DIR

python3 scripts/check_layers.py
python3 scripts/check_doc_paths.py
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
cargo test --locked --workspace "$@"
