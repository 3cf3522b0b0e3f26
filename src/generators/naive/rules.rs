//! "How each piece moves", one function per piece, each under the contract's sentence.
//!
//! Every function is handed a piece on (file, rank) and calls `visit(file, rank)` for
//! each point it may move to. Whose turn it is plays no part: the check detector asks
//! the same question of the enemy's pieces. Where a misreading of the rules would decide
//! differently, the board's [`Reading`] is asked (`board.reads`); read as written, each
//! question is the contract's sentence above it.

use super::reading::{Asker, Reading};
use super::NaiveBoard;
use crate::piece::{Color, Piece, Role};

/// The four orthogonal unit steps: up the board (toward Black), down, left, right.
pub(super) const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (-1, 0), (1, 0)];
/// The four diagonal unit steps.
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Whether a `role` piece on `from` could land on `to` at all, judging by distance
/// alone. The check detector asks this first so that it only walks the full rule for
/// the few enemy pieces near the king or in line with it; the rule itself still decides.
pub(super) fn within_reach(role: Role, from: (i8, i8), to: (i8, i8)) -> bool {
    let (files_apart, ranks_apart) = ((to.0 - from.0).abs(), (to.1 - from.1).abs());
    match role {
        // Sliders stay on their file or rank.
        Role::Rook | Role::Cannon => files_apart == 0 || ranks_apart == 0,
        // One orthogonal step and one diagonal step: two points one way, one the other.
        Role::Horse => (files_apart, ranks_apart) == (1, 2) || (files_apart, ranks_apart) == (2, 1),
        Role::King | Role::Pawn => files_apart + ranks_apart == 1,
        Role::Advisor => (files_apart, ranks_apart) == (1, 1),
        Role::Elephant => (files_apart, ranks_apart) == (2, 2),
    }
}

/// The steps from a point to the points a horse could reach it from. With the point's
/// file and rank they are every point from which an enemy piece could capture a king:
/// the other leapers, advisors and elephants, never leave their own palace or their own
/// half, and an enemy king stands in its own palace.
pub(crate) const HORSE_LEAPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];

/// Every point the piece on (file, rank) may move to, by its kind.
pub(super) fn targets<R: Reading>(
    board: &NaiveBoard<R>,
    file: i8,
    rank: i8,
    piece: Piece,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    let color = piece.color;
    match piece.role {
        Role::King => king(board, color, file, rank, by, visit),
        Role::Advisor => advisor(board, color, file, rank, by, visit),
        Role::Elephant => elephant(board, color, file, rank, by, visit),
        Role::Horse => horse(board, color, file, rank, by, visit),
        Role::Rook => rook(board, color, file, rank, by, visit),
        Role::Cannon => cannon(board, color, file, rank, by, visit),
        Role::Pawn => pawn(board, color, file, rank, by, visit),
    }
}

/// King: one step orthogonally, staying inside its own palace.
fn king<R: Reading>(
    board: &NaiveBoard<R>,
    color: Color,
    file: i8,
    rank: i8,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    for (df, dr) in ORTHOGONAL {
        let (to_file, to_rank) = (file + df, rank + dr);
        if board
            .reads
            .stays_in_palace(Role::King, color, to_file, to_rank, by)
            && board.may_land(Role::King, color, to_file, to_rank)
        {
            visit(to_file, to_rank);
        }
    }
}

/// Advisor: one step diagonally, staying inside its own palace.
fn advisor<R: Reading>(
    board: &NaiveBoard<R>,
    color: Color,
    file: i8,
    rank: i8,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    for (df, dr) in DIAGONAL {
        let (to_file, to_rank) = (file + df, rank + dr);
        if board
            .reads
            .stays_in_palace(Role::Advisor, color, to_file, to_rank, by)
            && board.may_land(Role::Advisor, color, to_file, to_rank)
        {
            visit(to_file, to_rank);
        }
    }
}

/// Elephant: exactly two steps diagonally; the point between (the elephant's eye) must
/// be empty; it never crosses the river.
fn elephant<R: Reading>(
    board: &NaiveBoard<R>,
    color: Color,
    file: i8,
    rank: i8,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    for (df, dr) in DIAGONAL {
        let (eye_file, eye_rank) = (file + df, rank + dr);
        let (to_file, to_rank) = (file + 2 * df, rank + 2 * dr);
        if board.reads.elephant_may_land(color, to_rank, by)
            && !board
                .reads
                .eye_blocks(color, board.get(eye_file, eye_rank), by)
            && board.may_land(Role::Elephant, color, to_file, to_rank)
            && (board.get(to_file, to_rank).is_none() || board.reads.elephant_captures(by))
        {
            visit(to_file, to_rank);
        }
    }
}

