//! The bitboard generator: 90-bit occupancy sets, rook and cannon lines found by
//! scanning for the nearest blocker on each ray (seed 003), lame leapers and steppers
//! from per-point tables, and a check detector that looks outward from the king.
//!
//! Legality is decided without making the move. A move cannot bring an enemy piece
//! anywhere, so when the king is not in check it can only be exposed by emptying or
//! filling a point on a line between the king and an enemy rook, cannon or king that
//! is one piece away from giving check, or by emptying the leg of an enemy horse next
//! to the king. Moves touching none of those points are legal without a test, so the
//! last ply of perft counts them with a popcount.

mod attacks;
mod bits;
mod tables;
#[cfg(test)]
mod tests;

use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::{Square, SQUARE_COUNT};
use attacks::{cannon_hits, cannon_targets, horse_reaches, lame_targets, rook_targets, watch_ray};
use bits::Bitboard;
use tables::{
    ADVISOR, EAST, ELEPHANT, HORSE, HORSE_ATTACKERS, KING, LINES, NORTH, PAWN, PAWN_ATTACKERS,
    SOUTH, WEST,
};

/// The bitboard generator.
pub struct BitboardGen;

/// The bitboard generator's board: occupancy per side and per kind, plus a point-indexed
/// array so that "what stands here" is one load.
#[derive(Clone, Debug)]
pub struct Board {
    colors: [Bitboard; 2],
    roles: [Bitboard; 7],
    squares: [Option<Piece>; SQUARE_COUNT],
    kings: [Square; 2],
    turn: Color,
    halfmoves: u32,
    fullmoves: u32,
}

