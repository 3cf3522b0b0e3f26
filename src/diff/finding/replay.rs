//! A corpus replay's failures as findings: each failing case handed to the book as a
//! sighting kept as it is, so a replay groups, names and holds bugs to the known list
//! as every other phase does.

use super::book::{Findings, Settings};
use super::bug::Finding;
use super::known::Known;
use super::provenance::Provenance;
use super::sighting::{show, Sighting};
use crate::diff::corpus::Replay;
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use std::time::Duration;

/// A corpus replay's failures as findings, and which of them are known bugs.
#[derive(Clone, Debug, Default)]
pub struct Replayed {
    /// One per bug the failing cases show, kept as they are (a corpus case is a witness
    /// already) and never saved again; each names its case file.
    pub findings: Vec<Finding>,
    /// For each failing case, in the replay's order: whether its bug is known.
    pub known_failures: Vec<bool>,
    /// For each unmet expectation, in the replay's order: whether it is a known bug's,
    /// that is, its case fails by a known bug whose odd one out is the generator that
    /// misses it.
    pub known_unmet: Vec<bool>,
}

/// What a corpus replay's failures are as findings: each failing case's first
/// disagreement shown, grouped by bug and held to the known list.
pub fn replayed(r: &Replay, known: &Known, gens: &[&dyn Generator]) -> Replayed {
    let sightings: Vec<Sighting> = r
        .failures
        .iter()
        .enumerate()
        .filter_map(|(i, (_, found))| {
            let first = found.first()?;
            let position = first.position.clone();
            Some(Sighting {
                order: i as u64,
                provenance: Provenance::position(&position, &first.line),
                position,
                disagreement: first.clone(),
                path: None,
                depth: None,
                after: Duration::ZERO,
            })
        })
        .collect();
    let shown = show(sightings, gens);
    let seen: Vec<(usize, Signature, Option<String>)> = shown
        .iter()
        .map(|s| {
            let odd = s.disagreement.odd_one_out.clone();
            (s.sighting.order as usize, s.signature.clone(), odd)
        })
        .collect();
    let mut findings = Findings::new(Settings {
        known: known.clone(),
        save: None,
        keep_as_is: true,
    });
    findings.record_shown(shown, gens);
    // Known once recorded: a list may name the bug by the cause its finding is given.
    let mut known_failures = vec![false; r.failures.len()];
    let mut odd_known: Vec<(&std::path::Path, Option<&str>)> = Vec::new();
    for (i, signature, odd) in &seen {
        known_failures[*i] = findings.is_known(signature);
        if known_failures[*i] {
            odd_known.push((&r.failures[*i].0, odd.as_deref()));
        }
    }
    let known_unmet = r
        .unmet
        .iter()
        .map(|u| {
            u.generator.is_some()
                && odd_known
                    .iter()
                    .any(|&(p, odd)| p == u.path && odd == u.generator.as_deref())
        })
        .collect();
    let mut list = findings.into_list();
    for f in &mut list {
        // The file is the case the smallest witness was replayed from.
        let lead = f.among().map(|a| a.origin.order as usize);
        f.file = lead.and_then(|i| r.failures.get(i)).map(|(p, _)| p.clone());
    }
    Replayed {
        findings: list,
        known_failures,
        known_unmet,
    }
}
