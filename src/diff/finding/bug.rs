//! One distinct bug, whoever it blames: the built-in generators, which disagree among
//! themselves, or a subject that differs from them. Its witnesses are kept by one rule
//! and two findings of one bug are joined one way, whichever it blames.

use super::known::Known;
use super::sighting::Sighting;
use super::trail::Trail;
use crate::diagnose::{Diagnosis, Witness};
use crate::diff::corpus::{Case, WITNESSES};
use crate::diff::oracle::Disagreement;
use crate::diff::signature::Signature;
use crate::moves::Move;
use crate::position::Position;
use std::path::PathBuf;
use std::time::Duration;

/// Whom a finding blames, with what shows it there: the one thing in which the built-ins'
/// findings and a subject's differ.
#[derive(Clone, Debug)]
pub enum Blame {
    /// The built-in generators, which disagree among themselves (the odd one out, when
    /// there is one, is the disagreement's).
    Builtins(Box<Among>),
    /// A subject (an engine, a library) that differs from the built-ins.
    Subject(Box<Trail>),
}

/// A disagreement among the built-ins as its finding's smallest witness shows it.
#[derive(Clone, Debug)]
pub struct Among {
    /// The sighting the smallest witness came from.
    pub origin: Sighting,
    /// The smallest witness.
    pub minimized: Position,
    /// The disagreement on it.
    pub disagreement: Disagreement,
}

impl Among {
    /// The built-ins blamed for `disagreement`, met at `origin` and minimized to
    /// `minimized`.
    pub fn blame(origin: &Sighting, minimized: &Position, disagreement: &Disagreement) -> Blame {
        Blame::Builtins(Box::new(Among {
            origin: origin.clone(),
            minimized: minimized.clone(),
            disagreement: disagreement.clone(),
        }))
    }
}

impl Blame {
    /// Who is blamed: the subject's name, or the built-in generator that is the odd one
    /// out (`None` when no one generator is).
    pub fn blamed(&self) -> Option<&str> {
        match self {
            Blame::Builtins(among) => among.disagreement.odd_one_out.as_deref(),
            Blame::Subject(trail) => Some(&trail.subject),
        }
    }

    /// The smallest witness, with the order it was found in; `None` for a subject that
    /// failed before its difference could be reproduced.
    fn witness(&self) -> Option<(&Position, u64)> {
        match self {
            Blame::Builtins(among) => Some((&among.minimized, among.origin.order)),
            Blame::Subject(trail) => trail
                .reproduction
                .as_ref()
                .map(|r| (&r.minimized, trail.order)),
        }
    }
}

/// One distinct bug: whom it blames, its signature, every sighting counted, the
/// smallest witness with where it came from, and a few other witnesses.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Whom it blames, with the smallest witness and how it was found.
    pub blame: Blame,
    /// Which bug: its cause when diagnosis names one, else the move-class signature
    /// every sighting shares.
    pub signature: Signature,
    /// The move-class signatures its sightings showed (one, unless a cause joined
    /// several).
    pub symptoms: Vec<Signature>,
    /// Which rule variants explain it; `None` when it could not be diagnosed (no one
    /// generator is the odd one out, or no full answer of the subject's).
    pub diagnosis: Option<Diagnosis>,
    /// What the diagnosis was made on: the blamed one's answers on the witnesses, and
    /// on the positions asked to tell candidates apart.
    pub evidence: Vec<Witness>,
    /// Whether the known list names it.
    pub known: bool,
    /// How many sightings showed it.
    pub hits: u64,
    /// The order of the first sighting: findings are listed by it.
    pub first: u64,
    /// How long into the run the first sighting was met.
    pub found_after: Duration,
    /// Every minimized witness kept, the smallest among them, in the order found.
    pub witnesses: Vec<Position>,
    /// The corpus file of the smallest witness (or the one already there), if saving.
    pub file: Option<PathBuf>,
    /// Every corpus file written (or already there) for the witnesses, in order.
    pub saved: Vec<PathBuf>,
}

