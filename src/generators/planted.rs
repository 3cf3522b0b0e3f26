//! Generators with one planted bug each: the naive generator wrapped so that it
//! adds or drops moves the way a typical rule bug would, or answers wrongly the way a
//! typical engine bug does (a move listed twice, a bulk count or a check test wrong in
//! double check, a piece list that unmake leaves stale). They exist to prove that the
//! harness catches bugs (the planted tests, and the test engine's `--bug` switch);
//! nothing else should use them.
//!
//! The wrapper's board keeps a piece list beside the naive board, as gens do, and
//! generates only from the pieces on the list, so a list that goes stale changes the
//! moves without changing what the squares read back.

use crate::generators::naive::{NaiveGen, HORSE_LEAPS};
use crate::{Color, Move, MoveGen, MoveList, Piece, Role, Setup, Square};
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// One rule bug, or none.
pub enum Bug {
    /// No bug: the wrapper then only exercises the trait's default methods.
    None,
    /// A cannon never captures, screen or not.
    CannonCannotCapture,
    /// A horse jumps even when its leg is blocked.
    HorseLegIgnored,
    /// An elephant may cross the river.
    ElephantCrossesRiver,
    /// An elephant moves even when its eye is blocked.
    ElephantEyeIgnored,
    /// A pawn steps sideways before it has crossed the river.
    PawnSidewaysBeforeRiver,
    /// A king may step out of its palace.
    KingLeavesPalace,
    /// A rook may hop over the first piece in its way onto the point just beyond it.
    RookJumpsOne,
    /// A horse taking a horse is listed twice (about 1% of positions have one).
    HorseTakesHorseTwice,
    /// The bulk count is one short when the side to move is in double check.
    CountShortInDoubleCheck,
    /// `in_check` says no when the side to move is in double check (the legality test
    /// itself is right: only what an engine would use for check extensions is wrong).
    InCheckMissesDoubleCheck,
    /// Unmaking a pawn capture forgets to put the pawn back on the piece list, so the
    /// pawn stays on its square but generates no moves until the board is reloaded.
    UnmakeForgetsPawnSlot,
    /// Reading the board back always says Red is to move.
    ReadBackSaysRedToMove,
    /// `captured` says a move that takes a pawn takes nothing.
    CapturedMissesPawn,
    /// Make advances the half-move clock, which the other generators leave alone.
    MakeTicksClock,
    /// Unmaking the capture of a horse brings back a pawn.
    UnmakeBringsBackHorseAsPawn,
    /// Making a king move forgets to move the king on the piece list; the unmake puts
    /// everything right, so only a board that goes on from there (a search) goes wrong.
    MakeForgetsKingSlot,
    /// A horse on files a-d jumps even when its leg is blocked: right on one wing, wrong
    /// on the other, which only the mirror shows when the horse stands on the right.
    LeftHorseLegIgnored,
    /// A black pawn steps sideways before the river: right for one side, wrong for the
    /// other, which only the colour swap shows when Red has the pawn.
    BlackPawnSidewaysBeforeRiver,
    /// Unmake puts back what the board's own history of captures says, a ring of two
    /// entries (an engine's history array too short for its search), not what the undo
    /// record says. A move made and unmade at once is restored right, and so is a reply
    /// made and unmade under it; only a line of moves taken back one after another
    /// (three plies deep, as a search goes) restores a wrong piece.
    HistoryTooShort,
    /// The board keeps the half-move clock in a byte: a clock of 256 or more, which a
    /// FEN may carry and an engine may be handed, reads back modulo 256.
    ClockInAByte,
    /// A horse's leg is looked for on the short axis of its jump (b0c2 blocked by c0,
    /// b0d1 by b1): the start position itself is wrong, b0a2 and b0c2 replaced by b0d1.
    HorseLegOnShortAxis,
    /// The check detector takes a pawn's forward from the king it looks at instead of
    /// from the pawn (one wrong colour in one line), so an enemy pawn attacks backward,
    /// and sideways only once it is back on its own side of the river. The move list
    /// is right; which moves leave the king in check is not.
    CheckPawnWrongWay,
}

/// How many bugs one planted generator can carry at once.
pub(crate) const MAX_BUGS: usize = 4;

/// The naive generator with one or more bugs planted in it.
pub struct Planted {
    bugs: [Option<Bug>; MAX_BUGS],
}

