//! `--hash` against the memory there is: a table is zero-filled at once, so a size the
//! kernel only pretends to give would have the run killed with nothing said. Sizes past
//! the memory available are refused with exit 2 and a sentence, and a shard's size is
//! counted once per generator, as its help says. Nothing here allocates a large table:
//! only refusals are asked for.

use std::process::Command;
use xqdiff::generators::perft_hash::memory_available;

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
    let Some((available, _)) = memory_available() else {
        // Nothing to refuse against where memory cannot be read (not Linux).
        return;
    };
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
    // A size in MiB that is more than half of what is available, but less than all of it:
    // one table would fit, three do not.
    let half = format!("{}M", ((available / 2) >> 20) + 1);
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
