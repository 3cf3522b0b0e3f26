//! xqdiff: a differential fuzzing and verification harness for Xiangqi move generation.
//!
//! Three generators written independently ([`generators::mailbox`],
//! [`generators::bitboard`], [`generators::naive`]) share only the types in [`square`],
//! [`piece`], [`moves`] and [`position`]; perft, the CLI and the tests compare them.
#![deny(missing_docs)]

pub mod campaign;
pub mod check;
pub mod cli;
pub mod corpus;
pub mod crosscheck;
pub mod descent;
pub mod engine;
pub mod epd;
pub mod external;
pub mod features;
pub mod fen;
pub mod generators;
pub mod minimize;
pub mod moves;
pub mod oracle;
pub mod perft;
pub mod piece;
pub mod planted;
pub mod playout;
pub mod position;
pub mod progress;
pub mod report;
pub mod rng;
pub mod split;
pub mod square;
pub mod structured;
pub mod subject;

pub use engine::Engine;
pub use generators::MoveGen;
pub use moves::{Move, MoveList};
pub use piece::{Color, Piece, Role};
pub use position::{Position, PositionError, Setup, Violation};
pub use square::Square;
