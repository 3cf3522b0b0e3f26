//! The whole verification as one run, phase by phase, into one [`Report`]: the
//! published perft suite on every generator, the regression corpus, a fuzz campaign,
//! the metamorphic (mirror and colour-swap) checks, and, when an external engine is
//! given, the engine check. `xqdiff check` is this module plus printing; the phases
//! live here so they can be run and tested without the command line.
//!
//! A phase never stops the run: what goes wrong in one (an engine that will not start,
//! a corpus that cannot be read) is that phase's `error` status and message, and the
//! report is complete either way.
//!
//! A pass has to mean something. Perft, replay, fuzz and metamorphic are always asked
//! for (their budgets are settings, and a budget that leaves nothing to do is a
//! mistake, not a way to leave a phase out), so one of them that checks nothing (no
//! published count within the node budget, no fuzz case in the time, an empty corpus)
//! is an `error` saying why. The engine phase is asked for only by giving an engine;
//! without one it is `skipped`. A stop request (a signal) makes the running phase
//! `interrupted` and every phase after it `interrupted` with "did not run".

pub(crate) mod engine;
mod metamorphic;
pub(crate) mod perft;
mod summary;

pub(crate) use summary::first_line;
pub(crate) use summary::summary_table;

use crate::diff::campaign;
use crate::diff::corpus;
use crate::diff::finding::replay::replayed;
use crate::epd::{parse_suite, SuiteEntry, REFERENCE_SUITE};
use crate::generators;
use crate::generators::face::Generator;
use crate::job::report::{seconds, GeneratorInfo, Phase, PhaseDetails, Report, Status};
use crate::position::Position;
use crate::subject::external::EngineConfig;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The name of the perft phase in reports.
pub(crate) const PERFT: &str = "perft";
/// The name of the corpus replay phase.
pub(crate) const REPLAY: &str = "replay";
/// The name of the fuzz phase.
pub(crate) const FUZZ: &str = "fuzz";
/// The name of the metamorphic phase.
const METAMORPHIC: &str = "metamorphic";
/// The name of the engine phase.
pub(crate) const ENGINE: &str = "engine";

/// What a run that would save findings says when its corpus is the built-in copy.
pub(crate) const BUILT_IN_READ_ONLY: &str =
    "findings not saved: built-in corpus is read-only; pass --corpus DIR to save";

/// The message of a phase that never started because the run was stopped first.
const DID_NOT_RUN: &str = "did not run: interrupted";

/// An external engine to check, and how hard.
#[derive(Clone, Debug)]
pub(crate) struct EngineCheck {
    /// How to start and speak to it.
    pub(crate) config: EngineConfig,
    /// The perft depth asked (suite positions: at most this, within the node budget).
    pub(crate) depth: u32,
    /// Seeded random positions to ask about, besides the start, suite and corpus.
    pub(crate) positions: usize,
    /// Check for this long instead, making fresh positions as the run goes after the
    /// start, suite and corpus (`positions` is then not used).
    pub(crate) time: Option<Duration>,
    /// Which built-ins count each position.
    pub(crate) reference: crate::subject::crosscheck::Reference,
    /// How many new failures (crashes or hangs) the engine is started again after;
    /// one more of a failure already met is free ([`crate::subject::crosscheck::Options::restarts`]).
    pub(crate) restarts: usize,
    /// Stop after this many differences; 0 checks every position. Each difference
    /// costs a descent and a minimization with the engine in the loop.
    pub(crate) max_findings: usize,
    /// A stop request that also ends a wait for the engine's answer at once (the CLI's
    /// signal flag); without it a stop waits for the answer being read.
    pub(crate) stop: Option<&'static std::sync::atomic::AtomicBool>,
    /// The corpus named on the command line, if one was: findings about the engine go
    /// under it (`external/<engine>/`), else into the working folder's
    /// `xqdiff-findings/<engine>/` (`crate::subject::crosscheck::findings_dir`).
    pub(crate) named_corpus: Option<std::path::PathBuf>,
}

