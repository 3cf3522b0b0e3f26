//! Rare features of a position, and how often a stream of positions reaches each.
//!
//! A property test that passes on ten thousand positions proves little if none of them
//! had a cannon screen or a blocked horse leg. [`features`] names the rare rule cases a
//! position exercises and [`Coverage`] counts them over a run, so "reached" can be
//! asserted rather than hoped for.
//!
//! Every feature is computed here, on the [`Setup`], by its own plain code (plus
//! validation's [`Setup::checkers`] and [`Setup::pieces_between`]); never by a generator,
//! which would make the coverage only as right as the code it measures.
//!
//! The piece-rule features (screen, leg, eye, river, pawn ones) look at the side to
//! move's pieces only: those are the pieces whose moves get generated. The enemy's
//! pieces count through the check features and [`Feature::CannonPin`].
//!
//! Besides the rare rule cases, the edges of the other parts of a position: the fewest
//! and the most pieces, no legal move (mate, stalemate), each move counter at each of
//! its edges (`COUNTER_EDGES`) with either side to move, and every
//! point each kind of piece may stand on ([`Coverage::points`]). Whether a legal move
//! exists is asked of this module's own plain move rules, with validation
//! ([`Position::new`]) judging whether the mover's king is left attacked.

use crate::cases::structured;
use crate::piece::{Color, Piece, Role};
use crate::position::{Position, Setup};
use crate::square::{Square, SQUARE_COUNT};
use std::fmt;

/// One of the two move counters of a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Counter {
    /// Plies since the last capture (FEN field 5).
    Halfmoves,
    /// The move number (FEN field 6).
    Fullmoves,
}

impl Counter {
    /// Both, in FEN order.
    pub(crate) const ALL: [Counter; 2] = [Counter::Halfmoves, Counter::Fullmoves];

    /// The name used in feature names.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Counter::Halfmoves => "halfmoves",
            Counter::Fullmoves => "fullmoves",
        }
    }

    /// Its value in `setup`.
    pub(crate) fn of(self, setup: &Setup) -> u32 {
        match self {
            Counter::Halfmoves => setup.halfmoves,
            Counter::Fullmoves => setup.fullmoves,
        }
    }
}

/// The edges of a move counter's range: a fresh start (0), the 60- and 120-ply marks
/// where rule sets stop a game without captures, the last value of a byte and the first
/// past it, the same for 16 bits, and the largest value the FEN reader accepts (the
/// range is the contract's, `docs/rules.md`). Each is a place where a generator that
/// keeps a counter in too small a type, or compares it with a limit, goes wrong.
pub(crate) const COUNTER_EDGES: [u32; 8] = [0, 60, 120, 255, 256, 65_535, 65_536, u32::MAX];

/// One rare rule case a position can exercise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Feature {
    /// A cannon of the side to move can capture by jumping a screen.
    CannonScreen,
    /// A horse of the side to move has an occupied leg with a target beyond it on the board.
    HorseLegBlocked,
    /// An elephant of the side to move has an occupied eye before a point it could reach.
    ElephantEyeBlocked,
    /// An elephant of the side to move stands at the river (`c4`/`g4`, `c5`/`g5`).
    ElephantAtRiver,
    /// A pawn of the side to move has crossed the river.
    PawnCrossed,
    /// The side to move has pawns on both sides of the river.
    PawnsBothSides,
    /// A pawn of the side to move stands on the last rank and can only move sideways.
    PawnLastRank,
    /// The kings stand on one file, with pieces between.
    KingsSameFile,
    /// The kings stand on one file with exactly one piece between: moving it off the file
    /// is illegal.
    KingsOneBlocker,
    /// The side to move is in check.
    InCheck,
    /// A rook gives check.
    CheckByRook,
    /// A cannon gives check.
    CheckByCannon,
    /// A horse gives check.
    CheckByHorse,
    /// A pawn gives check.
    CheckByPawn,
    /// Two or more pieces give check.
    DoubleCheck,
    /// An enemy cannon is on a line with the side to move's king with exactly two pieces
    /// between: moving either of them off the line gives check.
    CannonPin,
    /// The two kings alone: the fewest pieces a position can have.
    TwoKingsOnly,
    /// All 32 pieces on the board: the most a position can have.
    All32Pieces,
    /// The side to move is in check and has no legal move: it has lost.
    Mate,
    /// The side to move is not in check and has no legal move: in Xiangqi it has lost too.
    Stalemate,
    /// A move counter stands at one of its edges with `turn` to move.
    Counter {
        /// Which counter.
        counter: Counter,
        /// Its value, one of `COUNTER_EDGES`.
        value: u32,
        /// The side to move.
        turn: Color,
    },
}

