//! Naming a finding by its cause: the odd generator's answers put to the catalogue of
//! rule variants (within a bound), findings one variant explains joined, and what no
//! variant explains named by the shape of its differences. One policy for the
//! built-ins' findings and a subject's, so the same bug has the same name in both.
//!
//! It is here and not in `diagnose` because it names by [`Signature`] and classifies
//! moves as the signatures do, which the diagnosis layer may not use.

use crate::diagnose::{
    recount, Answer, AnswerFault, Bound, Candidates, Cause, Diagnose, Diagnosis, Question, Variant,
    VariantGen, Witness,
};
use crate::diff::oracle::CheckKind;
use crate::diff::signature::{classify, Lists, MoveClass, Rule, Signature};
use crate::generators::face::Generator;
use crate::generators::naive::NaiveGen;
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::Position;
use std::collections::BTreeSet;

/// What diagnosing one finding may spend: a few dozen questions to an external subject,
/// and 50,000 divides of its own, which take under a second on a small witness. The
/// largest diagnosis of the test suite's findings took 18,346; the bound is work, not
/// time, so a busy machine names the same causes as an idle one.
pub const DIAGNOSIS_BOUND: Bound = Bound {
    questions: 24,
    work: 50_000,
};

/// The most evidence one finding keeps for its `cause:` line's count: its witnesses and
/// the questions asked about them, not every position that showed it.
const MOST_EVIDENCE: usize = 32;

/// A finding's name once its witnesses were put to the catalogue.
#[derive(Clone, Debug)]
pub(crate) struct Diagnosed {
    /// `cause/<side>/<variant>` when a variant explains it, else the move-class
    /// signature.
    pub signature: Signature,
    /// What the catalogue said; `None` when there was nothing to diagnose (no witness
    /// where the subject's answer differs from the rules').
    pub diagnosis: Option<Diagnosis>,
    /// The witnesses and the questions asked.
    pub evidence: Vec<Witness>,
}

impl Diagnosed {
    /// A finding that could not be diagnosed: named by its move class.
    pub(crate) fn not(symptom: &Signature) -> Diagnosed {
        Diagnosed {
            signature: symptom.clone(),
            diagnosis: None,
            evidence: Vec::new(),
        }
    }
}

