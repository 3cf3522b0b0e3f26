//! Shrinks a position on which generators disagree to the smallest, simplest position
//! that still shows the same disagreement (same check, same odd generator).
//!
//! Passes, run to a fixed point: remove a piece (never a king); replace a piece by a
//! simpler kind; move a piece one step toward its nearest corner; give Red the move.
//! Every accepted step lowers (piece count, complexity, distance to corners, side), so
//! the loop ends; candidates are tried in a fixed order, so the result is deterministic.

use crate::engine::Engine;
use crate::oracle::{check_position, Disagreement};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::Square;

/// Kinds from simplest to most complex: a replacement must move left in this list.
const SIMPLICITY: [Role; 6] = [
    Role::Pawn,
    Role::Advisor,
    Role::Elephant,
    Role::Horse,
    Role::Rook,
    Role::Cannon,
];

fn complexity(role: Role) -> usize {
    SIMPLICITY
        .iter()
        .position(|&r| r == role)
        .unwrap_or(SIMPLICITY.len())
}

/// Whether `setup` is valid and still shows a disagreement of `target`'s kind.
fn still_fails(
    setup: Setup,
    target: &Disagreement,
    engines: &[&dyn Engine],
) -> Option<(Position, Disagreement)> {
    let pos = Position::new(setup).ok()?;
    let found = check_position(&pos, engines)
        .into_iter()
        .find(|d| d.same_kind(target))?;
    Some((pos, found))
}

/// The candidates one step simpler than `pos`, in the order they are tried.
fn candidates(pos: &Position) -> Vec<Setup> {
    let base = pos.setup();
    let mut out = Vec::new();
    let pieces: Vec<(Square, Piece)> = pos.pieces().collect();
    for &(sq, p) in &pieces {
        if p.role != Role::King {
            let mut s = base.clone();
            s.board[sq.index()] = None;
            out.push(s);
        }
    }
    for &(sq, p) in &pieces {
        if p.role == Role::King {
            continue;
        }
        for &simpler in &SIMPLICITY[..complexity(p.role)] {
            let mut s = base.clone();
            s.board[sq.index()] = Some(Piece::new(p.color, simpler));
            out.push(s);
        }
    }
    for &(sq, p) in &pieces {
        for to in toward_corner(sq) {
            if base.piece_at(to).is_none() {
                let mut s = base.clone();
                s.board[sq.index()] = None;
                s.board[to.index()] = Some(p);
                out.push(s);
            }
        }
    }
    if base.turn == Color::Black {
        out.push(Setup {
            turn: Color::Red,
            ..base.clone()
        });
    }
    out
}

/// The one-step moves of a piece toward the corner nearest it (file first).
fn toward_corner(sq: Square) -> Vec<Square> {
    let (f, r) = (sq.file(), sq.rank());
    let df: i8 = if f == 0 || f == 8 {
        0
    } else if f <= 4 {
        -1
    } else {
        1
    };
    let dr: i8 = if r == 0 || r == 9 {
        0
    } else if r <= 4 {
        -1
    } else {
        1
    };
    let mut out = Vec::new();
    if df != 0 {
        out.extend(Square::new((f as i8 + df) as u8, r));
    }
    if dr != 0 {
        out.extend(Square::new(f, (r as i8 + dr) as u8));
    }
    out
}

/// Shrinks `pos`, on which `target` was found, and returns the smallest position
/// reached with the disagreement it shows there. If `pos` does not show `target`'s kind
/// of disagreement at all, it is returned as it is, with `target`.
pub fn minimize(
    pos: &Position,
    target: &Disagreement,
    engines: &[&dyn Engine],
) -> (Position, Disagreement) {
    let mut best = (pos.clone(), target.clone());
    loop {
        let step = candidates(&best.0)
            .into_iter()
            .find_map(|c| still_fails(c, target, engines));
        match step {
            Some(next) => best = next,
            None => return best,
        }
    }
}

/// The first disagreement on `pos` (in the oracle's order), minimized.
pub fn minimize_first(pos: &Position, engines: &[&dyn Engine]) -> Option<(Position, Disagreement)> {
    let first = check_position(pos, engines).into_iter().next()?;
    Some(minimize(pos, &first, engines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_steps_always_approach_a_corner() {
        let dist = |sq: Square| {
            let f = sq.file().min(8 - sq.file());
            let r = sq.rank().min(9 - sq.rank());
            f + r
        };
        for sq in Square::all() {
            for to in toward_corner(sq) {
                assert!(dist(to) < dist(sq), "{sq} -> {to}");
            }
        }
    }

    #[test]
    fn candidates_are_strictly_simpler_and_never_drop_a_king() {
        let pos = Position::startpos();
        for c in candidates(&pos) {
            let kings = c.pieces().filter(|(_, p)| p.role == Role::King).count();
            assert_eq!(kings, 2);
        }
        assert!(minimize_first(&pos, &crate::generators::registry()).is_none());
    }
}
