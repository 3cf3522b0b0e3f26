//! Diagnosis: which variants of the catalogue answer exactly as the subject did on a
//! finding's witnesses (and as the rules do where the subject agreed with them), and,
//! when several do, a position that would tell them apart.

use super::catalogue::{Specificity, Variant};
use super::generator::VariantGen;
use crate::generators::naive::NaiveGen;
use crate::generators::{perft, MoveGen};
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::Square;
use std::cell::Cell;
use std::fmt;

/// What a subject answered about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Its legal moves, in any order.
    Moves(Vec<Move>),
    /// Its perft divide: for each legal move, the perft below it at `depth - 1`
    /// (`depth` at least 1; a divide at depth 1 is the move list).
    Divide {
        /// The divide's depth, counted from the position.
        depth: u32,
        /// Each root move with its count, in any order.
        counts: Vec<(Move, u64)>,
    },
}

impl Answer {
    /// The depth of the question this answers (1 for a move list), and the answer as a
    /// sorted divide.
    fn normal(&self) -> (u32, Divide) {
        let (depth, mut counts) = match self {
            Answer::Moves(moves) => (1, moves.iter().map(|&m| (m, 1)).collect()),
            Answer::Divide { depth, counts } => ((*depth).max(1), counts.clone()),
        };
        counts.sort_unstable();
        (depth, counts)
    }
}

/// One position the subject was asked about, and what it answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The position asked about.
    pub position: Position,
    /// The subject's answer.
    pub answer: Answer,
}

impl Witness {
    /// Whether the subject's answer here differs from the rules'. Only such a witness
    /// tells misreadings apart from the rules: on one where the subject answered right,
    /// every variant that also answers right would explain it.
    pub(crate) fn shows_a_difference(&self) -> bool {
        let (depth, counts) = self.answer.normal();
        divide(NaiveGen, &self.position, depth) != counts
    }

    /// A position where the subject agreed with the built-in generators at `depth` (1: its
    /// move list): its answer there is the rules' own.
    pub fn agreed(position: Position, depth: u32) -> Witness {
        let depth = depth.max(1);
        let counts = divide(NaiveGen, &position, depth);
        Witness {
            position,
            answer: Answer::Divide { depth, counts },
        }
    }
}

/// A question to put to the subject: its perft divide of `position` at `depth` (at depth
/// 1, its legal moves).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The position to ask about.
    pub position: Position,
    /// The divide's depth; 1 asks for the move list.
    pub depth: u32,
}

/// A variant that explains a finding, alone or with a second bug beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The variant.
    pub variant: Variant,
    /// A cause of another finding that shows on the same witnesses: the subject has both
    /// bugs, and only the two read together reproduce its answers there.
    pub beside: Option<Variant>,
    /// How many witnesses it reproduces ...
    pub explains: usize,
    /// ... of how many.
    pub of: usize,
    /// How many positions the subject was asked about, beyond the finding's own
    /// witnesses, that could have refuted it and that it answered as the subject did:
    /// its own example, images of the witness, positions next to it. A cause is a
    /// hypothesis until a question that could refute it did not.
    pub confirmed: usize,
}

impl Cause {
    /// The generator that answers as the cause says: the variant, or the variant with
    /// the other bug beside it (`None` for a pair no generator reads at once).
    fn generator(&self) -> Option<VariantGen> {
        match self.beside {
            None => Some(VariantGen::new(self.variant)),
            Some(beside) => VariantGen::pair(self.variant, beside),
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cause: {} (variant {}, explains {} of {} witnesses",
            self.variant.sentence(),
            self.variant.name(),
            self.explains,
            self.of
        )?;
        if self.confirmed > 0 {
            let positions = if self.confirmed == 1 {
                "position"
            } else {
                "positions"
            };
            write!(f, ", confirmed on {} {positions} asked", self.confirmed)?;
        }
        if let Some(beside) = self.beside {
            write!(f, ", with {beside} beside it")?;
        }
        f.write_str(")")
    }
}

/// A fault in the shape of a subject's answers that no reading of the rules gives, so
/// the catalogue is not asked: named before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerFault {
    /// The subject lists these moves more than once in one move list.
    ListedTwice(Vec<Move>),
    /// The subject's count below a move in its divide is not what it answers about the
    /// position after the move asked on its own, and is what it answers once it has
    /// played the move itself: playing the move leaves its board wrong. The moves from
    /// the witness, the move blamed last: a count the subject repeats when asked on its
    /// own is followed down, so the divide may be one at a position below the witness.
    DependsOnPath(Vec<Move>),
    /// The subject's count below a move in its divide is not what it answers about the
    /// position after the move, whether asked on its own or after playing the move
    /// itself: what goes wrong is done in its search. Where it plays the moves it is
    /// given, before that count, not by the move (a move taken back earlier that leaves
    /// the board wrong, or a count of the last ply made without listing the moves);
    /// where it counts from the position it is given, asking after the move shows
    /// nothing of its make, so the make of the move is as likely. The moves as in
    /// `DependsOnPath`, and how the subject counts after moves, as far as known.
    CountedInSearch(Vec<Move>, Counting),
    /// No variant explains the witness, and the subject's answer on the witness mirrored
    /// left to right is not the mirror image of its answer on the witness: a bug that
    /// depends on the wing (a rule read differently on one side of the board) or on the
    /// order the subject tries its moves in (a board left wrong by a move taken back
    /// while it tests them), which no reading of the rules gives.
    Asymmetric,
    /// The subject answered the same question twice, and the answers differ: what it
    /// says depends on neither the position nor the moves made (a random choice, an
    /// uninitialised value, a clock), so no reading of the rules and no state bug is
    /// read into it. The position asked, and the two answers.
    Nondeterministic(Box<Repeated>),
}

