//! Precomputed per-point tables, built by `const fn` at compile time.

use super::bits::Bitboard;

/// Ray index toward Black's side (index grows by 9 a step).
pub(crate) const NORTH: usize = 0;
/// Ray index toward file `i` (index grows by 1 a step).
pub(crate) const EAST: usize = 1;
/// Ray index toward Red's side (index shrinks by 9 a step).
pub(crate) const SOUTH: usize = 2;
/// Ray index toward file `a` (index shrinks by 1 a step).
pub(crate) const WEST: usize = 3;

/// Steps of the four rays, in the order of the indices above.
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// A lame leaper's move from one point in one direction: the point that must be empty
/// (the horse's leg or the elephant's eye) and the points it then reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lame {
    /// The leg or eye; empty when the direction leaves the board.
    pub block: Bitboard,
    /// Where the piece lands when `block` is empty.
    pub targets: Bitboard,
}

const NO_LAME: Lame = Lame {
    block: Bitboard::EMPTY,
    targets: Bitboard::EMPTY,
};

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

/// The point's bit, or nothing when off the board.
const fn bit(f: i32, r: i32) -> u128 {
    if on_board(f, r) {
        1u128 << (r * 9 + f)
    } else {
        0
    }
}

/// 0 for Red's palace, 1 for Black's, 2 outside both.
const fn palace(f: i32, r: i32) -> i32 {
    if f < 3 || f > 5 {
        2
    } else if r >= 0 && r <= 2 {
        0
    } else if r >= 7 && r <= 9 {
        1
    } else {
        2
    }
}

/// 0 for Red's half of the river, 1 for Black's.
const fn half(r: i32) -> i32 {
    if r <= 4 {
        0
    } else {
        1
    }
}

const fn build_rays() -> [[Bitboard; 90]; 4] {
    let mut out = [[Bitboard::EMPTY; 90]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 90 {
            let (mut f, mut r) = ((sq % 9) as i32, (sq / 9) as i32);
            let mut ray = 0u128;
            loop {
                f += ORTHOGONAL[d].0;
                r += ORTHOGONAL[d].1;
                if !on_board(f, r) {
                    break;
                }
                ray |= bit(f, r);
            }
            out[d][sq] = Bitboard(ray);
            sq += 1;
        }
        d += 1;
    }
    out
}

/// Every point a rook would reach in each direction on an empty board, the start excluded.
pub(crate) static RAYS: [[Bitboard; 90]; 4] = build_rays();

const fn build_lines() -> [Bitboard; 90] {
    let rays = build_rays();
    let mut out = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        out[sq] = Bitboard(rays[0][sq].0 | rays[1][sq].0 | rays[2][sq].0 | rays[3][sq].0);
        sq += 1;
    }
    out
}

/// The point's file and rank, the point itself excluded: where rooks, cannons and the
/// other king can reach it from, and where a piece's coming or going can open a line.
pub(crate) static LINES: [Bitboard; 90] = build_lines();

/// One step in `steps` from each point, kept when it stays in the palace it starts in.
const fn build_palace_steps(steps: [(i32, i32); 4]) -> [Bitboard; 90] {
    let mut out = [Bitboard::EMPTY; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut t = 0u128;
        let mut i = 0;
        while i < 4 {
            let (tf, tr) = (f + steps[i].0, r + steps[i].1);
            let p = palace(f, r);
            if on_board(tf, tr) && p != 2 && palace(tf, tr) == p {
                t |= bit(tf, tr);
            }
            i += 1;
        }
        out[sq] = Bitboard(t);
        sq += 1;
    }
    out
}

/// King steps: orthogonal, staying in the palace it stands in.
pub(crate) static KING: [Bitboard; 90] = build_palace_steps(ORTHOGONAL);
/// Advisor steps: diagonal, staying in the palace it stands in.
pub(crate) static ADVISOR: [Bitboard; 90] = build_palace_steps(DIAGONAL);

const fn build_pawn() -> [[Bitboard; 90]; 2] {
    let mut out = [[Bitboard::EMPTY; 90]; 2];
    let mut c: usize = 0;
    while c < 2 {
        let forward = if c == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let mut t = bit(f, r + forward);
            // Across the river means on the enemy's half.
            if half(r) != c as i32 {
                t |= bit(f - 1, r) | bit(f + 1, r);
            }
            out[c][sq] = Bitboard(t);
            sq += 1;
        }
        c += 1;
    }
    out
}

