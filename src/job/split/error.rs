//! What can go wrong with jobs and results files, and where.

use super::SplitId;
use crate::depth::DepthError;
use crate::fen::FenError;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// A line of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Location {
    /// The file.
    pub(crate) path: PathBuf,
    /// 1-based line number.
    pub(crate) line: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.path.display(), self.line)
    }
}

/// Why a split could not be written, run or merged.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SplitError {
    /// A file that could not be read or written.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// An input that is not a regular file: a FIFO would hang the read, a device such as
    /// `/dev/zero` would never end.
    #[error("{path}: {kind}, not a regular file")]
    NotRegular {
        /// The path given.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// An input larger than any file a split writes.
    #[error("{path}: larger than {limit} bytes, the most a jobs or results file may be")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit.
        limit: u64,
    },
    /// A line longer than any a split writes.
    #[error("{at}: line longer than {limit} bytes, the most a job or result line may be")]
    LineTooLong {
        /// Where.
        at: Location,
        /// The limit.
        limit: usize,
    },
    /// A line that is not the JSON it should be.
    #[error("{at}: not a {what} line: {source}")]
    Json {
        /// Where.
        at: Location,
        /// `jobs header`, `job` or `result`.
        what: &'static str,
        /// What serde_json found wrong.
        source: serde_json::Error,
    },
    /// A jobs file without a header.
    #[error("{path}: empty; a jobs file starts with its header line")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A header of another format or version, such as a jobs file from before the checks.
    #[error(
        "{at}: format {found:?}, but this xqdiff reads {expected:?}: emit the jobs again with it"
    )]
    Format {
        /// Where.
        at: Location,
        /// What the header says (its start).
        found: String,
        /// What this xqdiff reads.
        expected: &'static str,
    },
    /// A header whose id is not the hash of its fields and its jobs: edited by hand.
    #[error("{at}: split id {found} does not match the header and its jobs (they give {computed}): the file was edited or damaged")]
    SplitId {
        /// Where.
        at: Location,
        /// The id in the header.
        found: SplitId,
        /// The id its fields and jobs give.
        computed: SplitId,
    },
    /// A header announcing more jobs than a split may have.
    #[error("{at}: header announces {found} jobs, more than the {limit} a split may have")]
    HeaderJobs {
        /// Where.
        at: Location,
        /// The count announced.
        found: u64,
        /// The limit.
        limit: u64,
    },
    /// A job line whose check does not match its fields.
    #[error("{at}: job line does not match its check: the file was edited or damaged")]
    JobCheck {
        /// Where.
        at: Location,
    },
    /// A result line whose check does not match its job and counts.
    #[error("{at}: result for job {index} does not match its check: edited, damaged, or counted for another jobs file")]
    ResultCheck {
        /// Where.
        at: Location,
        /// The job it names.
        index: u64,
    },
    /// A result line without a check.
    #[error("{at}: result line has no check (written by an older xqdiff): run its shard again")]
    ResultUnchecked {
        /// Where.
        at: Location,
    },
    /// Two verified results for one job that differ: the counting is not repeatable.
    #[error("{second}: result for job {index} differs from the one at line {first}, both checked: a generator counts differently from run to run")]
    ResultConflict {
        /// The later line.
        second: Location,
        /// The earlier line's number.
        first: usize,
        /// The job.
        index: u64,
    },
    /// A jobs file asking for a perft past the bound every perft keeps to, so that no
    /// file can recurse past the stack.
    #[error("{at}: {source}")]
    Depth {
        /// Where.
        at: Location,
        /// The depth and the bound.
        source: DepthError,
    },
    /// A split asked for a perft past the bound.
    #[error(transparent)]
    DepthArg(#[from] DepthError),
    /// A split deeper than the perft it splits.
    #[error("split depth {split_depth} is deeper than the perft depth {depth}")]
    TooDeep {
        /// The split depth.
        split_depth: u32,
        /// The perft depth.
        depth: u32,
    },
    /// A split with more jobs than [`super::MAX_JOBS`], refused before anything is written.
    #[error(
        "split depth {split_depth} makes {} jobs ({counted} counted at ply {ply}), {} of jobs file; \
         the limit is {limit} jobs: cut at a shallower ply",
        about(*.estimate, *.ply == *.split_depth),
        bytes(*.estimate * super::frontier::line_bytes(*.split_depth))
    )]
    TooManyJobs {
        /// The split depth asked for.
        split_depth: u32,
        /// The ply where counting stopped: the split depth, or the first ply past the limit.
        ply: u32,
        /// The frontier's size at that ply.
        counted: u64,
        /// The estimated job count at the split depth.
        estimate: f64,
        /// The limit.
        limit: u64,
    },
    /// A jobs file that grew past what a shard will read, found while writing it.
    #[error("the jobs file passes {limit} bytes, the most a shard reads: cut at a shallower ply")]
    JobsFileTooLarge {
        /// The limit.
        limit: u64,
    },
    /// A split asked of no generators at all.
    #[error("no generators to split with")]
    NoGenerators,
    /// A FEN in a jobs file that does not read as a valid position.
    #[error("{at}: bad FEN: {source}")]
    Fen {
        /// Where.
        at: Location,
        /// Why.
        source: FenError,
    },
    /// A job line out of sequence.
    #[error(
        "{at}: job index {found}, expected {expected} (jobs are numbered from 0 in file order)"
    )]
    JobOrder {
        /// Where.
        at: Location,
        /// The index written.
        found: u64,
        /// The index due there.
        expected: u64,
    },
    /// A job whose path or depth does not fit the header.
    #[error("{at}: job has {found}, the header's depths give {expected}")]
    JobShape {
        /// Where.
        at: Location,
        /// What the job has, as `path of 3 moves` or `depth 2`.
        found: String,
        /// What it should have.
        expected: String,
    },
    /// A jobs file whose weights do not add up to the paths its header announces.
    #[error("{path}: the jobs' weights add up to {found} paths, but the header announces {header}: the file was edited or damaged")]
    PathCount {
        /// The file.
        path: PathBuf,
        /// The header's count.
        header: u64,
        /// The sum of the weights (saturated).
        found: u64,
    },
    /// A jobs file with more or fewer jobs than its header announces.
    #[error("{path}: header announces {header} jobs, the file has {found} (cut short?)")]
    JobCount {
        /// The file.
        path: PathBuf,
        /// The header's count.
        header: u64,
        /// Job lines found.
        found: u64,
    },
    /// A `--shard` that does not name one of N shards.
    #[error("bad --shard {text:?}: {problem}")]
    Shard {
        /// What was given.
        text: String,
        /// What is wrong with it.
        problem: String,
    },
    /// An existing `--output` file that this shard cannot continue.
    #[error("cannot resume into {path} (give another --output, or delete it to start over):\n{problems}")]
    Resume {
        /// The output file.
        path: PathBuf,
        /// What in it does not belong to this run.
        problems: Problems,
    },
    /// A count that takes a total past `u64::MAX`: no perft that finishes is that large,
    /// so the line is not a genuine result.
    #[error("{at}: {generator} count {count} takes the total past 2^64 - 1 (after {total}); not a genuine result")]
    Overflow {
        /// The line that overflowed.
        at: Location,
        /// The generator.
        generator: String,
        /// Its count on that line.
        count: u64,
        /// The total before it.
        total: u64,
    },
    /// Results that do not make up the split exactly once.
    #[error("results do not add up to split {split}:\n{problems}")]
    Inconsistent {
        /// The split.
        split: SplitId,
        /// Everything wrong, grouped.
        problems: Problems,
    },
}

