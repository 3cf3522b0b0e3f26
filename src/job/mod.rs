//! The jobs a user runs: the main job (`check`, its phases and exit status), the
//! reports it leaves (`report`), and perft split into shards and merged ([`split`]).
//! Only the split is offered to other crates: the check and its reports are reached
//! through `xqdiff check` and `xqdiff report`, and the report's JSON is published as
//! `docs/report-schema.md`.
//!
//! May use every layer below it (vocabulary, generators, cases, diff, subject); only the
//! command line uses it.

pub(crate) mod check;
pub(crate) mod report;
pub mod split;
