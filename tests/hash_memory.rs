//! `--hash` against the memory there is: a table is zero-filled at once, so a size the
//! kernel only pretends to give would have the run killed with nothing said. Sizes past
//! the memory available are refused with exit 2 and a sentence, and a shard's size is
//! counted once per generator, as its help says. Nothing here allocates a large table:
//! only refusals are asked for.

use std::process::Command;

fn xqdiff(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xqdiff"))
        .args(args)
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

#[test]
fn a_table_larger_than_memory_is_refused_with_a_sentence() {
    if !cfg!(target_os = "linux") {
        // Nothing to refuse against where memory cannot be read.
        return;
    }
    // The memory the run says it has, read off its refusal of a table no machine has.
    let (code, said) = xqdiff(&["perft", "--depth", "1", "--hash", "65536G"]);
    assert_eq!(code, Some(2), "{said}");
    let available = said
        .split("is more than the ")
        .nth(1)
        .and_then(|rest| rest.split(" of memory available").next())
        .and_then(bytes)
        .unwrap_or_else(|| panic!("no memory available in {said}"));
    let dir = tempfile::tempdir().unwrap();
    let jobs = dir.path().join("jobs.jsonl");
    let jobs = jobs.to_str().unwrap();
    let (code, said) = xqdiff(&[
        "perft",
        "--depth",
        "3",
        "--split-depth",
        "1",
        "--emit-jobs",
        jobs,
    ]);
    assert_eq!(code, Some(0), "{said}");
    // A size in MiB about half of what is available: one table would fit, three do not,
    // even if the memory available moves by a sixth between the runs.
    let half = format!("{}M", (available / 2) >> 20);
    // 64 TiB: more than any machine this runs on, yet within what a 64-bit
    // allocator is asked for without failing at once.
    let table: &[(&[&str], &str)] = &[
        (
            &["perft", "--depth", "1", "--hash", "65536G"],
            "a table of 65536 GiB",
        ),
        (
            &[
                "perft",
                "--depth",
                "1",
                "--generator",
                "bitboard",
                "--hash",
                "65536G",
            ],
            "is more than the",
        ),
        // A shard keeps a table per generator: three generators, three tables.
        (&["perft", "--jobs", jobs, "--hash", &half], "3 tables of"),
    ];
    for &(args, words) in table {
        let (code, said) = xqdiff(args);
        assert_eq!(code, Some(2), "{args:?}: {said}");
        assert!(said.contains("memory available"), "{args:?}: {said}");
        assert!(said.contains(words), "{args:?}: {words:?} in {said}");
        assert!(!said.contains("panicked"), "{said}");
    }
}

/// A size as the refusal writes one: "N bytes", "N MiB" or "N GiB".
fn bytes(size: &str) -> Option<u64> {
    let (n, unit) = size.split_once(' ')?;
    let n: u64 = n.parse().ok()?;
    Some(match unit {
        "bytes" => n,
        "MiB" => n << 20,
        "GiB" => n << 30,
        _ => return None,
    })
}
