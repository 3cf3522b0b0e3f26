//! What kind of bug a disagreement shows, independent of the position it shows on: the
//! check, the side that is wrong, and for a move difference the class of move involved
//! (the piece kind, extra or missing, and the rule of `docs/rules.md` it touches).
//!
//! One rule bug gives one signature wherever it shows (a horse that ignores its leg is
//! `extra-horse-leg` whichever leg), and two rule bugs give two. The text form
//! (`pseudo-legal/planted/extra-horse-leg`) is stable: it is written into corpus notes and
//! reports, and `--known` files list it.
//!
//! Once a finding is diagnosed (`crate::diagnose`), the variant that explains it names
//! it instead: `cause/<side>/<variant>` ([`Signature::cause`]), whichever check saw it
//! and whatever kinds of move it touched, so one misread rule is one finding. The
//! move-class signature stays the name of a finding nothing explains, and a known list
//! that names it still matches the finding it now belongs to.
//!
//! The rule a move touches is read off the position with this module's own plain reading
//! of the rules, which labels and never decides: a generator's answer is still judged by
//! the vote.

use crate::diagnose::Variant;
use crate::piece::{Color, Piece, Role};
use crate::position::{in_palace, relative_rank, Position, Setup};
use crate::square::Square;
use crate::Move;
use std::fmt;

/// The check name in a signature for both `reused-board` and `walked-board`: one stale
/// piece list or cache shows as either, depending on whether the moves made and unmade
/// on the probe's board or a walked line reach it first. One bug, so one name.
pub(crate) const STALE_BOARD: &str = "stale-board";

/// The check name in a diagnosed signature: what names the bug is its cause, not the
/// check that happened to see it first.
pub(crate) const CAUSE: &str = "cause";

/// What kind of bug a disagreement shows.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signature {
    /// The check that saw it (an oracle check's name, or `moves` and `counts` for a
    /// subject's perft answers).
    pub check: String,
    /// Who is wrong: the odd one out, or `none` when the vote names no one.
    pub side: String,
    /// For a move difference, the class of the moves involved.
    pub class: Option<MoveClass>,
    /// For a diagnosed finding, the rule variant that explains it (the check is then
    /// `CAUSE` and there is no class).
    pub cause: Option<Variant>,
}

/// The class of a move some generators have and others lack.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MoveClass {
    /// Whether the wrong side has the move (extra) or lacks it (missing).
    pub extra: bool,
    /// The kind of piece that moves.
    pub role: Role,
    /// The rule it touches.
    pub rule: Rule,
}

/// The rule of the contract a move touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// A king or advisor move that leaves the palace.
    Palace,
    /// A step of the wrong length or direction for its kind.
    Step,
    /// An elephant crossing the river.
    River,
    /// An elephant over a blocked eye.
    Eye,
    /// A horse over a blocked leg.
    Leg,
    /// A pawn moving backward.
    Backward,
    /// A pawn moving sideways before it has crossed the river.
    SidewaysBeforeRiver,
    /// A rook or cannon line with pieces in the way of a quiet move or a rook capture.
    OverPiece,
    /// A cannon capture without exactly one screen.
    Screen,
    /// A piece taking one of its own side.
    OwnPiece,
    /// A move by the piece's rule that leaves the mover's king facing the other.
    KingsFacing,
    /// A move by the piece's rule that leaves the mover's king in check.
    InCheck,
    /// A legal quiet move along a clear line, or a legal step.
    Plain,
    /// A legal cannon capture over exactly one screen.
    CaptureOverScreen,
    /// A legal capture by a piece other than the cannon.
    Capture,
    /// A legal pawn move sideways, after the river.
    SidewaysAfterRiver,
    /// No piece of the side to move on the from point.
    NoPiece,
}

impl Rule {
    /// The rule's name in a signature.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Palace => "palace",
            Rule::Step => "step",
            Rule::River => "river",
            Rule::Eye => "eye",
            Rule::Leg => "leg",
            Rule::Backward => "backward",
            Rule::SidewaysBeforeRiver => "sideways-before-river",
            Rule::OverPiece => "over-piece",
            Rule::Screen => "screen",
            Rule::OwnPiece => "own-piece",
            Rule::KingsFacing => "kings-facing",
            Rule::InCheck => "in-check",
            Rule::Plain => "plain",
            Rule::CaptureOverScreen => "capture-over-screen",
            Rule::Capture => "capture",
            Rule::SidewaysAfterRiver => "sideways-after-river",
            Rule::NoPiece => "no-piece",
        }
    }
}

