//! Hand-made positions per piece rule, and the fast legality shortcut and the two-ply
//! count checked against make, ask the check detector, unmake.

use super::*;
use crate::fen;

fn pos(text: &str) -> Position {
    fen::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sorted(mut moves: Vec<Move>) -> Vec<String> {
    moves.sort();
    moves.iter().map(Move::to_string).collect()
}

fn expect(list: &[&str]) -> Vec<String> {
    let moves = list.iter().map(|m| m.parse().expect("test move")).collect();
    sorted(moves)
}

/// Legal and pseudo-legal moves starting on `from`.
fn moves_from(p: &Position, from: &str) -> (Vec<String>, Vec<String>) {
    let from: Square = from.parse().expect("test square");
    let mut board = BitboardGen.load(p);
    let (mut legal, mut pseudo) = (MoveList::new(), MoveList::new());
    BitboardGen.legal(&mut board, &mut legal);
    BitboardGen.pseudo_legal(&board, &mut pseudo);
    let pick = |l: &MoveList| sorted(l.iter().copied().filter(|m| m.from == from).collect());
    (pick(&legal), pick(&pseudo))
}

/// Checks the legal moves from `from`, and the same case with colours swapped and with
/// files mirrored, since every rule here is symmetric in both.
fn check_case(text: &str, from: &str, expected: &[&str]) {
    let p = pos(text);
    assert_eq!(moves_from(&p, from).0, expect(expected), "{text}");

    let swapped = Position::new(p.setup().swap_colors()).expect("swap keeps validity");
    let from_sq: Square = from.parse().expect("test square");
    let flipped: Vec<Move> = expected
        .iter()
        .map(|m| m.parse::<Move>().expect("test move").flip_ranks())
        .collect();
    assert_eq!(
        moves_from(&swapped, &from_sq.flip_ranks().to_string()).0,
        sorted(flipped),
        "{swapped} (swapped)"
    );

    let mirrored = Position::new(p.setup().mirror_files()).expect("mirror keeps validity");
    let flipped: Vec<Move> = expected
        .iter()
        .map(|m| m.parse::<Move>().expect("test move").mirror_files())
        .collect();
    assert_eq!(
        moves_from(&mirrored, &from_sq.mirror_files().to_string()).0,
        sorted(flipped),
        "{mirrored} (mirrored)"
    );
}

#[test]
fn horse_with_a_blocked_leg() {
    // The rook on e2 is the leg for d3 and f3.
    check_case(
        "3k5/9/9/9/9/9/9/4R4/4N4/5K3 w",
        "e1",
        &["e1c0", "e1c2", "e1g0", "e1g2"],
    );
    // Open board: all eight.
    check_case(
        "3k5/9/9/9/4N4/9/9/9/9/5K3 w",
        "e5",
        &[
            "e5d7", "e5f7", "e5c6", "e5g6", "e5c4", "e5g4", "e5d3", "e5f3",
        ],
    );
}

#[test]
fn elephant_with_blocked_eyes() {
    // Own rook on d3 blocks c4, enemy rook on f1 blocks g0.
    check_case("4k4/9/9/9/9/9/3R5/4B4/5r3/3K5 w", "e2", &["e2c0", "e2g4"]);
}

#[test]
fn elephant_at_the_river_stays_home() {
    check_case("4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4", &["c4a2", "c4e2"]);
}

#[test]
fn cannon_screen_and_capture() {
    // File b: the horse on b5 is the screen, the rook on b8 beyond it is taken, b6 and
    // b7 are out of reach. Rank 2: the enemy cannon on g2 is the first piece, so it
    // cannot be taken without a screen.
    check_case(
        "4k4/1r7/9/9/1n7/9/9/1C4c2/9/3K5 w",
        "b2",
        &[
            "b2a2", "b2b0", "b2b1", "b2b3", "b2b4", "b2b8", "b2c2", "b2d2", "b2e2", "b2f2",
        ],
    );
    // An own piece beyond the screen is not taken.
    check_case("4k4/1R7/9/9/1n7/9/9/1C7/9/3K5 w", "b2", &{
        let mut m = vec!["b2a2", "b2b0", "b2b1", "b2b3", "b2b4"];
        m.extend(["b2c2", "b2d2", "b2e2", "b2f2", "b2g2", "b2h2", "b2i2"]);
        m
    });
}

#[test]
fn pawn_before_and_after_the_river_and_on_the_last_rank() {
    let text = "2P1k4/9/9/9/4P4/9/P8/9/9/3K5 w";
    check_case(text, "a3", &["a3a4"]);
    check_case(text, "e5", &["e5e6", "e5d5", "e5f5"]);
    check_case(text, "c9", &["c9b9", "c9d9"]);
}

#[test]
fn king_and_advisor_stay_in_the_palace() {
    check_case("3k5/9/9/9/9/9/9/9/9/3AK4 w", "d0", &["d0e1"]);
    check_case(
        "3k5/9/9/9/9/9/9/9/4A4/5K3 w",
        "e1",
        &["e1d0", "e1d2", "e1f2"],
    );
    check_case("3k5/9/9/9/9/9/9/9/9/5K3 w", "f0", &["f0e0", "f0f1"]);
}

#[test]
fn king_may_not_step_onto_an_open_file_facing_the_other() {
    check_case("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0", &["e0e1", "e0f0"]);
}

#[test]
fn kings_facing_is_check() {
    let p = pos("9/4k4/9/9/4N4/9/9/9/4K4/9 w");
    let mut board = BitboardGen.load(&p);
    assert!(!BitboardGen.king_attacked(&board, Color::Red));
    let mv: Move = "e5d7".parse().expect("test move");
    let undo = BitboardGen.make(&mut board, mv);
    assert!(BitboardGen.king_attacked(&board, Color::Red));
    assert!(BitboardGen.king_attacked(&board, Color::Black));
    BitboardGen.unmake(&mut board, mv, undo);
    assert_eq!(BitboardGen.to_setup(&board), *p.setup());
}

#[test]
fn the_only_piece_between_the_kings_is_pinned() {
    let p = pos("9/4k4/9/9/4N4/9/9/9/4K4/9 w");
    let (legal, pseudo) = moves_from(&p, "e5");
    assert!(legal.is_empty(), "{legal:?}");
    assert_eq!(pseudo.len(), 8);
    check_case(
        "9/4k4/9/9/4N4/9/9/9/4K4/9 w",
        "e1",
        &["e1d1", "e1e0", "e1e2", "e1f1"],
    );
    // A cannon between may still slide along the file (without a screen it cannot
    // take the king).
    check_case(
        "9/4k4/9/9/4C4/9/9/9/4K4/9 w",
        "e5",
        &["e5e2", "e5e3", "e5e4", "e5e6", "e5e7"],
    );
}

#[test]
fn cannon_check_through_a_screen_is_seen() {
    // The horse on e5 is the screen between the cannon on e7 and the king on e1...
    let p = pos("3k5/9/4c4/9/4N4/9/9/9/4K4/9 w");
    let board = BitboardGen.load(&p);
    assert!(BitboardGen.in_check(&board));
    // ...and putting a second piece between lifts the check.
    let p = pos("3k5/9/4c4/9/4N4/9/4R4/9/4K4/9 w");
    assert!(!BitboardGen.in_check(&BitboardGen.load(&p)));
    // A rook stepping in to become the only screen would give check, so it may not.
    let p = pos("5k3/9/4c4/9/9/9/9/3R5/4K4/9 w");
    let (legal, pseudo) = moves_from(&p, "d2");
    assert!(pseudo.contains(&"d2e2".to_string()) && !legal.contains(&"d2e2".to_string()));
}

#[test]
fn counters_survive_load_make_unmake() {
    let p = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 7 42");
    let mut board = BitboardGen.load(&p);
    assert_eq!(BitboardGen.to_setup(&board), *p.setup());
    let mv: Move = "h7h0".parse().expect("test move");
    let undo = BitboardGen.make(&mut board, mv);
    let after = BitboardGen.to_setup(&board);
    assert_eq!(
        (after.halfmoves, after.fullmoves, after.turn),
        (7, 42, Color::Red)
    );
    assert_eq!(
        after.board[mv.to.index()],
        Some(Piece::new(Color::Black, Role::Cannon))
    );
    BitboardGen.unmake(&mut board, mv, undo);
    assert_eq!(BitboardGen.to_setup(&board), *p.setup());
}

/// The shortcut in `gen_legal` (no make for moves away from the king's lines), and
/// `count_two_plies`, against the plain rule: make each pseudo-legal move and ask the
/// check detector.
fn compare_tree(board: &mut Board, depth: u32) {
    let mut fast = MoveList::new();
    BitboardGen.legal(board, &mut fast);
    let mut slow = Vec::new();
    let mut pseudo = MoveList::new();
    BitboardGen.pseudo_legal(board, &mut pseudo);
    let us = board.turn;
    let before = BitboardGen.to_setup(board);
    for &mv in pseudo.iter() {
        let undo = BitboardGen.make(board, mv);
        if !BitboardGen.king_attacked(board, us) {
            slow.push(mv);
        }
        BitboardGen.unmake(board, mv, undo);
        assert_eq!(BitboardGen.to_setup(board), before);
    }
    let fast_sorted = sorted(fast.to_vec());
    assert_eq!(fast_sorted, sorted(slow), "{}", fen::format(&before));
    assert_eq!(BitboardGen.count_legal(board), fast.len() as u64);
    // perft(2) from the pieces' reach worked out once, against a count after each move.
    let mut two = 0;
    for &mv in fast.iter() {
        let undo = BitboardGen.make(board, mv);
        two += BitboardGen.count_legal(board);
        BitboardGen.unmake(board, mv, undo);
    }
    assert_eq!(
        BitboardGen.count_two_plies(board),
        two,
        "{}",
        fen::format(&before)
    );
    assert_eq!(BitboardGen.to_setup(board), before);
    if depth > 0 {
        for &mv in fast.iter() {
            let undo = BitboardGen.make(board, mv);
            compare_tree(board, depth - 1);
            BitboardGen.unmake(board, mv, undo);
        }
    }
}

#[test]
fn shortcut_agrees_with_make_and_check_on_the_suite() {
    let suite = crate::epd::parse_suite(include_str!("../../../tests/data/xiangqi-perft.epd"))
        .expect("suite parses");
    for entry in &suite {
        compare_tree(&mut BitboardGen.load(&entry.position), 2);
    }
}

/// Long random games reach the thin, open endgames where lines and legs to the king
/// matter most; each node is compared as above, one ply deep.
#[test]
fn shortcut_agrees_with_make_and_check_in_random_games() {
    let suite = crate::epd::parse_suite(include_str!("../../../tests/data/xiangqi-perft.epd"))
        .expect("suite parses");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for entry in &suite {
        for _ in 0..100 {
            let mut board = BitboardGen.load(&entry.position);
            for _ in 0..150 {
                compare_tree(&mut board, 0);
                let mut list = MoveList::new();
                BitboardGen.legal(&mut board, &mut list);
                if list.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let pick = (seed >> 33) as usize % list.len();
                BitboardGen.make(&mut board, list[pick]);
            }
        }
    }
}
