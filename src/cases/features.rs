//! Rare features of a position, and how often a stream of positions reaches each.
//!
//! A property test that passes on ten thousand positions proves little if none of them
//! had a cannon screen or a blocked horse leg. [`features`] names the rare rule cases a
//! position exercises and [`Coverage`] counts them over a run, so "reached" can be
//! asserted rather than hoped for.
//!
//! Every feature is computed here, on the [`Setup`], by its own plain code (plus
//! validation's [`Setup::checkers`] and [`Setup::pieces_between`]); never by a generator,
//! which would make the coverage only as right as the code it measures.
//!
//! The piece-rule features (screen, leg, eye, river, pawn ones) look at the side to
//! move's pieces only: those are the pieces whose moves get generated. The enemy's
//! pieces count through the check features and [`Feature::CannonPin`].

use crate::piece::{Color, Role};
use crate::position::{Position, Setup};
use crate::square::Square;
use std::fmt;

/// One rare rule case a position can exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// A cannon of the side to move can capture by jumping a screen.
    CannonScreen,
    /// A horse of the side to move has an occupied leg with a target beyond it on the board.
    HorseLegBlocked,
    /// An elephant of the side to move has an occupied eye before a point it could reach.
    ElephantEyeBlocked,
    /// An elephant of the side to move stands at the river (`c4`/`g4`, `c5`/`g5`).
    ElephantAtRiver,
    /// A pawn of the side to move has crossed the river.
    PawnCrossed,
    /// The side to move has pawns on both sides of the river.
    PawnsBothSides,
    /// A pawn of the side to move stands on the last rank and can only move sideways.
    PawnLastRank,
    /// The kings stand on one file, with pieces between.
    KingsSameFile,
    /// The kings stand on one file with exactly one piece between: moving it off the file
    /// is illegal.
    KingsOneBlocker,
    /// The side to move is in check.
    InCheck,
    /// A rook gives check.
    CheckByRook,
    /// A cannon gives check.
    CheckByCannon,
    /// A horse gives check.
    CheckByHorse,
    /// A pawn gives check.
    CheckByPawn,
    /// Two or more pieces give check.
    DoubleCheck,
    /// An enemy cannon is on a line with the side to move's king with exactly two pieces
    /// between: moving either of them off the line gives check.
    CannonPin,
}

impl Feature {
    /// Every feature, in table order.
    pub const ALL: [Feature; 16] = [
        Feature::CannonScreen,
        Feature::HorseLegBlocked,
        Feature::ElephantEyeBlocked,
        Feature::ElephantAtRiver,
        Feature::PawnCrossed,
        Feature::PawnsBothSides,
        Feature::PawnLastRank,
        Feature::KingsSameFile,
        Feature::KingsOneBlocker,
        Feature::InCheck,
        Feature::CheckByRook,
        Feature::CheckByCannon,
        Feature::CheckByHorse,
        Feature::CheckByPawn,
        Feature::DoubleCheck,
        Feature::CannonPin,
    ];

    /// The name used in tables and reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            Feature::CannonScreen => "cannon_screen",
            Feature::HorseLegBlocked => "horse_leg_blocked",
            Feature::ElephantEyeBlocked => "elephant_eye_blocked",
            Feature::ElephantAtRiver => "elephant_at_river",
            Feature::PawnCrossed => "pawn_crossed",
            Feature::PawnsBothSides => "pawns_both_sides",
            Feature::PawnLastRank => "pawn_last_rank",
            Feature::KingsSameFile => "kings_same_file",
            Feature::KingsOneBlocker => "kings_one_blocker",
            Feature::InCheck => "in_check",
            Feature::CheckByRook => "check_by_rook",
            Feature::CheckByCannon => "check_by_cannon",
            Feature::CheckByHorse => "check_by_horse",
            Feature::CheckByPawn => "check_by_pawn",
            Feature::DoubleCheck => "double_check",
            Feature::CannonPin => "cannon_pin",
        }
    }

    /// Position in [`Feature::ALL`].
    const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The four orthogonal steps: the lines of rooks and cannons, the legs of horses.
