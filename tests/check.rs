//! `xqdiff check` as a library call and as a command: a planted bug fails the run with
//! a dispute and a board for each thing found; a clean quick run passes every phase
//! and writes its three files; an engine with a bug exits 1 with an engine dispute, an
//! engine that cannot be driven exits 2 with its phase `error`; a phase that checks
//! nothing is an error, not a pass; a missing --corpus is refused; SIGINT, SIGTERM and
//! SIGHUP end the run with an `interrupted` report and exit 128 + the signal; and the
//! default corpus is the same wherever the command is run from.

use scraper::{Html, Selector};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use xqdiff::diff::corpus::Source;
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
use xqdiff::job::check::{self, Config, Observer, Quiet};
use xqdiff::job::report::{html, EngineRow, PhaseDetails, RenderOptions, Report, Status};
use xqdiff::Generator;

mod util;
use util::{Reaped, Scratch};

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
const ALL_PHASES: [&str; 5] = [
    check::PERFT,
    check::REPLAY,
    check::FUZZ,
    check::METAMORPHIC,
    check::ENGINE,
];

/// The fuzz phase's time in the checks run here as a library call. A campaign starts a
/// batch (16 cases a thread) whenever time is left, so this runs one or two, and the
/// planted bugs here show in most cases; more time only adds hits of the same bugs.
/// Not less: the phase must not spend its time before its first batch, which would
/// leave it with no case on a busy machine.
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
    check::run(&config, &Quiet, &AtomicBool::new(false)).expect("check runs")
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
    assert_eq!(phase_status(report, check::ENGINE), Some(Status::Skipped));
    for phase in [check::PERFT, check::FUZZ, check::METAMORPHIC] {
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
        .filter(|d| d.phase == check::METAMORPHIC)
        .count();
    assert_eq!(metamorphic, 1);
    let perft = report
        .disagreements
        .iter()
        .find(|d| d.phase == check::PERFT)
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
        self.in_fuzz.store(phase == check::FUZZ, Ordering::Relaxed);
    }
    fn progress(&self, _: u64, _: u64, _: check::Unit, _: &str) {
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
        let phases = [check::PERFT, check::REPLAY, check::FUZZ, check::METAMORPHIC];
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
        let fuzz = again.phases.iter().find(|p| p.name == check::FUZZ);
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
    let report = check::run(&config, &observer, &stop).expect("check runs");
    assert!(started.elapsed() < Duration::from_secs(60));
    let fuzz = report
        .phases
        .iter()
        .find(|p| p.name == check::FUZZ)
        .unwrap();
    match &fuzz.details {
        Some(PhaseDetails::Fuzz(f)) => assert!(f.interrupted && f.cases > 0, "{f:?}"),
        other => panic!("fuzz details {other:?}"),
    }
    assert_eq!(phase_status(&report, check::PERFT), Some(Status::Passed));
    assert_eq!(
        phase_status(&report, check::FUZZ),
        Some(Status::Interrupted)
    );
    assert!(phase_message(&report, check::FUZZ).starts_with("interrupted"));
    assert_eq!(
        phase_status(&report, check::METAMORPHIC),
        Some(Status::Interrupted)
    );
    assert_eq!(
        phase_message(&report, check::METAMORPHIC),
        check::DID_NOT_RUN
    );
    assert_eq!(phase_status(&report, check::ENGINE), Some(Status::Skipped));
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
            &[(
                check::PERFT,
                "--max-nodes 0 leaves no published count to run",
            )],
        ),
        (
            "no fuzzing time",
            |c, _| c.fuzz_time = Duration::ZERO,
            &[(check::FUZZ, "no fuzz case ran: --seconds 0")],
        ),
        (
            "an empty corpus",
            |c, empty| c.corpus = Source::Dir(empty.to_path_buf()),
            &[(check::REPLAY, "holds no cases")],
        ),
        (
            "a missing corpus",
            |c, dir| c.corpus = Source::Dir(dir.join("missing")),
            &[(check::REPLAY, "cannot read the corpus")],
        ),
        (
            "no suite and an empty corpus",
            |c, empty| {
                c.suite.clear();
                c.corpus = Source::Dir(empty.to_path_buf());
            },
            &[
                (check::PERFT, "no published counts"),
                (check::REPLAY, "holds no cases"),
                (check::METAMORPHIC, "no position to check"),
            ],
        ),
    ];
    for &(row, change, errors) in table {
        let mut config = Config::new(3);
        config.max_nodes = 10_000;
        config.fuzz_time = FUZZ_TIME;
        config.save = false;
        let folder = Scratch::new(row);
        change(&mut config, &folder);
        let report = check::run(&config, &Quiet, &AtomicBool::new(false)).expect("check runs");
        for name in ALL_PHASES {
            let want = match errors.iter().find(|(p, _)| *p == name) {
                Some(_) => Status::Error,
                None if name == check::ENGINE => Status::Skipped,
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

/// `xqdiff check --quick` with a second of fuzzing on one thread (unless `extra` says
/// how long, or on how many: a timed phase costs its time on every thread), nothing
/// saved, a fixed seed, and its report in `report_dir`.
fn xqdiff_check(report_dir: &Path, extra: &[&str]) -> Output {
    let seconds: &[&str] = if extra.contains(&"--seconds") {
        &[]
    } else {
        &["--seconds", "1"]
    };
    let threads: &[&str] = if extra.contains(&"--threads") {
        &[]
    } else {
        &["--threads", "1"]
    };
    util::xqdiff()
        .args(["check", "--quick", "--no-save", "--seed", "5"])
        .args(seconds)
        .args(threads)
        .arg("--report-dir")
        .arg(report_dir)
        .args(extra)
        .output()
        .expect("run xqdiff")
}

/// The three files, with the JSON read back.
fn read_report(dir: &Path) -> Report {
    for name in ["report.json", "report.html", "report.md"] {
        let len = std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
        assert!(len > 0, "{name} missing or empty in {}", dir.display());
    }
    let json = std::fs::read_to_string(dir.join("report.json")).unwrap();
    Report::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

#[test]
fn a_quick_check_passes_every_phase_and_writes_three_files() {
    let dir = Scratch::new("quick");
    let out = xqdiff_check(&dir, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let report = read_report(&dir);
    let names: Vec<&str> = report.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ALL_PHASES);
    for p in &report.phases {
        let want = if p.name == check::ENGINE {
            Status::Skipped
        } else {
            Status::Passed
        };
        assert_eq!(p.status, want, "{p:?}");
    }
    assert_eq!(report.seed, Some(5));
    assert!(report.disagreements.is_empty());
    assert!(stdout.contains(&dir.join("report.html").display().to_string()));
    // Each phase says where the run is as it starts.
    for (i, name) in ALL_PHASES.iter().enumerate() {
        let said = format!("phase {} of {}: {name}", i + 1, ALL_PHASES.len());
        assert!(
            stdout.lines().any(|l| l == said),
            "{said:?} missing\n{stdout}"
        );
    }
}

/// Each row: the test engine's switches, the exit code, the engine phase's status,
/// and whether the report must hold an engine dispute.
#[test]
fn an_external_engine_takes_part_and_its_failures_are_reported() {
    let table: &[(&str, i32, Status, bool)] = &[
        ("--bug horse-leg-ignored", 1, Status::Failed, true),
        ("--crash-after 5", 2, Status::Error, false),
        ("--no-handshake", 2, Status::Error, false),
    ];
    for &(switches, code, status, dispute) in table {
        let dir = Scratch::new(&switches.replace(' ', ""));
        let engine = format!("{} {switches}", util::TEST_ENGINE);
        // Not shorter: with tests running side by side on a loaded machine, an answer
        // can take seconds, and a slow answer is not a hang.
        let out = xqdiff_check(
            &dir,
            &[
                "--engine",
                &engine,
                "--engine-timeout",
                "10",
                "--engine-start-timeout",
                "10",
            ],
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{switches}\n{stdout}\n{stderr}"
        );
        let report = read_report(&dir);
        assert_eq!(
            phase_status(&report, check::ENGINE),
            Some(status),
            "{switches}"
        );
        let engine_phase = report.phases.iter().find(|p| p.name == check::ENGINE);
        // Each position the engine answered has its line in the log (stdout is a pipe
        // here), with the same counts as the phase's table.
        if let Some(PhaseDetails::Engine(t)) = engine_phase.and_then(|p| p.details.as_ref()) {
            let answered: Vec<_> = t.rows.iter().filter(|r| r.subject.is_some()).collect();
            assert!(
                status == Status::Error || !answered.is_empty(),
                "{switches}"
            );
            for r in answered {
                let (ours, theirs) = (r.consensus.to_string(), r.subject.unwrap().to_string());
                assert!(
                    stdout.lines().any(|l| {
                        let words: Vec<&str> = l.split_whitespace().collect();
                        // A differing line goes on to name its bug.
                        (l.ends_with(&r.position) || l.contains(&format!("  {}  bug ", r.position)))
                            && words.contains(&ours.as_str())
                            && words.contains(&theirs.as_str())
                    }),
                    "{switches}: no line for {} ({theirs} vs {ours}):\n{stdout}",
                    r.position
                );
            }
        }
        if status == Status::Error {
            let message = engine_phase
                .and_then(|p| p.message.as_deref())
                .unwrap_or("");
            assert!(!message.is_empty(), "{switches}: no message");
            assert!(stderr.contains("check incomplete"), "{switches}: {stderr}");
        }
        let engine_disputes: Vec<_> = report
            .disagreements
            .iter()
            .filter(|d| d.phase == check::ENGINE)
            .collect();
        assert_eq!(!engine_disputes.is_empty(), dispute, "{switches}");
        for d in engine_disputes {
            assert_eq!(d.odd_one_out.as_deref(), Some("xqdiff-test-engine"));
            assert!(!d.moves.is_empty(), "{d:?}");
        }
        if dispute {
            // The engine's count of the start position sits in the perft table.
            let beside = report.phases.iter().any(|p| match &p.details {
                Some(PhaseDetails::Perft(t)) => t.rows.iter().any(|r| {
                    r.position == "start"
                        && r.results.iter().any(|x| x.subject == "xqdiff-test-engine")
                }),
                _ => false,
            });
            assert!(beside, "no engine column in the perft table");
            // The engine's bug is the engine phase's, counted once.
            assert_eq!(
                phase_status(&report, check::PERFT),
                Some(Status::Passed),
                "{switches}"
            );
        }
    }
}

/// The check's engine phase is `xqdiff engine`'s run: given a time, it makes fresh
/// positions until the time is up (and says how many, with their feature table); an
/// engine that crashes on a class of positions (here: whenever the side to move is in
/// check, which the fresh positions seek on purpose) is one `crash` finding with a
/// small witness, and the engine is started again and asked on; the fastest built-in
/// is the reference, all of them confirming only a share of the agreeing positions.
#[test]
fn the_engine_phase_runs_for_its_time_and_goes_on_after_a_crash() {
    const SECONDS: f64 = 5.0;
    let dir = Scratch::new("engine-seconds");
    let engine = format!("{} --crash-in-check", util::TEST_ENGINE);
    let out = xqdiff_check(
        &dir,
        &[
            "--engine",
            &engine,
            "--engine-depth",
            "2",
            "--engine-timeout",
            "10",
            "--engine-seconds",
            "5",
            "--engine-restarts",
            "1000",
        ],
    );
    let (stdout, stderr) = util::text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    let report = read_report(&dir);
    let phase = report
        .phases
        .iter()
        .find(|p| p.name == check::ENGINE)
        .expect("an engine phase");
    assert_eq!(phase.status, Status::Failed, "{phase:?}");
    // Fresh positions are made until the time is up, then the one being asked is
    // finished: a crash's shrinking may take a few seconds more, never the whole run.
    assert!(
        phase.seconds >= SECONDS && phase.seconds < SECONDS + 20.0,
        "the phase took {} s",
        phase.seconds
    );
    let Some(PhaseDetails::Engine(details)) = &phase.details else {
        panic!("no engine details: {phase:?}");
    };
    let fresh = details.fresh.as_ref().expect("fresh positions counted");
    assert!(fresh.positions > 0, "{fresh:?}");
    assert_eq!(fresh.coverage.total, fresh.positions);
    assert!(
        stdout.contains("fresh positions made as the run went"),
        "{stdout}"
    );
    // The report page draws their feature table in the engine's section.
    let html = std::fs::read_to_string(dir.join("report.html")).expect("report.html");
    let page = Html::parse_document(&html);
    let rows = page
        .select(&select("section.engine table.coverage tr[data-feature]"))
        .count();
    assert_eq!(rows, fresh.coverage.features.len(), "{html}");
    assert!(
        details.confirmed < details.positions,
        "every position confirmed by all: {} of {}",
        details.confirmed,
        details.positions
    );
    let crashes: Vec<_> = report
        .disagreements
        .iter()
        .filter(|d| d.phase == check::ENGINE && d.check == "crash")
        .collect();
    assert_eq!(crashes.len(), 1, "{:#?}", report.disagreements);
    let crash = crashes[0];
    assert!(crash.hits.is_some_and(|n| n > 1), "{crash:?}");
    let witness = xqdiff::Position::from_fen(&crash.fen).expect("the witness");
    assert!(witness.pieces().count() <= 4, "{}", crash.fen);
    // Asked on after it crashed: the corpus's positions in check crash it, and fresh
    // positions made after them are answered.
    let answered = |r: &&EngineRow| r.position.starts_with("fresh") && r.subject.is_some();
    assert!(
        details.rows.iter().filter(answered).count() >= 3,
        "{:?}",
        details.rows
    );
}

/// Flags that do not go together stop the command before anything runs.
#[test]
fn bad_usage_exits_2_without_running() {
    let table: &[(&[&str], &str)] = &[
        (&["--engine-protocol", "xboard"], "--engine"),
        (&["--engine", "x", "--engine-depth", "0"], "--engine-depth"),
        (
            &["--engine", "x", "--engine-timeout", "0"],
            "positive number",
        ),
        (&["--engine", "'unclosed"], "bad --engine"),
        (&["--engine-seconds", "5"], "--engine"),
        (
            &[
                "--engine",
                "x",
                "--engine-seconds",
                "5",
                "--engine-positions",
                "3",
            ],
            "--engine-positions",
        ),
        (&["--max-nodes", "lots"], "invalid value"),
        (
            &["--corpus", "/no/such/dir"],
            "--corpus /no/such/dir: no such directory",
        ),
    ];
    for (args, needle) in table {
        let scratch = Scratch::new("usage");
        let dir = scratch.file("reports");
        let out = xqdiff_check(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!dir.exists(), "{args:?} wrote a report");
    }
}

/// `xqdiff check` asked for phases it then could not run: exit 2 (not 0), every such
/// phase named on stderr, and the report written with them as `error`.
#[test]
fn a_check_that_checks_nothing_does_not_pass() {
    let table: &[(&[&str], &[&str])] = &[
        (
            &["--max-nodes", "0", "--seconds", "0"],
            &[check::PERFT, check::FUZZ],
        ),
        (&["--max-nodes", "0", "--seconds", "1"], &[check::PERFT]),
    ];
    for &(flags, errors) in table {
        let dir = Scratch::new("nothing");
        let out = xqdiff_check(&dir, flags);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flags:?}\n{stdout}\n{stderr}");
        assert!(stderr.contains("check incomplete"), "{flags:?}: {stderr}");
        let report = read_report(&dir);
        for name in ALL_PHASES {
            let erred = errors.contains(&name);
            assert_eq!(
                stderr.contains(&format!("{name}: ")),
                erred,
                "{flags:?}: {name} in {stderr}"
            );
            let status = phase_status(&report, name);
            assert_eq!(status == Some(Status::Error), erred, "{flags:?}: {name}");
        }
        assert_eq!(report.status(), Status::Error, "{flags:?}");
        assert!(stdout.contains("ERROR:"), "{flags:?}: {stdout}");
    }
}

/// Whether `pid` is a zombie: a child that ended and was never waited for.
fn is_zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name in parentheses, which may hold spaces.
        stat.rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
    })
}

