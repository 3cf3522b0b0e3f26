//! The engine's process: spawning it in a process group of its own, writing to it
//! without ever blocking the caller, reading its lines within limits, and making sure
//! that it and everything it started are gone afterwards.
//!
//! Both directions go through threads. A reader thread per output stream turns lines
//! into events on a bounded channel, so every wait is a `recv_timeout`, and an engine
//! that prints faster than xqdiff reads is held back by the full pipe instead of
//! filling memory. A writer thread owns stdin, so an engine that stops reading can fill
//! the pipe without blocking xqdiff. Neither thread is ever joined: a grandchild can
//! hold a pipe open long after the engine died, so no wait may depend on the pipe
//! closing; the engine's own exit is watched instead.
//!
//! One answer (from the question to whatever ends it) is held to limits: each step
//! within the timeout, the whole of it within [`ANSWER_TIMEOUTS`] timeouts, at most
//! [`MAX_ANSWER_LINES`] lines and [`MAX_ANSWER_BYTES`] bytes, no line longer than
//! [`MAX_LINE`]. An engine past a limit is ended: what it says next could not be told
//! apart from the rest of that answer.

use super::drain::{self, Asked, Readable, Waker};
use crate::subject::SubjectError;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line an engine may print, in bytes, without its line ending. Perft
/// lines are tens of bytes; a longer line is garbage, and reading it whole would let
/// an engine that never prints a newline fill memory.
pub(crate) const MAX_LINE: usize = 64 * 1024;

/// The most lines one answer may have, stderr and chatter included. An xboard engine
/// that prints a block per depth up to the deepest depth xqdiff asks prints some
/// thousands.
pub(crate) const MAX_ANSWER_LINES: usize = 100_000;

/// The most bytes one answer may have, line endings included.
pub(crate) const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// A whole answer ends within this many timeouts, however steadily the engine keeps
/// printing lines that count as progress.
pub(crate) const ANSWER_TIMEOUTS: u32 = 10;

/// Lines held between the reader threads and the driver. Full, it stops the readers,
/// and the pipe then stops the engine; at [`MAX_LINE`] a line it holds at most 16 MiB.
const QUEUE: usize = 256;

/// How often a wait looks at the stop flag and at whether the engine still runs.
const POLL: Duration = Duration::from_millis(50);

/// How long the reader threads get to pass on what an engine seen exiting had printed:
/// they answer at once (see [`Process::exit_fault`]); this bounds only a reader that
/// cannot (a grandchild flooding the pipe it inherited).
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// How many lines of output error messages quote.
const KEEP_LINES: usize = 10;

/// How long a quitting engine gets before its group is sent SIGTERM, and then SIGKILL;
/// also how long an engine that closed its output gets to exit before its status is
/// reported as unknown.
const GRACE: Duration = Duration::from_millis(200);

/// How much of a line an [`SubjectError::Overrun`] quotes.
const QUOTE_CHARS: usize = 100;

/// Why a command line could not be split into words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandLineError {
    /// A quote with no partner, or a backslash with nothing after it to escape.
    #[error("unbalanced quote or trailing backslash in {0:?}")]
    Unbalanced(String),
    /// Only white space (or a comment): no program to start.
    #[error("empty command")]
    Empty,
}

/// Splits a command line into words the way a POSIX shell does for plain words (the
/// `shlex` crate): white space separates, single quotes keep everything literally, double
/// quotes keep white space and honour `\"` and `\\`, a backslash outside quotes escapes
/// the next character, and `#` at the start of a word begins a comment. No variables,
/// globs or redirections.
pub fn split_command(cmd: &str) -> Result<Vec<String>, CommandLineError> {
    let words = shlex::split(cmd).ok_or_else(|| CommandLineError::Unbalanced(cmd.to_owned()))?;
    if words.is_empty() {
        return Err(CommandLineError::Empty);
    }
    Ok(words)
}

/// What the reader threads report.
enum Event {
    /// A line on stdout, without its line ending.
    Out(String),
    /// A line on stderr.
    Err(String),
    /// A line longer than [`MAX_LINE`] on stdout (`false`) or stderr (`true`); that
    /// stream is read no further.
    Overlong { stderr: bool },
    /// Stdout closed: the engine exited or will.
    Eof,
    /// The reader of stdout (`false`) or stderr (`true`) has passed on everything its
    /// stream held when it was asked to (by [`Process::exit_fault`]); stderr's reader
    /// says it also when its stream closes, as stdout's says [`Event::Eof`].
    Drained { stderr: bool },
}

/// Why a wait or a write came to nothing, before it is named in a [`SubjectError`].
enum Fault {
    /// Nothing arrived within the timeout.
    Timeout,
    /// The engine exited or closed its output; the exit status as text.
    Exited(String),
    /// Writing failed while the engine still seemed alive.
    Write(io::Error),
    /// The answer passed one of its limits; which, as text. The engine was ended.
    Overrun(String),
    /// The stop flag went up; the engine was ended.
    Stopped,
    /// The run's deadline came; the engine was ended.
    OutOfTime,
}

/// How much of its limits the answer being read has used.
struct Budget {
    lines: usize,
    bytes: usize,
    /// When the whole answer must be over; `None` before the first question.
    until: Option<Instant>,
}

