"""xiangqi 1.0.5 (PyPI) as callables for `xqdiff.check` and `python -m xqdiff.adapter`:
its board set from a FEN, its legal moves, and its own make (`Board.make_move`) with a
take-back built on its `undo_virtual_move`. The benchmark times both routes on these."""

import xiangqi  # noqa: F401 - puts its folder on sys.path: its modules have bare names
from board import parse_action_iccs
from xiangqi import Env


def fen_to_board(fen):
    # It writes Red's turn as `r` and reads the placement and the side alone.
    return Env.from_fen(fen.replace(" w ", " r ", 1).split(" - ")[0])


def legal_moves(env):
    return env.get_valid_actions()


def make(env, move):
    piece, to = parse_action_iccs(move, env.board)
    came_from = (piece.col, piece.row)
    checked = dict(env.board.checked)
    taken, _ = env.board.make_move(piece, to)
    env.__dict__.setdefault("undo", []).append((piece, came_from, taken, checked))
    env.cur_player = env.cur_player.opponent()


def unmake(env):
    piece, came_from, taken, checked = env.undo.pop()
    env.board.undo_virtual_move(piece, came_from, taken)
    env.board.checked = checked
    env.cur_player = env.cur_player.opponent()