/// What a check runs on and how long it may take.
pub(crate) struct Config<'a> {
    /// The in-process generators compared, in the order reports list them.
    pub(crate) generators: Vec<&'a dyn Generator>,
    /// The perft suite: its published counts are the perft phase, and its positions
    /// (with the corpus's) are the metamorphic phase's roots.
    pub(crate) suite: Vec<SuiteEntry>,
    /// Published counts above this many nodes are not run.
    pub(crate) max_nodes: u64,
    /// The regression corpus: replayed, used as extra fuzz starts and metamorphic
    /// roots, and where findings are saved when it is a directory.
    pub(crate) corpus: corpus::Source,
    /// Whether findings are written into the corpus (only ever into a directory: the
    /// built-in copy is read-only).
    pub(crate) save: bool,
    /// The seed of every random choice (fuzz cases, the engine's random positions).
    pub(crate) seed: u64,
    /// How long the fuzz campaign runs.
    pub(crate) fuzz_time: Duration,
    /// An external engine to check as well.
    pub(crate) engine: Option<EngineCheck>,
    /// The command line, recorded in the report.
    pub(crate) command: Option<String>,
    /// Known bugs (`--known`): reported as known in every phase, never failing the run.
    pub(crate) known: crate::diff::finding::known::Known,
}

impl Config<'static> {
    /// The defaults of `xqdiff check`: the built-in generators on the reference suite
    /// up to ten million nodes a count, the default corpus
    /// ([`corpus::Source::default_location`]), sixty seconds of fuzzing, findings
    /// saved, no engine.
    pub(crate) fn new(seed: u64) -> Config<'static> {
        Config {
            generators: generators::registry(),
            // The suite is compiled in and covered by tests; an empty list would only
            // make the perft phase count nothing, never a wrong answer.
            suite: parse_suite(REFERENCE_SUITE).unwrap_or_default(),
            max_nodes: 10_000_000,
            corpus: corpus::Source::default_location(),
            save: true,
            seed,
            fuzz_time: Duration::from_secs(60),
            engine: None,
            command: None,
            known: Default::default(),
        }
    }
}

impl Config<'_> {
    /// The corpus directory when findings are saved: none with `save` off or with the
    /// built-in corpus.
    pub(crate) fn save_dir(&self) -> Option<&Path> {
        self.corpus.dir().filter(|_| self.save)
    }

    /// The generators' names, in order.
    pub(crate) fn names(&self) -> Vec<String> {
        self.generators
            .iter()
            .map(|g| g.name().to_owned())
            .collect()
    }
}

/// What a phase's progress counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Leaves of perft trees.
    Nodes,
    /// Subtrees of a perft tree, each counted whole.
    Subtrees,
    /// Positions checked.
    Positions,
    /// Fuzzing cases.
    Cases,
    /// Jobs of a split perft.
    Jobs,
    /// Seconds of a run with a time limit.
    Seconds,
}

impl Unit {
    /// Every unit, in declaration order (`Unit::X as usize` indexes it).
    pub(crate) const ALL: [Unit; 6] = [
        Unit::Nodes,
        Unit::Subtrees,
        Unit::Positions,
        Unit::Cases,
        Unit::Jobs,
        Unit::Seconds,
    ];

    /// The unit as a progress bar shows it after the counts.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Unit::Nodes => "nodes",
            Unit::Subtrees => "subtrees",
            Unit::Positions => "positions",
            Unit::Cases => "cases",
            Unit::Jobs => "jobs",
            Unit::Seconds => "s",
        }
    }
}

