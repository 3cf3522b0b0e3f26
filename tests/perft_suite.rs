//! The published perft numbers (tests/data/xiangqi-perft.epd) for every registered
//! generator. Entries above the node budget run only in the ignored test, or in the
//! benchmark, so `cargo test` stays within minutes on two cores.

use xqdiff::epd::parse_suite;
use xqdiff::generators::registry;

mod util;

/// Largest published count run in the default test, per position and depth. Ten
/// million, not five, takes in line 20's 8.1 million at depth 5, which no other
/// default test counts.
const BUDGET: u64 = 10_000_000;

fn run_suite(max_nodes: u64) -> usize {
    let suite = parse_suite(include_str!("data/xiangqi-perft.epd")).expect("suite parses");
    let mut ran = 0;
    let mut failures = Vec::new();
    for entry in &suite {
        for &(depth, expected) in entry.counts.iter().filter(|&&(_, n)| n <= max_nodes) {
            for g in registry() {
                let got = rayon::ThreadPoolBuilder::new()
                    .build()
                    .expect("thread pool")
                    .install(|| g.perft_parallel(&entry.position, depth, None));
                ran += 1;
                if got != expected {
                    failures.push(format!(
                        "{} line {} D{depth}: {got} != {expected} ({})",
                        g.name(),
                        entry.line,
                        entry.position.fen()
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    ran
}

#[test]
fn published_counts_within_budget() {
    let ran = run_suite(BUDGET);
    // 15 positions, most with four or five small depths, times every generator: a
    // suite that quietly stopped running (a parse change, a budget typo) fails here.
    assert!(ran >= 50 * registry().len(), "only {ran} perft runs");
}

#[test]
#[ignore = "20 CPU-seconds, past the suite's budget; .ci/run runs it with --ignored"]
fn published_counts_all() {
    run_suite(u64::MAX);
}

/// A standard EPD file with `id`s and a shakmaty-style `.perft` file run with
/// `xqdiff perft --suite` like the dialect, and every line names its position by `id`.
#[test]
fn standard_epd_and_perft_files_run_and_are_named_by_id() {
    let dir = std::env::temp_dir().join(format!("xqdiff-epd-forms-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    let files = [
        (
            "standard.epd",
            format!(
                "{start} w - - D1 44; D2 1920; id \"opening\";\n\
                 3k5/9/9/9/9/9/9/9/9/4K4 w - - D1 2; id \"kings\";\n"
            ),
        ),
        (
            "shakmaty.perft",
            format!(
                "id opening\nepd {start} w - - 0 1\nperft 1 44\nperft 2 1920\n\n\
                 id kings\nepd 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\nperft 1 2\n"
            ),
        ),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = util::xqdiff()
            .args(["perft", "--depth", "2", "--suite"])
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{name}:\n{stdout}");
        let named: Vec<&str> = stdout
            .lines()
            .filter_map(|l| l.split_whitespace().next())
            .filter(|w| ["opening", "kings"].contains(w))
            .collect();
        assert_eq!(named, ["opening", "opening", "kings"], "{name}:\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
