#!/usr/bin/env bash
# Builds the `xqdiff` wheel into OUT (default python/target/wheels): the compiled module
# (this folder's crate, through maturin) and the `xqdiff` command (the main crate's
# release build, the executable `cargo install` makes), which pip puts on the
# environment's PATH. Needs maturin (`pip install maturin`) and a Rust toolchain; the
# wheel it makes does not. XQDIFF may name an `xqdiff` executable already built.
#
#   python/build-wheel.sh [OUT]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/target/wheels}"
if [ -z "${XQDIFF:-}" ]; then
    cargo build --release --quiet --manifest-path "$here/../Cargo.toml" --bin xqdiff
    XQDIFF="$here/../target/release/xqdiff"
fi
# maturin takes what is in wheel-data/scripts/ into the wheel's scripts.
rm -rf "$here/wheel-data"
mkdir -p "$here/wheel-data/scripts"
cp "$XQDIFF" "$here/wheel-data/scripts/xqdiff"
maturin build --release --quiet --manifest-path "$here/Cargo.toml" --out "$out"