/// Pawn steps per colour (0 Red, 1 Black): forward, and sideways once across the river.
pub(crate) static PAWN: [[Bitboard; 90]; 2] = build_pawn();

const fn build_pawn_attackers() -> [[Bitboard; 90]; 2] {
    let pawn = build_pawn();
    let mut out = [[Bitboard::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < 90 {
            let mut t = pawn[c][from].0;
            while t != 0 {
                let to = t.trailing_zeros() as usize;
                out[c][to].0 |= 1u128 << from;
                t &= t - 1;
            }
            from += 1;
        }
        c += 1;
    }
    out
}

/// Per colour, the points from which a pawn of that colour attacks the point.
pub(crate) static PAWN_ATTACKERS: [[Bitboard; 90]; 2] = build_pawn_attackers();

const fn build_horse() -> [[Lame; 4]; 90] {
    let mut out = [[NO_LAME; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (dx, dy) = ORTHOGONAL[i];
            let leg = bit(f + dx, r + dy);
            if leg != 0 {
                // Straight on past the leg, then one step to either side.
                let targets =
                    bit(f + 2 * dx + dy, r + 2 * dy + dx) | bit(f + 2 * dx - dy, r + 2 * dy - dx);
                out[sq][i] = Lame {
                    block: Bitboard(leg),
                    targets: Bitboard(targets),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// Horse moves per point and leg.
pub(crate) static HORSE: [[Lame; 4]; 90] = build_horse();

const fn build_horse_attackers() -> [[Lame; 4]; 90] {
    let mut out = [[NO_LAME; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (a, b) = DIAGONAL[i];
            let leg = bit(f + a, r + b);
            if leg != 0 {
                // A horse reaching this point past that leg stands one step further out,
                // along either axis.
                let horses = bit(f + 2 * a, r + b) | bit(f + a, r + 2 * b);
                out[sq][i] = Lame {
                    block: Bitboard(leg),
                    targets: Bitboard(horses),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// Reverse horse table: per point, each diagonal neighbour as a leg and the horse
/// points that attack the centre through it.
pub(crate) static HORSE_ATTACKERS: [[Lame; 4]; 90] = build_horse_attackers();

const fn build_elephant() -> [[Lame; 4]; 90] {
    let mut out = [[NO_LAME; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (a, b) = DIAGONAL[i];
            let (tf, tr) = (f + 2 * a, r + 2 * b);
            // The elephant never crosses the river.
            if on_board(tf, tr) && half(tr) == half(r) {
                out[sq][i] = Lame {
                    block: Bitboard(bit(f + a, r + b)),
                    targets: Bitboard(bit(tf, tr)),
                };
            }
            i += 1;
        }
        sq += 1;
    }
    out
}

/// Elephant moves per point and eye, never across the river.
pub(crate) static ELEPHANT: [[Lame; 4]; 90] = build_elephant();

#[cfg(test)]
mod tests {
    use super::*;

    fn fr(sq: usize) -> (i32, i32) {
        ((sq % 9) as i32, (sq / 9) as i32)
    }

    fn set(points: impl IntoIterator<Item = (i32, i32)>) -> Bitboard {
        let mut b = 0u128;
        for (f, r) in points {
            if (0..9).contains(&f) && (0..10).contains(&r) {
                b |= 1 << (r * 9 + f);
            }
        }
        Bitboard(b)
    }

    fn all_points() -> impl Iterator<Item = (i32, i32)> {
        (0..90).map(fr)
    }

    fn in_palace(f: i32, r: i32) -> Option<usize> {
        match (f, r) {
            (3..=5, 0..=2) => Some(0),
            (3..=5, 7..=9) => Some(1),
            _ => None,
        }
    }

    #[test]
    fn rays_and_lines_match_a_walk() {
        for sq in 0..90 {
            let (f, r) = fr(sq);
            let north = set(all_points().filter(|&(x, y)| x == f && y > r));
            let south = set(all_points().filter(|&(x, y)| x == f && y < r));
            let east = set(all_points().filter(|&(x, y)| y == r && x > f));
            let west = set(all_points().filter(|&(x, y)| y == r && x < f));
            assert_eq!(RAYS[NORTH][sq], north, "{sq}");
            assert_eq!(RAYS[SOUTH][sq], south, "{sq}");
            assert_eq!(RAYS[EAST][sq], east, "{sq}");
            assert_eq!(RAYS[WEST][sq], west, "{sq}");
            assert_eq!(LINES[sq], north | south | east | west, "{sq}");
        }
    }

    #[test]
    fn step_tables_match_the_rules() {
        for sq in 0..90 {
            let (f, r) = fr(sq);
            let dist = |x: i32, y: i32| ((x - f).abs(), (y - r).abs());
            let pal = in_palace(f, r);
            let king = set(all_points().filter(|&(x, y)| {
                pal.is_some() && in_palace(x, y) == pal && matches!(dist(x, y), (0, 1) | (1, 0))
            }));
            let advisor = set(all_points()
                .filter(|&(x, y)| pal.is_some() && in_palace(x, y) == pal && dist(x, y) == (1, 1)));
            assert_eq!(KING[sq], king, "{sq}");
            assert_eq!(ADVISOR[sq], advisor, "{sq}");
            for c in 0..2 {
                let forward = if c == 0 { 1 } else { -1 };
                let crossed = if c == 0 { r >= 5 } else { r <= 4 };
                let pawn = set(all_points().filter(|&(x, y)| {
                    (x == f && y == r + forward) || (crossed && y == r && (x - f).abs() == 1)
                }));
                assert_eq!(PAWN[c][sq], pawn, "{c} {sq}");
                let attackers = set((0..90).filter(|&p| PAWN[c][p].contains_index(sq)).map(fr));
                assert_eq!(PAWN_ATTACKERS[c][sq], attackers, "{c} {sq}");
            }
        }
    }

    /// Everything a lame leaper can reach given the set of occupied points, by the rule
    /// written out slowly, compared with the table, for every single blocked point.
    #[test]
    fn lame_leaper_tables_match_the_rules() {
        for sq in 0..90 {
            let (f, r) = fr(sq);
            let slow_horse = |blocked: Option<(i32, i32)>| {
                set(all_points().filter(|&(x, y)| {
                    let (dx, dy) = (x - f, y - r);
                    let leg = if dx.abs() == 2 && dy.abs() == 1 {
                        (f + dx / 2, r)
                    } else if dx.abs() == 1 && dy.abs() == 2 {
                        (f, r + dy / 2)
                    } else {
                        return false;
                    };
                    Some(leg) != blocked
                }))
            };
            let slow_elephant = |blocked: Option<(i32, i32)>| {
                set(all_points().filter(|&(x, y)| {
                    let (dx, dy) = (x - f, y - r);
                    dx.abs() == 2
                        && dy.abs() == 2
                        && (r <= 4) == (y <= 4)
                        && Some((f + dx / 2, r + dy / 2)) != blocked
                }))
            };
            let slow_horse_attackers = |blocked: Option<(i32, i32)>| {
                set(all_points().filter(|&(x, y)| {
                    let (dx, dy) = (f - x, r - y);
                    let leg = if dx.abs() == 2 && dy.abs() == 1 {
                        (x + dx / 2, y)
                    } else if dx.abs() == 1 && dy.abs() == 2 {
                        (x, y + dy / 2)
                    } else {
                        return false;
                    };
                    Some(leg) != blocked
                }))
            };
            let fast = |table: &[Lame; 4], occ: u128| {
                let mut t = Bitboard::EMPTY;
                for lame in table {
                    if lame.block.0 & occ == 0 {
                        t |= lame.targets;
                    }
                }
                t
            };
            let blocks = std::iter::once(None).chain(all_points().map(Some));
            for blocked in blocks {
                let occ = blocked.map_or(0, |(x, y)| set([(x, y)]).0);
                assert_eq!(
                    fast(&HORSE[sq], occ),
                    slow_horse(blocked),
                    "{sq} {blocked:?}"
                );
                assert_eq!(
                    fast(&ELEPHANT[sq], occ),
                    slow_elephant(blocked),
                    "{sq} {blocked:?}"
                );
                assert_eq!(
                    fast(&HORSE_ATTACKERS[sq], occ),
                    slow_horse_attackers(blocked),
                    "{sq} {blocked:?}"
                );
            }
        }
    }

    impl Bitboard {
        fn contains_index(self, i: usize) -> bool {
            self.0 >> i & 1 != 0
        }
    }
}