/// Hears how a check is going. Every method has a default that does nothing; a
/// command line draws progress bars and prints a line per finished phase.
pub(crate) trait Observer: Sync {
    /// A phase begins: the `number`-th (from 1) of `of`.
    fn started(&self, _phase: &str, _number: usize, _of: usize) {}
    /// Work in the running phase: `done` of `total` units of `unit` (a `total` of 0 is
    /// unknown), and what it is doing. Called from worker threads.
    fn progress(&self, _done: u64, _total: u64, _unit: Unit, _note: &str) {}
    /// A position the engine phase asked about was answered (and, when it differed,
    /// its difference named), to show as it happens.
    fn checked(&self, _target: &crate::subject::crosscheck::Checked) {}
    /// The engine phase's findings, once its check is over, to show in full as
    /// `xqdiff engine` shows them (cause, moves, "Reproduce with:").
    fn findings(&self, _report: &crate::subject::crosscheck::Report) {}
    /// Lines the running phase has to say beside its numbers (a timed engine run's
    /// positions made and their feature table).
    fn note(&self, _text: &str) {}
    /// A phase ended (or was skipped) as `phase` says.
    fn finished(&self, _phase: &Phase) {}
}

/// Why a check cannot start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckError {
    /// No generators to run.
    #[error("no generators to check: give at least one")]
    NoGenerators,
    /// The engine was asked for perft 0, which compares nothing.
    #[error("engine depth 0: the engine check needs depth 1 or more")]
    EngineDepth,
}

/// What every phase is handed: the run's settings, who hears of its progress, and the
/// flag a signal raises.
#[derive(Clone, Copy)]
pub(super) struct Running<'a> {
    config: &'a Config<'a>,
    observer: &'a dyn Observer,
    stop: &'a AtomicBool,
}

