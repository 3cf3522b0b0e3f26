//! The `xqdiff` binary end to end: output and exit codes (0 agree, 1 disagree, 2 bad
//! input, 128 + a signal's number when one stopped the command).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod util;
use util::{run as xqdiff, text, Reaped, Scratch};

/// One row per way of calling the binary: arguments, exit code, and text that must
/// appear on stdout or stderr.
#[test]
fn exit_codes_and_messages() {
    let table: &[(&[&str], i32, &str)] = &[
        (
            &["perft", "--depth", "3"],
            0,
            "all 3 generators agree: 79666",
        ),
        (
            &["perft", "--depth", "2", "--generator", "naive"],
            0,
            "1920",
        ),
        (&["perft", "--depth", "1", "--divide"], 0, "h2e2"),
        (
            &["perft", "--fen", "not a fen", "--depth", "2"],
            2,
            "bad --fen",
        ),
        (
            &[
                "perft",
                "--fen",
                "3k5/9/9/9/9/9/9/9/9/4X4 w",
                "--depth",
                "1",
            ],
            2,
            "invalid character 'X'",
        ),
        (
            &[
                "perft",
                "--fen",
                "3k5/9/9/9/9/9/9/9/9/3K5 w",
                "--depth",
                "1",
            ],
            2,
            "face each other",
        ),
        (
            &["perft", "--depth", "1", "--generator", "nope"],
            2,
            "unknown generator",
        ),
        (&["perft"], 2, "--depth is required"),
        (&["perft", "--depth", "x"], 2, "invalid value"),
        (
            &["perft", "--suite", "/nonexistent/suite.epd"],
            2,
            "cannot read",
        ),
        (&["moves"], 0, "44 legal"),
        (
            &["moves", "--fen", "4k4/9/9/9/9/9/9/9/9/3K5 b"],
            0,
            "all 3 generators agree",
        ),
        (&["no-such-command"], 2, "unrecognized subcommand"),
        (
            &[
                "perft",
                "--depth",
                "2",
                "--no-save",
                "--corpus",
                "/nonexistent/dir",
            ],
            0,
            "all 3 generators agree: 1920",
        ),
        // `xqdiff engine` checks its own arguments before it starts an engine.
        (&["engine"], 2, "--cmd"),
        (
            &["engine", "--cmd", "x", "--option", "novalue"],
            2,
            "is not NAME=VALUE",
        ),
        (
            &["engine", "--cmd", "x", "--protocol", "morse"],
            2,
            "unknown protocol",
        ),
        (
            &["engine", "--cmd", "x", "--ranks", "2"],
            2,
            "unknown rank numbering",
        ),
        (
            &["engine", "--cmd", "x", "--fen-letters", "xy"],
            2,
            "unknown FEN letters",
        ),
        (
            &["engine", "--cmd", "x", "--depth", "0"],
            2,
            "--depth must be at least 1",
        ),
        (
            &["engine", "--cmd", "x", "--timeout", "0"],
            2,
            "not a positive number of seconds",
        ),
        (
            &["engine", "--cmd", "x", "--suite", "/nonexistent/suite.epd"],
            2,
            "cannot read",
        ),
    ];
    for (args, code, needle) in table {
        let out = xqdiff(args);
        let (stdout, stderr) = text(&out);
        assert_eq!(
            out.status.code(),
            Some(*code),
            "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
        );
        assert!(
            stdout.contains(needle) || stderr.contains(needle),
            "{args:?}: {needle:?} not in\nstdout: {stdout}\nstderr: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    }
}

#[test]
fn suite_runs_and_a_wrong_count_exits_1() {
    let dir = Scratch::new("cli");
    let good = dir.join("good.epd");
    let bad = dir.join("bad.epd");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    std::fs::write(&good, format!("# start\n{fen} ;D1 44 ;D2 1920\n")).unwrap();
    std::fs::write(&bad, format!("{fen} ;D1 44 ;D2 1921\n")).unwrap();

    let out = xqdiff(&["perft", "--suite", good.to_str().unwrap()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("all as published"), "{stdout}");

    let out = xqdiff(&["perft", "--suite", bad.to_str().unwrap()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("MISMATCH"), "{stdout}");

    std::fs::write(&bad, "3k5/9/9/9/9/9/9/9/9/4K4 w ;D1 three\n").unwrap();
    let out = xqdiff(&["perft", "--suite", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("line 1"), "{:?}", text(&out));
}

#[test]
fn the_reference_suite_runs_on_every_generator() {
    // A million nodes a count gives 47 rows; whether the generators get the larger
    // counts right is tests/perft_suite.rs's to say, in process.
    let out = xqdiff(&["perft", "--suite", "reference", "--max-nodes", "1000000"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("all as published"), "{stdout}");
    let rows = stdout.lines().filter(|l| l.contains(" expect ")).count();
    assert!(rows >= 40, "{stdout}");
    // A suite run that runs no count checked nothing, which is not a pass.
    let out = xqdiff(&["perft", "--suite", "reference", "--max-nodes", "0"]);
    assert_eq!(out.status.code(), Some(2), "{:?}", text(&out));
}

#[test]
fn minimize_reads_fuzz_artifacts_and_fens() {
    let dir = Scratch::new("artifact");
    let pos = xqdiff::Position::from_fen("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1").unwrap();
    let artifact = dir.join("crash-1");
    std::fs::write(&artifact, xqdiff::cases::structured::to_bytes(&pos)).unwrap();
    let out = xqdiff(&[
        "minimize",
        "--from-artifact",
        artifact.to_str().unwrap(),
        "--no-save",
    ]);
    let (stdout, stderr) = text(&out);
    // The generators agree on it, so there is nothing to minimize: exit 0, and the
    // artifact decoded to the very position it was made from.
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains(&pos.fen()), "{stdout}");
    assert!(stdout.contains("nothing to minimize"), "{stdout}");
    let missing = xqdiff(&[
        "minimize",
        "--from-artifact",
        dir.join("none").to_str().unwrap(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    let neither = xqdiff(&["minimize"]);
    assert_eq!(neither.status.code(), Some(2));
}

/// A corpus directory named on the command line: a command that reads it refuses one
/// that is not there (exit 2, one line naming the flag and the path); one that only
/// writes findings takes a new directory whose parent exists, and leaves it uncreated
/// while it has nothing to write; `--no-save` on a writer does not look at it.
#[test]
fn a_missing_corpus_is_refused_by_every_command_that_reads_it() {
    let root = Scratch::new("cli-corpus");
    let new = root.join("new");
    let new = new.to_str().unwrap();
    let seeds = root.join("seeds");
    let seeds = seeds.to_str().unwrap();
    let missing = "/no/such/dir";
    let agreeing = "4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1";
    let refused = "--corpus /no/such/dir: no such directory";
    let table: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["check", "--quick", "--no-save", "--corpus", missing],
            2,
            refused,
        ),
        (
            vec!["fuzz", "--cases", "1", "--corpus", missing],
            2,
            refused,
        ),
        (
            vec!["fuzz", "--cases", "1", "--no-save", "--corpus", missing],
            2,
            refused,
        ),
        (
            vec!["engine", "--cmd", "x", "--corpus", missing],
            2,
            refused,
        ),
        (
            vec!["fuzz-seeds", "--out", seeds, "--corpus", missing],
            2,
            refused,
        ),
        (
            vec!["replay", missing],
            2,
            "corpus directory /no/such/dir: no such directory",
        ),
        (vec!["replay", "--corpus", missing], 2, refused),
        (vec!["replay", new], 2, "no such directory"),
        (
            vec!["minimize", "--fen", agreeing, "--corpus", missing],
            2,
            "nor its parent /no/such",
        ),
        (
            vec!["perft", "--depth", "1", "--corpus", missing],
            2,
            "nor its parent /no/such",
        ),
        (
            vec!["minimize", "--fen", agreeing, "--corpus", new],
            0,
            "nothing to minimize",
        ),
        (vec!["perft", "--depth", "1", "--corpus", new], 0, "agree"),
        (
            vec![
                "minimize",
                "--fen",
                agreeing,
                "--no-save",
                "--corpus",
                missing,
            ],
            0,
            "nothing to minimize",
        ),
    ];
    for (args, code, needle) in &table {
        let out = xqdiff(args);
        let (stdout, stderr) = text(&out);
        assert_eq!(
            out.status.code(),
            Some(*code),
            "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
        );
        assert!(
            stdout.contains(needle) || stderr.contains(needle),
            "{args:?}: {needle:?} not in\nstdout: {stdout}\nstderr: {stderr}"
        );
        if *code == 2 {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
    }
    assert!(
        !root.join("new").exists(),
        "a writer made a directory it did not need"
    );
    assert!(
        !root.join("seeds").exists(),
        "fuzz-seeds wrote with no corpus"
    );
}

/// An empty corpus replays nothing, which is not a pass.
#[test]
fn replaying_an_empty_corpus_is_not_a_pass() {
    let dir = Scratch::new("cli-empty");
    let out = xqdiff(&["replay", dir.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("holds no cases"), "{stderr}");
}

/// Each row: a real signal sent by pid to a sixty-second `xqdiff fuzz`, and the exit
/// code it must give: it stops at once, prints its count and what it found, and exits
/// 128 + the signal's number.
#[test]
fn a_signal_ends_fuzz_with_what_it_found_and_128_plus_its_number() {
    let table: &[(&str, i32, &str)] = &[("INT", 130, "SIGINT"), ("TERM", 143, "SIGTERM")];
    for &(signal, code, name) in table {
        let started = Instant::now();
        let mut child = Reaped(
            util::xqdiff()
                .args(["fuzz", "--seconds", "60", "--no-save", "--seed", "3"])
                .args(["--threads", "1"])
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("start xqdiff fuzz"),
        );
        let pid = child.0.id();
        let mut lines = BufReader::new(child.0.stdout.take().expect("piped stdout")).lines();
        for line in lines.by_ref() {
            if line.expect("read stdout").starts_with("fuzz: seed") {
                break;
            }
        }
        // Fuzzing once it has spent CPU time on it, however busy the machine.
        let at = util::cpu_time(pid);
        util::wait_until(&format!("{signal}: fuzzing"), || {
            util::cpu_time(pid) >= at + Duration::from_millis(300)
        });
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(killed.success());
        let rest: Vec<String> = lines.map_while(Result::ok).collect();
        let status = child.0.wait().expect("wait for xqdiff");
        let rest = rest.join("\n");
        assert!(started.elapsed() < Duration::from_secs(30), "{signal}");
        assert_eq!(status.code(), Some(code), "{signal}\n{rest}");
        assert!(rest.contains(", interrupted"), "{signal}: {rest}");
        assert!(rest.contains(&format!("interrupted by {name}")), "{rest}");
    }
}

/// With `--json` a signal still ends fuzz with 128 + its number, and the document on
/// stdout says so: status `interrupted`, the signal on record, as `check`'s report.
#[test]
fn a_signal_during_fuzz_json_is_an_interrupted_document() {
    let mut child = Reaped(
        util::xqdiff()
            .args([
                "fuzz",
                "--seconds",
                "60",
                "--no-save",
                "--seed",
                "3",
                "--json",
                "--threads",
                "1",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start xqdiff fuzz"),
    );
    let pid = child.0.id();
    // No line comes before the document; fuzzing, once it has spent CPU time on it, is
    // long past where the handler is put in place.
    util::wait_until("fuzzing", || {
        util::cpu_time(pid) >= Duration::from_millis(500)
    });
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut child.0.stdout.take().unwrap(), &mut stdout).unwrap();
    let status = child.0.wait().expect("wait for xqdiff");
    assert_eq!(status.code(), Some(143), "{stdout}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    assert_eq!(doc["status"], "interrupted", "{stdout}");
    assert_eq!(doc["signal"], 15, "{stdout}");
}

/// `cargo` runs this from the repository; the corpus is found from the crate root, not
/// the current directory, so `replay` with no argument works from anywhere.
#[test]
fn replay_without_a_directory_uses_the_repository_corpus_from_anywhere() {
    let elsewhere = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = util::xqdiff()
        .current_dir(&elsewhere)
        .arg("replay")
        .output()
        .expect("run xqdiff replay");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    assert!(
        stdout.contains(&format!("from {}", corpus.display())),
        "{stdout}"
    );
}

/// Every command's help, as clap lays it out for `--help`: each flag with its help on
/// the lines under it (clap would move the help under its flag for one command alone,
/// when that command's flags are long), value names chosen rather than clap's
/// placeholder made from the field (`<ENGINE_DEPTH>`), and the flags every command
/// shares spelled alike.
#[test]
fn every_command_lays_out_its_help_alike_with_named_values() {
    let table: &[(&str, &[&str])] = &[
        (
            "check",
            &[
                "--corpus <DIR>",
                "--engine-depth <DEPTH>",
                "--seed <SEED>",
                "--json",
            ],
        ),
        (
            "perft",
            &[
                "--corpus <DIR>",
                "--generator <NAME>",
                "--depth <DEPTH>",
                "--split-depth <DEPTH>",
                "--json",
            ],
        ),
        ("moves", &["--generator <NAME>", "--fen <FEN>", "--json"]),
        ("bench", &["--generator <NAME>", "--seed <SEED>", "--json"]),
        (
            "fuzz",
            &[
                "--corpus <DIR>",
                "--source <arbitrary|playout|both>",
                "--seed <SEED>",
                "--json",
            ],
        ),
        ("minimize", &["--corpus <DIR>", "--fen <FEN>", "--json"]),
        ("replay", &["--corpus <DIR>", "--json"]),
        ("fuzz-seeds", &["--corpus <DIR>", "--out <DIR>"]),
        (
            "engine",
            &[
                "--corpus <DIR>",
                "--depth <DEPTH>",
                "--seed <SEED>",
                "--json",
            ],
        ),
        ("report", &["--from <FILE>", "--json"]),
        ("merge", &["--jobs <FILE>", "--json"]),
    ];
    for (command, spellings) in table {
        let out = xqdiff(&[command, "--help"]);
        let (help, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{command}: {stderr}");
        let lines: Vec<&str> = help.lines().collect();
        let indent = |l: &str| l.len() - l.trim_start().len();
        // A flag stands at most six columns in (`  -q, --quiet`, `      --seed`); a
        // help line that wraps before a flag's name is further in.
        let is_flag = |l: &str| l.trim_start().starts_with('-') && indent(l) <= 6;
        let options: Vec<&str> = lines.iter().copied().filter(|l| is_flag(l)).collect();
        assert!(options.len() >= 2, "{command}: no options in\n{help}");
        for (i, line) in lines.iter().enumerate() {
            if !is_flag(line) {
                continue;
            }
            // `  --flag <VALUE>` alone, its help indented further on the next line.
            let rest = line.trim_start();
            let next = lines.get(i + 1).copied().unwrap_or("");
            assert!(
                !rest.contains("  ") && !next.trim().is_empty() && indent(next) > indent(line),
                "{command}: {line:?} does not have its help on the lines under it:\n{help}"
            );
            for value in rest.split('<').skip(1).filter_map(|v| v.split_once('>')) {
                assert!(
                    !value.0.contains('_'),
                    "{command}: clap's placeholder <{}> in {line:?}",
                    value.0
                );
            }
        }
        for spelling in *spellings {
            assert!(
                options.iter().any(|l| l.trim_start().starts_with(spelling)),
                "{command}: no {spelling:?} in\n{help}"
            );
        }
    }
}

/// `replay` takes `--corpus DIR` like every other command, and the directory as a bare
/// argument as it always has; not both.
#[test]
fn replay_takes_the_corpus_as_a_flag_or_as_before() {
    let table: &[(&[&str], i32, &str)] = &[
        (&["replay", "--corpus", "corpus"], 0, "replayed"),
        (&["replay", "corpus"], 0, "replayed"),
        (
            &["replay", "--corpus", "/no/such/dir"],
            2,
            "--corpus /no/such/dir: no such directory",
        ),
        (
            &["replay", "--corpus", "corpus", "corpus"],
            2,
            "cannot be used with",
        ),
    ];
    for (args, code, needle) in table {
        let out = util::xqdiff()
            .args(*args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run xqdiff replay");
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(*code), "{args:?}\n{stdout}{stderr}");
        assert!(
            stdout.contains(needle) || stderr.contains(needle),
            "{args:?}: {needle:?} not in\n{stdout}{stderr}"
        );
        if *code == 2 {
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        }
    }
}

/// `moves --generator` is repeatable like `perft --generator`: two names list two.
#[test]
fn moves_takes_several_generators() {
    let out = xqdiff(&["moves", "--generator", "naive", "--generator", "mailbox"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let listed: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains(" legal"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    // Registry order, whatever the order asked.
    assert_eq!(listed, ["mailbox", "naive"], "{stdout}");
    assert!(stdout.contains("all 2 generators agree"), "{stdout}");
}

/// An engine command line with a quote left open is bad usage: exit 2, one line.
#[test]
fn an_unbalanced_quote_in_an_engine_command_is_bad_usage() {
    for args in [
        ["engine", "--cmd", "engine 'one two"],
        ["check", "--engine", "engine \"one"],
        ["engine", "--cmd", "engine \\"],
    ] {
        let out = xqdiff(&args);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}\n{stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("unbalanced quote"), "{args:?}: {stderr}");
    }
}

/// Each row: a command with `--json`, its exit code (the one the text run gives), a
/// JSON pointer into the one document on stdout and the value there. A line of human
/// text before or after the document fails the parse.
#[test]
fn every_summary_can_be_one_json_document() {
    let dir = Scratch::new("cli-json");
    let wrong = dir.join("wrong.epd");
    std::fs::write(
        &wrong,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 ;D1 45\n",
    )
    .unwrap();
    let report_dir = dir.join("report");
    let report = report_dir.join("report.json");
    let engine = format!("{} --protocol uci", util::TEST_ENGINE);
    let agreeing = "4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1";
    let s = |p: &std::path::Path| p.to_str().unwrap().to_owned();
    type Row = (Vec<String>, i32, &'static str, serde_json::Value);
    let row = |args: &[&str], code, pointer, value| -> Row {
        (
            args.iter().map(|a| a.to_string()).collect(),
            code,
            pointer,
            value,
        )
    };
    use serde_json::json;
    let table: Vec<Row> = vec![
        row(
            &["perft", "--depth", "2", "--json"],
            0,
            "/phases/0/details/rows/0/results/2/nodes",
            json!(1920),
        ),
        row(
            &[
                "perft",
                "--suite",
                "reference",
                "--max-nodes",
                "2000",
                "--json",
            ],
            0,
            "/status",
            json!("passed"),
        ),
        row(
            &["perft", "--suite", &s(&wrong), "--no-save", "--json"],
            1,
            "/status",
            json!("failed"),
        ),
        row(&["moves", "--json"], 0, "/agree", json!(true)),
        row(
            &["moves", "--generator", "naive", "--json"],
            0,
            "/generators/0/legal/0",
            json!("a0a1"),
        ),
        row(
            &[
                "bench",
                "--shallower",
                "4",
                "--generator",
                "naive",
                "--json",
            ],
            0,
            "/rows/0/nodes",
            json!(44),
        ),
        row(
            &["bench", "--oracle", "--cases", "2", "--json"],
            0,
            "/cases",
            json!(2),
        ),
        row(
            &["fuzz", "--cases", "3", "--seed", "1", "--no-save", "--json"],
            0,
            "/phases/0/details/cases",
            json!(3),
        ),
        row(
            &["minimize", "--fen", agreeing, "--no-save", "--json"],
            0,
            "/status",
            json!("passed"),
        ),
        row(&["replay", "--json"], 0, "/phases/0/name", json!("replay")),
        row(
            &[
                "engine",
                "--cmd",
                &engine,
                "--depth",
                "1",
                "--positions",
                "1",
                "--suite",
                "none",
                "--no-save",
                "--json",
            ],
            0,
            "/phases/0/details/kind",
            json!("engine"),
        ),
        row(
            &[
                "check",
                "--quick",
                "--seconds",
                "1",
                // A timed phase costs its time on every thread.
                "--threads",
                "1",
                "--no-save",
                "--report-dir",
                &s(&report_dir),
                "--json",
            ],
            0,
            "/status",
            json!("passed"),
        ),
        // Reads the report the row above wrote.
        row(
            &["report", "--from", &s(&report), "--json"],
            0,
            "/phases/0/name",
            json!("perft"),
        ),
    ];
    for (args, code, pointer, value) in &table {
        let out = util::xqdiff()
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run xqdiff");
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(*code), "{args:?}\n{stdout}{stderr}");
        let doc: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("{args:?}: not one JSON document ({e}):\n{stdout}"));
        assert_eq!(
            doc.pointer(pointer),
            Some(value),
            "{args:?} {pointer}:\n{stdout}"
        );
    }
}

/// An argument that is not UTF-8 (a path, say) is recorded in a report's command line,
/// not a panic.
#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_is_recorded_not_a_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = Scratch::new("cli-bytes");
    let corpus = dir.join(OsStr::from_bytes(b"corpus-\xff"));
    let out = util::xqdiff()
        .args(["perft", "--depth", "1", "--json", "--corpus"])
        .arg(&corpus)
        .output()
        .expect("run xqdiff");
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let command = doc["command"].as_str().expect("a command line");
    assert!(command.contains("corpus-\u{fffd}"), "{command}");
}

/// Runs a finding's printed command as a shell would read it (the first word, `xqdiff`,
/// is this build), with the planted bug `bug` in the program's generators.
fn run_printed(command: &str, bug: &str) -> Output {
    let words = shlex::split(command).unwrap_or_else(|| panic!("not a shell line: {command}"));
    assert_eq!(
        words.first().map(String::as_str),
        Some("xqdiff"),
        "{command}"
    );
    util::xqdiff()
        .args(&words[1..])
        .env(xqdiff::generators::PLANTED_BUG_VAR, bug)
        .output()
        .expect("run the printed command")
}

/// The moves a subject's own answer names, as many times as it names each: `a1b3: 1`
/// (perft divide) lines, or the words of a moves-protocol list.
fn moves_named(answer: &str) -> Vec<String> {
    let is_move = |w: &str| {
        let b = w.as_bytes();
        b.len() == 4
            && (b'a'..=b'i').contains(&b[0])
            && b[1].is_ascii_digit()
            && (b'a'..=b'i').contains(&b[2])
            && b[3].is_ascii_digit()
    };
    let mut named: Vec<String> = answer
        .split_whitespace()
        .map(|w| w.trim_end_matches(':'))
        .filter(|w| is_move(w))
        .map(str::to_owned)
        .collect();
    named.sort();
    named
}

/// What "Reproduce with:" says by hand, done by hand: the subject's own lines typed
/// into `program` give another list than the built-ins' answer command prints.
fn shown_by_hand(program: &str, reproduce: &serde_json::Value) {
    let lines: Vec<&str> = reproduce["subject_lines"]
        .as_array()
        .expect("the subject's own lines")
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let words = shlex::split(program).unwrap();
    let mut child = std::process::Command::new(&words[0])
        .args(&words[1..])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start the subject");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{}", lines.join("\n")).unwrap();
    }
    // The input ends with the question; the subject answers and ends at end of input.
    let theirs = child.wait_with_output().expect("the subject's answer");
    let theirs = String::from_utf8_lossy(&theirs.stdout).into_owned();
    let answer = reproduce["answer"].as_str().expect("the answer command");
    let words = shlex::split(answer).unwrap();
    assert_eq!(words[0], "xqdiff", "{answer}");
    let ours = util::xqdiff().args(&words[1..]).output().unwrap();
    assert_eq!(ours.status.code(), Some(0), "{answer}: {:?}", text(&ours));
    let (ours, _) = text(&ours);
    // `xqdiff moves` prints one list per generator; they agree, so one is the answer.
    let first = ours
        .lines()
        .find(|l| l.contains(" legal: "))
        .expect("a list");
    let ours = moves_named(first.split(" legal: ").nth(1).unwrap());
    let theirs = moves_named(
        theirs
            .lines()
            .filter(|l| !l.starts_with("info"))
            .collect::<Vec<_>>()
            .join(" ")
            .as_str(),
    );
    assert!(!theirs.is_empty(), "{program} named no moves for {lines:?}");
    assert_ne!(theirs, ours, "{program} typed {lines:?} shows no bug");
}

/// Every finding ends with "Reproduce with:": its one command line is the same in the
/// JSON's `found_by` and in the corpus note `found-by`, and run as printed it finds the
/// same bug again; for an engine, its own protocol lines typed into it show the bug
/// beside the built-ins' answer command. For a fuzz finding, a perft finding, an engine
/// finding made with `--compare pseudo-legal` and a UCI engine listing a move twice.
#[test]
fn a_finding_prints_the_command_that_finds_it_again() {
    let dir = Scratch::new("provenance");
    // A folder per row: a corpus keeps only a few witnesses of a bug, so a second
    // command finding the same bug would be pointed at the first one's file.
    let corpus = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let (fuzz_dir, perft_dir, engine_dir, uci_dir) = (
        corpus("fuzz"),
        corpus("perft"),
        corpus("engine"),
        corpus("uci"),
    );
    for made in [&fuzz_dir, &engine_dir, &uci_dir] {
        std::fs::create_dir_all(made).unwrap();
    }
    let engine = format!(
        "{} --protocol moves --offer-pseudo --bug horse-leg-ignored",
        util::TEST_ENGINE
    );
    let twice = format!("{} --bug horse-takes-horse-twice", util::TEST_ENGINE);
    // (the command that finds it, the planted bug in the program, the line that names
    // the bug in what the printed command prints)
    let table: &[(Vec<&str>, &str, &str)] = &[
        (
            vec![
                "fuzz", "--cases", "256", "--seed", "3", "--corpus", &fuzz_dir,
            ],
            "horse-leg-ignored",
            "signature  ",
        ),
        (
            vec![
                "perft",
                "--fen",
                "4k4/9/9/9/9/9/4P4/4N4/9/3K5 w",
                "--depth",
                "2",
                "--corpus",
                &perft_dir,
            ],
            "horse-leg-ignored",
            "signature: ",
        ),
        (
            vec![
                "engine",
                "--cmd",
                &engine,
                "--protocol",
                "moves",
                "--compare",
                "pseudo-legal",
                "--positions",
                "20",
                "--seed",
                "1",
                "--depth",
                "2",
                "--corpus",
                &engine_dir,
            ],
            "none",
            "BUG ",
        ),
        (
            vec![
                "engine",
                "--cmd",
                &twice,
                "--positions",
                "300",
                "--seed",
                "1",
                "--depth",
                "2",
                "--corpus",
                &uci_dir,
            ],
            "none",
            "BUG ",
        ),
    ];
    for (args, bug, names) in table {
        let mut with_json = args.clone();
        with_json.push("--json");
        let out = util::xqdiff()
            .args(&with_json)
            .env(xqdiff::generators::PLANTED_BUG_VAR, bug)
            .output()
            .expect("run xqdiff");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {:?}", text(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let finding = &report["disagreements"][0];
        let found_by = finding["found_by"].as_str().expect("found_by").to_owned();
        let signature = finding["signature"].as_str().expect("signature").to_owned();
        if let Some(file) = finding["corpus_file"].as_str() {
            let saved = std::fs::read_to_string(file).expect("the corpus file");
            assert!(
                saved.lines().any(|l| l == format!("found-by: {found_by}")),
                "{args:?}: {saved}"
            );
        }
        let reproduce = &finding["reproduce"];
        assert_eq!(reproduce["command"].as_str(), Some(found_by.as_str()));
        if args[0] == "engine" {
            shown_by_hand(args[2], reproduce);
        }
        // The text says the same, last.
        let printed = util::xqdiff()
            .args(args)
            .env(xqdiff::generators::PLANTED_BUG_VAR, bug)
            .output()
            .expect("run xqdiff");
        let (stdout, _) = text(&printed);
        let block = stdout
            .split("Reproduce with:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{args:?} printed no Reproduce with:\n{stdout}"));
        assert_eq!(block.lines().next().map(str::trim), Some(found_by.as_str()));
        let again = run_printed(&found_by, bug);
        let (stdout, stderr) = text(&again);
        assert_eq!(
            again.status.code(),
            Some(1),
            "{found_by}: {stdout} {stderr}"
        );
        let named = stdout
            .lines()
            .filter_map(|l| l.strip_prefix(names))
            .map(|rest| rest.split([' ', ':']).next().unwrap_or(""))
            .collect::<Vec<_>>();
        assert!(
            named.contains(&signature.as_str()),
            "{found_by} names {named:?}, not {signature}:\n{stdout}"
        );
    }
}

/// Fairy-Stockfish 11.1's answer to `go perft 2` from the start (`UCI_Variant` xiangqi),
/// as Debian's package prints it: regenerate with
/// `printf 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft 2\n' | fairy-stockfish`.
const FAIRY_STOCKFISH_PERFT_2: &str = include_str!("data/fairy-stockfish-11.1-go-perft-2.txt");

/// The lines of `text`, sorted: engines print the divide in their own move order.
fn sorted_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.sort_unstable();
    lines
}

/// Where `line` is in `stdout`, failing when it is not there.
fn line_at(stdout: &str, line: &str) -> usize {
    stdout
        .lines()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("no line {line:?} in:\n{stdout}"))
}

/// Each row: `xqdiff perft` arguments, a planted bug in the program's generators (or
/// none), the exit code, and what stdout must be. Stockfish's form is the divide as
/// `move: count` lines, a blank line and `Nodes searched: N`, and nothing else; with
/// `--ranks 1` it is Fairy-Stockfish's own answer, line for line once sorted.
#[test]
fn perft_prints_the_forms_engines_print() {
    let disagreeing = "4k4/9/9/9/9/9/4P4/4N4/9/3K5 w";
    type Check = fn(&str);
    let table: &[(&[&str], Option<&str>, i32, Check)] = &[
        (&["--depth", "2", "--format", "stockfish"], None, 0, |out| {
            assert_eq!(out, "Nodes searched: 1920\n")
        }),
        (
            &[
                "--depth",
                "2",
                "--divide",
                "--format",
                "stockfish",
                "--ranks",
                "1",
            ],
            None,
            0,
            |out| {
                assert_eq!(sorted_lines(out), sorted_lines(FAIRY_STOCKFISH_PERFT_2));
                assert!(out.ends_with(": 44\n\nNodes searched: 1920\n"), "{out}");
                // ICCS order, ranks compared as numbers: b3b10 after b3b7, before b3c3.
                let at = |line| line_at(out, line);
                assert!(at("b3b7: 40") < at("b3b10: 41") && at("b3b10: 41") < at("b3c3: 45"));
            },
        ),
        (
            &["--depth", "2", "--divide", "--format", "stockfish"],
            None,
            0,
            |out| {
                line_at(out, "h2e2: 45");
                line_at(out, "b2b9: 41");
                assert!(!out.contains("h3e3"), "{out}");
                assert_eq!(out.lines().count(), 44 + 2, "{out}");
            },
        ),
        (
            &[
                "--depth",
                "1",
                "--divide",
                "--ranks",
                "1",
                "--generator",
                "bitboard",
            ],
            None,
            0,
            |out| {
                assert!(out.lines().any(|l| l.starts_with("h3e3 ")), "{out}");
                assert!(!out.lines().any(|l| l.starts_with("h2e2 ")), "{out}");
                assert!(out.contains(" 44 nodes "), "{out}");
            },
        ),
        // No one answer to print Stockfish's way: the text form's lines, and exit 1.
        (
            &[
                "--fen",
                disagreeing,
                "--depth",
                "2",
                "--divide",
                "--format",
                "stockfish",
                "--no-save",
            ],
            Some("horse-leg-ignored"),
            1,
            |out| {
                assert!(out.contains("generators DISAGREE"), "{out}");
                assert!(!out.contains("Nodes searched"), "{out}");
            },
        ),
        (
            &[
                "--depth",
                "2",
                "--divide",
                "--json",
                "--generator",
                "bitboard",
            ],
            None,
            0,
            |out| {
                let doc: serde_json::Value = serde_json::from_str(out).unwrap();
                let divide = doc
                    .pointer("/phases/0/details/rows/0/results/0/divide")
                    .and_then(|d| d.as_array())
                    .unwrap_or_else(|| panic!("no divide in {out}"));
                let count = |mv: &str| {
                    divide
                        .iter()
                        .find(|e| e["move"] == mv)
                        .and_then(|e| e["nodes"].as_u64())
                };
                assert_eq!(divide.len(), 44);
                assert_eq!(count("h2e2"), Some(45));
                assert_eq!(count("b2b9"), Some(41));
                let sum: u64 = divide.iter().filter_map(|e| e["nodes"].as_u64()).sum();
                assert_eq!(sum, 1920);
            },
        ),
        (
            &["--depth", "2", "--json", "--generator", "bitboard"],
            None,
            0,
            |out| {
                let doc: serde_json::Value = serde_json::from_str(out).unwrap();
                let result = &doc["phases"][0]["details"]["rows"][0]["results"][0];
                assert_eq!(result["nodes"], 1920);
                assert!(result.get("divide").is_none(), "{out}");
            },
        ),
        (
            &["--depth", "1", "--json", "--format", "stockfish"],
            None,
            2,
            |_| {},
        ),
        (&["--depth", "1", "--json", "--ranks", "1"], None, 2, |_| {}),
        (&["--depth", "1", "--ranks", "auto"], None, 2, |_| {}),
        (
            &["--suite", "reference", "--format", "stockfish"],
            None,
            2,
            |_| {},
        ),
    ];
    for &(args, bug, code, check) in table {
        let mut cmd = util::xqdiff();
        cmd.arg("perft").args(args).stdin(Stdio::null());
        if let Some(bug) = bug {
            cmd.env(xqdiff::generators::PLANTED_BUG_VAR, bug);
        }
        let out = cmd.output().expect("run xqdiff");
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(code), "{args:?}\n{stdout}{stderr}");
        check(&stdout);
    }
}

/// `bench --engine` times an engine's own perft beside the generators, and a count of
/// its that differs fails the run: a speed is worth nothing for wrong counts. Each row:
/// the test engine's switches, the exit code, and the engine's count of the start
/// position at depth 1.
#[test]
fn bench_times_an_engine_beside_the_generators_and_checks_its_counts() {
    let table: &[(&str, i32, u64)] = &[
        ("", 0, 44),
        // A horse that ignores its leg adds b0d1 and h0f1 at the start.
        ("--bug horse-leg-ignored", 1, 46),
    ];
    for &(switches, code, start) in table {
        let engine = format!("{} --protocol uci {switches}", util::TEST_ENGINE);
        let out = xqdiff(&[
            "bench",
            "--shallower",
            "4",
            "--generator",
            "bitboard",
            "--engine",
            &engine,
            "--json",
        ]);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{switches}: {:?}",
            text(&out)
        );
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = doc["engine_rows"].as_array().unwrap();
        assert_eq!(rows.len(), 3, "{doc}");
        assert_eq!(rows[0]["position"], "start");
        assert_eq!(rows[0]["nodes"], start, "{switches}");
        assert!(
            rows[0]["generators_vs_engine"]["bitboard"]
                .as_f64()
                .unwrap()
                > 0.0
        );
        assert_eq!(doc["agree"], code == 0, "{switches}");
    }
}