/// A question asked twice and the two answers, which differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeated {
    /// The question.
    pub question: Question,
    /// Its first answer.
    pub first: Answer,
    /// Its second.
    pub second: Answer,
}

/// How a subject counts perft after the moves it is given (`position fen F moves M`):
/// from its board once it has made them, or from the position they lead to, set up
/// afresh (its FEN). A state probe's answer after a move tells a make bug only on a
/// subject that plays the moves; on a correct subject the two give the same counts, so
/// an engine that says neither cannot be told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// It makes the moves on its board and counts from there (a library's make).
    PlaysMoves,
    /// It counts from the position after the moves, set up afresh: a make bug of a
    /// move given never shows in the answer after it.
    FromFen,
    /// Not known: an engine that takes `position ... moves` and says nothing of how.
    Unknown,
}

/// The move a state fault's count is below, and where that count was given: "on the
/// witness", or in the divide after the moves before it.
fn count_below(line: &[Move]) -> (String, String) {
    let text = |moves: &[Move]| {
        moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    match line.split_last() {
        Some((mv, [])) => (mv.to_string(), "on the witness".to_owned()),
        Some((mv, before)) => (
            mv.to_string(),
            format!("in its divide after {} from the witness", text(before)),
        ),
        None => (String::new(), "on the witness".to_owned()),
    }
}

impl AnswerFault {
    /// The signature's check for a finding this fault names, where it names one of its
    /// own (a listed-twice finding keeps its move-class signature).
    pub(crate) fn check_name(&self) -> Option<&'static str> {
        match self {
            AnswerFault::ListedTwice(_) => None,
            AnswerFault::DependsOnPath(_) => Some("depends-on-path"),
            AnswerFault::CountedInSearch(..) => Some("counted-in-search"),
            AnswerFault::Asymmetric => Some("asymmetric"),
            AnswerFault::Nondeterministic(_) => Some("nondeterministic"),
        }
    }
}

impl AnswerFault {
    /// The fault in the game's words.
    pub fn sentence(&self) -> String {
        match self {
            AnswerFault::ListedTwice(moves) => {
                let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
                format!(
                    "the subject lists a move twice in one move list ({} on the witness), so \
                     it plays that move twice and counts everything below it twice",
                    moves.join(" ")
                )
            }
            AnswerFault::DependsOnPath(line) => {
                let (mv, at) = count_below(line);
                format!(
                    "the subject's count below {mv} {at} differs from what it answers about \
                     the position after {mv} asked on its own, and is what it answers once it \
                     has played {mv} itself: playing {mv} leaves its board wrong (a state \
                     bug, not a misread rule)"
                )
            }
            AnswerFault::Asymmetric => "the subject answers the witness mirrored left to \
                 right otherwise than as the mirror image of its answer on the witness, which \
                 no reading of the rules does (they are the same on both wings): it reads a \
                 rule differently on one wing, or its answer depends on the order it tries \
                 its moves in (a board left wrong by a move it took back while testing them)"
                .to_owned(),
            AnswerFault::Nondeterministic(repeated) => nondeterministic_sentence(repeated),
            AnswerFault::CountedInSearch(line, counting) => {
                counted_in_search_sentence(line, *counting)
            }
        }
    }
}

/// [`AnswerFault::Nondeterministic`] in words: the question asked twice and how its
/// two answers differ, so the claim that the answers are no function of the position
/// can be checked from the sentence alone.
fn nondeterministic_sentence(repeated: &Repeated) -> String {
    let Repeated {
        question,
        first,
        second,
    } = repeated;
    let (_, a) = first.normal();
    let (_, b) = second.normal();
    let only = |x: &Divide, y: &Divide| -> String {
        let moves: Vec<String> = x
            .iter()
            .filter(|e| !y.contains(e))
            .map(|(m, n)| match question.depth {
                1 => m.to_string(),
                _ => format!("{m}: {n}"),
            })
            .collect();
        match moves.is_empty() {
            true => "nothing".to_owned(),
            false => moves.join(" "),
        }
    };
    format!(
        "the subject answered the same question twice differently ({} at depth \
         {}: first {} moves, then {}; only in the first: {}; only in the second: \
         {}): its answers are not a function of the position, so no cause is \
         read into them (nondeterministic, not a misread rule)",
        question.position.fen(),
        question.depth,
        a.len(),
        b.len(),
        only(&a, &b),
        only(&b, &a),
    )
}