impl Planted {
    /// The naive generator with `bug` planted in it.
    pub const fn new(bug: Bug) -> Planted {
        Planted {
            bugs: [Some(bug), None, None, None],
        }
    }

    /// The naive generator with `bugs` planted in it (the first [`MAX_BUGS`]): a subject
    /// with several unrelated bugs, each of which must be found on its own.
    pub fn with(bugs: &[Bug]) -> Planted {
        let mut slots = [None; MAX_BUGS];
        for (slot, &bug) in slots.iter_mut().zip(bugs) {
            *slot = Some(bug);
        }
        Planted { bugs: slots }
    }

    fn has(&self, bug: Bug) -> bool {
        self.bugs.contains(&Some(bug))
    }
}

fn at(f: i32, r: i32) -> Option<Square> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Square::new(f as u8, r as u8)
    } else {
        None
    }
}

fn in_palace(c: Color, sq: Square) -> bool {
    (3..=5).contains(&sq.file())
        && if c == Color::Red {
            sq.rank() <= 2
        } else {
            sq.rank() >= 7
        }
}

/// The extra moves the bug adds for the piece on `from`.
fn extra(bug: Bug, s: &Setup, from: Square, p: Piece) -> Vec<Square> {
    let (f, r) = (from.file() as i32, from.rank() as i32);
    let free_or_enemy = |sq: &Square| s.piece_at(*sq).is_none_or(|q| q.color != p.color);
    let mut out = Vec::new();
    match (bug, p.role) {
        (Bug::HorseLegIgnored, Role::Horse) | (Bug::LeftHorseLegIgnored, Role::Horse)
            if bug == Bug::HorseLegIgnored || f <= 3 =>
        {
            for (df, dr) in HORSE_LEAPS.map(|(df, dr)| (i32::from(df), i32::from(dr))) {
                let leg = at(f + df / 2, r + dr / 2);
                if leg.is_some_and(|l| s.piece_at(l).is_some()) {
                    out.extend(at(f + df, r + dr));
                }
            }
        }
        (Bug::HorseLegOnShortAxis, Role::Horse) => {
            for (df, dr) in HORSE_LEAPS.map(|(df, dr)| (i32::from(df), i32::from(dr))) {
                let occupied = |sq: Option<Square>| sq.is_some_and(|l| s.piece_at(l).is_some());
                if occupied(at(f + df / 2, r + dr / 2)) && !occupied(short_leg(f, r, df, dr)) {
                    out.extend(at(f + df, r + dr));
                }
            }
        }
        (Bug::ElephantCrossesRiver, Role::Elephant) | (Bug::ElephantEyeIgnored, Role::Elephant) => {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let (Some(eye), Some(to)) = (at(f + df / 2, r + dr / 2), at(f + df, r + dr)) else {
                    continue;
                };
                let crosses = (to.rank() >= 5) != (from.rank() >= 5);
                let eye_blocked = s.piece_at(eye).is_some();
                let wanted = match bug {
                    Bug::ElephantCrossesRiver => crosses && !eye_blocked,
                    _ => eye_blocked && !crosses,
                };
                if wanted {
                    out.push(to);
                }
            }
        }
        (Bug::PawnSidewaysBeforeRiver, Role::Pawn)
        | (Bug::BlackPawnSidewaysBeforeRiver, Role::Pawn)
            if bug == Bug::PawnSidewaysBeforeRiver || p.color == Color::Black =>
        {
            let crossed = if p.color == Color::Red {
                r >= 5
            } else {
                r <= 4
            };
            if !crossed {
                out.extend(at(f - 1, r));
                out.extend(at(f + 1, r));
            }
        }
        (Bug::KingLeavesPalace, Role::King) => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                out.extend(at(f + df, r + dr).filter(|sq| !in_palace(p.color, *sq)));
            }
        }
        (Bug::RookJumpsOne, Role::Rook) => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let mut k = 1;
                while let Some(sq) = at(f + df * k, r + dr * k) {
                    if s.piece_at(sq).is_some() {
                        out.extend(at(f + df * (k + 1), r + dr * (k + 1)));
                        break;
                    }
                    k += 1;
                }
            }
        }
        _ => {}
    }
    out.retain(free_or_enemy);
    out
}

