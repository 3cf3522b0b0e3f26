//! External engines as subjects: a child process spoken to over stdin/stdout in UCI,
//! UCCI or xboard, with a timeout on every answer.
//!
//! [`ExternalEngine::start`] spawns the engine, completes the handshake, sends the
//! options and learns from the start position how the engine writes FEN and moves;
//! after that every [`crate::subject::Subject::divide`] is one question: the root's
//! FEN, the path's moves for the engine to play itself, and `perft N`.
//!
//! The timeout bounds every wait: for the handshake, for a synchronisation, and for
//! each step of an answer (a per-move line, a total, the end marker). Lines that are
//! not part of an answer (banners, `info string`, search output) do not extend it, so a
//! chattering engine times out like a silent one. After a timeout the next question
//! first waits for the engine to catch up, so a late answer is never taken for the
//! next one. A whole answer also has a deadline (`ANSWER_TIMEOUTS` timeouts) and a
//! size (`MAX_ANSWER_LINES`, `MAX_ANSWER_BYTES`, lines of at most `MAX_LINE`
//! bytes); an engine past either is ended, as is one whose run is stopped mid-answer.

mod answer;
mod command;
mod detect;
mod drain;
mod driver;
#[cfg(target_os = "linux")]
mod guard;
pub(crate) mod moves;
mod notation;
mod process;
mod uci;
mod xboard;

/// How a moves-protocol adapter's lists are read (`--compare`, `--rules`).
pub use crate::subject::rules::MovesMode;
/// An engine's command as it runs from any folder, for reproduce lines.
pub(crate) use command::from_anywhere;
pub use driver::ExternalEngine;
#[cfg(target_os = "linux")]
pub(crate) use guard::run_if_guard;
/// The board after a move with the mover to move again: what the moves protocol's
/// `check` request asks about, and a binding's check test in process.
pub use moves::placed;
/// Move text in either rank numbering: the engines' and `xqdiff perft --ranks`'.
pub(crate) use notation::format_move;
#[cfg(target_os = "linux")]
pub(crate) use process::guard_engines;
pub(crate) use process::{end_all_engines, end_all_engines_before_exit};
pub use process::{split_command, CommandLineError};

use crate::diff::finding::provenance::Provenance;
use crate::named::{by_name, UnknownName};
use crate::subject::SubjectError;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

// Starting is spawning (the driver) and then detecting the notation (which asks through
// the driver): composed here so that neither of the two needs the other's module.
impl ExternalEngine {
    /// Spawns, handshakes, sends options, and detects rank numbering and FEN letters
    /// (when Auto) from positions built for it, never from whether the engine agrees
    /// (`detect.rs`).
    pub fn start(config: &EngineConfig) -> Result<ExternalEngine, SubjectError> {
        ExternalEngine::start_inner(config, None, None)
    }

    /// As [`ExternalEngine::start`], for a run that `stop` can end and that must be over
    /// by `deadline`: once the flag is raised, the wait for any answer, start-up's
    /// included, gives up within a fraction of a second with [`SubjectError::Stopped`]
    /// and ends the engine; no wait goes past the deadline (see
    /// [`crate::subject::Subject::set_deadline`], which it sets).
    pub(crate) fn start_within(
        config: &EngineConfig,
        stop: Option<&'static AtomicBool>,
        deadline: Option<std::time::Instant>,
    ) -> Result<ExternalEngine, SubjectError> {
        ExternalEngine::start_inner(config, stop, deadline)
    }

    fn start_inner(
        config: &EngineConfig,
        stop: Option<&'static AtomicBool>,
        deadline: Option<std::time::Instant>,
    ) -> Result<ExternalEngine, SubjectError> {
        let mut engine = ExternalEngine::spawn(config, stop, deadline)?;
        // Letters the engine's own FEN showed are confirmed by the probe, not tried.
        let config = EngineConfig {
            fen_letters: engine.fen_letters,
            ..config.clone()
        };
        detect::detect(&mut engine, &config)?;
        // Started: from here on each step of an answer has the answer's timeout.
        crate::subject::Subject::set_question_timeout(&mut engine, None);
        Ok(engine)
    }
}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI: `uci`/`uciok`, `position fen ... moves ...`, `go perft N`.
    Uci,
    /// UCCI: `ucci`/`ucciok`, otherwise as UCI.
    Ucci,
    /// xboard/CECP: `xboard`, `protover 2`, `new`, `variant xiangqi`, `force`,
    /// `setboard FEN`, `perft N`.
    Xboard,
    /// xboard without perft, for an engine whose console lists the legal moves of the
    /// position it was given (`show moves`, as HoiXiangqi's): its FEN dialect read from
    /// its own `show fen`, every position given by `setboard`, perft counted by xqdiff
    /// from the lists as for the moves protocol.
    XboardMoves,
    /// The moves protocol (`docs/moves-protocol.md`): move lists, perft by xqdiff, the
    /// lists read as the mode says.
    Moves(MovesMode),
}

impl Protocol {
    /// The moves protocol's mode; `None` for an engine's protocol.
    pub(crate) fn moves_mode(self) -> Option<MovesMode> {
        match self {
            Protocol::Moves(mode) => Some(mode),
            _ => None,
        }
    }