const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// The four diagonal steps: the eyes of elephants.
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn offset(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = u8::try_from(i16::from(sq.file()) + i16::from(df)).ok()?;
    let r = u8::try_from(i16::from(sq.rank()) + i16::from(dr)).ok()?;
    Square::new(f, r)
}

/// Rank counted from `color`'s own back rank: 0-4 its own half, 5-9 across the river.
fn relative_rank(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

/// Squares of the side to move's pieces of kind `role`.
fn own(setup: &Setup, role: Role) -> impl Iterator<Item = Square> + '_ {
    let us = setup.turn;
    setup
        .pieces()
        .filter(move |&(_, p)| p.color == us && p.role == role)
        .map(|(sq, _)| sq)
}

fn cannon_screen(setup: &Setup) -> bool {
    own(setup, Role::Cannon).any(|sq| {
        ORTHOGONAL.iter().any(|&(df, dr)| {
            // Walk the line: the first piece met is the screen, the second the target.
            let mut at = sq;
            let mut met = 0;
            while let Some(next) = offset(at, df, dr) {
                at = next;
                if let Some(p) = setup.piece_at(at) {
                    met += 1;
                    if met == 2 {
                        return p.color != setup.turn;
                    }
                }
            }
            false
        })
    })
}

fn horse_leg_blocked(setup: &Setup) -> bool {
    own(setup, Role::Horse).any(|sq| {
        ORTHOGONAL.iter().any(|&(df, dr)| {
            let leg_occupied = offset(sq, df, dr).is_some_and(|leg| setup.piece_at(leg).is_some());
            // The two targets beyond the leg: two steps out, one to either side.
            let (sf, sr) = (dr, df);
            let target_on_board = [1, -1]
                .iter()
                .any(|&s| offset(sq, 2 * df + s * sf, 2 * dr + s * sr).is_some());
            leg_occupied && target_on_board
        })
    })
}

fn elephant_eye_blocked(setup: &Setup) -> bool {
    let us = setup.turn;
    own(setup, Role::Elephant).any(|sq| {
        DIAGONAL.iter().any(|&(df, dr)| {
            let target_reachable =
                offset(sq, 2 * df, 2 * dr).is_some_and(|t| relative_rank(us, t) <= 4);
            let eye_occupied = offset(sq, df, dr).is_some_and(|eye| setup.piece_at(eye).is_some());
            target_reachable && eye_occupied
        })
    })
}

/// Computes every feature of `pos`, in [`Feature::ALL`] order.
pub fn features(pos: &Position) -> Vec<Feature> {
    let setup = pos.setup();
    let us = setup.turn;
    let mut out = Vec::new();
    let mut add = |f: Feature, has: bool| {
        if has {
            out.push(f);
        }
    };

    add(Feature::CannonScreen, cannon_screen(setup));
    add(Feature::HorseLegBlocked, horse_leg_blocked(setup));
    add(Feature::ElephantEyeBlocked, elephant_eye_blocked(setup));
    add(
        Feature::ElephantAtRiver,
        own(setup, Role::Elephant).any(|sq| relative_rank(us, sq) == 4),
    );
    let pawn_ranks: Vec<u8> = own(setup, Role::Pawn)
        .map(|sq| relative_rank(us, sq))
        .collect();
    add(Feature::PawnCrossed, pawn_ranks.iter().any(|&r| r >= 5));
    add(
        Feature::PawnsBothSides,
        pawn_ranks.iter().any(|&r| r >= 5) && pawn_ranks.iter().any(|&r| r <= 4),
    );
    add(Feature::PawnLastRank, pawn_ranks.contains(&9));

    let red = pos.king(Color::Red);
    let black = pos.king(Color::Black);
    let between_kings = (red.file() == black.file())
        .then(|| setup.pieces_between(red, black))
        .flatten();
    add(Feature::KingsSameFile, between_kings.is_some());
    add(Feature::KingsOneBlocker, between_kings == Some(1));

    let checkers: Vec<Role> = setup
        .checkers(us)
        .into_iter()
        .filter_map(|sq| setup.piece_at(sq).map(|p| p.role))
        .collect();
    add(Feature::InCheck, !checkers.is_empty());
    add(Feature::CheckByRook, checkers.contains(&Role::Rook));
    add(Feature::CheckByCannon, checkers.contains(&Role::Cannon));
    add(Feature::CheckByHorse, checkers.contains(&Role::Horse));
    add(Feature::CheckByPawn, checkers.contains(&Role::Pawn));
    add(Feature::DoubleCheck, checkers.len() >= 2);

    let king = pos.king(us);
    add(
        Feature::CannonPin,
        setup
            .pieces()
            .filter(|&(_, p)| p.color != us && p.role == Role::Cannon)
            .any(|(sq, _)| setup.pieces_between(sq, king) == Some(2)),
    );
    out
}

