//! One engine check as `xqdiff engine` and the check's engine phase both run it: the
//! positions made beforehand, then, for a run given a time, fresh ones made as it goes
//! until the time is up; the built-ins in the order the reference needs. Restarts and
//! the reference are the [`Options`] both hand in, so neither command has a check of its
//! own.

use super::targets::Fresh;
use super::{check, check_stream, CrossCheckError, Options, Reference, Report, Target};
use crate::cases::features::{Coverage, Rows};
use crate::diff::finding::counted;
use crate::generators::face::Generator;
use crate::subject::Subject;
use std::time::{Duration, Instant};

/// Under [`Reference::FASTEST`], every how many positions all the built-ins count one
/// the fastest agreed on: a share of the agreeing positions confirmed, stated in the
/// summary, so a wrong reference cannot hide for long.
pub(crate) const CONFIRM_EVERY: usize = 10;

/// The built-in that counts every position under [`Reference::First`]: more than twice
/// as fast as the next (docs/internals.md, the oracle's speed).
const FASTEST: &str = "bitboard";

impl Reference {
    /// The fastest built-in counts each position; all of them count every difference
    /// and every `CONFIRM_EVERY`-th position besides.
    pub const FASTEST: Reference = Reference::First {
        confirm_every: CONFIRM_EVERY,
    };
}

/// `gens` with the fastest first, the rest in their order: the first is the reference
/// of [`Reference::First`], the walker of fresh playouts and the one whose divide a
/// finding shows as expected.
pub(crate) fn fastest_first<'a>(gens: &[&'a dyn Generator]) -> Vec<&'a dyn Generator> {
    let mut ordered = gens.to_vec();
    ordered.sort_by_key(|g| g.name() != FASTEST);
    ordered
}

/// A run given a time: fresh positions, made as it goes, after the fixed ones.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// How long from the start of the check until it is over, fixed positions, crashes
    /// and hangs included ([`Options::deadline`]).
    pub time: Duration,
    /// The seed of the fresh positions.
    pub seed: u64,
    /// Their perft depth.
    pub depth: u32,
}

/// The fresh positions a timed run made.
#[derive(Clone, Debug)]
pub struct Made {
    /// How many.
    pub positions: u64,
    /// The time spent making them.
    pub spent: Duration,
    /// How often they reached each rare feature.
    pub(crate) coverage: Coverage,
}

impl Made {
    /// Milliseconds per position made.
    pub(crate) fn ms_each(&self) -> f64 {
        self.spent.as_secs_f64() * 1e3 / self.positions.max(1) as f64
    }

    /// How many were made, at what cost, and the feature table: the lines both commands
    /// print after a timed run.
    pub fn summary(&self) -> String {
        // A run that stopped (at its first bug, say) before making any has no coverage
        // to show: a table of zeros would say the positions reached nothing.
        if self.positions == 0 {
            return "no fresh positions made: the run stopped before its fixed ones were \
                    done"
                .to_owned();
        }
        format!(
            "{} made as the run went, {:.3} ms each; feature coverage:\n{}",
            counted(self.positions, "fresh position"),
            self.ms_each(),
            self.coverage.table(Rows::Board)
        )
    }
}

/// What [`run`] did.
#[derive(Debug)]
pub struct Run {
    /// The check of every position asked.
    pub report: Report,
    /// The fresh positions of a timed run.
    pub fresh: Option<Made>,
}

/// Checks `subject` against `gens` (ordered by `fastest_first`) on `fixed`, then,
/// when `timed`, on fresh positions until its time is up.
pub fn run(
    subject: &mut dyn Subject,
    gens: &[&dyn Generator],
    fixed: &[Target],
    timed: Option<&Timed>,
    options: &Options<'_>,
) -> Result<Run, CrossCheckError> {
    let started = Instant::now();
    let gens = fastest_first(gens);
    let (Some(timed), Some(&walker)) = (timed, gens.first()) else {
        let report = check(subject, &gens, fixed, options)?;
        return Ok(Run {
            report,
            fresh: None,
        });
    };
    // A time past what the clock can reach is no end at all.
    let until = started.checked_add(timed.time);
    let options = &Options {
        deadline: match (options.deadline, until) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        },
        ..options.clone()
    };
    let mut fresh = Fresh::new(timed.seed, timed.depth, until, walker);
    let mut stream = fixed.iter().cloned().chain(&mut fresh);
    let report = check_stream(subject, &gens, &mut stream, None, options)?;
    let (positions, spent) = fresh.made();
    Ok(Run {
        report,
        fresh: Some(Made {
            positions,
            spent,
            coverage: fresh.coverage().clone(),
        }),
    })
}