impl Board {
    #[inline(always)]
    fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline(always)]
    fn of(&self, color: Color, role: Role) -> Bitboard {
        self.colors[color.index()] & self.roles[role.index()]
    }

    #[inline(always)]
    fn toggle(&mut self, sq: Square, piece: Piece) {
        let b = Bitboard::from_square(sq);
        self.colors[piece.color.index()] ^= b;
        self.roles[piece.role.index()] ^= b;
    }

    /// Whether `sq` is attacked by `attacker` with `occ` as the occupancy, ignoring any
    /// attacker standing on `gone` (a piece just captured there). The attacker's king
    /// counts as a rook: kings never share a rank, so that is exactly kings facing.
    #[inline(always)]
    fn attacked(&self, sq: Square, attacker: Color, occ: Bitboard, gone: Bitboard) -> bool {
        let theirs = self.colors[attacker.index()] & !gone;
        let i = sq.index();
        if !(PAWN_ATTACKERS[attacker.index()][i] & theirs & self.roles[Role::Pawn.index()])
            .is_empty()
        {
            return true;
        }
        let horses = theirs & self.roles[Role::Horse.index()];
        if !horses.is_empty() && horse_reaches(&HORSE_ATTACKERS[i], occ, horses) {
            return true;
        }
        let rooks = theirs & (self.roles[Role::Rook.index()] | self.roles[Role::King.index()]);
        let cannons = theirs & self.roles[Role::Cannon.index()];
        let line = LINES[i];
        if !(line & rooks).is_empty() && !(rook_targets(i, occ) & rooks).is_empty() {
            return true;
        }
        !(line & cannons).is_empty() && !(cannon_hits(i, occ) & cannons).is_empty()
    }

    /// Looks outward from the king on `ki` for check, and for the points whose emptying (first set) or filling (second) could
    /// give check: a move cannot bring a new enemy piece anywhere, so only the lines to
    /// enemy rooks, cannons and the king, and the legs of enemy horses next to the king
    /// matter. `None` when the king is in check already.
    #[inline(always)]
    fn watch(&self, ki: usize, them: Color, occ: Bitboard) -> Option<(Bitboard, Bitboard)> {
        let theirs = self.colors[them.index()];
        if !(PAWN_ATTACKERS[them.index()][ki] & theirs & self.roles[Role::Pawn.index()]).is_empty()
        {
            return None;
        }
        let rookish = theirs & (self.roles[Role::Rook.index()] | self.roles[Role::King.index()]);
        let cannons = theirs & self.roles[Role::Cannon.index()];
        let mut lines = Bitboard::EMPTY;
        if !(LINES[ki] & (rookish | cannons)).is_empty() {
            lines = watch_ray::<NORTH>(ki, occ, rookish, cannons)?
                | watch_ray::<EAST>(ki, occ, rookish, cannons)?
                | watch_ray::<SOUTH>(ki, occ, rookish, cannons)?
                | watch_ray::<WEST>(ki, occ, rookish, cannons)?;
        }
        let mut legs = Bitboard::EMPTY;
        let horses = theirs & self.roles[Role::Horse.index()];
        if !horses.is_empty() {
            for lame in &HORSE_ATTACKERS[ki] {
                if !(lame.targets & horses).is_empty() {
                    if (lame.block & occ).is_empty() {
                        return None;
                    }
                    legs |= lame.block;
                }
            }
        }
        Some((lines | legs, lines))
    }

    /// Legal moves, fed to `sink` one by one or as a target set from one point.
    #[inline(always)]
    fn gen_legal<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let own = self.colors[us.index()];
        let enemy = self.colors[them.index()];
        let occ = own | enemy;
        let king = self.kings[us.index()];
        let ki = king.index();
        // In check every move is tried; otherwise only those touching the watched points.
        let touchy = self
            .watch(ki, them, occ)
            .unwrap_or((Bitboard::ALL, Bitboard::ALL));
        let safe = |from: Square, to: Square| {
            let to_b = Bitboard::from_square(to);
            let after = (occ ^ Bitboard::from_square(from)) | to_b;
            !self.attacked(king, them, after, to_b)
        };
        let not_own = !own;
        emit(
            self.of(us, Role::Rook),
            touchy,
            sink,
            &|i| rook_targets(i, occ) & not_own,
            &safe,
        );
        emit(
            self.of(us, Role::Cannon),
            touchy,
            sink,
            &|i| cannon_targets(i, occ, enemy),
            &safe,
        );
        emit(
            self.of(us, Role::Horse),
            touchy,
            sink,
            &|i| lame_targets(&HORSE[i], occ) & not_own,
            &safe,
        );
        emit(
            self.of(us, Role::Pawn),
            touchy,
            sink,
            &|i| PAWN[us.index()][i] & not_own,
            &safe,
        );
        emit(
            self.of(us, Role::Elephant),
            touchy,
            sink,
            &|i| lame_targets(&ELEPHANT[i], occ) & not_own,
            &safe,
        );
        emit(
            self.of(us, Role::Advisor),
            touchy,
            sink,
            &|i| ADVISOR[i] & not_own,
            &safe,
        );
        let without_king = occ ^ Bitboard::from_square(king);
        for to in KING[ki] & not_own {
            let to_b = Bitboard::from_square(to);
            if !self.attacked(to, them, without_king | to_b, to_b) {
                sink.one(king, to);
            }
        }
    }
}

/// Feeds the legal moves of `pieces` to `sink`. Pieces off the watched points (the
/// first of `touchy`) move freely except onto the second set; pieces on them have every
/// move tried.
#[inline(always)]
fn emit<S: Sink, T: Fn(usize) -> Bitboard, F: Fn(Square, Square) -> bool>(
    pieces: Bitboard,
    (touchy_from, touchy_to): (Bitboard, Bitboard),
    sink: &mut S,
    targets: &T,
    safe: &F,
) {
    for from in pieces & !touchy_from {
        let t = targets(from.index());
        sink.many(from, t & !touchy_to);
        for to in t & touchy_to {
            if safe(from, to) {
                sink.one(from, to);
            }
        }
    }
    for from in pieces & touchy_from {
        for to in targets(from.index()) {
            if safe(from, to) {
                sink.one(from, to);
            }
        }
    }
}

/// Where legal moves go: a list, or just a count.
trait Sink {
    fn one(&mut self, from: Square, to: Square);
    fn many(&mut self, from: Square, targets: Bitboard);
}

impl Sink for MoveList {
    #[inline(always)]
    fn one(&mut self, from: Square, to: Square) {
        self.push(Move::new(from, to));
    }

