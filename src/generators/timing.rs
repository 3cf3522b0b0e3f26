//! Where the oracle's time goes, for `xqdiff bench --oracle`: each part of the work is a
//! span charged to whoever does it (a generator, or the oracle itself). Off unless
//! [`measure`] is running on the thread, when a span costs one thread-local check.
//!
//! Spans nest and time is exclusive: a generator's work inside an oracle span is charged
//! to the generator, not twice.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Who did the work: a generator's name, or [`ORACLE`].
pub(crate) const ORACLE: &str = "oracle";

/// Time per (who, part), exclusive of nested spans.
#[derive(Clone, Debug, Default)]
pub(crate) struct Timings {
    /// The time of each part, by who did it.
    pub parts: BTreeMap<(&'static str, &'static str), Duration>,
}

impl Timings {
    /// The sum of every part.
    pub(crate) fn total(&self) -> Duration {
        self.parts.values().sum()
    }

    /// The time charged to `who` over every part.
    pub(crate) fn of(&self, who: &str) -> Duration {
        self.parts
            .iter()
            .filter(|((w, _), _)| *w == who)
            .map(|(_, d)| *d)
            .sum()
    }
}

struct Clock {
    /// Time per (who, part) so far: a short list searched by address rather than a map
    /// keyed by the strings, since a span closes tens of times a position and the
    /// clock must not be what it measures.
    parts: Vec<((&'static str, &'static str), Duration)>,
    /// Open spans: who, part, start, time spent in spans nested in it.
    open: Vec<(&'static str, &'static str, Instant, Duration)>,
}

impl Clock {
    fn charge(&mut self, who: &'static str, part: &'static str, time: Duration) {
        let same = |(w, p): &(&str, &str)| std::ptr::eq(*w, who) && std::ptr::eq(*p, part);
        match self.parts.iter_mut().find(|(key, _)| same(key)) {
            Some((_, total)) => *total += time,
            None => self.parts.push(((who, part), time)),
        }
    }

    /// The parts, with any key that came from two copies of one string merged.
    fn timings(self) -> Timings {
        let mut timings = Timings::default();
        for (key, time) in self.parts {
            *timings.parts.entry(key).or_default() += time;
        }
        timings
    }
}

thread_local! {
    static CLOCK: RefCell<Option<Clock>> = const { RefCell::new(None) };
}

/// Runs `f` with the clock on for this thread and returns what it returned with where
/// the time went; time outside any span is charged to ([`ORACLE`], `"other"`).
pub(crate) fn measure<R>(f: impl FnOnce() -> R) -> (R, Timings) {
    CLOCK.with(|c| {
        *c.borrow_mut() = Some(Clock {
            parts: Vec::new(),
            open: Vec::new(),
        })
    });
    let r = span(ORACLE, "other", f);
    let timings = CLOCK
        .with(|c| c.borrow_mut().take())
        .map(Clock::timings)
        .unwrap_or_default();
    (r, timings)
}

/// Charges the time of `f`, less the spans nested in it, to (`who`, `part`).
pub(crate) fn span<R>(who: &'static str, part: &'static str, f: impl FnOnce() -> R) -> R {
    let on = CLOCK.with(|c| {
        let mut c = c.borrow_mut();
        match c.as_mut() {
            Some(clock) => {
                clock.open.push((who, part, Instant::now(), Duration::ZERO));
                true
            }
            None => false,
        }
    });
    let r = f();
    if on {
        CLOCK.with(|c| {
            let mut c = c.borrow_mut();
            let Some(clock) = c.as_mut() else { return };
            let Some((who, part, start, nested)) = clock.open.pop() else {
                return;
            };
            let all = start.elapsed();
            clock.charge(who, part, all.saturating_sub(nested));
            if let Some(parent) = clock.open.last_mut() {
                parent.3 += all;
            }
        });
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_time_is_charged_once() {
        let ((), t) = measure(|| {
            span("a", "outer", || {
                std::thread::sleep(Duration::from_millis(20));
                span("b", "inner", || {
                    std::thread::sleep(Duration::from_millis(30))
                });
            });
        });
        let outer = t.parts[&("a", "outer")];
        let inner = t.parts[&("b", "inner")];
        assert!(inner >= Duration::from_millis(30));
        assert!(outer >= Duration::from_millis(20) && outer < Duration::from_millis(30) + inner);
        assert!(t.total() >= Duration::from_millis(50));
        // Off outside `measure`: nothing is recorded and nothing breaks.
        assert_eq!(span("a", "x", || 7), 7);
    }

    #[test]
    fn one_part_named_from_two_places_is_one_row() {
        // The clock tells parts apart by address; two copies of one name must still
        // add up to one row, as the bench's table reads them by name.
        let copy: &'static str = String::from("part").leak();
        let ((), t) = measure(|| {
            span("a", "part", || std::thread::sleep(Duration::from_millis(5)));
            span("a", copy, || std::thread::sleep(Duration::from_millis(5)));
        });
        assert_eq!(t.parts.keys().filter(|(w, _)| *w == "a").count(), 1);
        assert!(t.parts[&("a", "part")] >= Duration::from_millis(10));
    }
}