/// [`AnswerFault::CountedInSearch`] in words: where in its search the subject's count
/// goes wrong, which hangs on how it counts (`counting`): from the moves it plays, or
/// from the position it is given after them, which hides its make of the move.
fn counted_in_search_sentence(line: &[Move], counting: Counting) -> String {
    let (mv, at) = count_below(line);
    let before = "a move taken back earlier that leaves the board wrong, or a \
                  count of the last ply made without listing the moves";
    let where_ = match counting {
        Counting::PlaysMoves => format!(
            "it plays the moves it is given, so the count goes wrong in the \
             search before it, not by the move ({before})"
        ),
        Counting::FromFen => format!(
            "it counts from the position it is given, so asking after {mv} \
             shows nothing of its make: the count goes wrong in its search, in \
             its make of {mv} or before it ({before})"
        ),
        Counting::Unknown => format!(
            "the count goes wrong in its search: in its make of {mv} if it \
             counts from the position it is given after the moves (asking after \
             {mv} then shows nothing of that make), else before it ({before}); \
             which of the two it does could not be learnt, as a correct engine \
             answers alike either way"
        ),
    };
    format!(
        "the subject's count below {mv} {at} differs from what it answers about \
         the position after {mv}, asked on its own or after playing {mv} itself: \
         {where_} (a state bug, not a misread rule)"
    )
}

/// A variant the subject's answers refuted, and the question that did it: what it says
/// of how far the variant's rule holds for the subject (one side, one wing) is part of
/// what was learnt, and is said instead of naming a broader rule than was confirmed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Refuted {
    /// The variant dropped.
    pub variant: Variant,
    /// The first question it answered otherwise than the subject.
    pub by: Refutation,
}

/// Which question refuted a variant that explained a finding's witnesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refutation {
    /// The witness or the variant's example with the colours swapped: the variant fits
    /// only with this side to move, as the witness was seen.
    OtherSide(Color),
    /// The witness or the variant's example mirrored left to right: it fits one wing.
    OtherWing,
    /// The variant's own example.
    OwnExample,
    /// A position of its sentence table (`probes`), which tests the sentence's limits.
    SentenceLimit,
    /// A position next to the witness, or one that told candidates apart.
    NearWitness,
}

impl fmt::Display for Refuted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.variant.name();
        match self.by {
            Refutation::OtherSide(side) => {
                let side = match side {
                    Color::Red => "Red",
                    Color::Black => "Black",
                };
                write!(
                    f,
                    "{name} fits with {side} to move only: refuted with the colours swapped"
                )
            }
            Refutation::OtherWing => write!(
                f,
                "{name} fits on one wing only: refuted on the mirror image"
            ),
            Refutation::OwnExample => write!(f, "{name} refuted on its own example"),
            Refutation::SentenceLimit => {
                write!(
                    f,
                    "{name} refuted where its sentence is tested to its limits"
                )
            }
            Refutation::NearWitness => write!(f, "{name} refuted next to the witness"),
        }
    }
}

/// What refuted each of `explained` (variants that explained the witnesses before any
/// question): the first of `asked` it does not reproduce, read against `first`, the
/// finding's first witness.
fn refutations(explained: &[Variant], first: &Witness, asked: &[Witness]) -> Vec<Refuted> {
    explained
        .iter()
        .map(|&variant| {
            let g = VariantGen::new(variant);
            let refuting = asked.iter().find(|w| {
                let (depth, counts) = w.answer.normal();
                !reproduces(g, &w.position, depth, &counts)
            });
            let example = super::examples::example(variant).map(|(p, _)| p);
            let by = match refuting.map(|w| &w.position) {
                Some(p) if *p == first.position.swap_colors() => {
                    Refutation::OtherSide(first.position.turn())
                }
                Some(p) if example.as_ref().is_some_and(|e| *p == e.swap_colors()) => {
                    Refutation::OtherSide(first.position.turn())
                }
                Some(p)
                    if *p == first.position.mirror_files()
                        || example.as_ref().is_some_and(|e| *p == e.mirror_files()) =>
                {
                    Refutation::OtherWing
                }
                Some(p) if example.as_ref() == Some(p) => Refutation::OwnExample,
                Some(p) if super::probes::of(variant).any(|q| q == *p) => Refutation::SentenceLimit,
                _ => Refutation::NearWitness,
            };
            Refuted { variant, by }
        })
        .collect()
}

/// What diagnosis found: every variant that explains all the witnesses, most specific
/// first, or a fault in the answers' shape (neither: the finding is unexplained).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnosis {
    /// The explaining variants, most specific first, then in the catalogue's order.
    pub causes: Vec<Cause>,
    /// A fault no variant gives, found before the catalogue was asked.
    pub fault: Option<AnswerFault>,
    /// The variants that explained the finding's own witnesses until the subject
    /// answered a question otherwise than they do: dropped, never named, each with
    /// what refuted it.
    pub(crate) refuted: Vec<Refuted>,
    /// For a finding nothing explains: what its differences share, in the game's words
    /// (`the subject lacks elephant captures`), written by the findings path.
    pub learnt: Option<String>,
}

impl Diagnosis {
    /// A finding named by a fault in the answers' shape.
    pub(crate) fn of_fault(fault: AnswerFault) -> Diagnosis {
        Diagnosis {
            fault: Some(fault),
            ..Diagnosis::default()
        }
    }

    /// The fault's sentence, if there is one.
    pub(crate) fn fault_sentence(&self) -> Option<String> {
        self.fault.as_ref().map(AnswerFault::sentence)
    }
}

impl Diagnosis {
    /// Whether neither a variant nor a fault names it.
    pub(crate) fn is_unexplained(&self) -> bool {
        self.causes.is_empty() && self.fault.is_none()
    }

    /// The most specific explaining variant, if any.
    pub fn first(&self) -> Option<Variant> {
        self.causes.first().map(|c| c.variant)
    }

    /// The variants named, most specific first.
    pub fn variants(&self) -> Vec<Variant> {
        self.causes.iter().map(|c| c.variant).collect()
    }

