//! Perft past one machine: the tree cut at a fixed ply into independent jobs
//! ([`frontier`]), any share of the jobs run anywhere ([`shard`]), and the shards'
//! results added back up into one run ([`merge`]). Jobs and results travel as JSON
//! lines ([`files`]), so any scheduler that can start a command can run them.
//!
//! A job is one position at the frontier with a weight: the number of paths from the root
//! that reach it. Without `--unique` every path is its own job of weight 1; with it, the
//! transpositions of a position are one job, counted once, and the merge multiplies each
//! job's count by its weight, so the totals still count paths exactly.

pub(crate) mod audit;
mod error;
pub(crate) mod files;
pub(crate) mod frontier;
pub(crate) mod merge;
pub(crate) mod shard;

pub(crate) use error::Problem;
pub(crate) use error::{Location, Problems, SplitError};
use files::JobsFile;
pub(crate) use shard::Shard;

use crate::diff::corpus::fnv1a;
use crate::moves::Move;
use crate::position::Position;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The `format` field of a jobs file header; bumped whenever a field's meaning changes.
/// Version 2 added the checks; version 3 gives every job a weight (how many paths reach
/// its position) and the header the number of paths, so a job can stand for every
/// transposition of its position. A file of a version not listed in
/// [`JOBS_FORMATS_READ`] is refused, not guessed at.
const JOBS_FORMAT: &str = "xqdiff-jobs/3";

/// Version 2: every job one path, no weights. Still read, as weight 1 each.
const JOBS_FORMAT_2: &str = "xqdiff-jobs/2";

/// The versions a jobs file may have.
const JOBS_FORMATS_READ: [&str; 2] = [JOBS_FORMAT, JOBS_FORMAT_2];

/// The most jobs a split may have. It is about 2 GB of jobs file, and more than any
/// scheduler wants: the start position cut at ply 4 (3.3 million jobs) fits, at ply 5
/// (133 million, some 23 GB) it does not. Emit counts the frontier before writing and
/// refuses a split past this; a jobs file announcing more is refused too.
const MAX_JOBS: u64 = 10_000_000;

/// Names one split: a hash of its header's fields and of every job in order, so equal
/// ids mean equal job lists, a result carrying another id belongs to another split, and
/// an edit anywhere in a jobs file shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub(crate) struct SplitId(u64);

/// A line's checksum: for a job, over its split id and its fields; for a result, over
/// its job's check and its counts. A 64-bit FNV-1a, so it finds edits and damage, not
/// forgery: anyone can recompute it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
struct Check(u64);

/// Two hashes as one: the chaining step of every id and check here.
fn chain(a: u64, b: u64) -> u64 {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&a.to_le_bytes());
    bytes[8..].copy_from_slice(&b.to_le_bytes());
    fnv1a(&bytes)
}

/// A split's id, built from the header's fields and then each job in file order.
#[derive(Clone, Copy, Debug)]
struct SplitHasher(u64);

impl SplitHasher {
    /// Starts from the fields of a header other than the id and the job count: those of
    /// format 2, and from format 3 on the number of paths too.
    fn new(
        format: &str,
        root: &str,
        depth: u32,
        split_depth: u32,
        checked_by: &[String],
        paths: Option<u64>,
    ) -> Self {
        let mut key = format!(
            "{format}\n{root}\n{depth}\n{split_depth}\n{}",
            checked_by.join(",")
        );
        if let Some(paths) = paths {
            key.push_str(&format!("\n{paths}"));
        }
        SplitHasher(fnv1a(key.as_bytes()))
    }

    /// Takes in the next job, by its [`JobLine::digest`].
    fn add(&mut self, digest: u64) {
        self.0 = chain(self.0, digest);
    }

    /// The id of a split of `jobs` jobs.
    fn finish(self, jobs: u64) -> SplitId {
        SplitId(chain(self.0, jobs))
    }
}

impl Check {
    /// The check of a job with `digest` ([`JobLine::digest`]) in split `split`.
    fn of_job(split: SplitId, digest: u64) -> Check {
        Check(chain(split.0, digest))
    }

