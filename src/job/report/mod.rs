//! The correctness report: what a run checked, how long it took, and every disagreement
//! it found, as one value that renders to JSON (for machines), a self-contained HTML page
//! with board pictures (for people) and Markdown (for a CI job summary).
//!
//! The model holds plain strings and numbers, not the library's types: a report read
//! back from a file years later must parse even if a FEN in it no longer validates, and
//! the JSON is a published format (`docs/report-schema.md`) that must not change shape
//! when an internal type does. `convert` fills it from the oracle, the fuzz campaign,
//! the corpus replay and perft descent.

pub(crate) mod convert;
mod glyphs;
pub(crate) mod html;
pub(crate) mod markdown;
mod subject_dispute;
mod svg;
mod time;

use crate::diff::finding::provenance::Provenance;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

pub(crate) use time::duration;
pub(crate) use time::utc_now;

/// The schema this build writes. The number after the slash is bumped when a field is
/// removed, renamed or changes meaning, or gains a value an older reader would reject
/// (version 2 added the status `interrupted`); adding an optional field does not bump
/// it (readers ignore fields they do not know).
pub(crate) const SCHEMA: &str = "xqdiff-report/2";

/// Every schema this build reads: its own, and version 1, every document of which is
/// a version 2 document that happens not to use what 2 added.
pub(crate) const READS: [&str; 2] = [SCHEMA, "xqdiff-report/1"];

/// Why a report could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ReportError {
    /// Not JSON at all.
    #[error("not JSON: {0}")]
    Syntax(serde_json::Error),
    /// JSON without a `schema` string at the top.
    #[error(
        "no \"schema\" string at the top: not an xqdiff report (expected \"schema\": \"{SCHEMA}\")"
    )]
    MissingSchema,
    /// An xqdiff report of another schema version.
    #[error("schema {found:?} is not supported by this xqdiff, which reads {SCHEMA:?} and \"xqdiff-report/1\"")]
    UnsupportedVersion {
        /// The version the file declares.
        found: String,
    },
    /// JSON with some other schema.
    #[error("schema {found:?} is not an xqdiff report (expected {SCHEMA:?})")]
    OtherSchema {
        /// The schema the file declares.
        found: String,
    },
    /// The right schema, but a field is missing or of the wrong type.
    #[error("does not match {SCHEMA}: {0}")]
    Shape(serde_json::Error),
    /// The right shape, but a value no run writes: a reader must not render it or exit
    /// by it.
    #[error("field {field}: {why}")]
    Invalid {
        /// Where it is (`signal`, `phases[2].seconds`).
        field: String,
        /// What is wrong with it.
        why: String,
    },
    /// Serializing failed (a map with non-string keys; cannot happen for this model).
    #[error("cannot serialize the report: {0}")]
    Serialize(serde_json::Error),
}

/// One correctness report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Report {
    /// Always `SCHEMA` when written by this build.
    pub(crate) schema: String,
    /// The program that wrote the report.
    pub(crate) tool: Tool,
    /// When the run started, RFC 3339 UTC (`2026-11-30T14:55:00Z`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) created: Option<String>,
    /// The command line of the run, for reproducing it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) command: Option<String>,
    /// The seed every random choice of the run derives from. Written as a string:
    /// seeds above 2^53 would be rounded by `jq` and JavaScript as a JSON number, and a
    /// replay with the rounded seed is another run. A number is still read.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "seed_text")]
    pub(crate) seed: Option<u64>,
    /// The in-process generators compared.
    #[serde(default)]
    pub(crate) generators: Vec<GeneratorInfo>,
    /// The external engines checked.
    #[serde(default)]
    pub(crate) engines: Vec<EngineInfo>,
    /// What the run did, in order.
    #[serde(default)]
    pub(crate) phases: Vec<Phase>,
    /// Every disagreement found, in the order found.
    #[serde(default)]
    pub(crate) disagreements: Vec<Dispute>,
    /// The number of the signal that stopped the run (2 for SIGINT, 15 for SIGTERM), so
    /// that a reader of the report ends as the run did: 128 plus it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) signal: Option<i32>,
    /// The status a report read back states, where it is not what the rest of it says:
    /// it counts as one more phase that ended so ([`Report::status`]), so a report that
    /// says it failed, errored or was interrupted is never taken for a pass. Not
    /// written as such: the written `status` is [`Report::status`].
    #[serde(skip)]
    pub(crate) stated: Option<Status>,
}

/// The program that wrote a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Tool {
    /// `xqdiff`.
    pub(crate) name: String,
    /// Its version, from Cargo.toml.
    pub(crate) version: String,
}

