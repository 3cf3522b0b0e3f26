//! `xqdiff perft --emit-jobs` and `xqdiff perft --jobs`: a perft cut into jobs, and one
//! shard of those jobs run. `xqdiff merge` (in `merge_cmd`) adds the shards back up.
//!
//! Not a command of its own but the split run `perft` starts from its flags: kept apart
//! from `perft_cmd` so commands never import each other.

use super::hash_args::{HashArgs, HashTable};
use super::out::{errln, outln, rate};
use super::{pool, signals, CliError, Outcome};
use crate::cli::progress::Progress;
use crate::generators::face::Generator;
use crate::generators::perft_hash::Hashing;
use crate::job::check::Unit;
use crate::job::split::files::{read_jobs, resume, write_result, JobsFile};
use crate::job::split::frontier::{emit, Emitted};
use crate::job::split::shard::count_job;
use crate::job::split::{add_counts, Job, JobResult, Location, Shard, SplitError, SplitId};
use crate::position::Position;
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The flags of `xqdiff perft` that split a perft across machines.
#[derive(clap::Args, Debug, Default)]
pub(super) struct SplitArgs {
    /// Write the jobs of this perft to FILE (JSON lines) instead of counting: one job per
    /// path --split-depth plies down. Needs --depth and --split-depth.
    #[arg(
        long,
        value_name = "FILE",
        requires_all = ["depth", "split_depth"],
        conflicts_with_all = ["suite", "divide", "jobs"]
    )]
    emit_jobs: Option<PathBuf>,
    /// With --emit-jobs: one job per position at the cut rather than per path, weighted by
    /// the paths that reach it (merge multiplies back), so transpositions are counted once.
    #[arg(long, requires = "emit_jobs")]
    unique: bool,
    /// Plies from the root to where --emit-jobs cuts the tree into jobs.
    #[arg(long, value_name = "DEPTH", requires = "emit_jobs", value_parser = crate::depth::parse)]
    split_depth: Option<u32>,
    /// Run jobs from FILE (written by --emit-jobs) and write one result line per job.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["fen", "depth", "suite", "divide"]
    )]
    jobs: Option<PathBuf>,
    /// Run only shard I of N: the jobs whose index % N == I (default: every job).
    #[arg(long, value_name = "I/N", requires = "jobs")]
    shard: Option<String>,
    /// What the I of --shard counts from: 0, or 1 for 1-based task ids.
    #[arg(long, value_name = "0|1", default_value_t = 0, requires = "shard",
          value_parser = clap::value_parser!(u64).range(0..=1))]
    shard_base: u64,
    /// Append result lines to FILE, skipping jobs it already holds: each is checked
    /// against its job, and repeats or a line cut short are removed (default: stdout,
    /// with the summary on stderr).
    #[arg(long, value_name = "FILE", requires = "jobs")]
    output: Option<PathBuf>,
}

impl SplitArgs {
    /// Whether a split flag was given, so `perft` runs [`run`] instead of counting.
    pub(super) fn requested(&self) -> bool {
        self.emit_jobs.is_some() || self.jobs.is_some()
    }
}

/// Runs the split side of `xqdiff perft`: emits jobs or runs a shard of them.
pub(super) fn run(
    args: &SplitArgs,
    fen: Option<&str>,
    depth: Option<u32>,
    generators: &[&dyn Generator],
    threads: usize,
    hash: &HashArgs,
) -> Result<Outcome, CliError> {
    match (&args.emit_jobs, &args.jobs) {
        (Some(out), _) => {
            // clap makes both required with --emit-jobs.
            let (Some(depth), Some(split_depth)) = (depth, args.split_depth) else {
                return Err(CliError::Usage(
                    "--emit-jobs needs --depth and --split-depth".into(),
                ));
            };
            let root = match fen {
                Some(fen) => Position::from_fen(fen)?,
                None => Position::startpos(),
            };
            emit_jobs(out, &root, depth, split_depth, args.unique, generators)
        }
        (None, Some(jobs)) => {
            let shard = match &args.shard {
                Some(text) => Shard::parse(text, args.shard_base)?,
                None => Shard::WHOLE,
            };
            let pool = pool(threads)?;
            let hash = hash.tables(generators.len())?;
            // `-` is stdout, as it is for every file xqdiff writes.
            let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
            pool.install(|| run_shard(jobs, shard, output, generators, hash.as_ref()))
        }
        (None, None) => Err(CliError::Usage(
            "neither --emit-jobs nor --jobs was given".into(),
        )),
    }
}

