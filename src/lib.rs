//! xqdiff: a differential fuzzing and verification harness for Xiangqi move generation.
//!
//! Three generators written independently ([`generators::mailbox`],
//! [`generators::bitboard`], [`generators::naive`]) share only the types in [`square`],
//! [`piece`], [`moves`] and [`position`]; perft, the CLI and the tests compare them.
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod cases;
pub mod cli;
pub mod depth;
pub mod diff;
pub mod epd;
pub mod fen;
pub mod files;
pub mod generators;
pub mod job;
pub mod moves;
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