/// A running engine.
pub(crate) struct Process {
    child: Child,
    /// `None` once shut down; dropping it closes the writer thread and so stdin.
    writer: Option<Sender<String>>,
    write_error: Arc<Mutex<Option<io::Error>>>,
    events: Receiver<Event>,
    last: VecDeque<String>,
    /// How many of `last` came after the question being answered was asked: an
    /// error shows only those, never the output of an answer before it.
    since_asked: usize,
    /// Set once the engine can be asked nothing more (it exited, closed its output, or
    /// was ended), with why as text.
    exited: Option<String>,
    /// The direct child's status, once reaped.
    status: Option<ExitStatus>,
    /// Whether the process group has been ended.
    ended: bool,
    /// Whether the child is the engine's guard (`guard.rs`), which ends whatever the
    /// engine leaves once the engine is gone, and so is spared when the group is killed.
    guarded: bool,
    budget: Budget,
    /// Raised when the run is to stop (a signal): every wait gives up and ends the engine.
    stop: Option<&'static AtomicBool>,
    /// When the run must be over: no wait goes past it, and one it cuts short ends the
    /// engine, since what the engine says next could be the rest of that answer.
    deadline: Option<Instant>,
    /// The program's file name, for an engine that never says its name.
    pub(crate) program: String,
    /// The longest wait for any one step of an answer.
    pub(crate) timeout: Duration,
    /// Every line sent while set up, until [`Process::said`] takes them: the
    /// handshake and options a user types before asking anything.
    said: Option<Vec<String>>,
    /// One byte written here asks a reader thread to pass on everything its stream
    /// holds and say [`Event::Drained`]: stdout's reader, and stderr's.
    drain: [Option<Waker>; 2],
}

/// `wait` from now, or as far ahead as the clock goes when that is past its end (a
/// timeout of centuries is no timeout, not a panic).
fn after(wait: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(wait)
        .or_else(|| now.checked_add(Duration::from_secs(u64::from(u32::MAX))))
        .unwrap_or(now)
}

