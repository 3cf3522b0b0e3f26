//! The thing under test when it can only answer perft questions: an external engine
//! over a pipe, or an in-process generator seen the same way. The engine check
//! compares a [`Subject`] with the built-in generators' consensus and, on a
//! difference, walks down to the bad position by asking for more divides along a path.
//!
//! Owns the subjects (in-process, [`external`] engines over UCI/UCCI/xboard, a crate's
//! board through [`library`]), the [`rules`] their lists follow, and the [`crosscheck`]
//! against the built-ins' consensus. May use the vocabulary,
//! [`crate::generators`], [`crate::cases`] and [`crate::diff`]; the jobs use it.

pub mod crosscheck;
pub mod external;
pub mod library;
pub mod rules;

use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use std::time::Duration;

/// A subject's answer to "perft `depth` from here".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divide {
    /// Count per root move, when the subject reports them; `None` for subjects that only
    /// print a total, whose per-move counts the checker gets one move at a time.
    pub per_move: Option<Vec<(Move, u64)>>,
    /// The total the subject reports.
    pub total: u64,
}

/// Why a subject could not answer. Every variant carries what the subject last said, so
/// the user can see what went wrong on its side.
#[derive(Debug, thiserror::Error)]
pub enum SubjectError {
    /// The program could not be started at all.
    #[error("could not start {command:?}: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// The program never completed the protocol handshake.
    #[error("no {expected} within {timeout:?}{}", last_lines(.last))]
    Handshake {
        /// The word that never came (`uciok`, `ucciok`, the xboard `feature done=1`).
        expected: &'static str,
        /// How long it was given.
        timeout: Duration,
        /// Its last lines of output.
        last: Vec<String>,
    },
    /// No complete answer within the timeout.
    #[error("no answer to {request:?} within {timeout:?}{}", last_lines(.last))]
    Timeout {
        /// What was asked.
        request: String,
        /// How long it was given.
        timeout: Duration,
        /// Its last lines of output.
        last: Vec<String>,
    },
    /// The program exited (or closed its output) while xqdiff waited for an answer.
    #[error("engine exited ({status}) while answering {request:?}{}", last_lines(.last))]
    Exited {
        /// What was asked.
        request: String,
        /// The exit status, as the OS reports it.
        status: String,
        /// Its last lines of output.
        last: Vec<String>,
    },
    /// The program printed something that is not a valid answer.
    #[error("unreadable answer to {request:?}: {problem}{}", last_lines(.last))]
    Garbage {
        /// What was asked.
        request: String,
        /// What is wrong with it.
        problem: String,
        /// Its last lines of output.
        last: Vec<String>,
    },
    /// The subject refused a position or a move on the path (an engine's "Illegal move",
    /// "bad FEN"). During descent and minimization this means "cannot reproduce here";
    /// anywhere else it is reported like any other failure.
    #[error("refused {what}: {reason}")]
    Refused {
        /// The position or move refused.
        what: String,
        /// The subject's reason, as it printed it.
        reason: String,
    },
    /// The program lacks what any question needs (an xboard engine that cannot be
    /// given a position, an engine without perft): says what, and how it could be
    /// checked instead.
    #[error("{what}; {instead}")]
    Unsupported {
        /// What the engine lacks, as it said.
        what: String,
        /// The protocols or adapters it could be checked with.
        instead: String,
    },
    /// The program's answer passed a limit of one answer (a line too long, too many
    /// lines or bytes, too long in all while it kept printing); it was ended.
    #[error("the answer to {request:?} overran a limit: {limit}{}", last_line(.last))]
    Overrun {
        /// What was asked.
        request: String,
        /// Which limit.
        limit: String,
        /// Its last line, cut short: one line, as the rest would be more of the same.
        last: Option<String>,
    },
    /// The conversation is out of step: a line nobody asked for, or an answer that
    /// cannot belong to its request (moves of the side not to move). Every answer after
    /// it could be another request's, so nothing it says is compared: a protocol error
    /// of the adapter, never a rule bug.
    #[error("the adapter is out of step at {request:?}: {problem} (a protocol error of the adapter, not a rule bug){}", last_lines(.last))]
    OutOfStep {
        /// What was asked when it showed.
        request: String,
        /// How it showed.
        problem: String,
        /// Its last lines of output.
        last: Vec<String>,
    },
    /// The wait for an answer was given up because the run was asked to stop (a
    /// signal); the program was ended.
    #[error("stopped while waiting for the answer to {request:?}")]
    Stopped {
        /// What was asked.
        request: String,
    },
    /// The wait for an answer (or for a restart's handshake) reached the end of the
    /// run's time ([`Subject::set_deadline`]); the program was ended. Not a hang: the
    /// wait was cut short, not given up on.
    #[error("the run's time ran out while waiting for the answer to {request:?}")]
    OutOfTime {
        /// What was asked.
        request: String,
    },
    /// The program failed as a program on this question (it exited or hung: `error`)
    /// and was started again, so the next question finds it ready. Like a refusal, it
    /// is about this question alone: the check goes on without its answer.
    #[error("{error}; it was started again")]
    Restarted {
        /// How it failed.
        error: Box<SubjectError>,
    },
    /// The question was not put: the subject failed on too many of the questions
    /// about one position already, and each failure costs a restart or a timeout.
    #[error("not asked: {why}")]
    NotAsked {
        /// Why.
        why: String,
    },
    /// Writing to the program failed (usually because it died).
    #[error("could not write to the engine: {source}{}", last_lines(.last))]
    Write {
        /// Why.
        source: std::io::Error,
        /// Its last lines of output.
        last: Vec<String>,
    },
}

