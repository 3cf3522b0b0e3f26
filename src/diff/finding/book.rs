//! The finding book: sightings grouped by bug, each bug with its smallest witness and a
//! few others kept by one rule, named by its cause and saved into the corpus. One book
//! for every phase, so a bug met twice is counted once and kept alike.

use super::across::{join_findings, name_across};
use super::bug::{Among, Finding};
use super::known::Known;
use super::naming::{
    diagnosed, in_process_asker, in_process_witness, named_causes, odd_generator, Diagnosed,
    NO_QUESTIONS,
};
use super::sighting::{show, Shown, Sighting};
use crate::diff::corpus::{self, WITNESSES};
use crate::diff::minimize::minimize;
use crate::diff::oracle::Disagreement;
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::position::Position;
use rayon::prelude::*;
use std::path::PathBuf;

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
    pub(crate) fn is_known(&self, signature: &Signature) -> bool {
        self.settings.known.contains(signature)
            || self
                .list
                .iter()
                .any(|f| f.known && f.symptoms.contains(signature))
    }

    /// Where in [`Findings::list`] the finding a sighting of the move class `symptom`
    /// went to is: the one named by its cause, when that joined several.
    pub(crate) fn index_of(&self, symptom: &Signature) -> Option<usize> {
        self.list.iter().position(|f| f.symptoms.contains(symptom))
    }

    /// The findings so far, in the order of their first sightings.
    pub fn list(&self) -> &[Finding] {
        &self.list
    }

    /// How many findings are not known bugs.
    pub(crate) fn new_count(&self) -> usize {
        self.list.iter().filter(|f| !f.known).count()
    }

    /// The findings, in the order of their first sightings, each cause counted over
    /// all its evidence.
    pub(crate) fn into_list(mut self) -> Vec<Finding> {
        // Named after the run, with no generator at hand to ask: only causes already
        // named are paired.
        name_across(&mut self.list, &self.settings.known, NO_QUESTIONS, |_| None);
        self.list.sort_by_key(|f| f.first);
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
    pub(crate) fn record_shown(&mut self, shown: Vec<Shown>, gens: &[&dyn Generator]) {
        let likely = self.likely_witnesses(&shown);
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
            let (kept, smaller) = finding.offer(Among::blame(&sighting, &minimized, &disagreement));
            if kept {
                self.save(index, &sighting, &disagreement, smaller);
            }
        }
        self.join_shared_causes();
    }

    /// Which of `shown` their bug will want a witness from, planned in order, so the
    /// likely ones are minimized side by side beforehand.
    fn likely_witnesses(&self, shown: &[Shown]) -> Vec<bool> {
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
        likely
    }

    /// Joins the findings one variant explains alike: a finding first named by one of
    /// several variants it could not tell apart, and a later move class named by
    /// another of them, are one bug.
    fn join_shared_causes(&mut self) {
        join_findings(&mut self.list, &self.settings.known);
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
            blame: Among::blame(sighting, minimized, disagreement),
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
