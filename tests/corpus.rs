//! Replays the regression corpus (`corpus/`) on every test run: every case must pass
//! the oracle and its hand-written expectations, and no file may be damaged. The copy
//! compiled into the program is the corpus `corpus/INDEX` lists, file for file, and
//! replays the same; the index is the files git tracks, and the package holds them.

use std::path::{Path, PathBuf};
use xqdiff::diff::corpus::{built_in_files, load_dir, replay, Source, BUILT_IN_DIR};
use xqdiff::generators::registry;

#[test]
fn corpus_replays_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let r = replay(&dir, &registry()).expect("corpus directory readable");
    let damaged: Vec<String> = r.damaged.iter().map(|e| e.to_string()).collect();
    assert!(
        damaged.is_empty(),
        "damaged corpus files:\n{}",
        damaged.join("\n")
    );
    let failures: Vec<String> = r
        .failures
        .iter()
        .flat_map(|(p, ds)| ds.iter().map(move |d| format!("{}: {d}", p.display())))
        .collect();
    assert!(
        failures.is_empty(),
        "disagreements:\n{}",
        failures.join("\n")
    );
    assert!(
        r.unmet.is_empty(),
        "unmet expectations:\n{}",
        r.unmet
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
    );
    // A replay that quietly found no files would pass the checks above.
    let hand_made = load_dir(&dir)
        .unwrap()
        .cases
        .iter()
        .filter(|(p, _)| p.to_string_lossy().contains("rule-"))
        .count();
    assert!(
        hand_made >= 15 && r.replayed >= hand_made,
        "replayed {} cases, {hand_made} hand-made",
        r.replayed
    );
}

/// The paths `corpus/INDEX` lists, as build.rs reads them, sorted.
fn index_entries() -> Vec<String> {
    let index = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/INDEX");
    let mut entries: Vec<String> = std::fs::read_to_string(index)
        .expect("corpus/INDEX")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect();
    entries.sort();
    entries
}

