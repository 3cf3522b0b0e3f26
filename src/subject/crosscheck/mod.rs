//! The engine check: a [`Subject`] (an external engine, or any generator in process)
//! against the divide the built-in generators agree on, position by position. On a
//! difference it descends with the subject playing the path, finds the shallowest
//! perft from a FEN alone that still differs, shrinks that position, and files it.
//!
//! The built-ins must agree with each other first: where they do not, that is a
//! disagreement among ours, followed down with [`crate::diff::descent`] and filed as one.

mod asker;
mod case;
mod compare;
mod locate;
mod print;
mod run;
pub mod targets;

pub use crate::diff::finding::trail::Comparison;
pub(crate) use crate::diff::finding::trail::{Reproduction, Trail};
pub use print::found_by;
pub(crate) use run::{fastest_first, Made};
pub use run::{run, Run, Timed};

use crate::diagnose::{
    nondeterministic, Answer, AnswerFault, Diagnosis, Question, Variant, Witness,
};
use crate::diff::corpus::Saving;
use crate::diff::descent;
use crate::diff::finding::across::name_across;
use crate::diff::finding::counted;
use crate::diff::finding::known::Known;
use crate::diff::finding::naming::{
    diagnosed, named_causes, Diagnosed, DIAGNOSIS_BOUND, NO_QUESTIONS,
};
use crate::diff::finding::provenance::Provenance;
use crate::diff::finding::{Blame, Finding, Findings, Settings};
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::generators::face::Stoppable;
use crate::moves::Move;
use crate::position::Position;
use crate::subject::rules::{MovesMode, INTO_CHECK_HINT};
use crate::subject::{Subject, SubjectError};
use compare::{answer, both, consensus, is_fatal, OVERLAP_DEPTH};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// One position to check, and how deep.
#[derive(Clone, Debug)]
pub struct Target {
    /// What to call it in reports (`start`, `suite line 5`, a corpus file name).
    pub label: String,
    /// The position.
    pub position: Position,
    /// The perft depth, at least 1.
    pub depth: u32,
}

/// What the check is doing, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Asking both sides for the divide at the target.
    Comparing,
    /// Following a differing count down the path, `ply` moves from the target.
    Descending {
        /// Moves from the target.
        ply: usize,
    },
    /// Asking whether the difference shows from a FEN alone.
    Reproducing {
        /// The position on the path being asked about.
        ply: usize,
        /// The depth asked.
        depth: u32,
    },
    /// Shrinking the position.
    Minimizing {
        /// Candidates asked about so far.
        tried: usize,
        /// Pieces on the smallest failing position so far.
        pieces: usize,
    },
    /// The built-in generators disagree among themselves here; following that.
    OursDisagree,
}

// One text per stage, for `xqdiff engine`'s bar and the check's alike.
impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Stage::Comparing => f.write_str("comparing"),
            Stage::Descending { ply } => {
                write!(f, "descending, {} down", counted(ply as u64, "ply"))
            }
            Stage::Reproducing { ply, depth } => {
                write!(f, "reproducing from ply {ply} at depth {depth}")
            }
            Stage::Minimizing { tried, pieces } => {
                write!(
                    f,
                    "minimizing, {tried} tried, {}",
                    counted(pieces as u64, "piece")
                )
            }
            Stage::OursDisagree => f.write_str("the built-ins disagree here: descending"),
        }
    }
}

/// Where the check is: target `index` (0-based) of `of`, and what it is doing there.
#[derive(Clone, Copy, Debug)]
pub struct Status<'a> {
    /// Targets finished before this one.
    pub index: usize,
    /// Targets in all; none when they are made as the run goes.
    pub of: Option<usize>,
    /// The target's label.
    pub label: &'a str,
    /// What is happening.
    pub(crate) stage: Stage,
}

/// The command that checks a subject on a position at a depth.
pub type Reproduce<'a> = &'a (dyn Fn(&Position, u32) -> Provenance + Sync);

/// How to run a check.
#[derive(Clone, Default)]
pub struct Options<'a> {
    /// Where findings about the subject are saved; `None` saves nothing. For an
    /// external engine, `findings_dir`.
    pub subject_dir: Option<PathBuf>,
    /// Where disagreements among the built-in generators are saved (the corpus
    /// itself); `None` saves nothing.
    pub corpus: Option<PathBuf>,
    /// Stop after this many distinct bugs of the subject that are not known; 0 checks
    /// every target.
    pub max_findings: usize,
    /// Known bugs: still reported (as known), but they do not count toward
    /// `max_findings` or fail the check.
    pub known: Known,
    /// How the run was started, for a subject with no command that reproduces one
    /// finding (a library in process).
    pub found_by: String,
    /// The one command that checks the subject on a position at a depth (an external
    /// engine's `xqdiff engine ... --fen FEN --depth D`): each finding's provenance.
    pub reproduce: Option<Reproduce<'a>>,
    /// Hears every change of target and stage.
    pub progress: Option<&'a (dyn Fn(&Status<'_>) + Sync)>,
    /// Hears each target's result as soon as it is known.
    pub on_checked: Option<&'a (dyn Fn(&Checked) + Sync)>,
    /// A stop request, heard between targets (`None`: run to the end).
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
    /// Which built-ins count each target.
    pub reference: Reference,
    /// How many new failures (a crash or hang of a kind not met before, on a target or
    /// on a follow-up question) the subject is started again after to go on (0: the
    /// first crash ends the check); one more of a failure already met is free.
    pub restarts: usize,
    /// When the run must be over, everything included (`None`: when the targets are):
    /// no question is begun after it, none waits past it, and a crash or hang is
    /// confirmed and shrunk within what is left, else reported as far as it got. A
    /// timed [`run`] sets it from its time.
    pub deadline: Option<Instant>,
}

impl Options<'_> {
    /// How a finding on `pos` at `depth`, first met on target `label`, is seen again:
    /// the subject's own command where it has one, else how the run was started.
    fn reproduced(&self, pos: &Position, depth: u32, label: &str) -> Provenance {
        match self.reproduce {
            Some(command) => command(pos, depth),
            None => Provenance::described(format!("{} (position {label})", self.found_by))
                .answered_on(pos, depth),
        }
    }
}

/// How a subject failed on a position: as a program, or by refusing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashKind {
    /// It exited (or closed its output) while answering.
    Crash,
    /// It gave no answer within the timeout.
    Hang,
    /// It refused a valid position with an error line of its own (its reason in the
    /// finding), whether or not it exited after.
    Refusal,
}

impl CrashKind {
    /// The failure's kind, if it is one a restart can go on after.
    pub fn of(e: &SubjectError) -> Option<CrashKind> {
        match e {
            SubjectError::Exited { .. } | SubjectError::Write { .. } => Some(CrashKind::Crash),
            SubjectError::Timeout { .. } => Some(CrashKind::Hang),
            _ => None,
        }
    }

    /// `crash`, `hang` or `refusal`: the finding's signature and its check in the
    /// report.
    pub fn as_str(self) -> &'static str {
        match self {
            CrashKind::Crash => "crash",
            CrashKind::Hang => "hang",
            CrashKind::Refusal => "refusal",
        }
    }
}

