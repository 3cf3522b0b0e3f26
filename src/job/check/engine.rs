//! Phase 5: an external engine's perft against the built-in generators' consensus, on
//! the start position, the suite, the corpus and seeded random positions (the same
//! check as `xqdiff engine`). The engine's counts are also put beside the generators'
//! in the perft phase's rows wherever it was asked the same position and depth.
//!
//! The engine cannot take part in the other phases: they need pseudo-legal moves and
//! the board after each move, which no engine protocol gives.

use super::{corpus_positions, errored, Config, EngineCheck, Observer, Running, Unit, ENGINE};
use crate::generators::face::Generator;
use crate::job::report::{
    counted, rounded, seconds, CoverageTable, Dispute, EngineInfo, EnginePhase, EngineRow,
    FreshPositions, PerftResult, Phase, PhaseDetails, Report, Status as PhaseStatus,
};
use crate::position::Position;
use crate::subject::crosscheck::{self, targets, Checked, Options, Status, Target, Verdict};
use crate::subject::external::{split_command, ExternalEngine};
use crate::subject::Subject;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The engine check's positions made beforehand, as `xqdiff engine` asks them
/// ([`targets::all`]); a run given a time makes its random ones as it goes.
fn targets(config: &Config<'_>, check: &EngineCheck) -> Vec<Target> {
    let sources = targets::Sources {
        suite: &config.suite,
        corpus: corpus_positions(&config.corpus),
        depth: check.depth,
        max_nodes: Some(config.max_nodes),
        random: if check.time.is_some() {
            0
        } else {
            check.positions
        },
        seed: config.seed,
    };
    targets::all(&sources, &config.generators)
}

/// Puts the findings saved about the engine `name` in the corpus first in `list`, so
/// they are asked again before anything new. `Err` with the reason when the corpus
/// cannot be read, or was named and holds findings about other engines only and no
/// case of its own: it would check nothing of what it holds.
fn saved_first(
    list: &mut Vec<Target>,
    config: &Config<'_>,
    check: &EngineCheck,
    name: &str,
    observer: &dyn Observer,
) -> Result<(), String> {
    let Some(dir) = config.corpus.dir() else {
        return Ok(());
    };
    let saved = targets::saved(dir, name, check.depth)
        .map_err(|e| format!("could not read {}: {e}", dir.display()))?;
    // Counting the corpus's own cases reads it: only for a corpus named by the user.
    let named_without_cases =
        check.named_corpus.is_some() && corpus_positions(&config.corpus).is_empty();
    let n = saved.put_first(list, dir, name, named_without_cases)?;
    if n > 0 {
        observer.note(&format!(
            "re-checking {} saved about {name} in {}",
            counted(n as u64, "finding"),
            dir.display()
        ));
    }
    Ok(())
}