/// The built-in copy holds every file `corpus/INDEX` lists, subdirectories included,
/// with the bytes on disk, and nothing else; its cases load under the same names and
/// replay the same as the directory's.
#[test]
fn the_built_in_corpus_is_the_indexed_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let listed: Vec<(String, Vec<u8>)> = index_entries()
        .into_iter()
        .map(|rel| {
            let bytes = std::fs::read(dir.join(&rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
            (rel, bytes)
        })
        .collect();
    let built_in: Vec<(String, Vec<u8>)> = built_in_files()
        .iter()
        .map(|(name, bytes)| ((*name).to_owned(), bytes.to_vec()))
        .collect();
    let names = |files: &[(String, Vec<u8>)]| -> Vec<String> {
        files.iter().map(|(n, _)| n.clone()).collect()
    };
    assert_eq!(names(&built_in), names(&listed));
    assert_eq!(built_in, listed);
    assert!(
        built_in.iter().any(|(n, _)| n.contains('/')),
        "no subdirectory copied"
    );

    let file_names = |source: &Source| -> Vec<String> {
        source
            .load()
            .unwrap()
            .cases
            .iter()
            .map(|(p, _)| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    // The directory may hold cases a run saved that are not committed yet: the built-in
    // copy is the listed ones among them.
    let disk = Source::Dir(dir.clone());
    let on_disk_listed: Vec<String> = file_names(&disk)
        .into_iter()
        .filter(|n| listed.iter().any(|(rel, _)| rel == n))
        .collect();
    assert_eq!(file_names(&Source::BuiltIn), on_disk_listed);
    let engines = registry();
    let a = Source::BuiltIn.replay(&engines).unwrap();
    assert_eq!(a.replayed, on_disk_listed.len());
    assert!(a.replayed > 0);
    assert!(a.failures.is_empty() && a.unmet.is_empty() && a.damaged.is_empty());
    assert!(a.files.iter().all(|p| p.starts_with(BUILT_IN_DIR)));
    assert_eq!(Source::BuiltIn.to_string(), "built-in");
}

/// `corpus/INDEX` lists exactly the files git tracks under `corpus/` (itself aside):
/// a case committed but not listed would be missing from the program, and one listed
/// but not committed would be built into it from one checkout only. Skipped where
/// there is no git checkout (a packaged crate).
#[test]
fn the_index_lists_the_tracked_corpus() {
    let root = env!("CARGO_MANIFEST_DIR");
    let git = std::process::Command::new("git")
        .args(["-C", root, "ls-files", "-z", "--full-name", "--", "corpus"])
        .output();
    let tracked = match git {
        Ok(out) if out.status.success() && !out.stdout.is_empty() => out.stdout,
        _ => {
            eprintln!("no git checkout at {root}: the index is not compared with it");
            return;
        }
    };
    let mut tracked: Vec<String> = String::from_utf8(tracked)
        .unwrap()
        .split('\0')
        .filter_map(|p| p.strip_prefix("corpus/"))
        .filter(|p| *p != "INDEX")
        .map(str::to_owned)
        .collect();
    tracked.sort();
    assert_eq!(
        index_entries(),
        tracked,
        "corpus/INDEX must list every file git tracks under corpus/, and only those"
    );
}

/// Whether `path` matches a Cargo `include` pattern of the forms Cargo.toml uses for
/// the corpus: `/`-anchored, `*` within one path segment, no `**`.
fn matches_pattern(pattern: &str, path: &str) -> bool {
    fn segment(p: &[u8], s: &[u8]) -> bool {
        match (p.first(), s.first()) {
            (None, None) => true,
            (Some(b'*'), _) => segment(&p[1..], s) || (!s.is_empty() && segment(p, &s[1..])),
            (Some(a), Some(b)) if a == b => segment(&p[1..], &s[1..]),
            _ => false,
        }
    }
    let (p, s): (Vec<&str>, Vec<&str>) = (
        pattern.trim_start_matches('/').split('/').collect(),
        path.split('/').collect(),
    );
    p.len() == s.len()
        && p.iter()
            .zip(&s)
            .all(|(p, s)| segment(p.as_bytes(), s.as_bytes()))
}

/// Cargo.toml's `include` packages every file the index lists (or the packaged crate
/// would not build), but not a folder of findings about an engine that someone saved
/// under `corpus/external/` and never committed: cargo packages untracked files too.
#[test]
fn the_package_holds_the_indexed_corpus_and_no_stray_findings() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .expect("Cargo.toml");
    let include = manifest
        .split("include = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("an include list in Cargo.toml");
    let corpus: Vec<&str> = include
        .lines()
        .filter_map(|l| l.trim().trim_end_matches(',').strip_prefix('"'))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|p| p.starts_with("/corpus"))
        .collect();
    assert!(
        corpus.iter().all(|p| !p.contains("**")),
        "{corpus:?}: `**` would package untracked findings"
    );
    let packaged = |path: &str| corpus.iter().any(|p| matches_pattern(p, path));
    let mut listed = index_entries();
    listed.push("INDEX".into());
    for rel in listed {
        assert!(
            packaged(&format!("corpus/{rel}")),
            "corpus/{rel} is not packaged"
        );
    }
    for stray in [
        "corpus/external/some-engine-1.0/engine-perft-0123456789abcdef.txt",
        "corpus/external/sjaak-ii-1.4.2/engine-perft-0123456789abcdef.txt",
    ] {
        assert!(!packaged(stray), "{stray} would be packaged");
    }
}

/// Each row: what a crate root holds (a `corpus/` directory, cargo's `Cargo.toml.orig`
/// of a packaged crate) and whether its corpus directory is the default, not the
/// built-in copy.
#[test]
fn the_default_corpus_is_a_checkout_s_directory_else_the_built_in_copy() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("corpus-default");
    let table: &[(&str, bool, bool, bool)] = &[
        ("checkout", true, false, true),
        ("no-corpus", false, false, false),
        ("packaged", true, true, false),
        ("corpus-is-a-file", false, false, false),
    ];
    for &(name, corpus_dir, packaged, want_dir) in table {
        let manifest = root.join(name);
        let _ = std::fs::remove_dir_all(&manifest);
        std::fs::create_dir_all(&manifest).unwrap();
        if corpus_dir {
            std::fs::create_dir_all(manifest.join("corpus")).unwrap();
        } else if name == "corpus-is-a-file" {
            std::fs::write(manifest.join("corpus"), "").unwrap();
        }
        if packaged {
            std::fs::write(manifest.join("Cargo.toml.orig"), "").unwrap();
        }
        let want = if want_dir {
            Source::Dir(manifest.join("corpus"))
        } else {
            Source::BuiltIn
        };
        assert_eq!(Source::for_manifest(&manifest), want, "{name}");
    }
    // This build comes from a checkout with its corpus.
    assert_eq!(
        Source::default_location(),
        Source::Dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"))
    );
}

/// Runs after runs hitting one bug leave a few witnesses of it, not one file per hit: a
/// folder with enough cases of a signature takes a new one only if it is smaller than
/// each of them; another signature is written as always.
#[test]
fn a_folder_keeps_a_few_witnesses_of_each_bug() {
    use xqdiff::diff::corpus::{write_case, Case, WITNESSES};
    let dir = std::env::temp_dir().join(format!("xqdiff-witnesses-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let case = |fen: &str, signature: &str| {
        let text = format!("{fen}\ncheck: pseudo-legal\nsignature: {signature}\n");
        Case::parse(&text, Path::new("t.txt")).unwrap()
    };
    let horse = "pseudo-legal/planted/extra-horse-leg";
    let fours = [
        "4k4/9/9/9/P8/9/9/9/9/2NK5 w",
        "4k4/9/9/9/1P7/9/9/9/9/2NK5 w",
        "4k4/9/9/9/2P6/9/9/9/9/2NK5 w",
        "4k4/9/9/9/4P4/9/9/9/9/2NK5 w",
    ];
    let written: Vec<bool> = fours
        .iter()
        .map(|fen| write_case(&dir, &case(fen, horse)).unwrap().1)
        .collect();
    assert_eq!(written, [true, true, true, false]);
    assert_eq!(WITNESSES, 3);
    let (smaller, new) = write_case(&dir, &case("4k4/9/9/9/9/9/9/9/9/2NK5 w", horse)).unwrap();
    assert!(new, "a smaller witness is kept: {}", smaller.display());
    let (_, other) = write_case(
        &dir,
        &case(fours[3], "pseudo-legal/planted/extra-king-palace"),
    )
    .unwrap();
    assert!(other, "another bug's case is written");
    assert_eq!(load_dir(&dir).unwrap().cases.len(), 5);
    let _ = std::fs::remove_dir_all(&dir);
}
