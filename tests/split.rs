//! Split perft end to end with the real binary: emit jobs, run shards as separate
//! processes at the same time, merge; a killed shard resumed; every way a merge must
//! refuse its input.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::generators::{self, registry, PLANTED_BUG_VAR};
use xqdiff::{Generator, Position};

mod util;
use util::{all_text as text, run as xqdiff, Scratch};

fn command(args: &[&str]) -> Command {
    let mut c = util::xqdiff();
    c.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Emits the jobs of `depth` split at `split` from the start position into `jobs`.
fn emit_jobs(jobs: &Path, depth: u32, split: u32) {
    let out = xqdiff(&[
        "perft",
        "--depth",
        &depth.to_string(),
        "--split-depth",
        &split.to_string(),
        "--emit-jobs",
        s(jobs),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

/// Runs shards `first..first + count` of `jobs` as separate processes at once, shard i
/// writing `results-i.jsonl`; returns the result files in shard order. With `bug`, the
/// binary carries it as the generator `planted`, and a shard whose generators disagree
/// on one of its jobs exits 1.
fn run_shards(
    dir: &Scratch,
    jobs: &Path,
    count: u64,
    base: u64,
    generators: &[&str],
    bug: Option<Bug>,
) -> Vec<PathBuf> {
    let outputs: Vec<PathBuf> = (0..count)
        .map(|i| dir.file(&format!("results-{i}.jsonl")))
        .collect();
    let children: Vec<Child> = outputs
        .iter()
        .enumerate()
        .map(|(i, output)| {
            let shard = format!("{}/{count}", i as u64 + base);
            let base = base.to_string();
            let mut args = vec![
                "perft",
                "--jobs",
                s(jobs),
                "--shard",
                &shard,
                "--shard-base",
                &base,
                "--threads",
                "1",
                "--output",
                s(output),
            ];
            for g in generators {
                args.extend(["--generator", g]);
            }
            let mut shard = command(&args);
            if let Some(bug) = bug {
                shard.env(PLANTED_BUG_VAR, bug.as_str());
            }
            shard.spawn().expect("start shard")
        })
        .collect();
    let fine: &[i32] = if bug.is_some() { &[0, 1] } else { &[0] };
    for child in children {
        let out = child.wait_with_output().expect("wait for shard");
        let code = out.status.code().unwrap_or(-1);
        assert!(fine.contains(&code), "exit {code}: {}", text(&out));
    }
    outputs
}

/// The JSON of line `line` (from 0) of a JSON-lines file.
fn json_line(path: &Path, line: usize) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(text.lines().nth(line).expect("the line is there")).unwrap()
}

/// The jobs of `jobs` on which the naive generator with `bug` planted counts otherwise
/// than bitboard, by index: counted here, in process, so a merge that names them is
/// checked against something other than the shards it merged.
fn jobs_that_differ(jobs: &Path, bug: Bug) -> Vec<u64> {
    let planted: &dyn Generator = &Planted::new(bug);
    let bitboard = generators::by_name("bitboard").unwrap();
    let text = std::fs::read_to_string(jobs).unwrap();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let job: serde_json::Value = serde_json::from_str(line).unwrap();
            let pos = Position::from_fen(job["fen"].as_str().unwrap()).unwrap();
            let depth = u32::try_from(job["depth"].as_u64().unwrap()).unwrap();
            (planted.perft(&pos, depth) != bitboard.perft(&pos, depth))
                .then(|| job["index"].as_u64().unwrap())
        })
        .collect()
}

fn merge_json(jobs: &Path, results: &[PathBuf]) -> serde_json::Value {
    let mut args = vec!["merge", "--json", "--jobs", s(jobs)];
    args.extend(results.iter().map(|p| s(p)));
    let out = xqdiff(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    serde_json::from_slice(&out.stdout).expect("merge --json prints JSON")
}

/// One split perft from the start position.
struct Split {
    depth: u32,
    split: u32,
    shards: u64,
    /// What the shard ids given to `--shard` count from.
    base: u64,
    /// `--generator` values; none means the default, all of them.
    generators: &'static [&'static str],
    /// The published count at this depth.
    published: u64,
}

/// Every split perft adds up to the unsplit one, for every generator it ran: the
/// in-process count, and the published count where there is one.
#[test]
fn shards_add_up_to_the_unsplit_perft() {
    let table = [
        Split {
            depth: 5,
            split: 2,
            shards: 4,
            base: 0,
            generators: &["bitboard"],
            published: 133_312_995,
        },
        Split {
            depth: 4,
            split: 2,
            shards: 3,
            base: 1,
            generators: &[],
            published: 3_290_240,
        },
        Split {
            depth: 3,
            split: 3,
            shards: 2,
            base: 0,
            generators: &["mailbox", "naive"],
            published: 79_666,
        },
        Split {
            depth: 3,
            split: 0,
            shards: 2,
            base: 0,
            generators: &["bitboard"],
            published: 79_666,
        },
    ];
    let start = Position::startpos();
    for Split {
        depth,
        split,
        shards,
        base,
        generators: gens,
        published,
    } in table
    {
        let dir = Scratch::new(&format!("sum-{depth}-{split}"));
        let jobs = dir.file("jobs.jsonl");
        emit_jobs(&jobs, depth, split);
        let results = run_shards(&dir, &jobs, shards, base, gens, None);
        let merged = merge_json(&jobs, &results);
        let engines: Vec<&dyn Generator> = if gens.is_empty() {
            registry()
        } else {
            gens.iter().filter_map(|g| generators::by_name(g)).collect()
        };
        assert_eq!(merged["agree"], true, "{merged}");
        assert_eq!(
            merged["totals"].as_object().map(|t| t.len()),
            Some(engines.len()),
            "{merged}"
        );
        for g in engines {
            let unsplit = g.perft_parallel(&start, depth, None);
            let total = merged["totals"][g.name()].as_u64();
            assert_eq!(
                total,
                Some(unsplit),
                "{} depth {depth} split {split}",
                g.name()
            );
            assert_eq!(unsplit, published);
        }
    }
}

/// Rewrites line `line` (from 0) of a JSON-lines file with `edit`; returns the line after.
fn edit_line(
    path: &Path,
    line: usize,
    edit: impl FnOnce(&mut serde_json::Value),
) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut value: serde_json::Value = serde_json::from_str(&lines[line]).unwrap();
    edit(&mut value);
    lines[line] = value.to_string();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
    value
}

