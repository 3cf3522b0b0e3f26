from cchess import ChessBoard, pos2iccs

def legal_moves(board):  # cchess lists moves into check too: those its own test finds unsafe go
    return [pos2iccs(*m) for m in board.create_moves() if not board.is_checked_move(*m)]

def test_cchess(xqdiff):
    xqdiff.check(legal_moves=legal_moves, fen_to_board=ChessBoard)