impl Tool {
    /// This build of xqdiff.
    pub(crate) fn this() -> Tool {
        Tool {
            name: env!("CARGO_PKG_NAME").to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

/// A move generator that ran in-process.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GeneratorInfo {
    /// The name reports and corpus files use (`mailbox`).
    pub(crate) name: String,
    /// A version, where the generator has its own; built-ins share the tool's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) version: Option<String>,
}

/// An external engine, driven over a pipe.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EngineInfo {
    /// The name it gave (`id name` or `myname`), else the program's.
    pub(crate) name: String,
    /// The command line it was started with.
    pub(crate) command: String,
    /// `uci`, `ucci` or `xboard`.
    pub(crate) protocol: String,
    /// Options sent after the handshake, in the order sent (an engine may care).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) options: Vec<EngineOption>,
    /// Under king-capture rules (`--rules king-capture`), the moves into check set
    /// aside before its lists were compared; absent under the legal rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) set_aside: Option<SetAsideInfo>,
}

/// The moves into check a king-capture subject listed, set aside before comparing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SetAsideInfo {
    /// Moves set aside, over every list.
    pub(crate) moves: u64,
    /// Lists that held at least one.
    pub(crate) positions: u64,
    /// Lists read in all.
    pub(crate) lists: u64,
    /// The moves into check those positions have, listed or not.
    #[serde(default)]
    pub(crate) available: u64,
    /// The first few set aside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) examples: Vec<SetAsideExample>,
}

/// One move set aside, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SetAsideExample {
    /// The position.
    pub(crate) fen: String,
    /// The move, in ICCS.
    #[serde(rename = "move")]
    pub(crate) mv: String,
}

/// One option sent to an engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EngineOption {
    /// Its name.
    pub(crate) name: String,
    /// The value sent.
    pub(crate) value: String,
}

/// How a phase, or the whole run, ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Status {
    /// Everything agreed.
    Passed,
    /// Something disagreed, or a count missed its expected value.
    Failed,
    /// The phase could not run to the end (an engine that could not be driven, a
    /// corpus that could not be read); its message says why.
    Error,
    /// Not run because it was not asked for (the engine phase without an engine).
    Skipped,
    /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP) before it finished, or never
    /// started because of one; its message says which.
    Interrupted,
}

impl Status {
    /// The lower-case word used in JSON and as a CSS class.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Error => "error",
            Status::Skipped => "skipped",
            Status::Interrupted => "interrupted",
        }
    }
}

/// One part of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Phase {
    /// What it is called in the report (`reference perft`, `fuzz`).
    pub(crate) name: String,
    /// How it ended.
    pub(crate) status: Status,
    /// Wall time, in seconds.
    pub(crate) seconds: f64,
    /// Why it errored or was skipped, or anything else a reader should know.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    /// Its numbers; `None` for a phase that never started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) details: Option<PhaseDetails>,
}

/// The numbers of one phase, by kind of phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum PhaseDetails {
    /// Perft counts per position, depth and generator.
    Perft(PerftPhase),
    /// The regression corpus through the oracle.
    Replay(ReplayPhase),
    /// A fuzz campaign.
    Fuzz(FuzzPhase),
    /// Mirror and colour-swap checks.
    Metamorphic(MetamorphicPhase),
    /// An external engine against the built-in generators' consensus.
    Engine(EnginePhase),
}

/// Perft counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct PerftPhase {
    /// One row per position and depth.
    pub(crate) rows: Vec<PerftRow>,
}

/// One position at one depth, counted by every generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct PerftRow {
    /// The position's label (`start`, an EPD `id`).
    pub(crate) position: String,
    /// The position.
    pub(crate) fen: String,
    /// The depth.
    pub(crate) depth: u32,
    /// The published count, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) expected: Option<u64>,
    /// Each generator's answer, in registry order.
    pub(crate) results: Vec<PerftResult>,
    /// Whether the difference the row shows is a known bug (`--known`): reported, not
    /// failed on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) known: bool,
}

impl PerftRow {
    /// Whether every generator answered, all with the same count, and that count is
    /// the expected one where there is one.
    pub(crate) fn agrees(&self) -> bool {
        let Some(first) = self.results.first().and_then(|r| r.nodes) else {
            return false;
        };
        self.results.iter().all(|r| r.nodes == Some(first))
            && self.expected.is_none_or(|e| e == first)
    }

