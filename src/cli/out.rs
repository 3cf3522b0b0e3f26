//! Every line the CLI prints goes through here, so that no write can panic: a closed
//! pipe (`xqdiff ... | head -1`) is taken as SIGPIPE would be, raising the stop flag
//! so long work ends early (`check` still writes its report) and the exit status is
//! 128 + 13; another write error (a full disk) is kept and reported in one line at the
//! end, with exit 2. Output after a failed write is dropped. Every line is shown with
//! its control characters escaped (`report::shown`): much of what is printed came from
//! outside (an engine's lines and name, a file's lines).

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

/// Prints a `--json` document to stdout, which [`document_only`] leaves open to it.
pub(super) fn document(args: fmt::Arguments<'_>) {
    write(args);
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
    // Asked on every line, so without copying the error out.
    let failed = FAILED.lock().is_ok_and(|f| f.is_some());
    if CLOSED.load(Ordering::Relaxed) || failed {
        return;
    }
    let text = args.to_string();
    let text = crate::job::report::shown(&text);
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
    let _ = writeln!(io::stderr().lock(), "{}", crate::job::report::shown(&text));
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

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($t:tt)*) => {
        $crate::cli::out::err_line(format_args!($($t)*))
    };
}

pub(crate) use {errln, out, outln};
