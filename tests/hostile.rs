//! Hostile inputs, one table per class, so none comes back: every command given them
//! ends within a bounded time with exit 0, 1 or 2 (or the documented status of a run
//! stopped by a signal), one line on stderr, no panic and no crash. The engine's faults
//! (endless output, wrappers, grandchildren) and tampered split files have their own
//! tables in `tests/engine_faults.rs` and `tests/split.rs`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn xqdiff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xqdiff"))
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xqdiff-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `args`, killing the run if it passes `limit`; returns (code, stdout, stderr).
fn run_bounded(args: &[&str], limit: Duration) -> (Option<i32>, String, String) {
    let mut child = xqdiff()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xqdiff");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let readers = (
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = out.read_to_string(&mut s);
            s
        }),
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        }),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.code(),
        readers.0.join().unwrap(),
        readers.1.join().unwrap(),
    )
}

/// One row: arguments, the exit code, and a piece of the one-line message.
type Row<'a> = (Vec<String>, i32, &'a str);

fn check_rows(rows: &[Row<'_>]) {
    for (args, code, says) in rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (got, _, stderr) = run_bounded(&args, Duration::from_secs(30));
        assert_eq!(got, Some(*code), "{args:?}: {stderr}");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: one line, got:\n{stderr}");
        assert!(lines[0].contains(says), "{args:?}: {stderr}");
        assert!(
            lines[0].len() < 600,
            "{args:?}: {} characters",
            lines[0].len()
        );
    }
}

fn row(args: &[&str], code: i32, says: &'static str) -> Row<'static> {
    (args.iter().map(|a| a.to_string()).collect(), code, says)
}

/// Depths past the bound are refused at every entry point, in one line, before any
/// recursion could overflow the stack.
#[test]
fn deep_perfts_are_refused_everywhere() {
    let dir = temp_dir("deep");
    let suite = dir.join("deep.epd");
    std::fs::write(&suite, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 ;D10000 1\n").unwrap();
    let suite = suite.to_string_lossy().into_owned();
    check_rows(&[
        row(&["perft", "--depth", "100000"], 2, "--depth"),
        row(&["perft", "--depth", "65"], 2, "beyond"),
        row(&["perft", "--suite", &suite], 2, "beyond"),
        row(&["engine", "--cmd", "x", "--depth", "100000"], 2, "--depth"),
        row(
            &["check", "--engine", "x", "--engine-depth", "100000"],
            2,
            "--engine-depth",
        ),
    ]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Inputs that are not regular files, or too large, or unreadable in their notes, are
/// damage: exit 2 naming the file, never a hang, a full memory or a generator blamed.
#[test]
fn inputs_that_are_not_files_are_refused_quickly() {
    let dir = temp_dir("inputs");
    let corpus = dir.join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(
        corpus.join("fine.txt"),
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\nlegal-count: 2\n",
    )
    .unwrap();
    let fifo = corpus.join("fifo.txt");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    std::fs::create_dir(corpus.join("folder.txt")).unwrap();
    let notes = dir.join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    std::fs::write(
        notes.join("banana.txt"),
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\nlegal-count: banana\n",
    )
    .unwrap();
    let (corpus, notes) = (
        corpus.to_string_lossy().into_owned(),
        notes.to_string_lossy().into_owned(),
    );
    for (args, says) in [
        (
            vec!["replay", corpus.as_str()],
            "fifo.txt: cannot read: a FIFO",
        ),
        (
            vec!["replay", corpus.as_str()],
            "folder.txt: cannot read: a directory",
        ),
        (
            vec!["replay", notes.as_str()],
            "banana.txt: line 2: legal-count",
        ),
        (vec!["perft", "--suite", "/dev/zero"], "a device"),
        (vec!["report", "--from", "/dev/zero"], "a device"),
        (vec!["minimize", "--from-artifact", "/dev/zero"], "a device"),
    ] {
        let (code, stdout, stderr) = run_bounded(&args, Duration::from_secs(30));
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Requests for absurd work are refused before the work starts.
#[test]
fn absurd_work_is_refused_before_it_starts() {
    check_rows(&[
        row(&["perft", "--depth", "1", "--threads", "10000"], 2, "10000"),
        row(
            &["engine", "--cmd", "x", "--positions", "1000000000"],
            2,
            "--positions",
        ),
        row(
            &["check", "--engine", "x", "--engine-positions", "1000000000"],
            2,
            "--engine-positions",
        ),
    ]);
}

/// Usage errors are one line naming the flag; a FEN may start with `-`; a megabyte of
/// input is not echoed back.
#[test]
fn usage_errors_are_one_line_and_echo_little() {
    // Near the longest one argument can be (128 KiB).
    let huge = "r".repeat(100_000);
    check_rows(&[
        row(&["perft", "--depht", "2"], 2, "--depht"),
        row(&["engine"], 2, "--cmd"),
        row(&["perft", "--depth", "1", "--fen", "-x w"], 2, "bad --fen"),
        row(&["perft", "--depth", "1", "--fen", &huge], 2, "bad --fen"),
        row(&["nonsense"], 2, "nonsense"),
    ]);
}

/// Reads `args`' first line of output, closes the pipe, and returns the exit code and
/// stderr.
fn first_line_then_close(args: &[&str]) -> (Option<i32>, String) {
    use std::io::BufRead;
    let mut child = xqdiff()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run xqdiff");
    let mut first = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut first).expect("a line");
    drop(out);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (child.wait().expect("reaped").code(), stderr)
}

/// Output that cannot be written never panics: a closed pipe ends the run as SIGPIPE
/// would (exit 141, nothing on stderr), a full disk is one line and exit 2, and `check`
/// still writes its report.
#[test]
fn closed_and_full_outputs_end_cleanly() {
    let (code, stderr) = first_line_then_close(&["perft", "--depth", "4", "--divide"]);
    assert_eq!(code, Some(141), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let dir = temp_dir("pipe");
    let report = dir.to_string_lossy().into_owned();
    let (code, stderr) = first_line_then_close(&[
        "check",
        "--quick",
        "--no-save",
        "--seconds",
        "1",
        "--seed",
        "3",
        "--report-dir",
        &report,
    ]);
    assert_eq!(code, Some(141), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let json = std::fs::read_to_string(dir.join("report.json")).expect("a report");
    assert!(json.contains("\"interrupted\""), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
    if Path::new("/dev/full").exists() {
        for args in [
            vec!["perft", "--depth", "2"],
            vec!["moves"],
            vec!["fuzz", "--cases", "20", "--no-save", "--seed", "1"],
            vec!["--help"],
        ] {
            let out = xqdiff()
                .args(&args)
                .stdout(std::fs::File::create("/dev/full").unwrap())
                .output()
                .expect("run");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains("cannot write"), "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        }
    }
}