    /// Whether `result` is a count that differs from the expected one, or (with
    /// nothing expected) from the majority of the row.
    pub(crate) fn is_off(&self, result: &PerftResult) -> bool {
        let Some(nodes) = result.nodes else {
            return true;
        };
        match self.expected.or_else(|| self.majority()) {
            Some(want) => nodes != want,
            None => false,
        }
    }

    /// The count more than half the generators gave, if any.
    fn majority(&self) -> Option<u64> {
        let mut tally: BTreeMap<u64, usize> = BTreeMap::new();
        for n in self.results.iter().filter_map(|r| r.nodes) {
            *tally.entry(n).or_default() += 1;
        }
        tally
            .into_iter()
            .find(|&(_, c)| 2 * c > self.results.len())
            .map(|(n, _)| n)
    }
}

/// One generator's perft answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct PerftResult {
    /// The generator or engine.
    pub(crate) subject: String,
    /// Its count; `None` when it gave no answer (see `error`).
    pub(crate) nodes: Option<u64>,
    /// How long it took, in seconds.
    pub(crate) seconds: f64,
    /// Why there is no count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// The count below each root move, when the run was asked for its divide
    /// (`xqdiff perft --divide`), in ICCS order; empty where there is no legal move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) divide: Option<Vec<DivideCount>>,
}

/// One root move of a divide and the count below it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DivideCount {
    /// The move, in ICCS.
    #[serde(rename = "move")]
    pub(crate) mv: String,
    /// The perft count below it.
    pub(crate) nodes: u64,
}

impl PerftResult {
    /// Nodes per second, when there is a count and a measurable time.
    pub(crate) fn nodes_per_second(&self) -> Option<f64> {
        let n = self.nodes?;
        (self.seconds > 0.0).then(|| n as f64 / self.seconds)
    }
}

/// The regression corpus, replayed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReplayPhase {
    /// The corpus directory, or `built-in` for the copy compiled into the program.
    pub(crate) dir: String,
    /// Whether the corpus was the built-in copy (then `dir` names no directory).
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) built_in: bool,
    /// Cases put through the oracle.
    pub(crate) cases: u64,
    /// The file name of every case put through the oracle, in the order replayed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) files: Vec<String>,
    /// Cases on which the generators disagree now.
    pub(crate) failures: Vec<ReplayFailure>,
    /// Hand-written expectations some generator misses, one sentence each.
    #[serde(default)]
    pub(crate) unmet: Vec<String>,
    /// Unmet expectations that are a known bug's (`--known`): the case fails by that
    /// bug, and the generator that misses it is the bug's odd one out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) known_unmet: Vec<String>,
    /// Files that could not be read, each with what is wrong.
    #[serde(default)]
    pub(crate) damaged: Vec<String>,
}

/// A corpus case that fails now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReplayFailure {
    /// The case file.
    pub(crate) file: String,
    /// The checks that disagree on it (`legal`, `mirror`).
    pub(crate) checks: Vec<String>,
    /// Whether what it shows is a known bug (`--known`): reported, not failed on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) known: bool,
}

/// A fuzz campaign's numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct FuzzPhase {
    /// Cases run.
    pub(crate) cases: u64,
    /// Positions put through the oracle (a playout case checks every ply).
    pub(crate) positions: u64,
    /// Cases per second of wall time.
    pub(crate) cases_per_second: f64,
    /// Positions per second of wall time.
    pub(crate) positions_per_second: f64,
    /// Distinct disagreements found that are not known bugs (each is in the report's
    /// `disagreements`).
    pub(crate) findings: u64,
    /// Distinct disagreements found that `--known` lists (also in `disagreements`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) known: u64,
    /// Whether it was stopped early by a signal (Ctrl-C).
    #[serde(default)]
    pub(crate) interrupted: bool,
    /// Corpus files that could not be written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) write_errors: Vec<String>,
    /// How often the positions reached each rare feature.
    pub(crate) coverage: CoverageTable,
}

/// How many positions of a run had each rare feature (see `features::Feature`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CoverageTable {
    /// Positions counted.
    pub(crate) total: u64,
    /// One row per feature, in the feature table's order.
    pub(crate) features: Vec<FeatureCount>,
    /// One row per kind of piece of each side: which points it may stand on were reached.
    /// Absent from reports written before it was counted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) points: Vec<PointCount>,
}

impl CoverageTable {
    /// The features no position had.
    #[cfg(test)]
    pub(crate) fn missing(&self) -> impl Iterator<Item = &FeatureCount> {
        self.features.iter().filter(|f| f.positions == 0)
    }

    /// The kinds of piece with a point no position had them on.
    #[cfg(test)]
    pub(crate) fn missing_points(&self) -> impl Iterator<Item = &PointCount> {
        self.points.iter().filter(|p| p.reached < p.points)
    }
}

