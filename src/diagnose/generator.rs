//! A variant as a generator: the naive generator reading the rules the variant's way,
//! with the variant's own legality test where the variant misreads which moves have to
//! keep the king safe.

use super::catalogue::Variant::{self, *};
use crate::generators::naive::{Naive, NaiveBoard};
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::Square;

/// The generator of one rule variant: what an engine with that bug would answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantGen(pub Variant);

impl VariantGen {
    fn naive(&self) -> Naive<Variant> {
        Naive(self.0)
    }

    /// Whether `mv` keeps `us`'s king safe when the check detector reads the rules as
    /// `detector` does (the variant itself, or another misreading for some moves).
    fn survives(
        &self,
        board: &mut NaiveBoard<Variant>,
        mv: Move,
        us: Color,
        detector: Variant,
    ) -> bool {
        let naive = self.naive();
        let undo = naive.make(board, mv);
        let own = board.reread(detector);
        let safe = !naive.king_attacked(board, us);
        board.reread(own);
        naive.unmake(board, mv, undo);
        safe
    }

    /// How many pieces check the side to move, the facing king counted as one: the real
    /// rules' count, since only variants with the real detector ask it.
    fn checkers(&self, board: &NaiveBoard<Variant>) -> usize {
        let setup: Setup = self.naive().to_setup(board);
        setup.checkers(setup.turn).len() + usize::from(setup.kings_facing())
    }

    /// Whether `mv` goes along the file both kings stand on.
    fn along_kings_file(&self, board: &NaiveBoard<Variant>, mv: Move) -> bool {
        let setup = self.naive().to_setup(board);
        let file = mv.from.file();
        mv.to.file() == file
            && Color::ALL
                .into_iter()
                .all(|c| setup.king(c).is_some_and(|k| k.file() == file))
    }

    /// How many pieces check `color`'s king after `mv`.
    fn checkers_after(&self, board: &mut NaiveBoard<Variant>, mv: Move, color: Color) -> usize {
        let naive = self.naive();
        let undo = naive.make(board, mv);
        let setup = naive.to_setup(board);
        naive.unmake(board, mv, undo);
        setup.checkers(color).len() + usize::from(setup.kings_facing())
    }
}

impl MoveGen for VariantGen {
    type Board = NaiveBoard<Variant>;
    type Undo = Option<Piece>;

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn load(&self, pos: &Position) -> Self::Board {
        self.naive().load(pos)
    }

    fn to_setup(&self, board: &Self::Board) -> Setup {
        self.naive().to_setup(board)
    }

    fn turn(&self, board: &Self::Board) -> Color {
        self.naive().turn(board)
    }

    fn piece_at(&self, board: &Self::Board, sq: Square) -> Option<Piece> {
        self.naive().piece_at(board, sq)
    }

    fn pseudo_legal(&self, board: &Self::Board, out: &mut MoveList) {
        self.naive().pseudo_legal(board, out)
    }

    fn king_attacked(&self, board: &Self::Board, color: Color) -> bool {
        self.naive().king_attacked(board, color)
    }

    fn make(&self, board: &mut Self::Board, mv: Move) -> Self::Undo {
        self.naive().make(board, mv)
    }

    fn unmake(&self, board: &mut Self::Board, mv: Move, undo: Self::Undo) {
        self.naive().unmake(board, mv, undo)
    }

    fn legal(&self, board: &mut Self::Board, out: &mut MoveList) {
        let naive = self.naive();
        let mut pseudo = MoveList::new();
        naive.pseudo_legal(board, &mut pseudo);
        let us = naive.turn(board);
        let in_check = naive.king_attacked(board, us);
        let checkers = match self.0 {
            DoubleCheckKingOnly | DoubleCheckOneAnswer => self.checkers(board),
            _ => 0,
        };
        // The points of pieces that have some move exposing their king: pinned.
        let mut pinned: Vec<Square> = Vec::new();
        if self.0 == PinnedPieceFrozen && !in_check {
            for &mv in pseudo.iter() {
                let king_moves = naive
                    .piece_at(board, mv.from)
                    .is_some_and(|p| p.role == Role::King);
                if !king_moves && !self.survives(board, mv, us, self.0) {
                    pinned.push(mv.from);
                }
            }
        }
        for &mv in pseudo.iter() {
            let king_moves = naive
                .piece_at(board, mv.from)
                .is_some_and(|p| p.role == Role::King);
            let legal = match self.0 {
                PseudoLegalOnly => true,
                KingStepsIntoCheck if king_moves => true,
                PinsIgnored if !in_check && !king_moves => true,
                DiscoveredHorseCheckIgnored if !in_check && !king_moves => {
                    self.survives(board, mv, us, CheckBlindToHorse)
                }
                DiscoveredCannonCheckIgnored if !in_check && !king_moves => {
                    self.survives(board, mv, us, CheckBlindToCannon)
                }
                KingsFacingOnlyForKingMoves if !king_moves => {
                    self.survives(board, mv, us, KingsFacingIgnored)
                }
                KingsFacingCannonOverKing if !king_moves && self.along_kings_file(board, mv) => {
                    self.survives(board, mv, us, KingsFacingIgnored)
                }
                CheckEvasionKingOnly if in_check && !king_moves => false,
                DoubleCheckKingOnly if checkers >= 2 && !king_moves => false,
                DoubleCheckOneAnswer if checkers >= 2 => {
                    self.survives(board, mv, us, self.0)
                        || self.checkers_after(board, mv, us) < checkers
                }
                PinnedPieceFrozen if pinned.contains(&mv.from) => false,
                _ => self.survives(board, mv, us, self.0),
            };
            if legal {
                out.push(mv);
            }
        }
    }

    fn count_legal(&self, board: &mut Self::Board) -> u64 {
        let mut list = MoveList::new();
        self.legal(board, &mut list);
        list.len() as u64
    }
}
