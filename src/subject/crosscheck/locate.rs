//! From a root where the subject's divide differs to the smallest position that shows
//! it: descend with the subject playing the path, find the shallowest perft from a FEN
//! alone that still differs (walking back up the path when the subject's make is what
//! goes wrong), then shrink that position.

use super::compare::{
    answer, both, consensus, differs_alone, is_fatal, Comparison, Counts, OVERLAP_DEPTH,
};
use super::Stage;
use crate::diff::minimize::shrink;
use crate::diff::oracle::consensus_play;
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use crate::subject::{Subject, SubjectError};

/// Where the descent stopped.
pub(crate) struct Located {
    /// Moves from the root.
    pub path: Vec<Move>,
    /// The root, then the consensus's position after each move of `path`.
    pub positions: Vec<Position>,
    /// The comparison at the last position, at the depth left there.
    pub comparison: Comparison,
    /// Why the descent stopped before the move sets differed, when it did.
    pub note: Option<String>,
}

/// Follows the first move whose counts differ, the subject playing the path itself,
/// until the move sets differ or depth 1 is reached.
pub(crate) fn descend(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    root: &Position,
    depth: u32,
    at_root: Comparison,
    stage: &mut dyn FnMut(Stage),
) -> Result<Located, SubjectError> {
    let mut here = Located {
        path: Vec::new(),
        positions: vec![root.clone()],
        comparison: at_root,
        note: None,
    };
    loop {
        let left = depth - here.path.len() as u32;
        if here.comparison.sets_differ() || left <= 1 {
            return Ok(here);
        }
        let Some(mv) = here.comparison.counts_differ.first().map(|c| c.mv) else {
            here.note = Some(
                "the totals differ but no move's count does: the subject's total is not \
                 the sum of its own per-move counts"
                    .into(),
            );
            return Ok(here);
        };
        let pos = here.positions.last().unwrap_or(root);
        let Some(next) = consensus_play(pos, engines, mv) else {
            here.note = Some(format!("the built-ins cannot play {mv} here"));
            return Ok(here);
        };
        stage(Stage::Descending {
            ply: here.path.len() + 1,
        });
        let mut path = here.path.clone();
        path.push(mv);
        let below = left - 1;
        let (theirs, ours) = both(
            below >= OVERLAP_DEPTH,
            || subject.divide(root, &path, below),
            || consensus(&next, below, engines),
        );
        let Ok(ours) = ours else {
            here.note = Some(format!(
                "the built-in generators disagree among themselves below {mv}; \
                 run `xqdiff perft` on {} to see where",
                next.fen()
            ));
            return Ok(here);
        };
        let theirs = match theirs {
            Ok(d) => d,
            Err(e) => {
                here.note = Some(failed_to_play(mv, e)?);
                return Ok(here);
            }
        };
        let theirs = answer(subject, root, &path, below, theirs, &ours)?;
        let there = Comparison::new(below, &theirs, &ours);
        if !there.differs() {
            here.note = Some(agrees_below(&here.comparison, mv));
            return Ok(here);
        }
        here.path = path;
        here.positions.push(next);
        here.comparison = there;
    }
}

/// Why the descent stops where the subject counted `mv` but failed when asked to play
/// it, as the finding's note; a fatal error (`is_fatal`) ends the whole check instead.
/// A crash or hang there, after which the subject was started again, or a question not
/// asked, stops only the descent: the failure is said in the finding.
fn failed_to_play(mv: Move, e: SubjectError) -> Result<String, SubjectError> {
    match e {
        e if is_fatal(&e) => Err(e),
        e @ SubjectError::Refused { .. } => Ok(format!(
            "the subject counted {mv} here but would not play it: {e}"
        )),
        e => Ok(format!(
            "the subject counted {mv} here but failed when asked to play it: {}",
            e.to_string()
                .lines()
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

/// The note of a descent whose next step agrees: the subject's count for `mv` at the
/// position compared in `here` was off, yet its divide after `mv` agrees. Either it
/// listed `mv` more than once there, or it answers the same position two ways.
fn agrees_below(here: &Comparison, mv: Move) -> String {
    if here.listed_more_than_once.iter().any(|&(m, _)| m == mv) {
        format!(
            "the subject lists {mv} more than once here; after {mv} its divide \
             agrees with the built-ins"
        )
    } else {
        format!(
            "after {mv} the subject's own divide agrees with the built-ins, although \
             its count for {mv} here did not: it answers the same position two ways"
        )
    }
}

/// The shallowest question from a FEN alone that shows the difference: at the last
/// position of the descent at depths 1, 2, ... up to the depth left there, then at its
/// parent, and so on up the path. Returns the index into `positions` and the depth.
/// The root at the full depth is the question first asked, known to differ, so it is
/// the answer if nothing shallower is.
pub(crate) fn reproduce(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    positions: &[Position],
    depth: u32,
    stage: &mut dyn FnMut(Stage),
) -> Result<(usize, u32, Option<Signature>), SubjectError> {
    for ply in (0..positions.len()).rev() {
        let left = depth - ply as u32;
        for k in 1..=left {
            if ply == 0 && k == depth {
                break;
            }
            stage(Stage::Reproducing { ply, depth: k });
            if let Some(sig) = differs_alone(subject, engines, &positions[ply], k)? {
                return Ok((ply, k, Some(sig)));
            }
        }
    }
    Ok((0, depth, None))
}

/// Shrinks `from` while the subject's perft at `depth` from the FEN alone still
/// differs as the same bug: with the signature `target` (that of `from` when not
/// given), so the shrinking never slides from one bug to another. A fatal error ends
/// the shrinking at once; it is returned beside the smallest position reached so far.
pub(crate) fn minimize(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    from: &Position,
    depth: u32,
    target: Option<Signature>,
    stage: &mut dyn FnMut(Stage),
) -> (Position, Option<SubjectError>) {
    let target = match target {
        Some(t) => t,
        None => match differs_alone(subject, engines, from, depth) {
            Ok(Some(t)) => t,
            Ok(None) => return (from.clone(), None),
            Err(e) => return (from.clone(), Some(e)),
        },
    };
    let mut failure = None;
    let mut tried = 0;
    let mut pieces = from.pieces().count();
    let small = shrink(from, |candidate| {
        if failure.is_some() {
            return false;
        }
        tried += 1;
        stage(Stage::Minimizing { tried, pieces });
        match differs_alone(subject, engines, candidate, depth) {
            Ok(Some(sig)) if sig == target => {
                pieces = candidate.pieces().count();
                true
            }
            Ok(_) => false,
            Err(e) => {
                failure = Some(e);
                false
            }
        }
    });
    (small, failure)
}

/// The subject's full answer at `pos` from its FEN alone, beside the consensus; `None`
/// where the built-ins disagree among themselves.
pub(crate) fn compare_alone(
    subject: &mut dyn Subject,
    engines: &[&dyn Generator],
    pos: &Position,
    depth: u32,
) -> Result<Option<Comparison>, SubjectError> {
    let (theirs, ours) = both(
        depth >= OVERLAP_DEPTH,
        || subject.divide(pos, &[], depth),
        || consensus(pos, depth, engines),
    );
    let Ok(ours): Result<Counts, _> = ours else {
        return Ok(None);
    };
    let theirs = answer(subject, pos, &[], depth, theirs?, &ours)?;
    Ok(Some(Comparison::new(depth, &theirs, &ours)))
}