/// Which of the points one kind of piece may stand on a run's positions had it on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PointCount {
    /// Colour and kind (`red_advisor`).
    pub(crate) piece: String,
    /// How many points it may stand on.
    pub(crate) points: u64,
    /// How many of them some position had it on.
    pub(crate) reached: u64,
    /// How many positions had it on the point it stood on least often: 0 when some
    /// point was never reached.
    pub(crate) fewest: u64,
    /// That point (`d0`).
    pub(crate) fewest_at: String,
}

/// One row of a coverage table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FeatureCount {
    /// The feature's name (`cannon_screen`).
    pub(crate) feature: String,
    /// Positions that had it.
    pub(crate) positions: u64,
}

impl FeatureCount {
    /// Share of `total` positions, in percent.
    pub(crate) fn percent(&self, total: u64) -> f64 {
        if total == 0 {
            0.0
        } else {
            100.0 * self.positions as f64 / total as f64
        }
    }
}

/// Mirror and colour-swap checks over a set of positions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct MetamorphicPhase {
    /// Positions checked.
    pub(crate) positions: u64,
    /// The transforms applied (`mirror`, `color-swap`).
    pub(crate) transforms: Vec<String>,
    /// Failed checks on the positions, known bugs' left out.
    pub(crate) failures: u64,
    /// Failed checks that are known bugs' (`--known`): reported, not failed on.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) known: u64,
}

/// An external engine compared with the built-in generators' consensus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct EnginePhase {
    /// The engine's name, as in the report's `engines`.
    pub(crate) engine: String,
    /// The deepest perft asked.
    pub(crate) depth: u32,
    /// Positions tried.
    pub(crate) positions: u64,
    /// Leaf nodes compared, summed over positions.
    pub(crate) nodes: u64,
    /// Differences found (each is in the report's `disagreements`).
    pub(crate) findings: u64,
    /// Positions every built-in counted (the others only the fastest, which agreed).
    #[serde(default)]
    pub(crate) confirmed: u64,
    /// Seconds the engine spent answering, summed over positions.
    #[serde(default)]
    pub(crate) subject_seconds: f64,
    /// Seconds the built-ins spent counting, summed over positions.
    #[serde(default)]
    pub(crate) builtins_seconds: f64,
    /// Positions checked per second of the whole run.
    #[serde(default)]
    pub(crate) positions_per_second: f64,
    /// One row per position tried.
    #[serde(default)]
    pub(crate) rows: Vec<EngineRow>,
    /// The positions made as the run went, for a run given a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) fresh: Option<FreshPositions>,
}

/// The positions a timed engine check made as it went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct FreshPositions {
    /// How many.
    pub(crate) positions: u64,
    /// Milliseconds each took to make, on average.
    pub(crate) ms_each: f64,
    /// How often they reached each rare feature.
    pub(crate) coverage: CoverageTable,
}

/// One position tried on an external engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct EngineRow {
    /// The position's label.
    pub(crate) position: String,
    /// The position.
    pub(crate) fen: String,
    /// The depth.
    pub(crate) depth: u32,
    /// The built-in generators' count.
    pub(crate) consensus: u64,
    /// The engine's count; `None` when it gave none (see `error`).
    pub(crate) subject: Option<u64>,
    /// The engine's time, in seconds.
    pub(crate) seconds: f64,
    /// Why there is no count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) error: Option<String>,
    /// Whether the engine's count is off by a known bug (`--known`): reported, not
    /// failed on.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(crate) known: bool,
}

