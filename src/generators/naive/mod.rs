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
//!
//! At each point where a plausible misreading of the rules would decide differently,
//! the code asks the board's `Reading` (`reading.rs`); [`NaiveGen`](type@NaiveGen) reads the rules as
//! written, and the questions compile away. Other readings make the naive generator a
//! generator of a rule bug: the `diagnose` layer's catalogue.

pub(crate) mod reading;
mod rules;
#[cfg(test)]
mod tests;

use reading::Asker;
pub(crate) use reading::{AsWritten, Reading};
// The planted bugs are misreadings of the naive rules, so they leap as it does.
#[cfg(any(test, feature = "planted"))]
pub(crate) use rules::HORSE_LEAPS;

use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::{Square, SQUARE_COUNT};

/// Files `a`..`i`, as a signed bound so a step off the left edge is simply negative.
const FILES: i8 = 9;
/// Ranks `0`..`9`, signed for the same reason.
const RANKS: i8 = 10;

/// The naive generator reading the rules as `R` says: as written ([`NaiveGen`](type@NaiveGen)), or as
/// some plausible misreading of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Naive<R: Reading>(pub R);

/// The naive generator: a readable transcription of the rules contract.
pub type NaiveGen = Naive<AsWritten>;

/// The naive generator, as a value under the name a unit struct would have, so
/// `NaiveGen.perft(..)` reads as it always has.
#[allow(non_upper_case_globals)]
pub const NaiveGen: NaiveGen = Naive(AsWritten);

/// The naive generator's board: the 90 points as `[rank][file]`, whose move it is, the
/// FEN counters, which only ride along so [`MoveGen::to_setup`] can give them back, and
/// how the rules are read (nothing at all, as written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveBoard<R: Reading = AsWritten> {
    grid: [[Option<Piece>; FILES as usize]; RANKS as usize],
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
    reads: R,
}

impl<R: Reading> NaiveBoard<R> {
    /// Reads the rules as `reads` from now on, and returns how they were read until now:
    /// a misreading of legality asks the check detector of another reading for some moves.
    pub(crate) fn reread(&mut self, reads: R) -> R {
        std::mem::replace(&mut self.reads, reads)
    }

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

    /// "A move may end on an empty square or on an enemy piece, never on an own piece."
    fn may_land(&self, role: Role, color: Color, file: i8, rank: i8) -> bool {
        Self::on_board(file, rank)
            && !matches!(self.get(file, rank), Some(p) if p.color == color && !self.reads.takes_own(role))
    }

