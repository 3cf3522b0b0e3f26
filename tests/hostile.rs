//! Hostile inputs, one table per class, so none comes back: every command given them
//! ends within a bounded time with exit 0, 1 or 2 (or the documented status of a run
//! stopped by a signal), one line on stderr, no panic and no crash. The engine's faults
//! (endless output, wrappers, grandchildren) and tampered split files have their own
//! tables in `tests/engine_faults.rs` and `tests/split.rs`.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod util;
use util::{cpu_time, xqdiff, Scratch, PATIENCE};

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
        let (got, _, stderr) = run_bounded(&args, PATIENCE);
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
    let dir = Scratch::new("deep");
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
}

/// Inputs that are not regular files, or too large, or unreadable in their notes, are
/// damage: exit 2 naming the file, never a hang, a full memory or a generator blamed.
#[test]
fn inputs_that_are_not_files_are_refused_quickly() {
    let dir = Scratch::new("inputs");
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
        let (code, stdout, stderr) = run_bounded(&args, PATIENCE);
        assert_eq!(code, Some(2), "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
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
    let dir = Scratch::new("pipe");
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

/// A report with nothing in it, which every writer below can render.
const EMPTY_REPORT: &str = r#"{"schema": "xqdiff-report/2", "tool": {"name": "xqdiff", "version": "0.1.0"}, "phases": [], "disagreements": [], "status": "passed"}"#;

/// Issue 26, case 1: an output that is a FIFO is written to, never replaced by a
/// regular file (as root the same rename turned `/dev/null` into one); a symlink keeps
/// being a link, its target replaced; `-` is stdout.
#[cfg(unix)]
#[test]
fn writers_never_replace_special_files() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Scratch::new("special");
    let from = dir.join("r.json");
    std::fs::write(&from, EMPTY_REPORT).unwrap();
    let from = from.to_string_lossy().into_owned();
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap_or_default())
    };
    let fifo_arg = fifo.to_string_lossy().into_owned();
    let (code, _, stderr) =
        run_bounded(&["report", "--from", &from, "--html", &fifo_arg], PATIENCE);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        reader.join().unwrap().contains("<html"),
        "the page went into the FIFO"
    );
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced: {kind:?}");

    let target = dir.join("target.md");
    let link = dir.join("link.md");
    std::os::unix::fs::symlink("target.md", &link).unwrap();
    let link_arg = link.to_string_lossy().into_owned();
    let (code, _, stderr) = run_bounded(
        &["report", "--from", &from, "--markdown", &link_arg],
        PATIENCE,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target).unwrap().contains('#'));

    let (code, stdout, stderr) = run_bounded(&["report", "--from", &from, "--html", "-"], PATIENCE);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.contains("<html"), "{stdout}");
}

/// A jobs file of a small split, for the shard cases.
fn small_split(dir: &Path, depth: &str, split_depth: &str) -> String {
    let jobs = dir.join("jobs.jsonl").to_string_lossy().into_owned();
    let (code, _, stderr) = run_bounded(
        &[
            "perft",
            "--emit-jobs",
            &jobs,
            "--depth",
            depth,
            "--split-depth",
            split_depth,
        ],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "{stderr}");
    jobs
}

/// Issue 26, case 2: a shard's `--output` that is not a results file of its jobs (a
/// one-line note without a newline) is refused and left as it was, not taken for a
/// result line cut short and wiped.
#[test]
fn a_shard_output_that_is_not_its_results_is_left_alone() {
    let dir = Scratch::new("foreign-output");
    let jobs = small_split(&dir, "2", "1");
    for text in [
        "a note without a newline",
        "{\"split\":\"0000\"",
        "x\n{\"sp",
    ] {
        let out = dir.join("out.txt");
        std::fs::write(&out, text).unwrap();
        let out_arg = out.to_string_lossy().into_owned();
        let (code, _, stderr) = run_bounded(
            &["perft", "--jobs", &jobs, "--output", &out_arg],
            Duration::from_secs(60),
        );
        assert_eq!(code, Some(2), "{text:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    }
}

/// The seed every name of `dir`'s report set carries, of the two it may be; fails if
/// a name is missing, carries neither, or the names disagree (a mixed set).
fn report_set_seed(dir: &Path, old: u64, new: u64) -> u64 {
    let seeds: Vec<(&str, u64)> = ["report.json", "report.html", "report.md"]
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(name))
                .unwrap_or_else(|e| panic!("{name} unreadable: {e}"));
            let has = |seed: u64| text.contains(&seed.to_string());
            match (has(old), has(new)) {
                (true, false) => (name, old),
                (false, true) => (name, new),
                other => panic!("{name}: seeds {old}, {new} present: {other:?}"),
            }
        })
        .collect();
    assert!(
        seeds.iter().all(|s| s.1 == seeds[0].1),
        "a mixed set: {seeds:?}"
    );
    seeds[0].1
}

