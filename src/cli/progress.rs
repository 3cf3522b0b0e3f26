//! Progress bars for long runs: drawn on stderr, only when stderr is a terminal, and
//! only once a run has lasted about a second, so quick runs and pipes stay clean.

use super::out::outln;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a run goes before its bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// A bar that stays hidden until the run proves long.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    drawable: bool,
    shown: AtomicBool,
}

impl Progress {
    /// A bar for `len` units of work, labelled `label`.
    pub fn new(label: &str, len: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template(
            "{prefix:>10} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg} ({eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_prefix(label.to_owned());
        Progress {
            bar,
            started: Instant::now(),
            drawable: std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }

    /// Records that `done` of `total` units are finished.
    pub fn update(&self, done: u64, total: u64) {
        self.reveal_if_slow();
        self.bar.set_length(total);
        self.bar.set_position(done);
    }

    /// Sets the text after the counts.
    pub fn message(&self, msg: String) {
        self.reveal_if_slow();
        self.bar.set_message(msg);
    }

    /// Adds `n` finished units.
    pub fn inc(&self, n: u64) {
        self.reveal_if_slow();
        self.bar.inc(n);
    }

    /// Prints a line on stdout as work completes, the bar (if shown) kept out of its
    /// way, so a log file gets each line when it happens.
    pub fn println(&self, line: &str) {
        self.bar.suspend(|| outln!("{line}"));
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn reveal_if_slow(&self) {
        if self.drawable
            && !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed() >= SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}
