//! `xqdiff engine` end to end against the test engine (`src/bin/xqdiff-test-engine.rs`):
//! a planted bug is found from the start position and minimized, a correct engine is
//! reported as agreeing with counts, and every way an engine can misbehave is a clean
//! exit 2 with a message, well within the timeout.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};
use xqdiff::generators::planted::Bug;
use xqdiff::Position;

mod util;
use util::{test_engine, Scratch};

/// How long an engine may take over one answer: generous, since many of these tests run
/// at once on a loaded machine and a slow answer there is not a hang (a 2 s bound made
/// engines that answer in milliseconds read as hung in CI).
const TIMEOUT_SECS: u64 = 30;

/// The timeout of the test that wants hangs found quickly.
const FAULT_TIMEOUT_SECS: u64 = 2;

fn engine(cmd: &str, extra: &[&str], corpus: &Path) -> (Output, Duration) {
    engine_within(cmd, TIMEOUT_SECS, extra, corpus)
}

fn engine_within(cmd: &str, timeout: u64, extra: &[&str], corpus: &Path) -> (Output, Duration) {
    let started = Instant::now();
    let out = util::xqdiff()
        .args(["engine", "--cmd", cmd, "--seed", "7"])
        // The start's timeout too: faults met while starting wait it out.
        .args(["--timeout", &timeout.to_string()])
        .args(["--start-timeout", &timeout.to_string()])
        .arg("--corpus")
        .arg(corpus)
        .args(extra)
        .output()
        .expect("run xqdiff");
    (out, started.elapsed())
}

/// The FEN after `minimized` on the finding's block of output.
fn minimized_fen(stdout: &str) -> Option<String> {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("minimized"))?;
    let rest = line.trim_start().trim_start_matches("minimized").trim();
    let fen: Vec<&str> = rest.split_whitespace().take(6).collect();
    Some(fen.join(" "))
}

