//! Where positions come from: any byte string read as a valid position
//! ([`structured`]), random playouts along the generators' consensus ([`playout`]), the
//! seeded generator behind both (`rng`, internal: a run's `--seed` is the interface to
//! it), the edges of a position cases must reach (`edges`), and what a position
//! contains (`features`, internal: a report's coverage table is its interface).
//!
//! May use the vocabulary only: a playout is told its next moves by the caller (the
//! oracle's consensus), so the oracle and everything that acts on its findings call in
//! here, never the other way.

pub(crate) mod edges;
pub(crate) mod features;
pub mod playout;
pub(crate) mod rng;
pub mod structured;
