//! The published perft numbers (tests/data/xiangqi-perft.epd) for every registered
//! generator. Entries above the node budget run only in the ignored test, or in the
//! benchmark, so `cargo test` stays within minutes on two cores.

use xqdiff::epd::parse_suite;
use xqdiff::generators::registry;

/// Largest published count run in the default test, per position and depth.
const BUDGET: u64 = 5_000_000;

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
#[ignore = "minutes per generator; run with --ignored"]
fn published_counts_all() {
    run_suite(u64::MAX);
}