    /// The check of a result with `counts` for the job whose check is `job`.
    fn of_result(job: Check, counts: &BTreeMap<String, u64>) -> Check {
        let mut text = format!("{job}\n");
        for (g, n) in counts {
            text.push_str(&format!("{g}={n}\n"));
        }
        Check(fnv1a(text.as_bytes()))
    }
}

/// Reads 16 hex digits, as ids and checks are written.
fn hex16(text: &str, what: &str) -> Result<u64, String> {
    // Only the start of a long text is echoed.
    let shown: String = text.chars().take(40).collect();
    let bad = || format!("{what} {shown:?} is not 16 hex digits");
    if text.len() != 16 {
        return Err(bad());
    }
    u64::from_str_radix(text, 16).map_err(|_| bad())
}

impl fmt::Display for SplitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl From<SplitId> for String {
    fn from(id: SplitId) -> String {
        id.to_string()
    }
}

impl TryFrom<String> for SplitId {
    type Error = String;
    fn try_from(text: String) -> Result<SplitId, String> {
        hex16(&text, "split id").map(SplitId)
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl From<Check> for String {
    fn from(check: Check) -> String {
        check.to_string()
    }
}

impl TryFrom<String> for Check {
    type Error = String;
    fn try_from(text: String) -> Result<Check, String> {
        hex16(&text, "check").map(Check)
    }
}

/// The first line of a jobs file: what was split, and how many jobs there are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Header {
    /// Always `JOBS_FORMAT`.
    format: String,
    /// The split's id; results carry it.
    pub(crate) split: SplitId,
    /// The root position, canonical FEN.
    pub(crate) root: String,
    /// The perft depth from the root.
    pub(crate) depth: u32,
    /// Plies from the root to the frontier.
    pub(crate) split_depth: u32,
    /// How many jobs follow, indexed from 0.
    pub(crate) jobs: u64,
    /// The generators that agreed on every move above the frontier.
    pub(crate) checked_by: Vec<String>,
    /// The paths from the root to the frontier, the sum of the jobs' weights (from
    /// format 3; none in format 2, where every job is one path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) paths: Option<u64>,
}

/// One independent piece of the perft: the subtree below one path to the frontier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Job {
    /// Its place in the jobs file, from 0.
    pub(crate) index: u64,
    /// The moves from the root to the frontier: the first path found to the position.
    pub(crate) path: Vec<Move>,
    /// The position at the end of the path.
    pub(crate) position: Position,
    /// Plies to count below it.
    pub(crate) depth: u32,
    /// How many paths from the root reach the position: what its count is multiplied by.
    weight: u64,
    /// Its line's check, which its result's check covers.
    check: Check,
}

/// A job as one JSON line.
#[derive(Debug, Serialize, Deserialize)]
struct JobLine {
    index: u64,
    #[serde(with = "iccs")]
    path: Vec<Move>,
    fen: String,
    depth: u32,
    /// Format 3 on; a format 2 line has none and stands for one path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    weight: Option<u64>,
    check: Check,
}

impl JobLine {
    /// A hash of the job's fields other than its check: what the split id and the check
    /// are built from.
    fn digest(&self) -> u64 {
        let path: Vec<String> = self.path.iter().map(Move::to_string).collect();
        let mut key = format!(
            "{}\n{}\n{}\n{}",
            self.index,
            path.join(" "),
            self.fen,
            self.depth
        );
        if let Some(w) = self.weight {
            key.push_str(&format!("\n{w}"));
        }
        fnv1a(key.as_bytes())
    }

    /// The check this line should carry in split `split`.
    fn check_in(&self, split: SplitId) -> Check {
        Check::of_job(split, self.digest())
    }
}