/// The hidden names in `dir`: a finished save leaves only `.report` and its target.
fn hidden_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// Issue 26, case 9: the three report files are one set. A run killed at each step of
/// saving (held there by the test build's pause) leaves every name reading the old
/// set, or from the swap on the new one, never a mix; the next run removes what the
/// killed one left. The first step turns files of the old layout (regular files) into
/// the set's links.
#[cfg(unix)]
#[test]
fn a_kill_while_saving_leaves_one_whole_report_set() {
    use std::io::BufRead;
    let dir = Scratch::new("report-set");
    let report = dir.join("report");
    std::fs::create_dir_all(&report).unwrap();
    let mut old = 7_100_000;
    for name in ["report.json", "report.html", "report.md"] {
        std::fs::write(report.join(name), format!("seed {old}")).unwrap();
    }
    let run = |seed: u64, pause: Option<&str>| {
        // Saving needs no fuzzing: with none the run is an error for that alone, but
        // saves its report all the same, and a second sooner.
        let mut cmd = xqdiff();
        cmd.args(["check", "--quick", "--seconds", "0"])
            .args(["--max-nodes", "10000", "--threads", "1"])
            .args(["--no-save", "--seed", &seed.to_string(), "--report-dir"])
            .arg(&report)
            .stdin(Stdio::null())
            .stdout(if pause.is_some() {
                Stdio::null()
            } else {
                Stdio::piped()
            })
            .stderr(Stdio::piped());
        if let Some(step) = pause {
            cmd.env("XQDIFF_PAUSE_SAVING", step);
        }
        cmd.spawn().expect("run xqdiff")
    };
    // The steps in the order a save takes them; a kill before the swap keeps the old set.
    let steps = [
        ("between-links", false),
        ("between-files", false),
        ("before-swap", false),
        ("after-swap", true),
    ];
    for (i, (step, swapped)) in steps.into_iter().enumerate() {
        let new = 7_200_000 + i as u64;
        let mut child = run(new, Some(step));
        let stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let paused = format!("paused saving: {step}");
        let reached = stderr.lines().map_while(Result::ok).any(|l| l == paused);
        child.kill().expect("SIGKILL xqdiff");
        child.wait().expect("reaped");
        assert!(reached, "{step}: the run never paused there");
        let expected = if swapped { new } else { old };
        assert_eq!(report_set_seed(&report, old, new), expected, "{step}");

        let next = 7_300_000 + i as u64;
        let after = run(next, None).wait_with_output().expect("reaped");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&after.stdout),
            String::from_utf8_lossy(&after.stderr),
        );
        // Exit 2 for the fuzz phase's missing time and for nothing else: one line on
        // stderr says so, and the report was written.
        assert_eq!(
            after.status.code(),
            Some(2),
            "{step}: the run after: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{step}: the run after: {stderr}");
        assert!(
            stderr.contains("check incomplete: fuzz: no fuzz case ran"),
            "{step}: the run after: {stderr}"
        );
        assert!(
            stdout.contains("\nreport: "),
            "{step}: the run after: {stdout}"
        );
        assert_eq!(report_set_seed(&report, expected, next), next, "{step}");
        let hidden = hidden_names(&report);
        let target = std::fs::read_link(report.join(".report")).unwrap();
        assert_eq!(
            hidden,
            vec![".report".to_string(), target.to_string_lossy().into_owned()],
            "{step}: leftovers"
        );
        old = next;
    }
}

