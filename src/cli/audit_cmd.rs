//! `xqdiff audit`: a random share of a split run's jobs counted again by a method that
//! shares nothing with the run's, and compared with what the run's results say.

use super::out::outln;
use super::session::Session;
use super::{signals, CliError, Outcome};
use crate::generators::perft_hash::{self, HashSize, Hashing, Keys, Table};
use crate::job::split::audit::{audit, Against, Audit};
use crate::job::split::SplitError;
use std::path::PathBuf;

/// Arguments of `xqdiff audit`.
#[derive(clap::Args, Debug)]
pub(super) struct AuditArgs {
    /// The jobs file of the run (from `xqdiff perft --emit-jobs`).
    #[arg(long, value_name = "FILE")]
    jobs: PathBuf,
    /// The run's result files; each sampled job's counts in them are compared with the
    /// recount.
    #[arg(value_name = "RESULTS")]
    results: Vec<PathBuf>,
    /// The share of the jobs to count again, N percent (`1` or `1%`; at least one job).
    #[arg(long, default_value_t = 1.0, value_name = "N",
          value_parser = parse_percent)]
    share: f64,
    /// The seed the sample is drawn with (default: from the clock, printed).
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,
    /// The generator that counts the sample again, without a table: by default
    /// `mailbox`, whose perft has no two-ply count of its own.
    #[arg(long, default_value = "mailbox", value_name = "NAME")]
    recount: String,
    /// Count each sampled job also by this generator now (through a table with
    /// --hash), when the run's results are not at hand or to compare with both.
    #[arg(long, value_name = "NAME")]
    against: Option<String>,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,
    /// With --against: count through a table of this size (256M, 1G).
    #[arg(long, value_name = "SIZE", requires = "against")]
    hash: Option<HashSize>,
    /// With --hash: the seed of the table's keys.
    #[arg(long, value_name = "SEED", requires = "hash", default_value_t = 1)]
    hash_seed: u64,
}

fn parse_percent(text: &str) -> Result<f64, String> {
    let t = text.trim().trim_end_matches('%');
    match t.parse::<f64>() {
        Ok(p) if p > 0.0 && p <= 100.0 => Ok(p),
        _ => Err(format!(
            "{text:?} is not a share in percent above 0 and at most 100"
        )),
    }
}

/// Runs `xqdiff audit`: exit 0 when every sampled job's recount equals each of its
/// other counts, 1 when one differs, 2 when a sampled job has nothing to compare with
/// (no result for it, no --against) or the files are wrong.
pub(super) fn run(args: &AuditArgs) -> Result<Outcome, CliError> {
    let recount = super::select_generators(&args.recount)?;
    let [recount] = recount[..] else {
        return Err(CliError::Usage("--recount takes one generator".into()));
    };
    let against = match &args.against {
        Some(name) => {
            let g = super::select_generators(name)?;
            let [g] = g[..] else {
                return Err(CliError::Usage("--against takes one generator".into()));
            };
            Some(g)
        }
        None => None,
    };
    if args.results.is_empty() && against.is_none() {
        return Err(CliError::Usage(
            "nothing to compare the recount with: give the run's result files, or --against".into(),
        ));
    }
    let seed = args.seed.unwrap_or_else(super::clock_seed);
    let table = match args.hash {
        Some(size) => {
            perft_hash::fits_in_memory(size, 1, perft_hash::memory_available())?;
            Some((Keys::new(args.hash_seed), Table::new(size)?))
        }
        None => None,
    };
    let against = against.map(|generator| Against {
        generator,
        hashing: table.as_ref().map(|(keys, table)| Hashing { keys, table }),
    });
    let Session { pool, stop } = Session::start(args.threads)?;
    let done = pool.install(|| {
        audit(
            &args.jobs,
            &args.results,
            args.share / 100.0,
            seed,
            recount,
            against.as_ref(),
            stop,
        )
    })?;
    let Some(done) = done else {
        let sig = signals::received().unwrap_or(signal_hook::consts::SIGINT);
        return Ok(Outcome::Interrupted(sig));
    };
    print(&done, recount.name());
    let unmatched = done.unmatched();
    if !unmatched.is_empty() {
        return Err(SplitError::Inconsistent {
            split: done.header.split,
            problems: crate::job::split::Problems(vec![crate::job::split::Problem::Missing {
                indices: unmatched,
                jobs: done.header.jobs,
                shards: None,
            }]),
        }
        .into());
    }
    Ok(if done.disagreements().is_empty() {
        Outcome::Agree
    } else {
        Outcome::Disagree
    })
}

fn print(a: &Audit, recount: &str) {
    let h = &a.header;
    outln!("split {}: perft {} of {}", h.split, h.depth, h.root);
    let jobs = a.sampled.len() as u64;
    outln!(
        "audit: {jobs} of {} jobs ({:.2}%), {} of {} paths ({:.2}%), sample seed {}",
        h.jobs,
        100.0 * jobs as f64 / h.jobs.max(1) as f64,
        a.sampled_paths,
        a.paths,
        100.0 * a.sampled_paths as f64 / a.paths.max(1) as f64,
        a.seed
    );
    outln!("recounted by {recount}, plain count, no table");
    let wrong = a.disagreements();
    for d in &wrong {
        let path: Vec<String> = d.path.iter().map(|m| m.to_string()).collect();
        let others: Vec<String> = d.others.iter().map(|(g, n)| format!("{g} {n}")).collect();
        outln!(
            "  job {} [{}] {} depth {}: {recount} {}, {}",
            d.index,
            path.join(" "),
            d.fen,
            d.depth,
            d.recount,
            others.join(", ")
        );
    }
    if wrong.is_empty() {
        let leaves: u128 = a
            .sampled
            .iter()
            .map(|s| u128::from(s.recount) * u128::from(s.weight))
            .sum();
        outln!(
            "every sampled job agrees with the recount: {} leaves through the sampled paths",
            leaves
        );
    } else {
        outln!("the recount DISAGREES on {} sampled jobs", wrong.len());
    }
}