fn emit_jobs(
    out: &Path,
    root: &Position,
    depth: u32,
    split_depth: u32,
    unique: bool,
    generators: &[&dyn Generator],
) -> Result<Outcome, CliError> {
    let started = Instant::now();
    match emit(
        out,
        root,
        depth,
        split_depth,
        unique,
        generators,
        signals::install(),
    )? {
        Emitted::Written(h) => {
            // With `--emit-jobs -` stdout carries the jobs, so the summary goes beside.
            let say = |line: String| {
                if out.as_os_str() == "-" {
                    errln!("{line}");
                } else {
                    outln!("{line}");
                }
            };
            say(format!(
                "split {}: perft {} of {} cut at ply {} into {} jobs of depth {} ({} paths{})",
                h.split,
                h.depth,
                h.root,
                h.split_depth,
                h.jobs,
                h.depth - h.split_depth,
                h.paths.unwrap_or(h.jobs),
                if unique { ", one job per position" } else { "" }
            ));
            say(format!(
                "wrote {} in {:.2} s; the moves above the cut agree in {}",
                out.display(),
                started.elapsed().as_secs_f64(),
                h.checked_by.join(", ")
            ));
            Ok(Outcome::Agree)
        }
        Emitted::Disagree(d) => {
            outln!("generators DISAGREE above the cut, so no jobs were written:");
            outln!("  {d}");
            outln!("  (`xqdiff moves --fen` on that position lists each generator's moves)");
            Ok(Outcome::Disagree)
        }
        Emitted::Stopped => {
            // Only a signal raises the flag; SIGINT stands in should its number be lost.
            let sig = signals::received().unwrap_or(signal_hook::consts::SIGINT);
            errln!(
                "xqdiff: {} stopped the split; {} was not written",
                signals::name(sig),
                out.display()
            );
            Ok(Outcome::Interrupted(sig))
        }
    }
}

/// Where result lines go, and where the human summary goes so the two never mix.
struct Sink {
    out: Box<dyn Write>,
    name: PathBuf,
    /// Lines written so far, counting those already in a resumed file.
    lines: usize,
    summary_on_stderr: bool,
}

impl Sink {
    fn say(&self, line: &str) {
        if self.summary_on_stderr {
            errln!("{line}");
        } else {
            outln!("{line}");
        }
    }
}

/// Runs the jobs of `shard` not yet in the output, writing a checked result line for
/// each, and says what the shard's generators counted and where they disagree.
fn run_shard(
    jobs_path: &Path,
    shard: Shard,
    output: Option<&Path>,
    generators: &[&dyn Generator],
    hash: Option<&HashTable>,
) -> Result<Outcome, CliError> {
    let file = read_jobs(jobs_path, |i| shard.owns(i))?;
    let (header, jobs) = (&file.header, &file.jobs);
    let names: Vec<String> = {
        let mut n: Vec<String> = generators.iter().map(|g| g.name().to_owned()).collect();
        n.sort();
        n
    };
    let (mut sink, done) = open_sink(output, &file, &names)?;
    let already: HashSet<u64> = done
        .iter()
        .filter(|(_, r)| shard.owns(r.index))
        .map(|(_, r)| r.index)
        .collect();
    let todo: Vec<&Job> = jobs
        .iter()
        .filter(|j| !already.contains(&j.index))
        .collect();
    announce(&sink, &file, shard, todo.len(), already.len(), hash);
    // A hashed result line is as good as the hashed path: checked first on the first
    // jobs to run, nothing written if it fails.
    let first: Vec<Position> = todo.iter().take(2).map(|j| j.position.clone()).collect();
    if hash.is_some() && !super::hash_args::hashing_trusted(&first, generators) {
        return Ok(Outcome::Disagree);
    }
    let hashing: Option<Vec<Hashing<'_>>> =
        hash.map(|h| (0..generators.len()).map(|i| h.hashing(i)).collect());
    let bar = Progress::new(&format!("shard {shard}"), Unit::Jobs);
    bar.update(0, todo.len() as u64);
    let started = Instant::now();
    let mut summary = Summary::default();
    let weight = |index: u64| {
        usize::try_from(index)
            .ok()
            .and_then(|i| file.weights.get(i))
            .copied()
            .unwrap_or(1)
    };
    for (at, r) in done.iter().filter(|(_, r)| already.contains(&r.index)) {
        summary.add(at, r, weight(r.index), false)?;
    }
    let stop = signals::install();
    let counted_jobs = Counting {
        split: header.split,
        shard,
        generators,
        hashing: hashing.as_deref(),
        stop,
    };
    count_jobs(&counted_jobs, todo, &mut sink, &mut summary, &weight, &bar)?;
    bar.finish();
    if let Some(sig) = signals::received() {
        return Ok(stopped(&sink, sig));
    }
    summary.report(&sink, jobs, started.elapsed().as_secs_f64());
    Ok(if summary.disagreeing.is_empty() {
        Outcome::Agree
    } else {
        Outcome::Disagree
    })
}

