//! `xqdiff perft`: one position to a depth, or a whole EPD suite, on one generator or all.
//! When the generators' counts differ, it follows the difference down to the position
//! where their move sets differ, minimizes that, and saves it to the corpus.

use super::split_cmd::{self, SplitArgs};
use super::{corpus_source, pool, select_generator_list, CliError, CorpusUse, Outcome};
use crate::cli::progress::Progress;
use crate::diff::descent;
use crate::epd::{parse_suite, SuiteEntry, REFERENCE_SUITE};
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Arguments of `xqdiff perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Position to start from (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Plies to search; with --suite, the deepest published depth to run.
    #[arg(long)]
    depth: Option<u32>,
    /// Which generator: a name, or `all` to run and compare every one; repeat to pick several.
    #[arg(long, default_value = "all")]
    generator: Vec<String>,
    /// Print the count below every root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Run every `;Dn count` of an EPD perft file (`reference` for the built-in published suite).
    #[arg(long, value_name = "FILE.epd", conflicts_with_all = ["fen", "divide"])]
    suite: Option<String>,
    /// With --suite, skip published counts above this many nodes.
    #[arg(long, requires = "suite")]
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
pub fn run(args: &PerftArgs) -> Result<Outcome, CliError> {
    let generators = select_generator_list(&args.generator)?;
    if args.split.requested() {
        let fen = args.fen.as_deref();
        return split_cmd::run(&args.split, fen, args.depth, &generators, args.threads);
    }
    let (save, read_only) = args.save_dir()?;
    let pool = pool(args.threads)?;
    if let Some(path) = &args.suite {
        let suite = load_suite(path)?;
        let found_by = format!("xqdiff perft --suite {path}");
        return Ok(pool.install(|| {
            run_suite(
                &suite,
                &generators,
                args.depth,
                args.max_nodes,
                Investigation {
                    save: save.as_deref(),
                    read_only,
                    found_by: &found_by,
                },
            )
        }));
    }
    let depth = args
        .depth
        .ok_or_else(|| CliError::Usage("--depth is required unless --suite is given".into()))?;
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen)?,
        None => Position::startpos(),
    };
    let found_by = format!("xqdiff perft --fen '{}' --depth {depth}", pos.fen());
    let investigation = Investigation {
        save: save.as_deref(),
        read_only,
        found_by: &found_by,
    };
    Ok(pool.install(|| run_one(&pos, depth, &generators, args.divide, investigation)))
}

/// What to do with a disagreement once it is found.
#[derive(Clone, Copy)]
struct Investigation<'a> {
    /// Where to save the minimized case, if anywhere.
    save: Option<&'a Path>,
    /// Saving was wanted, but the corpus is the read-only built-in copy.
    read_only: bool,
    /// The command, for the case's notes.
    found_by: &'a str,
}

impl Investigation<'_> {
    /// Follows the disagreement seen in `runs` (one per generator, at `depth` from `pos`)
    /// down to where the move sets differ, minimizes it, prints it and saves it.
    fn run(&self, pos: &Position, depth: u32, generators: &[&dyn Generator], runs: &[Run]) {
        let known: Vec<Vec<(Move, u64)>> = runs.iter().map(|r| r.divide.clone()).collect();
        let bar = Progress::new("descent", 0);
        let report = |ply: usize, done: u64, total: u64| {
            bar.update(done, total);
            bar.message(format!("{ply} plies down"));
        };
        let found = descent::explain(pos, depth, generators, Some(&known), Some(&report));
        bar.finish();
        let Some(f) = found else {
            println!(
                "descent: no position on the way shows the disagreement to the oracle \
                 (the counts differ only deeper than the oracle looks)"
            );
            return;
        };
        let path: Vec<String> = f.descent.path.iter().map(Move::to_string).collect();
        println!(
            "descent:   {}",
            if path.is_empty() {
                "(the root itself)".to_owned()
            } else {
                path.join(" ")
            }
        );
        println!("position:  {}", f.descent.position.fen());
        for d in &f.descent.disagreements {
            println!("  {d}");
        }
        println!(
            "minimized: {}  ({} pieces)",
            f.minimized.fen(),
            f.minimized.pieces().count()
        );
        println!("  {}", f.disagreement);
        if self.read_only {
            println!("{}", crate::job::check::BUILT_IN_READ_ONLY);
        }
        if let Some(dir) = self.save {
            match f.save(dir, self.found_by) {
                Ok((file, true)) => println!("saved:     {}", file.display()),
                Ok((file, false)) => println!("already in corpus: {}", file.display()),
                Err(e) => eprintln!("xqdiff: could not save the finding: {e}"),
            }
        }
    }
}

fn load_suite(path: &str) -> Result<Vec<SuiteEntry>, CliError> {
    let text = if path == "reference" {
        REFERENCE_SUITE.to_owned()
    } else {
        std::fs::read_to_string(path).map_err(|source| CliError::Io {
            path: path.into(),
            source,
        })?
    };
    parse_suite(&text).map_err(|source| CliError::Suite {
        path: path.to_owned(),
        source,
    })
}

/// One generator's answer with how long it took.
struct Run {
    name: &'static str,
    divide: Vec<(Move, u64)>,
    nodes: u64,
    elapsed: Duration,
}

fn timed_divide(g: &dyn Generator, pos: &Position, depth: u32) -> Run {
    let bar = Progress::new(g.name(), 0);
    let report = |done: u64, total: u64| bar.update(done, total);
    let started = Instant::now();
    let divide = g.divide(pos, depth, true, Some(&report));
    let elapsed = started.elapsed();
    bar.finish();
    let nodes = if depth == 0 {
        1
    } else {
        divide.iter().map(|&(_, n)| n).sum()
    };
    Run {
        name: g.name(),
        divide,
        nodes,
        elapsed,
    }
}

fn rate(nodes: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        return "-".into();
    }
    format!("{:.1} M nodes/s", nodes as f64 / secs / 1e6)
}

fn run_one(
    pos: &Position,
    depth: u32,
    generators: &[&dyn Generator],
    divide: bool,
    investigation: Investigation<'_>,
) -> Outcome {
    println!("position  {}", pos.fen());
    println!(
        "depth     {depth}  ({} threads)",
        rayon::current_num_threads()
    );
    let runs: Vec<Run> = generators
        .iter()
        .map(|g| timed_divide(*g, pos, depth))
        .collect();
    for r in &runs {
        println!(
            "{:<10} {:>14} nodes {:>9.3} s  {:>16}",
            r.name,
            r.nodes,
            r.elapsed.as_secs_f64(),
            rate(r.nodes, r.elapsed)
        );
    }
    let table = divide_table(&runs);
    let agree = runs_agree(&runs);
    if divide || !agree {
        let rows: Vec<_> = table
            .iter()
            .filter(|(_, counts)| divide || counts.iter().any(|c| *c != counts[0]))
            .collect();
        if !agree {
            println!("divide lines that differ:");
        }
        print_divide(&runs, &rows);
    }
    match (runs.len(), agree) {
        (1, _) => Outcome::Agree,
        (n, true) => {
            println!("all {n} generators agree: {}", runs[0].nodes);
            Outcome::Agree
        }
        (_, false) => {
            println!("generators DISAGREE");
            investigation.run(pos, depth, generators, &runs);
            Outcome::Disagree
        }
    }
}

/// Whether every run has the same total and the same count below every root move.
fn runs_agree(runs: &[Run]) -> bool {
    runs.iter().all(|r| r.nodes == runs[0].nodes)
        && divide_table(runs)
            .values()
            .all(|counts| counts.iter().all(|c| *c == counts[0]))
}

/// Per root move (in ICCS order), each generator's count, `None` where it lacks the move.
fn divide_table(runs: &[Run]) -> BTreeMap<String, Vec<Option<u64>>> {
    let mut table: BTreeMap<String, Vec<Option<u64>>> = BTreeMap::new();
    for (i, r) in runs.iter().enumerate() {
        for &(mv, n) in &r.divide {
            table
                .entry(mv.to_string())
                .or_insert_with(|| vec![None; runs.len()])[i] = Some(n);
        }
    }
    table
}

fn print_divide(runs: &[Run], rows: &[(&String, &Vec<Option<u64>>)]) {
    let header: Vec<String> = runs.iter().map(|r| format!("{:>14}", r.name)).collect();
    println!("{:<6}{}", "move", header.join(""));
    for (mv, counts) in rows {
        let cells: Vec<String> = counts
            .iter()
            .map(|c| format!("{:>14}", c.map_or("-".to_owned(), |n| n.to_string())))
            .collect();
        println!("{mv:<6}{}", cells.join(""));
    }
}

fn run_suite(
    suite: &[SuiteEntry],
    generators: &[&dyn Generator],
    max_depth: Option<u32>,
    max_nodes: Option<u64>,
    investigation: Investigation<'_>,
) -> Outcome {
    let mut runs = 0;
    let mut mismatches = 0;
    let started = Instant::now();
    for entry in suite {
        let selected = entry.counts.iter().filter(|&&(d, n)| {
            max_depth.is_none_or(|m| d <= m) && max_nodes.is_none_or(|m| n <= m)
        });
        // One descent per position: a deeper disagreement there is usually the same one.
        let mut investigated = false;
        for &(depth, expected) in selected {
            let mut cells = Vec::new();
            let mut ok = true;
            let mut these = Vec::new();
            for g in generators {
                let run = timed_divide(*g, &entry.position, depth);
                runs += 1;
                let verdict = if run.nodes == expected {
                    "ok"
                } else {
                    "MISMATCH"
                };
                ok &= run.nodes == expected;
                cells.push(format!(
                    "{} {} {} ({:.2} s)",
                    run.name,
                    run.nodes,
                    verdict,
                    run.elapsed.as_secs_f64()
                ));
                these.push(run);
            }
            if !ok {
                mismatches += 1;
            }
            println!(
                "line {:>3} D{depth} expect {expected:>11}: {}",
                entry.line,
                cells.join(", ")
            );
            if !investigated && !runs_agree(&these) {
                investigated = true;
                println!("generators DISAGREE with each other here");
                let found_by = format!(
                    "{} (line {}, depth {depth})",
                    investigation.found_by, entry.line
                );
                Investigation {
                    found_by: &found_by,
                    ..investigation
                }
                .run(&entry.position, depth, generators, &these);
            }
        }
    }
    println!(
        "{} positions, {runs} runs in {:.1} s: {}",
        suite.len(),
        started.elapsed().as_secs_f64(),
        if mismatches == 0 {
            "all as published".to_owned()
        } else {
            format!("{mismatches} MISMATCHED")
        }
    );
    if mismatches == 0 {
        Outcome::Agree
    } else {
        Outcome::Disagree
    }
}
