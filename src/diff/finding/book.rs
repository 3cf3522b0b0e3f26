//! The finding book: sightings grouped by bug, each bug with its smallest witness and a
//! few others kept by one rule, named by its cause and saved into the corpus. One book
//! for every phase, so a bug met twice is counted once and kept alike.

use super::known::Known;
use super::naming::{
    diagnosed, in_process_asker, in_process_witness, join_shared_causes, named_causes,
    odd_generator, paired_later, recount_diagnosis, Diagnosed, NO_QUESTIONS,
};
use super::sighting::{show, Shown, Sighting};
use crate::diagnose::{Diagnosis, Witness};
use crate::diff::corpus::{self, Case, WITNESSES};
use crate::diff::minimize::minimize;
use crate::diff::oracle::Disagreement;
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Duration;

/// One distinct bug: its signature, every sighting counted, the smallest witness with
/// where it came from, and a few other witnesses.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Which bug: its cause when diagnosis names one, else the move-class signature
    /// every sighting shares.
    pub signature: Signature,
    /// The move-class signatures its sightings showed (one, unless a cause joined
    /// several).
    pub symptoms: Vec<Signature>,
    /// Which rule variants explain it; `None` when it could not be diagnosed (no one
    /// generator is the odd one out).
    pub diagnosis: Option<Diagnosis>,
    /// What the diagnosis was made on: the odd generator's answers on the witnesses,
    /// and on the positions asked to tell candidates apart.
    pub evidence: Vec<Witness>,
    /// Whether the known list names it.
    pub known: bool,
    /// How many sightings showed it.
    pub hits: u64,
    /// The order of the first sighting: findings are listed by it.
    pub first: u64,
    /// How long into the run the first sighting was met.
    pub found_after: Duration,
    /// The sighting the smallest witness came from.
    pub origin: Sighting,
    /// The smallest witness.
    pub minimized: Position,
    /// The disagreement on it.
    pub disagreement: Disagreement,
    /// Every minimized witness kept, the smallest among them, in the order found.
    pub witnesses: Vec<Position>,
    /// The corpus file of the smallest witness (or the one already there), if saving.
    pub file: Option<PathBuf>,
    /// Every corpus file written (or already there) for the witnesses, in order.
    pub saved: Vec<PathBuf>,
}

impl Finding {
    /// The witnesses other than the smallest.
    pub fn others(&self) -> impl Iterator<Item = &Position> {
        self.witnesses.iter().filter(move |w| **w != self.minimized)
    }

    /// Whether the finding would keep one more witness.
    pub fn wants_witness(&self) -> bool {
        self.witnesses.len() < WITNESSES
    }

    /// The one rule for witnesses: up to [`WITNESSES`] distinct ones are kept, and the
    /// smallest (fewest pieces; the earlier sighting on a tie) is the finding's. Returns
    /// whether `minimized` was kept, and whether it became the smallest.
    pub fn offer(
        &mut self,
        from: &Sighting,
        minimized: &Position,
        disagreement: &Disagreement,
    ) -> (bool, bool) {
        let (kept, smaller) = offer_witness(
            &mut self.witnesses,
            (&self.minimized, self.origin.order),
            minimized,
            from.order,
        );
        if smaller {
            self.origin = from.clone();
            self.minimized = minimized.clone();
            self.disagreement = disagreement.clone();
        }
        (kept, smaller)
    }

