//! What a finding that blames a subject keeps of how it was found: the target it was met
//! on, the path followed down to where the move sets differ, the subject's divide beside
//! the built-ins' there, and the smallest position that shows it from a FEN alone. Plain
//! data, so the one finding book keeps a subject's bugs as it keeps the built-ins'.

use super::provenance::Provenance;
use crate::diff::signature::{Lists, Signature};
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// A move both sides have, with counts that differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveCounts {
    /// The move.
    pub mv: Move,
    /// The subject's count below it.
    pub subject: u64,
    /// The built-in generators' count below it.
    pub consensus: u64,
}

/// The subject's divide beside the consensus at one position and depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The perft depth.
    pub depth: u32,
    /// The built-in generators' total.
    pub consensus_total: u64,
    /// The total the subject reported.
    pub subject_total: u64,
    /// The sum of the subject's per-move counts.
    pub subject_moves_sum: u64,
    /// Whether the subject listed its moves; `false` for a totals-only subject, whose
    /// per-move counts were asked one consensus move at a time, so moves it has and ours
    /// lack cannot be named.
    pub named: bool,
    /// Moves only the subject has, with its counts.
    pub only_subject: Vec<(Move, u64)>,
    /// Moves only the consensus has, with its counts.
    pub only_consensus: Vec<(Move, u64)>,
    /// Moves both have, with counts that differ.
    pub counts_differ: Vec<MoveCounts>,
    /// Moves the subject listed more than once, with how many times (their counts
    /// above are the sums).
    pub listed_more_than_once: Vec<(Move, u32)>,
}

impl Comparison {
    /// How far the subject's total exceeds the sum of its counts for the moves it
    /// named (or, totals-only, for the consensus moves it plays): moves it has but
    /// cannot name.
    pub fn unnamed(&self) -> u64 {
        self.subject_total.saturating_sub(self.subject_moves_sum)
    }

    /// Whether anything differs.
    pub fn differs(&self) -> bool {
        self.subject_total != self.consensus_total
            || self.subject_moves_sum != self.subject_total
            || !self.only_subject.is_empty()
            || !self.only_consensus.is_empty()
            || !self.counts_differ.is_empty()
    }

    /// Whether the move sets differ at this position, not only counts below it.
    pub fn sets_differ(&self) -> bool {
        !self.only_subject.is_empty() || !self.only_consensus.is_empty() || self.unnamed() > 0
    }
}

/// The check a subject's move listed twice is named by (`listed-twice/subject`).
const LISTED_TWICE: &str = "listed-twice";

/// The one reading of a subject's difference on `pos`: the moves only it lists
/// (`extra`) or only the consensus lists (`missing`), else the moves it lists twice,
/// else counts alone.
pub(crate) fn subject_signature(
    pos: &Position,
    extra: &[Move],
    missing: &[Move],
    twice: &[Move],
) -> Signature {
    if !extra.is_empty() || !missing.is_empty() {
        Signature::of_moves("moves", "subject", pos, Lists::Legal, (extra, missing))
    } else if !twice.is_empty() {
        // One bug whatever kind of move it repeats: named by what it does, not by the
        // move's class.
        Signature::plain(LISTED_TWICE, "subject")
    } else {
        Signature::plain("counts", "subject")
    }
}

impl Comparison {
    /// Which bug this difference shows, on the position compared: the class of the
    /// moves only one side lists (`moves`), a move listed twice, else counts alone.
    pub fn signature(&self, pos: &Position) -> Signature {
        let extra: Vec<Move> = self.only_subject.iter().map(|&(mv, _)| mv).collect();
        let missing: Vec<Move> = self.only_consensus.iter().map(|&(mv, _)| mv).collect();
        let twice: Vec<Move> = self
            .listed_more_than_once
            .iter()
            .map(|&(mv, _)| mv)
            .collect();
        subject_signature(pos, &extra, &missing, &twice)
    }
}

/// Differing count rows shown; a bug near the root changes nearly every row, and the
/// first few say as much as all of them.
const SHOWN_ROWS: usize = 12;

