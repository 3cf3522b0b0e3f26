"""The callables `xqdiff.check` takes, served over xqdiff's moves protocol
(docs/moves-protocol.md), so a finding of the in-process check is seen again, and the two
routes timed side by side, with ``xqdiff engine``::

    xqdiff engine --protocol moves \\
        --cmd "python3 -m xqdiff.adapter --legal-moves my_lib:legal_moves --fen-to-board my_lib:Board.from_fen"

Each callable is named ``module:qualified.name``. With ``--play`` or ``--make`` the
adapter offers ``play``: it is given the root's FEN and the moves, and plays them with the
library's own move (the library's object for each, found in its list). With
``--pseudo-legal-moves`` and ``--in-check`` it offers ``pseudo`` and ``check``. An
exception is one ``error`` line, which xqdiff reports with the position.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any, Callable, List, Optional


def load(spec: str) -> Callable[..., Any]:
    """The object named by ``module:qualified.name``."""
    module, colon, name = spec.partition(":")
    if not colon or not name:
        raise SystemExit(f"xqdiff.adapter: {spec!r} is not MODULE:NAME")
    found: Any = importlib.import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


def arguments(argv: Optional[List[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m xqdiff.adapter",
        description="Serve a Python library's callables over xqdiff's moves protocol.",
    )
    parser.add_argument("--legal-moves", required=True, metavar="MODULE:NAME")
    parser.add_argument("--fen-to-board", metavar="MODULE:NAME")
    moving = parser.add_mutually_exclusive_group()
    moving.add_argument("--play", metavar="MODULE:NAME")
    moving.add_argument("--make", metavar="MODULE:NAME")
    # Taken so a command names the same callables as `xqdiff.check`; not needed here,
    # where every request's board is a board of its own.
    parser.add_argument("--unmake", metavar="MODULE:NAME")
    parser.add_argument("--pseudo-legal-moves", metavar="MODULE:NAME")
    parser.add_argument("--in-check", metavar="MODULE:NAME")
    parser.add_argument("--name", help="the name reports use")
    parser.add_argument("--import", dest="imports", action="append", default=[],
                        metavar="MODULE", help="import MODULE first (repeat for more)")
    return parser.parse_args(argv)


def main(argv: Optional[List[str]] = None) -> int:
    args = arguments(argv)
    for module in args.imports:
        importlib.import_module(module)
    legal_moves = load(args.legal_moves)
    fen_to_board = load(args.fen_to_board) if args.fen_to_board else (lambda fen: fen)
    play = load(args.play) if args.play else None
    make = load(args.make) if args.make else None
    pseudo_moves = load(args.pseudo_legal_moves) if args.pseudo_legal_moves else None
    in_check = load(args.in_check) if args.in_check else None
    if args.name:
        name = args.name
    else:
        from . import library_name

        name = library_name([legal_moves])
    offers = [f"name={'-'.join(name.split())}"]
    if play or make:
        offers.append("play")
    if pseudo_moves and in_check:
        offers += ["pseudo", "check"]

    # Whether the library lists its moves as text (`"h2e2"`): a move's text is then its
    # object, and a move played is not looked up in a list first. Learnt from a list.
    text_moves: List[bool] = []

    def listed(lister: Callable[..., Any], board: Any) -> List[Any]:
        moves = list(lister(board))
        if moves and not text_moves:
            text_moves.append(all(isinstance(m, str) and m == m.strip() for m in moves))
        return moves

    def board_at(fen: str, moves: List[str], lister: Callable[..., Any]) -> Any:
        board = fen_to_board(fen)
        for token in moves:
            if text_moves and text_moves[0]:
                move = token
            else:
                # The library's own object for the move: it listed it as `token`.
                by_text = {str(m).strip(): m for m in listed(lister, board)}
                if token not in by_text:
                    raise ValueError(f"{token} is not in the library's list")
                move = by_text[token]
            if play:
                board = play(board, move)
            else:
                # A board of this request's own: made in place, never taken back.
                make(board, move)
        return board

    for line in sys.stdin:
        request, _, rest = " ".join(line.split()).partition(" ")
        fen, _, moves = rest.partition(" moves ")
        if request == "quit":
            break
        try:
            if request == "legal":
                board = board_at(fen, moves.split(), legal_moves)
                reply = " ".join(str(m).strip() for m in listed(legal_moves, board))
            elif request == "pseudo" and pseudo_moves:
                board = board_at(fen, moves.split(), pseudo_moves)
                reply = " ".join(str(m).strip() for m in listed(pseudo_moves, board))
            elif request == "check" and in_check:
                reply = "yes" if in_check(fen_to_board(fen)) else "no"
            elif request == "xqdiff":
                reply = " ".join(["ok", *offers])
            else:
                reply = f"error unknown request {request!r}"
        except Exception as e:  # the library's refusal, reported with the position
            reply = "error " + " ".join(f"{type(e).__name__}: {e}".split())
        print(reply, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

