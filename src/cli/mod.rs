//! The `xqdiff` command line. `main.rs` only calls [`main`]; everything it does lives here
//! so it can be tested.
//!
//! Owns the flags, the printing, the progress bars and the signal handling. May use
//! every layer; the work itself is done in the library layers it calls.

mod audit_cmd;
mod bench_cmd;
mod check_cmd;
mod engine_args;
mod engine_run;
mod fuzz_cmd;
mod hash_args;
mod json;
mod merge_cmd;
mod minimize_cmd;
mod moves_cmd;
mod out;
mod perft_cmd;
mod progress;
mod replay_cmd;
mod report_cmd;
mod seeds_cmd;
mod session;
mod signals;
mod split_run;
mod wrap;

use crate::diff::corpus::Source;
use crate::epd::EpdError;
use crate::fen::FenError;
use crate::generators;
use crate::generators::face::Generator;
use clap::{Parser, Subcommand};
use out::{errln, out, outln};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Differential verification of Xiangqi move generators.
#[derive(Parser, Debug)]
// Help is wrapped to the terminal (or `COLUMNS`), at most 100 columns, and to 100 when
// stdout is no terminal.
#[command(name = "xqdiff", version, about, long_about = None, max_term_width = 100)]
pub(crate) struct Cli {
    /// Colour the verdicts (DIFFERS, ok, KNOWN): auto (on a terminal, unless NO_COLOR is
    /// set), always (even into a pipe, whatever NO_COLOR says) or never.
    #[arg(
        long,
        global = true,
        value_name = "auto|always|never",
        default_value = "auto",
        hide_possible_values = true
    )]
    color: out::ColorChoice,
    /// No line per position checked and no progress: the findings, the summary and
    /// errors only.
    #[arg(long, short = 'q', global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

// Each flag's help goes on the lines under it, in every command: clap would do so by
// itself for a command whose longest flag takes 40% of the width (`--engine-protocol
// <uci|ucci|xboard|xboard-moves|moves>` does at 80), and not for the others.
#[derive(Subcommand, Debug)]
enum Command {
    /// The whole verification with good defaults: the perft suite, the corpus, a fuzz
    /// campaign, the metamorphic checks (and an external engine with --engine); writes
    /// a report. What `xqdiff` alone runs.
    #[command(next_line_help = true, after_help = CHECK_EXAMPLES)]
    Check(check_cmd::CheckArgs),
    /// Count leaf nodes of the legal-move tree and compare generators.
    #[command(next_line_help = true, after_help = PERFT_EXAMPLES)]
    Perft(perft_cmd::PerftArgs),
    /// List each generator's legal moves for a position and their differences.
    #[command(next_line_help = true)]
    Moves(moves_cmd::MovesArgs),
    /// Measure perft speed of each generator, one thread and all threads.
    #[command(next_line_help = true, after_help = BENCH_EXAMPLES)]
    Bench(bench_cmd::BenchArgs),
    /// Fuzz the generators against each other in-process; findings are minimized and saved.
    #[command(next_line_help = true)]
    Fuzz(fuzz_cmd::FuzzArgs),
    /// Shrink a position on which the generators disagree and save it to the corpus.
    #[command(next_line_help = true)]
    Minimize(minimize_cmd::MinimizeArgs),
    /// Run every regression-corpus case through the oracle.
    #[command(next_line_help = true, after_help = REPLAY_EXAMPLES)]
    Replay(replay_cmd::ReplayArgs),
    /// Write seed inputs for the fuzz targets from the corpus and the reference suite.
    #[command(next_line_help = true)]
    FuzzSeeds(seeds_cmd::SeedsArgs),
    /// Check an external engine's perft against the built-in generators; differences are
    /// followed down, minimized and saved.
    #[command(next_line_help = true, after_help = ENGINE_EXAMPLES)]
    Engine(engine_run::EngineArgs),
    /// Render a saved correctness report (JSON) as HTML or Markdown.
    #[command(next_line_help = true)]
    Report(report_cmd::ReportArgs),
    /// Add up the result files of a split perft's shards and check them against each other.
    #[command(next_line_help = true)]
    Merge(merge_cmd::MergeArgs),
    /// Count a random share of a split run's jobs again by a method that shares nothing
    /// with the run's (mailbox, no table), and compare.
    #[command(next_line_help = true)]
    Audit(audit_cmd::AuditArgs),
}

