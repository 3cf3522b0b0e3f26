//! What a terminal shows: colour only where it was asked for, `--quiet`, known bugs
//! shown as known, help within 80 columns, and progress lines when stderr is a pipe.

mod util;

use std::process::{Command, Output, Stdio};
use util::{test_engine, text, Scratch, XQDIFF};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A position after one move each: the test engine's planted horse bug shows there.
const OPENED: &str = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";

/// Runs xqdiff with `args` and `env`, stdout and stderr pipes (never a terminal).
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(XQDIFF);
    cmd.args(args).stdin(Stdio::null()).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run xqdiff")
}

/// `xqdiff engine` on the test engine with `bug` planted, at depth 1 on two positions.
fn engine_args(engine: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "engine",
        "--cmd",
        engine,
        "--depth",
        "1",
        "--fen",
        START,
        "--fen",
        OPENED,
        "--no-save",
        "--seed",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn has_ansi(s: &str) -> bool {
    s.contains('\x1b')
}

/// Each row: `NO_COLOR`'s value (`None`: unset), the flags, and whether stdout has
/// colour codes. Stdout is a pipe: `auto` never colours it, `always` does whatever
/// `NO_COLOR` says, and a JSON document never has any.
#[test]
fn colour_only_where_asked_for() {
    let engine = test_engine("--bug horse-leg-ignored");
    let table: &[(Option<&str>, &[&str], bool)] = &[
        (None, &[], false),
        (None, &["--color", "auto"], false),
        (None, &["--color", "never"], false),
        (None, &["--color", "always"], true),
        (Some("1"), &[], false),
        (Some("1"), &["--color", "never"], false),
        (Some("1"), &["--color", "always"], true),
        (Some(""), &["--color", "always"], true),
        (None, &["--color", "always", "--json"], false),
    ];
    for &(no_color, flags, want) in table {
        let args = engine_args(&engine, flags);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let env: Vec<(&str, &str)> = no_color.map(|v| ("NO_COLOR", v)).into_iter().collect();
        let out = run(&args, &env);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{flags:?}: {stdout}\n{stderr}");
        assert_eq!(
            has_ansi(&stdout),
            want,
            "NO_COLOR={no_color:?} {flags:?}: {stdout:?}"
        );
        assert!(!has_ansi(&stderr), "{flags:?}: {stderr:?}");
        if want {
            // The verdict word is the coloured one, red.
            assert!(stdout.contains("\x1b[31mDIFFERS\x1b[0m"), "{stdout:?}");
        }
    }
}

/// Each row: the flags, and whether the `ok` lines and the column header show. The
/// summary shows either way.
#[test]
fn quiet_drops_the_ok_lines_and_keeps_the_summary() {
    let engine = test_engine("");
    let table: &[(&[&str], bool)] = &[(&[], true), (&["--quiet"], false), (&["-q"], false)];
    for &(flags, lines) in table {
        let args = engine_args(&engine, flags);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, &[]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{flags:?}: {stdout}\n{stderr}");
        let oks = stdout.lines().filter(|l| l.starts_with("ok ")).count();
        assert_eq!(oks, if lines { 2 } else { 0 }, "{flags:?}: {stdout}");
        assert_eq!(
            stdout.lines().any(|l| l.starts_with("verdict ")),
            lines,
            "{flags:?}: {stdout}"
        );
        assert!(
            stdout.lines().any(|l| l.starts_with("agreement: ")),
            "{flags:?}: {stdout}"
        );
    }
}

/// Each row: the known-bugs file's text (`None`: no `--known`), the word the differing
/// positions' lines start with, and the exit code. Either way the line names the bug
/// as the findings do.
#[test]
fn a_known_bug_s_row_says_known_and_names_it() {
    let dir = Scratch::new("known-row");
    let engine = test_engine("--bug horse-leg-ignored");
    let bug = "cause/subject/horse-leg-ignored";
    let table: &[(Option<&str>, &str, i32)] = &[
        (None, "DIFFERS", 1),
        (
            Some("cause/subject/horse-leg-ignored  planted\n"),
            "KNOWN",
            0,
        ),
    ];
    for &(known, word, code) in table {
        let mut extra: Vec<String> = vec!["--max-findings".into(), "0".into()];
        if let Some(text) = known {
            let path = dir.dir().join("known.txt");
            std::fs::write(&path, text).unwrap();
            extra.extend(["--known".into(), path.display().to_string()]);
        }
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let args = engine_args(&engine, &extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, &[]);
        let (stdout, stderr) = text(&out);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{known:?}: {stdout}\n{stderr}"
        );
        let rows: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("DIFFERS") || l.starts_with("KNOWN"))
            .collect();
        assert!(!rows.is_empty(), "{known:?}: {stdout}");
        for row in rows {
            assert!(row.starts_with(word), "{known:?}: {row}");
            assert!(row.ends_with(&format!("bug {bug}")), "{known:?}: {row}");
        }
    }
}