/// Names a finding of the move class `symptom` by its cause: the rule variant that
/// reproduces the subject's answers on `witnesses`. A cause another finding has already
/// (`causes`) is tried first, alone: when it explains these witnesses too, the two are
/// one bug and no question is asked. Otherwise the whole catalogue is tried, and while
/// several variants tie, deciding positions are put to the subject through `ask`, within
/// [`DIAGNOSIS_BOUND`]. When no variant explains them alone, the subject may have two bugs
/// that show on one witness: each cause another finding has is tried beside each variant
/// of the catalogue ([`Candidates::BesideCauses`], confirmed with the questions left), and
/// the variant that explains them with one beside it names the finding, so it joins that
/// variant's own finding. Only witnesses where the subject's answer differs from the
/// rules' are used: on any other, every variant that happens to answer right would
/// explain it.
pub(crate) fn diagnosed(
    symptom: &Signature,
    witnesses: Vec<Witness>,
    causes: &[Variant],
    mut ask: impl FnMut(&Question) -> Option<Answer>,
) -> Diagnosed {
    let witnesses: Vec<Witness> = witnesses
        .into_iter()
        .filter(Witness::shows_a_difference)
        .collect();
    if witnesses.is_empty() {
        return Diagnosed::not(symptom);
    }
    let seen = causes
        .iter()
        .map(|v| {
            Diagnose {
                candidates: Candidates::Among(std::slice::from_ref(v)),
                ..Diagnose::new(&witnesses)
            }
            .run(|_| None)
        })
        .find(|(d, _)| !d.causes.is_empty());
    let (mut diagnosis, mut evidence) = match seen {
        Some(found) => found,
        None => Diagnose {
            bound: DIAGNOSIS_BOUND,
            ..Diagnose::new(&witnesses)
        }
        .run(&mut ask),
    };
    if diagnosis.is_unexplained() && !causes.is_empty() {
        // Every answer the subject gave counts, those to questions included: a variant
        // ruled out by a confirming position may be back beside another bug there.
        let asked = evidence.len().saturating_sub(witnesses.len());
        let room = DIAGNOSIS_BOUND.questions.saturating_sub(asked);
        let bound = Bound {
            questions: room,
            ..DIAGNOSIS_BOUND
        };
        let (paired, seen) = Diagnose {
            candidates: Candidates::BesideCauses(causes),
            bound,
            ..Diagnose::new(&evidence)
        }
        .run(&mut ask);
        if !paired.causes.is_empty() {
            diagnosis = paired;
            evidence = seen;
        }
    }
    // Unexplained: named by what its differences share, so one bug outside the
    // catalogue is one finding whichever kinds of move it shows on.
    // A list cut by count or order is asymmetric too (the moves cut depend on the order
    // they are found in): its shape names it better, and is looked for first.
    let mut shape = None;
    let asymmetric = diagnosis.fault == Some(AnswerFault::Asymmetric);
    if diagnosis.causes.is_empty() && (diagnosis.fault.is_none() || asymmetric) {
        shape = unexplained_shape(&witnesses, asymmetric, &mut ask);
        if shape.is_some() {
            diagnosis.fault = None;
        }
        diagnosis.learnt = shape.as_ref().map(|s| s.learnt.clone());
    }
    evidence.truncate(MOST_EVIDENCE);
    let fault = diagnosis.fault.as_ref().and_then(AnswerFault::check_name);
    Diagnosed {
        signature: match (diagnosis.first(), fault, shape) {
            (Some(v), _, _) => Signature::cause(&symptom.side, v),
            (None, Some(check), _) => Signature::plain(check, &symptom.side),
            (None, None, Some(shape)) => Signature::plain(&shape.kind.to_string(), &symptom.side),
            (None, None, None) => symptom.clone(),
        },
        diagnosis: Some(diagnosis),
        evidence,
    }
}

/// What the differences of a finding no variant explains share, as the one name it goes
/// by and what was learnt of it: one bug outside the catalogue is one finding, not one
/// per kind of move it touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// What the differences share, which names the signature's check.
    pub kind: ShapeKind,
    /// What was learnt, in the game's words (`the subject lacks elephant captures`).
    pub learnt: String,
}

/// What an unexplained finding's differences share. A finding's signature names it by
/// its text, and [`ShapeKind::named`] reads that text back: one spelling each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShapeKind {
    /// The moves of one kind of piece (`unexplained-<piece>-moves`).
    MovesOf(Role),
    /// Moves of several kinds, or moves that leave the king attacked
    /// (`unexplained-check-test`).
    CheckTest,
    /// A list cut at a count (`list-cut-at-count`).
    ListCutAtCount,
    /// One move of each piece left out (`last-move-of-each-piece`).
    LastMoveOfEachPiece,
}

impl ShapeKind {
    /// Every shape.
    fn all() -> impl Iterator<Item = ShapeKind> {
        Role::ALL.into_iter().map(ShapeKind::MovesOf).chain([
            ShapeKind::CheckTest,
            ShapeKind::ListCutAtCount,
            ShapeKind::LastMoveOfEachPiece,
        ])
    }

    /// The shape a signature's check names; `None` for a check that names none.
    pub(crate) fn named(check: &str) -> Option<ShapeKind> {
        ShapeKind::all().find(|kind| kind.to_string() == check)
    }
}

impl std::fmt::Display for ShapeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeKind::MovesOf(role) => write!(f, "unexplained-{role}-moves"),
            ShapeKind::CheckTest => f.write_str("unexplained-check-test"),
            ShapeKind::ListCutAtCount => f.write_str("list-cut-at-count"),
            ShapeKind::LastMoveOfEachPiece => f.write_str("last-move-of-each-piece"),
        }
    }
}

/// The subject's root moves in `answer`, and the rules' on `pos`.
fn root_moves(pos: &Position, answer: &Answer) -> (BTreeSet<Move>, BTreeSet<Move>) {
    let theirs = match answer {
        Answer::Moves(moves) => moves.iter().copied().collect(),
        Answer::Divide { counts, .. } => counts.iter().map(|&(m, _)| m).collect(),
    };
    (theirs, rules_moves(pos))
}