    /// One `cause:` line for a fault and one per explaining variant, or
    /// `cause: unexplained`.
    pub fn lines(&self) -> Vec<String> {
        let twice = self.fault_sentence().map(|s| format!("cause: {s}"));
        let lines: Vec<String> = twice
            .into_iter()
            .chain(self.causes.iter().map(Cause::to_string))
            .collect();
        if lines.is_empty() {
            return vec![self.unexplained()];
        }
        lines
    }

    /// `cause: unexplained`, with what was learnt and which variants the subject's
    /// answers refuted.
    fn unexplained(&self) -> String {
        let mut line = "cause: unexplained".to_owned();
        if let Some(learnt) = &self.learnt {
            line.push_str(&format!(
                ": {learnt}; not explained by any known rule variant"
            ));
        }
        if !self.refuted.is_empty() {
            let refuted: Vec<String> = self.refuted.iter().map(Refuted::to_string).collect();
            line.push_str(&format!(" ({})", refuted.join("; ")));
        }
        line
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lines().join("\n"))
    }
}

/// A divide, sorted by move: what every answer is compared as.
type Divide = Vec<(Move, u64)>;

/// `g`'s divide of `pos` at `depth` (at least 1), sorted.
fn divide<G: MoveGen>(g: G, pos: &Position, depth: u32) -> Divide {
    let mut board = g.load(pos);
    let mut counts = perft::divide(&g, &mut board, depth.max(1));
    counts.sort_unstable();
    counts
}

/// Whether `g` answers `expected` (a sorted divide at `depth`) on `pos`. The move list is
/// compared first and each count as soon as it is known, so most variants are ruled out
/// for the price of one move list.
fn reproduces(g: VariantGen, pos: &Position, depth: u32, expected: &[(Move, u64)]) -> bool {
    let mut board = g.load(pos);
    let mut list = MoveList::new();
    g.legal(&mut board, &mut list);
    let mut moves: Vec<Move> = list.iter().copied().collect();
    moves.sort_unstable();
    if moves.len() != expected.len() || moves.iter().zip(expected).any(|(m, (e, _))| m != e) {
        return false;
    }
    if depth == 1 {
        return expected.iter().all(|&(_, n)| n == 1);
    }
    expected.iter().all(|&(mv, n)| {
        let undo = g.make(&mut board, mv);
        let below = perft::perft(&g, &mut board, depth - 1);
        g.unmake(&mut board, mv, undo);
        below == n
    })
}

/// Which generators a diagnosis puts the witnesses to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidates<'a> {
    /// Every variant of the catalogue.
    Catalogue,
    /// These variants only: a cause another finding has, tried alone before the whole
    /// catalogue.
    Among(&'a [Variant]),
    /// Two bugs at once: each of these causes (ones other findings of the subject
    /// already have) beside a variant, for witnesses no variant explains alone.
    BesideCauses(&'a [Variant]),
}

/// One diagnosis of a finding, asked for with everything it depends on: the one way in,
/// so the options are fields a caller names rather than a function per combination.
///
/// The causes are the candidates that reproduce the subject's answer on every witness
/// and the rules' answer on every position in `agreed`, most specific first. Within
/// `bound`, the subject is asked questions that narrow and confirm them: for single
/// variants, the first witness asked again (noise), its images, deciding positions
/// while several tie, positions next to it to confirm those left, and its mirror image
/// when none is left (asymmetry); for pairs, deciding and confirming positions. A
/// bound of no questions asks nothing.
#[derive(Clone, Copy, Debug)]
pub struct Diagnose<'a> {
    /// Positions where the subject's answer differs from the rules', with its answer.
    pub witnesses: &'a [Witness],
    /// Positions where the subject answered as the rules do.
    pub agreed: &'a [Witness],
    /// Which generators are tried.
    pub candidates: Candidates<'a>,
    /// What the diagnosis may spend asking the subject and searching for questions.
    pub bound: Bound,
}

