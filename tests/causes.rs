//! Bugs outside the catalogue of rule variants, planted in a library one at a time: a
//! cause is named only when the subject's answers to further questions confirm it, so
//! each is either named by what its differences share (`unexplained-<piece>-moves`, the
//! check test, a list cut by count) or by a variant it really is, never by a variant a
//! question refutes, and one bug is one finding. New realistic mistakes, written here
//! and nowhere else; and a subject whose answers do not repeat is one finding of noise.

use std::collections::BTreeSet;
use xqdiff::generators::naive::NaiveGen;
use xqdiff::subject::external::placed;
use xqdiff::subject::library::{check_library, Library, LibraryCheck};
use xqdiff::{Color, Move, MoveGen, MoveList, Position, Role, Setup, Square};

/// A mistake: the library's legal moves from the rules' ones on a position.
type Mistake = fn(&Position, Vec<Move>) -> Vec<Move>;

/// A library whose lists are the rules' with mistakes made in them.
struct Mistaken {
    mistakes: Vec<Mistake>,
    board: Option<Position>,
    /// How many lists it has given, for a library whose answers do not repeat.
    answers: u64,
    noisy: bool,
}

impl Mistaken {
    fn new(mistakes: &[Mistake]) -> Mistaken {
        Mistaken {
            mistakes: mistakes.to_vec(),
            board: None,
            answers: 0,
            noisy: false,
        }
    }
}

impl Library for Mistaken {
    fn set_position(&mut self, fen: &str) -> Result<(), String> {
        self.board = Some(Position::from_fen(fen).map_err(|e| e.to_string())?);
        Ok(())
    }
    fn legal_moves(&mut self) -> Vec<Move> {
        let Some(pos) = &self.board else {
            return Vec::new();
        };
        let mut moves = legal(pos);
        for mistake in &self.mistakes {
            moves = mistake(pos, moves);
        }
        self.answers += 1;
        if self.noisy && self.answers % 2 == 0 {
            moves.pop();
        }
        moves
    }
    fn make(&mut self, mv: Move) -> Result<(), String> {
        let pos = self.board.take().ok_or("no board")?;
        let mut s = pos.setup().clone();
        s.board[mv.to.index()] = s.board[mv.from.index()].take();
        s.turn = s.turn.other();
        self.board = Some(Position::new(s).map_err(|e| e.to_string())?);
        Ok(())
    }
}

/// The rules' legal moves, in the naive generator's order.
fn legal(pos: &Position) -> Vec<Move> {
    let mut board = NaiveGen.load(pos);
    let mut list = MoveList::new();
    NaiveGen.legal(&mut board, &mut list);
    list.iter().copied().collect()
}

/// The piece's kind on the move's from point.
fn mover(pos: &Position, mv: Move) -> Option<Role> {
    pos.setup().piece_at(mv.from).map(|p| p.role)
}

/// An advisor's table of steps that lists only empty points: it never captures.
fn advisor_never_captures(pos: &Position, moves: Vec<Move>) -> Vec<Move> {
    let s = pos.setup();
    moves
        .into_iter()
        .filter(|&m| !(mover(pos, m) == Some(Role::Advisor) && s.piece_at(m.to).is_some()))
        .collect()
}

/// A rook's slide loop bound one short (`file < 8`): it never reaches file i.
fn rook_stops_before_file_i(pos: &Position, moves: Vec<Move>) -> Vec<Move> {
    moves
        .into_iter()
        .filter(|&m| !(mover(pos, m) == Some(Role::Rook) && m.to.file() == 8 && m.from.file() != 8))
        .collect()
}

/// A horse's table with its four jumps toward its own side left out.
fn horse_never_jumps_back(pos: &Position, moves: Vec<Move>) -> Vec<Move> {
    let red = pos.turn() == Color::Red;
    moves
        .into_iter()
        .filter(|&m| {
            let back = if red {
                m.to.rank() < m.from.rank()
            } else {
                m.to.rank() > m.from.rank()
            };
            !(mover(pos, m) == Some(Role::Horse) && back)
        })
        .collect()
}

/// A move list in a fixed array of 24: the rest is dropped.
fn list_cut_at_24(_: &Position, mut moves: Vec<Move>) -> Vec<Move> {
    moves.truncate(24);
    moves
}

/// A check test that walks a rook's lines along the file only: a rook's check along the
/// king's rank is not seen, so a move may leave the king in one, or step into one.
fn check_sees_rooks_on_the_file_only(pos: &Position, _: Vec<Move>) -> Vec<Move> {
    legal_by(pos, |s, us| {
        let Some(king) = s.king(us) else {
            return true;
        };
        let seen = s.checkers(us).into_iter().any(|sq| {
            let rook = s.piece_at(sq).is_some_and(|p| p.role == Role::Rook);
            !(rook && sq.rank() == king.rank())
        });
        seen || s.kings_facing()
    })
}

