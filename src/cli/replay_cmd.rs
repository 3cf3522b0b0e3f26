//! `xqdiff replay`: every corpus case through the oracle.

use super::{CliError, Outcome};
use crate::corpus::replay;
use crate::generators::registry;
use std::path::PathBuf;

/// Arguments of `xqdiff replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The corpus directory.
    #[arg(default_value = "corpus")]
    dir: PathBuf,
}

/// Runs `xqdiff replay`: exit 1 if any case disagrees now, 2 if a file is damaged.
pub fn run(args: &ReplayArgs) -> Result<Outcome, CliError> {
    let engines = registry();
    let r = replay(&args.dir, &engines).map_err(|source| CliError::Io {
        path: args.dir.clone(),
        source,
    })?;
    for e in &r.damaged {
        eprintln!("xqdiff: skipped damaged corpus file: {e}");
    }
    for (path, found) in &r.failures {
        for d in found {
            println!("FAIL {}: {d}", path.display());
        }
    }
    for u in &r.unmet {
        println!("FAIL {u}");
    }
    println!(
        "replayed {} cases from {}: {} disagree, {} unmet expectations, {} damaged files skipped",
        r.replayed,
        args.dir.display(),
        r.failures.len(),
        r.unmet.len(),
        r.damaged.len()
    );
    if !r.failures.is_empty() || !r.unmet.is_empty() {
        Ok(Outcome::Disagree)
    } else if !r.damaged.is_empty() {
        Err(CliError::Usage(format!(
            "{} damaged corpus files (listed above)",
            r.damaged.len()
        )))
    } else {
        Ok(Outcome::Agree)
    }
}