/// Every planted one-rule bug: found (exit 1), minimized to at most five pieces, and
/// saved under the given corpus's external/<engine>/. Most show from the start position
/// at depth 3; an elephant across the river or a king out of its palace needs five
/// plies from there (too slow for a test on the naive generator), and the answer bugs
/// need a horse taking a horse, a double check or a pawn captured, so those are found
/// from seeded random positions instead. A wrong `in_check` alone changes no perft
/// count, so a perft-only subject cannot show it.
#[test]
fn every_planted_bug_is_found_and_minimized() {
    for bug in Bug::ALL.into_iter().filter(|b| b.changes_perft()) {
        let corpus = Scratch::new(bug.as_str());
        let from_start = matches!(
            bug,
            Bug::CannonCannotCapture
                | Bug::HorseLegIgnored
                | Bug::ElephantEyeIgnored
                | Bug::PawnSidewaysBeforeRiver
                | Bug::RookJumpsOne
                | Bug::HorseLegOnShortAxis
        );
        // A double check is rare at the leaves of small random trees.
        let positions = match bug {
            _ if from_start => "0",
            Bug::CountShortInDoubleCheck => "300",
            _ => "50",
        };
        let (out, _) = engine(
            &test_engine(&format!("--bug {}", bug.as_str())),
            &["--depth", "3", "--suite", "none", "--positions", positions],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{bug:?}:\n{stdout}");
        let fen =
            minimized_fen(&stdout).unwrap_or_else(|| panic!("{bug:?}: no minimized\n{stdout}"));
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{bug:?}: {fen}: {e}"));
        assert!(pos.pieces().count() <= 5, "{bug:?}: {fen}");
        let saved = std::fs::read_dir(corpus.join("external").join("xqdiff-test-engine"))
            .map(|d| d.count())
            .unwrap_or(0);
        assert_eq!(saved, 1, "{bug:?}: saved cases");
    }
}

/// Issue 27: an engine whose start position is wrong (a horse's leg looked for on the
/// short axis of its jump: b0c2 becomes b0d1) is read in the notation it really uses,
/// learnt from positions no rule bug changes, and its start position is a finding:
/// exit 1, minimized to a horse. So whether the engine refuses the other dialect's FEN,
/// takes it and skips the letters it does not know, or takes it and reads its letters
/// as pieces that move right (`--bug-in-letters nb`: its own N/B pieces carry the bug).
/// Before, xqdiff tried the other letters when the start position did not fit and kept
/// the letters under which the engine agreed: that last engine agreed everywhere in
/// H/E letters, exit 0. Letters given that the engine does not read are exit 2, saying
/// what it made of them.
#[test]
fn a_wrong_start_position_is_a_finding_in_the_engines_own_notation() {
    let cases = [
        "--fen-letters nb",
        "--fen-letters he",
        "--fen-letters nb --skip-other-letters",
        "--fen-letters he --skip-other-letters",
        "--fen-letters he --skip-other-letters --ranks 1",
        "--bug-in-letters nb",
    ];
    for case in cases {
        let corpus = Scratch::new("start-notation");
        let args = format!("--bug horse-leg-on-short-axis {case}");
        let (out, _) = engine(
            &test_engine(&args),
            &["--depth", "2", "--suite", "none", "--positions", "0"],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{case}:\n{stdout}{stderr}");
        let fen =
            minimized_fen(&stdout).unwrap_or_else(|| panic!("{case}: no minimized\n{stdout}"));
        let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{case}: {fen}: {e}"));
        let horses = pos
            .pieces()
            .filter(|(_, p)| p.role == xqdiff::Role::Horse)
            .count();
        assert!(horses == 1 && pos.pieces().count() <= 4, "{case}: {fen}");
    }
    let corpus = Scratch::new("start-notation");
    let (out, _) = engine(
        &test_engine("--fen-letters nb --skip-other-letters"),
        &["--fen-letters", "he", "--suite", "none", "--positions", "1"],
        &corpus,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("does not read the FEN letters given")
            && stderr.contains("with H/E letters")
            && stderr.contains("no horse there"),
        "{stderr}"
    );
}

/// A library over the moves protocol is checked like an engine: xqdiff counts perft
/// from its lists, finds a planted bug, minimizes it and saves it, whether the library
/// plays the path's moves itself or is given a FEN for every position; a correct one
/// agrees.
#[test]
fn a_library_over_the_moves_protocol_is_checked_like_an_engine() {
    let table: &[(&str, i32)] = &[
        ("--fen-only --bug cannon-cannot-capture", 1),
        ("--bug horse-leg-ignored", 1),
        ("--fen-only --ranks 1 --bug rook-jumps-one", 1),
        ("--fen-only", 0),
    ];
    for &(switches, code) in table {
        let corpus = Scratch::new("moves-protocol");
        let (out, _) = engine(
            &test_engine(&format!("--protocol moves {switches}")),
            &["--protocol", "moves", "--suite", "none", "--positions", "5"],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{switches}:\n{stdout}{stderr}"
        );
        if code == 1 {
            let fen = minimized_fen(&stdout)
                .unwrap_or_else(|| panic!("{switches}: no minimized\n{stdout}"));
            let pos = Position::from_fen(&fen).unwrap();
            assert!(pos.pieces().count() <= 5, "{switches}: {fen}");
            let saved = std::fs::read_dir(corpus.join("external").join("xqdiff-test-engine"))
                .map(|d| d.count())
                .unwrap_or(0);
            assert_eq!(saved, 1, "{switches}: saved cases");
        }
    }
}

/// The comparison modes of the moves protocol. `--compare pseudo-legal` checks an
/// adapter's pseudo-legal moves and its check detector, so a detector that misses a
/// double check is found even though its lists are right; `--rules king-capture`
/// agrees with an adapter that lists moves into check, which the default reports (and
/// suggests the flag), says how many it set aside, and still finds a real bug.
/// A mode the adapter cannot serve, or a protocol without lists, is exit 2.
#[test]
fn compare_modes_check_what_the_adapter_offers() {
    let corpus = Scratch::new("modes");
    // Red's advisor on e1 screens its king from a rook and, with the rook, a cannon:
    // every advisor move leaves a double check.
    let suite = corpus.join("double-check.epd");
    std::fs::write(&suite, "3kc4/9/9/9/4r4/9/9/9/4A4/4K4 w - - 0 1\n").unwrap();
    let suite = suite.to_str().unwrap().to_owned();
    let pseudo = [
        "--compare",
        "pseudo-legal",
        "--suite",
        &suite,
        "--depth",
        "2",
    ];
    let king_capture = [
        "--rules",
        "king-capture",
        "--positions",
        "5",
        "--depth",
        "2",
    ];
    // Each row: the test engine's switches, xqdiff's flags, the exit code, and what the
    // output must say; a run is made once, for all it must say.
    let table: &[(&str, &[&str], i32, &[&str])] = &[
        (
            "--offer-pseudo --bug in-check-misses-double-check",
            &pseudo,
            1,
            &["BUG unexplained-check-test/subject"],
        ),
        ("--offer-pseudo", &pseudo, 0, &["agreement"]),
        // Agreement under king-capture rules, with what they set aside counted and
        // shown by examples.
        (
            "--king-capture",
            &king_capture,
            0,
            &[
                "agreement",
                "moves into check set aside, on ",
                "  set aside: ",
            ],
        ),
        // A library that follows the legal rules, run under king-capture rules.
        ("", &king_capture, 0, &["it listed none of the "]),
        // A real bug is still found: a legal move missing, and an illegal move that
        // is not a move into check.
        (
            "--king-capture --bug cannon-cannot-capture",
            &king_capture,
            1,
            &["BUG cause/subject/cannon-cannot-capture"],
        ),
        (
            "--king-capture --bug king-leaves-palace",
            &king_capture,
            1,
            &["BUG cause/subject/king-leaves-palace"],
        ),
        // Under the legal rules, differences that are all moves into check suggest the
        // flag; a bug of another kind does not.
        (
            "--king-capture",
            &["--positions", "5", "--depth", "2"],
            1,
            &[
                "BUG cause/subject/pseudo-legal-only",
                "every difference is a move into check: if your generator is pseudo-legal \
                 by design, run with --rules king-capture (or --compare pseudo-legal)",
            ],
        ),
        (
            "--bug cannon-cannot-capture",
            &["--positions", "5", "--depth", "2"],
            1,
            &["BUG cause/subject/cannon-cannot-capture"],
        ),
        // Only moves into check here too, but named by a misread rule of the check
        // detector: the library tests its moves, and reads a rule wrong.
        (
            "--bug check-pawn-wrong-way",
            &[
                "--fen",
                "3k5/9/9/9/9/9/9/9/4K1p2/9 w - - 0 1",
                "--depth",
                "1",
            ],
            1,
            &["BUG cause/subject/check-pawn-wrong-way"],
        ),
        (
            "",
            &pseudo,
            2,
            &["does not offer both `pseudo` and `check`"],
        ),
    ];
    for &(switches, flags, code, says) in table {
        let mut args = vec!["--protocol", "moves", "--no-save"];
        args.extend_from_slice(flags);
        let (out, _) = engine(
            &test_engine(&format!("--protocol moves {switches}")),
            &args,
            &corpus,
        );
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            out.status.code(),
            Some(code),
            "{switches} {flags:?}:\n{text}"
        );
        for says in says {
            assert!(
                text.contains(says),
                "{switches} {flags:?}: no {says:?} in\n{text}"
            );
        }
        let hinted = text.contains("every difference is a move into check");
        let legal_rules = !flags.contains(&"king-capture") && !flags.contains(&"pseudo-legal");
        assert_eq!(
            hinted,
            legal_rules && switches == "--king-capture",
            "{switches} {flags:?}:\n{text}"
        );
        assert_eq!(
            text.contains("set aside"),
            flags.contains(&"king-capture"),
            "{switches} {flags:?}:\n{text}"
        );
    }
    // The JSON carries the count.
    let mut args = vec!["--protocol", "moves", "--no-save", "--json"];
    args.extend_from_slice(&king_capture);
    let (out, _) = engine(
        &test_engine("--protocol moves --king-capture"),
        &args,
        &corpus,
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let set = &doc["engines"][0]["set_aside"];
    assert!(set["moves"].as_u64() > Some(0), "{set}");
    assert!(set["positions"].as_u64() <= set["lists"].as_u64(), "{set}");
    assert_eq!(set["available"], set["moves"], "{set}");
    assert!(set["examples"][0]["move"].is_string(), "{set}");
    let (out, _) = engine(&test_engine(""), &["--compare", "pseudo-legal"], &corpus);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("need --protocol moves"));
}

/// An engine with two unrelated bugs gives exactly two distinct bugs, each minimized to
/// a witness of its own, each with its count of positions; listing one as known leaves
/// the other as the only new one (exit 1), and listing both leaves nothing new (exit 0).
#[test]
fn two_bugs_are_two_findings_and_known_ones_step_aside() {
    let corpus = Scratch::new("two-bugs");
    let cmd = test_engine("--bug horse-leg-ignored --bug king-leaves-palace");
    let known = corpus.join("known.txt");
    let run = |extra: &[&str]| {
        let mut args = vec!["--positions", "30", "--max-findings", "0", "--no-save"];
        args.extend_from_slice(extra);
        let (out, _) = engine(&cmd, &args, &corpus);
        // stderr after stdout: a failure before the first line then says why.
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.code(), text)
    };
    let bugs = |stdout: &str| -> Vec<String> {
        stdout
            .lines()
            .filter_map(|l| l.strip_prefix("BUG "))
            .map(|l| l.split(':').next().unwrap_or("").to_owned())
            .collect()
    };
    let (code, stdout) = run(&["--write-known", known.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{stdout}");
    let mut found = bugs(&stdout);
    found.sort();
    assert_eq!(
        found,
        [
            "cause/subject/horse-leg-ignored",
            "cause/subject/king-leaves-palace"
        ],
        "{stdout}"
    );
    assert!(stdout
        .lines()
        .any(|l| l.starts_with("BUG ") && l.ends_with(" positions")));
    let mut sizes = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("minimized"))
        .map(|l| {
            l.split_whitespace()
                .nth(7)
                .unwrap_or("")
                .trim_start_matches('(')
        });
    assert!(
        sizes.all(|n| n.parse::<usize>().is_ok_and(|n| n <= 4)),
        "{stdout}"
    );
    // Everything known: exit 0; one known, by its cause or by the move class a list
    // written before causes named it: the other alone is new.
    let (code, stdout) = run(&["--known", known.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stdout}");
    let one = corpus.join("one.txt");
    for line in [
        "cause/subject/horse-leg-ignored fixed next week",
        "moves/subject/extra-horse-leg fixed next week",
    ] {
        std::fs::write(&one, format!("{line}\n")).unwrap();
        let (code, stdout) = run(&["--known", one.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{line}:\n{stdout}");
        assert!(
            stdout.contains("BUG cause/subject/horse-leg-ignored (known)"),
            "{line}:\n{stdout}"
        );
        assert!(
            stdout.contains("BUG cause/subject/king-leaves-palace: "),
            "{line}:\n{stdout}"
        );
        assert!(stdout.contains("1 distinct bug (1 known)"), "{stdout}");
    }
    // A known-bugs file that is not one is bad input.
    std::fs::write(&one, "banana\n").unwrap();
    assert_eq!(run(&["--known", one.to_str().unwrap()]).0, Some(2));
}

/// The `BUG` lines of a run, each with the `cause:` lines under it.
fn bugs_with_causes(stdout: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("BUG ") {
            out.push((rest.split(':').next().unwrap_or("").to_owned(), Vec::new()));
        } else if let (Some(cause), Some(last)) = (line.strip_prefix("  cause: "), out.last_mut()) {
            last.1.push(cause.to_owned());
        }
    }
    out
}

/// Each planted rule bug of the test engine is one finding over many positions, named
/// by the rule variant it plants, with the cause in words under it: however many kinds
/// of move it touches (a check detector that moves enemy pawns the wrong way takes
/// moves from kings, advisors, pawns, and adds moves into check). A bug no variant
/// describes (right on one wing only) is one finding and unexplained, never a wrong
/// cause. Two bugs together are two findings with two causes.
#[test]
fn each_planted_rule_bug_is_one_finding_named_by_its_cause() {
    // Each row: the test engine's switches, and each variant it plants with the
    // sentence its cause must begin with. The cannon's bug and the check detector's
    // are planted only together: that one run shows each is one finding named by its
    // cause (one split in two, or named as the other, fails it) and that two bugs are
    // two findings.
    type Row<'a> = (&'a str, &'a [(&'a str, &'a str)]);
    let table: &[Row] = &[
        (
            "--bug horse-leg-ignored",
            &[(
                "horse-leg-ignored",
                "a horse jumps even when its leg is blocked",
            )],
        ),
        (
            "--bug elephant-eye-ignored",
            &[(
                "elephant-eye-ignored",
                "an elephant moves even when its eye is blocked",
            )],
        ),
        (
            "--bug pawn-sideways-before-river",
            &[(
                "pawn-sideways-before-river",
                "a pawn may step sideways before it has crossed the river",
            )],
        ),
        (
            "--bug rook-jumps-one",
            &[(
                "rook-hops-over-one",
                "a rook may hop over the first piece in its way",
            )],
        ),
        (
            "--bug king-leaves-palace",
            &[("king-leaves-palace", "a king may step out of its palace")],
        ),
        (
            "--bug cannon-cannot-capture --bug check-pawn-wrong-way",
            &[
                ("cannon-cannot-capture", "a cannon never captures"),
                (
                    "check-pawn-wrong-way",
                    "the check detector moves the enemy's pawns the wrong way",
                ),
            ],
        ),
        // A rule read differently on one wing: no variant, but the mirrored witness
        // shows the answer depends on the wing, on every witness alike.
        ("--bug left-horse-leg-ignored", &[]),
    ];
    for &(switches, variants) in table {
        let corpus = Scratch::new("causes");
        let (out, _) = engine(
            &test_engine(switches),
            &["--positions", "30", "--max-findings", "0", "--no-save"],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{switches}:\n{stdout}");
        let mut found = bugs_with_causes(&stdout);
        found.sort();
        if variants.is_empty() {
            assert_eq!(found.len(), 1, "{switches}:\n{stdout}");
            assert_eq!(found[0].0, "asymmetric/subject", "{switches}:\n{stdout}");
            assert!(
                found[0].1.first().is_some_and(|c| c.starts_with(
                    "the subject answers the witness mirrored left to right otherwise"
                )),
                "{switches}:\n{stdout}"
            );
            continue;
        }
        let signatures: Vec<String> = variants
            .iter()
            .map(|(v, _)| format!("cause/subject/{v}"))
            .collect();
        let got: Vec<&String> = found.iter().map(|(s, _)| s).collect();
        assert_eq!(
            got,
            signatures.iter().collect::<Vec<_>>(),
            "{switches}:\n{stdout}"
        );
        for ((_, causes), (v, sentence)) in found.iter().zip(variants) {
            let first = causes.first().map(String::as_str).unwrap_or("");
            assert!(
                first.starts_with(sentence) && first.contains(&format!("(variant {v}, explains ")),
                "{switches}: {first:?}\n{stdout}"
            );
            // Every witness is explained: "explains N of N witnesses", then how many
            // positions asked confirmed it.
            let count = first.rsplit("explains ").next().unwrap_or("");
            let count = count.split(" witnesses").next().unwrap_or("");
            let n: Vec<&str> = count.split(" of ").collect();
            assert!(n.len() == 2 && n[0] == n[1], "{switches}: {first:?}");
        }
    }
}

#[test]
fn a_correct_engine_agrees_with_counts() {
    let corpus = Scratch::new("agree");
    let table: &[(&str, &str)] = &[
        ("", "uci"),
        ("--ranks 1 --fen-letters he", "uci"),
        ("--protocol xboard --totals-only", "xboard"),
    ];
    for (args, protocol) in table {
        let (out, _) = engine(
            &test_engine(args),
            &[
                "--protocol",
                protocol,
                "--max-nodes",
                "100000",
                "--positions",
                "20",
            ],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args}:\n{stdout}");
        let summary = stdout.lines().last().unwrap_or_default();
        assert!(summary.starts_with("agreement:"), "{args}: {summary}");
        // Start, suite, corpus (empty here) and 20 random positions, with node counts.
        assert!(summary.contains(" positions, ") && summary.contains("nodes compared"));
    }
}

/// Each fault: exit 2, a message naming what went wrong, and no wait past the timeout
/// (plus start-up and the minimizer's margin).
#[test]
fn misbehaving_engines_exit_2_within_the_timeout() {
    let corpus = Scratch::new("faults");
    // The faults that wait a timeout out have a short one; the others a long one,
    // which a busy machine's slow answer cannot reach.
    let table: &[(&str, &str, u64)] = &[
        ("--crash-after 5", "exited", TIMEOUT_SECS),
        ("--hang-after 5", "no answer", FAULT_TIMEOUT_SECS),
        ("--garbage moves", "unreadable", TIMEOUT_SECS),
        ("--garbage counts", "unreadable", TIMEOUT_SECS),
        ("--no-handshake", "uciok", FAULT_TIMEOUT_SECS),
        ("--search", "perft", TIMEOUT_SECS),
    ];
    for &(args, says, timeout) in table {
        let (out, took) =
            engine_within(&test_engine(args), timeout, &["--positions", "20"], &corpus);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {stderr}");
        assert!(
            stderr.contains(says),
            "{args}: expected {says:?} in {stderr}"
        );
        assert!(
            // A generous margin: the bound is there to catch a wait without end, and a
            // loaded machine must not fail it.
            took < Duration::from_secs(timeout * 2 + 10),
            "{args}: took {took:?}"
        );
    }
    let (out, _) = engine("/nonexistent/engine", &[], &corpus);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not start"));
}

/// Each position's line reaches stdout as soon as it is answered, also when stdout is
/// a pipe: the lines of the first positions are there while the engine still hangs on
/// a later one (for a timeout no machine reaches), so while xqdiff still runs.
#[test]
fn lines_come_as_positions_are_answered() {
    use std::io::{BufRead, BufReader};
    let corpus = Scratch::new("streaming");
    let child = util::xqdiff()
        .args([
            "engine",
            "--cmd",
            &test_engine("--hang-after 14"),
            "--seed",
            "7",
        ])
        .args([
            "--timeout",
            "600",
            "--suite",
            "none",
            "--positions",
            "20",
            "--no-save",
        ])
        .arg("--corpus")
        .arg(&corpus)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run xqdiff");
    let mut child = util::Reaped(child);
    let stdout = child.0.stdout.take().expect("piped");
    let mut lines = BufReader::new(stdout).lines();
    let line = lines
        .by_ref()
        .map(|l| l.expect("utf-8"))
        .find(|l| l.starts_with("ok "))
        .expect("an ok line");
    // A line held back to the end would come only once the run ends.
    assert!(
        matches!(child.0.try_wait(), Ok(None)),
        "{line}: came only as the run ended"
    );
    let pid = nix::unistd::Pid::from_raw(i32::try_from(child.0.id()).expect("a pid"));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("signal xqdiff");
    // Read to the end: a closed pipe would be another test's business.
    lines.for_each(drop);
    let status = child.0.wait().expect("reaped");
    assert_eq!(status.code(), Some(143), "{line}");
}

/// A signal ends `xqdiff engine` between positions with what it found so far printed,
/// and the conventional status (128 + the signal's number).
#[test]
fn a_signal_ends_the_engine_check_with_what_it_found() {
    use std::io::{BufRead, BufReader};
    let corpus = Scratch::new("signal");
    let mut child = util::xqdiff()
        .args([
            "engine",
            "--cmd",
            &test_engine("--bug horse-leg-ignored"),
            "--seed",
            "7",
        ])
        .args([
            "--suite",
            "none",
            "--positions",
            "200",
            "--depth",
            "4",
            "--max-findings",
            "0",
        ])
        .arg("--no-save")
        .arg("--corpus")
        .arg(&corpus)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run xqdiff");
    let pid = child.id();
    let mut lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    // The start position shows the bug; a later position's line means it was recorded.
    for line in lines.by_ref() {
        if line.expect("utf-8").starts_with("ok ") {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(killed.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().expect("reaped");
    let rest = rest.join("\n");
    assert_eq!(status.code(), Some(143), "{rest}");
    assert!(
        rest.contains("BUG cause/subject/horse-leg-ignored"),
        "{rest}"
    );
    assert!(
        rest.contains("interrupted by SIGTERM: 1 distinct bug"),
        "{rest}"
    );
}

/// `--seconds`: positions are made as the run goes until the time is up, and the run
/// says how many it made and which rare features they reached. A correct engine agrees
/// for the whole time; a bug that only a double check shows is found within it, since
/// the fresh positions seek the rare features rather than wait for them.
#[test]
fn a_timed_run_makes_positions_as_it_goes_and_seeks_rare_ones() {
    // (switches, seconds, exit code). A second is seven times what the default count of
    // positions takes here, so a timed run that stopped at a count falls short of it.
    let table: &[(&str, u64, i32)] = &[("", 1, 0), ("--bug count-short-in-double-check", 60, 1)];
    for &(switches, seconds, code) in table {
        let corpus = Scratch::new(&format!("timed-{switches}"));
        let secs = seconds.to_string();
        let (out, took) = engine(
            &test_engine(switches),
            &["--depth", "2", "--suite", "none", "--seconds", &secs],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(code), "{switches}:\n{stdout}");
        assert!(
            took < Duration::from_secs(seconds + 20),
            "{switches}: {took:?}"
        );
        let made: u64 = stdout
            .lines()
            .find_map(|l| l.split_once(" fresh position")?.0.parse().ok())
            .unwrap_or_else(|| panic!("{switches}: no count of fresh positions\n{stdout}"));
        assert!(made > 0, "{switches}:\n{stdout}");
        assert!(
            stdout.contains("double_check"),
            "no feature table:\n{stdout}"
        );
        if code == 0 {
            // The whole time was used: the run did not stop at a fixed count.
            assert!(took >= Duration::from_secs(seconds), "{took:?}");
        } else {
            let fen = minimized_fen(&stdout).unwrap_or_else(|| panic!("no minimized\n{stdout}"));
            let pos = Position::from_fen(&fen).unwrap();
            assert!(pos.pieces().count() <= 6, "{fen}");
        }
    }
}

/// `--reference`: by default the fastest built-in counts each position and all of
/// them only every tenth one (and every difference); `all` has every built-in count
/// every position. The JSON says how many were confirmed and where the time went.
#[test]
fn the_fastest_built_in_is_the_reference_and_all_confirm_a_share() {
    /// How many of `n` positions all the built-ins count.
    type Confirmed = fn(u64) -> u64;
    let table: &[(&str, Confirmed)] = &[("fastest", |n| n.div_ceil(10)), ("all", |n| n)];
    for &(reference, confirmed) in table {
        let corpus = Scratch::new(&format!("reference-{reference}"));
        let (out, _) = engine(
            &test_engine(""),
            &[
                "--depth",
                "2",
                "--suite",
                "none",
                "--positions",
                "25",
                "--reference",
                reference,
                "--json",
            ],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{reference}:\n{stdout}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
        let details = &doc["phases"][0]["details"];
        let positions = details["positions"].as_u64().expect("positions");
        assert!(positions >= 20, "{details}");
        assert_eq!(
            details["confirmed"].as_u64(),
            Some(confirmed(positions)),
            "{reference}: {details}"
        );
        for field in [
            "subject_seconds",
            "builtins_seconds",
            "positions_per_second",
        ] {
            assert!(details[field].as_f64().is_some(), "{field}: {details}");
        }
    }
}

/// An engine told a protocol it does not speak says so at once (`Error (unknown
/// command): uci`); xqdiff stops there, well within the handshake's timeout, names the
/// protocols to try, and leaves no process behind.
#[test]
fn the_wrong_protocol_is_named_at_once() {
    // (the engine's protocol, the one xqdiff is told, the hint)
    let table = [
        ("xboard", "uci", "try --protocol xboard"),
        ("xboard", "ucci", "try --protocol uci or xboard"),
        ("uci", "xboard", "try --protocol uci"),
    ];
    for (speaks, told, hint) in table {
        let corpus = Scratch::new(&format!("protocol-{speaks}-{told}"));
        let started = Instant::now();
        let out = util::xqdiff()
            .args([
                "engine",
                "--cmd",
                &test_engine(&format!("--protocol {speaks}")),
            ])
            .args(["--protocol", told, "--timeout", "120", "--no-save"])
            .arg("--corpus")
            .arg(&corpus)
            .output()
            .expect("run xqdiff");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{speaks}/{told}: {stderr}");
        assert!(stderr.contains(hint), "{speaks}/{told}: {stderr}");
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{speaks}/{told}: waited {:?}",
            started.elapsed()
        );
        corpus.assert_clean(&format!("{speaks}/{told}"));
    }
}

/// An engine that crashes or hangs on a class of positions (here: whenever the side to
/// move is in check) is a finding of its own kind, `crash` or `hang`: one finding
/// however many positions it fails on, its witness shrunk to a few pieces that still
/// make it fail, the engine started again and the run gone on to the end (exit 1).
/// With no restarts allowed, the first failure ends the run (exit 2). Nothing is left
/// running either way.
#[test]
fn an_engine_that_crashes_on_a_position_is_a_finding_and_the_run_goes_on() {
    // (switch, restarts, exit code, the finding's first line, the timeout: short only
    // where a hang must be waited out, since a busy machine may answer slowly; the most
    // pieces the witness keeps: a hang is shrunk within a few of its waits, here 2 s
    // each, which takes its 14 pieces to 6)
    let table = [
        ("--crash-in-check", "5", 1, "CRASH crash/subject", "30", 4),
        ("--hang-in-check", "5", 1, "HANG hang/subject", "2", 6),
        ("--crash-in-check", "0", 2, "", "30", 0),
    ];
    for (switch, restarts, code, head, timeout, most) in table {
        let scratch = Scratch::new(&format!("crash{switch}-{restarts}"));
        let corpus = scratch.file("corpus");
        std::fs::create_dir_all(&corpus).unwrap();
        let out = util::xqdiff()
            .args(["engine", "--cmd", &scratch.engine("engine", switch)])
            .args([
                "--depth",
                "2",
                "--suite",
                "none",
                "--positions",
                "40",
                "--seed",
                "3",
            ])
            .args(["--timeout", timeout, "--restarts", restarts, "--no-save"])
            .arg("--corpus")
            .arg(&corpus)
            .output()
            .expect("run xqdiff");
        let (stdout, stderr) = util::text(&out);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{switch}:\n{stdout}\n{stderr}"
        );
        scratch.assert_clean(switch);
        if code != 1 {
            continue;
        }
        assert_eq!(stdout.matches(head).count(), 1, "{switch}:\n{stdout}");
        let fen = stdout
            .lines()
            .find_map(|l| l.trim().strip_prefix("minimized"))
            .map(|rest| {
                rest.split_whitespace()
                    .take(6)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_else(|| panic!("{switch}: no witness\n{stdout}"));
        let pos = Position::from_fen(&fen).unwrap();
        assert!(pos.pieces().count() <= most, "{switch}: {fen}");
        // A hang costs a few timeouts, not one per shrinking question: the one it was
        // met on, the one that confirms it, and the shrinking's budget of waits.
        let log = std::fs::read_to_string(scratch.file("engine.log")).unwrap_or_default();
        let hangs = log.lines().filter(|l| *l == "fault hang").count();
        assert!(hangs <= 2 + 9, "{switch}: {hangs} hangs\n{stdout}");
        // The run went on to the end: every position but the ones it failed on answered.
        let answered = stdout.lines().filter(|l| l.starts_with("ok ")).count();
        assert!(answered >= 30, "{switch}: {answered} answered\n{stdout}");
    }
}

/// Every file under `dir` (recursively), or none when it is not there.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Findings about an engine go to a folder of the user's, never into xqdiff's tree.
/// Each row: a command run from a scratch working folder on an engine with a bug, the
/// folder (under the working folder) its finding must be saved in, and whether the
/// working folder's `xqdiff-findings/` is to stay absent. Without `--corpus`, `engine`
/// and `check --engine` save into `xqdiff-findings/<engine>/`; with `--corpus DIR`,
/// into `DIR/external/<engine>/`. No run leaves a new file under the crate's
/// `corpus/` or a `xqdiff-findings/` beside it (the issue: 17 files in
/// `corpus/external/` after following the README).
#[test]
fn findings_about_an_engine_go_to_the_working_folder() {
    let cmd = test_engine("--bug horse-leg-ignored");
    let crate_root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let crate_tree = || {
        let mut files = files_under(&crate_root.join("corpus"));
        files.extend(files_under(&crate_root.join("xqdiff-findings")));
        files
    };
    let engine = |extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = ["engine", "--cmd", &cmd, "--depth", "3", "--suite", "none"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        args.extend(["--positions", "0", "--seed", "7"].map(String::from));
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let check: Vec<String> = [
        "check",
        "--quick",
        "--seconds",
        "1",
        // A timed phase costs its time on every thread.
        "--threads",
        "1",
        "--max-nodes",
        "2000",
        "--engine",
        &cmd,
        "--engine-positions",
        "0",
        "--seed",
        "7",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let table: Vec<(&str, Vec<String>, &str, bool)> = vec![
        (
            "engine",
            engine(&[]),
            "xqdiff-findings/xqdiff-test-engine",
            false,
        ),
        (
            "check --engine",
            check,
            "xqdiff-findings/xqdiff-test-engine",
            false,
        ),
        (
            "engine --corpus",
            engine(&["--corpus", "mine"]),
            "mine/external/xqdiff-test-engine",
            true,
        ),
    ];
    for (name, args, saved_in, no_findings_dir) in table {
        let work = Scratch::new(&format!("findings-{name}"));
        std::fs::create_dir(work.join("mine")).unwrap();
        let before = crate_tree();
        let out = util::xqdiff()
            .args(&args)
            .current_dir(work.dir())
            .output()
            .expect("run xqdiff");
        let (stdout, stderr) = util::text(&out);
        assert_eq!(out.status.code(), Some(1), "{name}:\n{stdout}\n{stderr}");
        // Every command that finds a bug prints the same block: its cause and the
        // command that shows it again, in the terminal, not only in the report.
        for wanted in [
            "BUG cause/subject/horse-leg-ignored",
            "  cause: ",
            "Reproduce with:",
        ] {
            assert!(stdout.contains(wanted), "{name}: no {wanted:?}\n{stdout}");
        }
        // The command it prints runs as printed from any other folder.
        let elsewhere = work.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        let again = run_printed(&reproduce_line(&stdout), &elsewhere);
        let (again_out, again_err) = util::text(&again);
        assert_eq!(
            again.status.code(),
            Some(1),
            "{name}:\n{again_out}\n{again_err}"
        );
        assert!(
            again_out.contains("BUG cause/subject/horse-leg-ignored"),
            "{name}: {again_out}"
        );
        let saved = files_under(&work.join(saved_in));
        assert!(!saved.is_empty(), "{name}: nothing in {saved_in}\n{stdout}");
        assert_eq!(
            work.join("xqdiff-findings").exists(),
            !no_findings_dir,
            "{name}"
        );
        assert_eq!(crate_tree(), before, "{name}: the crate's tree changed");
    }
}

/// The first command under "Reproduce with:" in what a run printed.
fn reproduce_line(stdout: &str) -> String {
    let mut lines = stdout.lines().skip_while(|l| l.trim() != "Reproduce with:");
    lines
        .nth(1)
        .unwrap_or_else(|| panic!("no reproduce command in:\n{stdout}"))
        .trim()
        .to_owned()
}

/// Runs a printed command line as a user pasting it into a shell in `cwd` would, with
/// `xqdiff` being this build's.
fn run_printed(line: &str, cwd: &Path) -> Output {
    assert!(line.starts_with("xqdiff "), "{line}");
    Command::new("sh")
        .arg("-c")
        .arg(format!("xqdiff() {{ \"$XQDIFF\" \"$@\"; }}\n{line}"))
        .env("XQDIFF", util::XQDIFF)
        .current_dir(cwd)
        .output()
        .expect("run sh")
}

/// The signatures of the bugs a run printed, each once, in order.
fn bugs(stdout: &str) -> Vec<String> {
    let mut out: Vec<String> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("BUG "))
        .map(|l| l.split(':').next().unwrap_or(l).to_owned())
        .collect();
    out.dedup();
    out
}

/// Saved findings are a corpus like any other: a run that saved them, asked again with
/// `--corpus` on what it saved (no suite, no random positions), finds the same bugs;
/// an engine without the bug passes having asked them; `replay --cmd` does the same;
/// a corpus holding only another engine's findings checks nothing and says so (exit
/// 2). The engine is named by a path relative to the folder the runs start in, and
/// the reproduce command printed still runs from another folder.
#[test]
fn saved_findings_are_asked_again() {
    let work = Scratch::new("saved-findings");
    std::os::unix::fs::symlink(util::TEST_ENGINE, work.file("engine")).unwrap();
    std::fs::create_dir_all(work.file("mine")).unwrap();
    std::fs::create_dir_all(work.file("theirs/external/another-engine")).unwrap();
    let buggy = "./engine --bug horse-leg-ignored";
    let run = |args: &[&str]| {
        util::xqdiff()
            .args(args)
            .current_dir(work.dir())
            .output()
            .expect("run xqdiff")
    };
    let quick = ["--suite", "none", "--positions", "0", "--depth", "2"];
    let first = run(&[&["engine", "--cmd", buggy, "--corpus", "mine"][..], &quick].concat());
    let (stdout, stderr) = util::text(&first);
    assert_eq!(first.status.code(), Some(1), "{stdout}\n{stderr}");
    let found = bugs(&stdout);
    assert_eq!(found, ["cause/subject/horse-leg-ignored"], "{stdout}");
    let saved = files_under(&work.file("mine/external/xqdiff-test-engine"));
    assert!(!saved.is_empty(), "{stdout}");
    for file in &saved {
        let to = work
            .file("theirs/external/another-engine")
            .join(file.file_name().unwrap());
        std::fs::copy(file, to).unwrap();
    }
    let again = &["--corpus", "mine", "--max-findings", "0"][..];
    // Each row: the arguments, the exit code, and whether the saved findings were
    // asked (and found, for exit 1).
    let table: Vec<(Vec<&str>, i32)> = vec![
        ([&["engine", "--cmd", buggy][..], again, &quick].concat(), 1),
        (
            [&["engine", "--cmd", "./engine"][..], again, &quick].concat(),
            0,
        ),
        (vec!["replay", "--cmd", buggy, "--corpus", "mine"], 1),
        (vec!["replay", "--cmd", "./engine", "--corpus", "mine"], 0),
        (
            [
                &["engine", "--cmd", "./engine", "--corpus", "theirs"][..],
                &quick,
            ]
            .concat(),
            2,
        ),
    ];
    for (args, code) in table {
        let out = run(&args);
        let (stdout, stderr) = util::text(&out);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}:\n{stdout}\n{stderr}"
        );
        match code {
            2 => assert!(stderr.contains("another-engine"), "{args:?}: {stderr}"),
            _ => {
                let asked = format!("re-checking {} finding", saved.len());
                assert!(stdout.contains(&asked), "{args:?}: {stdout}");
                let want: &[String] = if code == 1 { &found } else { &[] };
                assert_eq!(bugs(&stdout), want, "{args:?}: {stdout}");
            }
        }
    }
    let elsewhere = work.file("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let printed = run_printed(&reproduce_line(&stdout), &elsewhere);
    let (out, err) = util::text(&printed);
    assert_eq!(printed.status.code(), Some(1), "{out}\n{err}");
    assert_eq!(bugs(&out), found, "{out}");
}

/// Fairy-Stockfish with one rule of Xiangqi changed in its own variant configuration
/// (`tests/engines/fsf-planted.sh`, `tests/engines/fsf-planted.ini`): a real engine
/// with a planted rule bug is one finding, named by the rule it breaks. Its pieces read
/// attacks from the same definition as moves, so a horse made a knight also checks like
/// one. Skipped, saying why, where Debian's `fairy-stockfish` is not installed.
#[test]
fn fairy_stockfish_with_a_planted_rule_is_one_finding_named_by_it() {
    let engine_path = std::env::var("FAIRY_STOCKFISH")
        .unwrap_or_else(|_| "/usr/games/fairy-stockfish".to_owned());
    if !Path::new(&engine_path).exists() {
        println!("skipped: no Fairy-Stockfish at {engine_path} (apt-get install fairy-stockfish)");
        return;
    }
    let wrapper = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fsf-planted.sh");
    let table: &[(&str, &str, &str)] = &[
        (
            "flying-general-off",
            "kings-facing-ignored",
            "the generator ignores the kings facing each other",
        ),
        (
            "horse-as-knight",
            "horse-leg-ignored-also-in-check",
            "a horse jumps, and gives check, even when its leg is blocked",
        ),
        (
            "pawn-as-shogi-pawn",
            "pawn-never-sideways",
            "a pawn never steps sideways",
        ),
        (
            "sideways-from-start",
            "pawn-sideways-before-river",
            "a pawn may step sideways before it has crossed the river",
        ),
        (
            "sideways-on-bank",
            "pawn-sideways-on-river-bank",
            "a pawn on its own bank of the river",
        ),
    ];
    for &(bug, variant, sentence) in table {
        let corpus = Scratch::new("fsf");
        let cmd = format!("{} {bug}", wrapper.display());
        let (out, _) = engine(
            &cmd,
            &["--positions", "60", "--max-findings", "0", "--no-save"],
            &corpus,
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{bug}:\n{stdout}{stderr}");
        let found = bugs_with_causes(&stdout);
        assert_eq!(found.len(), 1, "{bug}: one finding\n{stdout}");
        let (signature, causes) = &found[0];
        assert_eq!(signature, &format!("cause/subject/{variant}"), "{bug}");
        let first = causes.first().map(String::as_str).unwrap_or("");
        assert!(
            first.starts_with(sentence) && first.contains(&format!("(variant {variant}, ")),
            "{bug}: {first:?}\n{stdout}"
        );
    }
}

/// An engine that lists a move twice (here a horse taking a horse; Sjaak II an answer to
/// double check) is one finding whatever kind of move it repeats, and its cause says so:
/// no reading of the rules lists a move twice, so the catalogue is not asked.
#[test]
fn a_move_listed_twice_is_one_finding_named_by_what_it_does() {
    let corpus = Scratch::new("twice");
    let (out, _) = engine(
        &test_engine("--bug horse-takes-horse-twice"),
        &[
            "--suite",
            "none",
            "--positions",
            "300",
            "--max-findings",
            "0",
            "--no-save",
        ],
        &corpus,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let found = bugs_with_causes(&stdout);
    assert_eq!(found.len(), 1, "{stdout}");
    assert_eq!(found[0].0, "listed-twice/subject", "{stdout}");
    assert!(
        found[0]
            .1
            .first()
            .is_some_and(|c| c.starts_with("the subject lists a move twice in one move list (")),
        "{stdout}"
    );
}

/// A state bug answers some witness as a misread rule would by chance; asked about the
/// position after a differing move on its own, it answers otherwise than in its divide,
/// so it is named a state bug, never a rule. Asked once more after playing the move
/// itself, it says where: each row is a planted bug and the signature it must get.
/// Take-backs that lose what they took back, and a last-ply count that is not the move
/// list, go wrong in the search before the count (`counted-in-search`), not in the move.
#[test]
fn a_state_bug_is_named_as_one_never_as_a_rule() {
    let random: &[&str] = &["--positions", "50", "--max-findings", "0"];
    // Double check is rare among random positions: asked where a rook and a cannon
    // give one after a8e8.
    let double: &[&str] = &[
        "--fen",
        "4k4/R8/4C4/9/9/9/9/9/9/5K3 w - - 0 1",
        "--depth",
        "2",
    ];
    // A captured horse put back as a pawn while the subject tests its moves: on this
    // witness's move list it looks exactly like a check detector blind to horses, which
    // the positions next to it show it is not.
    let blind: &[&str] = &[
        "--fen",
        "3k5/9/9/9/9/9/9/9/2n6/2R1K4 w - - 0 1",
        "--depth",
        "1",
    ];
    // The same bug where the shrunk witness holds the difference one move down, in a
    // count the subject repeats about the position after that move asked on its own.
    let deeper: &[&str] = &[
        "--fen",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
        "--depth",
        "3",
    ];
    let table = [
        // A history of captures too short for a search's take-backs.
        (
            "history-too-short",
            random,
            Some("counted-in-search/subject"),
        ),
        // Unmake forgets which slot a pawn was in.
        (
            "unmake-forgets-pawn-slot",
            random,
            Some("counted-in-search/subject"),
        ),
        // The last ply counted without listing, one short in double check.
        (
            "count-short-in-double-check",
            double,
            Some("counted-in-search/subject"),
        ),
        // At depth 1 nothing is played, so no state fault can be named: only no rule.
        ("unmake-brings-back-horse-as-pawn", blind, None),
        (
            "unmake-brings-back-horse-as-pawn",
            deeper,
            Some("counted-in-search/subject"),
        ),
    ];
    for (bug, args, signature) in table {
        let corpus = Scratch::new("state");
        let args = [args, &["--no-save"][..]].concat();
        let (out, _) = engine(&test_engine(&format!("--bug {bug}")), &args, &corpus);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{bug}: {stdout}");
        let found = bugs_with_causes(&stdout);
        assert!(
            found.iter().all(|(sig, _)| !sig.starts_with("cause/")),
            "{bug}: {stdout}"
        );
        let Some(signature) = signature else {
            assert!(!found.is_empty(), "{bug}: {stdout}");
            continue;
        };
        let state = found
            .iter()
            .find(|(sig, _)| sig == signature)
            .unwrap_or_else(|| panic!("{bug}: no {signature} finding\n{stdout}"));
        assert!(
            state
                .1
                .first()
                .is_some_and(|c| c.contains("a state bug, not a misread rule)")),
            "{bug}: {stdout}"
        );
    }
}

/// Issue 41: an engine that fails on the follow-up questions a difference leads to
/// (the descent's `position ... moves`, here every one of them), or refuses positions
/// it is given, leaves one finding per bug, with the refusal's own reason in it, and
/// the run goes on to its end: a crash is restarted after, and one more of a failure
/// already met spends no restart, so one restart allowed is enough for many of them.
/// A crash report shows what the crashing question itself printed (the test engine's
/// last words on stderr), never the answer before it.
#[test]
fn failures_on_follow_up_questions_leave_one_finding_per_bug_and_the_run_goes_on() {
    // (switches, the one finding's first line, what its block must say, the fault the
    // engine logs and the fewest times it must have met it)
    let table: &[(&str, &str, &str, &str, usize)] = &[
        // A hang costs a few timeouts: a short one here, which only a hang waits out.
        (
            "--bug horse-leg-ignored --fail-on-moves hang",
            "BUG cause/subject/horse-leg-ignored",
            "hung on a follow-up question and was started again",
            "fault hang",
            2,
        ),
        (
            "--bug horse-leg-ignored --fail-on-moves refuse",
            "BUG cause/subject/horse-leg-ignored",
            "Unsupported position. King can be captured",
            "fault refuse",
            2,
        ),
        (
            "--bug horse-leg-ignored --fail-on-moves crash",
            "BUG cause/subject/horse-leg-ignored",
            "crashed on a follow-up question and was started again",
            "fault crash",
            2,
        ),
        (
            "--refuse-in-check",
            "REFUSAL refusal/subject",
            "Error (illegal position): the side to move is in check",
            "> position",
            1,
        ),
        // Refused, then gone: a refusal still, as Pikafish's exit after its reason.
        (
            "--refuse-in-check --exit-on-error",
            "REFUSAL refusal/subject",
            "the side to move is in check (and then it exited, exit status: 1)",
            "fault crash",
            1,
        ),
        (
            "--crash-in-check",
            "CRASH crash/subject",
            "[stderr] xqdiff-test-engine: crashing with exit status 4",
            "fault crash",
            2,
        ),
    ];
    for &(switches, head, says, fault, times) in table {
        let scratch = Scratch::new(&format!("follow-up{}", switches.replace(' ', "")));
        let corpus = scratch.file("corpus");
        std::fs::create_dir_all(&corpus).unwrap();
        let out = util::xqdiff()
            .args(["engine", "--cmd", &scratch.engine("engine", switches)])
            .args(["--depth", "2", "--suite", "none", "--positions", "12"])
            .args(["--seed", "3", "--max-findings", "0", "--restarts", "1"])
            .args(["--timeout", if fault == "fault hang" { "2" } else { "30" }])
            .args(["--no-save", "--corpus"])
            .arg(&corpus)
            .output()
            .expect("run xqdiff");
        let (stdout, stderr) = util::text(&out);
        let said = format!("{switches}:\n{stdout}\n{stderr}");
        assert_eq!(out.status.code(), Some(1), "{said}");
        scratch.assert_clean(switches);
        let heads: Vec<&str> = stdout
            .lines()
            .filter(|l| {
                ["BUG ", "CRASH ", "HANG ", "REFUSAL "]
                    .iter()
                    .any(|h| l.starts_with(h))
            })
            .collect();
        assert_eq!(heads.len(), 1, "{said}");
        assert!(heads[0].starts_with(head), "{said}");
        assert!(stdout.contains(says), "{said}");
        // The run went on to its end: no failure ended it, and the summary came.
        assert!(!stderr.contains("then failed"), "{said}");
        assert!(
            stdout
                .lines()
                .last()
                .is_some_and(|l| l.contains("1 distinct bug")),
            "{said}"
        );
        let log = std::fs::read_to_string(scratch.file("engine.log")).unwrap_or_default();
        let met = log.lines().filter(|l| l.starts_with(fault)).count();
        assert!(met >= times, "{switches}: {met} times {fault:?}\n{said}");
        // Each position's questions stop after two failures: a hang on every follow-up
        // question costs at most two timeouts a position, not one a question.
        let differing = stdout.lines().filter(|l| l.starts_with("DIFFERS")).count();
        if fault == "fault hang" {
            assert!(met <= 2 * differing, "{switches}: {met} hangs\n{said}");
        }
        // What the previous answer printed is no part of a crash's report.
        assert!(!stdout.contains("Nodes searched"), "{said}");
    }
}

/// Issue 41: a make bug of an engine that takes `position ... moves` and says nothing
/// of how it counts after them (the test engine's counts start from the position its
/// moves lead to, so its make of the move never shows in the answer after it) is not
/// told that the move is not at fault: the cause names the make of the move as one
/// place, and says which way the engine counts could not be learnt.
#[test]
fn a_make_bug_is_not_blamed_on_a_move_taken_back_earlier() {
    let corpus = Scratch::new("make-bug");
    let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let args = ["--fen", fen, "--depth", "3", "--no-save"];
    let (out, _) = engine(&test_engine("--bug make-forgets-king-slot"), &args, &corpus);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let cause = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("cause: "))
        .unwrap_or_else(|| panic!("no cause\n{stdout}"));
    assert!(cause.contains("in its make of d0d1"), "{cause}");
    assert!(cause.contains("could not be learnt"), "{cause}");
    assert!(!cause.contains("not by the move"), "{cause}");
}

/// Issue 41: starting an engine has a timeout of its own, apart from an answer's: an
/// engine that takes 2.5 s to answer its handshake (loading its tables on a busy
/// machine) starts under `--timeout 1`, and fails to start only when the start's own
/// timeout is shorter than that.
#[test]
fn a_slow_start_has_a_timeout_of_its_own() {
    // (extra flags, exit code, what stderr must say)
    let table: &[(&[&str], i32, &str)] = &[
        (&[], 0, ""),
        (&["--start-timeout", "1"], 2, "no uciok within 1s"),
    ];
    for &(extra, code, says) in table {
        let scratch = Scratch::new(&format!("slow-start{}", extra.join("")));
        let corpus = scratch.file("corpus");
        std::fs::create_dir_all(&corpus).unwrap();
        let out = util::xqdiff()
            .args([
                "engine",
                "--cmd",
                &scratch.engine("engine", "--slow-start 2500"),
            ])
            .args(["--depth", "1", "--suite", "none", "--positions", "1"])
            .args(["--seed", "3", "--timeout", "1", "--no-save", "--corpus"])
            .arg(&corpus)
            .args(extra)
            .output()
            .expect("run xqdiff");
        let (stdout, stderr) = util::text(&out);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{extra:?}:\n{stdout}\n{stderr}"
        );
        assert!(stderr.contains(says), "{extra:?}:\n{stderr}");
        assert!(scratch.logged("engine", "fault slow-start"), "{extra:?}");
        scratch.assert_clean(&format!("{extra:?}"));
    }
}

/// Subjects as they are: an adapter that knows only the start position, given the
/// ranks and letters (`--ranks 0 --fen-letters nb`), is asked nothing else and checked
/// on it; an engine that writes its divide as `move: e1f1 nodes: 1` is read (the extra
/// move named); one whose per-move lines are unreadable is checked from totals, a note
/// quoting its first such line.
#[test]
fn subjects_as_they_are_are_checked() {
    let scratch = Scratch::new("as-they-are");
    let start = Position::startpos();
    let moves: Vec<String> = xqdiff::generators::registry()[0]
        .probe(&start)
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    let start_only = scratch.script(
        "start-only.sh",
        &format!(
            "while read -r line; do case \"$line\" in\n\
             'xqdiff moves 1') echo 'ok name=start-only' ;;\n\
             'legal {}') echo '{}' ;;\n\
             quit) exit 0 ;;\n\
             *) echo 'error only the start position' ;;\n\
             esac; done",
            start.fen(),
            moves.join(" ")
        ),
    );
    // The test engine's divide lines rewritten as another engine prints them.
    let rewritten = |name: &str, to: &str| {
        scratch.script(
            name,
            &format!(
                "'{}' --bug horse-leg-ignored | sed -u -E 's/^([a-i][0-9][a-i][0-9]): ([0-9]+)$/{to}/'",
                util::TEST_ENGINE
            ),
        )
    };
    let named = rewritten("named.sh", "move: \\1 nodes: \\2");
    let arrows = rewritten("arrows.sh", "\\1 => \\2");
    let numbered = rewritten("numbered.sh", "1. \\1 \\2");
    let fen = start.fen();
    let table: Vec<(Vec<&str>, i32, &[&str])> = vec![
        (
            vec![
                "--cmd",
                &start_only,
                "--protocol",
                "moves",
                "--ranks",
                "0",
                "--depth",
                "1",
            ],
            0,
            &["agreement: start-only", "1 position"],
        ),
        (
            vec!["--cmd", &named, "--depth", "1"],
            1,
            &["only the subject has: b0d1"],
        ),
        (
            vec!["--cmd", &numbered, "--depth", "1"],
            1,
            &[
                "note: the engine's lines per move are not read (the first: \"1. ",
                "move: h2e2 nodes: 45",
            ],
        ),
        (
            vec!["--cmd", &arrows, "--depth", "1"],
            2,
            &[
                "\"a0a1 => 1\", \"=>\" is not a count",
                "move: h2e2 nodes: 45",
            ],
        ),
    ];
    for (args, code, wanted) in table {
        let out = util::xqdiff()
            .args(["engine", "--fen", &fen, "--fen-letters", "nb", "--no-save"])
            .args(&args)
            .output()
            .expect("run xqdiff");
        let (stdout, stderr) = util::text(&out);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}:\n{stdout}\n{stderr}"
        );
        let said = format!("{stdout}{stderr}");
        for w in wanted {
            assert!(said.contains(w), "{args:?}: no {w:?} in\n{said}");
        }
    }
}