/// The rules' legal moves on `pos`.
fn rules_moves(pos: &Position) -> BTreeSet<Move> {
    let mut board = NaiveGen.load(pos);
    let mut list = MoveList::new();
    NaiveGen.legal(&mut board, &mut list);
    list.iter().copied().collect()
}

/// A class of move in words: what kind of move of the piece it is.
fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::Palace => "moves out of the palace",
        Rule::Step => "moves of a shape the piece does not have",
        Rule::River => "moves across the river",
        Rule::Eye => "moves over a blocked eye",
        Rule::Leg => "jumps over a blocked leg",
        Rule::Backward => "backward steps",
        Rule::SidewaysBeforeRiver => "sideways steps before the river",
        Rule::OverPiece => "moves over a piece",
        Rule::Screen => "captures without exactly one screen",
        Rule::OwnPiece => "captures of its own side's pieces",
        Rule::KingsFacing => "moves that leave the kings facing",
        Rule::InCheck => "moves that leave its king in check",
        Rule::Plain => "quiet moves",
        Rule::CaptureOverScreen | Rule::Capture => "captures",
        Rule::SidewaysAfterRiver => "sideways steps after the river",
        Rule::NoPiece => "moves from an empty point",
    }
}

/// The shape of an unexplained finding's differences on its first witness whose move
/// list differs from the rules': a list cut at a count (asked once more to tell it from
/// a bug of its pieces), one move of each piece left out, the moves of one kind of piece,
/// or (moves of several kinds, or moves that leave the king attacked) the check test.
/// `None` when only the counts below the moves differ.
/// With `lists_only`, only the list's shapes are looked for.
pub(crate) fn unexplained_shape(
    witnesses: &[Witness],
    lists_only: bool,
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> Option<Shape> {
    let (w, theirs, rules) = witnesses.iter().find_map(|w| {
        let (theirs, rules) = root_moves(&w.position, &w.answer);
        (theirs != rules).then_some((w, theirs, rules))
    })?;
    let pos = &w.position;
    let extra: Vec<Move> = theirs.difference(&rules).copied().collect();
    let missing: Vec<Move> = rules.difference(&theirs).copied().collect();
    if extra.is_empty() {
        if let Some(shape) = list_shape(pos, theirs.len(), ask) {
            return Some(shape);
        }
    }
    if lists_only {
        return None;
    }
    let classes: Vec<MoveClass> = extra
        .iter()
        .map(|&m| classify(pos, m, true, Lists::Legal))
        .chain(
            missing
                .iter()
                .map(|&m| classify(pos, m, false, Lists::Legal)),
        )
        .collect();
    let roles: BTreeSet<Role> = classes
        .iter()
        .filter(|c| !c.rule.ignores_mover() && c.rule != Rule::NoPiece)
        .map(|c| c.role)
        .collect();
    let by_king = classes.iter().any(|c| c.rule.ignores_mover());
    let mut parts: Vec<String> = Vec::new();
    for c in &classes {
        let words = if c.rule.ignores_mover() {
            format!(
                "{} {}",
                if c.extra { "has extra" } else { "lacks" },
                rule_words(c.rule)
            )
        } else {
            let verb = if c.extra { "has extra" } else { "lacks" };
            format!("{verb} {} {}", c.role, rule_words(c.rule))
        };
        if !parts.contains(&words) {
            parts.push(words);
        }
    }
    let side = match pos.turn() {
        crate::piece::Color::Red => "Red",
        crate::piece::Color::Black => "Black",
    };
    let learnt = format!("the subject {} ({side} to move)", parts.join(" and "));
    let kind = match (roles.len(), by_king) {
        (1, false) => ShapeKind::MovesOf(*roles.iter().next()?),
        _ => ShapeKind::CheckTest,
    };
    Some(Shape { kind, learnt })
}

/// Whether a list that only lacks moves is cut by count or by order, not by any rule:
/// the witness is asked again with a rook of the side to move added where it has moves
/// of its own. A list cut at a count lists about as many moves as before (`n`), and
/// about as many on the start position where the rules give more; a list that
/// leaves out one move of each piece lacks exactly one move of each piece that can move,
/// the rook's included. A bug of some piece's moves, or of the check test, lists the
/// rook's moves and lacks what it lacked. `None` for neither, or when no such position
/// is found or answered.
fn list_shape(
    pos: &Position,
    n: usize,
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> Option<Shape> {
    let setup = pos.setup();
    let before = rules_moves(pos).len();
    // A rook, or where the side has both its rooks, another piece that moves far.
    let with_rook = [Role::Rook, Role::Cannon, Role::Horse]
        .into_iter()
        .flat_map(|role| {
            crate::square::Square::all()
                .filter(|&sq| setup.piece_at(sq).is_none())
                .map(move |sq| (role, sq))
        })
        .find_map(|(role, sq)| {
            let mut s = setup.clone();
            s.board[sq.index()] = Some(crate::piece::Piece::new(setup.turn, role));
            let p = Position::new(s).ok()?;
            (rules_moves(&p).len() >= before + 2).then_some(p)
        })?;
    let answer = ask(&Question {
        position: with_rook.clone(),
        depth: 1,
    })?;
    let (theirs, rules) = root_moves(&with_rook, &answer);
    if !theirs.is_subset(&rules) {
        return None;
    }
    let missing: Vec<Move> = rules.difference(&theirs).copied().collect();
    let pieces: BTreeSet<_> = rules.iter().map(|m| m.from).collect();
    let lacking: BTreeSet<_> = missing.iter().map(|m| m.from).collect();
    if near(theirs.len(), n) && rules.len() > theirs.len() {
        // A cut at a count holds wherever the rules give more moves than it: the start
        // position, as far from the witness as a position gets, is asked too. A subject
        // whose other bug keeps it to few moves on the witness (a check test that sees
        // its king attacked there) lists far more there, and is no cut.
        let start = start_with(setup.turn)?;
        let answer = ask(&Question {
            position: start.clone(),
            depth: 1,
        })?;
        let (there, rules_there) = root_moves(&start, &answer);
        let cut_there = match rules_there.len() > n + CUT_SLACK {
            true => near(there.len(), n) && there.is_subset(&rules_there),
            false => there == rules_there,
        };
        if !cut_there {
            return None;
        }
        let cut_on_start = rules_there.len() > n + CUT_SLACK;
        let most = n
            .max(theirs.len())
            .max(if cut_on_start { there.len() } else { 0 });
        return Some(Shape {
            kind: ShapeKind::ListCutAtCount,
            learnt: format!(
                "the subject lists {n} moves on the witness, {} with a piece added that has \
                 moves of its own, and {} on the start position, where the rules give {}, \
                 {} and {}: its list is cut at a count (about {most})",
                theirs.len(),
                there.len(),
                before,
                rules.len(),
                rules_there.len(),
            ),
        });
    }
    (pieces.len() >= 2 && missing.len() == pieces.len() && lacking.len() == pieces.len()).then(
        || Shape {
            kind: ShapeKind::LastMoveOfEachPiece,
            learnt: "the subject's list leaves out one move of each piece that can move, \
                     as a loop over each piece's moves that stops one short would"
                .to_owned(),
        },
    )
}

/// The kinds of piece whose checks a check test missed on `evidence`: for each move the
/// subject lists and the rules do not, the kinds of the enemy pieces that attack the
/// mover's king after it (the king, for kings left facing). A check test wrong only
/// about one kind's checks reads that kind's rule, as an engine whose check test calls
/// each piece's own move rule does; empty when no such move was listed.
pub(crate) fn missed_checkers(evidence: &[Witness]) -> BTreeSet<Role> {
    let mut roles = BTreeSet::new();
    for w in evidence {
        let (theirs, rules) = root_moves(&w.position, &w.answer);
        let us = w.position.turn();
        for &m in theirs.difference(&rules) {
            let Some(s) = w.position.placed(m) else {
                continue;
            };
            roles.extend(
                s.checkers(us)
                    .into_iter()
                    .filter_map(|sq| s.piece_at(sq).map(|p| p.role)),
            );
            if s.kings_facing() {
                roles.insert(Role::King);
            }
        }
    }
    roles
}

/// The kinds of piece a check test may have seen checking where none checks, on
/// `evidence`: for each legal move of a `mover` piece the subject leaves out, the kinds
/// named by the rule variants whose check detector finds the mover's king attacked
/// after it; the kinds every such move shares. Empty when the subject leaves out no
/// move, or the moves share none. A subject that leaves out a king's steps (or any
/// move) because its check test misreads one kind's rule sees that kind checking after
/// each of them.
pub(crate) fn phantom_checkers(evidence: &[Witness], of_mover: Role) -> BTreeSet<Role> {
    let mut shared: Option<BTreeSet<Role>> = None;
    for w in evidence {
        let (theirs, rules) = root_moves(&w.position, &w.answer);
        let us = w.position.turn();
        // Only the finding's own piece's moves: its evidence also holds answers to
        // questions about other pieces.
        let own = |m: &&Move| {
            w.position
                .piece_at(m.from)
                .is_some_and(|p| p.role == of_mover)
        };
        for &m in rules.difference(&theirs).filter(own) {
            let Some(mut s) = w.position.placed(m) else {
                continue;
            };
            s.turn = us.other();
            let Ok(after) = Position::new(s) else {
                continue;
            };
            let seen: BTreeSet<Role> = Variant::ALL
                .iter()
                .filter(|&&v| {
                    let g = VariantGen::new(v);
                    let board = g.load(&after);
                    g.king_attacked(&board, us)
                })
                .filter_map(|&v| role_named(v))
                .collect();
            shared = Some(match shared {
                None => seen,
                Some(before) => before.intersection(&seen).copied().collect(),
            });
        }
    }
    shared.unwrap_or_default()
}

/// The kind of piece a variant's name is about, where it names one.
fn role_named(v: Variant) -> Option<Role> {
    let name = v.name();
    [
        ("cannon", Role::Cannon),
        ("horse", Role::Horse),
        ("rook", Role::Rook),
        ("pawn", Role::Pawn),
        ("elephant", Role::Elephant),
        ("advisor", Role::Advisor),
        ("king", Role::King),
    ]
    .into_iter()
    .find(|(word, _)| name.contains(word))
    .map(|(_, role)| role)
}

/// How far two lists cut at one count may differ in length: a list cut among the
/// generated moves before the illegal ones are taken out is shorter by those.
const CUT_SLACK: usize = 2;

/// Whether `len` is within [`CUT_SLACK`] of `n`.
fn near(len: usize, n: usize) -> bool {
    len.abs_diff(n) <= CUT_SLACK
}

/// The start position with `turn` to move.
fn start_with(turn: crate::piece::Color) -> Option<Position> {
    let mut s = Position::startpos().setup().clone();
    s.turn = turn;
    Position::new(s).ok()
}

/// A finding that was unexplained when diagnosed, named now by two bugs at once: a cause
/// of the subject's other findings (`causes`, some named after it was) beside a variant
/// of the catalogue, on the answers it holds (`evidence`) and those to the questions
/// asked through `ask` within `bound`. A pair with a variant no other finding named is
/// named only once such questions confirmed it; with no question to ask (a bound of
/// none), only two causes already named are. `None` when it was explained, or is not now.
pub(crate) fn paired_later(
    diagnosis: Option<&Diagnosis>,
    evidence: &[Witness],
    causes: &[Variant],
    bound: Bound,
    ask: impl FnMut(&Question) -> Option<Answer>,
) -> Option<Diagnosis> {
    let unexplained = diagnosis.is_some_and(Diagnosis::is_unexplained);
    if !unexplained || causes.is_empty() || evidence.is_empty() {
        return None;
    }
    let (paired, _) = Diagnose {
        candidates: Candidates::BesideCauses(causes),
        bound,
        ..Diagnose::new(evidence)
    }
    .run(ask);
    (!paired.causes.is_empty()).then_some(paired)
}

/// The bound of a diagnosis that asks nothing.
pub(crate) const NO_QUESTIONS: Bound = Bound {
    questions: 0,
    work: usize::MAX,
};

/// The variants that explain two findings alike, most specific first: `None` when the
/// two have no cause in common (or either was not explained). Two findings one variant
/// explains are one bug: a misreading that touches the moves and the check detector
/// alike shows first as one and then as the other, each with that variant among the
/// causes it cannot yet tell apart.
pub(crate) fn shared_causes(a: Option<&Diagnosis>, b: Option<&Diagnosis>) -> Option<Diagnosis> {
    let (a, b) = (a?, b?);
    // The same variant is the same bug, whatever shows beside it on some witnesses.
    let causes: Vec<_> = a
        .causes
        .iter()
        .filter_map(|c| {
            let theirs = b.causes.iter().find(|d| d.variant == c.variant)?;
            Some(Cause {
                beside: c.beside.or(theirs.beside),
                ..*c
            })
        })
        .collect();
    (!causes.is_empty()).then_some(Diagnosis {
        causes,
        ..Diagnosis::default()
    })
}

/// Every variant the diagnoses name, each finding's first cause before any finding's
/// others: the causes a new finding is tried on before the whole catalogue.
pub(crate) fn named_causes<'a>(
    diagnoses: impl Iterator<Item = &'a Diagnosis> + Clone,
) -> Vec<Variant> {
    let mut causes: Vec<Variant> = Vec::new();
    let all = diagnoses
        .clone()
        .filter_map(Diagnosis::first)
        .chain(diagnoses.flat_map(Diagnosis::variants));
    for v in all {
        if !causes.contains(&v) {
            causes.push(v);
        }
    }
    causes
}

/// A diagnosis counted again over all of a finding's `evidence` (witnesses kept after it
/// was made included), so its `cause:` lines say how many each variant explains.
pub(crate) fn recount_diagnosis(diagnosis: &mut Option<Diagnosis>, evidence: &[Witness]) {
    if let Some(d) = diagnosis.as_mut().filter(|d| !d.causes.is_empty()) {
        let evidence = &evidence[..evidence.len().min(MOST_EVIDENCE)];
        let counted = recount(&d.causes, evidence);
        if !counted.causes.is_empty() {
            *d = counted;
        }
    }
}

/// The `cause:` lines printed under a finding: its diagnosis's, or `cause: unexplained`
/// when nothing explains it or it could not be diagnosed.
pub fn cause_lines(diagnosis: Option<&Diagnosis>) -> Vec<String> {
    match diagnosis {
        Some(d) => d.lines(),
        None => vec!["cause: unexplained".to_owned()],
    }
}

/// The built-in generator a move-class signature names as the odd one out, when the
/// check that saw it is about the rules ([`CheckKind::about_the_rules`]): a variant may
/// explain only those.
pub(super) fn odd_generator<'a>(
    symptom: &Signature,
    gens: &[&'a dyn Generator],
) -> Option<&'a dyn Generator> {
    if !CheckKind::ALL
        .iter()
        .any(|k| k.about_the_rules() && k.signature_name() == symptom.check)
    {
        return None;
    }
    gens.iter().copied().find(|g| g.name() == symptom.side)
}

