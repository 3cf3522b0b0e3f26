//! `xqdiff report`: a saved report rendered again, as HTML or Markdown, exiting as the
//! run that wrote it did; a file that is no report of this schema is refused by name.
//! The report itself (the JSON read back, the page, the Markdown and the boards) is
//! held by the unit tests in `src/job/report`.

use scraper::{ElementRef, Html, Selector};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

mod util;

/// The planted cannon that cannot capture shows here among pieces that have nothing to
/// do with it, which the minimizer takes off.
const CANNON_BUSY: &str = "3k5/4a4/4r4/2n6/4p4/6B2/9/4C4/4A4/5K3 w";

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|e| panic!("selector {css}: {e:?}"))
}

fn attr<'a>(e: &ElementRef<'a>, name: &str) -> &'a str {
    e.value()
        .attr(name)
        .unwrap_or_else(|| panic!("{} has no {name}", e.value().name()))
}

/// The report `xqdiff perft --json` prints of a position the planted `bug` shows on,
/// to depth 2, with that bug planted among the generators if one is given; the run
/// must exit with `code`.
fn perft_report(bug: Option<&str>, code: i32) -> String {
    let mut perft = util::xqdiff();
    perft.args(["perft", "--fen", CANNON_BUSY, "--depth", "2", "--json"]);
    perft.args(["--no-save", "--threads", "1"]);
    if let Some(bug) = bug {
        perft.env(xqdiff::generators::PLANTED_BUG_VAR, bug);
    }
    let out = perft.output().expect("run xqdiff perft");
    let (stdout, stderr) = util::text(&out);
    assert_eq!(out.status.code(), Some(code), "{bug:?}: {stdout}\n{stderr}");
    stdout
}

/// The strings of an array of strings.
fn strings(v: &Value) -> Vec<&str> {
    let items = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    items
        .iter()
        .map(|s| s.as_str().expect("a string"))
        .collect()
}

/// What the page `xqdiff report --latin` wrote must show of the saved `report`, read
/// through a real HTML parser: its status, a row per phase, each perft row's off counts
/// marked (worked out here from the counts), and per disagreement its check, its FEN,
/// one arrow per disputed move naming who has it, and every piece of the FEN on its
/// square under its letter, with no Chinese character drawn.
fn check_latin_page(report: &Value, page: &str) {
    let doc = Html::parse_document(page);
    let summary = doc
        .select(&sel("header#summary"))
        .next()
        .expect("a summary");
    assert_eq!(attr(&summary, "data-status"), report["status"]);
    let phases = report["phases"].as_array().expect("phases");
    assert_eq!(doc.select(&sel("#phases tr")).count(), phases.len() + 1);

    let perft_rows = phases
        .iter()
        .filter(|p| p["details"]["kind"] == "perft")
        .flat_map(|p| p["details"]["rows"].as_array().expect("perft rows"));
    let trs: Vec<_> = doc
        .select(&sel("section.perft tr.agree, section.perft tr.differ"))
        .collect();
    let mut rows = 0;
    for (row, tr) in perft_rows.zip(&trs) {
        rows += 1;
        let results = row["results"].as_array().expect("results");
        let counts: Vec<Option<u64>> = results.iter().map(|r| r["nodes"].as_u64()).collect();
        let majority = counts
            .iter()
            .flatten()
            .copied()
            .find(|n| 2 * counts.iter().filter(|c| **c == Some(*n)).count() > counts.len());
        let want = row["expected"].as_u64().or(majority);
        let off: Vec<&str> = tr
            .select(&sel("td.off"))
            .map(|td| attr(&td, "data-subject"))
            .collect();
        let want_off: Vec<&str> = results
            .iter()
            .zip(&counts)
            .filter(|(_, n)| n.is_none() || want.is_some_and(|w| **n != Some(w)))
            .map(|(r, _)| r["subject"].as_str().expect("a subject"))
            .collect();
        assert_eq!(off, want_off, "{row}");
        let agrees = counts.iter().all(|n| n.is_some() && *n == want);
        let class = if agrees { "agree" } else { "differ" };
        assert!(tr.value().classes().any(|c| c == class), "{row}");
    }
    assert_eq!(rows, trs.len(), "one table row per perft row");

    let disputes = report["disagreements"].as_array().expect("disagreements");
    let articles: Vec<_> = doc
        .select(&sel("#disagreements article.disagreement"))
        .collect();
    assert!(!articles.is_empty(), "a failed report with no dispute");
    assert_eq!(articles.len(), disputes.len());
    assert_eq!(
        doc.select(&sel("use.glyph")).count(),
        0,
        "a character drawn"
    );
    for (d, article) in disputes.iter().zip(&articles) {
        assert_eq!(attr(article, "data-check"), d["check"]);
        let boards: Vec<_> = article.select(&sel("svg.board")).collect();
        assert_eq!(boards.len(), 1, "one board per disagreement");
        let arrows: BTreeMap<&str, &str> = boards[0]
            .select(&sel("g.arrow"))
            .map(|a| (attr(&a, "data-move"), attr(&a, "data-has")))
            .collect();
        let moves = d["moves"].as_array().expect("moves");
        let want: BTreeMap<&str, String> = moves
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().expect("a move"),
                    strings(&m["has"]).join(" "),
                )
            })
            .collect();
        assert_eq!(arrows.len(), moves.len(), "{d}");
        for (mv, has) in &want {
            assert_eq!(arrows.get(mv), Some(&has.as_str()), "{mv}: {d}");
        }
        let drawn = d["moves_fen"]
            .as_str()
            .or(d["fen"].as_str())
            .expect("a FEN");
        let setup = xqdiff::fen::parse_setup(drawn).expect("a FEN the report drew");
        let want: BTreeMap<String, String> = setup
            .pieces()
            .map(|(sq, p)| (sq.to_string(), p.fen_char().to_string()))
            .collect();
        let got: BTreeMap<String, String> = boards[0]
            .select(&sel("g.piece"))
            .map(|g| {
                let letter: String = g
                    .select(&sel("text.letter"))
                    .flat_map(|t| t.text())
                    .collect();
                (attr(&g, "data-square").to_owned(), letter)
            })
            .collect();
        assert_eq!(got, want, "{drawn}");
        let fen = d["fen"].as_str().expect("a FEN");
        assert!(article.text().any(|t| t.contains(fen)), "FEN shown");
    }
}

fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("report-cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Each row: the file to pass with `--from` (by name; the good ones, which `xqdiff
/// perft` writes, first), the extra arguments, the exit code, and text on stdout or
/// stderr.
#[test]
fn the_report_command_renders_saved_reports_and_rejects_bad_files() {
    let failed = temp("failed.json");
    std::fs::write(&failed, perft_report(Some("cannon-cannot-capture"), 1)).unwrap();
    let passed = temp("passed.json");
    std::fs::write(&passed, perft_report(None, 0)).unwrap();
    let future = temp("future.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&passed).unwrap()).unwrap();
    v["schema"] = "xqdiff-report/9".into();
    std::fs::write(&future, v.to_string()).unwrap();
    // The passed run again, as if a phase had errored, and as if a signal had stopped
    // it with and without the signal on record: `report` exits as the run did.
    let variant = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut v: Value =
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
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&failed).unwrap()).unwrap();
    check_latin_page(&saved, &page);
    assert!(std::fs::read_to_string(&md_out).unwrap().contains("FAILED"));
}
