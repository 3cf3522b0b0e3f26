//! The check as a library call: a planted bug fails the run with a dispute and a board
//! for each thing found; `--known` means the same in every phase; a stop request ends
//! the running phase and the rest do not run; a phase that checks nothing is an error,
//! not a pass; and the built-in corpus replays the repository's cases. What the
//! command adds (exit codes, files, signals, engines) is held by `tests/check.rs`.

use super::*;
use crate::diff::corpus::Source;
use crate::generators::planted::{Bug, Planted};
use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
use crate::job::report::{html, RenderOptions};
use scraper::{Html, Selector};
use std::sync::OnceLock;

/// An observer that ignores everything.
struct Quiet;

impl Observer for Quiet {}

fn select(s: &str) -> Selector {
    Selector::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn phase_status(report: &Report, name: &str) -> Option<Status> {
    report
        .phases
        .iter()
        .find(|p| p.name == name)
        .map(|p| p.status)
}

fn phase_message<'a>(report: &'a Report, name: &str) -> &'a str {
    report
        .phases
        .iter()
        .find(|p| p.name == name)
        .and_then(|p| p.message.as_deref())
        .unwrap_or("")
}

/// Every phase of a check, in order; the engine phase is there without an engine too,
/// as `skipped`.
const ALL_PHASES: [&str; 5] = [PERFT, REPLAY, FUZZ, METAMORPHIC, ENGINE];

/// The fuzz phase's time in the checks run here. A campaign starts a batch (16 cases a
/// thread) whenever time is left, so this runs one or two, and the planted bugs here
/// show in most cases; more time only adds hits of the same bugs. Not less: the phase
/// must not spend its time before its first batch, which would leave it with no case
/// on a busy machine.
const FUZZ_TIME: Duration = Duration::from_millis(50);

/// A check of a generator with the planted `bug` beside two correct ones, on a small
/// perft budget, with `known` bugs, saving nothing.
fn planted_check(bug: Bug, known: &[String]) -> Report {
    let planted = Planted::new(bug);
    let mut config = Config::new(11);
    config.generators = vec![&MailboxGen as &dyn Generator, &BitboardGen, &planted];
    config.max_nodes = 20_000;
    config.fuzz_time = FUZZ_TIME;
    config.save = false;
    config.known = known.iter().collect();
    run(&config, &Quiet, &AtomicBool::new(false)).expect("check runs")
}

/// The check of the planted cannon bug with nothing known, which two tests look at:
/// made once for both.
fn cannon_check() -> &'static Report {
    static REPORT: OnceLock<Report> = OnceLock::new();
    REPORT.get_or_init(|| planted_check(Bug::CannonCannotCapture, &[]))
}

/// A planted generator beside two correct ones, on a small perft budget: every phase
/// that can see the bug fails, every dispute has a board with at least one arrow, and
/// the perft dispute was followed down from a suite position.
#[test]
fn a_planted_bug_fails_the_check_with_a_board_for_each_dispute() {
    let report = cannon_check();
    assert_eq!(report.status(), Status::Failed);
    let names: Vec<&str> = report.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ALL_PHASES);
    assert_eq!(phase_status(report, ENGINE), Some(Status::Skipped));
    for phase in [PERFT, FUZZ, METAMORPHIC] {
        assert_eq!(phase_status(report, phase), Some(Status::Failed), "{phase}");
        assert!(
            report.disagreements.iter().any(|d| d.phase == phase),
            "no dispute from {phase}"
        );
    }
    for d in &report.disagreements {
        assert_eq!(d.odd_one_out.as_deref(), Some("planted"), "{d:?}");
    }
    // Hundreds of positions show the one bug the same way: one dispute stands for them.
    let metamorphic = report
        .disagreements
        .iter()
        .filter(|d| d.phase == METAMORPHIC)
        .count();
    assert_eq!(metamorphic, 1);
    let perft = report
        .disagreements
        .iter()
        .find(|d| d.phase == PERFT)
        .and_then(|d| d.path.as_ref())
        .expect("the perft dispute keeps its path");
    assert!(Config::new(11)
        .suite
        .iter()
        .any(|e| e.position.fen() == perft.root_fen));

    let page = Html::parse_document(&html::render(report, &RenderOptions::default()));
    let articles: Vec<_> = page.select(&select("article.disagreement")).collect();
    assert_eq!(articles.len(), report.disagreements.len());
    for (article, d) in articles.iter().zip(&report.disagreements) {
        assert_eq!(article.select(&select("svg.board")).count(), 1, "{d:?}");
        let arrows = article.select(&select("svg.board g.arrow")).count();
        assert!(arrows >= 1, "no arrow on the board of {d:?}");
        assert_eq!(arrows, d.moves.len(), "{d:?}");
    }
}

