//! The jobs a user runs: the main job ([`check`], its phases and exit status), the
//! reports it leaves ([`report`]), and perft split into shards and merged (`split`,
//! internal: the command line's `perft --emit-jobs`, `perft --jobs` and `merge`).
//!
//! May use every layer below it (vocabulary, generators, cases, diff, subject); only the
//! command line uses it.

pub mod check;
pub mod report;
pub(crate) mod split;
