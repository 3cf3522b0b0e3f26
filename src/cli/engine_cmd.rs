//! `xqdiff engine`: an external engine's perft against the built-in generators, on the
//! start position, a perft suite, the corpus and seeded random positions. A difference
//! is followed down, minimized, printed beside the consensus and saved in the working
//! folder's `xqdiff-findings/<engine>/` (`<corpus>/external/<engine>/` with `--corpus`).

use super::json::report_of;
use super::out::{errln, out, outln, statusln};
use super::{conclude, corpus_source, pool, signals, CliError, CorpusUse, Outcome};
use crate::cli::progress::Progress;
use crate::diff::corpus::Source;
use crate::generators::registry;
use crate::job::check::engine::{record, Asked};
use crate::job::check::Unit;
use crate::job::report::counted;
use crate::job::report::EngineInfo;
use crate::position::Position;
use crate::subject::crosscheck::{self, targets, Checked, Options, Status, Target};
use crate::subject::external::{
    split_command, EngineConfig, ExternalEngine, FenLetters, MovesMode, Protocol, Ranks,
};
use crate::subject::rules::{Compare, Rules};
use crate::subject::Subject;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How to speak to an external engine: the flags `xqdiff engine` and `xqdiff check`
/// share. Their names carry an `engine-` prefix so they read well beside `check`'s own
/// flags; `xqdiff engine` also takes them without it (`--protocol`, `--option`), its
/// names from before the two commands shared them.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct EngineFlags {
    /// The protocol the engine speaks: uci, ucci, xboard, xboard-moves (xboard without
    /// perft, the engine's `show moves` lists counted by xqdiff, as for HoiXiangqi), or
    /// moves (a library's legal move lists, docs/moves-protocol.md).
    #[arg(
        long = "engine-protocol",
        value_name = "uci|ucci|xboard|xboard-moves|moves",
        default_value = "uci"
    )]
    pub protocol: Protocol,
    /// An option sent to the engine after the handshake, in order; repeat for more
    /// (`UCI_Variant=xiangqi`).
    #[arg(long = "engine-option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    /// Rank numbering in the engine's moves: auto, 0 (ICCS) or 1 (1-10).
    #[arg(long = "engine-ranks", value_name = "auto|0|1", default_value = "auto")]
    pub ranks: Ranks,
    /// Horse and elephant letters in the engine's FEN: auto, nb or he.
    #[arg(
        long = "engine-fen-letters",
        value_name = "auto|nb|he",
        default_value = "auto"
    )]
    pub fen_letters: FenLetters,
    /// Seconds to wait for each step of the engine's answer (the next count, the total);
    /// a whole answer gets 10 times this.
    #[arg(long = "engine-timeout", value_name = "SECONDS", default_value = "30", value_parser = parse_timeout)]
    pub timeout: Duration,
    /// Seconds to wait for each step of starting the engine (its handshake, options and
    /// the questions that learn its notation), a restart's included: an engine that
    /// loads its tables on a busy machine may start far slower than it answers.
    #[arg(long = "engine-start-timeout", value_name = "SECONDS", default_value = "60", value_parser = parse_timeout)]
    pub start_timeout: Duration,
    /// What a moves-protocol adapter's lists are compared as: `legal`, or
    /// `pseudo-legal` (its pseudo-legal moves and its check detector, each checked).
    #[arg(
        long = "engine-compare",
        value_name = "legal|pseudo-legal",
        default_value = "legal"
    )]
    pub compare: Compare,
    /// The rules a moves-protocol adapter follows: `legal`, or `king-capture` (moving
    /// into check allowed; such moves are set aside, everything else is compared).
    #[arg(
        long = "engine-rules",
        value_name = "legal|king-capture",
        default_value = "legal"
    )]
    pub rules: Rules,
}

/// How an engine check goes on: the flags `xqdiff engine` and `xqdiff check` share,
/// `--engine-seconds` and so on in `check` (whose `--seconds` is the fuzz campaign's),
/// and `xqdiff engine` also without the prefix.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct RunFlags {
    /// Check for this many seconds: after the start, suite and corpus positions, fresh
    /// positions made as the run goes (random bytes read as positions, and playouts,
    /// rare features sought on purpose), instead of random positions made beforehand.
    /// The time is the whole run's, start-up and the shrinking of a crash or hang
    /// included.
    #[arg(
        id = "engine_seconds",
        long = "engine-seconds",
        value_name = "SECONDS",
        value_parser = super::parse_seconds
    )]
    pub seconds: Option<u64>,
    /// How many new failures an engine that crashes or hangs is started again after to
    /// go on (a failing position is a finding of its own, `crash` or `hang`; one on a
    /// follow-up question is said in the finding being followed); one more of a
    /// failure already met is started again without spending one. Past this the next
    /// new failure ends the run with exit 2.
    #[arg(
        id = "engine_restarts",
        long = "engine-restarts",
        default_value_t = 5,
        value_name = "N"
    )]
    pub restarts: usize,
    /// Which built-ins count each position: `fastest` (the fastest counts each; all of
    /// them confirm every difference and every 10th position besides) or `all`.
    #[arg(
        id = "engine_reference",
        long = "engine-reference",
        default_value = "fastest",
        value_name = "fastest|all"
    )]
    pub reference: ReferenceArg,
}

