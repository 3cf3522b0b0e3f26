"""Callables over cchess 1.25.5 (pinned in .ci/python.sh), which agrees with xqdiff's
generators everywhere checked (.ci/adapters.sh): the correct library of these tests, in
each way of moving, with counters of what it was asked, and the same library with a
planted bug or a fault."""

from cchess import ChessBoard, iccs2pos, pos2iccs

CALLS = {"boards": 0, "legal": 0, "make": 0, "unmake": 0, "play": 0}


def fen_to_board(fen):
    CALLS["boards"] += 1
    return ChessBoard(fen)


def pseudo_legal_moves(board):
    return [pos2iccs(*m) for m in board.create_moves()]


def legal_moves(board):
    CALLS["legal"] += 1
    return [pos2iccs(*m) for m in board.create_moves() if not board.is_checked_move(*m)]


def in_check(board):
    """Whether the king of the side to move is attacked."""
    other = board.copy()
    other.next_turn()
    return other.is_checking()


def make(board, move):
    CALLS["make"] += 1
    here, there = iccs2pos(move)
    board.__dict__.setdefault("taken", []).append(board.get_fench(there))
    board.__dict__.setdefault("moves", []).append((here, there))
    board._move_piece(here, there)
    board.next_turn()


def unmake(board):
    CALLS["unmake"] += 1
    here, there = board.__dict__["moves"].pop()
    board._move_piece(there, here)
    taken = board.__dict__["taken"].pop()
    if taken:
        board.put_fench(taken, there)
    board.next_turn()


def play(board, move):
    CALLS["play"] += 1
    after = board.copy()
    make(after, move)
    return after


def cannon_cannot_capture(board):
    """The planted bug: a cannon's captures are left out."""
    def capture_by_cannon(move):
        here, there = iccs2pos(move)
        return board.get_fench(here).lower() == "c" and board.get_fench(there) is not None
    return [m for m in legal_moves(board) if not capture_by_cannon(m)]


# A cannon with a capture over a screen, and a quiet position.
CANNON = "4k4/9/9/4p4/9/4P4/9/4C4/9/3K5 w - - 0 1"
QUIET = "4k4/9/9/9/9/9/9/9/4C4/3K5 w - - 0 1"
