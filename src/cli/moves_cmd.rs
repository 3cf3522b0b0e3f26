//! `xqdiff moves`: each generator's legal moves for one position, and where they differ.

use super::json::{GeneratorMoves, MovesDoc};
use super::out::outln;
use super::{select_generator_list, CliError, Outcome};
use crate::job::report::DisputedMove;
use crate::moves::Move;
use crate::position::Position;
use std::collections::BTreeSet;

/// Arguments of `xqdiff moves`.
#[derive(clap::Args, Debug)]
pub(super) struct MovesArgs {
    /// Position (default: the start position).
    #[arg(long, allow_hyphen_values = true, value_name = "FEN")]
    fen: Option<String>,
    /// Which generator: a name, or `all` to list and compare every one; repeat to pick
    /// several.
    #[arg(long, default_value = "all", value_name = "NAME")]
    generator: Vec<String>,
    #[command(flatten)]
    pub(super) json: super::json::JsonArg,
}

/// Runs `xqdiff moves`.
pub(super) fn run(args: &MovesArgs) -> Result<Outcome, CliError> {
    let generators = select_generator_list(&args.generator)?;
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen)?,
        None => Position::startpos(),
    };
    outln!("position  {}", pos.fen());
    let sets: Vec<(&str, BTreeSet<Move>, bool)> = generators
        .iter()
        .map(|g| {
            let probe = g.probe(&pos);
            (
                g.name(),
                probe.legal_moves().into_iter().collect(),
                probe.in_check,
            )
        })
        .collect();
    for (name, moves, in_check) in &sets {
        let text = sorted_text(moves);
        let check = if *in_check { ", in check" } else { "" };
        outln!(
            "{name:<10} {} legal{check}: {}",
            moves.len(),
            text.join(" ")
        );
    }
    let union: BTreeSet<Move> = sets
        .iter()
        .flat_map(|(_, m, _)| m.iter().copied())
        .collect();
    let check_agrees = sets.iter().all(|(_, _, c)| *c == sets[0].2);
    let mut agree = check_agrees;
    if !agree {
        outln!("generators disagree on whether the side to move is in check");
    }
    let mut differences = Vec::new();
    for mv in &union {
        let (with, without): (Vec<_>, Vec<_>) = sets.iter().partition(|(_, m, _)| m.contains(mv));
        if !without.is_empty() {
            agree = false;
            let names = |v: &[&(&str, BTreeSet<Move>, bool)]| {
                v.iter().map(|s| s.0).collect::<Vec<_>>().join(", ")
            };
            outln!("{mv}: only in {}; not in {}", names(&with), names(&without));
            differences.push(DisputedMove {
                mv: mv.to_string(),
                has: with.iter().map(|s| s.0.to_owned()).collect(),
                counts: Default::default(),
                listed: Default::default(),
            });
        }
    }
    args.json.emit(|| MovesDoc {
        fen: pos.fen(),
        generators: sets
            .iter()
            .map(|(name, moves, in_check)| GeneratorMoves {
                name: (*name).to_owned(),
                in_check: *in_check,
                legal: sorted_text(moves),
            })
            .collect(),
        check_agrees,
        differences,
        agree,
    })?;
    if agree {
        if sets.len() > 1 {
            outln!("all {} generators agree", sets.len());
        }
        Ok(Outcome::Agree)
    } else {
        Ok(Outcome::Disagree)
    }
}

/// `moves` in ICCS, sorted as text (a set of moves sorts by square index instead).
fn sorted_text(moves: &BTreeSet<Move>) -> Vec<String> {
    let mut text: Vec<String> = moves.iter().map(Move::to_string).collect();
    text.sort();
    text
}