/// A subject that crashed or hung: a finding of its own kind, one per kind, its
/// witness the smallest position on which it still fails the same way.
#[derive(Clone, Debug)]
pub struct Crash {
    /// Crash or hang.
    pub kind: CrashKind,
    /// Whether `--known` lists it (`crash/subject`, `hang/subject`).
    pub known: bool,
    /// How many targets it failed on.
    pub hits: u64,
    /// The target it first failed on.
    pub label: String,
    /// That target's position.
    pub position: Position,
    /// The depth asked.
    pub depth: u32,
    /// The smallest position found on which it still fails the same way.
    pub minimized: Position,
    /// What it said or did, with its last lines.
    pub error: String,
    /// The command that asks it the minimized position.
    pub found_by: Provenance,
    /// Why the witness was not confirmed or shrunk further, when something cut that
    /// short (the run's time, an engine that could not be started again).
    pub note: Option<String>,
}

impl Crash {
    /// The signature `--known` lists: `crash/subject` or `hang/subject`.
    pub fn signature(&self) -> Signature {
        Signature::plain(self.kind.as_str(), "subject")
    }
}

/// Which built-in generators count each target. A subject is only as fast to check as
/// the built-ins' counts beside its own; one generator's count is enough to see that it
/// agrees, while a difference is confirmed by every one before it is reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reference {
    /// Every built-in counts every target.
    #[default]
    All,
    /// The first built-in (the fastest: the caller orders them) counts each target; all
    /// of them count every target where the subject differs, and every
    /// `confirm_every`-th target besides (0: none besides).
    First {
        /// Every how many targets all of them count anyway.
        confirm_every: usize,
    },
}

/// How one target went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Same per-move counts and moves.
    Agree,
    /// The subject's divide differs.
    Differs,
    /// The built-in generators disagree among themselves, so there is no consensus.
    OursDisagree,
}

/// One target checked.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The target's label.
    pub label: String,
    /// Its FEN.
    pub fen: String,
    /// The depth.
    pub depth: u32,
    /// The built-ins' total (the first generator's, where they disagree).
    pub consensus_total: u64,
    /// The subject's total.
    pub subject_total: u64,
    /// Wall time for both answers and their comparison, not counting a descent.
    pub elapsed: Duration,
    /// How it went.
    pub verdict: Verdict,
    /// Whether the difference is a known bug's (`--known`).
    pub known: bool,
    /// The bug the difference belongs to, named as the findings name it (its cause,
    /// else its signature); `None` before it is named, or when it could not be.
    pub bug: Option<Signature>,
    /// Whether every built-in counted it (else only the reference, see [`Reference`]).
    pub confirmed: bool,
    /// Time the subject took to answer.
    pub subject_time: Duration,
    /// Time the built-ins took to count.
    pub builtins_time: Duration,
}

/// When a target's comparison started, and how long the subject and the built-ins took.
type Timing = (Instant, Duration, Duration);

impl Checked {
    /// The row of `target` as compared: the built-ins' and the subject's totals, the
    /// verdict, whether every built-in counted, and the time from `timing`'s start.
    fn row(
        target: &Target,
        (consensus_total, subject_total): (u64, u64),
        verdict: Verdict,
        confirmed: bool,
        (started, subject_time, builtins_time): Timing,
    ) -> Checked {
        Checked {
            label: target.label.clone(),
            fen: target.position.fen(),
            depth: target.depth,
            consensus_total,
            subject_total,
            elapsed: started.elapsed(),
            verdict,
            known: false,
            bug: None,
            confirmed,
            subject_time,
            builtins_time,
        }
    }

    /// The line over [`Checked::line`]'s columns: what each of them is.
    pub fn header() -> String {
        Self::columns(
            "verdict",
            "depth",
            "subject",
            "built-ins",
            "time",
            "position",
        )
    }

    /// The target's line in a log: verdict (`KNOWN` for a known bug's difference),
    /// depth, the subject's total beside the built-ins', time, label, and the bug a
    /// difference belongs to (what `xqdiff engine` and `check --engine` print as each
    /// target is answered).
    pub fn line(&self) -> String {
        let verdict = match self.verdict {
            Verdict::Agree => "ok",
            Verdict::Differs if self.known => "KNOWN",
            Verdict::Differs => "DIFFERS",
            Verdict::OursDisagree => "OURS DISAGREE",
        };
        let line = Self::columns(
            verdict,
            &format!("D{}", self.depth),
            &self.subject_total.to_string(),
            &self.consensus_total.to_string(),
            &format!("{:.2} s", self.elapsed.as_secs_f64()),
            &self.label,
        );
        // Equal totals under a difference would read as agreement: say it is the moves.
        let same_total =
            self.verdict == Verdict::Differs && self.subject_total == self.consensus_total;
        let line = match same_total {
            true => format!("{line}  (same total, other moves)"),
            false => line,
        };
        match &self.bug {
            Some(bug) => format!("{line}  bug {bug}"),
            None => line,
        }
    }

    /// The columns in their widths, shared by the header and each line.
    fn columns(
        verdict: &str,
        depth: &str,
        subject: &str,
        builtins: &str,
        time: &str,
        label: &str,
    ) -> String {
        format!("{verdict:<13} {depth:<5} {subject:>10} {builtins:>10}  {time:>9}  {label}")
    }
}

/// A disagreement among the built-in generators met on the way.
#[derive(Clone, Debug)]
pub struct Ours {
    /// The target it was met on.
    pub label: String,
    /// Followed down, minimized and saved by the one findings path; `None` if the
    /// descent found no position where the oracle sees it.
    pub finding: Option<Finding>,
}

/// The subject could not be driven any further.
#[derive(Debug)]
pub struct Failure {
    /// The target it was working on.
    pub label: String,
    /// That target's position and depth.
    pub position: Position,
    /// The depth asked.
    pub depth: u32,
    /// What went wrong, with the subject's last words.
    pub error: SubjectError,
}

/// Everything a check did.
#[derive(Debug, Default)]
pub struct Report {
    /// The subject's name.
    pub subject: String,
    /// Every target answered, in order.
    pub checked: Vec<Checked>,
    /// Differences found about the subject.
    pub findings: Vec<Finding>,
    /// Disagreements among the built-ins.
    pub ours: Vec<Ours>,
    /// Crashes and hangs the subject was started again after.
    pub crashes: Vec<Crash>,
    /// Why the check stopped early, if the subject failed.
    pub failure: Option<Failure>,
    /// The target whose answer the end of the run's time ([`Options::deadline`]) cut
    /// short: not compared, and not a failure.
    pub out_of_time: Option<String>,
    /// Whether that target's difference, cut short before it could be named, was left
    /// at its line rather than filed beside the bugs already found.
    pub cut_unnamed: bool,
    /// Cases that could not be saved, one sentence each.
    pub write_errors: Vec<String>,
    /// How many times the subject was started again after failing (those made while a
    /// failure was shrunk included).
    pub restarts: usize,
    /// The moves set aside under king-capture rules; `None` under the legal rules.
    pub set_aside: Option<crate::subject::rules::SetAside>,
    /// Wall time.
    pub elapsed: Duration,
}

