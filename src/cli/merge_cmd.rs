//! `xqdiff merge`: shard results added up into one perft.

use super::out::{outln, rate};
use super::{CliError, Outcome};
use crate::job::split::merge::{merge, Merged, AGREED};
use std::path::PathBuf;

/// Arguments of `xqdiff merge`.
#[derive(clap::Args, Debug)]
pub(super) struct MergeArgs {
    /// The jobs file the shards ran (from `xqdiff perft --emit-jobs`).
    #[arg(long, value_name = "FILE")]
    jobs: PathBuf,
    /// The shards' result files.
    #[arg(value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// Accept several results per job (other generators, hash seeds, machines) and
    /// require at least N computations of every job, all agreeing; a count of each
    /// generator in a result line is one computation. A copy of a run's lines, or a rerun
    /// with the same generator, key seed and table, is refused (exit 2); what the
    /// computations share is said, and only those that share nothing are called
    /// independent.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    quorum: u64,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// Runs `xqdiff merge`: exit 0 when every job has one result (with --quorum K, K
/// computations) and they agree on each, 1 when they disagree, 2 when results are
/// missing (or short of the quorum), repeated, foreign, unreadable or do not match their
/// checks, or a total passes 2^64 - 1.
pub(super) fn run(args: &MergeArgs) -> Result<Outcome, CliError> {
    let merged = merge(&args.jobs, &args.results, args.quorum as usize)?;
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
    if m.quorum > 1 {
        outln!(
            "{} jobs ({} paths) cut at ply {}, each counted at least {} times in {} result files by: {}",
            h.jobs,
            h.paths.unwrap_or(h.jobs),
            h.split_depth,
            m.quorum,
            m.files,
            m.generators.join(", ")
        );
        // Agreement of computations that share a generator, a two-ply count or the
        // hashed perft's code is not independent confirmation: a bug there repeats.
        for line in &m.shared {
            outln!("shared: {line}");
        }
        let independence = if m.shared.is_empty() {
            "independent computations: they share no generator, two-ply count or table"
        } else {
            "NOT independent: the computations share what is said above"
        };
        outln!("{independence}");
        if m.agree() {
            let total = m.totals.get(AGREED).copied().unwrap_or(0);
            outln!("every computation of every job agrees: {total}");
            return;
        }
        print_disagreements(m);
        return;
    }
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
    print_disagreements(m);
}

fn print_disagreements(m: &Merged) {
    let who = if m.quorum > 1 {
        "computations"
    } else {
        "generators"
    };
    outln!("{who} DISAGREE on {} jobs:", m.disagreements.len());
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
