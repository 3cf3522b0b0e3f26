//! The external-engine driver against xqdiff's own test engine (every fault it can
//! play, agreement in every protocol and notation, a planted bug) and, when they are
//! installed, against Fairy-Stockfish (UCI, ranks from 1) and Sjaak II (xboard, H/E).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use xqdiff::epd::{parse_suite, REFERENCE_SUITE};
use xqdiff::generators::{naive::NaiveGen, registry};
use xqdiff::subject::external::{EngineConfig, ExternalEngine, FenLetters, Protocol, Ranks};
use xqdiff::subject::{Divide, InProcess, Subject, SubjectError};
use xqdiff::{Generator, Move, Position};
mod util;
use util::{gone, TEST_ENGINE};

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
const SJAAK: &str = "/usr/games/sjaakii";
const MAXQI: &str = "/usr/games/maxqi";
const HOIXIANGQI: &str = "/usr/games/hoixiangqi";

/// The timeout of the fault cases that wait one out (a hang, a missing handshake), and
/// how much longer they may take: the timeout is kept, not multiplied, though a busy
/// machine is slow to wake a waiting thread.
const FAULT_TIMEOUT: Duration = Duration::from_millis(1000);
const MARGIN: Duration = Duration::from_secs(4);

/// The timeout of the other fault cases: never reached, since they fail at once (and
/// must have failed within half of it).
const LONG_TIMEOUT: Duration = Duration::from_secs(60);

/// The test engine started as `spec` says: the protocol, then its switches.
fn test_engine(spec: &str, timeout: Duration) -> EngineConfig {
    let (protocol, args) = spec.split_once(' ').unwrap_or((spec, ""));
    EngineConfig {
        command: format!("'{TEST_ENGINE}' --protocol {protocol} {args}"),
        protocol: protocol.parse().unwrap(),
        options: Vec::new(),
        ranks: Ranks::Auto,
        fen_letters: FenLetters::Auto,
        timeout,
        start_timeout: None,
    }
}

fn variant(e: &SubjectError) -> &'static str {
    match e {
        SubjectError::Spawn { .. } => "Spawn",
        SubjectError::Handshake { .. } => "Handshake",
        SubjectError::Timeout { .. } => "Timeout",
        SubjectError::Exited { .. } => "Exited",
        SubjectError::Garbage { .. } => "Garbage",
        SubjectError::Refused { .. } => "Refused",
        SubjectError::Write { .. } => "Write",
        SubjectError::Unsupported { .. } => "Unsupported",
        SubjectError::Overrun { .. } => "Overrun",
        SubjectError::Stopped { .. } => "Stopped",
        SubjectError::OutOfTime { .. } => "OutOfTime",
        SubjectError::OutOfStep { .. } => "OutOfStep",
        SubjectError::Restarted { .. } => "Restarted",
        SubjectError::NotAsked { .. } => "NotAsked",
    }
}

fn moves(texts: &[&str]) -> Vec<Move> {
    texts.iter().map(|t| t.parse().unwrap()).collect()
}

fn pid_file(case: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "xqdiff-external-{}-{}.pid",
        std::process::id(),
        case.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
    ))
}

/// When a fault shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// `ExternalEngine::start` fails.
    Start,
    /// Start succeeds; perft 2 after `path` from the start fails.
    Question,
}

struct Fault {
    name: &'static str,
    /// The protocol, then the test engine's switches.
    engine: &'static str,
    /// Instead of the test engine.
    program: Option<&'static str>,
    fen_letters: FenLetters,
    path: &'static [&'static str],
    phase: Phase,
    expect: &'static str,
    /// A phrase the error's text must contain.
    says: &'static str,
}

const fn fault(
    name: &'static str,
    engine: &'static str,
    phase: Phase,
    expect: &'static str,
    says: &'static str,
) -> Fault {
    Fault {
        name,
        engine,
        program: None,
        fen_letters: FenLetters::Auto,
        path: &["h2e2"],
        phase,
        expect,
        says,
    }
}

use Phase::{Question, Start};

