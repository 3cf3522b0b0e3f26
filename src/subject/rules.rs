//! What a subject's move lists are, and so how they are compared: the rules it follows
//! (`--rules`) and what its lists hold (`--compare`), for the moves protocol and the
//! Rust route alike; and the tally of the moves king-capture rules set aside.

use crate::diff::finding::counted;
use crate::generators::bitboard::BitboardGen;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;

/// The rules a subject's lists follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Rules {
    /// Moving into check is illegal (`docs/rules.md`).
    #[default]
    Legal,
    /// Moving into check is allowed; the king is captured instead. Such moves are set
    /// aside before the lists are compared.
    KingCapture,
}

/// What a subject's lists are compared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Compare {
    /// Its legal moves.
    #[default]
    Legal,
    /// Its pseudo-legal moves and its own check detector, each checked: its legal moves
    /// are the pseudo-legal ones after which it finds the mover's king safe.
    PseudoLegal,
}

/// How a subject's lists are read: the one reading a [`Compare`] and [`Rules`] pair
/// gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MovesMode {
    /// Its lists are the legal moves.
    #[default]
    Legal,
    /// Its pseudo-legal lists less the moves its own check detector finds unsafe.
    PseudoLegal,
    /// King-capture rules: its lists may hold moves that leave the mover's king
    /// exposed (it would be captured). Those are set aside where xqdiff's rules make
    /// them illegal; every other move is compared as a legal one.
    KingCapture,
}

/// A [`Compare`] and [`Rules`] pair that does not go together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "--compare pseudo-legal and --rules king-capture do not go together: a pseudo-legal \
     list is the same under both rules"
)]
pub struct ModeError;

impl MovesMode {
    /// The reading of lists compared as `compare` under `rules`.
    pub fn of(compare: Compare, rules: Rules) -> Result<MovesMode, ModeError> {
        match (compare, rules) {
            (Compare::Legal, Rules::Legal) => Ok(MovesMode::Legal),
            (Compare::PseudoLegal, Rules::Legal) => Ok(MovesMode::PseudoLegal),
            (Compare::Legal, Rules::KingCapture) => Ok(MovesMode::KingCapture),
            (Compare::PseudoLegal, Rules::KingCapture) => Err(ModeError),
        }
    }
}

crate::named::names!(Rules, "rules" {
    Legal => "legal",
    KingCapture => "king-capture",
});

crate::named::names!(Compare, "comparison" {
    Legal => "legal",
    PseudoLegal => "pseudo-legal",
});

/// Whether a move on `pos` is a move into check: one xqdiff's rules find pseudo-legal
/// and illegal there (it leaves the mover's king attacked, or facing the other king).
pub(crate) fn into_check(pos: &Position) -> impl Fn(Move) -> bool {
    let ours = BitboardGen.generate(pos);
    move |m| ours.pseudo_legal.contains(&m) && !ours.legal.contains(&m)
}

/// Whether `m`, made on `pos` whatever the shape of the move, leaves the mover's king
/// attacked or facing the other king: under king-capture rules such a move is the
/// rules' own, whichever piece made it. A diagnosis compares a king-capture subject's
/// answers with rule variants, which are legal-move generators, without them.
pub(crate) fn leaves_king_attacked(pos: &Position, m: Move) -> bool {
    pos.placed(m)
        .is_some_and(|s| !s.checkers(s.turn).is_empty() || s.kings_facing())
}

/// How many moves into check `pos` has.
fn moves_into_check(pos: &Position) -> u64 {
    let ours = BitboardGen.generate(pos);
    ours.pseudo_legal
        .iter()
        .filter(|m| !ours.legal.contains(m))
        .count() as u64
}

/// How many examples of set-aside moves a tally keeps.
pub(crate) const SET_ASIDE_EXAMPLES: usize = 3;

/// What a run under the legal rules whose every difference is a move into check
/// suggests: a generator that allows them by design is checked under its own rules.
pub(crate) const INTO_CHECK_HINT: &str = "every difference is a move into check: if your \
    generator is pseudo-legal by design, run with --rules king-capture (or --compare \
    pseudo-legal)";

/// The moves a king-capture subject listed that leave its own king capturable, set
/// aside before its lists were compared: counted, so a run says what it did not
/// compare, with the first few as examples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SetAside {
    /// Moves set aside, over every list.
    pub moves: u64,
    /// Lists (positions asked about) that held at least one.
    pub positions: u64,
    /// Lists read under king-capture rules, with or without one.
    pub lists: u64,
    /// The moves into check those positions have, listed or not: a generator that
    /// follows king-capture rules lists them all, one that follows the legal rules
    /// none.
    pub available: u64,
    /// The first few: the position's FEN and the move.
    pub examples: Vec<(String, Move)>,
}

