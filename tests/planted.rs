//! Proof that the harness catches bugs: a generator with one planted rule bug (a
//! wrapper around the naive generator that adds or drops moves the way a typical bug
//! would) must be found by the campaign within a few thousand cases, named as the odd
//! one out, and minimized to at most five pieces, kings included.

use std::sync::atomic::AtomicBool;
use xqdiff::campaign::{self, Config, Source};
use xqdiff::generators::{bitboard::BitboardGen, mailbox::MailboxGen, naive::NaiveGen};
use xqdiff::{Color, Engine, Move, MoveGen, MoveList, Piece, Role, Setup, Square};

#[derive(Clone, Copy, Debug)]
enum Bug {
    /// No bug: the wrapper then only exercises the trait's default methods.
    None,
    CannonCannotCapture,
    HorseLegIgnored,
    ElephantCrossesRiver,
    ElephantEyeIgnored,
    PawnSidewaysBeforeRiver,
    KingLeavesPalace,
    RookJumpsOne,
}

struct Planted(Bug);

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
    fn load(&self, pos: &xqdiff::Position) -> Self::Board {
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

#[test]
fn every_planted_bug_is_found_and_minimized() {
    let bugs = [
        Bug::CannonCannotCapture,
        Bug::HorseLegIgnored,
        Bug::ElephantCrossesRiver,
        Bug::ElephantEyeIgnored,
        Bug::PawnSidewaysBeforeRiver,
        Bug::KingLeavesPalace,
        Bug::RookJumpsOne,
    ];
    let mut summary = Vec::new();
    for bug in bugs {
        let planted = Planted(bug);
        let engines: Vec<&dyn Engine> = vec![&MailboxGen, &BitboardGen, &planted];
        let config = Config {
            seed: 11,
            cases: Some(4000),
            duration: None,
            source: Source::Arbitrary,
            stop_on_first: true,
            ..Config::default()
        };
        let report = campaign::run(&config, &engines, &AtomicBool::new(false), &|_, _| {});
        let f = report
            .findings
            .first()
            .unwrap_or_else(|| panic!("{bug:?} not found in {} cases", report.cases));
        let pieces = f.minimized.pieces().count();
        summary.push(format!(
            "{bug:?}: case {}, {} -> {pieces} pieces: {}",
            f.case,
            f.original.pieces().count(),
            f.minimized.fen()
        ));
        assert_eq!(
            f.disagreement.odd_one_out.as_deref(),
            Some("planted"),
            "{bug:?}: {}",
            f.disagreement
        );
        assert!(
            pieces <= 5,
            "{bug:?} minimized only to {pieces} pieces: {}",
            f.minimized.fen()
        );
    }
    println!("{}", summary.join("\n"));
}

/// The wrapper without a bug uses MoveGen's default `legal`, `count_legal`, `in_check`
/// and `captured`, which the three built-in generators override or share; the published
/// counts hold them to the rules.
#[test]
fn trait_defaults_reproduce_published_counts() {
    let g = Planted(Bug::None);
    let start = xqdiff::Position::startpos();
    assert_eq!(xqdiff::perft::perft(&g, &mut g.load(&start), 3), 79_666);
    let mated = xqdiff::Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b").unwrap();
    let probe = g.probe(&mated);
    assert!(probe.in_check && probe.legal.is_empty());
    let capture = xqdiff::Position::from_fen("4k4/9/9/9/9/9/9/9/9/R1nK5 w").unwrap();
    let taken: Vec<_> = g
        .probe(&capture)
        .legal
        .iter()
        .filter_map(|l| l.captured)
        .collect();
    assert_eq!(taken, vec![Piece::new(Color::Black, Role::Horse)]);
}
