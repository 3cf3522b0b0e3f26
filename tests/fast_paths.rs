//! Proof that the oracle sees bugs in the paths written for speed and depth: the
//! bitboard's two-ply count and its reach tables, and the hashed perft. Each bug is
//! planted in a copy of the bitboard generator whose every other answer is right
//! (`generators::planted_fast`), so only the oracle's comparison of counting paths
//! (`diff::oracle::paths`) can find it; and a hashed total such a bug would make wrong
//! is refused, never printed with exit 0.

use std::process::Command;
use std::sync::atomic::AtomicBool;
use xqdiff::diff::campaign::{self, Config};
use xqdiff::diff::oracle::{check_position, CheckKind};
use xqdiff::generators::planted_fast::{FastBug, PlantedFast};
use xqdiff::{Generator, Position};

/// The registry's generators and the planted one after them, as `XQDIFF_PLANTED_BUG`
/// lists it.
fn with_registry(planted: &PlantedFast) -> Vec<&dyn Generator> {
    let mut gens: Vec<&dyn Generator> = xqdiff::generators::registry()
        .into_iter()
        .map(|g| g as &dyn Generator)
        .collect();
    gens.push(planted);
    gens
}

/// Each bug, the smallest position the campaign's minimizer found it on (seeds 1-3),
/// the check that names it there first, and words its finding must carry.
const WITNESSES: &[(FastBug, &str, CheckKind, &str)] = &[
    (
        FastBug::TwoPlyCountsTaken,
        "5k3/4P4/9/9/9/9/9/9/9/3K5 w",
        CheckKind::CountPath,
        "planted perft(3): plain 20, two-ply 25",
    ),
    (
        FastBug::ReachIgnoresVacated,
        "5k3/9/9/9/9/9/9/9/9/r2K5 w",
        CheckKind::CountPath,
        "planted perft(2): plain 19, two-ply 14",
    ),
    (
        FastBug::CountAfterMask,
        "5k3/9/9/9/9/9/9/4K4/2n1p4/5A3 w",
        CheckKind::CountPath,
        "planted perft(3): plain 39, two-ply 38",
    ),
    // The start's 44 children all counted as the first: only the hashed paths are wrong.
    (
        FastBug::HashChildUnderParentKey,
        "5k3/9/9/9/9/9/9/9/9/3K5 w",
        CheckKind::CountPath,
        "planted perft(3): plain 7, two-ply 7, hashed (1 bucket) 6, hashed (roomy) 6",
    ),
    // The count is right here: no other position has the wrong key. The key is not.
    (
        FastBug::HashKeyForgetsCaptures,
        "3k5/9/9/9/9/9/9/9/9/4pK3 w",
        CheckKind::HashKey,
        "planted's hashed (1 bucket) key after f0e0 (2 plies left) is not the key read off the board",
    ),
    // perft(2) of the root, stored at depth 2, taken for its perft(3) from a table of
    // one bucket; a roomy table puts the depths in other buckets.
    (
        FastBug::HashProbeIgnoresDepth,
        "5k3/9/9/9/9/9/9/9/9/3K5 w",
        CheckKind::CountPath,
        "planted perft(3): plain 7, two-ply 7, hashed (1 bucket) 3, hashed (roomy) 7",
    ),
];

#[test]
fn each_fast_path_bug_is_named_on_its_witness() {
    let bugs: Vec<FastBug> = WITNESSES.iter().map(|w| w.0).collect();
    assert_eq!(bugs, FastBug::ALL, "every bug has a witness, in order");
    for &(bug, fen, check, words) in WITNESSES {
        let planted = PlantedFast(bug);
        let gens = with_registry(&planted);
        let pos = Position::from_fen(fen).unwrap();
        let found = check_position(&pos, &gens);
        let first = found
            .first()
            .unwrap_or_else(|| panic!("{bug:?} not seen on {fen}"));
        assert_eq!(first.check, check, "{bug:?} on {fen}: {first}");
        assert_eq!(first.odd_one_out.as_deref(), Some("planted"), "{first}");
        assert!(first.detail.contains(words), "{bug:?}: {}", first.detail);
        let honest = xqdiff::generators::registry();
        assert!(check_position(&pos, &honest).is_empty(), "{fen}");
    }
}

/// The campaign `xqdiff fuzz` runs, with its defaults, finds each bug on its first
/// cases and blames the planted generator's counting path. (Seeds 1, 2 and 3 of
/// `xqdiff fuzz --seconds 10` find each within their first 30 cases; one seed here, as
/// a budget of cases, keeps the suite short.)
#[test]
fn the_default_campaign_finds_each_fast_path_bug() {
    for bug in FastBug::ALL {
        let planted = PlantedFast(bug);
        let gens = with_registry(&planted);
        let config = Config {
            seed: 1,
            cases: Some(100),
            duration: None,
            stop_on_first: true,
            ..Config::default()
        };
        let report = campaign::run(&config, &gens, &AtomicBool::new(false), &|_, _| {});
        let f = report
            .findings
            .first()
            .unwrap_or_else(|| panic!("{bug:?} not found in {} cases", report.cases));
        assert_eq!(f.blame.blamed(), Some("planted"), "{bug:?}");
        let among = f.among().expect("a finding among the built-ins");
        assert!(
            matches!(
                among.disagreement.check,
                CheckKind::CountPath | CheckKind::HashKey
            ),
            "{bug:?} caught by {}",
            among.disagreement
        );
    }
}

/// With a bug in the hashed perft, `xqdiff perft --hash` on that generator alone
/// refuses to print a total it cannot trust: exit 1, the counting paths' finding said.
#[test]
fn a_hashed_total_the_paths_disagree_on_is_never_printed_with_exit_0() {
    let table: &[(&str, u32)] = &[
        ("hash-child-under-parent-key", 4),
        ("hash-key-forgets-captures", 4),
        ("hash-probe-ignores-depth", 4),
        // The honest bitboard under the same flags: trusted, exit 0.
        ("none", 4),
    ];
    for &(bug, depth) in table {
        let generator = if bug == "none" { "bitboard" } else { "planted" };
        let out = Command::new(env!("CARGO_BIN_EXE_xqdiff"))
            .args([
                "perft",
                "--generator",
                generator,
                "--hash",
                "1M",
                "--hash-seed",
                "1",
            ])
            .args(["--fen", "5k3/9/9/3R5/4c4/9/9/9/2np5/4K4 w - - 0 1"])
            .args(["--depth", &depth.to_string()])
            .env("XQDIFF_PLANTED_BUG", bug)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        if bug == "none" {
            assert_eq!(out.status.code(), Some(0), "{bug}: {stderr}");
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{bug}: {stdout} {stderr}");
        assert!(
            stderr.contains("hashed count is not trusted"),
            "{bug}: {stderr}"
        );
        assert!(
            !stdout.contains("nodes"),
            "{bug}: a total was printed: {stdout}"
        );
    }
}