impl Report {
    /// The distinct bugs that are not known.
    pub fn new_findings(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !f.known)
    }

    /// Time the subject spent answering and the built-ins counting, summed over
    /// the targets checked, and how many targets every built-in counted.
    pub fn time_spent(&self) -> (Duration, Duration, usize) {
        let checked = &self.checked;
        (
            checked.iter().map(|c| c.subject_time).sum(),
            checked.iter().map(|c| c.builtins_time).sum(),
            checked.iter().filter(|c| c.confirmed).count(),
        )
    }

    /// What the end of the run's time cut short, in a sentence, if it cut an answer.
    pub(crate) fn out_of_time_note(&self) -> Option<String> {
        let label = self.out_of_time.as_ref()?;
        Some(if self.cut_unnamed {
            format!(
                "the time ran out while the subject answered a question about {label}: its \
                 difference was cut short before it could be named, and is left at its line \
                 beside the bugs found"
            )
        } else if self.checked.iter().any(|c| &c.label == label) {
            format!(
                "the time ran out while the subject answered a question about {label}: its \
                 difference is reported as far as it was followed"
            )
        } else {
            format!("the time ran out while the subject answered {label}, which is not counted")
        })
    }

    /// How often the subject was started again after failing, in a sentence, if it was.
    pub(crate) fn restarts_note(&self) -> Option<String> {
        (self.restarts > 0).then(|| {
            format!(
                "the engine was started again {} after it crashed or hung",
                match self.restarts {
                    1 => "once".to_owned(),
                    n => format!("{n} times"),
                }
            )
        })
    }

    /// Leaf nodes compared: the consensus totals of the targets checked.
    pub fn nodes_compared(&self) -> u64 {
        self.checked.iter().map(|c| c.consensus_total).sum()
    }

    /// Whether every difference found is a move into check: the smallest witness of
    /// each new finding differs only by moves the subject lists that leave its own king
    /// attacked, and nothing else was found. What a generator that is pseudo-legal by
    /// design shows under the legal rules.
    pub fn only_moves_into_check(&self) -> bool {
        let mut new = self.new_findings().peekable();
        if new.peek().is_none() || !self.ours.is_empty() || self.crashes.iter().any(|c| !c.known) {
            return false;
        }
        // A finding named by a rule the subject misreads (a check detector blind to
        // pawns' sideways checks, say) is a legality test that is there and wrong, not
        // one left out by design: no hint then.
        let by_design =
            |d: &Diagnosis| d.causes.is_empty() || d.variants().contains(&Variant::PseudoLegalOnly);
        new.all(|f| {
            f.diagnosis.as_ref().is_none_or(by_design)
                && f.trail()
                    .and_then(|t| t.reproduction.as_ref())
                    .is_some_and(|r| {
                        r.comparison.as_ref().is_some_and(|c| {
                            let into_check = crate::subject::rules::into_check(&r.minimized);
                            c.only_consensus.is_empty()
                                && c.counts_differ.is_empty()
                                && c.listed_more_than_once.is_empty()
                                && c.unnamed() == 0
                                && !c.only_subject.is_empty()
                                && c.only_subject.iter().all(|&(m, _)| into_check(m))
                        })
                    })
        })
    }

    /// The line a run ends with when the subject, a library asked under the legal
    /// rules (`mode`, its moves-protocol mode; `None` for an engine), differs only by
    /// moves into check: that king-capture rules exist.
    pub fn into_check_hint(&self, mode: Option<MovesMode>) -> Option<&'static str> {
        (mode == Some(MovesMode::Legal) && self.only_moves_into_check()).then_some(INTO_CHECK_HINT)
    }

    /// Whether every target was answered and agreed.
    pub fn all_agree(&self) -> bool {
        self.failure.is_none()
            && self.new_findings().next().is_none()
            && self.crashes.iter().all(|c| c.known)
            && self.ours.is_empty()
            && self.checked.iter().all(|c| c.verdict == Verdict::Agree)
    }
}

/// Why a check cannot start.
#[derive(Debug, thiserror::Error)]
pub enum CrossCheckError {
    /// No built-in generators to form a consensus.
    #[error("no built-in generators given to compare the subject with")]
    NoConsensus,
    /// A target asks for perft 0, which compares nothing.
    #[error("target {label:?} has depth 0; the check needs depth 1 or more")]
    ZeroDepth {
        /// The target.
        label: String,
    },
}

/// The folder, in the working folder, that findings about an external engine or
/// library go into when no corpus is named: the user's own, so that a run from
/// anywhere never writes into xqdiff's source tree (whose `corpus/` is compiled into
/// the program).
pub(crate) const FINDINGS_DIR: &str = "xqdiff-findings";

/// Where findings about the external subject `engine_name` are saved: under the corpus
/// named on the command line, `DIR/external/<name>/` (as [`external_dir`]), else the
/// working folder's `xqdiff-findings/<name>/`.
pub(crate) fn findings_dir(named_corpus: Option<&Path>, engine_name: &str) -> PathBuf {
    match named_corpus {
        Some(corpus) => external_dir(corpus, engine_name),
        None => Path::new(FINDINGS_DIR).join(slug(engine_name)),
    }
}

/// The folder for findings about an external engine under a corpus: `external/<name>`,
/// so findings about someone else's engine never mix with the corpus that is replayed
/// for ours.
pub fn external_dir(corpus: &Path, engine_name: &str) -> PathBuf {
    corpus.join("external").join(slug(engine_name))
}

/// An engine's name as a folder name: letters, digits, `.`, `_` and `-`, lower case.
fn slug(engine_name: &str) -> String {
    let slug: String = engine_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let slug = slug.trim_matches(|c| c == '-' || c == '.');
    if slug.is_empty() {
        "engine".into()
    } else {
        slug.to_owned()
    }
}

/// Checks `subject` against the consensus of `engines` on every target, in order.
pub fn check(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    targets: &[Target],
    options: &Options<'_>,
) -> Result<Report, CrossCheckError> {
    if let Some(t) = targets.iter().find(|t| t.depth == 0) {
        return Err(CrossCheckError::ZeroDepth {
            label: t.label.clone(),
        });
    }
    let of = Some(targets.len());
    check_stream(subject, engines, &mut targets.iter().cloned(), of, options)
}

/// [`check`] on targets taken one at a time as the run goes (`of` of them, when that
/// is known), so a run given a time makes each position only when it is to be asked.
/// A target of depth 0 is skipped: there is nothing to count.
pub(crate) fn check_stream(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    targets: &mut dyn Iterator<Item = Target>,
    of: Option<usize>,
    options: &Options<'_>,
) -> Result<Report, CrossCheckError> {
    if engines.is_empty() {
        return Err(CrossCheckError::NoConsensus);
    }
    // The built-ins' counts end with the run's stop flag, at any depth; a comparison a
    // signal cut short is not recorded (`check_one`).
    let stoppable: Vec<Stoppable<'_>> = match options.stop {
        Some(stop) => engines.iter().map(|g| Stoppable::new(*g, stop)).collect(),
        None => Vec::new(),
    };
    let wrapped: Vec<&dyn Generator> = stoppable.iter().map(|g| g as &dyn Generator).collect();
    let engines = if options.stop.is_some() {
        &wrapped[..]
    } else {
        engines
    };
    let started = Instant::now();
    let mut report = Report {
        subject: subject.name(),
        ..Report::default()
    };
    // Saved into as findings are filed, read when the first is saved.
    let mut saving = options.subject_dir.as_deref().map(Saving::new);
    // Every question from here on goes through the asker, which restarts the subject
    // after a crash or hang and says what failed where.
    let mut asker = asker::Asker::new(subject, options.restarts, options.deadline);
    for (index, target) in targets.filter(|t| t.depth > 0).enumerate() {
        if stopped(options) || past(options.deadline) {
            break;
        }
        let mut stage = |stage: Stage| {
            if let Some(p) = options.progress {
                p(&Status {
                    index,
                    of,
                    label: &target.label,
                    stage,
                });
            }
        };
        asker.begin_target(&target.position);
        let turn = Turn {
            engines,
            index,
            target: &target,
            options,
            started,
        };
        let outcome = check_one(&mut asker, &turn, &mut stage, &mut report, &mut saving);
        let outcome = follow_up(&mut asker, &turn, outcome, &mut report);
        if ends_run(outcome, &target, &mut report) {
            break;
        }
        if options.max_findings > 0 && report.new_findings().count() >= options.max_findings {
            break;
        }
    }
    // A run stopped or out of time asks nothing more: pairs are then named only of
    // causes already named.
    let bound = match stopped(options) || past(options.deadline) {
        true => NO_QUESTIONS,
        false => DIAGNOSIS_BOUND,
    };
    name_across(&mut report.findings, &options.known, bound, |q| {
        ask(&mut asker, q)
    });
    report.restarts = asker.used();
    report.set_aside = asker.set_aside();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// What the subject's failure on a target's check becomes: a crash or hang it was
