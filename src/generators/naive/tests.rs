//! Hand-made positions for each piece rule, and the board's plumbing.

use super::rules::{targets, within_reach, HORSE_LEAPS};
use super::*;

/// A validated position with `turn` to move and `pieces` as (square name, FEN letter).
fn position(turn: Color, pieces: &[(&str, char)]) -> Position {
    let mut setup = Setup::empty(turn);
    for &(name, letter) in pieces {
        let sq: Square = name.parse().expect("square name");
        setup.board[sq.index()] = Piece::from_char(letter);
    }
    Position::new(setup).expect("valid test position")
}

/// The pseudo-legal destinations of the piece on `from`, sorted.
fn pseudo_from(pos: &Position, from: &str) -> Vec<String> {
    let board = NaiveGen.load(pos);
    let mut list = MoveList::new();
    NaiveGen.pseudo_legal(&board, &mut list);
    let mut out: Vec<String> = list
        .iter()
        .filter(|mv| mv.from.to_string() == from)
        .map(|mv| mv.to.to_string())
        .collect();
    out.sort();
    out
}

/// Every legal move, sorted, in ICCS.
fn legal(pos: &Position) -> Vec<String> {
    let mut board = NaiveGen.load(pos);
    let mut list = MoveList::new();
    NaiveGen.legal(&mut board, &mut list);
    let mut out: Vec<String> = list.iter().map(|mv| mv.to_string()).collect();
    out.sort();
    out
}

#[test]
fn palace_and_river_match_the_contract() {
    // The palace predicates by the contract's own square names.
    let red: Vec<String> = Square::all()
        .filter(|&sq| in_palace(Color::Red, sq.file() as i8, sq.rank() as i8))
        .map(|sq| sq.to_string())
        .collect();
    assert_eq!(red, ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]);
    for sq in Square::all() {
        let (f, r) = (sq.file() as i8, sq.rank() as i8);
        assert_eq!(
            in_palace(Color::Black, f, r),
            in_palace(Color::Red, f, 9 - r),
            "{sq}"
        );
        assert_eq!(on_own_half(Color::Red, r), sq.rank() <= 4, "{sq}");
        assert_eq!(on_own_half(Color::Black, r), sq.rank() >= 5, "{sq}");
    }
    assert!(!in_palace(Color::Red, -1, 0) && !in_palace(Color::Red, 4, -1));
}

/// Calls `check` with every piece on every point, alone on the board (the sliders'
/// longest reach, `crowded` false) and surrounded by enemy pawns (every capture, the
/// cannon's included, `crowded` true).
fn every_piece_on_every_point(mut check: impl FnMut(&NaiveBoard<AsWritten>, Piece, Square, bool)) {
    for color in Color::ALL {
        for role in Role::ALL {
            for crowded in [false, true] {
                for sq in Square::all() {
                    let piece = Piece::new(color, role);
                    let enemy = crowded.then_some(Piece::new(color.other(), Role::Pawn));
                    let mut board = NaiveBoard {
                        grid: [[enemy; FILES as usize]; RANKS as usize],
                        turn: color,
                        halfmoves: 0,
                        fullmoves: 1,
                        reads: AsWritten,
                    };
                    board.grid[sq.rank() as usize][sq.file() as usize] = Some(piece);
                    check(&board, piece, sq, crowded);
                }
            }
        }
    }
}

#[test]
fn within_reach_never_hides_a_real_target() {
    // Each target the rule gives must pass the check detector's distance filter.
    every_piece_on_every_point(|board, piece, sq, crowded| {
        let from = coords(sq);
        let mut seen = 0;
        targets(board, from.0, from.1, piece, Asker::Mover, &mut |f, r| {
            assert!(
                within_reach(piece.role, from, (f, r)),
                "{piece} {sq} -> {f},{r}"
            );
            seen += 1;
        });
        // A lone rook sees its whole file and rank: the rays really ran.
        if !crowded && matches!(piece.role, Role::Rook) {
            assert_eq!(seen, 17, "{piece} {sq}");
        }
    });
}

#[test]
fn start_position_has_44_moves() {
    let pos = Position::startpos();
    assert_eq!(legal(&pos).len(), 44);
    assert_eq!(
        pseudo_from(&pos, "b2"),
        ["a2", "b1", "b3", "b4", "b5", "b6", "b9", "c2", "d2", "e2", "f2", "g2"]
    );
    assert_eq!(pseudo_from(&pos, "b0"), ["a2", "c2"]);
    assert_eq!(pseudo_from(&pos, "c0"), ["a2", "e2"]);
    assert_eq!(pseudo_from(&pos, "d0"), ["e1"]);
    assert_eq!(pseudo_from(&pos, "e0"), ["e1"]);
}

