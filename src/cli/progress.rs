//! Progress for long runs, on stderr, once a run has lasted about a second (quick runs
//! stay clean): a bar redrawn in place when stderr is a terminal, else a plain line
//! every [`LINE_EVERY`] or each tenth of the work, so a CI log shows a long run is
//! alive. `--quiet` shows neither. A bar is cleared when a signal stops the run and
//! when it is dropped, so the next line starts on a clean line.
//!
//! A line reads `  perft 00:00:12 [======      ] 50.7 M / 111.8 M nodes 9.41 s left
//! start depth 6`: the counts rounded to three figures with their unit, a time left
//! only once it can be trusted, and the note cut to the terminal's width, so the line
//! never wraps (a wrapped bar is redrawn as a new line on every tick).

use super::out::{errln, statusln};
use crate::job::check::Unit;
use crate::job::report::duration;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a run goes before its bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// When a run whose stderr is not a terminal first says how far it got, updated or
/// not: a log shows within seconds that a long run is alive.
const FIRST_LINE: Duration = Duration::from_secs(2);

/// How often a run whose stderr is not a terminal says how far it got, at least.
const LINE_EVERY: Duration = Duration::from_secs(10);
/// The least time between two such lines, when each tenth of the work is said.
const LINE_GAP: Duration = Duration::from_secs(1);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A bar on the terminal.
    Bar,
    /// Plain lines, stderr not being a terminal.
    Lines,
    /// Nothing (`--quiet`).
    Off,
}

/// The time left is shown once the run has lasted this long and done this share of
/// its work: it is worked out from the average rate so far, which early on is mostly
/// start-up (the first subtrees, an engine's handshake) and would promise too much.
const ETA_AFTER: Duration = Duration::from_secs(3);
const ETA_SHARE: f64 = 0.1;

/// The template. Everything but the note has a bounded width (the label 11, the time
/// 8, the bar 14, the counts at most 27, the time left at most 16, with the spaces 80),
/// and the note (`wide_msg`) takes what is left of the line and is cut to it.
const TEMPLATE: &str = "{prefix:>11!} {elapsed_precise} [{bar:12}] {counts}{eta} {wide_msg}";

/// How often a bar's time is redrawn, and a stop looked for, while nothing else
/// updates it: a long answer (an engine's perft 7 of one position, a bench's count)
/// still shows the bar within [`SHOW_AFTER`] and its clock moving.
const TICK: Duration = Duration::from_millis(250);

/// A bar that stays hidden until the run proves long, kept alive by a ticker thread
/// between updates.
pub(super) struct Progress {
    state: Arc<State>,
    /// Set to stop the ticker; it waits on the condition variable between ticks.
    ticker: Arc<(Mutex<bool>, std::sync::Condvar)>,
}

impl std::ops::Deref for Progress {
    type Target = State;
    fn deref(&self) -> &State {
        &self.state
    }
}

/// What the bar shows and how.
pub(super) struct State {
    /// Set once the bar is finished: held while drawing, so no tick draws a bar
    /// after it was cleared.
    finished: Mutex<bool>,
    bar: ProgressBar,
    unit: Arc<AtomicUsize>,
    started: Instant,
    mode: Mode,
    shown: AtomicBool,
    /// Set once a stop cleared the bar for good.
    cleared: AtomicBool,
    /// When the last plain line was printed, and the tenth of the work it had reached.
    last_line: Mutex<(Instant, u64)>,
    /// Whether a plain line was printed yet: the first comes once the run proves long.
    said: AtomicBool,
}