// Examples at the foot of a command's help: the commands a new user reaches for
// first, each within 80 columns.
const CHECK_EXAMPLES: &str = "Examples:
  xqdiff check --quick                      a few seconds, for CI
  xqdiff check --engine ./my-engine --engine-depth 3
  xqdiff check --engine \"python3 adapter.py\" --engine-protocol moves
Exit status: 0 all agree, 1 a disagreement, 2 bad usage or a phase that could
not run.";

const PERFT_EXAMPLES: &str = "Examples:
  xqdiff perft --depth 5
  xqdiff perft --fen '4k4/9/9/9/9/9/9/9/9/2NK5 w - - 0 1' --depth 3 --divide
  xqdiff perft --suite reference --max-nodes 1000000";

const BENCH_EXAMPLES: &str = "Examples:
  xqdiff bench
  xqdiff bench --engine ./pikafish --deeper 1 --generator bitboard";

const REPLAY_EXAMPLES: &str = "Examples:
  xqdiff replay                              the repository's corpus
  xqdiff replay --corpus my-corpus
  xqdiff replay --cmd ./my-engine --corpus xqdiff-findings
                                             the findings saved about an engine";

const ENGINE_EXAMPLES: &str = "Examples:
  xqdiff engine --cmd ./my-engine --depth 3
  xqdiff engine --cmd \"sjaakii -xboard\" --protocol xboard --positions 300
  xqdiff engine --cmd \"python3 adapter.py\" --protocol moves --seconds 60
  xqdiff engine --cmd ./my-engine --corpus xqdiff-findings --positions 0
                                    ask again the findings saved about it
  xqdiff engine --cmd ./my-engine --fen 'FEN' --depth 2
                                    one position, as a finding's reproduce line
Exit status: 0 the engine agrees, 1 a difference, 2 bad usage or an engine that
could not be asked.";

/// How a command ended; becomes the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Everything agreed with everything else and with the expected numbers (exit 0).
    Agree,
    /// Some generator disagreed, or a count missed its expected value (exit 1).
    Disagree,
    /// A signal stopped the command after it said what it had (exit 128 + the
    /// signal's number, as a shell reports a process the signal ended: 130 for SIGINT).
    Interrupted(i32),
}

/// What is wrong with a corpus directory given on the command line.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CorpusProblem {
    /// A command that reads the corpus was given one that is not there.
    #[error("no such directory")]
    Missing,
    /// Something other than a directory is at the path.
    #[error("not a directory")]
    NotADirectory,
    /// A command that only writes findings could create the directory, but not its
    /// parent too: that is more likely a typo than a wish.
    #[error("no such directory, nor its parent {}, so it cannot be created", .0.display())]
    NoParent(PathBuf),
}