/// One finished job: the line a shard writes, and merge adds up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct JobResult {
    /// The split the job belongs to.
    split: SplitId,
    /// The job's index.
    pub(crate) index: u64,
    /// The shard that ran it.
    shard: Shard,
    /// Leaf count per generator.
    pub(crate) counts: BTreeMap<String, u64>,
    /// Wall-clock seconds per generator (not covered by the check: they are only shown).
    pub(crate) seconds: BTreeMap<String, f64>,
    /// The key seed of the transposition tables the counts were made through; none when
    /// they were counted without a table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hash_seed: Option<u64>,
    /// The bytes of each transposition table the counts were made through.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hash_bytes: Option<u64>,
    /// The shard run that counted it, drawn afresh by each run: a copy of its lines (or
    /// a hard link to its file) keeps it, so a quorum merge knows a copy from a second
    /// computation. None on lines from before runs were named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) run: Option<String>,
    /// Over its job's check and its counts (`Check::of_result`); none on a line from
    /// before results carried one, which never verifies.
    #[serde(default)]
    check: Option<Check>,
}

impl JobResult {
    /// Sets the check for the job whose check is `job`, after the counts are final.
    fn seal(&mut self, job: Check) {
        self.check = Some(self.check_for(job));
    }

    /// Whether the result carries the check its counts give for the job checked `job`.
    fn verifies(&self, job: Check) -> bool {
        self.check == Some(self.check_for(job))
    }

    /// The check over the counts and, when there is one, the hash seed (so results from
    /// before seeds were recorded still verify).
    fn check_for(&self, job: Check) -> Check {
        let counts = Check::of_result(job, &self.counts);
        match self.hash_seed {
            Some(seed) => Check(chain(counts.0, seed)),
            None => counts,
        }
    }

    /// Whether every generator counted the same.
    pub(crate) fn agrees(&self) -> bool {
        let mut counts = self.counts.values();
        let first = counts.next();
        counts.all(|c| Some(c) == first)
    }

    /// The generator names, sorted.
    fn generators(&self) -> Vec<String> {
        self.counts.keys().cloned().collect()
    }
}

/// Adds one result's `counts`, times its job's `weight`, into `totals`, generator by
/// generator. Every sum of counts goes through here, because a wrapped sum would print
/// a small total that agrees.
pub(crate) fn add_counts(
    totals: &mut BTreeMap<String, u64>,
    counts: &BTreeMap<String, u64>,
    weight: u64,
    at: &Location,
) -> Result<(), SplitError> {
    for (g, &n) in counts {
        let total = totals.entry(g.clone()).or_default();
        let sum = n.checked_mul(weight).and_then(|w| total.checked_add(w));
        *total = sum.ok_or_else(|| SplitError::Overflow {
            at: at.clone(),
            generator: g.clone(),
            count: n,
            total: *total,
        })?;
    }
    Ok(())
}

/// Move paths as ICCS strings.
mod iccs {
    use crate::moves::Move;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(path: &[Move], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(path.iter().map(Move::to_string))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|text| text.parse().map_err(D::Error::custom))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_checks_print_and_read_back_and_separate_what_differs() {
        let root = Position::startpos().fen();
        let id = |depth, split| {
            let mut h = SplitHasher::new(
                JOBS_FORMAT,
                &root,
                depth,
                split,
                &["bitboard".to_owned()],
                Some(1),
            );
            h.add(1);
            h.finish(1)
        };
        let ids = [id(5, 2), id(5, 3), id(6, 2)];
        for id in ids {
            assert_eq!(SplitId::try_from(id.to_string()), Ok(id));
        }
        assert_ne!(ids[0], ids[1]);
        assert_ne!(ids[0], ids[2]);
        let mut other_job =
            SplitHasher::new(JOBS_FORMAT, &root, 5, 2, &["bitboard".to_owned()], Some(1));
        other_job.add(2);
        assert_ne!(other_job.finish(1), ids[0]);
        let counts = |n: u64| BTreeMap::from([("bitboard".to_owned(), n)]);
        let check = Check::of_result(Check(7), &counts(3));
        assert_eq!(Check::try_from(check.to_string()), Ok(check));
        assert_ne!(check, Check::of_result(Check(7), &counts(4)));
        assert_ne!(check, Check::of_result(Check(8), &counts(3)));
        for bad in ["", "123", "zzzzzzzzzzzzzzzz", "00000000000000000"] {
            assert!(SplitId::try_from(bad.to_owned()).is_err(), "{bad:?}");
            assert!(Check::try_from(bad.to_owned()).is_err(), "{bad:?}");
        }
    }
}
