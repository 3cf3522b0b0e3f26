//! `xqdiff perft`: one position to a depth, or a whole EPD suite, on one generator or all,
//! printed as a table or as Stockfish prints `go perft` (`--format stockfish`).
//! When the generators' counts differ, it follows the difference down to the position
//! where their move sets differ, minimizes that, and saves it to the corpus.

use super::hash_args::{HashArgs, HashTable};
use super::json::{report_of, JsonArg};
use super::out::{errln, outln, statusln};
use super::split_run::{self, SplitArgs};
use super::{corpus_source, pool, select_generator_list, signals, CliError, CorpusUse, Outcome};
use crate::cli::progress::Progress;
use crate::diff::descent;
use crate::diff::finding::book::{Findings, Settings};
use crate::diff::finding::naming::cause_lines;
use crate::diff::oracle::tally::{self, Tally};
use crate::generators::face::Generator;
use crate::generators::perft::Finished;
use crate::job::check::perft::{self, SuiteJob};
use crate::job::check::{Observer, Unit, PERFT};
use crate::job::report::{
    counted, Dispute, DivideCount, PerftPhase, PerftResult, PerftRow, Phase, PhaseDetails, Report,
    Status,
};
use crate::moves::Move;
use crate::position::Position;
use crate::subject::external::{format_move, Ranks};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Arguments of `xqdiff perft`.
#[derive(clap::Args, Debug)]
// A --json run prints a report: its divide is the report's (ICCS, as the schema writes
// every move), and it has no place for the split modes' jobs and result lines.
#[command(mut_arg("json", |a| a.conflicts_with_all(["format", "ranks", "emit_jobs", "jobs"])))]
pub(super) struct PerftArgs {
    /// Position to start from (default: the start position).
    #[arg(long, allow_hyphen_values = true, value_name = "FEN")]
    fen: Option<String>,
    /// Plies to search; with --suite, the deepest published depth to run.
    #[arg(long, value_name = "DEPTH", value_parser = crate::depth::parse)]
    depth: Option<u32>,
    /// Which generator: a name, or `all` to run and compare every one; repeat to pick several.
    #[arg(long, default_value = "all", value_name = "NAME")]
    generator: Vec<String>,
    /// Print the count below every root move.
    #[arg(long)]
    divide: bool,
    /// How the counts are printed: `text` (a table with timings), or `stockfish` (the
    /// divide as `move: count` lines, a blank line and `Nodes searched: N`, as
    /// Stockfish, Pikafish and Fairy-Stockfish answer `go perft`).
    #[arg(long, value_enum, default_value = "text", value_name = "text|stockfish",
          conflicts_with_all = ["suite", "emit_jobs", "jobs"])]
    format: PerftFormat,
    /// Rank numbering of the divide's moves: 0 (ICCS, `h2e2`) or 1 (1-10, as
    /// Fairy-Stockfish writes xiangqi moves, `h3e3`).
    #[arg(long, default_value = "0", value_name = "0|1", value_parser = parse_ranks,
          conflicts_with_all = ["suite", "emit_jobs", "jobs"])]
    ranks: Ranks,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,
    /// Run every `;Dn count` of an EPD perft file (`reference` for the built-in published suite).
    #[arg(long, value_name = "reference|FILE", conflicts_with_all = ["fen", "divide"])]
    suite: Option<String>,
    /// With --suite, skip published counts above this many nodes.
    #[arg(long, requires = "suite", value_name = "N")]
    max_nodes: Option<u64>,
    /// Directory that minimized disagreements are written into, made if only its parent
    /// exists (default: the repository's corpus/, else nowhere: the built-in copy is
    /// read-only).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Keep disagreements out of the corpus (print only).
    #[arg(long)]
    no_save: bool,
    #[command(flatten)]
    split: SplitArgs,
    #[command(flatten)]
    hash: HashArgs,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum PerftFormat {
    Text,
    Stockfish,
}

/// `--ranks`: only the two numberings; an engine's `auto` has nothing to detect here.
fn parse_ranks(s: &str) -> Result<Ranks, String> {
    match s {
        "0" => Ok(Ranks::Zero),
        "1" => Ok(Ranks::One),
        _ => Err(format!("unknown rank numbering {s:?}: expected 0 or 1")),
    }
}