/// Bad usage or bad input (exit 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
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
    /// A file or directory that could not be read or written.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// A `--generator` that is not registered.
    #[error("unknown generator {name:?}; expected one of: all, {known}")]
    UnknownGenerator {
        /// What was asked for.
        name: String,
        /// The registered names.
        known: String,
    },
    /// A known-bugs file with a line that is not a signature.
    #[error("bad known-bugs file {path}: {source}")]
    Known {
        /// The file.
        path: PathBuf,
        /// The line at fault.
        source: crate::diff::signature::KnownError,
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
        source: crate::job::report::ReportError,
    },
    /// A corpus directory that the command cannot use.
    #[error("{flag} {}: {problem}", path.display())]
    Corpus {
        /// The flag (or argument) that named it.
        flag: &'static str,
        /// The path given.
        path: PathBuf,
        /// What is wrong with it.
        problem: CorpusProblem,
    },
    /// A split perft's jobs or results files, or the flags naming them.
    #[error(transparent)]
    Split(#[from] crate::job::split::SplitError),
    /// A `--hash` size, or a table that could not be allocated.
    #[error("--hash: {0}")]
    Hash(#[from] crate::generators::perft_hash::HashError),
    /// The check could not be set up or run (a corpus, a suite, an engine it names).
    #[error(transparent)]
    Check(#[from] crate::job::check::CheckError),
    /// The engine check could not be run.
    #[error(transparent)]
    CrossCheck(#[from] crate::subject::crosscheck::CrossCheckError),
    /// An engine's command line that cannot be split into words.
    #[error("bad {flag}: {source}")]
    Command {
        /// The flag that gave it.
        flag: String,
        /// What is wrong with it.
        source: crate::subject::external::CommandLineError,
    },
    /// Settings of a moves-protocol adapter that do not go together.
    #[error(transparent)]
    Mode(#[from] crate::subject::rules::ModeError),
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
pub(crate) fn main() -> ExitCode {
    #[cfg(target_os = "linux")]
    {
        use crate::subject::external;
        if let Some(code) = external::run_if_guard() {
            return ExitCode::from(code);
        }
        // Engines run under a guard (xqdiff itself), which ends what they start even
        // when xqdiff is killed; without a path to itself, they run as before.
        if let Ok(me) = std::env::current_exe() {
            external::guard_engines(me);
        }
    }
    out::watch_for_a_closed_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // clap's first line names the flag and what is wrong with it; its usage
            // block and tips after it are what --help is for.
            errln!("xqdiff: {}", usage_line(&e.to_string()));
            return ExitCode::from(2);
        }
        Err(e) => {
            // Help and version, to stdout with success.
            out!("{e}");
            return finish(ExitCode::SUCCESS);
        }
    };
    let code = match run(cli) {
        Ok(Outcome::Agree) => ExitCode::SUCCESS,
        Ok(Outcome::Disagree) => ExitCode::from(1),
        Ok(Outcome::Interrupted(sig)) => ExitCode::from(u8::try_from(128 + sig).unwrap_or(255)),
        // A closed pipe met by a writer of its own (a shard's result lines, a `-`
        // output) ends the run as the ones through `out` do: as SIGPIPE would.
        Err(e) if broken_pipe(&e) => ExitCode::from(128 + out::SIGPIPE as u8),
        Err(e) => {
            errln!("xqdiff: error: {}", cut(&e.to_string()));
            // An error met on the way out of a run a signal stopped (an output given
            // up on) ends it as the signal does.
            match signals::received() {
                Some(sig) => ExitCode::from(u8::try_from(128 + sig).unwrap_or(255)),
                None => ExitCode::from(2),
            }
        }
    };
    finish(code)
}

/// Whether `e` was caused, anywhere down its chain, by writing to a closed pipe.
fn broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut at = Some(e);
    while let Some(e) = at {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return true;
        }
        at = e.source();
    }
    false
}

/// `code`, unless stdout failed on the way: a write error is exit 2 with one line, a
/// closed pipe the status of a process SIGPIPE ended.
fn finish(code: ExitCode) -> ExitCode {
    if let Some(e) = out::failed() {
        errln!("xqdiff: error: cannot write to standard output: {e}");
        return ExitCode::from(2);
    }
    if out::closed() {
        return ExitCode::from(128 + out::SIGPIPE as u8);
    }
    code
}

/// The longest message echoed back. An error or a piece of advice is said whole (the
/// terminal wraps it); only an absurd one, input pasted by mistake or an engine's
/// endless line quoted back, is cut, saying so.
const MESSAGE_CHARS: usize = 2000;

/// `s` cut to [`MESSAGE_CHARS`] characters, saying how much was left out.
pub(crate) fn cut(s: &str) -> String {
    let total = s.chars().count();
    if total <= MESSAGE_CHARS {
        return s.to_owned();
    }
    let head: String = s.chars().take(MESSAGE_CHARS).collect();
    format!("{head}... (cut: {} more characters)", total - MESSAGE_CHARS)
}

/// A clap usage error as one line: its message (the lines before the usage block or a
/// tip, as the missing arguments are listed below the first), without the `error: `
/// prefix, and where to read more.
fn usage_line(rendered: &str) -> String {
    let message: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("tip:"))
        .collect();
    let joined = message.join(" ");
    let text = joined.strip_prefix("error: ").unwrap_or(&joined);
    // clap's tips ("a similar argument exists: '--depth'") are the quickest fix of a
    // mistyped flag: kept, each after the message.
    let tips: String = rendered
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("tip:"))
        .map(|tip| format!("; {tip}"))
        .collect();
    format!("{}{tips} (see xqdiff --help)", cut(text))
}