// The test engine counts every input line: a UCI start is `uci`, `isready`, `position`,
// `go perft 1`, `isready` (the ranks), then `position`, `go perft 1` (the letters); an
// xboard start is `xboard`, `protover 2`, `new`, `variant xiangqi`, `force`, `ping`,
// then twice `setboard`, `perft 1 1`, `ping`.
#[rustfmt::skip]
const FAULTS: &[Fault] = &[
    Fault { program: Some("/nonexistent/xqdiff-no-such-engine"),
        ..fault("nonexistent program", "uci", Start, "Spawn", "could not start") },
    fault("exits at once", "uci --crash-after 0", Start, "Exited", "exit status: 3"),
    fault("no handshake (uci)", "uci --no-handshake", Start, "Handshake", "no uciok"),
    fault("no handshake (ucci)", "ucci --no-handshake", Start, "Handshake", "no ucciok"),
    fault("no handshake (xboard)", "xboard --no-handshake", Start, "Handshake", "done=1"),
    fault("silent from the first line", "uci --hang-after 0", Start, "Handshake", "no uciok"),
    fault("crash while asked (uci)", "uci --crash-after 8", Question, "Exited", "exit status: 3"),
    fault("crash while asked (xboard)", "xboard --crash-after 14", Question, "Exited", "exit status: 3"),
    fault("hang while asked (uci)", "uci --hang-after 8", Question, "Timeout", "no answer"),
    fault("hang while asked (xboard)", "xboard --hang-after 14", Question, "Timeout", "no answer"),
    fault("garbage moves (uci)", "uci --garbage moves", Start, "Garbage", "is not a move"),
    fault("garbage counts (uci)", "uci --garbage counts", Start, "Garbage", "is not a count"),
    fault("garbage moves (xboard)", "xboard --garbage moves", Start, "Garbage", "is not a move"),
    fault("garbage counts (xboard totals)", "xboard --garbage counts --totals-only", Start, "Garbage", "is not a count"),
    fault("searching engine", "uci --search", Start, "Unsupported", "moves protocol"),
    fault("no setboard (xboard)", "xboard --no-setboard", Start, "Unsupported", "setboard=0"),
    Fault { fen_letters: FenLetters::NB,
        ..fault("refuses the FEN letters", "uci --fen-letters he", Start, "Refused", "unknown piece type 'N'") },
    Fault { path: &["h2e2", "a9a5"],
        ..fault("refuses a path move (uci)", "uci", Question, "Refused", "move a9a5") },
    Fault { path: &["a0a5"],
        ..fault("refuses a path move (xboard)", "xboard", Question, "Refused", "move a0a5") },
    // A moves-protocol start is the hello, then two `legal` requests (ranks, letters).
    fault("no handshake (moves)", "moves --no-handshake", Start, "Handshake", "no ok"),
    fault("exits at once (moves)", "moves --crash-after 0", Start, "Exited", "exit status: 3"),
    fault("silent from the first line (moves)", "moves --hang-after 0", Start, "Handshake", "no ok"),
    fault("crash while asked (moves)", "moves --crash-after 4", Question, "Exited", "exit status: 3"),
    fault("hang while asked (moves)", "moves --hang-after 4", Question, "Timeout", "no answer"),
    fault("garbage moves (moves)", "moves --garbage moves", Start, "Garbage", "is not a move"),
    Fault { fen_letters: FenLetters::NB,
        ..fault("refuses the FEN letters (moves)", "moves --fen-letters he", Start, "Refused", "unknown piece type 'N'") },
    Fault { path: &["h2e2", "a9a5"],
        ..fault("refuses a path move (moves)", "moves", Question, "Refused", "move a9a5") },
];

