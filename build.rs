//! Compiles a copy of `corpus/` into the library (`corpus::Source::BuiltIn`), so that
//! `xqdiff check` replays the same cases from any folder, and from an installed binary
//! whose source tree is gone.
//!
//! Writes `$OUT_DIR/built_in_corpus.rs`: one `(relative path, include_bytes!(...))` per
//! file, sorted by path. Bytes, not `include_str!`: a damaged (non-UTF-8) case must
//! reach the loader, which names it, instead of failing the build.
//!
//! The generated code names each file from `env!("CARGO_MANIFEST_DIR")`, never by an
//! absolute path: two checkouts sharing one `CARGO_TARGET_DIR` share this `OUT_DIR`,
//! and a path written here would make one checkout embed the other's corpus (or fail to
//! build once that one is deleted). Each file is watched on its own as well as the
//! folder, so a case changed in either checkout runs this again.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    // A directory here makes cargo watch every file under it, so a case added by a run
    // (or by hand) is in the next build's copy.
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
    let mut files = Vec::new();
    if root.is_dir() {
        collect(&root, "", &mut files);
    }
    files.sort();
    let mut code = String::from(
        "/// Every file of `corpus/` at build time: path relative to it (`/`-separated), bytes.\n\
         pub(crate) static FILES: &[(&str, &[u8])] = &[\n",
    );
    for (rel, _) in &files {
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

/// Every file under `dir`, recursively, as (path relative to the corpus, absolute
/// path). Hidden files are left out: they are a writer's temporary files
/// (`corpus::write_case`) or editor litter, never cases.
fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
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
        } else if let Some(abs) = path.to_str() {
            println!("cargo:rerun-if-changed=corpus/{rel}");
            out.push((rel, abs.to_owned()));
        } else {
            println!(
                "cargo:warning=corpus path is not UTF-8, left out of the built-in copy: {}",
                path.display()
            );
        }
    }
}