impl Command {
    /// Whether `--json` was given: stdout then carries the command's JSON document only.
    fn json(&self) -> bool {
        let flag = match self {
            Command::Check(a) => a.json,
            Command::Perft(a) => a.json,
            Command::Moves(a) => a.json,
            Command::Bench(a) => a.json,
            Command::Fuzz(a) => a.json,
            Command::Minimize(a) => a.json,
            Command::Replay(a) => a.json,
            Command::Engine(a) => a.json,
            Command::Report(a) => a.json,
            Command::Merge(a) => a.json,
            // It writes files and prints only where.
            Command::FuzzSeeds(_) => json::JsonArg::default(),
            // Text only: a sample's lines.
            Command::Audit(_) => json::JsonArg::default(),
        };
        flag.json
    }
}

/// Runs a parsed command line.
pub(crate) fn run(cli: Cli) -> Result<Outcome, CliError> {
    out::configure(cli.color, cli.quiet);
    if cli.command.as_ref().is_some_and(Command::json) {
        out::document_only();
    }
    match cli.command {
        Some(Command::Perft(args)) => perft_cmd::run(&args),
        Some(Command::Moves(args)) => moves_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args),
        Some(Command::Fuzz(args)) => fuzz_cmd::run(&args),
        Some(Command::Minimize(args)) => minimize_cmd::run(&args),
        Some(Command::Replay(args)) => replay_cmd::run(&args),
        Some(Command::FuzzSeeds(args)) => seeds_cmd::run(&args),
        Some(Command::Engine(args)) => engine_run::run(&args),
        Some(Command::Report(args)) => report_cmd::run(&args),
        Some(Command::Merge(args)) => merge_cmd::run(&args),
        Some(Command::Audit(args)) => audit_cmd::run(&args),
        Some(Command::Check(args)) => check_cmd::run(&args),
        // The built-in default job: the whole check with its defaults.
        None => check_cmd::run(&check_cmd::CheckArgs::defaults()?),
    }
}

/// The generators a `--generator` value selects: one by name, or `all`.
fn select_generators(name: &str) -> Result<Vec<&'static dyn Generator>, CliError> {
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
fn select_generator_list(names: &[String]) -> Result<Vec<&'static dyn Generator>, CliError> {
    let mut wanted: Vec<&'static dyn Generator> = Vec::new();
    for name in names {
        wanted.extend(select_generators(name)?);
    }
    Ok(generators::registry()
        .into_iter()
        .filter(|g| wanted.iter().any(|w| w.name() == g.name()))
        .collect())
}

/// A seed that differs from run to run (and between two runs started in the same
/// nanosecond), for a command given no `--seed`; the run prints it, so it can be given
/// back to see the same run again.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

