//! Each variant's answers to the naive generator's questions: where a variant misreads
//! a rule of movement, of the kings facing, of the check detector or of the state, it
//! answers that question its own way and leaves every other one to the rules as written.
//! A misread piece rule is asked by the move list only ([`Asker::Mover`]) where the
//! engine detects check with code of its own (a detector that misreads a piece is a
//! `check-*` variant of its own), and by both where the variant is its `*-also-in-check`
//! twin: an engine that reads attacks from the same piece definition as moves.
//! (The legality variants answer every question as written: their misreading is in which
//! moves get tested, `generator.rs`.)

use super::catalogue::Variant::{self, *};
use crate::generators::naive::reading::Asker::{self, Detector, Mover};
use crate::generators::naive::reading::{AsWritten, Reading};
use crate::piece::{Color, Piece, Role};

/// One step toward `to` from `from`, along each axis.
fn toward(from: (i8, i8), to: (i8, i8)) -> (i8, i8) {
    ((to.0 - from.0).signum(), (to.1 - from.1).signum())
}

impl Reading for Variant {
    fn name(self) -> &'static str {
        Variant::name(self)
    }

    fn stays_in_palace(self, role: Role, color: Color, file: i8, rank: i8, by: Asker) -> bool {
        match (self, role, color, by) {
            (KingLeavesPalace, Role::King, _, Mover)
            | (BlackKingLeavesPalace, Role::King, Color::Black, Mover)
            | (AdvisorLeavesPalace, Role::Advisor, _, Mover) => true,
            (PalaceOneRankTooDeep, _, Color::Red, Mover) => {
                (3..=5).contains(&file) && (0..=3).contains(&rank)
            }
            (PalaceOneRankTooDeep, _, Color::Black, Mover) => {
                (3..=5).contains(&file) && (6..=9).contains(&rank)
            }
            _ => AsWritten.stays_in_palace(role, color, file, rank, by),
        }
    }

    fn elephant_may_land(self, color: Color, rank: i8, by: Asker) -> bool {
        match (self, color, by) {
            (ElephantCrossesRiver, _, Mover) | (BlackElephantCrossesRiver, Color::Black, Mover) => {
                true
            }
            _ => AsWritten.elephant_may_land(color, rank, by),
        }
    }

    fn eye_blocks(self, color: Color, eye: Option<Piece>, by: Asker) -> bool {
        match (self, by) {
            (ElephantEyeIgnored, Mover) => false,
            (ElephantEyeBlockedOnlyByOwn, Mover) => eye.is_some_and(|p| p.color == color),
            _ => AsWritten.eye_blocks(color, eye, by),
        }
    }

    fn horse_leg_elsewhere(self, from: (i8, i8), to: (i8, i8), by: Asker) -> Option<(i8, i8)> {
        match (self, by) {
            (HorseLegOnDiagonal, Mover) | (HorseLegOnDiagonalAlsoInCheck, _) => {
                let (df, dr) = toward(from, to);
                Some((from.0 + df, from.1 + dr))
            }
            (HorseLegBehindTowardBlackAlsoInCheck, _) if to.1 - from.1 == 2 => {
                Some((from.0, from.1 - 1))
            }
            (CheckHorseLegNextToKing, Detector) => {
                // Looking out from the king as if it were the horse: one orthogonal step
                // from the king along the long side of the L.
                let (df, dr) = toward(to, from);
                Some(if (from.0 - to.0).abs() == 2 {
                    (to.0 + df, to.1)
                } else {
                    (to.0, to.1 + dr)
                })
            }
            _ => AsWritten.horse_leg_elsewhere(from, to, by),
        }
    }

    fn horse_crosses(self, rank: i8, to_rank: i8, by: Asker) -> bool {
        match (self, by) {
            (HorseStopsAtRiver, Mover) => (rank <= 4) == (to_rank <= 4),
            _ => AsWritten.horse_crosses(rank, to_rank, by),
        }
    }

    fn leg_blocks(self, color: Color, leg: Option<Piece>, by: Asker) -> bool {
        match (self, by) {
            (HorseLegIgnored, Mover)
            | (CheckHorseLegIgnored, Detector)
            | (HorseLegIgnoredAlsoInCheck, _) => false,
            (HorseLegBlockedOnlyByOwn, Mover) | (HorseLegBlockedOnlyByOwnAlsoInCheck, _) => {
                leg.is_some_and(|p| p.color == color)
            }
            (HorseLegBlockedOnlyByEnemy, Mover) | (HorseLegBlockedOnlyByEnemyAlsoInCheck, _) => {
                leg.is_some_and(|p| p.color != color)
            }
            _ => AsWritten.leg_blocks(color, leg, by),
        }
    }

    fn rook_jumps(self, by: Asker) -> u8 {
        match (self, by) {
            (RookJumpsOne | RookHopsOverOne, Mover)
            | (RookJumpsOneAlsoInCheck | RookHopsOverOneAlsoInCheck, _) => 1,
            _ => AsWritten.rook_jumps(by),
        }
    }

    fn rook_stops_after_jump(self, by: Asker) -> bool {
        (self, by) == (RookHopsOverOne, Mover) || self == RookHopsOverOneAlsoInCheck
    }

    fn cannon_takes_over(self, screens: u8, by: Asker) -> bool {
        match (self, by) {
            (CannonCannotCapture, Mover)
            | (CannonCannotCaptureAlsoInCheck | CannonHopsLikeDraughtsAlsoInCheck, _) => false,
            (CannonCapturesWithoutScreen, Mover)
            | (CheckCannonWithoutScreen, Detector)
            | (CannonCapturesWithoutScreenAlsoInCheck, _) => screens <= 1,
            (CannonCapturesOverTwoScreens, Mover)
            | (CheckCannonOverTwoScreens, Detector)
            | (CannonCapturesOverTwoScreensAlsoInCheck, _) => screens == 1 || screens == 2,
            _ => AsWritten.cannon_takes_over(screens, by),
        }
    }

    fn cannon_most_screens(self, by: Asker) -> u8 {
        match (self, by) {
            (CannonCapturesOverTwoScreens, Mover)
            | (CheckCannonOverTwoScreens, Detector)
            | (CannonCapturesOverTwoScreensAlsoInCheck, _) => 2,
            _ => AsWritten.cannon_most_screens(by),
        }
    }

    fn cannon_lands_past_screen(self) -> bool {
        // Only the move list lands on empty points; the detector only ever takes a king.
        self == CannonJumpsToEmpty
    }

    fn cannon_hops_enemy(self, _by: Asker) -> bool {
        self == CannonHopsLikeDraughtsAlsoInCheck
    }

    fn pawn_moves_as(self, color: Color, by: Asker) -> Color {
        match (self, color, by) {
            (BlackPawnMovesLikeRed, Color::Black, Mover)
            | (CheckBlackPawnAsRed, Color::Black, Detector) => Color::Red,
            (CheckRedPawnAsBlack, Color::Red, Detector) => Color::Black,
            // The detector asks only about the enemy's pieces: the king's side is the
            // pawn's other.
            (CheckPawnWrongWay, _, Detector) => color.other(),
            _ => AsWritten.pawn_moves_as(color, by),
        }
    }

    fn pawn_forward_reversed(self, by: Asker) -> bool {
        (self, by) == (CheckPawnForwardReversed, Detector)
    }

    fn pawn_crossed(self, color: Color, rank: i8, by: Asker) -> bool {
        match (self, color, by) {
            (PawnSidewaysBeforeRiver, _, _)
            | (BlackPawnSidewaysBeforeRiver, Color::Black, _)
            | (RedPawnSidewaysBeforeRiver, Color::Red, _) => true,
            (PawnSidewaysOnRiverBank, Color::Red, _) => rank >= 4,
            (PawnSidewaysOnRiverBank, Color::Black, _) => rank <= 5,
            (PawnNeverSideways, _, _)
            | (RedPawnNeverSideways, Color::Red, _)
            | (BlackPawnNeverSideways, Color::Black, _)
            | (CheckPawnSidewaysBlind, _, Asker::Detector)
            | (CheckBlackPawnSidewaysBlind, Color::Black, Asker::Detector)
            | (CheckRedPawnSidewaysBlind, Color::Red, Asker::Detector) => false,
            _ => AsWritten.pawn_crossed(color, rank, by),
        }
    }

    fn pawn_steps_back(self, crossed: bool, by: Asker) -> bool {
        match (self, by) {
            (PawnStepsBackAfterRiver, Mover) => crossed,
            _ => AsWritten.pawn_steps_back(crossed, by),
        }
    }

    fn elephant_captures(self, by: Asker) -> bool {
        (self, by) != (ElephantNeverCaptures, Mover)
    }

    fn screen_serves(self, color: Color, screen: Piece, by: Asker) -> bool {
        match (self, by) {
            (CannonScreenMustBeOwn, Mover) => screen.color == color,
            _ => AsWritten.screen_serves(color, screen, by),
        }
    }

    fn rook_crosses(self, rank: i8, next: i8, by: Asker) -> bool {
        match (self, by) {
            // Across the river is between ranks 4 and 5, either way.
            (RookStopsAtRiver, Mover) => (rank <= 4) == (next <= 4),
            _ => AsWritten.rook_crosses(rank, next, by),
        }
    }

    fn takes_own(self, role: Role) -> bool {
        match (self, role) {
            (RookTakesOwn, Role::Rook)
            | (CannonTakesOwn, Role::Cannon)
            | (HorseTakesOwn, Role::Horse)
            | (EveryPieceTakesOwn, _) => true,
            _ => AsWritten.takes_own(role),
        }
    }

    fn kings_face(
        self,
        asked_for: Color,
        same_file: bool,
        between: impl FnOnce() -> usize,
    ) -> bool {
        match (self, asked_for) {
            (KingsFacingIgnored, _)
            | (KingsFacingOnlyForRed, Color::Black)
            | (KingsFacingOnlyForBlack, Color::Red) => false,
            (KingsFacingThroughPieces, _) => same_file,
            (KingsFacingThroughOnePiece, _) => same_file && between() <= 1,
            _ => AsWritten.kings_face(asked_for, same_file, between),
        }
    }

    fn detector_sees(self, attacker: Piece) -> bool {
        !matches!(
            (self, attacker.role, attacker.color),
            (CheckBlindToRook, Role::Rook, _)
                | (CheckBlindToHorse, Role::Horse, _)
                | (CheckBlindToCannon, Role::Cannon, _)
                | (CheckBlindToPawn, Role::Pawn, _)
                | (CheckBlindToBlackPawn, Role::Pawn, Color::Black)
                | (CheckBlindToRedPawn, Role::Pawn, Color::Red)
        )
    }

    fn reads_turn(self, turn: Color) -> Color {
        match self {
            SideToMoveIgnored => Color::Red,
            _ => AsWritten.reads_turn(turn),
        }
    }

    fn passes_turn(self) -> bool {
        self != MakeKeepsTurn
    }

    fn moves_at_clock(self, halfmoves: u32) -> bool {
        match self {
            ClockEndsMoves => halfmoves < 100,
            _ => AsWritten.moves_at_clock(halfmoves),
        }
    }
}

