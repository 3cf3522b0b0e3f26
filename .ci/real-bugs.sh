#!/usr/bin/env bash
# Real libraries with real bugs, pinned (and an old release found right, which must stay
# without a finding): each must give exactly the findings listed in
# tests/data/real-bugs/<library>-<version>.txt (their signatures name the diagnosed rule
# variant), no more and no fewer. A missing one is a finding no longer found or no longer
# named by its cause; an extra one is a bug split in two or a false alarm. The bugs
# themselves are in docs/real-bugs.md.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
# XQDIFF may name a build to use instead (a debug one, say, where no release build is).
if [ -z "${XQDIFF:-}" ]; then
    cargo build --release --quiet --bin xqdiff
    XQDIFF="$PWD/target/release/xqdiff"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# An empty corpus: the repository's would add positions (and minutes) that change with it.
mkdir "$dir/corpus"

# check LIBRARY VERSION POSITIONS ADAPTER PIP-SPEC...: installs the exact versions into a
# folder of their own (two releases of one library never meet), runs the check with a
# fixed seed and compares the signatures it writes with the expected list.
check() {
    local library="$1" version="$2" positions="$3" adapter="$4" start=$SECONDS status=0
    shift 4
    local site="$dir/site-$library-$version" expected="tests/data/real-bugs/$library-$version.txt"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --target "$site" "$@"
    PYTHONPATH="$site" "$XQDIFF" engine --protocol moves --cmd "python3 $adapter" \
        --depth 2 --positions "$positions" --suite none --corpus "$dir/corpus" --seed 1 \
        --max-findings 0 --no-save --quiet --write-known "$dir/found" >"$dir/log" 2>&1 || status=$?
    # Exit 1 is the findings expected; 2 is a run that could not be made.
    if [ "$status" -gt 1 ]; then
        cat "$dir/log"
        echo "== $library $version: exit $status"
        return 1
    fi
    { grep -v '^#' "$dir/found" || true; } | cut -d' ' -f1 | sort -u >"$dir/got"
    { grep -v '^#' "$expected" || true; } | sed '/^$/d' | sort -u >"$dir/want"
    if ! diff -u "$dir/want" "$dir/got" >"$dir/diff"; then
        cat "$dir/log"
        echo "== $library $version: the findings differ from $expected (- missing, + extra):"
        tail -n +3 "$dir/diff"
        return 1
    fi
    grep '^  cause:' "$dir/log" || true
    echo "== $library $version: $(wc -l <"$dir/want") finding(s) as expected after $((SECONDS - start)) s"
}

status=0
# 160 random positions reach the first position where xiangqi's cannon jumps a king.
check xiangqi 1.0.5 160 examples/adapters/python/xiangqi_adapter.py \
    xiangqi==1.0.5 numpy==2.4.6 || status=1
# Its package's __init__ starts a chat bot: --no-deps leaves that out, and the adapter
# loads the board alone (it draws with Pillow). 60 positions: about one in seven shows it.
check nonebot-plugin-cchess 0.4.2 60 examples/adapters/python/nonebot_cchess_adapter.py \
    --no-deps nonebot-plugin-cchess==0.4.2 pillow==10.4.0 || status=1
# The oldest cchess, far from the 1.25.5 that .ci/adapters.sh checks: right everywhere
# checked (1,300 positions at depth 2, 54 at depth 3), so any finding is a false alarm.
check cchess 0.6 100 examples/adapters/python/cchess_old_adapter.py cchess==0.6 || status=1
exit "$status"
