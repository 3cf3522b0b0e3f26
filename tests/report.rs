//! The correctness report: built from real disagreements (a planted cannon bug against
//! two real generators), rendered, and read back: the HTML through a real HTML parser,
//! the JSON through `Report::from_json`, the CLI through the binary.

use scraper::{ElementRef, Html, Selector};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use xqdiff::diff::campaign::{self, Config};
use xqdiff::diff::minimize::minimize_first;
use xqdiff::diff::oracle::check_position;
use xqdiff::generators::face::Generator;
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::generators::{bitboard::BitboardGen, mailbox::MailboxGen, registry};
use xqdiff::job::report::{
    html, markdown, svg, Dispute, EngineInfo, EnginePhase, EngineRow, GeneratorInfo,
    MetamorphicPhase, PerftPhase, PerftResult, PerftRow, Phase, PhaseDetails, RenderOptions,
    Report, ReportError, Status,
};
use xqdiff::subject::external::{EngineConfig, FenLetters, Protocol, Ranks};
use xqdiff::{Color, Position, Role};

mod util;

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

/// The class an arrow must have, worked out here from who has the move rather than
/// taken from the renderer.
fn expected_class(has: &[String], odd: Option<&str>) -> &'static str {
    match odd {
        Some(o) if has.len() == 1 && has[0] == o => "only-odd",
        Some(o) if !has.iter().any(|h| h == o) => "lacks-odd",
        _ => "set-",
    }
}

fn classes(e: &ElementRef) -> Vec<String> {
    e.value().classes().map(str::to_owned).collect()
}

fn attr<'a>(e: &ElementRef<'a>, name: &str) -> &'a str {
    e.value()
        .attr(name)
        .unwrap_or_else(|| panic!("{} has no {name}", e.value().name()))
}

/// The traditional characters, written out here independently of the renderer.
fn chinese(color: Color, role: Role) -> &'static str {
    let red = ["帥", "仕", "相", "傌", "俥", "炮", "兵"];
    let black = ["將", "士", "象", "馬", "車", "砲", "卒"];
    match color {
        Color::Red => red[role.index()],
        Color::Black => black[role.index()],
    }
}

