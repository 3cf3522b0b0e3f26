//! Phase 4: the whole oracle, mirror and colour swap included, on the suite's and the
//! corpus's positions and on every position one legal move after each of them.
//!
//! One bug shows on many of these positions at once, so failures are grouped by what
//! they look like (the check, the odd one out, and which kinds of piece the disputed
//! moves belong to); each group is minimized once, from its first position, and
//! becomes one dispute that says how many positions showed it.

use super::{corpus_positions, perft::label, Config, Observer, Unit, METAMORPHIC};
use crate::diff::corpus::{write_case, Case};
use crate::diff::minimize::minimize;
use crate::diff::oracle::{check_position, consensus_children, follow, CheckKind, Disagreement};
use crate::job::report::{counted, Dispute, MetamorphicPhase, Phase, PhaseDetails, Report};
use crate::moves::Move;
use crate::piece::Role;
use crate::position::{Position, Setup};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// At most this many kinds of failure are minimized and reported one by one; a
/// generator broken badly enough to show more is reported by count beyond them.
const MAX_DISPUTES: usize = 16;

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

/// What a failure looks like, for grouping: the check, the generators and the odd one
/// out, and for each disputed move the kind of piece moving and who has the move.
type Shape = (
    CheckKind,
    Vec<String>,
    Option<String>,
    BTreeSet<(Option<Role>, Vec<String>)>,
);

fn shape(pos: &Position, d: &Disagreement) -> Shape {
    // Mirror and colour-swap moves are moves of the transformed board.
    let board: Setup = match d.check {
        CheckKind::Mirror => pos.setup().mirror_files(),
        CheckKind::ColorSwap => pos.setup().swap_colors(),
        _ => pos.setup().clone(),
    };
    let movers = d
        .only_in
        .iter()
        .map(|o| (board.piece_at(o.mv.from).map(|p| p.role), o.has.clone()))
        .collect();
    (d.check, d.generators.clone(), d.odd_one_out.clone(), movers)
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

pub(super) fn run(
    report: &mut Report,
    config: &Config<'_>,
    observer: &dyn Observer,
    stop: &AtomicBool,
) {
    let started = Instant::now();
    let items = positions(config);
    let total = items.len() as u64;
    let done = AtomicU64::new(0);
    let results: Vec<Option<Vec<Disagreement>>> = items
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
        .collect();

    let checked = results.iter().flatten().count() as u64;
    let mut by_check: BTreeMap<CheckKind, u64> = BTreeMap::new();
    // The first disagreement stands for the position, as in the fuzz campaign: one bug
    // often fails two checks (pseudo-legal and legal) on the same moves. One seen as a
    // count after a move is followed to where it shows, so one bug is one shape.
    let shown: Vec<Option<(Position, Disagreement)>> = results
        .par_iter()
        .enumerate()
        .map(|(i, found)| {
            let first = found.as_ref()?.first()?;
            let (pos, d, _) = follow(&items[i].position, first, &config.generators);
            Some((pos, d))
        })
        .collect();
    // Each shape's first position and disagreement, and how many positions had it.
    let mut groups: Vec<(Shape, usize, Position, Disagreement, usize)> = Vec::new();
    for (i, found) in results.iter().enumerate() {
        for d in found.iter().flatten() {
            *by_check.entry(d.check).or_default() += 1;
        }
        let Some((pos, first)) = &shown[i] else {
            continue;
        };
        let key = shape(pos, first);
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.4 += 1,
            None => groups.push((key, i, pos.clone(), first.clone(), 1)),
        }
    }
    let failures: u64 = by_check.values().sum();
    let extra_kinds = groups.len().saturating_sub(MAX_DISPUTES);
    groups.truncate(MAX_DISPUTES);

    let minimized: Vec<(Position, Disagreement)> = groups
        .par_iter()
        .map(|(_, _, pos, d, _)| minimize(pos, d, &config.generators))
        .collect();
    let mut notes = Vec::new();
    let mut found = Vec::new();
    let mut kept: Vec<(Position, Disagreement)> = Vec::new();
    for ((_, i, _, _, alike), (small, dis)) in groups.iter().zip(minimized) {
        // Two shapes can shrink to the same case.
        if kept.iter().any(|(p, d)| *p == small && d.same_kind(&dis)) {
            continue;
        }
        let item = &items[*i];
        let how = format!(
            "xqdiff check, metamorphic phase: {} ({} showed it)",
            item.describe(),
            counted(*alike as u64, "position")
        );
        let mut dispute = Dispute::from_oracle(METAMORPHIC, &dis)
            .with_original(&item.position.fen())
            .with_found_by(&how);
        if let Some((root, mv)) = &item.after {
            dispute = dispute.with_path(&root.fen(), &[*mv]);
        }
        if let Some(dir) = config.save_dir() {
            let saved = Case::from_disagreement(&dis, &item.position.fen(), &how)
                .map_err(|e| e.to_string())
                .and_then(|case| write_case(dir, &case).map_err(|e| e.to_string()));
            match saved {
                Ok((path, _)) => dispute = dispute.with_corpus_file(&path),
                Err(e) => notes.push(format!("not saved into {}: {e}", dir.display())),
            }
        }
        found.push(dispute);
        kept.push((small, dis));
    }

    if failures > 0 {
        let per_check: Vec<String> = by_check.iter().map(|(k, n)| format!("{k} {n}")).collect();
        notes.insert(0, format!("failures by check: {}", per_check.join(", ")));
    }
    if extra_kinds > 0 {
        notes.push(format!(
            "{extra_kinds} more kinds of failure not minimized (only the first {MAX_DISPUTES} are)"
        ));
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