impl RunFlags {
    /// The check's reference.
    pub fn reference(&self) -> crosscheck::Reference {
        match self.reference {
            ReferenceArg::Fastest => crosscheck::Reference::FASTEST,
            ReferenceArg::All => crosscheck::Reference::All,
        }
    }

    /// How long to check, when a time was given.
    pub fn time(&self) -> Option<Duration> {
        self.seconds.map(Duration::from_secs)
    }
}

/// `--reference`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ReferenceArg {
    Fastest,
    All,
}

impl EngineFlags {
    /// The configuration for the engine started by `command`, or what is wrong with
    /// the flags. `flag` names the flag that gave the command, for messages.
    pub fn config(&self, command: &str, flag: &str) -> Result<EngineConfig, CliError> {
        split_command(command).map_err(|e| CliError::Usage(format!("bad {flag}: {e}")))?;
        let mode =
            MovesMode::of(self.compare, self.rules).map_err(|e| CliError::Usage(e.to_string()))?;
        let protocol = match self.protocol {
            Protocol::Moves(_) => Protocol::Moves(mode),
            _ if mode != MovesMode::Legal => {
                return Err(CliError::Usage(
                    "--compare and --rules need --protocol moves: only a moves-protocol \
                     adapter gives pseudo-legal lists or its own rules"
                        .into(),
                ))
            }
            other => other,
        };
        Ok(EngineConfig {
            command: command.to_owned(),
            protocol,
            options: self.options.clone(),
            ranks: self.ranks,
            fen_letters: self.fen_letters,
            timeout: self.timeout,
            start_timeout: Some(self.start_timeout),
        })
    }
}

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
pub struct EngineArgs {
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

fn parse_option(s: &str) -> Result<(String, String), String> {
    // The engine reads one command a line: a newline inside would send a second
    // command, and other control characters have no business in a name or value.
    if s.chars().any(char::is_control) {
        return Err(format!(
            "{s:?} holds a control character (a newline would be a second command)"
        ));
    }
    match s.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("{s:?} is not NAME=VALUE")),
    }
}

fn parse_timeout(s: &str) -> Result<Duration, String> {
    let secs = s
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|secs| *secs > 0.0)
        .ok_or_else(|| format!("{s:?} is not a positive number of seconds"))?;
    // Compared as numbers first: past the bound may be past what a duration holds.
    if secs > super::MAX_SECONDS as f64 {
        return Err(format!(
            "{} seconds is more than the longest wait xqdiff takes, {} (ten years)",
            s.trim(),
            super::MAX_SECONDS
        ));
    }
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| format!("{s:?} is not a positive number of seconds"))
}

/// A first position slower than this, at depth 3 or more, earns the hint to start lower.
const SLOW_FIRST: Duration = Duration::from_secs(5);

/// How each position the engine answered is shown, by `xqdiff engine` and by `xqdiff
/// check --engine` alike: a header over the columns before the first line, no `ok`
/// lines under `--quiet`, and once, when the first position alone took long at depth 3
/// or more, the hint to try a lower depth first.
pub(super) struct Answers {
    /// The flag that sets the engine's depth, for the hint.
    depth_flag: &'static str,
    /// Whether the header was printed.
    headed: std::sync::atomic::AtomicBool,
    /// Whether a position was answered before.
    seen: std::sync::atomic::AtomicBool,
}

impl Answers {
    pub(super) fn new(depth_flag: &'static str) -> Answers {
        Answers {
            depth_flag,
            headed: Default::default(),
            seen: Default::default(),
        }
    }

    /// Shows `c` through `print` (which keeps a progress bar out of the way).
    pub(super) fn show(&self, c: &Checked, print: &dyn Fn(&str)) {
        use std::sync::atomic::Ordering::Relaxed;
        let first = !self.seen.swap(true, Relaxed);
        if !(super::out::quiet() && c.verdict == crosscheck::Verdict::Agree) {
            if !self.headed.swap(true, Relaxed) {
                print(&Checked::header());
            }
            print(&c.line());
        }
        if first && c.depth >= 3 && c.elapsed > SLOW_FIRST {
            print(&format!(
                "note: this subject is slow at depth {}; try {} 2 first",
                c.depth, self.depth_flag
            ));
        }
    }
}

