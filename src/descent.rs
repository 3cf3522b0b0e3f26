//! From a perft disagreement to the position where move sets differ: divide at the
//! root, follow the first move whose counts differ, and repeat until the generators
//! disagree on the moves themselves (at the latest at depth 1, where a count is the
//! number of legal moves).

use crate::engine::Engine;
use crate::moves::Move;
use crate::oracle::{check_position, Disagreement};
use crate::position::Position;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Where a perft disagreement comes from.
#[derive(Clone, Debug)]
pub struct Descent {
    /// Moves from the root to `position`.
    pub path: Vec<Move>,
    /// The first position on the path where the oracle finds a disagreement.
    pub position: Position,
    /// What the oracle found there.
    pub disagreements: Vec<Disagreement>,
}

/// Follows a perft disagreement at `depth` from `root` down to a position where the
/// oracle sees it; `None` if the generators agree on every count and every position
/// on the way.
pub fn descend(root: &Position, depth: u32, engines: &[&dyn Engine]) -> Option<Descent> {
    let mut path = Vec::new();
    let mut pos = root.clone();
    for d in (1..=depth).rev() {
        let found = check_position(&pos, engines);
        if !found.is_empty() {
            return Some(Descent {
                path,
                position: pos,
                disagreements: found,
            });
        }
        // Each generator's divide in parallel: the subtrees are the expensive part.
        let divides: Vec<BTreeMap<Move, u64>> = engines
            .par_iter()
            .map(|g| g.divide(&pos, d, false, None).into_iter().collect())
            .collect();
        let first_diff = divides[0]
            .keys()
            .copied()
            .find(|mv| divides.iter().any(|dv| dv.get(mv) != divides[0].get(mv)))?;
        let next = engines[0]
            .probe(&pos)
            .legal
            .into_iter()
            .find(|l| l.mv == first_diff)
            .and_then(|l| Position::new(l.after).ok())?;
        path.push(first_diff);
        pos = next;
    }
    let found = check_position(&pos, engines);
    (!found.is_empty()).then_some(Descent {
        path,
        position: pos,
        disagreements: found,
    })
}