impl Process {
    /// Starts `command` with all three streams piped, in a process group of its own so
    /// that whatever it starts can be ended with it. `stop`, when raised, ends any wait.
    pub(crate) fn spawn(
        command: &str,
        timeout: Duration,
        stop: Option<&'static AtomicBool>,
    ) -> Result<Process, SubjectError> {
        let spawn_error = |source| SubjectError::Spawn {
            command: command.to_string(),
            source,
        };
        let words = split_command(command)
            .map_err(|e| spawn_error(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
        let (mut cmd, is_guarded) = engine_command(&words).map_err(spawn_error)?;
        #[cfg(target_os = "linux")]
        let mut child = orphans::spawn(&mut cmd, is_guarded).map_err(spawn_error)?;
        #[cfg(not(target_os = "linux"))]
        let mut child = cmd.spawn().map_err(spawn_error)?;
        let (tx, events) = mpsc::sync_channel(QUEUE);
        let drain = start_readers(&mut child, &tx);
        let write_error = Arc::new(Mutex::new(None));
        let writer = child
            .stdin
            .take()
            .map(|stdin| start_writer(stdin, Arc::clone(&write_error)));
        let program = std::path::Path::new(&words[0])
            .file_name()
            .map_or_else(|| words[0].clone(), |n| n.to_string_lossy().into_owned());
        Ok(Process {
            child,
            writer,
            write_error,
            events,
            last: VecDeque::new(),
            since_asked: 0,
            exited: None,
            status: None,
            ended: false,
            guarded: is_guarded,
            budget: Budget {
                lines: 0,
                bytes: 0,
                until: None,
            },
            stop,
            deadline: None,
            program,
            drain,
            timeout,
            said: Some(Vec::new()),
        })
    }

    /// Sets when the run must be over (`None`: never): no wait goes past it.
    pub(crate) fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The operating system's id of the engine process.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Whether the engine was seen to exit.
    pub(crate) fn has_exited(&self) -> bool {
        self.exited.is_some()
    }

    /// Sends a question: like [`Process::send`], and the limits of one answer start
    /// anew for what the engine prints next.
    pub(crate) fn ask(&mut self, text: &str, request: &str) -> Result<(), SubjectError> {
        self.since_asked = 0;
        self.budget = Budget {
            lines: 0,
            bytes: 0,
            until: Some(after(self.timeout.saturating_mul(ANSWER_TIMEOUTS))),
        };
        self.send(text, request)
    }

    /// The lines sent so far, recording stopped: what it took to set the engine up.
    pub(crate) fn said(&mut self) -> Vec<String> {
        self.said.take().unwrap_or_default()
    }

    /// Queues `text` (whole lines, each ending in a newline) for the engine, as part of
    /// the question being answered; `request` names it in errors.
    pub(crate) fn send(&mut self, text: &str, request: &str) -> Result<(), SubjectError> {
        self.try_send(text).map_err(|f| self.error(f, request))
    }

    fn try_send(&mut self, text: &str) -> Result<(), Fault> {
        if let Some(said) = &mut self.said {
            said.extend(text.lines().map(str::to_owned));
        }
        if let Some(status) = &self.exited {
            return Err(Fault::Exited(status.clone()));
        }
        let queued = self
            .writer
            .as_ref()
            .is_some_and(|w| w.send(text.to_string()).is_ok());
        let failed = self.write_error.lock().ok().and_then(|mut e| e.take());
        if queued && failed.is_none() {
            return Ok(());
        }
        // A failed write almost always means the engine died: say so when it did.
        match self.wait_for_exit() {
            Some(status) => Err(Fault::Exited(self.gone(status))),
            None => Err(Fault::Write(failed.unwrap_or_else(|| {
                io::Error::new(io::ErrorKind::BrokenPipe, "the engine's input is closed")
            }))),
        }
    }

    /// The instant a wait that starts now must end: the configured timeout from now.
    pub(crate) fn deadline(&self) -> Instant {
        after(self.timeout)
    }

    /// The next stdout line of the answer to `request`, if it comes before `deadline`.
    pub(crate) fn line_by(
        &mut self,
        deadline: Instant,
        request: &str,
    ) -> Result<String, SubjectError> {
        self.next_line(deadline).map_err(|f| self.error(f, request))
    }

    /// The next line of the handshake begun by `request`: as [`Process::line_by`], but
    /// running out of time is a handshake that never gave `expected`.
    pub(crate) fn handshake_line(
        &mut self,
        deadline: Instant,
        request: &str,
        expected: &'static str,
    ) -> Result<String, SubjectError> {
        self.line_by(deadline, request).map_err(|e| match e {
            SubjectError::Timeout { timeout, last, .. } => SubjectError::Handshake {
                expected,
                timeout,
                last,
            },
            e => e,
        })
    }

    /// The next stdout line if one comes within `wait`.
    pub(crate) fn line_within(
        &mut self,
        wait: Duration,
        request: &str,
    ) -> Result<Option<String>, SubjectError> {
        match self.next_line(after(wait)) {
            Ok(line) => Ok(Some(line)),
            Err(Fault::Timeout) => Ok(None),
            Err(f) => Err(self.error(f, request)),
        }
    }

    fn error(&self, fault: Fault, request: &str) -> SubjectError {
        let last = self.last();
        let request = request.to_string();
        match fault {
            Fault::Timeout => SubjectError::Timeout {
                request,
                timeout: self.timeout,
                last,
            },
            Fault::Exited(status) => SubjectError::Exited {
                request,
                status,
                last,
            },
            Fault::Write(source) => SubjectError::Write { source, last },
            Fault::Overrun(limit) => SubjectError::Overrun {
                request,
                limit,
                last: self.last.back().map(|l| quote(l)),
            },
            Fault::Stopped => SubjectError::Stopped { request },
            Fault::OutOfTime => SubjectError::OutOfTime { request },
        }
    }

    /// The next stdout line, if it comes before `deadline` and the answer's own
    /// deadline. Stderr lines are kept for error messages but never returned.
    fn next_line(&mut self, deadline: Instant) -> Result<String, Fault> {
        loop {
            if let Some(status) = &self.exited {
                return Err(Fault::Exited(status.clone()));
            }
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.end("a stop request");
                return Err(Fault::Stopped);
            }
            // Once the engine itself is gone, whatever still holds its output (a helper,
            // a grandchild) is not the engine, and nothing it says is an answer.
            if let Some(status) = self.child_exit() {
                return Err(self.exit_fault(status));
            }
            let now = Instant::now();
            if self.deadline.is_some_and(|end| now >= end) {
                self.end("the run's time ran out");
                return Err(Fault::OutOfTime);
            }
            let until = self.budget.until.unwrap_or(deadline);
            if now >= until {
                let limit = format!(
                    "it went on past {:?} ({ANSWER_TIMEOUTS} times the timeout) without \
                     finishing",
                    self.timeout.saturating_mul(ANSWER_TIMEOUTS)
                );
                return Err(self.overrun(limit));
            }
            // Checked before receiving: an engine that prints without pause would
            // otherwise always have a line ready, and the wait would never end.
            if now >= deadline {
                return Err(Fault::Timeout);
            }
            let end = self.deadline.map_or(until, |end| end.min(until));
            let wait = (deadline.min(end) - now).min(POLL);
            match self.events.recv_timeout(wait) {
                Ok(Event::Out(line)) => {
                    self.spend(&line)?;
                    self.remember(line.clone());
                    return Ok(line);
                }
                Ok(Event::Err(line)) => {
                    self.spend(&line)?;
                    self.remember(format!("[stderr] {line}"));
                }
                Ok(Event::Overlong { stderr }) => return Err(self.overrun(overlong(stderr))),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    // Its last words may still be on the way on stderr: read them for
                    // the error, as when the exit is seen first.
                    return Err(match self.wait_for_exit() {
                        Some(status) => self.exit_fault(status),
                        None => Fault::Exited(self.note_exit()),
                    });
                }
                Ok(Event::Drained { .. }) => {}
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Why the wait ends now that the engine exited with `status`. What it printed
    /// before is still read for the error's last lines, and an overlong line among it
    /// is the error: the reader closes the pipe at such a line, and the engine may well
    /// have died of that.
    fn exit_fault(&mut self, status: ExitStatus) -> Fault {
        // The engine may be seen gone before the reader threads have passed on its last
        // lines (a refusal printed just before exiting). Everything it wrote is in the
        // pipes now, so each reader is asked to pass on what its pipe holds and say so:
        // an event, however busy the machine, where waiting a while for the end of the
        // output would depend on the reader's speed, and on no grandchild holding the
        // pipe open.
        // A reader that cannot be asked has ended: what it passed on is all queued.
        let mut waiting = self
            .drain
            .each_ref()
            .map(|w| w.as_ref().is_some_and(Waker::wake));
        let until = after(EXIT_GRACE);
        loop {
            let event = if waiting.contains(&true) {
                let wait = until.saturating_duration_since(Instant::now());
                self.events.recv_timeout(wait).ok()
            } else {
                self.events.try_recv().ok()
            };
            match event {
                None => break,
                Some(Event::Out(line)) => self.remember(line),
                Some(Event::Err(line)) => self.remember(format!("[stderr] {line}")),
                Some(Event::Overlong { stderr }) => return self.overrun(overlong(stderr)),
                // A reader whose stream closed has passed on all it ever will.
                Some(Event::Drained { stderr }) => waiting[usize::from(stderr)] = false,
                Some(Event::Eof) => waiting[0] = false,
            }
        }
        Fault::Exited(self.gone(status))
    }

    /// Counts `line` against the answer's limits.
    fn spend(&mut self, line: &str) -> Result<(), Fault> {
        self.budget.lines += 1;
        self.budget.bytes = self.budget.bytes.saturating_add(line.len() + 1);
        if self.budget.lines > MAX_ANSWER_LINES {
            return Err(self.overrun(format!("more than {MAX_ANSWER_LINES} lines")));
        }
        if self.budget.bytes > MAX_ANSWER_BYTES {
            return Err(self.overrun(format!("more than {MAX_ANSWER_BYTES} bytes")));
        }
        Ok(())
    }

    /// Ends the engine for passing `limit`, and the fault that says so.
    fn overrun(&mut self, limit: String) -> Fault {
        self.end("an answer past its limits");
        Fault::Overrun(limit)
    }

    /// Lines that have already arrived, without waiting: at most a queue's worth, so an
    /// engine that never pauses cannot keep this going.
    pub(crate) fn pending_lines(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        for _ in 0..QUEUE {
            if self.exited.is_some() {
                break;
            }
            match self.events.try_recv() {
                Ok(Event::Out(line)) => {
                    self.remember(line.clone());
                    out.push(line);
                }
                Ok(Event::Err(line)) => self.remember(format!("[stderr] {line}")),
                Ok(Event::Overlong { stderr }) => {
                    // Between answers there is no request to fail; the next one will
                    // find the engine ended, and why.
                    self.end(&overlong(stderr));
                }
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => {
                    self.note_exit();
                }
                Ok(Event::Drained { .. }) => {}
                Err(TryRecvError::Empty) => break,
            }
        }
        out
    }

    /// The last lines the engine printed since the question being answered was asked,
    /// oldest first: what it said to that question, not to the one before.
    pub(crate) fn last(&self) -> Vec<String> {
        let skip = self.last.len().saturating_sub(self.since_asked);
        self.last.iter().skip(skip).cloned().collect()
    }

    fn remember(&mut self, line: String) {
        if self.last.len() == KEEP_LINES {
            self.last.pop_front();
        }
        self.last.push_back(line);
        self.since_asked = self.since_asked.saturating_add(1);
    }

    /// Records that stdout closed, ends what is left of the group, and returns the exit
    /// status as text.
    fn note_exit(&mut self) -> String {
        match self.wait_for_exit() {
            Some(status) => self.gone(status),
            None => {
                let text = "closed its output but was still running".to_string();
                self.terminate();
                self.exited = Some(text.clone());
                text
            }
        }
    }

    /// The engine exited with `status`: ends the rest of its group (a helper or a
    /// grandchild may still hold the pipe) and records that it can be asked nothing
    /// more. Returns the status as text.
    fn gone(&mut self, status: ExitStatus) -> String {
        self.terminate();
        let text = status.to_string();
        self.exited = Some(text.clone());
        text
    }

    /// Ends the engine's group because of `why`, for anything asked after.
    fn end(&mut self, why: &str) {
        if self.exited.is_none() {
            self.terminate();
            self.exited = Some(format!("ended by xqdiff after {why}"));
        }
    }

    /// The direct child's status if it has exited, reaping it.
    fn child_exit(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.status = Some(status);
            }
        }
        self.status
    }

    /// Waits up to [`GRACE`] for the direct child to exit, reaping it.
    fn wait_for_exit(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + GRACE;
        loop {
            match self.child_exit() {
                Some(status) => return Some(status),
                None if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                None => return None,
            }
        }
    }

    /// Sends `signal` (`None`: none, only whether anyone is there) to the engine's
    /// group; whether anyone in it received it.
    #[cfg(unix)]
    fn signal_group(&self, signal: Option<nix::sys::signal::Signal>) -> bool {
        use nix::sys::signal::killpg;
        use nix::unistd::Pid;
        // The group's id is the child's: it asked for a group of its own at spawn. While
        // anyone is left in the group the id cannot be handed to another process, so
        // this reaches the engine's processes only.
        i32::try_from(self.child.id()).is_ok_and(|pid| killpg(Pid::from_raw(pid), signal).is_ok())
    }

    /// Ends the engine and everything in its group: SIGTERM to all of them, [`GRACE`]
    /// to go, SIGKILL to any left; the direct child is always reaped. Safe to call more
    /// than once.
    fn terminate(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        #[cfg(unix)]
        {
            use nix::sys::signal::Signal;
            if self.signal_group(Some(Signal::SIGTERM)) {
                // An unreaped child would keep the group non-empty, so it is reaped
                // as soon as it goes.
                let emptied = |p: &mut Process| {
                    let until = Instant::now() + GRACE;
                    loop {
                        p.child_exit();
                        if !p.signal_group(None) {
                            return true;
                        }
                        if Instant::now() >= until {
                            return false;
                        }
                        thread::sleep(Duration::from_millis(2));
                    }
                };
                if !emptied(self) {
                    // The guard outlives its engine only to end what the engine left,
                    // and then goes by itself: it is killed only if it does not.
                    #[cfg(target_os = "linux")]
                    let spared = self.guarded && {
                        orphans::kill_group(self.child.id(), true);
                        emptied(self)
                    };
                    #[cfg(not(target_os = "linux"))]
                    let spared = false;
                    if !spared {
                        self.signal_group(Some(Signal::SIGKILL));
                        emptied(self);
                    }
                }
            }
        }
        if self.status.is_none() {
            let _ = self.child.kill();
            if let Ok(status) = self.child.wait() {
                self.status = Some(status);
            }
        }
        #[cfg(target_os = "linux")]
        {
            orphans::ended(self.child.id());
            // Helpers that left the group (`setsid`, a shell's `set -m`) came to xqdiff
            // when the engine went: they are ended here too.
            orphans::sweep();
        }
    }

    /// Asks the engine to quit, gives it [`GRACE`], then ends its group; always reaps
    /// it. Safe to call more than once.
    pub(crate) fn shutdown(&mut self) {
        if self.ended {
            return;
        }
        if let Some(w) = self.writer.take() {
            // Dropping the sender ends the writer thread, which closes stdin: an engine
            // that ignores `quit` still sees end of input.
            let _ = w.send("quit\n".to_string());
        }
        if self.exited.is_none() {
            self.wait_for_exit();
        }
        // Also after a clean quit: helpers it started in the background go with it.
        self.terminate();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Nothing an engine starts outlives xqdiff (Linux). The engine gets a parent-death
/// signal, so it dies with xqdiff however xqdiff ends (SIGKILL included, which no
/// handler sees); and xqdiff is a child subreaper, so a helper the engine started in a
/// group or session of its own, which no signal to the engine's group reaches, becomes
/// xqdiff's child when the engine goes, and is found and ended by [`sweep`]. Under a
/// guard (`guard.rs`, the `xqdiff` program's engines) the guard is their subreaper and
/// ends them, also when xqdiff is killed; this stays the second line.
#[cfg(target_os = "linux")]
mod orphans {
    use nix::sys::signal::{kill, Signal};
    use nix::sys::wait::{waitpid, WaitPidFlag};
    use nix::unistd::Pid;
    use std::collections::HashMap;
    use std::sync::Mutex;

    /// Engines started and not yet ended: xqdiff's own children, never swept, each with
    /// whether it is a guard.
    static ENGINES: Mutex<Option<HashMap<u32, bool>>> = Mutex::new(None);

    /// Rounds of [`sweep`]: an orphan's own children come to xqdiff when it is ended,
    /// so each round may find a generation more.
    const ROUNDS: usize = 20;

    /// The first argument that starts xqdiff as a guard: `xqdiff __engine-guard PARENT
    /// PROGRAM [ARGS]`, where PARENT is the id of the xqdiff that started it. No command
    /// takes it, so no user runs it by mistake.
    pub(crate) const GUARD_ARG: &str = "__engine-guard";

    /// The program started as the guard, once [`guard_engines`] named it.
    static PROGRAM: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

    /// Runs every engine started from now on under a guard: `program` (the xqdiff
    /// executable, whose `main` begins with
    /// [`run_if_guard`](super::super::run_if_guard)) started with [`GUARD_ARG`].
    pub(crate) fn guard_engines(program: std::path::PathBuf) {
        let _ = PROGRAM.set(program);
    }

    /// The command that starts `words` under the guard, when engines are guarded.
    pub(super) fn guard_command(words: &[String]) -> Option<std::process::Command> {
        let program = PROGRAM.get()?;
        let mut cmd = std::process::Command::new(program);
        cmd.arg(GUARD_ARG)
            .arg(std::process::id().to_string())
            .args(words);
        Some(cmd)
    }

    /// Starts `cmd` as an engine: xqdiff becomes the subreaper of whatever it starts,
    /// and its process gets SIGKILL when xqdiff dies. Registered under the lock
    /// [`sweep`] takes, so a sweep for another engine never sees it unregistered.
    /// A guard gets no parent-death signal: it must outlive xqdiff to end what the
    /// engine started, and it sees xqdiff go by itself.
    pub(super) fn spawn(
        cmd: &mut std::process::Command,
        guarded: bool,
    ) -> std::io::Result<std::process::Child> {
        // Failing leaves the system's defaults: orphans go to init, as before.
        let _ = nix::sys::prctl::set_child_subreaper(true);
        if !guarded {
            die_with_parent(cmd);
        }
        let mut engines = ENGINES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let child = cmd.spawn()?;
        engines
            .get_or_insert_with(HashMap::new)
            .insert(child.id(), guarded);
        Ok(child)
    }

    /// The parent-death signal must be set in the child, between fork and exec: there
    /// is no safe interface for that step, so this is the crate's one unsafe block.
    #[allow(unsafe_code)]
    pub(in crate::subject::external) fn die_with_parent(cmd: &mut std::process::Command) {
        use std::os::unix::process::CommandExt;
        let parent = nix::unistd::getpid();
        // SAFETY: the closure runs in the forked child before exec and calls only
        // prctl(2) and getppid(2), both async-signal-safe; it allocates nothing and
        // takes no lock. If xqdiff died before the signal was set, the parent is no
        // longer the one captured, and the child gives up rather than run orphaned.
        unsafe {
            cmd.pre_exec(move || {
                nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
                if nix::unistd::getppid() != parent {
                    return Err(std::io::Error::other("xqdiff exited while starting it"));
                }
                Ok(())
            });
        }
    }

    /// SIGKILL to every engine's group, its guard spared ([`kill_group`]): whatever
    /// waits on one then sees it gone, once its guard has ended what the engine left.
    pub(super) fn end_all() {
        let engines = ENGINES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for (&pid, &guarded) in engines.iter().flatten() {
            kill_group(pid, guarded);
        }
    }

    /// SIGKILL to the process group `group` (an engine's, named by the process xqdiff
    /// started). A `guarded` group's leader is the guard, which is spared: it ends
    /// everything the engine started once the engine is gone, helpers out of the
    /// group's reach included, and then exits by itself; killed with the rest, it could
    /// end nothing, and a helper in a session of its own would outlive a run whose
    /// next signal ends xqdiff before xqdiff's own sweep. The group is looked at until
    /// no one but the guard is left, so a process forked meanwhile goes too.
    pub(super) fn kill_group(group: u32, guarded: bool) {
        let Ok(raw) = i32::try_from(group) else {
            return;
        };
        if !guarded {
            let _ = nix::sys::signal::killpg(Pid::from_raw(raw), Signal::SIGKILL);
            return;
        }
        for _ in 0..ROUNDS {
            let others: Vec<u32> = members(group)
                .into_iter()
                .filter(|&pid| pid != group)
                .collect();
            if others.is_empty() {
                return;
            }
            for pid in others {
                if let Ok(raw) = i32::try_from(pid) {
                    let _ = kill(Pid::from_raw(raw), Signal::SIGKILL);
                }
            }
        }
    }

    /// The ids of the processes in process group `group`, from `/proc`.
    fn members(group: u32) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| parent_and_group(pid).is_some_and(|(_, g)| g == group))
            .collect()
    }

    /// What xqdiff does before it exits in the middle of a run (a signal past the
    /// one that asked it to stop): every engine's group ended ([`end_all`]; a guard
    /// ends what its engine left once xqdiff is gone), and what the engines without a
    /// guard left, which comes to xqdiff as they die, killed before xqdiff goes.
    pub(super) fn before_exit() {
        end_all();
        let unguarded: Vec<u32> = ENGINES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .flatten()
            .filter(|&(_, &guarded)| !guarded)
            .map(|(&pid, _)| pid)
            .collect();
        for pid in unguarded {
            // Killed a moment ago: reaped once gone, so that its orphans have come to
            // xqdiff by the sweep below. A driver that reaps it first leaves nothing
            // to wait for.
            if let Ok(raw) = i32::try_from(pid) {
                let _ = waitpid(Pid::from_raw(raw), Some(WaitPidFlag::empty()));
            }
            ended(pid);
        }
        sweep();
    }

    pub(super) fn ended(pid: u32) {
        let mut engines = ENGINES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(set) = engines.as_mut() {
            set.remove(&pid);
        }
    }

    /// Kills and reaps every child of xqdiff that is not an engine it started: only
    /// orphans of an engine can be (xqdiff starts no other process).
    pub(super) fn sweep() {
        // Held throughout, so no engine is started (and not yet registered) meanwhile.
        let engines = ENGINES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let live = engines.clone().unwrap_or_default();
        for _ in 0..ROUNDS {
            let strays: Vec<u32> = children()
                .into_iter()
                .filter(|pid| !live.contains_key(pid))
                .collect();
            if strays.is_empty() {
                return;
            }
            for pid in strays {
                let Ok(raw) = i32::try_from(pid) else {
                    continue;
                };
                let _ = kill(Pid::from_raw(raw), Signal::SIGKILL);
                let _ = waitpid(Pid::from_raw(raw), Some(WaitPidFlag::empty()));
            }
        }
    }

    /// The ids of `parent`'s children, from `/proc`.
    pub(in crate::subject::external) fn children_of(parent: u32) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| parent_and_group(pid).is_some_and(|(p, _)| p == parent))
            .collect()
    }

    /// `program` as exec would find it (a path, or a name looked up in `PATH`), if
    /// it is a file that can be run; else the error exec would give.
    pub(super) fn runnable(program: &str) -> std::io::Result<()> {
        use nix::errno::Errno;
        use std::os::unix::fs::PermissionsExt;
        let candidates: Vec<std::path::PathBuf> = if program.contains('/') {
            vec![program.into()]
        } else {
            std::env::var_os("PATH")
                .map(|path| {
                    std::env::split_paths(&path)
                        .map(|d| d.join(program))
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut error = Errno::ENOENT;
        for path in candidates {
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_file() && meta.permissions().mode() & 0o111 != 0 => {
                    return Ok(())
                }
                Ok(_) => error = Errno::EACCES,
                Err(_) => {}
            }
        }
        Err(error.into())
    }

    /// The ids of xqdiff's children outside its own process group, from `/proc`: an
    /// engine and all it starts are in other groups, while a program that embeds the
    /// library may start processes of its own, in its group, which are none of ours.
    fn children() -> Vec<u32> {
        let me = std::process::id();
        let group = u32::try_from(nix::unistd::getpgrp().as_raw()).unwrap_or(0);
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| parent_and_group(pid).is_some_and(|(p, g)| p == me && g != group))
            .collect()
    }

    /// The parent and process group of `pid`: the two fields after the state in
    /// `/proc/PID/stat`, read after the last `)` since the command name may hold anything.
    fn parent_and_group(pid: u32) -> Option<(u32, u32)> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace().skip(1);
        Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
    }
}

