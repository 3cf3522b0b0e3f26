#!/usr/bin/env bash
# Real, independent engines through `xqdiff engine`: Fairy-Stockfish (UCI, ranks 1-10),
# Sjaak II (xboard, H/E letters) and HoiXiangqi (xboard without perft: its `show moves`
# lists, counted by xqdiff), from Debian's packages. What they disagree on is a
# finding about that engine, saved under xqdiff-findings/<engine>/ and flagged here; it
# does not fail the run. The run fails when an engine cannot be driven (exit 2), or
# when our own three generators disagree with each other.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
seed="${GITHUB_RUN_ID:-1}"

install() {
    local missing=()
    [ -x /usr/games/fairy-stockfish ] || missing+=(fairy-stockfish)
    [ -x /usr/games/sjaakii ] || missing+=(sjaakii)
    [ -x /usr/games/hoixiangqi ] || missing+=(hoichess)
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get install -y "${missing[@]}" || {
        $sudo apt-get update && $sudo apt-get install -y "${missing[@]}"
    }
}

# One engine, every kind of position: start, reference suite, corpus, and the given
# number of random ones.
check_engine() {
    local label="$1" positions="$2" log status=0 start=$SECONDS
    shift 2
    log=$(mktemp)
    "${CARGO_TARGET_DIR:-target}/release/xqdiff" engine "$@" --depth 3 --positions "$positions" --seed "$seed" \
        --max-findings 0 --timeout 20 >"$log" 2>&1 || status=$?
    # Every position's line is in the log; show only what did not simply agree.
    grep -v '^ok ' "$log" || true
    # Exit 1 covers both an engine finding and our own generators disagreeing; the
    # summary line tells which.
    if [ "$status" -eq 1 ] && ! grep -q ' 0 disagreements among the built-ins' "$log"; then
        echo "$label: the built-in generators disagree with each other (see above)" >&2
        status=3
    fi
    rm -f "$log"
    local took="after $((SECONDS - start)) s"
    case "$status" in
        0) echo "== $label agrees with the built-ins everywhere it was checked ($took)" ;;
        1) echo "== FINDINGS about $label (not about xqdiff), $took: see xqdiff-findings/" ;;
        *) echo "== $label could not be checked (exit $status)" >&2; return 1 ;;
    esac
}

install
# Built once and run as built: `cargo run` would build again after each engine whose
# findings were saved, the corpus being compiled into the program (minutes each time).
cargo build --release --quiet
# No option: xqdiff sets UCI_Variant=xiangqi itself when an engine offers it.
check_engine "Fairy-Stockfish" 300 --cmd /usr/games/fairy-stockfish
check_engine "Sjaak II" 300 --cmd /usr/games/sjaakii --protocol xboard
# Every position it is asked about costs one `show moves`, up to 0.1 ms of the engine's
# time per move listed: 300 random positions took 227 to 333 of the script's seconds on
# two shared cores, most of the CI run's margin; 120 random ones, beside the start, the
# suite and the corpus, keep it to about two minutes.
check_engine "HoiXiangqi" 120 --cmd /usr/games/hoixiangqi --protocol xboard-moves
if [ -d xqdiff-findings ]; then
    echo "findings about the engines, saved by this run or before:"
    find xqdiff-findings -type f | sort
fi
