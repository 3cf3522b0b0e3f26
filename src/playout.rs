//! Random legal playouts: the second source of positions, reaching the kinds of
//! position real games reach (and, with a bias toward captures, sparse endgames).
//!
//! A playout follows moves every generator agrees on ([`consensus_children`]), not one
//! generator's idea of the rules: a bug in any of them cannot steer the walk.

use crate::engine::Engine;
use crate::oracle::{consensus_children, Candidate};
use crate::position::Position;
use crate::rng::Rng;

/// Walks from `start`, asking `choose` for the index of the next move among the moves
/// all `engines` agree on, until it returns `None`, there is no such move, or
/// `max_plies` is reached. Returns every position visited, `start` first. A position on
/// which the generators disagree ends the walk there (the oracle reports it).
pub fn walk(
    start: &Position,
    engines: &[&dyn Engine],
    max_plies: usize,
    mut choose: impl FnMut(&[Candidate]) -> Option<usize>,
) -> Vec<Position> {
    let mut seen = vec![start.clone()];
    for _ in 0..max_plies {
        let Some(pos) = seen.last() else { break };
        let Ok(children) = consensus_children(pos, engines) else {
            break;
        };
        if children.is_empty() {
            break;
        }
        let candidates: Vec<Candidate> = children
            .iter()
            .map(|(mv, _)| Candidate {
                mv: *mv,
                captured: pos.piece_at(mv.to),
            })
            .collect();
        let Some(i) = choose(&candidates) else { break };
        let next = children[i % children.len()].1.clone();
        seen.push(next);
    }
    seen
}

/// The seeded random choice of a playout. `capture_bias` in `0.0..=1.0` is the chance,
/// when some move captures, of choosing among the captures only: higher values thin the
/// board out faster and reach endgames.
pub fn chooser(rng: &mut Rng, capture_bias: f64) -> impl FnMut(&[Candidate]) -> Option<usize> + '_ {
    let threshold = (capture_bias.clamp(0.0, 1.0) * 1_000_000.0) as u64;
    move |moves| {
        let captures: Vec<usize> = (0..moves.len())
            .filter(|&i| moves[i].captured.is_some())
            .collect();
        if !captures.is_empty() && rng.below(1_000_000) < threshold {
            Some(captures[rng.below(captures.len() as u64) as usize])
        } else {
            Some(rng.below(moves.len() as u64) as usize)
        }
    }
}

/// A seeded random playout (see [`chooser`]).
pub fn random(
    start: &Position,
    engines: &[&dyn Engine],
    rng: &mut Rng,
    max_plies: usize,
    capture_bias: f64,
) -> Vec<Position> {
    walk(start, engines, max_plies, chooser(rng, capture_bias))
}

/// A playout steered by fuzz bytes: each byte picks the next move (modulo the number
/// of agreed moves), so a byte flip changes one move.
pub fn from_bytes(start: &Position, engines: &[&dyn Engine], bytes: &[u8]) -> Vec<Position> {
    let mut it = bytes.iter();
    walk(start, engines, bytes.len(), |_| {
        it.next().map(|&b| b as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::registry;

    #[test]
    fn playouts_are_reproducible_and_biased_toward_captures() {
        let g = registry();
        let start = Position::startpos();
        let a = random(&start, &g, &mut Rng::new(1), 60, 0.0);
        let b = random(&start, &g, &mut Rng::new(1), 60, 0.0);
        assert_eq!(a, b);
        assert!(a.len() > 10);
        let pieces = |run: &[Position]| run.last().map_or(32, |p| p.pieces().count());
        let calm: usize = (0..20)
            .map(|s| pieces(&random(&start, &g, &mut Rng::new(s), 80, 0.0)))
            .sum();
        let greedy: usize = (0..20)
            .map(|s| pieces(&random(&start, &g, &mut Rng::new(s), 80, 0.9)))
            .sum();
        assert!(
            greedy < calm,
            "bias 0.9 left {greedy} pieces, bias 0 left {calm}"
        );
    }

    #[test]
    fn bytes_pick_moves() {
        let g = registry();
        let run = from_bytes(&Position::startpos(), &g, &[0, 1, 2]);
        assert_eq!(run.len(), 4);
        assert_eq!(from_bytes(&Position::startpos(), &g, &[]).len(), 1);
    }

    /// A generator that lists a move no other does cannot steer the walk onto it.
    #[test]
    fn the_walk_follows_the_consensus() {
        use crate::planted::{Bug, Planted};
        let planted = Planted(Bug::KingLeavesPalace);
        let engines: Vec<&dyn Engine> = vec![registry()[0], registry()[1], &planted];
        let start = Position::from_fen("3k5/9/9/9/9/9/9/9/9/5K3 w").unwrap();
        // Every byte picks the last move: for the planted king that is a step outside
        // the palace, which the consensus does not have.
        let run = from_bytes(&start, &engines, &[255; 6]);
        assert_eq!(run.len(), 1, "a disagreement ends the walk at once");
        let honest: Vec<&dyn Engine> = registry();
        let run = from_bytes(&start, &honest, &[255; 6]);
        assert!(run
            .iter()
            .all(|p| p.pieces().all(|(sq, _)| (3..=5).contains(&sq.file()))));
    }
}