/// One disagreement, as a reader needs it: where, what, who, and how to get there again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Dispute {
    /// The phase that found it.
    pub(crate) phase: String,
    /// What was compared: an oracle check (`legal`, `pseudo-legal`, `mirror`, ...,
    /// `oracle::CheckKind::as_str`) or `perft` for counts that differ.
    pub(crate) check: String,
    /// The position to look at: minimized when the minimizer ran.
    pub(crate) fen: String,
    /// The position it was first found on, when that is not `fen`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) original_fen: Option<String>,
    /// The position `moves` are moves of, when not `fen`: the mirror and colour-swap
    /// checks list moves on the transformed position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) moves_fen: Option<String>,
    /// The generators or engines compared.
    pub(crate) generators: Vec<String>,
    /// The one that differs from all others, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) odd_one_out: Option<String>,
    /// The moves not all of them have (or, for perft, whose counts differ).
    #[serde(default)]
    pub(crate) moves: Vec<DisputedMove>,
    /// How the position was reached, when found by walking down from a root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) path: Option<FoundPath>,
    /// For `walked-board`: the moves made from `fen` on one board, never reloaded,
    /// before it answered differently from a freshly loaded board.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) line: Vec<String>,
    /// Perft totals at `fen`, per generator or engine, when counts were compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) perft: Option<PerftTotals>,
    /// The corpus file it was saved to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) corpus_file: Option<String>,
    /// How to find it again: the one command (`xqdiff minimize --fen ...`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) found_by: Option<String>,
    /// Everything "Reproduce with:" says: the command, the witness in the subject's
    /// own protocol, the built-ins' answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) reproduce: Option<Reproduce>,
    /// Which bug (`pseudo-legal/planted/extra-horse-leg`), when the finding has one:
    /// the same text `--known` files list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) signature: Option<String>,
    /// How many positions showed the same bug, when counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hits: Option<u64>,
    /// Whether the signature is a known bug (`--known`): reported, but not a failure.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) known: bool,
    /// Which misreading of the rules explains it, when it was diagnosed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) diagnosis: Option<ReportedCause>,
    /// One sentence on what differs.
    pub(crate) detail: String,
}

/// How to see a finding again, as its "Reproduce with:" block says it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Reproduce {
    /// The xqdiff command that finds it again, run as printed (the same as
    /// `found_by`).
    pub(crate) command: String,
    /// The witness as the lines a user types into the subject (its handshake and
    /// options first), when the subject is a program outside xqdiff.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) subject_lines: Vec<String>,
    /// The command that lists the built-in generators' answer on the witness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) answer: Option<String>,
}

impl Reproduce {
    /// What `how` says.
    pub(crate) fn of(how: &Provenance) -> Reproduce {
        Reproduce {
            command: how.to_string(),
            subject_lines: how.subject_lines().to_vec(),
            answer: how.answer(),
        }
    }

    /// The block under its heading, one line each, as a code block shows it.
    pub(crate) fn body(&self) -> Vec<String> {
        let lines = crate::diff::finding::provenance::reproduce_lines(
            &self.command,
            &self.subject_lines,
            self.answer.as_deref(),
        );
        lines
            .iter()
            .skip(1)
            .map(|l| l.strip_prefix("  ").unwrap_or(l).to_owned())
            .collect()
    }
}

/// What the diagnosis of a disagreement said: the rule variants that reproduce the odd
/// one's answers (`docs/variants.md`), or none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReportedCause {
    /// The explaining variants' names, the one the signature names first; empty when
    /// nothing in the catalogue explains it.
    pub(crate) variants: Vec<String>,
    /// The first variant's sentence (`a cannon also captures over two screens`), or
    /// the sentence for a move the subject lists twice; absent when unexplained.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) sentence: Option<String>,
    /// How many of the positions diagnosed the first variant reproduces ...
    pub(crate) explained: usize,
    /// ... of how many (the witnesses and the deciding positions the subject was asked
    /// about).
    pub(crate) witnesses: usize,
    /// How many of those positions the subject was asked about to confirm the first
    /// variant (its own example and its images, images of the witness, positions next
    /// to it), each one that could have refuted it; 0 when none could be asked (a
    /// report written before the count was kept reads as 0).
    #[serde(default)]
    pub(crate) confirmed: usize,
    /// The cause of another finding that shows beside the first variant on some
    /// witnesses (the subject has both bugs); absent when the first variant explains
    /// them alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) beside: Option<String>,
}

impl ReportedCause {
    /// A diagnosis as the report carries it.
    pub(crate) fn of(d: &crate::diagnose::Diagnosis) -> ReportedCause {
        let first = d.causes.first();
        ReportedCause {
            variants: d
                .causes
                .iter()
                .map(|c| c.variant.name().to_owned())
                .collect(),
            sentence: d
                .fault_sentence()
                .or_else(|| first.map(|c| c.variant.sentence().to_owned())),
            explained: first.map_or(0, |c| c.explains),
            witnesses: first.map_or(0, |c| c.of),
            confirmed: first.map_or(0, |c| c.confirmed),
            beside: first.and_then(|c| c.beside).map(|v| v.name().to_owned()),
        }
    }

