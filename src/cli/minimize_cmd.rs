//! `xqdiff minimize`: shrink a disagreeing position and save it to the corpus.

use super::json::report_of;
use super::out::{errln, outln};
use super::{corpus_source, save_dir, CliError, CorpusUse, Outcome};
use crate::diff::finding::book::{Findings, Settings};
use crate::diff::finding::naming::cause_lines;
use crate::diff::finding::provenance::Provenance;
use crate::diff::finding::sighting::Sighting;
use crate::diff::oracle::check_position_along;
use crate::generators::registry;
use crate::job::report::Dispute;
use crate::moves::Move;
use crate::position::Position;
use std::path::PathBuf;

/// What the disagreement of a `--json` report was found by.
const MINIMIZE: &str = "minimize";

/// Arguments of `xqdiff minimize`.
#[derive(clap::Args, Debug)]
pub(super) struct MinimizeArgs {
    /// The position on which the generators disagree.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "FEN",
        required_unless_present = "from_artifact",
        conflicts_with = "from_artifact"
    )]
    fen: Option<String>,
    /// Walk the boards along these moves (ICCS, space-separated) from the position, as
    /// a `walked-board` finding was found: a board that goes wrong only along a line.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    walk: Option<String>,
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

/// The position to minimize (`--fen`, or a fuzz artifact read as one) and the line of
/// moves to walk on it (`--walk`).
fn given(args: &MinimizeArgs) -> Result<(Position, Vec<Move>), CliError> {
    // Either way the finding's provenance is the position itself, which reproduces it
    // without the artifact file.
    let pos = match (&args.fen, &args.from_artifact) {
        (Some(fen), _) => Position::from_fen(fen)?,
        (None, Some(path)) => {
            // A fuzz artifact is a few kilobytes; the bound keeps /dev/zero out.
            let bytes = crate::files::read(path, crate::files::MIB).map_err(|source| {
                CliError::from(crate::files::FileError::Read {
                    path: path.clone(),
                    source,
                })
            })?;
            crate::cases::structured::from_bytes(&bytes)
        }
        (None, None) => return Err(CliError::Usage("give --fen or --from-artifact".into())),
    };
    let line = match &args.walk {
        Some(text) => text
            .split_whitespace()
            .map(|m| m.parse())
            .collect::<Result<Vec<Move>, _>>()
            .map_err(|e| CliError::Usage(format!("--walk: {e}")))?,
        None => Vec::new(),
    };
    Ok((pos, line))
}

/// Runs `xqdiff minimize`.
pub(super) fn run(args: &MinimizeArgs) -> Result<Outcome, CliError> {
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
    let (pos, line) = given(args)?;
    let engines = registry();
    outln!("position   {}", pos.fen());
    let walk = (!line.is_empty()).then_some(line.as_slice());
    let Some(first) = check_position_along(&pos, &engines, walk)
        .into_iter()
        .next()
    else {
        outln!(
            "all {} generators agree on this position: nothing to minimize",
            engines.len()
        );
        return super::session::conclude(report_of(&engines), args.json);
    };
    let mut findings = Findings::new(Settings {
        save: corpus.and_then(|c| save_dir(&c, false)),
        ..Settings::default()
    });
    let provenance = Provenance::position(&pos, &line);
    findings.record(
        vec![Sighting {
            order: 0,
            position: pos.clone(),
            disagreement: first,
            provenance,
            path: None,
            depth: None,
            after: Default::default(),
        }],
        &engines,
    );
    for e in &findings.write_errors {
        errln!("xqdiff: could not save the case: {e}");
    }
    // One sighting always makes one finding; without one there is nothing to say.
    let Some((f, among)) = findings.list().first().and_then(|f| Some((f, f.among()?))) else {
        return Ok(Outcome::Agree);
    };
    outln!(
        "minimized  {}  ({} pieces)",
        among.minimized.fen(),
        among.minimized.pieces().count()
    );
    outln!("{}", among.disagreement);
    outln!("signature  {}", f.signature);
    for line in cause_lines(f.diagnosis.as_ref()) {
        outln!("{line}");
    }
    if let Some(path) = &f.file {
        outln!("saved      {}", super::out::path(path));
    }
    for line in among.origin.provenance.lines() {
        outln!("{line}");
    }
    let mut report = report_of(&engines);
    report
        .disagreements
        .push(Dispute::from_finding(MINIMIZE, f));
    super::session::conclude(report, args.json)
}
