//! Where pieces reach: rook and cannon lines by scanning each ray for its nearest
//! blocker (seed 003), and the lame leapers through their leg or eye tables.

use super::bits::Bitboard;
use super::tables::{Lame, EAST, NORTH, RAYS, SOUTH, WEST};

/// The nearest of `blockers` (not empty) along ray `D`: the lowest set bit on rays
/// that climb in index, the highest on rays that fall.
#[inline(always)]
fn nearest<const D: usize>(blockers: Bitboard) -> usize {
    if D == NORTH || D == EAST {
        blockers.lowest()
    } else {
        blockers.highest()
    }
}

/// The part of `ray` up to and including its first blocker.
#[inline(always)]
fn rook_ray<const D: usize>(i: usize, occ: Bitboard) -> Bitboard {
    let ray = RAYS[D][i];
    let blockers = ray & occ;
    if blockers.is_empty() {
        return ray;
    }
    let b = nearest::<D>(blockers);
    ray ^ RAYS[D][b]
}

/// The part of one ray from the king that must be watched, or `None` for check. With
/// `k` pieces between the king and an enemy piece on the ray, a rook (or the king)
/// gives check at `k == 0` and a cannon at `k == 1`; one move changes `k` by at most
/// one, so only a rook at `k == 1` and a cannon at `k == 0` or `k == 2` can be woken,
/// and nothing beyond the third piece matters.
#[inline(always)]
pub(crate) fn watch_ray<const D: usize>(
    ki: usize,
    occ: Bitboard,
    rookish: Bitboard,
    cannons: Bitboard,
) -> Option<Bitboard> {
    let ray = RAYS[D][ki];
    if (ray & (rookish | cannons)).is_empty() {
        return Some(Bitboard::EMPTY);
    }
    let mut blockers = ray & occ;
    let mut watched = Bitboard::EMPTY;
    let mut k = 0;
    while !blockers.is_empty() && k <= 2 {
        let s = nearest::<D>(blockers);
        let b = Bitboard(1u128 << s);
        blockers ^= b;
        if !(rookish & b).is_empty() {
            match k {
                0 => return None,
                1 => watched = ray ^ RAYS[D][s],
                _ => {}
            }
        } else if !(cannons & b).is_empty() {
            if k == 1 {
                return None;
            }
            watched = ray ^ RAYS[D][s];
        }
        k += 1;
    }
    Some(watched)
}

/// Whether one of `rookish` (rooks, and the king, which attacks along a file the same
/// way) or of `cannons` hits point `i` along ray `D`: a rookish piece as the first
/// blocker, a cannon as the second. One scan for both, and none when neither kind
/// stands on the ray, so a caller pays only for the rays that matter.
#[inline(always)]
pub(crate) fn line_hit<const D: usize>(
    i: usize,
    occ: Bitboard,
    rookish: Bitboard,
    cannons: Bitboard,
) -> bool {
    let ray = RAYS[D][i];
    if (ray & (rookish | cannons)).is_empty() {
        return false;
    }
    let blockers = ray & occ;
    if blockers.is_empty() {
        return false;
    }
    let first = nearest::<D>(blockers);
    if rookish.0 >> first & 1 != 0 {
        return true;
    }
    let beyond = RAYS[D][first] & occ;
    if beyond.is_empty() {
        return false;
    }
    let second = nearest::<D>(beyond);
    cannons.0 >> second & 1 != 0
}

/// Rook targets from point `i`, own pieces included (the caller masks them off).
#[inline(always)]
pub(crate) fn rook_targets(i: usize, occ: Bitboard) -> Bitboard {
    rook_ray::<NORTH>(i, occ)
        | rook_ray::<EAST>(i, occ)
        | rook_ray::<SOUTH>(i, occ)
        | rook_ray::<WEST>(i, occ)
}

/// The piece beyond the screen on one ray, if there is one.
#[inline(always)]
fn cannon_ray<const D: usize>(i: usize, occ: Bitboard) -> Bitboard {
    let blockers = RAYS[D][i] & occ;
    if blockers.is_empty() {
        return Bitboard::EMPTY;
    }
    let screen = nearest::<D>(blockers);
    let beyond = RAYS[D][screen] & occ;
    if beyond.is_empty() {
        return Bitboard::EMPTY;
    }
    let hit = nearest::<D>(beyond);
    Bitboard(1u128 << hit)
}

/// Every point a cannon on `i` would capture if an enemy stood there: the first piece
/// beyond the screen in each direction, of either colour.
#[inline(always)]
pub(crate) fn cannon_hits(i: usize, occ: Bitboard) -> Bitboard {
    cannon_ray::<NORTH>(i, occ)
        | cannon_ray::<EAST>(i, occ)
        | cannon_ray::<SOUTH>(i, occ)
        | cannon_ray::<WEST>(i, occ)
}

