//! The mailbox generator, after ElephantEye: a 16x16 array with a border, pieces coded
//! as side tag + slot, delta tables for the leapers, and a check detector that looks
//! outward from the king.
//!
//! Each side has 16 slots grouped by kind (king, advisors, elephants, horses, rooks,
//! cannons, pawns) and a piece list giving each slot's point, so generation walks only
//! the pieces that exist and knows each one's kind from its slot.

mod tables;
#[cfg(test)]
mod tests;

use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::Square;
use tables::*;

/// The kind held in each slot of a side's 16.
const ROLE_OF_SLOT: [Role; 16] = [
    Role::King,
    Role::Advisor,
    Role::Advisor,
    Role::Elephant,
    Role::Elephant,
    Role::Horse,
    Role::Horse,
    Role::Rook,
    Role::Rook,
    Role::Cannon,
    Role::Cannon,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
    Role::Pawn,
];

/// ElephantEye's move generator on a 256-point mailbox.
pub struct MailboxGen;

/// The mailbox board: what stands on each of the 256 entries, where each piece stands.
#[derive(Clone)]
pub struct MailboxBoard {
    /// 0 for an empty point, [`BORDER`] off the board, else side tag + slot.
    squares: [u8; 256],
    /// The point of each code (side tag + slot), 0 when that piece is not on the board.
    places: [u8; 64],
    /// Side tag of the side to move.
    us: u8,
    halfmoves: u32,
    fullmoves: u32,
}

/// What [`MailboxGen::make`] took, so unmake can put it back (0 for nothing).
#[derive(Clone, Copy, Debug)]
pub struct MailboxUndo {
    captured: u8,
}

const fn tag_of(color: Color) -> u8 {
    match color {
        Color::Red => RED,
        Color::Black => BLACK,
    }
}

const fn color_of(tag: u8) -> Color {
    if tag == RED {
        Color::Red
    } else {
        Color::Black
    }
}

/// One step forward for a pawn of side `tag`: Red climbs the ranks, Black descends.
const fn forward(tag: u8) -> u8 {
    if tag == RED {
        16
    } else {
        16u8.wrapping_neg()
    }
}

#[inline(always)]
fn step(sq: u8, delta: i8) -> u8 {
    sq.wrapping_add(delta as u8)
}

#[inline(always)]
fn add(from: u8, to: u8, out: &mut MoveList) {
    out.push(Move::new(SQUARE_OF[from as usize], SQUARE_OF[to as usize]));
}

/// Whether `code` is one of side `tag`'s pieces in slots `lo..=hi`.
#[inline(always)]
fn is(code: u8, tag: u8, (lo, hi): (u8, u8)) -> bool {
    code.wrapping_sub(tag + lo) <= hi - lo
}

impl MailboxBoard {
    #[inline(always)]
    fn at(&self, sq: u8) -> u8 {
        self.squares[sq as usize]
    }

    #[inline(always)]
    fn place(&self, code: u8) -> u8 {
        self.places[(code & 63) as usize]
    }

    /// Appends every pseudo-legal move of side `us`, a kind at a time.
    fn generate(&self, out: &mut MoveList) {
        self.king_moves(out);
        self.advisor_moves(out);
        self.elephant_moves(out);
        self.horse_moves(out);
        self.rook_moves(out);
        self.cannon_moves(out);
        self.pawn_moves(out);
    }

