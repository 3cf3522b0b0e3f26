//! Phase 1: every published count of the suite within the node budget, on every
//! generator. The counts are independent, so (position, depth, generator) triples
//! share the pool, the biggest first. A row that misses its published count, or on
//! which the generators differ, is followed down to where their move sets differ and
//! minimized there (one descent per position: a deeper row that differs too is
//! almost always the same bug).

use super::{Observer, Running, Unit, PERFT};
use crate::diff::descent;
use crate::diff::finding::book::{Findings, Settings};
use crate::diff::finding::known::Known;
use crate::diff::finding::provenance::Provenance;
use crate::diff::oracle::tally::{self, Tally};
use crate::epd::SuiteEntry;
use crate::generators::face::Generator;
use crate::generators::perft::Finished;
use crate::job::report::{
    Dispute, DisputedMove, PerftPhase, PerftResult, PerftRow, PerftTotals, Phase, PhaseDetails,
    Report,
};
use crate::moves::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One published count to reproduce.
struct Wanted {
    entry: usize,
    depth: u32,
    expected: u64,
}

/// One generator's answer to one [`Wanted`].
struct Count {
    divide: Vec<(Move, u64)>,
    nodes: u64,
    elapsed: Duration,
}

/// What a suite position is called in reports: `start`, or its `id`, or its line in
/// the suite file (the engine check labels the same positions the same way).
pub(super) fn label(entry: &SuiteEntry) -> String {
    if entry.position == Position::startpos() && entry.id.is_none() {
        "start".to_owned()
    } else {
        entry.label()
    }
}

/// A published suite to run on every generator, and where a finding is saved. The
/// check's perft phase and `xqdiff perft --suite` both run this.
pub(crate) struct SuiteJob<'a> {
    /// The generators, in order.
    pub(crate) generators: &'a [&'a dyn Generator],
    /// The positions and their published counts.
    pub(crate) suite: &'a [SuiteEntry],
    /// Published counts deeper than this are skipped.
    pub(crate) max_depth: Option<u32>,
    /// Published counts above this many nodes are skipped.
    pub(crate) max_nodes: u64,
    /// Where a minimized finding is saved, if anywhere.
    pub(crate) save_dir: Option<&'a Path>,
    /// Known bugs: reported as known, never failed on.
    pub(crate) known: &'a Known,
}

/// What a suite run found: one row per published count run, one dispute per position
/// whose rows do not agree, and notes (counts not run, findings not saved).
pub(crate) struct SuiteOutcome {
    /// The rows, in the suite's order.
    pub(crate) rows: Vec<PerftRow>,
    /// The disputes, each followed down and minimized where the generators differ.
    pub(crate) disputes: Vec<Dispute>,
    /// What a reader should know besides.
    pub(crate) notes: Vec<String>,
}

pub(super) fn run(report: &mut Report, running: &Running<'_>) {
    let (config, observer, stop) = (running.config, running.observer, running.stop);
    let started = Instant::now();
    let job = SuiteJob {
        generators: &config.generators,
        suite: &config.suite,
        max_depth: None,
        max_nodes: config.max_nodes,
        save_dir: config.save_dir(),
        known: &config.known,
    };
    run_suite(&job, observer, stop).record(report, started.elapsed());
}

impl SuiteOutcome {
    /// Adds the perft phase this run was, which took `elapsed`, and its disputes.
    pub(crate) fn record(&self, report: &mut Report, elapsed: Duration) {
        let mut phase = Phase::finished(
            PERFT,
            elapsed,
            PhaseDetails::Perft(PerftPhase {
                rows: self.rows.clone(),
            }),
        );
        if !self.notes.is_empty() {
            phase.message = Some(self.notes.join("; "));
        }
        report.phases.push(phase);
        report.disagreements.extend(self.disputes.iter().cloned());
    }
}

/// The smallest subtree whose end redraws the suite's bar: about a millisecond of
/// counting, so the bar moves smoothly and redraws never cost the count its speed.
const REDRAW_NODES: u64 = 100_000;

/// The published counts of `job`'s suite within its limits, each a (position, depth).
fn wanted_counts(job: &SuiteJob<'_>) -> Vec<Wanted> {
    job.suite
        .iter()
        .enumerate()
        .flat_map(|(entry, e)| {
            e.counts
                .iter()
                .filter(|&&(d, n)| n <= job.max_nodes && job.max_depth.is_none_or(|m| d <= m))
                .map(move |&(depth, expected)| Wanted {
                    entry,
                    depth,
                    expected,
                })
        })
        .collect()
}