impl SetAside {
    /// Sets aside, from `listed` (the subject's list on `pos`, each entry read as a
    /// move where it is one), the moves into check: the moves xqdiff's rules find
    /// pseudo-legal and illegal there. Nothing else is: a move that breaks a piece's own
    /// rules, or one listed twice, stays to be compared, as the bug it is under any
    /// rules.
    pub(crate) fn sift<T>(
        &mut self,
        pos: &Position,
        listed: &mut Vec<T>,
        read: impl Fn(&T) -> Option<Move>,
    ) {
        self.lists += 1;
        self.available += moves_into_check(pos);
        let is_into_check = into_check(pos);
        let moves: Vec<Option<Move>> = listed.iter().map(&read).collect();
        let into_check = |m: &Option<Move>| {
            m.is_some_and(|m| {
                is_into_check(m) && moves.iter().filter(|o| **o == Some(m)).count() == 1
            })
        };
        let before = listed.len();
        let mut aside = Vec::new();
        let mut i = 0;
        listed.retain(|_| {
            let keep = !into_check(&moves[i]);
            if !keep {
                aside.extend(moves[i]);
            }
            i += 1;
            keep
        });
        let set = (before - listed.len()) as u64;
        if set == 0 {
            return;
        }
        self.moves += set;
        self.positions += 1;
        let room = SET_ASIDE_EXAMPLES.saturating_sub(self.examples.len());
        let fen = pos.fen();
        self.examples
            .extend(aside.into_iter().take(room).map(|m| (fen.clone(), m)));
    }

    /// Adds `other`'s counts (a subject started again keeps its tally).
    pub(crate) fn absorb(&mut self, other: SetAside) {
        self.moves += other.moves;
        self.positions += other.positions;
        self.lists += other.lists;
        self.available += other.available;
        let room = SET_ASIDE_EXAMPLES.saturating_sub(self.examples.len());
        self.examples.extend(other.examples.into_iter().take(room));
    }
}

impl std::fmt::Display for SetAside {
    /// The summary's lines: how many were set aside and where, with the examples.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let moves = counted(self.moves, "move");
        let positions = counted(self.positions, "position");
        writeln!(
            f,
            "king-capture rules: {moves} into check set aside, on {positions} of {} \
             asked; every other move was compared",
            self.lists
        )?;
        for (fen, mv) in &self.examples {
            writeln!(f, "  set aside: {mv} on {fen}")?;
        }
        if self.moves == 0 && self.available > 0 {
            writeln!(
                f,
                "  it listed none of the {} into check there: if it follows the legal \
                 rules, leave out --rules king-capture",
                counted(self.available, "move")
            )?;
        } else if self.moves < self.available {
            writeln!(
                f,
                "  it lacks {} of the {} there, which a king-capture generator lists",
                self.available - self.moves,
                self.available
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of each setting a flag names reads back from its name, no two share
    /// one, and a name of none says which it could have been.
    #[test]
    fn each_setting_reads_back_from_its_name() {
        use crate::subject::external::{FenLetters, Ranks};
        use std::fmt::Debug;
        use std::str::FromStr;
        fn each<T>(all: &[T], name: fn(T) -> &'static str, what: &str)
        where
            T: Copy + Debug + PartialEq + FromStr<Err = crate::named::UnknownName>,
        {
            for &v in all {
                assert_eq!(name(v).parse::<T>(), Ok(v), "{what}");
            }
            let names: Vec<_> = all.iter().map(|&v| name(v)).collect();
            let distinct: std::collections::BTreeSet<_> = names.iter().collect();
            assert_eq!(distinct.len(), all.len(), "{what}: {names:?}");
            let err = "none".parse::<T>().unwrap_err();
            assert_eq!(err.what, what);
            assert_eq!(err.expected, names);
        }
        each(Rules::ALL, Rules::as_str, "rules");
        each(Compare::ALL, Compare::as_str, "comparison");
        each(Ranks::ALL, Ranks::as_str, "rank numbering");
        each(FenLetters::ALL, FenLetters::as_str, "FEN letters");
    }

    /// Red's advisor on e1 screens its king from a rook: every advisor move is into
    /// check, and so is the king's step to d0, facing the other king; a king taking its
    /// own advisor or an advisor stepping straight is not a move into check but a
    /// piece's rule broken, and a move listed twice is a bug under any rules.
    #[test]
    fn only_moves_into_check_listed_once_are_set_aside() {
        let pos = Position::from_fen("3k5/9/9/9/4r4/9/9/9/4A4/4K4 w - - 0 1").unwrap();
        let mv = |s: &str| s.parse::<Move>().unwrap();
        let table: &[(&[&str], &[&str], u64)] = &[
            (&["e1d2", "e1f2", "e0f0"], &["e0f0"], 2),
            // Kings facing on the d file.
            (&["e0d0", "e0f0"], &["e0f0"], 1),
            (&["e1d2", "e1d2", "e0f0"], &["e1d2", "e1d2", "e0f0"], 0),
            (&["e0e1", "e1e2", "e0f0"], &["e0e1", "e1e2", "e0f0"], 0),
        ];
        for &(listed, kept, set) in table {
            let mut tally = SetAside::default();
            let mut list: Vec<Move> = listed.iter().map(|s| mv(s)).collect();
            tally.sift(&pos, &mut list, |m| Some(*m));
            let want: Vec<Move> = kept.iter().map(|s| mv(s)).collect();
            assert_eq!(list, want, "{listed:?}");
            assert_eq!(tally.moves, set, "{listed:?}");
            assert_eq!(tally.positions, u64::from(set > 0), "{listed:?}");
            assert_eq!(tally.lists, 1);
            // Four advisor moves and the king's step to d0.
            assert_eq!(tally.available, 5);
        }
    }

    #[test]
    fn a_pair_that_does_not_go_together_is_refused() {
        assert_eq!(
            MovesMode::of(Compare::PseudoLegal, Rules::KingCapture),
            Err(ModeError)
        );
        assert_eq!(
            MovesMode::of(Compare::Legal, Rules::KingCapture),
            Ok(MovesMode::KingCapture)
        );
        assert_eq!("king-capture".parse(), Ok(Rules::KingCapture));
        assert!("capture".parse::<Rules>().is_err());
    }
}
