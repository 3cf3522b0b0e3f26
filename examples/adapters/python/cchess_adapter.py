#!/usr/bin/env python3
# Lets xqdiff check a Python library (docs/moves-protocol.md): copy it, edit the EDIT lines.
import pathlib, sys
from cchess import ChessBoard, pos2iccs
def legal_moves(fen):  # EDIT the body, one or two lines: fen's legal moves, such as "h2e2"
    board = ChessBoard(fen)
    return [pos2iccs(*m) for m in board.create_moves() if not board.is_checked_move(*m)]
for line in sys.stdin:
    request, _, fen = " ".join(line.split()).partition(" ")
    if request == "quit": break
    try:  # a crash in the library is one "error" line that xqdiff reports, not a hang
        if request == "legal": reply = " ".join(legal_moves(fen))
        else: reply = "ok name=" + pathlib.Path(__file__).stem
    except Exception as e:
        reply = "error " + " ".join(f"{type(e).__name__}: {e}".split())
    print(reply, flush=True)