/// Horse: one step orthogonally then one step diagonally outward (8 targets); the point
/// one orthogonal step away (the horse's leg) must be empty for both targets beyond it.
fn horse<R: Reading>(
    board: &NaiveBoard<R>,
    color: Color,
    file: i8,
    rank: i8,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    for (df, dr) in ORTHOGONAL {
        let (leg_file, leg_rank) = (file + df, rank + dr);
        let leg_blocked = board
            .reads
            .leg_blocks(color, board.get(leg_file, leg_rank), by);
        // Outward from the leg: one more step the same way, plus one step to either
        // side across it; (dr, df) is the orthogonal step turned a quarter.
        for side in [-1, 1] {
            let (to_file, to_rank) = (leg_file + df + side * dr, leg_rank + dr + side * df);
            // A misreading may look for the leg elsewhere on the way to this target.
            let blocked =
                match board
                    .reads
                    .horse_leg_elsewhere((file, rank), (to_file, to_rank), by)
                {
                    None => leg_blocked,
                    // A leg looked for off the board is nowhere to step over: no jump.
                    Some((f, r)) if !NaiveBoard::<R>::on_board(f, r) => true,
                    Some((f, r)) => board.reads.leg_blocks(color, board.get(f, r), by),
                };
            if !blocked
                && board.reads.horse_crosses(rank, to_rank, by)
                && board.may_land(Role::Horse, color, to_file, to_rank)
            {
                visit(to_file, to_rank);
            }
        }
    }
}

/// Rook: any distance orthogonally, no jumping; it may capture the first piece it meets.
fn rook<R: Reading>(
    board: &NaiveBoard<R>,
    color: Color,
    file: i8,
    rank: i8,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    for (df, dr) in ORTHOGONAL {
        let (mut to_file, mut to_rank) = (file + df, rank + dr);
        let mut jumped = 0;
        while NaiveBoard::<R>::on_board(to_file, to_rank)
            && board.reads.rook_crosses(to_rank - dr, to_rank, by)
        {
            match board.get(to_file, to_rank) {
                None => {
                    visit(to_file, to_rank);
                    if jumped > 0 && board.reads.rook_stops_after_jump(by) {
                        break;
                    }
                }
                Some(_) => {
                    if board.may_land(Role::Rook, color, to_file, to_rank) {
                        visit(to_file, to_rank);
                    }
                    if jumped == board.reads.rook_jumps(by) {
                        break;
                    }
                    jumped += 1;
                }
            }
            to_file += df;
            to_rank += dr;
        }
    }
}

/// Cannon: moves like a rook when not capturing. It captures only by jumping exactly
/// one piece (the screen, of either colour) along a line, taking the first piece beyond
/// the screen if that piece is an enemy.
fn cannon<R: Reading>(
    board: &NaiveBoard<R>,
    color: Color,
    file: i8,
    rank: i8,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    for (df, dr) in ORTHOGONAL {
        let (mut to_file, mut to_rank) = (file + df, rank + dr);
        // How many pieces have been jumped so far: the screen is the first piece met,
        // whatever its colour.
        let mut screens = 0;
        // The first piece met: the screen.
        let mut screen = None;
        while NaiveBoard::<R>::on_board(to_file, to_rank) {
            match board.get(to_file, to_rank) {
                // Before the screen: a quiet rook move.
                None if screens == 0 => visit(to_file, to_rank),
                // Beyond the screen, empty points are jumped over but not landed on.
                None => {
                    if board.reads.cannon_lands_past_screen() {
                        visit(to_file, to_rank);
                    }
                }
                // The first piece beyond the screen: taken if it is an enemy.
                Some(piece) => {
                    let (hop_file, hop_rank) = (to_file + df, to_rank + dr);
                    if board.reads.cannon_hops_enemy(by)
                        && screens == 0
                        && piece.color != color
                        && NaiveBoard::<R>::on_board(hop_file, hop_rank)
                        && board.get(hop_file, hop_rank).is_none()
                    {
                        visit(hop_file, hop_rank);
                    }
                    let served = screen.is_none_or(|s| board.reads.screen_serves(color, s, by));
                    if board.reads.cannon_takes_over(screens, by)
                        && served
                        && board.may_land(Role::Cannon, color, to_file, to_rank)
                    {
                        visit(to_file, to_rank);
                    }
                    screen = screen.or(Some(piece));
                    if screens == board.reads.cannon_most_screens(by) {
                        break;
                    }
                    screens += 1;
                }
            }
            to_file += df;
            to_rank += dr;
        }
    }
}

/// Pawn: one step forward (Red toward rank 9, Black toward rank 0). Once across the
/// river it may also step one square sideways. Never backward. On the last rank it can
/// only move sideways (the forward step would leave the board).
fn pawn<R: Reading>(
    board: &NaiveBoard<R>,
    color: Color,
    file: i8,
    rank: i8,
    by: Asker,
    visit: &mut impl FnMut(i8, i8),
) {
    let moves_as = board.reads.pawn_moves_as(color, by);
    let forward = match (moves_as, board.reads.pawn_forward_reversed(by)) {
        (Color::Red, false) | (Color::Black, true) => 1,
        (Color::Black, false) | (Color::Red, true) => -1,
    };
    if board.may_land(Role::Pawn, color, file, rank + forward) {
        visit(file, rank + forward);
    }
    let crossed = board.reads.pawn_crossed(moves_as, rank, by);
    if crossed {
        for side in [-1, 1] {
            if board.may_land(Role::Pawn, color, file + side, rank) {
                visit(file + side, rank);
            }
        }
    }
    if board.reads.pawn_steps_back(crossed, by)
        && board.may_land(Role::Pawn, color, file, rank - forward)
    {
        visit(file, rank - forward);
    }
}
