//! The edges of a position that fuzz cases must reach, and the draws that reach them.
//!
//! A generator is as likely to be wrong at the edge of a part of a position as in its
//! rare rule cases: a clock kept in a byte, a move number in 16 bits, a board that
//! cannot hold 32 pieces or none but the kings, a side with no move at all. Random bytes
//! and random playouts reach the middle of every range, so the fuzz campaign draws
//! those edges on purpose, each in a real share of its cases
//! (`counters`, `arbitrary_start`); `cases::features` counts how often they
//! were reached.

use crate::cases::features::{has_legal_move, COUNTER_EDGES};
use crate::cases::rng::Rng;
use crate::cases::structured;
use crate::piece::{Color, Role};
use crate::position::Position;

/// The move counters of a case: each, independently, at one of [`COUNTER_EDGES`] half
/// the time, and otherwise a value from the middle of a game (a clock below 120, a move
/// number from 1 to 300), so the edges are reached with either side to move and in
/// every combination with the other counter.
pub(crate) fn counters(rng: &mut Rng) -> (u32, u32) {
    let halfmoves = edge_or(rng, |rng| rng.below(120) as u32);
    let fullmoves = edge_or(rng, |rng| 1 + rng.below(300) as u32);
    (halfmoves, fullmoves)
}

fn edge_or(rng: &mut Rng, middle: impl FnOnce(&mut Rng) -> u32) -> u32 {
    if rng.below(2) == 0 {
        COUNTER_EDGES[rng.below(COUNTER_EDGES.len() as u64) as usize]
    } else {
        middle(rng)
    }
}

/// The start of an arbitrary fuzz case, without its counters: in one case of sixteen
/// each, the two kings alone, every piece of both sides, or a side to move with no
/// legal move (mate and stalemate, half of each); otherwise random bytes through the
/// decoder, as many as 32 pieces ask for. Every shape is a byte string the decoder
/// reads, so each start is a position the cargo-fuzz targets can reach too.
pub(crate) fn arbitrary_start(rng: &mut Rng) -> Position {
    match rng.below(16) {
        0 => structured::from_bytes(&kings_bytes(rng)),
        1 => structured::from_bytes(&full_army_bytes(rng)),
        2 => no_legal_move(rng),
        _ => {
            let len = rng.below(3 * 32 + 4) as usize;
            structured::from_bytes(&rng.bytes(len))
        }
    }
}

/// The side to move and the two kings' palace points.
fn kings_bytes(rng: &mut Rng) -> Vec<u8> {
    rng.bytes(3)
}

/// Piece records (kind, square, colour) in the decoder's layout.
fn record(out: &mut Vec<u8>, role: Role, square: u8, color: Color) {
    let kind = structured::PIECE_ROLES.iter().position(|&r| r == role);
    out.extend([kind.unwrap_or(0) as u8, square, color.index() as u8]);
}

/// Every piece of both sides, each asking for a random square: the decoder puts each on
/// the free point nearest it, so the army stands anywhere it may. (A repair of a check
/// can take one piece away again.)
fn full_army_bytes(rng: &mut Rng) -> Vec<u8> {
    let mut out = kings_bytes(rng);
    for color in Color::ALL {
        for &role in structured::PIECE_ROLES {
            for _ in 0..role.max_count() {
                let square = rng.below(90) as u8;
                record(&mut out, role, square, color);
            }
        }
    }
    out
}

/// How many boards [`no_legal_move`] draws before it settles for the last.
const NO_MOVE_TRIES: usize = 400;

/// A position whose side to move has no legal move, in check (mate) or not (stalemate),
/// half of each: the side to move has its king and at most one advisor, the other side
/// up to four attackers placed near the defender's palace, drawn until one leaves no
/// move. Falls back to the last board drawn (rarely: most draws that fail do so within
/// a few dozen tries).
fn no_legal_move(rng: &mut Rng) -> Position {
    let want_check = rng.below(2) == 0;
    let mut last = structured::from_bytes(&[]);
    for _ in 0..NO_MOVE_TRIES {
        let bytes = cornered_bytes(rng);
        let pos = structured::from_bytes(&bytes);
        let in_check = !pos.setup().checkers(pos.turn()).is_empty();
        if in_check == want_check && !has_legal_move(&pos) {
            return pos;
        }
        last = pos;
    }
    last
}

