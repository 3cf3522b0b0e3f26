//! Random legal playouts: the second source of positions, reaching the kinds of
//! position real games reach (and, with a bias toward captures, sparse endgames).
//!
//! A playout takes its next moves from the caller: the fuzz campaign and the engine
//! check pass the moves every generator agrees on
//! ([`crate::diff::oracle::consensus_steps`]), not one generator's idea of the rules, so
//! a bug in any of them cannot steer the walk.

use crate::cases::rng::Rng;
use crate::moves::Move;
use crate::piece::Piece;
use crate::position::Position;

/// A move a walk may take next, with what it takes (what a chooser's capture bias reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// What it takes.
    pub captured: Option<Piece>,
}

/// Walks from `start`, asking `steps` for the moves from each position (with the
/// position after each; none ends the walk) and `choose` for the index of the next,
/// until `choose` returns `None` or `max_plies` is reached. Returns every position
/// visited, `start` first.
pub fn walk(
    start: &Position,
    mut steps: impl FnMut(&Position) -> Vec<(Move, Position)>,
    max_plies: usize,
    mut choose: impl FnMut(&[Candidate]) -> Option<usize>,
) -> Vec<Position> {
    let mut seen = vec![start.clone()];
    for _ in 0..max_plies {
        let Some(pos) = seen.last() else { break };
        let children = steps(pos);
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
pub(crate) fn chooser(
    rng: &mut Rng,
    capture_bias: f64,
) -> impl FnMut(&[Candidate]) -> Option<usize> + '_ {
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
pub(crate) fn random(
    start: &Position,
    steps: impl FnMut(&Position) -> Vec<(Move, Position)>,
    rng: &mut Rng,
    max_plies: usize,
    capture_bias: f64,
) -> Vec<Position> {
    walk(start, steps, max_plies, chooser(rng, capture_bias))
}

/// A playout steered by fuzz bytes: each byte picks the next move (modulo the number
/// of moves `steps` offers), so a byte flip changes one move.
pub fn from_bytes(
    start: &Position,
    steps: impl FnMut(&Position) -> Vec<(Move, Position)>,
    bytes: &[u8],
) -> Vec<Position> {
    let mut it = bytes.iter();
    walk(start, steps, bytes.len(), |_| {
        it.next().map(|&b| b as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::oracle::consensus_steps;
    use crate::generators::face::Generator;
    use crate::generators::registry;

    #[test]
    fn playouts_are_reproducible_and_biased_toward_captures() {
        let g = registry();
        let start = Position::startpos();
        let a = random(&start, consensus_steps(&g), &mut Rng::new(1), 60, 0.0);
        let b = random(&start, consensus_steps(&g), &mut Rng::new(1), 60, 0.0);
        assert_eq!(a, b);
        assert!(a.len() > 10);
        let pieces = |run: &[Position]| run.last().map_or(32, |p| p.pieces().count());
        // Pieces left after 80 plies, summed over 20 seeds: captures thin the board.
        let left = |bias: f64| -> usize {
            (0..20)
                .map(|s| {
                    pieces(&random(
                        &start,
                        consensus_steps(&g),
                        &mut Rng::new(s),
                        80,
                        bias,
                    ))
                })
                .sum()
        };
        let (calm, greedy) = (left(0.0), left(0.9));
        assert!(
            greedy < calm,
            "bias 0.9 left {greedy} pieces, bias 0 left {calm}"
        );
    }

    #[test]
    fn bytes_pick_moves() {
        let g = registry();
        let run = from_bytes(&Position::startpos(), consensus_steps(&g), &[0, 1, 2]);
        assert_eq!(run.len(), 4);
        assert_eq!(
            from_bytes(&Position::startpos(), consensus_steps(&g), &[]).len(),
            1
        );
    }

    /// A generator that lists a move no other does cannot steer the walk onto it.
    #[test]
    fn the_walk_follows_the_consensus() {
        use crate::generators::planted::{Bug, Planted};
        let planted = Planted::new(Bug::KingLeavesPalace);
        let gens: Vec<&dyn Generator> = vec![registry()[0], registry()[1], &planted];
        let start = Position::from_fen("3k5/9/9/9/9/9/9/9/9/5K3 w").unwrap();
        // Every byte picks the last move: for the planted king that is a step outside
        // the palace, which the consensus does not have.
        let run = from_bytes(&start, consensus_steps(&gens), &[255; 6]);
        assert_eq!(run.len(), 1, "a disagreement ends the walk at once");
        let honest: Vec<&dyn Generator> = registry();
        let run = from_bytes(&start, consensus_steps(&honest), &[255; 6]);
        assert!(run
            .iter()
            .all(|p| p.pieces().all(|(sq, _)| (3..=5).contains(&sq.file()))));
    }
}