/// Issue 26, case 5: `report --from` refuses values no run writes, naming the field,
/// instead of rendering them and exiting by them.
#[test]
fn a_report_read_back_is_validated() {
    let dir = Scratch::new("report-values");
    let table: &[(&str, &str, &str)] = &[
        ("\"signal\": -128", "signal", "a negative signal"),
        ("\"signal\": 0", "signal", "no signal is 0"),
        ("\"signal\": 65", "signal", "past the last signal"),
        ("\"status\": \"bogus\"", "status", "not a status"),
        ("\"status\": 3", "status", "not a word"),
        (
            "\"phases\": [{\"name\": \"p\", \"status\": \"passed\", \"seconds\": -1}]",
            "seconds",
            "negative time",
        ),
    ];
    let path = dir.join("r.json");
    let arg = path.to_string_lossy().into_owned();
    for (field, names, why) in table {
        // Without its status, which a version 2 report is refused without, but only
        // once every other field is found sound.
        let text = EMPTY_REPORT.replacen(", \"status\": \"passed\"", "", 1);
        let text = text.replacen("\"phases\": [], ", "", 1).replacen(
            "{\"schema\"",
            &format!("{{{field}, \"schema\""),
            1,
        );
        let text = if field.contains("phases") {
            text
        } else {
            text.replacen("\"tool\"", "\"phases\": [], \"tool\"", 1)
        };
        std::fs::write(&path, &text).unwrap();
        let (code, _, stderr) = run_bounded(&["report", "--from", &arg], PATIENCE);
        assert_eq!(code, Some(2), "{why}: {text}\n{stderr}");
        assert!(stderr.contains(names), "{why}: {stderr}");
    }
    // The same file with values a run writes is read.
    let fine = EMPTY_REPORT.replacen("{\"schema\"", "{\"status\": \"passed\", \"schema\"", 1);
    std::fs::write(&path, fine).unwrap();
    let (code, _, stderr) = run_bounded(&["report", "--from", &arg], PATIENCE);
    assert_eq!(code, Some(0), "{stderr}");
}

/// Issue 26, case 6: a thread count from `RAYON_NUM_THREADS` is held to the cap of
/// `--threads`, refused at once, naming where it came from.
#[test]
fn thread_counts_from_the_environment_are_capped() {
    let started = Instant::now();
    let out = xqdiff()
        .args(["perft", "--depth", "1"])
        .env("RAYON_NUM_THREADS", "100000")
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("RAYON_NUM_THREADS"), "{stderr}");
    // At once: not after starting a hundred thousand threads.
    assert!(started.elapsed() < PATIENCE / 2, "{:?}", started.elapsed());
    let out = xqdiff()
        .args(["perft", "--depth", "1"])
        .env("RAYON_NUM_THREADS", "2")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
}

/// Issue 26, case 7: a control character inside an engine option would reach the
/// engine as a second command; it is refused before any engine starts.
#[test]
fn engine_options_with_control_characters_are_refused() {
    check_rows(&[
        row(
            &["engine", "--cmd", "x", "--option", "Hash=16\nquit"],
            2,
            "control character",
        ),
        row(
            &["check", "--engine", "x", "--engine-option", "Hash=1\r"],
            2,
            "control character",
        ),
    ]);
}

/// Issue 26, case 10: a shard writing its result lines to a pipe its reader closed
/// ends as every other command does, as SIGPIPE would.
#[test]
fn a_shard_into_a_closed_pipe_exits_141() {
    let dir = Scratch::new("shard-pipe");
    let jobs = small_split(&dir, "4", "2");
    let (code, stderr) = first_line_then_close(&["perft", "--jobs", &jobs]);
    assert_eq!(code, Some(141), "{stderr}");
}

/// Issue 26, case 13: the built-in corpus is named from the checkout being built, never
/// by an absolute path, so two checkouts sharing a target folder each embed their own.
#[test]
fn the_built_in_corpus_is_named_from_the_checkout_built() {
    let code = std::fs::read_to_string(concat!(env!("OUT_DIR"), "/built_in_corpus.rs"))
        .expect("the build script's output");
    let entries = code
        .lines()
        .filter(|l| l.contains("include_bytes!"))
        .count();
    assert!(entries > 0, "{code}");
    assert!(!code.contains(env!("CARGO_MANIFEST_DIR")), "{code}");
    assert_eq!(
        code.matches("env!(\"CARGO_MANIFEST_DIR\")").count(),
        entries,
        "{code}"
    );
}

/// Sends `signal` to a run of `args` once it has spent `after` of CPU time, deep in its
/// count however busy the machine, and returns its exit code and how long it took to
/// end after the signal; a run still going [`PATIENCE`] later is killed and the case
/// fails.
#[cfg(unix)]
fn stop_after(args: &[&str], after: Duration, signal: i32) -> (Option<i32>, Duration) {
    let mut child = xqdiff()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run xqdiff");
    util::wait_until(&format!("{args:?} counting"), || {
        cpu_time(child.id()) >= after
    });
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("a pid"));
    let signal = nix::sys::signal::Signal::try_from(signal).expect("a signal");
    nix::sys::signal::kill(pid, signal).expect("signal xqdiff");
    let sent = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return (status.code(), sent.elapsed());
        }
        if sent.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running {PATIENCE:?} after {signal}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Issue 26, cases 10 and 11: every long count polls the stop flag, so a signal ends
