//! The one place every question of the engine check goes through: the root's divide,
//! the descent's `position ... moves`, the minimizer's and the diagnosis' positions,
//! the state probe. A question the subject fails as a program (it exits or hangs) is
//! told apart from one it refuses (an answer: its own error line, with its reason),
//! recorded with what the subject printed after it, and the subject is started again
//! so the check goes on; the run ends early only when the restarts are spent. So no
//! failure on a follow-up question can end a run that the root's answers would not.

use super::CrashKind;
use crate::moves::Move;
use crate::position::Position;
use crate::subject::rules::SetAside;
use crate::subject::{DivideReply, Subject, SubjectError};
use std::time::{Duration, Instant};

/// Failures on the follow-up questions about one target after which its remaining
/// questions are not put: each one costs a restart, and a hang a whole timeout, so a
/// subject that fails on every candidate of a minimization costs a few, not dozens.
const FAILURES_PER_TARGET: usize = 2;

/// One question the subject failed as a program, or refused as a follow-up question.
#[derive(Clone, Debug)]
pub(crate) struct Met {
    /// Crash, hang or refusal.
    pub kind: CrashKind,
    /// The position the question started from.
    pub root: Position,
    /// The moves it asked the subject to play from there.
    pub path: Vec<Move>,
    /// The depth asked.
    pub depth: u32,
    /// What the subject did, with the lines it printed after the question.
    pub error: String,
}

/// A subject asked through one place ([`Asker::divide`]) that starts it again after a
/// crash or hang, within a budget of restarts.
pub(crate) struct Asker<'s> {
    subject: &'s mut dyn Subject,
    /// Restarts left for failures the run goes on after.
    left: usize,
    /// Restarts made, free ones included.
    used: usize,
    /// Whether restarts are free now: those made while a failure is confirmed and
    /// shrunk are part of that one failure.
    free: bool,
    /// The failures already reported, by kind and whether met on a follow-up
    /// question: one more of them is the same failure again, and its restart is free,
    /// so a bug the subject fails on at every position costs one restart, not the run.
    filed: Vec<(CrashKind, bool)>,
    /// The current target's position: a question about anything else, or with a path,
    /// is a follow-up question.
    target: Option<Position>,
    /// The failures met since [`Asker::take_met`].
    met: Vec<Met>,
    /// Failures of the current target's questions.
    this_target: usize,
    /// When the run must be over.
    deadline: Option<Instant>,
}

impl<'s> Asker<'s> {
    /// Asks `subject`, starting it again after up to `restarts` failures.
    pub(crate) fn new(
        subject: &'s mut dyn Subject,
        restarts: usize,
        deadline: Option<Instant>,
    ) -> Asker<'s> {
        subject.set_deadline(deadline);
        Asker {
            subject,
            left: restarts,
            used: 0,
            free: false,
            filed: Vec::new(),
            target: None,
            met: Vec::new(),
            this_target: 0,
            deadline,
        }
    }

    /// A new target, at `root`: its follow-up questions may fail anew.
    pub(crate) fn begin_target(&mut self, root: &Position) {
        self.this_target = 0;
        self.met.clear();
        self.target = Some(root.clone());
    }

    /// A failure of `kind` is reported (`follow_up`: met on a follow-up question):
    /// the next one like it restarts the subject without spending the budget.
    pub(crate) fn file(&mut self, kind: CrashKind, follow_up: bool) {
        if !self.filed.contains(&(kind, follow_up)) {
            self.filed.push((kind, follow_up));
        }
    }

    /// The failures met since the last call, oldest first.
    pub(crate) fn take_met(&mut self) -> Vec<Met> {
        std::mem::take(&mut self.met)
    }

    /// Restarts made so far (those made while a failure was shrunk included).
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Runs `f` with restarts free and follow-up failures not counted: the confirmation
    /// and shrinking of one failure, each of whose questions may fail the same way.
    pub(crate) fn freely<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let (free, target) = (self.free, self.this_target);
        self.free = true;
        let out = f(self);
        self.free = free;
        self.this_target = target;
        out
    }

    /// Starts the subject again after `error`, if the budget allows and the run's time
    /// is not up: the error the question then gives.
    fn start_again(&mut self, error: SubjectError, again: bool) -> SubjectError {
        if !self.free && !again {
            if self.left == 0 {
                return error;
            }
            self.left -= 1;
        }
        if self.deadline.is_some_and(|end| Instant::now() >= end) {
            return SubjectError::OutOfTime {
                request: "starting the engine again".to_owned(),
            };
        }
        match self.subject.restart() {
            Ok(true) => {
                self.used += 1;
                SubjectError::Restarted {
                    error: Box::new(error),
                }
            }
            Ok(false) => error,
            Err(e) => e,
        }
    }
}

impl Subject for Asker<'_> {
    fn name(&self) -> String {
        self.subject.name()
    }

    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        if !self.free && self.this_target >= FAILURES_PER_TARGET {
            return Err(SubjectError::NotAsked {
                why: format!(
                    "the subject failed on {FAILURES_PER_TARGET} questions about this \
                     position already"
                ),
            });
        }
        let error = match self.subject.divide(root, path, depth) {
            Ok(d) => return Ok(d),
            Err(e) => e,
        };
        let follow_up = !path.is_empty() || self.target.as_ref() != Some(root);
        let Some(kind) = CrashKind::of(&error) else {
            // A refusal is an answer: said where a follow-up question met it, so the
            // finding it belongs to can give its reason; nothing to start again.
            if let (true, SubjectError::Refused { .. }) = (follow_up, &error) {
                self.met.push(Met {
                    kind: CrashKind::Refusal,
                    root: root.clone(),
                    path: path.to_vec(),
                    depth,
                    error: error.to_string(),
                });
            }
            return Err(error);
        };
        let again = self.filed.contains(&(kind, follow_up));
        self.met.push(Met {
            kind,
            root: root.clone(),
            path: path.to_vec(),
            depth,
            error: error.to_string(),
        });
        if !self.free {
            self.this_target += 1;
        }
        Err(self.start_again(error, again))
    }

    fn restart(&mut self) -> Result<bool, SubjectError> {
        self.subject.restart()
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.subject.set_deadline(deadline);
    }

    fn set_question_timeout(&mut self, timeout: Option<Duration>) {
        self.subject.set_question_timeout(timeout);
    }

    fn set_aside(&self) -> Option<SetAside> {
        self.subject.set_aside()
    }

    fn counting(&self) -> crate::diagnose::Counting {
        self.subject.counting()
    }
}
