//! The phase table a terminal shows at the end of a check.

use crate::job::report::duration;
use crate::job::report::html::{headline, verdict};
use crate::job::report::Report;
use std::fmt::Write as _;

/// The width the table keeps to: a terminal's usual 80 columns.
const WIDTH: usize = 80;

/// One line per phase (name, status, time, what it counted, and its message on the
/// line below), then the verdict with the number of disagreements. The last column
/// wraps at spaces to keep the table within 80 columns.
pub(crate) fn summary_table(report: &Report) -> String {
    let rows: Vec<[String; 4]> = report
        .phases
        .iter()
        .map(|p| {
            [
                p.name.clone(),
                p.status.as_str().to_owned(),
                duration(p.seconds),
                first_line(&p.summary()),
            ]
        })
        .collect();
    let header = [
        "phase".to_owned(),
        "status".to_owned(),
        "time".to_owned(),
        "what it counted".to_owned(),
    ];
    let width = |i: usize| {
        rows.iter()
            .chain(std::iter::once(&header))
            .map(|r| r[i].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = String::new();
    let indent = w0 + w1 + w2 + 6;
    let room = WIDTH.saturating_sub(indent).max(20);
    let rest = |out: &mut String, text: &str| {
        for part in wrapped(text, room) {
            let _ = writeln!(out, "{:indent$}{part}", "");
        }
    };
    let line = |out: &mut String, r: &[String; 4]| {
        let mut parts = wrapped(&r[3], room).into_iter();
        let first = parts.next().unwrap_or_default();
        let _ = writeln!(out, "{:<w0$}  {:<w1$}  {:>w2$}  {first}", r[0], r[1], r[2]);
        for part in parts {
            let _ = writeln!(out, "{:indent$}{part}", "");
        }
    };
    line(&mut out, &header);
    for (row, phase) in rows.iter().zip(&report.phases) {
        line(&mut out, row);
        // A phase without numbers has its message as its summary already. An engine's
        // last words can run to many lines; the report has them all.
        if let (Some(m), Some(_)) = (&phase.message, &phase.details) {
            rest(&mut out, &first_line(m));
        }
    }
    let _ = writeln!(out, "{}: {}", verdict(report.status()), headline(report));
    out
}

/// `text` in lines of at most `width` characters, broken at spaces (a word longer
/// than that has a line of its own).
fn wrapped(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let len = current.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    lines
}

/// The first line of `text`, with an ellipsis when there is more.
pub(crate) fn first_line(text: &str) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("").trim_end();
    if lines.any(|l| !l.trim().is_empty()) {
        format!("{first} …")
    } else {
        first.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::report::{MetamorphicPhase, Phase, PhaseDetails};
    use std::time::Duration;

    /// Each row: the phases, then text every line of the table must hold in order.
    #[test]
    fn lists_each_phase_with_its_status_and_message() {
        let finished = |name: &str, failures: u64| {
            Phase::finished(
                name,
                Duration::from_millis(1500),
                PhaseDetails::Metamorphic(MetamorphicPhase {
                    positions: 10,
                    transforms: vec!["mirror".into()],
                    failures,
                    known: 0,
                }),
            )
        };
        let mut noted = finished("metamorphic", 2);
        noted.message = Some("failures by check: legal 2\n  and more\n".into());
        let table: &[(Vec<Phase>, &[&str])] = &[
            (
                vec![finished("metamorphic", 0)],
                &[
                    "phase",
                    "metamorphic  passed  1.50 s  10 positions",
                    "PASSED",
                ],
            ),
            (
                vec![noted, Phase::skipped("engine", "no engine given")],
                &[
                    "phase",
                    "metamorphic  failed",
                    "failures by check: legal 2 …",
                    "engine       skipped",
                    "FAILED",
                ],
            ),
        ];
        for (phases, want) in table {
            let mut report = Report::new();
            report.phases = phases.clone();
            let text = summary_table(&report);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), want.len(), "{text}");
            for (line, w) in lines.iter().zip(*want) {
                assert!(line.contains(w), "{line:?} lacks {w:?}\n{text}");
            }
        }
    }

    /// A phase whose summary is longer than the line has room for (a replay of a
    /// corpus with a long path) wraps under its column, every line within 80 columns
    /// and every word kept.
    #[test]
    fn a_long_summary_wraps_within_eighty_columns() {
        let mut phase = Phase::skipped(
            "metamorphic",
            "19 cases from /home/someone/work/xqdiff/corpus, 0 failing, 0 unmet \
             expectations, 0 damaged files",
        );
        phase.seconds = 1.5;
        let mut report = Report::new();
        report.phases = vec![phase.clone()];
        let text = summary_table(&report);
        for line in text.lines() {
            assert!(line.chars().count() <= WIDTH, "{line:?}\n{text}");
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        for word in phase.message.as_deref().unwrap().split_whitespace() {
            assert!(words.contains(&word), "{word:?} lost\n{text}");
        }
    }
}
