//! An example for each variant: a small position where it answers differently from the
//! rules. The tests use them as witnesses (and to show no two variants are the same
//! bug), `docs/variants.md` prints them, and they are what to try a subject on first.

use super::catalogue::Variant::{self, *};
use crate::piece::{Color, Piece};
use crate::position::{Position, Setup};
use crate::square::Square;

/// For each variant, a position where it answers differently from the rules, in the
/// shorthand [`example`] reads, and the depth of the divide that shows it (1: the move
/// list). The tests check each row, and that the table tells every two variants apart.
pub(crate) const EXAMPLES: &[(Variant, &str, u32)] = &[
    (KingLeavesPalace, "w Kd0 kf9", 1),
    (BlackKingLeavesPalace, "b Ke0 kd9", 1),
    (AdvisorLeavesPalace, "w Ke0 kd9 Af2", 1),
    (PalaceOneRankTooDeep, "w Ke2 kd9", 1),
    (ElephantCrossesRiver, "w Ke0 kd9 Bc4", 1),
    (BlackElephantCrossesRiver, "b Ke0 kd9 bc5", 1),
    (ElephantEyeIgnored, "w Ke0 kd9 Bc0 Nd1", 1),
    (ElephantEyeBlockedOnlyByOwn, "w Ke0 kd9 Bc0 nd1", 1),
    (HorseLegIgnored, "w Ke0 kd9 Nb0 Rb1", 1),
    (HorseLegBlockedOnlyByOwn, "w Ke0 kd9 Nb0 rb1", 1),
    (HorseLegBlockedOnlyByEnemy, "w Ke0 kd9 Nb0 Rb1", 1),
    (HorseLegOnDiagonal, "w Ke0 kd9 Nb0 Rc1", 1),
    (RookJumpsOne, "w Ke0 kd9 Ra0 Pa3", 1),
    (RookHopsOverOne, "w Ke0 kd9 Rc0 Pc3", 1),
    (ElephantNeverCaptures, "w Ke0 kd9 Bc0 na2", 1),
    (RookStopsAtRiver, "w Ke0 kd9 Ra0", 1),
    (HorseStopsAtRiver, "w Ke0 kd9 Nc4", 1),
    (CannonCannotCapture, "w Ke0 kd9 Ca0 Pa3 pa6", 1),
    (CannonCapturesWithoutScreen, "w Ke0 kd9 Ca0 pa6", 1),
    (CannonCapturesOverTwoScreens, "w Ke0 kd9 Ca0 Pa3 pa5 pa6", 1),
    (CannonScreenMustBeOwn, "w Ke0 kd9 Ca0 pa3 pa6", 1),
    (CannonJumpsToEmpty, "w Ke0 kd9 Ca0 Pa3", 1),
    (PawnSidewaysBeforeRiver, "w Ke0 kd9 Pc3", 1),
    (BlackPawnSidewaysBeforeRiver, "b Ke0 kd9 pc6", 1),
    (RedPawnSidewaysBeforeRiver, "w Ke0 kd9 Pc3", 1),
    (PawnSidewaysOnRiverBank, "w Ke0 kd9 Pc4", 1),
    (PawnNeverSideways, "w Ke0 kd9 Pc6", 1),
    (RedPawnNeverSideways, "w Ke0 kd9 Pc6", 1),
    (BlackPawnNeverSideways, "b Ke0 kd9 pc3", 1),
    (PawnStepsBackAfterRiver, "w Ke0 kd9 Pe6", 1),
    (BlackPawnMovesLikeRed, "b Ke0 kd9 pc6", 1),
    (HorseLegIgnoredAlsoInCheck, "w Ke0 kd9 ng2 Nf2", 1),
    (HorseLegBlockedOnlyByOwnAlsoInCheck, "w Ke0 kd9 ng2 Nf2", 1),
    (
        HorseLegBlockedOnlyByEnemyAlsoInCheck,
        "w Ke0 kd9 ng2 pf2 Nd0",
        1,
    ),
    (HorseLegOnDiagonalAlsoInCheck, "w Ke0 kd9 ng2 Af2", 1),
    (RookJumpsOneAlsoInCheck, "w Ke0 kd9 rf9 Nf5", 1),
    (RookHopsOverOneAlsoInCheck, "w Ke0 kd9 rf2 Nf1", 1),
    (CannonCannotCaptureAlsoInCheck, "w Ke0 kd9 cf9 Rf5", 1),
    (CannonCapturesWithoutScreenAlsoInCheck, "w Ke0 kd9 cf9", 1),
    (
        CannonCapturesOverTwoScreensAlsoInCheck,
        "w Ke0 kd9 cf9 Rf5 Nf3",
        1,
    ),
    (HorseLegBehindTowardBlackAlsoInCheck, "w Ke0 kd9 Nb0", 1),
    (CannonHopsLikeDraughtsAlsoInCheck, "w Ke0 kd9 Ca0 pa3", 1),
    (RookTakesOwn, "w Ke0 kd9 Ra0 Pa3", 1),
    (CannonTakesOwn, "w Ke0 kd9 Ca0 Pa3 Pa6", 1),
    (HorseTakesOwn, "w Ke0 kd9 Nb0 Rc2", 1),
    (EveryPieceTakesOwn, "w Ke0 kd9 Ad0 Ae1", 1),
    (KingsFacingIgnored, "w Ke0 kd9", 1),
    (KingsFacingThroughPieces, "w Ke0 kd9 Nd5 Nd4", 1),
    (KingsFacingThroughOnePiece, "w Ke0 kd9 Nd5", 1),
    (KingsFacingOnlyForRed, "b Ke0 kd9", 1),
    (KingsFacingOnlyForBlack, "w Ke0 kd9", 1),
    (KingsFacingOnlyForKingMoves, "w Ke0 ke9 Ne5", 1),
    (KingsFacingCannonOverKing, "w Kf0 kf8 Cf1 af9", 1),
    (CheckBlindToRook, "w Ke0 kd9 rf9", 1),
    (CheckBlindToHorse, "w Ke0 kd9 ng2", 1),
    (CheckBlindToCannon, "w Ke0 kd9 cf9 Rf5", 1),
    (CheckBlindToPawn, "w Ke1 kd9 pd2", 1),
    (CheckBlindToBlackPawn, "w Ke1 kd9 pd2", 1),
    (CheckBlindToRedPawn, "b Kd0 ke8 Pd7", 1),
    (CheckBlackPawnAsRed, "w Ke1 kd9 pe0 Ra5", 1),
    (CheckRedPawnAsBlack, "b Kd0 ke8 Pe9 ra4", 1),
    (CheckPawnWrongWay, "w Ke1 kd9 pe0 Ra5", 1),
    (CheckPawnForwardReversed, "w Ke1 kd9 pe2 Nb0", 1),
    (CheckPawnSidewaysBlind, "w Ke0 kd9 pd1", 1),
    (CheckBlackPawnSidewaysBlind, "w Ke0 kd9 pd1", 1),
    (CheckRedPawnSidewaysBlind, "b Kd0 ke9 Pd8", 1),
    (CheckHorseLegIgnored, "w Ke0 kd9 ng2 Nf2", 1),
    (CheckHorseLegNextToKing, "w Ke0 kd9 ng2 Nf1", 1),
    (CheckCannonWithoutScreen, "w Ke0 kd9 cf9", 1),
    (CheckCannonOverTwoScreens, "w Ke0 kd9 cf9 Rf5 Nf3", 1),
    (DiscoveredHorseCheckIgnored, "w Ke0 kd9 nf2 Rf1", 1),
    (DiscoveredCannonCheckIgnored, "w Ke0 kd9 ce9 Ra4", 1),
    (PinsIgnored, "w Ke0 kd9 re9 Re4", 1),
    (PinnedPieceFrozen, "w Ke0 kd9 re9 Re4", 1),
    (DoubleCheckKingOnly, "w Ke0 kd9 ce8 re5 Ra3", 1),
    (DoubleCheckOneAnswer, "w Ke0 kd9 re5 ng1 Ra3", 1),
    (CheckEvasionKingOnly, "w Ke0 kd9 re5 Ra3", 1),
    (KingStepsIntoCheck, "w Ke0 kd9 rf9", 1),
    (PseudoLegalOnly, "w Ke0 kd9 re9 Re4", 1),
    (SideToMoveIgnored, "b Ke0 kd9 Ra0", 1),
    (MakeKeepsTurn, "w Ke0 kd9", 2),
    (ClockEndsMoves, "w Ke0 kd9 clock=100", 1),
];

/// A position from the table's shorthand: the side to move (`w`/`b`), then each piece as
/// its FEN letter and square, and optionally `clock=N` for the half-move clock. `None`
/// for shorthand that does not make a valid position.
pub(crate) fn position(text: &str) -> Option<Position> {
    let mut words = text.split_whitespace();
    let turn = match words.next()? {
        "w" => Color::Red,
        "b" => Color::Black,
        _ => return None,
    };
    let mut setup = Setup::empty(turn);
    for word in words {
        if let Some(clock) = word.strip_prefix("clock=") {
            setup.halfmoves = clock.parse().ok()?;
            continue;
        }
        let mut chars = word.chars();
        let piece = chars.next().and_then(Piece::from_char)?;
        let sq: Square = chars.as_str().parse().ok()?;
        setup.board[sq.index()] = Some(piece);
    }
    Position::new(setup).ok()
}

/// `variant`'s example: a position where it differs from the rules, and the depth.
pub fn example(variant: Variant) -> Option<(Position, u32)> {
    let &(_, text, depth) = EXAMPLES.iter().find(|(v, _, _)| *v == variant)?;
    Some((position(text)?, depth))
}