/// One variant's reading of the rules, or two at once: a subject with two bugs may show
/// both on one witness, and no single variant answers it. Each question is answered by
/// `variant` where its answer differs from the rules as written, else by `beside`, so
/// two misreadings of different rules each keep their own; where both misread the same
/// question, `variant`'s answer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Misreading {
    /// The misreading that answers first.
    pub variant: Variant,
    /// A second misreading, asked where the first reads the rules as written.
    pub beside: Option<Variant>,
}

impl From<Variant> for Misreading {
    fn from(variant: Variant) -> Misreading {
        Misreading {
            variant,
            beside: None,
        }
    }
}

impl Misreading {
    /// `variant`'s answer where it is not the rules' (`written`), else `beside`'s.
    fn answer<T: PartialEq>(self, written: T, ask: impl Fn(Variant) -> T) -> T {
        let first = ask(self.variant);
        match self.beside {
            Some(beside) if first == written => ask(beside),
            _ => first,
        }
    }
}

impl Reading for Misreading {
    fn name(self) -> &'static str {
        Variant::name(self.variant)
    }

    fn stays_in_palace(self, role: Role, color: Color, file: i8, rank: i8, by: Asker) -> bool {
        self.answer(
            AsWritten.stays_in_palace(role, color, file, rank, by),
            |v| v.stays_in_palace(role, color, file, rank, by),
        )
    }

    fn elephant_may_land(self, color: Color, rank: i8, by: Asker) -> bool {
        self.answer(AsWritten.elephant_may_land(color, rank, by), |v| {
            v.elephant_may_land(color, rank, by)
        })
    }

    fn eye_blocks(self, color: Color, eye: Option<Piece>, by: Asker) -> bool {
        self.answer(AsWritten.eye_blocks(color, eye, by), |v| {
            v.eye_blocks(color, eye, by)
        })
    }

    fn horse_leg_elsewhere(self, from: (i8, i8), to: (i8, i8), by: Asker) -> Option<(i8, i8)> {
        self.answer(AsWritten.horse_leg_elsewhere(from, to, by), |v| {
            v.horse_leg_elsewhere(from, to, by)
        })
    }

    fn horse_crosses(self, rank: i8, to_rank: i8, by: Asker) -> bool {
        self.answer(AsWritten.horse_crosses(rank, to_rank, by), |v| {
            v.horse_crosses(rank, to_rank, by)
        })
    }

    fn leg_blocks(self, color: Color, leg: Option<Piece>, by: Asker) -> bool {
        self.answer(AsWritten.leg_blocks(color, leg, by), |v| {
            v.leg_blocks(color, leg, by)
        })
    }

    fn rook_jumps(self, by: Asker) -> u8 {
        self.answer(AsWritten.rook_jumps(by), |v| v.rook_jumps(by))
    }

    fn rook_stops_after_jump(self, by: Asker) -> bool {
        self.answer(AsWritten.rook_stops_after_jump(by), |v| {
            v.rook_stops_after_jump(by)
        })
    }

    fn cannon_takes_over(self, screens: u8, by: Asker) -> bool {
        self.answer(AsWritten.cannon_takes_over(screens, by), |v| {
            v.cannon_takes_over(screens, by)
        })
    }

    fn cannon_hops_enemy(self, by: Asker) -> bool {
        self.answer(AsWritten.cannon_hops_enemy(by), |v| v.cannon_hops_enemy(by))
    }

    fn cannon_most_screens(self, by: Asker) -> u8 {
        self.answer(AsWritten.cannon_most_screens(by), |v| {
            v.cannon_most_screens(by)
        })
    }

    fn cannon_lands_past_screen(self) -> bool {
        self.answer(AsWritten.cannon_lands_past_screen(), |v| {
            v.cannon_lands_past_screen()
        })
    }

    fn pawn_moves_as(self, color: Color, by: Asker) -> Color {
        self.answer(AsWritten.pawn_moves_as(color, by), |v| {
            v.pawn_moves_as(color, by)
        })
    }

    fn pawn_forward_reversed(self, by: Asker) -> bool {
        self.answer(AsWritten.pawn_forward_reversed(by), |v| {
            v.pawn_forward_reversed(by)
        })
    }

    fn pawn_crossed(self, color: Color, rank: i8, by: Asker) -> bool {
        self.answer(AsWritten.pawn_crossed(color, rank, by), |v| {
            v.pawn_crossed(color, rank, by)
        })
    }

    fn pawn_steps_back(self, crossed: bool, by: Asker) -> bool {
        self.answer(AsWritten.pawn_steps_back(crossed, by), |v| {
            v.pawn_steps_back(crossed, by)
        })
    }

    fn elephant_captures(self, by: Asker) -> bool {
        self.answer(AsWritten.elephant_captures(by), |v| v.elephant_captures(by))
    }

    fn screen_serves(self, color: Color, screen: Piece, by: Asker) -> bool {
        self.answer(AsWritten.screen_serves(color, screen, by), |v| {
            v.screen_serves(color, screen, by)
        })
    }

    fn rook_crosses(self, rank: i8, next: i8, by: Asker) -> bool {
        self.answer(AsWritten.rook_crosses(rank, next, by), |v| {
            v.rook_crosses(rank, next, by)
        })
    }

    fn takes_own(self, role: Role) -> bool {
        self.answer(AsWritten.takes_own(role), |v| v.takes_own(role))
    }

    fn kings_face(
        self,
        asked_for: Color,
        same_file: bool,
        between: impl FnOnce() -> usize,
    ) -> bool {
        // The pieces between them are counted once, and only for kings on one file: no
        // reading looks at the file between kings on two files.
        let between = if same_file { between() } else { usize::MAX };
        self.answer(
            AsWritten.kings_face(asked_for, same_file, || between),
            |v| v.kings_face(asked_for, same_file, || between),
        )
    }

    fn detector_sees(self, attacker: Piece) -> bool {
        self.answer(AsWritten.detector_sees(attacker), |v| {
            v.detector_sees(attacker)
        })
    }

    fn reads_turn(self, turn: Color) -> Color {
        self.answer(AsWritten.reads_turn(turn), |v| v.reads_turn(turn))
    }

    fn passes_turn(self) -> bool {
        self.answer(AsWritten.passes_turn(), |v| v.passes_turn())
    }

    fn moves_at_clock(self, halfmoves: u32) -> bool {
        self.answer(AsWritten.moves_at_clock(halfmoves), |v| {
            v.moves_at_clock(halfmoves)
        })
    }
}
