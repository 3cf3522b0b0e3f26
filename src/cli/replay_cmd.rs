//! `xqdiff replay`: every corpus case through the oracle.

use super::json::report_of;
use super::out::{errln, outln, statusln};
use super::{corpus_source, load_known, CliError, CorpusUse, Outcome};
use crate::diff::finding::replay::replayed;
use crate::generators::registry;
use crate::job::check::REPLAY;
use crate::job::report::counted;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `xqdiff replay`.
#[derive(clap::Args, Debug)]
// The engine's flags under `xqdiff engine`'s names, and only beside `--cmd`.
#[command(
    mut_arg("protocol", |a| a.long("protocol").visible_alias("engine-protocol").requires("cmd")),
    mut_arg("options", |a| a.long("option").visible_alias("engine-option").requires("cmd")),
    mut_arg("ranks", |a| a.long("ranks").visible_alias("engine-ranks").requires("cmd")),
    mut_arg("fen_letters", |a| a.long("fen-letters").visible_alias("engine-fen-letters").requires("cmd")),
    mut_arg("timeout", |a| a.long("timeout").visible_alias("engine-timeout").requires("cmd")),
    mut_arg("compare", |a| a.long("compare").visible_alias("engine-compare").requires("cmd")),
    mut_arg("rules", |a| a.long("rules").visible_alias("engine-rules").requires("cmd")),
)]
pub(super) struct ReplayArgs {
    /// Replay the findings saved about this external engine instead (under
    /// `DIR/external/<engine>/`, or `DIR/<engine>/` for an `xqdiff-findings` folder),
    /// asking the engine as `xqdiff engine` does; quotes group words.
    #[arg(long, value_name = "\"ENGINE [ARGS]\"")]
    cmd: Option<String>,
    #[command(flatten)]
    engine: super::engine_args::EngineFlags,
    /// The corpus directory; it must exist (default: the repository's corpus/, wherever
    /// this is run from, else the copy built into the program).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// The corpus directory as `replay` first took it, before every command named it
    /// `--corpus`; kept so old scripts still run.
    #[arg(value_name = "DIR", conflicts_with = "corpus", hide = true)]
    dir: Option<PathBuf>,
    /// Known bugs: a file of signatures (one per line, a note after it). A case that
    /// shows one still runs and is listed as a known bug; it does not fail the replay.
    #[arg(long, value_name = "FILE")]
    known: Option<PathBuf>,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// Runs `xqdiff replay`: exit 1 if any case disagrees now, 2 if a file is damaged or
/// the corpus holds no case at all (a replay of nothing is no pass).
pub(super) fn run(args: &ReplayArgs) -> Result<Outcome, CliError> {
    let (given, flag) = match (&args.corpus, &args.dir) {
        (Some(dir), _) => (Some(dir.as_path()), "--corpus"),
        (None, dir) => (dir.as_deref(), "corpus directory"),
    };
    if let Some(cmd) = &args.cmd {
        let engine = super::engine_run::EngineArgs::replaying(
            cmd.clone(),
            args.engine.clone(),
            given.map(PathBuf::from),
            args.known.clone(),
            args.json,
        );
        return super::engine_run::run(&engine);
    }
    let source = corpus_source(given, flag, CorpusUse::Reads)?;
    let known = load_known(args.known.as_deref())?;
    let engines = registry();
    let started = Instant::now();
    let r = source.replay(&engines).map_err(|e| {
        CliError::from(crate::files::FileError::Read {
            path: source.to_string().into(),
            source: e,
        })
    })?;
    let found = replayed(&r, &known, &engines);
    for e in &r.damaged {
        errln!("xqdiff: skipped damaged corpus file: {e}");
    }
    for (i, (path, disagreements)) in r.failures.iter().enumerate() {
        let word = if found.known_failures.get(i).copied().unwrap_or(false) {
            "KNOWN"
        } else {
            "FAIL"
        };
        for d in disagreements {
            statusln!("{word} {}: {d}", super::out::path(path));
        }
    }
    for (u, &known) in r.unmet.iter().zip(&found.known_unmet) {
        statusln!("{} {u}", if known { "KNOWN" } else { "FAIL" });
    }
    let known_cases = match found.known_failures.iter().filter(|&&k| k).count() {
        0 => String::new(),
        k => format!(" ({k} of them known bugs)"),
    };
    outln!(
        "replayed {} from {}: {} disagree{known_cases}, {}, {} skipped",
        counted(r.replayed as u64, "case"),
        if source.is_built_in() {
            "the built-in corpus".to_owned()
        } else {
            source.to_string()
        },
        r.failures.len(),
        counted(r.unmet.len() as u64, "unmet expectation"),
        counted(r.damaged.len() as u64, "damaged file")
    );
    let mut report = report_of(&engines);
    report.add_replay(REPLAY, &source, &r, started.elapsed(), &found);
    // A failure outranks a damaged file: what disagrees is the news.
    let outcome = super::session::conclude(report, args.json);
    if matches!(outcome, Ok(Outcome::Disagree)) {
        outcome
    } else if !r.damaged.is_empty() {
        Err(CliError::Usage(format!(
            "{} damaged corpus files (listed above)",
            r.damaged.len()
        )))
    } else if r.replayed == 0 {
        Err(CliError::Usage(format!(
            "the corpus {source} holds no cases (*.txt files): nothing replayed"
        )))
    } else {
        outcome
    }
}
