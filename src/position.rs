//! Placements, and the validated [`Position`] that every generator accepts.
//!
//! A [`Setup`] is whatever someone wrote down; a [`Position`] is a setup that obeys
//! every rule of "The domain" in the rules contract (`docs/rules.md`). Only positions reach the
//! generators, so they never need to defend against impossible boards.

use crate::moves::Move;
use crate::piece::{Color, Piece, Role};
use crate::square::{Square, SQUARE_COUNT};
use std::fmt;

/// A placement, side to move and move counters, not yet checked.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The piece on each square, indexed by [`Square::index`].
    pub board: [Option<Piece>; SQUARE_COUNT],
    /// Whose move it is.
    pub turn: Color,
    /// Plies since the last capture, kept from FEN for round trips.
    pub halfmoves: u32,
    /// Move number, kept from FEN for round trips.
    pub fullmoves: u32,
}

impl Setup {
    /// An empty board with `turn` to move.
    pub fn empty(turn: Color) -> Setup {
        Setup {
            board: [None; SQUARE_COUNT],
            turn,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Every occupied square with its piece, from `a0` up.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The same setup mirrored left to right (files `a` <-> `i`).
    pub fn mirror_files(&self) -> Setup {
        let mut out = Setup {
            board: [None; SQUARE_COUNT],
            ..self.clone()
        };
        for (sq, p) in self.pieces() {
            out.board[sq.mirror_files().index()] = Some(p);
        }
        out
    }

    /// The same setup seen from the other side: colours swapped, ranks `r` <-> `9 - r`,
    /// and the other side to move.
    pub fn swap_colors(&self) -> Setup {
        let mut out = Setup {
            board: [None; SQUARE_COUNT],
            turn: self.turn.other(),
            ..self.clone()
        };
        for (sq, p) in self.pieces() {
            out.board[sq.flip_ranks().index()] = Some(Piece::new(p.color.other(), p.role));
        }
        out
    }
}

/// One rule of "The domain" that a setup breaks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Violation {
    /// A side has no king.
    MissingKing {
        /// The side without one.
        color: Color,
    },
    /// A side has more of a kind than the rules allow (one king, five pawns, two of the rest).
    TooMany {
        /// The side.
        color: Color,
        /// The kind.
        role: Role,
        /// How many it has.
        count: usize,
    },
    /// A king stands outside its own palace.
    KingOutsidePalace {
        /// Whose king.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An advisor stands off its palace's five points.
    AdvisorOffPoint {
        /// Whose advisor.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An elephant stands off its side's seven points.
    ElephantOffPoint {
        /// Whose elephant.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// A pawn stands where no pawn can ever be: behind its start rank, or on its own side of
    /// the river on a file where no pawn starts.
    PawnOffPoint {
        /// Whose pawn.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// The two kings face each other on an open file, so the side to move could take a king.
    KingsFacing {
        /// Red's king.
        red: Square,
        /// Black's king.
        black: Square,
    },
    /// The side not to move is in check, so the side to move could take its king.
    SideNotToMoveInCheck {
        /// The side in check.
        color: Color,
        /// A square the check comes from.
        from: Square,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Violation::MissingKing { color } => write!(f, "{color} has no king"),
            Violation::TooMany { color, role, count } => write!(
                f,
                "{color} has {count} of {role} (at most {})",
                role.max_count()
            ),
            Violation::KingOutsidePalace { color, square } => {
                write!(f, "{color} king on {square} is outside its palace")
            }
            Violation::AdvisorOffPoint { color, square } => {
                write!(f, "{color} advisor on {square} is not on a palace point")
            }
            Violation::ElephantOffPoint { color, square } => {
                write!(
                    f,
                    "{color} elephant on {square} is not on an elephant point"
                )
            }
            Violation::PawnOffPoint { color, square } => {
                write!(f, "{color} pawn on {square} stands where no pawn can be")
            }
            Violation::KingsFacing { red, black } => {
                write!(
                    f,
                    "kings on {red} and {black} face each other on an open file"
                )
            }
            Violation::SideNotToMoveInCheck { color, from } => {
                write!(f, "{color} is not to move but is in check from {from}")
            }
        }
    }
}

/// Every rule a setup breaks; never empty.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PositionError {
    /// The broken rules, in the order the contract lists them.
    pub violations: Vec<Violation>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid position: ")?;
        for (i, v) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

/// A setup known to obey the domain rules. Build one with [`Position::new`] or from FEN.
///
/// ```
/// use xqdiff::{Color, Piece, Position, Role, Setup, Violation};
///
/// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1")?;
/// assert_eq!(pos.turn(), Color::Black);
/// let e1 = "e1".parse().expect("a square");
/// assert_eq!(pos.piece_at(e1), Some(Piece::new(Color::Red, Role::Advisor)));
/// assert_eq!(pos.fen(), "4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1");
///
/// // A setup is only a position once every rule holds; the error names each one broken.
/// let mut setup = Setup::empty(Color::Red);
/// setup.board["e0".parse::<xqdiff::Square>().expect("a square").index()] =
///     Some(Piece::new(Color::Red, Role::King));
/// let err = Position::new(setup).unwrap_err();
/// assert_eq!(err.violations, [Violation::MissingKing { color: Color::Black }]);
/// # Ok::<(), xqdiff::fen::FenError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    setup: Setup,
}

impl Position {
    /// Checks every domain rule and names each one broken.
    pub fn new(setup: Setup) -> Result<Position, PositionError> {
        let violations = violations(&setup);
        if violations.is_empty() {
            Ok(Position { setup })
        } else {
            Err(PositionError { violations })
        }
    }

    /// The placement, side to move and counters.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Gives up the validity guarantee to edit the placement.
    pub fn into_setup(self) -> Setup {
        self.setup
    }

    /// Whose move it is.
    pub fn turn(&self) -> Color {
        self.setup.turn
    }

    /// The board with the piece of `mv` moved (taking whatever stands on the target),
    /// the turn not yet passed: what any Xiangqi move does to the squares, legal or not.
    /// `None` when no piece of the side to move stands on the from point.
    pub(crate) fn placed(&self, mv: Move) -> Option<Setup> {
        let mut setup = self.setup.clone();
        let piece = setup.board[mv.from.index()]
            .take()
            .filter(|p| p.color == setup.turn)?;
        setup.board[mv.to.index()] = Some(piece);
        Some(setup)
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.setup.piece_at(sq)
    }

    /// Every occupied square with its piece, from `a0` up.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.setup.pieces()
    }

    /// The position mirrored left to right (files `a` <-> `i`): valid whenever `self` is,
    /// since every rule of the domain is symmetric between the wings.
    pub fn mirror_files(&self) -> Position {
        Position {
            setup: self.setup.mirror_files(),
        }
    }

    /// The position seen from the other side (colours swapped, ranks `r` <-> `9 - r`, the
    /// other side to move): valid whenever `self` is, since the rules treat both sides alike.
    pub fn swap_colors(&self) -> Position {
        Position {
            setup: self.setup.swap_colors(),
        }
    }

    /// The same position with other move counters: valid whenever `self` is, since no
    /// rule of the domain reads the counters.
    pub(crate) fn with_counters(&self, halfmoves: u32, fullmoves: u32) -> Position {
        Position {
            setup: Setup {
                halfmoves,
                fullmoves,
                ..self.setup.clone()
            },
        }
    }

    /// The square of `color`'s king (a valid position always has one).
    pub fn king(&self, color: Color) -> Square {
        self.setup
            .king(color)
            .unwrap_or_else(|| unreachable!("validated positions have one king a side"))
    }
}

/// Whether `sq` is in `color`'s palace.
pub(crate) fn in_palace(color: Color, sq: Square) -> bool {
    let ranks = match color {
        Color::Red => 0..=2,
        Color::Black => 7..=9,
    };
    (3..=5).contains(&sq.file()) && ranks.contains(&sq.rank())
}

/// Rank counted from `color`'s own back rank: 0-4 on its own side of the river.
pub(crate) fn relative_rank(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

fn on_point(role: Role, color: Color, sq: Square) -> bool {
    let (f, r) = (sq.file(), relative_rank(color, sq));
    match role {
        Role::King => in_palace(color, sq),
        Role::Advisor => in_palace(color, sq) && (f + r) % 2 == 1,
        Role::Elephant => matches!((f, r), (2 | 6, 0 | 4) | (0 | 4 | 8, 2)),
        Role::Pawn => r >= 5 || (r >= 3 && f % 2 == 0),
        Role::Horse | Role::Rook | Role::Cannon => true,
    }
}

fn violations(setup: &Setup) -> Vec<Violation> {
    // One pass over the board collects what every rule below needs: the pieces, how
    // many of each kind, each side's king and the pieces off their points.
    let mut pieces: Vec<(Square, Piece)> = Vec::with_capacity(32);
    let mut counts = [[0usize; 7]; 2];
    let mut kings: [Option<Square>; 2] = [None; 2];
    let mut off_point = Vec::new();
    for (square, p) in setup.pieces() {
        pieces.push((square, p));
        counts[p.color.index()][p.role.index()] += 1;
        if p.role == Role::King {
            kings[p.color.index()] = Some(square);
        }
        if !on_point(p.role, p.color, square) {
            let color = p.color;
            off_point.push(match p.role {
                Role::King => Violation::KingOutsidePalace { color, square },
                Role::Advisor => Violation::AdvisorOffPoint { color, square },
                Role::Elephant => Violation::ElephantOffPoint { color, square },
                _ => Violation::PawnOffPoint { color, square },
            });
        }
    }
    let mut out = Vec::new();
    for color in Color::ALL {
        if counts[color.index()][Role::King.index()] == 0 {
            out.push(Violation::MissingKing { color });
        }
    }
    for color in Color::ALL {
        for role in Role::ALL {
            let count = counts[color.index()][role.index()];
            if count > role.max_count() {
                out.push(Violation::TooMany { color, role, count });
            }
        }
    }
    out.append(&mut off_point);
    // Check is only meaningful with exactly one king a side.
    let one_king = |c: Color| counts[c.index()][Role::King.index()] == 1;
    if let (Some(red), Some(black), true, true) = (
        kings[0],
        kings[1],
        one_king(Color::Red),
        one_king(Color::Black),
    ) {
        if red.file() == black.file() && between(setup, red, black) == 0 {
            out.push(Violation::KingsFacing { red, black });
        } else {
            let victim = setup.turn.other();
            let target = if victim == Color::Red { red } else { black };
            if let Some(from) =
                checkers(setup, pieces.iter().copied(), target, victim.other()).next()
            {
                out.push(Violation::SideNotToMoveInCheck {
                    color: victim,
                    from,
                });
            }
        }
    }
    out
}

/// Pieces strictly between two squares on one file or rank.
fn between(setup: &Setup, a: Square, b: Square) -> usize {
    let (lo, hi) = (a.min(b), a.max(b));
    let step = if a.file() == b.file() { 9 } else { 1 };
    (lo.index() + step..hi.index())
        .step_by(step)
        .filter(|&i| setup.board[i].is_some())
        .count()
}

/// Pieces of `attacker` that attack `target`, found by asking each piece whether its
/// move rule reaches the target. Validation's own detector: it shares nothing with the
/// generators so that a generator's check bug cannot hide a validation bug, or the reverse.
fn checkers<'a>(
    setup: &'a Setup,
    pieces: impl Iterator<Item = (Square, Piece)> + 'a,
    target: Square,
    attacker: Color,
) -> impl Iterator<Item = Square> + 'a {
    let (tf, tr) = (target.file() as i32, target.rank() as i32);
    pieces
        .filter(move |&(_, p)| p.color == attacker)
        .filter(move |&(sq, p)| {
            let (df, dr) = (tf - sq.file() as i32, tr - sq.rank() as i32);
            let on_line =
                sq != target && (sq.file() == target.file() || sq.rank() == target.rank());
            match p.role {
                Role::Rook => on_line && between(setup, sq, target) == 0,
                Role::Cannon => on_line && between(setup, sq, target) == 1,
                Role::Horse => {
                    let is_l = (df.abs() == 2 && dr.abs() == 1) || (df.abs() == 1 && dr.abs() == 2);
                    let leg = Square::new(
                        (sq.file() as i32 + df / 2) as u8,
                        (sq.rank() as i32 + dr / 2) as u8,
                    );
                    is_l && leg.is_some_and(|leg| setup.piece_at(leg).is_none())
                }
                Role::Pawn => {
                    let forward = if attacker == Color::Red { 1 } else { -1 };
                    let crossed = relative_rank(attacker, sq) >= 5;
                    (df == 0 && dr == forward) || (crossed && dr == 0 && df.abs() == 1)
                }
                // The enemy king only ever reaches the target by facing it, which is
                // reported separately; advisors and elephants never leave their own half.
                Role::King | Role::Advisor | Role::Elephant => false,
            }
        })
        .map(|(sq, _)| sq)
}

impl Setup {
    /// The square of `color`'s king, if it has exactly one.
    pub fn king(&self, color: Color) -> Option<Square> {
        let mut it = self
            .pieces()
            .filter(move |&(_, p)| p == Piece::new(color, Role::King));
        match (it.next(), it.next()) {
            (Some((sq, _)), None) => Some(sq),
            _ => None,
        }
    }

