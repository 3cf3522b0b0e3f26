//! The engine check with in-process subjects: every planted rule bug is found from a
//! root position, followed down, reproduced from a FEN alone and minimized to a few
//! pieces, with the right moves on each side; a correct generator agrees with counts; a
//! bug in a subject's make shows only from the parent; a subject that prints only totals
//! is still caught. Also the perft auto-descent among the built-ins ([`descent::explain`]).

use std::collections::{BTreeMap, BTreeSet};
use xqdiff::diff::corpus::{load_dir, replay, Case};
use xqdiff::diff::descent;
use xqdiff::diff::finding::{Findings, Settings};
use xqdiff::diff::oracle::{check_position, CheckKind};
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::generators::{mailbox::MailboxGen, naive::NaiveGen, registry};
use xqdiff::subject::crosscheck::{self, targets, Comparison, Options, Report, Target, Verdict};
use xqdiff::subject::{Divide, DivideReply, InProcess, Subject, SubjectError};
use xqdiff::{Generator, Move, Position};

mod util;
use util::Scratch;

/// A subject that prints only totals, as an xboard engine without divide does.
struct TotalsOnly<S>(S);

impl<S: Subject> Subject for TotalsOnly<S> {
    fn name(&self) -> String {
        format!("{} (totals only)", self.0.name())
    }
    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        let d = self.0.divide(root, path, depth)?;
        Ok(Divide {
            per_move: None,
            total: d.total,
        })
    }
}

fn play(pos: &Position, mv: Move) -> Position {
    MailboxGen.play(pos, mv).unwrap_or_else(|e| panic!("{e}"))
}

fn after_moves(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for mv in moves.split_whitespace() {
        pos = play(&pos, mv.parse().unwrap());
    }
    pos
}

/// Moves one divide has and the other lacks, with the first's counts.
fn only(a: &[(Move, u64)], b: &[(Move, u64)]) -> Vec<(Move, u64)> {
    let b: BTreeSet<Move> = b.iter().map(|&(m, _)| m).collect();
    let mut out: Vec<(Move, u64)> = a.iter().copied().filter(|(m, _)| !b.contains(m)).collect();
    out.sort();
    out
}

/// Checks a comparison against the two generators' own divides at `pos`: the moves
/// only one side has are exactly those, with their counts. A totals-only subject
/// cannot name its extra moves, but its total must exceed what it named by their counts.
fn assert_only_in(
    c: &Comparison,
    pos: &Position,
    subject: &dyn Generator,
    named: bool,
    what: &str,
) {
    let theirs = subject.divide(pos, c.depth, false, None);
    let ours = MailboxGen.divide(pos, c.depth, false, None);
    let expected_subject_only = only(&theirs, &ours);
    assert_eq!(
        c.only_consensus,
        only(&ours, &theirs),
        "{what}: {}\n{c}",
        pos.fen()
    );
    if named {
        assert_eq!(
            c.only_subject,
            expected_subject_only,
            "{what}: {}\n{c}",
            pos.fen()
        );
    } else {
        assert!(c.only_subject.is_empty(), "{what}: {c}");
        let extra: u64 = expected_subject_only.iter().map(|&(_, n)| n).sum();
        assert_eq!(c.unnamed(), extra, "{what}: {}\n{c}", pos.fen());
    }
}