/// Each row: a real signal, sent by pid once the fuzz phase is under way, and the exit
/// code it must give. The run ends well before its sixty seconds, prints its summary,
/// and leaves a report whose status is `interrupted` (the fuzz phase stopped with its
/// cases, the metamorphic phase did not run, the signal on record), on which `xqdiff
/// report` exits as the run did.
#[test]
fn a_signal_ends_the_check_with_an_interrupted_report_and_128_plus_its_number() {
    let table: &[(&str, i32, &str)] = &[
        ("INT", 130, "SIGINT"),
        ("TERM", 143, "SIGTERM"),
        ("HUP", 129, "SIGHUP"),
    ];
    for &(signal, code, name) in table {
        let dir = Scratch::new(&format!("signal-{signal}"));
        let stderr_file = dir.join("stderr.txt");
        let started = Instant::now();
        let mut child = Reaped(
            util::xqdiff()
                .args([
                    "check",
                    "--seconds",
                    "60",
                    "--max-nodes",
                    "10000",
                    "--no-save",
                    "--threads",
                    "1",
                ])
                .arg("--report-dir")
                .arg(dir.join("report"))
                .stdout(Stdio::piped())
                .stderr(std::fs::File::create(&stderr_file).unwrap())
                .spawn()
                .expect("start xqdiff"),
        );
        let pid = child.0.id();
        let stdout = child.0.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        // The replay phase's line comes just before fuzzing starts.
        for line in lines.by_ref() {
            if line.expect("read stdout").starts_with("replay:") {
                break;
            }
        }
        // Under way once it has spent CPU time on it, however busy the machine.
        let at = util::cpu_time(pid);
        util::wait_until(&format!("{signal}: fuzzing"), || {
            util::cpu_time(pid) >= at + Duration::from_millis(300)
        });
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(killed.success(), "{signal}");
        let rest: Vec<String> = lines.map_while(Result::ok).collect();
        let status = child.0.wait().expect("wait for xqdiff");
        assert!(!is_zombie(pid), "{signal}: {pid} was not reaped");
        let stderr = std::fs::read_to_string(&stderr_file).unwrap_or_default();
        let rest = rest.join("\n");
        assert!(started.elapsed() < Duration::from_secs(40), "{signal}");
        assert_eq!(status.code(), Some(code), "{signal}\n{rest}\n{stderr}");
        assert!(
            stderr.contains(&format!("interrupted by {name}")),
            "{stderr}"
        );
        assert!(
            rest.contains("INTERRUPTED:"),
            "{signal}: no summary in\n{rest}"
        );

        let report = read_report(&dir.join("report"));
        assert_eq!(report.status(), Status::Interrupted, "{signal}");
        let json = std::fs::read_to_string(dir.join("report/report.json")).unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["status"], "interrupted", "{signal}");
        assert_eq!(value["signal"], code - 128, "{signal}");
        let fuzz = report
            .phases
            .iter()
            .find(|p| p.name == check::FUZZ)
            .unwrap();
        assert_eq!(fuzz.status, Status::Interrupted, "{signal}");
        assert!(
            matches!(&fuzz.details, Some(PhaseDetails::Fuzz(f)) if f.interrupted && f.cases > 0),
            "{signal}: {fuzz:?}"
        );
        assert_eq!(phase_status(&report, check::PERFT), Some(Status::Passed));
        assert_eq!(
            phase_status(&report, check::METAMORPHIC),
            Some(Status::Interrupted)
        );
        assert_eq!(
            phase_message(&report, check::METAMORPHIC),
            check::DID_NOT_RUN
        );

        let rendered = util::xqdiff()
            .arg("report")
            .arg("--from")
            .arg(dir.join("report/report.json"))
            .output()
            .expect("run xqdiff report");
        assert_eq!(rendered.status.code(), Some(code), "{signal}");
        assert!(String::from_utf8_lossy(&rendered.stdout).contains("xqdiff: INTERRUPTED"));
    }
}

