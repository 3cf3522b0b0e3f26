//! What `xqdiff engine` and `xqdiff check --engine` share: the flags that say how to
//! speak to an engine and how its check goes on, and how its answers and findings are
//! shown. One home, so the two commands (and `bench` and `replay --cmd`, which start
//! engines too) never import each other.

use super::CliError;
use crate::subject::crosscheck::{self, Checked};
use crate::subject::external::{
    split_command, EngineConfig, FenLetters, MovesMode, Protocol, Ranks,
};
use crate::subject::rules::{Compare, Rules};
use std::time::Duration;

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
    pub(crate) fn reference(&self) -> crosscheck::Reference {
        match self.reference {
            ReferenceArg::Fastest => crosscheck::Reference::FASTEST,
            ReferenceArg::All => crosscheck::Reference::All,
        }
    }

    /// How long to check, when a time was given.
    pub(crate) fn time(&self) -> Option<Duration> {
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
    pub(crate) fn config(&self, command: &str, flag: &str) -> Result<EngineConfig, CliError> {
        split_command(command).map_err(|source| CliError::Command {
            flag: flag.to_owned(),
            source,
        })?;
        let mode = MovesMode::of(self.compare, self.rules)?;
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
pub(crate) struct Answers {
    /// The flag that sets the engine's depth, for the hint.
    depth_flag: &'static str,
    /// Whether the header was printed.
    headed: std::sync::atomic::AtomicBool,
    /// Whether a position was answered before.
    seen: std::sync::atomic::AtomicBool,
}

impl Answers {
    pub(crate) fn new(depth_flag: &'static str) -> Answers {
        Answers {
            depth_flag,
            headed: Default::default(),
            seen: Default::default(),
        }
    }

    /// Shows `c` through `print` (which keeps a progress bar out of the way).
    pub(crate) fn show(&self, c: &Checked, print: &dyn Fn(&str)) {
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
pub(crate) fn show_findings(report: &crosscheck::Report, head: &dyn Fn(&str), rest: &dyn Fn(&str)) {
    for block in report.finding_blocks(super::out::quiet()) {
        // Each block ends in a newline of its own.
        let (first, others) = block.split_once('\n').unwrap_or((&block, ""));
        head(first);
        if !others.is_empty() {
            rest(others);
        }
    }
}