/// The point next to a horse on `(f, r)` along the short axis of its leap `(df, dr)`,
/// where [`Bug::HorseLegOnShortAxis`] looks for the leg.
fn short_leg(f: i32, r: i32, df: i32, dr: i32) -> Option<Square> {
    if dr.abs() == 2 {
        at(f + df, r)
    } else {
        at(f, r + dr)
    }
}

/// The planted generator's board: the naive board, and a list of where each piece
/// stands (`None` for a slot whose piece was taken).
#[derive(Clone, Debug)]
pub struct PlantedBoard {
    naive: <NaiveGen as MoveGen>::Board,
    slots: Vec<Option<Square>>,
    /// Half-moves the clock has been advanced by make (only with `MakeTicksClock`).
    clock: u32,
    /// What the last two moves took, at `ply % 2` (read back only with `HistoryTooShort`).
    history: [Option<Piece>; 2],
    /// How many moves are made on the board and not yet unmade.
    ply: usize,
}

/// What make took, and from which slot of the list.
#[derive(Clone, Copy, Debug)]
pub struct PlantedUndo {
    naive: <NaiveGen as MoveGen>::Undo,
    slot: Option<usize>,
}

/// Whether `c`'s king is attacked when the enemy's pawns move the way `c`'s own do: the
/// other pieces and the facing kings as the rules say, the pawns by `c`'s forward and
/// `c`'s river.
fn attacked_pawns_wrong_way(s: &Setup, c: Color) -> bool {
    let Some(king) = s.king(c) else {
        return false;
    };
    let by_others = s
        .checkers(c)
        .into_iter()
        .any(|sq| s.piece_at(sq).is_some_and(|p| p.role != Role::Pawn));
    if by_others || s.kings_facing() {
        return true;
    }
    let forward = if c == Color::Red { 1 } else { -1 };
    s.pieces()
        .filter(|(_, p)| p.color != c && p.role == Role::Pawn)
        .any(|(sq, _)| {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            // Across the river as `c`'s pawns cross it: onto the far half from `c`.
            let crossed = if c == Color::Red { r >= 5 } else { r <= 4 };
            let mut reach = vec![at(f, r + forward)];
            if crossed {
                reach.extend([at(f - 1, r), at(f + 1, r)]);
            }
            reach.contains(&Some(king))
        })
}

/// How many pieces give check to the side to move: two or more is a double check.
fn checkers(s: &Setup) -> usize {
    let facing = usize::from(s.kings_facing());
    s.checkers(s.turn).len() + facing
}

