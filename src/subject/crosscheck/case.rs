//! A finding about a subject as a corpus case. The case records what a correct move
//! generator says there (legal moves, their number, the divide at the depth that shows
//! the difference) as well as what the subject said, so the file is a regression test
//! for the subject and, replayed with `xqdiff replay DIR`, a check of the built-ins too.

use super::SubjectFinding;
use crate::diff::corpus::Case;
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

/// The case for `finding` about the subject called `subject` (its name, with its
/// version where it gives one).
pub(crate) fn subject_case(
    finding: &SubjectFinding,
    subject: &str,
    engines: &[&dyn Generator],
) -> Case {
    let note = |k: &str, v: String| (k.to_owned(), v);
    let mut notes = vec![
        note("check", "engine-perft".into()),
        note("engine", subject.to_owned()),
        note("odd-one-out", subject.to_owned()),
        note("generators", consensus_names(engines)),
        note("signature", finding.signature.to_string()),
    ];
    let position = match &finding.reproduction {
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
            notes.push(note("depth", finding.depth.to_string()));
            finding.root.clone()
        }
    };
    notes.push(note("root", finding.root.fen()));
    notes.push(note("root-label", finding.label.clone()));
    notes.push(note("root-depth", finding.depth.to_string()));
    notes.push(note(
        "path",
        if finding.path.is_empty() {
            "(root)".into()
        } else {
            moves(finding.path.iter().copied())
        },
    ));
    notes.push(note("found-by", finding.found_by.to_string()));
    notes.retain(|(_, v)| !v.is_empty());
    Case { position, notes }
}

fn consensus_names(engines: &[&dyn Generator]) -> String {
    engines
        .iter()
        .map(|g| g.name())
        .collect::<Vec<_>>()
        .join(", ")
}