/// Why the check asked fewer than all `of` positions, when it did: a stop, the time,
/// or the limit on findings.
fn stopped_short(
    all: &crosscheck::Report,
    of: usize,
    check: &EngineCheck,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Option<String> {
    let asked = all.checked.len();
    let positions = counted(of as u64, "position");
    let time_up = deadline.is_some_and(|end| Instant::now() >= end);
    if asked >= of {
        None
    } else if stop.load(Ordering::Relaxed) {
        Some(format!("stopped early: {asked} of {positions} asked"))
    } else if time_up {
        Some(format!(
            "the time ran out with {asked} of {positions} asked"
        ))
    } else if all.failure.is_none() && check.max_findings > 0 {
        Some(format!(
            "stopped after {} (the limit) with {asked} of {positions} asked",
            counted(all.new_findings().count() as u64, "distinct bug"),
        ))
    } else {
        None
    }
}

pub(super) fn run(report: &mut Report, running: &Running<'_>) {
    let (config, observer, stop) = (running.config, running.observer, running.stop);
    let Some(check) = &config.engine else {
        return;
    };
    let started = Instant::now();
    let mut list = targets(config, check);
    observer.progress(0, list.len() as u64, Unit::Positions, "starting the engine");
    // The phase's time runs from here: starting the engine is part of it.
    let deadline = check.time.and_then(|time| started.checked_add(time));
    let Some(mut engine) = start(report, check, started, deadline) else {
        return;
    };
    let name = engine.name();
    let info = EngineInfo::from_config(&check.config, &name);
    // The findings saved about this engine are asked again first, as `xqdiff engine`
    // asks them.
    if let Err(why) = saved_first(&mut list, config, check, &name, observer) {
        report.engines.push(info);
        report.phases.push(errored(ENGINE, started.elapsed(), why));
        return;
    }
    let of = list.len() as u64;
    let found_by = crosscheck::found_by(
        &check.config.command,
        &info.protocol,
        check.depth,
        config.seed,
    );
    let speech = engine.speech();
    let reproduce = |pos: &Position, depth: u32| speech.reproduce(pos, depth);
    report.engines.push(info);

    let show = progress(observer, check.time, of);
    // Named, not written in place: older Rust, the declared rust-version among them,
    // does not extend a borrowed closure temporary's life to the whole `Options`.
    let checked = |c: &Checked| observer.checked(c);
    let options = Options {
        subject_dir: config
            .save
            .then(|| crosscheck::findings_dir(check.named_corpus.as_deref(), &name)),
        corpus: config.save_dir().map(|d| d.to_path_buf()),
        max_findings: check.max_findings,
        known: config.known.clone(),
        found_by,
        reproduce: Some(&reproduce),
        progress: Some(&show),
        on_checked: Some(&checked),
        stop: Some(stop),
        reference: check.reference,
        restarts: check.restarts,
        deadline,
    };
    let timed = check.time.map(|time| crosscheck::Timed {
        time,
        seed: config.seed,
        depth: check.depth,
    });
    let mut notes = engine.notes().to_vec();
    let run = crosscheck::run(
        &mut engine,
        &config.generators,
        &list,
        timed.as_ref(),
        &options,
    );
    let (mut all, fresh) = ran(run, &name, &mut notes);
    notes.extend(stopped_short(&all, list.len(), check, deadline, stop));
    drop(engine);
    tell(observer, &all, fresh.as_ref(), check);
    all.elapsed = started.elapsed();
    let asked = Asked {
        generators: &config.generators,
        depth: check.depth,
        stop,
    };
    record(report, &asked, &all, fresh.as_ref(), notes);
}

/// How the engine check's progress is shown from now on: positions done of `of`, or,
/// for a run given a `time` that makes its positions as it goes, seconds of that time.
fn progress(
    observer: &dyn Observer,
    time: Option<std::time::Duration>,
    of: u64,
) -> impl Fn(&Status<'_>) + Sync + '_ {
    let begun = Instant::now();
    move |s: &Status<'_>| {
        let note = format!("{}: {}", s.label, s.stage);
        match (s.of, time) {
            (None, Some(time)) => {
                let secs = time.as_secs().max(1);
                let done = begun.elapsed().as_secs().min(secs);
                observer.progress(done, secs, Unit::Seconds, &note);
            }
            _ => observer.progress(s.index as u64, of, Unit::Positions, &note),
        }
    }
}

/// What a run of the engine check gave: its report and the fresh positions it made,
/// or, when it could not run, an empty report about `name` and why in `notes`.
fn ran(
    run: Result<crosscheck::Run, crosscheck::CrossCheckError>,
    name: &str,
    notes: &mut Vec<String>,
) -> (crosscheck::Report, Option<crosscheck::Made>) {
    match run {
        Ok(run) => (run.report, run.fresh),
        Err(e) => {
            notes.push(e.to_string());
            let empty = crosscheck::Report {
                subject: name.to_owned(),
                ..crosscheck::Report::default()
            };
            (empty, None)
        }
    }
}

/// The engine started within the phase's time; `None` once the phase is recorded as
/// an error, with the engine's program named as well as it can be.
fn start(
    report: &mut Report,
    check: &EngineCheck,
    started: Instant,
    deadline: Option<Instant>,
) -> Option<ExternalEngine> {
    match ExternalEngine::start_within(&check.config, check.stop, deadline) {
        Ok(engine) => Some(engine),
        Err(e) => {
            let program = split_command(&check.config.command)
                .ok()
                .and_then(|words| words.into_iter().next())
                .unwrap_or_else(|| check.config.command.clone());
            report
                .engines
                .push(EngineInfo::from_config(&check.config, &program));
            report.phases.push(errored(
                ENGINE,
                started.elapsed(),
                format!("could not start the engine: {e}"),
            ));
            None
        }
    }
}

/// Tells the observer what the run found, and what `xqdiff engine` says after its
/// findings: the fresh positions made, a library's moves set aside by its rules, and
/// the hint when it differs only by moves into check.
fn tell(
    observer: &dyn Observer,
    all: &crosscheck::Report,
    fresh: Option<&crosscheck::Made>,
    check: &EngineCheck,
) {
    observer.findings(all);
    if let Some(made) = fresh {
        observer.note(&made.summary());
    }
    if let Some(set) = &all.set_aside {
        observer.note(set.to_string().trim_end());
    }
    if let Some(hint) = all.into_check_hint(check.config.protocol.moves_mode()) {
        observer.note(hint);
    }
}

/// What an engine check asked: of whom, how deep, about which positions, and how the
/// findings say they were found.
pub(crate) struct Asked<'a> {
    /// The built-in generators the engine was held to.
    pub(crate) generators: &'a [&'a dyn Generator],
    /// The perft depth asked.
    pub(crate) depth: u32,
    /// The run's stop flag: a count made for the record ends with it too.
    pub(crate) stop: &'a AtomicBool,
}