/// started again after is a finding of its own kind on that question's position, a
/// refusal of the target itself a finding naming its reason; after a check that ran
/// through, the failures of follow-up questions join the bug they were about. What
/// still ends the run is returned.
fn follow_up(
    asker: &mut asker::Asker<'_>,
    turn: &Turn<'_, '_>,
    outcome: Result<(), SubjectError>,
    report: &mut Report,
) -> Result<(), SubjectError> {
    let (engines, target, options) = (turn.engines, turn.target, turn.options);
    match outcome {
        // The subject was started again after failing on a question it could not
        // do without: a finding of its own kind, on that question's position.
        Err(SubjectError::Restarted { error }) => {
            let met = asker.take_met().pop();
            failed(asker, engines, target, met, *error, options, report)
        }
        // It refused the target itself, a valid position: a finding naming the
        // position and its reason.
        Err(error @ SubjectError::Refused { .. }) => {
            failed(asker, engines, target, None, error, options, report)
        }
        Ok(()) => {
            let met = asker.take_met();
            join_follow_ups(asker, engines, target, met, options, report);
            Ok(())
        }
        other => other,
    }
}

/// Whether the run ends after a target with `outcome`: out of time (a difference cut
/// short before it was named left at its line), or a failure the subject could not be
/// started again after, recorded.
fn ends_run(outcome: Result<(), SubjectError>, target: &Target, report: &mut Report) -> bool {
    if let Err(SubjectError::OutOfTime { .. }) = outcome {
        report.out_of_time = Some(target.label.clone());
        // A difference the time cut short before it could be named is, in a long
        // run that found bugs already, one of them as often as not: left at its
        // line, not filed as one more bug.
        let unnamed = report.findings.len() > 1
            && report.findings.last().is_some_and(|f| {
                f.trail().is_some_and(|t| t.label == target.label)
                    && f.hits == 1
                    && f.diagnosis.is_none()
            });
        if unnamed {
            report.findings.pop();
            report.cut_unnamed = true;
        }
        return true;
    }
    if let Err(error) = outcome {
        report.failure = Some(Failure {
            label: target.label.clone(),
            position: target.position.clone(),
            depth: target.depth,
            error,
        });
        return true;
    }
    false
}

/// Whether `deadline` has come.
fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|end| Instant::now() >= end)
}

/// What `f` gives, and how long it took.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let started = Instant::now();
    let out = f();
    (out, started.elapsed())
}

/// One target being checked, and what every step of its check reads.
struct Turn<'a, 'o> {
    /// The built-ins, the first the reference.
    engines: &'a [&'a dyn Generator],
    /// Its index among the targets asked.
    index: usize,
    target: &'a Target,
    options: &'a Options<'o>,
    /// When the run began: a finding says how far into it it was met.
    started: Instant,
}

/// One target: compare, and on a difference locate, minimize, name and record it. A
/// failure of the subject is returned once what was found before it is recorded.
fn check_one(
    subject: &mut dyn Subject,
    turn: &Turn<'_, '_>,
    stage: &mut dyn FnMut(Stage),
    report: &mut Report,
    saving: &mut Option<Saving>,
) -> Result<(), SubjectError> {
    let &Turn {
        engines,
        index,
        target,
        options,
        ..
    } = turn;
    let Some(cmp) = compare(subject, turn, stage, report)? else {
        return Ok(());
    };
    // A difference is heard of once it is named (below), or as it is when it cannot be.
    let root = &target.position;
    let located = match locate::descend(subject, engines, root, target.depth, cmp, stage) {
        Ok(located) => located,
        Err(e) => {
            hear(options, report);
            return Err(e);
        }
    };
    // From here on a failure still leaves a finding worth reporting and saving.
    let (mut trail, failure) = reproduced(subject, engines, (index, target), located, stage);
    trail.found_by = match &trail.reproduction {
        Some(r) => options.reproduced(&r.minimized, r.depth, &target.label),
        None => options.reproduced(&trail.position, trail.comparison.depth, &target.label),
    };
    let (finding, failure) = name(subject, turn, trail, failure, report);
    if let Some(c) = report.checked.last_mut() {
        c.known = finding.known;
        c.bug = Some(finding.signature.clone());
    }
    hear(options, report);
    record(finding, engines, report, saving, &options.known);
    failure.map_or(Ok(()), Err)
}

/// Tells whoever hears of each target checked (`Options::on_checked`) of the last row.
fn hear(options: &Options<'_>, report: &Report) {
    if let (Some(hear), Some(c)) = (options.on_checked, report.checked.last()) {
        hear(c);
    }
}

/// Whether the run's stop flag is up.
fn stopped(options: &Options<'_>) -> bool {
    options
        .stop
        .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
}

/// The subject's answer on the target beside the built-ins', recorded as a checked
/// row: the comparison when they differ; `None` when there is no difference to follow
/// (they agree, the built-ins disagree among themselves, or the run was stopped and
/// the built-ins' counts were cut short).
fn compare(
    subject: &mut dyn Subject,
    turn: &Turn<'_, '_>,
    stage: &mut dyn FnMut(Stage),
    report: &mut Report,
) -> Result<Option<Comparison>, SubjectError> {
    let (engines, target, options) = (turn.engines, turn.target, turn.options);
    stage(Stage::Comparing);
    let started = Instant::now();
    let root = &target.position;
    let mut confirmed = match options.reference {
        Reference::All => true,
        Reference::First { confirm_every } => confirm_every > 0 && turn.index % confirm_every == 0,
    } || engines.len() == 1;
    let reference = if confirmed { engines } else { &engines[..1] };
    let ((theirs, subject_time), (ours, mut builtins_time)) = both(
        target.depth >= OVERLAP_DEPTH,
        || timed(|| subject.divide(root, &[], target.depth)),
        || timed(|| consensus(root, target.depth, reference)),
    );
    let theirs = theirs?;
    if stopped(options) {
        // Our counts were cut short: nothing to compare, nothing to record.
        return Ok(None);
    }
    let subject_total = theirs.total;
    let ours = match ours {
        Ok(ours) => ours,
        Err(all) => {
            let timing = (started, subject_time, builtins_time);
            ours_disagree(turn, (subject_total, timing), &all, stage, report);
            return Ok(None);
        }
    };
    let theirs = answer(subject, root, &[], target.depth, theirs, &ours)?;
    let cmp = Comparison::new(target.depth, &theirs, &ours);
    // A difference from the reference alone is confirmed by every built-in first: the
    // reference may be the one that is wrong.
    if cmp.differs() && !confirmed {
        confirmed = true;
        let (all, took) = timed(|| consensus(root, target.depth, engines));
        builtins_time += took;
        if stopped(options) {
            return Ok(None);
        }
        // Agreeing, they agree with the reference, one of them: the comparison stands.
        if let Err(all) = all {
            let timing = (started, subject_time, builtins_time);
            ours_disagree(turn, (subject_total, timing), &all, stage, report);
            return Ok(None);
        }
    }
    let differs = cmp.differs();
    let verdict = match differs {
        true => Verdict::Differs,
        false => Verdict::Agree,
    };
    let totals = (cmp.consensus_total, cmp.subject_total);
    let timing = (started, subject_time, builtins_time);
    report
        .checked
        .push(Checked::row(target, totals, verdict, confirmed, timing));
    if !differs {
        hear(options, report);
        return Ok(None);
    }
    Ok(Some(cmp))
}