/// Every way a set of result files can fail to be the split, each through one merge:
/// the exit code and the words that name the problem.
#[test]
fn merge_names_what_is_wrong() {
    let dir = Scratch::new("refuse");
    let jobs = dir.file("jobs.jsonl");
    emit_jobs(&jobs, 3, 2);
    let two = ["bitboard", "mailbox"];
    let r = run_shards(&dir, &jobs, 4, 0, &two, None);
    let other_jobs = dir.file("other-jobs.jsonl");
    emit_jobs(&other_jobs, 3, 1);
    let other = dir.file("other.jsonl");
    let out = xqdiff(&["perft", "--jobs", s(&other_jobs), "--output", s(&other)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let bitboard_only = dir.file("bitboard-only.jsonl");
    let out = xqdiff(&[
        "perft",
        "--jobs",
        s(&jobs),
        "--shard",
        "2/4",
        "--generator",
        "bitboard",
        "--output",
        s(&bitboard_only),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let bad = dir.file("bad.jsonl");
    let good = std::fs::read_to_string(&r[3]).unwrap();
    let good: Vec<&str> = good.lines().take(2).collect();
    std::fs::write(
        &bad,
        format!("{}\n{}\n{{\"split\": oops\n", good[0], good[1]),
    )
    .unwrap();
    // A generator with a bug beside a correct one: the merge names every job on which
    // they count differently, and no other.
    let bug = Bug::ElephantEyeIgnored;
    let odd = jobs_that_differ(&jobs, bug);
    assert!(
        !odd.is_empty() && odd.len() < 1920,
        "{} of 1920 jobs differ: the merge would name all or none",
        odd.len()
    );
    let planted_dir = Scratch::new("refuse-planted");
    let planted = run_shards(
        &planted_dir,
        &jobs,
        4,
        0,
        &["bitboard", "planted"],
        Some(bug),
    );
    let missing = dir.file("nowhere.jsonl");

    let p = |path: &PathBuf| s(path).to_owned();
    let table: Vec<(&str, Vec<String>, i32, Vec<String>)> = vec![
        (
            "complete",
            r.iter().map(p).collect(),
            0,
            vec!["all 2 generators agree: 79666".into()],
        ),
        (
            "one shard missing",
            vec![p(&r[0]), p(&r[1]), p(&r[3])],
            2,
            vec!["missing 480 of 1920 jobs".into(), "all of shard 2/4".into()],
        ),
        (
            "a shard given twice",
            vec![p(&r[0]), p(&r[1]), p(&r[2]), p(&r[3]), p(&r[1])],
            2,
            vec![
                "480 jobs have a result in each of".into(),
                format!("{}:1", p(&r[1])),
            ],
        ),
        (
            "a result of another split",
            vec![p(&r[0]), p(&r[1]), p(&r[2]), p(&r[3]), p(&other)],
            2,
            vec![
                "44 result lines belong to split".into(),
                format!("{}:1", p(&other)),
            ],
        ),
        (
            "another set of generators",
            vec![p(&r[0]), p(&r[1]), p(&bitboard_only), p(&r[3])],
            2,
            vec!["count with [bitboard] instead of [bitboard, mailbox]".into()],
        ),
        (
            "a bad JSON line",
            vec![p(&r[0]), p(&bad)],
            2,
            vec![format!("{}:3: not a result line", p(&bad))],
        ),
        (
            "an unreadable file",
            vec![p(&r[0]), p(&missing)],
            2,
            vec![format!("cannot read {}", p(&missing))],
        ),
        (
            "results given as the jobs",
            vec![],
            2,
            vec!["not a jobs header line".into()],
        ),
        (
            "generators that disagree on a job",
            planted.iter().map(p).collect(),
            1,
            std::iter::once(format!("generators DISAGREE on {} jobs", odd.len()))
                .chain(odd.iter().map(|i| format!("  job {i} [")))
                .collect(),
        ),
    ];
    for (name, files, code, words) in table {
        let jobs_arg = if name == "results given as the jobs" {
            p(&r[0])
        } else {
            p(&jobs)
        };
        let mut args = vec!["merge".to_owned(), "--jobs".into(), jobs_arg];
        args.extend(files);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = xqdiff(&args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(code), "{name}: {said}");
        for w in words {
            assert!(said.contains(&w), "{name}: expected {w:?} in {said}");
        }
    }
}

/// A shard killed mid-line is rerun into the same output: the cut line is dropped, the
/// finished jobs are kept, the rest are counted, and the merge is exact.
#[test]
fn a_killed_shard_resumes() {
    let dir = Scratch::new("resume");
    let jobs = dir.file("jobs.jsonl");
    emit_jobs(&jobs, 4, 2);
    let r = run_shards(&dir, &jobs, 2, 0, &["bitboard"], None);
    let whole = std::fs::read(&r[0]).unwrap();
    // Seven bytes into the line after the first third: lines carry their times, so a
    // cut at a fixed share of the file would now and then fall between two lines.
    let third = whole.len() / 3;
    let cut = third + whole[third..].iter().position(|&b| b == b'\n').unwrap() + 1 + 7;
    std::fs::write(&r[0], &whole[..cut]).unwrap();
    let kept = whole[..cut].iter().filter(|&&b| b == b'\n').count();
    let out = xqdiff(&[
        "perft",
        "--jobs",
        s(&jobs),
        "--shard",
        "0/2",
        "--generator",
        "bitboard",
        "--output",
        s(&r[0]),
    ]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("dropped a result line cut short"), "{said}");
    assert!(
        said.contains(&format!("{} to run, {kept} already in", 960 - kept)),
        "{said}"
    );
    let merged = merge_json(&jobs, &r);
    let unsplit = generators::by_name("bitboard")
        .unwrap()
        .perft(&Position::startpos(), 4);
    assert_eq!(merged["totals"]["bitboard"].as_u64(), Some(unsplit));
    // A rerun of a finished shard runs nothing and changes nothing.
    let before = std::fs::read(&r[0]).unwrap();
    let out = xqdiff(&[
        "perft",
        "--jobs",
        s(&jobs),
        "--shard",
        "0/2",
        "--generator",
        "bitboard",
        "--output",
        s(&r[0]),
    ]);
    assert!(
        text(&out).contains("0 to run, 960 already in"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read(&r[0]).unwrap(), before);
    // Another generator set cannot continue that file.
    let out = xqdiff(&[
        "perft",
        "--jobs",
        s(&jobs),
        "--shard",
        "0/2",
        "--output",
        s(&r[0]),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("cannot resume into"), "{}", text(&out));
}

/// Flags and files a shard or an emit must refuse, with exit 2 and the reason.
#[test]
fn bad_split_usage_is_refused() {
    let dir = Scratch::new("usage");
    let jobs = dir.file("jobs.jsonl");
    emit_jobs(&jobs, 3, 2);
    let short = dir.file("short.jsonl");
    let text_jobs = std::fs::read_to_string(&jobs).unwrap();
    std::fs::write(
        &short,
        text_jobs.lines().take(101).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    let edited = dir.file("edited.jsonl");
    // The root of the header changed to the position after one move: every line still
    // matches its check, but not the split id.
    let moved = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/1NBAKABNR b - - 0 1";
    let root = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    std::fs::write(&edited, text_jobs.replacen(root, moved, 1)).unwrap();
    let j = s(&jobs);
    let table: &[(&[&str], &str)] = &[
        (
            &["perft", "--jobs", j, "--shard", "4/4"],
            "add --shard-base 1",
        ),
        (
            &["perft", "--jobs", j, "--shard", "0/4", "--shard-base", "1"],
            "not one of 1..=4",
        ),
        (&["perft", "--jobs", j, "--shard", "1of4"], "expected I/N"),
        (&["perft", "--jobs", j, "--shard", "0/0"], "at least 1"),
        (
            &["perft", "--jobs", j, "--shard-base", "2", "--shard", "1/4"],
            "invalid value",
        ),
        (
            &[
                "perft",
                "--depth",
                "2",
                "--split-depth",
                "3",
                "--emit-jobs",
                j,
            ],
            "deeper than the perft depth",
        ),
        (
            &["perft", "--split-depth", "2", "--emit-jobs", j],
            "--depth",
        ),
        (
            &["perft", "--depth", "3", "--emit-jobs", j],
            "--split-depth",
        ),
        (
            &["perft", "--jobs", j, "--depth", "3"],
            "cannot be used with",
        ),
        (
            &["perft", "--jobs", s(&short)],
            "header announces 1920 jobs, the file has 100",
        ),
        (
            &["perft", "--jobs", s(&edited)],
            "does not match the header and its jobs",
        ),
        (
            &["perft", "--jobs", "/nonexistent/jobs.jsonl"],
            "cannot read /nonexistent/jobs.jsonl",
        ),
        (&["merge"], "--jobs"),
    ];
    for (args, words) in table {
        let out = xqdiff(args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains(words),
            "{args:?}: expected {words:?} in {said}"
        );
    }
}

/// Runs xqdiff (carrying `bug`, if given, as the generator `planted`) with its output in
/// files (so a long writer cannot block on a pipe), killing it if it has not ended within
/// `limit`: a hang fails the test instead of stalling it. Gives the exit code (none when
/// killed), stdout and stderr.
fn xqdiff_within(
    dir: &Scratch,
    args: &[&str],
    limit: Duration,
    bug: Option<Bug>,
) -> (Option<i32>, String, String) {
    let (out, err) = (dir.file("stdout.txt"), dir.file("stderr.txt"));
    let mut child = util::xqdiff();
    if let Some(bug) = bug {
        child.env(PLANTED_BUG_VAR, bug.as_str());
    }
    let mut child = child
        .args(args)
        .stdin(Stdio::null())
        .stdout(File::create(&out).unwrap())
        .stderr(File::create(&err).unwrap())
        .spawn()
        .expect("run xqdiff");
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait for xqdiff") {
            break status.code();
        }
        if started.elapsed() > limit {
            child.kill().expect("kill xqdiff");
            child.wait().expect("reap xqdiff");
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |path: &Path| std::fs::read_to_string(path).unwrap_or_default();
    (code, read(&out), read(&err))
}

/// One hostile input: the command line, and the exit code and words it must end with.
struct Hostile {
    name: &'static str,
    args: Vec<String>,
    code: i32,
    words: Vec<String>,
}

/// Inputs made to break the split: each is refused within seconds, with exit 2 and one
/// line naming what is wrong and where.
#[test]
fn hostile_inputs_are_refused() {
    let dir = Scratch::new("hostile");
    let p = |path: &Path| s(path).to_owned();
    let jobs = dir.file("jobs.jsonl");
    emit_jobs(&jobs, 2, 1);
    let results = dir.file("results.jsonl");
    let out = xqdiff(&[
        "perft",
        "--jobs",
        s(&jobs),
        "--generator",
        "bitboard",
        "--output",
        s(&results),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));

    // A header past the depth bound: checked before anything else in the file, so no
    // consistent forgery gets a shard to recurse that deep.
    let deep = dir.file("deep.jsonl");
    std::fs::copy(&jobs, &deep).unwrap();
    edit_line(&deep, 0, |v| v["depth"] = 100_000.into());

    // A header announcing a quadrillion jobs: refused before any table is sized by it.
    let many = dir.file("many.jsonl");
    std::fs::copy(&jobs, &many).unwrap();
    edit_line(&many, 0, |v| v["jobs"] = 1_000_000_000_000_000u64.into());

    let fifo = dir.file("fifo");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("run mkfifo");
    assert!(made.success());
    // Sparse: 5 GiB on paper, nothing on disk.
    let vast = dir.file("vast.jsonl");
    File::create(&vast).unwrap().set_len(5 << 30).unwrap();
    let long = dir.file("long.jsonl");
    std::fs::write(&long, format!("{}\n", "x".repeat(100_000))).unwrap();

    // Jobs edited by hand: a job's position, a job's path, the format of an older xqdiff.
    let jobs_fen = dir.file("jobs-fen.jsonl");
    std::fs::copy(&jobs, &jobs_fen).unwrap();
    let job_lines = std::fs::read_to_string(&jobs).unwrap();
    let job_2: serde_json::Value = serde_json::from_str(job_lines.lines().nth(2).unwrap()).unwrap();
    let other_fen = job_2["fen"].clone();
    edit_line(&jobs_fen, 1, |v| v["fen"] = other_fen);
    let jobs_path = dir.file("jobs-path.jsonl");
    std::fs::copy(&jobs, &jobs_path).unwrap();
    edit_line(&jobs_path, 1, |v| v["path"] = serde_json::json!(["a0a2"]));
    let jobs_v1 = dir.file("jobs-v1.jsonl");
    std::fs::copy(&jobs, &jobs_v1).unwrap();
    edit_line(&jobs_v1, 0, |v| v["format"] = "xqdiff-jobs/1".into());
    // Results edited by hand: a count raised by one, a result moved to another job, a
    // line without a check as older xqdiffs wrote them.
    let plus_one = dir.file("plus-one.jsonl");
    std::fs::copy(&results, &plus_one).unwrap();
    edit_line(&plus_one, 3, |v| {
        let n = v["counts"]["bitboard"].as_u64().unwrap();
        v["counts"]["bitboard"] = (n + 1).into();
    });
    let moved = dir.file("moved.jsonl");
    std::fs::copy(&results, &moved).unwrap();
    edit_line(&moved, 4, |v| v["index"] = 5.into());
    let unchecked = dir.file("unchecked.jsonl");
    std::fs::copy(&results, &unchecked).unwrap();
    edit_line(&unchecked, 0, |v| {
        v.as_object_mut().unwrap().remove("check");
    });
    // A shard run twice into one output: five results repeated. And a repeat that
    // differs, both lines verifying: job 0 of the planted generator, then again with a
    // bug that changes its count.
    let result_lines: Vec<String> = std::fs::read_to_string(&results)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    let doubled = dir.file("doubled.jsonl");
    std::fs::write(
        &doubled,
        format!(
            "{}\n{}\n",
            result_lines.join("\n"),
            result_lines[..5].join("\n")
        ),
    )
    .unwrap();
    let planted_shard = |bug: Bug, output: &Path, extra: &[&str]| {
        let mut shard = command(&["perft", "--jobs", s(&jobs), "--generator", "planted"]);
        shard.args(["--output", s(output)]).args(extra);
        let out = shard.env(PLANTED_BUG_VAR, bug.as_str()).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    };
    let (right, wrong) = (dir.file("right.jsonl"), dir.file("wrong.jsonl"));
    planted_shard(Bug::None, &right, &[]);
    planted_shard(Bug::CannonCannotCapture, &wrong, &["--shard", "0/44"]);
    let (first, again) = (json_line(&right, 0), json_line(&wrong, 0));
    assert_eq!(
        (first["index"].as_u64(), again["index"].as_u64()),
        (Some(0), Some(0))
    );
    assert_ne!(
        first["counts"], again["counts"],
        "the bug changes job 0's count"
    );
    let conflict = dir.file("conflict.jsonl");
    let both = std::fs::read_to_string(&right).unwrap() + &std::fs::read_to_string(&wrong).unwrap();
    std::fs::write(&conflict, both).unwrap();
    let shard_into = |output: &PathBuf| -> Vec<String> {
        [
            "perft",
            "--jobs",
            s(&jobs),
            "--generator",
            "bitboard",
            "--output",
            s(output),
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let merge_of = |jobs: &PathBuf, results: &PathBuf| -> Vec<String> {
        vec!["merge".into(), "--jobs".into(), p(jobs), p(results)]
    };

    let absurd = dir.file("absurd.jsonl");
    let emit = |depth: &str| -> Vec<String> {
        [
            "perft",
            "--depth",
            depth,
            "--split-depth",
            depth,
            "--emit-jobs",
            s(&absurd),
        ]
        .map(str::to_owned)
        .to_vec()
    };

    let table = vec![
        Hostile {
            name: "a job's position edited",
            args: vec!["perft".into(), "--jobs".into(), p(&jobs_fen)],
            code: 2,
            words: vec![format!(
                "{}:2: job line does not match its check",
                p(&jobs_fen)
            )],
        },
        Hostile {
            name: "a job's position edited, merged",
            args: merge_of(&jobs_fen, &results),
            code: 2,
            words: vec![format!(
                "{}:2: job line does not match its check",
                p(&jobs_fen)
            )],
        },
        Hostile {
            name: "a job's path edited",
            args: vec!["perft".into(), "--jobs".into(), p(&jobs_path)],
            code: 2,
            words: vec![format!(
                "{}:2: job line does not match its check",
                p(&jobs_path)
            )],
        },
        Hostile {
            name: "a jobs file of the format before checks",
            args: merge_of(&jobs_v1, &results),
            code: 2,
            words: vec![format!(
                "{}:1: format \"xqdiff-jobs/1\", but this xqdiff reads \"xqdiff-jobs/3\"",
                p(&jobs_v1)
            )],
        },
        Hostile {
            name: "a result's count raised by one",
            args: merge_of(&jobs, &plus_one),
            code: 2,
            words: vec![format!(
                "{}:4: result for job 3 does not match its check",
                p(&plus_one)
            )],
        },
        Hostile {
            name: "a result's count raised by one, resumed",
            args: shard_into(&plus_one),
            code: 2,
            words: vec![format!(
                "{}:4: result for job 3 does not match its check",
                p(&plus_one)
            )],
        },
        Hostile {
            name: "a result moved to another job",
            args: merge_of(&jobs, &moved),
            code: 2,
            words: vec![format!(
                "{}:5: result for job 5 does not match its check",
                p(&moved)
            )],
        },
        Hostile {
            name: "a result without a check",
            args: merge_of(&jobs, &unchecked),
            code: 2,
            words: vec![format!(
                "{}:1: result line has no check (written by an older xqdiff)",
                p(&unchecked)
            )],
        },
        Hostile {
            name: "repeated results, resumed",
            args: shard_into(&doubled),
            code: 0,
            words: vec![
                format!("{}: removed 5 repeated result lines", p(&doubled)),
                "0 to run, 44 already in".into(),
                "bitboard             1920 nodes".into(),
            ],
        },
        // The row above rewrote the file without its repeats.
        Hostile {
            name: "repeated results, merged after the resume",
            args: merge_of(&jobs, &doubled),
            code: 0,
            words: vec!["bitboard             1920 nodes".into()],
        },
        Hostile {
            name: "a repeated result that differs, resumed",
            args: [
                "perft",
                "--jobs",
                s(&jobs),
                "--generator",
                "planted",
                "--output",
                s(&conflict),
            ]
            .map(str::to_owned)
            .to_vec(),
            code: 2,
            words: vec![format!(
                "{}:45: result for job 0 differs from the one at line 1",
                p(&conflict)
            )],
        },
        Hostile {
            name: "a split of 133 million jobs",
            args: emit("5"),
            code: 2,
            words: vec![
                "split depth 5 makes about 1.4e8 jobs (3290240 counted at ply 4)".into(),
                "GB of jobs file".into(),
                "the limit is 10000000 jobs".into(),
            ],
        },
        Hostile {
            name: "a split far past the limit",
            args: emit("40"),
            code: 2,
            words: vec![
                "split depth 40 makes about".into(),
                "(3290240 counted at ply 4)".into(),
                "the limit is 10000000 jobs".into(),
            ],
        },
        Hostile {
            name: "a FIFO as the jobs file",
            args: vec!["perft".into(), "--jobs".into(), p(&fifo)],
            code: 2,
            words: vec![format!("{}: a FIFO, not a regular file", p(&fifo))],
        },
        Hostile {
            name: "a FIFO as a results file",
            args: vec!["merge".into(), "--jobs".into(), p(&jobs), p(&fifo)],
            code: 2,
            words: vec![format!("{}: a FIFO, not a regular file", p(&fifo))],
        },
        Hostile {
            name: "a FIFO as the output to resume",
            args: vec![
                "perft".into(),
                "--jobs".into(),
                p(&jobs),
                "--output".into(),
                p(&fifo),
            ],
            code: 2,
            words: vec![format!("{}: a FIFO, not a regular file", p(&fifo))],
        },
        Hostile {
            name: "a device as the jobs file",
            args: vec!["perft".into(), "--jobs".into(), "/dev/zero".into()],
            code: 2,
            words: vec!["/dev/zero: a device, not a regular file".into()],
        },
        Hostile {
            name: "a directory as the jobs file",
            args: vec!["merge".into(), "--jobs".into(), p(dir.dir())],
            code: 2,
            words: vec![format!("{}: a directory, not a regular file", p(dir.dir()))],
        },
        Hostile {
            name: "a jobs file past the size limit",
            args: vec!["perft".into(), "--jobs".into(), p(&vast)],
            code: 2,
            words: vec![format!("{}: larger than 4294967296 bytes", p(&vast))],
        },
        Hostile {
            name: "a line past the length limit",
            args: vec!["merge".into(), "--jobs".into(), p(&jobs), p(&long)],
            code: 2,
            words: vec![format!("{}:1: line longer than 65536 bytes", p(&long))],
        },
        Hostile {
            name: "a jobs file past the depth bound",
            args: vec!["perft".into(), "--jobs".into(), p(&deep)],
            code: 2,
            words: vec![format!(
                "{}:1: depth 100000 is beyond the deepest perft xqdiff runs (64)",
                p(&deep)
            )],
        },
        Hostile {
            name: "a jobs file past the depth bound, merged",
            args: vec!["merge".into(), "--jobs".into(), p(&deep), p(&results)],
            code: 2,
            words: vec![format!("{}:1: depth 100000 is beyond", p(&deep))],
        },
        Hostile {
            name: "a header announcing too many jobs",
            args: merge_of(&many, &results),
            code: 2,
            words: vec![format!(
                "{}:1: header announces 1000000000000000 jobs, more than the 10000000",
                p(&many)
            )],
        },
    ];
    for row in table {
        let args: Vec<&str> = row.args.iter().map(String::as_str).collect();
        // Only the planted generator can give two results of one job that differ and
        // both verify, so only it can resume that file.
        let bug = (row.name == "a repeated result that differs, resumed").then_some(Bug::None);
        let started = Instant::now();
        let (code, out, err) = xqdiff_within(&dir, &args, util::PATIENCE, bug);
        let said = format!("{out}{err}");
        assert_eq!(code, Some(row.code), "{}: {said}", row.name);
        // Refused at once, not after writing or counting what was asked.
        assert!(
            started.elapsed() < util::PATIENCE / 2,
            "{}: took {:?}",
            row.name,
            started.elapsed()
        );
        if row.code == 2 {
            assert_eq!(
                err.lines().count(),
                1,
                "{}: one error line: {err}",
                row.name
            );
        }
        for w in &row.words {
            assert!(said.contains(w), "{}: expected {w:?} in {said}", row.name);
        }
    }
    assert!(!absurd.exists(), "a refused split writes nothing");
}

/// A split stopped by a signal mid-write leaves its folder as it was: no jobs file, whole
/// or part, and no temporary of tens of megabytes.
#[test]
fn an_interrupted_emit_leaves_nothing_behind() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let dir = Scratch::new("interrupted");
    let folder = dir.file("out");
    std::fs::create_dir(&folder).unwrap();
    let jobs = folder.join("jobs.jsonl");
    // 650,000 jobs, some 110 MB: the walk before the file appears costs a second or
    // two (the start position's 3.3 million jobs cost eight), and putting the file
    // together two more, far longer than a signal takes to arrive. Should the signal
    // come too late all the same, the run exits 0 and the test fails; it never passes
    // without having stopped the write.
    let child = command(&[
        "perft",
        "--fen",
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
        "--depth",
        "4",
        "--split-depth",
        "4",
        "--emit-jobs",
        s(&jobs),
    ])
    .spawn()
    .expect("start emit");
    // Signal once the file being put together holds 4 of its 110 MB.
    util::wait_until("the jobs being written", || {
        std::fs::read_dir(&folder).is_ok_and(|entries| {
            entries
                .filter_map(|e| e.ok()?.metadata().ok())
                .any(|m| m.len() >= 4 << 20)
        })
    });
    let pid = Pid::from_raw(i32::try_from(child.id()).unwrap());
    kill(pid, Signal::SIGTERM).expect("signal emit");
    let out = child.wait_with_output().expect("wait for emit");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(128 + 15), "{said}");
    assert!(said.contains("SIGTERM stopped the split"), "{said}");
    let left: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// A unique-position split has fewer jobs than paths where transpositions meet, and its
/// merge multiplies back to the path split's total, which is the published count.
#[test]
fn a_unique_split_merges_to_the_path_split_total() {
    let dir = Scratch::new("unique");
    let (paths, unique) = (dir.file("paths.jsonl"), dir.file("unique.jsonl"));
    emit_jobs(&paths, 4, 3);
    let out = xqdiff(&[
        "perft",
        "--depth",
        "4",
        "--split-depth",
        "3",
        "--emit-jobs",
        s(&unique),
        "--unique",
        "--generator",
        "bitboard",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let (p, u) = (json_line(&paths, 0), json_line(&unique, 0));
    let jobs = |header: &serde_json::Value| header["jobs"].as_u64().expect("a job count");
    assert_eq!(p["paths"].as_u64(), Some(jobs(&p)));
    assert_eq!(u["paths"], p["paths"], "both stand for every path");
    assert!(
        jobs(&u) < jobs(&p),
        "{} unique jobs of {} paths",
        jobs(&u),
        jobs(&p)
    );
    let totals = |jobs: &Path, name: &str| {
        let sub = Scratch::new(name);
        let results = run_shards(&sub, jobs, 2, 0, &["bitboard"], None);
        merge_json(jobs, &results)["totals"]["bitboard"].as_u64()
    };
    let published = Some(3_290_240);
    assert_eq!(totals(&paths, "unique-p"), published);
    assert_eq!(totals(&unique, "unique-u"), published);
}

/// A quorum merge takes results of other generators and hash seeds for the same jobs:
/// agreeing ones exit 0 with the total; a computation with a bug exits 1 naming each job
/// it counts otherwise and every computation of it; too few computations exit 2.
#[test]
fn a_quorum_merge_requires_agreement_and_names_the_job_that_lacks_it() {
    let dir = Scratch::new("quorum");
    let jobs = dir.file("jobs.jsonl");
    let out = xqdiff(&[
        "perft",
        "--depth",
        "4",
        "--split-depth",
        "2",
        "--emit-jobs",
        s(&jobs),
        "--unique",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let run = |output: &Path, extra: &[&str]| {
        let mut args = vec!["perft", "--jobs", s(&jobs), "--output", s(output)];
        args.extend(extra);
        let out = xqdiff(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    };
    let (a, b) = (dir.file("a.jsonl"), dir.file("b.jsonl"));
    run(
        &a,
        &[
            "--generator",
            "bitboard",
            "--hash",
            "1M",
            "--hash-seed",
            "11",
        ],
    );
    run(&b, &["--generator", "mailbox"]);
    assert_eq!(
        json_line(&a, 0)["hash_seed"].as_u64(),
        Some(11),
        "a result names its hash seed"
    );
    let merge = |k: &str, files: &[&Path]| {
        let mut args = vec!["merge", "--jobs", s(&jobs), "--quorum", k];
        args.extend(files.iter().map(|p| s(p)));
        xqdiff(&args)
    };
    let agree = merge("2", &[&a, &b]);
    assert_eq!(agree.status.code(), Some(0), "{}", text(&agree));
    assert!(text(&agree).contains("agrees: 3290240"), "{}", text(&agree));
    assert!(
        text(&agree).contains("independent computations: they share no generator"),
        "{}",
        text(&agree)
    );
    // A copy, a hard link and a rerun of the same computation are not a second one:
    // refused, both files named; another seed of the same generator is a second
    // computation, but agreeing it is not independent, and the merge says why.
    let (copy, link, rerun, other) = (
        dir.file("copy.jsonl"),
        dir.file("link.jsonl"),
        dir.file("rerun.jsonl"),
        dir.file("other.jsonl"),
    );
    std::fs::copy(&a, &copy).unwrap();
    std::fs::hard_link(&a, &link).unwrap();
    let bitboard = |seed: &'static str| {
        [
            "--generator",
            "bitboard",
            "--hash",
            "1M",
            "--hash-seed",
            seed,
        ]
    };
    run(&rerun, &bitboard("11"));
    run(&other, &bitboard("12"));
    let table: &[(&Path, i32, &[&str])] = &[
        (&copy, 2, &["copies of one run's lines", "copy.jsonl"]),
        (&link, 2, &["copies of one run's lines", "link.jsonl"]),
        (&rerun, 2, &["a rerun of the same computation", "rerun.jsonl"]),
        (
            &other,
            0,
            &[
                "share the bitboard generator, its two-ply count, the hashed perft's key and table code",
                "NOT independent",
            ],
        ),
    ];
    for &(second, code, words) in table {
        let out = merge("2", &[&a, second]);
        let said = text(&out);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{}: {said}",
            second.display()
        );
        for w in words {
            assert!(said.contains(w), "{}: {w:?} in {said}", second.display());
        }
    }
    let twice = merge("2", &[&a, &a]);
    assert_eq!(
        twice.status.code(),
        Some(2),
        "a file given twice is one computation"
    );
    let short = merge("3", &[&a, &b]);
    assert_eq!(short.status.code(), Some(2), "{}", text(&short));
    assert!(
        text(&short).contains("fewer than the 3"),
        "{}",
        text(&short)
    );
    // A generator with a bug as the second computation: every job it counts otherwise
    // is named, with each computation of it, and no other.
    let bug = Bug::ElephantEyeIgnored;
    let odd = jobs_that_differ(&jobs, bug);
    assert!(!odd.is_empty(), "the bug shows on no job");
    let planted = dir.file("planted.jsonl");
    let out = command(&[
        "perft",
        "--jobs",
        s(&jobs),
        "--generator",
        "planted",
        "--output",
        s(&planted),
    ])
    .env(PLANTED_BUG_VAR, bug.as_str())
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let differ = merge("2", &[&a, &planted]);
    let said = text(&differ);
    assert_eq!(differ.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!("DISAGREE on {} jobs", odd.len())),
        "{said}"
    );
    for i in &odd {
        assert!(said.contains(&format!("  job {i} [")), "job {i}: {said}");
    }
    assert!(
        said.contains("bitboard (seed 11)") && said.contains("planted (no table)"),
        "{said}"
    );
}

/// `perft --hash` prints its key seed and counts what the published suite says with
/// every generator, under the seed given or one of its own; sizes it cannot use and a
/// seed without a table are refused with exit 2.
#[test]
fn a_hashed_perft_names_its_seed_and_refuses_bad_sizes() {
    for seed in [Some("9"), Some("10"), None] {
        let mut args = vec!["perft", "--depth", "4", "--hash", "1M"];
        args.extend(seed.iter().flat_map(|s| ["--hash-seed", *s]));
        let out = xqdiff(&args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(0), "{said}");
        assert!(said.contains("all 3 generators agree: 3290240"), "{said}");
        let named = said
            .lines()
            .find_map(|l| l.split("key seed ").nth(1))
            .expect("the seed is printed");
        if let Some(s) = seed {
            assert_eq!(named.trim(), s, "{said}");
        }
    }
    for bad in [
        &["perft", "--depth", "2", "--hash", "1T"][..],
        &["perft", "--depth", "2", "--hash", "0"],
        &["perft", "--depth", "2", "--hash-seed", "3"],
    ] {
        let out = xqdiff(bad);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", text(&out));
    }
}

/// `xqdiff audit` counts a random share of a run's jobs again by `mailbox` without a
/// table and compares each with the run's results: a run whose two-ply count is wrong
/// (planted) is caught on the sample, exit 1 naming a job, while an honest hashed run
/// agrees (exit 0) and the share checked is said; with nothing to compare with, exit 2.
#[test]
fn an_audit_recounts_a_sample_by_a_method_that_shares_nothing() {
    let dir = Scratch::new("audit");
    let jobs = dir.file("jobs.jsonl");
    // Jobs of depth 3, where a shard's perft reaches the two-ply count (a depth-2 job
    // is split at its root and counted a ply at a time).
    let fen = "5k3/9/9/3R5/4c4/9/9/9/2np5/4K4 w - - 0 1";
    let out = xqdiff(&[
        "perft",
        "--fen",
        fen,
        "--depth",
        "4",
        "--split-depth",
        "1",
        "--emit-jobs",
        s(&jobs),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let shard = |output: &Path, generator: &str, bug: &str, extra: &[&str]| {
        let mut c = command(&["perft", "--jobs", s(&jobs), "--generator", generator]);
        c.args(["--output", s(output)]).args(extra);
        let out = c.env("XQDIFF_PLANTED_BUG", bug).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    };
    let (honest, wrong) = (dir.file("honest.jsonl"), dir.file("wrong.jsonl"));
    shard(
        &honest,
        "bitboard",
        "none",
        &["--hash", "1M", "--hash-seed", "3"],
    );
    shard(&wrong, "planted", "two-ply-counts-taken", &[]);
    let audit = |results: &[&Path], extra: &[&str]| {
        let mut args = vec!["audit", "--jobs", s(&jobs), "--share", "50", "--seed", "7"];
        args.extend(extra);
        args.extend(results.iter().map(|p| s(p)));
        xqdiff(&args)
    };
    let table: &[(&[&Path], &[&str], i32, &str)] = &[
        (
            &[&honest],
            &[],
            0,
            "every sampled job agrees with the recount",
        ),
        (&[&wrong], &[], 1, "the recount DISAGREES on"),
        (&[], &["--against", "bitboard"], 0, "8 of 16 jobs (50.00%)"),
        (&[], &[], 2, "nothing to compare the recount with"),
    ];
    for &(results, extra, code, words) in table {
        let out = audit(results, extra);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(code), "{extra:?}: {said}");
        assert!(said.contains(words), "{words:?} in {said}");
    }
}
