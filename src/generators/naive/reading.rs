//! How the naive generator reads the rules: the few points where a plausible misreading
//! of the contract would change an answer, each asked as a question whose default
//! answer is the contract's.
//!
//! The rules as written ([`AsWritten`]) answer every question with the default, so the
//! compiler folds each question back into the plain rule and the naive generator costs
//! what it did before the questions were there. A catalogue of misreadings (the
//! `diagnose` layer) answers some of them differently, and so turns the naive generator
//! into a complete generator of a wrong rule: what a buggy engine would answer.
//!
//! The questions live here, not in the catalogue, so that the naive generator never
//! depends on anything above it.

use super::{in_palace, on_own_half};
use crate::piece::{Color, Piece, Role};

/// Who asks where a piece may go: the move list, or the check detector asking whether
/// an enemy piece could take the king. The rules give both the same answer; a
/// misreading may live in only one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asker {
    /// The list of the side to move's moves.
    Mover,
    /// The check detector, about a piece of the side not being asked about.
    Detector,
}

/// A reading of the rules: the contract's answer to each question unless overridden.
/// Every method is a decision point of `rules.rs` or of the board in `mod.rs`.
pub trait Reading: Copy + Send + Sync + 'static {
    /// The generator's name for reports and `--generator`.
    fn name(self) -> &'static str;

    /// Whether the check detector may look only where some piece could reach the king
    /// from under the contract's own moves (its file and rank, a horse's leap away). A
    /// misreading that moves a piece elsewhere (an elephant across the river, a king out
    /// of its palace) needs every enemy piece asked, so only the rules as written say yes.
    fn near_king_only(self) -> bool {
        false
    }

    /// "King/Advisor: ... staying inside its own palace."
    #[inline(always)]
    fn stays_in_palace(self, _role: Role, color: Color, file: i8, rank: i8, _by: Asker) -> bool {
        in_palace(color, file, rank)
    }

    /// "Elephant: ... it never crosses the river."
    #[inline(always)]
    fn elephant_may_land(self, color: Color, rank: i8, _by: Asker) -> bool {
        on_own_half(color, rank)
    }

    /// "The point between (the elephant's eye) must be empty."
    #[inline(always)]
    fn eye_blocks(self, _color: Color, eye: Option<Piece>, _by: Asker) -> bool {
        eye.is_some()
    }

    /// Where the horse's leg is on its way from `from` to `to`, if not "the point one
    /// orthogonal step away" (`None`).
    #[inline(always)]
    fn horse_leg_elsewhere(self, _from: (i8, i8), _to: (i8, i8), _by: Asker) -> Option<(i8, i8)> {
        None
    }

    /// Whether a horse may jump from `rank` to `to_rank`: anywhere on the board, across
    /// the river too.
    #[inline(always)]
    fn horse_crosses(self, _rank: i8, _to_rank: i8, _by: Asker) -> bool {
        true
    }

    /// "The horse's leg must be empty": whether what stands on it stops the horse.
    #[inline(always)]
    fn leg_blocks(self, _color: Color, leg: Option<Piece>, _by: Asker) -> bool {
        leg.is_some()
    }

    /// How many pieces a rook passes over: "no jumping".
    #[inline(always)]
    fn rook_jumps(self, _by: Asker) -> u8 {
        0
    }

    /// Whether a rook that has jumped a piece stops on the first point beyond it (a slide
    /// loop that goes one step past the piece it met, and no farther).
    #[inline(always)]
    fn rook_stops_after_jump(self, _by: Asker) -> bool {
        false
    }

    /// Whether a cannon that has jumped `screens` pieces takes the next one: "exactly one".
    #[inline(always)]
    fn cannon_takes_over(self, screens: u8, _by: Asker) -> bool {
        screens == 1
    }

    /// Whether a cannon may jump over the first piece in its way, if that is an enemy,
    /// onto the empty point just beyond it: never, under the contract.
    #[inline(always)]
    fn cannon_hops_enemy(self, _by: Asker) -> bool {
        false
    }

    /// How many screens a cannon looks beyond before it stops: one, under the contract.
    #[inline(always)]
    fn cannon_most_screens(self, _by: Asker) -> u8 {
        1
    }

    /// Whether a cannon may land on an empty point beyond its screen: "jumped over but not
    /// landed on".
    #[inline(always)]
    fn cannon_lands_past_screen(self) -> bool {
        false
    }

    /// Whose pawn a `color` pawn moves like (its forward and its river): its own side's.
    #[inline(always)]
    fn pawn_moves_as(self, color: Color, _by: Asker) -> Color {
        color
    }

    /// Whether a pawn's forward step is taken the other way, its river and sideways
    /// steps left as they are: never, under the contract.
    #[inline(always)]
    fn pawn_forward_reversed(self, _by: Asker) -> bool {
        false
    }

    /// "Once across the river it may also step one square sideways": whether a pawn
    /// moving like `color`'s on `rank` has crossed.
    #[inline(always)]
    fn pawn_crossed(self, color: Color, rank: i8, _by: Asker) -> bool {
        !on_own_half(color, rank)
    }

    /// "Never backward."
    #[inline(always)]
    fn pawn_steps_back(self, _crossed: bool, _by: Asker) -> bool {
        false
    }

    /// Whether an elephant may take the enemy piece on the point it lands on: as any
    /// piece may.
    #[inline(always)]
    fn elephant_captures(self, _by: Asker) -> bool {
        true
    }

    /// Whether a `color` cannon may take over `screen`: "the screen, of either colour".
    #[inline(always)]
    fn screen_serves(self, _color: Color, _screen: Piece, _by: Asker) -> bool {
        true
    }

    /// Whether a rook may slide on from `rank` to `next`: anywhere on the board, the
    /// river included.
    #[inline(always)]
    fn rook_crosses(self, _rank: i8, _next: i8, _by: Asker) -> bool {
        true
    }

    /// "Never on an own piece": whether a `role` piece may take one of its own side's.
    #[inline(always)]
    fn takes_own(self, _role: Role) -> bool {
        false
    }

    /// Whether `asked_for`'s king counts the kings facing as a check: "the two kings stand
    /// on one file with no piece between them". `between` counts the pieces between
    /// them, asked only where a reading needs it.
    #[inline(always)]
    fn kings_face(
        self,
        _asked_for: Color,
        same_file: bool,
        between: impl FnOnce() -> usize,
    ) -> bool {
        same_file && between() == 0
    }

    /// Whether the check detector asks `attacker` at all: every enemy piece, always.
    #[inline(always)]
    fn detector_sees(self, _attacker: Piece) -> bool {
        true
    }

    /// Whose move a loaded position is: the one its FEN says.
    #[inline(always)]
    fn reads_turn(self, turn: Color) -> Color {
        turn
    }

    /// Whether a move passes the turn to the other side: always.
    #[inline(always)]
    fn passes_turn(self) -> bool {
        true
    }

    /// Whether a side has moves at all with the half-move clock at `halfmoves`: the
    /// counters play no part in which moves there are.
    #[inline(always)]
    fn moves_at_clock(self, _halfmoves: u32) -> bool {
        true
    }
}

/// The rules as `docs/rules.md` writes them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AsWritten;

impl Reading for AsWritten {
    fn name(self) -> &'static str {
        "naive"
    }

    #[inline(always)]
    fn near_king_only(self) -> bool {
        true
    }
}
