//! The Rust route (`xqdiff::subject::library`): a crate with one board changed in place
//! over `&mut self`, with or without an unmake, and never `Clone`, is checked in one
//! call under the rules, comparison and known bugs `xqdiff engine` takes; a planted bug
//! is found through it, and the settings are honoured.

use xqdiff::diff::finding::Known;
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::position::Setup;
use xqdiff::subject::library::{check_library, Library, LibraryCheck, LibraryError};
use xqdiff::subject::rules::{Compare, Rules};
use xqdiff::subject::SubjectError;
use xqdiff::{Generator, Move, Position};

/// A crate with internal state: one board, a history of the boards before, and
/// counters of what it was asked. Deliberately not `Clone`. With `unmake` false it
/// cannot take a move back, and the harness must set it again from the FEN.
struct Stateful {
    rules: Planted,
    board: Option<Position>,
    history: Vec<Position>,
    can_unmake: bool,
    king_capture: bool,
    sets: u64,
    makes: u64,
}

impl Stateful {
    fn new(bug: Bug) -> Stateful {
        Stateful {
            rules: Planted::new(bug),
            board: None,
            history: Vec::new(),
            can_unmake: true,
            king_capture: false,
            sets: 0,
            makes: 0,
        }
    }
}

impl Library for Stateful {
    fn set_position(&mut self, fen: &str) -> Result<(), String> {
        self.sets += 1;
        self.history.clear();
        self.board = Some(Position::from_fen(fen).map_err(|e| e.to_string())?);
        Ok(())
    }
    fn legal_moves(&mut self) -> Vec<Move> {
        let Some(board) = &self.board else {
            return Vec::new();
        };
        let lists = self.rules.generate(board);
        if self.king_capture {
            lists.pseudo_legal
        } else {
            lists.legal
        }
    }
    fn make(&mut self, mv: Move) -> Result<(), String> {
        self.makes += 1;
        let board = self.board.take().ok_or("no board")?;
        let next = self.rules.play(&board, mv).map_err(|e| e.to_string())?;
        self.history.push(board);
        self.board = Some(next);
        Ok(())
    }
    fn unmake(&mut self) -> bool {
        if !self.can_unmake {
            return false;
        }
        match self.history.pop() {
            Some(before) => {
                self.board = Some(before);
                true
            }
            None => false,
        }
    }
}

fn quick() -> LibraryCheck {
    LibraryCheck {
        depth: 2,
        positions: 5,
        ..LibraryCheck::default()
    }
}

fn signatures(report: &xqdiff::subject::crosscheck::Report) -> Vec<String> {
    report
        .findings
        .iter()
        .map(|f| f.signature.to_string())
        .collect()
}

/// A crate that takes moves back is set from a FEN once a question and made and unmade
/// after; one that cannot is set again after every move, and both agree where they
/// should. A borrowed crate is left to its caller with its state.
#[test]
fn a_stateful_crate_with_or_without_unmake_is_checked_in_place() {
    for can_unmake in [true, false] {
        let mut lib = Stateful::new(Bug::None);
        lib.can_unmake = can_unmake;
        let report = check_library(&mut lib, &quick()).unwrap();
        assert!(
            report.all_agree(),
            "unmake {can_unmake}: {:?}",
            report.findings.first().map(|f| f.to_string())
        );
        assert!(
            report.checked.len() > 10,
            "{} targets",
            report.checked.len()
        );
        assert_eq!(report.subject, "Stateful");
        let questions = report.checked.len() as u64;
        if can_unmake {
            // One setting a question; the moves below are made and taken back.
            assert_eq!(lib.sets, questions, "makes {}", lib.makes);
        } else {
            // Set again after each move: once a question and once a move made.
            assert_eq!(lib.sets, questions + lib.makes, "makes {}", lib.makes);
        }
        assert!(lib.makes > questions, "makes {}", lib.makes);
    }
}