fn last_lines(last: &[String]) -> String {
    if last.is_empty() {
        "; it printed nothing after it was asked".to_string()
    } else {
        format!("; its last lines:\n  {}", last.join("\n  "))
    }
}

/// How to check an engine that has no perft or cannot be given a position.
pub(crate) const WITHOUT_PERFT: &str = "check it over another protocol it speaks that \
    has perft, with --protocol xboard-moves if it speaks xboard and its console lists \
    moves (`show moves`), or with an adapter in the moves protocol (--protocol moves, \
    docs/moves-protocol.md)";

fn last_line(last: &Option<String>) -> String {
    last.as_ref()
        .map_or_else(String::new, |l| format!("; its last line: {l:?}"))
}

/// What a subject replies when asked for a divide: its count per move, or why it could
/// not give one.
pub type DivideReply = Result<Divide, SubjectError>;

/// Something whose perft counts can be checked against the built-in generators.
///
/// `&mut self` because an external engine is a conversation; `Send` so a checker can
/// move it to a worker thread. The built-in generators and any [`crate::MoveGen`] of
/// your own become a subject through [`InProcess`].
pub trait Subject: Send {
    /// The name reports and corpus entries use, including a version where known.
    fn name(&self) -> String;

    /// Perft `depth` (at least 1) from the position reached by playing `path` from
    /// `root`. Subjects that can set up a position and play moves on it (an engine's
    /// `position fen ... moves ...`) should play `path` themselves rather than be given
    /// the FEN at its end: a bug in the subject's make shows only that way.
    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply;

    /// Starts the subject afresh after it crashed or hung, keeping what was learnt of
    /// it; `Ok(false)` when it cannot be started again (the default), so a crash ends
    /// the check.
    fn restart(&mut self) -> Result<bool, SubjectError> {
        Ok(false)
    }

    /// When the run must be over (`None`: never): no wait for an answer, nor for the
    /// handshake of a restart, goes past it, and a wait it cuts short is
    /// [`SubjectError::OutOfTime`]. A subject that answers in process never waits, and
    /// ignores it (the default).
    fn set_deadline(&mut self, _deadline: Option<std::time::Instant>) {}

    /// The longest wait for each step of an answer from now on, when shorter than the
    /// subject's own timeout (`None`: its own again); kept across restarts, and never
    /// applied to a handshake. For questions whose answer is expected fast, such as
    /// smaller positions asked while a hang is shrunk. Ignored by a subject that never
    /// waits (the default).
    fn set_question_timeout(&mut self, _timeout: Option<Duration>) {}

    /// The moves set aside so far under king-capture rules; `None` for a subject whose
    /// lists follow the legal rules.
    fn set_aside(&self) -> Option<rules::SetAside> {
        None
    }

    /// How it counts after the moves of a path: by playing them, or from the position
    /// they lead to; what a state bug's cause can say of where it lies. Unknown unless
    /// the subject says (the default).
    fn counting(&self) -> crate::diagnose::Counting {
        crate::diagnose::Counting::Unknown
    }

    /// Drops any answers kept from memory, so the next question is put to the subject
    /// afresh: a question asked twice to see whether the answer repeats must reach it.
    /// A subject that keeps none does nothing (the default).
    fn forget(&mut self) {}
}

/// Any [`Generator`] (so any [`crate::MoveGen`]) as a [`Subject`]: the path is played by
/// the engine's own make, the counts come from its own perft.
pub struct InProcess<'a> {
    engine: &'a dyn Generator,
}

impl<'a> InProcess<'a> {
    /// Wraps `engine`.
    pub fn new(engine: &'a dyn Generator) -> InProcess<'a> {
        InProcess { engine }
    }
}

impl Subject for InProcess<'_> {
    fn name(&self) -> String {
        self.engine.name().to_string()
    }

    // Each move is played into a new position, which its perft starts from afresh.
    fn counting(&self) -> crate::diagnose::Counting {
        crate::diagnose::Counting::FromFen
    }

    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        let mut pos = root.clone();
        for &mv in path {
            pos = self
                .engine
                .play(&pos, mv)
                .map_err(|e| SubjectError::Refused {
                    what: format!("move {mv} on {}", pos.fen()),
                    reason: e.to_string(),
                })?;
        }
        let per_move = self.engine.divide(&pos, depth.max(1), true, None);
        let total = per_move.iter().map(|(_, n)| n).sum();
        Ok(Divide {
            per_move: Some(per_move),
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::naive::NaiveGen;

    #[test]
    fn in_process_plays_the_path_then_divides() {
        let mut s = InProcess::new(&NaiveGen);
        let start = Position::startpos();
        let d = s.divide(&start, &[], 2).unwrap();
        assert_eq!(d.total, 1920);
        assert_eq!(d.per_move.as_ref().map(Vec::len), Some(44));
        let h2e2: Move = "h2e2".parse().unwrap();
        let after = s.divide(&start, &[h2e2], 1).unwrap();
        assert_eq!(after.total, 45);
        let bad: Move = "a0a5".parse().unwrap();
        assert!(matches!(
            s.divide(&start, &[bad], 1),
            Err(SubjectError::Refused { .. })
        ));
    }
}
