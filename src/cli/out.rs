//! Every line the CLI prints goes through here, so that no write can panic: a closed
//! pipe (`xqdiff ... | head -1`) is taken as SIGPIPE would be, raising the stop flag
//! so long work ends early (`check` still writes its report) and the exit status is
//! 128 + 13; another write error (a full disk) is kept and reported in one line at the
//! end, with exit 2. Output after a failed write is dropped. Every line is shown with
//! its control characters escaped (`report::shown`): much of what is printed came from
//! outside (an engine's lines and name, a file's lines).
//!
//! It is also the one home of how the terminal looks: whether stdout is coloured
//! (`--color`, `NO_COLOR`), which verdict words take which colour, whether `--quiet`
//! drops the per-position lines, and how a path is shown (relative to the working
//! folder when under it). Colour is added after the escaping, on stdout alone, so no
//! escape code reaches a file, a JSON document or (unless `--color always`) a pipe.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The conventional number of SIGPIPE, the signal a closed pipe raises.
pub(super) const SIGPIPE: i32 = 13;

/// Set once stdout's reader has gone away.
static CLOSED: AtomicBool = AtomicBool::new(false);
/// The first write error other than a closed pipe.
static FAILED: Mutex<Option<String>> = Mutex::new(None);
/// Set by `--json`: stdout carries one JSON document, so the human lines are dropped.
static DOCUMENT_ONLY: AtomicBool = AtomicBool::new(false);

/// From now on only [`document`] reaches stdout.
pub(super) fn document_only() {
    DOCUMENT_ONLY.store(true, Ordering::Relaxed);
}

/// `--color`: when stdout is coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    // On a terminal, unless `NO_COLOR` is set to anything but the empty string.
    #[default]
    Auto,
    // Even into a pipe or with `NO_COLOR` set, as other tools take it.
    Always,
    Never,
}

/// Whether stdout's verdict words are coloured; decided once, by [`configure`].
static COLOR: AtomicBool = AtomicBool::new(false);
/// `--quiet`: no per-position `ok` lines and no progress.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Takes the global flags: decides colour from `--color`, `NO_COLOR` and whether
/// stdout is a terminal, and records `--quiet`.
pub(super) fn configure(color: ColorChoice, quiet: bool) {
    use std::io::IsTerminal;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let on = match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => !no_color && io::stdout().is_terminal(),
    };
    COLOR.store(on, Ordering::Relaxed);
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub(crate) fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// The colour a verdict word takes: what failed red, what passed green, what is
/// known yellow. Only these whole words are coloured, and only in the lines printed
/// as verdicts ([`statusln!`]), never in text that came from outside.
fn tone(word: &str) -> Option<&'static str> {
    const RED: &str = "\x1b[31m";
    const GREEN: &str = "\x1b[32m";
    const YELLOW: &str = "\x1b[33m";
    match word {
        "DIFFERS" | "BUG" | "FAILED" | "failed" | "FAIL" | "MISMATCH" | "MISMATCHED"
        | "DISAGREEMENT" | "DISAGREE" | "error" | "ERROR" => Some(RED),
        "ok" | "passed" | "PASSED" | "agreement" => Some(GREEN),
        "KNOWN" | "known" | "interrupted" | "INTERRUPTED" => Some(YELLOW),
        _ => None,
    }
}