impl MoveGen for Planted {
    type Board = PlantedBoard;
    type Undo = PlantedUndo;
    fn name(&self) -> &'static str {
        "planted"
    }
    fn load(&self, pos: &crate::Position) -> Self::Board {
        PlantedBoard {
            naive: NaiveGen.load(pos),
            slots: pos.pieces().map(|(sq, _)| Some(sq)).collect(),
            clock: 0,
            history: [None; 2],
            ply: 0,
        }
    }
    fn to_setup(&self, b: &Self::Board) -> Setup {
        let mut s = NaiveGen.to_setup(&b.naive);
        // Wrapping, as a clock kept in a u32 does: a FEN may start it at u32::MAX.
        s.halfmoves = s.halfmoves.wrapping_add(b.clock);
        if self.has(Bug::ClockInAByte) {
            s.halfmoves = u32::from(s.halfmoves as u8);
        }
        if self.has(Bug::ReadBackSaysRedToMove) {
            s.turn = Color::Red;
        }
        s
    }
    fn captured(&self, b: &Self::Board, mv: Move) -> Option<Piece> {
        let taken = self.piece_at(b, mv.to);
        if self.has(Bug::CapturedMissesPawn) && taken.is_some_and(|p| p.role == Role::Pawn) {
            return None;
        }
        taken
    }
    fn turn(&self, b: &Self::Board) -> Color {
        NaiveGen.turn(&b.naive)
    }
    fn piece_at(&self, b: &Self::Board, sq: Square) -> Option<Piece> {
        NaiveGen.piece_at(&b.naive, sq)
    }
    fn pseudo_legal(&self, b: &Self::Board, out: &mut MoveList) {
        let mut inner = MoveList::new();
        NaiveGen.pseudo_legal(&b.naive, &mut inner);
        let s = NaiveGen.to_setup(&b.naive);
        let listed = |sq: Square| b.slots.contains(&Some(sq));
        for &mv in inner.iter() {
            if !listed(mv.from) {
                continue;
            }
            let mover = s.piece_at(mv.from).map(|p| p.role);
            let taken = s.piece_at(mv.to).map(|p| p.role);
            let cannon_capture = mover == Some(Role::Cannon) && taken.is_some();
            let (f, r) = (i32::from(mv.from.file()), i32::from(mv.from.rank()));
            let (df, dr) = (i32::from(mv.to.file()) - f, i32::from(mv.to.rank()) - r);
            let short_leg_blocked = mover == Some(Role::Horse)
                && short_leg(f, r, df, dr).is_some_and(|l| s.piece_at(l).is_some());
            let dropped = (self.has(Bug::CannonCannotCapture) && cannon_capture)
                || (self.has(Bug::HorseLegOnShortAxis) && short_leg_blocked);
            if !dropped {
                out.push(mv);
            }
            if self.has(Bug::HorseTakesHorseTwice)
                && mover == Some(Role::Horse)
                && taken == Some(Role::Horse)
            {
                out.push(mv);
            }
        }
        for (from, p) in s.pieces().filter(|(_, p)| p.color == s.turn) {
            if listed(from) {
                for to in self
                    .bugs
                    .iter()
                    .flatten()
                    .flat_map(|&bug| extra(bug, &s, from, p))
                {
                    out.push(Move::new(from, to));
                }
            }
        }
    }
    fn king_attacked(&self, b: &Self::Board, c: Color) -> bool {
        if self.has(Bug::CheckPawnWrongWay) {
            return attacked_pawns_wrong_way(&NaiveGen.to_setup(&b.naive), c);
        }
        if self.has(Bug::KingLeavesPalace) {
            // The naive detector looks for the king in its palace only; a king this bug
            // let out is still attacked where it stands (the bug is the palace rule
            // alone, not a king nothing can check once it is out).
            let s = NaiveGen.to_setup(&b.naive);
            return s.kings_facing() || !s.checkers(c).is_empty();
        }
        NaiveGen.king_attacked(&b.naive, c)
    }
    fn in_check(&self, b: &Self::Board) -> bool {
        let attacked = self.king_attacked(b, self.turn(b));
        if self.has(Bug::InCheckMissesDoubleCheck) && attacked {
            return checkers(&NaiveGen.to_setup(&b.naive)) < 2;
        }
        attacked
    }
    fn count_legal(&self, b: &mut Self::Board) -> u64 {
        let mut list = MoveList::new();
        self.legal(b, &mut list);
        let n = list.len() as u64;
        if self.has(Bug::CountShortInDoubleCheck)
            && n > 0
            && checkers(&NaiveGen.to_setup(&b.naive)) >= 2
        {
            return n - 1;
        }
        n
    }
    fn make(&self, b: &mut Self::Board, mv: Move) -> Self::Undo {
        let king = NaiveGen
            .piece_at(&b.naive, mv.from)
            .is_some_and(|p| p.role == Role::King);
        let taken = b.slots.iter().position(|s| *s == Some(mv.to));
        if let Some(i) = taken {
            b.slots[i] = None;
        }
        if !(self.has(Bug::MakeForgetsKingSlot) && king) {
            if let Some(mover) = b.slots.iter_mut().find(|s| **s == Some(mv.from)) {
                *mover = Some(mv.to);
            }
        }
        if self.has(Bug::MakeTicksClock) {
            b.clock += 1;
        }
        let captured = NaiveGen.make(&mut b.naive, mv);
        b.history[b.ply % 2] = captured;
        b.ply += 1;
        PlantedUndo {
            naive: captured,
            slot: taken,
        }
    }
    fn unmake(&self, b: &mut Self::Board, mv: Move, u: Self::Undo) {
        if let Some(mover) = b.slots.iter_mut().find(|s| **s == Some(mv.to)) {
            *mover = Some(mv.from);
        }
        let pawn = u.naive.is_some_and(|p| p.role == Role::Pawn);
        if let Some(i) = u.slot {
            if !(self.has(Bug::UnmakeForgetsPawnSlot) && pawn) {
                b.slots[i] = Some(mv.to);
            }
        }
        b.clock = b.clock.saturating_sub(1);
        b.ply = b.ply.saturating_sub(1);
        let taken = if self.has(Bug::HistoryTooShort) {
            b.history[b.ply % 2]
        } else {
            u.naive
        };
        let restored = match taken {
            Some(p) if self.has(Bug::UnmakeBringsBackHorseAsPawn) && p.role == Role::Horse => {
                Some(Piece::new(p.color, Role::Pawn))
            }
            other => other,
        };
        NaiveGen.unmake(&mut b.naive, mv, restored)
    }
}