/// The features that are not counter edges, in table order.
const PLAIN: [Feature; 20] = [
    Feature::CannonScreen,
    Feature::HorseLegBlocked,
    Feature::ElephantEyeBlocked,
    Feature::ElephantAtRiver,
    Feature::PawnCrossed,
    Feature::PawnsBothSides,
    Feature::PawnLastRank,
    Feature::KingsSameFile,
    Feature::KingsOneBlocker,
    Feature::InCheck,
    Feature::CheckByRook,
    Feature::CheckByCannon,
    Feature::CheckByHorse,
    Feature::CheckByPawn,
    Feature::DoubleCheck,
    Feature::CannonPin,
    Feature::TwoKingsOnly,
    Feature::All32Pieces,
    Feature::Mate,
    Feature::Stalemate,
];

/// How many features there are: the plain ones, then each counter at each edge with
/// each side to move.
const FEATURES: usize = PLAIN.len() + Counter::ALL.len() * COUNTER_EDGES.len() * 2;

/// [`Feature::ALL`], built from its parts so that a new edge is one entry of
/// [`COUNTER_EDGES`].
const fn all_features() -> [Feature; FEATURES] {
    let mut out = [Feature::CannonScreen; FEATURES];
    let mut i = 0;
    while i < PLAIN.len() {
        out[i] = PLAIN[i];
        i += 1;
    }
    let mut c = 0;
    while c < Counter::ALL.len() {
        let mut e = 0;
        while e < COUNTER_EDGES.len() {
            let mut t = 0;
            while t < Color::ALL.len() {
                out[i] = Feature::Counter {
                    counter: Counter::ALL[c],
                    value: COUNTER_EDGES[e],
                    turn: Color::ALL[t],
                };
                i += 1;
                t += 1;
            }
            e += 1;
        }
        c += 1;
    }
    out
}

impl Feature {
    /// Every feature, in table order.
    pub(crate) const ALL: [Feature; FEATURES] = all_features();

    /// The name used in tables and reports: `cannon_screen`, or for a counter edge the
    /// counter, its value (`max` for the largest the FEN reader accepts) and the side
    /// to move, `halfmoves_256_black`.
    pub(crate) fn name(self) -> String {
        let plain = match self {
            Feature::CannonScreen => "cannon_screen",
            Feature::HorseLegBlocked => "horse_leg_blocked",
            Feature::ElephantEyeBlocked => "elephant_eye_blocked",
            Feature::ElephantAtRiver => "elephant_at_river",
            Feature::PawnCrossed => "pawn_crossed",
            Feature::PawnsBothSides => "pawns_both_sides",
            Feature::PawnLastRank => "pawn_last_rank",
            Feature::KingsSameFile => "kings_same_file",
            Feature::KingsOneBlocker => "kings_one_blocker",
            Feature::InCheck => "in_check",
            Feature::CheckByRook => "check_by_rook",
            Feature::CheckByCannon => "check_by_cannon",
            Feature::CheckByHorse => "check_by_horse",
            Feature::CheckByPawn => "check_by_pawn",
            Feature::DoubleCheck => "double_check",
            Feature::CannonPin => "cannon_pin",
            Feature::TwoKingsOnly => "two_kings_only",
            Feature::All32Pieces => "all_32_pieces",
            Feature::Mate => "mate",
            Feature::Stalemate => "stalemate",
            Feature::Counter {
                counter,
                value,
                turn,
            } => {
                let value = if value == u32::MAX {
                    "max".to_owned()
                } else {
                    value.to_string()
                };
                return format!("{}_{value}_{turn}", counter.as_str());
            }
        };
        plain.to_owned()
    }