    /// The points of the side to move's pieces in slots `lo..=hi` that are on the board.
    #[inline(always)]
    fn pieces(&self, (lo, hi): (u8, u8)) -> impl Iterator<Item = u8> + '_ {
        (lo..=hi)
            .map(|slot| self.place(self.us + slot))
            .filter(|&from| from != 0)
    }

    /// King: one step, landing in the own palace (which also keeps it on the board), not
    /// on an own piece.
    #[inline(always)]
    fn king_moves(&self, out: &mut MoveList) {
        let us = self.us;
        let king = self.place(us + KING_SLOT);
        for &d in &KING_DELTA {
            let to = step(king, d);
            if PALACE[to as usize] == us && self.at(to) & us == 0 {
                add(king, to, out);
            }
        }
    }

    /// Advisors: one diagonal step within the palace, as the king.
    #[inline(always)]
    fn advisor_moves(&self, out: &mut MoveList) {
        let us = self.us;
        for from in self.pieces(ADVISOR_SLOTS) {
            for &d in &ADVISOR_DELTA {
                let to = step(from, d);
                if PALACE[to as usize] == us && self.at(to) & us == 0 {
                    add(from, to, out);
                }
            }
        }
    }

    /// Elephants: the eye must be empty (the border is not), the landing point on the
    /// own side of the river.
    #[inline(always)]
    fn elephant_moves(&self, out: &mut MoveList) {
        let us = self.us;
        for from in self.pieces(ELEPHANT_SLOTS) {
            for &d in &ADVISOR_DELTA {
                let eye = step(from, d);
                if self.at(eye) != 0 {
                    continue;
                }
                let to = step(eye, d);
                if RIVER_SIDE[to as usize] == us && self.at(to) & us == 0 {
                    add(from, to, out);
                }
            }
        }
    }

    /// Horses: an empty leg opens the two targets beyond it; the border carries both
    /// tags, so a target off the board reads as an own piece.
    #[inline(always)]
    fn horse_moves(&self, out: &mut MoveList) {
        let us = self.us;
        for from in self.pieces(HORSE_SLOTS) {
            for (i, &leg) in KING_DELTA.iter().enumerate() {
                if self.at(step(from, leg)) != 0 {
                    continue;
                }
                for &d in &HORSE_DELTA[i] {
                    let to = step(from, d);
                    if self.at(to) & us == 0 {
                        add(from, to, out);
                    }
                }
            }
        }
    }

    /// Rooks: along each line over empty points, and onto the first piece if it is theirs.
    #[inline(always)]
    fn rook_moves(&self, out: &mut MoveList) {
        let them = self.us ^ SIDE_MASK;
        for from in self.pieces(ROOK_SLOTS) {
            for &d in &KING_DELTA {
                let mut to = step(from, d);
                loop {
                    let code = self.at(to);
                    if code == 0 {
                        add(from, to, out);
                        to = step(to, d);
                        continue;
                    }
                    if code & SIDE_MASK == them {
                        add(from, to, out);
                    }
                    break;
                }
            }
        }
    }

    /// Cannons: rook-like quiet moves up to the screen, then the first piece beyond the
    /// screen if it is theirs.
    #[inline(always)]
    fn cannon_moves(&self, out: &mut MoveList) {
        let them = self.us ^ SIDE_MASK;
        for from in self.pieces(CANNON_SLOTS) {
            for &d in &KING_DELTA {
                let mut to = step(from, d);
                while self.at(to) == 0 {
                    add(from, to, out);
                    to = step(to, d);
                }
                if self.at(to) == BORDER {
                    continue;
                }
                to = step(to, d);
                while self.at(to) == 0 {
                    to = step(to, d);
                }
                if self.at(to) & SIDE_MASK == them {
                    add(from, to, out);
                }
            }
        }
    }

    /// Pawns: forward always (the border stops one on the last rank), sideways once
    /// across the river.
    #[inline(always)]
    fn pawn_moves(&self, out: &mut MoveList) {
        let us = self.us;
        let fwd = forward(us);
        for from in self.pieces(PAWN_SLOTS) {
            let to = from.wrapping_add(fwd);
            if self.at(to) & us == 0 {
                add(from, to, out);
            }
            if RIVER_SIDE[from as usize] != us {
                for to in [from.wrapping_sub(1), from.wrapping_add(1)] {
                    if self.at(to) & us == 0 {
                        add(from, to, out);
                    }
                }
            }
        }
    }

    /// Whether side `us`'s king is attacked, looked for from the king outward: horses
    /// through their legs, pawns beside and in front, then the four lines for a rook,
    /// the other king, or a cannon behind exactly one screen.
    fn attacked(&self, us: u8) -> bool {
        let them = us ^ SIDE_MASK;
        let king = self.place(us + KING_SLOT);
        for (i, &diag) in ADVISOR_DELTA.iter().enumerate() {
            // Both horses that could reach the king through this point share it as leg.
            if self.at(step(king, diag)) != 0 {
                continue;
            }
            for &d in &HORSE_CHECK_DELTA[i] {
                if is(self.at(step(king, d)), them, HORSE_SLOTS) {
                    return true;
                }
            }
        }
        // Their pawns only ever come toward us, and any pawn level with our king stands
        // in our half, so across the river and free to step sideways.
        for to in [
            king.wrapping_add(forward(us)),
            king.wrapping_sub(1),
            king.wrapping_add(1),
        ] {
            if is(self.at(to), them, PAWN_SLOTS) {
                return true;
            }
        }
        for &d in &KING_DELTA {
            let mut sq = step(king, d);
            while self.at(sq) == 0 {
                sq = step(sq, d);
            }
            let first = self.at(sq);
            if first == BORDER {
                continue;
            }
            // The other king can only be met along the file: the palaces share no rank.
            if is(first, them, ROOK_SLOTS) || first == them + KING_SLOT {
                return true;
            }
            sq = step(sq, d);
            while self.at(sq) == 0 {
                sq = step(sq, d);
            }
            if is(self.at(sq), them, CANNON_SLOTS) {
                return true;
            }
        }
        false
    }

    #[inline(always)]
    fn make(&mut self, from: u8, to: u8) -> u8 {
        let moving = self.at(from);
        let captured = self.at(to);
        self.squares[to as usize] = moving;
        self.squares[from as usize] = 0;
        self.places[(moving & 63) as usize] = to;
        self.places[(captured & 63) as usize] = 0;
        self.us ^= SIDE_MASK;
        captured
    }

    #[inline(always)]
    fn unmake(&mut self, from: u8, to: u8, captured: u8) {
        let moving = self.at(to);
        self.squares[from as usize] = moving;
        self.squares[to as usize] = captured;
        self.places[(moving & 63) as usize] = from;
        // An empty capture writes code 0, which no piece uses.
        self.places[(captured & 63) as usize] = to;
        self.us ^= SIDE_MASK;
    }

    /// Calls `keep` with each legal move. A move needs the full check test only when it
    /// could change what reaches the king: when already in check, when the king moves,
    /// when it leaves a point on the king's rank or file (a line opens) or next to it
    /// diagonally (a horse leg frees), or lands on the king's rank or file (a cannon
    /// gains a screen). Any other move leaves every line to the king as it was.
    #[inline(always)]
    fn filter_legal(&mut self, pseudo: &MoveList, mut keep: impl FnMut(Move)) {
        let us = self.us;
        let king = self.place(us + KING_SLOT);
        let in_check = self.attacked(us);
        let (krow, kcol) = (king >> 4, king & 15);
        for &mv in pseudo.iter() {
            let from = INDEX_OF[mv.from.index() & 255];
            let to = INDEX_OF[mv.to.index() & 255];
            let diag = from.wrapping_sub(king).wrapping_add(17);
            let risky = in_check
                || from >> 4 == krow
                || from & 15 == kcol
                || to >> 4 == krow
                || to & 15 == kcol
                || matches!(diag, 0 | 2 | 32 | 34);
            if !risky {
                keep(mv);
                continue;
            }
            let captured = self.make(from, to);
            let ok = !self.attacked(us);
            self.unmake(from, to, captured);
            if ok {
                keep(mv);
            }
        }
    }
}