/// A horse's jump table built with the elephant's river test: it never jumps across.
fn horse_never_crosses_the_river(pos: &Position, moves: Vec<Move>) -> Vec<Move> {
    moves
        .into_iter()
        .filter(|&m| {
            let across = (m.from.rank() <= 4) != (m.to.rank() <= 4);
            !(mover(pos, m) == Some(Role::Horse) && across)
        })
        .collect()
}

/// The rules' pseudo-legal moves, in the naive generator's order.
fn pseudo_legal(pos: &Position) -> Vec<Move> {
    let board = NaiveGen.load(pos);
    let mut list = MoveList::new();
    NaiveGen.pseudo_legal(&board, &mut list);
    list.iter().copied().collect()
}

/// The moves of `moves` after which the library's own test (`attacked`) finds the
/// mover's king safe.
fn safe(pos: &Position, moves: Vec<Move>, attacked: impl Fn(&Setup, Color) -> bool) -> Vec<Move> {
    moves
        .into_iter()
        .filter(|&m| placed(pos, m).is_some_and(|s| !attacked(&s, pos.turn())))
        .collect()
}

/// The rules' legal moves filtered by another test of whether the mover's king is
/// attacked after each pseudo-legal move.
fn legal_by(pos: &Position, attacked: impl Fn(&Setup, Color) -> bool) -> Vec<Move> {
    safe(pos, pseudo_legal(pos), attacked)
}

/// A pawn-attack table whose forward row has its sign flipped: an enemy pawn is looked
/// for on the king's file one rank on the wrong side; sideways checks are right.
fn check_reads_the_pawns_forward_check_flipped(pos: &Position, _: Vec<Move>) -> Vec<Move> {
    legal_by(pos, |s, us| {
        let Some(king) = s.king(us) else {
            return true;
        };
        let pawn_on_file = |sq: Square| {
            s.piece_at(sq).is_some_and(|p| p.role == Role::Pawn) && sq.file() == king.file()
        };
        let seen = s.checkers(us).into_iter().any(|sq| !pawn_on_file(sq));
        // The enemy pawn's forward step, taken the other way from its point, lands on
        // the king: for Red's king, a Black pawn just below it.
        let behind = match us {
            Color::Red => king.rank().checked_sub(1),
            Color::Black => Some(king.rank() + 1).filter(|&r| r <= 9),
        };
        let flipped = behind
            .and_then(|rank| Square::new(king.file(), rank))
            .and_then(|sq| s.piece_at(sq))
            .is_some_and(|p| p.role == Role::Pawn && p.color != us);
        seen || flipped || s.kings_facing()
    })
}

/// A scan between the kings that starts one point too far: a single piece between them
/// is not seen, so the kings count as facing across it.
fn facing_scan_skips_one_piece(pos: &Position, _: Vec<Move>) -> Vec<Move> {
    legal_by(pos, |s, us| {
        let (Some(red), Some(black)) = (s.king(Color::Red), s.king(Color::Black)) else {
            return true;
        };
        let near = red.file() == black.file() && s.pieces_between(red, black) <= Some(1);
        !s.checkers(us).is_empty() || near
    })
}

/// Whether the cannon on `from` takes what stands on `to` along a rank the way this
/// library reads it: over two screens, not one.
fn rank_capture_misread(s: &Setup, from: Square, to: Square) -> bool {
    from.rank() == to.rank() && s.pieces_between(from, to) == Some(2)
}

/// A cannon rule written once and used by the move list and the check test alike, with
/// its capture along a rank looking for two screens instead of one.
fn cannon_rank_capture_needs_two_screens(pos: &Position, _: Vec<Move>) -> Vec<Move> {
    let s: &Setup = pos.setup();
    let us = pos.turn();
    let is_cannon = |sq: Square, color: Color| {
        s.piece_at(sq)
            .is_some_and(|p| p.role == Role::Cannon && p.color == color)
    };
    // The rules' pseudo-legal moves without the cannon's one-screen captures along a
    // rank, with its two-screen ones.
    let mut moves: Vec<Move> = pseudo_legal(pos)
        .into_iter()
        .filter(|m| {
            let rank_capture =
                is_cannon(m.from, us) && m.from.rank() == m.to.rank() && s.piece_at(m.to).is_some();
            !rank_capture
        })
        .collect();
    for from in Square::all().filter(|&sq| is_cannon(sq, us)) {
        for to in Square::all() {
            let target = s.piece_at(to).is_some_and(|p| p.color != us);
            if target && rank_capture_misread(s, from, to) {
                // Two pieces between: `to` is the first past the second screen.
                moves.push(Move::new(from, to));
            }
        }
    }
    // Legal by the same reading: a cannon checks along a rank over two screens.
    safe(pos, moves, |a, us| {
        let Some(king) = a.king(us) else {
            return true;
        };
        let other_check = a.checkers(us).into_iter().any(|sq| {
            let cannon_on_rank =
                a.piece_at(sq).is_some_and(|p| p.role == Role::Cannon) && sq.rank() == king.rank();
            !cannon_on_rank
        });
        let cannon_by_misreading = Square::all().any(|sq| {
            a.piece_at(sq)
                .is_some_and(|p| p.role == Role::Cannon && p.color != us)
                && rank_capture_misread(a, sq, king)
        });
        other_check || cannon_by_misreading || a.kings_facing()
    })
}