impl Rule {
    /// Whether the rule is about the mover's king rather than the mover: a move that
    /// exposes the king is a bug of the check detector or the pin logic, and which
    /// piece stepped off the line is the position's doing, not part of the bug. One
    /// detector that misses a cannon's check would otherwise be a finding per kind of
    /// piece that can step out of the way.
    pub(crate) fn ignores_mover(self) -> bool {
        matches!(self, Rule::KingsFacing | Rule::InCheck)
    }
}

impl fmt::Display for MoveClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = if self.extra { "extra" } else { "missing" };
        if self.rule == Rule::NoPiece {
            write!(f, "{side}-none-{}", self.rule.as_str())
        } else if self.rule.ignores_mover() {
            write!(f, "{side}-{}", self.rule.as_str())
        } else {
            write!(f, "{side}-{}-{}", self.role, self.rule.as_str())
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.check, self.side)?;
        if let Some(class) = &self.class {
            write!(f, "/{class}")?;
        }
        if let Some(variant) = self.cause {
            write!(f, "/{variant}")?;
        }
        Ok(())
    }
}

impl Signature {
    /// The signature of a difference in moves on `pos`: `extra` moves the wrong side
    /// has and the others lack, `missing` ones it lacks, from lists of the kind `lists`.
    /// The class is that of the first move in a fixed order (extra before missing, then
    /// by class), so the same moves always give the same signature.
    pub(crate) fn of_moves(
        check: &str,
        side: &str,
        pos: &Position,
        lists: Lists,
        (extra, missing): (&[Move], &[Move]),
    ) -> Signature {
        let classes = extra
            .iter()
            .map(|&mv| classify(pos, mv, true, lists))
            .chain(missing.iter().map(|&mv| classify(pos, mv, false, lists)));
        Signature {
            check: check.to_owned(),
            side: side.to_owned(),
            class: classes.min_by_key(|c| (!c.extra, c.rule, c.role)),
            cause: None,
        }
    }

    /// The signature of a finding of `side` that `variant` explains:
    /// `cause/<side>/<variant>`.
    pub fn cause(side: &str, variant: Variant) -> Signature {
        Signature {
            check: CAUSE.to_owned(),
            side: side.to_owned(),
            class: None,
            cause: Some(variant),
        }
    }

    /// The signature of a difference that involves no list of moves.
    pub fn plain(check: &str, side: &str) -> Signature {
        Signature {
            check: check.to_owned(),
            side: side.to_owned(),
            class: None,
            cause: None,
        }
    }

    /// Whether a move of this class is made by `role` (a signature without a class,
    /// one about a move from an empty point, or one about exposing the king, matches
    /// any).
    pub fn moves_role(&self) -> Option<Role> {
        self.class
            .filter(|c| c.rule != Rule::NoPiece && !c.rule.ignores_mover())
            .map(|c| c.role)
    }
}

/// Which rules a move list answers to, and so which rules its moves are classed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lists {
    /// Pseudo-legal moves, or a repeat in any list: only the piece's own movement
    /// counts. Whether the move would leave the king exposed is no part of such a bug:
    /// a cannon that cannot capture misses captures whether or not they are legal, and
    /// they must give one signature.
    Movement,
    /// Legal moves: leaving the mover's king facing or in check is a rule too.
    Legal,
}