    /// Position in [`Feature::ALL`]; `None` for a counter value that is not an edge.
    fn index(self) -> Option<usize> {
        Feature::ALL.iter().position(|&f| f == self)
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The four orthogonal steps: the lines of rooks and cannons, the legs of horses.
const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// The four diagonal steps: the eyes of elephants.
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn offset(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = u8::try_from(i16::from(sq.file()) + i16::from(df)).ok()?;
    let r = u8::try_from(i16::from(sq.rank()) + i16::from(dr)).ok()?;
    Square::new(f, r)
}

/// Rank counted from `color`'s own back rank: 0-4 its own half, 5-9 across the river.
fn relative_rank(color: Color, sq: Square) -> u8 {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

/// Squares of the side to move's pieces of kind `role`.
fn own(setup: &Setup, role: Role) -> impl Iterator<Item = Square> + '_ {
    let us = setup.turn;
    setup
        .pieces()
        .filter(move |&(_, p)| p.color == us && p.role == role)
        .map(|(sq, _)| sq)
}

fn cannon_screen(setup: &Setup) -> bool {
    own(setup, Role::Cannon).any(|sq| {
        ORTHOGONAL.iter().any(|&(df, dr)| {
            // Walk the line: the first piece met is the screen, the second the target.
            let mut at = sq;
            let mut met = 0;
            while let Some(next) = offset(at, df, dr) {
                at = next;
                if let Some(p) = setup.piece_at(at) {
                    met += 1;
                    if met == 2 {
                        return p.color != setup.turn;
                    }
                }
            }
            false
        })
    })
}

fn horse_leg_blocked(setup: &Setup) -> bool {
    own(setup, Role::Horse).any(|sq| {
        ORTHOGONAL.iter().any(|&(df, dr)| {
            let leg_occupied = offset(sq, df, dr).is_some_and(|leg| setup.piece_at(leg).is_some());
            // The two targets beyond the leg: two steps out, one to either side.
            let (sf, sr) = (dr, df);
            let target_on_board = [1, -1]
                .iter()
                .any(|&s| offset(sq, 2 * df + s * sf, 2 * dr + s * sr).is_some());
            leg_occupied && target_on_board
        })
    })
}

fn elephant_eye_blocked(setup: &Setup) -> bool {
    let us = setup.turn;
    own(setup, Role::Elephant).any(|sq| {
        DIAGONAL.iter().any(|&(df, dr)| {
            let target_reachable =
                offset(sq, 2 * df, 2 * dr).is_some_and(|t| relative_rank(us, t) <= 4);
            let eye_occupied = offset(sq, df, dr).is_some_and(|eye| setup.piece_at(eye).is_some());
            target_reachable && eye_occupied
        })
    })
}

/// Computes every feature of `pos`, in [`Feature::ALL`] order.
pub(crate) fn features(pos: &Position) -> Vec<Feature> {
    let setup = pos.setup();
    let us = setup.turn;
    let mut out = Vec::new();
    let mut add = |f: Feature, has: bool| {
        if has {
            out.push(f);
        }
    };

    add(Feature::CannonScreen, cannon_screen(setup));
    add(Feature::HorseLegBlocked, horse_leg_blocked(setup));
    add(Feature::ElephantEyeBlocked, elephant_eye_blocked(setup));
    add(
        Feature::ElephantAtRiver,
        own(setup, Role::Elephant).any(|sq| relative_rank(us, sq) == 4),
    );
    let pawn_ranks: Vec<u8> = own(setup, Role::Pawn)
        .map(|sq| relative_rank(us, sq))
        .collect();
    add(Feature::PawnCrossed, pawn_ranks.iter().any(|&r| r >= 5));
    add(
        Feature::PawnsBothSides,
        pawn_ranks.iter().any(|&r| r >= 5) && pawn_ranks.iter().any(|&r| r <= 4),
    );
    add(Feature::PawnLastRank, pawn_ranks.contains(&9));

    let red = pos.king(Color::Red);
    let black = pos.king(Color::Black);
    let between_kings = (red.file() == black.file())
        .then(|| setup.pieces_between(red, black))
        .flatten();
    add(Feature::KingsSameFile, between_kings.is_some());
    add(Feature::KingsOneBlocker, between_kings == Some(1));

    let checkers: Vec<Role> = setup
        .checkers(us)
        .into_iter()
        .filter_map(|sq| setup.piece_at(sq).map(|p| p.role))
        .collect();
    add(Feature::InCheck, !checkers.is_empty());
    add(Feature::CheckByRook, checkers.contains(&Role::Rook));
    add(Feature::CheckByCannon, checkers.contains(&Role::Cannon));
    add(Feature::CheckByHorse, checkers.contains(&Role::Horse));
    add(Feature::CheckByPawn, checkers.contains(&Role::Pawn));
    add(Feature::DoubleCheck, checkers.len() >= 2);

    let king = pos.king(us);
    add(
        Feature::CannonPin,
        setup
            .pieces()
            .filter(|&(_, p)| p.color != us && p.role == Role::Cannon)
            .any(|(sq, _)| setup.pieces_between(sq, king) == Some(2)),
    );

    let pieces = setup.pieces().count();
    add(Feature::TwoKingsOnly, pieces == 2);
    add(Feature::All32Pieces, pieces == 32);
    let stuck = !has_legal_move(pos);
    add(Feature::Mate, stuck && !checkers.is_empty());
    // A facing king is no checker: validation's detector counts it apart, and a valid
    // position never has the kings facing, so "not in check" needs no more than this.
    add(Feature::Stalemate, stuck && checkers.is_empty());

    for counter in Counter::ALL {
        let value = counter.of(setup);
        add(
            Feature::Counter {
                counter,
                value,
                turn: us,
            },
            COUNTER_EDGES.contains(&value),
        );
    }
    out
}

/// Whether the side to move has a legal move. The moves come from this module's own
/// reading of the piece rules (no generator's); validation is the judge of what a
/// move leaves behind, since a legal move is exactly one after which the position is
/// still valid: the mover's king not attacked, the kings not facing, and every piece
/// on a point it may stand on (which keeps kings and advisors in the palace and
/// elephants on their own side, so those rules need no code here).
pub(crate) fn has_legal_move(pos: &Position) -> bool {
    let setup = pos.setup();
    setup
        .pieces()
        .filter(|&(_, p)| p.color == setup.turn)
        .any(|(from, piece)| {
            destinations(setup, from, piece).into_iter().any(|to| {
                let mut after = setup.clone();
                after.board[to.index()] = Some(piece);
                after.board[from.index()] = None;
                after.turn = setup.turn.other();
                Position::new(after).is_ok()
            })
        })
}

/// Where the piece on `from` may move by its own rule alone: not onto its own side's
/// pieces, and before asking what the move leaves behind.
fn destinations(setup: &Setup, from: Square, piece: Piece) -> Vec<Square> {
    let mut out = Vec::new();
    match piece.role {
        Role::King => out.extend(
            ORTHOGONAL
                .iter()
                .filter_map(|&(df, dr)| offset(from, df, dr)),
        ),
        Role::Advisor => out.extend(DIAGONAL.iter().filter_map(|&(df, dr)| offset(from, df, dr))),
        Role::Elephant => {
            for &(df, dr) in &DIAGONAL {
                let eye_free = offset(from, df, dr).is_some_and(|e| setup.piece_at(e).is_none());
                if eye_free {
                    out.extend(offset(from, 2 * df, 2 * dr));
                }
            }
        }
        Role::Horse => {
            for &(df, dr) in &ORTHOGONAL {
                if offset(from, df, dr).is_some_and(|leg| setup.piece_at(leg).is_none()) {
                    let (sf, sr) = (dr, df);
                    for s in [1, -1] {
                        out.extend(offset(from, 2 * df + s * sf, 2 * dr + s * sr));
                    }
                }
            }
        }
        Role::Rook | Role::Cannon => {
            for &(df, dr) in &ORTHOGONAL {
                let mut at = from;
                let mut screened = false;
                while let Some(next) = offset(at, df, dr) {
                    at = next;
                    let occupied = setup.piece_at(at).is_some();
                    match (piece.role, screened, occupied) {
                        (Role::Rook, _, true) | (Role::Cannon, true, true) => {
                            out.push(at);
                            break;
                        }
                        (Role::Cannon, false, true) => screened = true,
                        (_, false, false) => out.push(at),
                        _ => {}
                    }
                }
            }
        }
        Role::Pawn => {
            let forward = if piece.color == Color::Red { 1 } else { -1 };
            out.extend(offset(from, 0, forward));
            if relative_rank(piece.color, from) >= 5 {
                out.extend(offset(from, 1, 0));
                out.extend(offset(from, -1, 0));
            }
        }
    }
    out.retain(|&to| setup.piece_at(to).is_none_or(|p| p.color != piece.color));
    out
}

/// How many positions of a run had each feature, and each piece on each point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Coverage {
    counts: [u64; Feature::ALL.len()],
    /// Positions with each kind of piece on each point, by colour, role and square.
    points: Vec<u64>,
    total: u64,
}

impl Default for Coverage {
    fn default() -> Coverage {
        Coverage {
            counts: [0; Feature::ALL.len()],
            points: vec![0; 2 * Role::ALL.len() * SQUARE_COUNT],
            total: 0,
        }
    }
}

fn point_slot(piece: Piece, sq: Square) -> usize {
    (piece.color.index() * Role::ALL.len() + piece.role.index()) * SQUARE_COUNT + sq.index()
}

/// Which of the points one kind of piece may stand on were reached in a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PointCoverage {
    /// The kind of piece, with its colour.
    pub piece: Piece,
    /// How many points it may stand on.
    pub points: usize,
    /// How many of them some position had it on.
    pub reached: usize,
    /// The point it stood on least often (the first such in square order), and how
    /// many positions had it there: 0 when some point was never reached.
    pub fewest: (Square, u64),
}

