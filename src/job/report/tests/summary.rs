//! The Markdown summary: status, phases, every disputed move, and no empty code span.

use super::*;

#[test]
fn markdown_lists_status_phases_and_every_disputed_move() {
    let report = full_report();
    let md = markdown::render(&report);
    assert!(md.starts_with("## ❌ xqdiff: FAILED"), "{md}");
    assert!(md.contains("| phase | status | time | what it counted |"));
    for p in &report.phases {
        assert!(
            md.lines()
                .any(|l| l.starts_with(&format!("| {} | {} |", p.name, p.status.as_str()))),
            "{}: {md}",
            p.name
        );
    }
    for d in &report.disagreements {
        assert!(md.contains(&format!("`{}`", d.fen)), "{md}");
        for m in &d.moves {
            assert!(md.contains(&format!("`{}` only in", m.mv)), "{md}");
        }
    }
}

/// A dispute at its root has an empty path: the Markdown says so in words rather than
/// printing an empty code span (two backticks).
#[test]
fn an_empty_path_reads_as_the_root_in_markdown() {
    let mut report = full_report();
    let d = report.disagreements[0].clone().with_path(START, &[]);
    report.disagreements = vec![d];
    let md = markdown::render(&report);
    let line = md
        .lines()
        .find(|l| l.contains("path from"))
        .unwrap_or_else(|| panic!("no path line: {md}"));
    assert!(line.ends_with(": (the root itself)"), "{line}");
    // Fences of the "Reproduce with:" code block aside, no two backticks meet.
    let spans = md.lines().filter(|l| !l.trim_start().starts_with("```"));
    assert!(spans.clone().all(|l| !l.contains("``")), "{md}");
}
