//! The signals that stop a long command with what it has: SIGINT (Ctrl-C), SIGTERM
//! and SIGHUP raise a stop flag that the work polls, and the first one's number is
//! kept so the command can exit 128 + it, as a shell reports a process a signal
//! ended. A second signal ends every engine at once and gives the run a moment to
//! write its report before it exits anyway; a third exits at once, every engine and
//! all it started ended first.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Raised by the first signal; what the long-running work polls.
static STOP: AtomicBool = AtomicBool::new(false);
/// The number of the signal that raised [`STOP`]; 0 before any.
static SIGNAL: AtomicUsize = AtomicUsize::new(0);

#[cfg(unix)]
const SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];
#[cfg(not(unix))]
const SIGNALS: [i32; 2] = [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM];

/// Installs the handlers (once per process; later calls return the same flag) and
/// returns the stop flag. Handlers that cannot be installed are named on stderr and
/// the signal keeps its default action: the run is then ended by it, without a
/// report, which is still not a pass.
pub(super) fn install() -> &'static AtomicBool {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        for sig in SIGNALS {
            // Registration order is the order the actions run in: the default action
            // first, armed only once the flag is up, so it is the second signal that
            // ends the process; then the number, before the flag, so whoever sees the
            // flag up also sees which signal raised it.
            let installed = signal_hook::flag::register_usize(sig, &SIGNAL, sig as usize)
                .and_then(|_| signal_hook::flag::register(sig, &STOP));
            if let Err(e) = installed {
                // Straight to stderr, ignoring errors: `out` stops the run through this module.
                let _ = writeln!(
                    std::io::stderr(),
                    "xqdiff: cannot handle {}: {e}; it will end the run without a report",
                    name(sig)
                );
            }
        }
        watch_for_a_second_signal();
        // An output that is a FIFO nobody reads must not hold the run past a signal.
        crate::files::stop_waiting_on(&STOP);
    });
    &STOP
}

/// How long the run gets, after a second signal ended its engines, to write its report
/// before it exits anyway.
const LAST_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// A second signal ends every engine at once (their waits then end, and the report is
/// written), and the process LAST_GRACE later whatever it is doing; a third ends it at
/// once. An engine is never left behind: it also dies with xqdiff by its parent-death
/// signal.
fn watch_for_a_second_signal() {
    let Ok(mut signals) = signal_hook::iterator::Signals::new(SIGNALS) else {
        return;
    };
    std::thread::spawn(move || {
        let mut heard = 0;
        let mut first = None;
        for sig in signals.forever() {
            heard += 1;
            let first = *first.get_or_insert(sig);
            // The handlers store every signal's number; the run ends as the first's.
            SIGNAL.store(first as usize, Ordering::SeqCst);
            let code = 128 + first;
            match heard {
                1 => {}
                2 => {
                    crate::subject::external::end_all_engines();
                    std::thread::spawn(move || {
                        std::thread::sleep(LAST_GRACE);
                        exit_now(code);
                    });
                }
                _ => exit_now(code),
            }
        }
    });
}

/// Exits with `code` in the middle of the run, every engine and all they started
/// ended first: however many signals come, the last never leaves one behind.
fn exit_now(code: i32) -> ! {
    crate::subject::external::end_all_engines_before_exit();
    std::process::exit(code)
}

/// Stops the run as signal `sig` would have (a closed pipe is taken as SIGPIPE).
pub(super) fn raise(sig: i32) {
    let _ = SIGNAL.compare_exchange(0, sig as usize, Ordering::SeqCst, Ordering::SeqCst);
    STOP.store(true, Ordering::SeqCst);
}

/// Whether a signal (or a closed pipe) has asked the run to stop.
pub(super) fn stopping() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The signal that stopped the run, if one did.
pub(super) fn received() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        n => i32::try_from(n).ok(),
    }
}

/// `SIGINT`, `SIGTERM`, `SIGHUP`, or the number for another.
pub(super) fn name(sig: i32) -> String {
    signal_hook::low_level::signal_name(sig).map_or_else(|| format!("signal {sig}"), str::to_owned)
}