    /// The protocol's name, as `--protocol` takes it and reports show it.
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
            Protocol::Xboard => "xboard",
            Protocol::XboardMoves => "xboard-moves",
            Protocol::Moves(_) => "moves",
        }
    }
}

impl FromStr for Protocol {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Protocol, UnknownName> {
        // CECP is xboard's other name.
        let s = if s == "cecp" { "xboard" } else { s };
        let all = [
            Protocol::Uci,
            Protocol::Ucci,
            Protocol::Xboard,
            Protocol::XboardMoves,
            Protocol::Moves(MovesMode::Legal),
        ];
        by_name("protocol", s, &all, Protocol::as_str)
    }
}

/// How the engine numbers ranks in move text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranks {
    /// Detect from the engine's moves in the start position.
    Auto,
    /// 0-9 from Red's side, as ICCS and Pikafish.
    Zero,
    /// 1-10 from Red's side, as Fairy-Stockfish in UCI mode.
    One,
}

crate::named::names!(Ranks, "rank numbering" { Auto => "auto", Zero => "0", One => "1" });

/// Which letters the engine's FEN uses for horse and elephant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenLetters {
    /// Try `N`/`B`, then `H`/`E`, on the start position.
    Auto,
    /// `N` for horse and `B` for elephant (xqdiff's own FEN).
    NB,
    /// `H` for horse and `E` for elephant.
    HE,
}

crate::named::names!(FenLetters, "FEN letters" { Auto => "auto", NB => "nb", HE => "he" });

/// How to start and speak to an engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// The command line, split shell-style (quotes group words).
    pub command: String,
    /// The protocol.
    pub protocol: Protocol,
    /// Options sent after the handshake, in order (`setoption name N value V` in UCI).
    pub options: Vec<(String, String)>,
    /// Rank numbering in move text.
    pub ranks: Ranks,
    /// Horse and elephant letters in FEN.
    pub fen_letters: FenLetters,
    /// The longest xqdiff waits for each step of an answer (the next per-move line, the
    /// total, the end marker); a whole answer gets `ANSWER_TIMEOUTS` times it.
    pub timeout: Duration,
    /// The longest xqdiff waits for each step of starting the engine (the handshake,
    /// the options, the questions that learn its notation), a restart's included;
    /// `None`: `timeout`. An engine loading its tables on a busy machine may take far
    /// longer to start than to answer.
    pub start_timeout: Option<Duration>,
}

impl EngineConfig {
    /// The wait for each step of starting the engine.
    pub(crate) fn start_wait(&self) -> Duration {
        self.start_timeout.unwrap_or(self.timeout)
    }
    /// The `xqdiff engine` command that checks this engine, started and spoken to as
    /// this configuration says, on `pos` alone at `depth`: how a finding about it is
    /// seen again, every flag that changes what is compared included.
    pub fn reproduce(&self, pos: &crate::position::Position, depth: u32) -> Provenance {
        let command = from_anywhere(&self.command);
        let mut words: Vec<String> = ["xqdiff", "engine", "--cmd", &command]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let mut flag = |name: &str, value: String| {
            words.push(format!("--{name}"));
            words.push(value);
        };
        flag("protocol", self.protocol.as_str().to_owned());
        match self.protocol {
            Protocol::Moves(MovesMode::PseudoLegal) => flag("compare", "pseudo-legal".into()),
            Protocol::Moves(MovesMode::KingCapture) => flag("rules", "king-capture".into()),
            _ => {}
        }
        for (name, value) in &self.options {
            flag("option", format!("{name}={value}"));
        }
        match self.ranks {
            Ranks::Auto => {}
            Ranks::Zero => flag("ranks", "0".into()),
            Ranks::One => flag("ranks", "1".into()),
        }
        match self.fen_letters {
            FenLetters::Auto => {}
            FenLetters::NB => flag("fen-letters", "nb".into()),
            FenLetters::HE => flag("fen-letters", "he".into()),
        }
        if self.timeout != DEFAULT_TIMEOUT {
            flag("timeout", self.timeout.as_secs_f64().to_string());
        }
        if let Some(t) = self.start_timeout.filter(|&t| t != DEFAULT_START_TIMEOUT) {
            flag("start-timeout", t.as_secs_f64().to_string());
        }
        flag("fen", pos.fen());
        flag("depth", depth.to_string());
        words.push("--no-save".into());
        Provenance::command(words).answered_on(pos, depth)
    }
}

/// Sends `text`, settings an engine answers only when it objects, then synchronises
/// with `sync` (its command `word`): the first objection fails as a refusal of the
/// whole request, said as one line.
fn settle(
    p: &mut process::Process,
    text: &str,
    word: &str,
    sync: impl FnOnce(&mut process::Process, &str) -> Result<Option<String>, SubjectError>,
) -> Result<(), SubjectError> {
    let request = text.trim_end().replace('\n', "; ");
    p.send(text, &request)?;
    match sync(p, &request)? {
        Some(reason) => Err(SubjectError::Refused {
            what: if request.is_empty() {
                word.to_owned()
            } else {
                request
            },
            reason,
        }),
        None => Ok(()),
    }
}

/// How long xqdiff waits for each step of an engine's answer unless told otherwise.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the command line waits for each step of an engine's start unless told
/// otherwise: generous, since a busy machine may take long to start what answers fast.
pub(crate) const DEFAULT_START_TIMEOUT: Duration = Duration::from_secs(60);