fn moves_with_counts(list: &[(Move, u64)]) -> String {
    list.iter()
        // A bare `(0)` reads like a slip of the printer; a move listed with nothing
        // below it is said in words.
        .map(|(mv, n)| match n {
            0 => format!("{mv} (0 nodes below it)"),
            n => format!("{mv} ({n})"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {}: subject {}, built-ins {}",
            self.depth, self.subject_total, self.consensus_total
        )?;
        if !self.only_subject.is_empty() {
            write!(
                f,
                "\n  only the subject has: {}",
                moves_with_counts(&self.only_subject)
            )?;
        }
        if !self.only_consensus.is_empty() {
            write!(
                f,
                "\n  only the built-ins have: {}",
                moves_with_counts(&self.only_consensus)
            )?;
        }
        if !self.counts_differ.is_empty() {
            write!(f, "\n  {:<6}{:>14}{:>14}", "move", "subject", "built-ins")?;
            for c in self.counts_differ.iter().take(SHOWN_ROWS) {
                write!(f, "\n  {:<6}{:>14}{:>14}", c.mv, c.subject, c.consensus)?;
            }
            if self.counts_differ.len() > SHOWN_ROWS {
                let more = self.counts_differ.len() - SHOWN_ROWS;
                write!(f, "\n  ... and {more} more moves whose counts differ")?;
            }
        }
        if !self.listed_more_than_once.is_empty() {
            let list: Vec<String> = self
                .listed_more_than_once
                .iter()
                .map(|&(mv, times)| format!("{mv} {}", crate::moves::times_word(times)))
                .collect();
            write!(
                f,
                "\n  the subject lists {} (the built-ins once; counts above are the sums)",
                list.join(", ")
            )?;
        }
        if self.unnamed() > 0 {
            write!(
                f,
                "\n  the subject's total is {} more than its counts for the moves xqdiff knows: \
                 it has moves it cannot name",
                self.unnamed()
            )?;
        } else if self.subject_moves_sum != self.subject_total {
            write!(
                f,
                "\n  the subject's total {} is not the sum of its per-move counts ({})",
                self.subject_total, self.subject_moves_sum
            )?;
        }
        Ok(())
    }
}

/// Where a difference reproduces from a FEN alone, and the smallest position that
/// still shows it.
#[derive(Clone, Debug)]
pub struct Reproduction {
    /// How many moves down the path the position is (0: the target itself).
    pub ply: usize,
    /// That position.
    pub from: Position,
    /// The shallowest depth at which it differs there.
    pub depth: u32,
    /// `from`, minimized while the subject's perft at `depth` from its FEN still differs.
    pub minimized: Position,
    /// The subject beside the consensus at `minimized`; `None` if the subject could not
    /// give its full answer there.
    pub comparison: Option<Comparison>,
    /// The built-ins' divide at `minimized`: what a correct subject answers.
    pub expected: Vec<(Move, u64)>,
}

/// How a subject's difference was found and followed: the target it was met on, the
/// descent to where it shows, and its reproduction from a FEN alone.
#[derive(Clone, Debug)]
pub struct Trail {
    /// The subject's name.
    pub subject: String,
    /// The built-in generators it was compared with.
    pub builtins: Vec<String>,
    /// The index of the target it was met on: ties between witnesses go to the earlier.
    pub order: u64,
    /// The target it was found on.
    pub label: String,
    /// The target's position.
    pub root: Position,
    /// The depth asked at the root.
    pub depth: u32,
    /// Moves from the root to where the descent stopped.
    pub path: Vec<Move>,
    /// The position there (the built-ins' position after `path`).
    pub position: Position,
    /// The subject beside the consensus there, at the depth left.
    pub comparison: Comparison,
    /// Why the descent stopped before the move sets differed, if it did.
    pub note: Option<String>,
    /// What the subject failed on while its differences were followed (a follow-up
    /// question it refused, with its reason, or crashed or hung on), one sentence per
    /// kind of failure: part of this bug's story, not findings of their own.
    pub failures: Vec<String>,
    /// The smallest position that shows it; `None` if the subject failed first.
    pub reproduction: Option<Reproduction>,
    /// How to see it again: the command that checks the subject on the smallest
    /// position (where the descent stopped, when it could not be reproduced).
    pub found_by: Provenance,
}

impl Trail {
    /// Which bug the difference shows before it is named: the class of the moves that
    /// differ on the smallest position when the subject answered there, else where the
    /// descent stopped.
    pub(crate) fn symptom(&self) -> Signature {
        let minimized = self
            .reproduction
            .as_ref()
            .and_then(|r| Some((r.comparison.as_ref()?, &r.minimized)));
        match minimized {
            Some((c, at)) => c.signature(at),
            None => self.comparison.signature(&self.position),
        }
    }
}
