//! Phase 4: the whole oracle, mirror and colour swap included, on the suite's and the
//! corpus's positions and on every position one legal move after each of them.
//!
//! One bug shows on many of these positions at once: each position's first
//! disagreement is handed to the one findings path ([`crate::diff::finding`]), which
//! groups them by bug, minimizes a few witnesses of each, saves them and marks the
//! known ones; each bug becomes one dispute that says how many positions showed it.

use super::{corpus_positions, perft::label, Config, Running, Unit, METAMORPHIC};
use crate::diff::finding::book::{Findings, Settings};
use crate::diff::finding::provenance::Provenance;
use crate::diff::finding::sighting::{show, Sighting};
use crate::diff::oracle::{check_position, consensus_children, CheckKind, Disagreement};
use crate::diff::signature::Signature;
use crate::job::report::{counted, Dispute, MetamorphicPhase, Phase, PhaseDetails, Report};
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// One position checked.
struct Item {
    /// Where it comes from (`suite line 9`, a corpus file).
    label: String,
    /// The root it is one move after, with that move; `None` for a root itself.
    after: Option<(Position, Move)>,
    position: Position,
}

impl Item {
    fn describe(&self) -> String {
        match &self.after {
            Some((_, mv)) => format!("{}, after {mv}", self.label),
            None => self.label.clone(),
        }
    }
}

/// The roots and every position a legal move away from one (moves every generator
/// agrees on), each once.
fn positions(config: &Config<'_>) -> Vec<Item> {
    let roots: Vec<(String, Position)> = config
        .suite
        .iter()
        .map(|e| (label(e), e.position.clone()))
        .chain(corpus_positions(&config.corpus))
        .collect();
    let mut seen = HashSet::new();
    let mut items = Vec::new();
    for (label, root) in roots {
        // A root the generators disagree on is checked (and reported) itself.
        let next = consensus_children(&root, &config.generators).unwrap_or_default();
        if seen.insert(root.fen()) {
            items.push(Item {
                label: label.clone(),
                after: None,
                position: root.clone(),
            });
        }
        for (mv, position) in next {
            if seen.insert(position.fen()) {
                items.push(Item {
                    label: label.clone(),
                    after: Some((root.clone(), mv)),
                    position,
                });
            }
        }
    }
    items
}

/// Runs the phase: every position of [`positions`] through the whole oracle, each bug
/// seen handed to the findings path, and the phase with its disputes added to `report`.
pub(super) fn run(report: &mut Report, running: &Running<'_>) {
    let config = running.config;
    let started = Instant::now();
    let items = positions(config);
    let total = items.len() as u64;
    let results = check_all(&items, running);
    let checked = results.iter().flatten().count() as u64;
    let sightings = sightings(&items, &results, started);
    let shown = show(sightings, &config.generators);
    let mut findings = Findings::new(Settings {
        known: config.known.clone(),
        save: config.save_dir().map(|d| d.to_path_buf()),
        keep_as_is: false,
    });
    // Taken before recording consumes them: the failures are counted by these bugs,
    // and only once recorded is it known which of them are known.
    let seen: Vec<(usize, Signature)> = shown
        .iter()
        .map(|s| (s.sighting.order as usize, s.signature.clone()))
        .collect();
    findings.record_shown(shown, &config.generators);
    let (by_check, failures, known) = count_failures(&seen, &results, &findings);
    let mut notes: Vec<String> = findings
        .write_errors
        .iter()
        .map(|e| format!("not saved: {e}"))
        .collect();
    let found: Vec<Dispute> = findings
        .into_list()
        .iter()
        .map(|f| Dispute::from_finding(METAMORPHIC, f))
        .collect();

    if failures + known > 0 {
        let per_check: Vec<String> = by_check.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let known = if known > 0 {
            format!(" ({known} of them known bugs')")
        } else {
            String::new()
        };
        notes.insert(
            0,
            format!("failures by check: {}{known}", per_check.join(", ")),
        );
    }
    if checked < total {
        notes.push(format!(
            "stopped early: {checked} of {} checked",
            counted(total, "position")
        ));
    }
    let details = MetamorphicPhase {
        positions: checked,
        transforms: vec![
            CheckKind::Mirror.as_str().to_owned(),
            CheckKind::ColorSwap.as_str().to_owned(),
        ],
        failures,
        known,
    };
    let mut phase = Phase::finished(
        METAMORPHIC,
        started.elapsed(),
        PhaseDetails::Metamorphic(details),
    );
    if !notes.is_empty() {
        phase.message = Some(notes.join("; "));
    }
    report.phases.push(phase);
    report.disagreements.extend(found);
}

/// Checks every item on the pool, saying each as it is done; an item left when `stop`
/// is raised is `None`, so the phase can say how far it got.
fn check_all(items: &[Item], running: &Running<'_>) -> Vec<Option<Vec<Disagreement>>> {
    let (config, observer, stop) = (running.config, running.observer, running.stop);
    let total = items.len() as u64;
    let done = AtomicU64::new(0);
    items
        .par_iter()
        .map(|item| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let found = check_position(&item.position, &config.generators);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            observer.progress(n, total, Unit::Positions, &item.describe());
            Some(found)
        })
        .collect()
}

/// What the findings path is handed: each failing position once, by its first
/// disagreement, as in the fuzz campaign (one bug often fails two checks, pseudo-legal
/// and legal, on the same moves), with the root and move it was reached by.
fn sightings(
    items: &[Item],
    results: &[Option<Vec<Disagreement>>],
    started: Instant,
) -> Vec<Sighting> {
    results
        .iter()
        .enumerate()
        .filter_map(|(i, found)| {
            let first = found.as_ref()?.first()?;
            let item = &items[i];
            Some(Sighting {
                order: i as u64,
                position: item.position.clone(),
                disagreement: first.clone(),
                provenance: Provenance::position(&item.position, &first.line),
                path: item
                    .after
                    .as_ref()
                    .map(|(root, mv)| (root.clone(), vec![*mv])),
                depth: None,
                after: started.elapsed(),
            })
        })
        .collect()
}

/// Every failing check of the positions `seen` (by order, with the bug each one's
/// first disagreement is), counted by check and as a known bug's or a new one's:
/// known once `findings` recorded them, since a list may name the bug by the cause its
/// finding is given. Returns the counts by check, the new failures and the known ones.
fn count_failures(
    seen: &[(usize, Signature)],
    results: &[Option<Vec<Disagreement>>],
    findings: &Findings,
) -> (BTreeMap<CheckKind, u64>, u64, u64) {
    let mut by_check: BTreeMap<CheckKind, u64> = BTreeMap::new();
    let (mut failures, mut known) = (0, 0);
    for (order, signature) in seen {
        let all = results[*order].as_deref().unwrap_or(&[]);
        for d in all {
            *by_check.entry(d.check).or_default() += 1;
        }
        if findings.is_known(signature) {
            known += all.len() as u64;
        } else {
            failures += all.len() as u64;
        }
    }
    (by_check, failures, known)
}
