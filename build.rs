//! Compiles a copy of `corpus/` into the library (`corpus::Source::BuiltIn`), so that
//! `xqdiff check` replays the same cases from any folder, and from an installed binary
//! whose source tree is gone.
//!
//! The copy is the files `corpus/INDEX` lists, never whatever lies in the folder: a
//! run saves cases there, and findings about someone else's engine (`--corpus corpus`)
//! go under `corpus/external/`; neither belongs in the program until it is committed
//! and listed. `tests/corpus.rs` checks that the index lists exactly the files git
//! tracks under `corpus/`. A file in the folder that the index lacks is named in a
//! warning, so a new case is not left out unnoticed.
//!
//! Writes `$OUT_DIR/built_in_corpus.rs`: one `(relative path, include_bytes!(...))` per
//! file, sorted by path. Bytes, not `include_str!`: a damaged (non-UTF-8) case must
//! reach the loader, which names it, instead of failing the build. A listed file that
//! is missing fails the build at its `include_bytes!`, naming it.
//!
//! The generated code names each file from `env!("CARGO_MANIFEST_DIR")`, never by an
//! absolute path: two checkouts sharing one `CARGO_TARGET_DIR` share this `OUT_DIR`,
//! and a path written here would make one checkout embed the other's corpus (or fail to
//! build once that one is deleted). Each file is watched on its own as well as the
//! folder, so a case changed in either checkout runs this again.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The index of the built-in corpus, relative to `corpus/`.
const INDEX: &str = "INDEX";

fn main() {
    // A directory here makes cargo watch every file under it, so a case added by a run
    // (or by hand) is named in the next build's warning.
    println!("cargo:rerun-if-changed=corpus");
    println!("cargo:rerun-if-changed=build.rs");
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").map(PathBuf::from);
    let out_dir = std::env::var_os("OUT_DIR").map(PathBuf::from);
    let (Some(manifest), Some(out_dir)) = (manifest, out_dir) else {
        // Cargo always sets both; without them there is nowhere to write.
        println!("cargo:warning=CARGO_MANIFEST_DIR or OUT_DIR unset: no built-in corpus");
        return;
    };
    let root = manifest.join("corpus");
    println!("cargo:rerun-if-changed=corpus/{INDEX}");
    let mut listed = match std::fs::read_to_string(root.join(INDEX)) {
        Ok(text) => index_entries(&text),
        Err(e) => {
            println!("cargo:warning=cannot read corpus/{INDEX} ({e}): no built-in corpus");
            Vec::new()
        }
    };
    listed.sort();
    listed.dedup();
    let mut on_disk = Vec::new();
    if root.is_dir() {
        collect(&root, "", &mut on_disk);
    }
    let unlisted: Vec<&String> = on_disk
        .iter()
        .filter(|rel| rel.as_str() != INDEX && !listed.contains(rel))
        .collect();
    if let Some(first) = unlisted.first() {
        let files = match unlisted.len() {
            1 => "1 file".to_owned(),
            n => format!("{n} files"),
        };
        println!(
            "cargo:warning={files} under corpus/ not in corpus/{INDEX}, left out of the \
             built-in copy (the first: corpus/{first}); list a case there once it is committed"
        );
    }
    let mut code = String::from(
        "/// Every file of `corpus/INDEX` at build time: path relative to `corpus/`\n\
         /// (`/`-separated), bytes.\n\
         pub(crate) static FILES: &[(&str, &[u8])] = &[\n",
    );
    for rel in &listed {
        println!("cargo:rerun-if-changed=corpus/{rel}");
        let inside = format!("/corpus/{rel}");
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {inside:?}))),"
        );
    }
    code.push_str("];\n");
    let target = out_dir.join("built_in_corpus.rs");
    if let Err(e) = std::fs::write(&target, code) {
        // The include! in the library then fails with the path, which says more than
        // a panic here would.
        println!("cargo:warning=cannot write {}: {e}", target.display());
    }
}

/// The paths an index lists: one a line, `#` lines and blank lines skipped. A path that
/// could leave `corpus/` (absolute, `..`, a backslash) is refused with a warning.
fn index_entries(text: &str) -> Vec<String> {
    let mut entries = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let escapes = line.starts_with('/')
            || line.contains('\\')
            || line.split('/').any(|part| part.is_empty() || part == "..");
        if escapes {
            println!("cargo:warning=corpus/{INDEX}: {line:?} is not a path inside corpus/");
        } else {
            entries.push(line.to_owned());
        }
    }
    entries
}

/// Every file under `dir`, recursively, as its path relative to the corpus. Hidden
/// files are left out: they are a writer's temporary files (`corpus::write_case`) or
/// editor litter, never cases.
fn collect(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            println!("cargo:warning=cannot read {}: {e}", dir.display());
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            println!(
                "cargo:warning=corpus file name is not UTF-8, left out of the built-in copy: {}",
                path.display()
            );
            continue;
        };
        if name.starts_with('.') {
            continue;
        }
        let rel = format!("{prefix}{name}");
        if path.is_dir() {
            collect(&path, &format!("{rel}/"), out);
        } else {
            out.push(rel);
        }
    }
}