#[test]
fn horse_leg_blocks_both_targets_beyond_it() {
    // Black pawn on e5 is the leg toward d6 and f6.
    let pos = position(
        Color::Red,
        &[("d0", 'K'), ("f9", 'k'), ("e4", 'N'), ("e5", 'p')],
    );
    assert_eq!(
        pseudo_from(&pos, "e4"),
        ["c3", "c5", "d2", "f2", "g3", "g5"]
    );
    // At the edge, off-board legs and targets simply do not exist.
    let pos = position(
        Color::Red,
        &[("d0", 'K'), ("f9", 'k'), ("a0", 'N'), ("a1", 'p')],
    );
    assert_eq!(pseudo_from(&pos, "a0"), ["c1"]);
}

#[test]
fn elephant_eye_and_own_piece_block() {
    // d3 (a crossed black pawn) is the eye toward c4; g0 holds an own elephant.
    let pos = position(
        Color::Red,
        &[
            ("d0", 'K'),
            ("f9", 'k'),
            ("e2", 'B'),
            ("g0", 'B'),
            ("d3", 'p'),
        ],
    );
    assert_eq!(pseudo_from(&pos, "e2"), ["c0", "g4"]);
}

#[test]
fn elephant_never_crosses_the_river() {
    let pos = position(Color::Red, &[("d0", 'K'), ("f9", 'k'), ("c4", 'B')]);
    assert_eq!(pseudo_from(&pos, "c4"), ["a2", "e2"]);
    let pos = position(Color::Black, &[("d0", 'K'), ("f9", 'k'), ("g5", 'b')]);
    assert_eq!(pseudo_from(&pos, "g5"), ["e7", "i7"]);
}

#[test]
fn advisor_stays_in_the_palace() {
    let pos = position(
        Color::Red,
        &[("e0", 'K'), ("f9", 'k'), ("d0", 'A'), ("e1", 'A')],
    );
    assert_eq!(pseudo_from(&pos, "e1"), ["d2", "f0", "f2"]);
    assert_eq!(pseudo_from(&pos, "d0"), Vec::<String>::new());
}

#[test]
fn rook_stops_at_the_first_piece() {
    let pos = position(
        Color::Red,
        &[
            ("d0", 'K'),
            ("f9", 'k'),
            ("a0", 'R'),
            ("a3", 'p'),
            ("c0", 'B'),
        ],
    );
    assert_eq!(pseudo_from(&pos, "a0"), ["a1", "a2", "a3", "b0"]);
}

#[test]
fn cannon_needs_exactly_one_screen_to_capture() {
    let pos = position(
        Color::Red,
        &[
            ("d0", 'K'),
            ("f9", 'k'),
            ("e4", 'C'),
            // Up the e-file: a black pawn screen, then a black advisor to take.
            ("e6", 'p'),
            ("e8", 'a'),
            // Left: an own pawn screen, then a black rook to take.
            ("c4", 'P'),
            ("a4", 'r'),
            // Right: an own pawn screen with an own pawn beyond: nothing to take.
            ("g4", 'P'),
            ("i4", 'P'),
        ],
    );
    assert_eq!(
        pseudo_from(&pos, "e4"),
        ["a4", "d4", "e0", "e1", "e2", "e3", "e5", "e8", "f4"]
    );
    // Two screens: the piece beyond the second is out of reach.
    let pos = position(
        Color::Red,
        &[
            ("d0", 'K'),
            ("f9", 'k'),
            ("a0", 'C'),
            ("a3", 'P'),
            ("a5", 'p'),
            ("a7", 'r'),
        ],
    );
    assert_eq!(pseudo_from(&pos, "a0"), ["a1", "a2", "a5", "b0", "c0"]);
}

#[test]
fn pawn_before_and_after_the_river_and_on_the_last_rank() {
    let pos = position(
        Color::Red,
        &[
            ("d0", 'K'),
            ("f9", 'k'),
            ("c3", 'P'),
            ("c5", 'P'),
            ("a9", 'P'),
            ("i6", 'P'),
        ],
    );
    assert_eq!(pseudo_from(&pos, "c3"), ["c4"]);
    assert_eq!(pseudo_from(&pos, "c5"), ["b5", "c6", "d5"]);
    assert_eq!(pseudo_from(&pos, "a9"), ["b9"]);
    assert_eq!(pseudo_from(&pos, "i6"), ["h6", "i7"]);
    let pos = position(
        Color::Black,
        &[
            ("d0", 'K'),
            ("f9", 'k'),
            ("g6", 'p'),
            ("g4", 'p'),
            ("g0", 'p'),
        ],
    );
    assert_eq!(pseudo_from(&pos, "g6"), ["g5"]);
    assert_eq!(pseudo_from(&pos, "g4"), ["f4", "g3", "h4"]);
    assert_eq!(pseudo_from(&pos, "g0"), ["f0", "h0"]);
}