#[test]
fn every_fault_is_reported_in_time_and_leaves_no_process() {
    for f in FAULTS {
        let file = pid_file(f.name);
        let _ = std::fs::remove_file(&file);
        let engine = format!("{} --pid-file '{}'", f.engine, file.display());
        let waits = matches!(f.expect, "Timeout" | "Handshake");
        let timeout = if waits { FAULT_TIMEOUT } else { LONG_TIMEOUT };
        let mut config = test_engine(&engine, timeout);
        if let Some(program) = f.program {
            config.command = program.to_string();
        }
        config.fen_letters = f.fen_letters;
        let t = Instant::now();
        let started = ExternalEngine::start(&config);
        let (result, elapsed) = match (f.phase, started) {
            (Phase::Start, Err(e)) => (e, t.elapsed()),
            (Phase::Question, Ok(mut engine)) => {
                let t = Instant::now();
                let asked = engine.divide(&Position::startpos(), &moves(f.path), 2);
                let elapsed = t.elapsed();
                drop(engine);
                match asked {
                    Err(e) => (e, elapsed),
                    Ok(d) => panic!("{}: answered {} instead of failing", f.name, d.total),
                }
            }
            (phase, Ok(_)) => panic!("{}: started, expected a failure at {phase:?}", f.name),
            (phase, Err(e)) => panic!("{}: failed to start ({e}), expected {phase:?}", f.name),
        };
        let text = result.to_string();
        println!("{}: {} in {elapsed:.2?}: {text}", f.name, variant(&result));
        assert_eq!(variant(&result), f.expect, "{}: {text}", f.name);
        assert!(
            text.contains(f.says),
            "{}: {text:?} lacks {:?}",
            f.name,
            f.says
        );
        let limit = if waits {
            FAULT_TIMEOUT + MARGIN
        } else {
            LONG_TIMEOUT / 2
        };
        assert!(elapsed <= limit, "{}: took {elapsed:?}", f.name);
        if f.program.is_none() {
            let pid: u32 = std::fs::read_to_string(&file)
                .unwrap_or_else(|e| panic!("{}: no pid file: {e}", f.name))
                .trim()
                .parse()
                .unwrap();
            assert!(gone(pid), "{}: process {pid} is still there", f.name);
            let _ = std::fs::remove_file(&file);
        }
    }
}

#[test]
fn dropping_a_healthy_engine_ends_it() {
    for protocol in ["uci", "xboard", "moves"] {
        let engine = ExternalEngine::start(&test_engine(protocol, Duration::from_secs(5)))
            .unwrap_or_else(|e| panic!("{protocol}: {e}"));
        let pid = engine.pid();
        assert!(!gone(pid));
        drop(engine);
        assert!(gone(pid), "{protocol}: process {pid} survived the drop");
    }
}

/// A protocol and notation the test engine can be switched to (protocol first, then
/// switches), and what start() must detect from it: ranks, FEN letters, per-move lines.
#[rustfmt::skip]
const MODES: &[(&str, Ranks, FenLetters, bool)] = &[
    ("uci", Ranks::Zero, FenLetters::NB, true),
    ("uci --ranks 1", Ranks::One, FenLetters::NB, true),
    ("uci --fen-letters he", Ranks::Zero, FenLetters::HE, true),
    ("uci --ranks 1 --fen-letters he", Ranks::One, FenLetters::HE, true),
    ("uci --totals-only --ranks 1", Ranks::One, FenLetters::NB, false),
    ("ucci --fen-letters nb", Ranks::Zero, FenLetters::NB, true),
    ("xboard --fen-letters he", Ranks::Zero, FenLetters::HE, true),
    ("xboard --ranks 1", Ranks::One, FenLetters::NB, true),
    ("xboard --list-illegal --fen-letters he", Ranks::Zero, FenLetters::HE, true),
    ("uci --list-illegal", Ranks::Zero, FenLetters::NB, true),
    ("xboard --totals-only --fen-letters he", Ranks::Zero, FenLetters::HE, false),
    ("xboard --totals-only --ranks 1", Ranks::One, FenLetters::NB, false),
    ("moves", Ranks::Zero, FenLetters::NB, true),
    ("moves --ranks 1 --fen-letters he", Ranks::One, FenLetters::HE, true),
    ("moves --fen-only", Ranks::Zero, FenLetters::NB, true),
    ("moves --fen-only --ranks 1", Ranks::One, FenLetters::NB, true),
    // Letters from the engine's own `show fen`, ranks from its `show moves` list.
    ("xboard-moves", Ranks::Zero, FenLetters::NB, true),
    ("xboard-moves --fen-letters he --exit-on-error", Ranks::Zero, FenLetters::HE, true),
    ("xboard-moves --ranks 1", Ranks::One, FenLetters::NB, true),
    // Letters of the other dialect skipped, not refused: read in the engine's own.
    ("uci --fen-letters he --skip-other-letters", Ranks::Zero, FenLetters::HE, true),
    ("uci --fen-letters nb --skip-other-letters", Ranks::Zero, FenLetters::NB, true),
    ("xboard --totals-only --fen-letters he --skip-other-letters", Ranks::Zero, FenLetters::HE, false),
];

/// The start position and a few suite positions, each with a two-move path into it.
fn questions() -> Vec<(Position, Vec<Move>)> {
    let suite = parse_suite(REFERENCE_SUITE).unwrap();
    let roots = std::iter::once(Position::startpos())
        .chain([3, 5, 9].iter().map(|&i| suite[i].position.clone()));
    roots
        .map(|root| {
            let first = pick(&root, 2);
            let after = play(&root, first);
            let second = pick(&after, 3);
            (root, vec![first, second])
        })
        .collect()
}

