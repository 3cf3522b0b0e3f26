//! `xqdiff engine`: an external engine's perft against the built-in generators, on the
//! start position, a perft suite, the corpus and seeded random positions. A difference
//! is followed down, minimized, printed beside the consensus and saved in the working
//! folder's `xqdiff-findings/<engine>/` (`<corpus>/external/<engine>/` with `--corpus`).
//!
//! The run is `xqdiff engine`'s, from its flags, and `xqdiff replay --cmd`'s, from
//! settings of its own ([`EngineArgs::replaying`]): one home that is no command's, so
//! commands never import each other.

use super::engine_args::{show_findings, Answers, EngineFlags, ReferenceArg, RunFlags};
use super::json::report_of;
use super::out::{errln, out, outln, statusln};
use super::session::conclude;
use super::session::Session;
use super::{corpus_source, signals, CliError, CorpusUse, Outcome};
use crate::cli::progress::Progress;
use crate::diff::corpus::Source;
use crate::generators::face::Generator;
use crate::generators::registry;
use crate::job::check::engine::{record, Asked};
use crate::job::check::Unit;
use crate::job::report::counted;
use crate::job::report::EngineInfo;
use crate::position::Position;
use crate::subject::crosscheck::{self, targets, Checked, Options, Status, Target};
use crate::subject::external::{EngineConfig, ExternalEngine};
use crate::subject::Subject;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `xqdiff engine`.
#[derive(clap::Args, Debug)]
// The shared flags under the short names this command has always had; the prefixed
// ones stay as aliases so a line copied from `xqdiff check` works here too.
#[command(
    mut_arg("protocol", |a| a.long("protocol").visible_alias("engine-protocol")),
    mut_arg("options", |a| a.long("option").visible_alias("engine-option")),
    mut_arg("ranks", |a| a.long("ranks").visible_alias("engine-ranks")),
    mut_arg("fen_letters", |a| a.long("fen-letters").visible_alias("engine-fen-letters")),
    mut_arg("timeout", |a| a.long("timeout").visible_alias("engine-timeout")),
    mut_arg("start_timeout", |a| a.long("start-timeout").visible_alias("engine-start-timeout")),
    mut_arg("compare", |a| a.long("compare").visible_alias("engine-compare")),
    mut_arg("rules", |a| a.long("rules").visible_alias("engine-rules")),
    mut_arg("engine_seconds", |a| a
        .long("seconds")
        .visible_alias("engine-seconds")
        .conflicts_with_all(["positions", "fen"])),
    mut_arg("engine_restarts", |a| a.long("restarts").visible_alias("engine-restarts")),
    mut_arg("engine_reference", |a| a.long("reference").visible_alias("engine-reference")),
)]
pub(super) struct EngineArgs {
    /// The engine's command line; quotes group words (`--cmd "sjaakii -xboard"`).
    #[arg(long, value_name = "\"ENGINE [ARGS]\"")]
    cmd: String,
    #[command(flatten)]
    engine: EngineFlags,
    /// Perft depth (suite positions: at most this).
    #[arg(long, default_value_t = 3, value_name = "DEPTH", value_parser = crate::depth::parse)]
    depth: u32,
    /// How many random positions to check, from seeded playouts.
    #[arg(long, default_value_t = 100, value_name = "N")]
    positions: usize,
    #[command(flatten)]
    run: RunFlags,
    /// Check these positions alone, at --depth (repeat for more): no suite, corpus or
    /// random positions. A finding's reproduce line is this.
    #[arg(long, value_name = "FEN", allow_hyphen_values = true)]
    fen: Vec<String>,
    /// Seed of the random positions (default: from the clock, printed).
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,
    /// Suite positions to check: `reference` (the built-in published suite), an EPD
    /// file, or `none`.
    #[arg(long, default_value = "reference", value_name = "reference|FILE|none")]
    suite: String,
    /// The corpus: its positions are checked, and findings about the engine go to
    /// `DIR/external/<engine>/`; it must exist (default: the repository's corpus/, else
    /// the read-only copy built into the program; without --corpus, findings about the
    /// engine go to the working folder's `xqdiff-findings/<engine>/`).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Save no findings (print only).
    #[arg(long)]
    no_save: bool,
    /// Run the start and each suite position at the deepest depth (up to --depth) whose
    /// published count is at most this many nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop after this many distinct bugs that are not known (0: check every position).
    #[arg(long, default_value_t = 1, value_name = "N")]
    max_findings: usize,
    /// Known bugs: a file of signatures (one per line, a note after it). Their findings
    /// are reported as known and neither fail the run nor count toward --max-findings.
    #[arg(long, value_name = "FILE")]
    known: Option<PathBuf>,
    /// Write the signatures of the bugs this run found to FILE (for --known).
    #[arg(long, value_name = "FILE")]
    write_known: Option<PathBuf>,
    /// Worker threads for the built-in generators (0 = one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

impl EngineArgs {
    /// `xqdiff replay --cmd`: the engine asked again every finding saved about it in
    /// `corpus` (and the corpus's own cases, and the start position), nothing random,
    /// no suite, every difference followed, nothing saved.
    pub(super) fn replaying(
        cmd: String,
        engine: EngineFlags,
        corpus: Option<PathBuf>,
        known: Option<PathBuf>,
        json: super::json::JsonArg,
    ) -> EngineArgs {
        EngineArgs {
            cmd,
            engine,
            depth: 3,
            positions: 0,
            run: RunFlags {
                seconds: None,
                restarts: 5,
                reference: ReferenceArg::Fastest,
            },
            fen: Vec::new(),
            seed: Some(0),
            suite: "none".into(),
            corpus,
            no_save: true,
            max_nodes: None,
            max_findings: 0,
            known,
            write_known: None,
            threads: 0,
            json,
        }
    }
}

/// Every position to check ([`targets::all`], as the check's engine phase asks them),
/// and how many of them are the corpus's own cases.
fn collect_targets(
    args: &EngineArgs,
    corpus: &Source,
    seed: u64,
) -> Result<(Vec<Target>, usize), CliError> {
    if !args.fen.is_empty() {
        let fens = args
            .fen
            .iter()
            .enumerate()
            .map(|(i, fen)| {
                Ok(Target {
                    label: format!("--fen {}", i + 1),
                    position: Position::from_fen(fen)?,
                    depth: args.depth,
                })
            })
            .collect::<Result<_, CliError>>()?;
        return Ok((fens, 0));
    }
    let entries = match args.suite.as_str() {
        "none" => Vec::new(),
        path => super::load_suite(path)?,
    };
    let loaded = super::load_corpus(corpus)?;
    let sources = targets::Sources {
        suite: &entries,
        corpus: loaded.labelled(),
        depth: args.depth,
        max_nodes: args.max_nodes,
        // A run given a time makes its random positions as it goes.
        random: match args.run.seconds {
            Some(_) => 0,
            None => super::positions("--positions", args.positions)?,
        },
        seed,
    };
    Ok((targets::all(&sources, &registry()), loaded.cases.len()))
}

/// Puts the findings saved about the engine `name` in the corpus (`--corpus DIR`:
/// `DIR/external/<name>/`, or `DIR/<name>/` for a findings folder) first in `list`,
/// so they are asked again before anything new, and says how many there are. A corpus
/// given by name that holds findings about other engines only, and no case of its
/// own, would check nothing of what it holds: that is a usage error, never a pass.
pub(super) fn with_saved(
    list: &mut Vec<Target>,
    corpus: &Source,
    given: bool,
    own_cases: usize,
    name: &str,
    depth: u32,
) -> Result<(), CliError> {
    let Some(dir) = corpus.dir() else {
        return Ok(());
    };
    let saved = targets::saved(dir, name, depth).map_err(|source| {
        CliError::from(crate::files::FileError::Read {
            path: dir.to_owned(),
            source,
        })
    })?;
    for e in &saved.damaged {
        errln!("xqdiff: skipped damaged corpus file: {e}");
    }
    let n = saved
        .put_first(list, dir, name, given && own_cases == 0)
        .map_err(CliError::Usage)?;
    if n > 0 {
        outln!(
            "re-checking {} saved about {name} in {}",
            counted(n as u64, "finding"),
            super::out::path(dir)
        );
    }
    Ok(())
}

/// Runs `xqdiff engine`.
pub(super) fn run(args: &EngineArgs) -> Result<Outcome, CliError> {
    if args.depth == 0 {
        return Err(CliError::Usage("--depth must be at least 1".into()));
    }
    let seed = args.seed.unwrap_or_else(super::clock_seed);
    let corpus = corpus_source(args.corpus.as_deref(), "--corpus", CorpusUse::Reads)?;
    let (mut list, own_cases) = collect_targets(args, &corpus, seed)?;
    let config = args.engine.config(&args.cmd, "--cmd")?;
    // Ctrl-C (or SIGTERM, SIGHUP) ends the check between positions, keeping what was
    // found for the summary below; mid-answer, the driver gives up its wait and ends
    // the engine's process group. Installed before the engine starts, so a signal
    // during start-up leaves no engine behind either.
    let Session { pool, stop } = Session::start(args.threads)?;
    // The time given is the whole run's, starting the engine included.
    let deadline = args
        .run
        .time()
        .and_then(|time| Instant::now().checked_add(time));
    let mut engine = match start(&config, stop, deadline)? {
        Ok(engine) => engine,
        Err(interrupted) => return Ok(interrupted),
    };
    let name = engine.name();
    if args.fen.is_empty() {
        let given = args.corpus.is_some();
        with_saved(&mut list, &corpus, given, own_cases, &name, args.depth)?;
    }
    announce(args, &engine, &list, seed);
    let engines = crosscheck::fastest_first(&registry());
    let setting = Setting {
        seed,
        corpus: &corpus,
        config: &config,
        stop,
        deadline,
    };
    let run = ask(args, &setting, &mut engine, &engines, &list, &pool)?;
    drop(engine);
    let (report, fresh) = (run.report, run.fresh);
    show_report(args, &report, fresh.as_ref(), &corpus);
    if let Some(path) = &args.write_known {
        write_known_of(path, &name, &report)?;
    }
    let mut doc = report_of(&engines);
    doc.seed = Some(seed);
    doc.engines.push(EngineInfo::from_config(&config, &name));
    let asked = Asked {
        generators: &engines,
        depth: args.depth,
        stop,
    };
    record(&mut doc, &asked, &report, fresh.as_ref(), Vec::new());
    // The exit code is the report's, as `report --from` would read it; the lines
    // below only say it in words.
    let outcome = conclude(doc, args.json);
    verdict(report, outcome, &config, seed)
}

/// What a run settled before its engine started, and what asking the engine needs of
/// it: the seed, the corpus, how the engine is spoken to, the flag a signal raises and
/// when the run's time is up.
struct Setting<'a> {
    seed: u64,
    corpus: &'a Source,
    config: &'a EngineConfig,
    stop: &'static AtomicBool,
    deadline: Option<Instant>,
}