#[cfg(target_os = "linux")]
pub(super) use orphans::{children_of, die_with_parent};
#[cfg(target_os = "linux")]
pub(crate) use orphans::{guard_engines, GUARD_ARG};

/// Ends every engine xqdiff started, and all in their groups, at once (SIGKILL): for a
/// run told twice to stop, which must not wait for any engine. Their drivers see them
/// gone and report it; they are reaped when dropped. An engine's guard is spared: it
/// ends what the engine left, then goes by itself.
pub(crate) fn end_all_engines() {
    #[cfg(target_os = "linux")]
    orphans::end_all();
}

/// Ends every engine xqdiff started and everything they left, for a process about to
/// exit in the middle of a run: nothing an engine started outlives it, however many
/// signals came before.
pub(crate) fn end_all_engines_before_exit() {
    #[cfg(target_os = "linux")]
    orphans::before_exit();
}

/// What an overlong line's limit says.
fn overlong(stderr: bool) -> String {
    let stream = if stderr { "stderr" } else { "stdout" };
    format!("a line longer than {MAX_LINE} bytes on its {stream}")
}

/// `line` cut to [`QUOTE_CHARS`] characters.
fn quote(line: &str) -> String {
    match line.char_indices().nth(QUOTE_CHARS) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    }
}

/// Sends each line of `stream` as an event until it closes, or until a line is longer
/// than [`MAX_LINE`]. Bytes that are not UTF-8 are replaced rather than ending the
/// stream. Blocks while the queue is full, which holds the engine back. Asked through
/// `asked`, it passes on everything the stream holds and says [`Event::Drained`].
/// The engine's command from its words, and whether it runs under the guard (where
/// engines are guarded, see `guard.rs`): its pipes made, and in a process group of its
/// own, so a wrapper script, a helper it starts in the background or a grandchild
/// holding the pipe are all ended with it, and a terminal's Ctrl-C does not reach the
/// engine before xqdiff hears it.
fn engine_command(words: &[String]) -> io::Result<(Command, bool)> {
    #[cfg(target_os = "linux")]
    let guarded = orphans::guard_command(words);
    #[cfg(not(target_os = "linux"))]
    let guarded: Option<Command> = None;
    let is_guarded = guarded.is_some();
    #[cfg(target_os = "linux")]
    if is_guarded {
        // The guard starts the engine, so a program that cannot start would be the
        // guard's exit, not this error: looked for here first, as exec would.
        orphans::runnable(&words[0])?;
    }
    let mut cmd = guarded.unwrap_or_else(|| {
        let mut cmd = Command::new(&words[0]);
        cmd.args(&words[1..]);
        cmd
    });
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    Ok((cmd, is_guarded))
}

