//! The 16x16 board's geometry as `const` tables, built once by `const fn`.
//!
//! The 90 points sit in a 256-entry array with a border three ranks deep at top and
//! bottom and three files wide at left: the longest leaper (a horse's 33, an
//! elephant's 34) then always lands inside the array, so no step ever needs a bounds
//! test, only a look at what stands there.

use crate::square::Square;

/// Side tag of Red's pieces and of Red's half of the board.
pub(crate) const RED: u8 = 16;
/// Side tag of Black's pieces and of Black's half.
pub(crate) const BLACK: u8 = 32;
/// What the border holds: both side tags at once, so that every "is it mine?" test
/// says yes and no leaper ever steps off the board, and every "is it theirs?" test
/// (which compares the tag bits for equality) says no.
pub(crate) const BORDER: u8 = RED | BLACK;
/// Both tag bits, to read a code's side.
pub(crate) const SIDE_MASK: u8 = RED | BLACK;

/// Each side's 16 slots (code = side tag + slot), grouped by kind so generation
/// walks one kind at a time without reading a kind from the board.
pub(crate) const KING_SLOT: u8 = 0;
/// First and last advisor slot.
pub(crate) const ADVISOR_SLOTS: (u8, u8) = (1, 2);
/// First and last elephant slot.
pub(crate) const ELEPHANT_SLOTS: (u8, u8) = (3, 4);
/// First and last horse slot.
pub(crate) const HORSE_SLOTS: (u8, u8) = (5, 6);
/// First and last rook slot.
pub(crate) const ROOK_SLOTS: (u8, u8) = (7, 8);
/// First and last cannon slot.
pub(crate) const CANNON_SLOTS: (u8, u8) = (9, 10);
/// First and last pawn slot.
pub(crate) const PAWN_SLOTS: (u8, u8) = (11, 15);

/// One orthogonal step: the king's move, the rook's and cannon's lines, the horse's leg.
pub(crate) const KING_DELTA: [i8; 4] = [-16, -1, 1, 16];
/// One diagonal step: the advisor's move, the elephant's eye.
pub(crate) const ADVISOR_DELTA: [i8; 4] = [-17, -15, 15, 17];
/// The horse's two targets beyond each leg of [`KING_DELTA`], same order.
pub(crate) const HORSE_DELTA: [[i8; 2]; 4] = [[-33, -31], [-18, 14], [-14, 18], [31, 33]];
/// Horses that reach the king through a leg on each diagonal of [`ADVISOR_DELTA`]:
/// seen from the king, an attacking horse's leg is the point diagonally next to the king.
pub(crate) const HORSE_CHECK_DELTA: [[i8; 2]; 4] = [[-33, -18], [-31, -14], [14, 31], [18, 33]];

/// The 256-array index of the point at `file`, `rank`.
pub(super) const fn sq256(file: u8, rank: u8) -> u8 {
    (rank + 3) * 16 + file + 3
}

/// File (0..9) and rank (0..10) of an array index, if it is a board point.
pub(super) const fn file_rank(sq: usize) -> Option<(u8, u8)> {
    let (row, col) = (sq / 16, sq % 16);
    if row >= 3 && row <= 12 && col >= 3 && col <= 11 {
        Some(((col - 3) as u8, (row - 3) as u8))
    } else {
        None
    }
}

const fn build_in_board() -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = file_rank(i).is_some();
        i += 1;
    }
    t
}

const fn build_palace() -> [u8; 256] {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        if let Some((f, r)) = file_rank(i) {
            if f >= 3 && f <= 5 {
                if r <= 2 {
                    t[i] = RED;
                } else if r >= 7 {
                    t[i] = BLACK;
                }
            }
        }
        i += 1;
    }
    t
}

const fn build_river_side() -> [u8; 256] {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        if let Some((_, r)) = file_rank(i) {
            t[i] = if r <= 4 { RED } else { BLACK };
        }
        i += 1;
    }
    t
}

const fn build_square_of() -> [Square; 256] {
    let mut t = [Square::A0; 256];
    let mut i = 0;
    while i < 256 {
        if let Some((f, r)) = file_rank(i) {
            if let Some(s) = Square::new(f, r) {
                t[i] = s;
            }
        }
        i += 1;
    }
    t
}