/// The shard's first lines: which jobs of which split it runs, what is left of them
/// after a resumed output, and the hash table that counts them (its key seed is what
/// reproduces a hashed count).
fn announce(
    sink: &Sink,
    file: &JobsFile,
    shard: Shard,
    to_run: usize,
    already: usize,
    hash: Option<&HashTable>,
) {
    let header = &file.header;
    sink.say(&format!(
        "split {} shard {shard}: {} of {} jobs (perft {} of {}, cut at ply {}), {to_run} to run, {already} already in {}",
        header.split,
        file.jobs.len(),
        header.jobs,
        header.depth,
        header.root,
        header.split_depth,
        sink.name.display()
    ));
    if let Some(h) = hash {
        sink.say(&format!("hash {}", h.describe()));
    }
}

/// How a shard a signal stopped ends. The lines written are whole and checked: a rerun
/// with the same --output skips them, so saying how many there are is enough. A closed
/// pipe is said by the exit status alone.
fn stopped(sink: &Sink, sig: i32) -> Outcome {
    if sig != super::out::SIGPIPE {
        sink.say(&format!(
            "{} stopped the shard after {} lines in {}",
            signals::name(sig),
            sink.lines,
            sink.name.display()
        ));
    }
    Outcome::Interrupted(sig)
}

/// Where a shard's result lines go: the `--output` file, resumed (what it holds is
/// returned, with where each line is), or standard output.
fn open_sink(
    output: Option<&Path>,
    file: &JobsFile,
    names: &[String],
) -> Result<(Sink, Vec<(Location, JobResult)>), CliError> {
    let Some(path) = output else {
        let sink = Sink {
            out: Box::new(std::io::stdout()),
            name: PathBuf::from("stdout"),
            lines: 0,
            summary_on_stderr: true,
        };
        return Ok((sink, Vec::new()));
    };
    let resumed = resume(path, file, names)?;
    let sink = Sink {
        out: Box::new(resumed.file),
        name: path.to_owned(),
        lines: resumed.lines,
        summary_on_stderr: false,
    };
    if let Some(at) = &resumed.dropped {
        sink.say(&format!(
            "{at}: dropped a result line cut short; its job runs again"
        ));
    }
    if resumed.duplicates > 0 {
        sink.say(&format!(
            "{}: removed {} repeated result lines",
            path.display(),
            resumed.duplicates
        ));
    }
    Ok((sink, resumed.done))
}

/// What counts a shard's jobs: the split and shard they belong to, the generators and
/// their tables, and the flag a signal sets.
struct Counting<'a> {
    split: SplitId,
    shard: Shard,
    generators: &'a [&'a dyn Generator],
    hashing: Option<&'a [Hashing<'a>]>,
    stop: &'static std::sync::atomic::AtomicBool,
}

