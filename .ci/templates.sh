#!/usr/bin/env bash
# The adapter templates (examples/adapters/python/adapter.py, node/adapter.js) with
# their OPTIONAL lines enabled: each copy is edited as a user would (the import, the
# legal-moves body, the optional pseudo and check lines uncommented, OFFERS set to
# " play pseudo check") and checked against a tiny reference library, which answers
# through the test engine (src/bin/xqdiff-test-engine.rs). Right, it must agree under
# both comparisons; with a check test that misses a double check planted in the
# reference, --compare pseudo-legal must find it, which only the check line can show.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
cargo build --release --quiet --features planted --bin xqdiff --bin xqdiff-test-engine
ENGINE="$PWD/target/release/xqdiff-test-engine"
XQDIFF="$PWD/target/release/xqdiff"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The reference library: each call asks a fresh test engine over the moves protocol.
cat >"$dir/library.py" <<PY
import os, subprocess
def _ask(request):
    args = ["$ENGINE", "--protocol", "moves", "--offer-pseudo"] + os.environ.get("REFERENCE", "").split()
    out = subprocess.run(args, input="xqdiff moves 1\n" + request + "\nquit\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    return out[1].split()
def _after(fen, moves): return fen + (" moves " + " ".join(moves) if moves else "")
def legal_moves(fen, moves): return _ask("legal " + _after(fen, moves))
def pseudo_legal_moves(fen, moves): return _ask("pseudo " + _after(fen, moves))
def in_check(fen): return _ask("check " + fen) == ["yes"]
PY
cat >"$dir/library.js" <<JS
import { execFileSync } from "node:child_process";
function ask(request) {
  const args = ["--protocol", "moves", "--offer-pseudo", ...(process.env.REFERENCE || "").split(/\s+/).filter(Boolean)];
  const out = execFileSync("$ENGINE", args, { input: "xqdiff moves 1\n" + request + "\nquit\n" });
  return out.toString().split("\n")[1].split(/\s+/).filter(Boolean);
}
const after = (fen, moves) => fen + (moves.length ? " moves " + moves.join(" ") : "");
export const legalMoves = (fen, moves) => ask("legal " + after(fen, moves));
export const pseudoLegalMoves = (fen, moves) => ask("pseudo " + after(fen, moves));
export const inCheck = (fen) => ask("check " + fen)[0] === "yes";
JS
echo '{ "type": "module" }' >"$dir/package.json"

# The template as a user edits it.
sed -e 's|^# EDIT: import the library to check$|import library|' \
    -e 's|^    raise NotImplementedError(.*$|    return library.legal_moves(fen, moves)|' \
    -e 's|^OFFERS = ""|OFFERS = " play pseudo check"|' \
    -e 's|^# def |def |' \
    examples/adapters/python/adapter.py >"$dir/adapter.py"
sed -e 's|^// EDIT: import the library to check$|import * as library from "./library.js";|' \
    -e 's|^  throw new Error(.*$|  return library.legalMoves(fen, moves);|' \
    -e 's|^const OFFERS = "";|const OFFERS = " play pseudo check";|' \
    -e 's|^// const |const |' \
    examples/adapters/node/adapter.js >"$dir/adapter.js"
# Every edit took: a template whose marked lines changed fails here, not silently.
for f in "$dir/adapter.py" "$dir/adapter.js"; do
    test "$(grep -c 'library\.' "$f")" -ge 3 || { echo "$f: not every line was enabled"; exit 1; }
    grep -q 'play pseudo check' "$f" || { echo "$f: OFFERS not set"; exit 1; }
done

# The start position, and one where every advisor move leaves a double check.
fens=(--fen "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
      --fen "3kc4/9/9/9/4r4/9/9/9/4A4/4K4 w - - 0 1")
status=0
expect() {
    local want="$1" label="$2" got=0
    shift 2
    "$XQDIFF" engine --protocol moves --depth 2 --no-save --seed 1 "${fens[@]}" "$@" \
        >"$dir/log" 2>&1 || got=$?
    echo "== $label: exit $got (want $want)"
    if [ "$got" != "$want" ]; then cat "$dir/log"; status=1; fi
}
for cmd in "python3 $dir/adapter.py" "node $dir/adapter.js"; do
    expect 0 "$cmd, legal" --cmd "$cmd"
    expect 0 "$cmd, pseudo-legal" --cmd "$cmd" --compare pseudo-legal
    export REFERENCE="--bug in-check-misses-double-check"
    expect 1 "$cmd, pseudo-legal, a check test with a bug" --cmd "$cmd" --compare pseudo-legal
    unset REFERENCE
done
exit "$status"
