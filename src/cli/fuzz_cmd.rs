//! `xqdiff fuzz`: the in-process differential campaign.

use super::json::report_of;
use super::out::{errln, outln, statusln};
use super::session::Session;
use super::{
    corpus_source, load_known, save_dir, signals, write_known, CliError, CorpusUse, Outcome,
};
use crate::cli::progress::Progress;
use crate::diff::campaign::{self, Config, Source};
use crate::diff::finding::naming::cause_lines;
use crate::generators::registry;
use crate::job::check::Unit;
use crate::job::check::FUZZ;
use crate::job::report::counted;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `xqdiff fuzz`.
#[derive(clap::Args, Debug)]
pub(super) struct FuzzArgs {
    /// Run for this many seconds (default 60 when --cases is not given).
    #[arg(long, conflicts_with = "cases", value_name = "SECONDS", value_parser = super::parse_seconds)]
    seconds: Option<u64>,
    /// Run exactly this many cases.
    #[arg(long, value_name = "N")]
    cases: Option<u64>,
    /// Seed of the run (default: from the clock, printed so the run can be repeated).
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0, value_name = "N")]
    threads: usize,
    /// Where positions come from: `arbitrary` (random bytes through the structured
    /// decoder), `playout` (random legal playouts from the start or a reference
    /// position), or `both` in turn.
    // The values are listed in the help line: clap's own list, with a line per value,
    // would switch this command's help alone to the long layout.
    #[arg(
        long,
        value_enum,
        default_value = "both",
        value_name = "arbitrary|playout|both",
        hide_possible_values = true
    )]
    source: Source,
    /// Stop at the first disagreement.
    #[arg(long)]
    stop_on_first: bool,
    /// The corpus: its positions are extra playout starts, and minimized findings are
    /// written into it; it must exist (default: the repository's corpus/, else the
    /// read-only copy built into the program).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Keep findings out of the corpus (print only).
    #[arg(long)]
    no_save: bool,
    /// Chance, in playouts, of choosing among captures when there are some.
    #[arg(long, default_value_t = 0.35, value_name = "CHANCE")]
    capture_bias: f64,
    /// Known bugs: a file of signatures (one per line, a note after it). Their findings
    /// are reported as known and neither fail the run nor stop it.
    #[arg(long, value_name = "FILE")]
    known: Option<PathBuf>,
    /// Write the signatures of the bugs this run found to FILE (for --known).
    #[arg(long, value_name = "FILE")]
    write_known: Option<PathBuf>,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// Runs `xqdiff fuzz`: exit 0 when nothing disagreed, 1 on a finding, 2 on bad usage
