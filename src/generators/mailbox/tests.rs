//! Hand-made positions, one or two per piece rule, each also played from Black's side
//! (colours swapped, board turned) so both tags and both pawn directions are covered.

use super::*;
use crate::fen;

fn position(fen_text: &str) -> Position {
    fen::parse(fen_text).unwrap_or_else(|e| panic!("{fen_text}: {e}"))
}

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    let mut v: Vec<String> = moves.into_iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn flip(expected: &[&str]) -> Vec<String> {
    sorted(
        expected
            .iter()
            .map(|m| m.parse::<Move>().unwrap().flip_ranks()),
    )
}

/// Pseudo-legal and legal moves of the piece on `from`.
fn moves_of(pos: &Position, from: Square) -> (Vec<String>, Vec<String>) {
    let g = MailboxGen;
    let mut board = g.load(pos);
    let mut pseudo = MoveList::new();
    g.pseudo_legal(&board, &mut pseudo);
    let mut legal = MoveList::new();
    g.legal(&mut board, &mut legal);
    assert_eq!(g.count_legal(&mut board), legal.len() as u64, "{pos}");
    let pick = |l: &MoveList| sorted(l.iter().copied().filter(|m| m.from == from));
    (pick(&pseudo), pick(&legal))
}

/// Checks the moves of the piece on `from` in `fen_text` and in its colour-swapped twin.
fn expect(fen_text: &str, from: &str, pseudo: &[&str], legal: &[&str]) {
    let pos = position(fen_text);
    let from: Square = from.parse().unwrap();
    let (p, l) = moves_of(&pos, from);
    assert_eq!(
        p,
        sorted(pseudo.iter().map(|m| m.parse::<Move>().unwrap())),
        "pseudo {fen_text}"
    );
    assert_eq!(
        l,
        sorted(legal.iter().map(|m| m.parse::<Move>().unwrap())),
        "legal {fen_text}"
    );
    let twin = Position::new(pos.setup().swap_colors()).unwrap();
    let (p, l) = moves_of(&twin, from.flip_ranks());
    assert_eq!(p, flip(pseudo), "pseudo, swapped {fen_text}");
    assert_eq!(l, flip(legal), "legal, swapped {fen_text}");
}

#[test]
fn horse_leg_blocks_two_targets() {
    let m = ["c2a1", "c2a3", "c2b0", "c2e1", "c2e3"];
    expect("4k4/9/9/9/9/9/2P6/2N6/9/3K5 w", "c2", &m, &m);
}

#[test]
fn elephant_eye_blocks_and_river_stops() {
    let m = ["e2g0", "e2c4"];
    expect("4k4/9/9/9/9/9/5p3/4B4/3N5/3K5 w", "e2", &m, &m);
    let m = ["c4a2", "c4e2"];
    expect("4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4", &m, &m);
}

#[test]
fn cannon_needs_one_screen_to_capture() {
    let m = [
        "b2a2", "b2b0", "b2b1", "b2b3", "b2b4", "b2b8", "b2c2", "b2d2", "b2h2",
    ];
    expect("4k4/1r7/9/9/1n7/9/9/1C2N2c1/9/3K5 w", "b2", &m, &m);
    // Beyond the screen an own piece cannot be taken, and two screens take nothing.
    let m = ["a2a1", "a2a0", "a2b2", "a2c2"];
    expect("4k4/9/9/9/R8/9/P8/C2RN1n2/9/3K5 w", "a2", &m, &m);
}

#[test]
fn pawn_steps_sideways_only_across_the_river() {
    let fen_text = "P2k5/9/9/4P4/9/9/2P6/9/9/4K4 w";
    expect(fen_text, "c3", &["c3c4"], &["c3c4"]);
    let m = ["e6d6", "e6e7", "e6f6"];
    expect(fen_text, "e6", &m, &m);
    // On the last rank only sideways; never back.
    expect(fen_text, "a9", &["a9b9"], &["a9b9"]);
}

#[test]
fn king_stays_in_palace_and_may_not_face_the_other() {
    expect(
        "3k5/9/9/9/9/9/9/9/9/4K4 w",
        "e0",
        &["e0d0", "e0e1", "e0f0"],
        &["e0e1", "e0f0"],
    );
    // The advisor on e1 stands between the kings, so the king may step onto the e file.
    let m = ["d0d1", "d0e0"];
    expect("4k4/9/9/9/9/9/9/9/4A4/3K5 w", "d0", &m, &m);
    let m = ["e1d0", "e1d2", "e1f0", "e1f2"];
    expect("4k4/9/9/9/9/9/9/9/4A4/3K5 w", "e1", &m[1..], &m[1..]);
}

