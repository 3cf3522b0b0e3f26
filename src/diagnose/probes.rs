//! Positions that test each variant's sentence at its limits, besides its example: the
//! sentence table's rows. The tests hold each variant's generator to them
//! (`sentences.rs`); a diagnosis asks a subject some of them before it names a variant,
//! so a subject whose bug only looks like the variant on the witness (on one axis, one
//! side, or wider than the variant's rule) answers one of them otherwise.

use super::catalogue::Variant::{self, *};
use super::examples::position;
use crate::position::Position;

/// (variant, position in the examples' shorthand, the moves its sentence adds to the
/// rules' list (`+`) and takes from it (`-`)). Besides each variant's example, positions
/// that test a sentence's limits: where the misread rule lets a piece go, every other
/// rule still holds (a king out of its palace is still not let onto an attacked point).
pub(crate) const ROWS: &[(Variant, &str, &str)] = &[
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
    // The cannon's and the rook's rules along a rank, as on a file: a subject whose
    // bug holds on one axis only is not named by a variant of both.
    (CannonCannotCapture, "w Ke0 kd9 Ca4 Pc4 pf4", "-a4f4"),
    (CannonCannotCaptureAlsoInCheck, "w Ke0 kd9 Ca4 Pc4 pf4", "-a4f4"),
    (CannonScreenMustBeOwn, "w Ke0 kd9 Ca4 pc4 pf4", "-a4f4"),
    (CannonScreenMustBeOwn, "w Ke0 kd9 Ca4 Pc4 pf4", ""),
    (CannonCapturesOverTwoScreens, "w Ke0 kd9 Ca4 Nb4 pc4 pf4", "+a4f4"),
    (CannonCapturesOverTwoScreens, "w Ke0 kd9 Ca0 Pa3 pa6", ""),
    (CannonCapturesOverTwoScreensAlsoInCheck, "w Ke0 kd9 Ca0 Pa3 pa6", ""),
    (CannonCapturesOverTwoScreensAlsoInCheck, "w Ke0 kd9 Ca4 Pc4 pf4", ""),
    (CannonCapturesWithoutScreen, "w Ke0 kd9 Ca4 pd4", "+a4d4"),
    (CannonTakesOwn, "w Ke0 kd9 Ca4 pc4 Nf4", "+a4f4"),
    (RookJumpsOne, "w Ke0 kd9 Ra4 Pc4", "+a4d4 +a4e4 +a4f4 +a4g4 +a4h4 +a4i4"),
    (RookHopsOverOne, "w Ke0 kd9 Ra4 Pc4", "+a4d4"),
    (RookTakesOwn, "w Ke0 kd9 Ra4 Pc4", "+a4c4"),
    // A detector blind to cannons misses their checks along a rank too.
    (CheckBlindToCannon, "w Ke1 kd9 ca1 Nc1", "+e1f1"),
    // A detector that sees a cannon's check over two screens, or without one, still
    // sees the check over one, on a file and along a rank (the one without a screen
    // also once the screen steps away).
    (CheckCannonOverTwoScreens, "w Ke0 kd9 ce9 Ne5", ""),
    (CheckCannonOverTwoScreens, "w Ke1 kd9 ca1 Nc1", ""),
    (CheckCannonWithoutScreen, "w Ke0 kd9 ce9 Ne5", "-e5d3 -e5f3 -e5c4 -e5g4 -e5c6 -e5g6 -e5d7 -e5f7"),
    (CheckCannonWithoutScreen, "w Ke1 kd9 ca1 Nc1", "-c1a0 -c1e0 -c1a2 -c1e2 -c1b3 -c1d3"),
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

/// The positions of `variant`'s rows, in the table's order.
pub(crate) fn of(variant: Variant) -> impl Iterator<Item = Position> {
    ROWS.iter()
        .filter(move |(v, _, _)| *v == variant)
        .filter_map(|(_, text, _)| position(text))
}
