//! Comparing generators and acting on what differs: the [`oracle`] asks every generator
//! everything about a position and reports each disagreement; the [`minimize`]r shrinks a
//! position while a disagreement stays; [`descent`] walks a perft difference down to the
//! position that shows it; the [`campaign`] fuzzes; the [`corpus`] keeps what was found;
//! a [`signature`] says which bug a disagreement shows, so findings group by bug; every
//! disagreement met, whoever met it, becomes a [`finding`] by one path.
//!
//! May use the vocabulary, [`crate::generators`] and [`crate::cases`]; things under
//! test, the jobs and the command line use it.

pub mod campaign;
pub mod corpus;
pub mod descent;
pub mod finding;
pub mod minimize;
pub mod oracle;
pub mod signature;