    /// The cause as one line of text: the sentence with the variants and the count, or
    /// `unexplained`.
    pub(crate) fn line(&self) -> String {
        match &self.sentence {
            Some(sentence) if self.variants.is_empty() => sentence.clone(),
            Some(sentence) => format!(
                "{sentence} (variant {}, explains {} of {} witnesses{}{})",
                self.variants.join(", "),
                self.explained,
                self.witnesses,
                match self.confirmed {
                    0 => String::new(),
                    1 => ", confirmed on 1 position asked".to_owned(),
                    n => format!(", confirmed on {n} positions asked"),
                },
                self.beside
                    .as_ref()
                    .map_or_else(String::new, |b| format!(", with {b} beside it"))
            ),
            None => "unexplained".to_owned(),
        }
    }
}

/// A move not every generator has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DisputedMove {
    /// The move, ICCS (`h2e2`).
    #[serde(rename = "move")]
    pub(crate) mv: String,
    /// The generators that have it; the others lack it. `symmetry` stands for "the
    /// mirrored or colour-swapped position says it should be there".
    pub(crate) has: Vec<String>,
    /// Perft counts below the move, per generator, when counts were compared.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) counts: BTreeMap<String, u64>,
    /// For a move someone lists more than once: how many times each generator or
    /// engine named here lists it. Empty for a move that is only had or lacked.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) listed: BTreeMap<String, u32>,
}

impl DisputedMove {
    /// Whether the dispute is that someone lists it more than once.
    fn listed_twice(&self) -> bool {
        self.listed.values().any(|&n| n > 1)
    }

    /// Who lists it how many times, the most first: `listed twice by Sjaak II; once
    /// by mailbox, bitboard, naive`.
    pub(crate) fn listed_text(&self) -> String {
        let mut by: BTreeMap<std::cmp::Reverse<u32>, Vec<&str>> = BTreeMap::new();
        for (name, &n) in &self.listed {
            by.entry(std::cmp::Reverse(n)).or_default().push(name);
        }
        let parts: Vec<String> = by
            .iter()
            .map(|(n, names)| format!("{} by {}", times_word(n.0), names.join(", ")))
            .collect();
        format!("listed {}", parts.join("; "))
    }
}

/// Moves played from a root to reach a dispute's position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FoundPath {
    /// The root.
    pub(crate) root_fen: String,
    /// The moves from it, ICCS.
    pub(crate) moves: Vec<String>,
}

/// What an empty [`FoundPath`] reads as: the position is its root.
pub(crate) const NO_MOVES: &str = "(the root itself)";

/// Perft totals at a dispute's position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct PerftTotals {
    /// The depth.
    pub(crate) depth: u32,
    /// Count per generator or engine.
    pub(crate) counts: BTreeMap<String, u64>,
}

impl Report {
    /// An empty report by this build, dated now.
    pub(crate) fn new() -> Report {
        Report {
            schema: SCHEMA.to_owned(),
            tool: Tool::this(),
            created: Some(utc_now()),
            command: None,
            seed: None,
            generators: Vec::new(),
            engines: Vec::new(),
            phases: Vec::new(),
            disagreements: Vec::new(),
            signal: None,
            stated: None,
        }
    }

    /// How the run ended: interrupted if a signal stopped it, else failed if any phase
    /// failed or anything disagreed, else interrupted if a phase says a signal stopped
    /// it (a report that does not record the signal), else error if a phase could not
    /// run or checked nothing, else passed. A run a signal cut short did not check what
    /// it was asked to, whatever it found before (its findings are still listed), and
    /// it exits as interrupted, so the status says the same; an interruption outranks
    /// an error because a phase cut short by a signal (an engine killed by the same
    /// Ctrl-C) often errors as well. A status the report's file [`stated`](Report::stated)
    /// counts as one more phase's.
    pub(crate) fn status(&self) -> Status {
        let any = |s: Status| self.stated == Some(s) || self.phases.iter().any(|p| p.status == s);
        if self.signal.is_some() {
            Status::Interrupted
        } else if any(Status::Failed) || self.disagreements.iter().any(|d| !d.known) {
            Status::Failed
        } else if any(Status::Interrupted) {
            Status::Interrupted
        } else if any(Status::Error) {
            Status::Error
        } else {
            Status::Passed
        }
    }

