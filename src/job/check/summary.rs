//! The phase table a terminal shows at the end of a check.

use crate::job::report::duration;
use crate::job::report::html::{headline, verdict};
use crate::job::report::Report;
use std::fmt::Write as _;

/// One line per phase (name, status, time, what it counted, and its message on the
/// line below), then the verdict with the number of disagreements.
pub fn summary_table(report: &Report) -> String {
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
    let line = |out: &mut String, r: &[String; 4]| {
        let _ = writeln!(out, "{:<w0$}  {:<w1$}  {:>w2$}  {}", r[0], r[1], r[2], r[3]);
    };
    line(&mut out, &header);
    for (row, phase) in rows.iter().zip(&report.phases) {
        line(&mut out, row);
        // A phase without numbers has its message as its summary already. An engine's
        // last words can run to many lines; the report has them all.
        if let (Some(m), Some(_)) = (&phase.message, &phase.details) {
            let _ = writeln!(out, "{:w$}  {}", "", first_line(m), w = w0 + w1 + w2 + 4);
        }
    }
    let _ = writeln!(out, "{}: {}", verdict(report.status()), headline(report));
    out
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
}
