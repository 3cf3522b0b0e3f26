//! The in-process fuzz campaign: the oracle over structured and playout positions, in
//! parallel, on the stable toolchain, reproducible from a seed.
//!
//! Case `i` of a run seeded `s` depends only on `(s, i)`, so a run with `--cases N`
//! checks the same positions whatever the thread count, and any finding can be
//! reproduced from the seed and case number it prints.

use crate::cases::edges;
use crate::cases::features::Coverage;
use crate::cases::playout;
use crate::cases::rng::Rng;
use crate::cases::structured;
use crate::diff::finding::known::Known;
use crate::diff::finding::provenance::Provenance;
use crate::diff::finding::sighting::{show, Shown, Sighting};
use crate::diff::finding::{book, Finding, Findings};
use crate::diff::oracle::{check_line, line_seed, LineOutcome, WALK_PLIES};
use crate::generators::face::Generator;
use crate::position::Position;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Where positions come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Source {
    /// Random bytes through the structured decoder.
    Arbitrary,
    /// Random legal playouts from the start or a reference position.
    Playout,
    /// Alternate the two.
    Both,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seed of the whole run.
    pub seed: u64,
    /// Stop after this many cases.
    pub cases: Option<u64>,
    /// Stop after this long.
    pub duration: Option<Duration>,
    /// Where positions come from.
    pub source: Source,
    /// Stop at the first disagreement.
    pub stop_on_first: bool,
    /// Where to save minimized findings; `None` keeps them in memory only.
    pub corpus: Option<PathBuf>,
    /// Chance of preferring a capture in playouts.
    pub capture_bias: f64,
    /// Longest playout, in plies.
    pub max_plies: usize,
    /// Playout starts besides the start position and the reference suite: usually the
    /// regression corpus, so games continue from positions that once broke a generator.
    pub extra_starts: Vec<Position>,
    /// Known bugs (`--known`): still counted, but they neither stop the run nor fail it.
    pub known: Known,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 0,
            cases: None,
            duration: Some(Duration::from_secs(60)),
            source: Source::Both,
            stop_on_first: false,
            corpus: None,
            capture_bias: 0.35,
            max_plies: 150,
            extra_starts: Vec::new(),
            known: Known::default(),
        }
    }
}

/// How many minimized witnesses a distinct bug keeps, in the finding and the corpus.
pub use crate::diff::corpus::WITNESSES;

/// One distinct bug the campaign found: a [`Finding`] whose sightings' order is the
/// case number.
pub(crate) type FuzzFinding = Finding;

/// What a campaign did.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Cases run.
    pub cases: u64,
    /// Positions put through the oracle (a playout case checks every ply).
    pub positions: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// One finding per distinct bug (signature), in the order of their first cases.
    pub findings: Vec<FuzzFinding>,
    /// Feature coverage of the positions checked.
    pub(crate) coverage: crate::cases::features::Coverage,
    /// Whether it ended early on a stop request (Ctrl-C).
    pub interrupted: bool,
    /// Corpus files that could not be written.
    pub write_errors: Vec<String>,
}

impl Report {
    /// The findings that are not known bugs.
    pub fn new_findings(&self) -> impl Iterator<Item = &FuzzFinding> {
        self.findings.iter().filter(|f| !f.known)
    }

