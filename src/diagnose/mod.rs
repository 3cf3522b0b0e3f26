//! Naming the cause of a finding: a catalogue of plausible misreadings of the rules, each
//! a complete generator, and the diagnosis that finds which of them answers exactly as a
//! subject did.
//!
//! - `catalogue`: the variants, each with its kebab-case name, its sentence in the
//!   game's words and its specificity rank; `page` writes them as `docs/variants.md`.
//! - `examples`: a position for each variant where it differs from the rules.
//! - `reading`: each variant's answers to the naive generator's questions (its hooks,
//!   `generators::naive::reading`).
//! - `generator`: a variant as a [`crate::generators::MoveGen`], with its own legality
//!   test for the variants that misread which moves must keep the king safe.
//! - `diagnosis`: [`Diagnose`] a finding's witnesses (the one way in: which variants,
//!   alone or two bugs at once, and how many questions the subject may be asked are its
//!   fields), build a `deciding_position` for candidates that tie, and print `cause:`
//!   lines.
//!
//! May use the vocabulary and [`crate::generators`]; the findings path (the campaign,
//! the engine check, the reports) uses it.

pub(crate) mod catalogue;
pub(crate) mod diagnosis;
pub(crate) mod examples;
pub(crate) mod generator;
#[cfg(test)]
mod page;
pub(crate) mod probes;
pub(crate) mod reading;
#[cfg(test)]
mod sentences;
#[cfg(test)]
mod tests;

// One flat path for what a diagnosis shows its user; the modules keep the concerns
// apart inside the crate.
pub use catalogue::{UnknownVariant, Variant};
#[cfg(test)]
use diagnosis::deciding_position;
pub(crate) use diagnosis::{nondeterministic, recount};
pub use diagnosis::{
    Answer, AnswerFault, Bound, Candidates, Cause, Counting, Diagnose, Diagnosis, Question,
    Repeated, Witness,
};
pub use examples::example;
pub use generator::VariantGen;
#[cfg(test)]
use page::catalogue_page;