const fn build_index_of() -> [u8; 256] {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 90 {
        t[i] = sq256((i % 9) as u8, (i / 9) as u8);
        i += 1;
    }
    t
}

/// Whether an array index is one of the 90 points.
pub(crate) static IN_BOARD: [bool; 256] = build_in_board();
/// Whose palace a point is in: [`RED`], [`BLACK`] or 0. Kings and advisors compare it
/// with their own tag, so one look both keeps them on the board and in their palace.
pub(crate) static PALACE: [u8; 256] = build_palace();
/// Which side of the river a point lies on: [`RED`], [`BLACK`], or 0 off the board.
/// An elephant may land only where this equals its tag; a pawn has crossed once it differs.
pub(crate) static RIVER_SIDE: [u8; 256] = build_river_side();
/// The shared [`Square`] of each array index (`a0` for border entries, never read).
pub(crate) static SQUARE_OF: [Square; 256] = build_square_of();
/// The array index of each [`Square::index`] (0..90; the rest are unused).
pub(crate) static INDEX_OF: [u8; 256] = build_index_of();

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table against a slow reading of the rules contract, for all 256 entries.
    #[test]
    fn tables_match_the_rules_everywhere() {
        let mut points = 0;
        for i in 0..256usize {
            let (row, col) = (i / 16, i % 16);
            let point = (3..13).contains(&row) && (3..12).contains(&col);
            assert_eq!(IN_BOARD[i], point, "in board {i}");
            if !point {
                assert_eq!(PALACE[i], 0, "palace {i}");
                assert_eq!(RIVER_SIDE[i], 0, "river {i}");
                continue;
            }
            points += 1;
            let sq = Square::new((col - 3) as u8, (row - 3) as u8).unwrap();
            let name = sq.to_string();
            let file = name.as_bytes()[0];
            let rank = name.as_bytes()[1] - b'0';
            let in_palace_files = (b'd'..=b'f').contains(&file);
            let want_palace = match rank {
                0..=2 if in_palace_files => RED,
                7..=9 if in_palace_files => BLACK,
                _ => 0,
            };
            assert_eq!(PALACE[i], want_palace, "palace {name}");
            assert_eq!(
                RIVER_SIDE[i],
                if rank < 5 { RED } else { BLACK },
                "river {name}"
            );
            assert_eq!(SQUARE_OF[i], sq, "square of {i}");
            assert_eq!(INDEX_OF[sq.index()] as usize, i, "index of {name}");
            assert_eq!(file_rank(i), Some((sq.file(), sq.rank())));
        }
        assert_eq!(points, 90);
    }

    /// The deltas against their geometric meaning, and the border against the longest jump.
    #[test]
    fn deltas_and_border_are_consistent() {
        let step = |df: i32, dr: i32| (dr * 16 + df) as i8;
        assert_eq!(
            KING_DELTA,
            [step(0, -1), step(-1, 0), step(1, 0), step(0, 1)]
        );
        for (i, &leg) in KING_DELTA.iter().enumerate() {
            for &target in &HORSE_DELTA[i] {
                // A target beyond a leg is the leg plus a diagonal step pointing outward.
                let diag = target - leg;
                assert!(ADVISOR_DELTA.contains(&diag), "horse {target} via {leg}");
            }
        }
        for (i, &diag) in ADVISOR_DELTA.iter().enumerate() {
            for &horse in &HORSE_CHECK_DELTA[i] {
                // The horse stands one orthogonal step beyond the diagonal point.
                assert!(
                    KING_DELTA.contains(&(horse - diag)),
                    "check {horse} via {diag}"
                );
                // And that diagonal point is the horse's own leg toward the king.
                let leg_from_horse = diag - horse;
                let k = KING_DELTA
                    .iter()
                    .position(|&d| d == leg_from_horse)
                    .unwrap();
                assert!(HORSE_DELTA[k].contains(&-horse));
            }
        }
        for i in (0..256).filter(|&i| IN_BOARD[i]) {
            for d in [-34i32, -33, 33, 34, -18, 18] {
                let t = i as i32 + d;
                assert!((0..256).contains(&t), "{i}{d:+} leaves the array");
            }
        }
    }
}