/// The subcommands `xqdiff --help` lists.
fn subcommands() -> Vec<String> {
    let out = run(&["--help"], &[]);
    let (stdout, _) = text(&out);
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A name at two spaces in; a description's wrapped lines are further in.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Every command's help, short and long, fits 80 columns when the terminal has 80.
#[test]
fn help_fits_eighty_columns() {
    let commands = subcommands();
    assert!(commands.len() >= 10, "{commands:?}");
    let mut runs: Vec<Vec<String>> = vec![vec!["--help".into()], vec!["-h".into()]];
    for c in &commands {
        runs.push(vec![c.clone(), "--help".into()]);
        runs.push(vec![c.clone(), "-h".into()]);
    }
    for args in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args, &[("COLUMNS", "80")]);
        let (stdout, _) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        for line in stdout.lines() {
            let width = line.chars().count();
            assert!(width <= 80, "xqdiff {args:?}: {width} columns: {line}");
        }
    }
}

/// A run long enough (three seconds, however fast the machine), its stderr a pipe,
/// says how far it got in plain lines with the seed in them (no bar, no escape
/// codes); `--quiet` says nothing.
#[test]
fn plain_progress_lines_when_stderr_is_a_pipe() {
    let table: &[(&[&str], bool)] = &[(&[], true), (&["--quiet"], false)];
    for &(flags, want) in table {
        let mut args = vec!["fuzz", "--seconds", "3", "--seed", "7", "--no-save"];
        args.extend(["--threads", "1"]);
        args.extend(flags);
        let out = run(&args, &[]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
        let lines: Vec<&str> = stderr
            .lines()
            .filter(|l| l.starts_with("fuzz ") && l.contains("seed 7: "))
            .collect();
        assert_eq!(!lines.is_empty(), want, "{flags:?}: {stderr:?}");
        assert!(!has_ansi(&stderr) && !stderr.contains('\r'), "{stderr:?}");
    }
}

/// What a terminal shows after `output` was written to it: its lines as a screen
/// `width` columns wide keeps them, the escape codes of a progress bar (carriage
/// return, erase the line, cursor up) applied, colours ignored. Fails on any character
/// written past the last column: the terminal would have wrapped that line mid-word.
fn screen(output: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut col) = (0usize, 0usize);
    let mut chars = output.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => col = 0,
            '\n' => {
                row += 1;
                if lines.len() <= row {
                    lines.push(Vec::new());
                }
            }
            '\x1b' => {
                let mut params = String::new();
                if chars.peek() == Some(&'[') {
                    chars.next();
                }
                let mut end = ' ';
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        end = c;
                        break;
                    }
                    params.push(c);
                }
                let n: usize = params.trim_start_matches('?').parse().unwrap_or(1);
                match end {
                    'K' if params.is_empty() || params == "0" => lines[row].truncate(col),
                    'K' => lines[row].clear(),
                    'A' => row = row.saturating_sub(n),
                    'B' => row += n,
                    'G' => col = n.saturating_sub(1),
                    'J' => lines.truncate(row + 1),
                    _ => {}
                }
                while lines.len() <= row {
                    lines.push(Vec::new());
                }
            }
            c if !c.is_control() => {
                assert!(col < width, "a line past {width} columns: {:?}", lines[row]);
                let line = &mut lines[row];
                if line.len() <= col {
                    line.resize(col + 1, ' ');
                }
                line[col] = c;
                col += 1;
            }
            _ => {}
        }
    }
    let mut shown: Vec<String> = lines
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_owned())
        .collect();
    while shown.last().is_some_and(String::is_empty) {
        shown.pop();
    }
    shown
}