/// The class of `mv` on `pos`, for a generator that has it (`extra`) or lacks it, in
/// lists of the kind `lists`.
pub(crate) fn classify(pos: &Position, mv: Move, extra: bool, lists: Lists) -> MoveClass {
    let class = |role, rule| MoveClass { extra, role, rule };
    let setup = pos.setup();
    let Some(piece) = setup.piece_at(mv.from).filter(|p| p.color == setup.turn) else {
        return class(Role::King, Rule::NoPiece);
    };
    let target = setup.piece_at(mv.to);
    if target.is_some_and(|t| t.color == piece.color) {
        return class(piece.role, Rule::OwnPiece);
    }
    if let Some(rule) = broken_rule(setup, mv, piece, target) {
        return class(piece.role, rule);
    }
    // By the piece's own rule the move is fine: what is left is whether it leaves the
    // mover's king exposed (for a legal list), and what kind of move it is.
    if lists == Lists::Legal {
        let mut after = setup.clone();
        after.board[mv.from.index()] = None;
        after.board[mv.to.index()] = Some(piece);
        // The mover's kind is left out of these (`Rule::ignores_mover`): one class
        // whichever piece moved.
        if after.kings_facing() {
            return class(Role::King, Rule::KingsFacing);
        }
        if !after.checkers(piece.color).is_empty() {
            return class(Role::King, Rule::InCheck);
        }
    }
    let rule = match (piece.role, target) {
        (Role::Cannon, Some(_)) => Rule::CaptureOverScreen,
        (_, Some(_)) => Rule::Capture,
        (Role::Pawn, None) if mv.from.rank() == mv.to.rank() => Rule::SidewaysAfterRiver,
        _ => Rule::Plain,
    };
    class(piece.role, rule)
}

fn on_own_side(color: Color, sq: Square) -> bool {
    relative_rank(color, sq) <= 4
}

fn at(file: i32, rank: i32) -> Option<Square> {
    Square::new(u8::try_from(file).ok()?, u8::try_from(rank).ok()?)
}

/// The rule of the piece's own movement that `mv` breaks on `setup`, if any.
fn broken_rule(setup: &Setup, mv: Move, piece: Piece, target: Option<Piece>) -> Option<Rule> {
    let (f0, r0) = (i32::from(mv.from.file()), i32::from(mv.from.rank()));
    let (f1, r1) = (i32::from(mv.to.file()), i32::from(mv.to.rank()));
    let (df, dr) = (f1 - f0, r1 - r0);
    let color = piece.color;
    let occupied = |f: i32, r: i32| at(f, r).is_some_and(|sq| setup.piece_at(sq).is_some());
    match piece.role {
        Role::King | Role::Advisor => {
            let step_ok = if piece.role == Role::King {
                df.abs() + dr.abs() == 1
            } else {
                df.abs() == 1 && dr.abs() == 1
            };
            if !in_palace(color, mv.to) {
                Some(Rule::Palace)
            } else {
                (!step_ok).then_some(Rule::Step)
            }
        }
        Role::Elephant => {
            if df.abs() != 2 || dr.abs() != 2 {
                Some(Rule::Step)
            } else if !on_own_side(color, mv.to) {
                Some(Rule::River)
            } else {
                occupied(f0 + df / 2, r0 + dr / 2).then_some(Rule::Eye)
            }
        }
        Role::Horse => {
            let shape = (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1);
            if !shape {
                return Some(Rule::Step);
            }
            // The leg is the point next to the horse in the long direction.
            let (lf, lr) = if df.abs() == 2 {
                (f0 + df / 2, r0)
            } else {
                (f0, r0 + dr / 2)
            };
            occupied(lf, lr).then_some(Rule::Leg)
        }
        Role::Rook | Role::Cannon => {
            let Some(between) = setup.pieces_between(mv.from, mv.to) else {
                return Some(Rule::Step);
            };
            match (piece.role, target) {
                (Role::Cannon, Some(_)) => (between != 1).then_some(Rule::Screen),
                _ => (between != 0).then_some(Rule::OverPiece),
            }
        }
        Role::Pawn => {
            let forward = if color == Color::Red { 1 } else { -1 };
            if dr == -forward && df == 0 {
                Some(Rule::Backward)
            } else if dr == 0 && df.abs() == 1 {
                on_own_side(color, mv.from).then_some(Rule::SidewaysBeforeRiver)
            } else {
                (!(dr == forward && df == 0)).then_some(Rule::Step)
            }
        }
    }
}

/// A line of a known-bugs file that is not a signature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: `{text}` is not a signature (check/side[/class], as a run prints them)")]
pub struct KnownError {
    /// The line number, from 1.
    pub line: usize,
    /// The line, cut short.
    pub text: String,
}

