#!/usr/bin/env bash
# Fuzzing smoke run: seed the corpora, build every cargo-fuzz target, run each for
# FUZZ_SECONDS (default 30). Fails when a step fails or a target finds a crash; crash
# inputs are left in fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
seconds="${FUZZ_SECONDS:-30}"

step() {
    local name="$1"
    shift
    local start=$SECONDS
    local status=0
    echo "== $name"
    # Not `set -e`: it is off inside `if`, and the time is wanted on failure too.
    "$@" || status=$?
    echo "== $name: $((SECONDS - start)) s, exit $status"
    return "$status"
}

install_cargo_fuzz() {
    if cargo fuzz --version >/dev/null 2>&1; then
        cargo fuzz --version
    else
        cargo install cargo-fuzz --locked
    fi
}

# Runs one target and insists that libFuzzer executed inputs: a target that silently
# runs nothing must not pass.
run_target() {
    local target="$1" log status=0
    log=$(mktemp)
    mkdir -p "fuzz/corpus/$target"
    cargo +nightly fuzz run "$target" -- -max_total_time="$seconds" 2>&1 | tee "$log" || status=$?
    if [ "$status" -eq 0 ] && ! grep -Eq '^Done [1-9][0-9]* runs' "$log"; then
        echo "$target: libFuzzer reported no runs" >&2
        status=1
    fi
    rm -f "$log"
    return "$status"
}

step "install cargo-fuzz" install_cargo_fuzz
step "seed corpora" cargo run --release -- fuzz-seeds
step "build targets" cargo +nightly fuzz build
targets=$(cargo fuzz list)
if [ -z "$targets" ]; then
    echo "no fuzz targets found" >&2
    exit 1
fi
failed=()
for target in $targets; do
    if ! step "run $target for ${seconds} s" run_target "$target"; then
        failed+=("$target")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz targets failed: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
    exit 1
fi
echo "all fuzz targets ran ${seconds} s without a crash: $(echo $targets)"