/// The replay phase's case names and count from a run in `cwd`.
fn replayed_from(cwd: &Path, name: &str) -> (u64, Vec<String>, String) {
    let dir = Scratch::new(name);
    let out = util::xqdiff()
        .current_dir(cwd)
        .args([
            "check",
            "--quick",
            "--seconds",
            "1",
            "--max-nodes",
            "10000",
            "--no-save",
            "--seed",
            "5",
        ])
        .arg("--report-dir")
        .arg(&dir)
        .output()
        .expect("run xqdiff");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let report = read_report(&dir);
    match report.phases.iter().find(|p| p.name == check::REPLAY) {
        Some(p) => match &p.details {
            Some(PhaseDetails::Replay(r)) => (r.cases, r.files.clone(), r.dir.clone()),
            other => panic!("replay details {other:?}"),
        },
        None => panic!("no replay phase"),
    }
}

/// Run from a folder with no corpus in it, `xqdiff check` replays the same cases, by
/// count and by name, as from the repository root: the repository's own corpus.
#[test]
fn the_default_corpus_is_the_same_from_any_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let elsewhere = Scratch::new("elsewhere");
    // The two runs side by side: each is mostly waiting on its two seconds of work.
    let (from_elsewhere, from_root) = std::thread::scope(|s| {
        let other = s.spawn(|| replayed_from(&elsewhere, "cwd-elsewhere"));
        let here = replayed_from(root, "cwd-root");
        (other.join(), here)
    });
    let from_elsewhere = from_elsewhere.expect("the run from elsewhere");
    assert_eq!(from_elsewhere, from_root);
    let mut on_disk: Vec<String> = std::fs::read_dir(root.join("corpus"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".txt") && !n.starts_with('.'))
        .collect();
    on_disk.sort();
    assert!(!on_disk.is_empty());
    assert_eq!(from_root.1, on_disk);
    assert_eq!(from_root.0, on_disk.len() as u64);
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
        let report = check::run(&config, &Quiet, &AtomicBool::new(false)).expect("check runs");
        assert_eq!(report.status(), Status::Passed, "{}", config.corpus);
        let replay = report.phases.iter().find(|p| p.name == check::REPLAY);
        let Some(Some(PhaseDetails::Replay(r))) = replay.map(|p| p.details.clone()) else {
            panic!("no replay details");
        };
        assert_eq!(r.built_in, config.corpus.is_built_in());
        assert_eq!(
            phase_message(&report, check::REPLAY).contains(check::BUILT_IN_READ_ONLY),
            config.corpus.is_built_in()
        );
        replays.push((r.cases, r.files));
    }
    assert!(replays[0].0 > 0);
    assert_eq!(replays[0], replays[1]);
}

/// The engine phase says what `xqdiff engine` says about a library's rules: under
/// king-capture rules how many moves into check it set aside, and under the legal
/// rules, when every difference is a move into check, that the flag exists. Each row:
/// the check's extra flags, the exit code, and a line stdout must hold.
#[test]
fn the_engine_phase_says_what_king_capture_rules_set_aside() {
    let engine = format!("{} --protocol moves --king-capture", util::TEST_ENGINE);
    let common = [
        "--engine",
        &engine,
        "--engine-protocol",
        "moves",
        "--engine-positions",
        "5",
        "--engine-depth",
        "2",
    ];
    let table: &[(&[&str], i32, &str)] = &[
        (
            &["--engine-rules", "king-capture"],
            0,
            "moves into check set aside, on ",
        ),
        (
            &[],
            1,
            "every difference is a move into check: if your generator",
        ),
    ];
    for &(extra, code, says) in table {
        let dir = Scratch::new("king-capture");
        let out = xqdiff_check(&dir, &[&common[..], extra].concat());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(code), "{extra:?}\n{stdout}");
        assert!(stdout.contains(says), "{extra:?}: {says:?}\n{stdout}");
    }
}