/// Every wanted count on every generator, in `table[wanted][generator]` (`None` for a
/// count a stop left unrun). The counts share the pool, the biggest first, each on one
/// thread, the bar moving as their subtrees finish.
fn count_all(
    job: &SuiteJob<'_>,
    wanted: &[Wanted],
    observer: &dyn Observer,
    stop: &AtomicBool,
) -> Vec<Vec<Option<Count>>> {
    let gens = job.generators;
    let mut jobs: Vec<(usize, usize)> = (0..wanted.len())
        .flat_map(|w| (0..gens.len()).map(move |g| (w, g)))
        .collect();
    jobs.sort_by_key(|&(w, _)| Reverse(wanted[w].expected));
    let total: u64 = wanted.iter().map(|w| w.expected).sum::<u64>() * gens.len() as u64;
    let done = AtomicU64::new(0);
    let answers: Vec<(usize, usize, Option<Count>)> = jobs
        .par_iter()
        .map(|&(w, g)| {
            if stop.load(Ordering::Relaxed) {
                return (w, g, None);
            }
            let want = &wanted[w];
            let entry = &job.suite[want.entry];
            let note = || format!("{} depth {}", label(entry), want.depth);
            // The bar counts nodes as subtrees finish, so a deep count shows progress
            // long before it ends; a subtree too small to be worth a redraw is added
            // to the count silently.
            let heard = AtomicU64::new(0);
            let subtree = |f: Finished| {
                heard.fetch_add(f.nodes, Ordering::Relaxed);
                let so_far = done.fetch_add(f.nodes, Ordering::Relaxed) + f.nodes;
                if f.nodes >= REDRAW_NODES {
                    observer.progress(so_far, total, Unit::Nodes, &note());
                }
            };
            let t = Instant::now();
            // One thread a count: the pool is kept busy by the other counts, and the
            // time is then a single-thread time, comparable across generators.
            let Some(divide) = gens[g].divide_until(
                &entry.position,
                want.depth,
                false,
                Some(&subtree),
                None,
                stop,
            ) else {
                // Stopped part way: a count not run, as the ones never started.
                return (w, g, None);
            };
            let elapsed = t.elapsed();
            let nodes = if want.depth == 0 {
                1
            } else {
                divide.iter().map(|&(_, n)| n).sum()
            };
            // A wrong count still moves the bar by the published one, so the bar ends
            // full when every count has run.
            let rest = want.expected.saturating_sub(heard.load(Ordering::Relaxed));
            let so_far = done.fetch_add(rest, Ordering::Relaxed) + rest;
            observer.progress(so_far, total, Unit::Nodes, &note());
            let count = Count {
                divide,
                nodes,
                elapsed,
            };
            (w, g, Some(count))
        })
        .collect();
    let mut table: Vec<Vec<Option<Count>>> = wanted
        .iter()
        .map(|_| gens.iter().map(|_| None).collect())
        .collect();
    for (w, g, count) in answers {
        table[w][g] = count;
    }
    table
}

/// The report's row of one published count: each generator's total and time.
fn suite_row(
    entry: &SuiteEntry,
    want: &Wanted,
    gens: &[&dyn Generator],
    counts: &[&Count],
) -> PerftRow {
    PerftRow {
        position: label(entry),
        fen: entry.position.fen(),
        depth: want.depth,
        expected: Some(want.expected),
        results: gens
            .iter()
            .zip(counts)
            .map(|(g, c)| PerftResult::measured(g.name(), c.nodes, c.elapsed))
            .collect(),
        known: false,
    }
}

/// Runs every published count of `job` within its limits on every generator. The counts
/// are independent, so (position, depth, generator) triples share the pool, the biggest
/// first; `stop` ends the run early, and the counts not run are noted.
pub(crate) fn run_suite(
    job: &SuiteJob<'_>,
    observer: &dyn Observer,
    stop: &AtomicBool,
) -> SuiteOutcome {
    let gens = job.generators;
    let wanted = wanted_counts(job);
    let table = count_all(job, &wanted, observer, stop);
    let mut rows = Vec::new();
    let mut disputes = Vec::new();
    let mut notes = Vec::new();
    // One findings path for the whole suite: one bug met at several positions is one
    // finding with several hits. Each position is followed down once, and every row
    // of it is known when its finding is.
    let mut findings = Findings::new(Settings {
        known: job.known.clone(),
        save: job.save_dir.map(Path::to_path_buf),
        keep_as_is: false,
    });
    let mut investigated: Vec<Option<Option<usize>>> = vec![None; job.suite.len()];
    let mut unfinished = 0;
    for (want, counts) in wanted.iter().zip(&table) {
        let Some(counts) = counts
            .iter()
            .map(Option::as_ref)
            .collect::<Option<Vec<&Count>>>()
        else {
            unfinished += 1;
            continue;
        };
        let entry = &job.suite[want.entry];
        let row = suite_row(entry, want, gens, &counts);
        if !row.agrees() && investigated[want.entry].is_none() {
            let found = investigate(
                want.entry as u64,
                entry,
                &row,
                &counts,
                job,
                observer,
                &mut findings,
            );
            if let Err(dispute) = &found {
                disputes.push(dispute.as_ref().clone());
            }
            investigated[want.entry] = Some(found.ok());
        }
        rows.push((want.entry, row));
    }
    let list = findings.list();
    let rows: Vec<PerftRow> = rows
        .into_iter()
        .map(|(entry, mut row)| {
            row.known =
                !row.agrees() && investigated[entry].flatten().is_some_and(|i| list[i].known);
            row
        })
        .collect();
    notes.extend(
        findings
            .write_errors
            .iter()
            .map(|e| format!("not saved: {e}")),
    );
    disputes.extend(
        findings
            .into_list()
            .iter()
            .map(|f| Dispute::from_finding(PERFT, f)),
    );
    if unfinished > 0 {
        notes.insert(
            0,
            format!("stopped early: {unfinished} published counts not run"),
        );
    }
    SuiteOutcome {
        rows,
        disputes,
        notes,
    }
}