#[test]
fn moving_the_only_piece_between_the_kings_is_illegal() {
    let pseudo = [
        "e4c3", "e4c5", "e4d2", "e4d6", "e4f2", "e4f6", "e4g3", "e4g5",
    ];
    expect("4k4/9/9/9/9/4N4/9/9/9/4K4 w", "e4", &pseudo, &[]);
    expect(
        "4k4/9/9/9/9/4N4/9/9/9/4K4 w",
        "e0",
        &["e0d0", "e0e1", "e0f0"],
        &["e0d0", "e0e1", "e0f0"],
    );
}

#[test]
fn check_detector_finds_each_attacker() {
    let cases = [
        ("4k4/9/3N5/9/9/9/9/9/9/3K5 b", true),
        ("4k4/3n5/3N5/9/9/9/9/9/9/3K5 b", false),
        ("4k4/2N6/9/9/9/9/9/9/9/3K5 b", true),
        ("4k4/2Nn5/9/9/9/9/9/9/9/3K5 b", false),
        ("4k4/4P4/9/9/9/9/9/9/9/3K5 b", true),
        ("3Pk4/9/9/9/9/9/9/9/9/3K5 b", true),
        ("4P4/4k4/9/9/9/9/9/9/9/3K5 b", false),
        ("R3k4/9/9/9/9/9/9/9/9/3K5 b", true),
        ("R2ak4/9/9/9/9/9/9/9/9/3K5 b", false),
        ("C2ak4/9/9/9/9/9/9/9/9/3K5 b", true),
        ("C3k4/9/9/9/9/9/9/9/9/3K5 b", false),
        ("Cn1ak4/9/9/9/9/9/9/9/9/3K5 b", false),
    ];
    let g = MailboxGen;
    for (fen_text, check) in cases.iter() {
        let pos = position(fen_text);
        assert_eq!(g.in_check(&g.load(&pos)), *check, "{fen_text}");
        assert!(
            !g.king_attacked(&g.load(&pos), pos.turn().other()),
            "{fen_text}"
        );
        let twin = Position::new(pos.setup().swap_colors()).unwrap();
        assert_eq!(g.in_check(&g.load(&twin)), *check, "swapped {fen_text}");
    }
    // A king stepping onto the open file is attacked, and so is the other one.
    let mut board = g.load(&position("3k5/9/9/9/9/9/9/9/9/4K4 w"));
    g.make(&mut board, "e0d0".parse().unwrap());
    assert!(g.king_attacked(&board, Color::Red));
    assert!(g.king_attacked(&board, Color::Black));
}

#[test]
fn landing_in_front_of_a_cannon_gives_it_a_screen() {
    let fen_text = "3k5/9/9/9/4c4/9/R8/2N6/9/4K4 w";
    let horse = ["c2a1", "c2b0", "c2b4", "c2d0", "c2d4", "c2e1", "c2e3"];
    expect(fen_text, "c2", &horse, &horse[..5]);
    let (pseudo, legal) = moves_of(&position(fen_text), "a3".parse().unwrap());
    assert_eq!(pseudo.len(), 17);
    assert_eq!(legal.len(), 16);
    assert!(!legal.contains(&"a3e3".to_string()));
}

#[test]
fn make_unmake_restores_every_board_and_counters() {
    let g = MailboxGen;
    let pos = position("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 7 31");
    let mut board = g.load(&pos);
    assert_eq!(&g.to_setup(&board), pos.setup());
    let mut list = MoveList::new();
    g.legal(&mut board, &mut list);
    for &a in list.iter() {
        let ua = g.make(&mut board, a);
        let mid = g.to_setup(&board);
        assert_eq!((mid.halfmoves, mid.fullmoves), (7, 31));
        assert_eq!(g.turn(&board), Color::Black);
        let mut replies = MoveList::new();
        g.legal(&mut board, &mut replies);
        for &b in replies.iter() {
            let ub = g.make(&mut board, b);
            g.unmake(&mut board, b, ub);
            assert_eq!(g.to_setup(&board), mid, "{a} {b}");
        }
        g.unmake(&mut board, a, ua);
        assert_eq!(&g.to_setup(&board), pos.setup(), "{a}");
    }
}