fn run(subject: &mut dyn Subject, targets: &[Target], options: &Options<'_>) -> Report {
    crosscheck::check(subject, &registry(), targets, options).expect("check starts")
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Every planted bug, per-move and totals-only, from the start position or (for bugs
/// that need a piece moved twice first) two plies in, at depth 3.
#[test]
fn every_planted_bug_is_found_minimized_and_filed() {
    // An elephant needs two moves to reach the river and a king two to reach its
    // palace's edge: five plies from the start. Two plies in, three are enough.
    let table: &[(Bug, &str)] = &[
        (Bug::CannonCannotCapture, ""),
        (Bug::HorseLegIgnored, ""),
        (Bug::ElephantCrossesRiver, "c0e2 c9e7"),
        (Bug::ElephantEyeIgnored, ""),
        (Bug::PawnSidewaysBeforeRiver, ""),
        (Bug::KingLeavesPalace, "e0e1 e9e8"),
        (Bug::RookJumpsOne, ""),
    ];
    let dir = Scratch::new("planted");
    let mut summary = Vec::new();
    for &(bug, moves) in table {
        for named in [true, false] {
            let planted = Planted::new(bug);
            let root = after_moves(START, moves);
            let target = Target {
                label: format!("start {moves}"),
                position: root.clone(),
                depth: 3,
            };
            let what = format!("{bug:?} named={named}");
            let save = dir.dir().join(bug.as_str());
            let options = Options {
                subject_dir: Some(save.clone()),
                max_findings: 1,
                found_by: "tests/crosscheck.rs".into(),
                ..Options::default()
            };
            let report = if named {
                run(&mut InProcess::new(&planted), &[target], &options)
            } else {
                run(
                    &mut TotalsOnly(InProcess::new(&planted)),
                    &[target],
                    &options,
                )
            };
            assert!(report.failure.is_none(), "{what}: {:?}", report.failure);
            assert_eq!(report.checked[0].verdict, Verdict::Differs, "{what}");
            let f = report
                .findings
                .first()
                .unwrap_or_else(|| panic!("{what}: not found"));
            let t = f.trail().expect("a subject finding");

            // The path is playable and ends where the finding says, with the sets
            // differing there exactly as the two generators' own divides do.
            let mut pos = root.clone();
            for &mv in &t.path {
                pos = play(&pos, mv);
            }
            assert_eq!(pos, t.position, "{what}");
            assert_eq!(t.comparison.depth as usize, 3 - t.path.len(), "{what}");
            assert!(t.comparison.sets_differ(), "{what}: {}", t.comparison);
            assert_only_in(&t.comparison, &t.position, &planted, named, &what);

            let r = t
                .reproduction
                .as_ref()
                .unwrap_or_else(|| panic!("{what}: no reproduction"));
            // A rule bug is a move-generation bug: it shows from the FEN where the sets
            // differ, at depth 1.
            assert_eq!((r.ply, r.depth), (t.path.len(), 1), "{what}");
            let pieces = r.minimized.pieces().count();
            assert!(
                pieces <= 5,
                "{what}: {pieces} pieces: {}",
                r.minimized.fen()
            );
            let c = r
                .comparison
                .as_ref()
                .expect("comparison at the minimized position");
            assert!(c.differs(), "{what}: {c}");
            assert_eq!(c.depth, r.depth);
            assert_only_in(c, &r.minimized, &planted, named, &what);
            let mut expected = MailboxGen.divide(&r.minimized, r.depth, false, None);
            expected.sort();
            assert_eq!(r.expected, expected, "{what}");

            // Filed under its own folder, readable, and the built-ins meet its expectations.
            let file = f
                .file
                .as_ref()
                .unwrap_or_else(|| panic!("{what}: not saved"));
            let case = Case::parse(&std::fs::read_to_string(file).unwrap(), file).unwrap();
            assert_eq!(case.position, r.minimized, "{what}");
            assert_eq!(case.note("engine"), Some(report.subject.as_str()));
            assert_eq!(case.note("depth"), Some(r.depth.to_string().as_str()));
            let replayed = replay(&save, &registry()).unwrap();
            assert!(
                replayed.failures.is_empty() && replayed.unmet.is_empty(),
                "{what}: {:?} {:?}",
                replayed.failures,
                replayed.unmet
            );
            summary.push(format!(
                "{what}: path [{}], reproduced at ply {} depth {}, {pieces} pieces: {}",
                t.path
                    .iter()
                    .map(Move::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
                r.ply,
                r.depth,
                r.minimized.fen()
            ));
        }
    }
    println!("{}", summary.join("\n"));
}

/// The naive generator, answering per move and totals-only, agrees with the consensus
/// everywhere; the report's counts are the built-ins' own perft counts.
#[test]
fn a_correct_generator_agrees_with_counts() {
    let suite = xqdiff::epd::parse_suite(xqdiff::epd::REFERENCE_SUITE).unwrap();
    let mut list = vec![targets::start(3)];
    list.extend(targets::suite(&suite, 3, Some(20_000)));
    list.extend(targets::random(5, 4, 2, &registry()));
    for named in [true, false] {
        let report = if named {
            run(&mut InProcess::new(&NaiveGen), &list, &Options::default())
        } else {
            run(
                &mut TotalsOnly(InProcess::new(&NaiveGen)),
                &list,
                &Options::default(),
            )
        };
        assert!(report.all_agree(), "named={named}: {report:?}");
        assert_eq!(report.checked.len(), list.len());
        let mut nodes = 0;
        for (c, t) in report.checked.iter().zip(&list) {
            let expected = MailboxGen.perft(&t.position, t.depth);
            assert_eq!(
                (c.consensus_total, c.subject_total),
                (expected, expected),
                "{}",
                t.label
            );
            assert_eq!(c.depth, t.depth);
            nodes += expected;
        }
        assert_eq!(report.nodes_compared(), nodes);
    }
}

/// A subject whose make turns a capture into a swap: the captured piece lands where
/// the capturing piece stood (when that leaves a valid position; otherwise the capture
/// is made properly). Its move generation is right, so from any FEN alone at depth 1
/// it agrees; the bug shows only when it plays a capture itself.
struct SwapOnCapture;

impl SwapOnCapture {
    fn make(pos: &Position, mv: Move) -> Result<Position, SubjectError> {
        let mut s = pos.setup().clone();
        let mover = s.board[mv.from.index()].take();
        let taken = std::mem::replace(&mut s.board[mv.to.index()], mover);
        s.turn = s.turn.other();
        let right = Position::new(s.clone());
        s.board[mv.from.index()] = taken;
        Position::new(s)
            .or(right)
            .map_err(|e| SubjectError::Refused {
                what: format!("{mv} on {}", pos.fen()),
                reason: e.to_string(),
            })
    }

    fn perft(pos: &Position, depth: u32) -> Result<u64, SubjectError> {
        let legal = MailboxGen.probe(pos).legal_moves();
        if depth <= 1 {
            return Ok(legal.len() as u64);
        }
        legal
            .into_iter()
            .map(|mv| Self::perft(&Self::make(pos, mv)?, depth - 1))
            .sum()
    }
}

impl Subject for SwapOnCapture {
    fn name(&self) -> String {
        "swap-on-capture".into()
    }
    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        let mut pos = root.clone();
        for &mv in path {
            pos = Self::make(&pos, mv)?;
        }
        let per_move = MailboxGen
            .probe(&pos)
            .legal_moves()
            .into_iter()
            .map(|mv| match depth {
                // The last ply is counted, not played, as real engines do.
                1 => Ok((mv, 1)),
                _ => Ok((mv, Self::perft(&Self::make(&pos, mv)?, depth - 1)?)),
            })
            .collect::<Result<Vec<_>, SubjectError>>()?;
        let total = per_move.iter().map(|&(_, n)| n).sum();
        Ok(Divide {
            per_move: Some(per_move),
            total,
        })
    }
}

/// From the start at depth 3 the descent ends two plies down, after the subject's own
/// capture; that position's FEN alone shows nothing at depth 1, so the reproduction
/// walks up to its parent, where depth 2 includes the capture.
#[test]
fn a_make_bug_reproduces_from_the_parent_at_depth_2() {
    let report = run(
        &mut SwapOnCapture,
        &[targets::start(3)],
        &Options::default(),
    );
    assert!(report.failure.is_none(), "{:?}", report.failure);
    let f = report.findings.first().expect("found");
    let t = f.trail().expect("a subject finding");
    assert_eq!(t.path.len(), 2, "{:?} {:?}", t.path, t.note);
    assert!(!t.comparison.only_subject.is_empty(), "{}", t.comparison);
    let r = t.reproduction.as_ref().expect("reproduced");
    assert_eq!((r.ply, r.depth), (t.path.len() - 1, 2));
    assert_eq!(r.from, after_moves(START, &t.path[0].to_string()));
    assert!(r.minimized.pieces().count() <= 5, "{}", r.minimized.fen());
    // From the minimized FEN at depth 1 it is right, at depth 2 it is not.
    let mut s = SwapOnCapture;
    let mut at = |d| s.divide(&r.minimized, &[], d).unwrap().total;
    let (one, two) = (at(1), at(2));
    assert_eq!(one, MailboxGen.perft(&r.minimized, 1));
    assert_ne!(two, MailboxGen.perft(&r.minimized, 2));
}

/// A subject that stops being able to answer mid-check: the finding made so far is
/// kept, the failure is reported, and the minimization does not keep asking.
struct DiesAfter<S> {
    inner: S,
    answers: usize,
    asked_after_death: usize,
}

impl<S: Subject> Subject for DiesAfter<S> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        if self.answers == 0 {
            self.asked_after_death += 1;
            return Err(SubjectError::Exited {
                request: format!("perft {depth}"),
                status: "exit status: 3".into(),
                last: vec!["bye".into()],
            });
        }
        self.answers -= 1;
        self.inner.divide(root, path, depth)
    }
}

