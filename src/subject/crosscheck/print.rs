//! The findings as `xqdiff engine` prints them: a block per distinct bug of the subject
//! and per disagreement among the built-ins. Public so that a program running the
//! check itself ([`crate::subject::library::check_library`]) prints the same.

use super::{Crash, Ours};
use crate::diff::finding::trail::Trail;
use crate::diff::finding::{Among, Blame, Finding};
use crate::moves::Move;
use std::fmt;

/// A path of moves, or what an empty one means.
fn line(moves: &[Move]) -> String {
    if moves.is_empty() {
        "(none: at the root)".into()
    } else {
        moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn indented(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    for l in text.lines() {
        writeln!(f, "  {l}")?;
    }
    Ok(())
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = if self.known { " (known)" } else { "" };
        writeln!(
            f,
            "BUG {}{known}: {}",
            self.signature,
            crate::diff::finding::counted(self.hits, "position")
        )?;
        details(f, self)
    }
}

/// A finding below its head line: its cause, then what shows it where it is blamed.
fn details(f: &mut fmt::Formatter<'_>, finding: &Finding) -> fmt::Result {
    for line in crate::diff::finding::naming::cause_lines(finding.diagnosis.as_ref()) {
        writeln!(f, "  {line}")?;
    }
    match &finding.blame {
        Blame::Subject(trail) => subject_lines(f, finding, trail),
        Blame::Builtins(among) => builtin_lines(f, finding, among),
    }
}

/// A subject's finding below its cause: the path followed, the subject
/// beside the built-ins there, the smallest witness and how to see it again.
fn subject_lines(f: &mut fmt::Formatter<'_>, finding: &Finding, trail: &Trail) -> fmt::Result {
    writeln!(
        f,
        "  first on {} at depth {}: {}",
        trail.label,
        trail.depth,
        trail.root.fen()
    )?;
    writeln!(f, "  path       {}", line(&trail.path))?;
    writeln!(f, "  position   {}", trail.position.fen())?;
    indented(f, &trail.comparison.to_string())?;
    if let Some(note) = &trail.note {
        writeln!(f, "  note: {note}")?;
    }
    for failure in &trail.failures {
        writeln!(f, "  note: {failure}")?;
    }
    match &trail.reproduction {
        Some(r) => {
            let whence = match r.ply {
                0 => "at the root".to_owned(),
                n => format!(
                    "{} down the path",
                    crate::diff::finding::counted(n as u64, "ply")
                ),
            };
            writeln!(
                f,
                "  reproduces from the FEN alone at depth {}, {whence}: {}",
                r.depth,
                r.from.fen()
            )?;
            writeln!(
                f,
                "  minimized  {}  ({} pieces, depth {})",
                r.minimized.fen(),
                r.minimized.pieces().count(),
                r.depth
            )?;
            match &r.comparison {
                Some(c) => indented(f, &c.to_string())?,
                None => writeln!(f, "  (the engine failed before it could answer there)")?,
            }
        }
        None => writeln!(
            f,
            "  (the engine failed before the difference could be reproduced)"
        )?,
    }
    for w in finding.others() {
        writeln!(
            f,
            "  also       {}  ({} pieces)",
            w.fen(),
            w.pieces().count()
        )?;
    }
    if let Some(file) = &finding.file {
        writeln!(f, "  saved      {}", file.display())?;
    }
    indented(f, &trail.found_by.lines().join("\n"))
}

/// A disagreement among the built-ins below its cause: the path that
/// reached it, the smallest witness and how to see it again.
fn builtin_lines(f: &mut fmt::Formatter<'_>, finding: &Finding, among: &Among) -> fmt::Result {
    let path = among.origin.path.as_ref().map_or(&[][..], |(_, p)| &p[..]);
    writeln!(f, "  path       {}", line(path))?;
    writeln!(
        f,
        "  minimized  {}  ({} pieces)",
        among.minimized.fen(),
        among.minimized.pieces().count()
    )?;
    writeln!(f, "  {}", among.disagreement)?;
    if let Some(file) = &finding.file {
        writeln!(f, "  saved      {}", file.display())?;
    }
    indented(f, &among.origin.provenance.lines().join("\n"))
}

impl fmt::Display for Ours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "the built-in generators DISAGREE on {}", self.label)?;
        match &self.finding {
            Some(found) => details(f, found),
            None => Ok(()),
        }
    }
}

/// A crash or hang: what the subject did, where first, and the smallest position on
/// which it still does it, with the command that asks it that position.
impl fmt::Display for Crash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = match (self.kind, self.known) {
            (_, true) => "KNOWN",
            (super::CrashKind::Crash, false) => "CRASH",
            (super::CrashKind::Hang, false) => "HANG",
            (super::CrashKind::Refusal, false) => "REFUSAL",
        };
        let hits = match self.hits {
            1 => "1 position".to_owned(),
            n => format!("{n} positions"),
        };
        writeln!(
            f,
            "{head} {}: {hits} at depth {}",
            self.signature(),
            self.depth
        )?;
        writeln!(f, "  first on {}: {}", self.label, self.position.fen())?;
        let mut said = self.error.lines();
        writeln!(f, "  what it did  {}", said.next().unwrap_or(""))?;
        for line in said {
            writeln!(f, "  {line}")?;
        }
        writeln!(
            f,
            "  minimized  {}  ({} pieces, depth {})",
            self.minimized.fen(),
            self.minimized.pieces().count(),
            self.depth
        )?;
        if let Some(note) = &self.note {
            writeln!(f, "  {note}")?;
        }
        indented(f, &self.found_by.lines().join("\n"))
    }
}

impl super::Report {
    /// Every finding as the terminal shows it, in the order `xqdiff engine` and
    /// `xqdiff check --engine` both print them: the subject's bugs, the built-ins'
    /// disagreements, then crashes and hangs. With `brief` (`--quiet`) each is one
    /// line, its verdict and its first cause, so even a quiet log says why; else the
    /// whole block, ending in its "Reproduce with:" command.
    pub(crate) fn finding_blocks(&self, brief: bool) -> Vec<String> {
        let blocks = self
            .findings
            .iter()
            .map(ToString::to_string)
            .chain(self.ours.iter().map(ToString::to_string))
            .chain(self.crashes.iter().map(ToString::to_string));
        if !brief {
            return blocks.collect();
        }
        blocks.map(|block| one_line(&block)).collect()
    }
}

/// A block's first line with its first `cause:` line (or, for a crash, what the
/// subject did) after it, on one line.
fn one_line(block: &str) -> String {
    let mut lines = block.lines();
    let head = lines.next().unwrap_or("").trim_end();
    let why = lines
        .map(str::trim)
        .find(|l| l.starts_with("cause:") || l.starts_with("what it did"));
    match why {
        Some(why) => {
            let why: Vec<&str> = why.split_whitespace().collect();
            format!("{head}; {}\n", why.join(" "))
        }
        None => format!("{head}\n"),
    }
}

/// How an engine check found what it found, for a finding that could not be
/// reproduced on its own position: the `xqdiff engine` run with the same seed, its
/// `--cmd` made to run from any folder and every word quoted by the one helper.
pub fn found_by(command: &str, protocol: &str, depth: u32, seed: u64) -> String {
    let command = crate::subject::external::from_anywhere(command);
    let depth = depth.to_string();
    let seed = seed.to_string();
    let words = [
        "xqdiff",
        "engine",
        "--cmd",
        &command,
        "--protocol",
        protocol,
        "--depth",
        &depth,
        "--seed",
        &seed,
    ];
    shlex::try_join(words).unwrap_or_else(|_| words.join(" "))
}