fn pick(pos: &Position, k: usize) -> Move {
    let legal = NaiveGen.probe(pos).legal_moves();
    legal[legal.len() / k]
}

fn play(pos: &Position, mv: Move) -> Position {
    NaiveGen.play(pos, mv).unwrap()
}

fn sorted(d: &Divide) -> Option<Vec<(Move, u64)>> {
    d.per_move.clone().map(|mut v| {
        v.sort();
        v
    })
}

/// `subject`'s answers equal the naive generator's at depth 1 on every root and at
/// depth 2 after every path; a subject without per-move counts is asked the first
/// root moves one at a time, as the checker does.
fn assert_agrees(subject: &mut dyn Subject, label: &str, questions: &[(Position, Vec<Move>)]) {
    let mut naive = InProcess::new(&NaiveGen);
    for (root, path) in questions {
        let root = root.clone();
        for (path, depth) in [(&[][..], 1), (&path[..], 2)] {
            let want = naive.divide(&root, path, depth).unwrap();
            let got = subject
                .divide(&root, path, depth)
                .unwrap_or_else(|e| panic!("{label}: {} {path:?}: {e}", root.fen()));
            assert_eq!(got.total, want.total, "{label}: {} {path:?}", root.fen());
            match got.per_move {
                Some(_) => assert_eq!(sorted(&got), sorted(&want), "{label}: {}", root.fen()),
                None if depth > 1 => {
                    for &(mv, n) in want.per_move.iter().flatten().take(3) {
                        let longer: Vec<Move> = path.iter().copied().chain([mv]).collect();
                        let one = subject.divide(&root, &longer, depth - 1).unwrap();
                        assert_eq!(one.total, n, "{label}: {longer:?}");
                    }
                }
                None => {}
            }
        }
    }
}

#[test]
fn the_test_engine_agrees_in_every_protocol_and_notation() {
    for &(mode, ranks, fen_letters, divides) in MODES {
        let mut engine = ExternalEngine::start(&test_engine(mode, Duration::from_secs(10)))
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert_eq!(engine.id(), "xqdiff-test-engine", "{mode}");
        assert_eq!(engine.name(), "xqdiff-test-engine", "{mode}");
        assert_eq!(engine.ranks(), ranks, "{mode}");
        assert_eq!(engine.fen_letters(), fen_letters, "{mode}");
        assert_eq!(engine.divides(), divides, "{mode}");
        assert_agrees(&mut engine, mode, &questions());
    }
}

