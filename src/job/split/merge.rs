//! Adding up shard results into one perft, after checking that they cover the split's
//! jobs exactly once; or, for a quorum merge, that every job was counted at least K
//! times (other generators, other hash seeds, other machines) and every count of it
//! agrees.

use super::files::{read_jobs, read_results};
use super::{
    add_counts, Header, JobResult, JobsFile, Location, Problem, Problems, SplitError, SplitId,
};
use crate::moves::Move;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A job whose generators (or, in a quorum merge, whose computations) counted
/// differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JobDisagreement {
    /// The job's index.
    pub(crate) index: u64,
    /// The moves from the root to its position.
    pub(crate) path: Vec<Move>,
    /// Its position, as FEN.
    pub(crate) fen: String,
    /// The depth counted there.
    pub(crate) depth: u32,
    /// Each generator's count; in a quorum merge, each computation's, named by its
    /// generator, hash seed and line.
    pub(crate) counts: BTreeMap<String, u64>,
}

/// The shards' results as one run.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Merged {
    /// The split.
    pub(crate) header: Header,
    /// How many result files were read.
    pub(crate) files: usize,
    /// The generators every result counted with, sorted.
    pub(crate) generators: Vec<String>,
    /// Leaf count per generator over all jobs.
    pub(crate) totals: BTreeMap<String, u64>,
    /// Seconds per generator summed over all jobs (time spent, not time waited).
    pub(crate) seconds: BTreeMap<String, f64>,
    /// The jobs whose generators differ, in index order.
    pub(crate) disagreements: Vec<JobDisagreement>,
    /// The computations asked for per job: 1 for a plain merge.
    pub(crate) quorum: usize,
    /// In a quorum merge, each distinct computation, and what each pair of them shares.
    computations: Vec<Computation>,
    /// What two of the computations share, one line per pair that shares anything:
    /// agreeing, they are not independent.
    pub(crate) shared: Vec<String>,
}

/// One way of counting a job: a generator, through a table of some size under some key
/// seed or without one. Counted again the same way (a rerun) it gives the same count
/// for the same reasons, so it is not a second computation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Computation {
    /// The generator.
    generator: String,
    /// The key seed of its table, if it counted through one.
    hash_seed: Option<u64>,
    /// The bytes of that table.
    hash_bytes: Option<u64>,
}

impl std::fmt::Display for Computation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.generator)?;
        let shortcut =
            crate::generators::by_name(&self.generator).is_some_and(|g| g.two_ply_shortcut());
        f.write_str(if shortcut {
            " (two-ply count"
        } else {
            " (plain count"
        })?;
        match (self.hash_seed, self.hash_bytes) {
            (Some(seed), Some(b)) => write!(
                f,
                ", table of {} under key seed {seed})",
                crate::generators::perft_hash::HashSize(b)
            ),
            (Some(seed), None) => write!(f, ", table under key seed {seed})"),
            _ => write!(f, ", no table)"),
        }
    }
}

impl Computation {
    /// What `self` and `other` have in common that a bug could be in: the generator
    /// (its moves, its check test), its two-ply count, the hashed perft's keys and table.
    /// Empty when they are independent.
    fn shares_with(&self, other: &Computation) -> Vec<String> {
        let mut shared = Vec::new();
        if self.generator == other.generator {
            shared.push(format!("the {} generator", self.generator));
            if crate::generators::by_name(&self.generator).is_some_and(|g| g.two_ply_shortcut()) {
                shared.push("its two-ply count".to_owned());
            }
        }
        if self.hash_seed.is_some() && other.hash_seed.is_some() {
            shared.push(if self.hash_seed == other.hash_seed {
                "the hashed perft with the same keys".to_owned()
            } else {
                "the hashed perft's key and table code".to_owned()
            });
        }
        shared
    }
}

