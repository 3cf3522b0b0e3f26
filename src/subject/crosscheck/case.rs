//! A finding about a subject as a corpus case. The case records what a correct move
//! generator says there (legal moves, their number, the divide at the depth that shows
//! the difference) as well as what the subject said, so the file is a regression test
//! for the subject and, replayed with `xqdiff replay DIR`, a check of the built-ins too.

use crate::diff::corpus::Case;
use crate::diff::finding::trail::Trail;
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::moves::Move;

fn moves(list: impl IntoIterator<Item = Move>) -> String {
    list.into_iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn counts(list: &[(Move, u64)]) -> String {
    list.iter()
        .map(|(mv, n)| format!("{mv}={n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The case for the finding `signature` about the subject its `trail` names (with its
/// version where it gives one).
pub(crate) fn subject_case(
    trail: &Trail,
    signature: &Signature,
    engines: &[&dyn Generator],
) -> Case {
    let subject = trail.subject.as_str();
    let note = |k: &str, v: String| (k.to_owned(), v);
    let mut notes = vec![
        note("check", "engine-perft".into()),
        note("engine", subject.to_owned()),
        note("odd-one-out", subject.to_owned()),
        note("generators", trail.builtins.join(", ")),
        note("signature", signature.to_string()),
    ];
    let position = match &trail.reproduction {
        Some(r) => {
            notes.push(note("depth", r.depth.to_string()));
            if let Some(c) = &r.comparison {
                notes.push(note("engine-total", c.subject_total.to_string()));
                notes.push(note("expected-total", c.consensus_total.to_string()));
                // At the position itself: what a correct generator lists and lacks.
                notes.push(note(
                    "legal-includes",
                    moves(c.only_consensus.iter().map(|&(m, _)| m)),
                ));
                notes.push(note(
                    "legal-excludes",
                    moves(c.only_subject.iter().map(|&(m, _)| m)),
                ));
                if !c.counts_differ.is_empty() {
                    let lines: Vec<String> = c
                        .counts_differ
                        .iter()
                        .map(|d| format!("{} engine {} expected {}", d.mv, d.subject, d.consensus))
                        .collect();
                    notes.push(note("counts-differ", lines.join(", ")));
                }
                if c.unnamed() > 0 {
                    notes.push(note("unnamed-extra", c.unnamed().to_string()));
                }
            }
            notes.push(note("expected-divide", counts(&r.expected)));
            if let Some(first) = engines.first() {
                let legal = first.probe(&r.minimized).legal.len();
                notes.push(note("legal-count", legal.to_string()));
            }
            notes.push(note("unminimized", r.from.fen()));
            notes.push(note(
                "reproduces-from",
                format!("ply {} of the path", r.ply),
            ));
            r.minimized.clone()
        }
        None => {
            notes.push(note("depth", trail.depth.to_string()));
            trail.root.clone()
        }
    };
    notes.push(note("root", trail.root.fen()));
    notes.push(note("root-label", trail.label.clone()));
    notes.push(note("root-depth", trail.depth.to_string()));
    notes.push(note(
        "path",
        if trail.path.is_empty() {
            "(root)".into()
        } else {
            moves(trail.path.iter().copied())
        },
    ));
    notes.push(note("found-by", trail.found_by.to_string()));
    notes.retain(|(_, v)| !v.is_empty());
    Case { position, notes }
}
