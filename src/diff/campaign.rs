//! The in-process fuzz campaign: the oracle over structured and playout positions, in
//! parallel, on the stable toolchain, reproducible from a seed.
//!
//! Case `i` of a run seeded `s` depends only on `(s, i)`, so a run with `--cases N`
//! checks the same positions whatever the thread count, and any finding can be
//! reproduced from the seed and case number it prints.

use crate::cases::playout;
use crate::cases::rng::Rng;
use crate::cases::structured;
use crate::diff::corpus::{write_case, Case};
use crate::diff::minimize::minimize;
use crate::diff::oracle::{
    check_line, follow, line_seed, through_image, Disagreement, LineOutcome, WALK_PLIES,
};
use crate::diff::signature::Signature;
use crate::generators::face::Generator;
use crate::position::Position;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
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
    /// Signatures of known bugs (`--known`): still counted, but they neither stop the
    /// run nor fail it.
    pub known: Vec<String>,
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
            known: Vec::new(),
        }
    }
}

/// How many minimized witnesses a distinct bug keeps, in the finding and the corpus.
pub use crate::diff::corpus::WITNESSES;

/// One distinct bug found: every hit with its signature, the smallest witness, and a
/// few others.
#[derive(Clone, Debug)]
pub struct FuzzFinding {
    /// Which bug: the signature every hit shares.
    pub signature: Signature,
    /// Whether the signature is one of the known bugs.
    pub known: bool,
    /// How many cases hit it.
    pub hits: u64,
    /// The first case that hit it: findings are listed in this order.
    pub first_case: u64,
    /// The case that found the smallest witness (what `found_by` names).
    pub case: u64,
    /// The position it was found on, before minimizing.
    pub original: Position,
    /// The disagreement seen there.
    pub original_disagreement: Disagreement,
    /// The smallest witness.
    pub minimized: Position,
    /// The disagreement on the smallest witness.
    pub disagreement: Disagreement,
    /// Other minimized witnesses, up to [`WITNESSES`], in the order found.
    pub witnesses: Vec<Position>,
    /// The corpus file of the smallest witness (or the one already there), if saving.
    pub file: Option<PathBuf>,
}

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
    pub coverage: crate::cases::features::Coverage,
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
    pub fn rate(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Case `index`: a line of positions, each checked by the whole oracle while every
/// generator's board walks it. An arbitrary case starts at a decoded position and walks
/// the line [`check_position`](crate::diff::oracle::check_position) walks from it, so any
/// finding reproduces from its FEN alone; a playout case walks a seeded random game.
pub fn run_case(
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
        let bias = config.capture_bias;
        check_line(start, gens, plies, playout::chooser(&mut rng, bias))
    } else {
        let len = rng.below(3 * 32 + 4) as usize;
        let start = structured::from_bytes(&rng.bytes(len));
        let mut line = Rng::new(line_seed(&start));
        check_line(&start, gens, WALK_PLIES, |c| {
            Some(line.below(c.len() as u64) as usize)
        })
    }
}

