#!/usr/bin/env python3
# Lets xqdiff check a Python library (docs/moves-protocol.md): copy it, edit the EDIT lines.
import pathlib, sys
# EDIT: import the library to check
def legal_moves(fen):  # EDIT the body, one or two lines: fen's legal moves, such as "h2e2"
    raise NotImplementedError(f"{sys.argv[0]}: legal_moves() calls no library yet")
for line in sys.stdin:
    request, _, fen = " ".join(line.split()).partition(" ")
    if request == "quit": break
    try:  # a crash in the library is one "error" line that xqdiff reports, not a hang
        if request == "legal": reply = " ".join(legal_moves(fen))
        else: reply = "ok name=" + pathlib.Path(__file__).stem
    except Exception as e:
        reply = "error " + " ".join(f"{type(e).__name__}: {e}".split())
    print(reply, flush=True)