/// Asks the started engine every position of `list` (and, with a time, fresh ones)
/// against the built-ins, with a bar that follows the run, each position's line as it
/// is answered, and findings saved where the flags say.
fn ask(
    args: &EngineArgs,
    setting: &Setting<'_>,
    engine: &mut ExternalEngine,
    engines: &[&dyn Generator],
    list: &[Target],
    pool: &rayon::ThreadPool,
) -> Result<crosscheck::Run, CliError> {
    let name = engine.name();
    let started = Instant::now();
    let bar = match args.run.seconds {
        Some(_) => Progress::new("engine", Unit::Seconds),
        None => Progress::new("engine", Unit::Positions),
    };
    // Each position's line as soon as it is answered, so a log shows the run as it goes.
    let answers = Answers::new("--depth");
    let print_checked = |c: &Checked| answers.show(c, &|line| bar.println(line));
    let show = |s: &Status<'_>| {
        match (s.of, args.run.seconds) {
            (Some(of), _) => bar.update(s.index as u64, of as u64),
            (None, Some(secs)) => bar.update(started.elapsed().as_secs().min(secs), secs),
            (None, None) => bar.update(s.index as u64, 0),
        }
        bar.message(format!("{}: {}", s.label, s.stage));
    };
    // Findings about the engine go to a folder of the user's even when the corpus is the
    // read-only built-in copy; only the built-ins' own disagreements need a corpus.
    let save = (!args.no_save)
        .then(|| setting.corpus.dir().map(Path::to_path_buf))
        .flatten();
    let speech = engine.speech();
    let reproduce = |pos: &Position, depth: u32| speech.reproduce(pos, depth);
    let options = Options {
        subject_dir: (!args.no_save)
            .then(|| crosscheck::findings_dir(args.corpus.as_deref(), &name)),
        corpus: save,
        max_findings: args.max_findings,
        known: super::load_known(args.known.as_deref())?,
        found_by: crosscheck::found_by(
            &setting.config.command,
            args.engine.protocol.as_str(),
            args.depth,
            setting.seed,
        ),
        reproduce: Some(&reproduce),
        progress: Some(&show),
        on_checked: Some(&print_checked),
        stop: Some(setting.stop),
        reference: args.run.reference(),
        restarts: args.run.restarts,
        deadline: setting.deadline,
    };
    let timed = args.run.time().map(|time| crosscheck::Timed {
        time,
        seed: setting.seed,
        depth: args.depth,
    });
    let run = pool.install(|| crosscheck::run(engine, engines, list, timed.as_ref(), &options))?;
    bar.finish();
    Ok(run)
}