/// How a located difference was found, before it is named: the smallest position that
/// shows it from a FEN alone when the subject answers that far, and what it failed on
/// on the way.
fn reproduced(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    (index, target): (usize, &Target),
    located: locate::Located,
    stage: &mut dyn FnMut(Stage),
) -> (Trail, Option<SubjectError>) {
    let position = located.positions.last().unwrap_or(&target.position).clone();
    let mut trail = Trail {
        subject: subject.name(),
        builtins: engines.iter().map(|g| g.name().to_owned()).collect(),
        order: index as u64,
        label: target.label.clone(),
        root: target.position.clone(),
        depth: target.depth,
        path: located.path,
        position,
        comparison: located.comparison,
        note: located.note,
        failures: Vec::new(),
        reproduction: None,
        found_by: Provenance::described(""),
    };
    let failure = match reduce(subject, engines, &located.positions, target.depth, stage) {
        Ok((r, failure)) => {
            trail.reproduction = Some(r);
            failure
        }
        Err(e) => Some(e),
    };
    (trail, failure)
}

/// The finding `trail` found, named by its cause: a move listed twice, a state bug (the
/// subject's answers depending on the path, or noise), else the subject's answer on the
/// smallest witness put to the catalogue, asking it about deciding positions while
/// variants tie. Returns the subject's failure too, which a state probe may have met.
fn name(
    subject: &mut dyn Subject,
    turn: &Turn<'_, '_>,
    trail: Trail,
    mut failure: Option<SubjectError>,
    report: &Report,
) -> (Finding, Option<SubjectError>) {
    let (engines, known) = (turn.engines, &turn.options.known);
    let symptom = trail.symptom();
    let repeated = trail
        .reproduction
        .as_ref()
        .and_then(|r| r.comparison.as_ref())
        .filter(|c| c.only_subject.is_empty() && c.only_consensus.is_empty())
        .map(|c| c.listed_more_than_once.clone())
        .filter(|twice| !twice.is_empty());
    // A state bug answers some witness as some variant would by chance: asked first.
    let state = match (&trail.reproduction, &failure) {
        (Some(r), None) => depends_on_path(subject, engines, r).unwrap_or_else(|e| {
            failure = Some(e);
            None
        }),
        _ => None,
    };
    // Noise is not a state bug: the witness is asked again before one is named.
    let state = match (state, trail.reproduction.as_ref().and_then(witness)) {
        (Some(fault), Some(w)) => {
            Some(nondeterministic(&w, &mut |q| ask(subject, q)).unwrap_or(fault))
        }
        (state, _) => state,
    };
    let named = match trail.reproduction.as_ref().and_then(witness) {
        // A move listed twice is a cause before any reading of the rules: no variant
        // lists one twice.
        _ if repeated.is_some() => Diagnosed {
            signature: symptom.clone(),
            diagnosis: repeated.map(|m| {
                Diagnosis::of_fault(AnswerFault::ListedTwice(
                    m.into_iter().map(|(mv, _)| mv).collect(),
                ))
            }),
            evidence: Vec::new(),
        },
        Some(_) if state.is_some() => Diagnosed {
            signature: Signature::plain(
                state
                    .as_ref()
                    .and_then(AnswerFault::check_name)
                    .unwrap_or_default(),
                "subject",
            ),
            diagnosis: state.map(Diagnosis::of_fault),
            evidence: Vec::new(),
        },
        Some(w) if failure.is_none() => {
            let causes = named_causes(report.findings.iter().filter_map(|f| f.diagnosis.as_ref()));
            // The witness asked again is asked afresh: whether the answer repeats.
            let at = w.position.clone();
            diagnosed(&symptom, vec![w], &causes, |q| match q.position == at {
                true => ask_afresh(subject, q),
                false => ask(subject, q),
            })
        }
        _ => Diagnosed::not(&symptom),
    };
    let (order, after) = (trail.order, turn.started.elapsed());
    let mut finding = Finding::first_of(Blame::Subject(Box::new(trail)), symptom, order, after);
    finding.known = known.names(&named.signature, &finding.symptoms);
    finding.signature = named.signature;
    finding.diagnosis = named.diagnosis;
    finding.evidence = named.evidence;
    (finding, failure)
}

/// Files a named `finding` in the report. A bug seen before is one more hit on it, and
/// one more witness while it has few, kept by the one rule every finding's witnesses
/// follow ([`Finding::offer`]); a witness kept is saved, and one that leads takes the
/// finding's place with everything the finding had.
fn record(
    mut finding: Finding,
    engines: &[&dyn Generator],
    report: &mut Report,
    saving: &mut Option<Saving>,
    known: &Known,
) {
    let seen = report
        .findings
        .iter()
        .position(|f| f.signature == finding.signature);
    if let Some(i) = seen {
        let seen = &mut report.findings[i];
        if !seen.would_keep(finding.minimized()) {
            seen.count_hits_of(finding);
            return;
        }
    }
    if let (Some(saving), Some(trail)) = (saving, finding.trail()) {
        let case = case::subject_case(trail, &finding.signature, engines);
        match saving.write(&case) {
            Ok((path, _)) => {
                finding.file = Some(path.clone());
                finding.saved.push(path);
            }
            Err(e) => report
                .write_errors
                .push(format!("cannot write into {}: {e}", saving.dir().display())),
        }
    }
    match seen {
        None => report.findings.push(finding),
        Some(i) => report.findings[i].count_in(finding, known),
    }
}

/// A diagnosis's question put to the subject: its divide, when it gives one per move.
fn ask(subject: &mut dyn Subject, q: &Question) -> Option<Answer> {
    let d = subject.divide(&q.position, &[], q.depth).ok()?;
    Some(as_legal(subject, q, d.per_move?))
}

/// A subject's divide as a diagnosis compares it: under king-capture rules, without the
/// root moves that leave the mover's king attacked, which no rule variant lists (the
/// set-aside of the comparison leaves those whose shape the rules do not allow).
fn as_legal(subject: &dyn Subject, q: &Question, mut counts: Vec<(Move, u64)>) -> Answer {
    if subject.set_aside().is_some() {
        counts.retain(|&(m, _)| !crate::subject::rules::leaves_king_attacked(&q.position, m));
    }
    Answer::Divide {
        depth: q.depth,
        counts,
    }
}

