//! The naming that needs all of a run's findings at once, the same for the built-ins'
//! book and a subject's check: pairs named after the run, findings one cause explains
//! joined, a piece's moves and its check test joined, and noise that takes in the rest.

use super::bug::Finding;
use super::known::Known;
use super::naming::{
    missed_checkers, named_causes, paired_later, phantom_checkers, recount_diagnosis,
    shared_causes, ShapeKind,
};
use crate::diagnose::{Answer, AnswerFault, Bound, Diagnosis, Question};
use crate::piece::Role;

/// What naming needs all of a run's findings for, once the run is over: a finding
/// unexplained when it was met may show a cause named only after it beside another,
/// and named now joins that cause's finding ([`paired_later`], asking through `ask`
/// within `bound`); findings one variant explains alike are one bug
/// ([`join_shared_causes`]), and so are a piece's moves and the check test that misreads
/// them ([`join_check_test_into_piece`]); noise takes in every other finding; and each
/// cause is counted over all its evidence.
pub(crate) fn name_across(
    findings: &mut Vec<Finding>,
    known: &Known,
    bound: Bound,
    mut ask: impl FnMut(&Question) -> Option<Answer>,
) {
    let causes = named_causes(findings.iter().filter_map(|f| f.diagnosis.as_ref()));
    for f in findings.iter_mut() {
        // A pair with a variant no finding named is confirmed by asking.
        let paired = paired_later(f.diagnosis.as_ref(), &f.evidence, &causes, bound, &mut ask);
        if let Some(d) = paired {
            f.named_by(d);
            f.known = f.known || known.names(&f.signature, f.symptoms.iter());
        }
    }
    join_findings(findings, known);
    join_check_test_into_piece(findings, known);
    fold_into_noise(findings);
    for f in findings.iter_mut() {
        recount_diagnosis(&mut f.diagnosis, &f.evidence);
    }
}

/// Findings that blame the same side and that one variant explains alike are one bug
/// ([`shared_causes`]): each later such finding is taken into the first one, named by
/// the causes the two share (most specific first).
pub(crate) fn join_findings(findings: &mut Vec<Finding>, known: &Known) {
    join_shared_causes(
        findings,
        |f| (f.signature.side.as_str(), f.diagnosis.as_ref()),
        |kept, later, shared| kept.absorb(later, shared, known),
    );
}

/// The rule [`join_findings`] follows, on any items: each later item that blames the
/// same side as an earlier one, and that one variant explains alike, is handed to
/// `join` with the earlier one and the causes the two share, and leaves `items`.
/// `blame` gives an item's side and diagnosis.
pub(crate) fn join_shared_causes<T>(
    items: &mut Vec<T>,
    blame: impl Fn(&T) -> (&str, Option<&Diagnosis>),
    mut join: impl FnMut(&mut T, T, Diagnosis),
) {
    let mut i = 0;
    while i < items.len() {
        let earlier = {
            let (side, diagnosis) = blame(&items[i]);
            (0..i).find_map(|j| {
                let (their_side, theirs) = blame(&items[j]);
                (their_side == side)
                    .then(|| shared_causes(theirs, diagnosis))
                    .flatten()
                    .map(|shared| (j, shared))
            })
        };
        match earlier {
            Some((j, shared)) => {
                let later = items.remove(i);
                join(&mut items[j], later, shared);
            }
            None => i += 1,
        }
    }
}

/// An unexplained finding that a check test reading one kind of piece's rule wrong
/// explains, joined to the unexplained finding of that kind's own moves: one misread
/// rule that the subject's check test reads too (a check test that asks each piece's
/// own move rule) is one bug, seen in the piece's moves and in its checks. Such a
/// finding is the check test's (`unexplained-check-test`), whose missed checks are all
/// by that kind, or one of another piece's moves that only lacks moves, after each of
/// which a detector misreading that kind's rule sees the king attacked (a king that
/// does not step where it thinks a cannon checks). Anything else stays as it is.
fn join_check_test_into_piece(findings: &mut Vec<Finding>, known: &Known) {
    let unexplained = |f: &Finding| f.diagnosis.as_ref().is_some_and(Diagnosis::is_unexplained);
    let twin_of = |findings: &[Finding], f: &Finding, role: Role| {
        findings.iter().position(|g| {
            ShapeKind::named(&g.signature.check) == Some(ShapeKind::MovesOf(role))
                && g.signature.side == f.signature.side
                && unexplained(g)
                && g.signature.check != f.signature.check
        })
    };
    let mut at = 0;
    while at < findings.len() {
        let f = &findings[at];
        let twin = match ShapeKind::named(&f.signature.check) {
            _ if !unexplained(f) => None,
            Some(ShapeKind::CheckTest) => {
                let roles = missed_checkers(&f.evidence);
                let only = (roles.len() == 1)
                    .then(|| roles.iter().next().copied())
                    .flatten();
                only.and_then(|role| twin_of(findings, f, role))
            }
            Some(ShapeKind::MovesOf(mover)) if missed_checkers(&f.evidence).is_empty() => {
                let roles: Vec<Role> = phantom_checkers(&f.evidence, mover)
                    .into_iter()
                    .filter(|&role| twin_of(findings, f, role).is_some())
                    .collect();
                match roles.as_slice() {
                    [role] => twin_of(findings, f, *role),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(twin) = twin else {
            at += 1;
            continue;
        };
        let later = findings.remove(at);
        let kept = &mut findings[if twin > at { twin - 1 } else { twin }];
        let mut shared = kept.diagnosis.clone().unwrap_or_default();
        if let Some(learnt) = &mut shared.learnt {
            let also = ", and its check test misreads the same piece's checks";
            if !learnt.ends_with(also) {
                learnt.push_str(also);
            }
        }
        kept.absorb(later, shared, known);
        // The kept finding may sit before `at`: look again from the start of what moved.
        at = at.min(twin);
    }
}

/// Once the subject's answers did not repeat, none of its findings can be trusted to
/// name a bug: every other finding joins the `nondeterministic` one, so the noise is
/// one finding with no cause read into it.
fn fold_into_noise(findings: &mut Vec<Finding>) {
    let noisy = |f: &Finding| {
        f.diagnosis
            .as_ref()
            .is_some_and(|d| matches!(d.fault, Some(AnswerFault::Nondeterministic(_))))
    };
    let Some(at) = findings.iter().position(noisy) else {
        return;
    };
    let mut noise = findings.remove(at);
    for other in findings.drain(..) {
        noise.count_hits_of(other);
    }
    findings.push(noise);
}