    /// Pretty-printed JSON, with the run's [`status`](Report::status) added at the end
    /// for readers that only want the verdict (`jq -r .status report.json`).
    pub(crate) fn to_json(&self) -> Result<String, ReportError> {
        /// The status is written but not kept in the model: it follows from the rest,
        /// and a stored copy could only ever disagree with it.
        #[derive(Serialize)]
        struct Written<'a> {
            #[serde(flatten)]
            report: &'a Report,
            status: Status,
        }
        let written = Written {
            report: self,
            status: self.status(),
        };
        serde_json::to_string_pretty(&written).map_err(ReportError::Serialize)
    }

    /// Reads a report, checking the schema version before anything else so that a
    /// report of another version is named as such rather than as a missing field.
    pub(crate) fn from_json(text: &str) -> Result<Report, ReportError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(ReportError::Syntax)?;
        match value.get("schema") {
            Some(serde_json::Value::String(s)) if READS.contains(&s.as_str()) => {}
            Some(serde_json::Value::String(s)) if s.starts_with("xqdiff-report/") => {
                return Err(ReportError::UnsupportedVersion { found: s.clone() })
            }
            Some(serde_json::Value::String(s)) => {
                return Err(ReportError::OtherSchema { found: s.clone() })
            }
            _ => return Err(ReportError::MissingSchema),
        }
        // Parsed again from the text, not from `value`, so a shape error carries its line.
        let mut report: Report = serde_json::from_str(text).map_err(ReportError::Shape)?;
        let stated = report.validate(value.get("status"))?;
        if stated.is_some_and(|s| s != report.status()) {
            report.stated = stated;
        }
        Ok(report)
    }

    /// Checks what the types cannot: a report read from a file decides an exit code and
    /// is rendered for people, so a value no run writes (a signal of -128, a status of
    /// `bogus`, a feature seen more often than there were positions) is refused, naming
    /// the field, rather than believed. `written` is the file's top-level `status`;
    /// returns it as read (`None` in a version 1 report, which has none).
    fn validate(&self, written: Option<&serde_json::Value>) -> Result<Option<Status>, ReportError> {
        let invalid = |field: String, why: String| ReportError::Invalid { field, why };
        let words = [
            Status::Passed,
            Status::Failed,
            Status::Error,
            Status::Interrupted,
        ];
        let stated = match written {
            None => None,
            Some(written) => match words.iter().find(|s| written.as_str() == Some(s.as_str())) {
                Some(&status) => Some(status),
                None => {
                    return Err(invalid(
                        "status".into(),
                        format!("{written} is not one of passed, failed, error, interrupted"),
                    ))
                }
            },
        };
        if let Some(signal) = self.signal {
            if !(1..=64).contains(&signal) {
                return Err(invalid(
                    "signal".into(),
                    format!("{signal} is not a signal (1 to 64)"),
                ));
            }
        }
        let seconds = |field: String, s: f64| {
            if s.is_finite() && s >= 0.0 {
                Ok(())
            } else {
                Err(invalid(field, format!("{s} is not a duration in seconds")))
            }
        };
        for (i, phase) in self.phases.iter().enumerate() {
            seconds(format!("phases[{i}].seconds"), phase.seconds)?;
            match &phase.details {
                Some(PhaseDetails::Fuzz(f)) => {
                    for (j, row) in f.coverage.features.iter().enumerate() {
                        if row.positions > f.coverage.total {
                            return Err(invalid(
                                format!("phases[{i}].details.coverage.features[{j}].positions"),
                                format!(
                                    "{} positions with {}, of {} counted in all",
                                    row.positions, row.feature, f.coverage.total
                                ),
                            ));
                        }
                    }
                }
                Some(PhaseDetails::Perft(p)) => {
                    for (j, row) in p.rows.iter().enumerate() {
                        for (k, r) in row.results.iter().enumerate() {
                            seconds(
                                format!("phases[{i}].details.rows[{j}].results[{k}].seconds"),
                                r.seconds,
                            )?;
                        }
                    }
                }
                Some(PhaseDetails::Engine(e)) => {
                    for (j, row) in e.rows.iter().enumerate() {
                        seconds(
                            format!("phases[{i}].details.rows[{j}].seconds"),
                            row.seconds,
                        )?;
                    }
                }
                _ => {}
            }
        }
        // Looked at last, so a file with another fault is named by that one. Every
        // version 2 writer states the status: a file without it was cut or edited, and
        // what it would have said is not known.
        if stated.is_none() && self.schema == SCHEMA {
            return Err(invalid(
                "status".into(),
                format!("missing: every {SCHEMA} report states the run's status"),
            ));
        }
        Ok(stated)
    }
}

/// A seed as a JSON string, read from a string or a number.
mod seed_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(seed: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match seed {
            Some(n) => s.serialize_str(&n.to_string()),
            None => s.serialize_none(),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Number(u64),
        Text(String),
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Option::<Written>::deserialize(d)? {
            None => Ok(None),
            Some(Written::Number(n)) => Ok(Some(n)),
            Some(Written::Text(t)) => t
                .parse()
                .map(Some)
                .map_err(|_| serde::de::Error::custom(format!("seed {t:?} is not a number"))),
        }
    }
}

