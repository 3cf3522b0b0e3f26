//! Learning how an engine writes FEN and moves, from evidence its move generation
//! cannot fake: the notation is never chosen as the one under which the engine agrees,
//! so a wrong start position is a finding like any other, not a reason to read the
//! engine in another dialect.
//!
//! Ranks: perft 1 on a position that both FEN dialects write alike (the start position
//! without horses and elephants). Its per-move lines start from the mover's pieces,
//! wherever they go; the numbering under which every listed from-square holds one of
//! them, and the other does not, is the engine's. An engine that prints only totals is
//! asked for the cannon move h2e2 written both ways; it takes only the right one.
//!
//! FEN letters: a horse and an elephant alone on an open board, written with `N`/`B`
//! and with `H`/`E`. Under a dialect the engine reads, it moves the horse a horse's
//! leap and the elephant an elephant's step from where they stand (listed, or played:
//! it accepts the move); under one it does not read, it refuses the FEN, or the points
//! stay empty or hold some other piece. Nothing around them blocks a leg or an eye, so
//! no plausible rule bug changes what they show. When both dialects read, `N`/`B`;
//! when neither, what each gave, and the run ends.

use super::driver::{ExternalEngine, Reply};
use super::notation::{fen_with_letters, format_move};
use super::{EngineConfig, FenLetters, Ranks};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use crate::subject::SubjectError;

/// The start position without its horses and elephants: written alike in both dialects.
const RANKS_FEN: &str = "r2aka2r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R2AKA2R w - - 0 1";

/// A red horse on e3 and a red elephant on c0, nothing next to either, the kings apart.
const LETTERS_FEN: &str = "3k5/9/9/9/9/9/4N4/9/9/2B1K4 w - - 0 1";

/// Where [`LETTERS_FEN`] has its horse and its elephant, with a move each can make.
const HORSE: (&str, &str) = ("e3", "e3d5");
const ELEPHANT: (&str, &str) = ("c0", "c0e2");

/// Sets the engine's ranks, whether it divides, and its letters, or says why it cannot.
/// Given both (`--ranks`, `--fen-letters`), nothing is probed: the start position,
/// which every check asks anyway, says whether the engine divides, so an adapter that
/// knows only the start position can be checked on it.
pub(super) fn detect(e: &mut ExternalEngine, config: &EngineConfig) -> Result<(), SubjectError> {
    if config.ranks != Ranks::Auto && config.fen_letters != FenLetters::Auto {
        return take_given(e, config);
    }
    let reply = e.question(RANKS_FEN, &[], 1)?;
    e.divides = !reply.per_move.is_empty();
    note_unread(e, &reply);
    if !e.divides && reply.total == Some(0) {
        return Err(SubjectError::Garbage {
            request: reply.request.clone(),
            problem: "the engine counts 0 moves in the start position without its horses \
                      and elephants"
                .to_string(),
            last: e.process.last(),
        });
    }
    e.ranks = match (config.ranks, e.divides) {
        (Ranks::Auto, true) => ranks_from_listing(e, &reply)?,
        (Ranks::Auto, false) => probe_ranks(e)?,
        (fixed, _) => fixed,
    };
    detect_letters(e, config)
}

/// Both the rank numbering and the FEN letters given: one question on the start
/// position learns whether the engine divides, and the numbering given is held to
/// where the listed moves start, as a probed one is: told the wrong one, every move
/// would be a difference.
fn take_given(e: &mut ExternalEngine, config: &EngineConfig) -> Result<(), SubjectError> {
    let start = fen_with_letters(&Position::startpos().fen(), config.fen_letters);
    let reply = e.question(&start, &[], 1)?;
    e.divides = !reply.per_move.is_empty();
    note_unread(e, &reply);
    let pos = Position::startpos();
    let off = reply
        .per_move
        .iter()
        .filter(|(_, raw, _)| {
            let mv = raw.to_move(config.ranks);
            let on_red = mv.and_then(|m| pos.piece_at(m.from));
            on_red.is_none_or(|p| p.color != pos.turn())
        })
        .count();
    if off > 0 {
        return Err(SubjectError::Garbage {
            request: reply.request.clone(),
            problem: format!(
                "with the rank numbering given, {off} of the {} moves the engine lists \
                 in the start position start on no red piece; give the other --ranks",
                reply.per_move.len()
            ),
            last: e.process.last(),
        });
    }
    e.ranks = config.ranks;
    e.fen_letters = config.fen_letters;
    Ok(())
}

