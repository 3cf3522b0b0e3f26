//! The jobs a user runs: the main job ([`check`], its phases and exit status), the
//! reports it leaves ([`report`]), and perft split into shards and merged ([`split`]).
//! None is offered to other crates: they are reached through the command line
//! (`xqdiff check`, `xqdiff report`, `xqdiff perft --emit-jobs`, `perft --jobs`,
//! `merge`), whose files are the interface: the JSON report (`docs/report-schema.md`)
//! and the jobs and results files (`docs/distributed-perft.md`).
//!
//! May use every layer below it (vocabulary, generators, cases, diff, subject); only the
//! command line uses it.

pub(crate) mod check;
pub(crate) mod report;
pub(crate) mod split;
