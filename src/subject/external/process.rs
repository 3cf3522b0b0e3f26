//! The engine's process: spawning it, writing to it without ever blocking the caller,
//! reading its lines with a timeout, and making sure it is gone afterwards.
//!
//! Both directions go through threads. A reader thread per output stream turns lines
//! into events on a channel, so every wait is a `recv_timeout`. A writer thread owns
//! stdin, so an engine that stops reading can fill the pipe without blocking xqdiff.

use crate::subject::SubjectError;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How many lines of output error messages quote.
const KEEP_LINES: usize = 10;

/// How long a quitting engine gets before it is killed, and how long an engine that
/// closed its output gets to exit before its status is reported as unknown.
const GRACE: Duration = Duration::from_millis(200);

/// Splits a command line into words the way a POSIX shell does for plain words:
/// white space separates, single quotes keep everything literally, double quotes keep
/// white space and honour `\"` and `\\`, a backslash outside quotes escapes the next
/// character. No variables, globs or redirections.
pub fn split_command(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word can be empty yet present (`''`), so track it apart from its text.
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated single quote in {cmd:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unterminated double quote in {cmd:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated double quote in {cmd:?}")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => {
                    in_word = true;
                    word.push(c);
                }
                None => return Err(format!("trailing backslash in {cmd:?}")),
            },
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty command".to_string());
    }
    Ok(words)
}

/// What the reader threads report.
enum Event {
    /// A line on stdout, without its line ending.
    Out(String),
    /// A line on stderr.
    Err(String),
    /// Stdout closed: the engine exited or will.
    Eof,
}

/// Why a wait or a write came to nothing, before it is named in a [`SubjectError`].
enum Fault {
    /// Nothing arrived within the timeout.
    Timeout,
    /// The engine closed its output; the exit status as text.
    Exited(String),
    /// Writing failed while the engine still seemed alive.
    Write(io::Error),
}

/// A running engine.
pub(crate) struct Process {
    child: Child,
    /// `None` once shut down; dropping it closes the writer thread and so stdin.
    writer: Option<Sender<String>>,
    write_error: Arc<Mutex<Option<io::Error>>>,
    events: Receiver<Event>,
    last: VecDeque<String>,
    /// Set once stdout closed, with the exit status as text.
    exited: Option<String>,
    reaped: bool,
    /// The program's file name, for an engine that never says its name.
    pub(crate) program: String,
    /// The longest wait for any one line.
    pub(crate) timeout: Duration,
}

impl Process {
    /// Starts `command` with all three streams piped.
    pub(crate) fn spawn(command: &str, timeout: Duration) -> Result<Process, SubjectError> {
        let spawn_error = |source| SubjectError::Spawn {
            command: command.to_string(),
            source,
        };
        let words = split_command(command)
            .map_err(|e| spawn_error(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(spawn_error)?;
        let (tx, events) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            let tx = tx.clone();
            thread::spawn(move || read_lines(out, &tx, Event::Out, true));
        }
        if let Some(err) = child.stderr.take() {
            let tx = tx.clone();
            thread::spawn(move || read_lines(err, &tx, Event::Err, false));
        }
        let write_error = Arc::new(Mutex::new(None));
        let writer = child.stdin.take().map(|mut stdin| {
            let (wtx, wrx) = mpsc::channel::<String>();
            let slot = Arc::clone(&write_error);
            thread::spawn(move || {
                for text in wrx {
                    if let Err(e) = stdin
                        .write_all(text.as_bytes())
                        .and_then(|()| stdin.flush())
                    {
                        if let Ok(mut s) = slot.lock() {
                            *s = Some(e);
                        }
                        return;
                    }
                }
            });
            wtx
        });
        let program = std::path::Path::new(&words[0])
            .file_name()
            .map_or_else(|| words[0].clone(), |n| n.to_string_lossy().into_owned());
        Ok(Process {
            child,
            writer,
            write_error,
            events,
            last: VecDeque::new(),
            exited: None,
            reaped: false,
            program,
            timeout,
        })
    }

    /// The operating system's id of the engine process.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Queues `text` (whole lines, each ending in a newline) for the engine; `request`
    /// names it in errors.
    pub(crate) fn send(&mut self, text: &str, request: &str) -> Result<(), SubjectError> {
        self.try_send(text).map_err(|f| self.error(f, request))
    }

    fn try_send(&mut self, text: &str) -> Result<(), Fault> {
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
            Some(status) => Err(Fault::Exited(status)),
            None => Err(Fault::Write(failed.unwrap_or_else(|| {
                io::Error::new(io::ErrorKind::BrokenPipe, "the engine's input is closed")
            }))),
        }
    }