#[test]
fn a_dying_subject_stops_the_check_with_its_error() {
    let planted = Planted::new(Bug::CannonCannotCapture);
    // Enough answers to find and descend, too few to finish minimizing.
    let mut subject = DiesAfter {
        inner: InProcess::new(&planted),
        answers: 5,
        asked_after_death: 0,
    };
    let report = run(
        &mut subject,
        &[targets::start(2), targets::start(1)],
        &Options::default(),
    );
    let failure = report.failure.as_ref().expect("failure reported");
    assert!(
        matches!(failure.error, SubjectError::Exited { .. }),
        "{}",
        failure.error
    );
    assert!(failure.error.to_string().contains("bye"));
    assert_eq!(report.findings.len(), 1);
    let r = report.findings[0]
        .trail()
        .and_then(|t| t.reproduction.as_ref())
        .expect("reproduced before it died");
    assert!(r.comparison.is_none());
    assert_eq!(
        report.checked.len(),
        1,
        "the second target is not asked about"
    );
    assert_eq!(subject.asked_after_death, 1);
}

/// `xqdiff perft`'s auto-descent: two generators that disagree at some depth are
/// followed to the position where their move sets differ, minimized, and filed.
#[test]
fn perft_disagreement_descends_minimizes_and_saves() {
    let table: &[(Bug, &str, u32)] = &[
        (Bug::CannonCannotCapture, "", 2),
        (Bug::HorseLegIgnored, "", 2),
        (Bug::ElephantCrossesRiver, "c0e2 c9e7", 3),
        (Bug::ElephantEyeIgnored, "", 3),
        (Bug::PawnSidewaysBeforeRiver, "", 2),
        (Bug::KingLeavesPalace, "e0e1 e9e8", 3),
        (Bug::RookJumpsOne, "", 2),
    ];
    let dir = Scratch::new("perft");
    for &(bug, moves, depth) in table {
        let planted = Planted::new(bug);
        let engines: Vec<&dyn Generator> = vec![&MailboxGen, &planted];
        let root = after_moves(START, moves);
        assert_ne!(
            MailboxGen.perft(&root, depth),
            planted.perft(&root, depth),
            "{bug:?}"
        );
        let mut findings = Findings::new(Settings {
            save: Some(dir.to_path_buf()),
            ..Settings::default()
        });
        let index = descent::explain_into(&mut findings, 0, &root, depth, &engines, None, None)
            .unwrap_or_else(|| panic!("{bug:?}: no descent"));
        let f = findings.list()[index].clone();
        let a = f.among().expect("a finding among the built-ins");
        let (from, path) = a.origin.path.clone().expect("a descent has a path");
        assert_eq!(from, root, "{bug:?}");
        let mut pos = root.clone();
        for &mv in &path {
            pos = play(&pos, mv);
        }
        assert_eq!(pos, a.origin.position, "{bug:?}");
        assert!(
            a.minimized.pieces().count() <= 5,
            "{bug:?}: {}",
            a.minimized.fen()
        );
        assert_eq!(a.disagreement.position, a.minimized);
        // The moves each side has at the minimized position are the generators' own.
        if a.disagreement.check == CheckKind::Legal {
            let planted_legal = planted.probe(&a.minimized).legal_moves();
            for o in &a.disagreement.only_in {
                let has_planted = o.has.iter().any(|h| h == "planted");
                assert_eq!(
                    has_planted,
                    planted_legal.contains(&o.mv),
                    "{bug:?} {}",
                    o.mv
                );
            }
        }
        let file = f.file.clone().expect("saved");
        let case = Case::parse(&std::fs::read_to_string(&file).unwrap(), &file).unwrap();
        assert_eq!(case.position, a.minimized);
        let path: Vec<String> = path.iter().map(Move::to_string).collect();
        let path = if path.is_empty() {
            "(root)".to_owned()
        } else {
            path.join(" ")
        };
        assert_eq!(case.note("path"), Some(path.as_str()));
        assert_eq!(case.note("perft-root"), Some(root.fen().as_str()));
        let still: Vec<_> = check_position(&case.position, &engines);
        assert!(
            still.iter().any(|d| d.same_kind(&a.disagreement)),
            "{bug:?}"
        );
    }
    // The corpus they were saved to replays clean on the correct generators.
    let r = replay(dir.dir(), &registry()).unwrap();
    assert_eq!(r.replayed, table.len());
    assert!(r.failures.is_empty() && r.unmet.is_empty() && r.damaged.is_empty());
}