/// What an in-process generator answers on `pos`, as a witness: its move list, or
/// where that is the rules' own, its divide at depth 2 (a check detector that is wrong
/// only one move down shows there). `None` when both are the rules'.
pub(super) fn in_process_witness(g: &dyn Generator, pos: &Position) -> Option<Witness> {
    [1, 2].into_iter().find_map(|depth| {
        let w = Witness {
            position: pos.clone(),
            answer: Answer::Divide {
                depth,
                counts: g.divide(pos, depth, false, None),
            },
        };
        w.shows_a_difference().then_some(w)
    })
}

/// Questions to an in-process generator: its divide, which it always gives.
pub(super) fn in_process_asker(g: &dyn Generator) -> impl FnMut(&Question) -> Option<Answer> + '_ {
    move |q| {
        Some(Answer::Divide {
            depth: q.depth,
            counts: g.divide(&q.position, q.depth, false, None),
        })
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::finding::across::join_shared_causes;

    /// A shape's name reads back as that shape and no other, and no oracle check's or
    /// cause's name reads as a shape: the joins after a run go by what the name says.
    #[test]
    fn each_shape_reads_back_from_its_name_and_no_other_name_reads_as_one() {
        let shapes: Vec<ShapeKind> = ShapeKind::all().collect();
        assert_eq!(shapes.len(), Role::ALL.len() + 3);
        for &kind in &shapes {
            assert_eq!(ShapeKind::named(&kind.to_string()), Some(kind), "{kind}");
        }
        let names: BTreeSet<String> = shapes.iter().map(ToString::to_string).collect();
        assert_eq!(names.len(), shapes.len());
        for other in CheckKind::ALL.iter().map(|k| k.signature_name()).chain([
            crate::diff::signature::CAUSE,
            "unexplained-moves",
            "unexplained-king-moves-",
        ]) {
            assert_eq!(ShapeKind::named(other), None, "{other}");
        }
    }

    /// A subject with two bugs: three move classes, the third met where both bugs show.
    /// Each is named by a cause and the third joins the finding of the bug it is named
    /// by, so the three are two findings, not three (the third unexplained).
    #[test]
    fn a_witness_of_two_bugs_joins_the_finding_of_one() {
        use crate::diagnose::examples::position;
        use crate::generators::perft;
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::MoveGen;
        let subject = Planted::with(&[Bug::CannonCannotCapture, Bug::HorseLegIgnored]);
        let answer = |pos: &Position, depth: u32| {
            let mut board = subject.load(pos);
            Answer::Divide {
                depth,
                counts: perft::divide(&subject, &mut board, depth),
            }
        };
        let rows = [
            ("extra-cannon", "w Ke0 kd9 Ca0 Pa3 pa6"),
            ("extra-horse-leg", "w Ke0 kd9 Nb0 Rb1"),
            (
                "missing-cannon-and-extra-horse",
                "w Ke0 kd9 Ca0 Pa3 pa6 Nh0 Rh1",
            ),
        ];
        let mut found: Vec<Diagnosed> = Vec::new();
        for (symptom, text) in rows {
            let pos = position(text).expect("a valid position");
            let causes = named_causes(found.iter().filter_map(|d| d.diagnosis.as_ref()));
            let witness = Witness {
                answer: answer(&pos, 1),
                position: pos,
            };
            let named = diagnosed(
                &Signature::plain(symptom, "subject"),
                vec![witness],
                &causes,
                |q| Some(answer(&q.position, q.depth)),
            );
            found.push(named);
        }
        let signatures: Vec<String> = found.iter().map(|d| d.signature.to_string()).collect();
        assert_eq!(
            signatures,
            [
                "cause/subject/cannon-cannot-capture",
                "cause/subject/horse-leg-ignored",
                "cause/subject/horse-leg-ignored",
            ],
        );
        let beside = found[2]
            .diagnosis
            .as_ref()
            .and_then(|d| d.causes.first())
            .and_then(|c| c.beside);
        assert_eq!(beside, Some(Variant::CannonCannotCapture));
        join_shared_causes(
            &mut found,
            |d| (d.signature.side.as_str(), d.diagnosis.as_ref()),
            |kept, later, shared| {
                kept.evidence.extend(later.evidence);
                kept.diagnosis = Some(shared);
            },
        );
        assert_eq!(found.len(), 2, "{found:?}");
        // Counted over both findings' witnesses, the horse explains them all, one of
        // them with the cannon beside it.
        let mut joined = found[1].diagnosis.clone();
        recount_diagnosis(&mut joined, &found[1].evidence);
        let line = cause_lines(joined.as_ref()).join("\n");
        assert!(
            line.contains("variant horse-leg-ignored, explains")
                && line.contains("with cannon-cannot-capture beside it"),
            "{line}"
        );
    }

    /// A finding left unexplained because the bug beside it was named only later is
    /// named at the end of the run.
    #[test]
    fn an_unexplained_finding_is_paired_with_a_cause_named_after_it() {
        use crate::diagnose::examples::position;
        use crate::generators::perft;
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::MoveGen;
        let subject = Planted::with(&[Bug::CannonCannotCapture, Bug::HorseLegIgnored]);
        let pos = position("w Ke0 kd9 Ca0 Pa3 pa6 Nh0 Rh1").expect("a valid position");
        let mut board = subject.load(&pos);
        let witness = Witness {
            answer: Answer::Moves(
                perft::divide(&subject, &mut board, 1)
                    .into_iter()
                    .map(|(m, _)| m)
                    .collect(),
            ),
            position: pos,
        };
        let first = diagnosed(
            &Signature::plain("extra-horse-leg", "subject"),
            vec![witness],
            &[],
            |q| {
                let mut board = subject.load(&q.position);
                Some(Answer::Divide {
                    depth: q.depth,
                    counts: perft::divide(&subject, &mut board, q.depth),
                })
            },
        );
        assert_eq!(first.diagnosis.as_ref().map(|d| d.causes.len()), Some(0));
        // Asked nothing, a variant no other finding named is not named beside it.
        let unasked = paired_later(
            first.diagnosis.as_ref(),
            &first.evidence,
            &[Variant::HorseLegIgnored],
            NO_QUESTIONS,
            |_| None,
        );
        assert_eq!(unasked, None);
        let later = paired_later(
            first.diagnosis.as_ref(),
            &first.evidence,
            &[Variant::HorseLegIgnored],
            DIAGNOSIS_BOUND,
            |q| {
                let mut board = subject.load(&q.position);
                Some(Answer::Divide {
                    depth: q.depth,
                    counts: perft::divide(&subject, &mut board, q.depth),
                })
            },
        );
        let named = later.as_ref().and_then(|d| d.causes.first());
        assert_eq!(
            named.map(|c| (c.variant, c.beside)),
            Some((Variant::CannonCannotCapture, Some(Variant::HorseLegIgnored))),
            "{later:?}"
        );
    }

    /// Each row: findings as (side, explaining variants by their place in the
    /// catalogue), and which survive the join, each with the variants left it.
    #[test]
    fn findings_one_variant_explains_alike_are_joined_on_one_side() {
        type Row = (
            &'static [(&'static str, &'static [usize])],
            &'static [(&'static str, &'static [usize])],
        );
        let table: &[Row] = &[
            // Two causes in common: one finding, named by both.
            (
                &[("naive", &[0, 1]), ("naive", &[1, 0])],
                &[("naive", &[0, 1])],
            ),
            // The later one names a cause the first could not tell from its own.
            (
                &[("naive", &[0, 1]), ("naive", &[1, 2])],
                &[("naive", &[1])],
            ),
            // Nothing in common, an unexplained one, another side: all kept.
            (
                &[("naive", &[0]), ("naive", &[1])],
                &[("naive", &[0]), ("naive", &[1])],
            ),
            (
                &[("naive", &[0]), ("naive", &[])],
                &[("naive", &[0]), ("naive", &[])],
            ),
            (
                &[("naive", &[0]), ("mailbox", &[0])],
                &[("naive", &[0]), ("mailbox", &[0])],
            ),
            // A third joins the first, not the one that joined it.
            (
                &[("naive", &[0, 1]), ("mailbox", &[1]), ("naive", &[1])],
                &[("naive", &[1]), ("mailbox", &[1])],
            ),
        ];
        let all = Variant::ALL;
        let diagnosis = |places: &[usize]| {
            (!places.is_empty()).then(|| Diagnosis {
                causes: places
                    .iter()
                    .map(|&p| crate::diagnose::Cause {
                        beside: None,
                        variant: all[p],
                        explains: 1,
                        of: 1,
                        confirmed: 0,
                    })
                    .collect(),
                ..Diagnosis::default()
            })
        };
        for (given, want) in table {
            let mut items: Vec<(String, Option<Diagnosis>)> = given
                .iter()
                .map(|(side, places)| (side.to_string(), diagnosis(places)))
                .collect();
            join_shared_causes(
                &mut items,
                |(side, d)| (side.as_str(), d.as_ref()),
                |kept, _, shared| kept.1 = Some(shared),
            );
            let want: Vec<(String, Option<Diagnosis>)> = want
                .iter()
                .map(|(side, places)| (side.to_string(), diagnosis(places)))
                .collect();
            assert_eq!(items, want, "{given:?}");
        }
    }
}
