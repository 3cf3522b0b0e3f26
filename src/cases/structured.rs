//! Bytes to valid positions: every byte string, including the empty one, maps to a
//! [`Position`], so no fuzz input is wasted on a rejected board.
//!
//! Layout, chosen so that a libFuzzer byte flip changes one thing: byte 0 is the side to
//! move, bytes 1 and 2 the red and black king's palace point, then three bytes a piece
//! (kind, square, colour). A piece that cannot stand where its bytes put it (an advisor
//! off the palace, a pawn behind its start) is moved to the nearest point where it can; a
//! piece over its side's limit is left out. A position where the side not to move is in
//! check is repaired by flipping the side to move, or by taking away a checker.

use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup, Violation};
use crate::square::Square;
use arbitrary::{Arbitrary, Unstructured};
use std::sync::OnceLock;

/// A position drawn from fuzz bytes; see the module docs for the layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArbitraryPosition(pub Position);

impl<'a> Arbitrary<'a> for ArbitraryPosition {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(ArbitraryPosition(decode(u)))
    }
}

/// Reads one position from `bytes`; never fails.
pub fn from_bytes(bytes: &[u8]) -> Position {
    decode(&mut Unstructured::new(bytes))
}

/// Writes the bytes that [`from_bytes`] reads back as `pos`: the same placement and side
/// to move (the move counters come back as 0 and 1). Used to seed fuzz corpora with
/// known positions, so the fuzzer starts from real games rather than empty boards.
pub fn to_bytes(pos: &Position) -> Vec<u8> {
    let turn = match pos.turn() {
        Color::Red => 0,
        Color::Black => 1,
    };
    let mut out = vec![turn];
    for color in Color::ALL {
        let king = pos.king(color);
        let slot = palace(color).iter().position(|&sq| sq == king);
        // A valid position has its king in its palace, so the slot is always found.
        out.push(slot.unwrap_or(0) as u8);
    }
    // Each piece asks for its own square, which is free and allowed when it is placed
    // (the squares of a valid position are distinct and legal), so it lands exactly there;
    // a valid result needs no repair.
    for (sq, piece) in pos.pieces().filter(|(_, p)| p.role != Role::King) {
        let kind = PIECE_ROLES.iter().position(|&r| r == piece.role);
        out.push(kind.unwrap_or(0) as u8);
        out.push(sq.index() as u8);
        out.push(piece.color.index() as u8);
    }
    out
}

/// The positions a playout may start from: the start position, then every position of
/// the reference suite in file order. Fuzz targets and their seeds index this list.
pub(crate) fn playout_starts() -> &'static [Position] {
    static STARTS: OnceLock<Vec<Position>> = OnceLock::new();
    STARTS.get_or_init(|| {
        let suite = crate::epd::parse_suite(crate::epd::REFERENCE_SUITE).unwrap_or_default();
        std::iter::once(Position::startpos())
            .chain(suite.into_iter().map(|e| e.position))
            .collect()
    })
}

/// The playout start a fuzz byte picks (modulo the number of starts).
pub fn playout_start(byte: u8) -> &'static Position {
    let starts = playout_starts();
    &starts[byte as usize % starts.len()]
}

/// Kinds a piece record can name: all but the king, which is placed separately, one a side.
pub(crate) const PIECE_ROLES: &[Role] = Role::ALL.split_at(1).1;

/// The nine palace points of `color`, for the king bytes. Black's run from the other
/// corner so that zero bytes give kings on different files, not facing kings.
fn palace(color: Color) -> Vec<Square> {
    let points = [0u8, 1, 2]
        .into_iter()
        .flat_map(|r| (3..6).filter_map(move |f| Square::new(f, r)));
    match color {
        Color::Red => points.collect(),
        Color::Black => points
            .map(Square::flip_ranks)
            .map(Square::mirror_files)
            .collect(),
    }
}

fn byte(u: &mut Unstructured<'_>) -> u8 {
    // An exhausted input reads as zeros; that is what makes every byte string valid.
    u8::arbitrary(u).unwrap_or(0)
}

