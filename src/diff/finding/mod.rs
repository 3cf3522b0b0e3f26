//! The life of a finding, in one place. Every phase and command that compares the
//! built-in generators (the fuzz campaign, the corpus replay, the metamorphic phase, a
//! perft descent, `xqdiff minimize`) hands what it saw to a [`Findings`], which:
//!
//! 1. shows each sighting where it shows by itself (`sighting::shown`: a board gone wrong along
//!    a line is followed back, a symmetry failure is seen on the image), so one bug has
//!    one signature whichever phase met it;
//! 2. groups sightings by [`Signature`], and marks a group known when the [`Known`] list
//!    names it;
//! 3. minimizes the sightings a group still wants a witness from (the same signature
//!    kept), and keeps the smallest witness and up to [`WITNESSES`] by one rule
//!    ([`Finding::offer`]);
//! 4. names the cause (`naming::diagnosed`): the odd generator's answers on the first witness
//!    of each move-class signature are put to the catalogue of rule variants, and the
//!    variant that explains them becomes the finding's signature, so the move classes
//!    one misread rule touches are one finding (the engine check names a subject's
//!    findings by the same function);
//! 5. saves each witness into the corpus (`corpus::Folder`), with the one runnable
//!    command that reproduces it ([`Provenance`]);
//! 6. hands the report one [`Finding`] per bug.
//!
//! The engine check files a subject's bugs as the same [`Finding`], whom it blames being
//! a value ([`Blame`]): the built-ins with their disagreement, or the subject with the
//! `trail` that found it. Witnesses are kept, findings joined and causes named after
//! the run (`across`) one way for both.
//!
//! What is kept depends only on the sightings in their order, so a run gives the same
//! findings at any thread count.
//!
//! Each concern has its own file: the `known` list, the `provenance` of a finding
//! (its command line, quoted for the shell), what a phase hands in and where it shows
//! (`sighting`), one distinct `bug`, the finding `book`, a corpus `replay`'s
//! failures as findings, and the `naming` of a finding by its cause. The naming policy stays in this layer, not
//! in `diagnose`: it names findings by [`Signature`] and classifies moves as the
//! signatures do, which the diagnosis layer below may not use.
//!
//! [`Signature`]: crate::diff::signature::Signature
//! [`WITNESSES`]: crate::diff::corpus::WITNESSES
//! [`Finding::offer`]: bug::Finding::offer

pub(crate) mod across;
pub(crate) mod book;
pub(crate) mod bug;
pub(crate) mod known;
pub(crate) mod naming;
pub(crate) mod provenance;
pub(crate) mod replay;
pub(crate) mod sighting;
pub(crate) mod trail;

// One flat path for each type a finding shows its user; the modules are how the crate
// keeps its concerns apart, not part of the interface.
pub use book::{Findings, Settings};
pub use bug::{Among, Blame, Finding};
pub use known::Known;
pub use naming::{cause_lines, DIAGNOSIS_BOUND};
pub use provenance::Provenance;
pub use replay::{replayed, Replayed};
pub use sighting::Sighting;
pub use trail::{Comparison, MoveCounts, Reproduction, Trail};

/// `n` and `noun`, plural unless `n` is 1: how findings and their hits are counted in
/// every message, whichever layer writes it.
pub(crate) fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    match noun.strip_suffix('y') {
        // ply, copy; but key, day
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}
