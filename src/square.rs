//! Board coordinates: 9 files `a`..`i`, 10 ranks `0`..`9`, as in ICCS.

use std::fmt;
use std::str::FromStr;

/// Number of files (`a`..`i`).
pub(crate) const FILES: u8 = 9;
/// Number of ranks (`0`..`9`).
pub(crate) const RANKS: u8 = 10;
/// Number of points on the board.
pub(crate) const SQUARE_COUNT: usize = 90;

/// One of the 90 points, indexed `rank * 9 + file` so that `a0` is 0 and `i9` is 89.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Red's left corner, index 0.
    pub const A0: Square = Square(0);

    /// The square at `file` (0 = `a`) and `rank` (0 = Red's back rank), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square with index `index` (`rank * 9 + file`), if below 90.
    pub(crate) const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARE_COUNT {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// `rank * 9 + file`, in `0..90`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 for `a` through 8 for `i`.
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank, 0 (Red's back rank) through 9 (Black's).
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// Every square, `a0`, `b0`, ... `i9`.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..SQUARE_COUNT as u8).map(Square)
    }

    /// The square seen from the other side of the board (rank `r` becomes `9 - r`).
    pub const fn flip_ranks(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// The square mirrored left to right (file `a` becomes `i`).
    pub const fn mirror_files(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-i then a rank 0-9")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(ParseSquareError(s.to_owned()));
        }
        let file = bytes[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'0');
        Square::new(file, rank).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_for_every_square() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a0".parse::<Square>().unwrap().index(), 0);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 89);
        assert_eq!("E0".parse::<Square>().unwrap().to_string(), "e0");
    }

    #[test]
    fn bad_names_are_errors() {
        for bad in ["", "a", "j0", "a10", "aa", "0a", "é0", "a/"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn flips_are_involutions() {
        for sq in Square::all() {
            assert_eq!(sq.flip_ranks().flip_ranks(), sq);
            assert_eq!(sq.mirror_files().mirror_files(), sq);
        }
        assert_eq!(
            "e0".parse::<Square>().unwrap().flip_ranks().to_string(),
            "e9"
        );
        assert_eq!(
            "a3".parse::<Square>().unwrap().mirror_files().to_string(),
            "i3"
        );
    }
}