impl Finding {
    /// A finding of one sighting, before any other: `blame` with its witness kept.
    pub(crate) fn first_of(
        blame: Blame,
        signature: Signature,
        first: u64,
        found_after: Duration,
    ) -> Self {
        let witnesses = blame
            .witness()
            .map(|(w, _)| w.clone())
            .into_iter()
            .collect();
        Finding {
            blame,
            symptoms: vec![signature.clone()],
            signature,
            diagnosis: None,
            evidence: Vec::new(),
            known: false,
            hits: 1,
            first,
            found_after,
            witnesses,
            file: None,
            saved: Vec::new(),
        }
    }

    /// The disagreement among the built-ins it blames; `None` for a subject's.
    pub fn among(&self) -> Option<&Among> {
        match &self.blame {
            Blame::Builtins(among) => Some(among),
            Blame::Subject(_) => None,
        }
    }

    /// How the subject it blames was found to differ; `None` for the built-ins'.
    pub fn trail(&self) -> Option<&Trail> {
        match &self.blame {
            Blame::Builtins(_) => None,
            Blame::Subject(trail) => Some(trail),
        }
    }

    /// [`Finding::trail`], to add to.
    pub(crate) fn trail_mut(&mut self) -> Option<&mut Trail> {
        match &mut self.blame {
            Blame::Builtins(_) => None,
            Blame::Subject(trail) => Some(trail),
        }
    }

    /// The smallest witness; `None` for a subject that failed before its difference
    /// could be reproduced.
    pub fn minimized(&self) -> Option<&Position> {
        self.blame.witness().map(|(w, _)| w)
    }

    /// The witnesses other than the smallest.
    pub fn others(&self) -> impl Iterator<Item = &Position> {
        let lead = self.minimized();
        self.witnesses.iter().filter(move |w| Some(*w) != lead)
    }

    /// Whether the finding would keep one more witness.
    pub(crate) fn wants_witness(&self) -> bool {
        self.witnesses.len() < WITNESSES
    }

    /// The one rule for witnesses: up to [`WITNESSES`] distinct ones are kept, and the
    /// smallest (fewest pieces; the earlier sighting on a tie; a witness beats none)
    /// leads, its blame becoming the finding's. Offers the witness of `blame`; returns
    /// whether it was kept, and whether it now leads.
    pub fn offer(&mut self, blame: Blame) -> (bool, bool) {
        let Some((candidate, order)) = blame.witness() else {
            return (false, false);
        };
        let (kept, leads) = match self.blame.witness() {
            Some(leading) => offer_witness(&mut self.witnesses, leading, candidate, order),
            None if self.wants_witness() && !self.witnesses.contains(candidate) => {
                self.witnesses.push(candidate.clone());
                (true, true)
            }
            None => (false, false),
        };
        if leads {
            self.take_lead(blame);
        }
        (kept, leads)
    }

    /// Makes `blame`, whose witness is smaller, the finding's: what the subject failed
    /// on while its other differences were followed stays part of the story.
    fn take_lead(&mut self, mut blame: Blame) {
        if let (Blame::Subject(mine), Blame::Subject(theirs)) = (&mut self.blame, &mut blame) {
            let own = std::mem::replace(&mut theirs.failures, std::mem::take(&mut mine.failures));
            add_new(&mut theirs.failures, own);
        }
        self.blame = blame;
    }

