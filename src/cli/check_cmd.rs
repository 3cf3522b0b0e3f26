//! `xqdiff check`, and `xqdiff` with no subcommand: the whole verification with its
//! defaults (`crate::job::check`), a progress bar per phase, the phase table at the end,
//! and the report written as JSON, HTML and Markdown.

use super::engine_args::{show_findings, Answers, EngineFlags, RunFlags};
use super::out::{errln, outln, statusln};
use super::session::Session;
use super::{corpus_source, signals, CliError, CorpusUse, Outcome};
use crate::cli::progress::Progress;
use crate::job::check::{self, Config, EngineCheck, Observer, Unit};
use crate::job::report::{counted, html, markdown, Phase, RenderOptions, Report};
use crate::subject::crosscheck::Checked;
use clap::{Args, FromArgMatches};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// Arguments of `xqdiff check`.
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("protocol", |a| a.requires("engine")),
    mut_arg("options", |a| a.requires("engine")),
    mut_arg("ranks", |a| a.requires("engine")),
    mut_arg("fen_letters", |a| a.requires("engine")),
    mut_arg("timeout", |a| a.requires("engine")),
    mut_arg("start_timeout", |a| a.requires("engine")),
    mut_arg("engine_seconds", |a| a.requires("engine").conflicts_with("engine_positions")),
    mut_arg("engine_restarts", |a| a.requires("engine")),
    mut_arg("engine_reference", |a| a.requires("engine")),
)]
pub(super) struct CheckArgs {
    /// For CI: a perft budget of one million nodes a count, five seconds of fuzzing and
    /// twenty random engine positions, a few seconds in all.
    #[arg(long)]
    quick: bool,
    /// Seconds of fuzzing (default 60; 5 with --quick).
    #[arg(long, value_name = "SECONDS", value_parser = super::parse_seconds)]
    seconds: Option<u64>,
    /// Seed of the fuzz cases and the engine's random positions (default: from the
    /// clock, printed and recorded in the report).
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,
    /// Skip published perft counts above this many nodes (default 10000000; 1000000
    /// with --quick).
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// The regression corpus: replayed, and where findings are saved, those about
    /// --engine under `DIR/external/<engine>/`; it must exist (default: the repository's
    /// corpus/, wherever this is run from, else the read-only copy built into the
    /// program; without --corpus, findings about --engine go to the working folder's
    /// `xqdiff-findings/<engine>/`).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Keep findings out of the corpus (report only).
    #[arg(long)]
    no_save: bool,
    /// Where report.json, report.html and report.md are written.
    #[arg(long, default_value = "xqdiff-report", value_name = "DIR")]
    report_dir: PathBuf,
    /// Latin FEN letters on the report's boards instead of Chinese characters.
    #[arg(long)]
    latin: bool,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,
    /// Also check this external engine's perft; quotes group words
    /// (`--engine "fairy-stockfish"`).
    #[arg(long, value_name = "\"ENGINE [ARGS]\"")]
    engine: Option<String>,
    #[command(flatten)]
    engine_flags: EngineFlags,
    /// The engine's perft depth (suite positions: at most this, within --max-nodes).
    #[arg(long, default_value_t = 3, requires = "engine", value_name = "DEPTH", value_parser = crate::depth::parse)]
    engine_depth: u32,
    /// Random positions to ask the engine about (default 100; 20 with --quick).
    #[arg(long, requires = "engine", value_name = "N")]
    engine_positions: Option<usize>,
    #[command(flatten)]
    engine_run: RunFlags,
    /// Stop the engine check after this many distinct bugs that are not known (0: ask
    /// about every position).
    #[arg(long, default_value_t = 1, requires = "engine", value_name = "N")]
    engine_max_findings: usize,
    /// Known bugs: a file of signatures (one per line, a note after it), as `xqdiff fuzz`
    /// and `xqdiff engine --write-known` write them. Their findings are reported as known
    /// and do not fail the run.
    #[arg(long, value_name = "FILE")]
    known: Option<PathBuf>,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

impl CheckArgs {
    /// `xqdiff check` with no flags: what `xqdiff` alone runs.
    pub(super) fn defaults() -> Result<CheckArgs, CliError> {
        let matches = CheckArgs::augment_args(clap::Command::new("check"))
            .try_get_matches_from(["check"])
            .and_then(|m| CheckArgs::from_arg_matches(&m))
            .map_err(|e| CliError::Usage(e.to_string()))?;
        Ok(matches)
    }

