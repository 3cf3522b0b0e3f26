//! `xqdiff report`: renders a saved report again, as HTML or Markdown.

use super::out::errln;
use super::{CliError, Outcome};
use crate::job::report::{html, markdown, RenderOptions, Report};
use std::path::{Path, PathBuf};

/// Arguments of `xqdiff report`.
#[derive(clap::Args, Debug)]
pub(super) struct ReportArgs {
    /// The report to render, as written by a run (JSON, schema xqdiff-report/2 or 1).
    #[arg(long, value_name = "FILE")]
    from: PathBuf,
    #[command(flatten)]
    out: OutputArgs,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// Where a report goes besides its JSON; any command that makes a report can flatten
/// these into its own arguments.
#[derive(clap::Args, Debug, Clone, Default)]
pub(super) struct OutputArgs {
    /// Write the self-contained HTML page (board pictures, tables) to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Write the Markdown summary to FILE, or to stdout with `-` (for
    /// `>> $GITHUB_STEP_SUMMARY`).
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Latin FEN letters on the pieces instead of Chinese characters.
    #[arg(long)]
    pub latin: bool,
}

/// Runs `xqdiff report`: with neither `--html` nor `--markdown` the Markdown goes to
/// stdout, unless `--json` puts the report read there instead. It exits as the run
/// that wrote the report did: 0 passed, 1 failed, 2 error (or a file that cannot be
/// read as a report), 128 + the signal's number interrupted.
pub(super) fn run(args: &ReportArgs) -> Result<Outcome, CliError> {
    let text = super::read_input(&args.from, super::INPUT_LIMIT)?;
    let report = Report::from_json(&text).map_err(|source| CliError::Report {
        path: args.from.clone(),
        source,
    })?;
    let mut out = args.out.clone();
    if args.json.json && out.markdown.as_deref() == Some(Path::new("-")) {
        return Err(CliError::Usage(
            "--json and --markdown - both want stdout; give --markdown a file".into(),
        ));
    }
    if out.html.is_none() && out.markdown.is_none() && !args.json.json {
        out.markdown = Some(PathBuf::from("-"));
    }
    write_outputs(&report, &out)?;
    super::session::conclude(report, args.json)
}

/// Writes the HTML and Markdown `out` asks for, and says where on stderr (stdout may
/// be carrying the Markdown).
pub(crate) fn write_outputs(report: &Report, out: &OutputArgs) -> Result<(), CliError> {
    let opts = RenderOptions { latin: out.latin };
    if let Some(path) = &out.html {
        write(path, &html::render(report, &opts))?;
    }
    if let Some(path) = &out.markdown {
        write(path, &markdown::render(report))?;
    }
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<(), CliError> {
    super::write_output(path, text)?;
    if path.as_os_str() != "-" {
        errln!("xqdiff: wrote {}", super::out::path(path));
    }
    Ok(())
}