impl MoveGen for MailboxGen {
    type Board = MailboxBoard;
    type Undo = MailboxUndo;

    fn name(&self) -> &'static str {
        "mailbox"
    }

    fn load(&self, pos: &Position) -> MailboxBoard {
        let mut squares = [0u8; 256];
        for (i, s) in squares.iter_mut().enumerate() {
            if !IN_BOARD[i] {
                *s = BORDER;
            }
        }
        let mut places = [0u8; 64];
        for (sq, piece) in pos.pieces() {
            let tag = tag_of(piece.color);
            // The lowest free slot of this kind; a valid position never runs out.
            let free = (0..16u8).find(|&slot| {
                ROLE_OF_SLOT[slot as usize] == piece.role && places[(tag + slot) as usize] == 0
            });
            if let Some(slot) = free {
                let at = INDEX_OF[sq.index()];
                squares[at as usize] = tag + slot;
                places[(tag + slot) as usize] = at;
            }
        }
        let setup = pos.setup();
        MailboxBoard {
            squares,
            places,
            us: tag_of(setup.turn),
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        }
    }

    fn to_setup(&self, board: &MailboxBoard) -> Setup {
        let mut setup = Setup::empty(color_of(board.us));
        setup.halfmoves = board.halfmoves;
        setup.fullmoves = board.fullmoves;
        for sq in Square::all() {
            setup.board[sq.index()] = self.piece_at(board, sq);
        }
        setup
    }

    fn turn(&self, board: &MailboxBoard) -> Color {
        color_of(board.us)
    }

    fn piece_at(&self, board: &MailboxBoard, sq: Square) -> Option<Piece> {
        let code = board.at(INDEX_OF[sq.index() & 255]);
        match code & SIDE_MASK {
            RED | BLACK => Some(Piece::new(
                color_of(code & SIDE_MASK),
                ROLE_OF_SLOT[(code & 15) as usize],
            )),
            _ => None,
        }
    }

    fn pseudo_legal(&self, board: &MailboxBoard, out: &mut MoveList) {
        board.generate(out);
    }

    fn king_attacked(&self, board: &MailboxBoard, color: Color) -> bool {
        board.attacked(tag_of(color))
    }

    fn make(&self, board: &mut MailboxBoard, mv: Move) -> MailboxUndo {
        let from = INDEX_OF[mv.from.index() & 255];
        let to = INDEX_OF[mv.to.index() & 255];
        MailboxUndo {
            captured: board.make(from, to),
        }
    }

    fn unmake(&self, board: &mut MailboxBoard, mv: Move, undo: MailboxUndo) {
        let from = INDEX_OF[mv.from.index() & 255];
        let to = INDEX_OF[mv.to.index() & 255];
        board.unmake(from, to, undo.captured);
    }

    fn legal(&self, board: &mut MailboxBoard, out: &mut MoveList) {
        let mut pseudo = MoveList::new();
        board.generate(&mut pseudo);
        board.filter_legal(&pseudo, |mv| out.push(mv));
    }

    fn count_legal(&self, board: &mut MailboxBoard) -> u64 {
        let mut pseudo = MoveList::new();
        board.generate(&mut pseudo);
        let mut n = 0;
        board.filter_legal(&pseudo, |_| n += 1);
        n
    }
}