/// it at once at any depth (before, perft ran to the end of its count, and a shard to
/// the end of its job: hours here, where a busy machine's second is plenty), and a
/// closed pipe ends it as soon as it is seen.
#[cfg(unix)]
#[test]
fn long_counts_stop_within_a_second() {
    let dir = Scratch::new("long-counts");
    let jobs = small_split(&dir, "9", "1");
    let out = dir.join("results.jsonl").to_string_lossy().into_owned();
    let table: &[&[&str]] = &[
        &["perft", "--depth", "9"],
        &[
            "perft",
            "--depth",
            "9",
            "--generator",
            "naive",
            "--threads",
            "1",
        ],
        &["perft", "--jobs", &jobs, "--output", &out],
        &["perft", "--jobs", &jobs],
    ];
    for args in table {
        let (code, took) = stop_after(args, Duration::from_millis(300), 15);
        assert_eq!(code, Some(143), "{args:?}");
        assert!(took < PATIENCE / 4, "{args:?}: {took:?}");
    }
    // The shard stopped with whole lines only: the file is still its results file.
    let (code, took) = stop_after(
        &["perft", "--jobs", &jobs, "--output", &out],
        Duration::from_millis(300),
        2,
    );
    assert_eq!(code, Some(130), "{took:?}");
    let started = Instant::now();
    let (code, stderr) = first_line_then_close(&["perft", "--depth", "9"]);
    assert_eq!(code, Some(141), "{stderr}");
    assert!(started.elapsed() < PATIENCE / 4, "{:?}", started.elapsed());
}

/// Issue 26, case 8: text from outside is shown with its control characters escaped,
/// on the terminal (a bad `--known` line quoted in an error) and in every report
/// format (an engine's name): an escape sequence in it could clear the screen or
/// retitle the window.
#[test]
fn outside_text_is_shown_with_control_characters_escaped() {
    let dir = Scratch::new("escapes");
    let known = dir.join("known.txt");
    std::fs::write(&known, "\u{1b}]0;owned\u{7}\u{1b}[2J not a signature\n").unwrap();
    let known_arg = known.to_string_lossy().into_owned();
    let (code, stdout, stderr) = run_bounded(
        &["fuzz", "--cases", "1", "--no-save", "--known", &known_arg],
        PATIENCE,
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
    assert!(stderr.contains("\\x1b"), "{stderr:?}");
    assert!(!stdout.contains('\u{1b}'), "{stdout:?}");

    let report = EMPTY_REPORT.replacen(
        "\"phases\"",
        "\"engines\": [{\"name\": \"\\u001b[2J\\u009bevil\\r\", \"command\": \"x\", \
         \"protocol\": \"uci\"}], \"phases\"",
        1,
    );
    let from = dir.join("r.json");
    std::fs::write(&from, report).unwrap();
    let from = from.to_string_lossy().into_owned();
    let (html, md) = (dir.join("r.html"), dir.join("r.md"));
    let (html_arg, md_arg) = (
        html.to_string_lossy().into_owned(),
        md.to_string_lossy().into_owned(),
    );
    let (code, stdout, stderr) = run_bounded(
        &[
            "report",
            "--from",
            &from,
            "--html",
            &html_arg,
            "--markdown",
            &md_arg,
        ],
        PATIENCE,
    );
    assert_eq!(code, Some(0), "{stderr}");
    let (code, terminal, _) = run_bounded(&["report", "--from", &from], PATIENCE);
    assert_eq!(code, Some(0));
    for (what, text) in [
        ("html", std::fs::read_to_string(&html).unwrap()),
        ("markdown", std::fs::read_to_string(&md).unwrap()),
        ("terminal", terminal),
        ("stdout", stdout),
    ] {
        let raw: Vec<char> = text
            .chars()
            .filter(|c| c.is_control() && *c != '\n' && *c != '\t')
            .collect();
        assert!(raw.is_empty(), "{what}: {raw:?}");
    }
    assert!(std::fs::read_to_string(&md).unwrap().contains("evil"));
}