/// The cases of the corpus `source`, saying on stderr which files were skipped as
/// damaged (a command goes on without them).
fn load_corpus(source: &Source) -> Result<crate::diff::corpus::Loaded, CliError> {
    let loaded = source.load().map_err(|e| {
        CliError::from(crate::files::FileError::Read {
            path: source.to_string().into(),
            source: e,
        })
    })?;
    for e in &loaded.damaged {
        errln!("xqdiff: skipped damaged corpus file: {e}");
    }
    Ok(loaded)
}

/// How a command uses its corpus, which decides what a missing directory means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CorpusUse {
    /// It reads the cases (replays them, starts from them, asks about them), and may
    /// save findings too: the directory must be there, or the command would quietly
    /// check less than it was told to.
    Reads,
    /// It only saves findings: the directory is made when the first one is written,
    /// so only its parent must be there.
    Writes,
}

/// The corpus a command works on: the directory `given` with `flag`, checked as `usage`
/// needs, or with none given the default one (the repository's `corpus/`, else the
/// built-in copy).
fn corpus_source(
    given: Option<&Path>,
    flag: &'static str,
    usage: CorpusUse,
) -> Result<Source, CliError> {
    let Some(dir) = given else {
        return Ok(Source::default_location());
    };
    let problem = |problem| CliError::Corpus {
        flag,
        path: dir.to_owned(),
        problem,
    };
    if dir.is_dir() {
        return Ok(Source::Dir(dir.to_owned()));
    }
    if dir.exists() {
        return Err(problem(CorpusProblem::NotADirectory));
    }
    match usage {
        CorpusUse::Reads => Err(problem(CorpusProblem::Missing)),
        CorpusUse::Writes => {
            // `corpus` has the parent "": the current directory.
            let parent = dir
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            if parent.is_dir() {
                Ok(Source::Dir(dir.to_owned()))
            } else {
                Err(problem(CorpusProblem::NoParent(parent.to_owned())))
            }
        }
    }
}

/// Where a command that saves findings puts them: the corpus directory, or nowhere with
/// `--no-save` or the built-in corpus (said on stdout, so nobody looks for files that
/// were never written).
fn save_dir(source: &Source, no_save: bool) -> Option<PathBuf> {
    if no_save {
        return None;
    }
    if source.is_built_in() {
        outln!("{}", crate::job::check::BUILT_IN_READ_ONLY);
    }
    source.dir().map(Path::to_path_buf)
}

/// Workers per core above which a pool is refused: past a few per core the work gets
/// no faster, and ten thousand threads take minutes to start.
const THREADS_PER_CORE: usize = 8;

/// The most random positions a command builds: each is a playout and a perft, made
/// before the first is asked, so a billion would compute for days before starting.
const MAX_POSITIONS: usize = 1_000_000;

/// The longest time a flag takes, in seconds (ten years): far beyond any run, and far
/// within what a clock reading can be moved by, so a deadline computed from it is a time
/// and never an overflow.
pub(crate) const MAX_SECONDS: u64 = 10 * 365 * 24 * 60 * 60;

/// Reads a whole number of seconds (`--seconds`, `--engine-seconds`), as a flag's value
/// parser: at most [`MAX_SECONDS`].
fn parse_seconds(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        let shown: String = t.chars().take(40).collect();
        return Err(format!("{shown:?} is not a whole number of seconds"));
    }
    // All digits, so only the size can fail.
    match t.parse::<u64>() {
        Ok(secs) if secs <= MAX_SECONDS => Ok(secs),
        _ => Err(format!(
            "{} seconds is more than the most a run is given, {MAX_SECONDS} (ten years)",
            t.chars().take(40).collect::<String>()
        )),
    }
}

/// `--positions N` (or `flag`'s), refused above [`MAX_POSITIONS`].
fn positions(flag: &str, n: usize) -> Result<usize, CliError> {
    if n > MAX_POSITIONS {
        return Err(CliError::Usage(format!(
            "{flag} {n}: at most {MAX_POSITIONS} (each is a playout and a perft, all made \
             before the first is checked)"
        )));
    }
    Ok(n)
}

