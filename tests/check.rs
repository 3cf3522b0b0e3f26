//! `xqdiff check` as a command: a clean quick run passes every phase and writes its
//! three files; an engine with a bug exits 1 with an engine dispute, an engine that
//! cannot be driven exits 2 with its phase `error`; a check that checks nothing exits
//! 2; a missing --corpus is refused; SIGINT, SIGTERM and SIGHUP end the run with an
//! `interrupted` report and exit 128 + the signal; and the default corpus is the same
//! wherever the command is run from. The report is read as its readers read it: the
//! JSON as `docs/report-schema.md` describes it. The check as a library call (phases,
//! statuses, known bugs, a stop request) is held by the unit tests in `src/job/check`.

use scraper::{Html, Selector};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod util;
use util::{Reaped, Scratch};

fn select(s: &str) -> Selector {
    Selector::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The phase called `name` in a report.
fn phase<'a>(report: &'a Value, name: &str) -> Option<&'a Value> {
    report["phases"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == name)
}

fn phase_status<'a>(report: &'a Value, name: &str) -> Option<&'a str> {
    phase(report, name)?["status"].as_str()
}

fn phase_message<'a>(report: &'a Value, name: &str) -> &'a str {
    phase(report, name)
        .and_then(|p| p["message"].as_str())
        .unwrap_or("")
}

/// The report's disagreements found by the phase `name`.
fn disputes_of<'a>(report: &'a Value, name: &str) -> Vec<&'a Value> {
    let all = report["disagreements"].as_array();
    all.into_iter()
        .flatten()
        .filter(|d| d["phase"] == name)
        .collect()
}