/// Counts `todo` in order, writing each result line as it is done (so a stopped run
/// resumes after it) and adding it to `summary`; stops early on a signal.
fn count_jobs(
    counting: &Counting<'_>,
    todo: Vec<&Job>,
    sink: &mut Sink,
    summary: &mut Summary,
    weight: &dyn Fn(u64) -> u64,
    bar: &Progress,
) -> Result<(), CliError> {
    let started = Instant::now();
    // Names this run in every line it writes: a quorum merge takes two lines of one
    // run, however copied, as one computation.
    let run = format!("{:016x}", super::clock_seed());
    for job in todo {
        let Some(mut result) = count_job(
            counting.split,
            counting.shard,
            job,
            counting.generators,
            counting.hashing,
            counting.stop,
        ) else {
            break;
        };
        result.run = Some(run.clone());
        write_result(&mut sink.out, &result).map_err(|source| {
            SplitError::from(crate::files::FileError::Write {
                path: sink.name.clone(),
                source,
            })
        })?;
        sink.lines += 1;
        let at = Location {
            path: sink.name.clone(),
            line: sink.lines,
        };
        summary.add(&at, &result, weight(result.index), true)?;
        bar.inc(1);
        let secs = started.elapsed().as_secs_f64();
        if secs > 0.0 {
            bar.message(format!(
                "{:.1} M nodes/s",
                summary.run_nodes as f64 / secs / 1e6
            ));
        }
    }
    Ok(())
}

#[derive(Default)]
struct Summary {
    totals: BTreeMap<String, u64>,
    seconds: BTreeMap<String, f64>,
    /// Nodes counted by this run (all generators), for the rate on the progress bar.
    run_nodes: u64,
    disagreeing: Vec<JobResult>,
}

impl Summary {
    /// Adds a result found `at` for a job of `weight`, `fresh` when this run counted it
    /// rather than found it in the output.
    fn add(
        &mut self,
        at: &Location,
        r: &JobResult,
        weight: u64,
        fresh: bool,
    ) -> Result<(), SplitError> {
        add_counts(&mut self.totals, &r.counts, weight, at)?;
        if fresh {
            // Only a rate is shown from it; a saturated rate is still the right message.
            let nodes = r.counts.values().fold(0u64, |a, &n| a.saturating_add(n));
            self.run_nodes = self.run_nodes.saturating_add(nodes);
        }
        for (g, s) in &r.seconds {
            *self.seconds.entry(g.clone()).or_default() += s;
        }
        if !r.agrees() {
            self.disagreeing.push(r.clone());
        }
        Ok(())
    }

    fn report(&self, sink: &Sink, jobs: &[Job], wall: f64) {
        for (g, n) in &self.totals {
            let secs = self.seconds.get(g).copied().unwrap_or(0.0);
            sink.say(&format!(
                "{g:<10} {n:>14} nodes {secs:>10.3} s in jobs  {}",
                rate(*n, secs)
            ));
        }
        sink.say(&format!("shard finished in {wall:.3} s"));
        if self.disagreeing.is_empty() {
            if self.totals.len() > 1 {
                sink.say(&format!(
                    "all {} generators agree on every job",
                    self.totals.len()
                ));
            }
            return;
        }
        sink.say(&format!(
            "generators DISAGREE on {} jobs:",
            self.disagreeing.len()
        ));
        for r in &self.disagreeing {
            let counts: Vec<String> = r.counts.iter().map(|(g, n)| format!("{g} {n}")).collect();
            let job = jobs.iter().find(|j| j.index == r.index);
            let place = job.map_or_else(String::new, |j| {
                let path: Vec<String> = j.path.iter().map(|m| m.to_string()).collect();
                format!(
                    " [{}] {} depth {}",
                    path.join(" "),
                    j.position.fen(),
                    j.depth
                )
            });
            sink.say(&format!("  job {}{place}: {}", r.index, counts.join(", ")));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::split::shard::overflowing_results;

    /// A shard resumed into an output whose lines verify but whose counts add past
    /// 2^64 - 1 is refused, naming the line: wrapped, two counts of 2^63 would add to a
    /// small total that agrees. No perft reaches such counts, so only lines sealed in
    /// process can carry them.
    #[test]
    fn counts_that_overflow_in_a_resumed_shard_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (jobs, huge) = overflowing_results(dir.path());
        let bitboard = crate::generators::by_name("bitboard").unwrap();
        let refused = run_shard(&jobs, Shard::WHOLE, Some(&huge), &[bitboard], None);
        let said = match refused {
            Err(CliError::Split(e @ SplitError::Overflow { .. })) => e.to_string(),
            Err(e) => panic!("refused, but not as an overflow: {e}"),
            Ok(_) => panic!("not refused"),
        };
        let at = format!("{}:2: bitboard count", huge.display());
        assert!(said.contains(&at), "{at:?} in {said}");
        assert!(said.contains("past 2^64 - 1"), "{said}");
    }
}
