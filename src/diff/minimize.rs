//! Shrinks a position to the smallest, simplest position that still fails: for the
//! built-in generators, one that still shows the same bug (the same signature: check,
//! odd generator, class of move); for anything else, whatever the caller's predicate
//! says (`shrink`).
//!
//! Passes, run to a fixed point: remove a piece (never a king); replace a piece by a
//! simpler kind; move a piece one step toward its nearest corner; give Red the move (or
//! turn the board so Red has it); set the move counters to a fresh game's. Every accepted
//! step lowers (piece count, complexity, distance to corners, side, counters), so the
//! loop ends; candidates are tried in a fixed order, so the result is deterministic. At
//! a fixed point, escapes from the local minimum
//! (`shrink`) look for fewer pieces by two changes at once or a piece moved onto a
//! king's line.

use crate::diff::oracle::{check_position, check_position_along, Disagreement};
use crate::generators::face::Generator;
use crate::piece::{Color, Piece, Role};
use crate::position::{in_palace, Position, Setup};
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
    if (base.halfmoves, base.fullmoves) != (0, 1) {
        // Counters a bug does not need read as a fresh game's.
        out.push(Setup {
            halfmoves: 0,
            fullmoves: 1,
            ..base.clone()
        });
    }
    if base.turn == Color::Black {
        out.push(Setup {
            turn: Color::Red,
            ..base.clone()
        });
        // The same position seen from the other side: Red to move, the board turned.
        out.push(base.swap_colors());
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

/// Shrinks `pos` one step at a time, keeping a valid candidate whenever `still_fails`
/// holds for it, until no candidate does; returns the last position kept (`pos` itself
/// if no candidate fails). `still_fails` is asked only about valid positions, and is
/// never asked about `pos`: the caller already knows it fails there.
///
/// When the one-step passes are stuck, two escapes from the local minimum are tried:
/// two changes at once (remove two pieces; make one simpler and remove another; a king
/// in the place of a piece in its palace, the other king moved if need be; a piece
/// removed and a king moved within its palace), and a
/// piece moved onto a king's file or rank (or, for an advisor or elephant, to any of its
/// points) followed by the one-step passes, kept only if that ends with fewer pieces.
/// Both lower the piece count, so the loop ends; the result is 1-minimal (no single
/// removal or simplification still fails) and, candidates being tried in a fixed
/// order, deterministic.
///
/// A predicate that cannot answer (an engine that died, say) should record why and
/// answer `false` from then on without asking again: the loop then ends after one pass
/// over the current candidates.
pub(crate) fn shrink(pos: &Position, mut still_fails: impl FnMut(&Position) -> bool) -> Position {
    let mut best = shrink_steps(pos, &mut still_fails);
    while let Some(smaller) = escape(&best, &mut still_fails) {
        best = smaller;
    }
    best
}

/// The one-step passes, to a fixed point.
fn shrink_steps(pos: &Position, still_fails: &mut impl FnMut(&Position) -> bool) -> Position {
    let mut best = pos.clone();
    loop {
        let step = candidates(&best)
            .into_iter()
            .filter_map(|c| Position::new(c).ok())
            .find(|c| still_fails(c));
        match step {
            Some(next) => best = next,
            None => return best,
        }
    }
}

/// A position with fewer pieces than `best` that still fails, reached by a step the
/// one-step passes do not take, then shrunk by them.
fn escape(best: &Position, still_fails: &mut impl FnMut(&Position) -> bool) -> Option<Position> {
    for c in pairs(best)
        .into_iter()
        .filter_map(|c| Position::new(c).ok())
    {
        if still_fails(&c) {
            return Some(shrink_steps(&c, still_fails));
        }
    }
    let pieces = best.pieces().count();
    for c in relocations(best)
        .into_iter()
        .filter_map(|c| Position::new(c).ok())
    {
        if still_fails(&c) {
            let small = shrink_steps(&c, still_fails);
            if small.pieces().count() < pieces {
                return Some(small);
            }
        }
    }
    None
}

/// Two changes at once, each leaving fewer pieces: two pieces removed, one made
/// simpler and another removed (a cannon turned into a rook once its screen is gone),
/// a king moved onto a piece's point in its palace in place of that piece (a king
/// blocks an eye or a leg, or screens a cannon, as well as any piece does), the other
/// king standing anywhere in its own palace so that the two need not face each other,
/// or a piece removed and a king moved anywhere in its palace (the piece stood only
/// between the two kings).
fn pairs(pos: &Position) -> Vec<Setup> {
    let base = pos.setup();
    let pieces: Vec<(Square, Piece)> = pos.pieces().filter(|(_, p)| p.role != Role::King).collect();
    let mut out = Vec::new();
    for (i, &(a, _)) in pieces.iter().enumerate() {
        for &(b, _) in &pieces[i + 1..] {
            let mut s = base.clone();
            s.board[a.index()] = None;
            s.board[b.index()] = None;
            out.push(s);
        }
    }
    for &(a, p) in &pieces {
        for &simpler in &SIMPLICITY[..complexity(p.role)] {
            for &(b, _) in pieces.iter().filter(|(b, _)| *b != a) {
                let mut s = base.clone();
                s.board[a.index()] = Some(Piece::new(p.color, simpler));
                s.board[b.index()] = None;
                out.push(s);
            }
        }
    }
    for color in [Color::Red, Color::Black] {
        let (king, other) = (pos.king(color), pos.king(color.other()));
        for &(a, _) in pieces.iter().filter(|(a, _)| in_palace(color, *a)) {
            let mut moved = base.clone();
            moved.board[a.index()] = moved.board[king.index()].take();
            // Where the other king stands now first, then its palace's other points.
            let stands = std::iter::once(other)
                .chain(Square::all().filter(|&sq| sq != other && in_palace(color.other(), sq)));
            for to in stands {
                if moved.board[to.index()].is_some() && to != other {
                    continue;
                }
                let mut s = moved.clone();
                s.board[to.index()] = s.board[other.index()].take();
                out.push(s);
            }
        }
        // The piece's own point is the loop above's (the king in its place).
        for &(a, _) in &pieces {
            for to in Square::all().filter(|&sq| in_palace(color, sq) && sq != king && sq != a) {
                let mut s = base.clone();
                s.board[a.index()] = None;
                if s.board[to.index()].is_none() {
                    s.board[to.index()] = s.board[king.index()].take();
                    out.push(s);
                }
            }
        }
    }
    out
}

/// Each non-king piece moved to an empty point on either king's file or rank, and an
/// advisor or elephant to any empty point (validation keeps only its own points).
fn relocations(pos: &Position) -> Vec<Setup> {
    let base = pos.setup();
    let kings: Vec<Square> = [Color::Red, Color::Black]
        .into_iter()
        .map(|c| pos.king(c))
        .collect();
    let on_king_line = |sq: Square| {
        kings
            .iter()
            .any(|k| k.file() == sq.file() || k.rank() == sq.rank())
    };
    let mut out = Vec::new();
    for (from, p) in pos.pieces().filter(|(_, p)| p.role != Role::King) {
        let anywhere = matches!(p.role, Role::Advisor | Role::Elephant);
        for to in Square::all() {
            if base.piece_at(to).is_some() || !(anywhere || on_king_line(to)) {
                continue;
            }
            let mut s = base.clone();
            s.board[from.index()] = None;
            s.board[to.index()] = Some(p);
            out.push(s);
        }
    }
    out
}

/// Shrinks `pos`, on which `target` was found, and returns the smallest position
/// reached with the disagreement it shows there. If `pos` does not show `target`'s kind
/// of disagreement at all, it is returned as it is, with `target`.
pub fn minimize(
    pos: &Position,
    target: &Disagreement,
    gens: &[&dyn Generator],
) -> (Position, Disagreement) {
    // A board walked along a line of a long playout may not go wrong on the line the
    // oracle walks from the position by itself; then every candidate walks that line.
    let line = (!target.line.is_empty()
        && !check_position(pos, gens)
            .iter()
            .any(|d| d.same_kind(target)))
    .then_some(target.line.as_slice());
    let shows = |c: &Position| {
        check_position_along(c, gens, line)
            .into_iter()
            .find(|d| d.same_kind(target))
    };
    let best = shrink(pos, |c| shows(c).is_some());
    // The escapes try positions they then drop, so the disagreement is asked again
    // of the position kept.
    let found = if best == *pos {
        target.clone()
    } else {
        shows(&best).unwrap_or_else(|| target.clone())
    };
    (best, found)
}

/// The first disagreement on `pos` (in the oracle's order), minimized.
pub fn minimize_first(pos: &Position, gens: &[&dyn Generator]) -> Option<(Position, Disagreement)> {
    let first = check_position(pos, gens).into_iter().next()?;
    Some(minimize(pos, &first, gens))
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

    /// What the minimizer promises, for each planted bug it can start on: the result
    /// still shows the bug (the same signature), no single removal or simplification of
    /// it does, and minimizing again gives the same position.
    #[test]
    fn a_minimized_witness_is_one_minimal_and_the_same_every_time() {
        use crate::diff::oracle::check_position;
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let starts = [
            Position::startpos(),
            Position::from_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w")
                .unwrap(),
        ];
        let mut tried = 0;
        for bug in Bug::ALL {
            let planted = Planted::new(bug);
            let gens: Vec<&dyn Generator> = vec![&MailboxGen, &BitboardGen, &planted];
            for start in &starts {
                let Some(first) = check_position(start, &gens).into_iter().next() else {
                    continue;
                };
                tried += 1;
                let (small, found) = minimize(start, &first, &gens);
                let shows = |p: &Position| {
                    check_position(p, &gens)
                        .iter()
                        .any(|d| d.signature() == first.signature())
                };
                assert!(shows(&small), "{bug:?}: {} lost the bug", small.fen());
                assert_eq!(found.signature(), first.signature(), "{bug:?}");
                for c in candidates(&small) {
                    if let Ok(c) = Position::new(c) {
                        assert!(
                            !shows(&c),
                            "{bug:?}: {} is simpler than {} and still shows it",
                            c.fen(),
                            small.fen()
                        );
                    }
                }
                assert_eq!(minimize(start, &first, &gens).0, small, "{bug:?}");
            }
        }
        assert!(tried >= 10, "only {tried} bugs showed on the starts");
    }

    /// A predicate that only counts pieces drives `shrink` to the two kings plus the
    /// number of pieces it insists on, and never asks about the starting position.
    #[test]
    fn shrink_keeps_what_the_predicate_needs() {
        let start = Position::startpos();
        for keep in [0usize, 1, 3] {
            let mut asked_start = false;
            let small = shrink(&start, |c| {
                asked_start |= *c == start;
                c.pieces().count() >= 2 + keep
            });
            assert!(!asked_start);
            assert_eq!(small.pieces().count(), 2 + keep, "{}", small.fen());
        }
        let unchanged = shrink(&start, |_| false);
        assert_eq!(unchanged, start);
    }

    /// Counters a bug does not need go back to "0 1"; a bug in the counters keeps them.
    #[test]
    fn counters_are_kept_only_when_the_bug_needs_them() {
        let start = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 37 58").unwrap();
        let plain = shrink(&start, |c| c.pieces().count() >= 2);
        assert_eq!(plain.fen(), "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        let clock = shrink(&start, |c| c.setup().halfmoves == 37);
        assert_eq!(clock.fen(), "3k5/9/9/9/9/9/9/9/9/4K4 w - - 37 58");
    }

    /// A bug that needs five pieces where they stand (Red's king on f2 among them),
    /// found with Black's king on f9 and an advisor on f7 only to keep the kings apart:
    /// removing the advisor alone leaves them facing, so Black's king must step off the
    /// file in the same change.
    #[test]
    fn a_piece_that_only_parts_the_kings_goes_with_a_king_step() {
        let start = Position::from_fen("5k3/9/5a3/9/9/9/6Rn1/5K3/3nA4/9 w").unwrap();
        let at = |fen_sq: &str| -> Square {
            let b = fen_sq.as_bytes();
            Square::new(b[0] - b'a', b[1] - b'0').unwrap()
        };
        let needed = [
            ("g3", Piece::new(Color::Red, Role::Rook)),
            ("h3", Piece::new(Color::Black, Role::Horse)),
            ("f2", Piece::new(Color::Red, Role::King)),
            ("d1", Piece::new(Color::Black, Role::Horse)),
            ("e1", Piece::new(Color::Red, Role::Advisor)),
        ];
        let needs = |c: &Position| needed.iter().all(|&(sq, p)| c.piece_at(at(sq)) == Some(p));
        let small = shrink(&start, needs);
        assert_eq!(small.pieces().count(), 6, "{}", small.fen());
        assert!(small.piece_at(at("f7")).is_none(), "{}", small.fen());
    }

    /// A bug that needs an elephant's eye blocked, found with a horse on the eye: no
    /// one step shrinks it (the horse is the blocker, and nothing simpler may stand on
    /// that point), but the king may block the eye in the horse's place once the other
    /// king steps off the file the two would face on.
    #[test]
    fn a_king_takes_the_place_of_a_blocker() {
        let start = Position::from_fen("3k5/9/9/9/9/9/9/4B4/3N5/3K5 w").unwrap();
        let e2 = Square::new(4, 2).unwrap();
        let d1 = Square::new(3, 1).unwrap();
        let eye_blocked = |c: &Position| {
            c.piece_at(e2) == Some(Piece::new(Color::Red, Role::Elephant))
                && c.piece_at(d1).is_some()
        };
        let small = shrink(&start, eye_blocked);
        assert_eq!(small.pieces().count(), 3, "{}", small.fen());
        assert_eq!(
            small.piece_at(d1),
            Some(Piece::new(Color::Red, Role::King)),
            "{}",
            small.fen()
        );
    }
}
