//! Which jobs a shard owns, and counting one job on every generator.
//!
//! Shard `I/N` owns the jobs whose index is `I` modulo `N` (I from 0). Neighbouring jobs
//! share their first moves and so are alike in size; dealing them out in turn gives
//! every shard a similar mix without knowing sizes in advance.

use super::{Job, JobResult, SplitError, SplitId};
use crate::generators::face::Generator;
use crate::generators::perft_hash::Hashing;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One of `count` shares of a split's jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub(crate) struct Shard {
    /// Which share, from 0.
    index: u64,
    /// How many shares.
    pub(crate) count: u64,
}

impl Shard {
    /// Every job in one shard.
    pub(crate) const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `I/N`, where `I` counts from `base`: 0, or 1 for schedulers whose task ids
    /// start at 1 (GNU parallel's slot numbers, Slurm arrays declared `--array=1-N`).
    pub(crate) fn parse(text: &str, base: u64) -> Result<Shard, SplitError> {
        let bad = |problem: String| SplitError::Shard {
            text: text.to_owned(),
            problem,
        };
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| bad("expected I/N, such as 0/4".into()))?;
        let number = |part: &str, what: &str| {
            part.trim()
                .parse::<u64>()
                .map_err(|_| bad(format!("{what} {part:?} is not a whole number")))
        };
        let (i, count) = (number(i, "shard")?, number(n, "shard count")?);
        if count == 0 {
            return Err(bad("the shard count must be at least 1".into()));
        }
        let last = count - 1 + base;
        if i < base || i > last {
            let hint = if base == 0 && i == count {
                "; for 1-based ids add --shard-base 1"
            } else {
                ""
            };
            return Err(bad(format!(
                "shard {i} is not one of {base}..={last}{hint}"
            )));
        }
        Ok(Shard {
            index: i - base,
            count,
        })
    }

    /// Whether job `index` is this shard's.
    pub(crate) fn owns(self, index: u64) -> bool {
        index % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl TryFrom<String> for Shard {
    type Error = String;
    fn try_from(text: String) -> Result<Shard, String> {
        Shard::parse(&text, 0).map_err(|e| e.to_string())
    }
}

/// Counts `job` with each generator in turn, each on the current rayon pool; through
/// `hashing[i]` for generator `i` when given (tables kept from job to job, where the
/// transpositions between jobs are found); `None` if `stop` was raised first (a job is
/// hours at depth, so a signal must not wait for it).
pub(crate) fn count_job(
    split: SplitId,
    shard: Shard,
    job: &Job,
    gens: &[&dyn Generator],
    hashing: Option<&[Hashing<'_>]>,
    stop: &AtomicBool,
) -> Option<JobResult> {
    let mut counts = BTreeMap::new();
    let mut seconds = BTreeMap::new();
    for (i, g) in gens.iter().enumerate() {
        let started = Instant::now();
        let nodes = if job.depth == 0 {
            1
        } else {
            let hashing = hashing.and_then(|h| h.get(i)).copied();
            g.divide_until(&job.position, job.depth, true, None, hashing, stop)?
                .iter()
                .map(|&(_, n)| n)
                .sum()
        };
        // Microseconds are plenty and keep the lines short.
        let secs = (started.elapsed().as_secs_f64() * 1e6).round() / 1e6;
        counts.insert(g.name().to_owned(), nodes);
        seconds.insert(g.name().to_owned(), secs);
    }
    let mut result = JobResult {
        split,
        index: job.index,
        shard,
        counts,
        seconds,
        hash_seed: hashing.and_then(|h| h.first()).map(|h| h.keys.seed()),
        hash_bytes: hashing
            .and_then(|h| h.first())
            .map(|h| h.table.buckets() as u64 * crate::generators::perft_hash::BUCKET_BYTES),
        run: None,
        check: None,
    };
    result.seal(job.check);
    Some(result)
}

/// Test equipment: the start position split to depth 2 by bitboard, in `dir`, and a
/// result for each job whose first two counts are 2^63, each sealed so that it verifies
/// though no shard could have written it: what is left to catch it is the sum past
/// 2^64 - 1. No perft reaches such counts, so only lines sealed in process carry them.
/// Gives the jobs file and the results file.
#[cfg(test)]
pub(crate) fn overflowing_results(
    dir: &std::path::Path,
) -> (std::path::PathBuf, std::path::PathBuf) {
    use super::frontier::{emit, Emitted};
    let (jobs, huge) = (dir.join("jobs.jsonl"), dir.join("huge.jsonl"));
    let bitboard = crate::generators::by_name("bitboard").expect("built in");
    let start = crate::position::Position::startpos();
    let stop = AtomicBool::new(false);
    let emitted = emit(&jobs, &start, 2, 1, false, &[bitboard], &stop);
    assert!(matches!(emitted, Ok(Emitted::Written(_))), "{emitted:?}");
    let file = super::files::read_jobs(&jobs, |_| true).expect("a jobs file");
    let mut lines = Vec::new();
    for job in &file.jobs {
        let split = file.header.split;
        let mut result = count_job(split, Shard::WHOLE, job, &[bitboard], None, &stop)
            .expect("nothing stops it");
        if result.index < 2 {
            result.counts.insert("bitboard".into(), 1 << 63);
        }
        result.seal(job.check);
        super::files::write_result(&mut lines, &result).expect("written to memory");
    }
    std::fs::write(&huge, lines).expect("results written");
    (jobs, huge)
}

#[cfg(test)]
mod tests {
    use super::super::files::read_jobs;
    use super::super::frontier::{emit, Emitted};
    use super::*;
    use crate::generators::planted::{Bug, Planted};
    use crate::position::Position;

    #[test]
    fn shard_texts() {
        // (text, base, (index, count) or None when refused)
        type Row = (&'static str, u64, Option<(u64, u64)>);
        let table: &[Row] = &[
            ("0/4", 0, Some((0, 4))),
            ("3/4", 0, Some((3, 4))),
            (" 2 / 4 ", 0, Some((2, 4))),
            ("4/4", 0, None),
            ("1/4", 1, Some((0, 4))),
            ("4/4", 1, Some((3, 4))),
            ("0/4", 1, None),
            ("5/4", 1, None),
            ("0/0", 0, None),
            ("0", 0, None),
            ("a/4", 0, None),
            ("-1/4", 0, None),
        ];
        for &(text, base, want) in table {
            let got = Shard::parse(text, base).ok().map(|s| (s.index, s.count));
            assert_eq!(got, want, "{text:?} base {base}");
        }
        let hint = Shard::parse("4/4", 0).unwrap_err().to_string();
        assert!(hint.contains("--shard-base 1"), "{hint}");
    }

    #[test]
    fn every_job_has_exactly_one_shard() {
        for count in 1..=7 {
            for job in 0..50 {
                let owners = (0..count)
                    .filter(|&index| Shard { index, count }.owns(job))
                    .count();
                assert_eq!(owners, 1, "job {job} of {count} shards");
            }
        }
    }

    /// A job on which the generators count differently is a disagreement in its result;
    /// one on which they count alike is not.
    #[test]
    fn a_planted_bug_shows_in_the_job_results() {
        let dir = tempfile::tempdir().unwrap();
        let jobs = dir.path().join("jobs.jsonl");
        let naive = crate::generators::by_name("naive").unwrap();
        let stop = AtomicBool::new(false);
        let emitted = emit(&jobs, &Position::startpos(), 3, 1, false, &[naive], &stop).unwrap();
        let Emitted::Written(header) = emitted else {
            panic!("one generator cannot disagree with itself");
        };
        let all = read_jobs(&jobs, |_| true).unwrap().jobs;
        let bitboard = crate::generators::by_name("bitboard").unwrap();
        let planted = Planted::new(Bug::CannonCannotCapture);
        let odd = |engines: &[&dyn Generator]| -> usize {
            all.iter()
                .map(|job| {
                    count_job(header.split, Shard::WHOLE, job, engines, None, &stop)
                        .expect("nothing stops it")
                })
                .filter(|r| !r.agrees())
                .count()
        };
        assert_eq!(odd(&[naive, bitboard]), 0);
        assert!(
            odd(&[naive, &planted]) > 0,
            "a cannon that cannot capture went unnoticed"
        );
    }
}