impl PointCoverage {
    /// The row's name in tables and reports: `red_advisor`.
    pub(crate) fn name(&self) -> String {
        format!("{}_{}", self.piece.color, self.piece.role)
    }
}

impl Coverage {
    /// No positions yet.
    pub(crate) fn new() -> Coverage {
        Coverage::default()
    }

    /// Counts the features of one more position.
    pub(crate) fn add(&mut self, pos: &Position) {
        self.add_found(pos, &features(pos));
    }

    /// Counts one more position whose [`features`] are known already: a caller that
    /// looked at them first does not pay for them twice.
    pub(crate) fn add_found(&mut self, pos: &Position, found: &[Feature]) {
        self.total += 1;
        for &f in found {
            if let Some(i) = f.index() {
                self.counts[i] += 1;
            }
        }
        for (sq, piece) in pos.pieces() {
            self.points[point_slot(piece, sq)] += 1;
        }
    }

    /// Adds another run's counts, say from another thread.
    pub(crate) fn merge(&mut self, other: &Coverage) {
        self.total += other.total;
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        for (mine, theirs) in self.points.iter_mut().zip(&other.points) {
            *mine += theirs;
        }
    }

    /// How many positions were added.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// How many of them had `feature`.
    pub(crate) fn count(&self, feature: Feature) -> u64 {
        feature.index().map_or(0, |i| self.counts[i])
    }

