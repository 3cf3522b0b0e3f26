//! What a phase hands the book, and where it shows by itself: a disagreement met along
//! a line or on a symmetry is moved to the position that shows it alone before it is
//! named, so one bug has one signature whichever phase met it.

use super::provenance::Provenance;
use crate::diff::oracle::{follow, through_image, Disagreement};
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::time::Duration;

/// A disagreement as a phase met it, before anything is done with it.
#[derive(Clone, Debug)]
pub struct Sighting {
    /// Where it comes in the phase's own order (a case number, a position's index):
    /// findings are listed in this order, and ties between witnesses go to the earlier.
    pub order: u64,
    /// The position it was met on.
    pub position: Position,
    /// What the oracle said there.
    pub disagreement: Disagreement,
    /// How to see it again.
    pub provenance: Provenance,
    /// The root and moves that reached `position`, when it was reached by moves (a
    /// perft descent, a position one move after a root).
    pub path: Option<(Position, Vec<Move>)>,
    /// The perft depth asked at the path's root, for a perft finding.
    pub depth: Option<u32>,
    /// How long into the run it was met.
    pub after: Duration,
}

/// A sighting shown where it shows by itself, and the bug it is.
#[derive(Clone, Debug)]
pub(crate) struct Shown {
    /// What was handed in.
    pub sighting: Sighting,
    /// Where it shows by itself ([`shown`]).
    pub position: Position,
    /// What the oracle says there.
    pub disagreement: Disagreement,
    /// Which bug.
    pub signature: Signature,
}

/// Every sighting [`shown`], side by side, then put in `order`.
pub(crate) fn show(sightings: Vec<Sighting>, gens: &[&dyn Generator]) -> Vec<Shown> {
    let mut out: Vec<Shown> = sightings
        .into_par_iter()
        .map(|sighting| {
            let (position, disagreement) = shown(&sighting.position, &sighting.disagreement, gens);
            Shown {
                signature: disagreement.signature(),
                sighting,
                position,
                disagreement,
            }
        })
        .collect();
    out.sort_by_key(|s| s.sighting.order);
    out
}

/// Where a disagreement met on `pos` shows by itself: a board gone wrong along a line
/// followed back to where it still shows, and a mirror or colour-swap failure seen on
/// the image, where the odd generator answers the image wrongly by itself. Every phase
/// names a bug by the signature of what this returns.
pub(crate) fn shown(
    pos: &Position,
    d: &Disagreement,
    gens: &[&dyn Generator],
) -> (Position, Disagreement) {
    let (pos, d, _) = follow(pos, d, gens);
    through_image(&pos, &d, gens).unwrap_or((pos, d))
}