#[test]
fn a_mating_move_keeps_its_zero_where_illegal_moves_are_dropped() {
    // i7i9 mates: 0 below it at depth 2, yet it is legal, unlike the zero-count
    // pseudo-legal moves the engine also lists.
    let pos = Position::from_fen("4k4/R8/8R/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    let want = InProcess::new(&NaiveGen).divide(&pos, &[], 2).unwrap();
    assert!(want
        .per_move
        .iter()
        .flatten()
        .any(|&(m, n)| m.to_string() == "i7i9" && n == 0));
    for spec in ["uci --list-illegal", "xboard --list-illegal"] {
        let mut engine =
            ExternalEngine::start(&test_engine(spec, Duration::from_secs(10))).unwrap();
        for depth in [1, 2] {
            let want = InProcess::new(&NaiveGen).divide(&pos, &[], depth).unwrap();
            let got = engine.divide(&pos, &[], depth).unwrap();
            assert_eq!(sorted(&got), sorted(&want), "{spec} depth {depth}");
        }
    }
}

#[test]
fn fixed_notation_is_used_as_given() {
    let mut config = test_engine("uci --ranks 1 --fen-letters he", Duration::from_secs(10));
    config.ranks = Ranks::One;
    config.fen_letters = FenLetters::HE;
    let mut engine = ExternalEngine::start(&config).unwrap();
    assert_eq!(
        (engine.ranks(), engine.fen_letters()),
        (Ranks::One, FenLetters::HE)
    );
    assert_agrees(&mut engine, "fixed 1-based H/E", &questions());
    // Told the wrong numbering, the engine's moves do not fit the start position.
    config.ranks = Ranks::Zero;
    let err = ExternalEngine::start(&config)
        .err()
        .expect("wrong numbering accepted");
    assert_eq!(variant(&err), "Garbage", "{err}");
}

#[test]
fn a_planted_bug_shows_as_a_divide_difference_at_depth_2() {
    let config = test_engine("uci --bug cannon-cannot-capture", Duration::from_secs(10));
    let mut engine = ExternalEngine::start(&config).unwrap();
    let start = Position::startpos();
    let consensus: Vec<Vec<(Move, u64)>> = registry()
        .into_iter()
        .map(|g| {
            let mut v = g.divide(&start, 2, false, None);
            v.sort();
            v
        })
        .collect();
    assert!(consensus.windows(2).all(|w| w[0] == w[1]));
    let want = &consensus[0];
    let got = sorted(&engine.divide(&start, &[], 2).unwrap()).unwrap();
    assert_ne!(&got, want);
    let differing: Vec<String> = want
        .iter()
        .filter(|(mv, n)| got.iter().find(|(m, _)| m == mv).map(|(_, c)| c) != Some(n))
        .map(|(mv, n)| format!("{mv} {n}"))
        .collect();
    println!(
        "cannon-cannot-capture differs on {}: {differing:?}",
        differing.len()
    );
    assert!(!differing.is_empty());
    let total: u64 = got.iter().map(|(_, n)| n).sum();
    assert!(
        total < 1920,
        "a cannon that cannot capture has fewer moves: {total}"
    );
}

fn installed(path: &str) -> bool {
    let there = Path::new(path).exists();
    if !there {
        println!("skipped: {path} is not installed");
    }
    there
}

fn fairy_stockfish() -> EngineConfig {
    EngineConfig {
        command: FAIRY_STOCKFISH.to_string(),
        protocol: Protocol::Uci,
        // None: xqdiff sets UCI_Variant=xiangqi itself, as the engine offers it.
        options: Vec::new(),
        ranks: Ranks::Auto,
        fen_letters: FenLetters::Auto,
        timeout: Duration::from_secs(20),
        start_timeout: None,
    }
}

fn sjaak() -> EngineConfig {
    EngineConfig {
        command: SJAAK.to_string(),
        protocol: Protocol::Xboard,
        options: Vec::new(),
        ranks: Ranks::Auto,
        fen_letters: FenLetters::Auto,
        timeout: Duration::from_secs(20),
        start_timeout: None,
    }
}

fn assert_start_depth_3(engine: &mut ExternalEngine) {
    let start = Position::startpos();
    let got = engine.divide(&start, &[], 3).unwrap();
    let want = InProcess::new(&NaiveGen).divide(&start, &[], 3).unwrap();
    assert_eq!(got.total, 79666);
    assert_eq!(sorted(&got), sorted(&want));
}

/// MaxQi speaks xboard without setboard or perft: one line says so and how it could be
/// checked instead, at once.
#[test]
fn an_engine_that_cannot_be_given_a_position_says_how_to_check_it() {
    if !installed(MAXQI) {
        return;
    }
    let config = EngineConfig {
        command: MAXQI.to_string(),
        protocol: Protocol::Xboard,
        ..sjaak()
    };
    let err = ExternalEngine::start(&config).err().expect("refused");
    assert_eq!(variant(&err), "Unsupported", "{err}");
    let text = err.to_string();
    assert!(
        text.contains("setboard=0") && text.contains("moves protocol"),
        "{text}"
    );
}

#[test]
fn fairy_stockfish_agrees() {
    if !installed(FAIRY_STOCKFISH) {
        return;
    }
    let mut engine = ExternalEngine::start(&fairy_stockfish()).unwrap();
    assert!(
        engine.id().starts_with("Fairy-Stockfish"),
        "{}",
        engine.id()
    );
    assert!(
        engine
            .notes()
            .iter()
            .any(|n| n.contains("UCI_Variant=xiangqi")),
        "{:?}",
        engine.notes()
    );
    assert_eq!(
        (engine.ranks(), engine.fen_letters()),
        (Ranks::One, FenLetters::NB)
    );
    assert_start_depth_3(&mut engine);
    assert_agrees(&mut engine, "fairy-stockfish", &questions());
    // It skips a move it finds illegal without a word and answers for the side that
    // was to move before it: that is a refusal, not a count to compare.
    let err = engine
        .divide(&Position::startpos(), &moves(&["a0a5"]), 1)
        .unwrap_err();
    assert_eq!(variant(&err), "Refused", "{err}");
}

#[test]
fn sjaak_agrees() {
    if !installed(SJAAK) {
        return;
    }
    let mut engine = ExternalEngine::start(&sjaak()).unwrap();
    assert!(engine.id().starts_with("Sjaak II"), "{}", engine.id());
    assert_eq!(
        (engine.ranks(), engine.fen_letters()),
        (Ranks::Zero, FenLetters::HE)
    );
    assert_start_depth_3(&mut engine);
    // Not the last question: after e2e3 a3b5 in the fourth position, Sjaak II 1.4.1
    // lists the only evasion of a double check (Hc9-e8 after Hd9-e7) twice, so its
    // count there is one too many. That is Sjaak's bug, not the driver's.
    assert_agrees(&mut engine, "sjaak", &questions()[..3]);
    let err = engine
        .divide(&Position::startpos(), &moves(&["a0a5"]), 1)
        .unwrap_err();
    assert_eq!(variant(&err), "Refused", "{err}");
}

fn hoixiangqi() -> EngineConfig {
    EngineConfig {
        command: HOIXIANGQI.to_string(),
        protocol: Protocol::XboardMoves,
        ..sjaak()
    }
}

/// HoiXiangqi has no perft, ends on any command or FEN it refuses, and writes FEN in
/// its own dialect (`H`/`E`, no castling or en passant fields): xqdiff reads that
/// dialect from its `show fen` and counts from its `show moves`.
#[test]
fn hoixiangqi_agrees_through_its_move_lists() {
    if !installed(HOIXIANGQI) {
        return;
    }
    let mut engine = ExternalEngine::start(&hoixiangqi()).unwrap();
    assert!(engine.id().starts_with("HoiXiangqi"), "{}", engine.id());
    assert_eq!(
        (engine.ranks(), engine.fen_letters()),
        (Ranks::Zero, FenLetters::HE)
    );
    assert!(
        engine.notes().iter().any(|n| n.contains(" w 0 1)")),
        "{:?}",
        engine.notes()
    );
    let start = Position::startpos();
    let got = engine.divide(&start, &[], 2).unwrap();
    assert_eq!(got.total, 1920);
    assert_agrees(&mut engine, "hoixiangqi", &questions());
}

/// An engine that exits right after refusing a FEN (as HoiXiangqi does) has refused
/// it, not crashed, and is started again for the next question: whether it counts
/// perft itself or lists moves.
#[test]
fn an_engine_that_ends_on_a_refusal_refused_and_is_started_again() {
    let in_check = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1").unwrap();
    let horse = Position::from_fen("3k5/9/9/9/9/9/4N4/9/9/4K4 w - - 0 1").unwrap();
    for protocol in ["xboard", "xboard-moves"] {
        let spec = format!("{protocol} --refuse-in-check --exit-on-error");
        let mut engine =
            ExternalEngine::start(&test_engine(&spec, Duration::from_secs(10))).unwrap();
        let first = engine.pid();
        let err = engine.divide(&in_check, &[], 1).unwrap_err();
        assert_eq!(variant(&err), "Refused", "{spec}: {err}");
        assert!(gone(first), "{spec}: the engine was to end on its refusal");
        assert_eq!(engine.divide(&horse, &[], 1).unwrap().total, 10, "{spec}");
        assert_ne!(engine.pid(), first, "{spec}");
    }
}

/// Depth-1 questions per second; run with
/// `cargo test --release --test external -- --ignored --nocapture questions_per_second`.
#[test]
#[ignore]
fn questions_per_second() {
    const N: usize = 1000;
    let mut subjects: Vec<(String, EngineConfig)> = ["uci", "xboard"]
        .iter()
        .map(|p| {
            (
                format!("test engine, {p}"),
                test_engine(p, Duration::from_secs(5)),
            )
        })
        .collect();
    if installed(FAIRY_STOCKFISH) {
        subjects.push(("fairy-stockfish".into(), fairy_stockfish()));
    }
    if installed(SJAAK) {
        subjects.push(("sjaakii".into(), sjaak()));
    }
    let (start, path) = questions().remove(0);
    for (label, config) in subjects {
        let mut engine = ExternalEngine::start(&config).unwrap();
        let t = Instant::now();
        for i in 0..N {
            let d = engine.divide(&start, &path[..i % 3], 1).unwrap();
            assert!(d.total > 0);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{label}: {N} depth-1 questions in {secs:.2} s = {:.0}/s",
            N as f64 / secs
        );
    }
}
