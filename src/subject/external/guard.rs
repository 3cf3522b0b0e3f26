//! The guard each engine runs under when xqdiff is a program of its own (Linux).
//!
//! xqdiff is the subreaper of what its engines start, which ends a helper that left
//! the engine's group or session ([`super::process`]), but only while xqdiff lives:
//! killed by SIGKILL, it can end nothing, and a helper in a session of its own then
//! runs on under PID 1. So the program xqdiff starts is the guard, xqdiff's own
//! executable in a hidden mode ([`GUARD_ARG`]), and the guard starts the engine. The
//! guard is the subreaper of everything the engine starts, so every helper comes to it
//! when its parent goes; it watches its own parent, and when xqdiff is gone (its
//! parent changes: no signal is needed, so none can be missed) it kills what it has
//! inherited, generation by generation, until nothing is left, then exits. When the
//! engine exits, the guard does the same and exits as the engine did, so xqdiff sees
//! the engine's own status. It shares the engine's pipes and process group, and takes
//! no stop signal for itself: a signal to the group ends the engine, and the engine's
//! end ends the guard. For the same reason xqdiff's SIGKILL to the group spares it
//! (`process::orphans::kill_group`): killed with the engine, it could end nothing.
//!
//! A program that embeds the library has no guard mode, so its engines start as
//! before, without a guard (see [`super::guard_engines`]).

use super::process::GUARD_ARG;
use nix::sys::signal::{kill, Signal};
use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use std::ffi::OsString;
use std::time::Duration;

/// When this process was started as a guard (its first argument is [`GUARD_ARG`]),
/// guards the engine its arguments name and returns the exit code to end with (an
/// engine killed by a signal ends the guard by the same signal, without returning);
/// `None` for any other start.
pub(crate) fn run_if_guard() -> Option<u8> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != GUARD_ARG {
        return None;
    }
    let parent = args.next().and_then(|p| p.to_str()?.parse::<i32>().ok());
    let words: Vec<OsString> = args.collect();
    match parent {
        Some(parent) if !words.is_empty() => Some(guard(Pid::from_raw(parent), &words)),
        _ => {
            eprintln!("xqdiff: {GUARD_ARG} takes the parent's id and a command");
            Some(2)
        }
    }
}

/// How often the guard looks at its parent and its engine.
const POLL: Duration = Duration::from_millis(10);

/// Rounds of ending inherited processes: each round may bring the next generation.
const ROUNDS: usize = 100;

fn guard(parent: Pid, words: &[OsString]) -> u8 {
    // Started after xqdiff died: nothing to guard for.
    if nix::unistd::getppid() != parent {
        return 1;
    }
    let _ = nix::sys::prctl::set_child_subreaper(true);
    // A signal to the group is for the engine: the guard outlives it to clean up.
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        let _ = signal_hook::flag::register(
            signal as i32,
            std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
        );
    }
    let mut cmd = std::process::Command::new(&words[0]);
    cmd.args(&words[1..]);
    super::process::die_with_parent(&mut cmd);
    let engine = match cmd.spawn() {
        Ok(child) => Pid::from_raw(i32::try_from(child.id()).unwrap_or(i32::MAX)),
        Err(e) => {
            eprintln!(
                "xqdiff: could not start {}: {e}",
                words[0].to_string_lossy()
            );
            return 127;
        }
    };
    // The pipes are the engine's alone from here: an engine that closes its output is
    // seen to close it.
    if let Ok(null) = std::fs::File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let _ = nix::unistd::dup2_stdin(&null);
        let _ = nix::unistd::dup2_stdout(&null);
        let _ = nix::unistd::dup2_stderr(&null);
    }
    loop {
        if nix::unistd::getppid() != parent {
            end_inherited();
            return 1;
        }
        // Reaps whatever exited, helpers included, so none stays a zombie meanwhile.
        while let Ok(status) = waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            match status {
                WaitStatus::Exited(pid, code) if pid == engine => {
                    end_inherited();
                    return u8::try_from(code).unwrap_or(1);
                }
                WaitStatus::Signaled(pid, signal, _) if pid == engine => {
                    end_inherited();
                    end_by(signal);
                    return 128 + (signal as i32 as u8);
                }
                WaitStatus::StillAlive => break,
                _ => {}
            }
        }
        std::thread::sleep(POLL);
    }
}

/// Kills and reaps every process the guard has (the engine's helpers come to it as
/// their parents go), until none is left.
fn end_inherited() {
    let me = std::process::id();
    for _ in 0..ROUNDS {
        let children = super::process::children_of(me);
        if children.is_empty() {
            return;
        }
        for pid in children {
            let Ok(raw) = i32::try_from(pid) else {
                continue;
            };
            let _ = kill(Pid::from_raw(raw), Signal::SIGKILL);
            let _ = waitpid(Pid::from_raw(raw), None);
        }
    }
}

/// Ends the guard by `signal`, as the engine ended, so xqdiff reports the engine's
/// own status; with no core file, which would be the guard's and not the engine's.
fn end_by(signal: Signal) {
    use nix::sys::resource::{setrlimit, Resource};
    let _ = setrlimit(Resource::RLIMIT_CORE, 0, 0);
    let _ = signal_hook::low_level::emulate_default_handler(signal as i32);
}
