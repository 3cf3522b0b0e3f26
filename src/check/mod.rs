//! The whole verification as one run, phase by phase, into one [`Report`]: the
//! published perft suite on every generator, the regression corpus, a fuzz campaign,
//! the metamorphic (mirror and colour-swap) checks, and, when an external engine is
//! given, the engine check. `xqdiff check` is this module plus printing; the phases
//! live here so they can be run and tested without the command line.
//!
//! A phase never stops the run: what goes wrong in one (an engine that will not start,
//! a corpus that cannot be read) is that phase's `error` status and message, and the
//! report is complete either way.

mod disputes;
mod engine;
mod metamorphic;
mod perft;
mod summary;

pub(crate) use summary::first_line;
pub use summary::summary_table;

use crate::campaign;
use crate::corpus;
use crate::engine::Engine;
use crate::epd::{parse_suite, SuiteEntry, REFERENCE_SUITE};
use crate::external::EngineConfig;
use crate::generators;
use crate::position::Position;
use crate::report::{seconds, GeneratorInfo, Phase, Report, Status};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The name of the perft phase in reports.
pub const PERFT: &str = "perft";
/// The name of the corpus replay phase.
pub const REPLAY: &str = "replay";
/// The name of the fuzz phase.
pub const FUZZ: &str = "fuzz";
/// The name of the metamorphic phase.
pub const METAMORPHIC: &str = "metamorphic";
/// The name of the engine phase.
pub const ENGINE: &str = "engine";

/// An external engine to check, and how hard.
#[derive(Clone, Debug)]
pub struct EngineCheck {
    /// How to start and speak to it.
    pub config: EngineConfig,
    /// The perft depth asked (suite positions: at most this, within the node budget).
    pub depth: u32,
    /// Seeded random positions to ask about, besides the start, suite and corpus.
    pub positions: usize,
    /// Stop after this many differences; 0 checks every position. Each difference
    /// costs a descent and a minimization with the engine in the loop.
    pub max_findings: usize,
}

/// What a check runs on and how long it may take.
pub struct Config<'a> {
    /// The in-process generators compared, in the order reports list them.
    pub generators: Vec<&'a dyn Engine>,
    /// The perft suite: its published counts are the perft phase, and its positions
    /// (with the corpus's) are the metamorphic phase's roots.
    pub suite: Vec<SuiteEntry>,
    /// Published counts above this many nodes are not run.
    pub max_nodes: u64,
    /// The regression corpus: replayed, used as extra fuzz starts, and where findings
    /// are saved.
    pub corpus: PathBuf,
    /// Whether findings are written into the corpus.
    pub save: bool,
    /// The seed of every random choice (fuzz cases, the engine's random positions).
    pub seed: u64,
    /// How long the fuzz campaign runs.
    pub fuzz_time: Duration,
    /// An external engine to check as well.
    pub engine: Option<EngineCheck>,
    /// The command line, recorded in the report.
    pub command: Option<String>,
}

impl Config<'static> {
    /// The defaults of `xqdiff check`: the built-in generators on the reference suite
    /// up to ten million nodes a count, the `corpus` directory, sixty seconds of
    /// fuzzing, findings saved, no engine.
    pub fn new(seed: u64) -> Config<'static> {
        Config {
            generators: generators::registry(),
            // The suite is compiled in and covered by tests; an empty list would only
            // make the perft phase count nothing, never a wrong answer.
            suite: parse_suite(REFERENCE_SUITE).unwrap_or_default(),
            max_nodes: 10_000_000,
            corpus: PathBuf::from("corpus"),
            save: true,
            seed,
            fuzz_time: Duration::from_secs(60),
            engine: None,
            command: None,
        }
    }
}

impl Config<'_> {
    /// The corpus directory when findings are saved.
    fn save_dir(&self) -> Option<&Path> {
        self.save.then_some(self.corpus.as_path())
    }

    /// The generators' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.generators
            .iter()
            .map(|g| g.name().to_owned())
            .collect()
    }
}

/// Hears how a check is going. Every method has a default that does nothing; a
/// command line draws progress bars and prints a line per finished phase.
pub trait Observer: Sync {
    /// A phase begins.
    fn started(&self, _phase: &str) {}
    /// Work in the running phase: `done` of `total` units, and what it is doing.
    /// Called from worker threads.
    fn progress(&self, _done: u64, _total: u64, _note: &str) {}
    /// A phase ended (or was skipped) as `phase` says.
    fn finished(&self, _phase: &Phase) {}
}

