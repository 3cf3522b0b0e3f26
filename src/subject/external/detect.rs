//! Learning from the start position how an engine writes FEN and moves, and checking
//! that it answers perft 1 there at all.
//!
//! FEN letters: `N`/`B` first, then `H`/`E`; an attempt the engine refuses or answers
//! with a count other than 44 makes way for the next. Ranks: the start position's
//! per-move lines read under 0-based and under 1-based numbering, and the one that
//! matches the 44 legal moves wins. An engine that prints only totals is asked for the
//! cannon move `h2e2` written both ways; it takes only the right one.
//!
//! A buggy engine may get the start position wrong, so the best attempt is taken even
//! when nothing matches exactly, as long as it is recognisably the start position.

use super::driver::{ExternalEngine, Reply};
use super::notation::{fen_with_letters, RawMove};
use super::{EngineConfig, FenLetters, Ranks};
use crate::fen::START_FEN;
use crate::generators::bitboard::BitboardGen;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use crate::subject::SubjectError;
use std::collections::BTreeSet;

/// What the start position's perft 1 looked like with one set of FEN letters.
struct Trial {
    letters: FenLetters,
    /// Whether the engine printed per-move lines.
    divides: bool,
    /// The numbering its moves fit best (meaningless without per-move lines).
    ranks: Ranks,
    /// How many of the legal moves it listed, under `ranks`.
    hits: usize,
    /// Higher is closer to the legal move set (or, without per-move lines, to 44).
    score: i64,
    exact: bool,
    total: u64,
    listed: usize,
}

/// Sets the engine's letters, numbering and whether it divides, or says why it cannot.
pub(super) fn detect(e: &mut ExternalEngine, config: &EngineConfig) -> Result<(), SubjectError> {
    let legal: BTreeSet<Move> = BitboardGen
        .probe(&Position::startpos())
        .legal_moves()
        .into_iter()
        .collect();
    let choices = match config.fen_letters {
        FenLetters::Auto => vec![FenLetters::NB, FenLetters::HE],
        fixed => vec![fixed],
    };
    let mut refusals = Vec::new();
    let mut best: Option<Trial> = None;
    for letters in choices {
        let fen = fen_with_letters(START_FEN, letters);
        match e.question(&fen, &[], 1) {
            Err(SubjectError::Refused { reason, .. }) => {
                refusals.push(format!("with {} letters: {reason}", letter_name(letters)));
            }
            Err(err) => return Err(err),
            Ok(reply) => {
                let trial = judge(letters, &reply, &legal, config.ranks);
                let exact = trial.exact;
                if best.as_ref().is_none_or(|b| trial.score > b.score) {
                    best = Some(trial);
                }
                if exact {
                    break;
                }
            }
        }
    }
    let Some(trial) = best else {
        return Err(SubjectError::Refused {
            what: "the start position".to_string(),
            reason: refusals.join("; "),
        });
    };
    e.fen_letters = trial.letters;
    e.divides = trial.divides;
    let request = "perft 1 on the start position";
    let garbage = |problem: String, e: &ExternalEngine| SubjectError::Garbage {
        request: request.to_string(),
        problem,
        last: e.process.last(),
    };
    if trial.divides {
        if trial.hits * 2 < legal.len() {
            return Err(garbage(
                format!(
                    "the engine lists {} moves in the start position, of which at most {} \
                     are among the {} legal ones under 0-based or 1-based ranks",
                    trial.listed,
                    trial.hits,
                    legal.len()
                ),
                e,
            ));
        }
        e.ranks = trial.ranks;
    } else {
        if trial.total == 0 {
            return Err(garbage(
                format!(
                    "the engine counts 0 moves in the start position with {} letters",
                    letter_name(trial.letters)
                ),
                e,
            ));
        }
        e.ranks = match config.ranks {
            Ranks::Auto => probe_ranks(e)?,
            fixed => fixed,
        };
    }
    Ok(())
}

fn letter_name(letters: FenLetters) -> &'static str {
    match letters {
        FenLetters::HE => "H/E",
        FenLetters::NB | FenLetters::Auto => "N/B",
    }
}

/// How well an answer fits the start position's legal moves.
fn judge(letters: FenLetters, reply: &Reply, legal: &BTreeSet<Move>, ranks: Ranks) -> Trial {
    let start_count = legal.len() as u64;
    let listed = reply.per_move.len();
    let total = reply
        .total
        .unwrap_or_else(|| reply.per_move.iter().map(|(_, _, n)| n).sum());
    if listed == 0 {
        return Trial {
            letters,
            divides: false,
            ranks,
            hits: 0,
            score: -(total.abs_diff(start_count) as i64),
            exact: total == start_count,
            total,
            listed,
        };
    }
    let numberings = match ranks {
        Ranks::Auto => vec![Ranks::Zero, Ranks::One],
        fixed => vec![fixed],
    };
    let fit = |numbering: Ranks| {
        let moves: BTreeSet<Move> = reply
            .per_move
            .iter()
            .filter_map(|(_, raw, _): &(String, RawMove, u64)| raw.to_move(numbering))
            .collect();
        let hits = moves.intersection(legal).count();
        (hits, hits as i64 - (listed - hits) as i64, moves == *legal)
    };
    let (ranks, (hits, score, same)) = numberings
        .into_iter()
        .map(|n| (n, fit(n)))
        .max_by_key(|(n, (_, score, _))| (*score, *n == Ranks::Zero))
        .unwrap_or((Ranks::Zero, (0, i64::MIN, false)));
    Trial {
        letters,
        divides: true,
        ranks,
        hits,
        score,
        exact: same && listed == legal.len() && total == start_count,
        total,
        listed,
    }
}

/// For an engine that prints only totals: plays the cannon move h2e2 written 0-based
/// (`h2e2`) and 1-based (`h3e3`); each text is no legal move under the other numbering,
/// so only the right one reaches the 45 replies.
fn probe_ranks(e: &mut ExternalEngine) -> Result<Ranks, SubjectError> {
    let fen = fen_with_letters(START_FEN, e.fen_letters);
    let mut played = Vec::new();
    for (ranks, text) in [(Ranks::Zero, "h2e2"), (Ranks::One, "h3e3")] {
        match e.question(&fen, &[text.to_string()], 1) {
            Err(SubjectError::Refused { .. }) => {}
            Err(err) => return Err(err),
            Ok(reply) if reply.total == Some(45) => return Ok(ranks),
            // 44 is the start position's count: the engine skipped the move unread.
            Ok(reply) if reply.total != Some(44) => played.push(ranks),
            Ok(_) => {}
        }
    }
    match played[..] {
        [ranks] => Ok(ranks),
        _ => Err(SubjectError::Garbage {
            request: "perft 1 after h2e2 and after h3e3 from the start position".to_string(),
            problem: "cannot tell how the engine numbers ranks: the cannon move written \
                      0-based (h2e2) and 1-based (h3e3) fared alike; give the numbering \
                      explicitly"
                .to_string(),
            last: e.process.last(),
        }),
    }
}