/// A thread per output stream of `child` (stdout, then stderr) that sends its lines to
/// `tx`, so no wait blocks on a read; returns each stream's waker, which asks its
/// thread for what is already there.
fn start_readers(child: &mut Child, tx: &SyncSender<Event>) -> [Option<Waker>; 2] {
    let mut drain = [None, None];
    if let Some(out) = child.stdout.take() {
        let tx = tx.clone();
        let (waker, asked) = drain::asked_for(&out);
        drain[0] = waker;
        thread::spawn(move || read_lines(out, &tx, false, asked));
    }
    if let Some(err) = child.stderr.take() {
        let tx = tx.clone();
        let (waker, asked) = drain::asked_for(&err);
        drain[1] = waker;
        thread::spawn(move || read_lines(err, &tx, true, asked));
    }
    drain
}

/// A thread that writes what is sent to it to the engine's `stdin`, so an engine that
/// stops reading cannot block xqdiff on a full pipe; the first error is kept in
/// `error` for the next send to report, and ends the thread.
fn start_writer(mut stdin: ChildStdin, error: Arc<Mutex<Option<io::Error>>>) -> Sender<String> {
    let (wtx, wrx) = mpsc::channel::<String>();
    thread::spawn(move || {
        for text in wrx {
            if let Err(e) = stdin
                .write_all(text.as_bytes())
                .and_then(|()| stdin.flush())
            {
                if let Ok(mut s) = error.lock() {
                    *s = Some(e);
                }
                return;
            }
        }
    });
    wtx
}

