//! Property tests over positions decoded from arbitrary bytes by `structured::from_bytes`,
//! the same decoder the fuzz targets use (`features::tests` shows it reaches every rare
//! rule case).
//!
//! Each property runs through one helper, [`check`], that drives proptest by hand: when a
//! property fails, proptest shrinks the bytes, and the shrunk position is written to the
//! regression corpus (`$XQDIFF_CORPUS_DIR`, else `corpus/`) before the test fails, so the
//! finding is replayed forever. Proptest keeps its own seeds in
//! `tests/properties.proptest-regressions`.
//!
//! `PROPTEST_CASES` overrides the number of cases; the default keeps the file quick.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
use std::collections::BTreeSet;
use std::path::PathBuf;
use xqdiff::cases::structured;
use xqdiff::diff::corpus::{self, Case};
use xqdiff::diff::oracle;
use xqdiff::generators::{self, EachGenerator};
use xqdiff::{Color, Move, MoveGen, MoveList, Position, Setup};

/// Cases per property unless `PROPTEST_CASES` says otherwise.
const DEFAULT_CASES: u32 = 256;

/// Runs `property` on positions decoded from up to 120 random bytes. On failure, writes
/// the shrunk position to the corpus, then panics with proptest's report.
fn check(name: &'static str, property: impl Fn(&Position) -> Result<(), String>) {
    let mut config = Config {
        source_file: Some(file!()),
        test_name: Some(name),
        ..Config::default()
    };
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
    }
    let mut runner = TestRunner::new(config);
    let bytes = proptest::collection::vec(any::<u8>(), 0..120);
    let result = runner.run(&bytes, |bytes| {
        property(&structured::from_bytes(&bytes)).map_err(TestCaseError::fail)
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, bytes)) => {
            let pos = structured::from_bytes(&bytes);
            let saved = match save_case(name, &pos, &reason.to_string(), &bytes) {
                Ok((path, true)) => format!("corpus case written: {}", path.display()),
                Ok((path, false)) => format!("corpus case already there: {}", path.display()),
                Err(e) => format!("could not write the corpus case: {e}"),
            };
            panic!(
                "property {name} fails on {}\n  bytes: {bytes:?}\n  why: {reason}\n  {saved}\n{runner}",
                pos.fen()
            );
        }
        Err(e) => panic!("property {name}: {e}\n{runner}"),
    }
}

fn corpus_dir() -> PathBuf {
    std::env::var_os("XQDIFF_CORPUS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus"))
}

fn save_case(
    name: &str,
    pos: &Position,
    why: &str,
    bytes: &[u8],
) -> std::io::Result<(PathBuf, bool)> {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let case = Case {
        position: pos.clone(),
        notes: vec![
            ("check".to_owned(), name.to_owned()),
            ("detail".to_owned(), why.to_owned()),
            ("bytes".to_owned(), hex),
            ("found-by".to_owned(), format!("proptest {name}")),
        ],
    };
    corpus::write_case(&corpus_dir(), &case)
}

fn pseudo_legal<G: MoveGen>(g: &G, board: &G::Board) -> BTreeSet<Move> {
    let mut list = MoveList::new();
    g.pseudo_legal(board, &mut list);
    list.iter().copied().collect()
}

fn legal<G: MoveGen>(g: &G, pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    g.legal(&mut g.load(pos), &mut list);
    list.to_vec()
}

/// Whether `g`'s detector, on a fresh board loaded from `pos`, says `color` is attacked.
fn attacked<G: MoveGen>(g: &G, pos: &Position, color: Color) -> bool {
    g.king_attacked(&g.load(pos), color)
}

/// The names of the generators whose detectors say `color`'s king is attacked in `pos`.
fn detectors_saying_attacked(pos: &Position, color: Color) -> Vec<&'static str> {
    struct Ask<'a> {
        pos: &'a Position,
        color: Color,
        out: Vec<&'static str>,
    }
    impl EachGenerator for Ask<'_> {
        fn visit<G: MoveGen + 'static>(&mut self, g: &G) {
            if attacked(g, self.pos, self.color) {
                self.out.push(g.name());
            }
        }
    }
    let mut ask = Ask {
        pos,
        color,
        out: Vec::new(),
    };
    generators::for_each(&mut ask);
    ask.out
}

/// A property of one generator on one position.
#[derive(Clone, Copy)]
enum Property {
    MakeUnmake,
    LegalSafe,
    Symmetric,
}

/// Whether every registered generator has `property` on `pos`; the first that does not
/// says why.
fn every_generator(property: Property, pos: &Position) -> Result<(), String> {
    struct Each<'a> {
        property: Property,
        pos: &'a Position,
        result: Result<(), String>,
    }
    impl EachGenerator for Each<'_> {
        fn visit<G: MoveGen + 'static>(&mut self, g: &G) {
            if self.result.is_ok() {
                self.result = match self.property {
                    Property::MakeUnmake => make_unmake_is_identity(g, self.pos),
                    Property::LegalSafe => legal_moves_are_safe_pseudo_legal_moves(g, self.pos),
                    Property::Symmetric => legal_moves_are_symmetric(g, self.pos),
                };
            }
        }
    }
    let mut each = Each {
        property,
        pos,
        result: Ok(()),
    };
    generators::for_each(&mut each);
    each.result
}