impl PerftArgs {
    /// Where a disagreement is saved, and whether saving was wanted but the corpus is
    /// the read-only built-in one. Checked before any counting, so a typo in --corpus
    /// is heard at once rather than after a long perft.
    fn save_dir(&self) -> Result<(Option<PathBuf>, bool), CliError> {
        if self.no_save {
            return Ok((None, false));
        }
        let source = corpus_source(self.corpus.as_deref(), "--corpus", CorpusUse::Writes)?;
        Ok((source.dir().map(Path::to_path_buf), source.is_built_in()))
    }
}

/// Runs `xqdiff perft`.
pub(super) fn run(args: &PerftArgs) -> Result<Outcome, CliError> {
    let generators = select_generator_list(&args.generator)?;
    if args.split.requested() {
        let fen = args.fen.as_deref();
        return split_run::run(
            &args.split,
            fen,
            args.depth,
            &generators,
            args.threads,
            &args.hash,
        );
    }
    let (save, read_only) = args.save_dir()?;
    let pool = pool(args.threads)?;
    if let Some(path) = &args.suite {
        let suite = super::load_suite(path)?;
        let job = SuiteJob {
            generators: &generators,
            suite: &suite,
            max_depth: args.depth,
            max_nodes: args.max_nodes.unwrap_or(u64::MAX),
            save_dir: save.as_deref(),
            known: &Default::default(),
        };
        return pool.install(|| run_suite(&job, read_only, args.json));
    }
    let depth = args
        .depth
        .ok_or_else(|| CliError::Usage("--depth is required unless --suite is given".into()))?;
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen)?,
        None => Position::startpos(),
    };
    let investigation = Investigation {
        save: save.as_deref(),
        read_only,
    };
    let hash = args.hash.tables(1)?;
    if hash.is_some()
        && !pool
            .install(|| super::hash_args::hashing_trusted(std::slice::from_ref(&pos), &generators))
    {
        return Ok(Outcome::Disagree);
    }
    let report = pool.install(|| {
        run_one(
            &pos,
            depth,
            &generators,
            Printing {
                divide: args.divide,
                format: args.format,
                ranks: args.ranks,
            },
            hash.as_ref(),
            investigation,
        )
    });
    super::session::conclude(report, args.json)
}

/// What to do with a disagreement once it is found.
#[derive(Clone, Copy)]
struct Investigation<'a> {
    /// Where to save the minimized case, if anywhere.
    save: Option<&'a Path>,
    /// Saving was wanted, but the corpus is the read-only built-in copy.
    read_only: bool,
}

impl Investigation<'_> {
    /// Follows the disagreement seen in `runs` (one per generator, at `depth` from `pos`)
    /// down to where the move sets differ, minimizes it, prints it and saves it; returns
    /// it for the report.
    fn run(
        &self,
        pos: &Position,
        depth: u32,
        generators: &[&dyn Generator],
        runs: &[Run],
    ) -> Option<Dispute> {
        let known: Vec<Vec<(Move, u64)>> = runs.iter().map(|r| r.divide.clone()).collect();
        let bar = Progress::new("descent", Unit::Subtrees);
        let report = |ply: usize, done: u64, total: u64| {
            bar.update(done, total);
            bar.message(format!("{} down", counted(ply as u64, "ply")));
        };
        let mut findings = Findings::new(Settings {
            save: self.save.map(Path::to_path_buf),
            ..Settings::default()
        });
        let found = descent::explain_into(
            &mut findings,
            0,
            pos,
            depth,
            generators,
            Some(&known),
            Some(&report),
        );
        bar.finish();
        let Some((f, among)) = found
            .and_then(|i| findings.list().get(i))
            .and_then(|f| Some((f, f.among()?)))
        else {
            outln!(
                "descent: the divides differ, but no position on the way shows a \
                 disagreement when asked afresh: a generator's answers depend on more \
                 than the position (its board's history, or chance)"
            );
            return None;
        };
        let path: Vec<String> = among
            .origin
            .path
            .iter()
            .flat_map(|(_, moves)| moves.iter().map(Move::to_string))
            .collect();
        outln!(
            "descent:   {}",
            if path.is_empty() {
                "(the root itself)".to_owned()
            } else {
                path.join(" ")
            }
        );
        outln!("position:  {}", among.origin.position.fen());
        outln!("  {}", among.origin.disagreement);
        outln!(
            "minimized: {}  ({} pieces)",
            among.minimized.fen(),
            among.minimized.pieces().count()
        );
        outln!("  {}", among.disagreement);
        outln!("signature: {}", f.signature);
        for line in cause_lines(f.diagnosis.as_ref()) {
            outln!("{line}");
        }
        if self.read_only {
            outln!("{}", crate::job::check::BUILT_IN_READ_ONLY);
        }
        if let Some(file) = &f.file {
            outln!("saved:     {}", super::out::path(file));
        }
        for line in among.origin.provenance.lines() {
            outln!("{line}");
        }
        for e in &findings.write_errors {
            errln!("xqdiff: could not save the finding: {e}");
        }
        Some(Dispute::from_finding(PERFT, f))
    }
}