/// The FEN letters the engine reads (horse and elephant as `n`/`b` or `h`/`e`): each
/// choice still open is tried, and the first the engine reads is taken; with none, the
/// error says what each gave, in the engine's own words when it refused the letters
/// given.
fn detect_letters(e: &mut ExternalEngine, config: &EngineConfig) -> Result<(), SubjectError> {
    let choices = match config.fen_letters {
        FenLetters::Auto => vec![FenLetters::NB, FenLetters::HE],
        fixed => vec![fixed],
    };
    let mut seen = Vec::new();
    for letters in choices {
        match reads(e, letters)? {
            Ok(()) => {
                e.fen_letters = letters;
                return Ok(());
            }
            Err(what) => seen.push((letters, what)),
        }
    }
    if let [(_, Gave::Refused(reason))] = &seen[..] {
        // Letters given by the user, and refused: the engine's own words say it.
        return Err(SubjectError::Refused {
            what: "a FEN in the letters given".to_string(),
            reason: reason.clone(),
        });
    }
    let tried: Vec<String> = seen
        .iter()
        .map(|(letters, gave)| {
            format!(
                "with {} letters ({}): {gave}",
                letter_name(*letters),
                fen_with_letters(LETTERS_FEN, *letters)
            )
        })
        .collect();
    let problem = if config.fen_letters == FenLetters::Auto {
        format!(
            "cannot tell which FEN letters the engine reads: {}; give --fen-letters",
            tried.join("; ")
        )
    } else {
        format!(
            "the engine does not read the FEN letters given: {}",
            tried.join("; ")
        )
    };
    Err(SubjectError::Garbage {
        request: "perft 1 on a horse and an elephant in each FEN dialect".to_string(),
        problem,
        last: e.process.last(),
    })
}

/// Says so when the engine printed lines meant as counts per move that are not read:
/// it is then taken for one that prints only totals, and asked one root move at a time.
fn note_unread(e: &mut ExternalEngine, reply: &Reply) {
    if let (false, Some(line)) = (e.divides, &reply.unread) {
        e.notes.push(format!(
            "the engine's lines per move are not read (the first: {line:?}); xqdiff reads \
             {}: it is asked as one that prints only totals, one root move at a time, and \
             a move it has that the built-ins lack cannot be named",
            super::answer::DIVIDE_FORMS
        ));
    }
}

/// What a dialect's horse and elephant came to, when the engine did not read them.
enum Gave {
    /// The engine refused the FEN, saying this.
    Refused(String),
    /// It took the FEN, but one of the two did not move as itself.
    Unread {
        /// Which, as a noun.
        piece: &'static str,
        /// What the engine did from its point instead.
        instead: String,
    },
}

impl std::fmt::Display for Gave {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Gave::Refused(reason) => write!(f, "refused ({reason})"),
            Gave::Unread { piece, instead } => write!(f, "no {piece} there ({instead})"),
        }
    }
}

fn letter_name(letters: FenLetters) -> &'static str {
    match letters {
        FenLetters::HE => "H/E",
        FenLetters::NB | FenLetters::Auto => "N/B",
    }
}