/// Everything the page must show about `report`, checked through a real HTML parser.
fn check_page(report: &Report, page: &str, opts: &RenderOptions) {
    let doc = Html::parse_document(page);
    let status = report.status().as_str();
    let summary: Vec<_> = doc.select(&sel("header#summary")).collect();
    assert_eq!(summary.len(), 1, "one summary");
    assert!(classes(&summary[0]).contains(&status.to_owned()));
    assert_eq!(attr(&summary[0], "data-status"), status);

    // One phase row per phase, and one perft table row per perft row, the off counts marked.
    assert_eq!(
        doc.select(&sel("#phases tr")).count(),
        report.phases.len() + 1
    );
    for phase in &report.phases {
        if let Some(PhaseDetails::Perft(p)) = &phase.details {
            let rows: Vec<_> = doc
                .select(&sel("section.perft tr.agree, section.perft tr.differ"))
                .collect();
            assert_eq!(rows.len(), p.rows.len());
            for (row, tr) in p.rows.iter().zip(&rows) {
                let want = if row.agrees() { "agree" } else { "differ" };
                assert!(classes(tr).contains(&want.to_owned()), "{}", row.position);
                let off: Vec<&str> = tr
                    .select(&sel("td.off"))
                    .map(|td| attr(&td, "data-subject"))
                    .collect();
                let want_off: Vec<&str> = row
                    .results
                    .iter()
                    .filter(|r| row.is_off(r))
                    .map(|r| r.subject.as_str())
                    .collect();
                assert_eq!(off, want_off, "{}", row.position);
            }
        }
        if let Some(PhaseDetails::Fuzz(f)) = &phase.details {
            let rows: Vec<_> = doc
                .select(&sel("section.fuzz table.coverage tr[data-feature]"))
                .collect();
            assert_eq!(rows.len(), f.coverage.features.len());
            for (row, tr) in f.coverage.features.iter().zip(&rows) {
                assert_eq!(attr(tr, "data-feature"), row.feature);
            }
        }
    }

    let articles: Vec<_> = doc
        .select(&sel("#disagreements article.disagreement"))
        .collect();
    assert_eq!(articles.len(), report.disagreements.len());
    assert_eq!(
        doc.select(&sel("g.arrow")).count(),
        report
            .disagreements
            .iter()
            .map(|d| d.moves.len())
            .sum::<usize>(),
        "no arrow outside a disagreement"
    );
    for (d, article) in report.disagreements.iter().zip(&articles) {
        assert_eq!(attr(article, "data-check"), d.check);
        let boards: Vec<_> = article.select(&sel("svg.board")).collect();
        assert_eq!(boards.len(), 1, "one board per disagreement");
        let board = boards[0];

        // One arrow per disputed move, with its move, who has it, and the right colour.
        let arrows: Vec<_> = board.select(&sel("g.arrow")).collect();
        assert_eq!(arrows.len(), d.moves.len(), "{}", d.fen);
        let by_move: BTreeMap<&str, &ElementRef> =
            arrows.iter().map(|a| (attr(a, "data-move"), a)).collect();
        for m in &d.moves {
            let arrow = by_move
                .get(m.mv.as_str())
                .unwrap_or_else(|| panic!("no arrow for {}", m.mv));
            assert_eq!(attr(arrow, "data-has"), m.has.join(" "));
            let want = expected_class(&m.has, d.odd_one_out.as_deref());
            let got = classes(arrow);
            assert!(got.iter().any(|c| c.starts_with(want)), "{}: {got:?}", m.mv);
            // The legend names the same generators under the same class.
            let legend = article
                .select(&sel("ul.legend li"))
                .find(|li| attr(li, "data-has") == m.has.join(" "))
                .unwrap_or_else(|| panic!("no legend entry for {:?}", m.has));
            let colour_class = got.iter().find(|c| *c != "arrow").unwrap();
            assert!(classes(&legend).contains(colour_class));
        }

        // The pieces are the FEN's: same count, each on its square with its letter
        // drawn and, unless asked for Latin letters only, its Chinese character drawn
        // by a glyph the page defines (both readable without a CJK font).
        let drawn = d.moves_fen.as_deref().unwrap_or(&d.fen);
        let setup = xqdiff::fen::parse_setup(drawn).unwrap();
        type Drawn = (char, String, String);
        let want: BTreeMap<String, Drawn> = setup
            .pieces()
            .map(|(sq, p)| {
                let glyph = if opts.latin {
                    String::new()
                } else {
                    chinese(p.color, p.role).to_owned()
                };
                let letter = p.fen_char();
                (sq.to_string(), (letter, letter.to_string(), glyph))
            })
            .collect();
        let text_of = |g: &ElementRef, css: &str| -> String {
            g.select(&sel(css)).flat_map(|t| t.text()).collect()
        };
        let glyph_of = |g: &ElementRef| -> String {
            g.select(&sel("use.glyph"))
                .map(|u| {
                    let id = attr(&u, "href").trim_start_matches('#');
                    let symbol = doc
                        .select(&sel(&format!("svg.glyphs symbol[id='{id}']")))
                        .next()
                        .unwrap_or_else(|| panic!("no glyph {id} on the page"));
                    assert!(
                        symbol.select(&sel("path[d]")).next().is_some(),
                        "glyph {id} draws nothing"
                    );
                    attr(&symbol, "data-character").to_owned()
                })
                .collect()
        };
        let got: BTreeMap<String, Drawn> = board
            .select(&sel("g.piece"))
            .map(|g| {
                let letter = attr(&g, "data-piece").chars().next().unwrap();
                let drawn = (letter, text_of(&g, "text.letter"), glyph_of(&g));
                (attr(&g, "data-square").to_owned(), drawn)
            })
            .collect();
        assert_eq!(board.select(&sel("g.piece")).count(), want.len());
        assert_eq!(got, want, "{drawn}");
        assert!(article.text().any(|t| t.contains(&d.fen)), "FEN shown");
    }
}

