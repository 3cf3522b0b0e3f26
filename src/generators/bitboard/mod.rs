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
use attacks::{
    cannon_reach, cannon_targets, horse_reaches, lame_targets, line_hit, rook_targets, watch_ray,
};
use bits::Bitboard;
use tables::{
    ADVISOR, EAST, ELEPHANT, HORSE, HORSE_ATTACKERS, KING, LINES, NORTH, PAWN, PAWN_ATTACKERS,
    RAYS, SOUTH, WEST,
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
        let rookish = theirs & (self.roles[Role::Rook.index()] | self.roles[Role::King.index()]);
        let cannons = theirs & self.roles[Role::Cannon.index()];
        if (LINES[i] & (rookish | cannons)).is_empty() {
            return false;
        }
        line_hit::<NORTH>(i, occ, rookish, cannons)
            || line_hit::<EAST>(i, occ, rookish, cannons)
            || line_hit::<SOUTH>(i, occ, rookish, cannons)
            || line_hit::<WEST>(i, occ, rookish, cannons)
    }

    /// Whether moving a piece other than the king from `from` to `to` exposes the king
    /// on `ki`, which is not in check. Only the occupancy of `from` and `to` changes and
    /// no enemy piece arrives, so an attack can only come along a ray from the king
    /// through one of them, or from a horse whose leg was `from` (`legs`, from
    /// [`Board::watch`]); pawns attack regardless of occupancy, so not them.
    #[inline(always)]
    fn exposes(&self, ki: usize, from: Square, to: Square, legs: Bitboard) -> bool {
        let them = self.turn.other();
        let (from_b, to_b) = (Bitboard::from_square(from), Bitboard::from_square(to));
        let occ = (self.occupied() ^ from_b) | to_b;
        let theirs = self.colors[them.index()] & !to_b;
        let moved = from_b | to_b;
        if !(LINES[ki] & moved).is_empty() {
            let rookish =
                theirs & (self.roles[Role::Rook.index()] | self.roles[Role::King.index()]);
            let cannons = theirs & self.roles[Role::Cannon.index()];
            let on = |d: usize| !(RAYS[d][ki] & moved).is_empty();
            if (on(NORTH) && line_hit::<NORTH>(ki, occ, rookish, cannons))
                || (on(EAST) && line_hit::<EAST>(ki, occ, rookish, cannons))
                || (on(SOUTH) && line_hit::<SOUTH>(ki, occ, rookish, cannons))
                || (on(WEST) && line_hit::<WEST>(ki, occ, rookish, cannons))
            {
                return true;
            }
        }
        !(legs & from_b).is_empty()
            && horse_reaches(
                &HORSE_ATTACKERS[ki],
                occ,
                theirs & self.roles[Role::Horse.index()],
            )
    }

    /// Looks outward from the king on `ki` for check, and for the points whose emptying
    /// or filling could give check: a move cannot bring a new enemy piece anywhere, so
    /// only the lines to enemy rooks, cannons and the king, and the legs of enemy horses
    /// next to the king matter. `None` when the king is in check already.
    #[inline(always)]
    fn watch(&self, ki: usize, them: Color, occ: Bitboard) -> Option<Watch> {
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
        Some(Watch {
            from: lines | legs,
            to: lines,
            legs,
        })
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
        match self.watch(ki, them, occ) {
            Some(w) => {
                let safe = |from: Square, to: Square| !self.exposes(ki, from, to, w.legs);
                self.gen_pieces(sink, (w.from, w.to), &safe);
            }
            // In check every move is tried, against every attacker.
            None => {
                let safe = |from: Square, to: Square| {
                    let to_b = Bitboard::from_square(to);
                    let after = (occ ^ Bitboard::from_square(from)) | to_b;
                    !self.attacked(king, them, after, to_b)
                };
                self.gen_pieces(sink, (Bitboard::ALL, Bitboard::ALL), &safe);
            }
        }
        self.king_moves(sink);
    }

    /// The king's legal moves, each tested on the board without the king.
    #[inline(always)]
    fn king_moves<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let king = self.kings[us.index()];
        let without_king = self.occupied() ^ Bitboard::from_square(king);
        for to in KING[king.index()] & !self.colors[us.index()] {
            let to_b = Bitboard::from_square(to);
            if !self.attacked(to, us.other(), without_king | to_b, to_b) {
                sink.one(king, to);
            }
        }
    }

    /// Where `color`'s `role` on point `i` goes by the piece rules alone.
    #[inline(always)]
    fn targets_of(&self, color: Color, role: Role, i: usize) -> Bitboard {
        let occ = self.occupied();
        let not_own = !self.colors[color.index()];
        match role {
            Role::King => KING[i] & not_own,
            Role::Advisor => ADVISOR[i] & not_own,
            Role::Elephant => lame_targets(&ELEPHANT[i], occ) & not_own,
            Role::Horse => lame_targets(&HORSE[i], occ) & not_own,
            Role::Rook => rook_targets(i, occ) & not_own,
            Role::Cannon => cannon_targets(i, occ, self.colors[color.other().index()]),
            Role::Pawn => PAWN[color.index()][i] & not_own,
        }
    }

    /// The points whose emptying or filling can change where `color`'s `role` on
    /// point `i` goes, `color` not to move. A move empties one point it leaves and fills
    /// one it lands on, where it may take a piece of `color`: so a rook's line up to its
    /// first blocker and a cannon's up to its second, and a leaper's legs or eyes and the
    /// landing points where a piece of its own stands (taken, it opens the point).
    #[inline(always)]
    fn influence(&self, color: Color, role: Role, i: usize) -> Bitboard {
        let occ = self.occupied();
        let own = self.colors[color.index()];
        let lame = |table: &[tables::Lame; 4]| {
            table
                .iter()
                .fold(Bitboard::EMPTY, |acc, l| acc | l.block | (l.targets & own))
        };
        match role {
            Role::King => KING[i] & own,
            Role::Advisor => ADVISOR[i] & own,
            Role::Elephant => lame(&ELEPHANT[i]),
            Role::Horse => lame(&HORSE[i]),
            Role::Rook => rook_targets(i, occ),
            Role::Cannon => cannon_reach(i, occ),
            Role::Pawn => PAWN[color.index()][i] & own,
        }
    }

    /// perft(2). The side not to move has the same pieces after each of this side's
    /// moves, less one captured, and a move changes only the two points it leaves and
    /// lands on; so where each of those pieces goes is worked out once here, and after
    /// a move only for the pieces whose reach those two points could change. Legality
    /// is still decided on each board after a move, by the same watch as `gen_legal`.
    ///
    /// `PLANT` is [`plant::NONE`] but in the planted copy of this generator
    /// (`generators::planted_fast`), which proves the oracle finds a bug here; a constant,
    /// so the real generator's code has no test of it left once compiled.
    fn count_two<const PLANT: u8>(&mut self) -> u64 {
        let mut moves = MoveList::new();
        self.gen_legal(&mut moves);
        let them = self.turn.other();
        let mut reach = [Reach::NONE; 16];
        let mut len = 0;
        for sq in self.colors[them.index()] & !self.roles[Role::King.index()] {
            let (Some(piece), Some(slot)) = (self.squares[sq.index()], reach.get_mut(len)) else {
                // More pieces than a valid position has: count plainly.
                return self.count_two_plainly(&moves);
            };
            let targets = self.targets_of(them, piece.role, sq.index());
            *slot = Reach {
                at: Bitboard::from_square(sq),
                square: sq,
                role: piece.role,
                targets,
                count: targets.count(),
                influence: self.influence(them, piece.role, sq.index()),
            };
            len += 1;
        }
        let reach = &reach[..len];
        let mut nodes = 0;
        for &mv in moves.iter() {
            let undo = BitboardGen.make(self, mv);
            nodes += self.count_after::<PLANT>(reach, mv);
            BitboardGen.unmake(self, mv, undo);
        }
        nodes
    }

    /// perft(2) by a count after each move.
    fn count_two_plainly(&mut self, moves: &MoveList) -> u64 {
        let mut nodes = 0;
        for &mv in moves.iter() {
            let undo = BitboardGen.make(self, mv);
            self.gen_legal(&mut nodes);
            BitboardGen.unmake(self, mv, undo);
        }
        nodes
    }

    /// The legal moves of the side to move, just after `mv`, given where its pieces went
    /// before `mv` (`reach`).
    #[inline(always)]
    fn count_after<const PLANT: u8>(&self, reach: &[Reach], mv: Move) -> u64 {
        let us = self.turn;
        let ki = self.kings[us.index()].index();
        let Some(w) = self.watch(ki, us.other(), self.occupied()) else {
            let mut n = 0u64;
            self.gen_legal(&mut n);
            return n;
        };
        let touched = if PLANT == plant::REACH_IGNORES_VACATED {
            Bitboard::from_square(mv.to)
        } else {
            Bitboard::from_square(mv.from) | Bitboard::from_square(mv.to)
        };
        let safe = |from: Square, to: Square| !self.exposes(ki, from, to, w.legs);
        // The points that, filled, could expose the king.
        let filled = if PLANT == plant::COUNT_AFTER_MASK {
            w.from
        } else {
            w.to
        };
        let mut n = 0u64;
        for r in reach {
            if r.square == mv.to && PLANT != plant::TWO_PLY_COUNTS_TAKEN {
                continue;
            }
            let (targets, count) = if (r.influence & touched).is_empty() {
                (r.targets, r.count)
            } else {
                let t = self.targets_of(us, r.role, r.square.index());
                (t, t.count())
            };
            if !(w.from & r.at).is_empty() {
                for to in targets {
                    n += u64::from(safe(r.square, to));
                }
            } else if (targets & filled).is_empty() {
                n += u64::from(count);
            } else {
                n += u64::from((targets & !filled).count());
                for to in targets & w.to {
                    n += u64::from(safe(r.square, to));
                }
            }
        }
        self.king_moves(&mut n);
        n
    }

    /// The moves of every piece but the king, those touching `touchy` tried by `safe`.
    #[inline(always)]
    fn gen_pieces<S: Sink, F: Fn(Square, Square) -> bool>(
        &self,
        sink: &mut S,
        touchy: (Bitboard, Bitboard),
        safe: &F,
    ) {
        let us = self.turn;
        let own = self.colors[us.index()];
        let enemy = self.colors[us.other().index()];
        let occ = own | enemy;
        let not_own = !own;
        emit(
            self.of(us, Role::Rook),
            touchy,
            sink,
            &|i| rook_targets(i, occ) & not_own,
            safe,
        );
        emit(
            self.of(us, Role::Cannon),
            touchy,
            sink,
            &|i| cannon_targets(i, occ, enemy),
            safe,
        );
        emit(
            self.of(us, Role::Horse),
            touchy,
            sink,
            &|i| lame_targets(&HORSE[i], occ) & not_own,
            safe,
        );
        emit(
            self.of(us, Role::Pawn),
            touchy,
            sink,
            &|i| PAWN[us.index()][i] & not_own,
            safe,
        );
        emit(
            self.of(us, Role::Elephant),
            touchy,
            sink,
            &|i| lame_targets(&ELEPHANT[i], occ) & not_own,
            safe,
        );
        emit(
            self.of(us, Role::Advisor),
            touchy,
            sink,
            &|i| ADVISOR[i] & not_own,
            safe,
        );
    }
}