/// One generator's answer with how long it took.
struct Run {
    name: &'static str,
    divide: Vec<(Move, u64)>,
    nodes: u64,
    elapsed: Duration,
}

/// One generator's divide, `None` if a signal (or a closed stdout) stopped it.
fn timed_divide(
    g: &dyn Generator,
    pos: &Position,
    depth: u32,
    hash: Option<&HashTable>,
) -> Option<Run> {
    let bar = Progress::new(g.name(), Unit::Subtrees);
    let report = |f: Finished| bar.update(f.done, f.of);
    // Emptied before the clock starts: clearing a large table is not counting.
    let hashing = hash.map(HashTable::fresh);
    let started = Instant::now();
    let stop = signals::install();
    let divide = g.divide_until(pos, depth, true, Some(&report), hashing, stop);
    let elapsed = started.elapsed();
    bar.finish();
    let divide = divide?;
    let nodes = if depth == 0 {
        1
    } else {
        divide.iter().map(|&(_, n)| n).sum()
    };
    Some(Run {
        name: g.name(),
        divide,
        nodes,
        elapsed,
    })
}

/// What `xqdiff perft` prints of one position's counts.
#[derive(Clone, Copy)]
struct Printing {
    /// Every root move's count, not only those that differ.
    divide: bool,
    format: PerftFormat,
    /// The numbering of the divide's moves.
    ranks: Ranks,
}

/// Counts `pos` to `depth` with every generator, prints the counts as `printing` asks,
/// follows a disagreement down, and returns the run as a report.
fn run_one(
    pos: &Position,
    depth: u32,
    generators: &[&dyn Generator],
    printing: Printing,
    hash: Option<&HashTable>,
    investigation: Investigation<'_>,
) -> Report {
    let started = Instant::now();
    let header = || {
        outln!("position  {}", pos.fen());
        outln!(
            "depth     {depth}  ({})",
            counted(rayon::current_num_threads() as u64, "thread")
        );
        if let Some(h) = hash {
            outln!("hash      {}", h.describe());
        }
    };
    // Stockfish's form is the divide and the total alone, so its header waits to be
    // needed: only a disagreement, which that form cannot show, prints the text form.
    match (printing.format, hash) {
        (PerftFormat::Text, _) => header(),
        // The key seed is what reproduces a hashed count: said where it keeps stdout
        // in Stockfish's form.
        (PerftFormat::Stockfish, Some(h)) => errln!("hash      {}", h.describe()),
        (PerftFormat::Stockfish, None) => {}
    }
    let Some(runs) = generators
        .iter()
        .map(|g| timed_divide(*g, pos, depth, hash))
        .collect::<Option<Vec<Run>>>()
    else {
        return stopped(generators);
    };
    let table = divide_table(&runs);
    let agree = runs_agree(&runs);
    let dispute = if agree && printing.format == PerftFormat::Stockfish {
        for line in stockfish_lines(&table, runs[0].nodes, printing) {
            outln!("{line}");
        }
        None
    } else {
        if printing.format == PerftFormat::Stockfish {
            header();
        }
        print_text(&runs, &table, agree, printing);
        match (runs.len(), agree) {
            (1, _) => None,
            (n, true) => {
                outln!("all {n} generators agree: {}", runs[0].nodes);
                None
            }
            (_, false) => {
                outln!("generators DISAGREE");
                investigation.run(pos, depth, generators, &runs)
            }
        }
    };
    let row = perft_row(pos, depth, &runs, printing.divide);
    let mut report = report_of(generators);
    let mut phase = Phase::finished(
        PERFT,
        started.elapsed(),
        PhaseDetails::Perft(PerftPhase { rows: vec![row] }),
    );
    // Equal totals over different divides are a disagreement the row cannot show.
    if !agree {
        phase.status = Status::Failed;
    }
    report.phases.push(phase);
    report.disagreements.extend(dispute);
    report
}

