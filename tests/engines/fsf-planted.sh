#!/bin/sh
# A UCI engine with a planted rule bug: Fairy-Stockfish playing one section of
# fsf-planted.ini (Xiangqi with one rule changed) whatever variant it is asked for.
#
#   tests/engines/fsf-planted.sh flying-general-off
#   xqdiff engine --cmd "tests/engines/fsf-planted.sh horse-as-knight"
#
# FAIRY_STOCKFISH names the engine (default /usr/games/fairy-stockfish, Debian's).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ini="$here/fsf-planted.ini"
engine="${FAIRY_STOCKFISH:-/usr/games/fairy-stockfish}"
if [ $# -ne 1 ] || ! grep -q "^\[$1:xiangqi\]\$" "$ini"; then
    echo "usage: $0 BUG, one of:" $(sed -n 's/^\[\(.*\):xiangqi\]$/\1/p' "$ini") >&2
    exit 2
fi
bug="$1"
# The engine reads the file before the handshake and plays the planted variant from
# the handshake on; a client that selects a variant (xiangqi, say) gets the planted
# one instead, so no client can undo the bug.
{
    printf 'setoption name VariantPath value %s\n' "$ini"
    sed -u -e "s/^setoption name UCI_Variant value .*/setoption name UCI_Variant value $bug/" \
        -e "/^uci\$/a setoption name UCI_Variant value $bug"
} | exec "$engine"