/// [`ask`], put to the subject afresh, never answered from its memory: for a question
/// asked again to see whether the answer repeats.
fn ask_afresh(subject: &mut dyn Subject, q: &Question) -> Option<Answer> {
    subject.forget();
    let d = subject.divide(&q.position, &[], q.depth).ok()?;
    Some(as_legal(subject, q, d.per_move?))
}

/// The subject's full answer on a reproduction's smallest position, as a witness to
/// diagnose: the built-ins' divide with the comparison's differences put back. `None`
/// when the subject did not name all its moves there, or named one twice.
fn witness(r: &Reproduction) -> Option<Witness> {
    let c = r.comparison.as_ref()?;
    if !c.named || c.unnamed() > 0 || !c.listed_more_than_once.is_empty() {
        return None;
    }
    let mut counts: Vec<(Move, u64)> = r
        .expected
        .iter()
        .filter(|(mv, _)| !c.only_consensus.iter().any(|(m, _)| m == mv))
        .map(|&(mv, n)| {
            let theirs = c.counts_differ.iter().find(|d| d.mv == mv);
            (mv, theirs.map_or(n, |d| d.subject))
        })
        .chain(c.only_subject.iter().copied())
        .collect();
    counts.sort_unstable();
    Some(Witness {
        position: r.minimized.clone(),
        answer: Answer::Divide {
            depth: r.depth,
            counts,
        },
    })
}

/// How many differing moves are asked about on their own at each position.
const STATE_QUESTIONS: usize = 4;

/// How many questions the search for a state bug asks in all.
const STATE_BUDGET: usize = 12;

/// A move below which the subject's count in its divide at the reproduction differs from
/// its own answer about the position after the move, asked from its FEN: its answers
/// then depend on the moves made before, not on the position, which no reading of the
/// rules does. Asked once more after playing the move itself, the subject tells where:
/// the same wrong count blames the move (`DependsOnPath`), the right one the search
/// before the count (`CountedInSearch`). A wrong count the subject repeats about the
/// position after the move, asked on its own, is followed down there: a smaller
/// witness can hold the difference one move deeper than where it was shrunk, and what
/// it hides there may be a state bug too. `None` at depth 1 (nothing is made) and where
/// every answer agrees.
fn depends_on_path(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    r: &Reproduction,
) -> Result<Option<AnswerFault>, SubjectError> {
    let Some(c) = r.comparison.as_ref().filter(|_| r.depth >= 2) else {
        return Ok(None);
    };
    let differ: Vec<(Move, u64)> = c.counts_differ.iter().map(|d| (d.mv, d.subject)).collect();
    let mut probe = StateProbe {
        subject,
        engines,
        root: &r.minimized,
        line: Vec::new(),
        budget: STATE_BUDGET,
    };
    probe.below(&r.minimized, r.depth, &differ)
}

/// The walk of [`depends_on_path`]: the witness, the moves from it to the position
/// probed, and the questions left.
struct StateProbe<'a, 'b> {
    subject: &'a mut dyn Subject,
    engines: &'a [&'b dyn Generator],
    root: &'a Position,
    line: Vec<Move>,
    budget: usize,
}

impl StateProbe<'_, '_> {
    /// One question to the subject, within the budget; `None` when it is spent or the
    /// subject could not answer (a fatal failure is an error).
    fn ask(
        &mut self,
        pos: &Position,
        path: &[Move],
        depth: u32,
    ) -> Result<Option<crate::subject::Divide>, SubjectError> {
        if self.budget == 0 {
            return Ok(None);
        }
        self.budget -= 1;
        match self.subject.divide(pos, path, depth) {
            Ok(d) => Ok(Some(d)),
            Err(e) if is_fatal(&e) => Err(e),
            Err(_) => Ok(None),
        }
    }

    /// `differ`: the moves at `pos` (reached from the witness by `self.line`) whose
    /// counts at `depth` the subject gave wrong, with its counts.
    fn below(
        &mut self,
        pos: &Position,
        depth: u32,
        differ: &[(Move, u64)],
    ) -> Result<Option<AnswerFault>, SubjectError> {
        for &(mv, theirs) in differ.iter().take(STATE_QUESTIONS) {
            // Room for the question and the one that tells where a fault lies.
            if self.budget < 2 {
                break;
            }
            let Ok(after) = self.engines[0].play(pos, mv) else {
                continue;
            };
            let Some(alone) = self.ask(&after, &[], depth - 1)? else {
                continue;
            };
            self.line.push(mv);
            if alone.total != theirs {
                let line = self.line.clone();
                let played = self.ask(self.root, &line, depth - 1)?;
                return Ok(Some(if played.map(|d| d.total) == Some(theirs) {
                    AnswerFault::DependsOnPath(line)
                } else {
                    AnswerFault::CountedInSearch(line, self.subject.counting())
                }));
            }
            if let (true, Some(theirs)) = (depth >= 3, alone.per_move) {
                let mut ours = self.engines[0].divide(&after, depth - 1, false, None);
                ours.sort_unstable();
                let deeper: Vec<(Move, u64)> = theirs
                    .into_iter()
                    .filter(|(m, n)| {
                        ours.binary_search_by_key(m, |(o, _)| *o)
                            .is_ok_and(|i| ours[i].1 != *n)
                    })
                    .collect();
                if let Some(fault) = self.below(&after, depth - 1, &deeper)? {
                    return Ok(Some(fault));
                }
            }
            self.line.pop();
        }
        Ok(None)
    }
}

/// Reproduction, minimization and the full answer at the minimized position. The
/// error beside a reproduction is a failure that cut the minimization short.
fn reduce(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    positions: &[Position],
    depth: u32,
    stage: &mut dyn FnMut(Stage),
) -> Result<(Reproduction, Option<SubjectError>), SubjectError> {
    let (ply, k, signature) = locate::reproduce(subject, engines, positions, depth, stage)?;
    let from = positions[ply].clone();
    let (minimized, mut failure) = locate::minimize(subject, engines, &from, k, signature, stage);
    let mut comparison = None;
    if failure.is_none() {
        match locate::compare_alone(subject, engines, &minimized, k) {
            Ok(c) => comparison = c,
            Err(e) if is_fatal(&e) => failure = Some(e),
            Err(_) => {}
        }
    }
    let mut expected = engines[0].divide(&minimized, k, true, None);
    expected.sort();
    Ok((
        Reproduction {
            ply,
            from,
            depth: k,
            minimized,
            comparison,
            expected,
        },
        failure,
    ))
}

