#!/usr/bin/env bash
# The Python package (python/, docs in README.md "Checking a Python library from its
# tests"): the binding's formatting and lints, then the wheel built in an environment of
# its own (maturin from PyPI), installed into a fresh one with pytest and the pinned
# libraries, and the plugin's own tests run there (python/tests/): planted bugs, each way
# of moving, exceptions and Ctrl-C, the pytest options, the reproduce commands run again,
# the `xqdiff` command the wheel installs, and the two five-line test files of real PyPI
# libraries (xiangqi 1.0.5 fails with the cause docs/real-bugs.md gives, cchess 1.25.5
# passes). The binding is its own workspace: the main crate's cargo commands never build it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
cargo fmt --manifest-path python/Cargo.toml -- --check
cargo clippy --manifest-path python/Cargo.toml --all-targets --quiet -- -D warnings
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
pip=(--quiet --disable-pip-version-check)
python3 -m venv "$dir/build"
"$dir/build/bin/pip" install "${pip[@]}" maturin==1.16.0
PATH="$dir/build/bin:$PATH" python/build-wheel.sh "$dir/wheels"
# Exact versions, so a new release cannot turn CI red on its own.
python3 -m venv "$dir/env"
"$dir/env/bin/pip" install "${pip[@]}" "$dir"/wheels/xqdiff-*.whl pytest==9.2.0 \
    cchess==1.25.5 xiangqi==1.0.5 numpy==2.4.6
# As in an activated environment: its scripts (the `xqdiff` command) first on the PATH.
# The real libraries are required here: their tests fail rather than skip.
cd python/tests
PATH="$dir/env/bin:$PATH" XQDIFF_REAL_LIBRARIES=required \
    "$dir/env/bin/python" -m pytest -p no:cacheprovider -q -rs