/// A row that does not agree: the generators' disagreement followed down and handed to
/// the findings path when they differ among themselves and the descent finds where
/// (the finding's index), else the counts as they stand (a dispute of its own).
fn investigate(
    order: u64,
    entry: &SuiteEntry,
    row: &PerftRow,
    counts: &[&Count],
    job: &SuiteJob<'_>,
    observer: &dyn Observer,
    findings: &mut Findings,
) -> Result<usize, Box<Dispute>> {
    let pos = &entry.position;
    let depth = row.depth;
    let divides: Vec<Vec<(Move, u64)>> = counts.iter().map(|c| c.divide.clone()).collect();
    let tallies: Vec<Tally> = divides
        .iter()
        .map(|d| Tally::of_divide(d.iter().copied()))
        .collect();
    let names: Vec<&str> = job.generators.iter().map(|g| g.name()).collect();
    let refs: Vec<&Tally> = tallies.iter().collect();
    let split = !tally::compare(&names, &refs).is_empty();
    if split {
        let progress = |ply: usize, done: u64, total: u64| {
            observer.progress(
                done,
                total,
                Unit::Subtrees,
                &format!(
                    "{}: descending, {} down",
                    row.position,
                    crate::job::report::counted(ply as u64, "ply")
                ),
            );
        };
        let explained = descent::explain_into(
            findings,
            order,
            pos,
            depth,
            job.generators,
            Some(&divides),
            Some(&progress),
        );
        if let Some(index) = explained {
            return Ok(index);
        }
    }
    let found_by = Provenance::perft(pos, depth, job.generators);
    Err(Box::new(unexplained(row, &tallies, split, &found_by)))
}

/// A row the descent did not turn into a position: every generator gives the same wrong
/// count (the published number, or a bug they share), or the descent could not run to
/// the end (the generators' divides differ from their totals).
fn unexplained(row: &PerftRow, tallies: &[Tally], split: bool, found_by: &Provenance) -> Dispute {
    let names: Vec<String> = row.results.iter().map(|r| r.subject.clone()).collect();
    let off: Vec<&str> = row
        .results
        .iter()
        .filter(|r| row.is_off(r))
        .map(|r| r.subject.as_str())
        .collect();
    let mut all_moves: Vec<Move> = tallies.iter().flat_map(Tally::moves).collect();
    all_moves.sort_unstable();
    all_moves.dedup();
    let moves = all_moves
        .into_iter()
        .filter(|&mv| tallies.iter().any(|t| t.get(mv) != tallies[0].get(mv)))
        .map(|mv| {
            let mut has = Vec::new();
            let mut counts = BTreeMap::new();
            let mut listed = BTreeMap::new();
            for (name, t) in names.iter().zip(tallies) {
                if let Some(r) = t.get(mv) {
                    has.push(name.clone());
                    counts.insert(name.clone(), r.count);
                    listed.insert(name.clone(), r.times);
                }
            }
            if listed.values().all(|&n| n == 1) {
                listed.clear();
            }
            DisputedMove {
                mv: mv.to_string(),
                has,
                counts,
                listed,
            }
        })
        .collect();
    let totals: BTreeMap<String, u64> = row
        .results
        .iter()
        .filter_map(|r| Some((r.subject.clone(), r.nodes?)))
        .collect();
    let expected = row
        .expected
        .map_or_else(|| "none".to_owned(), |e| e.to_string());
    let detail = if split {
        format!(
            "perft({}) counts differ between generators (published: {expected}); the \
             moves whose counts differ are listed",
            row.depth
        )
    } else {
        format!(
            "every generator counts {} at depth {} where the published count is {expected}",
            row.results.first().and_then(|r| r.nodes).unwrap_or(0),
            row.depth
        )
    };
    Dispute {
        generators: names,
        odd_one_out: (off.len() == 1 && row.results.len() > 2).then(|| off[0].to_owned()),
        moves,
        perft: Some(PerftTotals {
            depth: row.depth,
            counts: totals,
        }),
        ..Dispute::new(PERFT, "perft", row.fen.clone(), detail)
    }
    .with_provenance(found_by)
}
