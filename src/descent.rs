//! From a perft disagreement to the position where move sets differ: divide at the
//! root, follow the first move whose counts differ, and repeat until the generators
//! disagree on the moves themselves (at the latest at depth 1, where a count is the
//! number of legal moves). [`explain`] then shrinks that position with the minimizer,
//! and [`Finding::save`] files it in the corpus like a fuzz finding.

use crate::corpus::{write_case, Case};
use crate::engine::Engine;
use crate::fen::FenError;
use crate::minimize::minimize;
use crate::moves::Move;
use crate::oracle::{check_position, Disagreement};
use crate::position::Position;
use rayon::prelude::*;
use std::collections::BTreeMap;
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
pub fn descend(root: &Position, depth: u32, engines: &[&dyn Engine]) -> Option<Descent> {
    descend_from(root, depth, engines, None, None)
}

/// [`descend`], reusing the root divides when the caller has them already (one per
/// engine, in `engines`' order: a perft that just found the totals differ), and
/// reporting progress. Each engine divides in parallel, and the engines run side by side.
pub fn descend_from(
    root: &Position,
    depth: u32,
    engines: &[&dyn Engine],
    root_divides: Option<&[Vec<(Move, u64)>]>,
    progress: Option<DescentProgress<'_>>,
) -> Option<Descent> {
    let mut path = Vec::new();
    let mut pos = root.clone();
    let mut known = root_divides.filter(|k| k.len() == engines.len());
    for d in (1..=depth).rev() {
        let found = check_position(&pos, engines);
        if !found.is_empty() {
            return Some(Descent {
                path,
                position: pos,
                disagreements: found,
            });
        }
        let divides: Vec<BTreeMap<Move, u64>> = match known.take() {
            Some(k) => k.iter().map(|dv| dv.iter().copied().collect()).collect(),
            None => divide_all(&pos, d, engines, path.len(), progress),
        };
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

/// Every engine's divide of `pos`, the engines side by side and each on the pool.
fn divide_all(
    pos: &Position,
    depth: u32,
    engines: &[&dyn Engine],
    ply: usize,
    progress: Option<DescentProgress<'_>>,
) -> Vec<BTreeMap<Move, u64>> {
    // One (done, total) pair per engine, so the sum is a fair picture of the whole level.
    let done: Vec<AtomicU64> = engines.iter().map(|_| AtomicU64::new(0)).collect();
    let total: Vec<AtomicU64> = engines.iter().map(|_| AtomicU64::new(0)).collect();
    let sum = |v: &[AtomicU64]| v.iter().map(|a| a.load(Ordering::Relaxed)).sum::<u64>();
    engines
        .par_iter()
        .enumerate()
        .map(|(i, g)| {
            let report = |d: u64, t: u64| {
                done[i].store(d, Ordering::Relaxed);
                total[i].store(t, Ordering::Relaxed);
                if let Some(p) = progress {
                    p(ply, sum(&done), sum(&total));
                }
            };
            g.divide(pos, depth, true, Some(&report))
                .into_iter()
                .collect()
        })
        .collect()
}

/// A perft disagreement among generators, followed down to where the move sets differ
/// and shrunk there.
#[derive(Clone, Debug)]
pub struct Finding {
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

impl Finding {
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

    /// Writes [`Finding::to_case`] into `dir`; returns the file and whether it is new.
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
    engines: &[&dyn Engine],
    root_divides: Option<&[Vec<(Move, u64)>]>,
    progress: Option<DescentProgress<'_>>,
) -> Option<Finding> {
    let descent = descend_from(root, depth, engines, root_divides, progress)?;
    let first = descent.disagreements.first()?;
    let (minimized, disagreement) = minimize(&descent.position, first, engines);
    Some(Finding {
        root: root.clone(),
        depth,
        descent,
        minimized,
        disagreement,
    })
}