/// An observer that ignores everything.
pub struct Quiet;

impl Observer for Quiet {}

/// Why a check cannot start.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// No generators to run.
    #[error("no generators to check: give at least one")]
    NoGenerators,
    /// The engine was asked for perft 0, which compares nothing.
    #[error("engine depth 0: the engine check needs depth 1 or more")]
    EngineDepth,
}

/// Runs every phase in order on the current rayon pool and returns the report.
/// Setting `stop` (from a Ctrl-C handler) ends the running phase early with what it
/// has and skips the ones after it.
pub fn run(
    config: &Config<'_>,
    observer: &dyn Observer,
    stop: &AtomicBool,
) -> Result<Report, CheckError> {
    if config.generators.is_empty() {
        return Err(CheckError::NoGenerators);
    }
    if config.engine.as_ref().is_some_and(|e| e.depth == 0) {
        return Err(CheckError::EngineDepth);
    }
    let mut report = Report::new();
    report.command.clone_from(&config.command);
    report.seed = Some(config.seed);
    report.generators = GeneratorInfo::list(&config.generators);

    type PhaseFn = fn(&mut Report, &Config<'_>, &dyn Observer, &AtomicBool);
    let mut phases: Vec<(&str, PhaseFn)> = vec![
        (PERFT, perft::run),
        (REPLAY, replay),
        (FUZZ, fuzz),
        (METAMORPHIC, metamorphic::run),
    ];
    if config.engine.is_some() {
        phases.push((ENGINE, engine::run));
    }
    for (name, phase) in phases {
        observer.started(name);
        if stop.load(Ordering::Relaxed) {
            report
                .phases
                .push(Phase::skipped(name, "stopped before it began"));
        } else {
            phase(&mut report, config, observer, stop);
        }
        if let Some(done) = report.phases.last() {
            observer.finished(done);
        }
    }
    Ok(report)
}

/// A phase that could not run, with why.
fn errored(name: &str, elapsed: Duration, message: String) -> Phase {
    Phase {
        name: name.to_owned(),
        status: Status::Error,
        seconds: seconds(elapsed),
        message: Some(message),
        details: None,
    }
}

/// The corpus's positions, as extra playout starts; none when there is no corpus
/// (the replay phase reports an unreadable one).
fn corpus_positions(dir: &Path) -> Vec<(String, Position)> {
    corpus::load_dir(dir)
        .map(|loaded| {
            loaded
                .cases
                .into_iter()
                .map(|(path, case)| {
                    let label = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    (label, case.position)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Phase 2: every corpus case through the oracle. No corpus directory is a skip, not
/// an error: a fresh checkout elsewhere has none yet.
fn replay(report: &mut Report, config: &Config<'_>, _: &dyn Observer, _: &AtomicBool) {
    let started = Instant::now();
    match corpus::replay(&config.corpus, &config.generators) {
        Ok(r) => report.add_replay(REPLAY, &config.corpus, &r, started.elapsed()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => report.phases.push(Phase::skipped(
            REPLAY,
            &format!("no corpus directory {}", config.corpus.display()),
        )),
        Err(e) => report.phases.push(errored(
            REPLAY,
            started.elapsed(),
            format!("cannot read {}: {e}", config.corpus.display()),
        )),
    }
}

/// Phase 3: a timed fuzz campaign; playouts also start from the corpus's positions.
fn fuzz(report: &mut Report, config: &Config<'_>, observer: &dyn Observer, stop: &AtomicBool) {
    let cfg = campaign::Config {
        seed: config.seed,
        cases: None,
        duration: Some(config.fuzz_time),
        corpus: config.save_dir().map(Path::to_path_buf),
        extra_starts: corpus_positions(&config.corpus)
            .into_iter()
            .map(|(_, p)| p)
            .collect(),
        ..campaign::Config::default()
    };
    let started = Instant::now();
    let total = config.fuzz_time.as_secs().max(1);
    let r = campaign::run(&cfg, &config.generators, stop, &|cases, found| {
        let done = started.elapsed().as_secs().min(total);
        observer.progress(
            done,
            total,
            &format!(
                "{cases} cases, {found} disagreements (seed {})",
                config.seed
            ),
        );
    });
    report.add_fuzz(FUZZ, &r, &cfg);
}
