//! xqdiff: a differential fuzzing and verification harness for Xiangqi move generation.
//!
//! Three generators written independently ([`generators::mailbox`],
//! [`generators::bitboard`], [`generators::naive`]) share only the types in [`square`],
//! [`piece`], [`moves`] and [`position`]; perft, the CLI and the tests compare them.
//! The same machinery checks a generator of your own, in process ([`subject::library`])
//! or as an external engine ([`subject::external`]).
//!
//! # Load a position and count perft
//!
//! ```
//! use xqdiff::{generators, Position};
//!
//! // A FEN as Xiangqi engines write it: ranks 9 to 0, Red's pieces in upper case.
//! let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")?;
//! assert_eq!(pos, Position::startpos());
//!
//! let mailbox = generators::by_name("mailbox").expect("a built-in generator");
//! assert_eq!(mailbox.perft(&pos, 1), 44);
//! assert_eq!(mailbox.perft(&pos, 3), 79_666);
//! # Ok::<(), xqdiff::fen::FenError>(())
//! ```
//!
//! # Compare the three generators
//!
//! [`generators::registry`] lists them; [`diff::oracle::check_position`] asks each
//! everything it can be asked about a position (moves, check, the board after every
//! move, symmetries) and returns every disagreement, none when they agree.
//!
//! ```
//! use xqdiff::diff::oracle::check_position;
//! use xqdiff::{generators, Position};
//!
//! // The red cannon on e7 checks the black king over the advisor on e8.
//! let pos = Position::from_fen("4k4/4a4/4C4/9/9/9/9/9/9/4K4 b - - 0 1")?;
//! let gens = generators::registry();
//! let counts: Vec<u64> = gens.iter().map(|g| g.perft(&pos, 3)).collect();
//! assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
//! assert!(check_position(&pos, &gens).is_empty());
//! # Ok::<(), xqdiff::fen::FenError>(())
//! ```
//!
//! # Check a move generator of your own
//!
//! Implement [`subject::library::Library`] (set a board from a FEN, list its legal
//! moves, make one, and take it back if your crate can) over your crate's board, and
//! [`subject::library::check_library`] runs the whole engine check on it against the
//! built-in generators: the start position, the reference suite, the corpus and seeded
//! random positions, with every difference followed down to one position and
//! minimized, under the rules, comparison and known bugs you give it. A generator that
//! forgets the rook on a0 is caught:
//!
//! ```
//! use xqdiff::generators::{self, face::Generator};
//! use xqdiff::subject::library::{check_library, Library, LibraryCheck};
//! use xqdiff::{Move, Position, Square};
//!
//! /// Stands in for a crate of yours: one board changed in place (a stack of
//! /// positions here), the naive generator's rules, optionally with a bug.
//! struct MyCrate {
//!     rules: &'static dyn Generator,
//!     boards: Vec<Position>,
//!     forget_a0: bool,
//! }
//!
//! impl Library for MyCrate {
//!     fn set_position(&mut self, fen: &str) -> Result<(), String> {
//!         self.boards = vec![Position::from_fen(fen).map_err(|e| e.to_string())?];
//!         Ok(())
//!     }
//!     fn legal_moves(&mut self) -> Vec<Move> {
//!         let a0: Square = "a0".parse().expect("a square");
//!         let board = self.boards.last().expect("a board");
//!         let moves = self.rules.generate(board).legal;
//!         moves.into_iter().filter(|m| !(self.forget_a0 && m.from == a0)).collect()
//!     }
//!     fn make(&mut self, mv: Move) -> Result<(), String> {
//!         let board = self.boards.last().expect("a board");
//!         let next = self.rules.play(board, mv).map_err(|e| e.to_string())?;
//!         self.boards.push(next);
//!         Ok(())
//!     }
//!     fn unmake(&mut self) -> bool {
//!         self.boards.pop().is_some()
//!     }
//! }
//!
//! let rules = generators::by_name("naive").expect("a built-in generator");
//! let quick = LibraryCheck { depth: 2, positions: 2, ..LibraryCheck::default() };
//!
//! let mut fine = MyCrate { rules, boards: Vec::new(), forget_a0: false };
//! let report = check_library(&mut fine, &quick)?;
//! assert!(report.all_agree());
//!
//! let buggy = MyCrate { rules, boards: Vec::new(), forget_a0: true };
//! let report = check_library(buggy, &quick)?;
//! assert!(!report.all_agree());
//! for finding in &report.findings {
//!     println!("{finding}");
//! }
//! # Ok::<(), xqdiff::subject::library::LibraryError>(())
//! ```
//!
//! `examples/custom_generator.rs` is the same check as a program; a generator with its
//! own board type implements [`MoveGen`] instead and gets perft, the differential
//! checks and the minimizer too.
//!
//! # What the crate offers
//!
//! The vocabulary is at the root: [`Square`], [`Piece`], [`Move`] and [`Position`]
//! (their modules [`square`], [`piece`], [`moves`] and [`position`] hold the rest of
//! each type's story), with [`fen`] and [`epd`] to read positions and perft suites, and
//! [`named`], the error of a setting read from a name that names none of its values.
//! Beyond it, each public module is here because a user of the crate needs it:
//!
//! - [`generators`]: the three built-in generators, the [`MoveGen`] trait a generator
//!   of your own implements, [`Generator`] (what every generator answers), and perft.
//! - [`subject`]: checking a generator that is not built in, in process
//!   ([`subject::library`]) or as an external engine or library over a protocol
//!   ([`subject::external`]), against the built-ins ([`subject::crosscheck`]).
//! - [`diff`]: comparing generators ([`diff::oracle`]), the fuzz campaign, the corpus
//!   of past findings and the minimizer: the parts of a differential test of your own
//!   (a fuzz target, a property test) and of replaying a corpus.
//! - [`cases`]: positions to test with: every byte string as a valid position
//!   ([`cases::structured`], for `arbitrary` and fuzz targets) and random playouts
//!   ([`cases::playout`]).
//! - [`diagnose`]: the catalogue of rule misreadings and the diagnosis that names which
//!   of them a subject's answers match.
//!
//! Everything else (writing files, the depth grammar, timing, the command line and the
//! jobs it runs: the whole check, its reports, perft split into jobs) is internal to the
//! crate. Those jobs are reached through the `xqdiff` command, and their files are the
//! interface: the JSON report (`docs/report-schema.md`) and the jobs and results files of
//! a split perft (`docs/distributed-perft.md`).
#![deny(missing_docs)]
// What is `pub` is the interface: an item the crate root cannot reach is `pub(crate)`, so
// the public surface is chosen here, not left to whatever a module happened to mark.
#![deny(unreachable_pub)]
// Deny, not forbid: one function may allow it, `die_with_parent` in
// `subject::external::process`, which sets an engine's parent-death signal between fork
// and exec, a step with no safe interface.
#![deny(unsafe_code)]

pub mod cases;
mod cli;
pub(crate) mod depth;
pub mod diagnose;
pub mod diff;
pub mod epd;
pub mod fen;
pub(crate) mod files;
pub mod generators;
pub(crate) mod job;
pub mod moves;
pub mod named;
pub mod piece;
pub mod position;
pub mod square;
pub mod subject;

pub use generators::face::Generator;
pub use generators::MoveGen;
pub use moves::{Move, MoveList};
pub use piece::{Color, Piece, Role};
pub use position::{Position, PositionError, Setup, Violation};
pub use square::Square;

/// The `xqdiff` command line: parses `std::env::args`, runs the command and gives its
/// exit code. The binary is a crate of its own and reaches the command line only through
/// here; it is no library API.
#[doc(hidden)]
pub fn command_line() -> std::process::ExitCode {
    cli::main()
}
