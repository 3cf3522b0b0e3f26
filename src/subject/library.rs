//! A Rust crate seen the way it publishes itself: parse a FEN, list the legal moves,
//! play a move. [`Library`] is all an adapter implements; the harness counts perft
//! from the lists, follows differences down, minimizes and reports, and
//! [`check_library`] runs the whole engine check on such a crate in one call.

use super::crosscheck::{self, targets, CrossCheckError, Options, Report};
use super::{Divide, DivideReply, Subject, SubjectError};
use crate::moves::Move;
use crate::position::Position;

/// A move generator as a crate offers it. Moves are xqdiff's [`Move`] (parse them from
/// text with `"h2e2".parse()`, ranks 0 to 9 from Red's side).
pub trait Library {
    /// The crate's own board or position type.
    type Board;
    /// The name reports use (the crate and its version, say); by default the adapter
    /// type's name.
    fn name(&self) -> String {
        let full = std::any::type_name::<Self>();
        let bare = full.split('<').next().unwrap_or(full);
        bare.rsplit("::").next().unwrap_or(bare).to_owned()
    }
    /// The board of a FEN as xqdiff writes it (`docs/moves-protocol.md`'s notation).
    fn parse(&self, fen: &str) -> Result<Self::Board, String>;
    /// The legal moves on `board`, in any order.
    fn legal_moves(&self, board: &Self::Board) -> Vec<Move>;
    /// The board after `mv`, which `legal_moves` listed.
    fn play(&self, board: &Self::Board, mv: Move) -> Result<Self::Board, String>;
}

/// A [`Library`] as a [`Subject`]: the path is played by the library's own `play`, and
/// perft is counted from its `legal_moves`.
pub struct LibrarySubject<L: Library> {
    library: L,
}

impl<L: Library> LibrarySubject<L> {
    /// Wraps `library`.
    pub fn new(library: L) -> LibrarySubject<L> {
        LibrarySubject { library }
    }

    fn count(&self, board: &L::Board, depth: u32) -> Result<u64, SubjectError> {
        let moves = self.library.legal_moves(board);
        if depth <= 1 {
            return Ok(moves.len() as u64);
        }
        let mut total = 0u64;
        for mv in moves {
            let next = self.play(board, mv)?;
            total = total.saturating_add(self.count(&next, depth - 1)?);
        }
        Ok(total)
    }

    fn play(&self, board: &L::Board, mv: Move) -> Result<L::Board, SubjectError> {
        self.library
            .play(board, mv)
            .map_err(|reason| SubjectError::Refused {
                what: format!("move {mv}"),
                reason,
            })
    }
}

// `Send` because a subject may be moved to a worker; a library's board lives only
// inside one call.
impl<L: Library + Send> Subject for LibrarySubject<L> {
    fn name(&self) -> String {
        self.library.name()
    }

    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        let fen = root.fen();
        let mut board = self
            .library
            .parse(&fen)
            .map_err(|reason| SubjectError::Refused {
                what: format!("position {fen}"),
                reason,
            })?;
        for &mv in path {
            board = self.play(&board, mv)?;
        }
        let mut per_move = Vec::new();
        for mv in self.library.legal_moves(&board) {
            let count = if depth <= 1 {
                1
            } else {
                self.count(&self.play(&board, mv)?, depth - 1)?
            };
            per_move.push((mv, count));
        }
        let total = per_move.iter().map(|(_, n)| n).sum();
        Ok(Divide {
            per_move: Some(per_move),
            total,
        })
    }
}

/// What [`check_library`] asks.
#[derive(Clone, Debug)]
pub struct LibraryCheck {
    /// The deepest perft asked.
    pub depth: u32,
    /// Seeded random positions besides the start, the reference suite and the built-in
    /// corpus.
    pub positions: usize,
    /// Their seed.
    pub seed: u64,
    /// Stop after this many distinct bugs (0: check every position).
    pub max_findings: usize,
}

impl Default for LibraryCheck {
    fn default() -> LibraryCheck {
        LibraryCheck {
            depth: 3,
            positions: 100,
            seed: 1,
            max_findings: 0,
        }
    }
}

/// The whole engine check on `library`, as `xqdiff engine` runs it on an engine: the
/// start position, the reference suite, the built-in corpus and seeded random
/// positions, each compared with the built-in generators' consensus; differences are
/// followed down and minimized; nothing is written to disk. Print the findings with
/// their `Display` (what `xqdiff engine` prints).
pub fn check_library<L: Library + Send>(
    library: L,
    check: &LibraryCheck,
) -> Result<Report, CrossCheckError> {
    let gens = crate::generators::registry();
    let suite = crate::epd::parse_suite(crate::epd::REFERENCE_SUITE).unwrap_or_default();
    let corpus = crate::diff::corpus::Source::default_location()
        .load()
        .map(|loaded| loaded.labelled())
        .unwrap_or_default();
    let sources = targets::Sources {
        suite: &suite,
        corpus,
        depth: check.depth,
        max_nodes: None,
        random: check.positions,
        seed: check.seed,
    };
    let list = targets::all(&sources, &gens);
    let options = Options {
        max_findings: check.max_findings,
        found_by: format!(
            "xqdiff::subject::library::check_library (seed {})",
            check.seed
        ),
        ..Options::default()
    };
    crosscheck::check(&mut LibrarySubject::new(library), &gens, &list, &options)
}