    /// Whether both kings stand on one file with nothing between them.
    pub fn kings_facing(&self) -> bool {
        match (self.king(Color::Red), self.king(Color::Black)) {
            (Some(r), Some(b)) => r.file() == b.file() && between(self, r, b) == 0,
            _ => false,
        }
    }

    /// The pieces giving check to `color`'s king, not counting a facing king. This is
    /// validation's detector, not any generator's.
    pub fn checkers(&self, color: Color) -> Vec<Square> {
        match self.king(color) {
            Some(k) => checkers(self, self.pieces(), k, color.other()).collect(),
            None => Vec::new(),
        }
    }

    /// How many pieces stand strictly between two squares, if they share a file or rank.
    pub fn pieces_between(&self, a: Square, b: Square) -> Option<usize> {
        (a.file() == b.file() || a.rank() == b.rank()).then(|| between(self, a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    fn errors(fen_text: &str) -> Vec<Violation> {
        match fen::parse(fen_text) {
            Err(fen::FenError::Invalid(e)) => e.violations,
            other => panic!("{fen_text}: expected invalid position, got {other:?}"),
        }
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    /// One row per domain rule: a FEN that breaks it and what validation must say.
    #[test]
    fn each_domain_rule_is_named() {
        use Color::*;
        // A piece of `color` on a point its kind may not stand on.
        macro_rules! at {
            ($kind:ident, $color:ident, $square:literal) => {
                vec![Violation::$kind {
                    color: $color,
                    square: sq($square),
                }]
            };
        }
        let checked = |color, from| {
            vec![Violation::SideNotToMoveInCheck {
                color,
                from: sq(from),
            }]
        };
        let facing = |red, black| {
            vec![Violation::KingsFacing {
                red: sq(red),
                black: sq(black),
            }]
        };
        let table: Vec<(&str, Vec<Violation>)> = vec![
            (
                "9/9/9/9/9/9/9/9/9/4K4 w",
                vec![Violation::MissingKing { color: Black }],
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/3K1K3 w",
                vec![Violation::TooMany {
                    color: Red,
                    role: Role::King,
                    count: 2,
                }],
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/2K6 w",
                at!(KingOutsidePalace, Red, "c0"),
            ),
            ("3k5/9/9/9/9/9/9/9/4A4/5K3 w", vec![]),
            (
                "3k5/9/9/9/9/9/9/9/3A5/5K3 w",
                at!(AdvisorOffPoint, Red, "d1"),
            ),
            ("3k5/9/9/9/9/2B6/9/9/9/5K3 w", vec![]),
            (
                "3k5/9/9/9/2B6/9/9/9/9/5K3 w",
                at!(ElephantOffPoint, Red, "c5"),
            ),
            ("3k5/9/9/9/9/9/1P7/9/9/5K3 w", at!(PawnOffPoint, Red, "b3")),
            ("3k5/9/9/9/9/9/9/P8/9/5K3 w", at!(PawnOffPoint, Red, "a2")),
            ("3k5/9/p8/9/9/9/9/9/9/5K3 w", at!(PawnOffPoint, Black, "a7")),
            ("3k5/9/9/9/9/9/9/9/9/3K5 w", facing("d0", "d9")),
            ("3k5/9/9/9/9/9/9/9/9/3KR4 b", facing("d0", "d9")),
            ("3k5/9/9/9/9/9/9/9/9/4KR3 b", vec![]),
            ("3k5/9/9/9/9/9/9/9/9/3R1K3 w", checked(Black, "d0")),
            ("3k5/9/3a5/9/9/3C5/9/9/9/5K3 w", checked(Black, "d4")),
            ("3k5/9/4N4/9/9/9/9/9/9/5K3 w", checked(Black, "e7")),
            ("3k5/4a4/4N4/9/9/9/9/9/9/5K3 w", vec![]),
            ("3k5/3P5/9/9/9/9/9/9/9/5K3 w", checked(Black, "d8")),
            ("3kP4/9/9/9/9/9/9/9/9/5K3 w", checked(Black, "e9")),
            ("3k5/9/9/9/9/9/9/9/9/4K4 r", vec![]),
        ];
        for (fen_text, expected) in table {
            if expected.is_empty() {
                assert!(fen::parse(fen_text).is_ok(), "{fen_text} should be valid");
            } else {
                assert_eq!(errors(fen_text), expected, "{fen_text}");
            }
        }
    }

    #[test]
    fn several_broken_rules_are_all_named() {
        let v = errors("9/9/9/9/9/9/9/9/2A6/2K1P4 w");
        assert!(
            v.contains(&Violation::MissingKing {
                color: Color::Black
            }),
            "{v:?}"
        );
        assert!(v.contains(&Violation::KingOutsidePalace {
            color: Color::Red,
            square: sq("c0")
        }));
        assert!(v.contains(&Violation::AdvisorOffPoint {
            color: Color::Red,
            square: sq("c1")
        }));
        assert!(v.contains(&Violation::PawnOffPoint {
            color: Color::Red,
            square: sq("e0")
        }));
        let too_many = errors("4k4/9/9/9/9/PPPPPP3/9/9/9/4K4 b");
        assert!(too_many.contains(&Violation::TooMany {
            color: Color::Red,
            role: Role::Pawn,
            count: 6
        }));
    }

    #[test]
    fn symmetries_keep_positions_valid() {
        let pos = Position::startpos();
        assert!(Position::new(pos.setup().mirror_files()).is_ok());
        let swapped = pos.setup().swap_colors();
        assert_eq!(swapped.turn, Color::Black);
        assert!(Position::new(swapped).is_ok());
    }
}
