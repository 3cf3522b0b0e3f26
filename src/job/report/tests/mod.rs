//! The report built from real disagreements (planted bugs against two real
//! generators), rendered, and read back: the HTML through a real HTML parser, the JSON
//! through `Report::from_json`. What the `xqdiff report` command adds is held by
//! `tests/report.rs`.

mod board;
mod json;
mod page;
mod summary;

use super::*;
use crate::diff::campaign::{self, Config};
use crate::diff::minimize::minimize_first;
use crate::diff::oracle::check_position;
use crate::generators::face::Generator;
use crate::generators::planted::{Bug, Planted};
use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
use crate::position::Position;
use crate::subject::external::{EngineConfig, FenLetters, Protocol, Ranks};
use scraper::{ElementRef, Selector};
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use std::time::Instant;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

/// Red cannon e2, screen e5, black rook e7: a capture only a working cannon makes.
const CANNON: &str = "3k5/9/4r4/9/4p4/9/9/4C4/9/5K3 w";

/// The same capture among pieces that have nothing to do with it, for the minimizer.
const CANNON_BUSY: &str = "3k5/4a4/4r4/2n6/4p4/6B2/9/4C4/4A4/5K3 w";

/// Two real generators and one with `bug` planted: the planted one is the odd one out.
fn planted(bug: Bug) -> Vec<&'static dyn Generator> {
    static CANNON_BUG: Planted = Planted::new(Bug::CannonCannotCapture);
    static HORSE_BUG: Planted = Planted::new(Bug::HorseLegIgnored);
    let odd: &'static dyn Generator = match bug {
        Bug::HorseLegIgnored => &HORSE_BUG,
        _ => &CANNON_BUG,
    };
    vec![&MailboxGen, &BitboardGen, odd]
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e:?}"))
}

fn classes(e: &ElementRef) -> Vec<String> {
    e.value().classes().map(str::to_owned).collect()
}

fn attr<'a>(e: &ElementRef<'a>, name: &str) -> &'a str {
    e.value()
        .attr(name)
        .unwrap_or_else(|| panic!("{} has no {name}", e.value().name()))
}

/// Perft of `fen` to `depth` by each engine, timed: a real row.
fn perft_row(label: &str, fen: &str, depth: u32, engines: &[&dyn Generator]) -> PerftRow {
    let pos = Position::from_fen(fen).unwrap();
    PerftRow {
        position: label.to_owned(),
        fen: pos.fen(),
        depth,
        expected: None,
        results: engines
            .iter()
            .map(|g| {
                let t = Instant::now();
                let n = g.perft(&pos, depth);
                PerftResult::measured(g.name(), n, t.elapsed())
            })
            .collect(),
        known: false,
    }
}

/// A report of a run with `engines` over `positions`: a perft phase, a short fuzz
/// campaign, and every disagreement the oracle finds on each position (minimized when
/// asked), the way `xqdiff check` fills one.
fn run_report(engines: &[&dyn Generator], positions: &[(&str, bool)]) -> Report {
    let mut report = Report::new();
    report.seed = Some(7);
    report.command = Some("xqdiff check --seed 7".to_owned());
    report.generators = GeneratorInfo::list(engines);

    let t = Instant::now();
    let rows = positions
        .iter()
        .map(|&(fen, _)| perft_row(fen, fen, 2, engines))
        .collect();
    report.phases.push(Phase::finished(
        "perft",
        t.elapsed(),
        PhaseDetails::Perft(PerftPhase { rows }),
    ));

    let config = Config {
        seed: 7,
        cases: Some(24),
        duration: None,
        ..Config::default()
    };
    let fuzz = campaign::run(&config, engines, &AtomicBool::new(false), &|_, _| {});
    report.add_fuzz("fuzz", &fuzz);

    for &(fen, minimize) in positions {
        let pos = Position::from_fen(fen).unwrap();
        if minimize {
            if let Some((small, d)) = minimize_first(&pos, engines) {
                assert_eq!(small, d.position);
                report
                    .disagreements
                    .push(Dispute::from_oracle("oracle", &d).with_original(&pos.fen()));
            }
        } else {
            report.disagreements.extend(
                check_position(&pos, engines)
                    .iter()
                    .map(|d| Dispute::from_oracle("oracle", d)),
            );
        }
    }
    report
}

/// A report with every kind of phase, as a writer would fill it: made once (a
/// campaign, a minimization and a corpus replay), a copy for each test to change.
fn full_report() -> Report {
    static REPORT: OnceLock<Report> = OnceLock::new();
    REPORT.get_or_init(make_full_report).clone()
}

fn make_full_report() -> Report {
    let engines = planted(Bug::CannonCannotCapture);
    let mut report = run_report(&engines, &[(CANNON, true)]);
    // The corpus's cannon cases fail with the planted bug: real replay failures.
    let t = Instant::now();
    let replay = crate::diff::corpus::replay(std::path::Path::new("corpus"), &engines)
        .expect("the repository's corpus");
    assert!(!replay.failures.is_empty());
    let found = crate::diff::finding::replayed(&replay, &Default::default(), &engines);
    report.add_replay(
        "corpus",
        &crate::diff::corpus::Source::Dir("corpus".into()),
        &replay,
        t.elapsed(),
        &found,
    );
    report.phases.push(Phase::finished(
        "metamorphic",
        Duration::from_millis(40),
        PhaseDetails::Metamorphic(MetamorphicPhase {
            positions: 12,
            transforms: vec!["mirror".into(), "color-swap".into()],
            failures: 0,
            known: 0,
        }),
    ));
    report.phases.push(Phase::finished(
        "engine",
        Duration::from_millis(1500),
        PhaseDetails::Engine(EnginePhase {
            engine: "test-engine 1.0".into(),
            depth: 2,
            positions: 1,
            nodes: 1920,
            findings: 0,
            confirmed: 1,
            subject_seconds: 0.01,
            builtins_seconds: 0.02,
            positions_per_second: 66.7,
            rows: vec![EngineRow {
                position: "start".into(),
                fen: START.into(),
                depth: 2,
                consensus: 1920,
                subject: Some(1920),
                seconds: 0.25,
                error: None,
                known: false,
            }],
            fresh: None,
        }),
    ));
    report
        .phases
        .push(Phase::skipped("external", "no --engine given"));
    report.engines.push(EngineInfo::from_config(
        &EngineConfig {
            command: "test-engine --uci".into(),
            protocol: Protocol::Uci,
            options: vec![("Threads".into(), "1".into())],
            ranks: Ranks::Auto,
            fen_letters: FenLetters::Auto,
            timeout: Duration::from_secs(5),
            start_timeout: None,
        },
        "test-engine 1.0",
    ));
    report
}