impl Progress {
    /// A bar for work counted in `unit`, labelled `label`.
    pub(super) fn new(label: &str, unit: Unit) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
        let unit_cell = Arc::new(AtomicUsize::new(unit as usize));
        bar.set_style(style(Arc::clone(&unit_cell)));
        // Labels and messages may name outside things (an EPD id, an engine).
        bar.set_prefix(crate::job::report::shown(label).into_owned());
        // A log that is compared line by line (the README's transcripts) cannot hold
        // lines whose number and figures depend on the machine's speed.
        let unwanted = std::env::var_os("XQDIFF_NO_PROGRESS").is_some_and(|v| !v.is_empty());
        let mode = if super::out::quiet() || unwanted {
            Mode::Off
        } else if std::io::stderr().is_terminal() {
            Mode::Bar
        } else {
            Mode::Lines
        };
        let started = Instant::now();
        let state = Arc::new(State {
            finished: Mutex::new(false),
            bar,
            unit: unit_cell,
            started,
            mode,
            shown: AtomicBool::new(false),
            cleared: AtomicBool::new(false),
            last_line: Mutex::new((started, 0)),
            said: AtomicBool::new(false),
        });
        let ticker = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        if mode != Mode::Off {
            let (state, ticker) = (Arc::clone(&state), Arc::clone(&ticker));
            std::thread::spawn(move || state.tick_until_stopped(&ticker));
        }
        Progress { state, ticker }
    }

    /// Removes the bar.
    pub(super) fn finish(&self) {
        self.state.finish();
        let (stopped, wake) = &*self.ticker;
        *stopped.lock().unwrap_or_else(|e| e.into_inner()) = true;
        wake.notify_all();
    }
}

/// A bar that goes out of scope without [`Progress::finish`] (an error returned on
/// the way) is cleared all the same.
impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

impl State {
    /// Every [`TICK`] until `ticker` says stop: shows the bar once the run proves long,
    /// redraws its clock, says a plain line when one is due, and clears the bar as soon
    /// as a stop signal comes.
    fn tick_until_stopped(&self, ticker: &(Mutex<bool>, std::sync::Condvar)) {
        let (stopped, wake) = ticker;
        let mut stop = stopped.lock().unwrap_or_else(|e| e.into_inner());
        while !*stop {
            stop = match wake.wait_timeout(stop, TICK) {
                Ok((stop, _)) => stop,
                Err(e) => e.into_inner().0,
            };
            if *stop {
                break;
            }
            let finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
            if *finished {
                break;
            }
            self.reveal_if_slow();
            if self.shown.load(Ordering::Relaxed) && !self.cleared.load(Ordering::Relaxed) {
                self.bar.tick();
            }
            self.plain_line();
        }
    }

    fn finish(&self) {
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        *finished = true;
        self.bar.finish_and_clear();
    }

    /// Records that `done` of `total` units are finished; a `total` of 0 is unknown.
    pub(super) fn update(&self, done: u64, total: u64) {
        self.reveal_if_slow();
        self.bar.set_length(total);
        self.bar.set_position(done);
        self.plain_line();
    }

    /// Counts from now on in `unit` (a check's phases count different things).
    pub(crate) fn set_unit(&self, unit: Unit) {
        self.unit.store(unit as usize, Ordering::Relaxed);
    }

    /// Sets the text after the counts.
    pub(super) fn message(&self, msg: String) {
        self.reveal_if_slow();
        self.bar
            .set_message(crate::job::report::shown(&msg).into_owned());
        self.plain_line();
    }

    /// Adds `n` finished units.
    pub(crate) fn inc(&self, n: u64) {
        self.reveal_if_slow();
        self.bar.inc(n);
        self.plain_line();
    }

    /// Prints a verdict line on stdout as work completes, the bar (if shown) kept out
    /// of its way, so a log file gets each line when it happens.
    pub(super) fn println(&self, line: &str) {
        self.bar.suspend(|| statusln!("{line}"));
    }

    /// Prints `text` (lines that are not verdicts: nothing in them is coloured) above
    /// the bar.
    pub(crate) fn print_plain(&self, text: &str) {
        self.bar
            .suspend(|| super::out::text(format_args!("{text}")));
    }