/// Runs every phase in order on the current rayon pool and returns the report.
/// Setting `stop` (from a signal handler) ends the running phase early with what it
/// has, marked `interrupted`, and the ones after it do not run.
pub(crate) fn run(
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

    type PhaseFn = fn(&mut Report, &Running<'_>);
    let running = Running {
        config,
        observer,
        stop,
    };
    let phases: [(&str, PhaseFn); 5] = [
        (PERFT, perft::run),
        (REPLAY, replay),
        (FUZZ, fuzz),
        (METAMORPHIC, metamorphic::run),
        (ENGINE, engine::run),
    ];
    let of = phases.len();
    for (number, (name, phase)) in phases.into_iter().enumerate() {
        observer.started(name, number + 1, of);
        let before = report.phases.len();
        if name == ENGINE && config.engine.is_none() {
            report.phases.push(Phase::skipped(
                ENGINE,
                "not asked for: no engine given (--engine)",
            ));
        } else if stop.load(Ordering::Relaxed) {
            report.phases.push(Phase {
                status: Status::Interrupted,
                ..Phase::skipped(name, DID_NOT_RUN)
            });
        } else {
            phase(&mut report, &running);
            // Read after the phase: a stop that came while it ran cut it short, or
            // may have (the replay does not look), and the report must not claim more.
            let stopped = stop.load(Ordering::Relaxed);
            if let Some(done) = report.phases.get_mut(before) {
                settle(done, stopped, config);
            }
        }
        if let Some(done) = report.phases.last() {
            observer.finished(done);
        }
    }
    Ok(report)
}

/// A finished phase's status once more: `interrupted` when a stop came while it ran
/// (unless it had found a disagreement, which is the more useful news and keeps it
/// `failed`), and `error` when it passed having checked nothing.
fn settle(phase: &mut Phase, stopped: bool, config: &Config<'_>) {
    if stopped {
        if phase.status != Status::Failed {
            phase.status = Status::Interrupted;
        }
        note_first(phase, "interrupted while it ran");
    } else if phase.status == Status::Passed {
        if let Some(why) = nothing_checked(phase, config) {
            phase.status = Status::Error;
            note_first(phase, &why);
        }
    }
}

/// Puts `note` before whatever the phase's message says already.
fn note_first(phase: &mut Phase, note: &str) {
    phase.message = Some(match phase.message.take() {
        Some(m) if !m.is_empty() => format!("{note}; {m}"),
        _ => note.to_owned(),
    });
}

/// Why a phase that ran counted nothing, if it did: the setting or the input that left
/// it nothing to do, so the message says what to change.
fn nothing_checked(phase: &Phase, config: &Config<'_>) -> Option<String> {
    match phase.details.as_ref()? {
        PhaseDetails::Perft(p) if p.rows.is_empty() => {
            let smallest = config
                .suite
                .iter()
                .flat_map(|e| e.counts.iter().map(|&(_, n)| n))
                .min();
            Some(match smallest {
                Some(n) => format!(
                    "--max-nodes {} leaves no published count to run (the smallest is {n})",
                    config.max_nodes
                ),
                None => "the perft suite has no published counts to run".to_owned(),
            })
        }
        PhaseDetails::Replay(r) if r.cases == 0 => Some(match &config.corpus {
            corpus::Source::Dir(dir) => {
                format!("the corpus {} holds no cases (*.txt files)", dir.display())
            }
            corpus::Source::BuiltIn => "no corpus: this build has no built-in cases and no \
                                        corpus directory was given (--corpus DIR)"
                .to_owned(),
        }),
        PhaseDetails::Fuzz(f) if f.cases == 0 => Some(format!(
            "no fuzz case ran: --seconds {} leaves no time to fuzz",
            config.fuzz_time.as_secs_f64()
        )),
        PhaseDetails::Metamorphic(m) if m.positions == 0 => {
            Some("no position to check: the suite and the corpus have none".to_owned())
        }
        PhaseDetails::Engine(e) if e.positions == 0 => Some(
            "no position to ask the engine about: the node budget, the corpus and \
             --engine-positions left none"
                .to_owned(),
        ),
        _ => None,
    }
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

/// The corpus's positions, labelled by file name: extra playout starts, metamorphic
/// roots and engine targets. None when the corpus cannot be read (the replay phase
/// reports that).
fn corpus_positions(source: &corpus::Source) -> Vec<(String, Position)> {
    source
        .load()
        .map(|loaded| loaded.labelled())
        .unwrap_or_default()
}

/// Phase 2: every corpus case through the oracle. A corpus that is not there is an
/// error: the default one always is (a directory or the built-in copy), so a missing
/// one was named by someone who expected it to be replayed.
fn replay(report: &mut Report, running: &Running<'_>) {
    let config = running.config;
    let started = Instant::now();
    match config.corpus.replay(&config.generators) {
        Ok(r) => {
            let found = replayed(&r, &config.known, &config.generators);
            report.add_replay(REPLAY, &config.corpus, &r, started.elapsed(), &found);
            if config.save && config.corpus.is_built_in() {
                if let Some(phase) = report.phases.last_mut() {
                    note_first(phase, BUILT_IN_READ_ONLY);
                }
            }
        }
        Err(e) => report.phases.push(errored(
            REPLAY,
            started.elapsed(),
            format!("cannot read the corpus {}: {e}", config.corpus),
        )),
    }
}

/// Phase 3: a timed fuzz campaign; playouts also start from the corpus's positions.
fn fuzz(report: &mut Report, running: &Running<'_>) {
    let (config, observer, stop) = (running.config, running.observer, running.stop);
    let cfg = campaign::Config {
        seed: config.seed,
        cases: None,
        duration: Some(config.fuzz_time),
        corpus: config.save_dir().map(Path::to_path_buf),
        extra_starts: corpus_positions(&config.corpus)
            .into_iter()
            .map(|(_, p)| p)
            .collect(),
        known: config.known.clone(),
        ..campaign::Config::default()
    };
    let started = Instant::now();
    let total = config.fuzz_time.as_secs().max(1);
    let r = campaign::run(&cfg, &config.generators, stop, &|cases, found| {
        let done = started.elapsed().as_secs().min(total);
        observer.progress(
            done,
            total,
            Unit::Seconds,
            &format!(
                "seed {}: {}, {}",
                config.seed,
                crate::job::report::counted(cases, "case"),
                crate::job::report::counted(found as u64, "disagreement")
            ),
        );
    });
    report.add_fuzz(FUZZ, &r);
}

// At the end: tests/layout.rs reads a module's code up to its first `#[cfg(test)]`.
#[cfg(test)]
mod tests;