    /// Cases per second.
    pub(crate) fn rate(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Case `index`: a line of positions, each checked by the whole oracle while every
/// generator's board walks it. An arbitrary case starts at a decoded position and walks
/// the line [`check_position`](crate::diff::oracle::check_position) walks from it, so any
/// finding reproduces from its FEN alone; a playout case walks a seeded random game.
pub(crate) fn run_case(
    config: &Config,
    index: u64,
    gens: &[&dyn Generator],
    starts: &[Position],
) -> LineOutcome {
    let mut rng = Rng::for_item(config.seed, index);
    let use_playout = match config.source {
        Source::Arbitrary => false,
        Source::Playout => true,
        Source::Both => index % 2 == 1,
    };
    if use_playout {
        let start = &starts[rng.below(starts.len() as u64) as usize];
        let plies = rng.below(config.max_plies as u64 + 1) as usize;
        let (halfmoves, fullmoves) = edges::counters(&mut rng);
        let start = start.with_counters(halfmoves, fullmoves);
        let bias = config.capture_bias;
        check_line(&start, gens, plies, playout::chooser(&mut rng, bias))
    } else {
        let start = edges::arbitrary_start(&mut rng);
        let (halfmoves, fullmoves) = edges::counters(&mut rng);
        let start = start.with_counters(halfmoves, fullmoves);
        let mut line = Rng::new(line_seed(&start));
        check_line(&start, gens, WALK_PLIES, |c| {
            Some(line.below(c.len() as u64) as usize)
        })
    }
}

/// What [`measure_oracle`] saw.
#[derive(Clone, Debug)]
pub(crate) struct OracleBench {
    /// Cases run.
    pub cases: u64,
    /// Positions put through the whole oracle.
    pub positions: u64,
    /// Wall time of the run without the clock: what the oracle costs.
    pub elapsed: Duration,
    /// Wall time of the same run with every part timed: the clock's own cost is the
    /// difference from `elapsed`.
    pub timed_elapsed: Duration,
    /// Where the time went in the timed run, by generator and part of the work.
    pub timings: crate::generators::timing::Timings,
}

/// Runs cases `0..cases` of a campaign seeded `seed` (both sources, no extra starts, so
/// the set is fixed) on the calling thread twice: once as the fuzz campaign runs it, for
/// the rate, and once timing every part of the oracle's work, for the breakdown.
pub(crate) fn measure_oracle(seed: u64, cases: u64, gens: &[&dyn Generator]) -> OracleBench {
    let config = Config {
        seed,
        ..Config::default()
    };
    let starts = structured::playout_starts();
    let run_all = || -> u64 {
        (0..cases)
            .map(|i| run_case(&config, i, gens, starts).positions.len() as u64)
            .sum()
    };
    let started = Instant::now();
    let positions = run_all();
    let elapsed = started.elapsed();
    let started = Instant::now();
    let (timed_positions, timings) = crate::generators::timing::measure(run_all);
    debug_assert_eq!(positions, timed_positions, "the set is fixed by the seed");
    OracleBench {
        cases,
        positions,
        elapsed,
        timed_elapsed: started.elapsed(),
        timings,
    }
}

/// Runs a campaign. `stop` ends it early (set it from a Ctrl-C handler); `progress`
/// hears `(cases, findings)` after every batch.
pub fn run(
    config: &Config,
    gens: &[&dyn Generator],
    stop: &AtomicBool,
    progress: &(dyn Fn(u64, usize) + Sync),
) -> Report {
    let started = Instant::now();
    let mut starts = structured::playout_starts().to_vec();
    starts.extend(config.extra_starts.iter().cloned());
    let mut found = Findings::new(book::Settings {
        known: config.known.clone(),
        save: config.corpus.clone(),
        keep_as_is: false,
    });
    let mut report = Report::default();
    let batch = (rayon::current_num_threads() as u64 * 16).max(16);
    let mut next = 0u64;
    loop {
        let time_up = config.duration.is_some_and(|d| started.elapsed() >= d);
        let cases_done = config.cases.is_some_and(|n| next >= n);
        let first_found = config.stop_on_first && found.new_count() > 0;
        if stop.load(Ordering::Relaxed) {
            report.interrupted = true;
            break;
        }
        if time_up || cases_done || first_found {
            break;
        }
        let end = config.cases.map_or(next + batch, |n| n.min(next + batch));
        let now = started.elapsed();
        let results = run_batch(config, gens, &starts, next..end, now);
        let mut hits = Vec::new();
        for (cov, hit) in results {
            report.coverage.merge(&cov);
            hits.extend(hit);
        }
        let mut shown = show(hits, gens);
        if config.stop_on_first {
            keep_first_new(&mut shown, &found);
        }
        found.record_shown(shown, gens);
        report.positions = report.coverage.total();
        report.cases += end - next;
        next = end;
        progress(report.cases, found.list().len());
    }
    report.elapsed = started.elapsed();
    report.write_errors = std::mem::take(&mut found.write_errors);
    report.findings = found.into_list();
    report
}

/// Runs the cases `range` in parallel: each case's coverage, and its first
/// disagreement (the line ended there, so that one stands for it) as a sighting seen
/// `now` into the run.
fn run_batch(
    config: &Config,
    gens: &[&dyn Generator],
    starts: &[Position],
    range: std::ops::Range<u64>,
    now: Duration,
) -> Vec<(Coverage, Option<Sighting>)> {
    range
        .into_par_iter()
        .map(|i| {
            let outcome = run_case(config, i, gens, starts);
            let mut coverage = Coverage::default();
            for pos in &outcome.positions {
                coverage.add(pos);
            }
            let hit = outcome.disagreements.into_iter().next().map(|d| {
                let position = d.position.clone();
                Sighting {
                    order: i,
                    provenance: Provenance::position(&position, &d.line),
                    position,
                    disagreement: d,
                    path: None,
                    depth: None,
                    after: now,
                }
            });
            (coverage, hit)
        })
        .collect()
}

/// For a run that stops at the first new bug: the other new bugs the batch's cases hit
/// are left out of `shown`, while every hit of that one (and of known bugs) stays, so
/// each still offers a witness.
fn keep_first_new(shown: &mut Vec<Shown>, found: &Findings) {
    if let Some(first) = shown
        .iter()
        .find(|s| !found.is_known(&s.signature))
        .map(|s| s.signature.clone())
    {
        shown.retain(|s| s.signature == first || found.is_known(&s.signature));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Playouts and the corpus start at "0 1"; arbitrary cases start anywhere in a
    /// game, so a generator that loses the counters on load or read-back is seen.
    #[test]
    fn arbitrary_cases_start_with_the_counters_of_a_game_in_progress() {
        let gens = crate::generators::registry();
        let config = Config {
            seed: 1,
            source: Source::Arbitrary,
            ..Config::default()
        };
        let starts = structured::playout_starts();
        let counters: std::collections::BTreeSet<(u32, u32)> = (0..20)
            .map(|i| {
                let start = &run_case(&config, i, &gens, starts).positions[0];
                (start.setup().halfmoves, start.setup().fullmoves)
            })
            .collect();
        assert!(counters.len() > 10, "{counters:?}");
    }
}
