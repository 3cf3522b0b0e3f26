//! The bitboard generator with one bug planted in a path written for speed: its two-ply
//! count, or the hashed perft it runs. Each answer but the planted path's is the real
//! bitboard's, so only a check that asks that path can find the bug: the proof that the
//! oracle's counting paths (`diff::oracle::paths`) see what the move lists cannot.
//! Test equipment, as [`super::planted`] is; nothing else should use it.

use crate::generators::bitboard::{self, plant, BitboardGen};
use crate::generators::perft_hash::HashPlant;
use crate::{Color, Move, MoveGen, MoveList, Piece, Setup, Square};
use std::str::FromStr;

/// One bug in a fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastBug {
    /// The two-ply count still counts the moves of the piece a move took.
    TwoPlyCountsTaken,
    /// The two-ply count works a reach out again only when a move lands in it, never
    /// when a move leaves it.
    ReachIgnoresVacated,
    /// The two-ply count's mask of points that could expose the king, once filled, is
    /// the mask of those that could once emptied.
    CountAfterMask,
    /// Hashed perft looks a child's count up, and stores it, under its parent's key.
    HashChildUnderParentKey,
    /// Hashed perft's key, carried over a capture, keeps the captured piece.
    HashKeyForgetsCaptures,
    /// Hashed perft's probe takes a count stored for the key at any depth.
    HashProbeIgnoresDepth,
}

impl FastBug {
    /// Every bug.
    pub const ALL: [FastBug; 6] = [
        FastBug::TwoPlyCountsTaken,
        FastBug::ReachIgnoresVacated,
        FastBug::CountAfterMask,
        FastBug::HashChildUnderParentKey,
        FastBug::HashKeyForgetsCaptures,
        FastBug::HashProbeIgnoresDepth,
    ];

    /// The kebab-case name `XQDIFF_PLANTED_BUG` takes.
    pub const fn as_str(self) -> &'static str {
        match self {
            FastBug::TwoPlyCountsTaken => "two-ply-counts-taken",
            FastBug::ReachIgnoresVacated => "reach-ignores-vacated",
            FastBug::CountAfterMask => "count-after-mask",
            FastBug::HashChildUnderParentKey => "hash-child-under-parent-key",
            FastBug::HashKeyForgetsCaptures => "hash-key-forgets-captures",
            FastBug::HashProbeIgnoresDepth => "hash-probe-ignores-depth",
        }
    }

    /// Whether the bug is in the hashed perft rather than the two-ply count.
    pub const fn hashed(self) -> bool {
        matches!(
            self,
            FastBug::HashChildUnderParentKey
                | FastBug::HashKeyForgetsCaptures
                | FastBug::HashProbeIgnoresDepth
        )
    }
}

impl FromStr for FastBug {
    type Err = crate::named::UnknownName;
    fn from_str(s: &str) -> Result<FastBug, Self::Err> {
        crate::named::by_name("fast-path bug", s, &FastBug::ALL, FastBug::as_str)
    }
}

/// The bitboard generator with `bug` planted, named `planted`.
pub struct PlantedFast(pub FastBug);

impl MoveGen for PlantedFast {
    type Board = bitboard::Board;
    type Undo = <BitboardGen as MoveGen>::Undo;

    fn name(&self) -> &'static str {
        "planted"
    }
    fn load(&self, pos: &crate::Position) -> Self::Board {
        BitboardGen.load(pos)
    }
    fn to_setup(&self, b: &Self::Board) -> Setup {
        BitboardGen.to_setup(b)
    }
    fn turn(&self, b: &Self::Board) -> Color {
        BitboardGen.turn(b)
    }
    fn piece_at(&self, b: &Self::Board, sq: Square) -> Option<Piece> {
        BitboardGen.piece_at(b, sq)
    }
    fn pseudo_legal(&self, b: &Self::Board, out: &mut MoveList) {
        BitboardGen.pseudo_legal(b, out);
    }
    fn king_attacked(&self, b: &Self::Board, color: Color) -> bool {
        BitboardGen.king_attacked(b, color)
    }
    fn make(&self, b: &mut Self::Board, mv: Move) -> Self::Undo {
        BitboardGen.make(b, mv)
    }
    fn unmake(&self, b: &mut Self::Board, mv: Move, undo: Self::Undo) {
        BitboardGen.unmake(b, mv, undo);
    }
    fn legal(&self, b: &mut Self::Board, out: &mut MoveList) {
        BitboardGen.legal(b, out);
    }
    fn count_legal(&self, b: &mut Self::Board) -> u64 {
        BitboardGen.count_legal(b)
    }
    fn count_two_plies(&self, b: &mut Self::Board) -> u64 {
        match self.0 {
            FastBug::TwoPlyCountsTaken => {
                bitboard::count_two_planted::<{ plant::TWO_PLY_COUNTS_TAKEN }>(b)
            }
            FastBug::ReachIgnoresVacated => {
                bitboard::count_two_planted::<{ plant::REACH_IGNORES_VACATED }>(b)
            }
            FastBug::CountAfterMask => {
                bitboard::count_two_planted::<{ plant::COUNT_AFTER_MASK }>(b)
            }
            _ => BitboardGen.count_two_plies(b),
        }
    }
    fn two_ply_shortcut(&self) -> bool {
        true
    }
    fn planted_hash(&self) -> Option<HashPlant> {
        match self.0 {
            FastBug::HashChildUnderParentKey => Some(HashPlant::ChildUnderParentKey),
            FastBug::HashKeyForgetsCaptures => Some(HashPlant::KeyForgetsCaptures),
            FastBug::HashProbeIgnoresDepth => Some(HashPlant::ProbeIgnoresDepth),
            _ => None,
        }
    }
}
