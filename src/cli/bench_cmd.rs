//! `xqdiff bench`: perft speed of every generator, one thread and all threads, printed as
//! a Markdown table. Rates in one table come from one run on one machine, so compare
//! them as ratios, not with numbers measured elsewhere.

use super::engine_args::EngineFlags;
use super::json::{BenchDoc, BenchEngineRow, BenchRow, OracleBenchDoc, OraclePart};
use super::out::outln;
use super::progress::Progress;
use super::{pool, select_generator_list, CliError, Outcome};
use crate::diff::campaign::OracleBench;
use crate::generators::face::Generator;
use crate::job::check::Unit;
use crate::position::Position;
use crate::subject::external::ExternalEngine;
use crate::subject::Subject;
use std::time::{Duration, Instant};

/// Arguments of `xqdiff bench`.
#[derive(clap::Args, Debug)]
#[command(
    mut_arg("protocol", |a| a.requires("engine")),
    mut_arg("options", |a| a.requires("engine")),
    mut_arg("ranks", |a| a.requires("engine")),
    mut_arg("fen_letters", |a| a.requires("engine")),
    mut_arg("timeout", |a| a.requires("engine").default_value("600")),
    mut_arg("start_timeout", |a| a.requires("engine")),
    mut_arg("compare", |a| a.hide(true)),
    mut_arg("rules", |a| a.hide(true)),
)]
pub(super) struct BenchArgs {
    /// Which generator: a name, or `all`; repeat to pick several.
    #[arg(long, default_value = "all", value_name = "NAME")]
    generator: Vec<String>,
    /// Subtract this from every depth (1 makes a quick run, about 40 times shorter).
    #[arg(long, default_value_t = 0, value_name = "N", conflicts_with = "deeper")]
    shallower: u32,
    /// Add this to every depth (1 makes a run about 40 times longer: perft(6) of the
    /// start, the depth engines are compared at).
    #[arg(long, default_value_t = 0, value_name = "N")]
    deeper: u32,
    /// Time an engine's own perft of every position too, through its protocol (its
    /// `go perft`, or `show moves` lists counted by xqdiff), beside the generators: the
    /// ratio of speeds in one run on one machine. The engine is asked once per position
    /// at the same depth and must give the same count.
    #[arg(long, value_name = "\"ENGINE [ARGS]\"", conflicts_with = "oracle")]
    engine: Option<String>,
    #[command(flatten)]
    engine_flags: EngineFlags,
    /// Measure the whole oracle instead of perft: positions per second on one thread
    /// over a fixed seeded set of fuzz cases, and where the time goes.
    #[arg(long)]
    oracle: bool,
    /// With --oracle: how many fuzz cases (about 35 positions each).
    #[arg(long, default_value_t = 1000, requires = "oracle", value_name = "N")]
    cases: u64,
    /// With --oracle: the seed of the cases.
    #[arg(long, default_value_t = 3, requires = "oracle", value_name = "SEED")]
    seed: u64,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// The parts of the oracle's work, in the order the table lists them.
const PARTS: [(&str, &str); 10] = [
    (
        "lists",
        "load, read back, in check, pseudo-legal and legal lists",
    ),
    ("count", "count_legal on a fresh board"),
    (
        "per-move",
        "each legal move: capture, make, read back, gives check, count_legal after, unmake",
    ),
    (
        "reused board",
        "everything again after every move was made and unmade",
    ),
    (
        "walk",
        "a board walked along the line, and fresh boards to compare it with",
    ),
    ("symmetry", "mirror and colour swap: lists on both images"),
    (
        "count paths",
        "perft(2) and (3) by every counting path: plain, two-ply, hashed",
    ),
    ("compare", "comparing the answers (the oracle)"),
    (
        "validation",
        "validating each distinct position after a move once (the oracle)",
    ),
    ("other", "the line, choosing moves, the rest"),
];

/// `xqdiff bench --oracle`: the table of where one thread's time goes.
fn oracle(args: &BenchArgs) -> Result<Outcome, CliError> {
    use crate::generators::timing::ORACLE;
    let generators = select_generator_list(&args.generator)?;
    let single = pool(1)?;
    let bench = single
        .install(|| crate::diff::campaign::measure_oracle(args.seed, args.cases, &generators));
    let secs = bench.elapsed.as_secs_f64().max(1e-9);
    let timed_secs = bench.timed_elapsed.as_secs_f64().max(1e-9);
    outln!(
        "oracle: seed {}, {} cases, {} positions in {secs:.2} s on one thread: {:.0} positions/s",
        args.seed,
        bench.cases,
        bench.positions,
        bench.positions as f64 / secs
    );
    // The breakdown comes from a second run with a clock around every part; the clock
    // slows that run, so its cost is said rather than hidden in the parts.
    outln!(
        "the same cases again with every part timed: {timed_secs:.2} s (the clock adds {:.0}%)",
        100.0 * (timed_secs / secs - 1.0)
    );
    let mut who: Vec<&str> = generators.iter().map(|g| g.name()).collect();
    who.push(ORACLE);
    let parts = parts_table(&bench, &who);
    floors(&bench, &generators);
    args.json.emit(|| OracleBenchDoc {
        seed: args.seed,
        cases: bench.cases,
        positions: bench.positions,
        seconds: secs,
        positions_per_second: bench.positions as f64 / secs,
        timed_seconds: timed_secs,
        parts,
    })?;
    Ok(Outcome::Agree)
}

/// Microseconds per position that `time` of the timed run comes to: the unit of every
/// cell of the oracle's table, so runs of different sizes read alike.
fn per_position(bench: &OracleBench, time: Duration) -> f64 {
    time.as_secs_f64() * 1e6 / bench.positions.max(1) as f64
}

/// The Markdown table of where the timed run's time went, by part (rows, in the order
/// of [`PARTS`], those no one spent time on left out) and by who did the work
/// (columns); returns the rows for the JSON document.
fn parts_table(bench: &OracleBench, who: &[&str]) -> Vec<OraclePart> {
    let per_pos = |d: Duration| per_position(bench, d);
    let total = bench.timings.total();
    let mut parts = Vec::new();
    outln!();
    outln!("µs per position, by part (rows) and by who does the work (columns):");
    outln!();
    outln!("| part | {} | all | share |", who.join(" | "));
    outln!("|---|{}---|---|", "---|".repeat(who.len()));
    for (part, what) in PARTS {
        let cells: Vec<Duration> = who
            .iter()
            .map(|w| {
                bench
                    .timings
                    .parts
                    .get(&(*w, part))
                    .copied()
                    .unwrap_or_default()
            })
            .collect();
        let row: Duration = cells.iter().sum();
        if row.is_zero() {
            continue;
        }
        let shown: Vec<String> = cells
            .iter()
            .map(|d| {
                if d.is_zero() {
                    "-".to_owned()
                } else {
                    format!("{:.1}", per_pos(*d))
                }
            })
            .collect();
        let share = row.as_secs_f64() / total.as_secs_f64().max(1e-12);
        outln!(
            "| {part} ({what}) | {} | {:.1} | {:.0}% |",
            shown.join(" | "),
            per_pos(row),
            100.0 * share
        );
        parts.push(OraclePart {
            part: part.to_owned(),
            description: what.to_owned(),
            microseconds_per_position: who
                .iter()
                .zip(&cells)
                .filter(|(_, d)| !d.is_zero())
                .map(|(w, d)| ((*w).to_owned(), per_pos(*d)))
                .collect(),
            share,
        });
    }
    let sums: Vec<String> = who
        .iter()
        .map(|w| format!("{:.1}", per_pos(bench.timings.of(w))))
        .collect();
    outln!(
        "| all | {} | {:.1} | 100% |",
        sums.join(" | "),
        per_pos(total)
    );
    parts
}

/// The rates no saving in the oracle's own work can pass: the slowest generator's own
/// work is a floor under a position's time, and the generators' work together another.
fn floors(bench: &OracleBench, generators: &[&dyn Generator]) {
    let per_pos = |d: Duration| per_position(bench, d);
    let total = bench.timings.total();
    let Some(slowest) = generators
        .iter()
        .map(|g| g.name())
        .max_by_key(|w| bench.timings.of(w))
    else {
        return;
    };
    let own = per_pos(bench.timings.of(slowest));
    outln!();
    outln!(
        "{slowest}'s own work is {own:.1} µs of the {:.1} µs a position takes ({:.0}%): \
         at most {:.0} positions/s on one thread however fast the rest is",
        per_pos(total),
        100.0 * own / per_pos(total).max(1e-9),
        1e6 / own.max(1e-9)
    );
    // And all of them together: what the oracle could reach if its own comparing,
    // validating and walking cost nothing.
    let all_own: f64 = generators
        .iter()
        .map(|g| per_pos(bench.timings.of(g.name())))
        .sum();
    outln!(
        "the generators' own work together is {all_own:.1} µs: at most {:.0} positions/s \
         on one thread if the oracle's own work were free",
        1e6 / all_own.max(1e-9)
    );
}

/// The start position and two middlegames from the reference suite, at published depths.
const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        5,
    ),
    (
        "middle-1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        5,
    ),
    (
        "middle-2",
        "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        5,
    ),
];

