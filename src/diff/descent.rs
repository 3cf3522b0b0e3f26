//! From a perft disagreement to the position where move sets differ: divide at the
//! root, follow the first move whose counts differ, and repeat until the generators
//! disagree on the moves themselves (at the latest at depth 1, where a count is the
//! number of legal moves). [`explain`] then shrinks that position with the minimizer,
//! and [`PerftFinding::save`] files it in the corpus like a fuzz finding.

use crate::diff::corpus::{write_case, Case};
use crate::diff::minimize::minimize;
use crate::diff::oracle::tally::{self, Tally};
use crate::diff::oracle::{check_position, consensus_play, follow, Disagreement};
use crate::fen::FenError;
use crate::generators::face::Generator;
use crate::generators::perft::Finished;
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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
pub type DescentProgress<'a> = &'a (dyn Fn(usize, u64, u64) + Sync);

/// Follows a perft disagreement at `depth` from `root` down to a position where the
/// oracle sees it; `None` if the generators agree on every count and every position
/// on the way.
pub fn descend(root: &Position, depth: u32, gens: &[&dyn Generator]) -> Option<Descent> {
    descend_from(root, depth, gens, None, None)
}

/// [`descend`], reusing the root divides when the caller has them already (one per
/// generator, in `gens`' order: a perft that just found the totals differ), and
/// reporting progress. Each generator divides in parallel, and the generators run side by side.
pub fn descend_from(
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

/// A perft disagreement among generators, followed down to where the move sets differ
/// and shrunk there.
#[derive(Clone, Debug)]
pub struct PerftFinding {
    /// Where the perft started.
    pub root: Position,
    /// The perft depth at which the totals differed.
    pub depth: u32,
    /// The path down to the first position where the oracle sees the disagreement.
    pub descent: Descent,
    /// That position, minimized.
    pub minimized: Position,
    /// The disagreement on the minimized position.
    pub disagreement: Disagreement,
}

/// Why a finding could not be filed in the corpus.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The minimized position did not survive its own FEN.
    #[error("minimized position {fen:?} cannot be read back: {source}")]
    Fen {
        /// The FEN written.
        fen: String,
        /// Why it does not read.
        source: FenError,
    },
    /// The corpus directory could not be written.
    #[error("cannot write into {dir}: {source}")]
    Write {
        /// The directory.
        dir: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
}

impl PerftFinding {
    /// The corpus case: the minimized disagreement as a fuzz finding would file it, with
    /// the perft root, depth and path that led to it. `found_by` says which command.
    pub fn to_case(&self, found_by: &str) -> Result<Case, SaveError> {
        let mut case =
            Case::from_disagreement(&self.disagreement, &self.descent.position.fen(), found_by)
                .map_err(|source| SaveError::Fen {
                    fen: self.disagreement.fen.clone(),
                    source,
                })?;
        let path: Vec<String> = self.descent.path.iter().map(Move::to_string).collect();
        case.notes.push(("perft-root".into(), self.root.fen()));
        case.notes
            .push(("perft-depth".into(), self.depth.to_string()));
        case.notes.push((
            "path".into(),
            if path.is_empty() {
                "(root)".into()
            } else {
                path.join(" ")
            },
        ));
        Ok(case)
    }

    /// Writes [`PerftFinding::to_case`] into `dir`; returns the file and whether it is new.
    pub fn save(&self, dir: &Path, found_by: &str) -> Result<(PathBuf, bool), SaveError> {
        let case = self.to_case(found_by)?;
        write_case(dir, &case).map_err(|source| SaveError::Write {
            dir: dir.to_path_buf(),
            source,
        })
    }
}

/// Follows a perft disagreement at `depth` from `root` down ([`descend_from`]) and
/// minimizes the first disagreement the oracle reports where it ends. `None` if the
/// generators agree all the way down.
pub fn explain(
    root: &Position,
    depth: u32,
    gens: &[&dyn Generator],
    root_divides: Option<&[Vec<(Move, u64)>]>,
    progress: Option<DescentProgress<'_>>,
) -> Option<PerftFinding> {
    let descent = descend_from(root, depth, gens, root_divides, progress)?;
    let first = descent.disagreements.first()?;
    let (minimized, disagreement) = minimize(&descent.position, first, gens);
    Some(PerftFinding {
        root: root.clone(),
        depth,
        descent,
        minimized,
        disagreement,
    })
}