/// Puts the engine phase, its disputes, and the engine's counts in the perft table
/// (`xqdiff check`'s engine phase, and `xqdiff engine --json`'s report).
pub(crate) fn record(
    report: &mut Report,
    asked: &Asked<'_>,
    all: &crosscheck::Report,
    fresh: Option<&crosscheck::Made>,
    mut notes: Vec<String>,
) {
    let Asked {
        generators,
        depth,
        stop,
    } = *asked;
    let name = all.subject.clone();
    if let Some(set) = &all.set_aside {
        if let Some(e) = report.engines.iter_mut().rev().find(|e| e.name == name) {
            e.set_aside = Some(set.into());
        }
    }
    notes.extend(all.out_of_time_note());
    notes.extend(all.restarts_note());
    let rows = rows(all, generators, stop, &mut notes);
    let found = disputes(all, &mut notes);
    notes.extend(all.write_errors.iter().map(|e| format!("not saved: {e}")));
    let (subject_time, builtins_time, confirmed) = all.time_spent();
    let details = EnginePhase {
        engine: name.clone(),
        depth,
        positions: all.checked.len() as u64,
        nodes: all.nodes_compared(),
        findings: (all.new_findings().count()
            + all.ours.len()
            + all.crashes.iter().filter(|c| !c.known).count()) as u64,
        confirmed: confirmed as u64,
        subject_seconds: seconds(subject_time),
        builtins_seconds: seconds(builtins_time),
        positions_per_second: rounded(
            all.checked.len() as f64 / all.elapsed.as_secs_f64().max(1e-9),
        ),
        rows,
        fresh: fresh.map(|made| FreshPositions {
            positions: made.positions,
            ms_each: made.ms_each(),
            coverage: CoverageTable::from(&made.coverage),
        }),
    };
    let mut phase = Phase::finished(ENGINE, all.elapsed, PhaseDetails::Engine(details));
    if all.failure.is_some() && phase.status == PhaseStatus::Passed {
        phase.status = PhaseStatus::Error;
    }
    if !notes.is_empty() {
        phase.message = Some(notes.join("; "));
    }
    report.phases.push(phase);
    report.disagreements.extend(found);
    beside_perft(report, &name, &all.checked);
}

