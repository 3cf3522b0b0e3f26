//! What every long command does first and last: it starts a worker pool and the stop
//! flag the signals raise (Ctrl-C, SIGTERM, SIGHUP end the run between steps and keep
//! what it found), and it ends with its report, which gives the exit code.

use super::json::JsonArg;
use super::{pool, signals, CliError, Outcome};
use std::sync::atomic::AtomicBool;

/// A command's run: its pool and its stop flag.
pub(crate) struct Session {
    /// The workers, `--threads` of them.
    pub(crate) pool: rayon::ThreadPool,
    /// Raised by a signal: the run looks at it between steps.
    pub(crate) stop: &'static AtomicBool,
}

impl Session {
    /// The signals' handlers installed, so a signal from here on stops the run with a
    /// report rather than killing it, and a pool of `threads` workers.
    pub(crate) fn start(threads: usize) -> Result<Session, CliError> {
        let stop = signals::install();
        Ok(Session {
            pool: pool(threads)?,
            stop,
        })
    }
}

/// How a run whose report this is ends: the one mapping from a report's status to an
/// exit code, so `xqdiff check` and `xqdiff report --from` on its report exit alike.
/// An error names the phases that could not run, and why.
pub(crate) fn report_outcome(report: &crate::job::report::Report) -> Result<Outcome, CliError> {
    use crate::job::report::Status;
    match (report.status(), report.signal) {
        (Status::Passed | Status::Skipped, _) => Ok(Outcome::Agree),
        (Status::Failed, _) => Ok(Outcome::Disagree),
        (Status::Interrupted, Some(sig)) => Ok(Outcome::Interrupted(sig)),
        // An error, or an interruption a report of an older build did not record the
        // signal of: either way a run that did not check everything.
        (Status::Error | Status::Interrupted, _) => {
            let broken: Vec<String> = report
                .phases
                .iter()
                .filter(|p| matches!(p.status, Status::Error | Status::Interrupted))
                .map(|p| {
                    let why = p.message.as_deref().unwrap_or("error");
                    format!("{}: {}", p.name, crate::job::check::first_line(why))
                })
                .collect();
            if broken.is_empty() {
                // Only the status the report states says so.
                return Err(CliError::Incomplete(format!(
                    "the report says the run ended {}",
                    report.status().as_str()
                )));
            }
            Err(CliError::Incomplete(broken.join("; ")))
        }
    }
}

/// How every command that checks something ends, once it has printed what it found:
/// its report, with the signal that stopped it if one did, goes out as the JSON
/// document when `--json` asks for it, and the exit code is read from it by
/// [`report_outcome`], the one mapping.
pub(crate) fn conclude(
    mut report: crate::job::report::Report,
    json: JsonArg,
) -> Result<Outcome, CliError> {
    if report.signal.is_none() {
        report.signal = signals::received();
    }
    json.emit_report(&report)?;
    report_outcome(&report)
}