fn decode(u: &mut Unstructured<'_>) -> Position {
    let turn = if byte(u) % 2 == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let mut setup = Setup::empty(turn);
    for color in Color::ALL {
        let points = palace(color);
        let k = points[byte(u) as usize % points.len()];
        setup.board[k.index()] = Some(Piece::new(color, Role::King));
    }
    let mut counts = [[0usize; 7]; 2];
    while u.len() >= 3 {
        let role = PIECE_ROLES[byte(u) as usize % PIECE_ROLES.len()];
        let wanted = Square::from_index(byte(u) as usize % 90).unwrap_or(Square::A0);
        let color = if byte(u) % 2 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let count = &mut counts[color.index()][role.index()];
        if *count >= role.max_count() {
            continue;
        }
        let piece = Piece::new(color, role);
        if let Some(sq) = nearest_point(&setup, piece, wanted) {
            setup.board[sq.index()] = Some(piece);
            *count += 1;
        }
    }
    repair_checks(setup)
}

/// Whether `piece` may stand on `sq` by the domain's placement rules. Asked of
/// validation itself (a lone piece on an otherwise empty board) once per piece and
/// square, so the decoder can never disagree with [`Position::new`].
pub(crate) fn allowed(piece: Piece, sq: Square) -> bool {
    static TABLE: OnceLock<Vec<bool>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut out = Vec::with_capacity(2 * 7 * 90);
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in Square::all() {
                    let mut probe = Setup::empty(color);
                    probe.board[sq.index()] = Some(Piece::new(color, role));
                    out.push(Position::new(probe).err().is_none_or(|e| {
                        e.violations
                            .iter()
                            .all(|v| matches!(v, Violation::MissingKing { .. }))
                    }));
                }
            }
        }
        out
    });
    table[(piece.color.index() * 7 + piece.role.index()) * 90 + sq.index()]
}

/// The free square nearest `wanted` where `piece` may stand; ties go to the lower index.
fn nearest_point(setup: &Setup, piece: Piece, wanted: Square) -> Option<Square> {
    let distance = |sq: Square| {
        (sq.file() as i32 - wanted.file() as i32).abs()
            + (sq.rank() as i32 - wanted.rank() as i32).abs()
    };
    Square::all()
        .filter(|&sq| setup.piece_at(sq).is_none() && allowed(piece, sq))
        .min_by_key(|&sq| (distance(sq), sq))
}

/// Makes the setup valid: flip the side to move when only the side not to move is in
/// check; otherwise take away a checker, or for facing kings put a horse between them
/// (a horse on a king's file can never check that king). A repair can expose another
/// check, so the steps are bounded, with a bare-kings position as the last resort.
fn repair_checks(mut setup: Setup) -> Position {
    for _ in 0..64 {
        let violations = match Position::new(setup.clone()) {
            Ok(pos) => return pos,
            Err(e) => e.violations,
        };
        for v in violations {
            match v {
                Violation::SideNotToMoveInCheck { color, from } => {
                    let flipped = Setup {
                        turn: setup.turn.other(),
                        ..setup.clone()
                    };
                    if flipped.checkers(color.other()).is_empty() {
                        setup = flipped;
                    } else {
                        setup.board[from.index()] = None;
                    }
                }
                Violation::KingsFacing { red, black } => setup = block_facing(setup, red, black),
                _ => {}
            }
        }
    }
    bare_kings(&setup)
}

/// Ends facing kings with a horse of either side (whichever has one to spare) on the
/// middle point between them, or else by stepping the black king to another file.
fn block_facing(mut setup: Setup, red: Square, black: Square) -> Setup {
    let spare = Color::ALL.into_iter().find(|&c| {
        setup
            .pieces()
            .filter(|&(_, p)| p == Piece::new(c, Role::Horse))
            .count()
            < 2
    });
    let mid = Square::new(red.file(), (red.rank() + black.rank()) / 2);
    if let (Some(color), Some(mid)) = (spare, mid) {
        if setup.piece_at(mid).is_none() {
            setup.board[mid.index()] = Some(Piece::new(color, Role::Horse));
            return setup;
        }
    }
    step_black_king_aside(&mut setup, black);
    setup
}

fn step_black_king_aside(setup: &mut Setup, black: Square) {
    setup.board[black.index()] = None;
    let file = if black.file() == 4 { 3 } else { 4 };
    if let Some(sq) = Square::new(file, black.rank()) {
        setup.board[sq.index()] = Some(Piece::new(Color::Black, Role::King));
    }
}