    /// On a stderr that is not a terminal, a line saying how far the run got, every
    /// [`LINE_EVERY`] or at each further tenth of the work, once the run proves long.
    fn plain_line(&self) {
        if self.mode != Mode::Lines
            || self.started.elapsed() < SHOW_AFTER
            || super::signals::stopping()
        {
            return;
        }
        let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let tenth = (done.min(total) * 10).checked_div(total).unwrap_or(0);
        let Ok(mut last) = self.last_line.try_lock() else {
            // Another thread is saying it right now.
            return;
        };
        let since = last.0.elapsed();
        let first = !self.said.load(Ordering::Relaxed);
        if first && self.started.elapsed() < FIRST_LINE {
            return;
        }
        if !first && since < LINE_EVERY && (tenth <= last.1 || since < LINE_GAP) {
            return;
        }
        self.said.store(true, Ordering::Relaxed);
        *last = (Instant::now(), tenth);
        drop(last);
        errln!("{}", self.plain_text());
    }

    /// The plain line: what the bar shows, without the bar.
    fn plain_text(&self) -> String {
        let unit = Unit::ALL[self.unit.load(Ordering::Relaxed) % Unit::ALL.len()];
        let (done, total) = (self.bar.position(), self.bar.length().unwrap_or(0));
        let elapsed = self.started.elapsed();
        let mut text = format!(
            "{} {}: {}",
            self.bar.prefix(),
            duration(elapsed.as_secs_f64()),
            counts(done, total, unit)
        );
        if let Some(left) = time_left(done, total, elapsed) {
            text.push_str(&format!(", {} left", duration(left.as_secs_f64())));
        }
        let note = self.bar.message();
        if !note.is_empty() {
            text.push_str(&format!("; {note}"));
        }
        text
    }

    fn reveal_if_slow(&self) {
        if super::signals::stopping() {
            // Cleared at once, before the run prints what it has: no half bar stays
            // beside the terminal's `^C`.
            if !self.cleared.swap(true, Ordering::Relaxed) {
                self.bar.finish_and_clear();
                self.bar.set_draw_target(ProgressDrawTarget::hidden());
            }
            return;
        }
        if self.mode == Mode::Bar
            && !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed() >= SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }
}

/// The bar's style, its counts in the unit `unit` holds.
fn style(unit: Arc<AtomicUsize>) -> ProgressStyle {
    ProgressStyle::with_template(TEMPLATE)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ")
        .with_key(
            "counts",
            move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let unit = Unit::ALL[unit.load(Ordering::Relaxed) % Unit::ALL.len()];
                let _ = w.write_str(&counts(state.pos(), state.len().unwrap_or(0), unit));
            },
        )
        .with_key(
            "eta",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                if let Some(left) =
                    time_left(state.pos(), state.len().unwrap_or(0), state.elapsed())
                {
                    let _ = write!(w, " {} left", duration(left.as_secs_f64()));
                }
            },
        )
}

/// `done / total unit`, or `done unit` when the total is unknown (0).
fn counts(done: u64, total: u64, unit: Unit) -> String {
    if total == 0 {
        format!("{} {}", human(done), unit.as_str())
    } else {
        format!(
            "{} / {} {}",
            human(done.min(total)),
            human(total),
            unit.as_str()
        )
    }
}

/// `n` to three or four figures: `950`, `12.3 k`, `50.7 M`. The prefix is chosen
/// after rounding, so 999 950 is `1.0 M`, not `1000.0 k`.
fn human(n: u64) -> String {
    if n < 10_000 {
        return n.to_string();
    }
    let mut value = n as f64;
    // u64::MAX is 18.4 E: the last prefix always fits.
    for prefix in ["k", "M", "G", "T", "P"] {
        value /= 1000.0;
        if (value * 10.0).round() < 10_000.0 {
            return format!("{value:.1} {prefix}");
        }
    }
    format!("{:.1} E", value / 1000.0)
}

/// The time left at the average rate so far, once that rate has had long enough.
fn time_left(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    if total == 0 || done >= total || elapsed < ETA_AFTER {
        return None;
    }
    let share = done as f64 / total as f64;
    (share >= ETA_SHARE).then(|| elapsed.mul_f64((1.0 - share) / share))
}

#[cfg(test)]
mod tests {
    use super::*;
    use indicatif::TermLike;
    use std::sync::Mutex;

