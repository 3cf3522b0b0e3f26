//! Random legal playouts: the second source of positions, reaching the kinds of
//! position real games reach (and, with a bias toward captures, sparse endgames).

use crate::engine::{Engine, LegalMove};
use crate::position::Position;
use crate::rng::Rng;

/// Walks from `start`, asking `choose` for the index of the next move among the legal
/// moves `mover` lists, until it returns `None`, the side to move has no move, or
/// `max_plies` is reached. Returns every position visited, `start` first.
///
/// Moves are played through `mover`'s own make, read back and validated; a move that
/// leads to an invalid position ends the walk there (the oracle reports that move as
/// `after-make-invalid`, so nothing is hidden).
pub fn walk(
    start: &Position,
    mover: &dyn Engine,
    max_plies: usize,
    mut choose: impl FnMut(&[LegalMove]) -> Option<usize>,
) -> Vec<Position> {
    let mut seen = vec![start.clone()];
    for _ in 0..max_plies {
        let Some(pos) = seen.last() else { break };
        let probe = mover.probe(pos);
        if probe.legal.is_empty() {
            break;
        }
        let Some(i) = choose(&probe.legal) else { break };
        let Some(chosen) = probe.legal.get(i % probe.legal.len()) else {
            break;
        };
        match Position::new(chosen.after.clone()) {
            Ok(next) => seen.push(next),
            Err(_) => break,
        }
    }
    seen
}

/// A seeded random playout. `capture_bias` in `0.0..=1.0` is the chance, when some move
/// captures, of choosing among the captures only: higher values thin the board out
/// faster and reach endgames.
pub fn random(
    start: &Position,
    mover: &dyn Engine,
    rng: &mut Rng,
    max_plies: usize,
    capture_bias: f64,
) -> Vec<Position> {
    let threshold = (capture_bias.clamp(0.0, 1.0) * 1_000_000.0) as u64;
    walk(start, mover, max_plies, |moves| {
        let captures: Vec<usize> = (0..moves.len())
            .filter(|&i| moves[i].captured.is_some())
            .collect();
        if !captures.is_empty() && rng.below(1_000_000) < threshold {
            Some(captures[rng.below(captures.len() as u64) as usize])
        } else {
            Some(rng.below(moves.len() as u64) as usize)
        }
    })
}

/// A playout steered by fuzz bytes: each byte picks the next move (modulo the number
/// of legal moves), so a byte flip changes one move.
pub fn from_bytes(start: &Position, mover: &dyn Engine, bytes: &[u8]) -> Vec<Position> {
    let mut it = bytes.iter();
    walk(start, mover, bytes.len(), |_| {
        it.next().map(|&b| b as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::registry;

    #[test]
    fn playouts_are_reproducible_and_biased_toward_captures() {
        let g = registry()[0];
        let start = Position::startpos();
        let a = random(&start, g, &mut Rng::new(1), 60, 0.0);
        let b = random(&start, g, &mut Rng::new(1), 60, 0.0);
        assert_eq!(a, b);
        assert!(a.len() > 10);
        let pieces = |run: &[Position]| run.last().map_or(32, |p| p.pieces().count());
        let calm: usize = (0..20)
            .map(|s| pieces(&random(&start, g, &mut Rng::new(s), 80, 0.0)))
            .sum();
        let greedy: usize = (0..20)
            .map(|s| pieces(&random(&start, g, &mut Rng::new(s), 80, 0.9)))
            .sum();
        assert!(
            greedy < calm,
            "bias 0.9 left {greedy} pieces, bias 0 left {calm}"
        );
    }

    #[test]
    fn bytes_pick_moves() {
        let g = registry()[0];
        let run = from_bytes(&Position::startpos(), g, &[0, 1, 2]);
        assert_eq!(run.len(), 4);
        assert_eq!(from_bytes(&Position::startpos(), g, &[]).len(), 1);
    }
}
