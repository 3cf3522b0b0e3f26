//! The `xqdiff` command line. `main.rs` only calls [`main`]; everything it does lives here
//! so it can be tested.

mod bench_cmd;
mod check_cmd;
mod engine_cmd;
mod fuzz_cmd;
mod merge_cmd;
mod minimize_cmd;
mod moves_cmd;
mod perft_cmd;
mod replay_cmd;
mod report_cmd;
mod seeds_cmd;
mod split_cmd;

use crate::engine::Engine;
use crate::epd::EpdError;
use crate::fen::FenError;
use crate::generators;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// Differential verification of Xiangqi move generators.
#[derive(Parser, Debug)]
#[command(name = "xqdiff", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The whole verification with good defaults: the perft suite, the corpus, a fuzz
    /// campaign, the metamorphic checks (and an external engine with --engine); writes
    /// a report. What `xqdiff` alone runs.
    Check(check_cmd::CheckArgs),
    /// Count leaf nodes of the legal-move tree and compare generators.
    Perft(perft_cmd::PerftArgs),
    /// List each generator's legal moves for a position and their differences.
    Moves(moves_cmd::MovesArgs),
    /// Measure perft speed of each generator, one thread and all threads.
    Bench(bench_cmd::BenchArgs),
    /// Fuzz the generators against each other in-process; findings are minimized and saved.
    Fuzz(fuzz_cmd::FuzzArgs),
    /// Shrink a position on which the generators disagree and save it to the corpus.
    Minimize(minimize_cmd::MinimizeArgs),
    /// Run every regression-corpus case through the oracle.
    Replay(replay_cmd::ReplayArgs),
    /// Write seed inputs for the fuzz targets from the corpus and the reference suite.
    FuzzSeeds(seeds_cmd::SeedsArgs),
    /// Check an external engine's perft against the built-in generators; differences are
    /// followed down, minimized and saved.
    Engine(engine_cmd::EngineArgs),
    /// Render a saved correctness report (JSON) as HTML or Markdown.
    Report(report_cmd::ReportArgs),
    /// Add up the result files of a split perft's shards and check them against each other.
    Merge(merge_cmd::MergeArgs),
}

/// How a command ended; becomes the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Everything agreed with everything else and with the expected numbers (exit 0).
    Agree,
    /// Some generator disagreed, or a count missed its expected value (exit 1).
    Disagree,
}

/// Bad usage or bad input (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The `--fen` argument.
    #[error("bad --fen: {0}")]
    Fen(#[from] FenError),
    /// A suite file's content.
    #[error("bad suite {path}: {source}")]
    Suite {
        /// The file.
        path: String,
        /// What is wrong in it.
        source: EpdError,
    },
    /// A file that could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A file or directory that could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A `--generator` that is not registered.
    #[error("unknown generator {name:?}; expected one of: all, {known}")]
    UnknownGenerator {
        /// What was asked for.
        name: String,
        /// The registered names.
        known: String,
    },
    /// Flags that do not go together, or a required one missing.
    #[error("{0}")]
    Usage(String),
    /// An external engine could not be driven: it would not start, or failed mid-check.
    #[error("engine failed during {during}: {source}")]
    Engine {
        /// What it was doing: start-up, or the label of the position it was asked about.
        during: String,
        /// What went wrong, with the engine's last lines.
        source: crate::subject::SubjectError,
    },
    /// A file that is not a report this build can read.
    #[error("bad report {path}: {source}")]
    Report {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: crate::report::ReportError,
    },
    /// A split perft's jobs or results files, or the flags naming them.
    #[error(transparent)]
    Split(#[from] crate::split::SplitError),
    /// A phase of a check could not run to the end (its report is written all the same).
    #[error("check incomplete: {0}")]
    Incomplete(String),
    /// The worker pool could not start.
    #[error("cannot start {threads} worker threads: {message}")]
    Threads {
        /// How many were asked for.
        threads: usize,
        /// Rayon's reason.
        message: String,
    },
}

/// Parses `std::env::args`, runs the command, and maps the result to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with success, usage errors to stderr.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match run(cli) {
        Ok(Outcome::Agree) => ExitCode::SUCCESS,
        Ok(Outcome::Disagree) => ExitCode::from(1),
        Err(e) => {
            eprintln!("xqdiff: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Outcome, CliError> {
    match cli.command {
        Some(Command::Perft(args)) => perft_cmd::run(&args),
        Some(Command::Moves(args)) => moves_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args),
        Some(Command::Fuzz(args)) => fuzz_cmd::run(&args),
        Some(Command::Minimize(args)) => minimize_cmd::run(&args),
        Some(Command::Replay(args)) => replay_cmd::run(&args),
        Some(Command::FuzzSeeds(args)) => seeds_cmd::run(&args),
        Some(Command::Engine(args)) => engine_cmd::run(&args),
        Some(Command::Report(args)) => report_cmd::run(&args),
        Some(Command::Merge(args)) => merge_cmd::run(&args),
        Some(Command::Check(args)) => check_cmd::run(&args),
        // The built-in default job: the whole check with its defaults.
        None => check_cmd::run(&check_cmd::CheckArgs::defaults()?),
    }
}

/// The generators a `--generator` value selects: one by name, or `all`.
fn select_generators(name: &str) -> Result<Vec<&'static dyn Engine>, CliError> {
    if name == "all" {
        return Ok(generators::registry());
    }
    generators::by_name(name)
        .map(|g| vec![g])
        .ok_or_else(|| CliError::UnknownGenerator {
            name: name.to_owned(),
            known: generators::names().join(", "),
        })
}

/// The generators a repeatable `--generator` selects, in registry order, each once.
fn select_generator_list(names: &[String]) -> Result<Vec<&'static dyn Engine>, CliError> {
    let mut wanted: Vec<&'static dyn Engine> = Vec::new();
    for name in names {
        wanted.extend(select_generators(name)?);
    }
    Ok(generators::registry()
        .into_iter()
        .filter(|g| wanted.iter().any(|w| w.name() == g.name()))
        .collect())
}

/// A rayon pool of `threads` workers (0 means one per core).
fn pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Threads {
            threads,
            message: e.to_string(),
        })
}