/// A rayon pool of `threads` workers (0 means what `RAYON_NUM_THREADS` says, else one
/// per core).
fn pool(threads: usize) -> Result<rayon::ThreadPool, CliError> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // Rayon reads the variable itself when given 0, past the cap below; so it is read
    // here and the count it gives is held to the same cap as `--threads`.
    let from_env = std::env::var("RAYON_NUM_THREADS").ok();
    let (threads, source) = match from_env.as_deref().map(|v| v.trim().parse::<usize>()) {
        Some(Ok(n)) if threads == 0 && n > 0 => (n, " (the count came from RAYON_NUM_THREADS)"),
        _ if threads == 0 => (cores, ""),
        _ => (threads, ""),
    };
    let most = (cores * THREADS_PER_CORE).max(16);
    if threads > most {
        return Err(CliError::Threads {
            threads,
            message: format!(
                "more than {THREADS_PER_CORE} per core ({cores} here) would only slow the \
                 work; give at most {most}{source}"
            ),
        });
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Threads {
            threads,
            message: e.to_string(),
        })
}

/// The signatures a `--known FILE` lists (none without the flag).
fn load_known(path: Option<&Path>) -> Result<crate::diff::finding::known::Known, CliError> {
    let Some(path) = path else {
        return Ok(crate::diff::finding::known::Known::default());
    };
    let text = read_input(path, INPUT_LIMIT)?;
    crate::diff::finding::known::Known::parse(&text).map_err(|source| CliError::Known {
        path: path.to_owned(),
        source,
    })
}

/// Writes the signatures of a run to `--write-known FILE`, each with a note.
fn write_known(
    path: &Path,
    signatures: &[(&crate::diff::signature::Signature, String)],
) -> Result<(), CliError> {
    let text =
        crate::diff::signature::format_known(signatures.iter().map(|(s, n)| (*s, n.clone())));
    write_output(path, &text)
}

/// The largest text file a command reads (suites, known-bugs files, reports): far above
/// any real one, far below what would strain memory.
const INPUT_LIMIT: u64 = 256 * crate::files::MIB;

/// The text of an input file: a regular file of at most `limit` bytes, else a one-line
/// error naming it.
fn read_input(path: &Path, limit: u64) -> Result<String, CliError> {
    crate::files::read_text(path, limit).map_err(|source| {
        CliError::from(crate::files::FileError::Read {
            path: path.to_owned(),
            source,
        })
    })
}

/// Writes an output file as `files::Output` does (a regular file replaced atomically, a
/// device or FIFO written to, a symlink's target replaced); `-` is stdout, through `out`
/// so that a closed pipe ends the run as SIGPIPE would.
fn write_output(path: &Path, text: &str) -> Result<(), CliError> {
    if path.as_os_str() == "-" {
        out!("{text}");
        return Ok(());
    }
    crate::files::replace(path, text.as_bytes()).map_err(|source| {
        CliError::from(crate::files::FileError::Write {
            path: path.to_owned(),
            source,
        })
    })
}

