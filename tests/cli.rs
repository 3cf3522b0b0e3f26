//! The `xqdiff` binary end to end: output and exit codes (0 agree, 1 disagree, 2 bad input).

use std::process::{Command, Output};

fn xqdiff(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xqdiff"))
        .args(args)
        .output()
        .expect("run xqdiff")
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
    let dir = std::env::temp_dir().join(format!("xqdiff-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_reference_suite_runs_on_every_generator() {
    let out = xqdiff(&["perft", "--suite", "reference", "--max-nodes", "10000000"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("all as published"), "{stdout}");
    assert!(stdout.matches("line").count() >= 40, "{stdout}");
}

#[test]
fn minimize_reads_fuzz_artifacts_and_fens() {
    let dir = std::env::temp_dir().join(format!("xqdiff-artifact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pos = xqdiff::Position::from_fen("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1").unwrap();
    let artifact = dir.join("crash-1");
    std::fs::write(&artifact, xqdiff::structured::to_bytes(&pos)).unwrap();
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
    std::fs::remove_dir_all(&dir).ok();
}