/// Findings about an external engine live under `external/<name>/`, which a replay of
/// the corpus does not read, so someone else's bug never fails our regression run.
#[test]
fn external_findings_stay_out_of_the_corpus_replay() {
    let corpus = Scratch::new("external");
    let planted = Planted::new(Bug::PawnSidewaysBeforeRiver);
    let mut subject = InProcess::new(&planted);
    let dir = crosscheck::external_dir(corpus.dir(), &subject.name());
    let options = Options {
        subject_dir: Some(dir.clone()),
        ..Options::default()
    };
    let report = run(&mut subject, &[targets::start(1)], &options);
    let file = report.findings[0].file.clone().expect("saved");
    assert!(
        file.starts_with(corpus.dir().join("external")),
        "{}",
        file.display()
    );
    let top = replay(corpus.dir(), &registry()).unwrap();
    assert_eq!((top.replayed, top.failures.len()), (0, 0));
    assert_eq!(load_dir(&dir).unwrap().cases.len(), 1);

    let names: BTreeMap<&str, &str> = [
        ("Fairy-Stockfish 14.0.1 LB", "fairy-stockfish-14.0.1-lb"),
        ("../../etc", "etc"),
        ("", "engine"),
    ]
    .into_iter()
    .collect();
    for (name, slug) in names {
        assert_eq!(
            crosscheck::external_dir(corpus.dir(), name),
            corpus.dir().join("external").join(slug)
        );
    }
}

