//! Moves in ICCS notation, and a fixed-capacity move list.

use crate::square::Square;
use std::fmt;
use std::str::FromStr;

/// A move from one point to another, printed in ICCS as `h2e2`.
///
/// ```
/// use xqdiff::{Move, Square};
///
/// // The central cannon: files a to i from Red's left, ranks 0 to 9 from Red's side.
/// let mv: Move = "h2e2".parse()?;
/// assert_eq!(mv.from, Square::new(7, 2).expect("on the board"));
/// assert_eq!(mv, "H2-E2".parse()?);
/// assert_eq!(mv.to_string(), "h2e2");
/// assert_eq!(mv.mirror_files().to_string(), "b2e2");
/// # Ok::<(), xqdiff::moves::ParseMoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

impl Move {
    /// A move from `from` to `to`.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The same move on a board mirrored left to right.
    pub const fn mirror_files(self) -> Move {
        Move::new(self.from.mirror_files(), self.to.mirror_files())
    }

    /// The same move on a board turned around (ranks `r` to `9 - r`).
    pub const fn flip_ranks(self) -> Move {
        Move::new(self.from.flip_ranks(), self.to.flip_ranks())
    }

    /// The move as one number, its from-point the high byte: the order of moves.
    const fn key(self) -> u16 {
        ((self.from.index() as u16) << 8) | self.to.index() as u16
    }
}

/// By from-point, then to-point, as a derived order would be, but in one comparison:
/// the oracle sorts every move list it is given, some forty a position.
impl Ord for Move {
    fn cmp(&self, other: &Move) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Move) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Why a move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid move {0:?}: expected ICCS such as h2e2 or H2-E2")]
pub struct ParseMoveError(pub String);

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `h2e2`, `H2E2` or the dashed `H2-E2`.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.to_owned());
        let (a, b) = match (s.len(), s.get(2..3)) {
            (4, _) => (s.get(0..2), s.get(2..4)),
            (5, Some("-")) => (s.get(0..2), s.get(3..5)),
            _ => return Err(err()),
        };
        let from = a.ok_or_else(err)?.parse().map_err(|_| err())?;
        let to = b.ok_or_else(err)?.parse().map_err(|_| err())?;
        Ok(Move::new(from, to))
    }
}

/// Room for every pseudo-legal move of any position: the most a side can have is
/// 2 rooks x 17 + 2 cannons x 17 + 2 horses x 8 + 2 elephants x 4 + 2 advisors x 4
/// + king 4 + 5 pawns x 3 = 119.
pub(crate) const MAX_MOVES: usize = 128;

/// A move list that lives on the stack, so perft allocates nothing per node.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::new(Square::A0, Square::A0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. More than `MAX_MOVES` cannot happen on a valid position; a
    /// generator bug that tried would be caught by the differential checks, so the
    /// excess is dropped rather than panicking inside perft.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// Number of moves held.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves held, in generation order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// `once`, `twice`, `3 times`: how often a move is listed, in every message that says
/// so.
pub(crate) fn times_word(times: u32) -> String {
    match times {
        1 => "once".to_owned(),
        2 => "twice".to_owned(),
        n => format!("{n} times"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_forms_are_read_and_printed_canonically() {
        for text in ["h2e2", "H2E2", "H2-E2", "h2-e2"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), "h2e2", "{text}");
        }
        for bad in ["", "h2e", "h2e22", "h2+e2", "j2e2", "h2ex", "h2—e2"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    /// Moves are ordered by from-point, then to-point, as the lists compared and the
    /// sorted files written have always been.
    #[test]
    fn moves_order_by_from_then_to() {
        let all: Vec<Move> = Square::all()
            .flat_map(|from| Square::all().map(move |to| Move::new(from, to)))
            .collect();
        for a in &all {
            for b in all.iter().step_by(97) {
                assert_eq!(a.cmp(b), (a.from, a.to).cmp(&(b.from, b.to)), "{a} {b}");
            }
        }
    }
}