/// The part of one ray up to and including its second blocker (the whole ray when it
/// has fewer): every point whose emptying or filling changes a cannon's moves along it.
#[inline(always)]
fn cannon_span<const D: usize>(i: usize, occ: Bitboard) -> Bitboard {
    let ray = RAYS[D][i];
    let blockers = ray & occ;
    if blockers.is_empty() {
        return ray;
    }
    let screen = nearest::<D>(blockers);
    let beyond = RAYS[D][screen] & occ;
    if beyond.is_empty() {
        return ray;
    }
    let hit = nearest::<D>(beyond);
    ray ^ RAYS[D][hit]
}

/// [`cannon_span`] in all four directions.
#[inline(always)]
pub(crate) fn cannon_reach(i: usize, occ: Bitboard) -> Bitboard {
    cannon_span::<NORTH>(i, occ)
        | cannon_span::<EAST>(i, occ)
        | cannon_span::<SOUTH>(i, occ)
        | cannon_span::<WEST>(i, occ)
}

/// Cannon moves: rook moves onto empty points, and captures over a screen.
#[inline(always)]
pub(crate) fn cannon_targets(i: usize, occ: Bitboard, enemy: Bitboard) -> Bitboard {
    (rook_targets(i, occ) & !occ) | (cannon_hits(i, occ) & enemy)
}

/// Landing points of a lame leaper whose leg or eye is empty.
#[inline(always)]
pub(crate) fn lame_targets(table: &[Lame; 4], occ: Bitboard) -> Bitboard {
    let mut t = Bitboard::EMPTY;
    for lame in table {
        if (lame.block & occ).is_empty() {
            t |= lame.targets;
        }
    }
    t
}

/// Whether any of `horses` reaches the centre of a reverse horse table.
#[inline(always)]
pub(crate) fn horse_reaches(table: &[Lame; 4], occ: Bitboard, horses: Bitboard) -> bool {
    table
        .iter()
        .any(|lame| !(lame.targets & horses).is_empty() && (lame.block & occ).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks each line point by point: the rook stops on the first piece, the cannon
    /// takes the first piece beyond the screen, and its span ends there.
    fn slow(i: usize, occ: u128) -> (u128, u128, u128) {
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        let (mut rook, mut hits, mut span) = (0u128, 0u128, 0u128);
        for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let (mut x, mut y, mut screens) = (f + df, r + dr, 0);
            while (0..9).contains(&x) && (0..10).contains(&y) {
                let b = 1u128 << (y * 9 + x);
                span |= b;
                if screens == 0 {
                    rook |= b;
                }
                if occ & b != 0 {
                    screens += 1;
                    if screens == 2 {
                        hits |= b;
                        break;
                    }
                }
                x += df;
                y += dr;
            }
        }
        (rook, hits, span)
    }

    #[test]
    fn ray_scans_match_a_walk_on_random_boards() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..4000 {
            // Sparse and dense boards alike.
            let density = round % 4;
            let mut occ = (u128::from(next()) << 64 | u128::from(next())) & Bitboard::ALL.0;
            for _ in 0..density {
                occ &= (u128::from(next()) << 64) | u128::from(next());
            }
            for i in 0..90 {
                let (rook, hits, span) = slow(i, occ);
                assert_eq!(cannon_reach(i, Bitboard(occ)).0, span, "{i} {occ:x}");
                assert_eq!(rook_targets(i, Bitboard(occ)).0, rook, "{i} {occ:x}");
                assert_eq!(cannon_hits(i, Bitboard(occ)).0, hits, "{i} {occ:x}");
                let enemy = Bitboard(occ & u128::from(next()) << 26);
                assert_eq!(
                    cannon_targets(i, Bitboard(occ), enemy).0,
                    (rook & !occ) | (hits & enemy.0),
                    "{i} {occ:x}"
                );
                // Some of the pieces as rooks, some others as cannons.
                let rookish = occ & (u128::from(next()) << 64 | u128::from(next()));
                let cannons = occ & !rookish & (u128::from(next()) << 64 | u128::from(next()));
                let (r, c) = (Bitboard(rookish), Bitboard(cannons));
                let hit = line_hit::<NORTH>(i, Bitboard(occ), r, c)
                    || line_hit::<EAST>(i, Bitboard(occ), r, c)
                    || line_hit::<SOUTH>(i, Bitboard(occ), r, c)
                    || line_hit::<WEST>(i, Bitboard(occ), r, c);
                assert_eq!(
                    hit,
                    rook & rookish != 0 || hits & cannons != 0,
                    "{i} {occ:x} {rookish:x} {cannons:x}"
                );
            }
        }
    }
}