    /// Where `color`'s king stands. Under the rules the king never leaves its palace, so
    /// only the palace's nine points are looked at; a misreading may let it out (a
    /// palace variant), and a king it let out must still be found, or every point it
    /// steps onto outside would be taken as safe: the whole board is then searched.
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
        if self.reads.near_king_only() {
            return None;
        }
        (0..RANKS)
            .flat_map(|rank| (0..FILES).map(move |file| (file, rank)))
            .find(|&(file, rank)| self.get(file, rank) == Some(king))
    }

    /// Whether the two kings stand on one file with no piece between them (the flying
    /// general): each then "attacks" the other along the open file.
    fn kings_facing(&self, color: Color, red_king: (i8, i8), black_king: (i8, i8)) -> bool {
        let ((red_file, red_rank), (black_file, black_rank)) = (red_king, black_king);
        self.reads.kings_face(color, red_file == black_file, || {
            (red_rank + 1..black_rank)
                .filter(|&rank| self.get(red_file, rank).is_some())
                .count()
        })
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
        if self.kings_facing(color, red_king, black_king) {
            return true;
        }
        if !self.reads.near_king_only() {
            return self.any_captures_king(color, king);
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

    /// The check detector for a misreading of the rules, where pieces may reach the
    /// king from anywhere: every enemy piece on the board is asked.
    fn any_captures_king(&self, color: Color, king: (i8, i8)) -> bool {
        (0..RANKS).any(|rank| (0..FILES).any(|file| self.captures_king(file, rank, color, king)))
    }

    /// Whether an enemy of `color` stands on (file, rank) and could capture `color`'s
    /// king on `king` by its own move rule. Inlined: the check detector asks it of some
    /// thirty points for every move tried, and most of them are empty.
    #[inline(always)]
    fn captures_king(&self, file: i8, rank: i8, color: Color, king: (i8, i8)) -> bool {
        let Some(piece) = self.get(file, rank) else {
            return false;
        };
        if piece.color == color || !self.reads.detector_sees(piece) {
            return false;
        }
        if self.reads.near_king_only() && !rules::within_reach(piece.role, (file, rank), king) {
            return false;
        }
        let mut captures_king = false;
        rules::targets(
            self,
            file,
            rank,
            piece,
            Asker::Detector,
            &mut |to_file, to_rank| {
                captures_king |= (to_file, to_rank) == king;
            },
        );
        captures_king
    }
}

/// "Palaces: files `d`..`f`, ranks 0-2 (Red) and 7-9 (Black)."
fn in_palace(color: Color, file: i8, rank: i8) -> bool {
    let ranks = match color {
        Color::Red => 0..=2,
        Color::Black => 7..=9,
    };
    (3..=5).contains(&file) && ranks.contains(&rank)
}

/// "The river lies between ranks 4 and 5. Red's half is ranks 0-4, Black's 5-9."
fn on_own_half(color: Color, rank: i8) -> bool {
    match color {
        Color::Red => (0..=4).contains(&rank),
        Color::Black => (5..=9).contains(&rank),
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

impl<R: Reading> MoveGen for Naive<R> {
    type Board = NaiveBoard<R>;
    /// What the move took, if anything: all unmake needs to put back.
    type Undo = Option<Piece>;

    fn name(&self) -> &'static str {
        self.0.name()
    }

    fn load(&self, pos: &Position) -> NaiveBoard<R> {
        let setup = pos.setup();
        let mut board = NaiveBoard {
            grid: [[None; FILES as usize]; RANKS as usize],
            turn: self.0.reads_turn(setup.turn),
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
            reads: self.0,
        };
        for (sq, piece) in pos.pieces() {
            board.grid[sq.rank() as usize][sq.file() as usize] = Some(piece);
        }
        board
    }

    fn to_setup(&self, board: &NaiveBoard<R>) -> Setup {
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

    fn turn(&self, board: &NaiveBoard<R>) -> Color {
        board.turn
    }

    fn piece_at(&self, board: &NaiveBoard<R>, sq: Square) -> Option<Piece> {
        let (file, rank) = coords(sq);
        board.get(file, rank)
    }

    fn pseudo_legal(&self, board: &NaiveBoard<R>, out: &mut MoveList) {
        if !board.reads.moves_at_clock(board.halfmoves) {
            return;
        }
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
                rules::targets(
                    board,
                    file,
                    rank,
                    piece,
                    Asker::Mover,
                    &mut |to_file, to_rank| {
                        if let Some(to) = square(to_file, to_rank) {
                            out.push(Move::new(from, to));
                        }
                    },
                );
            }
        }
    }

    fn king_attacked(&self, board: &NaiveBoard<R>, color: Color) -> bool {
        board.king_attacked(color)
    }

    fn make(&self, board: &mut NaiveBoard<R>, mv: Move) -> Option<Piece> {
        let (from_file, from_rank) = (mv.from.file() as usize, mv.from.rank() as usize);
        let (to_file, to_rank) = (mv.to.file() as usize, mv.to.rank() as usize);
        let mover = board.grid[from_rank][from_file].take();
        let captured = std::mem::replace(&mut board.grid[to_rank][to_file], mover);
        if board.reads.passes_turn() {
            board.turn = board.turn.other();
        }
        captured
    }

    fn unmake(&self, board: &mut NaiveBoard<R>, mv: Move, captured: Option<Piece>) {
        let (from_file, from_rank) = (mv.from.file() as usize, mv.from.rank() as usize);
        let (to_file, to_rank) = (mv.to.file() as usize, mv.to.rank() as usize);
        let mover = std::mem::replace(&mut board.grid[to_rank][to_file], captured);
        board.grid[from_rank][from_file] = mover;
        if board.reads.passes_turn() {
            board.turn = board.turn.other();
        }
    }

    fn count_legal(&self, board: &mut NaiveBoard<R>) -> u64 {
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
