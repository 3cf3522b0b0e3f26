#!/usr/bin/env python3
# Lets xqdiff check a Python library (docs/moves-protocol.md): copy it, edit the EDIT lines.
import pathlib, sys
# EDIT: import the library to check
def legal_moves(fen, moves):  # EDIT the body, one or two lines: fen's legal moves, such as "h2e2"
    raise NotImplementedError(f"{sys.argv[0]}: legal_moves() calls no library yet")
NAME = ""  # EDIT: what it checks, as reports name it, such as "cchess-1.25.5"
# OPTIONAL lines: uncomment the ones your library can serve, edit them, add their words.
OFFERS = ""  # OPTIONAL: the words served, such as " play pseudo check"
# play: legal_moves has the library play `moves` ("h2e2" ...) from fen first, so its
# make is checked too (without it, `moves` is always empty). With the two below,
# `--compare pseudo-legal` checks the pseudo-legal moves and the check test apart:
# def pseudo_moves(fen, moves): return library.pseudo_legal_moves(fen, moves)  # pseudo
# def in_check(fen): return library.in_check(fen)  # check: side to move's king attacked?
for line in sys.stdin:
    request, _, rest = " ".join(line.split()).partition(" ")
    fen, _, moves = rest.partition(" moves ")
    if request == "quit": break
    try:  # a crash in the library is one "error" line that xqdiff reports, not a hang
        if request == "legal": reply = " ".join(legal_moves(fen, moves.split()))
        elif request == "pseudo": reply = " ".join(pseudo_moves(fen, moves.split()))
        elif request == "check": reply = "yes" if in_check(fen) else "no"
        else: reply = "ok name=" + "-".join((NAME or pathlib.Path(__file__).stem).split()) + OFFERS
    except Exception as e:
        reply = "error " + " ".join(f"{type(e).__name__}: {e}".split())
    print(reply, flush=True)