/// Sets the stop flag the first time the fuzz phase reports progress, as Ctrl-C would.
struct StopDuringFuzz<'a> {
    stop: &'a AtomicBool,
    in_fuzz: AtomicBool,
}

impl Observer for StopDuringFuzz<'_> {
    fn started(&self, phase: &str, _: usize, _: usize) {
        self.in_fuzz.store(phase == FUZZ, Ordering::Relaxed);
    }
    fn progress(&self, _: u64, _: u64, _: Unit, _: &str) {
        if self.in_fuzz.load(Ordering::Relaxed) {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// `--known` means the same in every phase: a planted bug fails perft, replay, fuzz and
/// metamorphic; with every signature the first run found passed back as known, the
/// same run passes, and each of those phases lists the bug as known.
#[test]
fn a_known_bug_is_known_in_every_phase() {
    for bug in [Bug::CannonCannotCapture, Bug::HorseLegIgnored] {
        let made;
        let first = if bug == Bug::CannonCannotCapture {
            cannon_check()
        } else {
            made = planted_check(bug, &[]);
            &made
        };
        assert_eq!(first.status(), Status::Failed, "{bug:?}");
        let known: Vec<String> = first
            .disagreements
            .iter()
            .filter_map(|d| d.signature.clone())
            .collect();
        let phases = [PERFT, REPLAY, FUZZ, METAMORPHIC];
        for phase in phases {
            assert_eq!(
                phase_status(first, phase),
                Some(Status::Failed),
                "{bug:?} {phase}"
            );
        }
        let again = planted_check(bug, &known);
        let new: Vec<String> = again
            .disagreements
            .iter()
            .filter(|d| !d.known)
            .map(|d| format!("{}: {:?} {}", d.phase, d.signature, d.detail))
            .collect();
        assert!(
            new.is_empty(),
            "{bug:?}: not known in the second run: {new:#?}"
        );
        let statuses: Vec<(String, Status, Option<String>)> = again
            .phases
            .iter()
            .map(|p| (p.name.clone(), p.status, p.message.clone()))
            .collect();
        assert_eq!(again.status(), Status::Passed, "{bug:?}: {statuses:#?}");
        for phase in phases {
            assert_eq!(
                phase_status(&again, phase),
                Some(Status::Passed),
                "{bug:?} {phase}"
            );
            assert!(
                again
                    .disagreements
                    .iter()
                    .any(|d| d.phase == phase && d.known),
                "{bug:?}: {phase} lists no known bug"
            );
        }
        // The fuzz phase's own line counts them too, rather than "0 findings".
        let fuzz = again.phases.iter().find(|p| p.name == FUZZ);
        match fuzz.and_then(|p| p.details.as_ref()) {
            Some(PhaseDetails::Fuzz(f)) => {
                assert!(f.known > 0 && f.findings == 0, "{bug:?}: {f:?}")
            }
            other => panic!("{bug:?}: fuzz details {other:?}"),
        }
    }
}

/// The fuzz phase stops with what it has and says it was interrupted; the phase after
/// it was asked for and did not run, which is not the same as not asked for (the
/// engine's `skipped`); and the run is interrupted, not passed.
#[test]
fn a_stop_request_ends_the_fuzz_phase_and_the_rest_do_not_run() {
    let mut config = Config::new(3);
    config.max_nodes = 10_000;
    config.fuzz_time = Duration::from_secs(600);
    config.save = false;
    let stop = AtomicBool::new(false);
    let observer = StopDuringFuzz {
        stop: &stop,
        in_fuzz: AtomicBool::new(false),
    };
    let started = Instant::now();
    let report = run(&config, &observer, &stop).expect("check runs");
    assert!(started.elapsed() < Duration::from_secs(60));
    let fuzz = report.phases.iter().find(|p| p.name == FUZZ).unwrap();
    match &fuzz.details {
        Some(PhaseDetails::Fuzz(f)) => assert!(f.interrupted && f.cases > 0, "{f:?}"),
        other => panic!("fuzz details {other:?}"),
    }
    assert_eq!(phase_status(&report, PERFT), Some(Status::Passed));
    assert_eq!(phase_status(&report, FUZZ), Some(Status::Interrupted));
    assert!(phase_message(&report, FUZZ).starts_with("interrupted"));
    assert_eq!(
        phase_status(&report, METAMORPHIC),
        Some(Status::Interrupted)
    );
    assert_eq!(phase_message(&report, METAMORPHIC), DID_NOT_RUN);
    assert_eq!(phase_status(&report, ENGINE), Some(Status::Skipped));
    assert_eq!(report.status(), Status::Interrupted);
}

/// Each row: what the row changes in a small, otherwise passing configuration, the
/// phases that must then be `error` with the text their message must hold. Every
/// other phase passes (the engine's is skipped), and the run is an error, not a pass.
#[test]
fn a_phase_that_checks_nothing_is_an_error_saying_why() {
    // The second argument is the row's own empty folder.
    type Change = fn(&mut Config<'static>, &Path);
    /// A phase and text its message must hold.
    type Erred = (&'static str, &'static str);
    let table: &[(&str, Change, &[Erred])] = &[
        (
            "no node budget",
            |c, _| c.max_nodes = 0,
            &[(PERFT, "--max-nodes 0 leaves no published count to run")],
        ),
        (
            "no fuzzing time",
            |c, _| c.fuzz_time = Duration::ZERO,
            &[(FUZZ, "no fuzz case ran: --seconds 0")],
        ),
        (
            "an empty corpus",
            |c, empty| c.corpus = Source::Dir(empty.to_path_buf()),
            &[(REPLAY, "holds no cases")],
        ),
        (
            "a missing corpus",
            |c, dir| c.corpus = Source::Dir(dir.join("missing")),
            &[(REPLAY, "cannot read the corpus")],
        ),
        (
            "no suite and an empty corpus",
            |c, empty| {
                c.suite.clear();
                c.corpus = Source::Dir(empty.to_path_buf());
            },
            &[
                (PERFT, "no published counts"),
                (REPLAY, "holds no cases"),
                (METAMORPHIC, "no position to check"),
            ],
        ),
    ];
    for &(row, change, errors) in table {
        let mut config = Config::new(3);
        config.max_nodes = 10_000;
        config.fuzz_time = FUZZ_TIME;
        config.save = false;
        let folder = tempfile::tempdir().expect("a scratch folder");
        change(&mut config, folder.path());
        let report = run(&config, &Quiet, &AtomicBool::new(false)).expect("check runs");
        for name in ALL_PHASES {
            let want = match errors.iter().find(|(p, _)| *p == name) {
                Some(_) => Status::Error,
                None if name == ENGINE => Status::Skipped,
                None => Status::Passed,
            };
            assert_eq!(phase_status(&report, name), Some(want), "{row}: {name}");
        }
        for &(name, needle) in errors {
            let message = phase_message(&report, name);
            assert!(message.contains(needle), "{row}: {name}: {message:?}");
        }
        assert_eq!(report.status(), Status::Error, "{row}");
    }
}

/// A check on the built-in corpus replays the repository's cases under the same names,
/// says so in the report, and says in words that findings cannot be saved there.
#[test]
fn a_check_on_the_built_in_corpus_replays_the_same_cases_and_says_it_cannot_save() {
    let disk = Source::Dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"));
    let mut config = Config::new(3);
    config.max_nodes = 10_000;
    config.fuzz_time = FUZZ_TIME;
    let mut replays = Vec::new();
    for source in [Source::BuiltIn, disk] {
        config.corpus = source;
        // Saving is asked for: it is the built-in copy that refuses it, in words.
        config.save = config.corpus.is_built_in();
        let report = run(&config, &Quiet, &AtomicBool::new(false)).expect("check runs");
        assert_eq!(report.status(), Status::Passed, "{}", config.corpus);
        let replay = report.phases.iter().find(|p| p.name == REPLAY);
        let Some(Some(PhaseDetails::Replay(r))) = replay.map(|p| p.details.clone()) else {
            panic!("no replay details");
        };
        assert_eq!(r.built_in, config.corpus.is_built_in());
        assert_eq!(
            phase_message(&report, REPLAY).contains(BUILT_IN_READ_ONLY),
            config.corpus.is_built_in()
        );
        replays.push((r.cases, r.files));
    }
    assert!(replays[0].0 > 0);
    assert_eq!(replays[0], replays[1]);
}
