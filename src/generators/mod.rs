//! The move generators and the one trait they implement.
//!
//! Each generator owns its board representation, tables, movement code and check
//! detector. They meet only at [`Position`], [`Move`], [`Square`] and [`Piece`]: a helper
//! shared between two of them would let one bug hide in both, and the harness would
//! never see it.
//!
//! Besides the generators this folder owns the [`MoveGen`] trait, its object-safe face
//! ([`face::Generator`]), the one [`registry`], and perft. May use the vocabulary only;
//! every other layer uses it.
//!
//! [`Square`]: crate::square::Square

pub mod bitboard;
pub mod face;
pub mod mailbox;
pub mod naive;
pub mod perft;
pub(crate) mod perft_hash;
#[cfg(any(test, feature = "planted"))]
pub mod planted;
#[cfg(feature = "planted")]
pub mod planted_fast;
pub(crate) mod timing;

use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece};
use crate::position::{Position, Setup};

/// A move generator with its own board. Implement this to put a generator of your own
/// (say, your engine's) through everything xqdiff does: perft, the differential checks,
/// the minimizer. Methods take `&self` so a generator can be a unit struct, or carry
/// configuration.
pub trait MoveGen: Sync + Send {
    /// The generator's own board, with its own representation.
    type Board: Clone + Send + Sync;
    /// What [`MoveGen::make`] records so [`MoveGen::unmake`] can restore the board.
    type Undo: Copy + Send;

    /// A short lower-case name for reports and the `--generator` flag.
    fn name(&self) -> &'static str;

    /// Builds the generator's board from a position.
    fn load(&self, pos: &Position) -> Self::Board;

    /// Reads the generator's board back out. A [`Setup`], not a [`Position`], so a buggy
    /// make that produces an impossible board is reported rather than hidden.
    fn to_setup(&self, board: &Self::Board) -> Setup;

    /// Whose move it is on `board`.
    fn turn(&self, board: &Self::Board) -> Color;

    /// The piece the generator's board has on `sq`; used to say what a move captures.
    fn piece_at(&self, board: &Self::Board, sq: crate::square::Square) -> Option<Piece>;

    /// Appends every pseudo-legal move of the side to move: the piece rules alone,
    /// before asking whether the mover's king is left in check.
    fn pseudo_legal(&self, board: &Self::Board, out: &mut MoveList);

    /// Whether `color`'s king is attacked on `board`, kings facing included. This is the
    /// generator's own check detector.
    fn king_attacked(&self, board: &Self::Board, color: Color) -> bool;

    /// Plays a pseudo-legal move and switches the side to move.
    fn make(&self, board: &mut Self::Board, mv: Move) -> Self::Undo;

    /// Takes back `mv`, which must be the last move made, given what `make` returned.
    fn unmake(&self, board: &mut Self::Board, mv: Move, undo: Self::Undo);

    /// Whether the side to move is in check.
    fn in_check(&self, board: &Self::Board) -> bool {
        self.king_attacked(board, self.turn(board))
    }

    /// Appends the legal moves: the pseudo-legal ones after which the mover's own king
    /// is not attacked (seed 002: generate, then ask the check detector).
    fn legal(&self, board: &mut Self::Board, out: &mut MoveList) {
        let mut pseudo = MoveList::new();
        self.pseudo_legal(board, &mut pseudo);
        let us = self.turn(board);
        for &mv in pseudo.iter() {
            let undo = self.make(board, mv);
            if !self.king_attacked(board, us) {
                out.push(mv);
            }
            self.unmake(board, mv, undo);
        }
    }

    /// How many legal moves there are; perft's last ply. Override to count without
    /// building the list.
    fn count_legal(&self, board: &mut Self::Board) -> u64 {
        let mut list = MoveList::new();
        self.legal(board, &mut list);
        list.len() as u64
    }