/// Whether a screen line is a progress bar: its clock and the bar's bracket.
fn is_bar(line: &str) -> bool {
    line.split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| w[0].len() == 8 && w[0].matches(':').count() == 2 && w[1].starts_with('['))
}

/// In a real terminal 80 columns wide: the lines of a finding (a header longer than
/// the terminal, a DIFFERS line, the finding's block) are fitted to it, the bar shows
/// while an engine takes its time over an answer, and Ctrl-C (SIGINT, as the
/// terminal sends it) leaves no bar behind.
#[test]
fn a_terminal_of_80_columns_gets_lines_that_fit_and_no_bar_after_ctrl_c() {
    use nix::pty::{openpty, Winsize};
    use std::io::Read;
    let size = Winsize {
        ws_row: 50,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = openpty(Some(&size), None).expect("openpty");
    let scratch = Scratch::new("pty");
    // The engine answers the start position with the horse bug, then hangs on the
    // second position, in check, until the run is stopped.
    let engine = format!(
        "{} --pid-file '{}'",
        test_engine("--bug horse-leg-ignored --hang-in-check"),
        scratch.path("engine.pid")
    );
    let in_check = "4k4/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1";
    let tty = |fd: &std::os::fd::OwnedFd| Stdio::from(fd.try_clone().expect("dup"));
    let mut child = Command::new(XQDIFF)
        .args(["engine", "--cmd", &engine, "--depth", "1", "--no-save"])
        .args(["--fen", START, "--fen", in_check, "--max-findings", "0"])
        .env("NO_COLOR", "1")
        .env_remove("XQDIFF_NO_PROGRESS")
        .stdin(Stdio::null())
        .stdout(tty(&pty.slave))
        .stderr(tty(&pty.slave))
        .spawn()
        .expect("run xqdiff");
    drop(pty.slave);
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let mut master = std::fs::File::from(pty.master);
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        // EIO once every copy of the terminal's other end is closed: the end.
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut output = Vec::new();
    let deadline = std::time::Instant::now() + util::PATIENCE;
    // The bar shows while the engine hangs, with nothing else to update it.
    while !screen(&String::from_utf8_lossy(&output), usize::MAX)
        .iter()
        .any(|l| is_bar(l))
    {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(bytes) => output.extend(bytes),
            Err(_) => panic!(
                "no bar within {:?}:\n{}",
                util::PATIENCE,
                String::from_utf8_lossy(&output)
            ),
        }
    }
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).expect("SIGINT");
    let status = child.wait().expect("reaped");
    while let Ok(bytes) = rx.recv_timeout(util::PATIENCE) {
        output.extend(bytes);
    }
    reader.join().expect("reader");
    let output = String::from_utf8_lossy(&output);
    assert_eq!(status.code(), Some(130), "{output}");
    let shown = screen(&output, 80);
    let all = shown.join("\n");
    assert!(
        !shown.iter().any(|l| is_bar(l)),
        "a bar left on screen:\n{all}"
    );
    for wanted in [
        "BUG cause/subject/horse-leg-ignored",
        "Reproduce with:",
        "interrupted",
    ] {
        assert!(all.contains(wanted), "no {wanted:?} on screen:\n{all}");
    }
    let pid: u32 = std::fs::read_to_string(scratch.file("engine.pid"))
        .expect("engine pid")
        .trim()
        .parse()
        .expect("a pid");
    util::wait_until("the engine ended", || util::gone(pid));
}
