//! The object-safe face of a generator, so the CLI, tests and the oracle can hold a
//! list of different generators. Every [`MoveGen`] is an [`Engine`].

use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::perft::{self, ProgressFn};
use crate::piece::Piece;
use crate::position::{Position, Setup};

/// What one legal move does on a generator's own board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The move.
    pub mv: Move,
    /// What it takes, if anything.
    pub captured: Option<Piece>,
    /// The board after making it, read back out.
    pub after: Setup,
    /// The board after making and then unmaking it; should equal the start.
    pub unmade: Setup,
}

/// Everything a generator says about one position, for comparison with the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The position loaded into the generator's board and read straight back.
    pub round_trip: Setup,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Pseudo-legal moves, sorted.
    pub pseudo_legal: Vec<Move>,
    /// Legal moves, sorted, with what each does.
    pub legal: Vec<LegalMove>,
}

impl Probe {
    /// Just the legal moves, sorted.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.legal.iter().map(|l| l.mv).collect()
    }
}

/// A generator seen through a vtable.
pub trait Engine: Sync {
    /// Its short name.
    fn name(&self) -> &'static str;
    /// Single-threaded perft.
    fn perft(&self, pos: &Position, depth: u32) -> u64;
    /// Perft on the current rayon pool.
    fn perft_parallel(&self, pos: &Position, depth: u32, progress: Option<ProgressFn<'_>>) -> u64;
    /// Per-root-move counts, on the current rayon pool when `parallel`.
    fn divide(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
    ) -> Vec<(Move, u64)>;
    /// Everything the generator says about `pos`.
    fn probe(&self, pos: &Position) -> Probe;
}

impl<G: MoveGen> Engine for G {
    fn name(&self) -> &'static str {
        MoveGen::name(self)
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        perft::perft(self, &mut self.load(pos), depth)
    }

    fn perft_parallel(&self, pos: &Position, depth: u32, progress: Option<ProgressFn<'_>>) -> u64 {
        perft::perft_parallel(self, &self.load(pos), depth, progress)
    }

    fn divide(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
    ) -> Vec<(Move, u64)> {
        let mut board = self.load(pos);
        if parallel {
            perft::divide_parallel(self, &board, depth, progress)
        } else {
            perft::divide(self, &mut board, depth)
        }
    }

    fn probe(&self, pos: &Position) -> Probe {
        let mut board = self.load(pos);
        let mut pseudo = MoveList::new();
        self.pseudo_legal(&board, &mut pseudo);
        let mut pseudo_legal = pseudo.to_vec();
        pseudo_legal.sort();
        let mut list = MoveList::new();
        self.legal(&mut board, &mut list);
        let mut legal: Vec<LegalMove> = list
            .iter()
            .map(|&mv| {
                let captured = self.captured(&board, mv);
                let undo = self.make(&mut board, mv);
                let after = self.to_setup(&board);
                self.unmake(&mut board, mv, undo);
                LegalMove {
                    mv,
                    captured,
                    after,
                    unmade: self.to_setup(&board),
                }
            })
            .collect();
        legal.sort_by_key(|l| l.mv);
        Probe {
            round_trip: self.to_setup(&board),
            in_check: self.in_check(&board),
            pseudo_legal,
            legal,
        }
    }
}
