from xiangqi import Env

def test_xiangqi(xqdiff):
    xqdiff.check(legal_moves=Env.get_valid_actions, positions=160,
                 fen_to_board=lambda fen: Env.from_fen(fen.replace(" w ", " r ").split(" - ")[0]))
