//! Generators with one planted rule bug each: the naive generator wrapped so that it
//! adds or drops moves the way a typical bug would. They exist to prove that the
//! harness catches bugs (the planted tests, and the test engine's `--bug` switch);
//! nothing else should use them.

use crate::generators::naive::NaiveGen;
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
    /// A rook may jump over the first piece in its way.
    RookJumpsOne,
}

/// The naive generator with `Bug` planted in it.
pub struct Planted(pub Bug);

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
        (Bug::HorseLegIgnored, Role::Horse) => {
            for (df, dr) in [
                (1, 2),
                (2, 1),
                (-1, 2),
                (-2, 1),
                (1, -2),
                (2, -1),
                (-1, -2),
                (-2, -1),
            ] {
                let leg = at(f + df / 2, r + dr / 2);
                if leg.is_some_and(|l| s.piece_at(l).is_some()) {
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
        (Bug::PawnSidewaysBeforeRiver, Role::Pawn) => {
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

impl MoveGen for Planted {
    type Board = <NaiveGen as MoveGen>::Board;
    type Undo = <NaiveGen as MoveGen>::Undo;
    fn name(&self) -> &'static str {
        "planted"
    }
    fn load(&self, pos: &crate::Position) -> Self::Board {
        NaiveGen.load(pos)
    }
    fn to_setup(&self, b: &Self::Board) -> Setup {
        NaiveGen.to_setup(b)
    }
    fn turn(&self, b: &Self::Board) -> Color {
        NaiveGen.turn(b)
    }
    fn piece_at(&self, b: &Self::Board, sq: Square) -> Option<Piece> {
        NaiveGen.piece_at(b, sq)
    }
    fn pseudo_legal(&self, b: &Self::Board, out: &mut MoveList) {
        let mut inner = MoveList::new();
        NaiveGen.pseudo_legal(b, &mut inner);
        let s = NaiveGen.to_setup(b);
        for &mv in inner.iter() {
            let cannon_capture = s.piece_at(mv.from).is_some_and(|p| p.role == Role::Cannon)
                && s.piece_at(mv.to).is_some();
            if !(matches!(self.0, Bug::CannonCannotCapture) && cannon_capture) {
                out.push(mv);
            }
        }
        for (from, p) in s.pieces().filter(|(_, p)| p.color == s.turn) {
            for to in extra(self.0, &s, from, p) {
                out.push(Move::new(from, to));
            }
        }
    }
    fn king_attacked(&self, b: &Self::Board, c: Color) -> bool {
        NaiveGen.king_attacked(b, c)
    }
    fn make(&self, b: &mut Self::Board, mv: Move) -> Self::Undo {
        NaiveGen.make(b, mv)
    }
    fn unmake(&self, b: &mut Self::Board, mv: Move, u: Self::Undo) {
        NaiveGen.unmake(b, mv, u)
    }
}

impl Bug {
    /// Every bug, `None` excluded.
    pub const ALL: [Bug; 7] = [
        Bug::CannonCannotCapture,
        Bug::HorseLegIgnored,
        Bug::ElephantCrossesRiver,
        Bug::ElephantEyeIgnored,
        Bug::PawnSidewaysBeforeRiver,
        Bug::KingLeavesPalace,
        Bug::RookJumpsOne,
    ];

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
        }
    }
}

impl FromStr for Bug {
    type Err = String;
    fn from_str(s: &str) -> Result<Bug, String> {
        std::iter::once(Bug::None)
            .chain(Bug::ALL)
            .find(|b| b.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Bug::ALL.iter().map(|b| b.as_str()).collect();
                format!("unknown bug {s:?}; known: none, {}", names.join(", "))
            })
    }
}