/// When the consensus engines disagree among themselves there is nothing to hold the
/// subject to: that is reported as a disagreement among ours, followed down, minimized
/// and filed in the corpus proper, and the subject is not blamed.
#[test]
fn a_split_consensus_is_reported_as_ours() {
    let dir = Scratch::new("ours");
    let planted = Planted::new(Bug::RookJumpsOne);
    let consensus: Vec<&dyn Generator> = vec![&MailboxGen, &planted];
    let options = Options {
        corpus: Some(dir.to_path_buf()),
        subject_dir: Some(dir.dir().join("external")),
        ..Options::default()
    };
    let report = crosscheck::check(
        &mut InProcess::new(&NaiveGen),
        &consensus,
        &[targets::start(2)],
        &options,
    )
    .unwrap();
    assert!(report.findings.is_empty() && report.failure.is_none());
    assert_eq!(report.checked[0].verdict, Verdict::OursDisagree);
    let ours = report.ours.first().expect("reported");
    let f = ours.finding.as_ref().expect("descended");
    let small = f.minimized().expect("minimized");
    assert!(small.pieces().count() <= 5, "{}", small.fen());
    let file = f.file.as_ref().expect("saved");
    assert_eq!(file.parent(), Some(dir.dir()));
    let failing = replay(dir.dir(), &consensus).unwrap();
    assert_eq!(failing.failures.len(), 1);
}

