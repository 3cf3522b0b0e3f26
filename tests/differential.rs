//! The quick differential check: a fixed, seeded in-process campaign over structured
//! positions and playouts, plus shallow perft from every reference position, must find
//! the three generators in full agreement. This is also cargo-mutants' test command
//! (`.cargo/mutants.toml`): a mutant that survives it is a hole in the harness.

use std::sync::atomic::AtomicBool;
use xqdiff::diff::campaign::{self, Config, Source};
use xqdiff::epd::{parse_suite, REFERENCE_SUITE};
use xqdiff::generators::registry;

#[test]
fn seeded_campaign_finds_no_disagreement() {
    let gens = registry();
    for (source, cases) in [(Source::Arbitrary, 3000), (Source::Playout, 60)] {
        let config = Config {
            seed: 2026,
            cases: Some(cases),
            duration: None,
            source,
            ..Config::default()
        };
        let report = campaign::run(&config, &gens, &AtomicBool::new(false), &|_, _| {});
        assert_eq!(report.cases, cases);
        let found: Vec<String> = report.findings.iter().map(|f| f.to_string()).collect();
        assert!(found.is_empty(), "{source:?}: {}", found.join("\n"));
    }
}

#[test]
fn shallow_perft_agrees_with_published_counts() {
    for entry in parse_suite(REFERENCE_SUITE).unwrap() {
        for &(depth, expected) in entry
            .counts
            .iter()
            .filter(|&&(d, n)| d <= 3 && n <= 100_000)
        {
            for g in registry() {
                assert_eq!(
                    g.perft(&entry.position, depth),
                    expected,
                    "{} line {} D{depth}",
                    g.name(),
                    entry.line
                );
            }
        }
    }
}

/// Reports, corpus files and `--generator` name generators; a renamed or unnamed one
/// would file its findings under the wrong name.
#[test]
fn registry_names_are_the_documented_ones() {
    assert_eq!(
        xqdiff::generators::names(),
        ["mailbox", "bitboard", "naive"]
    );
    for name in ["mailbox", "bitboard", "naive"] {
        assert_eq!(
            xqdiff::generators::by_name(name).map(|g| g.name()),
            Some(name)
        );
    }
}
