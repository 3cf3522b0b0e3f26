#!/bin/bash -eu
# Builds every cargo-fuzz target into $OUT, each with a seed corpus made from the
# regression corpus and the reference suite: `xqdiff fuzz-seeds` turns each corpus case
# into the input format of each target (structured bytes, FEN text, playout bytes),
# because the targets do not read corpus/*.txt directly.
cd "$SRC/xqdiff"

cargo fuzz build -O
fuzz_release=fuzz/target/x86_64-unknown-linux-gnu/release

# The seed writer is an ordinary program: build it without the fuzzing flags the
# builder image puts in RUSTFLAGS, in a target dir of its own.
env -u RUSTFLAGS cargo run --release --target-dir "$WORK/seed-build" -- \
    fuzz-seeds --corpus corpus --out "$WORK/seeds"

for target in $(cargo fuzz list); do
    cp "$fuzz_release/$target" "$OUT/"
    if [ -d "$WORK/seeds/$target" ]; then
        (cd "$WORK/seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
    fi
done