    /// The instant a wait that starts now must end: the configured timeout from now.
    pub(crate) fn deadline(&self) -> Instant {
        Instant::now() + self.timeout
    }

    /// The next stdout line of the answer to `request`, if it comes before `deadline`.
    pub(crate) fn line_by(
        &mut self,
        deadline: Instant,
        request: &str,
    ) -> Result<String, SubjectError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        self.next_line(wait).map_err(|f| self.error(f, request))
    }

    /// The next stdout line if one comes within `wait`.
    pub(crate) fn line_within(
        &mut self,
        wait: Duration,
        request: &str,
    ) -> Result<Option<String>, SubjectError> {
        match self.next_line(wait) {
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
        }
    }

    /// The next stdout line, waiting at most `timeout` for it. Stderr lines are kept
    /// for error messages but never returned.
    fn next_line(&mut self, timeout: Duration) -> Result<String, Fault> {
        if let Some(status) = &self.exited {
            return Err(Fault::Exited(status.clone()));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Out(line)) => {
                    self.remember(line.clone());
                    return Ok(line);
                }
                Ok(Event::Err(line)) => self.remember(format!("[stderr] {line}")),
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(Fault::Exited(self.note_exit()))
                }
                Err(RecvTimeoutError::Timeout) => return Err(Fault::Timeout),
            }
        }
    }

    /// Lines that have already arrived, without waiting.
    pub(crate) fn pending_lines(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while self.exited.is_none() {
            match self.events.try_recv() {
                Ok(Event::Out(line)) => {
                    self.remember(line.clone());
                    out.push(line);
                }
                Ok(Event::Err(line)) => self.remember(format!("[stderr] {line}")),
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => {
                    self.note_exit();
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        out
    }

    /// The last lines the engine printed, oldest first.
    pub(crate) fn last(&self) -> Vec<String> {
        self.last.iter().cloned().collect()
    }

    fn remember(&mut self, line: String) {
        if self.last.len() == KEEP_LINES {
            self.last.pop_front();
        }
        self.last.push_back(line);
    }

    /// Records that stdout closed and returns the exit status as text.
    fn note_exit(&mut self) -> String {
        let status = self
            .wait_for_exit()
            .unwrap_or_else(|| "closed its output but is still running".to_string());
        self.exited = Some(status.clone());
        status
    }

    /// Waits up to [`GRACE`] for the process to exit, reaping it.
    fn wait_for_exit(&mut self) -> Option<String> {
        let deadline = Instant::now() + GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return Some(status.to_string());
                }
                Ok(None) if Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(2));
                }
                _ => return None,
            }
        }
    }

    /// Asks the engine to quit, gives it [`GRACE`], then kills it; always reaps it.
    /// Safe to call more than once.
    pub(crate) fn shutdown(&mut self) {
        if self.reaped {
            return;
        }
        if let Some(w) = self.writer.take() {
            // Dropping the sender ends the writer thread, which closes stdin: an engine
            // that ignores `quit` still sees end of input.
            let _ = w.send("quit\n".to_string());
        }
        if self.wait_for_exit().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Sends each line of `stream` as an event until it closes. Bytes that are not UTF-8
/// are replaced rather than ending the stream.
fn read_lines(stream: impl Read, tx: &Sender<Event>, wrap: fn(String) -> Event, eof_event: bool) {
    let mut reader = BufReader::new(stream);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                let line = text.trim_end_matches(['\n', '\r']).to_string();
                if tx.send(wrap(line)).is_err() {
                    return;
                }
            }
        }
    }
    if eof_event {
        let _ = tx.send(Event::Eof);
    }
}

#[cfg(test)]
mod tests {
    use super::split_command;

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
        ];
        for (cmd, words) in ok {
            let got = split_command(cmd).unwrap_or_else(|e| panic!("{cmd}: {e}"));
            assert_eq!(got, *words, "{cmd}");
        }
        for bad in ["", "   ", "a 'b", "a \"b", "a \\"] {
            assert!(split_command(bad).is_err(), "{bad:?}");
        }
    }
}