/// A defender's king (and sometimes an advisor) with attackers on the ranks near its
/// palace, in the decoder's layout; the defender is to move.
fn cornered_bytes(rng: &mut Rng) -> Vec<u8> {
    let defender = if rng.below(2) == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let mut out = vec![defender.index() as u8];
    out.extend(rng.bytes(2));
    let near = |rng: &mut Rng| {
        // Ranks 0-3 from the defender's side: the palace and the rank before it.
        let rank = rng.below(4) as u8;
        let rank = if defender == Color::Red {
            rank
        } else {
            9 - rank
        };
        let file = rng.below(9) as u8;
        rank * 9 + file
    };
    if rng.below(3) == 0 {
        let square = near(rng);
        record(&mut out, Role::Advisor, square, defender);
    }
    const ATTACKERS: [Role; 4] = [Role::Rook, Role::Cannon, Role::Horse, Role::Pawn];
    for _ in 0..1 + rng.below(4) {
        let role = ATTACKERS[rng.below(ATTACKERS.len() as u64) as usize];
        let square = near(rng);
        record(&mut out, role, square, defender.other());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::features::{features, has_legal_move, Coverage, Feature};
    use crate::generators::registry;

    /// Every built-in generator keeps both counters whole at every edge, with either
    /// side to move: loaded and read back, and after a move made and unmade.
    #[test]
    fn every_generator_keeps_every_counter_edge() {
        let base = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/4K4 w").unwrap();
        for g in registry() {
            for turn in Color::ALL {
                let mut setup = base.setup().clone();
                setup.turn = turn;
                let pos = Position::new(setup).unwrap();
                for &h in &COUNTER_EDGES {
                    for &f in &COUNTER_EDGES {
                        let pos = pos.with_counters(h, f);
                        let probe = g.probe(&pos);
                        assert_eq!(&probe.round_trip, pos.setup(), "{}", g.name());
                        for mv in &probe.legal {
                            let after = &mv.after;
                            assert_eq!(
                                (after.halfmoves, after.fullmoves),
                                (h, f),
                                "{} after {}",
                                g.name(),
                                mv.mv
                            );
                        }
                    }
                }
            }
        }
    }

    /// Each shape of start is drawn about as often as it is meant to be, and is what it
    /// says: the counts are over a fixed seed, so this is exact, not a hope.
    #[test]
    fn arbitrary_starts_reach_each_shape_in_a_real_share() {
        let n = 1600;
        let mut kings = 0;
        let mut full = 0;
        let mut mate = 0;
        let mut stalemate = 0;
        for i in 0..n {
            let start = arbitrary_start(&mut Rng::for_item(7, i));
            let has = features(&start);
            kings += u64::from(has.contains(&Feature::TwoKingsOnly));
            full += u64::from(has.contains(&Feature::All32Pieces));
            mate += u64::from(has.contains(&Feature::Mate));
            stalemate += u64::from(has.contains(&Feature::Stalemate));
        }
        // One case in sixteen is 100 of 1600; the random bytes add bare kings of their
        // own, and a repaired check takes a piece from some full armies.
        assert!(kings >= 100, "two kings only: {kings}");
        assert!(full >= 50, "all 32 pieces: {full}");
        assert!(mate >= 40, "mate: {mate}");
        assert!(stalemate >= 40, "stalemate: {stalemate}");
    }

    #[test]
    fn counters_reach_every_edge_and_the_middle() {
        let mut rng = Rng::new(3);
        let drawn: Vec<(u32, u32)> = (0..2000).map(|_| counters(&mut rng)).collect();
        for &edge in &COUNTER_EDGES {
            let h = drawn.iter().filter(|c| c.0 == edge).count();
            let f = drawn.iter().filter(|c| c.1 == edge).count();
            // Half of 2000 spread over 8 edges is 125 each.
            assert!(h > 80 && f > 80, "{edge}: {h} clocks, {f} move numbers");
        }
        let middle = drawn
            .iter()
            .filter(|c| !COUNTER_EDGES.contains(&c.0))
            .count();
        assert!(middle > 800, "{middle}");
    }

    /// The plain move rules that decide mate and stalemate agree with the generators
    /// on whether a move exists, over positions of every shape the campaign draws.
    #[test]
    fn has_legal_move_agrees_with_the_generators() {
        let gens = crate::generators::registry();
        let mut stuck = 0;
        for i in 0..3000 {
            let pos = arbitrary_start(&mut Rng::for_item(0xfea7, i));
            let theirs = gens[0].probe(&pos).legal.is_empty();
            assert_eq!(has_legal_move(&pos), !theirs, "{}", pos.fen());
            stuck += u32::from(theirs);
        }
        assert!(stuck > 100, "only {stuck} positions without a move");
    }

    /// The starts and counters of the campaign's arbitrary cases alone (no line walked
    /// from them, no playout) reach every feature, every edge and every point of every
    /// piece.
    #[test]
    fn arbitrary_cases_reach_every_edge() {
        let mut coverage = Coverage::new();
        for i in 0..6000 {
            let mut rng = Rng::for_item(0xed9e, i);
            let start = arbitrary_start(&mut rng);
            let (halfmoves, fullmoves) = counters(&mut rng);
            coverage.add(&start.with_counters(halfmoves, fullmoves));
        }
        println!("{coverage}");
        assert!(coverage.missing().is_empty(), "{coverage}");
        assert!(coverage.missing_points().is_empty(), "{coverage}");
    }
}
