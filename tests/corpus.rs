//! Replays the regression corpus (`corpus/`) on every test run: every case must pass
//! the oracle and its hand-written expectations, and no file may be damaged. The copy
//! compiled into the program is the same corpus, file for file, and replays the same.

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

/// Every file under `dir`, recursively, hidden ones left out: path relative to `dir`
/// with `/` between directories, and bytes.
fn files_under(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        if name.starts_with('.') {
            continue;
        }
        let rel = format!("{prefix}{name}");
        if entry.path().is_dir() {
            files_under(&entry.path(), &format!("{rel}/"), out);
        } else {
            out.push((rel, std::fs::read(entry.path()).unwrap()));
        }
    }
}

/// The built-in copy holds every file of `corpus/`, subdirectories included, with the
/// same bytes; its cases load under the same names and replay the same.
#[test]
fn the_built_in_corpus_is_the_repository_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut on_disk = Vec::new();
    files_under(&dir, "", &mut on_disk);
    on_disk.sort();
    let built_in: Vec<(String, Vec<u8>)> = built_in_files()
        .iter()
        .map(|(name, bytes)| ((*name).to_owned(), bytes.to_vec()))
        .collect();
    let names = |files: &[(String, Vec<u8>)]| -> Vec<String> {
        files.iter().map(|(n, _)| n.clone()).collect()
    };
    assert_eq!(names(&built_in), names(&on_disk));
    assert_eq!(built_in, on_disk);
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
    let disk = Source::Dir(dir.clone());
    assert_eq!(file_names(&Source::BuiltIn), file_names(&disk));
    let engines = registry();
    let a = Source::BuiltIn.replay(&engines).unwrap();
    let b = disk.replay(&engines).unwrap();
    assert_eq!(a.replayed, b.replayed);
    assert!(a.replayed > 0);
    assert!(a.failures.is_empty() && a.unmet.is_empty() && a.damaged.is_empty());
    assert!(a.files.iter().all(|p| p.starts_with(BUILT_IN_DIR)));
    assert_eq!(Source::BuiltIn.to_string(), "built-in");
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