    /// The leaves two plies below `board`: perft(2), perft's last two plies. Override to
    /// count them with less than a make, a [`MoveGen::count_legal`] and an unmake per
    /// legal move, which is what this does.
    fn count_two_plies(&self, board: &mut Self::Board) -> u64 {
        let mut list = MoveList::new();
        self.legal(board, &mut list);
        let mut nodes = 0;
        for &mv in list.iter() {
            let undo = self.make(board, mv);
            nodes += self.count_legal(board);
            self.unmake(board, mv, undo);
        }
        nodes
    }

    /// Whether [`MoveGen::count_two_plies`] is the generator's own (a shortcut shared
    /// by every count it makes) rather than this trait's plain one.
    fn two_ply_shortcut(&self) -> bool {
        false
    }

    /// The bug planted in this generator's hashed perft, if any: test equipment (the
    /// `planted` feature), `None` for every real generator, which the compiler then
    /// folds away.
    #[cfg(feature = "planted")]
    #[doc(hidden)]
    fn planted_hash(&self) -> Option<perft_hash::HashPlant> {
        None
    }

    /// What `mv` takes, if anything, read off the generator's own board.
    fn captured(&self, board: &Self::Board, mv: Move) -> Option<Piece> {
        self.piece_at(board, mv.to)
    }
}

/// Something done with each built-in generator as its own type, where the registry's
/// vtable would not do (a property test that needs each generator's board, say).
pub trait EachGenerator {
    /// Called once per generator, in the registry's order.
    fn visit<G: MoveGen + 'static>(&mut self, g: &G);
}

// The one list of the built-in generators: `registry` and `for_each` are both written
// from it, so adding a generator is its folder and one entry here.
macro_rules! built_in {
    ($($g:expr),+ $(,)?) => {
        /// The built-in generators, each once. CLI, tests and benchmarks iterate this list.
        pub fn registry() -> Vec<&'static dyn face::Generator> {
            #[allow(unused_mut)]
            let mut list: Vec<&'static dyn face::Generator> = vec![$(&$g),+];
            #[cfg(feature = "planted")]
            list.extend(planted_from_env());
            list
        }

        /// Calls `visitor` with each generator of [`registry`], in its order.
        pub fn for_each(visitor: &mut impl EachGenerator) {
            $(visitor.visit(&$g);)+
        }
    };
}

built_in!(mailbox::MailboxGen, bitboard::BitboardGen, naive::NaiveGen);

/// Test equipment, in builds with the `planted` feature only (the tests' builds, never an
/// installed one): with `XQDIFF_PLANTED_BUG=<bug>` in the environment (a name the test
/// engine's `--bug` takes), the registry lists the planted generator with that bug
/// after the built-ins. A test can then run the real command line on a program with a
/// bug in it, and run the command a finding prints to see it again.
#[cfg(feature = "planted")]
pub const PLANTED_BUG_VAR: &str = "XQDIFF_PLANTED_BUG";

#[cfg(feature = "planted")]
fn planted_from_env() -> Option<&'static dyn face::Generator> {
    // A rule bug plants the naive generator; a fast-path bug the bitboard one.
    enum Either {
        Rules(planted::Planted),
        Fast(planted_fast::PlantedFast),
    }
    static PLANTED: std::sync::OnceLock<Option<Either>> = std::sync::OnceLock::new();
    PLANTED
        .get_or_init(|| {
            let name = std::env::var(PLANTED_BUG_VAR).ok()?;
            match (name.parse(), name.parse()) {
                (Ok(bug), _) => Some(Either::Rules(planted::Planted::new(bug))),
                (_, Ok(bug)) => Some(Either::Fast(planted_fast::PlantedFast(bug))),
                _ => None,
            }
        })
        .as_ref()
        .map(|p| match p {
            Either::Rules(p) => p as &dyn face::Generator,
            Either::Fast(p) => p as &dyn face::Generator,
        })
}

/// The names in [`registry`], in order.
pub fn names() -> Vec<&'static str> {
    registry().iter().map(|g| g.name()).collect()
}

/// The registered generator called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn face::Generator> {
    registry().into_iter().find(|g| g.name() == name)
}