    /// Counts `later`, a sighting of the same bug or a finding of it, in: every hit,
    /// move class, answer, witness and file of both, its witness offered by the one
    /// rule; a file leads when its witness does.
    pub(crate) fn count_in(&mut self, later: Finding, known: &Known) {
        self.hits += later.hits;
        if later.first < self.first {
            self.first = later.first;
            self.found_after = later.found_after;
        }
        add_new(&mut self.symptoms, later.symptoms);
        self.evidence.extend(later.evidence);
        let mut blame = later.blame;
        if let (Blame::Subject(mine), Blame::Subject(theirs)) = (&mut self.blame, &mut blame) {
            add_new(&mut mine.failures, std::mem::take(&mut theirs.failures));
        }
        let (_, leads) = self.offer(blame);
        if leads {
            self.file = later.file.or(self.file.take());
        }
        let room = WITNESSES.saturating_sub(self.witnesses.len());
        let others: Vec<Position> = later
            .witnesses
            .into_iter()
            .filter(|w| !self.witnesses.contains(w))
            .take(room)
            .collect();
        add_new(&mut self.witnesses, others);
        add_new(&mut self.saved, later.saved);
        self.known = self.known || later.known || known.names(&self.signature, &self.symptoms);
    }

    /// Counts `other`, a finding of the same bug, in without taking anything else of
    /// it: its hits, whether it is known, its move classes.
    pub(crate) fn count_hits_of(&mut self, other: Finding) {
        self.hits += other.hits;
        self.known |= other.known;
        add_new(&mut self.symptoms, other.symptoms);
    }

    /// Whether [`Finding::offer`] would keep `witness`: there is one, and room for it.
    pub(crate) fn would_keep(&self, witness: Option<&Position>) -> bool {
        witness.is_some_and(|w| self.wants_witness() && !self.witnesses.contains(w))
    }

    /// Takes in `later`, a finding of the same bug: named by the most specific of the
    /// causes the two `shared`, with everything of both ([`Finding::count_in`]).
    pub(crate) fn absorb(&mut self, later: Finding, shared: Diagnosis, known: &Known) {
        self.named_by(shared);
        self.count_in(later, known);
    }

    /// Gives the finding `diagnosis`, and the name of its most specific cause when it
    /// names one.
    pub(crate) fn named_by(&mut self, diagnosis: Diagnosis) {
        if let Some(v) = diagnosis.first() {
            self.signature = Signature::cause(&self.signature.side, v);
        }
        self.diagnosis = Some(diagnosis);
    }

    /// The corpus case for one of its witnesses, found by `from`.
    pub fn case(from: &Sighting, disagreement: &Disagreement) -> Case {
        let mut case = Case::from_disagreement(
            disagreement,
            &from.position.fen(),
            &from.provenance.to_string(),
        );
        if let Some((root, path)) = &from.path {
            let path: Vec<String> = path.iter().map(Move::to_string).collect();
            case.notes.push(("perft-root".into(), root.fen()));
            if let Some(depth) = from.depth {
                case.notes.push(("perft-depth".into(), depth.to_string()));
            }
            case.notes.push((
                "path".into(),
                if path.is_empty() {
                    "(root)".into()
                } else {
                    path.join(" ")
                },
            ));
        }
        case
    }
}

/// The one rule for the witnesses of any finding, the built-ins' or a subject's: up to
/// [`WITNESSES`] distinct witnesses are `kept`, and the smallest (fewest pieces; the
/// earlier found on a tie) leads. Offers `candidate`, found at `order`, against the one
/// leading now; returns whether it was kept, and whether it now leads.
pub(crate) fn offer_witness(
    kept: &mut Vec<Position>,
    leading: (&Position, u64),
    candidate: &Position,
    order: u64,
) -> (bool, bool) {
    if kept.len() >= WITNESSES || kept.contains(candidate) {
        return (false, false);
    }
    kept.push(candidate.clone());
    let size = |p: &Position| p.pieces().count();
    let smaller = (size(candidate), order) < (size(leading.0), leading.1);
    (true, smaller)
}

/// Adds to `list` each of `items` it does not hold yet, in order.
fn add_new<T: PartialEq>(list: &mut Vec<T>, items: impl IntoIterator<Item = T>) {
    for item in items {
        if !list.contains(&item) {
            list.push(item);
        }
    }
}