/// The engine started, or the outcome of a run a signal ended while it started.
fn start(
    config: &EngineConfig,
    stop: &'static std::sync::atomic::AtomicBool,
    deadline: Option<Instant>,
) -> Result<Result<ExternalEngine, Outcome>, CliError> {
    match ExternalEngine::start_within(config, Some(stop), deadline) {
        Ok(engine) => Ok(Ok(engine)),
        Err(source) => {
            if let Some(sig) = signals::received() {
                outln!(
                    "interrupted by {} while the engine started",
                    signals::name(sig)
                );
                return Ok(Err(Outcome::Interrupted(sig)));
            }
            Err(CliError::Engine {
                during: "start-up".into(),
                source,
            })
        }
    }
}

/// The run's first lines: the engine, what it is asked, and what it said of itself.
fn announce(args: &EngineArgs, engine: &ExternalEngine, list: &[Target], seed: u64) {
    let asked = match args.run.seconds {
        Some(secs) => format!(
            "{} then fresh ones for {secs} s",
            counted(list.len() as u64, "position")
        ),
        None => counted(list.len() as u64, "position"),
    };
    outln!(
        "engine {} ({}, {}), depth {}, {asked} (seed {seed}), built-ins {}",
        engine.name(),
        args.cmd,
        args.engine.protocol.as_str(),
        args.depth,
        crate::generators::names().join(", ")
    );
    for note in engine.notes() {
        outln!("note: {note}");
    }
}

