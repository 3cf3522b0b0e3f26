//! Each variant's generator held to its sentence: on positions where only the rule the
//! sentence misreads is in play, the variant's move list is the rules' with exactly the
//! moves the sentence adds or takes away, and no others. A generator that does more than
//! its sentence says (a king let out of its palace that may then step onto an attacked
//! point, say) names a cause the subject does not have, so each row is written from the
//! sentence and the rules, not from the generator.

use super::catalogue::Variant::{self, *};
use super::examples::{self, EXAMPLES};
use super::probes::ROWS;
use super::VariantGen;
use crate::generators::naive::NaiveGen;
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use std::collections::BTreeSet;

/// The variants whose sentence is about more than one move list, held to it elsewhere:
/// a move that does not pass the turn shows one move down (its example's depth 2).
const NOT_A_MOVE_LIST: &[Variant] = &[MakeKeepsTurn];

/// `g`'s legal moves on `pos`, as a set.
fn legal<G: MoveGen>(g: &G, pos: &crate::position::Position) -> BTreeSet<Move> {
    let mut board = g.load(pos);
    let mut list = MoveList::new();
    g.legal(&mut board, &mut list);
    list.iter().copied().collect()
}

/// The variant's list against the rules' as `+added -removed`, each sorted.
fn difference(v: Variant, text: &str) -> String {
    let pos = examples::position(text).unwrap_or_else(|| panic!("{text} is not a valid position"));
    let rules = legal(&NaiveGen, &pos);
    let theirs = legal(&VariantGen::new(v), &pos);
    let added = theirs.difference(&rules).map(|m| format!("+{m}"));
    let removed = rules.difference(&theirs).map(|m| format!("-{m}"));
    added.chain(removed).collect::<Vec<_>>().join(" ")
}

#[test]
fn each_variant_answers_as_its_sentence_says() {
    let mut wrong = Vec::new();
    for &(v, text, want) in ROWS {
        let got = difference(v, text);
        if got != want {
            wrong.push(format!("    ({v:?}, {text:?}, {got:?}), // was {want:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "rows whose difference is not the sentence's:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_variant_is_held_to_its_sentence() {
    let missing: Vec<String> = Variant::ALL
        .iter()
        .filter(|v| !NOT_A_MOVE_LIST.contains(v) && !ROWS.iter().any(|(w, _, _)| w == *v))
        .map(|v| {
            let text = EXAMPLES.iter().find(|(w, _, _)| w == v).map_or("", |r| r.1);
            format!("    ({v:?}, {text:?}, {:?}),", difference(*v, text))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "variants with no row:\n{}",
        missing.join("\n")
    );
}