    fn config(&self, seed: u64) -> Result<Config<'static>, CliError> {
        let engine = match &self.engine {
            None => None,
            Some(cmd) => {
                if self.engine_depth == 0 {
                    return Err(CliError::Usage("--engine-depth must be at least 1".into()));
                }
                Some(EngineCheck {
                    config: self.engine_flags.config(cmd, "--engine")?,
                    depth: self.engine_depth,
                    positions: super::positions(
                        "--engine-positions",
                        self.engine_positions
                            .unwrap_or(if self.quick { 20 } else { 100 }),
                    )?,
                    time: self.engine_run.time(),
                    reference: self.engine_run.reference(),
                    restarts: self.engine_run.restarts,
                    max_findings: self.engine_max_findings,
                    stop: Some(super::signals::install()),
                    named_corpus: self.corpus.clone(),
                })
            }
        };
        let mut config = Config::new(seed);
        config.max_nodes =
            self.max_nodes
                .unwrap_or(if self.quick { 1_000_000 } else { 10_000_000 });
        config.fuzz_time =
            Duration::from_secs(self.seconds.unwrap_or(if self.quick { 5 } else { 60 }));
        config.corpus = corpus_source(self.corpus.as_deref(), "--corpus", CorpusUse::Reads)?;
        config.save = !self.no_save;
        config.engine = engine;
        config.command = Some(super::json::command_line());
        config.known = super::load_known(self.known.as_deref())?;
        Ok(config)
    }
}

/// A progress bar for the running phase and a line for each finished one.
struct Terminal {
    bar: Mutex<Option<Progress>>,
    answers: Answers,
}

impl Terminal {
    fn bar(&self) -> std::sync::MutexGuard<'_, Option<Progress>> {
        // A worker that panicked while drawing leaves a bar that can still be cleared.
        self.bar.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Observer for Terminal {
    fn started(&self, phase: &str, number: usize, of: usize) {
        outln!("phase {number} of {of}: {phase}");
        *self.bar() = Some(Progress::new(phase, Unit::Positions));
    }

    fn progress(&self, done: u64, total: u64, unit: Unit, note: &str) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_unit(unit);
            bar.update(done, total);
            bar.message(note.to_owned());
        }
    }

    fn checked(&self, target: &Checked) {
        let bar = self.bar();
        self.answers.show(target, &|line| match bar.as_ref() {
            Some(bar) => bar.println(line),
            None => statusln!("{line}"),
        });
    }

    fn findings(&self, report: &crate::subject::crosscheck::Report) {
        let bar = self.bar();
        let head = |line: &str| match bar.as_ref() {
            Some(bar) => bar.println(line),
            None => statusln!("{line}"),
        };
        let rest = |text: &str| match bar.as_ref() {
            Some(bar) => bar.print_plain(text),
            None => super::out::text(format_args!("{text}")),
        };
        show_findings(report, &head, &rest);
    }

    fn note(&self, text: &str) {
        match self.bar().as_ref() {
            Some(bar) => bar.println(text),
            None => outln!("{text}"),
        }
    }

    fn finished(&self, phase: &Phase) {
        if let Some(bar) = self.bar().take() {
            bar.finish();
        }
        // The numbers are in the table at the end; this line is for a log to show
        // how far a run got.
        statusln!(
            "{}: {} ({})",
            phase.name,
            phase.status.as_str(),
            crate::job::report::duration(phase.seconds)
        );
    }
}