    /// How many of them had `piece` on `sq`.
    pub(crate) fn on_point(&self, piece: Piece, sq: Square) -> u64 {
        self.points[point_slot(piece, sq)]
    }

    /// For each kind of piece of each side (Red's first, kings first), which of the
    /// points it may stand on were reached.
    pub(crate) fn points(&self) -> Vec<PointCoverage> {
        let mut out = Vec::new();
        for color in Color::ALL {
            for role in Role::ALL {
                let piece = Piece::new(color, role);
                let counts: Vec<(Square, u64)> = Square::all()
                    .filter(|&sq| structured::allowed(piece, sq))
                    .map(|sq| (sq, self.on_point(piece, sq)))
                    .collect();
                let fewest = counts
                    .iter()
                    .copied()
                    .min_by_key(|&(sq, n)| (n, sq))
                    .unwrap_or((Square::A0, 0));
                out.push(PointCoverage {
                    piece,
                    points: counts.len(),
                    reached: counts.iter().filter(|&&(_, n)| n > 0).count(),
                    fewest,
                });
            }
        }
        out
    }

    /// The features no position had.
    #[cfg(test)]
    pub(crate) fn missing(&self) -> Vec<Feature> {
        self.missing_of(Rows::All)
    }

    /// The features of `rows` no position had.
    fn missing_of(&self, rows: Rows) -> Vec<Feature> {
        Feature::ALL
            .into_iter()
            .filter(|&f| rows.shows(f) && self.count(f) == 0)
            .collect()
    }

    /// The table of `rows`: what a check that never reads some features shows, so no
    /// row it cannot reach reads as a gap.
    pub(crate) fn table(&self, rows: Rows) -> Table<'_> {
        Table {
            coverage: self,
            rows,
        }
    }

    /// The kinds of piece some point of which no position had them on.
    pub(crate) fn missing_points(&self) -> Vec<PointCoverage> {
        self.points()
            .into_iter()
            .filter(|p| p.reached < p.points)
            .collect()
    }
}

/// What a table says of a row no position reached, so a reader need not look for zeros.
pub(crate) const NEVER_REACHED: &str = "never reached";

/// Which rows a feature table shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rows {
    /// Every feature: the fuzz campaign's, whose generators get every counter edge.
    All,
    /// The board's features, not the move counters' edges: an engine check's, whose
    /// positions keep their counters at 0 and 1 and whose subject never reads them.
    Board,
}

