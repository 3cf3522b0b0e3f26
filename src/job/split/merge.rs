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
pub struct JobDisagreement {
    /// The job's index.
    pub index: u64,
    /// The moves from the root to its position.
    pub path: Vec<Move>,
    /// Its position, as FEN.
    pub fen: String,
    /// The depth counted there.
    pub depth: u32,
    /// Each generator's count; in a quorum merge, each computation's, named by its
    /// generator, hash seed and line.
    pub counts: BTreeMap<String, u64>,
}

/// The shards' results as one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The split.
    pub header: Header,
    /// How many result files were read.
    pub files: usize,
    /// The generators every result counted with, sorted.
    pub generators: Vec<String>,
    /// Leaf count per generator over all jobs.
    pub totals: BTreeMap<String, u64>,
    /// Seconds per generator summed over all jobs (time spent, not time waited).
    pub seconds: BTreeMap<String, f64>,
    /// The jobs whose generators differ, in index order.
    pub disagreements: Vec<JobDisagreement>,
    /// The computations asked for per job: 1 for a plain merge.
    pub quorum: usize,
}

impl Merged {
    /// Whether the generators agree on every job.
    pub fn agree(&self) -> bool {
        self.disagreements.is_empty()
    }

    /// Everything above as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
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
pub fn merge(jobs: &Path, results: &[PathBuf], quorum: usize) -> Result<Merged, SplitError> {
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
        // Every computation of a disputed job, named, so the odd one out shows.
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
        generators = tally.sources.into_iter().collect();
    }
    Ok(Merged {
        header,
        files: results.len(),
        generators,
        totals,
        seconds: tally.seconds,
        disagreements,
        quorum: tally.quorum,
    })
}

/// The name of a quorum merge's total.
pub const AGREED: &str = "agreed";

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
    /// Quorum merge: which generator under which seed counted, for the summary.
    sources: BTreeSet<String>,
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
            sources: BTreeSet::new(),
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
        for (g, &n) in &r.counts {
            let seed = r
                .hash_seed
                .map_or("no table".into(), |s| format!("seed {s}"));
            self.sources.insert(format!("{g} ({seed})"));
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
