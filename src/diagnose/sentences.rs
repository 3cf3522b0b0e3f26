//! Each variant's generator held to its sentence: on positions where only the rule the
//! sentence misreads is in play, the variant's move list is the rules' with exactly the
//! moves the sentence adds or takes away, and no others. A generator that does more than
//! its sentence says (a king let out of its palace that may then step onto an attacked
//! point, say) names a cause the subject does not have, so each row is written from the
//! sentence and the rules, not from the generator.

use super::catalogue::Variant::{self, *};
use super::examples::{self, EXAMPLES};
use super::VariantGen;
use crate::generators::naive::NaiveGen;
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use std::collections::BTreeSet;

/// (variant, position in the examples' shorthand, the moves its sentence adds to the
/// rules' list (`+`) and takes from it (`-`)). Besides each variant's example, positions
/// that test a sentence's limits: where the misread rule lets a piece go, every other
/// rule still holds (a king out of its palace is still not let onto an attacked point).
const ROWS: &[(Variant, &str, &str)] = &[
    // A king let out of its palace is still not let onto an attacked point: the pawn on
    // e5 takes e6, so the step out is illegal whichever way the palace is read.
    (KingLeavesPalace, "b Kd0 ke7 Pe5", ""),
    (BlackKingLeavesPalace, "b Kd0 ke7 Pe5", ""),
    (PalaceOneRankTooDeep, "b Kd0 ke7 Pe5", ""),
    // ... and onto a safe one it may step.
    (KingLeavesPalace, "b Kd0 ke7 Pd5", "+e7e6"),
    (BlackKingLeavesPalace, "b Kd0 ke7 Pd5", "+e7e6"),
    (PalaceOneRankTooDeep, "b Kd0 ke7 Pd5", "+e7e6"),
    // A king out of its palace in check still has to answer it.
    (KingLeavesPalace, "w Ke2 kd9 re9 Ra3", ""),
    // Pins ignored: a piece also steps in front of its king as an enemy cannon's
    // screen, and the last piece between the kings steps aside.
    (PinsIgnored, "w Ke0 kd9 ce9 Ra4", "+a4e4"),
    (PinsIgnored, "w Ke0 ke9 Ne5", "+e5d3 +e5f3 +e5c4 +e5g4 +e5c6 +e5g6 +e5d7 +e5f7"),
    // A pawn that never steps sideways never gives check sideways either: the king in
    // check by the pawn beside it is taken to be out of check, so the elephant moves.
    (PawnNeverSideways, "b Kd0 ke8 Pd8 bc9", "+c9a7"),
    (RedPawnNeverSideways, "b Kd0 ke8 Pd8 bc9", "+c9a7"),
    (BlackPawnNeverSideways, "w Ke1 kd9 pd1 Bc0", "+c0a2"),
    // One side's pawns only: the other side's step sideways as the rules say.
    (RedPawnNeverSideways, "b Ke0 kd9 pc3", ""),
    (BlackPawnNeverSideways, "w Ke0 kd9 Pc6", ""),
    // An elephant that never captures still steps onto empty points; a cannon whose
    // screen must be its own still captures over one.
    (ElephantNeverCaptures, "w Ke0 kd9 Bc0 na2", "-c0a2"),
    (CannonScreenMustBeOwn, "w Ke0 kd9 Ca0 Pa3 pa6", ""),
    (CannonScreenMustBeOwn, "w Ke0 kd9 Ca0 pa3 pa6", "-a0a6"),
    // A rook stopped at the river still captures on its own side of it.
    (RookStopsAtRiver, "w Ke0 kd9 Ra0 pa4", ""),
    (RookStopsAtRiver, "w Ke0 kd9 Ra0", "-a0a5 -a0a6 -a0a7 -a0a8 -a0a9"),
    // A horse stopped at the river still jumps on either side of it, and back to its
    // own side from the other.
    (HorseStopsAtRiver, "w Ke0 kd9 Nc4", "-c4a5 -c4e5 -c4b6 -c4d6"),
    (HorseStopsAtRiver, "b Ke0 kd9 nc5", "-c5b3 -c5d3 -c5a4 -c5e4"),
    (HorseStopsAtRiver, "w Ke0 kd9 Nc6", "-c6b4 -c6d4"),
    (HorseStopsAtRiver, "w Ke0 kd9 Nc1", ""),
    // A pawn's forward check read from behind the king: the pawn in front is missed,
    // one behind is seen, and the sideways checks are right.
    (CheckPawnForwardReversed, "w Ke1 kd9 pe2 Nb0", "+b0d1 +b0a2 +b0c2"),
    (CheckPawnForwardReversed, "w Ke1 kd9 pe0 Nb0", "-b0d1 -b0a2 -b0c2"),
    (CheckPawnForwardReversed, "w Ke1 kd9 pd1 Nb0", ""),
    (CheckPawnForwardReversed, "b Kd0 ke8 Pe7 nb9", "+b9a7 +b9c7 +b9d8"),
    // One piece between the kings no longer keeps them apart; two still do.
    (KingsFacingThroughOnePiece, "w Ke0 kd9 Nd5", "-e0d0"),
    (KingsFacingThroughOnePiece, "w Ke0 kd9 Nd5 Nd4", ""),
    // Each variant's example.
    (AdvisorLeavesPalace, "w Ke0 kd9 Af2", "+f2g1 +f2e3 +f2g3"),
    (ElephantCrossesRiver, "w Ke0 kd9 Bc4", "+c4a6 +c4e6"),
    (BlackElephantCrossesRiver, "b Ke0 kd9 bc5", "+c5a3 +c5e3"),
    (ElephantEyeIgnored, "w Ke0 kd9 Bc0 Nd1", "+c0e2"),
    (ElephantEyeBlockedOnlyByOwn, "w Ke0 kd9 Bc0 nd1", "+c0e2"),
    (HorseLegIgnored, "w Ke0 kd9 Nb0 Rb1", "+b0a2 +b0c2"),
    (HorseLegBlockedOnlyByOwn, "w Ke0 kd9 Nb0 rb1", "+b0a2 +b0c2"),
    (HorseLegBlockedOnlyByEnemy, "w Ke0 kd9 Nb0 Rb1", "+b0a2 +b0c2"),
    (HorseLegOnDiagonal, "w Ke0 kd9 Nb0 Rc1", "-b0d1 -b0c2"),
    (RookJumpsOne, "w Ke0 kd9 Ra0 Pa3", "+a0f0 +a0g0 +a0h0 +a0i0 +a0a4 +a0a5 +a0a6 +a0a7 +a0a8 +a0a9"),
    (RookHopsOverOne, "w Ke0 kd9 Rc0 Pc3", "+c0f0 +c0c4"),
    (CannonCannotCapture, "w Ke0 kd9 Ca0 Pa3 pa6", "-a0a6"),
    (CannonCapturesWithoutScreen, "w Ke0 kd9 Ca0 pa6", "+a0a6"),
    (CannonCapturesOverTwoScreens, "w Ke0 kd9 Ca0 Pa3 pa5 pa6", "+a0a6"),
    (CannonJumpsToEmpty, "w Ke0 kd9 Ca0 Pa3", "+a0f0 +a0g0 +a0h0 +a0i0 +a0a4 +a0a5 +a0a6 +a0a7 +a0a8 +a0a9"),
    (PawnSidewaysBeforeRiver, "w Ke0 kd9 Pc3", "+c3b3 +c3d3"),
    (BlackPawnSidewaysBeforeRiver, "b Ke0 kd9 pc6", "+c6b6 +c6d6"),
    (PawnSidewaysOnRiverBank, "w Ke0 kd9 Pc4", "+c4b4 +c4d4"),
    (RedPawnSidewaysBeforeRiver, "w Ke0 kd9 Pc3", "+c3b3 +c3d3"),
    (PawnStepsBackAfterRiver, "w Ke0 kd9 Pe6", "+e6e5"),
    (BlackPawnMovesLikeRed, "b Ke0 kd9 pc6", "+c6b6 +c6d6 +c6c7 -c6c5"),
    (HorseLegIgnoredAlsoInCheck, "w Ke0 kd9 ng2 Nf2", "+f2h1 +f2h3 -e0e1"),
    (HorseLegBlockedOnlyByOwnAlsoInCheck, "w Ke0 kd9 ng2 Nf2", "+f2h1 +f2h3 -e0e1"),
    (HorseLegBlockedOnlyByEnemyAlsoInCheck, "w Ke0 kd9 ng2 pf2 Nd0", "+d0f1 -e0e1"),
    (HorseLegOnDiagonalAlsoInCheck, "w Ke0 kd9 ng2 Af2", "-e0e1"),
    (RookJumpsOneAlsoInCheck, "w Ke0 kd9 rf9 Nf5", "-e0f0"),
    (RookHopsOverOneAlsoInCheck, "w Ke0 kd9 rf2 Nf1", "-e0f0"),
    (CannonCannotCaptureAlsoInCheck, "w Ke0 kd9 cf9 Rf5", "+e0f0"),
    (CannonCapturesWithoutScreenAlsoInCheck, "w Ke0 kd9 cf9", "-e0f0"),
    (CannonCapturesOverTwoScreensAlsoInCheck, "w Ke0 kd9 cf9 Rf5 Nf3", "-e0f0"),
    (HorseLegBehindTowardBlackAlsoInCheck, "w Ke0 kd9 Nb0", "-b0a2 -b0c2"),
    (CannonHopsLikeDraughtsAlsoInCheck, "w Ke0 kd9 Ca0 pa3", "+a0a4"),
    (RookTakesOwn, "w Ke0 kd9 Ra0 Pa3", "+a0e0 +a0a3"),
    (CannonTakesOwn, "w Ke0 kd9 Ca0 Pa3 Pa6", "+a0a6"),
    (HorseTakesOwn, "w Ke0 kd9 Nb0 Rc2", "+b0c2"),
    (EveryPieceTakesOwn, "w Ke0 kd9 Ad0 Ae1", "+d0e1 +e0e1 +e1d0"),
    (KingsFacingIgnored, "w Ke0 kd9", "+e0d0"),
    (KingsFacingThroughPieces, "w Ke0 kd9 Nd5 Nd4", "-e0d0"),
    (KingsFacingOnlyForRed, "b Ke0 kd9", "+d9e9"),
    (KingsFacingOnlyForBlack, "w Ke0 kd9", "+e0d0"),
    (KingsFacingOnlyForKingMoves, "w Ke0 ke9 Ne5", "+e5d3 +e5f3 +e5c4 +e5g4 +e5c6 +e5g6 +e5d7 +e5f7"),
    (KingsFacingCannonOverKing, "w Kf0 kf8 Cf1 af9", "+f1f9"),
    (CheckBlindToRook, "w Ke0 kd9 rf9", "+e0f0"),
    (CheckBlindToHorse, "w Ke0 kd9 ng2", "+e0f0 +e0e1"),
    (CheckBlindToCannon, "w Ke0 kd9 cf9 Rf5", "+e0f0"),
    (CheckBlindToPawn, "w Ke1 kd9 pd2", "+e1d1 +e1e2"),
    (CheckBlindToBlackPawn, "w Ke1 kd9 pd2", "+e1d1 +e1e2"),
    (CheckBlindToRedPawn, "b Kd0 ke8 Pd7", "+e8e7 +e8d8"),
    (CheckBlackPawnAsRed, "w Ke1 kd9 pe0 Ra5", "-a5a0 -a5a1 -a5a2 -a5a3 -a5a4 -a5b5 -a5c5 -a5d5 -a5e5 -a5f5 -a5g5 -a5h5 -a5i5 -a5a6 -a5a7 -a5a8 -a5a9"),
    (CheckRedPawnAsBlack, "b Kd0 ke8 Pe9 ra4", "-a4a0 -a4a1 -a4a2 -a4a3 -a4b4 -a4c4 -a4d4 -a4e4 -a4f4 -a4g4 -a4h4 -a4i4 -a4a5 -a4a6 -a4a7 -a4a8 -a4a9"),
    (CheckPawnWrongWay, "w Ke1 kd9 pe0 Ra5", "-a5a0 -a5a1 -a5a2 -a5a3 -a5a4 -a5b5 -a5c5 -a5d5 -a5e5 -a5f5 -a5g5 -a5h5 -a5i5 -a5a6 -a5a7 -a5a8 -a5a9"),
    (CheckPawnSidewaysBlind, "w Ke0 kd9 pd1", "+e0e1"),
    (CheckBlackPawnSidewaysBlind, "w Ke0 kd9 pd1", "+e0e1"),
    (CheckRedPawnSidewaysBlind, "b Kd0 ke9 Pd8", "+e9e8"),
    (CheckHorseLegIgnored, "w Ke0 kd9 ng2 Nf2", "-e0e1"),
    (CheckHorseLegNextToKing, "w Ke0 kd9 ng2 Nf1", "+e0f0 +e0e1"),
    (CheckCannonWithoutScreen, "w Ke0 kd9 cf9", "-e0f0"),
    (CheckCannonOverTwoScreens, "w Ke0 kd9 cf9 Rf5 Nf3", "-e0f0"),
    (DiscoveredHorseCheckIgnored, "w Ke0 kd9 nf2 Rf1", "+f1f0 +f1a1 +f1b1 +f1c1 +f1d1 +f1e1 +f1g1 +f1h1 +f1i1"),
    (DiscoveredCannonCheckIgnored, "w Ke0 kd9 ce9 Ra4", "+a4e4"),
    (PinnedPieceFrozen, "w Ke0 kd9 re9 Re4", "-e4e1 -e4e2 -e4e3 -e4e5 -e4e6 -e4e7 -e4e8 -e4e9"),
    (DoubleCheckKingOnly, "w Ke0 kd9 ce8 re5 Ra3", "-a3e3"),
    (DoubleCheckOneAnswer, "w Ke0 kd9 re5 ng1 Ra3", "+e0d0 +e0e1 +a3e3"),
    (CheckEvasionKingOnly, "w Ke0 kd9 re5 Ra3", "-a3e3"),
    (KingStepsIntoCheck, "w Ke0 kd9 rf9", "+e0d0 +e0f0"),
    (PseudoLegalOnly, "w Ke0 kd9 re9 Re4", "+e0d0 +e4a4 +e4b4 +e4c4 +e4d4 +e4f4 +e4g4 +e4h4 +e4i4"),
    (SideToMoveIgnored, "b Ke0 kd9 Ra0", "+a0b0 +a0c0 +a0d0 +a0a1 +a0a2 +a0a3 +a0a4 +a0a5 +a0a6 +a0a7 +a0a8 +a0a9 +e0f0 +e0e1 -d9d8"),
    (ClockEndsMoves, "w Ke0 kd9 clock=100", "-e0f0 -e0e1"),
];

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