/// A suite: `reference` (the published one built in) or an EPD file.
fn load_suite(path: &str) -> Result<Vec<crate::epd::SuiteEntry>, CliError> {
    let text = if path == "reference" {
        crate::epd::REFERENCE_SUITE.to_owned()
    } else {
        read_input(Path::new(path), INPUT_LIMIT)?
    };
    crate::epd::parse_suite(&text).map_err(|source| CliError::Suite {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row: the directory given (under a fresh temporary one; `None` for none),
    /// how the command uses it, and the problem it must be refused with (`None`: it
    /// is accepted).
    #[test]
    fn a_named_corpus_must_be_there_for_a_reader_and_creatable_for_a_writer() {
        let root = std::env::temp_dir().join(format!("xqdiff-corpus-rule-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("there")).unwrap();
        std::fs::write(root.join("file"), "").unwrap();
        type Want = Option<fn(&CorpusProblem) -> bool>;
        let table: &[(Option<&str>, CorpusUse, Want)] = &[
            (None, CorpusUse::Reads, None),
            (Some("there"), CorpusUse::Reads, None),
            (Some("there"), CorpusUse::Writes, None),
            (Some("new"), CorpusUse::Writes, None),
            (
                Some("new"),
                CorpusUse::Reads,
                Some(|p| matches!(p, CorpusProblem::Missing)),
            ),
            (
                Some("no/such"),
                CorpusUse::Writes,
                Some(|p| matches!(p, CorpusProblem::NoParent(_))),
            ),
            (
                Some("file"),
                CorpusUse::Reads,
                Some(|p| matches!(p, CorpusProblem::NotADirectory)),
            ),
            (
                Some("file"),
                CorpusUse::Writes,
                Some(|p| matches!(p, CorpusProblem::NotADirectory)),
            ),
        ];
        for &(given, usage, want) in table {
            let path = given.map(|g| root.join(g));
            let got = corpus_source(path.as_deref(), "--corpus", usage);
            match (got, want) {
                (Ok(source), None) => match &path {
                    Some(p) => assert_eq!(source, Source::Dir(p.clone())),
                    None => assert_eq!(source, Source::default_location()),
                },
                (Err(CliError::Corpus { flag, problem, .. }), Some(is)) => {
                    assert_eq!(flag, "--corpus");
                    assert!(is(&problem), "{given:?} {usage:?}: {problem}");
                }
                (got, _) => panic!("{given:?} {usage:?}: {got:?}"),
            }
        }
        // Nothing was created on the way.
        assert!(!root.join("new").exists());
        std::fs::remove_dir_all(&root).ok();
    }

    /// The one value name of each concept. A value name that is none of these is a
    /// list of the literal values (`auto|0|1`) or a shape (`NAME=VALUE`, `I/N`).
    const VALUE_NAMES: [&str; 12] = [
        "DIR", "FILE", "FEN", "DEPTH", "N", "SECONDS", "SEED", "NAME", "CHANCE", "RESULTS",
        "MOVES", "SIZE",
    ];

    /// Every flag of every command that takes a value names it (clap's default is the
    /// field's name, `<ENGINE_DEPTH>`), from [`VALUE_NAMES`] or as its literal values,
    /// and a flag that several commands take names its value the same in all of them.
    #[test]
    fn every_value_is_named_once_per_concept() {
        use clap::CommandFactory;
        let cli = Cli::command();
        let mut seen: std::collections::BTreeMap<String, (String, String)> = Default::default();
        let mut checked = 0;
        for cmd in cli.get_subcommands() {
            for arg in cmd.get_arguments() {
                if !arg.get_action().takes_values() {
                    continue;
                }
                let flag = arg
                    .get_long()
                    .map_or_else(|| format!("<{}>", arg.get_id()), |l| format!("--{l}"));
                let where_ = format!("xqdiff {} {flag}", cmd.get_name());
                let names = arg
                    .get_value_names()
                    .unwrap_or_else(|| panic!("{where_} has clap's placeholder for a value name"));
                let name = names
                    .iter()
                    .map(|n| n.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                let literal = ['|', '=', '/', '"'].iter().any(|c| name.contains(*c));
                assert!(
                    literal || VALUE_NAMES.contains(&name.as_str()),
                    "{where_} <{name}>: not one of {VALUE_NAMES:?}"
                );
                if !literal {
                    if let Some((other, first)) = seen.get(&flag) {
                        assert_eq!(&name, first, "{where_} <{name}>, but {other} <{first}>");
                    }
                    seen.insert(flag, (where_, name));
                }
                checked += 1;
            }
        }
        assert!(checked > 50, "only {checked} flags seen");
    }
}
