#!/usr/bin/env bash
# Real libraries checked through the moves protocol (docs/moves-protocol.md) with the
# adapters in examples/adapters/: the Fairy-Stockfish binding pyffish and cchess in
# Python, elephantops in JavaScript. Unlike the engines in engines.sh, all three agree
# with the built-ins everywhere checked at these versions, so a difference, or an adapter
# that cannot be driven, fails the run: a broken template, a regression in xqdiff's moves
# protocol, or a new release of a library to look at before its pin moves.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

# Exact versions, so that a library's new release cannot turn CI red on its own.
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    pyffish==0.0.90 cchess==1.25.5
# package.json pins elephantops and its one dependency.
(cd examples/adapters/node && npm install --no-audit --no-fund --silent)

# One adapter, every kind of position: start, reference suite, corpus, and the given
# number of random ones. The seed is fixed so that a run fails for a change, never for a
# different draw of positions.
check_adapter() {
    local label="$1" positions="$2" start=$SECONDS log status=0
    shift 2
    log=$(mktemp)
    cargo run --release --quiet -- engine --protocol moves --cmd "$*" \
        --depth 3 --positions "$positions" --suite reference --no-save --seed 1 >"$log" 2>&1 || status=$?
    # Every position's line is in the log; show only what did not simply agree.
    grep -v '^ok ' "$log" || true
    rm -f "$log"
    echo "== $label: exit $status after $((SECONDS - start)) s"
    return "$status"
}

# Each runs to the end even when one before it failed, so one run shows every failure.
# pyffish is checked by the README's own command for it, the same run, which
# .ci/readme.py runs as printed; running it here too would spend minutes on it twice.
status=0
# cchess lists moves at about 6 ms a position, so it gets 20 random positions rather
# than 100 (beside the start, the suite and the corpus, which take most of its time):
# about a minute and a half instead of five.
check_adapter cchess 20 python3 examples/adapters/python/cchess_adapter.py || status=1
check_adapter elephantops 100 node examples/adapters/node/elephantops_adapter.js || status=1
exit "$status"