/// How many positions of a run had each feature.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    counts: [u64; Feature::ALL.len()],
    total: u64,
}

impl Coverage {
    /// No positions yet.
    pub fn new() -> Coverage {
        Coverage::default()
    }

    /// Counts the features of one more position.
    pub fn add(&mut self, pos: &Position) {
        self.total += 1;
        for f in features(pos) {
            self.counts[f.index()] += 1;
        }
    }

    /// Adds another run's counts, say from another thread.
    pub fn merge(&mut self, other: &Coverage) {
        self.total += other.total;
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
    }

    /// How many positions were added.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// How many of them had `feature`.
    pub fn count(&self, feature: Feature) -> u64 {
        self.counts[feature.index()]
    }

    /// The features no position had.
    pub fn missing(&self) -> Vec<Feature> {
        Feature::ALL
            .into_iter()
            .filter(|&f| self.count(f) == 0)
            .collect()
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{:<22} {:>9} {:>7}", "feature", "positions", "share")?;
        for feature in Feature::ALL {
            let count = self.count(feature);
            let share = if self.total == 0 {
                0.0
            } else {
                100.0 * count as f64 / self.total as f64
            };
            writeln!(f, "{:<22} {count:>9} {share:>6.1}%", feature.as_str())?;
        }
        write!(f, "{:<22} {:>9}", "total", self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::rng::Rng;
    use crate::cases::structured;
    use Feature::*;

    /// Hand-made positions, each with exactly the features it must have.
    #[test]
    fn hand_made_positions_have_exactly_their_features() {
        let table: &[(&str, &[Feature])] = &[
            // Bare kings on different files: nothing rare at all.
            ("3k5/9/9/9/9/9/9/9/9/4K4 w", &[]),
            // The start: the b2 cannon jumps b7 onto the b9 horse, the b0 horse's leg c0
            // holds an elephant, and two pawns stand between the kings on the e-file.
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                &[CannonScreen, HorseLegBlocked, KingsSameFile],
            ),
            // Red cannon e2, screen e5, black rook e7 beyond it: a capture by jumping.
            ("3k5/9/4r4/9/4p4/9/9/4C4/9/5K3 w", &[CannonScreen]),
            // The same line with a red rook beyond the screen: nothing to take.
            ("3k5/9/4R4/9/4p4/9/9/4C4/9/5K3 w", &[]),
            // Black to move: Red's cannon screen is not Black's feature.
            ("3k5/9/4r4/9/4p4/9/9/4C4/9/5K3 b", &[]),
            // Red horse e3 with its leg e4 occupied.
            ("3k5/9/9/9/9/4p4/4N4/9/9/5K3 w", &[HorseLegBlocked]),
            // Red horse a0, leg b0 occupied with c1 beyond it on the board.
            ("3k5/9/9/9/9/9/9/9/9/NR2K4 w", &[HorseLegBlocked]),
            // Red elephant c0 with a horse on its eye d1.
            ("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w", &[ElephantEyeBlocked]),
            // Red elephant at the river point g4.
            ("3k5/9/9/9/9/6B2/9/9/9/4K4 w", &[ElephantAtRiver]),
            // Black elephant at c5 and red at g4: each side to move sees its own.
            ("3k5/9/9/9/2b6/6B2/9/9/9/4K4 b", &[ElephantAtRiver]),
            ("3k5/9/9/9/2b6/6B2/9/9/9/4K4 w", &[ElephantAtRiver]),
            // A piece on the g4 elephant's eye f5 blocks only a point across the river.
            ("3k5/9/9/9/5n3/6B2/9/9/9/4K4 w", &[ElephantAtRiver]),
            // Red pawn across the river at a6.
            ("3k5/9/9/P8/9/9/9/9/9/4K4 w", &[PawnCrossed]),
            // Red pawns at a6 and c3: one on each side of the river.
            (
                "3k5/9/9/P8/9/9/2P6/9/9/4K4 w",
                &[PawnCrossed, PawnsBothSides],
            ),
            // A black pawn on a0, Black's last rank, Black to move.
            ("3k5/9/9/9/9/9/9/9/9/p3K4 b", &[PawnCrossed, PawnLastRank]),
            // A red pawn on a9.
            ("P2k5/9/9/9/9/9/9/9/9/4K4 w", &[PawnCrossed, PawnLastRank]),
            // Kings on the e-file with two rooks between.
            ("4k4/9/4r4/9/9/9/4R4/9/9/4K4 w", &[KingsSameFile]),
            // Exactly one piece between the kings.
            (
                "4k4/9/9/9/9/4n4/9/9/9/4K4 w",
                &[KingsSameFile, KingsOneBlocker],
            ),
            // Check by a rook along the back rank.
            ("3k5/9/9/9/9/9/9/9/9/r3K4 w", &[InCheck, CheckByRook]),
            // Check by a cannon over the e1 advisor (one piece between: no cannon pin).
            ("3k5/9/9/9/9/9/4c4/9/4A4/4K4 w", &[InCheck, CheckByCannon]),
            // Check by a horse on f2, its leg f1 empty.
            ("3k5/9/9/9/9/9/9/5n3/9/4K4 w", &[InCheck, CheckByHorse]),
            // Check by a crossed pawn from the side.
            ("3k5/9/9/9/9/9/9/9/9/3pK4 w", &[InCheck, CheckByPawn]),
            // Rook and horse together: double check.
            (
                "3k5/9/9/9/9/9/9/5n3/9/r3K4 w",
                &[InCheck, CheckByRook, CheckByHorse, DoubleCheck],
            ),
            // Enemy cannon e6 with the e3 pawn and e1 advisor between it and the king.
            ("3k5/9/9/4c4/9/9/4P4/9/4A4/4K4 w", &[CannonPin]),
            // Along a rank, for Black: red cannon i9, then elephant g9 and rook e9, king d9.
            ("3kr1b1C/9/9/9/9/9/9/9/9/5K3 b", &[CannonPin]),
        ];
        for &(fen, expected) in table {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(features(&pos), expected, "{fen}");
        }
    }

    /// The "reached, not hoped for" check: plain random bytes through the fuzz decoder
    /// reach every feature, so the property tests that draw from the decoder test them.
    #[test]
    fn random_bytes_reach_every_feature() {
        let coverage = decoded_coverage(4000, 0x5eed);
        println!("{coverage}");
        assert!(
            coverage.missing().is_empty(),
            "never reached: {:?}\n{coverage}",
            coverage.missing()
        );
    }

    /// Coverage of `n` positions decoded from random byte strings of 0..120 bytes, the
    /// lengths the property tests draw.
    fn decoded_coverage(n: u64, seed: u64) -> Coverage {
        let mut coverage = Coverage::new();
        for i in 0..n {
            let mut rng = Rng::for_item(seed, i);
            let len = rng.below(120) as usize;
            coverage.add(&structured::from_bytes(&rng.bytes(len)));
        }
        coverage
    }

    #[test]
    fn merge_adds_counts_and_the_table_names_every_feature() {
        let mut a = decoded_coverage(50, 1);
        let b = decoded_coverage(70, 2);
        let mut both = Coverage::new();
        for i in 0..50 {
            let mut rng = Rng::for_item(1, i);
            let len = rng.below(120) as usize;
            both.add(&structured::from_bytes(&rng.bytes(len)));
        }
        both.merge(&b);
        a.merge(&b);
        assert_eq!(a, both);
        assert_eq!(a.total(), 120);
        let table = a.to_string();
        for f in Feature::ALL {
            assert!(table.contains(f.as_str()), "{table}");
        }
        assert!(Coverage::new().to_string().contains("0.0%"));
    }
}
