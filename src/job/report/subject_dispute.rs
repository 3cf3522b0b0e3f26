//! The dispute of a finding that blames a subject: a difference between an engine or
//! library and the built-in generators, each disputed move saying who has it.

use super::{counted, Dispute, DisputedMove, PerftTotals};
use crate::diff::finding::trail::{Comparison, Trail};
use crate::diff::finding::Finding;
use std::collections::BTreeMap;

/// A difference between the subject `f` blames and the built-in generators it was
/// compared with (`trail`, how it was found): on the smallest position that shows it
/// when the check got that far, else where the descent stopped. The subject is the odd
/// one out; each disputed move says who has it and, where counted, each side's count
/// below it.
pub(super) fn from_trail(phase: &str, f: &Finding, trail: &Trail) -> Dispute {
    let (engine, builtins) = (trail.subject.as_str(), &trail.builtins[..]);
    // The reproduction is on a position down the path; the path recorded is the part
    // that reaches it, so root + path + original FEN agree with each other.
    let (fen, original, path, cmp) = match &trail.reproduction {
        Some(r) => (
            r.minimized.fen(),
            r.from.fen(),
            &trail.path[..r.ply.min(trail.path.len())],
            r.comparison.as_ref(),
        ),
        None => (
            trail.position.fen(),
            trail.position.fen(),
            &trail.path[..],
            Some(&trail.comparison),
        ),
    };
    let mut generators = builtins.to_vec();
    generators.push(engine.to_owned());
    let detail = match cmp {
        Some(c) => detail(c, engine),
        None => format!(
            "{engine} failed before it could answer on the smallest position; \
             at the root, depth {}, it counts {} where the built-in generators count {}",
            trail.depth, trail.comparison.subject_total, trail.comparison.consensus_total
        ),
    };
    let mut d = Dispute {
        generators,
        odd_one_out: Some(engine.to_owned()),
        moves: cmp.map(|c| moves(c, engine, builtins)).unwrap_or_default(),
        perft: cmp.map(|c| totals(c, engine, builtins)),
        ..Dispute::new(phase, "perft", fen, detail)
    }
    .with_path(&trail.root.fen(), path)
    .with_provenance(&trail.found_by)
    .with_bug(&f.signature, f.hits, f.known, f.diagnosis.as_ref())
    .with_original(&original);
    if let Some(file) = &f.file {
        d = d.with_corpus_file(file);
    }
    d
}

fn moves(c: &Comparison, engine: &str, builtins: &[String]) -> Vec<DisputedMove> {
    let ours =
        |n: u64| -> BTreeMap<String, u64> { builtins.iter().map(|b| (b.clone(), n)).collect() };
    let mut out: Vec<DisputedMove> = Vec::new();
    for &(mv, n) in &c.only_subject {
        out.push(DisputedMove {
            mv: mv.to_string(),
            has: vec![engine.to_owned()],
            counts: BTreeMap::from([(engine.to_owned(), n)]),
            listed: BTreeMap::new(),
        });
    }
    for &(mv, n) in &c.only_consensus {
        out.push(DisputedMove {
            mv: mv.to_string(),
            has: builtins.to_vec(),
            counts: ours(n),
            listed: BTreeMap::new(),
        });
    }
    for m in &c.counts_differ {
        let mut counts = ours(m.consensus);
        counts.insert(engine.to_owned(), m.subject);
        let mut has = builtins.to_vec();
        has.push(engine.to_owned());
        out.push(DisputedMove {
            mv: m.mv.to_string(),
            has,
            counts,
            listed: BTreeMap::new(),
        });
    }
    // A move listed more than once also differs in its (summed) count; it is one
    // entry that says who lists it how often.
    for &(mv, times) in &c.listed_more_than_once {
        let mv = mv.to_string();
        let mut listed: BTreeMap<String, u32> = builtins.iter().map(|b| (b.clone(), 1)).collect();
        listed.insert(engine.to_owned(), times);
        match out.iter_mut().find(|m| m.mv == mv) {
            Some(m) => m.listed = listed,
            None => {
                let mut has = builtins.to_vec();
                has.push(engine.to_owned());
                out.push(DisputedMove {
                    mv,
                    has,
                    counts: BTreeMap::new(),
                    listed,
                });
            }
        }
    }
    out.sort_by(|a, b| a.mv.cmp(&b.mv));
    out
}

fn totals(c: &Comparison, engine: &str, builtins: &[String]) -> PerftTotals {
    let mut counts: BTreeMap<String, u64> = builtins
        .iter()
        .map(|b| (b.clone(), c.consensus_total))
        .collect();
    counts.insert(engine.to_owned(), c.subject_total);
    PerftTotals {
        depth: c.depth,
        counts,
    }
}

fn detail(c: &Comparison, engine: &str) -> String {
    let moves = |n: usize| counted(n as u64, "move");
    let mut parts = Vec::new();
    if !c.only_subject.is_empty() {
        parts.push(format!("{} only it has", moves(c.only_subject.len())));
    }
    if !c.only_consensus.is_empty() {
        parts.push(format!("{} it lacks", moves(c.only_consensus.len())));
    }
    if !c.counts_differ.is_empty() {
        parts.push(format!(
            "{} with another count below",
            moves(c.counts_differ.len())
        ));
    }
    if c.unnamed() > 0 {
        parts.push(format!(
            "{} under moves it did not name",
            counted(c.unnamed(), "node")
        ));
    }
    let mut text = format!(
        "perft({}): {engine} counts {} where the built-in generators count {}",
        c.depth, c.subject_total, c.consensus_total
    );
    if !parts.is_empty() {
        text.push_str(": ");
        text.push_str(&parts.join(", "));
    }
    text
}