impl Rows {
    /// Whether `feature` is one of these rows.
    fn shows(self, feature: Feature) -> bool {
        self == Rows::All || !matches!(feature, Feature::Counter { .. })
    }
}

/// A [`Coverage`] shown as a table of some of its rows ([`Coverage::table`]).
pub(crate) struct Table<'a> {
    coverage: &'a Coverage,
    rows: Rows,
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.table(Rows::All).fmt(f)
    }
}

impl fmt::Display for Table<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.rows;
        let this = self.coverage;
        writeln!(f, "{:<22} {:>9} {:>7}", "feature", "positions", "share")?;
        for feature in Feature::ALL.into_iter().filter(|&x| rows.shows(x)) {
            let count = this.count(feature);
            let share = if this.total == 0 {
                0.0
            } else {
                100.0 * count as f64 / this.total as f64
            };
            let never = if count == 0 { NEVER_REACHED } else { "" };
            let row = format!("{:<22} {count:>9} {share:>6.1}%  {never}", feature.name());
            writeln!(f, "{}", row.trim_end())?;
        }
        writeln!(f, "{:<22} {:>9}", "total", this.total)?;
        writeln!(
            f,
            "{:<22} {:>9}  fewest positions on one point",
            "piece on every point", "reached"
        )?;
        for row in this.points() {
            let (sq, n) = row.fewest;
            let never = if row.reached < row.points {
                format!("  {NEVER_REACHED}: {}", this.unreached(row.piece))
            } else {
                String::new()
            };
            let reached = format!("{}/{}", row.reached, row.points);
            writeln!(f, "{:<22} {reached:>9}  {n} ({sq}){never}", row.name())?;
        }
        let missing: Vec<String> = this
            .missing_of(rows)
            .into_iter()
            .map(Feature::name)
            .chain(this.missing_points().iter().map(|p| p.name()))
            .collect();
        if missing.is_empty() {
            write!(f, "every feature and every point reached")
        } else {
            write!(f, "{NEVER_REACHED}: {}", missing.join(", "))
        }
    }
}