/// What the run found, after its positions' lines: the restarts, each finding's block,
/// what could not be saved, what was set aside, the fresh positions, the time.
fn show_report(
    args: &EngineArgs,
    report: &crosscheck::Report,
    fresh: Option<&crosscheck::Made>,
    corpus: &Source,
) {
    if let Some(note) = report.restarts_note() {
        outln!("{note}");
    }
    show_findings(report, &|line| statusln!("{line}"), &|rest| out!("{rest}"));
    if !report.ours.is_empty() && !args.no_save && corpus.is_built_in() {
        outln!("{}", crate::job::check::BUILT_IN_READ_ONLY);
    }
    for e in &report.write_errors {
        errln!("xqdiff: could not save a finding: {e}");
    }
    if let Some(set) = &report.set_aside {
        out!("{set}");
    }
    if let Some(made) = fresh {
        // The table is a detail of a run that went on; --quiet keeps to the verdicts.
        if !super::out::quiet() {
            outln!("{}", made.summary());
        }
    }
    if let Some(note) = report.out_of_time_note() {
        outln!("{note}");
    }
}

/// `--write-known`: the signature of every bug the run found, with where it was first.
fn write_known_of(path: &Path, name: &str, report: &crosscheck::Report) -> Result<(), CliError> {
    let sigs: Vec<_> = report
        .findings
        .iter()
        .filter_map(|f| {
            Some((
                f.signature.clone(),
                format!("{name}, first on {}", f.trail()?.label),
            ))
        })
        .chain(report.crashes.iter().map(|c| {
            let note = format!("{name}, first on {}", c.label);
            (c.signature(), note)
        }))
        .collect::<Vec<_>>();
    let sigs: Vec<_> = sigs.iter().map(|(s, n)| (s, n.clone())).collect();
    super::write_known(path, &sigs)
}

/// The run's last line, in words, and its outcome: a run the engine failed in with
/// nothing found is the engine's error.
fn verdict(
    report: crosscheck::Report,
    outcome: Result<Outcome, CliError>,
    config: &EngineConfig,
    seed: u64,
) -> Result<Outcome, CliError> {
    let name = report.subject.clone();
    let (subject_time, builtins_time, confirmed) = report.time_spent();
    let summary = format!(
        "{}, {} compared in {:.1} s (seed {seed}); the engine answered in {:.2} s, the \
         built-ins counted in {:.2} s, all of them on {} of the positions",
        counted(report.checked.len() as u64, "position"),
        counted(report.nodes_compared(), "node"),
        report.elapsed.as_secs_f64(),
        subject_time.as_secs_f64(),
        builtins_time.as_secs_f64(),
        confirmed,
    );
    let crashes = report.crashes.iter().filter(|c| !c.known).count() as u64;
    let new = report.new_findings().count() as u64 + crashes;
    let known = (report.findings.len() + report.crashes.len()) as u64 - new;
    if let Ok(Outcome::Interrupted(sig)) = outcome {
        statusln!(
            "interrupted by {}: {} ({known} known) so far; {summary}",
            signals::name(sig),
            counted(new, "distinct bug")
        );
        return outcome;
    }
    if new > 0 || !report.ours.is_empty() {
        // The difference is the news even if the engine then failed; say both.
        if let Some(f) = &report.failure {
            errln!("xqdiff: the engine then failed on {}: {}", f.label, f.error);
        }
        statusln!(
            "{name}: {} ({known} known), {} among the built-ins; {summary}",
            counted(new, "distinct bug"),
            counted(report.ours.len() as u64, "disagreement")
        );
        if let Some(hint) = report.into_check_hint(config.protocol.moves_mode()) {
            outln!("{hint}");
        }
        return outcome;
    }
    if let Some(f) = report.failure {
        outln!("{summary} before the engine failed");
        return Err(CliError::Engine {
            during: f.label,
            source: f.error,
        });
    }
    if known > 0 {
        statusln!("{name}: only known bugs ({known}); {summary}");
    } else {
        statusln!("agreement: {name} matches the built-in generators on {summary}");
    }
    outcome
}
