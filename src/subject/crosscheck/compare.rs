//! One position, two answers: the divide the built-in generators agree on, and the
//! subject's, brought to per-move counts and compared.

pub(crate) use crate::diff::finding::trail::Comparison;
use crate::diff::finding::trail::{subject_signature, MoveCounts};
use crate::diff::oracle::tally::{self, Tally};
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use crate::subject::{Divide, Subject, SubjectError};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Per-move counts, in ICCS order.
pub(crate) type Counts = BTreeMap<Move, u64>;

/// Every built-in generator's divide of `pos` (the generators side by side, each on the
/// pool): the counts when they all agree, else every generator's counts in `engines`'
/// order, so the caller can descend among ours without dividing again.
pub(crate) fn consensus(
    pos: &Position,
    depth: u32,
    engines: &[&dyn Generator],
) -> Result<Counts, Vec<Vec<(Move, u64)>>> {
    let all: Vec<Vec<(Move, u64)>> = engines
        .par_iter()
        .map(|g| g.divide(pos, depth, true, None))
        .collect();
    let tallies: Vec<Tally> = all
        .iter()
        .map(|d| Tally::of_divide(d.iter().copied()))
        .collect();
    let names: Vec<&str> = engines.iter().map(|g| g.name()).collect();
    let refs: Vec<&Tally> = tallies.iter().collect();
    // A move one of ours lists twice is a disagreement among ours, not a consensus.
    match tally::compare(&names, &refs).is_empty() {
        true if !tallies.is_empty() => Ok(counts(&tallies[0])),
        _ => Err(all),
    }
}

/// A tally's per-move counts.
fn counts(t: &Tally) -> Counts {
    t.rows().iter().map(|r| (r.mv, r.count)).collect()
}

/// Runs the subject's question and the consensus side by side when the consensus is
/// big enough to be worth a thread: an external engine then counts while ours do.
pub(crate) fn both<A: Send, B>(
    overlap: bool,
    subject: impl FnOnce() -> A + Send,
    ours: impl FnOnce() -> B,
) -> (A, B) {
    if !overlap {
        let a = subject();
        return (a, ours());
    }
    std::thread::scope(|s| {
        let handle = s.spawn(subject);
        let b = ours();
        match handle.join() {
            Ok(a) => (a, b),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Below this depth a consensus divide takes less time than starting a thread.
pub(crate) const OVERLAP_DEPTH: u32 = 3;

/// Errors after which the subject cannot be asked anything more: it died, hung, or
/// never started, and was not started again. The rest (`Refused`, `Garbage`, a failure
/// the subject was started again after, a question not put) are about one question.
pub(crate) fn is_fatal(e: &SubjectError) -> bool {
    !matches!(
        e,
        SubjectError::Refused { .. }
            | SubjectError::Garbage { .. }
            | SubjectError::Restarted { .. }
            | SubjectError::NotAsked { .. }
    )
}

/// What the subject says about one position at one depth, per move where it can be
/// learned.
#[derive(Clone, Debug)]
pub(crate) struct Answer {
    per_move: Counts,
    total: u64,
    named: bool,
    repeated: Vec<(Move, u32)>,
}

/// Completes the subject's `first` answer to `divide(root, path, depth)`. A subject
/// that gave only a total is asked about each consensus move on its own; a refusal
/// there means it lacks the move.
pub(crate) fn answer(
    subject: &mut dyn Subject,
    root: &Position,
    path: &[Move],
    depth: u32,
    first: Divide,
    consensus: &Counts,
) -> Result<Answer, SubjectError> {
    if let Some(list) = first.per_move {
        // A move listed twice is the subject's mistake; summing keeps it visible in the
        // counts, and `repeated` names it.
        let tally = Tally::of_divide(list);
        return Ok(Answer {
            per_move: counts(&tally),
            total: first.total,
            named: true,
            repeated: tally.repeated_times().collect(),
        });
    }
    let mut per_move = Counts::new();
    let mut longer = path.to_vec();
    for &mv in consensus.keys() {
        longer.push(mv);
        // Depth 0 is no question; at depth 1 only whether it plays the move matters.
        match subject.divide(root, &longer, depth.saturating_sub(1).max(1)) {
            Ok(d) => {
                per_move.insert(mv, if depth <= 1 { 1 } else { d.total });
            }
            Err(SubjectError::Refused { .. }) => {}
            Err(e) => return Err(e),
        }
        longer.pop();
    }
    Ok(Answer {
        per_move,
        total: first.total,
        named: false,
        repeated: Vec::new(),
    })
}

impl Comparison {
    /// Compares an answer with the consensus counts.
    pub(crate) fn new(depth: u32, answer: &Answer, consensus: &Counts) -> Comparison {
        let only = |a: &Counts, b: &Counts| -> Vec<(Move, u64)> {
            a.iter()
                .filter(|(mv, _)| !b.contains_key(mv))
                .map(|(&mv, &n)| (mv, n))
                .collect()
        };
        Comparison {
            depth,
            consensus_total: consensus.values().sum(),
            subject_total: answer.total,
            subject_moves_sum: answer.per_move.values().sum(),
            named: answer.named,
            only_subject: only(&answer.per_move, consensus),
            only_consensus: only(consensus, &answer.per_move),
            counts_differ: answer
                .per_move
                .iter()
                .filter_map(|(&mv, &subject)| {
                    let consensus = *consensus.get(&mv)?;
                    (subject != consensus).then_some(MoveCounts {
                        mv,
                        subject,
                        consensus,
                    })
                })
                .collect(),
            listed_more_than_once: answer.repeated.clone(),
        }
    }
}

/// The signature of a subject's answer that differs from the consensus on `pos`: the
/// class of the moves only one side lists (`moves`), a move listed twice
/// (`listed-twice`), else counts alone (`counts`). The side is always `subject`.
pub(crate) fn signature_of(pos: &Position, theirs: Option<&Tally>, ours: &Counts) -> Signature {
    let Some(theirs) = theirs else {
        return Signature::plain("counts", "subject");
    };
    let extra: Vec<Move> = theirs.moves().filter(|mv| !ours.contains_key(mv)).collect();
    let missing: Vec<Move> = ours
        .keys()
        .copied()
        .filter(|&mv| theirs.get(mv).is_none())
        .collect();
    let twice: Vec<Move> = theirs.repeated().collect();
    subject_signature(pos, &extra, &missing, &twice)
}

/// Whether the subject's perft at `depth` from `pos` alone (no path) differs from the
/// consensus, and if so as which bug ([`signature_of`]): the minimizer's and the
/// reproduction's question. Totals are enough for a
/// totals-only subject, which keeps each question to one request. Positions where the
/// built-ins disagree among themselves, and answers the subject refuses or garbles,
/// count as "does not reproduce"; only a fatal error is returned.
pub(crate) fn differs_alone(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    pos: &Position,
    depth: u32,
) -> Result<Option<Signature>, SubjectError> {
    let (theirs, ours) = both(
        depth >= OVERLAP_DEPTH,
        || subject.divide(pos, &[], depth),
        || consensus(pos, depth, engines),
    );
    let Ok(ours) = ours else { return Ok(None) };
    match theirs {
        Ok(d) => {
            let total: u64 = ours.values().sum();
            let got = d.per_move.map(Tally::of_divide);
            let per_move_differs = got
                .as_ref()
                .is_some_and(|got| got.repeated().next().is_some() || counts(got) != ours);
            Ok((d.total != total || per_move_differs)
                .then(|| signature_of(pos, got.as_ref(), &ours)))
        }
        Err(e) if is_fatal(&e) => Err(e),
        Err(_) => Ok(None),
    }
}