/// A piece of the side not to move, where it goes, and what would change that.
#[derive(Clone, Copy)]
struct Reach {
    at: Bitboard,
    square: Square,
    role: Role,
    targets: Bitboard,
    count: u32,
    influence: Bitboard,
}

impl Reach {
    const NONE: Reach = Reach {
        at: Bitboard::EMPTY,
        square: Square::A0,
        role: Role::Pawn,
        targets: Bitboard::EMPTY,
        count: 0,
        influence: Bitboard::EMPTY,
    };
}

/// What [`Board::watch`] found around a king not in check: the points whose emptying
/// (`from`) or filling (`to`) could expose it, and among the first the legs of enemy
/// horses next to it.
#[derive(Clone, Copy)]
struct Watch {
    from: Bitboard,
    to: Bitboard,
    legs: Bitboard,
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
        for from in board.colors[us.index()] {
            if let Some(piece) = board.squares[from.index()] {
                out.many(from, board.targets_of(us, piece.role, from.index()));
            }
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

    fn count_two_plies(&self, board: &mut Board) -> u64 {
        board.count_two::<{ plant::NONE }>()
    }

    fn two_ply_shortcut(&self) -> bool {
        true
    }
}

/// The bugs the planted copy of this generator can carry in its two-ply count, each a
/// one-spot slip of the kind a speed-up invites. Only [`NONE`](plant::NONE) is ever
/// compiled into the real generator.
pub(crate) mod plant {
    /// No bug.
    pub(crate) const NONE: u8 = 0;
    /// The piece a move takes still has its moves counted.
    pub(crate) const TWO_PLY_COUNTS_TAKEN: u8 = 1;
    /// A reach is worked out again only when a move lands in it, not when one leaves it.
    pub(crate) const REACH_IGNORES_VACATED: u8 = 2;
    /// The points whose filling could expose the king are taken to be those whose
    /// emptying could (the watch's `from`, not its `to`): a capture of the piece that
    /// blocks an enemy horse's leg next to the king is dropped.
    pub(crate) const COUNT_AFTER_MASK: u8 = 3;
}

/// perft(2) of `board` with the planted bug `PLANT` (one of [`plant`]).
#[cfg(feature = "planted")]
pub(crate) fn count_two_planted<const PLANT: u8>(board: &mut Board) -> u64 {
    board.count_two::<PLANT>()
}