impl Coverage {
    /// The points `piece` may stand on and no position had it on, for the table.
    fn unreached(&self, piece: Piece) -> String {
        let points: Vec<String> = Square::all()
            .filter(|&sq| structured::allowed(piece, sq) && self.on_point(piece, sq) == 0)
            .map(|sq| sq.to_string())
            .collect();
        const SHOWN: usize = 8;
        if points.len() > SHOWN {
            format!(
                "{} and {} more",
                points[..SHOWN].join(" "),
                points.len() - SHOWN
            )
        } else {
            points.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::rng::Rng;
    use crate::cases::structured;
    use Feature::*;

    /// Issue 41: the board's table (an engine check's) has no move-counter rows, so
    /// none of them reads as never reached; the whole table has them all.
    #[test]
    fn the_board_table_leaves_out_the_counter_edges() {
        let mut coverage = Coverage::new();
        coverage.add(&Position::startpos());
        // (rows, whether a counter edge's row is there)
        for (rows, counters) in [(Rows::All, true), (Rows::Board, false)] {
            let text = coverage.table(rows).to_string();
            for feature in Feature::ALL {
                let row = format!("\n{} ", feature.name());
                let shown = text.contains(&row);
                let counter = matches!(feature, Feature::Counter { .. });
                assert_eq!(shown, !counter || counters, "{rows:?}: {row:?}\n{text}");
            }
        }
    }

    /// Hand-made positions, each with exactly the features it must have.
    #[test]
    fn hand_made_positions_have_exactly_their_features() {
        let table: &[(&str, &[Feature])] = &[
            // Bare kings on different files: nothing rare but their being alone.
            ("3k5/9/9/9/9/9/9/9/9/4K4 w", &[TwoKingsOnly]),
            // The start: the b2 cannon jumps b7 onto the b9 horse, the b0 horse's leg c0
            // holds an elephant, and two pawns stand between the kings on the e-file.
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                &[CannonScreen, HorseLegBlocked, KingsSameFile, All32Pieces],
            ),
            // Red cannon e2, screen e5, black rook e7 beyond it: a capture by jumping.
            ("3k5/9/4r4/9/4p4/9/9/4C4/9/5K3 w", &[CannonScreen]),
            // The same line with a red rook beyond the screen: nothing to take.
            ("3k5/9/4R4/9/4p4/9/9/4C4/9/5K3 w", &[]),
            // Black to move: Red's cannon screen is not Black's feature.
            ("3k5/9/4r4/9/4p4/9/9/4C4/9/5K3 b", &[]),
            // Red horse e3 with its leg e4 occupied.
            ("3k5/9/9/9/9/4p4/4N4/9/9/5K3 w", &[HorseLegBlocked]),
            // Red horse a0, leg b0 occupied with c1 beyond it on the board.
            ("3k5/9/9/9/9/9/9/9/9/NR2K4 w", &[HorseLegBlocked]),
            // Red elephant c0 with a horse on its eye d1.
            ("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w", &[ElephantEyeBlocked]),
            // Red elephant at the river point g4.
            ("3k5/9/9/9/9/6B2/9/9/9/4K4 w", &[ElephantAtRiver]),
            // Black elephant at c5 and red at g4: each side to move sees its own.
            ("3k5/9/9/9/2b6/6B2/9/9/9/4K4 b", &[ElephantAtRiver]),
            ("3k5/9/9/9/2b6/6B2/9/9/9/4K4 w", &[ElephantAtRiver]),
            // A piece on the g4 elephant's eye f5 blocks only a point across the river.
            ("3k5/9/9/9/5n3/6B2/9/9/9/4K4 w", &[ElephantAtRiver]),
            // Red pawn across the river at a6.
            ("3k5/9/9/P8/9/9/9/9/9/4K4 w", &[PawnCrossed]),
            // Red pawns at a6 and c3: one on each side of the river.
            (
                "3k5/9/9/P8/9/9/2P6/9/9/4K4 w",
                &[PawnCrossed, PawnsBothSides],
            ),
            // A black pawn on a0, Black's last rank, Black to move.
            ("3k5/9/9/9/9/9/9/9/9/p3K4 b", &[PawnCrossed, PawnLastRank]),
            // A red pawn on a9.
            ("P2k5/9/9/9/9/9/9/9/9/4K4 w", &[PawnCrossed, PawnLastRank]),
            // Kings on the e-file with two rooks between.
            ("4k4/9/4r4/9/9/9/4R4/9/9/4K4 w", &[KingsSameFile]),
            // Exactly one piece between the kings.
            (
                "4k4/9/9/9/9/4n4/9/9/9/4K4 w",
                &[KingsSameFile, KingsOneBlocker],
            ),
            // Check by a rook along the back rank.
            ("3k5/9/9/9/9/9/9/9/9/r3K4 w", &[InCheck, CheckByRook]),
            // Check by a cannon over the e1 advisor (one piece between: no cannon pin).
            ("3k5/9/9/9/9/9/4c4/9/4A4/4K4 w", &[InCheck, CheckByCannon]),
            // Check by a horse on f2, its leg f1 empty.
            ("3k5/9/9/9/9/9/9/5n3/9/4K4 w", &[InCheck, CheckByHorse]),
            // Check by a crossed pawn from the side.
            ("3k5/9/9/9/9/9/9/9/9/3pK4 w", &[InCheck, CheckByPawn]),
            // Rook and horse together: double check.
            (
                "3k5/9/9/9/9/9/9/5n3/9/r3K4 w",
                &[InCheck, CheckByRook, CheckByHorse, DoubleCheck],
            ),
            // Enemy cannon e6 with the e3 pawn and e1 advisor between it and the king.
            ("3k5/9/9/4c4/9/9/4P4/9/4A4/4K4 w", &[CannonPin]),
            // Along a rank, for Black: red cannon i9, then elephant g9 and rook e9, king d9.
            ("3kr1b1C/9/9/9/9/9/9/9/9/5K3 b", &[CannonPin]),
            // Mate: the d0 rook checks the d9 king, whose only step, e9, faces the king.
            ("3k5/9/9/9/9/9/9/9/9/3RK4 b", &[InCheck, CheckByRook, Mate]),
            // Stalemate: not in check, d8 is the a8 rook's and e9 faces the king.
            ("3k5/R8/9/9/9/9/9/9/9/4K4 b", &[Stalemate]),
            // The same with the rook a rank lower: d8 is free, so not stuck.
            ("3k5/9/R8/9/9/9/9/9/9/4K4 b", &[]),
            // A cannon checks over the e8 advisor and the king is boxed in by its own
            // pieces, but the advisor may step off the line: not mate.
            ("3akr3/4a4/9/9/9/9/9/4C4/9/3K5 b", &[InCheck, CheckByCannon]),
        ];
        for &(fen, expected) in table {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let plain: Vec<Feature> = features(&pos)
                .into_iter()
                .filter(|f| !matches!(f, Feature::Counter { .. }))
                .collect();
            let mut expected = expected.to_vec();
            expected.sort_by_key(|f| f.index());
            assert_eq!(plain, expected, "{fen}");
        }
    }

    /// Each counter is a feature at each of its edges, with the side to move; values
    /// beside the edges are not.
    #[test]
    fn counters_at_their_edges_are_features() {
        let counter = |counter, value, turn| Feature::Counter {
            counter,
            value,
            turn,
        };
        use super::Counter::{Fullmoves, Halfmoves};
        let table: &[(&str, &[Feature])] = &[
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
                &[counter(Halfmoves, 0, Color::Red)],
            ),
            ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 59 61", &[]),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 60 120",
                &[
                    counter(Halfmoves, 60, Color::Black),
                    counter(Fullmoves, 120, Color::Black),
                ],
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 256 255",
                &[
                    counter(Halfmoves, 256, Color::Black),
                    counter(Fullmoves, 255, Color::Black),
                ],
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 65536 65535",
                &[
                    counter(Halfmoves, 65_536, Color::Red),
                    counter(Fullmoves, 65_535, Color::Red),
                ],
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 4294967295 0",
                &[
                    counter(Halfmoves, u32::MAX, Color::Black),
                    counter(Fullmoves, 0, Color::Black),
                ],
            ),
            ("3k5/9/9/9/9/9/9/9/9/4K4 b - - 4294967294 257", &[]),
        ];
        for &(fen, expected) in table {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let edges: Vec<Feature> = features(&pos)
                .into_iter()
                .filter(|f| matches!(f, Feature::Counter { .. }))
                .collect();
            assert_eq!(edges, expected, "{fen}");
        }
        let names: Vec<String> = Feature::ALL.iter().map(|f| f.name()).collect();
        assert!(names.contains(&"halfmoves_max_black".to_owned()));
        assert!(names.contains(&"fullmoves_65536_red".to_owned()));
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "every name is one feature's");
    }

    /// The "reached, not hoped for" check: plain random bytes through the fuzz decoder
    /// reach every rule feature, so the property tests that draw from the decoder test
    /// them. The decoder gives "0 1" counters and random bytes never ask for all 32
    /// pieces; those edges are the campaign's draws' to reach (`edges`' tests).
    #[test]
    fn random_bytes_reach_every_rule_feature() {
        let coverage = decoded_coverage(4000, 0x5eed);
        println!("{coverage}");
        let missing: Vec<Feature> = coverage
            .missing()
            .into_iter()
            .filter(|&f| f != All32Pieces && !matches!(f, Feature::Counter { .. }))
            .collect();
        assert!(missing.is_empty(), "never reached: {missing:?}\n{coverage}");
    }

    /// Coverage of `n` positions decoded from random byte strings of 0..120 bytes, the
    /// lengths the property tests draw.
    fn decoded_coverage(n: u64, seed: u64) -> Coverage {
        let mut coverage = Coverage::new();
        for i in 0..n {
            let mut rng = Rng::for_item(seed, i);
            let len = rng.below(120) as usize;
            coverage.add(&structured::from_bytes(&rng.bytes(len)));
        }
        coverage
    }

    #[test]
    fn merge_adds_counts_and_the_table_names_every_feature() {
        let mut a = decoded_coverage(50, 1);
        let b = decoded_coverage(70, 2);
        let mut both = Coverage::new();
        for i in 0..50 {
            let mut rng = Rng::for_item(1, i);
            let len = rng.below(120) as usize;
            both.add(&structured::from_bytes(&rng.bytes(len)));
        }
        both.merge(&b);
        a.merge(&b);
        assert_eq!(a, both);
        assert_eq!(a.total(), 120);
        let table = a.to_string();
        for f in Feature::ALL {
            assert!(table.contains(&f.name()), "{table}");
        }
        for p in a.points() {
            assert!(table.contains(&p.name()), "{table}");
        }
        let empty = Coverage::new().to_string();
        assert!(empty.contains("0.0%  never reached"), "{empty}");
        let last = empty.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("never reached: cannon_screen, ") && last.ends_with("black_pawn"),
            "{empty}"
        );
    }
}