/// What each pair of `computations` shares, one line per pair that shares anything.
fn shared_pairs(computations: &[Computation]) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, a) in computations.iter().enumerate() {
        for b in &computations[i + 1..] {
            let shared = a.shares_with(b);
            if !shared.is_empty() {
                lines.push(format!("{a} and {b} share {}", shared.join(", ")));
            }
        }
    }
    lines
}

impl Merged {
    /// Whether the generators agree on every job.
    pub(crate) fn agree(&self) -> bool {
        self.disagreements.is_empty()
    }

    /// Everything above as one JSON object.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let disagreements: Vec<serde_json::Value> = self
            .disagreements
            .iter()
            .map(|d| {
                serde_json::json!({
                    "index": d.index,
                    "path": d.path.iter().map(Move::to_string).collect::<Vec<_>>(),
                    "fen": d.fen,
                    "depth": d.depth,
                    "counts": d.counts,
                })
            })
            .collect();
        serde_json::json!({
            "split": self.header.split,
            "root": self.header.root,
            "depth": self.header.depth,
            "split_depth": self.header.split_depth,
            "jobs": self.header.jobs,
            "frontier_checked_by": self.header.checked_by,
            "result_files": self.files,
            "generators": self.generators,
            "totals": self.totals,
            // Summed floats print with noise digits; microseconds are what was measured.
            "seconds": self.seconds.iter()
                .map(|(g, s)| (g.clone(), (s * 1e6).round() / 1e6))
                .collect::<BTreeMap<_, _>>(),
            "quorum": self.quorum,
            "computations": self.computations.iter().map(|c| serde_json::json!({
                "generator": c.generator,
                "hash_seed": c.hash_seed,
                "hash_bytes": c.hash_bytes,
                "described": c.to_string(),
            })).collect::<Vec<_>>(),
            "shared": self.shared,
            "independent": self.quorum > 1 && self.shared.is_empty(),
            "agree": self.agree(),
            "disagreements": disagreements,
        })
    }
}

/// Reads the jobs file and every results file and adds the results up. Fails with every
/// problem at once when the results are not exactly one per job of this split with one
/// set of generators; a file that cannot be read or a line that is not a result stops it
/// at once, naming the file and line.
///
/// With a `quorum` above 1, a job may have any number of results, from any generators
/// and hash seeds; each count in them is one computation. Every job needs `quorum`
/// computations and all of them must agree; the totals are then under `agreed`.
pub(crate) fn merge(jobs: &Path, results: &[PathBuf], quorum: usize) -> Result<Merged, SplitError> {
    let file = read_jobs(jobs, |_| false)?;
    let header = file.header.clone();
    let mut tally = Tally::new(&file, quorum.max(1));
    let mut given = std::collections::HashSet::new();
    for path in results {
        let same = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if quorum > 1 && !given.insert(same) {
            // Given twice: its results would each vote twice.
            continue;
        }
        read_results(path, |at, result| tally.add(at, result))?;
    }
    let problems = tally.problems();
    if !problems.is_empty() {
        return Err(SplitError::Inconsistent {
            split: header.split,
            problems: Problems(problems),
        });
    }
    let mut odd: BTreeMap<u64, BTreeMap<String, u64>> = tally.disagreeing.into_iter().collect();
    if tally.quorum > 1 && !odd.is_empty() {
        name_computations(results, &mut odd)?;
    }
    let odd_jobs = read_jobs(jobs, |i| odd.contains_key(&i))?.jobs;
    let disagreements = odd_jobs
        .into_iter()
        .map(|job| JobDisagreement {
            counts: odd.get(&job.index).cloned().unwrap_or_default(),
            index: job.index,
            fen: job.position.fen(),
            path: job.path,
            depth: job.depth,
        })
        .collect();
    let mut totals = tally.totals;
    let mut generators = tally.generators.unwrap_or_default();
    if tally.quorum > 1 {
        let mut agreed = 0u64;
        for (i, (&n, &w)) in tally.value.iter().zip(&file.weights).enumerate() {
            agreed = n
                .checked_mul(w)
                .and_then(|x| agreed.checked_add(x))
                .ok_or_else(|| SplitError::Overflow {
                    at: Location {
                        path: jobs.to_owned(),
                        line: i + 2,
                    },
                    generator: "agreed".into(),
                    count: n,
                    total: agreed,
                })?;
        }
        totals = BTreeMap::from([(AGREED.to_owned(), agreed)]);
        generators = tally.computations.iter().map(|c| c.to_string()).collect();
    }
    let shared = shared_pairs(&tally.computations);
    Ok(Merged {
        header,
        files: results.len(),
        generators,
        totals,
        seconds: tally.seconds,
        disagreements,
        quorum: tally.quorum,
        computations: tally.computations,
        shared,
    })
}