/// `text` with its verdict words coloured.
fn paint(text: &str) -> String {
    const RESET: &str = "\x1b[0m";
    let mut out = String::with_capacity(text.len() + 16);
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match tone(word) {
            Some(colour) => {
                out.push_str(colour);
                out.push_str(word);
                out.push_str(RESET);
            }
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Prints verdict lines to stdout (use [`statusln!`]): coloured when colour is on.
pub(crate) fn status(args: fmt::Arguments<'_>) {
    if DOCUMENT_ONLY.load(Ordering::Relaxed) {
        return;
    }
    let text = format!("{args}\n");
    let text = crate::job::report::shown(&text);
    // Fitted before it is painted: colour codes take no columns.
    let text = super::wrap::for_terminal(&text, false);
    if COLOR.load(Ordering::Relaxed) {
        put(&paint(&text));
    } else {
        put(&text);
    }
}

/// `path` as the user reads it: relative to the working folder when it is under it
/// (`corpus/x.txt`, not `/home/me/xqdiff/corpus/x.txt`), else as it is.
pub(crate) fn path(path: &std::path::Path) -> String {
    let relative = || {
        if !path.is_absolute() {
            return None;
        }
        // Compared as written, never through the path's own links: the report folder
        // is a link to the set written last, whose hidden name means nothing to a
        // reader. The working folder may be reached through a link, so it is also
        // tried as the system resolves it.
        let here = std::env::current_dir().ok()?;
        let resolved = here.canonicalize().ok();
        let rel = path
            .strip_prefix(&here)
            .ok()
            .or_else(|| path.strip_prefix(resolved.as_ref()?).ok())?;
        Some(if rel.as_os_str().is_empty() {
            std::path::PathBuf::from(".")
        } else {
            rel.to_path_buf()
        })
    };
    relative()
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// Prints a `--json` document to stdout, which [`document_only`] leaves open to it.
pub(super) fn document(args: fmt::Arguments<'_>) {
    // A document is read by a program: never fitted to a terminal.
    put(&crate::job::report::shown(&args.to_string()));
}

/// Prints one line to stdout (use [`outln!`]).
pub(crate) fn line(args: fmt::Arguments<'_>) {
    text(format_args!("{args}\n"));
}

/// Prints to stdout without a newline (use [`out!`]).
pub(crate) fn text(args: fmt::Arguments<'_>) {
    if !DOCUMENT_ONLY.load(Ordering::Relaxed) {
        write(args);
    }
}

fn write(args: fmt::Arguments<'_>) {
    let text = args.to_string();
    put(&super::wrap::for_terminal(
        &crate::job::report::shown(&text),
        false,
    ));
}

/// Writes `text`, already escaped, to stdout.
fn put(text: &str) {
    // Asked on every line, so without copying the error out.
    let failed = FAILED.lock().is_ok_and(|f| f.is_some());
    if CLOSED.load(Ordering::Relaxed) || failed {
        return;
    }
    let mut stdout = io::stdout().lock();
    if let Err(e) = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        record(&e);
    }
}

/// Prints one line to stderr (use [`errln!`]); an error there has nowhere to go.
pub(crate) fn err_line(args: fmt::Arguments<'_>) {
    let text = args.to_string();
    let text = super::wrap::for_terminal(&crate::job::report::shown(&text), true).into_owned();
    let _ = writeln!(io::stderr().lock(), "{text}");
}

fn record(e: &io::Error) {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CLOSED.store(true, Ordering::Relaxed);
        super::signals::raise(SIGPIPE);
    } else if let Ok(mut first) = FAILED.lock() {
        first.get_or_insert_with(|| e.to_string());
    }
}

/// Watches a stdout that is a pipe for its reader going away, so a long count with
/// nothing to print (`perft --depth 9 | head -1`) stops when it happens, not at its next
/// line: the closed pipe is taken as SIGPIPE at once.
pub(super) fn watch_for_a_closed_pipe() {
    #[cfg(unix)]
    {
        use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
        use std::os::fd::AsFd;
        use std::os::unix::fs::FileTypeExt;
        let is_pipe = std::fs::metadata("/dev/stdout")
            .is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket());
        if !is_pipe {
            return;
        }
        std::thread::spawn(|| loop {
            let stdout = io::stdout();
            // No events asked: only an error or hang-up on the pipe wakes this.
            let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::empty())];
            match poll(&mut fds, PollTimeout::from(200u16)) {
                Ok(n) if n > 0 => {
                    let gone = PollFlags::POLLERR | PollFlags::POLLHUP;
                    if fds[0].revents().is_some_and(|r| r.intersects(gone)) {
                        record(&io::Error::from(io::ErrorKind::BrokenPipe));
                        return;
                    }
                }
                Ok(_) => {}
                Err(_) => return,
            }
        });
    }
}

/// Whether stdout's reader went away during the run.
pub(super) fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// The first write error on stdout other than a closed pipe, if any.
pub(super) fn failed() -> Option<String> {
    FAILED.lock().ok().and_then(|f| f.clone())
}

/// `println!` that never panics.
macro_rules! outln {
    () => {
        $crate::cli::out::line(format_args!(""))
    };
    ($($t:tt)*) => {
        $crate::cli::out::line(format_args!($($t)*))
    };
}

/// `print!` that never panics.
macro_rules! out {
    ($($t:tt)*) => {
        $crate::cli::out::text(format_args!($($t)*))
    };
}

/// `println!` for a verdict line, its verdict words coloured on a terminal.
macro_rules! statusln {
    ($($t:tt)*) => {
        $crate::cli::out::status(format_args!($($t)*))
    };
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($t:tt)*) => {
        $crate::cli::out::err_line(format_args!($($t)*))
    };
}

pub(crate) use {errln, out, outln, statusln};

/// Nodes per second as text, `-` when no time was measured.
pub(super) fn rate(nodes: u64, secs: f64) -> String {
    if secs > 0.0 {
        format!("{:.1} M nodes/s", nodes as f64 / secs / 1e6)
    } else {
        "-".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row: a line, and the words in it that take a colour. A verdict word inside
    /// another word (`okay`, `known-bugs`'s `bugs`) is left alone.
    #[test]
    fn only_whole_verdict_words_are_painted() {
        let table: &[(&str, &[&str])] = &[
            ("ok            D2   1920", &["ok"]),
            (
                "DIFFERS  D1  start  bug cause/subject/horse-leg-ignored",
                &["DIFFERS"],
            ),
            ("KNOWN    D1  start", &["KNOWN"]),
            ("okay, look: a token", &[]),
            ("perft        passed   1.2 s", &["passed"]),
            ("FAILED: 2 disagreements", &["FAILED"]),
        ];
        for &(line, words) in table {
            let painted = paint(line);
            let mut plain = painted.clone();
            for word in words {
                let colour = tone(word).unwrap();
                let coloured = format!("{colour}{word}\x1b[0m");
                assert!(painted.contains(&coloured), "{line}: {painted:?}");
                plain = plain.replacen(&coloured, word, 1);
            }
            assert_eq!(plain, line, "{painted:?}");
        }
    }

    /// Each row: a path (relative ones under the working folder), and how it is shown.
    #[test]
    fn paths_under_the_working_folder_are_shown_relative_to_it() {
        let here = std::env::current_dir().unwrap();
        #[cfg(unix)]
        let _ = std::os::unix::fs::symlink("debug", here.join("target/link-to-debug"));
        let table: &[(std::path::PathBuf, &str)] = &[
            (here.join("corpus"), "corpus"),
            (
                here.join("xqdiff-report/report.md"),
                "xqdiff-report/report.md",
            ),
            (here.clone(), "."),
            // Through a link (as the report folder is): the link's name is shown.
            (here.join("target/link-to-debug"), "target/link-to-debug"),
            ("corpus".into(), "corpus"),
            ("/".into(), "/"),
        ];
        for (given, want) in table {
            assert_eq!(path(given), *want, "{}", given.display());
        }
    }
}