/// `value` to one decimal, or where that would read `0.0`, to two significant figures
/// (an engine that counts through its protocol may run at a few thousand nodes a
/// second, and `0.0` would say it counted nothing).
fn figures(value: f64) -> String {
    if value >= 0.95 || value == 0.0 || !value.is_finite() {
        return format!("{value:.1}");
    }
    let decimals = (1 - value.log10().floor() as i32).clamp(1, 9) as usize;
    format!("{value:.decimals$}")
}

/// A speed ratio, `2.9x` or `0.012x`, never `0.0x`.
fn times(ratio: f64) -> String {
    format!("{}x", figures(ratio))
}

/// Runs `xqdiff bench`.
pub(super) fn run(args: &BenchArgs) -> Result<Outcome, CliError> {
    if args.oracle {
        return oracle(args);
    }
    let generators = select_generator_list(&args.generator)?;
    let mut engine = start_engine(args)?;
    let pools = Pools {
        single: pool(1)?,
        all: pool(0)?,
    };
    let threads = pools.all.current_num_threads();
    outln!("| position | depth | nodes | generator | 1 thread (M nodes/s) | {threads} threads (M nodes/s) | 1 thread vs slowest |");
    outln!("|---|---|---|---|---|---|---|");
    let mut agree = true;
    let mut doc_rows = Vec::new();
    let mut engine_rows = Vec::new();
    // A bench takes from seconds to minutes: the bar says which count it is timing.
    let bar = Progress::new("bench", Unit::Positions);
    for (done, &(label, fen, depth)) in POSITIONS.iter().enumerate() {
        bar.update(done as u64, POSITIONS.len() as u64);
        let pos = Position::from_fen(fen)?;
        let depth = (depth + args.deeper).saturating_sub(args.shallower).max(1);
        let at = Case {
            label,
            pos: &pos,
            depth,
        };
        let (rows, threads_agree) = time_generators(&generators, &at, &pools, &bar);
        agree &= threads_agree;
        agree &= rows.iter().all(|r| r.1 == rows[0].1);
        let slowest = rows.iter().map(|r| r.2).fold(f64::INFINITY, f64::min);
        for &(name, nodes, one, many) in &rows {
            bar.print_plain(&format!(
                "| {label} | {depth} | {nodes} | {name} | {one:.1} | {many:.1} | {:.1}x |\n",
                one / slowest
            ));
            doc_rows.push(BenchRow {
                position: label.to_owned(),
                fen: fen.to_owned(),
                depth,
                generator: name.to_owned(),
                nodes,
                single_thread_mnps: one,
                all_threads_mnps: many,
            });
        }
        if let Some(engine) = engine.as_mut() {
            let row = time_engine(engine, &at, &rows, slowest, &bar)?;
            agree &= rows.iter().all(|r| r.1 == row.nodes);
            engine_rows.push(row);
        }
    }
    bar.finish();
    if let Some(engine) = &engine {
        print_ratios(&engine.name(), &engine_rows);
    }
    args.json.emit(|| BenchDoc {
        threads,
        rows: doc_rows,
        engine: engine.as_ref().map(|e| e.name()),
        engine_rows,
        agree,
    })?;
    if !agree {
        outln!("node counts DISAGREE between generators, thread counts or the engine");
        return Ok(Outcome::Disagree);
    }
    Ok(Outcome::Agree)
}

