//! The naive generator: the rules contract (`docs/rules.md`) written out
//! as plainly as Rust allows, so the fast generators have something obvious to be
//! checked against.
//!
//! The board is a 9x10 grid of points indexed `[rank][file]`, plus the side to move.
//! Movement walks signed (file, rank) coordinates and asks "is this still on the
//! board?" at every step; nothing is precomputed. Each piece's rule lives in
//! `rules.rs`, next to the sentence of the contract it transcribes. The check detector
//! is that contract's definition of check, word for word: some enemy piece could
//! capture the king by those same rules, or the two kings face each other on an open
//! file.

mod rules;
#[cfg(test)]
mod tests;

use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::{Square, SQUARE_COUNT};

/// Files `a`..`i`, as a signed bound so a step off the left edge is simply negative.
const FILES: i8 = 9;
/// Ranks `0`..`9`, signed for the same reason.
const RANKS: i8 = 10;

/// The naive generator: a readable transcription of the rules contract.
pub struct NaiveGen;

/// The naive generator's board: the 90 points as `[rank][file]`, whose move it is, and
/// the FEN counters, which only ride along so [`MoveGen::to_setup`] can give them back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveBoard {
    grid: [[Option<Piece>; FILES as usize]; RANKS as usize],
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
}

impl NaiveBoard {
    /// Whether (file, rank) is one of the 90 points. Every step of every piece passes
    /// through here before the grid is read, so stepping off an edge is never an index.
    fn on_board(file: i8, rank: i8) -> bool {
        (0..FILES).contains(&file) && (0..RANKS).contains(&rank)
    }

    /// What stands on (file, rank); nothing, when the point is off the board.
    fn get(&self, file: i8, rank: i8) -> Option<Piece> {
        if Self::on_board(file, rank) {
            self.grid[rank as usize][file as usize]
        } else {
            None
        }
    }

    /// Whether (file, rank) is on the board and holds no piece.
    fn is_empty(&self, file: i8, rank: i8) -> bool {
        Self::on_board(file, rank) && self.get(file, rank).is_none()
    }

    /// "A move may end on an empty square or on an enemy piece, never on an own piece."
    fn may_land(&self, color: Color, file: i8, rank: i8) -> bool {
        Self::on_board(file, rank) && !matches!(self.get(file, rank), Some(p) if p.color == color)
    }

    /// Where `color`'s king stands. The king never leaves its palace, so only the
    /// palace's nine points are looked at.
    fn king(&self, color: Color) -> Option<(i8, i8)> {
        let king = Piece::new(color, Role::King);
        let ranks = match color {
            Color::Red => 0..=2,
            Color::Black => 7..=9,
        };
        for rank in ranks {
            for file in 3..=5 {
                if self.grid[rank as usize][file as usize] == Some(king) {
                    return Some((file, rank));
                }
            }
        }
        None
    }

    /// Whether the two kings stand on one file with no piece between them (the flying
    /// general): each then "attacks" the other along the open file.
    fn kings_facing(&self, red_king: (i8, i8), black_king: (i8, i8)) -> bool {
        let ((red_file, red_rank), (black_file, black_rank)) = (red_king, black_king);
        red_file == black_file
            && (red_rank + 1..black_rank).all(|rank| self.get(red_file, rank).is_none())
    }

    /// "A king is in check when an enemy piece could capture it by the moves above, or
    /// when the two kings stand on one file with no piece between them."
    fn king_attacked(&self, color: Color) -> bool {
        // Only reached with a king already taken when an illegal move was played before;
        // with no king there is nothing to attack.
        let (Some(king), Some(enemy_king)) = (self.king(color), self.king(color.other())) else {
            return false;
        };
        let (red_king, black_king) = match color {
            Color::Red => (king, enemy_king),
            Color::Black => (enemy_king, king),
        };
        if self.kings_facing(red_king, black_king) {
            return true;
        }
        // Only the points from which some kind of piece could reach the king at all can
        // hold a piece that does. Along the king's file and rank that is the first two
        // pieces met each way (a rook, king or pawn needs a clear way, a cannon exactly one
        // screen); off them, a horse's leap away.
        let (file, rank) = king;
        for (df, dr) in rules::ORTHOGONAL {
            let (mut f, mut r) = (file + df, rank + dr);
            let mut met = 0;
            while met < 2 && Self::on_board(f, r) {
                if self.grid[r as usize][f as usize].is_some() {
                    met += 1;
                    if self.captures_king(f, r, color, king) {
                        return true;
                    }
                }
                f += df;
                r += dr;
            }
        }
        rules::HORSE_LEAPS
            .iter()
            .any(|&(df, dr)| self.captures_king(file + df, rank + dr, color, king))
    }

