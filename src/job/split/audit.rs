//! An audit of a split run: a random sample of its jobs counted again by a method that
//! shares nothing with the run's (by default `mailbox`, which has no two-ply count of
//! its own, without a table), each compared with the counts the run's result files give
//! for it and, where asked, with a fresh count by the run's own method. A count too deep
//! to repeat whole is then confirmed on a share of it that is said.

use super::files::{read_jobs, read_results};
use super::{Header, SplitError};
use crate::cases::rng::Rng;
use crate::generators::face::Generator;
use crate::generators::perft_hash::Hashing;
use crate::moves::Move;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// One sampled job: the independent recount and every other count of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Audited {
    /// The job's index.
    pub(crate) index: u64,
    /// The moves from the root to its position.
    pub(crate) path: Vec<Move>,
    /// Its position, as FEN.
    pub(crate) fen: String,
    /// The depth counted there.
    pub(crate) depth: u32,
    /// Paths from the root that reach it.
    pub(crate) weight: u64,
    /// The independent recount.
    pub(crate) recount: u64,
    /// The other counts of it, each named by generator, seed and where it came from.
    pub(crate) others: BTreeMap<String, u64>,
}

impl Audited {
    /// Whether every other count equals the recount.
    fn agrees(&self) -> bool {
        self.others.values().all(|&n| n == self.recount)
    }
}

/// The audit of a split run.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Audit {
    /// The split.
    pub(crate) header: Header,
    /// The seed the sample was drawn with.
    pub(crate) seed: u64,
    /// The sampled jobs, in index order.
    pub(crate) sampled: Vec<Audited>,
    /// Paths from the root through the sampled jobs.
    pub(crate) sampled_paths: u64,
    /// Paths from the root through every job.
    pub(crate) paths: u64,
}

impl Audit {
    /// The sampled jobs whose counts differ from the recount.
    pub(crate) fn disagreements(&self) -> Vec<&Audited> {
        self.sampled.iter().filter(|a| !a.agrees()).collect()
    }

    /// The sampled jobs with nothing to compare the recount with.
    pub(crate) fn unmatched(&self) -> Vec<u64> {
        self.sampled
            .iter()
            .filter(|a| a.others.is_empty())
            .map(|a| a.index)
            .collect()
    }
}

/// `count` distinct job indices below `jobs`, drawn from `seed` (Floyd's algorithm: as
/// random as a shuffle without holding every index), ascending.
fn sample(jobs: u64, count: u64, seed: u64) -> BTreeSet<u64> {
    let count = count.min(jobs);
    let mut rng = Rng::new(seed);
    let mut chosen = BTreeSet::new();
    for j in jobs - count..jobs {
        let t = rng.below(j + 1);
        if !chosen.insert(t) {
            chosen.insert(j);
        }
    }
    chosen
}

/// How a job is counted again besides the independent recount: a generator, through a
/// table or not.
pub(crate) struct Against<'a> {
    /// The generator.
    pub(crate) generator: &'a dyn Generator,
    /// Its table and keys, kept from job to job as a shard keeps them.
    pub(crate) hashing: Option<Hashing<'a>>,
}

/// Audits `share` (a fraction, 0 to 1) of the jobs in `jobs`, at least one, drawn from
/// `seed`: each is counted by `recount` without a table and compared with its counts
/// in `results` and by `against`. `None` if `stop` was raised.
pub(crate) fn audit(
    jobs: &Path,
    results: &[PathBuf],
    share: f64,
    seed: u64,
    recount: &dyn Generator,
    against: Option<&Against<'_>>,
    stop: &AtomicBool,
) -> Result<Option<Audit>, SplitError> {
    let all = read_jobs(jobs, |_| false)?;
    let header = all.header.clone();
    let want = ((header.jobs as f64 * share).ceil() as u64).clamp(1, header.jobs.max(1));
    let chosen = sample(header.jobs, want, seed);
    let file = read_jobs(jobs, |i| chosen.contains(&i))?;
    let mut others: BTreeMap<u64, BTreeMap<String, u64>> = BTreeMap::new();
    for path in results {
        read_results(path, |at, r| {
            if r.split == header.split && chosen.contains(&r.index) {
                file.verify(&at, &r)?;
                let seed = r
                    .hash_seed
                    .map_or("no table".into(), |s| format!("seed {s}"));
                for (g, &n) in &r.counts {
                    others
                        .entry(r.index)
                        .or_default()
                        .insert(format!("{g} ({seed}) at {at}"), n);
                }
            }
            Ok(())
        })?;
    }
    let count = |g: &dyn Generator, job: &super::Job, h: Option<Hashing<'_>>| {
        if job.depth == 0 {
            return Some(1);
        }
        let divide = g.divide_until(&job.position, job.depth, true, None, h, stop)?;
        Some(divide.iter().map(|&(_, n)| n).sum::<u64>())
    };
    let mut sampled = Vec::new();
    for job in &file.jobs {
        let Some(n) = count(recount, job, None) else {
            return Ok(None);
        };
        let mut theirs = others.remove(&job.index).unwrap_or_default();
        if let Some(a) = against {
            let Some(m) = count(a.generator, job, a.hashing) else {
                return Ok(None);
            };
            let seed = a
                .hashing
                .map_or("no table".into(), |h| format!("seed {}", h.keys.seed()));
            theirs.insert(format!("{} ({seed}) counted now", a.generator.name()), m);
        }
        sampled.push(Audited {
            index: job.index,
            path: job.path.clone(),
            fen: job.position.fen(),
            depth: job.depth,
            weight: job.weight,
            recount: n,
            others: theirs,
        });
    }
    Ok(Some(Audit {
        sampled_paths: sampled.iter().map(|a| a.weight).sum(),
        paths: all.weights.iter().sum(),
        header,
        seed,
        sampled,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sample has as many distinct indices as asked (all of them when more are
    /// asked than there are), each in range, the same for the same seed and another
    /// for another.
    #[test]
    fn a_sample_is_distinct_in_range_and_seeded() {
        let table: &[(u64, u64, u64)] = &[(100, 1, 1), (100, 10, 2), (42282, 423, 3), (5, 9, 4)];
        for &(jobs, count, seed) in table {
            let s = sample(jobs, count, seed);
            assert_eq!(s.len() as u64, count.min(jobs), "{jobs} {count}");
            assert!(s.iter().all(|&i| i < jobs));
            assert_eq!(s, sample(jobs, count, seed));
        }
        assert_ne!(sample(42282, 423, 1), sample(42282, 423, 2));
    }
}