/// Runs `xqdiff check`: exit 0 when everything agreed, 1 on any disagreement, 2 when
/// a phase could not run or checked nothing, 128 + the signal's number when a signal
/// stopped it (the report is written first in every case).
pub(super) fn run(args: &CheckArgs) -> Result<Outcome, CliError> {
    let seed = args.seed.unwrap_or_else(super::clock_seed);
    let config = args.config(seed)?;
    let Session { pool, stop } = Session::start(args.threads)?;
    outln!(
        "xqdiff check: seed {seed}, {}, generators {}{}, perft up to {} nodes, {} s of \
         fuzzing, corpus {}",
        counted(pool.current_num_threads() as u64, "thread"),
        config.names().join(", "),
        config
            .engine
            .as_ref()
            .map_or_else(String::new, |e| format!(", engine {}", e.config.command)),
        config.max_nodes,
        config.fuzz_time.as_secs(),
        shown_corpus(&config.corpus)
    );
    if config.save && config.corpus.is_built_in() {
        outln!("{}", check::BUILT_IN_READ_ONLY);
    }
    let terminal = Terminal {
        bar: Mutex::new(None),
        answers: Answers::new("--engine-depth"),
    };
    let mut report = pool.install(|| check::run(&config, &terminal, stop))?;
    // Taken once, before the report is written: a script that sent SIGTERM must not
    // read a 0 or a 1 as "it ran to the end", and the report must say what the exit
    // code says. A signal after this point finds the work already done.
    report.signal = signals::received();
    for (i, d) in report.disagreements.iter().enumerate() {
        statusln!(
            "{} {} [{}] {}{}: {}",
            if d.known { "KNOWN" } else { "DISAGREEMENT" },
            i + 1,
            d.phase,
            d.check,
            d.odd_one_out
                .as_deref()
                .map_or_else(String::new, |o| format!(" (odd one out: {o})")),
            d.fen
        );
        if let Some(sig) = &d.signature {
            outln!("  bug: {sig}");
        }
        if let Some(file) = &d.corpus_file {
            outln!("  saved: {}", super::out::path(Path::new(file)));
        }
    }
    outln!();
    statusln!("{}", check::summary_table(&shown_paths(&report)).trim_end());
    let files = write_report(&report, &args.report_dir, args.latin)?;
    outln!("report: {}", files.join(", "));
    if let Some(sig) = report.signal {
        errln!(
            "xqdiff: interrupted by {}: the report covers what ran before it",
            signals::name(sig)
        );
    }
    super::session::conclude(report, args.json)
}

/// Writes report.json, report.html and report.md into `dir`; returns their paths.
fn write_report(report: &Report, dir: &Path, latin: bool) -> Result<Vec<String>, CliError> {
    let written =
        |path: PathBuf, source| CliError::from(crate::files::FileError::Write { path, source });
    let json = report.to_json().map_err(|e| {
        written(
            dir.join("report.json"),
            std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
        )
    })?;
    let html = html::render(report, &RenderOptions { latin });
    let markdown = markdown::render(report);
    let files: [(&str, &[u8]); 3] = [
        ("report.json", json.as_bytes()),
        ("report.html", html.as_bytes()),
        ("report.md", markdown.as_bytes()),
    ];
    let paths =
        crate::files::replace_set(dir, "report", &files).map_err(|e| written(dir.to_owned(), e))?;
    Ok(paths.iter().map(|p| super::out::path(p)).collect())
}

/// The corpus as the user reads it: a directory relative to the working folder.
fn shown_corpus(source: &crate::diff::corpus::Source) -> String {
    match source.dir() {
        Some(dir) => super::out::path(dir),
        None => source.to_string(),
    }
}