    /// Takes in `later`, a finding of the same bug: named by the most specific of the
    /// causes the two `shared`, with every sighting, move class, witness and file of
    /// both, the smallest witness leading.
    fn absorb(&mut self, later: Finding, shared: Diagnosis, known: &Known) {
        if let Some(v) = shared.first() {
            self.signature = Signature::cause(&self.signature.side, v);
        }
        self.diagnosis = Some(shared);
        self.hits += later.hits;
        if later.first < self.first {
            self.first = later.first;
            self.found_after = later.found_after;
        }
        for symptom in later.symptoms {
            if !self.symptoms.contains(&symptom) {
                self.symptoms.push(symptom);
            }
        }
        self.evidence.extend(later.evidence);
        let (_, smaller) = self.offer(&later.origin, &later.minimized, &later.disagreement);
        if smaller {
            self.file = later.file.or(self.file.take());
        }
        for w in later.witnesses {
            if self.wants_witness() && !self.witnesses.contains(&w) {
                self.witnesses.push(w);
            }
        }
        for file in later.saved {
            if !self.saved.contains(&file) {
                self.saved.push(file);
            }
        }
        self.known = self.known || later.known || known.names(&self.signature, &self.symptoms);
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
pub fn offer_witness(
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

/// What a [`Findings`] does with what it is handed.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The known bugs.
    pub known: Known,
    /// Where witnesses are saved; `None` keeps them in memory.
    pub save: Option<PathBuf>,
    /// Whether sightings are minimized: a corpus case replayed is a witness already.
    pub keep_as_is: bool,
}

/// The findings of one phase or command, as they are handed in.
#[derive(Debug)]
pub struct Findings {
    settings: Settings,
    /// Where witnesses go, when saving.
    saving: Option<corpus::Saving>,
    list: Vec<Finding>,
    /// Witnesses that could not be saved, one sentence each.
    pub write_errors: Vec<String>,
}

impl Findings {
    /// None yet.
    pub fn new(settings: Settings) -> Findings {
        Findings {
            saving: settings.save.as_deref().map(corpus::Saving::new),
            settings,
            list: Vec::new(),
            write_errors: Vec::new(),
        }
    }

    /// Whether `signature` is a known bug: the list names it, or it is a move class of
    /// a finding the list names.
    pub fn is_known(&self, signature: &Signature) -> bool {
        self.settings.known.contains(signature)
            || self
                .list
                .iter()
                .any(|f| f.known && f.symptoms.contains(signature))
    }

    /// Where in [`Findings::list`] the finding a sighting of the move class `symptom`
    /// went to is: the one named by its cause, when that joined several.
    pub fn index_of(&self, symptom: &Signature) -> Option<usize> {
        self.list.iter().position(|f| f.symptoms.contains(symptom))
    }

    /// The findings so far, in the order of their first sightings.
    pub fn list(&self) -> &[Finding] {
        &self.list
    }

    /// How many findings are not known bugs.
    pub fn new_count(&self) -> usize {
        self.list.iter().filter(|f| !f.known).count()
    }

    /// The findings, in the order of their first sightings, each cause counted over
    /// all its evidence.
    pub fn into_list(mut self) -> Vec<Finding> {
        self.pair_unexplained();
        self.list.sort_by_key(|f| f.first);
        for f in &mut self.list {
            recount_diagnosis(&mut f.diagnosis, &f.evidence);
        }
        self.list
    }

    /// Shows each sighting where it shows by itself, names its bug, and counts it;
    /// minimizes (in parallel) the ones their bug still wants a witness from, keeps
    /// them by [`Finding::offer`]'s rule and saves them. Sightings are taken in
    /// `order`; the result does not depend on the thread count.
    pub fn record(&mut self, sightings: Vec<Sighting>, gens: &[&dyn Generator]) {
        self.record_shown(show(sightings, gens), gens);
    }

    /// [`Findings::record`] for sightings [`show`] has shown already.
    pub fn record_shown(&mut self, shown: Vec<Shown>, gens: &[&dyn Generator]) {
        // Which sightings their bug will want a witness from, planned in order, so the
        // likely ones are minimized side by side beforehand.
        let mut likely = vec![false; shown.len()];
        for i in 0..shown.len() {
            let sig = &shown[i].signature;
            let have = self
                .list
                .iter()
                .find(|f| f.signature == *sig)
                .map_or(0, |f| f.witnesses.len());
            let planned = (0..i)
                .filter(|&j| likely[j] && shown[j].signature == *sig)
                .count();
            likely[i] = have + planned < WITNESSES;
        }
        let keep = self.settings.keep_as_is;
        let small = |s: &Shown| -> (Position, Disagreement) {
            if keep {
                (s.position.clone(), s.disagreement.clone())
            } else {
                minimize(&s.position, &s.disagreement, gens)
            }
        };
        let ahead: Vec<Option<(Position, Disagreement)>> = shown
            .par_iter()
            .zip(&likely)
            .map(|(s, &want)| want.then(|| small(s)))
            .collect();
        for (s, ahead) in shown.into_iter().zip(ahead) {
            let index = self
                .list
                .iter()
                .position(|f| f.symptoms.contains(&s.signature));
            let wants = index.is_none_or(|i| self.list[i].wants_witness());
            let Some((minimized, disagreement)) = ahead.or_else(|| wants.then(|| small(&s))) else {
                if let Some(i) = index {
                    self.list[i].hits += 1;
                }
                continue;
            };
            let sighting = s.sighting;
            let odd = odd_generator(&s.signature, gens);
            let shown_at = s.position;
            let index = match index {
                Some(i) => {
                    let f = &mut self.list[i];
                    if f.diagnosis.is_some() && !f.witnesses.contains(&minimized) {
                        f.evidence
                            .extend(odd.and_then(|g| in_process_witness(g, &minimized)));
                    }
                    i
                }
                None => {
                    // A move class not seen before: named by its cause, which may be
                    // one a finding already has.
                    let causes =
                        named_causes(self.list.iter().filter_map(|f| f.diagnosis.as_ref()));
                    let named = match odd {
                        // The minimized witness, or where it was shown: a check detector
                        // that is wrong only about whether the king is in check may show
                        // in the lists only with other pieces about.
                        Some(g) => diagnosed(
                            &s.signature,
                            in_process_witness(g, &minimized)
                                .or_else(|| in_process_witness(g, &shown_at))
                                .into_iter()
                                .collect(),
                            &causes,
                            in_process_asker(g),
                        ),
                        None => Diagnosed::not(&s.signature),
                    };
                    self.named(s.signature, named, &sighting, &minimized, &disagreement)
                }
            };
            let finding = &mut self.list[index];
            finding.hits += 1;
            if sighting.order < finding.first {
                finding.first = sighting.order;
                finding.found_after = sighting.after;
            }
            let (kept, smaller) = finding.offer(&sighting, &minimized, &disagreement);
            if kept {
                self.save(index, &sighting, &disagreement, smaller);
            }
        }
        self.join_shared_causes();
    }

    /// Names the findings left unexplained by two bugs at once where they can be now
    /// ([`paired_later`]: a cause found after them, beside another), and joins them to
    /// the findings of the variant they are named by.
    fn pair_unexplained(&mut self) {
        let causes = named_causes(self.list.iter().filter_map(|f| f.diagnosis.as_ref()));
        let known = &self.settings.known;
        for f in &mut self.list {
            // Named after the run, with no generator at hand to ask: only causes
            // already named are paired.
            let paired = paired_later(
                f.diagnosis.as_ref(),
                &f.evidence,
                &causes,
                NO_QUESTIONS,
                |_| None,
            );
            if let Some(d) = paired {
                if let Some(v) = d.first() {
                    f.signature = Signature::cause(&f.signature.side, v);
                }
                f.diagnosis = Some(d);
                f.known = f.known || known.names(&f.signature, &f.symptoms);
            }
        }
        self.join_shared_causes();
    }

    /// Joins the findings one variant explains alike: a finding first named by one of
    /// several variants it could not tell apart, and a later move class named by
    /// another of them, are one bug.
    fn join_shared_causes(&mut self) {
        let known = &self.settings.known;
        join_shared_causes(
            &mut self.list,
            |f| (f.signature.side.as_str(), f.diagnosis.as_ref()),
            |kept, later, shared| kept.absorb(later, shared, known),
        );
    }

    /// The finding a sighting of the new move class `symptom` belongs to, once `named`:
    /// the one with the same signature (its cause), or a new one.
    fn named(
        &mut self,
        symptom: Signature,
        named: Diagnosed,
        sighting: &Sighting,
        minimized: &Position,
        disagreement: &Disagreement,
    ) -> usize {
        let known = &self.settings.known;
        if let Some(i) = self
            .list
            .iter()
            .position(|f| f.signature == named.signature)
        {
            let f = &mut self.list[i];
            f.known |= known.contains(&symptom);
            f.symptoms.push(symptom);
            f.evidence.extend(named.evidence);
            return i;
        }
        self.list.push(Finding {
            known: known.names(&named.signature, [&symptom]),
            signature: named.signature,
            symptoms: vec![symptom],
            diagnosis: named.diagnosis,
            evidence: named.evidence,
            hits: 0,
            first: sighting.order,
            found_after: sighting.after,
            origin: sighting.clone(),
            minimized: minimized.clone(),
            disagreement: disagreement.clone(),
            witnesses: Vec::new(),
            file: None,
            saved: Vec::new(),
        });
        self.list.len() - 1
    }

    /// Saves a witness of finding `index`, when saving.
    fn save(&mut self, index: usize, from: &Sighting, d: &Disagreement, smaller: bool) {
        let Some(saving) = &mut self.saving else {
            return;
        };
        let written = saving
            .write(&Finding::case(from, d))
            .map_err(|e| format!("{}: {e}", saving.dir().display()));
        let finding = &mut self.list[index];
        match written {
            Ok((path, _)) => {
                if smaller || finding.file.is_none() {
                    finding.file = Some(path.clone());
                }
                if !finding.saved.contains(&path) {
                    finding.saved.push(path);
                }
            }
            Err(e) => self.write_errors.push(e),
        }
    }
}