    #[inline(always)]
    fn many(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

impl Sink for u64 {
    #[inline(always)]
    fn one(&mut self, _: Square, _: Square) {
        *self += 1;
    }

    #[inline(always)]
    fn many(&mut self, _: Square, targets: Bitboard) {
        *self += u64::from(targets.count());
    }
}

impl MoveGen for BitboardGen {
    type Board = Board;
    /// The captured piece, if any.
    type Undo = Option<Piece>;

    fn name(&self) -> &'static str {
        "bitboard"
    }

    fn load(&self, pos: &Position) -> Board {
        let setup = pos.setup();
        let mut board = Board {
            colors: [Bitboard::EMPTY; 2],
            roles: [Bitboard::EMPTY; 7],
            squares: [None; SQUARE_COUNT],
            kings: [Square::A0; 2],
            turn: setup.turn,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves,
        };
        for (sq, piece) in pos.pieces() {
            board.toggle(sq, piece);
            board.squares[sq.index()] = Some(piece);
            if piece.role == Role::King {
                board.kings[piece.color.index()] = sq;
            }
        }
        board
    }

    fn to_setup(&self, board: &Board) -> Setup {
        Setup {
            board: board.squares,
            turn: board.turn,
            halfmoves: board.halfmoves,
            fullmoves: board.fullmoves,
        }
    }

    fn turn(&self, board: &Board) -> Color {
        board.turn
    }

    fn piece_at(&self, board: &Board, sq: Square) -> Option<Piece> {
        board.squares[sq.index()]
    }

    fn pseudo_legal(&self, board: &Board, out: &mut MoveList) {
        let us = board.turn;
        let own = board.colors[us.index()];
        let enemy = board.colors[us.other().index()];
        let occ = board.occupied();
        let not_own = !own;
        for from in own {
            let i = from.index();
            let targets = match board.squares[i].map(|p| p.role) {
                Some(Role::King) => KING[i] & not_own,
                Some(Role::Advisor) => ADVISOR[i] & not_own,
                Some(Role::Elephant) => lame_targets(&ELEPHANT[i], occ) & not_own,
                Some(Role::Horse) => lame_targets(&HORSE[i], occ) & not_own,
                Some(Role::Rook) => rook_targets(i, occ) & not_own,
                Some(Role::Cannon) => cannon_targets(i, occ, enemy),
                Some(Role::Pawn) => PAWN[us.index()][i] & not_own,
                None => Bitboard::EMPTY,
            };
            out.many(from, targets);
        }
    }

    fn king_attacked(&self, board: &Board, color: Color) -> bool {
        board.attacked(
            board.kings[color.index()],
            color.other(),
            board.occupied(),
            Bitboard::EMPTY,
        )
    }

    #[inline]
    fn make(&self, board: &mut Board, mv: Move) -> Option<Piece> {
        let (from, to) = (mv.from.index(), mv.to.index());
        let captured = board.squares[to];
        if let Some(piece) = board.squares[from] {
            if let Some(victim) = captured {
                board.toggle(mv.to, victim);
            }
            let both = Bitboard::from_square(mv.from) | Bitboard::from_square(mv.to);
            board.colors[piece.color.index()] ^= both;
            board.roles[piece.role.index()] ^= both;
            board.squares[to] = Some(piece);
            board.squares[from] = None;
            if piece.role == Role::King {
                board.kings[piece.color.index()] = mv.to;
            }
        }
        board.turn = board.turn.other();
        captured
    }

    #[inline]
    fn unmake(&self, board: &mut Board, mv: Move, captured: Option<Piece>) {
        let (from, to) = (mv.from.index(), mv.to.index());
        if let Some(piece) = board.squares[to] {
            let both = Bitboard::from_square(mv.from) | Bitboard::from_square(mv.to);
            board.colors[piece.color.index()] ^= both;
            board.roles[piece.role.index()] ^= both;
            board.squares[from] = Some(piece);
            if piece.role == Role::King {
                board.kings[piece.color.index()] = mv.from;
            }
            if let Some(victim) = captured {
                board.toggle(mv.to, victim);
            }
            board.squares[to] = captured;
        }
        board.turn = board.turn.other();
    }

    fn legal(&self, board: &mut Board, out: &mut MoveList) {
        board.gen_legal(out);
    }

    fn count_legal(&self, board: &mut Board) -> u64 {
        let mut n = 0u64;
        board.gen_legal(&mut n);
        n
    }
}