/// `fens` checks those positions alone, at the depth asked (how a witness is checked
/// again, and the bug is still found there); `time` checks fresh positions after the
/// fixed ones instead of random ones made beforehand.
#[test]
fn given_positions_alone_or_fresh_ones_for_a_time() {
    let fen = "4k4/9/9/4p4/9/4P4/9/4C4/9/3K5 w - - 0 1";
    let alone = LibraryCheck {
        depth: 2,
        fens: vec![Position::from_fen(fen).unwrap()],
        ..LibraryCheck::default()
    };
    let report = check_library(Stateful::new(Bug::None), &alone).unwrap();
    let checked: Vec<(&str, u32)> = (report.checked.iter())
        .map(|c| (c.fen.as_str(), c.depth))
        .collect();
    assert_eq!(checked, [(fen, 2)]);
    assert!(report.all_agree());
    let report = check_library(Stateful::new(Bug::CannonCannotCapture), &alone).unwrap();
    assert_eq!(signatures(&report), ["cause/subject/cannon-cannot-capture"]);
    // The call a finding prints to see it again is one that runs: its position and
    // depth, given to check_library, find the same bug.
    let call = report.findings[0]
        .trail()
        .expect("a subject finding")
        .found_by
        .to_string();
    let between = |open: &str, close: &str| {
        let start = call.find(open).map(|i| i + open.len());
        let text = start
            .map(|i| &call[i..])
            .unwrap_or_else(|| panic!("{call}"));
        text[..text.find(close).unwrap_or_else(|| panic!("{call}"))].to_owned()
    };
    let printed = LibraryCheck {
        fens: vec![Position::from_fen(&between("from_fen(\"", "\")")).unwrap()],
        depth: between("depth: ", ",").parse().unwrap(),
        ..LibraryCheck::default()
    };
    assert!(
        call.starts_with("xqdiff::subject::library::check_library("),
        "{call}"
    );
    let again = check_library(Stateful::new(Bug::CannonCannotCapture), &printed).unwrap();
    assert_eq!(signatures(&again), signatures(&report), "{call}");

    let timed = LibraryCheck {
        depth: 1,
        time: Some(std::time::Duration::from_millis(300)),
        ..quick()
    };
    let report = check_library(Stateful::new(Bug::None), &timed).unwrap();
    let labels: Vec<&str> = report.checked.iter().map(|c| c.label.as_str()).collect();
    assert!(labels.iter().any(|l| l.starts_with("fresh ")), "{labels:?}");
    assert!(
        !labels.iter().any(|l| l.starts_with("random ")),
        "{labels:?}"
    );
    assert_eq!(labels.first(), Some(&"start"));
    assert!(report.all_agree());
}

/// A planted bug is found through the Rust route, minimized to a few pieces, with its
/// cause; the same bug listed as known is reported as known and fails nothing; a crate
/// without an unmake gives the same finding.
#[test]
fn a_planted_bug_is_found_and_known_bugs_step_aside() {
    for can_unmake in [true, false] {
        let mut lib = Stateful::new(Bug::CannonCannotCapture);
        lib.can_unmake = can_unmake;
        let report = check_library(&mut lib, &quick()).unwrap();
        assert_eq!(signatures(&report), ["cause/subject/cannon-cannot-capture"]);
        let f = &report.findings[0];
        let small = f.minimized().expect("reproduced");
        assert!(small.pieces().count() <= 4, "{f}");
        assert!(!report.all_agree());
    }
    let known = LibraryCheck {
        known: Known::parse("cause/subject/cannon-cannot-capture planted\n").unwrap(),
        ..quick()
    };
    let report = check_library(Stateful::new(Bug::CannonCannotCapture), &known).unwrap();
    assert_eq!(signatures(&report), ["cause/subject/cannon-cannot-capture"]);
    assert!(report.findings.iter().all(|f| f.known));
    assert_eq!(report.new_findings().count(), 0);
    assert!(report.failure.is_none());
    // Known, it does not stop a check limited to one new bug: a second bug is found.
    let limited = LibraryCheck {
        max_findings: 1,
        positions: 30,
        ..known
    };
    let two = Planted::with(&[Bug::CannonCannotCapture, Bug::HorseLegIgnored]);
    let mut lib = Stateful::new(Bug::None);
    lib.rules = two;
    let report = check_library(lib, &limited).unwrap();
    let sigs = signatures(&report);
    assert!(
        sigs.contains(&"cause/subject/horse-leg-ignored".to_owned()),
        "{sigs:?}"
    );
    assert_eq!(report.new_findings().count(), 1, "{sigs:?}");
}

