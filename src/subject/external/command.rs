//! An engine's command line as it runs from any folder: what a finding's "Reproduce
//! with:" and `found-by` print, so the command works where the user pastes it, not
//! only in the folder the check ran in.

use std::path::{Path, PathBuf};

/// `cmd` with every word that names a file or folder relative to the working folder
/// made absolute, re-quoted as a POSIX shell reads it (the `shlex` crate, as
/// [`super::split_command`] splits it). The program itself is made absolute only when
/// it names a path (`./engine`, `bin/engine`): a bare name is found on `PATH` from
/// any folder. A `NAME=VALUE` word whose value names a file gets the value made
/// absolute. A line that does not split is returned as it is, for the error to come
/// from where it is run.
pub(crate) fn from_anywhere(cmd: &str) -> String {
    let Ok(here) = std::env::current_dir() else {
        return cmd.to_owned();
    };
    from_folder(cmd, &here)
}

/// [`from_anywhere`] with `here` as the working folder.
fn from_folder(cmd: &str, here: &Path) -> String {
    let Some(words) = shlex::split(cmd) else {
        return cmd.to_owned();
    };
    let words: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, word)| {
            if i == 0 && !word.contains('/') {
                return word.clone();
            }
            if let Some(path) = existing(word, here) {
                return path;
            }
            match word.split_once('=') {
                Some((name, value)) if i > 0 && !value.is_empty() => existing(value, here)
                    .map_or_else(|| word.clone(), |path| format!("{name}={path}")),
                _ => word.clone(),
            }
        })
        .collect();
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| cmd.to_owned())
}

/// `word` as an absolute path when it is relative and names something under `here`.
fn existing(word: &str, here: &Path) -> Option<String> {
    let path = Path::new(word);
    if word.is_empty() || word.starts_with('-') || path.is_absolute() {
        return None;
    }
    let joined = here.join(path);
    joined.exists().then(|| tidy(&joined).display().to_string())
}

/// `path` without its `.` components (`/work/./engine` is `/work/engine`); `..` is
/// kept, since a link on the way may make it mean something else than its parent.
fn tidy(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| !matches!(c, std::path::Component::CurDir))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row: a command line, and how it reads from anywhere, with `{here}` the
    /// working folder (this crate's root, which holds `Cargo.toml` and `src/`).
    #[test]
    fn relative_files_are_made_absolute_and_the_rest_is_kept() {
        let here = Path::new(env!("CARGO_MANIFEST_DIR"));
        let table: &[(&str, &str)] = &[
            ("python3 Cargo.toml", "python3 {here}/Cargo.toml"),
            ("./src/main.rs --x", "{here}/src/main.rs --x"),
            ("src/main.rs", "{here}/src/main.rs"),
            // A bare program name is looked up on PATH, wherever it is run.
            ("Cargo.toml -v", "Cargo.toml -v"),
            (
                "engine --book=Cargo.toml",
                "engine '--book={here}/Cargo.toml'",
            ),
            ("engine --book=missing.bin", "engine '--book=missing.bin'"),
            ("/bin/engine -xboard", "/bin/engine -xboard"),
            ("node 'my lib/x.mjs'", "node 'my lib/x.mjs'"),
            (
                "python3 \"Cargo.toml\" 'a b'",
                "python3 {here}/Cargo.toml 'a b'",
            ),
            ("engine \"unbalanced", "engine \"unbalanced"),
        ];
        for &(cmd, want) in table {
            let want = want.replace("{here}", &here.display().to_string());
            assert_eq!(from_folder(cmd, here), want, "{cmd}");
            // What is printed splits back into the words that run.
            if shlex::split(cmd).is_some() {
                assert!(shlex::split(&want).is_some(), "{want}");
            }
        }
    }
}