/// One way a set of results fails to cover a split exactly once; similar lines are grouped
/// so a whole missing or repeated shard is one problem, not hundreds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Problem {
    /// Jobs without a result.
    Missing {
        /// Their indices, ascending.
        indices: Vec<u64>,
        /// How many jobs the split has.
        jobs: u64,
        /// The shard count the results were run with, when they all say the same.
        shards: Option<u64>,
    },
    /// Jobs with fewer computations than a quorum merge asks for.
    Short {
        /// Their indices, ascending.
        indices: Vec<u64>,
        /// The computations asked for per job.
        quorum: usize,
    },
    /// Jobs with more than one result, all found in the same files.
    Duplicated {
        /// The files, one entry per occurrence.
        files: Vec<PathBuf>,
        /// The jobs, ascending.
        indices: Vec<u64>,
        /// Where the first of them appears.
        first: Vec<Location>,
    },
    /// In a quorum merge, counts of jobs by a computation that had counted them
    /// already: a copy of a run's lines (a file copied or hard-linked keeps its run) or
    /// a rerun with the same generator, keys and table, which repeats any bug.
    SameComputation {
        /// Where the first count and the repeat are.
        files: Vec<PathBuf>,
        /// Whether it is a copy of one run's lines rather than a second run.
        copy: bool,
        /// The computation.
        computation: String,
        /// The jobs, ascending.
        indices: Vec<u64>,
    },
    /// Result lines of another split.
    Foreign {
        /// The lines (in one file).
        lines: Vec<Location>,
        /// Their split id.
        found: SplitId,
        /// The split being merged.
        expected: SplitId,
    },
    /// Result lines whose job index does not exist.
    OutOfRange {
        /// The lines (in one file).
        lines: Vec<Location>,
        /// The first such index.
        index: u64,
        /// How many jobs the split has.
        jobs: u64,
    },
    /// Result lines with another set of generators than the first result.
    Generators {
        /// The lines (in one file).
        lines: Vec<Location>,
        /// Their generators.
        found: Vec<String>,
        /// The generators of the run: the first result's, or those asked for.
        expected: Vec<String>,
    },
}