/// Make then unmake of every pseudo-legal move gives back the loaded board, and make
/// passes the move to the other side.
fn make_unmake_is_identity<G: MoveGen>(g: &G, pos: &Position) -> Result<(), String> {
    let name = g.name();
    let mut board = g.load(pos);
    let start = pos.setup();
    if g.to_setup(&board) != *start {
        return Err(format!("{name} reads back {}", g.to_setup(&board)));
    }
    let moves = pseudo_legal(g, &board);
    for &mv in &moves {
        let undo = g.make(&mut board, mv);
        if g.turn(&board) != start.turn.other() {
            return Err(format!(
                "{name}: after {mv} it is still {}'s move",
                start.turn
            ));
        }
        g.unmake(&mut board, mv, undo);
        let back = g.to_setup(&board);
        if back != *start {
            return Err(format!("{name}: make+unmake {mv} gives {back}"));
        }
    }
    // Hidden state (piece lists, occupancy) that to_setup does not show must come back too.
    if pseudo_legal(g, &board) != moves {
        return Err(format!(
            "{name}: pseudo-legal moves differ after making and unmaking them all"
        ));
    }
    Ok(())
}

/// Legal moves are pseudo-legal ones; after each, no detector (any generator's, and
/// validation's) says the mover's king is attacked; and each pseudo-legal move left out
/// does leave it attacked by validation's own detector.
fn legal_moves_are_safe_pseudo_legal_moves<G: MoveGen>(
    g: &G,
    pos: &Position,
) -> Result<(), String> {
    let name = g.name();
    let us = pos.turn();
    let mut board = g.load(pos);
    let pseudo = pseudo_legal(g, &board);
    let legal: BTreeSet<Move> = legal(g, pos).into_iter().collect();
    if let Some(mv) = legal.difference(&pseudo).next() {
        return Err(format!("{name}: legal move {mv} is not pseudo-legal"));
    }
    for &mv in &pseudo {
        let undo = g.make(&mut board, mv);
        let after: Setup = g.to_setup(&board);
        let own_says = g.king_attacked(&board, us);
        g.unmake(&mut board, mv, undo);
        let exposed = after.kings_facing() || !after.checkers(us).is_empty();
        if !legal.contains(&mv) {
            if !exposed {
                return Err(format!(
                    "{name} rejects {mv}, but validation sees no check on {us} in {after}"
                ));
            }
            continue;
        }
        if own_says {
            return Err(format!(
                "{name}: after legal {mv} its own board says {us} is attacked"
            ));
        }
        let after = Position::new(after.clone())
            .map_err(|e| format!("{name}: after legal {mv}, {after} is invalid: {e}"))?;
        let saying = detectors_saying_attacked(&after, us);
        if !saying.is_empty() {
            return Err(format!(
                "{name}: after legal {mv}, {} say {us}'s king is attacked in {}",
                saying.join(", "),
                after.fen()
            ));
        }
    }
    Ok(())
}

/// Mirroring files a <-> i, and swapping colours with ranks r <-> 9-r, map the legal
/// move set onto the image's.
fn legal_moves_are_symmetric<G: MoveGen>(g: &G, pos: &Position) -> Result<(), String> {
    let name = g.name();
    let here: Vec<Move> = legal(g, pos);
    type Map = fn(Move) -> Move;
    let maps: [(&str, Setup, Map); 2] = [
        ("mirror", pos.setup().mirror_files(), Move::mirror_files),
        ("colour swap", pos.setup().swap_colors(), Move::flip_ranks),
    ];
    for (what, setup, map) in maps {
        let image =
            Position::new(setup).map_err(|e| format!("{what} image of {pos} is invalid: {e}"))?;
        let expected: BTreeSet<Move> = here.iter().copied().map(map).collect();
        let got: BTreeSet<Move> = legal(g, &image).into_iter().collect();
        if expected != got {
            let extra: Vec<String> = got.difference(&expected).map(Move::to_string).collect();
            let missing: Vec<String> = expected.difference(&got).map(Move::to_string).collect();
            return Err(format!(
                "{name} on the {what} image {}: extra [{}], missing [{}]",
                image.fen(),
                extra.join(" "),
                missing.join(" ")
            ));
        }
    }
    Ok(())
}

#[test]
fn fen_round_trip() {
    check("fen-round-trip", |pos| {
        let fen = pos.fen();
        match Position::from_fen(&fen) {
            Ok(back) if back == *pos => Ok(()),
            Ok(back) => Err(format!("{fen} reads back as {}", back.fen())),
            Err(e) => Err(format!("{fen} does not parse: {e}")),
        }
    });
}

#[test]
fn generators_agree() {
    let gens = xqdiff::generators::registry();
    check("generators-agree", |pos| {
        let found = oracle::check_position(pos, &gens);
        if found.is_empty() {
            Ok(())
        } else {
            let lines: Vec<String> = found.iter().map(ToString::to_string).collect();
            Err(lines.join("; "))
        }
    });
}

#[test]
fn make_unmake() {
    check("make-unmake", |pos| {
        every_generator(Property::MakeUnmake, pos)
    });
}

#[test]
fn legal_subset_of_pseudo_legal_and_safe() {
    check("legal-safe", |pos| {
        every_generator(Property::LegalSafe, pos)
    });
}

#[test]
fn mirror_and_colour_swap_symmetry() {
    check("symmetry", |pos| every_generator(Property::Symmetric, pos));
}