/// The report of a perft a signal stopped: no counts, only the signal, so the exit
/// status says it. Only a signal (or a closed stdout, taken as SIGPIPE) stops a count.
fn stopped(generators: &[&dyn Generator]) -> Report {
    let sig = signals::received().unwrap_or(signal_hook::consts::SIGINT);
    // A closed pipe is said by the exit status alone, as SIGPIPE itself would.
    if sig != super::out::SIGPIPE {
        errln!("xqdiff: {} stopped the perft", signals::name(sig));
    }
    let mut report = report_of(generators);
    report.signal = Some(sig);
    report
}

/// The report's row of one position's counts, each generator's divide with it under
/// `--divide`.
fn perft_row(pos: &Position, depth: u32, runs: &[Run], divide: bool) -> PerftRow {
    PerftRow {
        position: if *pos == Position::startpos() {
            "start".to_owned()
        } else {
            "--fen".to_owned()
        },
        fen: pos.fen(),
        depth,
        expected: None,
        results: runs
            .iter()
            .map(|r| {
                let mut result = PerftResult::measured(r.name, r.nodes, r.elapsed);
                if divide {
                    result.divide = Some(
                        iccs_order(&r.divide)
                            .into_iter()
                            .map(|(mv, nodes)| DivideCount {
                                mv: mv.to_string(),
                                nodes,
                            })
                            .collect(),
                    );
                }
                result
            })
            .collect(),
        known: false,
    }
}

/// The text form: each generator's total and time, then the divide (every root move
/// with `--divide`, else only the moves whose counts differ).
fn print_text(runs: &[Run], table: &DivideTable, agree: bool, printing: Printing) {
    for r in runs {
        outln!(
            "{:<10} {:>14} nodes {:>9.3} s  {:>16}",
            r.name,
            r.nodes,
            r.elapsed.as_secs_f64(),
            super::out::rate(r.nodes, r.elapsed.as_secs_f64())
        );
    }
    if printing.divide || !agree {
        let rows: Vec<_> = table
            .iter()
            .filter(|(_, counts)| printing.divide || counts.iter().any(|c| *c != counts[0]))
            .collect();
        if !agree {
            outln!("divide lines that differ:");
        }
        print_divide(runs, &rows, printing.ranks);
    }
}

/// Stockfish's form of one agreed answer: with `--divide` each root move's `move:
/// count` line (in the order of [`divide_table`]) and a blank line, then the total.
fn stockfish_lines(table: &DivideTable, nodes: u64, printing: Printing) -> Vec<String> {
    let mut lines = Vec::new();
    if printing.divide {
        for (mv, counts) in table {
            // Agreed, so every generator's count is the first one's.
            let count = counts.first().copied().flatten().unwrap_or(0);
            lines.push(format!("{}: {count}", format_move(mv.0, printing.ranks)));
        }
        lines.push(String::new());
    }
    lines.push(format!("Nodes searched: {nodes}"));
    lines
}

/// Whether every run has the same total and the same count below every root move, a
/// move listed twice included (the one divide comparison, [`tally::compare`]).
fn runs_agree(runs: &[Run]) -> bool {
    let names: Vec<&str> = runs.iter().map(|r| r.name).collect();
    let tallies: Vec<Tally> = runs
        .iter()
        .map(|r| Tally::of_divide(r.divide.iter().copied()))
        .collect();
    let refs: Vec<&Tally> = tallies.iter().collect();
    runs.iter().all(|r| r.nodes == runs[0].nodes) && tally::compare(&names, &refs).is_empty()
}

/// Per root move, each generator's count, `None` where it lacks the move; in ICCS
/// order (from-file, from-rank, to-file, to-rank), which sorts the same whichever way
/// the ranks are numbered.
type DivideTable = BTreeMap<IccsOrder, Vec<Option<u64>>>;

/// A move ordered as its ICCS text sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct IccsOrder(Move);

impl IccsOrder {
    fn key(self) -> (u8, u8, u8, u8) {
        let Move { from, to } = self.0;
        (from.file(), from.rank(), to.file(), to.rank())
    }
}