/// Every computation of each disputed job in `odd`, named by generator, hash seed and
/// result line, so the odd one out of a quorum shows: the tally kept only the counts.
fn name_computations(
    results: &[PathBuf],
    odd: &mut BTreeMap<u64, BTreeMap<String, u64>>,
) -> Result<(), SplitError> {
    for path in results {
        read_results(path, |at, r| {
            if let Some(named) = odd.get_mut(&r.index) {
                let seed = r
                    .hash_seed
                    .map_or("no table".into(), |s| format!("seed {s}"));
                for (g, &n) in &r.counts {
                    named.insert(format!("{g} ({seed}) at {at}"), n);
                }
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// The number of `value` in `list`, added at the end if it is not there yet: a few
/// computations or runs per merge, so a look along the list is enough.
fn intern<T: PartialEq + Clone>(list: &mut Vec<T>, value: &T) -> u32 {
    match list.iter().position(|v| v == value) {
        Some(i) => i as u32,
        None => {
            list.push(value.clone());
            (list.len() - 1) as u32
        }
    }
}

/// The name of a quorum merge's total.
pub(crate) const AGREED: &str = "agreed";

/// Running sums and everything out of place, kept small: per job only where it was
/// first seen, so a split of millions of jobs merges in little memory.
struct Tally<'a> {
    /// The jobs, whose checks every result is verified against.
    file: &'a JobsFile,
    split: SplitId,
    jobs: u64,
    files: Vec<PathBuf>,
    /// Per job, the first occurrence as (file number, line), file number 0 meaning none.
    first: Vec<(u32, u32)>,
    repeats: BTreeMap<u64, Vec<Location>>,
    generators: Option<Vec<String>>,
    shard_counts: BTreeSet<u64>,
    totals: BTreeMap<String, u64>,
    seconds: BTreeMap<String, f64>,
    disagreeing: Vec<(u64, BTreeMap<String, u64>)>,
    /// Computations asked for per job.
    quorum: usize,
    /// Quorum merge: computations seen per job, and the first count of each.
    votes: Vec<u32>,
    value: Vec<u64>,
    /// Quorum merge: each distinct computation, by number.
    computations: Vec<Computation>,
    /// Quorum merge: per job, each computation that counted it (by number), the run
    /// that did (by number), and where.
    counted_by: Vec<Vec<(u32, Option<u32>, Location)>>,
    /// Quorum merge: the runs named, by number.
    runs: Vec<String>,
    /// Quorum merge: counts that are not a computation of their own, grouped by the
    /// files they are in, whether they are copies (one run) and the computation.
    same: BTreeMap<(Vec<PathBuf>, bool, String), Vec<u64>>,
    foreign: BTreeMap<(PathBuf, SplitId), Vec<Location>>,
    out_of_range: BTreeMap<PathBuf, (u64, Vec<Location>)>,
    mixed: BTreeMap<(PathBuf, Vec<String>), Vec<Location>>,
}

impl<'a> Tally<'a> {
    fn new(file: &'a JobsFile, quorum: usize) -> Tally<'a> {
        let header = &file.header;
        Tally {
            file,
            split: header.split,
            jobs: header.jobs,
            files: Vec::new(),
            first: vec![(0, 0); header.jobs as usize],
            repeats: BTreeMap::new(),
            generators: None,
            shard_counts: BTreeSet::new(),
            totals: BTreeMap::new(),
            seconds: BTreeMap::new(),
            disagreeing: Vec::new(),
            quorum,
            votes: if quorum > 1 {
                vec![0; header.jobs as usize]
            } else {
                Vec::new()
            },
            value: if quorum > 1 {
                vec![0; header.jobs as usize]
            } else {
                Vec::new()
            },
            computations: Vec::new(),
            counted_by: if quorum > 1 {
                vec![Vec::new(); header.jobs as usize]
            } else {
                Vec::new()
            },
            runs: Vec::new(),
            same: BTreeMap::new(),
            foreign: BTreeMap::new(),
            out_of_range: BTreeMap::new(),
            mixed: BTreeMap::new(),
        }
    }

    fn add(&mut self, at: Location, r: JobResult) -> Result<(), SplitError> {
        if r.split != self.split {
            self.foreign
                .entry((at.path.clone(), r.split))
                .or_default()
                .push(at);
            return Ok(());
        }
        if r.index >= self.jobs {
            self.out_of_range
                .entry(at.path.clone())
                .or_insert_with(|| (r.index, Vec::new()))
                .1
                .push(at);
            return Ok(());
        }
        // Before anything is taken from it: a line that does not verify stops the merge.
        self.file.verify(&at, &r)?;
        if self.quorum > 1 {
            self.vote(at, &r);
            return Ok(());
        }
        let generators = r.generators();
        let expected = self.generators.get_or_insert_with(|| generators.clone());
        if generators != *expected {
            self.mixed
                .entry((at.path.clone(), generators))
                .or_default()
                .push(at);
            return Ok(());
        }
        self.shard_counts.insert(r.shard.count);
        let slot = r.index as usize;
        if self.first[slot].0 != 0 {
            let (file, line) = self.first[slot];
            let earlier = Location {
                path: self.files[file as usize - 1].clone(),
                line: line as usize,
            };
            self.repeats
                .entry(r.index)
                .or_insert_with(|| vec![earlier])
                .push(at);
            return Ok(());
        }
        if self.files.last() != Some(&at.path) {
            self.files.push(at.path.clone());
        }
        self.first[slot] = (self.files.len() as u32, at.line as u32);
        add_counts(&mut self.totals, &r.counts, self.file.weights[slot], &at)?;
        for (g, s) in &r.seconds {
            *self.seconds.entry(g.clone()).or_default() += s;
        }
        if !r.agrees() {
            self.disagreeing.push((r.index, r.counts));
        }
        Ok(())
    }

    /// Takes in each count of a quorum merge's result as one computation of its job.
    /// A job's second result in one file is refused as in a plain merge: the same
    /// computation copied (a file given twice, lines pasted twice) is not a second one.
    fn vote(&mut self, at: Location, r: &JobResult) {
        let slot = r.index as usize;
        if self.files.last() != Some(&at.path) {
            self.files.push(at.path.clone());
        }
        let file = self.files.len() as u32;
        if self.first[slot].0 == file {
            let earlier = Location {
                path: at.path.clone(),
                line: self.first[slot].1 as usize,
            };
            self.repeats
                .entry(r.index)
                .or_insert_with(|| vec![earlier])
                .push(at);
            return;
        }
        self.first[slot] = (file, at.line as u32);
        let run = r.run.as_ref().map(|id| intern(&mut self.runs, id));
        for (g, &n) in &r.counts {
            let computation = Computation {
                generator: g.clone(),
                hash_seed: r.hash_seed,
                hash_bytes: r.hash_bytes,
            };
            let c = intern(&mut self.computations, &computation);
            // A copy (the same run's line, however the file was copied or linked) or a
            // rerun (the same generator, keys and table) is the same computation again:
            // it would repeat any bug of the first, so it does not count towards the
            // quorum, and the merge is refused.
            let earlier = self.counted_by[slot].iter().find(|(ec, _, _)| *ec == c);
            if let Some((_, er, place)) = earlier {
                let copy = run.is_some() && *er == run;
                let files = vec![place.path.clone(), at.path.clone()];
                self.same
                    .entry((files, copy, computation.to_string()))
                    .or_default()
                    .push(r.index);
                continue;
            }
            self.counted_by[slot].push((c, run, at.clone()));
            if self.votes[slot] == 0 {
                self.value[slot] = n;
            } else if self.value[slot] != n && !self.disagreeing.iter().any(|d| d.0 == r.index) {
                self.disagreeing.push((r.index, BTreeMap::new()));
            }
            self.votes[slot] = self.votes[slot].saturating_add(1);
        }
        for (g, s) in &r.seconds {
            *self.seconds.entry(g.clone()).or_default() += s;
        }
        self.shard_counts.insert(r.shard.count);
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems: Vec<Problem> = Vec::new();
        for ((files, copy, computation), indices) in &self.same {
            problems.push(Problem::SameComputation {
                files: files.clone(),
                copy: *copy,
                computation: computation.clone(),
                indices: indices.clone(),
            });
        }
        if self.quorum > 1 {
            let short: Vec<u64> = (0..self.jobs)
                .filter(|&i| (self.votes[i as usize] as usize) < self.quorum)
                .collect();
            if !short.is_empty() {
                problems.push(Problem::Short {
                    indices: short,
                    quorum: self.quorum,
                });
            }
        }
        for ((_, found), lines) in &self.foreign {
            problems.push(Problem::Foreign {
                lines: lines.clone(),
                found: *found,
                expected: self.split,
            });
        }
        for (index, lines) in self.out_of_range.values() {
            problems.push(Problem::OutOfRange {
                lines: lines.clone(),
                index: *index,
                jobs: self.jobs,
            });
        }
        for ((_, found), lines) in &self.mixed {
            problems.push(Problem::Generators {
                lines: lines.clone(),
                found: found.clone(),
                expected: self.generators.clone().unwrap_or_default(),
            });
        }
        // A shard given twice is one problem: group repeats by the files they are in.
        let mut by_files: BTreeMap<Vec<PathBuf>, (Vec<u64>, Vec<Location>)> = BTreeMap::new();
        for (index, places) in &self.repeats {
            let files = places.iter().map(|l| l.path.clone()).collect();
            by_files
                .entry(files)
                .or_insert_with(|| (Vec::new(), places.clone()))
                .0
                .push(*index);
        }
        for (files, (indices, first)) in by_files {
            problems.push(Problem::Duplicated {
                files,
                indices,
                first,
            });
        }
        // A quorum merge counts computations instead (Short above).
        let missing: Vec<u64> = (0..self.jobs)
            .filter(|&i| self.quorum == 1 && self.first[i as usize].0 == 0)
            .collect();
        if !missing.is_empty() {
            problems.push(Problem::Missing {
                indices: missing,
                jobs: self.jobs,
                shards: (self.shard_counts.len() == 1)
                    .then(|| self.shard_counts.first().copied())
                    .flatten(),
            });
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::super::shard::overflowing_results;
    use super::*;

    /// Two counts of 2^63 on lines that verify are refused, naming the line where the
    /// total passes 2^64 - 1: wrapped, they would add to a small total that agrees. No
    /// perft reaches such counts, so only lines sealed here can carry them.
    #[test]
    fn counts_that_overflow_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (jobs, huge) = overflowing_results(dir.path());
        let refused = merge(&jobs, std::slice::from_ref(&huge), 1).map(|m| m.totals);
        let Err(e @ SplitError::Overflow { .. }) = refused else {
            panic!("not refused as an overflow: {refused:?}");
        };
        let said = e.to_string();
        let at = format!("{}:2: bitboard count", huge.display());
        assert!(said.contains(&at), "{at:?} in {said}");
        assert!(said.contains("past 2^64 - 1"), "{said}");
    }
}