/// A crate that lists moves into check: under the legal rules every difference is one
/// (what the suggestion to use king-capture rules rests on); under king-capture rules
/// it agrees and says how many it set aside; a real bug is still found there.
#[test]
fn king_capture_rules_through_the_rust_route() {
    let king_capture = |bug| {
        let mut lib = Stateful::new(bug);
        lib.king_capture = true;
        lib
    };
    let legal = check_library(king_capture(Bug::None), &quick()).unwrap();
    assert!(!legal.all_agree());
    assert!(legal.only_moves_into_check(), "{:?}", signatures(&legal));
    assert!(legal.set_aside.is_none());

    let rules = LibraryCheck {
        rules: Rules::KingCapture,
        ..quick()
    };
    let fine = check_library(king_capture(Bug::None), &rules).unwrap();
    assert!(fine.all_agree(), "{:?}", signatures(&fine));
    let set = fine.set_aside.as_ref().expect("a tally");
    assert!(set.moves > 0 && set.positions > 0 && set.positions <= set.lists);
    assert!(!set.examples.is_empty());
    assert!(set.to_string().contains("set aside"), "{set}");
    assert_eq!(set.available, set.moves, "it lists every move into check");
    // A crate that follows the legal rules lists none, and is told so.
    let legal_crate = check_library(Stateful::new(Bug::None), &rules).unwrap();
    let set = legal_crate.set_aside.as_ref().expect("a tally");
    assert_eq!(set.moves, 0);
    assert!(set.available > 0);
    assert!(set.to_string().contains("it listed none of the"), "{set}");

    for (bug, sig) in [
        (
            Bug::CannonCannotCapture,
            "cause/subject/cannon-cannot-capture",
        ),
        (Bug::KingLeavesPalace, "cause/subject/king-leaves-palace"),
    ] {
        let buggy = check_library(king_capture(bug), &rules).unwrap();
        assert_eq!(signatures(&buggy), [sig]);
        assert!(!buggy.only_moves_into_check());
    }
    // A legal crate's real bug is never suggested away.
    let real = check_library(Stateful::new(Bug::CannonCannotCapture), &quick()).unwrap();
    assert!(!real.only_moves_into_check());
}

/// Settings that do not go together are refused before anything runs; a comparison
/// the crate cannot serve is its failure, said in words.
#[test]
fn the_comparison_needs_what_it_asks_for() {
    let both = LibraryCheck {
        rules: Rules::KingCapture,
        compare: Compare::PseudoLegal,
        ..quick()
    };
    assert!(matches!(
        check_library(Stateful::new(Bug::None), &both),
        Err(LibraryError::Mode(_))
    ));
    let pseudo = LibraryCheck {
        compare: Compare::PseudoLegal,
        ..quick()
    };
    let report = check_library(Stateful::new(Bug::None), &pseudo).unwrap();
    let failure = report.failure.as_ref().expect("a failure");
    assert!(
        matches!(failure.error, SubjectError::Unsupported { .. }),
        "{}",
        failure.error
    );
}

/// A crate that offers its pseudo-legal moves and a check test after a move is
/// compared on both: right, it agrees; a pseudo-legal list with a planted bug is found.
#[test]
fn pseudo_legal_lists_and_the_check_test_are_each_checked() {
    /// Boards as set-ups, so a move into check can be made; not `Clone`.
    struct Pseudo {
        rules: Planted,
        boards: Vec<Setup>,
    }
    impl Pseudo {
        fn position(&self) -> Option<Position> {
            Position::new(self.boards.last()?.clone()).ok()
        }
    }
    impl Library for Pseudo {
        fn set_position(&mut self, fen: &str) -> Result<(), String> {
            let pos = Position::from_fen(fen).map_err(|e| e.to_string())?;
            self.boards = vec![pos.setup().clone()];
            Ok(())
        }
        fn legal_moves(&mut self) -> Vec<Move> {
            self.position()
                .map_or_else(Vec::new, |p| self.rules.generate(&p).legal)
        }
        fn make(&mut self, mv: Move) -> Result<(), String> {
            let mut setup = self.boards.last().ok_or("no board")?.clone();
            let piece = setup.board[mv.from.index()].take();
            setup.board[mv.to.index()] = piece;
            setup.turn = setup.turn.other();
            self.boards.push(setup);
            Ok(())
        }
        fn unmake(&mut self) -> bool {
            self.boards.len() > 1 && self.boards.pop().is_some()
        }
        fn pseudo_legal_moves(&mut self) -> Option<Vec<Move>> {
            Some(self.rules.generate(&self.position()?).pseudo_legal)
        }
        fn mover_in_check(&mut self) -> Option<bool> {
            let board = self.boards.last()?;
            let mover = board.turn.other();
            Some(board.kings_facing() || !board.checkers(mover).is_empty())
        }
    }
    let pseudo = LibraryCheck {
        compare: Compare::PseudoLegal,
        ..quick()
    };
    let new = |bug| Pseudo {
        rules: Planted::new(bug),
        boards: Vec::new(),
    };
    let report = check_library(new(Bug::None), &pseudo).unwrap();
    assert!(report.all_agree(), "{:?}", signatures(&report));
    let buggy = check_library(new(Bug::HorseLegIgnored), &pseudo).unwrap();
    assert_eq!(signatures(&buggy), ["cause/subject/horse-leg-ignored"]);
}