/// A count the schema says is a non-negative integer.
fn count(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// Every phase of a check, in order; the engine phase is there without an engine too,
/// as `skipped`.
const ALL_PHASES: [&str; 5] = ["perft", "replay", "fuzz", "metamorphic", "engine"];

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

/// The three files, with the JSON read back: parsed, and read by `xqdiff report`, which
/// must take it for a report of this schema and end as its `status` says the run did.
fn read_report(dir: &Path) -> Value {
    for name in ["report.json", "report.html", "report.md"] {
        let len = std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
        assert!(len > 0, "{name} missing or empty in {}", dir.display());
    }
    let path = dir.join("report.json");
    let json = std::fs::read_to_string(&path).unwrap();
    let report: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(report["schema"], "xqdiff-report/2", "{json}");
    let status = report["status"].as_str().expect("a status");
    let code = match (status, report["signal"].as_i64()) {
        ("passed", _) => 0,
        ("failed", _) => 1,
        ("interrupted", Some(signal)) => 128 + signal,
        ("error" | "interrupted", None) => 2,
        other => panic!("no such status: {other:?}"),
    };
    let read = util::xqdiff()
        .arg("report")
        .arg("--from")
        .arg(&path)
        .output()
        .expect("run xqdiff report");
    let (stdout, stderr) = util::text(&read);
    assert_eq!(read.status.code(), Some(code as i32), "{stdout}\n{stderr}");
    let headline = format!("xqdiff: {}", status.to_uppercase());
    assert!(stdout.contains(&headline), "{headline:?} missing\n{stdout}");
    report
}

#[test]
fn a_quick_check_passes_every_phase_and_writes_three_files() {
    let dir = Scratch::new("quick");
    let out = xqdiff_check(&dir, &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let report = read_report(&dir);
    let phases = report["phases"].as_array().expect("phases");
    let names: Vec<&str> = phases.iter().filter_map(|p| p["name"].as_str()).collect();
    assert_eq!(names, ALL_PHASES);
    for p in phases {
        let want = if p["name"] == "engine" {
            "skipped"
        } else {
            "passed"
        };
        assert_eq!(p["status"], want, "{p}");
    }
    assert_eq!(report["status"], "passed");
    // A string: a seed past 2^53 would not survive as a JSON number.
    assert_eq!(report["seed"], "5");
    assert_eq!(report["disagreements"], Value::Array(Vec::new()));
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
    let table: &[(&str, i32, &str, bool)] = &[
        ("--bug horse-leg-ignored", 1, "failed", true),
        ("--crash-after 5", 2, "error", false),
        ("--no-handshake", 2, "error", false),
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
        assert_eq!(phase_status(&report, "engine"), Some(status), "{switches}");
        let details = phase(&report, "engine").map(|p| &p["details"]);
        // Each position the engine answered has its line in the log (stdout is a pipe
        // here), with the same counts as the phase's table.
        if let Some(t) = details.filter(|d| d["kind"] == "engine") {
            let rows = t["rows"].as_array().expect("engine rows");
            let answered: Vec<_> = rows.iter().filter(|r| !r["subject"].is_null()).collect();
            assert!(status == "error" || !answered.is_empty(), "{switches}");
            for r in answered {
                let position = r["position"].as_str().expect("a label");
                let (ours, theirs) = (count(&r["consensus"]), count(&r["subject"]));
                let (ours, theirs) = (ours.to_string(), theirs.to_string());
                assert!(
                    stdout.lines().any(|l| {
                        let words: Vec<&str> = l.split_whitespace().collect();
                        // A differing line goes on to name its bug.
                        (l.ends_with(position) || l.contains(&format!("  {position}  bug ")))
                            && words.contains(&ours.as_str())
                            && words.contains(&theirs.as_str())
                    }),
                    "{switches}: no line for {position} ({theirs} vs {ours}):\n{stdout}"
                );
            }
        }
        if status == "error" {
            let message = phase_message(&report, "engine");
            assert!(!message.is_empty(), "{switches}: no message");
            assert!(stderr.contains("check incomplete"), "{switches}: {stderr}");
        }
        let engine_disputes = disputes_of(&report, "engine");
        assert_eq!(!engine_disputes.is_empty(), dispute, "{switches}");
        for d in engine_disputes {
            assert_eq!(d["odd_one_out"], "xqdiff-test-engine");
            assert!(d["moves"].as_array().is_some_and(|m| !m.is_empty()), "{d}");
        }
        if dispute {
            // The engine's count of the start position sits in the perft table.
            let rows = phase(&report, "perft").and_then(|p| p["details"]["rows"].as_array());
            let beside = rows.into_iter().flatten().any(|r| {
                r["position"] == "start"
                    && r["results"]
                        .as_array()
                        .is_some_and(|x| x.iter().any(|x| x["subject"] == "xqdiff-test-engine"))
            });
            assert!(beside, "no engine column in the perft table");
            // The engine's bug is the engine phase's, counted once.
            assert_eq!(phase_status(&report, "perft"), Some("passed"), "{switches}");
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
    let engine = phase(&report, "engine").expect("an engine phase");
    assert_eq!(engine["status"], "failed", "{engine}");
    // Fresh positions are made until the time is up, then the one being asked is
    // finished: a crash's shrinking may take a few seconds more, never the whole run.
    let seconds = engine["seconds"].as_f64().expect("seconds");
    assert!(
        (SECONDS..SECONDS + 20.0).contains(&seconds),
        "the phase took {seconds} s"
    );
    let details = &engine["details"];
    assert_eq!(details["kind"], "engine", "{engine}");
    let fresh = &details["fresh"];
    assert!(count(&fresh["positions"]) > 0, "{fresh}");
    assert_eq!(fresh["coverage"]["total"], fresh["positions"]);
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
    let features = fresh["coverage"]["features"].as_array().expect("features");
    assert_eq!(rows, features.len(), "{html}");
    let (confirmed, positions) = (count(&details["confirmed"]), count(&details["positions"]));
    assert!(
        confirmed < positions,
        "every position confirmed by all: {confirmed} of {positions}"
    );
    let crashes: Vec<_> = disputes_of(&report, "engine")
        .into_iter()
        .filter(|d| d["check"] == "crash")
        .collect();
    assert_eq!(crashes.len(), 1, "{:#}", report["disagreements"]);
    let crash = crashes[0];
    assert!(crash["hits"].as_u64().is_some_and(|n| n > 1), "{crash}");
    let fen = crash["fen"].as_str().expect("a FEN");
    let witness = xqdiff::Position::from_fen(fen).expect("the witness");
    assert!(witness.pieces().count() <= 4, "{fen}");
    // Asked on after it crashed: the corpus's positions in check crash it, and fresh
    // positions made after them are answered.
    let rows = details["rows"].as_array().expect("engine rows");
    let answered = |r: &&Value| {
        r["position"]
            .as_str()
            .is_some_and(|p| p.starts_with("fresh"))
            && !r["subject"].is_null()
    };
    assert!(rows.iter().filter(answered).count() >= 3, "{rows:?}");
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
        (&["--max-nodes", "0", "--seconds", "0"], &["perft", "fuzz"]),
        (&["--max-nodes", "0", "--seconds", "1"], &["perft"]),
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
            assert_eq!(status == Some("error"), erred, "{flags:?}: {name}");
        }
        assert_eq!(report["status"], "error", "{flags:?}");
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
        assert_eq!(report["status"], "interrupted", "{signal}");
        assert_eq!(report["signal"], code - 128, "{signal}");
        let fuzz = phase(&report, "fuzz").expect("a fuzz phase");
        assert_eq!(fuzz["status"], "interrupted", "{signal}");
        let details = &fuzz["details"];
        assert!(
            details["kind"] == "fuzz"
                && details["interrupted"] == true
                && count(&details["cases"]) > 0,
            "{signal}: {fuzz}"
        );
        assert_eq!(phase_status(&report, "perft"), Some("passed"));
        assert_eq!(phase_status(&report, "metamorphic"), Some("interrupted"));
        assert_eq!(
            phase_message(&report, "metamorphic"),
            "did not run: interrupted"
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
    let replay = &phase(&report, "replay").expect("a replay phase")["details"];
    assert_eq!(replay["kind"], "replay", "{replay}");
    let files = replay["files"].as_array().expect("the files replayed");
    let files = files.iter().map(|f| f.as_str().expect("a name").to_owned());
    let dir = replay["dir"].as_str().expect("the corpus");
    (count(&replay["cases"]), files.collect(), dir.to_owned())
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