/// `--engine`: the engine started before any count is timed, so its start-up is not in
/// its rates, and named with what its times include.
fn start_engine(args: &BenchArgs) -> Result<Option<ExternalEngine>, CliError> {
    let Some(cmd) = &args.engine else {
        return Ok(None);
    };
    let config = args.engine_flags.config(cmd, "--engine")?;
    let engine = ExternalEngine::start(&config).map_err(|source| CliError::Engine {
        during: "start-up".into(),
        source,
    })?;
    outln!(
        "engine {} ({cmd}): timed from the question sent to the last count read",
        engine.name()
    );
    Ok(Some(engine))
}

/// The two pools a rate is measured on: one thread, and one per core.
struct Pools {
    single: rayon::ThreadPool,
    all: rayon::ThreadPool,
}

/// A position of the bench at the depth this run counts it to.
struct Case<'a> {
    label: &'static str,
    pos: &'a Position,
    depth: u32,
}

/// One generator's timing of a position: its name, the count, and the rates (M nodes/s)
/// on one thread and on all.
type Rates = (&'static str, u64, f64, f64);

/// Each generator's count of `at` timed on one thread and on all; the flag says whether
/// every generator's two counts were the same (a parallel count that differs from its
/// own serial one is a disagreement too).
fn time_generators(
    generators: &[&dyn Generator],
    at: &Case<'_>,
    pools: &Pools,
    bar: &Progress,
) -> (Vec<Rates>, bool) {
    let (pos, depth) = (at.pos, at.depth);
    let mut agree = true;
    let mut rows = Vec::new();
    for g in generators {
        bar.message(format!("{} depth {depth}: {}", at.label, g.name()));
        let t = Instant::now();
        let nodes = pools.single.install(|| g.perft(pos, depth));
        let one = nodes as f64 / t.elapsed().as_secs_f64() / 1e6;
        let t = Instant::now();
        let nodes_par = pools.all.install(|| g.perft_parallel(pos, depth, None));
        let many = nodes_par as f64 / t.elapsed().as_secs_f64() / 1e6;
        agree &= nodes == nodes_par;
        rows.push((g.name(), nodes, one, many));
    }
    (rows, agree)
}

/// The engine's own perft of `at`, timed and printed as a row of the table beside the
/// generators' `rows` (marked where its count differs from theirs), with how many times
/// its speed each generator counts at on one thread.
fn time_engine(
    engine: &mut ExternalEngine,
    at: &Case<'_>,
    rows: &[Rates],
    slowest: f64,
    bar: &Progress,
) -> Result<BenchEngineRow, CliError> {
    let (label, depth) = (at.label, at.depth);
    bar.message(format!("{label} depth {depth}: {}", engine.name()));
    let t = Instant::now();
    let got = engine
        .divide(at.pos, &[], depth)
        .map_err(|source| CliError::Engine {
            during: format!("perft {depth} of {label}"),
            source,
        })?;
    let seconds = t.elapsed().as_secs_f64().max(1e-9);
    let mnps = got.total as f64 / seconds / 1e6;
    let same = rows.iter().all(|r| r.1 == got.total);
    bar.print_plain(&format!(
        "| {label} | {depth} | {}{} | {} | {} | - | {} |\n",
        got.total,
        if same { "" } else { " (DIFFERS)" },
        engine.name(),
        figures(mnps),
        times(mnps / slowest)
    ));
    Ok(BenchEngineRow {
        position: label.to_owned(),
        depth,
        nodes: got.total,
        seconds,
        mnps,
        generators_vs_engine: rows
            .iter()
            .map(|&(name, _, one, _)| (name.to_owned(), one / mnps.max(1e-12)))
            .collect(),
    })
}

/// The number people ask for, after the table: how many times the engine's speed each
/// generator counts at on one thread, position by position.
fn print_ratios(engine: &str, engine_rows: &[BenchEngineRow]) {
    outln!();
    for row in engine_rows {
        let ratios: Vec<String> = row
            .generators_vs_engine
            .iter()
            .map(|(name, r)| format!("{name} {}", times(*r)))
            .collect();
        outln!(
            "{} perft({}), one thread against {engine} ({:.2} s): {}",
            row.position,
            row.depth,
            row.seconds,
            ratios.join(", ")
        );
    }
}

#[cfg(test)]
mod figure_tests {
    /// Each row: a value and how it is printed; nothing that is not zero reads `0.0`.
    #[test]
    fn small_values_keep_two_significant_figures() {
        for (value, shown) in [
            (2.94, "2.9"),
            (12.0, "12.0"),
            (0.96, "1.0"),
            (0.5, "0.50"),
            (0.0123, "0.012"),
            (0.0, "0.0"),
        ] {
            assert_eq!(super::figures(value), shown, "{value}");
        }
    }
}