/// The subject failed on a question about `target` that the target could not do
/// without (`met`, a crash or hang it was started again after; `None`: it refused the
/// target itself): a finding of its own kind, one per kind, on the position of the
/// failing question. A crash or hang is asked again from the position's FEN alone; if
/// it fails the same way, the position is shrunk to the fewest pieces on which it still
/// does (the restarts on the way free: they are this one failure's), else it is
/// reported as it came, not confirmed. A refusal is an answer and needs no second
/// asking. All of it within the run's time ([`Options::deadline`]), a hang's shrinking
/// within a few timeouts of its own ([`HANG_TIMEOUTS`]): what a time or a restart that
/// fails cuts short is recorded as far as it got, saying so, and is never lost. `Err`
/// with why the subject could not be started again, once the failure is recorded.
fn failed(
    asker: &mut asker::Asker<'_>,
    engines: &[&dyn Generator],
    target: &Target,
    met: Option<asker::Met>,
    error: SubjectError,
    options: &Options<'_>,
    report: &mut Report,
) -> Result<(), SubjectError> {
    let kind = CrashKind::of(&error).unwrap_or(CrashKind::Refusal);
    // The position the failing question was about: where a path was played, the
    // position after it, which the shrinking asks from its FEN alone.
    let (position, depth) = match &met {
        Some(m) => (
            m.path
                .iter()
                .try_fold(m.root.clone(), |pos, &mv| engines[0].play(&pos, mv).ok())
                .unwrap_or_else(|| m.root.clone()),
            m.depth,
        ),
        None => (target.position.clone(), target.depth),
    };
    let said = met
        .as_ref()
        .map_or_else(|| error.to_string(), |m| m.error.clone());
    let first = (kind, said.as_str());
    let seen = |report: &mut Report, minimized: Position, note: Option<String>| {
        let at = (&target.label, &position, depth);
        record_crash(report, options, at, first, minimized, note);
    };
    if kind != CrashKind::Refusal {
        asker.file(kind, false);
    }
    let hang_timeout = match &error {
        SubjectError::Timeout { timeout, .. } => Some(*timeout),
        _ => None,
    };
    // One more hit on a failure whose witness is no bigger than this position is
    // counted, not asked about again (it could only cost restarts, and a hang's
    // timeouts, for a witness no smaller), or, where that witness's shrinking was cut
    // short, it goes on shrinking it.
    let pieces = position.pieces().count();
    let resume = report
        .crashes
        .iter()
        .find(|c| c.kind == kind && c.minimized.pieces().count() <= pieces)
        .map(|c| (c.note.is_none(), c.minimized.clone()));
    let start = match resume {
        Some((true, _)) => {
            seen(report, position.clone(), None);
            return Ok(());
        }
        Some((false, witness)) => Some(witness),
        None => None,
    };
    let wait = hang_timeout.map(|t| shrink_timeout(report, depth).map_or(t, |s| s.min(t)));
    asker.set_question_timeout(wait);
    let question = Shrinking {
        kind,
        depth,
        hang: hang_timeout.map(|t| (t, wait.unwrap_or(t))),
        deadline: options.deadline,
    };
    let outcome = asker.freely(|asker| question.shrink(asker, &position, start.as_ref()));
    asker.set_question_timeout(None);
    let Shrunk {
        minimized,
        cut,
        asked,
        confirmed,
    } = outcome;
    let note = failure_note(cut.as_ref(), confirmed, asked);
    seen(report, minimized, note);
    match cut {
        Some(Cut::Restart(e)) => Err(e),
        _ => Ok(()),
    }
}

/// How one failure is confirmed and shrunk: its kind, the depth asked, for a hang its
/// timeout and the shorter wait of each shrinking question, and the run's end.
struct Shrinking {
    kind: CrashKind,
    depth: u32,
    hang: Option<(Duration, Duration)>,
    deadline: Option<Instant>,
}

/// What [`Shrinking::shrink`] did: the smallest position still failing the same way,
/// what cut it short, how many questions it asked, and whether the failure came back.
struct Shrunk {
    minimized: Position,
    cut: Option<Cut>,
    asked: usize,
    confirmed: bool,
}

impl Shrinking {
    /// Asks `position` again from its FEN alone (unless this goes on from `start`, a
    /// witness already seen failing, or the failure is a refusal, an answer), then
    /// shrinks it while it fails the same way. A hang is shrunk within a few of its
    /// own timeouts (or of its shorter waits, when the timeout is hardly longer than
    /// they are), and at most half of what is left of the run.
    fn shrink(
        &self,
        asker: &mut asker::Asker<'_>,
        position: &Position,
        start: Option<&Position>,
    ) -> Shrunk {
        let mut asked = 0;
        let mut cut = None;
        // Set once the hang is confirmed: the confirmation is one wait more.
        let until: std::cell::Cell<Option<Instant>> = std::cell::Cell::new(None);
        let mut ask = |candidate: &Position, asked: &mut usize| -> Option<bool> {
            if cut.is_some() {
                return None;
            }
            if *asked >= CRASH_QUESTIONS {
                cut = Some(Cut::Questions);
                return None;
            }
            if past(self.deadline) {
                cut = Some(Cut::Time);
                return None;
            }
            if let (Some(until), Some((_, wait))) = (until.get(), self.hang) {
                if Instant::now() + wait > until {
                    cut = Some(Cut::Budget);
                    return None;
                }
            }
            *asked += 1;
            match asker.divide(candidate, &[], self.depth) {
                Ok(_) => Some(false),
                Err(SubjectError::OutOfTime { .. }) => {
                    cut = Some(Cut::Time);
                    None
                }
                Err(e) => match failed_as(&e) {
                    Some(k) => Some(k == self.kind),
                    None if compare::is_fatal(&e) => {
                        cut = Some(Cut::Restart(e));
                        None
                    }
                    None => Some(false),
                },
            }
        };
        // Only a failure the position brings about is shrunk: asked again from its
        // FEN alone, on a subject started afresh, it must fail the same way.
        let confirmed = self.kind == CrashKind::Refusal
            || start.is_some()
            || ask(position, &mut asked) == Some(true);
        if !confirmed {
            return Shrunk {
                minimized: position.clone(),
                cut,
                asked,
                confirmed,
            };
        }
        until.set(self.hang.map(|(timeout, wait)| {
            let budget = timeout
                .saturating_mul(HANG_TIMEOUTS)
                .max(wait.saturating_mul(HANG_WAITS));
            let budget = match self.deadline {
                Some(end) => budget.min(end.saturating_duration_since(Instant::now()) / 2),
                None => budget,
            };
            Instant::now() + budget
        }));
        let minimized = crate::diff::minimize::shrink(start.unwrap_or(position), |candidate| {
            ask(candidate, &mut asked) == Some(true)
        });
        Shrunk {
            minimized,
            cut,
            asked,
            confirmed,
        }
    }
}

/// Why a failure's witness is as it is, when it is not simply its smallest: what cut
/// its confirmation or shrinking short after `asked` questions.
fn failure_note(cut: Option<&Cut>, confirmed: bool, asked: usize) -> Option<String> {
    let further = |why: &str| Some(format!("shrunk no further: {why} after {asked} questions"));
    match cut {
        Some(Cut::Time) if !confirmed => Some(format!("not confirmed or shrunk: {TIME_RAN_OUT}")),
        None if !confirmed => Some(
            "not confirmed: asked again from its FEN alone, on the subject started afresh, \
             it answered (a failure after so many questions, or at random)"
                .to_owned(),
        ),
        None => None,
        Some(Cut::Time) => further(TIME_RAN_OUT),
        Some(Cut::Budget) => further(&format!(
            "the time for shrinking a hang ({HANG_TIMEOUTS} timeouts or {HANG_WAITS} \
             shorter waits, at most half of the run's time left) ran out"
        )),
        Some(Cut::Questions) => Some(format!(
            "shrunk as far as {CRASH_QUESTIONS} questions went; a later hit goes on from here"
        )),
        Some(Cut::Restart(_)) => further(NOT_RESTARTED),
    }
}