#[test]
fn kings_may_not_face_each_other() {
    let pos = position(Color::Red, &[("d0", 'K'), ("e9", 'k')]);
    assert_eq!(pseudo_from(&pos, "d0"), ["d1", "e0"]);
    assert_eq!(legal(&pos), ["d0d1"]);
}

#[test]
fn moving_the_only_piece_between_the_kings_is_illegal() {
    let pos = position(Color::Red, &[("e0", 'K'), ("e9", 'k'), ("e4", 'N')]);
    assert_eq!(pseudo_from(&pos, "e4").len(), 8);
    assert_eq!(legal(&pos), ["e0d0", "e0e1", "e0f0"]);
    let mut board = NaiveGen.load(&pos);
    assert!(!NaiveGen.in_check(&board));
    let mv: Move = "e4d6".parse().unwrap();
    let undo = NaiveGen.make(&mut board, mv);
    assert!(NaiveGen.king_attacked(&board, Color::Red));
    assert!(NaiveGen.king_attacked(&board, Color::Black));
    NaiveGen.unmake(&mut board, mv, undo);
    assert!(!NaiveGen.king_attacked(&board, Color::Red));
}

#[test]
fn check_by_each_attacker() {
    // Red to move, in check from the piece named; the side not to move is safe.
    for (attacker, sq) in [
        ('r', "e5"),
        ('n', "d2"),
        ('c', "e6"),
        ('p', "e1"),
        ('p', "d0"),
    ] {
        let mut pieces = vec![("e0", 'K'), ("f9", 'k'), (sq, attacker)];
        if attacker == 'c' {
            pieces.push(("e3", 'P'));
        }
        let pos = position(Color::Red, &pieces);
        assert!(
            NaiveGen.in_check(&NaiveGen.load(&pos)),
            "{attacker} on {sq}"
        );
    }
    // A horse whose leg is blocked, and a cannon with no screen, give no check.
    let pos = position(
        Color::Red,
        &[("e0", 'K'), ("f9", 'k'), ("d2", 'n'), ("d1", 'p')],
    );
    assert!(!NaiveGen.in_check(&NaiveGen.load(&pos)));
    let pos = position(Color::Red, &[("e0", 'K'), ("f9", 'k'), ("e6", 'c')]);
    assert!(!NaiveGen.in_check(&NaiveGen.load(&pos)));
}

#[test]
fn make_unmake_and_setup_round_trip() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 7 23";
    let pos = Position::from_fen(fen).unwrap();
    let mut board = NaiveGen.load(&pos);
    assert_eq!(&NaiveGen.to_setup(&board), pos.setup());
    let start = board.clone();
    let mut list = MoveList::new();
    NaiveGen.pseudo_legal(&board, &mut list);
    for &mv in list.iter() {
        let expected_capture = NaiveGen.piece_at(&board, mv.to);
        let undo = NaiveGen.make(&mut board, mv);
        assert_eq!(undo, expected_capture);
        assert_eq!(NaiveGen.turn(&board), Color::Black);
        let after = NaiveGen.to_setup(&board);
        assert_eq!((after.halfmoves, after.fullmoves), (7, 23));
        assert_eq!(after.board[mv.from.index()], None);
        NaiveGen.unmake(&mut board, mv, undo);
        assert_eq!(board, start, "{mv}");
    }
}

#[test]
fn perft_from_the_start() {
    let mut board = NaiveGen.load(&Position::startpos());
    assert_eq!(
        crate::generators::perft::perft(&NaiveGen, &mut board, 3),
        79666
    );
}

/// The check detector looks only at the first two pieces met along the king's file and
/// rank, and a horse's leap away: every point from which some piece's own rule lands on
/// a point of the other side's palace (where the detector finds a king) must be among
/// them, or a checker standing there would go unseen. Each piece on every point, alone
/// (the sliders' longest reach) and surrounded by enemies (every capture).
#[test]
fn the_detector_looks_at_every_point_a_king_can_be_taken_from() {
    every_piece_on_every_point(|board, piece, sq, _| {
        let from = coords(sq);
        targets(board, from.0, from.1, piece, Asker::Mover, &mut |f, r| {
            if !in_palace(piece.color.other(), f, r) {
                return;
            }
            let leap = HORSE_LEAPS.contains(&(from.0 - f, from.1 - r));
            let between = if f == from.0 {
                (from.1.min(r) + 1..from.1.max(r))
                    .filter(|&k| board.get(f, k).is_some())
                    .count()
            } else if r == from.1 {
                (from.0.min(f) + 1..from.0.max(f))
                    .filter(|&k| board.get(k, r).is_some())
                    .count()
            } else {
                usize::MAX
            };
            assert!(
                leap || between <= 1,
                "{piece} on {sq} takes a king on {f},{r} unseen"
            );
        });
    });
}