impl Ord for IccsOrder {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for IccsOrder {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// One generator's divide in ICCS order (a move listed twice stays twice).
fn iccs_order(divide: &[(Move, u64)]) -> Vec<(Move, u64)> {
    let mut sorted = divide.to_vec();
    sorted.sort_by_key(|&(mv, n)| (IccsOrder(mv), n));
    sorted
}

fn divide_table(runs: &[Run]) -> DivideTable {
    let mut table = DivideTable::new();
    for (i, r) in runs.iter().enumerate() {
        for &(mv, n) in &r.divide {
            table
                .entry(IccsOrder(mv))
                .or_insert_with(|| vec![None; runs.len()])[i] = Some(n);
        }
    }
    table
}

fn print_divide(runs: &[Run], rows: &[(&IccsOrder, &Vec<Option<u64>>)], ranks: Ranks) {
    let header: Vec<String> = runs.iter().map(|r| format!("{:>14}", r.name)).collect();
    outln!("{:<6}{}", "move", header.join(""));
    for (mv, counts) in rows {
        let cells: Vec<String> = counts
            .iter()
            .map(|c| format!("{:>14}", c.map_or("-".to_owned(), |n| n.to_string())))
            .collect();
        outln!("{:<6}{}", format_move(mv.0, ranks), cells.join(""));
    }
}

/// Shows the suite run's progress on one bar.
struct SuiteBar(Progress);

impl Observer for SuiteBar {
    fn progress(&self, done: u64, total: u64, unit: Unit, note: &str) {
        self.0.set_unit(unit);
        self.0.update(done, total);
        self.0.message(note.to_owned());
    }
}

/// Renders the check's perft phase ([`perft::run_suite`]): one line per published count,
/// then each position whose counts disagree, followed down and minimized.
fn run_suite(job: &SuiteJob<'_>, read_only: bool, json: JsonArg) -> Result<Outcome, CliError> {
    let started = Instant::now();
    let bar = SuiteBar(Progress::new("suite", Unit::Nodes));
    let outcome = perft::run_suite(job, &bar, signals::install());
    bar.0.finish();
    let mut mismatches = 0;
    let mut headed = false;
    for row in &outcome.rows {
        let cells: Vec<String> = row
            .results
            .iter()
            .map(|r| {
                let verdict = if row.is_off(r) { "MISMATCH" } else { "ok" };
                let nodes = r.nodes.map_or_else(|| "-".to_owned(), |n| n.to_string());
                format!("{} {nodes} {verdict} ({:.2} s)", r.subject, r.seconds)
            })
            .collect();
        if !row.agrees() {
            mismatches += 1;
        } else if super::out::quiet() {
            continue;
        }
        if !std::mem::replace(&mut headed, true) {
            statusln!(
                "{:<14} depth, published count: each generator's count, verdict (time)",
                "position"
            );
        }
        let expected = row
            .expected
            .map_or_else(|| "-".to_owned(), |e| e.to_string());
        statusln!(
            "{:<14} D{} expect {expected:>11}: {}",
            row.position,
            row.depth,
            cells.join(", ")
        );
    }
    for d in &outcome.disputes {
        outln!("DISAGREE  {}", d.detail);
        outln!("  at {}", d.fen);
        if let Some(odd) = &d.odd_one_out {
            outln!("  odd one out: {odd}");
        }
        if let Some(file) = &d.corpus_file {
            outln!("  saved: {file}");
        }
    }
    if read_only && !outcome.disputes.is_empty() {
        outln!("{}", crate::job::check::BUILT_IN_READ_ONLY);
    }
    for note in &outcome.notes {
        outln!("note: {note}");
    }
    let positions: BTreeSet<&str> = outcome.rows.iter().map(|r| r.fen.as_str()).collect();
    outln!(
        "{}, {} in {:.1} s: {}",
        counted(positions.len() as u64, "position"),
        counted(outcome.rows.len() as u64, "count"),
        started.elapsed().as_secs_f64(),
        if mismatches == 0 {
            "all as published".to_owned()
        } else {
            format!("{mismatches} MISMATCHED")
        }
    );
    if outcome.rows.is_empty() && signals::received().is_none() {
        // A suite run that ran no count has checked nothing: not a pass.
        return Err(CliError::Usage(
            "no published count of the suite is within --depth and --max-nodes".into(),
        ));
    }
    let mut report = report_of(job.generators);
    outcome.record(&mut report, started.elapsed());
    super::session::conclude(report, json)
}