fn read_lines(stream: impl Read + Readable, tx: &SyncSender<Event>, stderr: bool, asked: Asked) {
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    while let Ok(drain) = asked.wait(reader.get_ref()) {
        // Everything the stream holds now, then back to waiting; a blocking stream
        // (where a reader cannot be asked) is read until it closes.
        loop {
            let (complete, used) = match reader.fill_buf() {
                Ok([]) => {
                    if !line.is_empty() && !send_line(tx, &mut line, stderr) {
                        return;
                    }
                    closed(tx, stderr);
                    return;
                }
                Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        line.extend_from_slice(&buf[..i]);
                        (true, i + 1)
                    }
                    None => {
                        line.extend_from_slice(buf);
                        (false, buf.len())
                    }
                },
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    closed(tx, stderr);
                    return;
                }
            };
            reader.consume(used);
            // A `\r` may still be the line ending's first half.
            let content = line.len() - usize::from(line.last() == Some(&b'\r'));
            if content > MAX_LINE {
                let _ = tx.send(Event::Overlong { stderr });
                return;
            }
            if complete && !send_line(tx, &mut line, stderr) {
                return;
            }
        }
        if drain && tx.send(Event::Drained { stderr }).is_err() {
            return;
        }
    }
    closed(tx, stderr);
}

