//! Perft past one machine: the tree cut at a fixed ply into independent jobs
//! ([`frontier`]), any share of the jobs run anywhere ([`shard`]), and the shards'
//! results added back up into one run ([`merge`]). Jobs and results travel as JSON
//! lines ([`files`]), so any scheduler that can start a command can run them.
//!
//! Each job is one path of moves to the frontier. Transpositions stay separate jobs,
//! because perft counts paths, not positions: the totals add up exactly.

mod error;
pub mod files;
pub mod frontier;
pub mod merge;
pub mod shard;

pub use error::{Location, Problem, Problems, SplitError};
pub use shard::Shard;

use crate::diff::corpus::fnv1a;
use crate::moves::Move;
use crate::position::Position;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The `format` field of a jobs file header; bumped whenever a field's meaning changes.
pub const JOBS_FORMAT: &str = "xqdiff-jobs/1";

/// The most jobs a split may have. It is about 2 GB of jobs file, and more than any
/// scheduler wants: the start position cut at ply 4 (3.3 million jobs) fits, at ply 5
/// (133 million, some 23 GB) it does not. Emit counts the frontier before writing and
/// refuses a split past this.
pub const MAX_JOBS: u64 = 10_000_000;

/// Names one split: a hash of the format, the root's canonical FEN, the depth and the
/// split depth. The frontier is enumerated in a fixed order, so equal ids mean equal job
/// lists, and a result carrying another id belongs to another split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct SplitId(pub u64);

impl SplitId {
    /// The id of perft `depth` from `root` cut `split_depth` plies down.
    pub fn of(root: &Position, depth: u32, split_depth: u32) -> SplitId {
        let key = format!("{JOBS_FORMAT}\n{}\n{depth}\n{split_depth}", root.fen());
        SplitId(fnv1a(key.as_bytes()))
    }
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
        if text.len() != 16 {
            return Err(format!("split id {text:?} is not 16 hex digits"));
        }
        u64::from_str_radix(&text, 16)
            .map(SplitId)
            .map_err(|_| format!("split id {text:?} is not 16 hex digits"))
    }
}

/// The first line of a jobs file: what was split, and how many jobs there are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`JOBS_FORMAT`].
    pub format: String,
    /// The split's id; results carry it.
    pub split: SplitId,
    /// The root position, canonical FEN.
    pub root: String,
    /// The perft depth from the root.
    pub depth: u32,
    /// Plies from the root to the frontier.
    pub split_depth: u32,
    /// How many jobs follow, indexed from 0.
    pub jobs: u64,
    /// The generators that agreed on every move above the frontier.
    pub checked_by: Vec<String>,
}

/// One independent piece of the perft: the subtree below one path to the frontier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Its place in the jobs file, from 0.
    pub index: u64,
    /// The moves from the root to the frontier.
    pub path: Vec<Move>,
    /// The position at the end of the path.
    pub position: Position,
    /// Plies to count below it.
    pub depth: u32,
}

/// A job as one JSON line.
#[derive(Debug, Serialize, Deserialize)]
struct JobLine {
    index: u64,
    #[serde(with = "iccs")]
    path: Vec<Move>,
    fen: String,
    depth: u32,
}

/// One finished job: the line a shard writes, and merge adds up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobResult {
    /// The split the job belongs to.
    pub split: SplitId,
    /// The job's index.
    pub index: u64,
    /// The shard that ran it.
    pub shard: Shard,
    /// Leaf count per generator.
    pub counts: BTreeMap<String, u64>,
    /// Wall-clock seconds per generator.
    pub seconds: BTreeMap<String, f64>,
}

impl JobResult {
    /// Whether every generator counted the same.
    pub fn agrees(&self) -> bool {
        let mut counts = self.counts.values();
        let first = counts.next();
        counts.all(|c| Some(c) == first)
    }

    /// The generator names, sorted.
    pub fn generators(&self) -> Vec<String> {
        self.counts.keys().cloned().collect()
    }
}

/// Adds one result's `counts` into `totals`, generator by generator. Every sum of counts
/// goes through here, because a wrapped sum would print a small total that agrees.
pub fn add_counts(
    totals: &mut BTreeMap<String, u64>,
    counts: &BTreeMap<String, u64>,
    at: &Location,
) -> Result<(), SplitError> {
    for (g, &n) in counts {
        let total = totals.entry(g.clone()).or_default();
        *total = total.checked_add(n).ok_or_else(|| SplitError::Overflow {
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

    pub fn serialize<S: Serializer>(path: &[Move], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(path.iter().map(Move::to_string))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Move>, D::Error> {
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
    fn split_ids_print_and_read_back_and_separate_splits() {
        let start = Position::startpos();
        let ids = [
            SplitId::of(&start, 5, 2),
            SplitId::of(&start, 5, 3),
            SplitId::of(&start, 6, 2),
        ];
        for id in ids {
            assert_eq!(SplitId::try_from(id.to_string()), Ok(id));
        }
        assert_ne!(ids[0], ids[1]);
        assert_ne!(ids[0], ids[2]);
        for bad in ["", "123", "zzzzzzzzzzzzzzzz", "00000000000000000"] {
            assert!(SplitId::try_from(bad.to_owned()).is_err(), "{bad:?}");
        }
    }
}
