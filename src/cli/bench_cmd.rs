//! `xqdiff bench`: perft speed of every generator, one thread and all threads, printed as
//! a Markdown table. Rates in one table come from one run on one machine, so compare
//! them as ratios, not with numbers measured elsewhere.

use super::{pool, select_generators, CliError, Outcome};
use crate::position::Position;
use std::time::Instant;

/// Arguments of `xqdiff bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Which generator: a name, or `all`.
    #[arg(long, default_value = "all")]
    generator: String,
    /// Subtract this from every depth (1 makes a quick run, about 40 times shorter).
    #[arg(long, default_value_t = 0)]
    shallower: u32,
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

/// Runs `xqdiff bench`.
pub fn run(args: &BenchArgs) -> Result<Outcome, CliError> {
    let generators = select_generators(&args.generator)?;
    let single = pool(1)?;
    let all = pool(0)?;
    let threads = all.current_num_threads();
    println!("| position | depth | nodes | generator | 1 thread (M nodes/s) | {threads} threads (M nodes/s) | 1 thread vs slowest |");
    println!("|---|---|---|---|---|---|---|");
    let mut agree = true;
    for (label, fen, depth) in POSITIONS {
        let pos = Position::from_fen(fen)?;
        let depth = depth.saturating_sub(args.shallower).max(1);
        let mut rows = Vec::new();
        for g in &generators {
            let t = Instant::now();
            let nodes = single.install(|| g.perft(&pos, depth));
            let one = nodes as f64 / t.elapsed().as_secs_f64() / 1e6;
            let t = Instant::now();
            let nodes_par = all.install(|| g.perft_parallel(&pos, depth, None));
            let many = nodes_par as f64 / t.elapsed().as_secs_f64() / 1e6;
            agree &= nodes == nodes_par;
            rows.push((g.name(), nodes, one, many));
        }
        agree &= rows.iter().all(|r| r.1 == rows[0].1);
        let slowest = rows.iter().map(|r| r.2).fold(f64::INFINITY, f64::min);
        for (name, nodes, one, many) in rows {
            println!(
                "| {label} | {depth} | {nodes} | {name} | {one:.1} | {many:.1} | {:.1}x |",
                one / slowest
            );
        }
    }
    if !agree {
        println!("node counts DISAGREE between generators or thread counts");
        return Ok(Outcome::Disagree);
    }
    Ok(Outcome::Agree)
}