/// Says that `stderr`'s (or stdout's) stream closed: nothing more will come of it.
fn closed(tx: &SyncSender<Event>, stderr: bool) {
    let _ = tx.send(if stderr {
        Event::Drained { stderr }
    } else {
        Event::Eof
    });
}

/// Sends `line` (emptied) as a line of its stream; whether anyone still listens.
fn send_line(tx: &SyncSender<Event>, line: &mut Vec<u8>, stderr: bool) -> bool {
    let text = String::from_utf8_lossy(line)
        .trim_end_matches('\r')
        .to_string();
    line.clear();
    let event = if stderr {
        Event::Err(text)
    } else {
        Event::Out(text)
    };
    tx.send(event).is_ok()
}

#[cfg(test)]
mod tests {
    use super::{split_command, CommandLineError, Process, SubjectError};
    use std::time::{Duration, Instant};

    /// An engine seen gone before its last line has been passed on still has that line
    /// among the error's last lines: a refusal printed just before exiting is how
    /// HoiXiangqi answers, and it must not read as a crash. Here the engine has printed
    /// a thousand lines and exited before anything is read, so its last line is
    /// certainly not yet passed on when the exit is seen, however fast or slow the
    /// machine is: more lines than the queue holds, so reading a queue's worth or
    /// waiting a moment for the end of the output is not enough.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_last_line_before_an_exit_is_kept() {
        let cmd = r#"sh -c 'i=0; while [ $i -lt 1000 ]; do echo "info $i"; i=$((i+1)); done; echo "Error (refused): last"; exit 1'"#;
        let mut p = Process::spawn(cmd, Duration::from_secs(5), None).unwrap();
        // Exited and not yet reaped: a zombie.
        let stat = format!("/proc/{}/stat", p.child.id());
        let exited = || {
            std::fs::read_to_string(&stat)
                .ok()
                .and_then(|s| s.rsplit_once(") ").map(|(_, rest)| rest.starts_with('Z')))
                .unwrap_or(false)
        };
        let until = Instant::now() + Duration::from_secs(60);
        while !exited() {
            assert!(Instant::now() < until, "the engine never exited");
            std::thread::sleep(Duration::from_millis(10));
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        match p.line_by(deadline, "q") {
            Err(SubjectError::Exited { last, .. }) => assert_eq!(
                last.last().map(String::as_str),
                Some("Error (refused): last"),
                "{last:?}"
            ),
            other => panic!("not seen as exited: {other:?}"),
        }
    }