/// What [`measure_oracle`] saw.
#[derive(Clone, Debug)]
pub struct OracleBench {
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
pub fn measure_oracle(seed: u64, cases: u64, gens: &[&dyn Generator]) -> OracleBench {
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
    let found: Mutex<Vec<FuzzFinding>> = Mutex::new(Vec::new());
    let write_errors: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut report = Report::default();
    let batch = (rayon::current_num_threads() as u64 * 16).max(16);
    let mut next = 0u64;
    loop {
        let time_up = config.duration.is_some_and(|d| started.elapsed() >= d);
        let cases_done = config.cases.is_some_and(|n| next >= n);
        let first_found = config.stop_on_first && lock(&found).iter().any(|f| !f.known);
        if stop.load(Ordering::Relaxed) {
            report.interrupted = true;
            break;
        }
        if time_up || cases_done || first_found {
            break;
        }
        let end = config.cases.map_or(next + batch, |n| n.min(next + batch));
        let results: Vec<crate::cases::features::Coverage> = (next..end)
            .into_par_iter()
            .map(|i| {
                let outcome = run_case(config, i, gens, &starts);
                let mut coverage = crate::cases::features::Coverage::default();
                for pos in &outcome.positions {
                    coverage.add(pos);
                }
                // The line ended at its first disagreement; that one stands for it.
                if let Some(d) = outcome.disagreements.into_iter().next() {
                    if let Some(pos) = finding_position(&outcome.positions, &d) {
                        record(config, i, &pos, &d, gens, &found, &write_errors);
                    }
                }
                coverage
            })
            .collect();
        for cov in results {
            report.coverage.merge(&cov);
        }
        report.positions = report.coverage.total();
        report.cases += end - next;
        next = end;
        progress(report.cases, lock(&found).len());
    }
    report.elapsed = started.elapsed();
    report.findings = found.into_inner().unwrap_or_else(|e| e.into_inner());
    report.findings.sort_by_key(|f| f.first_case);
    for f in &mut report.findings {
        // The smallest witness is the finding; the others follow it.
        f.witnesses.retain(|w| *w != f.minimized);
    }
    report.write_errors = write_errors.into_inner().unwrap_or_else(|e| e.into_inner());
    report
}

/// The position a line's disagreement is about: the one whose FEN it names.
fn finding_position(positions: &[Position], d: &Disagreement) -> Option<Position> {
    positions.iter().rev().find(|p| p.fen() == d.fen).cloned()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A worker that panicked mid-push leaves the data intact enough to report.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Counts a hit of `d` (seen on `pos` in case `case`) on its bug, and minimizes it when
/// the bug still wants witnesses: a new bug, or one with fewer than [`WITNESSES`]. A
/// witness smaller than the bug's smallest takes its place.
fn record(
    config: &Config,
    case: u64,
    pos: &Position,
    d: &Disagreement,
    gens: &[&dyn Generator],
    found: &Mutex<Vec<FuzzFinding>>,
    errors: &Mutex<Vec<String>>,
) {
    let (shown, d, _) = follow(pos, d, gens);
    let (shown, d) = through_image(&shown, &d, gens).unwrap_or((shown, d));
    let signature = d.signature();
    let counted = {
        let mut all = lock(found);
        match all.iter_mut().find(|f| f.signature == signature) {
            Some(f) if f.witnesses.len() >= WITNESSES => {
                f.hits += 1;
                return;
            }
            Some(f) => {
                f.hits += 1;
                true
            }
            None => false,
        }
    };
    let (minimized, disagreement) = minimize(&shown, &d, gens);
    let known = signature.is_known(&config.known);
    let mut all = lock(found);
    let index = match all.iter().position(|f| f.signature == signature) {
        Some(i) => {
            // Another worker found the same bug meanwhile.
            all[i].hits += u64::from(!counted);
            i
        }
        None => {
            all.push(FuzzFinding {
                signature,
                known,
                hits: 1,
                first_case: case,
                case,
                original: pos.clone(),
                original_disagreement: d.clone(),
                minimized: minimized.clone(),
                disagreement: disagreement.clone(),
                witnesses: Vec::new(),
                file: None,
            });
            all.len() - 1
        }
    };
    let f = &mut all[index];
    f.first_case = f.first_case.min(case);
    if f.witnesses.contains(&minimized) || f.witnesses.len() >= WITNESSES {
        return;
    }
    f.witnesses.push(minimized.clone());
    let smaller = minimized.pieces().count() < f.minimized.pieces().count();
    if smaller {
        f.case = case;
        f.original = pos.clone();
        f.original_disagreement = d.clone();
        f.minimized = minimized;
        f.disagreement = disagreement.clone();
    }
    let Some(dir) = &config.corpus else { return };
    let how = format!(
        "xqdiff fuzz --seed {} (case {case}, source {:?})",
        config.seed, config.source
    );
    match Case::from_disagreement(&disagreement, &pos.fen(), &how) {
        Ok(c) => match write_case(dir, &c) {
            Ok((path, _)) => {
                if smaller || f.file.is_none() {
                    f.file = Some(path);
                }
            }
            Err(e) => lock(errors).push(format!("{}: {e}", dir.display())),
        },
        Err(e) => lock(errors).push(format!("minimized FEN unreadable: {e}")),
    }
}