/// Whether the engine reads [`LETTERS_FEN`] in `letters` as a horse and an elephant;
/// the outer error is a fault of the engine that ends the start.
fn reads(e: &mut ExternalEngine, letters: FenLetters) -> Result<Result<(), Gave>, SubjectError> {
    let fen = fen_with_letters(LETTERS_FEN, letters);
    let root = match e.question(&fen, &[], 1) {
        Err(SubjectError::Refused { reason, .. }) => return Ok(Err(Gave::Refused(reason))),
        Err(err) => return Err(err),
        Ok(reply) => reply,
    };
    for (piece, (at, mv), shape) in [
        ("horse", HORSE, horse_leap as fn(i32, i32) -> bool),
        ("elephant", ELEPHANT, elephant_step),
    ] {
        let from: Square = at.parse().map_err(|_| bad_probe(piece))?;
        let moved = if e.divides {
            let listed: Vec<Move> = root
                .per_move
                .iter()
                .filter_map(|(_, raw, _)| raw.to_move(e.ranks))
                .filter(|m| m.from == from)
                .collect();
            let ok = listed.iter().any(|m| {
                shape(
                    i32::from(m.to.file()) - i32::from(m.from.file()),
                    i32::from(m.to.rank()) - i32::from(m.from.rank()),
                )
            });
            if !ok {
                let texts: Vec<String> = listed.iter().map(|m| format_move(*m, e.ranks)).collect();
                let instead = if texts.is_empty() {
                    "no move listed from it".to_string()
                } else {
                    format!("moves {}", texts.join(" "))
                };
                return Ok(Err(Gave::Unread { piece, instead }));
            }
            true
        } else {
            let mv: Move = mv.parse().map_err(|_| bad_probe(piece))?;
            let text = format_move(mv, e.ranks);
            match e.question(&fen, std::slice::from_ref(&text), 1) {
                Err(SubjectError::Refused { reason, .. }) => {
                    return Ok(Err(Gave::Unread {
                        piece,
                        instead: format!("{text} refused: {reason}"),
                    }))
                }
                Err(err) => return Err(err),
                // The count of the position before: the move was skipped unread.
                Ok(after) => after.total != root.total,
            }
        };
        if !moved {
            return Ok(Err(Gave::Unread {
                piece,
                instead: "its move skipped".to_string(),
            }));
        }
    }
    Ok(Ok(()))
}

fn bad_probe(piece: &str) -> SubjectError {
    SubjectError::Garbage {
        request: format!("the {piece} of the letters probe"),
        problem: "the probe itself does not read".to_string(),
        last: Vec::new(),
    }
}

fn horse_leap(df: i32, dr: i32) -> bool {
    (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1)
}

fn elephant_step(df: i32, dr: i32) -> bool {
    (df.abs(), dr.abs()) == (2, 2)
}

/// The numbering under which every listed move starts on one of the mover's pieces of
/// [`RANKS_FEN`] while the other numbering's reading does not: where the pieces stand
/// is a fact of the position, whatever the engine's rules make of them.
fn ranks_from_listing(e: &ExternalEngine, reply: &Reply) -> Result<Ranks, SubjectError> {
    let pos = Position::from_fen(RANKS_FEN).map_err(|err| SubjectError::Garbage {
        request: reply.request.clone(),
        problem: err.to_string(),
        last: Vec::new(),
    })?;
    let listed = reply.per_move.len();
    let on_a_piece = |ranks: Ranks| {
        reply
            .per_move
            .iter()
            .filter_map(|(_, raw, _)| raw.to_move(ranks))
            .filter(|m| pos.piece_at(m.from).is_some_and(|p| p.color == pos.turn()))
            .count()
    };
    let (zero, one) = (on_a_piece(Ranks::Zero), on_a_piece(Ranks::One));
    match (zero == listed, one == listed) {
        (true, false) => Ok(Ranks::Zero),
        (false, true) => Ok(Ranks::One),
        _ => Err(SubjectError::Garbage {
            request: reply.request.clone(),
            problem: format!(
                "cannot tell how the engine numbers ranks: of the {listed} moves it lists, \
                 {zero} start on a red piece read 0-based and {one} read 1-based; give \
                 --ranks"
            ),
            last: e.process.last(),
        }),
    }
}

/// For an engine that prints only totals: plays the cannon move h2e2 written 0-based
/// (`h2e2`) and 1-based (`h3e3`); each text is no move of a piece under the other
/// numbering, so only the right one is played.
fn probe_ranks(e: &mut ExternalEngine) -> Result<Ranks, SubjectError> {
    let before = e.question(RANKS_FEN, &[], 1)?.total;
    let mut played = Vec::new();
    for (ranks, text) in [(Ranks::Zero, "h2e2"), (Ranks::One, "h3e3")] {
        match e.question(RANKS_FEN, &[text.to_string()], 1) {
            Err(SubjectError::Refused { .. }) => {}
            Err(err) => return Err(err),
            // The count of the position before: the engine skipped the move unread.
            Ok(reply) if reply.total != before => played.push(ranks),
            Ok(_) => {}
        }
    }
    match played[..] {
        [ranks] => Ok(ranks),
        _ => Err(SubjectError::Garbage {
            request: "perft 1 after h2e2 and after h3e3".to_string(),
            problem: "cannot tell how the engine numbers ranks: the cannon move written \
                      0-based (h2e2) and 1-based (h3e3) fared alike; give --ranks"
                .to_string(),
            last: e.process.last(),
        }),
    }
}
