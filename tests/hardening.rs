//! Issue 42, hardening round 4: what a hostile user still broke. Signals in a row and an
//! engine's helpers, a hanging engine under `--seconds`, a restart that fails in the
//! middle of shrinking, the report's folder holding the user's own `.report.*` files,
//! durations past what a clock holds, a saved report's status, and an output that is a
//! FIFO nobody reads. Each case waits for events (a line, a file, an exit) with a
//! generous bound, never for a fixed time, and leaves no process behind.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

mod util;
use util::{Scratch, TEST_ENGINE, XQDIFF};

/// A generous bound on a run that must end by itself: far above what it takes, so only
/// a run that would not end (or would take minutes) reaches it.
const ENDS_WITHIN: Duration = Duration::from_secs(120);

/// A running `xqdiff`: its stdout lines as they come, its stderr, and its exit, each
/// waited for with a bound. Killed (by its PID) if the test ends before it does.
struct Run {
    child: Child,
    lines: mpsc::Receiver<String>,
    stdout: Vec<String>,
    stderr: mpsc::Receiver<String>,
}

impl Run {
    fn start(args: &[&str]) -> Run {
        let mut child = Command::new(XQDIFF)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run xqdiff");
        let (tx, lines) = mpsc::channel();
        let out = child.stdout.take().expect("stdout");
        thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut err = child.stderr.take().expect("stderr");
        let (tx, stderr) = mpsc::channel();
        thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            let _ = tx.send(text);
        });
        Run {
            child,
            lines,
            stdout: Vec::new(),
            stderr,
        }
    }

    fn pid(&self) -> nix::unistd::Pid {
        nix::unistd::Pid::from_raw(i32::try_from(self.child.id()).expect("a pid"))
    }

    /// Waits for a stdout line that `wanted` accepts; fails the case past `limit`.
    fn line(&mut self, case: &str, wanted: impl Fn(&str) -> bool, limit: Duration) {
        let until = Instant::now() + limit;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = wanted(&line);
                    self.stdout.push(line);
                    if found {
                        return;
                    }
                }
                Err(_) => panic!(
                    "{case}: the line never came; stdout:\n{}",
                    self.stdout.join("\n")
                ),
            }
        }
    }

    /// Waits for the run to end by itself within `limit` (else kills it and fails the
    /// case); its exit code, stdout and stderr.
    fn end(mut self, case: &str, limit: Duration) -> (Option<i32>, String, String) {
        let until = Instant::now() + limit;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for xqdiff") {
                break status;
            }
            if Instant::now() >= until {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!(
                    "{case}: still running after {limit:?}; stdout so far:\n{}",
                    self.stdout.join("\n")
                );
            }
            thread::sleep(Duration::from_millis(20));
        };
        // The pipes close when the run and anything that shares them are gone; one
        // still open after the bound is a process the run left holding it.
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.stdout.push(line),
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    panic!("{case}: its stdout is still open after {limit:?}")
                }
            }
        }
        let left = until.saturating_duration_since(Instant::now());
        let stderr = self
            .stderr
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("{case}: its stderr is still open after {limit:?}"));
        (status.code(), self.stdout.join("\n"), stderr)
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A position whose side to move is in check (the red rook on d0 checks the black king
/// on d7), with 20 pieces to shrink away, as a one-line suite with its counts.
const IN_CHECK_SUITE: &str =
    "8n/4a4/3k1a2b/4p4/6b2/6p2/2P3P2/B4K3/4c3N/pp1RpA1n1 b - - 0 1 ;D1 3 ;D2 43\n";

/// The arguments of an `xqdiff engine` run on the start position, then the in-check
/// position, in `scratch` (an empty corpus, nothing saved).
fn engine_args(scratch: &Scratch, cmd: &str, extra: &[&str]) -> Vec<String> {
    let suite = scratch.file("suite.epd");
    std::fs::write(&suite, IN_CHECK_SUITE).expect("suite");
    let corpus = scratch.file("corpus");
    std::fs::create_dir_all(&corpus).expect("corpus folder");
    let mut args: Vec<String> = ["engine", "--cmd", cmd, "--depth", "2", "--seed", "3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (flag, value) in [("--suite", &suite), ("--corpus", &corpus)] {
        args.push(flag.into());
        args.push(value.display().to_string());
    }
    args.push("--no-save".into());
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// A wrapper that counts its starts (one line each in `starts.log`) and runs the test
/// engine with `switches`; from start `broken_from` on (0: never), with
/// `--no-handshake` instead, as an engine that no longer starts would.
fn counting_wrapper(scratch: &Scratch, switches: &str, broken_from: u32) -> String {
    let log = scratch.path("starts.log");
    let body = format!(
        "echo start >> '{log}'\n\
         n=$(wc -l < '{log}')\n\
         if [ {broken_from} -gt 0 ] && [ \"$n\" -ge {broken_from} ]; then\n\
         exec '{TEST_ENGINE}' --no-handshake --pid-file '{pid}'\n\
         fi\n\
         exec '{TEST_ENGINE}' {switches} --pid-file '{pid}'",
        pid = scratch.path("engine.pid"),
    );
    scratch.script("engine.sh", &body)
}

/// How many times the wrapper started an engine.
fn starts(scratch: &Scratch) -> usize {
    std::fs::read_to_string(scratch.file("starts.log"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

/// Item 2: `--seconds` bounds the whole run. An engine that hangs on a position, given
/// a timeout far longer than the run (an hour against two seconds), is cut off when the
/// run's time is up: the run ends by itself, says which answer the time cut short, and
/// counts it neither as a hang nor as agreement. Before, the run waited out the hour.
#[test]
fn a_wait_longer_than_the_run_is_cut_at_its_end() {
    let case = "hang past --seconds";
    let scratch = Scratch::new(case);
    let cmd = scratch.engine("engine", "--hang-in-check");
    let args = engine_args(&scratch, &cmd, &["--seconds", "2", "--timeout", "3600"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = Run::start(&args).end(case, ENDS_WITHIN);
    assert_eq!(code, Some(0), "{case}:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("the time ran out while the subject answered suite line 1"),
        "{case}:\n{stdout}"
    );
    assert!(!stdout.contains("HANG"), "{case}:\n{stdout}");
    scratch.assert_clean(case);
}

/// Item 2: a hang met with time left is confirmed and shrunk within half of what is
/// left (issue 41), each shrinking question bounded, and reported as far as the
/// shrinking got. Counted, not
/// timed: a two-second timeout in an eight-second run leaves room for a handful of
/// questions that hang, each a restart, where shrinking the 20 pieces to the 3 that
/// still hang takes 17 or more. Before, the shrinking ran on past the run's end, one
/// full timeout and one restart for each of them.
#[test]
fn a_hang_is_shrunk_within_the_time_left() {
    let case = "hang shrunk within --seconds";
    let scratch = Scratch::new(case);
    let cmd = counting_wrapper(&scratch, "--hang-in-check", 0);
    let args = engine_args(&scratch, &cmd, &["--seconds", "8", "--timeout", "2"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = Run::start(&args).end(case, ENDS_WITHIN);
    assert_eq!(code, Some(1), "{case}:\n{stdout}\n{stderr}");
    assert!(stdout.contains("HANG hang/subject"), "{case}:\n{stdout}");
    assert!(
        stdout.contains("shrunk no further: the time for shrinking a hang"),
        "{case}:\n{stdout}"
    );
    let started = starts(&scratch);
    assert!(
        started <= 10,
        "{case}: the engine was started {started} times:\n{stdout}"
    );
    scratch.assert_clean(case);
}

/// Item 2: a restart that fails while a crash is shrunk (here the engine no longer
/// finishes its handshake from its fourth start on) keeps the finding: the crash is
/// reported as far as it was shrunk, saying why it was not shrunk further, and the run
/// ends as one that found a bug (exit 1) and says the engine then failed. Before, the
/// run ended with exit 2 and the crash was lost.
#[test]
fn a_failed_restart_keeps_the_finding() {
    let case = "restart fails while shrinking";
    let scratch = Scratch::new(case);
    let cmd = counting_wrapper(&scratch, "--crash-in-check", 4);
    let args = engine_args(
        &scratch,
        &cmd,
        &["--positions", "0", "--timeout", "2", "--start-timeout", "2"],
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = Run::start(&args).end(case, ENDS_WITHIN);
    assert_eq!(code, Some(1), "{case}:\n{stdout}\n{stderr}");
    assert!(stdout.contains("CRASH crash/subject"), "{case}:\n{stdout}");
    assert!(
        stdout.contains("shrunk no further: the subject could not be started again"),
        "{case}:\n{stdout}"
    );
    assert!(
        stderr.contains("the engine then failed on suite line 1"),
        "{case}:\n{stderr}"
    );
    assert_eq!(starts(&scratch), 4, "{case}:\n{stdout}");
    scratch.assert_clean(case);
}

/// Whether `pid` is gone: no process, or a zombie whose parent is not this test.
fn gone(pid: u32) -> bool {
    util::gone(pid)
}

/// Waits up to `limit` for `pid` to be gone.
fn goes(pid: u32, limit: Duration) -> bool {
    let until = Instant::now() + limit;
    while !gone(pid) && Instant::now() < until {
        thread::sleep(Duration::from_millis(20));
    }
    gone(pid)
}

/// Item 1: any number of stop signals in a row, however close together, leave nothing
/// an engine started behind, a helper it started in a session of its own (out of reach
/// of any signal to its group) included. Before, the second signal killed the engine's
/// group with the guard that watches for its helpers, and the third ended xqdiff before
/// its own sweep: the helper ran on under PID 1. The signals are sent back to back, with
/// nothing between them, once the engine and its helper run.
#[test]
fn signals_in_a_row_leave_no_helper_behind() {
    use nix::sys::signal::{kill, Signal};
    let table: [(&str, &[Signal]); 3] = [
        ("three SIGTERMs", &[Signal::SIGTERM; 3]),
        (
            "SIGINT, SIGTERM, SIGHUP",
            &[Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP],
        ),
        ("six SIGTERMs", &[Signal::SIGTERM; 6]),
    ];
    for (case, signals) in table {
        let scratch = Scratch::new(case);
        // A helper in a session of its own, then the engine, which hangs once it has
        // three commands: both run while xqdiff waits for the engine.
        let body = format!(
            "setsid {} &\nwhile [ ! -s '{}' ]; do sleep 0.05; done\nexec {}",
            scratch.engine("helper", "--hang-after 0"),
            scratch.path("helper.pid"),
            scratch.engine("engine", "--hang-after 3")
        );
        let script = scratch.script("engine.sh", &body);
        let run = Run::start(&[
            "engine",
            "--cmd",
            &script,
            "--suite",
            "none",
            "--positions",
            "1",
            "--timeout",
            "60",
            "--no-save",
        ]);
        let until = Instant::now() + ENDS_WITHIN;
        let (engine, helper) = loop {
            if let (Some(e), Some(h)) = (scratch.pid("engine"), scratch.pid("helper")) {
                break (e, h);
            }
            assert!(Instant::now() < until, "{case}: the engine never started");
            thread::sleep(Duration::from_millis(20));
        };
        for &signal in signals {
            kill(run.pid(), signal).expect("signal xqdiff");
        }
        let (code, stdout, stderr) = run.end(case, ENDS_WITHIN);
        // As the first signal xqdiff heard: the kernel hands over signals pending at
        // once lowest number first, so which of those sent back to back is heard first
        // is the kernel's choice.
        assert!(
            signals.iter().any(|&s| code == Some(128 + s as i32)),
            "{case}: exit {code:?}\n{stdout}\n{stderr}"
        );
        let limit = ENDS_WITHIN;
        assert!(
            goes(engine, limit),
            "{case}: engine {engine} outlived xqdiff"
        );
        assert!(
            goes(helper, limit),
            "{case}: helper {helper} outlived xqdiff"
        );
        scratch.assert_clean(case);
    }
}

/// Item 4: saving the report removes only what a save left (a killed run's versions
/// and links), never the user's own files beside it, however their names begin. Before,
/// every name starting with `.report.` went: an editor's swap file, a backup folder with
/// its contents, a settings file.
#[test]
fn saving_the_report_leaves_the_users_files_alone() {
    let case = "report folder with the user's files";
    let scratch = Scratch::new(case);
    let dir = scratch.file("report");
    std::fs::create_dir_all(dir.join(".report.bak")).expect("folder");
    std::fs::create_dir_all(dir.join(".report.backup")).expect("folder");
    let files = [
        ".report.md.swp",
        ".report.yml",
        ".report.bak/report.json",
        ".report.backup/notes",
    ];
    for name in files {
        std::fs::write(dir.join(name), name).expect("a file of the user's");
    }
    let empty = scratch.file("corpus");
    std::fs::create_dir_all(&empty).expect("corpus folder");
    // Twice: the second save also replaces the first's version.
    for round in 1..=2 {
        let (code, stdout, stderr) = Run::start(&[
            "check",
            "--quick",
            "--seconds",
            "0",
            "--max-nodes",
            "0",
            "--threads",
            "1",
            "--no-save",
            "--corpus",
            &empty.display().to_string(),
            "--report-dir",
            &dir.display().to_string(),
        ])
        .end(case, ENDS_WITHIN);
        // Nothing to check (no count, no case, no fuzzing): an error, but a report.
        assert_eq!(code, Some(2), "{case} {round}:\n{stdout}\n{stderr}");
        assert!(
            dir.join("report.json").exists(),
            "{case} {round}: no report"
        );
        for name in files {
            let kept = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
            assert_eq!(kept, name, "{case} {round}: {name} was removed");
        }
    }
    scratch.assert_clean(case);
}

/// Item 7: a time too long for any clock (2^63 seconds and more, as any flag that takes
/// one) is refused with exit 2 and one line naming the bound, never a panic. Before,
/// `--seconds` of 2^63 panicked adding it to the clock (exit 101) and `check` wrote no
/// report.
#[test]
fn times_past_the_bound_are_refused() {
    let table: &[(&[&str], &str)] = &[
        (
            &["engine", "--cmd", "x", "--seconds", "9223372036854775808"],
            "more than the most a run is given",
        ),
        (
            &[
                "check",
                "--engine",
                "x",
                "--engine-seconds",
                "18446744073709551615",
            ],
            "more than the most a run is given",
        ),
        (
            &["check", "--seconds", "99999999999999999999999"],
            "more than the most a run is given",
        ),
        (
            &["fuzz", "--seconds", "315360001"],
            "more than the most a run is given",
        ),
        (
            &["engine", "--cmd", "x", "--timeout", "1e300"],
            "more than the longest wait",
        ),
        (
            &[
                "check",
                "--engine",
                "x",
                "--engine-timeout",
                "9223372036854775808",
            ],
            "more than the longest wait",
        ),
    ];
    for (args, says) in table {
        let (code, stdout, stderr) = Run::start(args).end(&args.join(" "), ENDS_WITHIN);
        assert_eq!(code, Some(2), "{args:?}:\n{stdout}\n{stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// Item 7, in the library: a check given more time than the clock can reach runs as one
/// without end instead of panicking on the addition. Stopped before it begins, it
/// returns at once.
#[test]
fn a_time_past_the_clock_is_no_end_and_no_panic() {
    use std::sync::atomic::AtomicBool;
    use xqdiff::subject::crosscheck::{self, Options, Timed};
    static STOP: AtomicBool = AtomicBool::new(true);
    let gens = xqdiff::generators::registry();
    let mut subject = xqdiff::subject::InProcess::new(gens[0]);
    let options = Options {
        stop: Some(&STOP),
        ..Options::default()
    };
    let timed = Timed {
        time: Duration::MAX,
        seed: 1,
        depth: 1,
    };
    let run = crosscheck::run(&mut subject, &gens, &[], Some(&timed), &options)
        .expect("a check that starts");
    assert!(run.report.checked.is_empty());
}

/// Item 8: `report --from` renders and exits by the status the report states, when that
/// is worse than what its phases say: a report that says it failed, errored or was
/// interrupted is never a pass, and one that states no status at all (every version 2
/// report does) is refused. Before, each of them rendered PASSED with exit 0.
#[test]
fn a_saved_reports_status_is_honoured() {
    let scratch = Scratch::new("stated status");
    let report = |status: &str| {
        format!(
            r#"{{"schema": "xqdiff-report/2", "tool": {{"name": "xqdiff", "version": "0.1.0"}}, "phases": [{{"name": "perft", "status": "passed", "seconds": 0.5}}]{status}}}"#
        )
    };
    // (the status field, the exit code, what the output says)
    let table = [
        (r#", "status": "passed""#, 0, "PASSED"),
        (r#", "status": "failed""#, 1, "FAILED"),
        (r#", "status": "error""#, 2, "ERROR"),
        (r#", "status": "interrupted""#, 2, "INTERRUPTED"),
        (
            r#", "status": "interrupted", "signal": 15"#,
            143,
            "INTERRUPTED",
        ),
        ("", 2, "field status: missing"),
    ];
    let path = scratch.file("report.json");
    let from = path.display().to_string();
    for (status, want, says) in table {
        std::fs::write(&path, report(status)).expect("write the report");
        let case = format!("stated {status:?}");
        let (code, stdout, stderr) =
            Run::start(&["report", "--from", &from]).end(&case, ENDS_WITHIN);
        assert_eq!(code, Some(want), "{case}:\n{stdout}\n{stderr}");
        assert!(
            stdout.contains(says) || stderr.contains(says),
            "{case}:\n{stdout}\n{stderr}"
        );
    }
}

/// Item 9: an output that is a FIFO nobody reads does not hold the run past a stop
/// signal: the wait for a reader gives up, the run says which output it could not
/// write, and it ends as the signal does. Before, opening the FIFO blocked in the
/// kernel and the first signal went unheard. One row writes through `--write-known`,
/// the other as the report's page in `--report-dir`.
#[test]
fn a_fifo_nobody_reads_does_not_outlast_a_signal() {
    use nix::sys::signal::{kill, Signal};
    let scratch = Scratch::new("unread fifo");
    let fifo = |name: &str| {
        let path = scratch.file(name);
        let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo");
        assert!(made.success(), "mkfifo {name}");
        path.display().to_string()
    };
    let known = fifo("known.txt");
    let report = scratch.file("report");
    std::fs::create_dir_all(&report).expect("report folder");
    fifo("report/report.html");
    let empty = scratch.file("corpus");
    std::fs::create_dir_all(&empty).expect("corpus folder");
    let engine = scratch.engine("engine", "");
    let (empty, report) = (empty.display().to_string(), report.display().to_string());
    let table: [(&str, Vec<&str>, &str); 2] = [
        (
            "engine --write-known FIFO",
            vec![
                "engine",
                "--cmd",
                &engine,
                "--suite",
                "none",
                "--positions",
                "1",
                "--depth",
                "1",
                "--corpus",
                &empty,
                "--no-save",
                "--write-known",
                &known,
            ],
            "engine ",
        ),
        (
            "check, report.html a FIFO",
            vec![
                "check",
                "--quick",
                "--seconds",
                "0",
                "--max-nodes",
                "0",
                "--threads",
                "1",
                "--no-save",
                "--corpus",
                &empty,
                "--report-dir",
                &report,
            ],
            "xqdiff check: ",
        ),
    ];
    for (case, args, first) in table {
        let mut run = Run::start(&args);
        // Printed once the signal handlers are in place.
        run.line(case, |l| l.starts_with(first), ENDS_WITHIN);
        kill(run.pid(), Signal::SIGTERM).expect("signal xqdiff");
        let (code, stdout, stderr) = run.end(case, ENDS_WITHIN);
        assert_eq!(code, Some(143), "{case}:\n{stdout}\n{stderr}");
        assert!(
            stderr.contains("stopped while waiting for a reader of the FIFO"),
            "{case}: {stderr}"
        );
    }
    scratch.assert_clean("unread fifo");
}