    #[test]
    fn counts_read_at_a_glance() {
        use Unit::*;
        let table: &[(u64, u64, Unit, &str)] = &[
            (50_746_958, 111_763_761, Nodes, "50.7 M / 111.8 M nodes"),
            (0, 0, Nodes, "0 nodes"),
            (3, 44, Subtrees, "3 / 44 subtrees"),
            (9_999, 10_000, Cases, "9999 / 10.0 k cases"),
            (999_950, 2_000_000, Positions, "1.0 M / 2.0 M positions"),
            (12, 60, Seconds, "12 / 60 s"),
            // A generator that counts more than expected does not run past the end.
            (130, 120, Nodes, "120 / 120 nodes"),
            (u64::MAX, 0, Nodes, "18.4 E nodes"),
        ];
        for &(done, total, unit, want) in table {
            assert_eq!(counts(done, total, unit), want, "{done} {total}");
        }
    }

    /// Each row: done, total, elapsed seconds, and the time left shown. Nothing before
    /// three seconds or a tenth of the work, however steady the start looks.
    #[test]
    fn the_time_left_waits_until_it_can_be_trusted() {
        let table: &[(u64, u64, u64, Option<u64>)] = &[
            (1, 100, 1, None),
            (50, 100, 2, None),
            (5, 100, 10, None),
            (10, 100, 3, Some(27)),
            (50, 100, 10, Some(10)),
            (100, 100, 10, None),
            (10, 0, 10, None),
        ];
        for &(done, total, secs, want) in table {
            let got = time_left(done, total, Duration::from_secs(secs));
            assert_eq!(
                got,
                want.map(Duration::from_secs),
                "{done}/{total} at {secs} s"
            );
        }
    }

    /// A terminal of `width` columns that keeps what is drawn on it.
    #[derive(Debug)]
    struct Screen {
        width: u16,
        lines: Arc<Mutex<Vec<String>>>,
    }

    impl Screen {
        fn put(&self, s: &str) -> std::io::Result<()> {
            self.lines.lock().unwrap().push(s.to_owned());
            Ok(())
        }
    }

    /// A line ends at a newline, and where the cursor leaves it or it is cleared.
    impl TermLike for Screen {
        fn width(&self) -> u16 {
            self.width
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            self.put("\n")
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            self.put("\n")
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.put(&format!("{s}\n"))
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            self.put(s)
        }
        fn clear_line(&self) -> std::io::Result<()> {
            self.put("\n")
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The widest bars a run draws, on an 80-column terminal: each line fits, and
    /// shows its counts with the unit.
    #[test]
    fn a_bar_fits_eighty_columns() {
        let long_note = "start position depth 7, descending, 12 plies down, ".repeat(3);
        let table: &[(&str, u64, u64, Unit, &str)] = &[
            ("metamorphic", 999_949, 999_999, Unit::Positions, &long_note),
            (
                "shard 1234567",
                123_456,
                999_999_999,
                Unit::Subtrees,
                &long_note,
            ),
            (
                "perft",
                50_746_958,
                111_763_761,
                Unit::Nodes,
                "start depth 6",
            ),
            ("fuzz", 7, 0, Unit::Cases, ""),
        ];
        for &(label, done, total, unit, note) in table {
            let lines = Arc::new(Mutex::new(Vec::new()));
            let screen = Screen {
                width: 80,
                lines: Arc::clone(&lines),
            };
            let bar = ProgressBar::with_draw_target(
                Some(total),
                ProgressDrawTarget::term_like(Box::new(screen)),
            );
            bar.set_style(style(Arc::new(AtomicUsize::new(unit as usize))));
            bar.set_prefix(label.to_owned());
            bar.set_message(note.to_owned());
            bar.set_position(done);
            bar.tick();
            // Everything drawn, as the terminal's lines (a redraw writes a line in parts).
            let drawn = lines.lock().unwrap().concat();
            let want = counts(done, total, unit);
            assert!(
                drawn.split('\n').any(|l| l.contains(&want)),
                "{label}: {want} not drawn in {drawn:?}"
            );
            for l in drawn.split('\n') {
                // The bar and the counts are ASCII, `µ` one column: a character is a column.
                let width = l.chars().count();
                assert!(width <= 80, "{label}: {width} columns: {l:?}");
            }
        }
    }
}