    /// Whether an enemy of `color` stands on (file, rank) and could capture `color`'s
    /// king on `king` by its own move rule. Inlined: the check detector asks it of some
    /// thirty points for every move tried, and most of them are empty.
    #[inline(always)]
    fn captures_king(&self, file: i8, rank: i8, color: Color, king: (i8, i8)) -> bool {
        let Some(piece) = self.get(file, rank) else {
            return false;
        };
        if piece.color == color || !rules::within_reach(piece.role, (file, rank), king) {
            return false;
        }
        let mut captures_king = false;
        rules::targets(self, file, rank, piece, &mut |to_file, to_rank| {
            captures_king |= (to_file, to_rank) == king;
        });
        captures_king
    }
}

/// The [`Square`] at (file, rank), which the caller has already found on the board.
fn square(file: i8, rank: i8) -> Option<Square> {
    Square::new(u8::try_from(file).ok()?, u8::try_from(rank).ok()?)
}

/// The (file, rank) of a [`Square`], signed so steps can go negative.
fn coords(sq: Square) -> (i8, i8) {
    // Both fit: a file is below 9 and a rank below 10.
    (sq.file() as i8, sq.rank() as i8)
}

impl MoveGen for NaiveGen {
    type Board = NaiveBoard;
    /// What the move took, if anything: all unmake needs to put back.
    type Undo = Option<Piece>;

    fn name(&self) -> &'static str {
        "naive"
    }

    fn load(&self, pos: &Position) -> NaiveBoard {
        let setup = pos.setup();
        let mut board = NaiveBoard {
            grid: [[None; FILES as usize]; RANKS as usize],
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        };
        for (sq, piece) in pos.pieces() {
            board.grid[sq.rank() as usize][sq.file() as usize] = Some(piece);
        }
        board
    }

    fn to_setup(&self, board: &NaiveBoard) -> Setup {
        let mut placement = [None; SQUARE_COUNT];
        for sq in Square::all() {
            let (file, rank) = coords(sq);
            placement[sq.index()] = board.get(file, rank);
        }
        Setup {
            board: placement,
            turn: board.turn,
            halfmoves: board.halfmoves,
            fullmoves: board.fullmoves,
        }
    }

    fn turn(&self, board: &NaiveBoard) -> Color {
        board.turn
    }

    fn piece_at(&self, board: &NaiveBoard, sq: Square) -> Option<Piece> {
        let (file, rank) = coords(sq);
        board.get(file, rank)
    }

    fn pseudo_legal(&self, board: &NaiveBoard, out: &mut MoveList) {
        for (rank, row) in (0..RANKS).zip(&board.grid) {
            for (file, &point) in (0..FILES).zip(row) {
                let Some(piece) = point else {
                    continue;
                };
                if piece.color != board.turn {
                    continue;
                }
                let Some(from) = square(file, rank) else {
                    continue;
                };
                rules::targets(board, file, rank, piece, &mut |to_file, to_rank| {
                    if let Some(to) = square(to_file, to_rank) {
                        out.push(Move::new(from, to));
                    }
                });
            }
        }
    }

    fn king_attacked(&self, board: &NaiveBoard, color: Color) -> bool {
        board.king_attacked(color)
    }

    fn make(&self, board: &mut NaiveBoard, mv: Move) -> Option<Piece> {
        let (from_file, from_rank) = (mv.from.file() as usize, mv.from.rank() as usize);
        let (to_file, to_rank) = (mv.to.file() as usize, mv.to.rank() as usize);
        let mover = board.grid[from_rank][from_file].take();
        let captured = std::mem::replace(&mut board.grid[to_rank][to_file], mover);
        board.turn = board.turn.other();
        captured
    }

    fn unmake(&self, board: &mut NaiveBoard, mv: Move, captured: Option<Piece>) {
        let (from_file, from_rank) = (mv.from.file() as usize, mv.from.rank() as usize);
        let (to_file, to_rank) = (mv.to.file() as usize, mv.to.rank() as usize);
        let mover = std::mem::replace(&mut board.grid[to_rank][to_file], captured);
        board.grid[from_rank][from_file] = mover;
        board.turn = board.turn.other();
    }

    fn count_legal(&self, board: &mut NaiveBoard) -> u64 {
        let mut pseudo = MoveList::new();
        self.pseudo_legal(board, &mut pseudo);
        let us = board.turn;
        let mut count = 0;
        for &mv in pseudo.iter() {
            let captured = self.make(board, mv);
            if !board.king_attacked(us) {
                count += 1;
            }
            self.unmake(board, mv, captured);
        }
        count
    }
}