    #[test]
    fn commands_split_like_a_shell() {
        let ok: &[(&str, &[&str])] = &[
            ("engine", &["engine"]),
            ("  /usr/games/sjaakii   -x ", &["/usr/games/sjaakii", "-x"]),
            ("a 'b c' d", &["a", "b c", "d"]),
            (r#"a "b \"c\" \\ \n" d"#, &["a", r#"b "c" \ \n"#, "d"]),
            (r"a b\ c", &["a", "b c"]),
            ("a '' b", &["a", "", "b"]),
            ("x'y'\"z\"", &["xyz"]),
            ("engine # a comment", &["engine"]),
            ("a\tb\nc", &["a", "b", "c"]),
        ];
        for (cmd, words) in ok {
            let got = split_command(cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"));
            assert_eq!(got, *words, "{cmd}");
        }
        let bad: &[(&str, CommandLineError)] = &[
            ("", CommandLineError::Empty),
            ("   ", CommandLineError::Empty),
            ("# only a comment", CommandLineError::Empty),
            ("a 'b", CommandLineError::Unbalanced("a 'b".into())),
            ("a \"b", CommandLineError::Unbalanced("a \"b".into())),
            ("a \\", CommandLineError::Unbalanced("a \\".into())),
        ];
        for (cmd, want) in bad {
            assert_eq!(split_command(cmd).as_ref(), Err(want), "{cmd:?}");
        }
    }
}
