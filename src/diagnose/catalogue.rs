//! The catalogue: every rule variant by name, with its sentence in the game's words and
//! how specific it is. One table, written once: the enum, the names, the sentences, the
//! ranks and `docs/variants.md` (`page.rs`) all come from it.

use std::fmt;

/// How specific a variant is: how narrow the set of positions it changes. Several
/// variants that explain a finding equally are named most specific first, since the
/// narrower misreading is the likelier one when both fit every witness.
pub(crate) type Specificity = u8;

macro_rules! catalogue {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $rank:literal, $sentence:literal;)+) => {
        /// One plausible misreading of the rules: a complete alternative generator (see
        /// [`super::VariantGen`]) that answers as an engine with that bug would.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Variant {
            $($(#[$doc])* $variant,)+
        }

        impl Variant {
            /// Every variant, in the catalogue's order.
            pub const ALL: &'static [Variant] = &[$(Variant::$variant),+];

            /// The variant's name: kebab-case, what a report and a known-list show.
            pub fn name(self) -> &'static str {
                match self {
                    $(Variant::$variant => $name,)+
                }
            }

            /// What the misreading does, in one sentence in the game's words.
            pub fn sentence(self) -> &'static str {
                match self {
                    $(Variant::$variant => $sentence,)+
                }
            }

            /// How specific it is: the higher, the fewer positions it changes.
            pub(crate) fn specificity(self) -> Specificity {
                match self {
                    $(Variant::$variant => $rank,)+
                }
            }
        }
    };
}