/// `report` with the paths the summary table shows relative to the working folder, so
/// its rows fit the terminal.
fn shown_paths(report: &Report) -> Report {
    let mut shown = report.clone();
    for phase in &mut shown.phases {
        if let Some(crate::job::report::PhaseDetails::Replay(r)) = &mut phase.details {
            if !r.built_in {
                r.dir = super::out::path(Path::new(&r.dir));
            }
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::super::{Cli, Command};
    use super::*;
    use clap::{CommandFactory, Parser};

    /// Each row: the flags after `xqdiff check`, then the perft budget, the seconds of
    /// fuzzing and the engine's random positions (`None`: no engine) they come to.
    #[test]
    fn quick_and_explicit_flags_set_the_budgets() {
        Cli::command().debug_assert();
        let table: &[(&[&str], u64, u64, Option<usize>)] = &[
            (&[], 10_000_000, 60, None),
            (&["--quick"], 1_000_000, 5, None),
            (
                &["--quick", "--seconds", "9", "--max-nodes", "7"],
                7,
                9,
                None,
            ),
            (&["--quick", "--engine", "e"], 1_000_000, 5, Some(20)),
            (&["--engine", "e"], 10_000_000, 60, Some(100)),
            (
                &["--engine", "e", "--engine-positions", "3"],
                10_000_000,
                60,
                Some(3),
            ),
        ];
        for &(flags, nodes, secs, positions) in table {
            let cli = Cli::try_parse_from(["xqdiff", "check"].iter().chain(flags))
                .unwrap_or_else(|e| panic!("{flags:?}: {e}"));
            let Some(Command::Check(args)) = cli.command else {
                panic!("{flags:?}: not parsed as check");
            };
            let config = args.config(1).unwrap();
            assert_eq!(config.max_nodes, nodes, "{flags:?}");
            assert_eq!(config.fuzz_time, Duration::from_secs(secs), "{flags:?}");
            assert_eq!(config.engine.map(|e| e.positions), positions, "{flags:?}");
        }
    }

    /// The engine phase runs as `xqdiff engine` does: the fastest built-in as the
    /// reference and five restarts unless told otherwise, and a time when given one.
    #[test]
    fn the_engine_phase_takes_engine_run_flags() {
        use crate::subject::crosscheck::Reference;
        let table: &[(&[&str], Option<u64>, Reference, usize)] = &[
            (&[], None, Reference::FASTEST, 5),
            (
                &[
                    "--engine-seconds",
                    "9",
                    "--engine-reference",
                    "all",
                    "--engine-restarts",
                    "0",
                ],
                Some(9),
                Reference::All,
                0,
            ),
        ];
        for &(flags, secs, reference, restarts) in table {
            let cli = Cli::try_parse_from(["xqdiff", "check", "--engine", "e"].iter().chain(flags))
                .unwrap_or_else(|e| panic!("{flags:?}: {e}"));
            let Some(Command::Check(args)) = cli.command else {
                panic!("{flags:?}: not parsed as check");
            };
            let engine = args.config(1).unwrap().engine.unwrap();
            assert_eq!(engine.time, secs.map(Duration::from_secs), "{flags:?}");
            assert_eq!(engine.reference, reference, "{flags:?}");
            assert_eq!(engine.restarts, restarts, "{flags:?}");
        }
    }

    /// What `xqdiff` alone runs is `xqdiff check` with nothing given.
    #[test]
    fn the_default_job_is_check_with_its_defaults() {
        let args = CheckArgs::defaults().unwrap();
        assert!(!args.quick && !args.no_save && args.engine.is_none());
        assert_eq!(args.report_dir, PathBuf::from("xqdiff-report"));
        assert_eq!(args.corpus, None);
        let config = args.config(1).unwrap();
        assert_eq!(
            config.corpus,
            crate::diff::corpus::Source::default_location()
        );
        assert!(Cli::try_parse_from(["xqdiff"]).unwrap().command.is_none());
    }
}