/// or when no case ran, 128 + the signal's number when a signal stopped it (after
/// printing what it found; findings are saved as they are found).
pub(super) fn run(args: &FuzzArgs) -> Result<Outcome, CliError> {
    if !(0.0..=1.0).contains(&args.capture_bias) {
        return Err(CliError::Usage(format!(
            "--capture-bias {} is not between 0 and 1",
            args.capture_bias
        )));
    }
    let source = corpus_source(args.corpus.as_deref(), "--corpus", CorpusUse::Reads)?;
    let seed = args.seed.unwrap_or_else(super::clock_seed);
    let config = config(args, &source, seed)?;
    let Session { pool, stop } = Session::start(args.threads)?;
    let engines = registry();
    let corpus = match source.dir() {
        Some(dir) => super::out::path(dir),
        None => source.to_string(),
    };
    outln!(
        "fuzz: seed {seed}, source {:?}, {}, {} of the corpus {corpus} as extra playout \
         starts, generators {}",
        args.source,
        counted(pool.current_num_threads() as u64, "thread"),
        counted(config.extra_starts.len() as u64, "position"),
        engines
            .iter()
            .map(|g| g.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let report = pool.install(|| with_progress(&config, &engines, stop));
    report.findings.iter().for_each(show_finding);
    if let Some(path) = &args.write_known {
        let sigs: Vec<_> = report
            .findings
            .iter()
            .filter_map(|f| Some((&f.signature, format!("e.g. {}", f.minimized()?.fen()))))
            .collect();
        write_known(path, &sigs)?;
    }
    for e in &report.write_errors {
        errln!("xqdiff: could not save a finding: {e}");
    }
    outln!(
        "{}, {} in {:.1} s ({:.0} cases/s, {:.0} positions/s){}",
        counted(report.cases, "case"),
        counted(report.positions, "position"),
        report.elapsed.as_secs_f64(),
        report.rate(),
        report.positions as f64 / report.elapsed.as_secs_f64().max(1e-9),
        if report.interrupted {
            ", interrupted"
        } else {
            ""
        }
    );
    outln!("feature coverage:\n{}", report.coverage);
    let mut doc = report_of(&engines);
    doc.seed = Some(seed);
    doc.add_fuzz(FUZZ, &report);
    verdict(&report, seed)?;
    super::session::conclude(doc, args.json)
}

/// The campaign's configuration from the flags, the corpus's positions as extra
/// playout starts.
fn config(
    args: &FuzzArgs,
    source: &crate::diff::corpus::Source,
    seed: u64,
) -> Result<Config, CliError> {
    let loaded = super::load_corpus(source)?;
    Ok(Config {
        seed,
        cases: args.cases,
        duration: match (args.cases, args.seconds) {
            (Some(_), _) => None,
            (None, s) => Some(Duration::from_secs(s.unwrap_or(60))),
        },
        source: args.source,
        stop_on_first: args.stop_on_first,
        corpus: save_dir(source, args.no_save),
        capture_bias: args.capture_bias,
        // Playouts also start from the corpus's positions.
        extra_starts: loaded.cases.into_iter().map(|(_, c)| c.position).collect(),
        known: load_known(args.known.as_deref())?,
        ..Config::default()
    })
}

/// The campaign, under a progress bar of its cases or its seconds.
fn with_progress(
    config: &Config,
    engines: &[&'static dyn crate::generators::face::Generator],
    stop: &'static std::sync::atomic::AtomicBool,
) -> campaign::Report {
    let unit = if config.cases.is_none() && config.duration.is_some() {
        Unit::Seconds
    } else {
        Unit::Cases
    };
    let bar = Progress::new("fuzz", unit);
    let started = std::time::Instant::now();
    let seed = config.seed;
    let report = campaign::run(config, engines, stop, &|cases, found| {
        let rate = cases as f64 / started.elapsed().as_secs_f64().max(1e-9);
        match (config.cases, config.duration) {
            (Some(n), _) => bar.update(cases, n),
            (None, Some(d)) => {
                bar.update(started.elapsed().as_secs().min(d.as_secs()), d.as_secs())
            }
            _ => bar.update(cases, 0),
        }
        // The seed first: a narrow terminal cuts the note from the end.
        bar.message(format!(
            "seed {seed}: {}, {rate:.0}/s, {}",
            counted(cases, "case"),
            counted(found as u64, "disagreement")
        ));
    });
    bar.finish();
    report
}

/// One finding as `xqdiff fuzz` prints it: the signature, the cause, the disagreement,
/// the witnesses, where it was saved and how to see it again.
fn show_finding(f: &crate::diff::finding::Finding) {
    statusln!(
        "BUG {}{}: {} (first in case {}, {:.1} s into the run)",
        f.signature,
        if f.known { " (known)" } else { "" },
        counted(f.hits, "hit"),
        f.first,
        f.found_after.as_secs_f64()
    );
    for line in cause_lines(f.diagnosis.as_ref()) {
        outln!("  {line}");
    }
    // The campaign compares the built-ins only: a finding blaming anyone else is said
    // as every finding is.
    let Some(among) = f.among() else {
        return outln!("{f}");
    };
    outln!("  {}", among.disagreement);
    outln!(
        "  minimized: {}  ({} pieces)",
        among.minimized.fen(),
        among.minimized.pieces().count()
    );
    for w in f.others() {
        outln!("  also:      {}  ({} pieces)", w.fen(), w.pieces().count());
    }
    outln!(
        "  original:  {}  (case {})",
        among.origin.position.fen(),
        among.origin.order
    );
    if let Some(path) = &f.file {
        outln!("  saved:     {}", super::out::path(path));
    }
    for path in f.saved.iter().filter(|p| Some(*p) != f.file.as_ref()) {
        outln!("  also saved: {}", super::out::path(path));
    }
    for line in among.origin.provenance.lines() {
        outln!("  {line}");
    }
}

/// The run's last line: what it found, or the usage error of a run that checked
/// nothing.
fn verdict(report: &campaign::Report, seed: u64) -> Result<(), CliError> {
    if let Some(sig) = signals::received() {
        outln!(
            "interrupted by {} after {} (seed {seed})",
            signals::name(sig),
            counted(report.findings.len() as u64, "distinct bug")
        );
    } else if report.cases == 0 {
        // --cases 0 or --seconds 0: nothing was checked, which is no pass.
        return Err(CliError::Usage(
            "no fuzz case ran: give --cases or --seconds above 0".into(),
        ));
    } else {
        let new = report.new_findings().count() as u64;
        let known = report.findings.len() as u64 - new;
        let known_text = if known > 0 {
            format!(", {} known", counted(known, "bug"))
        } else {
            String::new()
        };
        if new == 0 {
            outln!("no new disagreements{known_text} (seed {seed})");
        } else {
            outln!("{}{known_text} (seed {seed})", counted(new, "distinct bug"));
        }
    }
    Ok(())
}
