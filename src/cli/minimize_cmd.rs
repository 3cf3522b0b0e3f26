//! `xqdiff minimize`: shrink a disagreeing position and save it to the corpus.

use super::json::report_of;
use super::out::outln;
use super::{corpus_source, save_dir, CliError, CorpusUse, Outcome};
use crate::diff::corpus::{write_case, Case};
use crate::diff::minimize::minimize_first;
use crate::generators::registry;
use crate::job::report::Dispute;
use crate::position::Position;
use std::path::PathBuf;

/// What the disagreement of a `--json` report was found by.
const MINIMIZE: &str = "minimize";

/// Arguments of `xqdiff minimize`.
#[derive(clap::Args, Debug)]
pub struct MinimizeArgs {
    /// The position on which the generators disagree.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "FEN",
        required_unless_present = "from_artifact",
        conflicts_with = "from_artifact"
    )]
    fen: Option<String>,
    /// A libFuzzer crash file of the `differential` target: its bytes are decoded by the
    /// same structured generator the target uses.
    #[arg(long, value_name = "FILE")]
    from_artifact: Option<PathBuf>,
    /// Directory the minimized case is written into, made if only its parent exists
    /// (default: the repository's corpus/, else nowhere: the built-in copy is read-only).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Print only; write nothing.
    #[arg(long)]
    no_save: bool,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// Runs `xqdiff minimize`.
pub fn run(args: &MinimizeArgs) -> Result<Outcome, CliError> {
    // Checked first: a typo in --corpus should not cost a minimization.
    let corpus = if args.no_save {
        None
    } else {
        Some(corpus_source(
            args.corpus.as_deref(),
            "--corpus",
            CorpusUse::Writes,
        )?)
    };
    let (pos, how) = match (&args.fen, &args.from_artifact) {
        (Some(fen), _) => (Position::from_fen(fen)?, "xqdiff minimize --fen".to_owned()),
        (None, Some(path)) => {
            // A fuzz artifact is a few kilobytes; the bound keeps /dev/zero out.
            let bytes =
                crate::files::read(path, crate::files::MIB).map_err(|source| CliError::Io {
                    path: path.clone(),
                    source,
                })?;
            (
                crate::cases::structured::from_bytes(&bytes),
                format!("libFuzzer artifact {}", path.display()),
            )
        }
        (None, None) => return Err(CliError::Usage("give --fen or --from-artifact".into())),
    };
    let engines = registry();
    outln!("position   {}", pos.fen());
    let Some((small, d)) = minimize_first(&pos, &engines) else {
        outln!(
            "all {} generators agree on this position: nothing to minimize",
            engines.len()
        );
        args.json.emit_report(&report_of(&engines))?;
        return Ok(Outcome::Agree);
    };
    outln!(
        "minimized  {}  ({} pieces)",
        small.fen(),
        small.pieces().count()
    );
    outln!("{d}");
    let mut dispute = Dispute::from_oracle(MINIMIZE, &d)
        .with_original(&pos.fen())
        .with_found_by(&how);
    if let Some(dir) = corpus.and_then(|c| save_dir(&c, false)) {
        let case = Case::from_disagreement(&d, &pos.fen(), &how)?;
        let (path, new) = write_case(&dir, &case).map_err(|source| CliError::Io {
            path: dir.clone(),
            source,
        })?;
        outln!(
            "{} {}",
            if new { "saved" } else { "already in corpus:" },
            path.display()
        );
        dispute = dispute.with_corpus_file(&path);
    }
    args.json.emit_report(&{
        let mut report = report_of(&engines);
        report.disagreements.push(dispute);
        report
    })?;
    Ok(Outcome::Disagree)
}