impl<'a> Diagnose<'a> {
    /// The whole catalogue on `witnesses`, nothing agreed, no question asked.
    pub fn new(witnesses: &'a [Witness]) -> Diagnose<'a> {
        Diagnose {
            witnesses,
            agreed: &[],
            candidates: Candidates::Catalogue,
            bound: Bound {
                questions: 0,
                work: usize::MAX,
            },
        }
    }

    /// Runs the diagnosis, putting questions to the subject through `ask` (its answer,
    /// or `None` when it could not answer). Returns the diagnosis and the witnesses it
    /// ended with (the answers to the questions asked included).
    pub fn run(self, ask: impl FnMut(&Question) -> Option<Answer>) -> (Diagnosis, Vec<Witness>) {
        let work = Work::new(self.bound.work);
        let singles = |variants: &[Variant]| -> Vec<VariantGen> {
            variants.iter().map(|&v| VariantGen::new(v)).collect()
        };
        match self.candidates {
            // With no question to ask, only two causes already named (each confirmed
            // on its own finding) may be named together: a variant of the catalogue
            // named beside one of them would be named on no question that could
            // refute it.
            Candidates::BesideCauses(causes) if self.bound.questions == 0 => (
                explaining(&pairs(causes, causes), self.witnesses, self.agreed),
                self.witnesses.to_vec(),
            ),
            Candidates::BesideCauses(causes) => pairs_asking(self, causes, &work, ask),
            Candidates::Catalogue | Candidates::Among(_) => {
                let gens = match self.candidates {
                    Candidates::Among(some) => singles(some),
                    _ => singles(Variant::ALL),
                };
                // With no question to ask, what the witnesses say is all there is.
                if self.bound.questions == 0 {
                    let d = explaining(&gens, self.witnesses, self.agreed);
                    return (d, self.witnesses.to_vec());
                }
                asking(&gens, self, &work, ask)
            }
        }
    }
}

/// The generators among `candidates` that reproduce every witness and every agreed
/// position, as causes, most specific first.
fn explaining(candidates: &[VariantGen], witnesses: &[Witness], agreed: &[Witness]) -> Diagnosis {
    let asked: Vec<(&Position, u32, Divide)> = witnesses
        .iter()
        .chain(agreed)
        .map(|w| {
            let (depth, counts) = w.answer.normal();
            (&w.position, depth, counts)
        })
        .collect();
    let mut causes: Vec<Cause> = Vec::new();
    if !witnesses.is_empty() {
        for &g in candidates {
            // A variant is named once; and two bugs that are each other's beside are
            // one pair, named by the first found.
            let named = causes.iter().any(|c| {
                c.variant == g.variant()
                    || (Some(c.variant), c.beside) == (g.beside(), Some(g.variant()))
            });
            if !named
                && asked
                    .iter()
                    .all(|(pos, depth, counts)| reproduces(g, pos, *depth, counts))
            {
                causes.push(Cause {
                    variant: g.variant(),
                    beside: g.beside(),
                    explains: witnesses.len(),
                    of: witnesses.len(),
                    confirmed: 0,
                });
            }
        }
    }
    causes.sort_by_key(|c| rank(c.variant));
    Diagnosis {
        causes,
        ..Diagnosis::default()
    }
}

/// Every pair of a cause another finding already has (`causes`, each in turn) with a
/// variant of `with`, the cause beside it: what a subject with two bugs answers where
/// both show.
fn pairs(causes: &[Variant], with: &[Variant]) -> Vec<VariantGen> {
    causes
        .iter()
        .flat_map(|&beside| {
            with.iter()
                .filter_map(move |&v| VariantGen::pair(v, beside))
        })
        .collect()
}

/// Diagnosis of witnesses no variant explains alone, by two bugs at once: each pair of a
/// cause another finding of the subject already has (`causes`) and a variant that
/// reproduces every witness and agreed position. Two causes already named are tried
/// first, and only when no two of them explain the witnesses is the whole catalogue
/// tried beside them: a subject whose two bugs are both known shows them together, and
/// the catalogue's narrower variants (one side of the kings facing, say) would
/// otherwise name again, on a witness that shows only part of it, a bug already named.
/// Each variant is named once (beside the first cause in `causes` that fits), most
/// specific first.
fn diagnose_pairs(causes: &[Variant], witnesses: &[Witness], agreed: &[Witness]) -> Diagnosis {
    let both_named = explaining(&pairs(causes, causes), witnesses, agreed);
    if !both_named.causes.is_empty() {
        return both_named;
    }
    explaining(&pairs(causes, Variant::ALL), witnesses, agreed)
}

/// [`diagnose_pairs`], then, within the request's bound, what `asking` does for a
/// single variant, asking the subject through `ask`: deciding positions while several
/// pairs tie, then positions next to the first witness where those left answer
/// otherwise than the rules, to confirm them.
fn pairs_asking(
    request: Diagnose<'_>,
    causes: &[Variant],
    work: &Work,
    mut ask: impl FnMut(&Question) -> Option<Answer>,
) -> (Diagnosis, Vec<Witness>) {
    let mut witnesses = request.witnesses.to_vec();
    let given = witnesses.len();
    let diagnosis = diagnose_pairs(causes, &witnesses, request.agreed);
    let (diagnosis, _) = narrow_and_confirm(
        diagnosis,
        &mut witnesses,
        request.agreed,
        request.bound.questions,
        work,
        &mut ask,
    );
    let mut diagnosis = confirmed_on(diagnosis, witnesses.len() - given);
    // A pair with a variant no other finding named, and no question asked that could
    // refute it, is a guess: only pairs of causes already named stand on the witnesses.
    if witnesses.len() == given {
        diagnosis.causes.retain(|c| {
            causes.contains(&c.variant) && c.beside.is_none_or(|b| causes.contains(&b))
        });
    }
    (diagnosis, witnesses)
}

/// Puts `question` to the subject; its answer joins `witnesses`. `false` when it gave
/// none, which ends the asking.
fn answered(
    question: Question,
    witnesses: &mut Vec<Witness>,
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> bool {
    let Some(answer) = ask(&question) else {
        return false;
    };
    witnesses.push(Witness {
        position: question.position,
        answer,
    });
    true
}

/// What a diagnosis asks once it has its candidates, for single variants and pairs
/// alike: deciding positions while several causes tie, then positions next to the first
/// witness where those left answer otherwise than the rules, to confirm them
/// (`confirming_positions`). At most `room` questions; each answer joins `witnesses`.
/// Returns the causes that explain every witness and agreed position, and how many
/// questions were asked.
fn narrow_and_confirm(
    mut diagnosis: Diagnosis,
    witnesses: &mut Vec<Witness>,
    agreed: &[Witness],
    room: usize,
    work: &Work,
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> (Diagnosis, usize) {
    let standing = |d: &Diagnosis| -> Vec<VariantGen> {
        d.causes.iter().filter_map(Cause::generator).collect()
    };
    let mut asked = 0;
    while asked < room && diagnosis.causes.len() >= 2 && !work.spent() {
        let gens = standing(&diagnosis);
        let Some(question) = witnesses
            .iter()
            .find_map(|w| deciding_position_within(w, &gens, work))
        else {
            break;
        };
        asked += 1;
        if !answered(question, witnesses, ask) {
            break;
        }
        diagnosis = explaining(&gens, witnesses, agreed);
    }
    let standing = standing(&diagnosis);
    if standing.is_empty() || asked >= room || work.spent() {
        return (diagnosis, asked);
    }
    let mut questions = confirming_positions(witnesses, &standing, room - asked, work);
    for question in own_examples(witnesses, &standing) {
        if !questions.contains(&question) {
            questions.push(question);
        }
    }
    for question in questions.into_iter().take(room - asked) {
        asked += 1;
        if !answered(question, witnesses, ask) {
            break;
        }
    }
    (explaining(&standing, witnesses, agreed), asked)
}

/// Each candidate's own example (`docs/variants.md`), mirrored left to right and seen
/// from the other side too, then the positions that test its sentence's limits
/// (`probes`), where not among `witnesses` already: the positions
/// the variant's sentence is surest about. A subject with the variant's bug answers
/// them as the variant does; one whose bug only looks like it on the witness (a move
/// list that loses some pawn moves, read as pawns that never step sideways) does not,
/// and the variant is dropped. Its images ask whether the bug is the other side's and
/// the other wing's too, so a variant of both sides is not named for a bug of one.
fn own_examples(witnesses: &[Witness], candidates: &[VariantGen]) -> Vec<Question> {
    let mut questions: Vec<Question> = Vec::new();
    let mut ask = |question: Question| {
        let known = witnesses.iter().any(|w| w.position == question.position);
        if !known && !questions.contains(&question) {
            questions.push(question);
        }
    };
    for g in candidates {
        let Some((example, depth)) = super::examples::example(g.variant()) else {
            continue;
        };
        let images = [
            example.mirror_files(),
            example.swap_colors(),
            example.clone(),
        ];
        for position in std::iter::once(example).chain(images) {
            ask(Question { position, depth });
        }
    }
    // Then the rows that hold each variant's sentence to its limits (`probes`): the
    // other axis, the rule's near side where the variant agrees with the rules.
    for g in candidates {
        for position in super::probes::of(g.variant()) {
            ask(Question { position, depth: 1 });
        }
    }
    questions
}

/// Every cause of `diagnosis` counted as confirmed on the `asked` questions the
/// subject answered (each one a position the cause could have been refuted on: the
/// causes left reproduce every answer).
fn confirmed_on(mut diagnosis: Diagnosis, asked: usize) -> Diagnosis {
    for cause in &mut diagnosis.causes {
        cause.confirmed = asked;
    }
    diagnosis
}

/// How many of `witnesses` each of `candidates` reproduces: the variants that reproduce
/// at least one, those that explain the most first, then most specific first. What a
/// finding's `cause:` line counts once its witnesses are all in (some were kept after
/// the diagnosis was made).
/// A cause with a second bug beside it counts the witnesses the two reproduce together
/// and those its variant reproduces alone.
pub(crate) fn recount(candidates: &[Cause], witnesses: &[Witness]) -> Diagnosis {
    let asked: Vec<(&Position, u32, Divide)> = witnesses
        .iter()
        .map(|w| {
            let (depth, counts) = w.answer.normal();
            (&w.position, depth, counts)
        })
        .collect();
    let mut causes: Vec<Cause> = candidates
        .iter()
        .map(|c| {
            let alone = VariantGen::new(c.variant);
            let gens: Vec<VariantGen> = std::iter::once(alone).chain(c.generator()).collect();
            Cause {
                explains: asked
                    .iter()
                    .filter(|(pos, depth, counts)| {
                        gens.iter().any(|&g| reproduces(g, pos, *depth, counts))
                    })
                    .count(),
                of: witnesses.len(),
                ..*c
            }
        })
        .filter(|c| c.explains > 0)
        .collect();
    causes.sort_by_key(|c| (std::cmp::Reverse(c.explains), rank(c.variant)));
    Diagnosis {
        causes,
        ..Diagnosis::default()
    }
}

/// The order variants that explain equally are named in: most specific first, then the
/// catalogue's order.
fn rank(variant: Variant) -> (std::cmp::Reverse<Specificity>, usize) {
    let at = Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .unwrap_or(usize::MAX);
    (std::cmp::Reverse(variant.specificity()), at)
}

/// Positions one small change away from `pos`, smallest changes first: a piece taken
/// off, the other side to move, a piece stepped to a point next to it, a piece put on.
/// Only valid positions: a subject is never asked about one the rules do not allow.
fn neighbours(pos: &Position) -> impl Iterator<Item = Position> + '_ {
    let setup = pos.setup();
    let valid = |s: Setup| Position::new(s).ok();
    let removed = pos
        .pieces()
        .filter(|(_, p)| p.role != Role::King)
        .filter_map(move |(sq, _)| {
            let mut s = setup.clone();
            s.board[sq.index()] = None;
            valid(s)
        });
    let turned = std::iter::once_with(move || {
        let mut s = setup.clone();
        s.turn = s.turn.other();
        valid(s)
    })
    .flatten();
    let stepped = pos.pieces().flat_map(move |(from, piece)| {
        Square::all()
            .filter(move |to| {
                let (df, dr) = (
                    (to.file() as i8 - from.file() as i8).abs(),
                    (to.rank() as i8 - from.rank() as i8).abs(),
                );
                df <= 2 && dr <= 2 && setup.piece_at(*to).is_none()
            })
            .filter_map(move |to| {
                let mut s = setup.clone();
                s.board[from.index()] = None;
                s.board[to.index()] = Some(piece);
                valid(s)
            })
    });
    let added = Square::all()
        .filter(move |sq| setup.piece_at(*sq).is_none())
        .flat_map(move |sq| {
            Color::ALL.into_iter().flat_map(move |color| {
                Role::ALL
                    .into_iter()
                    .filter(|&r| r != Role::King)
                    .filter_map(move |role| {
                        let mut s = setup.clone();
                        s.board[sq.index()] = Some(Piece::new(color, role));
                        valid(s)
                    })
            })
        });
    removed.chain(turned).chain(stepped).chain(added)
}

/// A deciding position for candidates that tie on `witness`: a small change of the
/// witness's position on which the candidates answer differently, so the subject's
/// answer there rules some of them out. The move list is asked for when that tells them
/// apart, else the divide at depth 2, whatever the witness's depth: two check detectors
/// that differ only about the side not to move answer alike on every move list, and
/// one move down they do not. Prefers a position that
/// tells every candidate from every other; `None` when no small change tells any two
/// apart (the candidates may then be the same bug as far as this witness can show).
#[cfg(test)]
pub(crate) fn deciding_position(witness: &Witness, candidates: &[Variant]) -> Option<Question> {
    let gens: Vec<VariantGen> = candidates.iter().map(|&v| VariantGen::new(v)).collect();
    deciding_position_within(witness, &gens, &Work::unbounded())
}

/// [`deciding_position`], giving up once `work` is spent with the best position found
/// by then.
fn deciding_position_within(
    witness: &Witness,
    candidates: &[VariantGen],
    work: &Work,
) -> Option<Question> {
    if candidates.len() < 2 {
        return None;
    }
    let mut best: Option<(usize, Question)> = None;
    for ask_depth in [1, 2] {
        for position in
            std::iter::once(witness.position.clone()).chain(neighbours(&witness.position))
        {
            if work.spent() {
                return best.map(|(_, q)| q);
            }
            work.spend(candidates.len());
            let mut answers: Vec<Divide> = candidates
                .iter()
                .map(|&g| divide(g, &position, ask_depth))
                .collect();
            answers.sort_unstable();
            answers.dedup();
            let told_apart = answers.len();
            if told_apart > best.as_ref().map_or(1, |(n, _)| *n) {
                let done = told_apart == candidates.len();
                best = Some((
                    told_apart,
                    Question {
                        position,
                        depth: ask_depth,
                    },
                ));
                if done {
                    return best.map(|(_, q)| q);
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.map(|(_, q)| q)
}

/// What one diagnosis may spend: questions put to the subject, and work of its own
/// (the positions it examines looking for deciding and confirming ones). Work is
/// counted, not timed, so a diagnosis names the same cause on a busy machine as on an
/// idle one, and a seed gives the same findings from run to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// At most this many questions.
    pub questions: usize,
    /// At most this many divides of candidate generators (one candidate on one position
    /// is one); once they are spent no more questions are looked for, and the diagnosis
    /// names every variant still standing.
    pub work: usize,
}

/// The work a diagnosis has left: shared by every search it makes, so the searches
/// together stay within the bound.
struct Work(Cell<usize>);

impl Work {
    fn new(bound: usize) -> Work {
        Work(Cell::new(bound))
    }

    /// Unbounded: for the callers that ask for one search by itself.
    #[cfg(test)]
    fn unbounded() -> Work {
        Work::new(usize::MAX)
    }

    fn spent(&self) -> bool {
        self.0.get() == 0
    }

    /// Takes `n` units, or whatever is left.
    fn spend(&self, n: usize) {
        self.0.set(self.0.get().saturating_sub(n));
    }
}

/// Diagnosis of single variants that asks the subject. First the images of the first
/// witness (mirrored, and seen from the other side) are put to it where a candidate
/// answers them otherwise than the rules: a bug the catalogue does not hold (right on
/// one wing, say) would otherwise take the name of the broader variant that fits its
/// witness, and a variant of one side is told from its both-sides twin. Then, while
/// several variants explain the witnesses, a deciding position is put to the subject,
/// and the variants that answer as it did are kept. Last, a few positions next to the
/// witness where those left answer otherwise than the rules confirm them
/// (`confirming_positions`). At most the request's bound of questions are asked in all,
/// and `candidates` are the generators first tried.
fn asking(
    candidates: &[VariantGen],
    request: Diagnose<'_>,
    work: &Work,
    mut ask: impl FnMut(&Question) -> Option<Answer>,
) -> (Diagnosis, Vec<Witness>) {
    let (agreed, most_questions) = (request.agreed, request.bound.questions);
    let mut witnesses = request.witnesses.to_vec();
    let given = witnesses.len();
    // Noise first: the first witness asked again, before anything is read into it.
    if let Some(fault) = witnesses
        .first()
        .filter(|_| most_questions > 0)
        .and_then(|w| nondeterministic(w, &mut ask))
    {
        return (Diagnosis::of_fault(fault), witnesses);
    }
    let mut diagnosis = explaining(candidates, &witnesses, agreed);
    let explained = diagnosis.variants();
    let mut asked = if most_questions > 0 && !witnesses.is_empty() {
        2
    } else {
        0
    };
    if let (Some(first), false) = (witnesses.first().cloned(), diagnosis.causes.is_empty()) {
        let standing = diagnosis.variants();
        let (depth, _) = first.answer.normal();
        let images = [first.position.mirror_files(), first.position.swap_colors()];
        for image in images {
            if asked >= most_questions || work.spent() {
                break;
            }
            work.spend(standing.len() + 1);
            let rules = divide(NaiveGen, &image, depth);
            let telling = standing
                .iter()
                .any(|&v| divide(VariantGen::new(v), &image, depth) != rules);
            if image == first.position || !telling {
                continue;
            }
            let question = Question {
                position: image,
                depth,
            };
            asked += 1;
            let Some(answer) = ask(&question) else {
                break;
            };
            witnesses.push(Witness {
                position: question.position,
                answer,
            });
        }
        let gens: Vec<VariantGen> = standing.iter().map(|&v| VariantGen::new(v)).collect();
        diagnosis = explaining(&gens, &witnesses, agreed);
    }
    let (narrowed, more) = narrow_and_confirm(
        diagnosis,
        &mut witnesses,
        agreed,
        most_questions.saturating_sub(asked),
        work,
        &mut ask,
    );
    // Every answer the subject gave is one the causes left could have failed on.
    diagnosis = confirmed_on(narrowed, witnesses.len() - given);
    if let (true, Some(first)) = (diagnosis.causes.is_empty(), witnesses.first()) {
        diagnosis.refuted = refutations(&explained, first, &witnesses[given..]);
    }
    asked += more;
    if diagnosis.causes.is_empty() && asked < most_questions && !work.spent() {
        if let Some(fault) = asymmetry(&witnesses, &mut ask) {
            witnesses.push(fault.1);
            diagnosis.fault = Some(fault.0);
        }
    }
    (diagnosis, witnesses)
}

/// The question `witness` answers, put to the subject twice more, one right after the
/// other (noise that alternates shows on two answers in a row): the fault, with two
/// answers that differ, when either is not the one it gave; `None` when it repeats it
/// both times, or could not answer.
pub(crate) fn nondeterministic(
    witness: &Witness,
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> Option<AnswerFault> {
    let (depth, counts) = witness.answer.normal();
    let question = Question {
        position: witness.position.clone(),
        depth,
    };
    let mut first = witness.answer.clone();
    for _ in 0..2 {
        let again = ask(&question)?;
        let (d, theirs) = again.normal();
        if d == depth && theirs != counts {
            return Some(AnswerFault::Nondeterministic(Box::new(Repeated {
                question,
                first,
                second: again,
            })));
        }
        first = again;
    }
    None
}

/// For a witness no variant explains: the subject is asked about the first witness
/// mirrored left to right, and [`AnswerFault::Asymmetric`] is the fault when its answer
/// there is not the mirror image of its answer on the witness (with that answer as one
/// more witness). `None` for a position its own mirror image, or an answer that is.
fn asymmetry(
    witnesses: &[Witness],
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> Option<(AnswerFault, Witness)> {
    let first = witnesses.first()?;
    let image = first.position.mirror_files();
    if image == first.position {
        return None;
    }
    let (depth, counts) = first.answer.normal();
    let question = Question {
        position: image,
        depth,
    };
    let answer = ask(&question)?;
    let mut mirrored: Divide = counts
        .iter()
        .map(|&(mv, n)| (mv.mirror_files(), n))
        .collect();
    mirrored.sort_unstable();
    let (their_depth, theirs) = answer.normal();
    (their_depth == depth && theirs != mirrored).then_some((
        AnswerFault::Asymmetric,
        Witness {
            position: question.position,
            answer,
        },
    ))
}

/// How many positions next to the first witness a diagnosis puts to the subject to
/// confirm the variants that explain the witnesses.
const CONFIRMING: usize = 3;

/// Positions one small change away from the first witness where a variant still standing
/// answers otherwise than the rules, pieces taken off first: a misread rule shows there
/// too, where a bug that only looks like it on the witness does not. A board left wrong
/// by a move the subject took back while it tested its moves (a captured horse put back
/// as a pawn, say) can hide a horse's check on the witness exactly as a check detector
/// blind to horses would; with the capturing piece taken off, the blind detector still
/// misses the check and the subject does not. At most `room` of them, fewer than
/// [`CONFIRMING`] when no more small change shows the variants, none once `work` is
/// spent. The divide is asked at the witness's depth, at most 2.
fn confirming_positions(
    witnesses: &[Witness],
    candidates: &[VariantGen],
    room: usize,
    work: &Work,
) -> Vec<Question> {
    let Some(first) = witnesses.first() else {
        return Vec::new();
    };
    let depth = first.answer.normal().0.min(2);
    neighbours(&first.position)
        .take_while(|_| !work.spent())
        .filter(|p| witnesses.iter().all(|w| &w.position != p))
        .filter(|p| {
            work.spend(candidates.len() + 1);
            let rules = divide(NaiveGen, p, depth);
            candidates.iter().any(|&g| divide(g, p, depth) != rules)
        })
        .take(CONFIRMING.min(room))
        .map(|position| Question { position, depth })
        .collect()
}