/// The signatures of a check of `lib` at `depth` on `positions` random positions.
fn findings(lib: &mut Mistaken, depth: u32, positions: usize, seed: u64) -> Vec<String> {
    let check = LibraryCheck {
        depth,
        positions,
        seed,
        ..LibraryCheck::default()
    };
    let report = check_library(lib, &check).expect("the check runs");
    report
        .findings
        .iter()
        .map(|f| f.signature.to_string())
        .collect()
}

#[test]
fn bugs_outside_the_catalogue_are_one_finding_each_and_never_a_refuted_variant() {
    // Each row: the bug, its mistakes, the depth asked (a capture by an advisor is
    // rare at the root), and the findings it must give.
    let table: &[(&str, &[Mistake], u32, &[&str])] = &[
        (
            "an advisor never captures",
            &[advisor_never_captures],
            2,
            &["unexplained-advisor-moves/subject"],
        ),
        // Right on one wing and wrong on the other: the mirror shows it.
        (
            "a rook never reaches file i",
            &[rook_stops_before_file_i],
            1,
            &["asymmetric/subject"],
        ),
        (
            "a horse never jumps back",
            &[horse_never_jumps_back],
            1,
            &["unexplained-horse-moves/subject"],
        ),
        (
            "a list cut at 24 moves",
            &[list_cut_at_24],
            1,
            &["list-cut-at-count/subject"],
        ),
        (
            "a check test blind to a rook along the rank",
            &[check_sees_rooks_on_the_file_only],
            1,
            &["unexplained-check-test/subject"],
        ),
        // One cannon rule read by the moves and the check test alike: its missed
        // checks and the moves it forbids for fear of them are the cannon's finding.
        (
            "a cannon's capture along a rank needs two screens, in moves and checks",
            &[cannon_rank_capture_needs_two_screens],
            1,
            &["unexplained-cannon-moves/subject"],
        ),
        // Two bugs are still two findings.
        (
            "a horse never jumps back and a rook never reaches file i",
            &[horse_never_jumps_back, rook_stops_before_file_i],
            1,
            &["unexplained-horse-moves/subject", "asymmetric/subject"],
        ),
    ];
    let mut wrong = Vec::new();
    for &(bug, mistakes, depth, want) in table {
        let got = findings(&mut Mistaken::new(mistakes), depth, 30, 1);
        let got: BTreeSet<&str> = got.iter().map(String::as_str).collect();
        let want: BTreeSet<&str> = want.iter().copied().collect();
        if got != want {
            wrong.push(format!("{bug}: {got:?}, not {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn mistakes_the_catalogue_holds_are_named_by_it_one_finding_each() {
    // Written here as a library's own mistakes, not by the catalogue's generators: the
    // cause has to be found in the answers.
    let table: &[(&str, Mistake, u32, &str)] = &[
        (
            "a horse never crosses the river",
            horse_never_crosses_the_river,
            1,
            "cause/subject/horse-stops-at-river",
        ),
        (
            "a pawn's forward check looked for on the wrong side",
            check_reads_the_pawns_forward_check_flipped,
            1,
            "cause/subject/check-pawn-forward-reversed",
        ),
        (
            "a kings-facing scan that misses one piece between",
            facing_scan_skips_one_piece,
            1,
            "cause/subject/kings-facing-through-one-piece",
        ),
    ];
    let mut wrong = Vec::new();
    for &(bug, mistake, depth, want) in table {
        let got = findings(&mut Mistaken::new(&[mistake]), depth, 30, 1);
        if got != [want] {
            wrong.push(format!("{bug}: {got:?}, not [{want:?}]"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn a_subject_whose_answers_do_not_repeat_is_one_finding_of_noise_on_every_seed() {
    for seed in 1..=5 {
        let mut lib = Mistaken::new(&[]);
        lib.noisy = true;
        let got = findings(&mut lib, 1, 10, seed);
        assert_eq!(got, ["nondeterministic/subject"], "seed {seed}");
    }
}

#[test]
fn a_seed_gives_the_same_findings_on_three_runs() {
    let runs: Vec<Vec<String>> = (0..3)
        .map(|_| {
            findings(
                &mut Mistaken::new(&[horse_never_jumps_back, list_cut_at_24]),
                1,
                20,
                1,
            )
        })
        .collect();
    assert!(!runs[0].is_empty());
    assert!(runs.iter().all(|r| r == &runs[0]), "{runs:?}");
}