/// Each row: the planted bug, the positions of a run with it (minimized or not), then
/// the rendering option. Every run must fail and every page must show it. The cannon
/// that cannot capture lacks moves; the horse that ignores its leg has extra ones, so
/// both arrow colours are drawn.
#[test]
fn a_planted_bug_gives_a_failed_report_with_one_arrow_per_disputed_move() {
    let latin = RenderOptions { latin: true };
    let chinese = RenderOptions { latin: false };
    /// FENs, each with whether to minimize the first disagreement on it.
    type Positions<'a> = &'a [(&'a str, bool)];
    let table: &[(Bug, Positions, RenderOptions)] = &[
        (Bug::CannonCannotCapture, &[(CANNON_BUSY, true)], chinese),
        (Bug::CannonCannotCapture, &[(START, false)], chinese),
        (Bug::CannonCannotCapture, &[(CANNON, false)], chinese),
        (
            Bug::CannonCannotCapture,
            &[(START, true), (CANNON_BUSY, true)],
            latin,
        ),
        (Bug::HorseLegIgnored, &[(START, false)], chinese),
        (Bug::HorseLegIgnored, &[(START, true)], latin),
    ];
    for (bug, positions, opts) in table {
        let report = run_report(&planted(*bug), positions);
        assert!(!report.disagreements.is_empty(), "{positions:?}");
        assert_eq!(report.status(), Status::Failed);
        for d in &report.disagreements {
            assert_eq!(d.odd_one_out.as_deref(), Some("planted"), "{}", d.fen);
            assert!(!d.moves.is_empty(), "{}", d.fen);
        }
        // A minimized finding is no bigger than where it started, and says where that was;
        // the ones minimized here started among pieces the minimizer must remove.
        let pieces = |fen: &str| Position::from_fen(fen).unwrap().pieces().count();
        for d in &report.disagreements {
            let minimized_here = d.phase == "oracle" && positions.iter().any(|p| p.1);
            match &d.original_fen {
                Some(orig) if minimized_here => assert!(pieces(&d.fen) < pieces(orig), "{orig}"),
                Some(orig) => assert!(pieces(&d.fen) <= pieces(orig), "{orig}"),
                None => assert!(!minimized_here, "{} lost its original", d.fen),
            }
        }
        let page = html::render(&report, opts);
        check_page(&report, &page, opts);
    }
}

/// The start position's two cannon captures (b2b9, h2h9) are the moves the planted
/// generator lacks: drawn as two blue "lacks-odd" arrows.
#[test]
fn the_start_position_shows_both_cannon_captures() {
    let report = run_report(&planted(Bug::CannonCannotCapture), &[(START, false)]);
    let page = html::render(&report, &RenderOptions::default());
    let doc = Html::parse_document(&page);
    let first = doc
        .select(&sel("article.disagreement[data-phase=oracle]"))
        .next()
        .unwrap();
    let moves: BTreeSet<&str> = first
        .select(&sel("g.arrow.lacks-odd"))
        .map(|a| attr(&a, "data-move"))
        .collect();
    assert_eq!(moves, BTreeSet::from(["b2b9", "h2h9"]));
}

#[test]
fn an_all_agree_report_passes_and_draws_no_arrows() {
    let engines = registry();
    let report = run_report(&engines, &[(START, false), (CANNON, true)]);
    assert!(report.disagreements.is_empty());
    assert!(report.passed(), "{:?}", report.phases);
    let page = html::render(&report, &RenderOptions::default());
    check_page(&report, &page, &RenderOptions::default());
    let doc = Html::parse_document(&page);
    assert_eq!(doc.select(&sel("g.arrow")).count(), 0);
    assert_eq!(doc.select(&sel("svg")).count(), 0);
    let md = markdown::render(&report);
    assert!(md.starts_with("## ✅ xqdiff: PASSED"), "{md}");
}

/// A cannon's arrow over its screen names the screen and rings it, the ring on the
/// screen piece's own centre; no other move has a screen. Each row: a FEN, a move and
/// the screen it must show.
#[test]
fn a_cannon_arrow_shows_the_screen_it_jumps() {
    const BEHIND: &str = "3k5/9/9/4r4/4p4/9/9/4C4/9/5K3 w";
    let table: &[(&str, &str, Option<&str>)] = &[
        // The rook two points behind the screen: the hop comes back to the line.
        (CANNON, "e2e7", Some("e5")),
        // The rook right behind the screen: the hop lands on it.
        (BEHIND, "e2e6", Some("e5")),
        (START, "h2h9", Some("h7")),
        (START, "b2b9", Some("b7")),
        // A cannon's quiet move, a horse's, and a rook's (wrong) move over a pawn.
        (START, "h2e2", None),
        (START, "b0c2", None),
        (START, "a0a4", None),
    ];
    for &(fen, mv, screen) in table {
        let groups = [svg::ArrowGroup {
            class: "lacks-odd".into(),
            colour: "#1565c0",
            has: vec!["mailbox".into()],
            label: "planted lacks it".into(),
            moves: vec![mv.into()],
        }];
        let picture = svg::board(fen, &groups, &RenderOptions::default()).unwrap();
        let doc = Html::parse_fragment(&picture);
        let arrow = doc
            .select(&sel(&format!("g.arrow[data-move={mv}]")))
            .next()
            .unwrap_or_else(|| panic!("{fen}: no arrow for {mv}"));
        assert_eq!(arrow.value().attr("data-screen"), screen, "{fen} {mv}");
        let rings: Vec<_> = arrow.select(&sel("circle.screen")).collect();
        assert_eq!(rings.len(), usize::from(screen.is_some()), "{fen} {mv}");
        if let (Some(sq), Some(ring)) = (screen, rings.first()) {
            let disc = doc
                .select(&sel(&format!("g.piece[data-square={sq}] circle")))
                .next()
                .unwrap_or_else(|| panic!("{fen}: no piece on {sq}"));
            for c in ["cx", "cy"] {
                assert_eq!(attr(ring, c), attr(&disc, c), "{fen} {mv}: ring {c}");
            }
        }
    }
}

/// A report with every kind of phase, as a writer would fill it.
fn full_report() -> Report {
    let engines = planted(Bug::CannonCannotCapture);
    let mut report = run_report(&engines, &[(CANNON, true)]);
    // The corpus's cannon cases fail with the planted bug: real replay failures.
    let t = Instant::now();
    let replay = xqdiff::diff::corpus::replay(std::path::Path::new("corpus"), &engines)
        .expect("the repository's corpus");
    assert!(!replay.failures.is_empty());
    let found = xqdiff::diff::finding::replayed(&replay, &Default::default(), &engines);
    report.add_replay(
        "corpus",
        &xqdiff::diff::corpus::Source::Dir("corpus".into()),
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

/// Names, FENs and details come from engines and files: whatever they hold is text
/// on the page, never markup.
#[test]
fn hostile_text_stays_text() {
    let hostile = "<script>alert(1)</script> \"quoted\" & 'single' <b>bold</b>";
    let mut report = full_report();
    report.command = Some(hostile.to_owned());
    report.engines[0].name = hostile.to_owned();
    report.phases[0].name = hostile.to_owned();
    for d in &mut report.disagreements {
        d.detail = hostile.to_owned();
        d.phase = hostile.to_owned();
        d.generators.push(hostile.to_owned());
        for m in &mut d.moves {
            m.has.push(hostile.to_owned());
        }
    }
    let page = html::render(&report, &RenderOptions::default());
    let doc = Html::parse_document(&page);
    assert_eq!(doc.select(&sel("script, b")).count(), 0);
    let text: String = doc.root_element().text().collect();
    assert!(text.matches(hostile).count() >= 3, "{text}");
    for arrow in doc.select(&sel("g.arrow")) {
        assert!(attr(&arrow, "data-has").ends_with(hostile));
    }
    // In Markdown, only a code span may hold the tag unescaped: it shows there as text.
    let md = markdown::render(&report);
    for line in md.lines() {
        let outside_code = line.split('`').step_by(2).collect::<String>();
        assert!(!outside_code.contains("<script>"), "{line}");
    }
    assert!(md.contains("\\<script\\>"), "{md}");
}

#[test]
fn json_round_trips() {
    let report = full_report();
    let json = report.to_json().unwrap();
    let back = Report::from_json(&json).unwrap();
    assert_eq!(back, report);
    assert_eq!(back.to_json().unwrap(), json);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["schema"], "xqdiff-report/2");
    assert_eq!(value["status"], "failed");
    assert_eq!(value["disagreements"][0]["odd_one_out"], "planted");
    // A seed past 2^53 survives `jq -r .seed` and JavaScript: it is a string, and a
    // report that wrote it as a number is still read.
    let mut big = report.clone();
    big.seed = Some(u64::MAX - 1);
    let big_json = big.to_json().unwrap();
    let big_value: serde_json::Value = serde_json::from_str(&big_json).unwrap();
    assert_eq!(big_value["seed"], (u64::MAX - 1).to_string());
    assert_eq!(Report::from_json(&big_json).unwrap().seed, big.seed);
    let old = json.replacen("\"seed\": \"7\"", "\"seed\": 7", 1);
    assert_ne!(old, json, "the seed is written as a string");
    assert_eq!(Report::from_json(&old).unwrap().seed, Some(7));
    // Every phase kind is tagged in the JSON as documented.
    // Replay failures are disagreements too, each naming its corpus file.
    let replayed: Vec<&str> = report
        .disagreements
        .iter()
        .filter(|d| d.phase == "corpus")
        .filter_map(|d| d.corpus_file.as_deref())
        .collect();
    let Some(PhaseDetails::Replay(r)) = &report.phases[2].details else {
        panic!("third phase is the replay");
    };
    assert_eq!(
        r.failures.len(),
        replayed.iter().collect::<BTreeSet<_>>().len()
    );
    for f in &r.failures {
        assert!(replayed.contains(&f.file.as_str()), "{}", f.file);
    }
    let kinds: Vec<&str> = value["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["details"]["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["perft", "fuzz", "replay", "metamorphic", "engine"]);
}

/// Each row: a change to a good report's JSON, and the error it must give.
#[test]
fn a_wrong_schema_or_shape_is_rejected_by_name() {
    let good: serde_json::Value = serde_json::from_str(&full_report().to_json().unwrap()).unwrap();
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        v.to_string()
    };
    type Expect = fn(&ReportError) -> bool;
    let table: Vec<(String, Expect)> = vec![
        (
            with(&|v| v["schema"] = "xqdiff-report/3".into()),
            |e| matches!(e, ReportError::UnsupportedVersion { found } if found == "xqdiff-report/3"),
        ),
        (with(&|v| v["schema"] = "junit/1".into()), |e| {
            matches!(e, ReportError::OtherSchema { .. })
        }),
        (
            with(&|v| {
                v.as_object_mut().unwrap().remove("schema");
            }),
            |e| matches!(e, ReportError::MissingSchema),
        ),
        (with(&|v| v["schema"] = 1.into()), |e| {
            matches!(e, ReportError::MissingSchema)
        }),
        ("[1, 2]".to_owned(), |e| {
            matches!(e, ReportError::MissingSchema)
        }),
        ("{ not json".to_owned(), |e| {
            matches!(e, ReportError::Syntax(_))
        }),
        (
            with(&|v| {
                v.as_object_mut().unwrap().remove("tool");
            }),
            |e| matches!(e, ReportError::Shape(_)),
        ),
        (with(&|v| v["phases"][0]["status"] = "maybe".into()), |e| {
            matches!(e, ReportError::Shape(_))
        }),
    ];
    for (text, expect) in &table {
        match Report::from_json(text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => assert!(expect(&e), "wrong error {e:?} for {text}"),
        }
    }
    // An unknown field is a later minor addition: read, not rejected.
    let extra = with(&|v| v["future_field"] = 3.into());
    assert!(Report::from_json(&extra).is_ok());
}

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

/// The report's texts say `1 position`, never `1 positions`: the full report's engine
/// phase asked one position. Each row: what a page must say and what it must not.
#[test]
fn one_of_a_kind_is_singular() {
    let report = full_report();
    let page = html::render(&report, &RenderOptions::default());
    let md = markdown::render(&report);
    let table: &[(&str, &str)] = &[
        ("1 position to depth 2", "1 positions"),
        ("0 findings", "1 findings"),
    ];
    // `never` as a count of its own: "11 positions" is no "1 positions".
    let says = |text: &str, never: &str| {
        text.match_indices(never).any(|(i, _)| {
            !text[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_digit())
        })
    };
    for &(want, never) in table {
        for (what, text) in [("html", &page), ("markdown", &md)] {
            assert!(text.contains(want), "{what} lacks {want:?}");
            assert!(!says(text, never), "{what} says {never:?}");
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

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Each row: the file to pass with `--from` (by name; the good ones are written
/// first), the extra arguments, the exit code, and text on stdout or stderr.
#[test]
fn the_report_command_renders_saved_reports_and_rejects_bad_files() {
    let failed = temp("failed.json");
    std::fs::write(&failed, full_report().to_json().unwrap()).unwrap();
    let passed = temp("passed.json");
    std::fs::write(
        &passed,
        run_report(&registry(), &[(CANNON, false)])
            .to_json()
            .unwrap(),
    )
    .unwrap();
    let future = temp("future.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&passed).unwrap()).unwrap();
    v["schema"] = "xqdiff-report/9".into();
    std::fs::write(&future, v.to_string()).unwrap();
    // The passed run again, as if a phase had errored, and as if a signal had stopped
    // it with and without the signal on record: `report` exits as the run did.
    let variant = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let mut v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&passed).unwrap()).unwrap();
        edit(&mut v);
        let path = temp(name);
        std::fs::write(&path, v.to_string()).unwrap();
        path
    };
    let errored = variant("errored.json", &|v| {
        v["phases"][0]["status"] = "error".into()
    });
    let terminated = variant("terminated.json", &|v| v["signal"] = 15.into());
    let cut_short = variant("cut-short.json", &|v| {
        v["phases"][0]["status"] = "interrupted".into()
    });
    let garbage = temp("garbage.json");
    std::fs::write(&garbage, "this is not json").unwrap();
    let html_out = temp("out.html");
    let md_out = temp("out.md");
    let _ = std::fs::remove_file(&html_out);

    let s = |p: &PathBuf| p.display().to_string();
    let table: Vec<(String, Vec<String>, i32, &str)> = vec![
        (s(&failed), vec![], 1, "## ❌ xqdiff: FAILED"),
        (s(&passed), vec![], 0, "## ✅ xqdiff: PASSED"),
        (s(&errored), vec![], 2, "ERROR"),
        (s(&terminated), vec![], 143, "INTERRUPTED"),
        (s(&cut_short), vec![], 2, "INTERRUPTED"),
        (
            s(&failed),
            vec![
                "--html".into(),
                s(&html_out),
                "--markdown".into(),
                s(&md_out),
                "--latin".into(),
            ],
            1,
            "wrote",
        ),
        (s(&temp("missing.json")), vec![], 2, "cannot read"),
        (
            s(&future),
            vec![],
            2,
            "schema \"xqdiff-report/9\" is not supported",
        ),
        (s(&garbage), vec![], 2, "not JSON"),
    ];
    for (from, extra, code, needle) in &table {
        let out = util::xqdiff()
            .args(["report", "--from", from])
            .args(extra)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(*code), "{from} {extra:?}: {text}");
        assert!(text.contains(needle), "{from} {extra:?}: {text}");
    }
    let page = std::fs::read_to_string(&html_out).unwrap();
    let saved = Report::from_json(&std::fs::read_to_string(&failed).unwrap()).unwrap();
    check_page(&saved, &page, &RenderOptions { latin: true });
    assert!(std::fs::read_to_string(&md_out).unwrap().contains("FAILED"));
}

/// The example in the schema document is a report this build reads, and a failed one.
#[test]
fn the_documented_example_parses() {
    let doc = std::fs::read_to_string("docs/report-schema.md").unwrap();
    let start = doc.find("```json\n").expect("an example") + "```json\n".len();
    let len = doc[start..].find("```").expect("end of the example");
    let report = Report::from_json(&doc[start..start + len]).unwrap();
    assert_eq!(report.status(), Status::Failed);
    assert_eq!(report.disagreements[0].moves[0].mv, "d0d7");
}

/// Each row: the statuses of a report's phases, and the status, headline word and
/// Markdown mark the report must then show. Every status has a colour of its own on
/// the page, and the headline counts interrupted phases when there are any.
#[test]
fn every_run_status_has_its_verdict_word_and_colour() {
    let table: &[(&[Status], Status, &str, &str)] = &[
        (
            &[Status::Passed, Status::Skipped],
            Status::Passed,
            "PASSED",
            "✅",
        ),
        (
            &[Status::Passed, Status::Failed],
            Status::Failed,
            "FAILED",
            "❌",
        ),
        (
            &[Status::Passed, Status::Error],
            Status::Error,
            "ERROR",
            "⚠️",
        ),
        (
            &[Status::Passed, Status::Interrupted, Status::Interrupted],
            Status::Interrupted,
            "INTERRUPTED",
            "⏹️",
        ),
    ];
    for &(statuses, status, word, mark) in table {
        let mut report = Report::new();
        report.phases = statuses
            .iter()
            .enumerate()
            .map(|(i, &s)| Phase {
                status: s,
                ..Phase::skipped(&format!("phase{i}"), "why")
            })
            .collect();
        assert_eq!(report.status(), status, "{statuses:?}");
        let page = html::render(&report, &RenderOptions::default());
        let doc = Html::parse_document(&page);
        let header = doc.select(&sel("header#summary")).next().expect("summary");
        assert_eq!(attr(&header, "data-status"), status.as_str());
        assert!(classes(&header).contains(&status.as_str().to_owned()));
        let verdict: String = header
            .select(&sel(".verdict"))
            .flat_map(|v| v.text())
            .collect();
        assert_eq!(verdict, word);
        assert!(
            page.contains(&format!(".summary.{} {{", status.as_str())),
            "{word}: no colour for the summary"
        );
        assert!(
            page.contains(&format!(".status.{} {{", status.as_str())),
            "{word}: no colour for the phase status"
        );
        let interrupted = statuses
            .iter()
            .filter(|&&s| s == Status::Interrupted)
            .count();
        let headline: String = header.select(&sel("p")).flat_map(|p| p.text()).collect();
        assert_eq!(
            headline.contains(&format!("{interrupted} interrupted")),
            interrupted > 0,
            "{headline}"
        );
        let md = markdown::render(&report);
        assert!(md.starts_with(&format!("## {mark} xqdiff: {word}")), "{md}");
    }
}

/// A board that goes wrong only when walked (a king slot make forgets) is reported with
/// the line it was walked along: in the JSON, read back, and on the page.
#[test]
fn a_walked_board_dispute_keeps_its_line() {
    let planted = Planted::new(Bug::MakeForgetsKingSlot);
    let engines: Vec<&dyn Generator> = vec![&MailboxGen, &BitboardGen, &planted];
    let pos = Position::from_fen("3k5/9/3P1r3/9/9/9/9/9/3K5/9 w").unwrap();
    let d = check_position(&pos, &engines)
        .into_iter()
        .find(|d| d.check == xqdiff::diff::oracle::CheckKind::WalkedBoard)
        .expect("the walked king slot shows");
    assert!(d.line.len() >= 2, "{d}");
    let mut report = Report::new();
    report.disagreements.push(Dispute::from_oracle("fuzz", &d));
    let line: Vec<String> = d.line.iter().map(ToString::to_string).collect();
    let back = Report::from_json(&report.to_json().unwrap()).unwrap();
    assert_eq!(back.disagreements[0].line, line);
    let page = Html::parse_document(&html::render(&report, &RenderOptions::default()));
    let text: String = page.root_element().text().collect();
    assert!(text.contains(&line.join(" ")), "the page shows the line");
}

/// Two unrelated bugs in one generator make two cards, one per bug, each led by its cause
/// in words above the board, naming its signature and how often it was seen; the JSON
/// carries the diagnosis, and the Markdown has one line per bug, led by the cause.
#[test]
fn each_distinct_bug_is_one_card_with_its_count() {
    let planted = Planted::with(&[Bug::HorseLegIgnored, Bug::KingLeavesPalace]);
    let gens: Vec<&dyn Generator> = vec![&MailboxGen, &BitboardGen, &planted];
    // Seed 5 hits each bug more than once in its first 100 cases (tests/planted.rs
    // holds the campaign to that); more cases only add hits to the same two cards.
    let config = Config {
        seed: 5,
        cases: Some(100),
        duration: None,
        ..Config::default()
    };
    let fuzz = campaign::run(&config, &gens, &AtomicBool::new(false), &|_, _| {});
    let mut report = Report::new();
    report.add_fuzz("fuzz", &fuzz);
    let page = html::render(&report, &RenderOptions { latin: true });
    let doc = Html::parse_document(&page);
    let cards: Vec<ElementRef> = doc.select(&sel("article.disagreement")).collect();
    assert_eq!(cards.len(), 2, "{page}");
    let mut bugs = Vec::new();
    for card in &cards {
        let text: String = card.text().collect();
        let sig = report
            .disagreements
            .iter()
            .filter_map(|d| d.signature.as_deref())
            .find(|s| text.contains(s))
            .unwrap_or_else(|| panic!("no signature on the card: {text}"));
        bugs.push(sig.to_owned());
        assert!(text.contains(" times") || text.contains("1 time"), "{text}");
        // The cause leads the card, above the board.
        let html = card.html();
        let (cause, board) = (html.find("class=\"cause\""), html.find("<svg"));
        assert!(
            matches!((cause, board), (Some(c), Some(b)) if c < b),
            "{html}"
        );
    }
    bugs.sort();
    assert_eq!(
        bugs,
        [
            "cause/planted/horse-leg-ignored",
            "cause/planted/king-leaves-palace"
        ]
    );
    let sentences = [
        "a horse jumps even when its leg is blocked",
        "a king may step out of its palace",
    ];
    for d in &report.disagreements {
        let c = d.diagnosis.as_ref().expect("diagnosed");
        assert!(
            sentences.contains(&c.sentence.as_deref().unwrap_or("")),
            "{c:?}"
        );
        assert_eq!(c.explained, c.witnesses, "{c:?}");
        assert!(d
            .signature
            .as_deref()
            .unwrap_or("")
            .ends_with(&c.variants[0]));
    }
    // The JSON carries it, and reads back.
    let json = report.to_json().unwrap();
    assert!(json.contains("\"diagnosis\""), "{json}");
    let back = Report::from_json(&json).unwrap();
    assert_eq!(back.disagreements, report.disagreements);
    // Each Markdown line leads with the cause.
    let md = markdown::render(&report);
    let lines: Vec<&str> = md
        .lines()
        .filter(|l| l.contains("cause/planted/"))
        .collect();
    assert_eq!(lines.len(), 2, "{md}");
    for line in lines {
        let after = line.split_once(". ").map_or("", |(_, rest)| rest);
        assert!(
            sentences
                .iter()
                .any(|s| after.starts_with(&format!("cause: {s}"))),
            "{line}"
        );
    }
}