/// A job count as text: exact when it was counted, else rounded.
fn about(estimate: f64, exact: bool) -> String {
    if exact {
        format!("{estimate:.0}")
    } else {
        format!("about {estimate:.1e}")
    }
}

/// A size in bytes as text, in the unit that reads best.
fn bytes(n: f64) -> String {
    const UNITS: [&str; 4] = ["bytes", "kB", "MB", "GB"];
    let mut n = n;
    for unit in UNITS {
        if n < 1000.0 {
            return format!("about {n:.0} {unit}");
        }
        n /= 1000.0;
    }
    format!("about {:.1e} GB", n)
}

/// At most this many indices or lines are listed in a message.
const SHOWN: usize = 8;

fn sample<T: fmt::Display>(items: &[T]) -> String {
    let mut shown: Vec<String> = items.iter().take(SHOWN).map(T::to_string).collect();
    if items.len() > SHOWN {
        shown.push(format!("... ({} more)", items.len() - SHOWN));
    }
    shown.join(", ")
}

/// The jobs no result file has (`indices` of `jobs`), and with the shard count they
/// were run with, which shards they belong to: a shard missing whole is named so, and
/// what to run again is then plain (a lost shard, or a few jobs of one).
fn missing(
    f: &mut fmt::Formatter<'_>,
    indices: &[u64],
    jobs: u64,
    shards: Option<u64>,
) -> fmt::Result {
    write!(
        f,
        "missing {} of {jobs} jobs: {}",
        indices.len(),
        sample(indices)
    )?;
    let Some(n) = shards.filter(|&n| n > 0) else {
        return Ok(());
    };
    let mut per_shard: BTreeMap<u64, u64> = BTreeMap::new();
    for i in indices {
        *per_shard.entry(i % n).or_default() += 1;
    }
    let lacking: Vec<String> = per_shard
        .iter()
        .map(|(&s, k)| {
            let owned = jobs / n + u64::from(s < jobs % n);
            if *k == owned {
                format!("all of shard {s}/{n}")
            } else {
                format!("{k} of shard {s}/{n}")
            }
        })
        .collect();
    write!(f, " ({})", lacking.join(", "))
}

/// The result files that count the same jobs, as `a and b`.
fn both(files: &[PathBuf]) -> String {
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    names.join(" and ")
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing {
                indices,
                jobs,
                shards,
            } => missing(f, indices, *jobs, *shards),
            Problem::Short { indices, quorum } => write!(
                f,
                "{} jobs have fewer than the {quorum} computations asked for: {}",
                indices.len(),
                sample(indices)
            ),
            Problem::SameComputation {
                files,
                copy,
                computation,
                indices,
            } => {
                let what = if *copy {
                    "copies of one run's lines"
                } else {
                    "a rerun of the same computation"
                };
                write!(
                    f,
                    "{} jobs are counted by {computation} in both {}: {what}, not a second computation: {}",
                    indices.len(),
                    both(files),
                    sample(indices)
                )
            }
            Problem::Duplicated {
                files,
                indices,
                first,
            } => write!(
                f,
                "{} jobs have a result in each of {}: {} (the first at {})",
                indices.len(),
                both(files),
                sample(indices),
                sample(first)
            ),
            Problem::Foreign {
                lines,
                found,
                expected,
            } => write!(
                f,
                "{} result lines belong to split {found}, not {expected}: {}",
                lines.len(),
                sample(lines)
            ),
            Problem::OutOfRange { lines, index, jobs } => write!(
                f,
                "{} result lines name jobs the split does not have (it has {jobs}; first: job {index}): {}",
                lines.len(),
                sample(lines)
            ),
            Problem::Generators {
                lines,
                found,
                expected,
            } => write!(
                f,
                "{} result lines count with [{}] instead of [{}]: {}",
                lines.len(),
                found.join(", "),
                expected.join(", "),
                sample(lines)
            ),
        }
    }
}

/// Several problems, one per line.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Problems(pub(crate) Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.0.iter().map(|p| format!("  - {p}")).collect();
        f.write_str(&lines.join("\n"))
    }
}