/// How a question failed, when it failed as one of the kinds a finding is of: a
/// crash or hang the subject was started again after, or a refusal.
fn failed_as(e: &SubjectError) -> Option<CrashKind> {
    match e {
        SubjectError::Restarted { error } => CrashKind::of(error),
        SubjectError::Refused { .. } => Some(CrashKind::Refusal),
        _ => None,
    }
}

/// The failures of `target`'s follow-up questions (its descent, the minimizer's and
/// the diagnosis' positions, the state probe): refusals, and crashes and hangs the
/// check went on after without that answer. Where the target showed a bug, they are
/// part of its investigation and join its finding, said once per kind: a bug that
/// leads the subject into a position it then refuses or fails on shows once, not as a
/// rule bug and a crash. Else a crash or hang is a finding of its own kind on the
/// failing question's position, as it came; a refusal, an answer, is left at that.
fn join_follow_ups(
    asker: &mut asker::Asker<'_>,
    engines: &[&dyn Generator],
    target: &Target,
    met: Vec<asker::Met>,
    options: &Options<'_>,
    report: &mut Report,
) {
    let bug = report
        .checked
        .last()
        .filter(|c| c.label == target.label)
        .and_then(|c| c.bug.clone());
    for m in met {
        let opening = match m.kind {
            CrashKind::Crash => "the subject crashed on a follow-up question",
            CrashKind::Hang => "the subject hung on a follow-up question",
            CrashKind::Refusal => "the subject refused a follow-up question",
        };
        if m.kind != CrashKind::Refusal {
            asker.file(m.kind, true);
        }
        let finding = bug
            .as_ref()
            .and_then(|b| report.findings.iter_mut().find(|f| &f.signature == b))
            .and_then(Finding::trail_mut);
        if let Some(f) = finding {
            if !f.failures.iter().any(|said| said.starts_with(opening)) {
                let after = match m.kind {
                    CrashKind::Refusal => "",
                    _ => " and was started again",
                };
                // One line: the error and the lines the subject printed after it.
                let what: Vec<&str> = m.error.lines().map(str::trim).collect();
                f.failures
                    .push(format!("{opening}{after}: {}", what.join(" ")));
            }
            continue;
        }
        if m.kind == CrashKind::Refusal {
            continue;
        }
        let position = m
            .path
            .iter()
            .try_fold(m.root.clone(), |pos, &mv| engines[0].play(&pos, mv).ok())
            .unwrap_or_else(|| m.root.clone());
        let at = (&target.label, &position, m.depth);
        let note = "met on a follow-up question; not confirmed or shrunk".to_owned();
        record_crash(
            report,
            options,
            at,
            (m.kind, &m.error),
            position.clone(),
            Some(note),
        );
    }
}

/// What cut a failure's confirmation or shrinking short.
enum Cut {
    /// The run's time ran out.
    Time,
    /// The time for shrinking a hang ran out.
    Budget,
    /// The questions for shrinking one failure ([`CRASH_QUESTIONS`]) were all asked.
    Questions,
    /// The subject could not be started again, and why.
    Restart(SubjectError),
}

/// Why a failure's witness is as it is, in its note.
const TIME_RAN_OUT: &str = "the run's time ran out";
const NOT_RESTARTED: &str = "the subject could not be started again";

/// How many of its own timeouts shrinking a hang may take, past the one the hang
/// itself took: a hang costs a few timeouts, not one per question.
pub(crate) const HANG_TIMEOUTS: u32 = 3;

/// How many of its shorter waits shrinking a hang may take at least: room for a few
/// pieces removed where the timeout is no longer than a wait.
pub(crate) const HANG_WAITS: u32 = 9;

/// One more hit on the finding of `kind` (the first met on target `label` asking
/// `position` at `depth`, and what the subject did there), whose witness becomes
/// `minimized` (with its `note`) when that has fewer pieces.
fn record_crash(
    report: &mut Report,
    options: &Options<'_>,
    (label, position, depth): (&String, &Position, u32),
    (kind, error): (CrashKind, &str),
    minimized: Position,
    note: Option<String>,
) {
    let found_by = options.reproduced(&minimized, depth, label);
    match report.crashes.iter_mut().find(|c| c.kind == kind) {
        Some(c) => {
            c.hits += 1;
            if minimized.pieces().count() < c.minimized.pieces().count() {
                c.minimized = minimized;
                c.found_by = found_by;
                c.note = note;
            }
        }
        None => {
            let mut crash = Crash {
                kind,
                known: false,
                hits: 1,
                label: label.clone(),
                position: position.clone(),
                depth,
                minimized,
                error: error.to_owned(),
                found_by,
                note,
            };
            crash.known = options.known.contains(&crash.signature());
            report.crashes.push(crash);
        }
    }
}

/// Questions at most while shrinking a crash's position.
const CRASH_QUESTIONS: usize = 48;

/// How many times the slowest answer at the depth (or deeper) a shrinking question
/// waits, and at least how long: far above what a smaller position takes on a busy
/// machine, far below a timeout.
const SHRINK_SLACK: u32 = 20;
const SHRINK_FLOOR: Duration = Duration::from_secs(3);

/// The wait for each step of a shrinking question at `depth`: [`SHRINK_SLACK`] times the
/// slowest answer the subject gave so far at that depth or deeper, at least
/// [`SHRINK_FLOOR`]; `None` (its own timeout) before any such answer.
fn shrink_timeout(report: &Report, depth: u32) -> Option<Duration> {
    let slowest = report
        .checked
        .iter()
        .filter(|c| c.depth >= depth)
        .map(|c| c.subject_time)
        .max()?;
    Some(slowest.saturating_mul(SHRINK_SLACK).max(SHRINK_FLOOR))
}

/// A target where the built-ins disagree among themselves: recorded, and the
/// disagreement followed down among ours by the one findings path, with the subject's
/// total, and when the target started with the subject's and the built-ins' times.
fn ours_disagree(
    turn: &Turn<'_, '_>,
    (subject_total, timing): (u64, Timing),
    all: &[Vec<(Move, u64)>],
    stage: &mut dyn FnMut(Stage),
    report: &mut Report,
) {
    let &Turn {
        engines,
        target,
        options,
        ..
    } = turn;
    let consensus_total = all.first().map_or(0, |d| d.iter().map(|(_, n)| n).sum());
    let totals = (consensus_total, subject_total);
    report.checked.push(Checked::row(
        target,
        totals,
        Verdict::OursDisagree,
        true,
        timing,
    ));
    hear(options, report);
    stage(Stage::OursDisagree);
    let ours = among_ours(engines, target, all, options, &mut report.write_errors);
    report.ours.push(ours);
}

/// Follows a disagreement among the built-ins at a target down and hands it to the one
/// findings path (minimized, held to the known list, saved into the corpus).
fn among_ours(
    engines: &[&dyn Generator],
    target: &Target,
    root_divides: &[Vec<(Move, u64)>],
    options: &Options<'_>,
    write_errors: &mut Vec<String>,
) -> Ours {
    let mut findings = Findings::new(Settings {
        known: options.known.clone(),
        save: options.corpus.clone(),
        keep_as_is: false,
    });
    let index = descent::explain_into(
        &mut findings,
        0,
        &target.position,
        target.depth,
        engines,
        Some(root_divides),
        None,
    );
    write_errors.append(&mut findings.write_errors);
    Ours {
        label: target.label.clone(),
        finding: index.and_then(|i| findings.into_list().into_iter().nth(i)),
    }
}