/// The perft table's rows of the engine: every target it answered, and the target it
/// failed on when it never answered there (its error said, and in `notes`).
fn rows(
    all: &crosscheck::Report,
    generators: &[&dyn Generator],
    stop: &AtomicBool,
    notes: &mut Vec<String>,
) -> Vec<EngineRow> {
    let mut rows: Vec<EngineRow> = all
        .checked
        .iter()
        .map(|c| EngineRow {
            position: c.label.clone(),
            fen: c.fen.clone(),
            depth: c.depth,
            consensus: c.consensus_total,
            subject: Some(c.subject_total),
            seconds: seconds(c.elapsed),
            error: None,
            known: c.known,
        })
        .collect();
    if let Some(f) = &all.failure {
        notes.insert(0, format!("the engine failed on {}: {}", f.label, f.error));
        // A failure while following a difference down is on a position already
        // answered; only an unanswered target gets a row of its own.
        let answered = rows.iter().any(|r| r.position == f.label);
        if !answered {
            rows.push(EngineRow {
                position: f.label.clone(),
                fen: f.position.fen(),
                depth: f.depth,
                // 0 when a signal cut the count short: the row's error says why.
                consensus: generators
                    .first()
                    .and_then(|g| g.divide_until(&f.position, f.depth, true, None, None, stop))
                    .map_or(0, |d| d.iter().map(|&(_, n)| n).sum()),
                subject: None,
                seconds: 0.0,
                error: Some(f.error.to_string()),
                known: false,
            });
        }
    }
    rows
}

/// The disputes of the engine check: its findings, the built-ins' own disagreements
/// (one that no position down the path shows is a note), and its crashes, hangs and
/// refusals.
fn disputes(all: &crosscheck::Report, notes: &mut Vec<String>) -> Vec<Dispute> {
    let mut found = Vec::new();
    for f in &all.findings {
        found.push(Dispute::from_finding(ENGINE, f));
    }
    for o in &all.ours {
        match &o.finding {
            Some(f) => found.push(Dispute::from_finding(ENGINE, f)),
            None => notes.push(format!(
                "the built-in generators disagree on {}, but no position down the path shows it",
                o.label
            )),
        }
    }
    let name = &all.subject;
    found.extend(all.crashes.iter().map(|c| crash_dispute(name, c)));
    found
}

/// A crash, hang or refusal of the engine `name` as a dispute: on its smallest
/// position, with the command that asks it again.
fn crash_dispute(name: &str, c: &crosscheck::Crash) -> Dispute {
    let detail = format!(
        "{name} {} asked perft {} here: {}{}",
        match c.kind {
            crosscheck::CrashKind::Crash => "crashed when",
            crosscheck::CrashKind::Hang => "hung when",
            crosscheck::CrashKind::Refusal => "refused to answer when",
        },
        c.depth,
        c.error.lines().next().unwrap_or(""),
        c.note
            .as_ref()
            .map_or_else(String::new, |note| format!(" ({note})"))
    );
    let dispute = Dispute {
        original_fen: (c.minimized != c.position).then(|| c.position.fen()),
        generators: vec![name.to_owned()],
        odd_one_out: Some(name.to_owned()),
        ..Dispute::new(ENGINE, c.kind.as_str(), c.minimized.fen(), detail)
    };
    dispute
        .with_provenance(&c.found_by)
        .with_bug(&c.signature(), c.hits, c.known, None)
}

/// Adds the engine's count to every perft row it answered too, and re-reads the perft
/// phase's status: a wrong count of the engine's is a wrong count in that table. Only
/// ever to `failed`: what the phase was before (an error for counting nothing, say)
/// is not undone by the engine's counts.
fn beside_perft(report: &mut Report, engine: &str, checked: &[Checked]) {
    for phase in &mut report.phases {
        let Some(PhaseDetails::Perft(p)) = &mut phase.details else {
            continue;
        };
        for c in checked
            .iter()
            .filter(|c| c.verdict != Verdict::OursDisagree)
        {
            if let Some(row) = p
                .rows
                .iter_mut()
                .find(|r| r.fen == c.fen && r.depth == c.depth)
            {
                row.results
                    .push(PerftResult::measured(engine, c.subject_total, c.elapsed));
            }
        }
        // The engine's counts sit beside ours for reading; a wrong one is the engine
        // phase's finding, counted there once, not a second failure of the perft phase.
    }
}