impl Default for Report {
    fn default() -> Report {
        Report::new()
    }
}

impl Phase {
    /// A phase that did not run, with the reason.
    pub(crate) fn skipped(name: &str, why: &str) -> Phase {
        Phase {
            name: name.to_owned(),
            status: Status::Skipped,
            seconds: 0.0,
            message: Some(why.to_owned()),
            details: None,
        }
    }

    /// One line on what the phase counted, for summary tables.
    pub(crate) fn summary(&self) -> String {
        let Some(details) = &self.details else {
            return self.message.clone().unwrap_or_default();
        };
        match details {
            PhaseDetails::Perft(p) => {
                // An engine's counts sit beside the built-ins' in these rows; a wrong one
                // is the engine phase's finding, so the rows the built-ins agree on are
                // not said to differ here, which a passed phase would contradict.
                let names = crate::generators::names();
                let ours = |r: &PerftRow| {
                    let mut r = r.clone();
                    r.results.retain(|x| names.contains(&x.subject.as_str()));
                    r.agrees()
                };
                let off = p.rows.iter().filter(|r| !ours(r)).count();
                let known = p.rows.iter().filter(|r| !ours(r) && r.known).count();
                let engine_off = p.rows.iter().filter(|r| ours(r) && !r.agrees()).count();
                format!(
                    "{}, {off} differ{}{}",
                    counted(p.rows.len() as u64, "position/depth pair"),
                    if known > 0 {
                        format!(" ({known} by known bugs)")
                    } else {
                        String::new()
                    },
                    if engine_off > 0 {
                        format!("; the engine's count is off on {engine_off} (its phase's finding)")
                    } else {
                        String::new()
                    }
                )
            }
            PhaseDetails::Replay(r) => format!(
                "{} from {}, {} failing{}, {}, {}",
                counted(r.cases, "case"),
                if r.built_in {
                    "the built-in corpus".to_owned()
                } else {
                    r.dir.clone()
                },
                r.failures.len(),
                match r.failures.iter().filter(|f| f.known).count() {
                    0 => String::new(),
                    k => format!(" ({k} known)"),
                },
                counted(r.unmet.len() as u64, "unmet expectation"),
                counted(r.damaged.len() as u64, "damaged file")
            ),
            PhaseDetails::Fuzz(f) => format!(
                "{}, {} ({:.0} cases/s), {}{}{}",
                counted(f.cases, "case"),
                counted(f.positions, "position"),
                f.cases_per_second,
                counted(f.findings, "finding"),
                match f.known {
                    0 => String::new(),
                    k => format!(" ({k} known)"),
                },
                if f.interrupted { ", interrupted" } else { "" }
            ),
            PhaseDetails::Metamorphic(m) => format!(
                "{}, {}, {}",
                counted(m.positions, "position"),
                counted(m.transforms.len() as u64, "transform"),
                counted(m.failures, "failure")
            ),
            PhaseDetails::Engine(e) => format!(
                "{}: {} to depth {}, {} compared, {}",
                e.engine,
                counted(e.positions, "position"),
                e.depth,
                counted(e.nodes, "node"),
                counted(e.findings, "finding")
            ),
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `d` in seconds, to the microsecond. Times in a report are stored this way so that
/// writing and reading the JSON gives back the same number: a count of microseconds
/// over 10^6 is what any JSON reader computes from the decimal the writer prints,
/// where a full-precision double may come back one unit off.
pub(crate) fn seconds(d: Duration) -> f64 {
    d.as_micros() as f64 / 1e6
}

/// `x` to three decimals, for rates; exact through JSON for the same reason as [`seconds`].
pub(crate) fn rounded(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// How to draw a report for people.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RenderOptions {
    /// Latin FEN letters on the pieces instead of Chinese characters, for readers who
    /// do not read the characters (which show without a CJK font either way).
    pub(crate) latin: bool,
}

/// `text` with every control character but newline and tab shown as an escape
/// (`\x1b`, `\u{9b}`): the one way text that came from outside (an engine's lines and
/// name, a file's lines) is shown, on the terminal and in every report, so an escape
/// sequence in it cannot clear a screen, retitle a window or rewrite a line.
pub(crate) fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    use std::fmt::Write as _;
    let hidden = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !hidden(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            let _ = write!(out, "\\x{:02x}", c as u32);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` safe inside XML or HTML text and quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

pub(crate) use crate::diff::finding::counted;
use crate::moves::times_word;

// At the end: tests/layout.rs reads a module's code up to its first `#[cfg(test)]`.
#[cfg(test)]
mod tests;
