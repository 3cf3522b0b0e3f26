//! `--json`: a command's summary as one JSON document on stdout instead of its text.
//!
//! A command that checks something (perft, replay, fuzz, minimize, engine, check,
//! report) prints a correctness report (`docs/report-schema.md`), the document
//! `xqdiff check` writes to report.json, holding only what that command ran; `moves`
//! and `bench`, which list or measure, print the shapes below; `merge` prints its
//! totals. The human lines are dropped where every line is printed ([`super::out`]), so
//! a command only says what its document is; progress bars and errors stay on stderr,
//! and the exit code is the one the text run would give.

use super::out;
use super::CliError;
use crate::generators::face::Generator;
use crate::job::report::{DisputedMove, GeneratorInfo, Report};
use serde::Serialize;
use std::collections::BTreeMap;

/// The `--json` flag, the same on every command that prints a summary.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub(crate) struct JsonArg {
    /// Print the summary as one JSON document on stdout instead of text (progress and
    /// errors stay on stderr; the exit code is the same).
    #[arg(long)]
    pub json: bool,
}

impl JsonArg {
    /// Prints the document `doc` makes, when `--json` was given.
    pub(crate) fn emit<T: Serialize>(self, doc: impl FnOnce() -> T) -> Result<(), CliError> {
        if !self.json {
            return Ok(());
        }
        let text = serde_json::to_string_pretty(&doc())
            .map_err(|e| CliError::Usage(format!("cannot write the summary as JSON: {e}")))?;
        out::document(format_args!("{text}\n"));
        Ok(())
    }

    /// Prints `report` as report.json holds it, with its status (see [`JsonArg::emit`]);
    /// commands reach it through [`super::conclude`], which records the signal that
    /// stopped them first.
    pub(crate) fn emit_report(self, report: &Report) -> Result<(), CliError> {
        if !self.json {
            return Ok(());
        }
        let text = report
            .to_json()
            .map_err(|e| CliError::Usage(format!("cannot write the report as JSON: {e}")))?;
        let end = if text.ends_with('\n') { "" } else { "\n" };
        out::document(format_args!("{text}{end}"));
        Ok(())
    }
}

/// An empty report of a run of this command line on `generators`, for a command's phase.
pub(crate) fn report_of(generators: &[&dyn Generator]) -> Report {
    let mut report = Report::new();
    report.command = Some(command_line());
    report.generators = GeneratorInfo::list(generators);
    report
}

/// The command line as typed, for the report (an argument that is not UTF-8 shown with
/// U+FFFD where it is not: `std::env::args` would panic on it).
pub(crate) fn command_line() -> String {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    quoted(&args)
}

/// `words` quoted as a shell reads them, by the rules `--cmd` is split with, so a
/// recorded command line splits back into the same words.
fn quoted(words: &[String]) -> String {
    // Only a NUL cannot be quoted, and no argument of a process can hold one.
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

/// `xqdiff moves --json`: each generator's legal moves, and every move only some list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct MovesDoc {
    /// The position, as FEN.
    pub fen: String,
    /// One entry per generator, in registry order.
    pub generators: Vec<GeneratorMoves>,
    /// Whether the generators agree on whether the side to move is in check.
    pub check_agrees: bool,
    /// Each move some generators list and others do not, with the ones that do.
    pub differences: Vec<DisputedMove>,
    /// Whether every generator gave the same answer.
    pub agree: bool,
}

/// One generator's answer in a [`MovesDoc`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct GeneratorMoves {
    /// The generator.
    pub name: String,
    /// Whether it sees the side to move in check.
    pub in_check: bool,
    /// Its legal moves in ICCS, sorted.
    pub legal: Vec<String>,
}

/// `xqdiff bench --json`: perft speed of each generator on each position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct BenchDoc {
    /// Workers of the all-threads run.
    pub threads: usize,
    /// One row per position and generator.
    pub rows: Vec<BenchRow>,
    /// The engine timed beside the generators (`--engine`), by the name it gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The engine's perft of each position, with `--engine`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub engine_rows: Vec<BenchEngineRow>,
    /// Whether every generator, both thread counts and the engine gave the same node
    /// counts.
    pub agree: bool,
}

/// The engine's perft of one position in a [`BenchDoc`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct BenchEngineRow {
    /// The position's name.
    pub position: String,
    /// The perft depth.
    pub depth: u32,
    /// The engine's count.
    pub nodes: u64,
    /// From the question sent to the last count read.
    pub seconds: f64,
    /// Millions of nodes per second.
    pub mnps: f64,
    /// Each generator's one-thread speed over the engine's.
    pub generators_vs_engine: std::collections::BTreeMap<String, f64>,
}

/// One generator on one position in a [`BenchDoc`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct BenchRow {
    /// The position's name.
    pub position: String,
    /// Its FEN.
    pub fen: String,
    /// The perft depth.
    pub depth: u32,
    /// The generator.
    pub generator: String,
    /// Leaf nodes counted on one thread.
    pub nodes: u64,
    /// Millions of nodes per second on one thread.
    pub single_thread_mnps: f64,
    /// Millions of nodes per second on all threads.
    pub all_threads_mnps: f64,
}

/// `xqdiff bench --oracle --json`: where one thread's time goes in the oracle.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct OracleBenchDoc {
    /// Seed of the fuzz cases.
    pub seed: u64,
    /// Fuzz cases run.
    pub cases: u64,
    /// Positions checked.
    pub positions: u64,
    /// Wall time on one thread.
    pub seconds: f64,
    /// Positions checked per second.
    pub positions_per_second: f64,
    /// Wall time of the second, timed run the parts come from.
    pub timed_seconds: f64,
    /// The parts of the work, in the text table's order (parts that took no time left
    /// out).
    pub parts: Vec<OraclePart>,
}

/// One part of the oracle's work in an [`OracleBenchDoc`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct OraclePart {
    /// Its short name.
    pub part: String,
    /// What it covers.
    pub description: String,
    /// Microseconds per position, by who did the work (a generator, or the oracle).
    pub microseconds_per_position: BTreeMap<String, f64>,
    /// Its share of the whole time, 0 to 1.
    pub share: f64,
}

#[cfg(test)]
mod tests {
    use super::quoted;
    use crate::subject::external::split_command;

    /// A recorded command line splits back into the words it was made of.
    #[test]
    fn a_quoted_command_line_splits_back_into_its_words() {
        let table: &[&[&str]] = &[
            &["xqdiff", "perft", "--depth", "3"],
            &[
                "xqdiff",
                "perft",
                "--fen",
                "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
            ],
            &["xqdiff", "engine", "--cmd", "sjaakii -xboard 'x y'"],
            &["xqdiff", "check", "--report-dir", "it's \"here\" $HOME"],
            &["xqdiff", "minimize", "--corpus", ""],
            &["xqdiff", "fuzz", "--known", "#not-a-comment"],
        ];
        for words in table {
            let words: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
            let line = quoted(&words);
            assert_eq!(split_command(&line).as_ref(), Ok(&words), "{line}");
        }
    }
}
