//! Proof that the harness catches bugs: a generator with one planted bug (a wrapper
//! around the naive generator that adds or drops moves the way a typical rule bug
//! would, or answers wrongly the way a typical engine bug does) must be found by the
//! campaign within a few thousand cases, named as the odd one out, and minimized to at
//! most five pieces, kings included.

use std::sync::atomic::AtomicBool;
use xqdiff::campaign::{self, Config, Source};
use xqdiff::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
use xqdiff::oracle::CheckKind;
use xqdiff::planted::{Bug, Planted};
use xqdiff::{Color, Engine, MoveGen, Piece, Role};

/// Each planted bug and the check that must catch it first: the rule bugs change the
/// move sets; the others are seen only by comparing every answer.
const EXPECTED: &[(Bug, &[CheckKind])] = &[
    (Bug::CannonCannotCapture, &[CheckKind::PseudoLegal]),
    (Bug::HorseLegIgnored, &[CheckKind::PseudoLegal]),
    (Bug::ElephantCrossesRiver, &[CheckKind::PseudoLegal]),
    (Bug::ElephantEyeIgnored, &[CheckKind::PseudoLegal]),
    (Bug::PawnSidewaysBeforeRiver, &[CheckKind::PseudoLegal]),
    (Bug::KingLeavesPalace, &[CheckKind::PseudoLegal]),
    (Bug::RookJumpsOne, &[CheckKind::PseudoLegal]),
    (Bug::HorseTakesHorseTwice, &[CheckKind::ListedTwice]),
    (
        Bug::CountShortInDoubleCheck,
        &[CheckKind::Count, CheckKind::CountAfter],
    ),
    (
        Bug::InCheckMissesDoubleCheck,
        &[CheckKind::InCheck, CheckKind::GivesCheck],
    ),
    (
        Bug::UnmakeForgetsPawnSlot,
        &[CheckKind::ReusedBoard, CheckKind::CountAfter],
    ),
    (
        Bug::ReadBackSaysRedToMove,
        &[CheckKind::RoundTrip, CheckKind::AfterMake],
    ),
    (Bug::CapturedMissesPawn, &[CheckKind::Captured]),
    (Bug::MakeTicksClock, &[CheckKind::AfterMake]),
    (Bug::UnmakeBringsBackHorseAsPawn, &[CheckKind::Unmake]),
    (Bug::MakeForgetsKingSlot, &[CheckKind::WalkedBoard]),
];

#[test]
fn every_planted_bug_is_found_and_minimized() {
    assert_eq!(EXPECTED.len(), Bug::ALL.len(), "every bug has a row");
    let mut summary = Vec::new();
    for &(bug, checks) in EXPECTED {
        let planted = Planted(bug);
        let engines: Vec<&dyn Engine> = vec![&MailboxGen, &BitboardGen, &planted];
        let config = Config {
            seed: 11,
            cases: Some(4000),
            duration: None,
            source: Source::Both,
            stop_on_first: true,
            ..Config::default()
        };
        let report = campaign::run(&config, &engines, &AtomicBool::new(false), &|_, _| {});
        let f = report
            .findings
            .first()
            .unwrap_or_else(|| panic!("{bug:?} not found in {} cases", report.cases));
        let pieces = f.minimized.pieces().count();
        summary.push(format!(
            "{bug:?}: case {}, {} {} -> {pieces} pieces: {}",
            f.case,
            f.disagreement.check,
            f.original.pieces().count(),
            f.minimized.fen()
        ));
        assert_eq!(
            f.disagreement.odd_one_out.as_deref(),
            Some("planted"),
            "{bug:?}: {}",
            f.disagreement
        );
        assert!(
            checks.contains(&f.disagreement.check),
            "{bug:?} caught by {} rather than {checks:?}: {}",
            f.disagreement.check,
            f.disagreement
        );
        assert!(
            pieces <= 5,
            "{bug:?} minimized only to {pieces} pieces: {}",
            f.minimized.fen()
        );
    }
    println!("{}", summary.join("\n"));
}

/// The wrapper without a bug uses MoveGen's default `legal` and `captured` and its own
/// piece list; the published counts hold them to the rules.
#[test]
fn trait_defaults_reproduce_published_counts() {
    let g = Planted(Bug::None);
    let start = xqdiff::Position::startpos();
    assert_eq!(xqdiff::perft::perft(&g, &mut g.load(&start), 3), 79_666);
    let mated = xqdiff::Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b").unwrap();
    let probe = g.probe(&mated);
    assert!(probe.in_check && probe.legal.is_empty());
    let capture = xqdiff::Position::from_fen("4k4/9/9/9/9/9/9/9/9/R1nK5 w").unwrap();
    let taken: Vec<_> = g
        .probe(&capture)
        .legal
        .iter()
        .filter_map(|l| l.captured)
        .collect();
    assert_eq!(taken, vec![Piece::new(Color::Black, Role::Horse)]);
}
