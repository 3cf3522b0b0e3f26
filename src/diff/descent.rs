//! From a perft disagreement to the position where move sets differ: divide at the
//! root, follow the first move whose counts differ, and repeat until the generators
//! disagree on the moves themselves (at the latest at depth 1, where a count is the
//! number of legal moves). [`explain_into`] then shrinks that position with the minimizer,
//! and the one findings path ([`crate::diff::finding`]) files it like any other.

use crate::diff::finding::provenance::Provenance;
use crate::diff::finding::sighting::{show, Sighting};
use crate::diff::finding::Findings;
use crate::diff::oracle::tally::{self, Tally};
use crate::diff::oracle::{check_position, consensus_play, follow, Disagreement};
use crate::generators::face::Generator;
use crate::generators::perft::Finished;
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

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

/// Hears how a descent is going: `(ply, done, total)`, where `ply` is how many moves
/// down the path the current divide is and `done`/`total` count its finished subtrees,
/// summed over the generators. Called from worker threads.
pub(crate) type DescentProgress<'a> = &'a (dyn Fn(usize, u64, u64) + Sync);

/// Follows a perft disagreement at `depth` from `root` down to a position where the
/// oracle sees it; `None` if the generators agree on every count and every position on
/// the way. Reuses the root divides when the caller has them already (one per
/// generator, in `gens`' order: a perft that just found the totals differ), and reports
/// progress. Each generator divides in parallel, and the generators run side by side.
pub(crate) fn descend_from(
    root: &Position,
    depth: u32,
    gens: &[&dyn Generator],
    root_divides: Option<&[Vec<(Move, u64)>]>,
    progress: Option<DescentProgress<'_>>,
) -> Option<Descent> {
    let mut path = Vec::new();
    let mut pos = root.clone();
    let mut known = root_divides.filter(|k| k.len() == gens.len());
    let names: Vec<&str> = gens.iter().map(|g| g.name()).collect();
    for d in (1..=depth).rev() {
        let found = check_position(&pos, gens);
        if let Some(first) = found.first() {
            return Some(shown(path, pos, first, found.clone(), gens));
        }
        let divides: Vec<Vec<(Move, u64)>> = match known.take() {
            Some(k) => k.to_vec(),
            None => divide_all(&pos, d, gens, path.len(), progress),
        };
        let tallies: Vec<Tally> = divides
            .iter()
            .map(|dv| Tally::of_divide(dv.iter().copied()))
            .collect();
        let refs: Vec<&Tally> = tallies.iter().collect();
        // The oracle agrees on the moves here, so the divides can only differ in the
        // counts below a move they all have: follow the first such move.
        let first_diff = *tally::compare(&names, &refs).counts_differ.first()?;
        let next = consensus_play(&pos, gens, first_diff)?;
        path.push(first_diff);
        pos = next;
    }
    let found = check_position(&pos, gens);
    let first = found.first()?.clone();
    Some(shown(path, pos, &first, found, gens))
}

/// The descent's end, a disagreement about what a move leads to followed one ply
/// further down when the position there shows it by itself.
fn shown(
    mut path: Vec<Move>,
    pos: Position,
    first: &Disagreement,
    found: Vec<Disagreement>,
    gens: &[&dyn Generator],
) -> Descent {
    let (position, _, further) = follow(&pos, first, gens);
    if further.is_empty() {
        return Descent {
            path,
            position: pos,
            disagreements: found,
        };
    }
    path.extend(further);
    let disagreements = check_position(&position, gens);
    Descent {
        path,
        position,
        disagreements,
    }
}

/// Every generator's divide of `pos`, the generators side by side and each on the pool.
fn divide_all(
    pos: &Position,
    depth: u32,
    gens: &[&dyn Generator],
    ply: usize,
    progress: Option<DescentProgress<'_>>,
) -> Vec<Vec<(Move, u64)>> {
    // One (done, total) pair per generator, so the sum is a fair picture of the whole level.
    let done: Vec<AtomicU64> = gens.iter().map(|_| AtomicU64::new(0)).collect();
    let total: Vec<AtomicU64> = gens.iter().map(|_| AtomicU64::new(0)).collect();
    let sum = |v: &[AtomicU64]| v.iter().map(|a| a.load(Ordering::Relaxed)).sum::<u64>();
    gens.par_iter()
        .enumerate()
        .map(|(i, g)| {
            let report = |f: Finished| {
                done[i].store(f.done, Ordering::Relaxed);
                total[i].store(f.of, Ordering::Relaxed);
                if let Some(p) = progress {
                    p(ply, sum(&done), sum(&total));
                }
            };
            g.divide(pos, depth, true, Some(&report))
        })
        .collect()
}

/// Follows a perft disagreement at `depth` from `root` down (`descend_from`) and hands
/// where it ends to a [`Findings`] (the one path every finding takes: known bugs,
/// minimizing, saving); returns the finding's index there. `None` if the generators
/// agree all the way down.
pub fn explain_into(
    findings: &mut Findings,
    order: u64,
    root: &Position,
    depth: u32,
    gens: &[&dyn Generator],
    root_divides: Option<&[Vec<(Move, u64)>]>,
    progress: Option<DescentProgress<'_>>,
) -> Option<usize> {
    let descent = descend_from(root, depth, gens, root_divides, progress)?;
    let first = descent.disagreements.first()?.clone();
    let sighting = Sighting {
        order,
        position: descent.position,
        disagreement: first,
        provenance: Provenance::perft(root, depth, gens),
        path: Some((root.clone(), descent.path)),
        depth: Some(depth),
        after: Duration::ZERO,
    };
    let shown = show(vec![sighting], gens);
    let signature = shown.first()?.signature.clone();
    findings.record_shown(shown, gens);
    findings.index_of(&signature)
}