/// Prints every finding of `report` as `xqdiff engine` and `xqdiff check --engine`
/// both do ([`crosscheck::Report::finding_blocks`]): each block's first line, the
/// verdict, through `head` (which colours it), the rest through `rest`.
pub(super) fn show_findings(report: &crosscheck::Report, head: &dyn Fn(&str), rest: &dyn Fn(&str)) {
    for block in report.finding_blocks(super::out::quiet()) {
        // Each block ends in a newline of its own.
        let (first, others) = block.split_once('\n').unwrap_or((&block, ""));
        head(first);
        if !others.is_empty() {
            rest(others);
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
    if given && own_cases == 0 {
        if let Some(why) = saved.about_others_only(dir, name) {
            return Err(CliError::Usage(why));
        }
    }
    if saved.targets.is_empty() {
        return Ok(());
    }
    outln!(
        "re-checking {} saved about {name} in {}",
        counted(saved.targets.len() as u64, "finding"),
        super::out::path(dir)
    );
    list.splice(0..0, saved.targets);
    Ok(())
}

/// Runs `xqdiff engine`.
pub fn run(args: &EngineArgs) -> Result<Outcome, CliError> {
    if args.depth == 0 {
        return Err(CliError::Usage("--depth must be at least 1".into()));
    }
    let seed = args.seed.unwrap_or_else(super::clock_seed);
    let corpus = corpus_source(args.corpus.as_deref(), "--corpus", CorpusUse::Reads)?;
    let (mut list, own_cases) = collect_targets(args, &corpus, seed)?;
    let config = args.engine.config(&args.cmd, "--cmd")?;
    let pool = pool(args.threads)?;
    // Ctrl-C (or SIGTERM, SIGHUP) ends the check between positions, keeping what was
    // found for the summary below; mid-answer, the driver gives up its wait and ends
    // the engine's process group. Installed before the engine starts, so a signal
    // during start-up leaves no engine behind either.
    let stop = signals::install();
    // The time given is the whole run's, starting the engine included.
    let deadline = args
        .run
        .time()
        .and_then(|time| Instant::now().checked_add(time));
    let mut engine = match ExternalEngine::start_within(&config, Some(stop), deadline) {
        Ok(engine) => engine,
        Err(source) => {
            if let Some(sig) = signals::received() {
                outln!(
                    "interrupted by {} while the engine started",
                    signals::name(sig)
                );
                return Ok(Outcome::Interrupted(sig));
            }
            return Err(CliError::Engine {
                during: "start-up".into(),
                source,
            });
        }
    };
    let name = engine.name();
    if args.fen.is_empty() {
        let given = args.corpus.is_some();
        with_saved(&mut list, &corpus, given, own_cases, &name, args.depth)?;
    }
    let asked = match args.run.seconds {
        Some(secs) => format!(
            "{} then fresh ones for {secs} s",
            counted(list.len() as u64, "position")
        ),
        None => counted(list.len() as u64, "position"),
    };
    outln!(
        "engine {name} ({}, {}), depth {}, {asked} (seed {seed}), built-ins {}",
        args.cmd,
        args.engine.protocol.as_str(),
        args.depth,
        crate::generators::names().join(", ")
    );
    for note in engine.notes() {
        outln!("note: {note}");
    }
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
        .then(|| corpus.dir().map(Path::to_path_buf))
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
            &config.command,
            args.engine.protocol.as_str(),
            args.depth,
            seed,
        ),
        reproduce: Some(&reproduce),
        progress: Some(&show),
        on_checked: Some(&print_checked),
        stop: Some(stop),
        reference: args.run.reference(),
        restarts: args.run.restarts,
        deadline,
    };
    let engines = crosscheck::fastest_first(&registry());
    let timed = args.run.time().map(|time| crosscheck::Timed {
        time,
        seed,
        depth: args.depth,
    });
    let run = pool
        .install(|| crosscheck::run(&mut engine, &engines, &list, timed.as_ref(), &options))
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let (report, fresh) = (run.report, run.fresh);
    bar.finish();
    drop(engine);
    if let Some(note) = report.restarts_note() {
        outln!("{note}");
    }

    show_findings(&report, &|line| statusln!("{line}"), &|rest| out!("{rest}"));
    if !report.ours.is_empty() && !args.no_save && corpus.is_built_in() {
        outln!("{}", crate::job::check::BUILT_IN_READ_ONLY);
    }
    for e in &report.write_errors {
        errln!("xqdiff: could not save a finding: {e}");
    }
    if let Some(set) = &report.set_aside {
        out!("{set}");
    }
    if let Some(made) = &fresh {
        // The table is a detail of a run that went on; --quiet keeps to the verdicts.
        if !super::out::quiet() {
            outln!("{}", made.summary());
        }
    }
    if let Some(note) = report.out_of_time_note() {
        outln!("{note}");
    }
    if let Some(path) = &args.write_known {
        let sigs: Vec<_> = report
            .findings
            .iter()
            .map(|f| (f.signature.clone(), format!("{name}, first on {}", f.label)))
            .chain(report.crashes.iter().map(|c| {
                let note = format!("{name}, first on {}", c.label);
                (c.signature(), note)
            }))
            .collect::<Vec<_>>();
        let sigs: Vec<_> = sigs.iter().map(|(s, n)| (s, n.clone())).collect();
        super::write_known(path, &sigs)?;
    }
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
    let crashes = report.crashes.iter().filter(|c| !c.known).count() as u64;
    let new = report.new_findings().count() as u64 + crashes;
    let known = (report.findings.len() + report.crashes.len()) as u64 - new;
    if let Ok(Outcome::Interrupted(sig)) = outcome {
        statusln!(
            "interrupted by {}: {} ({known} known) so far; {summary}",
            signals::name(sig),
            crate::job::report::counted(new, "distinct bug")
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
            crate::job::report::counted(new, "distinct bug"),
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
