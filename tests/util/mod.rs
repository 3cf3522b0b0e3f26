//! What the integration tests share: a scratch folder that takes its processes with it,
//! the binaries under test, and reading what a run printed. One copy, included by each
//! test binary with `mod util;`.

// Each test binary uses part of this module; the rest would be dead code in that binary.
#![allow(dead_code)]

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long a test waits for an event (a line, a file, an exit) before it fails: long,
/// since a busy machine is slow, and spent only when the event never comes.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// Waits until `done` holds, looking every few milliseconds; fails naming `what` after
/// [`PATIENCE`].
pub fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let until = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < until, "{what}: not within {PATIENCE:?}");
        thread::sleep(Duration::from_millis(10));
    }
}

/// The xqdiff binary this build made.
pub const XQDIFF: &str = env!("CARGO_BIN_EXE_xqdiff");
/// The test engine, a UCI/xboard engine over the built-in generators that can carry
/// planted bugs and misbehave on request.
pub const TEST_ENGINE: &str = env!("CARGO_BIN_EXE_xqdiff-test-engine");

/// A command for the xqdiff binary, to be given arguments.
pub fn xqdiff() -> Command {
    Command::new(XQDIFF)
}

/// Runs xqdiff with `args` to the end, capturing both streams.
pub fn run(args: &[&str]) -> Output {
    xqdiff()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run xqdiff")
}

/// The test engine's command line with `switches`, as `--cmd` takes it.
pub fn test_engine(switches: &str) -> String {
    format!("{TEST_ENGINE} {switches}")
}

/// What a run printed: stdout and stderr.
pub fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Both streams of a run, stdout first, for checks that do not care which said it.
pub fn all_text(out: &Output) -> String {
    let (stdout, stderr) = text(out);
    stdout + &stderr
}

/// A fresh folder for one test, emptied first and removed when dropped. Every process a
/// test starts with the folder's path on its command line is recognised as the test's:
/// dropping the folder kills any still there (by PID), so a failing assertion leaves no
/// process behind either.
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// The folder for `case`, named after the test binary's process so that parallel
    /// test binaries never share one.
    pub fn new(case: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "xqdiff-test-{}-{}",
            std::process::id(),
            case.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch { dir }
    }

    /// The folder itself.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A file in the folder.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// A file in the folder, as text for a command line.
    pub fn path(&self, name: &str) -> String {
        self.file(name).display().to_string()
    }

    /// A `/bin/sh` script named `name` with `body`; its path.
    pub fn script(&self, name: &str, body: &str) -> String {
        use std::os::unix::fs::PermissionsExt;
        let path = self.path(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .expect("chmod script");
        path
    }

    /// The test engine's command line with `switches`, writing its PID to `name`.pid
    /// and logging its commands and faults to `name`.log.
    pub fn engine(&self, name: &str, switches: &str) -> String {
        format!(
            "'{TEST_ENGINE}' {switches} --pid-file '{}' --log '{}'",
            self.path(&format!("{name}.pid")),
            self.path(&format!("{name}.log"))
        )
    }

    /// Whether the engine `name` has logged a line that begins with `line`: a command
    /// it read (`> go perft`), or a fault it began (`fault hang`).
    pub fn logged(&self, name: &str, line: &str) -> bool {
        std::fs::read_to_string(self.file(&format!("{name}.log")))
            .is_ok_and(|t| t.lines().any(|l| l.starts_with(line)))
    }

    /// Waits until the engine `name` has logged a line that begins with `line`.
    pub fn wait_logged(&self, name: &str, line: &str) {
        wait_until(&format!("{name} logging {line:?}"), || {
            self.logged(name, line)
        });
    }

    /// The PID in `name`.pid, once the process wrote it.
    pub fn pid(&self, name: &str) -> Option<u32> {
        std::fs::read_to_string(self.path(&format!("{name}.pid")))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Running processes that carry this folder on their command line.
    pub fn leftovers(&self) -> Vec<(u32, String)> {
        let marker = self.dir.display().to_string();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|&pid| pid != std::process::id())
            .filter_map(|pid| {
                let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
                let cmdline = String::from_utf8_lossy(&raw).replace('\0', " ");
                (names(&cmdline, &marker) && !gone(pid)).then_some((pid, cmdline))
            })
            .collect()
    }

    /// Fails unless every process of the case is gone (a process killed a moment ago
    /// may take that moment to go, longer on a busy machine).
    pub fn assert_clean(&self, case: &str) {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let left = self.leftovers();
            if left.is_empty() {
                return;
            }
            assert!(Instant::now() < until, "{case}: left running: {left:?}");
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills (by PID) every process of the case still running.
    pub fn kill_leftovers(&self) {
        for (pid, _) in self.leftovers() {
            if let Ok(pid) = i32::try_from(pid) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
    }
}

// The folder stands wherever a path is asked for: `scratch.join("x")`, `&scratch`.
impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.dir
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.dir
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.dir.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.kill_leftovers();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether `text` names the folder `dir` (or a path inside it), not merely a longer
/// name that begins the same: the folder of case `cli` is a prefix of case `cli-json`'s,
/// and its processes are not `cli`'s to kill.
fn names(text: &str, dir: &str) -> bool {
    text.match_indices(dir).any(|(at, _)| {
        text[at + dir.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '-' || c == '_' || c == '.'))
    })
}

/// Whether `pid` is gone: no `/proc` entry, or a zombie some other process is to reap
/// (one of ours would mean the code under test did not reap its child).
pub fn gone(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return true;
    };
    // After the name in parentheses: the state, then the parent's PID.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let mut fields = after.split_whitespace();
    let state = fields.next().unwrap_or("");
    let parent: u32 = fields.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    state == "Z" && parent != std::process::id()
}

/// A child process that is killed and reaped by its PID if the test ends before it
/// does, so a failing assertion leaves no process behind.
pub struct Reaped(pub Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

/// The leftover check tells a folder from a longer one that begins the same.
#[test]
fn a_folder_is_not_named_by_a_longer_one() {
    let table = [
        ("run /tmp/x-cli/report.json", true),
        ("run /tmp/x-cli", true),
        ("--cmd '/tmp/x-cli/engine.sh'", true),
        ("run /tmp/x-cli-json/report", false),
        ("run /tmp/x-cli.old", false),
    ];
    for (cmdline, named) in table {
        assert_eq!(names(cmdline, "/tmp/x-cli"), named, "{cmdline}");
    }
}

/// The CPU time `pid` has used so far (user and system), from `/proc`; zero once it is
/// gone. A test that needs a run to be deep in its work waits for CPU time spent, which
/// a busy machine delays but cannot fake, rather than for time passed.
pub fn cpu_time(pid: u32) -> Duration {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // The fields after the command name, which is in parentheses and may hold spaces.
    let Some((_, rest)) = stat.rsplit_once(") ") else {
        return Duration::ZERO;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    // In USER_HZ, which Linux keeps at 100 for what it shows user space.
    Duration::from_millis(ticks * 10)
}

/// Whether `pid` has exited: gone, or a zombie waiting to be reaped (by anyone).
pub fn exited(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
    }
}
