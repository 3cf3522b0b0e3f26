//! The report as GitHub-flavoured Markdown, short enough for a CI job summary
//! (`$GITHUB_STEP_SUMMARY`): the status line, the phase table, and each disagreement
//! with its FEN and moves. The pictures and the full tables are in the HTML page.

use super::duration;
use super::html::{headline, verdict};
use super::{Report, Status};
use std::fmt::Write as _;

/// The summary.
pub(crate) fn render(report: &Report) -> String {
    // Names and messages in it came from outside: no control character gets through.
    super::shown(&document(report)).into_owned()
}

fn document(report: &Report) -> String {
    let status = report.status();
    let mark = match status {
        Status::Passed => "✅",
        Status::Failed => "❌",
        Status::Error | Status::Skipped => "⚠️",
        Status::Interrupted => "⏹️",
    };
    let mut out = format!(
        "## {mark} xqdiff: {}\n\n{}\n\n",
        verdict(status),
        text(&headline(report))
    );
    let mut facts = vec![format!("{} {}", report.tool.name, report.tool.version)];
    if let Some(seed) = report.seed {
        facts.push(format!("seed {seed}"));
    }
    if !report.generators.is_empty() {
        let names: Vec<&str> = report.generators.iter().map(|g| g.name.as_str()).collect();
        facts.push(format!("generators: {}", names.join(", ")));
    }
    for e in &report.engines {
        facts.push(format!("engine: {} ({})", e.name, e.protocol));
    }
    let _ = writeln!(out, "{}\n", text(&facts.join(" · ")));
    if let Some(command) = &report.command {
        let _ = writeln!(out, "Command: {}\n", code(command));
    }

    if !report.phases.is_empty() {
        out.push_str("| phase | status | time | what it counted |\n|---|---|---:|---|\n");
        for p in &report.phases {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                text(&p.name),
                p.status.as_str(),
                duration(p.seconds),
                text(&p.summary())
            );
        }
        out.push('\n');
    }

    if !report.disagreements.is_empty() {
        let _ = writeln!(out, "### Disagreements ({})\n", report.disagreements.len());
    }
    for (i, d) in report.disagreements.iter().enumerate() {
        dispute(&mut out, i + 1, d);
    }
    out
}

/// Disagreement number `n` as a list item: its cause first, then where it shows, the
/// moves in dispute, and how to see it again.
fn dispute(out: &mut String, n: usize, d: &super::Dispute) {
    let odd = d.odd_one_out.as_deref().map_or_else(
        || "no single odd one out".to_owned(),
        |o| format!("odd one out: {}", text(o)),
    );
    let sig = d
        .signature
        .as_deref()
        .map_or_else(String::new, |s| format!(" {}", code(s)));
    let hits = d
        .hits
        .map_or_else(String::new, |h| format!(", {}", super::counted(h, "hit")));
    let known = if d.known { ", known" } else { "" };
    // The cause leads: what the reader wants is the rule, then the evidence.
    let cause = d
        .diagnosis
        .as_ref()
        .map_or_else(String::new, |c| format!("cause: {}; ", text(&c.line())));
    let _ = writeln!(
        out,
        "{}. {cause}**{}**{sig} ({odd}; phase {}{hits}{known})",
        n,
        text(&d.check),
        text(&d.phase)
    );
    let _ = writeln!(out, "   - FEN: {}", code(&d.fen));
    if let Some(orig) = &d.original_fen {
        let _ = writeln!(out, "   - found on: {}", code(orig));
    }
    if let Some(m) = &d.moves_fen {
        let _ = writeln!(out, "   - moves on: {}", code(m));
    }
    if let Some(path) = &d.path {
        // An empty path is no code: a pair of backticks would read as a typo.
        let moves = if path.moves.is_empty() {
            super::NO_MOVES.to_owned()
        } else {
            code(&path.moves.join(" "))
        };
        let _ = writeln!(out, "   - path from {}: {moves}", code(&path.root_fen));
    }
    if !d.line.is_empty() {
        let _ = writeln!(out, "   - walked on one board: {}", code(&d.line.join(" ")));
    }
    for m in &d.moves {
        let everyone = d.generators.iter().all(|g| m.has.contains(g));
        let said = if m.listed_twice() {
            m.listed_text()
        } else if everyone && !m.counts.is_empty() {
            let counts: Vec<String> = m.counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!("counted differently: {}", counts.join(", "))
        } else {
            format!("only in {}", m.has.join(", "))
        };
        let _ = writeln!(out, "   - {} {}", code(&m.mv), text(&said));
    }
    if let Some(f) = &d.corpus_file {
        let _ = writeln!(out, "   - saved: {}", code(f));
    }
    let _ = writeln!(out, "   - detail: {}", text(&d.detail));
    if let Some(r) = &d.reproduce {
        let lines = r.body();
        let _ = writeln!(
            out,
            "   - {}\n",
            crate::diff::finding::provenance::REPRODUCE_WITH
        );
        let fence = "`".repeat(3.max(longest_backticks(&lines) + 1));
        let _ = writeln!(out, "     {fence}text");
        for line in &lines {
            let _ = writeln!(out, "     {line}");
        }
        let _ = writeln!(out, "     {fence}");
    }
}

/// The longest run of backticks in `lines`, which a fence around them must outnumber.
fn longest_backticks(lines: &[String]) -> usize {
    lines
        .iter()
        .flat_map(|l| l.split(|c| c != '`'))
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// `s` as Markdown text: characters that would start markup are escaped, and line
/// breaks become spaces so an item stays one item.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// `s` as a code span, fenced by more backticks than any run inside it.
fn code(s: &str) -> String {
    let one_line = s.replace(['\n', '\r'], " ");
    let longest = one_line
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    // A space keeps a leading or trailing backtick from joining the fence.
    let pad = if one_line.starts_with('`') || one_line.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{one_line}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_code_cannot_break_out() {
        let table: &[(&str, &str, &str)] = &[
            ("plain h2e2", "plain h2e2", "`plain h2e2`"),
            ("a|b", "a\\|b", "`a|b`"),
            ("*x* <b>", "\\*x\\* \\<b\\>", "`*x* <b>`"),
            ("two\nlines", "two lines", "`two lines`"),
            ("a `tick`", "a \\`tick\\`", "`` a `tick` ``"),
        ];
        for &(input, as_text, as_code) in table {
            assert_eq!(text(input), as_text, "{input:?}");
            assert_eq!(code(input), as_code, "{input:?}");
        }
    }
}