impl Bug {
    /// Every bug, `None` excluded: the rule bugs first, then the answer bugs.
    pub const ALL: [Bug; 22] = [
        Bug::CannonCannotCapture,
        Bug::HorseLegIgnored,
        Bug::ElephantCrossesRiver,
        Bug::ElephantEyeIgnored,
        Bug::PawnSidewaysBeforeRiver,
        Bug::KingLeavesPalace,
        Bug::RookJumpsOne,
        Bug::CheckPawnWrongWay,
        Bug::HorseTakesHorseTwice,
        Bug::CountShortInDoubleCheck,
        Bug::InCheckMissesDoubleCheck,
        Bug::UnmakeForgetsPawnSlot,
        Bug::ReadBackSaysRedToMove,
        Bug::CapturedMissesPawn,
        Bug::MakeTicksClock,
        Bug::UnmakeBringsBackHorseAsPawn,
        Bug::MakeForgetsKingSlot,
        Bug::LeftHorseLegIgnored,
        Bug::BlackPawnSidewaysBeforeRiver,
        Bug::HistoryTooShort,
        Bug::ClockInAByte,
        Bug::HorseLegOnShortAxis,
    ];

    /// Whether the bug changes perft counts, so that a subject answering only perft
    /// can show it: a wrong `in_check`, read-back or capture alone does not, since perft
    /// uses none of them.
    pub const fn changes_perft(self) -> bool {
        !matches!(
            self,
            Bug::None
                | Bug::InCheckMissesDoubleCheck
                | Bug::ReadBackSaysRedToMove
                | Bug::CapturedMissesPawn
                | Bug::MakeTicksClock
                | Bug::ClockInAByte
        )
    }

    /// The kebab-case name the test engine's `--bug` flag takes.
    pub const fn as_str(self) -> &'static str {
        match self {
            Bug::None => "none",
            Bug::CannonCannotCapture => "cannon-cannot-capture",
            Bug::HorseLegIgnored => "horse-leg-ignored",
            Bug::ElephantCrossesRiver => "elephant-crosses-river",
            Bug::ElephantEyeIgnored => "elephant-eye-ignored",
            Bug::PawnSidewaysBeforeRiver => "pawn-sideways-before-river",
            Bug::KingLeavesPalace => "king-leaves-palace",
            Bug::RookJumpsOne => "rook-jumps-one",
            Bug::HorseTakesHorseTwice => "horse-takes-horse-twice",
            Bug::CountShortInDoubleCheck => "count-short-in-double-check",
            Bug::InCheckMissesDoubleCheck => "in-check-misses-double-check",
            Bug::UnmakeForgetsPawnSlot => "unmake-forgets-pawn-slot",
            Bug::ReadBackSaysRedToMove => "read-back-says-red-to-move",
            Bug::CapturedMissesPawn => "captured-misses-pawn",
            Bug::MakeTicksClock => "make-ticks-clock",
            Bug::UnmakeBringsBackHorseAsPawn => "unmake-brings-back-horse-as-pawn",
            Bug::MakeForgetsKingSlot => "make-forgets-king-slot",
            Bug::LeftHorseLegIgnored => "left-horse-leg-ignored",
            Bug::BlackPawnSidewaysBeforeRiver => "black-pawn-sideways-before-river",
            Bug::HistoryTooShort => "history-too-short",
            Bug::ClockInAByte => "clock-in-a-byte",
            Bug::HorseLegOnShortAxis => "horse-leg-on-short-axis",
            Bug::CheckPawnWrongWay => "check-pawn-wrong-way",
        }
    }
}

impl FromStr for Bug {
    type Err = crate::named::UnknownName;
    fn from_str(s: &str) -> Result<Bug, Self::Err> {
        let all: Vec<Bug> = std::iter::once(Bug::None).chain(Bug::ALL).collect();
        crate::named::by_name("bug", s, &all, Bug::as_str)
    }
}