/// Reads a known-bugs file: one signature per line, optionally followed by a note after
/// whitespace; blank lines and `#` comments are skipped.
pub(crate) fn parse_known(text: &str) -> Result<Vec<(String, Option<String>)>, KnownError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (sig, note) = match line.split_once(char::is_whitespace) {
            Some((sig, note)) => (sig, Some(note.trim().to_owned())),
            None => (line, None),
        };
        let parts: Vec<&str> = sig.split('/').collect();
        let word = |p: &&str| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        };
        if !(2..=3).contains(&parts.len()) || !parts.iter().all(word) {
            return Err(KnownError {
                line: i + 1,
                text: line.chars().take(80).collect(),
            });
        }
        out.push((sig.to_owned(), note));
    }
    Ok(out)
}

/// A known-bugs file listing `signatures`, each with its note (what `--write-known`
/// writes and [`parse_known`] reads back).
pub(crate) fn format_known<'a>(
    signatures: impl IntoIterator<Item = (&'a Signature, String)>,
) -> String {
    let mut out = String::from(
        "# Known bugs, one signature per line with a note; xqdiff --known FILE reports\n\
         # them as known and does not fail on them.\n",
    );
    for (sig, note) in signatures {
        out.push_str(&format!("{sig} {note}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class_of(fen: &str, mv: &str, extra: bool) -> String {
        let pos = Position::from_fen(fen).unwrap();
        classify(&pos, mv.parse().unwrap(), extra, Lists::Legal).to_string()
    }

    /// One table of moves and the class each belongs to: every rule a planted bug can
    /// break has a row, so a class that merged two rules, or split one, fails here.
    #[test]
    fn each_move_is_named_by_the_rule_it_touches() {
        let table: &[(&str, &str, bool, &str)] = &[
            (
                "4k4/9/5aN2/9/9/9/9/9/9/3K5 w",
                "g7e8",
                true,
                "extra-horse-leg",
            ),
            (
                "4k4/9/5aN2/9/9/9/9/9/9/3K5 w",
                "g7e6",
                true,
                "extra-horse-leg",
            ),
            (
                "4k4/9/5aN2/9/9/9/9/9/9/3K5 w",
                "g7f9",
                true,
                "extra-horse-plain",
            ),
            (
                "4k4/9/9/9/9/9/P8/9/9/3K5 w",
                "a3b3",
                true,
                "extra-pawn-sideways-before-river",
            ),
            (
                "4k4/9/9/P8/9/9/9/9/9/3K5 w",
                "a6b6",
                false,
                "missing-pawn-sideways-after-river",
            ),
            (
                "4k4/9/9/P8/9/9/9/9/9/3K5 w",
                "a6a5",
                true,
                "extra-pawn-backward",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w",
                "d0c0",
                true,
                "extra-king-palace",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w",
                "d0e0",
                true,
                "extra-kings-facing",
            ),
            (
                "4k4/9/9/9/6b2/9/9/9/9/3K5 b",
                "g5e3",
                true,
                "extra-elephant-river",
            ),
            (
                "3k5/3n5/4b4/9/9/9/9/9/9/3K5 b",
                "e7c9",
                true,
                "extra-elephant-eye",
            ),
            (
                "4k4/9/9/9/9/Pp6c/9/9/9/3K5 b",
                "i4a4",
                false,
                "missing-cannon-capture-over-screen",
            ),
            (
                "4k4/9/9/9/9/P7c/9/9/9/3K5 b",
                "i4a4",
                true,
                "extra-cannon-screen",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/R2K5 w",
                "a0c0",
                true,
                "extra-rook-plain",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/Rn1K5 w",
                "a0c0",
                true,
                "extra-rook-over-piece",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4r4/4K4 w",
                "e0d0",
                false,
                "missing-king-plain",
            ),
            (
                "5k3/9/9/9/9/9/9/9/3r5/4K4 w",
                "e0d0",
                true,
                "extra-in-check",
            ),
            (
                "4k4/9/9/9/9/9/9/9/9/3K5 w",
                "e5e6",
                true,
                "extra-none-no-piece",
            ),
        ];
        for &(fen, mv, extra, want) in table {
            assert_eq!(class_of(fen, mv, extra), want, "{mv} on {fen}");
        }
    }

    #[test]
    fn a_signature_reads_as_its_parts() {
        let pos = Position::from_fen("4k4/9/5aN2/9/9/9/9/9/9/3K5 w").unwrap();
        let leg: Move = "g7e6".parse().unwrap();
        let free: Move = "g7f9".parse().unwrap();
        let sig = Signature::of_moves(
            "pseudo-legal",
            "planted",
            &pos,
            Lists::Movement,
            (&[free, leg], &[]),
        );
        assert_eq!(sig.to_string(), "pseudo-legal/planted/extra-horse-leg");
        // In a movement list, a move that would leave the king exposed is classed by
        // the piece's rule alone.
        let pinned = Position::from_fen("5k3/9/9/9/9/9/9/9/3r5/4K4 w").unwrap();
        let into_check: Move = "e0d0".parse().unwrap();
        let class =
            |lists| Signature::of_moves("x", "y", &pinned, lists, (&[into_check], &[])).to_string();
        assert_eq!(class(Lists::Legal), "x/y/extra-in-check");
        // Whichever piece steps off the line, exposing the king is one class: a
        // detector that misses the rook's check is one bug.
        let exposes = |fen: &str, mv: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let mv: Move = mv.parse().unwrap();
            Signature::of_moves("legal", "y", &pos, Lists::Legal, (&[mv], &[]))
        };
        let horse = exposes("4r4/3k5/9/9/9/9/9/9/4N4/4K4 w", "e1d3");
        assert_eq!(horse, exposes("4r4/3k5/9/9/9/9/9/9/4R4/4K4 w", "e1a1"));
        assert_eq!(horse.to_string(), "legal/y/extra-in-check");
        assert_eq!(horse.moves_role(), None);
        assert_eq!(class(Lists::Movement), "x/y/extra-king-plain");
        assert_eq!(sig.moves_role(), Some(Role::Horse));
        assert_eq!(Signature::plain("count", "none").to_string(), "count/none");
    }

    /// A stale piece list shows as `reused-board` or `walked-board` by where it is met
    /// first: one bug, one signature, and a known list written with either old name
    /// still sets it aside. A wrong unmake, which the squares do show, stays its own.
    #[test]
    fn the_two_state_checks_share_a_signature() {
        use crate::diff::oracle::{CheckKind, Disagreement};
        let of = |check, odd: &str| {
            Disagreement {
                check,
                position: Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap(),
                generators: vec!["mailbox".into(), "bitboard".into(), "naive".into()],
                odd_one_out: Some(odd.to_owned()),
                only_in: Vec::new(),
                detail: String::new(),
                line: Vec::new(),
            }
            .signature()
        };
        let reused = of(CheckKind::ReusedBoard, "mailbox");
        assert_eq!(reused, of(CheckKind::WalkedBoard, "mailbox"));
        assert_eq!(reused.to_string(), "stale-board/mailbox");
        assert_ne!(reused, of(CheckKind::WalkedBoard, "naive"));
        assert_eq!(
            of(CheckKind::Unmake, "mailbox").to_string(),
            "unmake/mailbox"
        );
        use crate::diff::finding::known::Known;
        for old in [
            "reused-board/mailbox",
            "walked-board/mailbox",
            "stale-board/mailbox",
        ] {
            assert!(Known::from_iter([old]).contains(&reused), "{old}");
        }
        assert!(!Known::from_iter(["walked-board/naive"]).contains(&reused));
        let unmake = of(CheckKind::Unmake, "mailbox");
        assert!(!Known::from_iter(["reused-board/mailbox"]).contains(&unmake));
    }

    #[test]
    fn a_known_file_reads_back_what_was_written() {
        let sig = Signature::plain("count", "planted");
        let text = format_known([(&sig, "seen 3 times".to_owned())]);
        assert_eq!(
            parse_known(&text).unwrap(),
            vec![("count/planted".to_owned(), Some("seen 3 times".to_owned()))]
        );
        let err = parse_known("# fine\ncount/planted\nbanana\n").unwrap_err();
        assert_eq!(err.line, 3);
    }
}
