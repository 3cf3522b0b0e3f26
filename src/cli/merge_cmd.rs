//! `xqdiff merge`: shard results added up into one perft.

use super::out::outln;
use super::split_cmd::rate;
use super::{CliError, Outcome};
use crate::job::split::merge::{merge, Merged};
use std::path::PathBuf;

/// Arguments of `xqdiff merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The jobs file the shards ran (from `xqdiff perft --emit-jobs`).
    #[arg(long, value_name = "FILE")]
    jobs: PathBuf,
    /// The shards' result files.
    #[arg(value_name = "RESULTS")]
    results: Vec<PathBuf>,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// Runs `xqdiff merge`: exit 0 when every job has one result and the generators agree on
/// each, 1 when they disagree, 2 when results are missing, repeated, foreign, unreadable
/// or do not match their checks, or a total passes 2^64 - 1.
pub fn run(args: &MergeArgs) -> Result<Outcome, CliError> {
    let merged = merge(&args.jobs, &args.results)?;
    if args.json.json {
        args.json.emit(|| merged.to_json())?;
    } else {
        print_text(&merged);
    }
    Ok(if merged.agree() {
        Outcome::Agree
    } else {
        Outcome::Disagree
    })
}

fn print_text(m: &Merged) {
    let h = &m.header;
    outln!("split {}: perft {} of {}", h.split, h.depth, h.root);
    outln!(
        "{} jobs cut at ply {} (moves above it agree in {}), each counted once in {} result files",
        h.jobs,
        h.split_depth,
        h.checked_by.join(", "),
        m.files
    );
    for g in &m.generators {
        let nodes = m.totals.get(g).copied().unwrap_or(0);
        let secs = m.seconds.get(g).copied().unwrap_or(0.0);
        outln!(
            "{g:<10} {nodes:>14} nodes {secs:>10.3} s in jobs  {}",
            rate(nodes, secs)
        );
    }
    if m.agree() {
        if m.generators.len() > 1 {
            let total = m.generators.first().and_then(|g| m.totals.get(g));
            outln!(
                "all {} generators agree: {}",
                m.generators.len(),
                total.copied().unwrap_or(0)
            );
        }
        return;
    }
    outln!("generators DISAGREE on {} jobs:", m.disagreements.len());
    for d in &m.disagreements {
        let path: Vec<String> = d.path.iter().map(|mv| mv.to_string()).collect();
        let counts: Vec<String> = d.counts.iter().map(|(g, n)| format!("{g} {n}")).collect();
        outln!(
            "  job {} [{}] {} depth {}: {}",
            d.index,
            path.join(" "),
            d.fen,
            d.depth,
            counts.join(", ")
        );
    }
    outln!("  (`xqdiff perft --fen FEN --depth N --divide` on a job shows where)");
}