catalogue! {
    // The pieces' movement: each misreading applies wherever the piece's rule is asked,
    // by the move list and by the check detector alike (one misread rule, used twice).
    /// The palace test is skipped for kings.
    KingLeavesPalace = "king-leaves-palace", 3, "a king may step out of its palace";
    /// The palace test is written for Red's king only.
    BlackKingLeavesPalace = "black-king-leaves-palace", 4, "Black's king may step out of its palace";
    /// The palace test is skipped for advisors.
    AdvisorLeavesPalace = "advisor-leaves-palace", 3, "an advisor may step out of its palace";
    /// The palace's rank bound is off by one.
    PalaceOneRankTooDeep = "palace-one-rank-too-deep", 3, "the palace reaches one rank too far forward (ranks 0-3 and 6-9), for kings and advisors";
    /// The river test is skipped for elephants.
    ElephantCrossesRiver = "elephant-crosses-river", 3, "an elephant may cross the river";
    /// The river test is written for Red's elephants only.
    BlackElephantCrossesRiver = "black-elephant-crosses-river", 4, "Black's elephants may cross the river";
    /// The eye is never looked at.
    ElephantEyeIgnored = "elephant-eye-ignored", 3, "an elephant moves even when its eye is blocked";
    /// Only the elephant's own pieces block its eye.
    ElephantEyeBlockedOnlyByOwn = "elephant-eye-blocked-only-by-own", 4, "an elephant's eye is blocked only by a piece of its own side, not by an enemy";
    /// The leg is never looked at.
    HorseLegIgnored = "horse-leg-ignored", 3, "a horse jumps even when its leg is blocked";
    /// Only the horse's own pieces block its leg.
    HorseLegBlockedOnlyByOwn = "horse-leg-blocked-only-by-own", 4, "a horse's leg is blocked only by a piece of its own side, not by an enemy";
    /// Only enemy pieces block the leg.
    HorseLegBlockedOnlyByEnemy = "horse-leg-blocked-only-by-enemy", 4, "a horse's leg is blocked only by an enemy piece, not by one of its own side";
    /// The leg is looked for on the diagonal, like an elephant's eye.
    HorseLegOnDiagonal = "horse-leg-on-diagonal", 3, "a horse's leg is taken to be the point diagonally next to it on the way, not the orthogonal one";
    /// The rook's slide goes on past the first piece it meets.
    RookJumpsOne = "rook-jumps-one", 3, "a rook may jump over one piece in its way and slide on beyond it";
    /// The slide goes one step past the first piece it meets, and stops there.
    RookHopsOverOne = "rook-hops-over-one", 4, "a rook may hop over the first piece in its way onto the point just beyond it, and no farther";
    /// The elephant's table of points lists only empty ones.
    ElephantNeverCaptures = "elephant-never-captures", 4, "an elephant never captures";
    /// The slide loop stops at the river, as the elephant's does.
    RookStopsAtRiver = "rook-stops-at-river", 4, "a rook cannot cross the river: its slide stops on its side of it";
    /// The jump loop stops at the river, as the elephant's does.
    HorseStopsAtRiver = "horse-stops-at-river", 4, "a horse cannot cross the river: it never jumps from one side of it to the other";
    /// The capture over a screen is never generated.
    CannonCannotCapture = "cannon-cannot-capture", 3, "a cannon never captures";
    /// The cannon also captures like a rook.
    CannonCapturesWithoutScreen = "cannon-captures-without-screen", 3, "a cannon also captures the first piece in its way, without a screen";
    /// The cannon's capture is looked for over one or two screens.
    CannonCapturesOverTwoScreens = "cannon-captures-over-two-screens", 3, "a cannon also captures over two screens";
    /// The screen test asks for a piece of the cannon's own side.
    CannonScreenMustBeOwn = "cannon-screen-must-be-own", 4, "a cannon captures only over a screen of its own side, never over an enemy piece";
    /// Beyond its screen the cannon keeps making quiet moves.
    CannonJumpsToEmpty = "cannon-jumps-to-empty", 3, "a cannon may jump its screen to land on an empty point";
    /// The river test for sideways steps is skipped.
    PawnSidewaysBeforeRiver = "pawn-sideways-before-river", 3, "a pawn may step sideways before it has crossed the river";
    /// The river test for sideways steps is written for Red only.
    BlackPawnSidewaysBeforeRiver = "black-pawn-sideways-before-river", 4, "Black's pawns may step sideways before they have crossed the river";
    /// The river test is off by one: the near bank counts as across.
    PawnSidewaysOnRiverBank = "pawn-sideways-on-river-bank", 4, "a pawn on its own bank of the river (Red's rank 4, Black's rank 5) may already step sideways";
    /// The river test for sideways steps is written for Black only.
    RedPawnSidewaysBeforeRiver = "red-pawn-sideways-before-river", 4, "Red's pawns may step sideways before they have crossed the river";
    /// The sideways steps are never generated.
    PawnNeverSideways = "pawn-never-sideways", 3, "a pawn never steps sideways, even across the river, and so never gives check sideways";
    /// One side's sideways steps are left out (a pawn table or branch per side, one
    /// of them wrong).
    RedPawnNeverSideways = "red-pawn-never-sideways", 4, "Red's pawns never step sideways, even across the river, and so never give check sideways";
    /// [`Variant::RedPawnNeverSideways`], for Black's pawns.
    BlackPawnNeverSideways = "black-pawn-never-sideways", 4, "Black's pawns never step sideways, even across the river, and so never give check sideways";
    /// A crossed pawn may also step back.
    PawnStepsBackAfterRiver = "pawn-steps-back-after-river", 3, "a pawn that has crossed the river may also step backward";
    /// Black's pawns use Red's forward and Red's river.
    BlackPawnMovesLikeRed = "black-pawn-moves-like-red", 3, "Black's pawns move like Red's, up the board";
    // The same misreadings where the check detector reads the piece's rule from the
    // same definition as the move list (attack tables shared with move generation, as
    // in most bitboard engines and in engines whose pieces are configured): one misread
    // rule, seen both in the moves and in which moves leave the king attacked.
    /// [`Variant::HorseLegIgnored`], in the check detector too.
    HorseLegIgnoredAlsoInCheck = "horse-leg-ignored-also-in-check", 2, "a horse jumps, and gives check, even when its leg is blocked";
    /// [`Variant::HorseLegBlockedOnlyByOwn`], in the check detector too.
    HorseLegBlockedOnlyByOwnAlsoInCheck = "horse-leg-blocked-only-by-own-also-in-check", 3, "a horse's leg, when it moves and when it gives check, is blocked only by a piece of its own side, not by an enemy";
    /// [`Variant::HorseLegBlockedOnlyByEnemy`], in the check detector too.
    HorseLegBlockedOnlyByEnemyAlsoInCheck = "horse-leg-blocked-only-by-enemy-also-in-check", 3, "a horse's leg, when it moves and when it gives check, is blocked only by an enemy piece, not by one of its own side";
    /// [`Variant::HorseLegOnDiagonal`], in the check detector too.
    HorseLegOnDiagonalAlsoInCheck = "horse-leg-on-diagonal-also-in-check", 2, "a horse's leg, when it moves and when it gives check, is taken to be the point diagonally next to it on the way, not the orthogonal one";
    /// [`Variant::RookJumpsOne`], in the check detector too.
    RookJumpsOneAlsoInCheck = "rook-jumps-one-also-in-check", 2, "a rook may jump over one piece in its way and slide on beyond it, and gives check so too";
    /// [`Variant::RookHopsOverOne`], in the check detector too.
    RookHopsOverOneAlsoInCheck = "rook-hops-over-one-also-in-check", 3, "a rook may hop over the first piece in its way onto the point just beyond it, and gives check there too";
    /// [`Variant::CannonCannotCapture`], in the check detector too.
    CannonCannotCaptureAlsoInCheck = "cannon-cannot-capture-also-in-check", 2, "a cannon never captures, and so never gives check";
    /// [`Variant::CannonCapturesWithoutScreen`], in the check detector too.
    CannonCapturesWithoutScreenAlsoInCheck = "cannon-captures-without-screen-also-in-check", 2, "a cannon also captures, and gives check, like a rook, without a screen";
    /// [`Variant::CannonCapturesOverTwoScreens`], in the check detector too.
    CannonCapturesOverTwoScreensAlsoInCheck = "cannon-captures-over-two-screens-also-in-check", 2, "a cannon also captures, and gives check, over two screens";
    /// One row of the horse's table slips a sign: for the jumps two ranks toward Black's
    /// side the leg is looked for one rank toward Red's (where there is no such point,
    /// the horse does not jump), in the check detector too.
    HorseLegBehindTowardBlackAlsoInCheck = "horse-leg-behind-toward-black-also-in-check", 3, "a horse jumping two ranks toward Black's side looks for its leg on the point behind it instead of in front of it, when it moves and when it gives check";
    /// The cannon's capture is read as a draughts jump: over an enemy piece onto the
    /// empty point beyond it, taking nothing, so the detector never finds it checking.
    CannonHopsLikeDraughtsAlsoInCheck = "cannon-hops-like-draughts-also-in-check", 2, "a cannon never captures: it jumps over an enemy piece onto the empty point just beyond it, as in draughts, and so never gives check";
    /// The own-piece test is skipped for rooks.
    RookTakesOwn = "rook-takes-own", 4, "a rook may capture a piece of its own side";
    /// The own-piece test is skipped for cannons.
    CannonTakesOwn = "cannon-takes-own", 4, "a cannon may capture a piece of its own side over a screen";
    /// The own-piece test is skipped for horses.
    HorseTakesOwn = "horse-takes-own", 4, "a horse may capture a piece of its own side";
    /// The own-piece test is skipped for every piece.
    EveryPieceTakesOwn = "every-piece-takes-own", 2, "any piece may capture a piece of its own side";

    // The kings facing.
    /// The flying-general rule is left out.
    KingsFacingIgnored = "kings-facing-ignored", 3, "the generator ignores the kings facing each other on an open file";
    /// The "no piece between" clause is left out.
    KingsFacingThroughPieces = "kings-facing-through-pieces", 3, "two kings on one file count as facing each other even with pieces between them";
    /// The scan between the kings lets one piece pass before it counts them apart.
    KingsFacingThroughOnePiece = "kings-facing-through-one-piece", 4, "two kings on one file count as facing each other with one piece between them, as with none";
    /// The detector applies the facing rule only to Red's king.
    KingsFacingOnlyForRed = "kings-facing-only-for-red", 4, "the kings facing each other is a check on Red's king only, so Black may leave them facing";
    /// The detector applies the facing rule only to Black's king.
    KingsFacingOnlyForBlack = "kings-facing-only-for-black", 4, "the kings facing each other is a check on Black's king only, so Red may leave them facing";
    /// The facing rule is a check on the king's destination only.
    KingsFacingOnlyForKingMoves = "kings-facing-only-for-king-moves", 4, "the kings facing is checked only when a king moves, so the last piece between them may step aside";
    /// The facing rule is a test of the mover leaving the kings' file: a move along the
    /// file is taken to keep them apart, though a cannon there may jump a king.
    KingsFacingCannonOverKing = "kings-facing-cannon-over-king", 5, "a cannon alone between the kings may capture over one of them as its screen, leaving the kings facing each other (a move along their file is taken to keep them apart)";

    // The check detector, per attacking piece: the move list is right, the question "is
    // the king attacked?" is not.
    /// The detector never asks rooks.
    CheckBlindToRook = "check-blind-to-rook", 3, "the check detector does not see checks by a rook";
    /// The detector never asks horses.
    CheckBlindToHorse = "check-blind-to-horse", 3, "the check detector does not see checks by a horse";
    /// The detector never asks cannons.
    CheckBlindToCannon = "check-blind-to-cannon", 3, "the check detector does not see checks by a cannon";
    /// The detector never asks pawns.
    CheckBlindToPawn = "check-blind-to-pawn", 3, "the check detector does not see checks by a pawn";
    /// The detector asks one side's pawns only (a pawn-attacks table per side, one of
    /// them missing).
    CheckBlindToBlackPawn = "check-blind-to-black-pawn", 4, "the check detector does not see checks by Black's pawns";
    /// [`Variant::CheckBlindToBlackPawn`], for Red's pawns.
    CheckBlindToRedPawn = "check-blind-to-red-pawn", 4, "the check detector does not see checks by Red's pawns";
    /// The detector moves Black's pawns up the board.
    CheckBlackPawnAsRed = "check-black-pawn-as-red", 4, "the check detector moves Black's pawns like Red's";
    /// The detector moves Red's pawns down the board.
    CheckRedPawnAsBlack = "check-red-pawn-as-black", 4, "the check detector moves Red's pawns like Black's";
    /// The detector takes the pawn's direction from the king it looks at, not the pawn.
    CheckPawnWrongWay = "check-pawn-wrong-way", 3, "the check detector moves the enemy's pawns the wrong way, like the pawns of the king's own side";
    /// The detector's pawn-attack table has its forward row upside down: it looks for the
    /// pawn that checks forward on the wrong side of the king, and reads the sideways
    /// checks right.
    CheckPawnForwardReversed = "check-pawn-forward-reversed", 4, "the check detector looks for a pawn's forward check from the wrong side: it sees an enemy pawn just behind the king as checking it, and not one just in front of it (its sideways checks are seen right)";
    /// The detector forgets that a crossed pawn attacks sideways.
    CheckPawnSidewaysBlind = "check-pawn-sideways-blind", 4, "the check detector does not see a pawn's sideways check";
    /// The detector's table of the points a pawn attacks from leaves out Black's
    /// sideways steps (one side's row of an attack table gone wrong, as in a bitboard
    /// engine's pawn-attacks-to table).
    CheckBlackPawnSidewaysBlind = "check-black-pawn-sideways-blind", 5, "the check detector does not see a sideways check by Black's pawns";
    /// [`Variant::CheckBlackPawnSidewaysBlind`], for Red's pawns.
    CheckRedPawnSidewaysBlind = "check-red-pawn-sideways-blind", 5, "the check detector does not see a sideways check by Red's pawns";
    /// The detector lets a horse check over a blocked leg.
    CheckHorseLegIgnored = "check-horse-leg-ignored", 4, "the check detector sees a horse's check even when the horse's leg is blocked";
    /// The detector, looking out from the king, takes the leg next to the king.
    CheckHorseLegNextToKing = "check-horse-leg-next-to-king", 4, "the check detector looks for a horse's leg next to the king, as if the king were the horse, instead of next to the horse";
    /// The detector lets a cannon check without a screen.
    CheckCannonWithoutScreen = "check-cannon-without-screen", 4, "the check detector also sees a cannon's check with no screen, like a rook's";
    /// The detector lets a cannon check over two screens.
    CheckCannonOverTwoScreens = "check-cannon-over-two-screens", 4, "the check detector also sees a cannon's check over two screens";

    // Legality: which moves are tested for leaving the king attacked, and how.
    /// Non-king moves made while not in check are tested without horses.
    DiscoveredHorseCheckIgnored = "discovered-horse-check-ignored", 4, "a piece blocking an enemy horse's leg may step away and leave its own king in check";
    /// Non-king moves made while not in check are tested without cannons.
    DiscoveredCannonCheckIgnored = "discovered-cannon-check-ignored", 4, "a move that gives an enemy cannon its screen (or takes away one of two) may leave its own king in check";
    /// Non-king moves made while not in check are not tested at all.
    PinsIgnored = "pins-ignored", 2, "when the side to move is not in check, a move of any piece but the king is never tested for its king's safety: a pinned piece may leave the line of the pin, a piece may step in front of its king as an enemy cannon's screen, and the last piece between the kings may step aside";
    /// A piece with any move that exposes its king may not move at all.
    PinnedPieceFrozen = "pinned-piece-frozen", 3, "a pinned piece may not move at all, not even along the line of the pin";
    /// In double check only king moves are tried.
    DoubleCheckKingOnly = "double-check-king-only", 4, "in double check only the king may move, though a block or capture may answer both checks";
    /// In double check a move that ends one of the checks is taken as legal.
    DoubleCheckOneAnswer = "double-check-one-answer", 4, "in double check a move that answers only one of the two checks is allowed";
    /// In any check only king moves are tried.
    CheckEvasionKingOnly = "check-evasion-king-only", 3, "in check only the king may move: blocking or capturing the checking piece is not allowed";
    /// King moves are not tested.
    KingStepsIntoCheck = "king-steps-into-check", 2, "a king may step onto an attacked point";
    /// Nothing is tested: the moves are the pseudo-legal ones.
    PseudoLegalOnly = "pseudo-legal-only", 1, "a move may leave its own king in check (the generator lists pseudo-legal moves, as under king-capture rules)";

    // The state: the side to move and the counters.
    /// The side to move is not read from the position.
    SideToMoveIgnored = "side-to-move-ignored", 2, "the generator always moves Red's pieces, whichever side is to move";
    /// Make does not switch the side to move.
    MakeKeepsTurn = "make-keeps-turn", 2, "a move does not pass the turn: the same side moves again";
    /// The half-move clock ends the game inside the generator.
    ClockEndsMoves = "clock-ends-moves", 5, "a side has no moves once the half-move clock reaches 100";
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(name: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL
            .iter()
            .copied()
            .find(|v| v.name() == name)
            .ok_or_else(|| UnknownVariant(name.to_owned()))
    }
}

/// A name that is not in the catalogue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no rule variant is called {:?} (see docs/variants.md)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}
