//! `xqdiff check` as a library call and as a command: a planted bug fails the run with
//! a dispute and a board for each thing found; a clean quick run passes every phase
//! and writes its three files; an engine with a bug exits 1 with an engine dispute, an
//! engine that cannot be driven exits 2 with its phase `error`; Ctrl-C ends the fuzz
//! phase and the report is still written.

use scraper::{Html, Selector};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use xqdiff::check::{self, Config, Observer, Quiet};
use xqdiff::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
use xqdiff::planted::{Bug, Planted};
use xqdiff::report::{html, PhaseDetails, RenderOptions, Report, Status};
use xqdiff::Engine;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xqdiff-check-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

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

/// A planted generator beside two correct ones, on a small perft budget: every phase
/// that can see the bug fails, every dispute has a board with at least one arrow, and
/// the perft dispute was followed down from a suite position.
#[test]
fn a_planted_bug_fails_the_check_with_a_board_for_each_dispute() {
    let planted = Planted(Bug::CannonCannotCapture);
    let mut config = Config::new(11);
    config.generators = vec![&MailboxGen as &dyn Engine, &BitboardGen, &planted];
    config.max_nodes = 20_000;
    config.fuzz_time = Duration::from_secs(1);
    config.save = false;
    let report = check::run(&config, &Quiet, &AtomicBool::new(false)).expect("check runs");

    assert_eq!(report.status(), Status::Failed);
    let names: Vec<&str> = report.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [check::PERFT, check::REPLAY, check::FUZZ, check::METAMORPHIC]
    );
    for phase in [check::PERFT, check::FUZZ, check::METAMORPHIC] {
        assert_eq!(
            phase_status(&report, phase),
            Some(Status::Failed),
            "{phase}"
        );
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
    assert!(config
        .suite
        .iter()
        .any(|e| e.position.fen() == perft.root_fen));

    let page = Html::parse_document(&html::render(&report, &RenderOptions::default()));
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
    fn started(&self, phase: &str) {
        self.in_fuzz.store(phase == check::FUZZ, Ordering::Relaxed);
    }
    fn progress(&self, _: u64, _: u64, _: &str) {
        if self.in_fuzz.load(Ordering::Relaxed) {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

#[test]
fn a_stop_request_ends_the_fuzz_phase_and_skips_the_rest() {
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
        phase_status(&report, check::METAMORPHIC),
        Some(Status::Skipped)
    );
    assert_eq!(report.status(), Status::Passed);
}

fn xqdiff_check(report_dir: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xqdiff"))
        .args([
            "check",
            "--quick",
            "--seconds",
            "2",
            "--no-save",
            "--seed",
            "5",
        ])
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
    let dir = temp_dir("quick");
    let out = xqdiff_check(&dir, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let report = read_report(&dir);
    let names: Vec<&str> = report.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [check::PERFT, check::REPLAY, check::FUZZ, check::METAMORPHIC]
    );
    for p in &report.phases {
        assert_eq!(p.status, Status::Passed, "{p:?}");
    }
    assert_eq!(report.seed, Some(5));
    assert!(report.disagreements.is_empty());
    assert!(stdout.contains(&dir.join("report.html").display().to_string()));
    let _ = std::fs::remove_dir_all(&dir);
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
        let dir = temp_dir(&switches.replace(' ', ""));
        let engine = format!("{} {switches}", env!("CARGO_BIN_EXE_xqdiff-test-engine"));
        let out = xqdiff_check(&dir, &["--engine", &engine, "--engine-timeout", "2"]);
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
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
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
        (&["--max-nodes", "lots"], "invalid value"),
    ];
    for (args, needle) in table {
        let dir = temp_dir("usage");
        let out = xqdiff_check(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!dir.exists(), "{args:?} wrote a report");
    }
}

/// A real SIGINT once the fuzz phase is under way: the run ends well before its sixty
/// seconds, exits 0 (nothing disagreed), and the report says the fuzz phase stopped.
#[test]
fn ctrl_c_stops_the_fuzz_phase_and_the_report_is_written() {
    let dir = temp_dir("ctrl-c");
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xqdiff"))
        .args([
            "check",
            "--seconds",
            "60",
            "--max-nodes",
            "10000",
            "--no-save",
        ])
        .arg("--report-dir")
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start xqdiff");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    // The replay phase's line comes just before fuzzing starts.
    for line in lines.by_ref() {
        if line.expect("read stdout").starts_with("replay:") {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().expect("wait for xqdiff");
    assert!(started.elapsed() < Duration::from_secs(40));
    assert_eq!(status.code(), Some(0), "{}", rest.join("\n"));
    let report = read_report(&dir);
    let fuzz = report
        .phases
        .iter()
        .find(|p| p.name == check::FUZZ)
        .unwrap();
    assert!(
        matches!(&fuzz.details, Some(PhaseDetails::Fuzz(f)) if f.interrupted),
        "{fuzz:?}"
    );
    assert_eq!(
        phase_status(&report, check::METAMORPHIC),
        Some(Status::Skipped)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