/// The kings alone, on different files: always valid.
fn bare_kings(setup: &Setup) -> Position {
    let mut bare = Setup::empty(setup.turn);
    let red = setup.king(Color::Red).unwrap_or(Square::A0);
    let black = setup.king(Color::Black).unwrap_or(Square::A0);
    bare.board[red.index()] = Some(Piece::new(Color::Red, Role::King));
    bare.board[black.index()] = Some(Piece::new(Color::Black, Role::King));
    if red.file() == black.file() {
        step_black_king_aside(&mut bare, black);
    }
    Position::new(bare).unwrap_or_else(|e| unreachable!("bare kings on two files are valid: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_short_input_is_a_valid_position() {
        // Position::new is the judge: from_bytes returns Position, so reaching the end
        // without the decoder's unreachable! firing is the property.
        let mut rng = crate::cases::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
        for len in 0..200 {
            for _ in 0..50 {
                let bytes = rng.bytes(len);
                let pos = from_bytes(&bytes);
                assert!(Position::new(pos.setup().clone()).is_ok());
            }
        }
        assert_eq!(from_bytes(&[]).pieces().count(), 2);
    }

    #[test]
    fn a_piece_is_three_bytes_and_is_moved_to_a_legal_point() {
        // Advisor (kind 0) asked for a0, red: repaired to the nearest palace point, d0.
        let pos = from_bytes(&[0, 4, 4, 0, 0, 0]);
        assert_eq!(
            pos.piece_at("d0".parse().unwrap()),
            Some(Piece::new(Color::Red, Role::Advisor))
        );
        // The same bytes with the colour byte flipped give a black advisor in Black's palace.
        let pos = from_bytes(&[0, 4, 4, 0, 0, 1]);
        assert_eq!(
            pos.pieces()
                .filter(|(_, p)| p.role == Role::Advisor)
                .count(),
            1
        );
        assert!(pos
            .pieces()
            .any(|(sq, p)| p == Piece::new(Color::Black, Role::Advisor) && sq.rank() >= 7));
    }

    #[test]
    fn facing_kings_and_checks_are_repaired() {
        // Kings on e0 and e9, nothing between: invalid until repaired.
        let pos = from_bytes(&[0, 4, 4]);
        assert!(!pos.setup().kings_facing());
        // A red rook on e5 would check the black king with Red to move: flip to Black.
        let rook_e5 = 5 * 9 + 4;
        let pos = from_bytes(&[0, 3, 4, 3, rook_e5, 0]);
        assert_eq!(pos.turn(), Color::Black);
    }

    fn placement_and_turn(pos: &Position) -> (Vec<(Square, Piece)>, Color) {
        (pos.pieces().collect(), pos.turn())
    }

    #[test]
    fn to_bytes_is_read_back_as_the_same_position() {
        let mut positions: Vec<Position> = playout_starts().to_vec();
        assert!(positions.len() > 10, "the reference suite is missing");
        let mut rng = crate::cases::rng::Rng::new(0x2545_f491_4f6c_dd1d);
        for len in 0..300 {
            for _ in 0..20 {
                let bytes = rng.bytes(len);
                positions.push(from_bytes(&bytes));
            }
        }
        // Mirrors and colour swaps put kings and pieces on the other palace corners too.
        let images: Vec<Position> = positions
            .iter()
            .flat_map(|p| [p.setup().mirror_files(), p.setup().swap_colors()])
            .filter_map(|s| Position::new(s).ok())
            .collect();
        positions.extend(images);
        for pos in &positions {
            let back = from_bytes(&to_bytes(pos));
            assert_eq!(
                placement_and_turn(&back),
                placement_and_turn(pos),
                "{}",
                pos.fen()
            );
        }
        assert_eq!(
            from_bytes(&to_bytes(&Position::startpos())),
            Position::startpos()
        );
    }

    #[test]
    fn playout_starts_are_the_start_then_the_suite() {
        assert_eq!(playout_start(0), &Position::startpos());
        let n = playout_starts().len();
        assert_eq!(playout_start(n as u8), playout_start(0));
    }
}
