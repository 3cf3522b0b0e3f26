//! A variant as a generator: the naive generator reading the rules the variant's way,
//! with the variant's own legality test where the variant misreads which moves have to
//! keep the king safe. Two variants at once are one generator too (a subject with two
//! bugs): the pair's reading (`reading::Misreading`), and the legality test of the one
//! that misreads legality, if either does.

use super::catalogue::Variant::{self, *};
use super::reading::Misreading;
use crate::generators::naive::{Naive, NaiveBoard};
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::Square;

/// The variants whose misreading is not of a rule but of which moves must keep the king
/// safe: they read every rule as written, and [`VariantGen`]'s legality test is theirs.
const LEGALITY: &[Variant] = &[
    PseudoLegalOnly,
    KingStepsIntoCheck,
    PinsIgnored,
    PinnedPieceFrozen,
    DiscoveredHorseCheckIgnored,
    DiscoveredCannonCheckIgnored,
    KingsFacingOnlyForKingMoves,
    KingsFacingCannonOverKing,
    CheckEvasionKingOnly,
    DoubleCheckKingOnly,
    DoubleCheckOneAnswer,
];

/// The generator of one rule variant, or of two at once: what an engine with that bug
/// (or those two) would answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantGen {
    reads: Misreading,
    /// The variant of the two that misreads legality, whose legality test is used.
    legality: Option<Variant>,
}

impl From<Variant> for VariantGen {
    fn from(variant: Variant) -> VariantGen {
        VariantGen::new(variant)
    }
}

impl VariantGen {
    /// The generator of `variant`.
    pub fn new(variant: Variant) -> VariantGen {
        VariantGen {
            reads: variant.into(),
            legality: LEGALITY.contains(&variant).then_some(variant),
        }
    }

    /// The generator of `variant` and `beside` at once: each rule read as the first
    /// that misreads it, `variant` before `beside`; where one of them misreads legality,
    /// its legality test with the pair's reading as the check detector (its own reading
    /// is the rules'). `None` for a variant paired with itself, and for two legality
    /// variants: two tests of which moves keep the king safe do not make one.
    pub(crate) fn pair(variant: Variant, beside: Variant) -> Option<VariantGen> {
        let legality = [variant, beside].map(|v| LEGALITY.contains(&v));
        if variant == beside || legality == [true, true] {
            return None;
        }
        Some(VariantGen {
            reads: Misreading {
                variant,
                beside: Some(beside),
            },
            legality: match legality {
                [true, _] => Some(variant),
                [_, true] => Some(beside),
                _ => None,
            },
        })
    }

    /// The variant it is named by.
    pub fn variant(&self) -> Variant {
        self.reads.variant
    }

    /// The second variant, for a pair.
    pub fn beside(&self) -> Option<Variant> {
        self.reads.beside
    }

    fn naive(&self) -> Naive<Misreading> {
        Naive(self.reads)
    }

    /// The reading with `detector` in place of the legality variant: a legality test
    /// that asks another misreading's check detector for some moves asks it beside the
    /// pair's other variant.
    fn detecting(&self, detector: Variant) -> Misreading {
        let other = match self.reads.beside {
            Some(b) if Some(b) != self.legality => Some(b),
            Some(_) => Some(self.reads.variant),
            None => None,
        };
        Misreading {
            variant: detector,
            beside: other,
        }
    }

    /// Whether `mv` keeps `us`'s king safe when the check detector reads the rules as
    /// `detector` does (the generator's own reading, or another for some moves).
    fn survives(
        &self,
        board: &mut NaiveBoard<Misreading>,
        mv: Move,
        us: Color,
        detector: Misreading,
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
    /// rules' count. A double-check variant alone has the real detector; paired with a
    /// misread detector it still counts as the rules do, which keeps the pair simple and
    /// can only make it explain less.
    fn checkers(&self, board: &NaiveBoard<Misreading>) -> usize {
        let setup: Setup = self.naive().to_setup(board);
        setup.checkers(setup.turn).len() + usize::from(setup.kings_facing())
    }

    /// Whether `mv` goes along the file both kings stand on.
    fn along_kings_file(&self, board: &NaiveBoard<Misreading>, mv: Move) -> bool {
        let setup = self.naive().to_setup(board);
        let file = mv.from.file();
        mv.to.file() == file
            && Color::ALL
                .into_iter()
                .all(|c| setup.king(c).is_some_and(|k| k.file() == file))
    }

    /// How many pieces check `color`'s king after `mv`.
    fn checkers_after(&self, board: &mut NaiveBoard<Misreading>, mv: Move, color: Color) -> usize {
        let naive = self.naive();
        let undo = naive.make(board, mv);
        let setup = naive.to_setup(board);
        naive.unmake(board, mv, undo);
        setup.checkers(color).len() + usize::from(setup.kings_facing())
    }
}

impl MoveGen for VariantGen {
    type Board = NaiveBoard<Misreading>;
    type Undo = Option<Piece>;

    fn name(&self) -> &'static str {
        self.reads.variant.name()
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
        let checkers = match self.legality {
            Some(DoubleCheckKingOnly | DoubleCheckOneAnswer) => self.checkers(board),
            _ => 0,
        };
        let reads = self.reads;
        // The points of pieces that have some move exposing their king: pinned.
        let mut pinned: Vec<Square> = Vec::new();
        if self.legality == Some(PinnedPieceFrozen) && !in_check {
            for &mv in pseudo.iter() {
                let king_moves = naive
                    .piece_at(board, mv.from)
                    .is_some_and(|p| p.role == Role::King);
                if !king_moves && !self.survives(board, mv, us, reads) {
                    pinned.push(mv.from);
                }
            }
        }
        for &mv in pseudo.iter() {
            let king_moves = naive
                .piece_at(board, mv.from)
                .is_some_and(|p| p.role == Role::King);
            let legal = match self.legality {
                Some(PseudoLegalOnly) => true,
                Some(KingStepsIntoCheck) if king_moves => true,
                Some(PinsIgnored) if !in_check && !king_moves => true,
                Some(DiscoveredHorseCheckIgnored) if !in_check && !king_moves => {
                    self.survives(board, mv, us, self.detecting(CheckBlindToHorse))
                }
                Some(DiscoveredCannonCheckIgnored) if !in_check && !king_moves => {
                    self.survives(board, mv, us, self.detecting(CheckBlindToCannon))
                }
                Some(KingsFacingOnlyForKingMoves) if !king_moves => {
                    self.survives(board, mv, us, self.detecting(KingsFacingIgnored))
                }
                Some(KingsFacingCannonOverKing)
                    if !king_moves && self.along_kings_file(board, mv) =>
                {
                    self.survives(board, mv, us, self.detecting(KingsFacingIgnored))
                }
                Some(CheckEvasionKingOnly) if in_check && !king_moves => false,
                Some(DoubleCheckKingOnly) if checkers >= 2 && !king_moves => false,
                Some(DoubleCheckOneAnswer) if checkers >= 2 => {
                    self.survives(board, mv, us, reads)
                        || self.checkers_after(board, mv, us) < checkers
                }
                Some(PinnedPieceFrozen) if pinned.contains(&mv.from) => false,
                _ => self.survives(board, mv, us, reads),
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
