//! The findings as `xqdiff engine` prints them: a block per distinct bug of the subject
//! and per disagreement among the built-ins. Public so that a program running the
//! check itself ([`crate::subject::library::check_library`]) prints the same.

use super::{Crash, Ours, SubjectFinding};
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

impl fmt::Display for SubjectFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = if self.known { " (known)" } else { "" };
        writeln!(
            f,
            "BUG {}{known}: {}",
            self.signature,
            crate::diff::finding::counted(self.hits, "position")
        )?;
        for line in crate::diff::finding::cause_lines(self.diagnosis.as_ref()) {
            writeln!(f, "  {line}")?;
        }
        writeln!(
            f,
            "  first on {} at depth {}: {}",
            self.label,
            self.depth,
            self.root.fen()
        )?;
        writeln!(f, "  path       {}", line(&self.path))?;
        writeln!(f, "  position   {}", self.position.fen())?;
        indented(f, &self.comparison.to_string())?;
        if let Some(note) = &self.note {
            writeln!(f, "  note: {note}")?;
        }
        for failure in &self.failures {
            writeln!(f, "  note: {failure}")?;
        }
        match &self.reproduction {
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
        for w in &self.witnesses {
            writeln!(
                f,
                "  also       {}  ({} pieces)",
                w.fen(),
                w.pieces().count()
            )?;
        }
        if let Some(file) = &self.file {
            writeln!(f, "  saved      {}", file.display())?;
        }
        indented(f, &self.found_by.lines().join("\n"))
    }
}

impl fmt::Display for Ours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "the built-in generators DISAGREE on {}", self.label)?;
        if let Some(found) = &self.finding {
            for line in crate::diff::finding::cause_lines(found.diagnosis.as_ref()) {
                writeln!(f, "  {line}")?;
            }
            let path = found.origin.path.as_ref().map_or(&[][..], |(_, p)| &p[..]);
            writeln!(f, "  path       {}", line(path))?;
            writeln!(
                f,
                "  minimized  {}  ({} pieces)",
                found.minimized.fen(),
                found.minimized.pieces().count()
            )?;
            writeln!(f, "  {}", found.disagreement)?;
            if let Some(file) = &found.file {
                writeln!(f, "  saved      {}", file.display())?;
            }
            indented(f, &found.origin.provenance.lines().join("\n"))?;
        }
        Ok(())
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