/// Lists one move twice whenever the side to move has exactly one legal answer, as
/// Sjaak II 1.4.1 does in a double check; otherwise answers as the naive generator.
struct RepeatsOnlyAnswer;

impl Subject for RepeatsOnlyAnswer {
    fn name(&self) -> String {
        "repeats-only-answer".into()
    }
    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        let mut d = InProcess::new(&NaiveGen).divide(root, path, depth)?;
        if let Some(list) = d.per_move.as_mut() {
            if list.len() == 1 {
                list.push(list[0]);
                d.total += list[0].1;
            }
        }
        Ok(d)
    }
}

/// A move listed twice is named as such, at the depth where it happens and in the
/// minimized position, rather than only seen as a count that is too high.
#[test]
fn a_move_listed_twice_is_named() {
    // Black is in check from the rook with one answer: the king to e9 (d8 is on the
    // rook's file, and the red king is on f0, not facing e9).
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3R1K3 b - - 0 1").unwrap();
    let mut subject = RepeatsOnlyAnswer;
    let options = Options {
        corpus: None,
        ..Options::default()
    };
    let target = Target {
        label: "one answer".into(),
        position: pos.clone(),
        depth: 1,
    };
    let report = run(&mut subject, &[target], &options);
    let f = report.findings.first().expect("the repeated move is found");
    let f = f.trail().expect("a subject finding");
    let only_answer = InProcess::new(&NaiveGen).divide(&pos, &[], 1).unwrap();
    let mv = only_answer.per_move.unwrap()[0].0;
    assert_eq!(
        f.comparison.listed_more_than_once,
        vec![(mv, 2)],
        "{}",
        f.comparison
    );
    assert!(f.comparison.to_string().contains(&format!("{mv} twice")));
}

/// Random positions are held to the node budget by their own perft, and none is a game
/// that already ended.
#[test]
fn random_targets_keep_to_the_budget_and_have_moves() {
    let gens = registry();
    let sources = targets::Sources {
        suite: &[],
        corpus: Vec::new(),
        depth: 4,
        max_nodes: Some(2_000),
        random: 12,
        seed: 3,
    };
    let list = targets::all(&sources, &gens);
    let randoms: Vec<_> = list
        .iter()
        .filter(|t| t.label.starts_with("random"))
        .collect();
    assert_eq!(randoms.len(), 12);
    for t in randoms {
        let nodes = gens[0].perft(&t.position, t.depth);
        assert!(
            nodes <= 2_000 || t.depth == 1,
            "{}: {nodes} at depth {}",
            t.label,
            t.depth
        );
        assert!(
            gens[0].perft(&t.position, 1) > 0,
            "{}: no legal move",
            t.label
        );
    }
}
