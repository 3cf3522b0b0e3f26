//! The 90-point bitboard: bit `rank * 9 + file` of a `u128`.

use crate::square::Square;
use std::ops::{BitAnd, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of points. The top 38 bits of the `u128` are always clear.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(crate) struct Bitboard(pub u128);

impl Bitboard {
    /// No point.
    pub(crate) const EMPTY: Bitboard = Bitboard(0);
    /// All 90 points.
    pub(super) const ALL: Bitboard = Bitboard((1u128 << 90) - 1);

    /// The set holding only `sq`.
    #[inline(always)]
    pub(crate) const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether no point is set.
    #[inline(always)]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many points are set.
    #[inline(always)]
    pub(crate) const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Index of the lowest set point; the set must not be empty.
    #[inline(always)]
    pub(crate) const fn lowest(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// Index of the highest set point; the set must not be empty.
    #[inline(always)]
    pub(crate) const fn highest(self) -> usize {
        127 - self.0.leading_zeros() as usize
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the board, so that counting and iterating never see the
    /// 38 bits past `i9`.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Pops the lowest point.
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index(self.lowest());
        self.0 &= self.0 - 1;
        sq
    }
}
