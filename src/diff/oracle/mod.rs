//! The oracle: everything the generators say about one position, compared.
//!
//! Every answer a generator gives is an answer to compare: each move of its lists
//! (repeats included, `tally`), its bulk count, what each legal move captures, the
//! board after it, whether it gives check and how many replies follow it, what its board
//! says after being used (every move made and unmade on it, or a line of moves made on
//! it without reloading), and how it maps under the mirror and the colour swap.
//!
//! A disagreement is a value, not a panic: which check, which generators took part, the
//! moves only some of them have, and, by majority vote, the odd one out.

mod answers;
pub mod paths;
mod symmetry;
pub(crate) mod tally;
mod walk;

pub use walk::consensus_steps;
pub(crate) use walk::{
    check_line, consensus_children, consensus_play, line_seed, LineOutcome, WALK_PLIES,
};

use crate::diff::signature::{Lists, Signature, STALE_BOARD};
use crate::generators::face::{Generator, Probe};
use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::str::FromStr;

/// Writes [`CheckKind`] from one table: each kind with its name and what it compares,
/// the rules or a generator's state, so a new kind cannot be added without saying
/// whether a rule variant may explain what it sees.
macro_rules! check_kinds {
    ($($(#[$doc:meta])* $kind:ident = $name:literal, $about:ident;)+) => {
        /// What was compared.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum CheckKind {
            $($(#[$doc])* $kind,)+
        }

        impl CheckKind {
            /// Every kind, in the order the oracle reports them.
            pub const ALL: &'static [CheckKind] = &[$(CheckKind::$kind),+];

            /// The name used in reports and corpus files.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(CheckKind::$kind => $name,)+
                }
            }

            /// Whether the check compares what the rules decide (move lists, check, the
            /// symmetries), so a rule variant may explain a disagreement it sees. The
            /// others see state (an unmake, a reused board, a count that is not its own
            /// list's length, a counting path), and a generator whose state goes wrong may
            /// answer some position as some variant would by chance.
            pub(crate) const fn about_the_rules(self) -> bool {
                match self {
                    $(CheckKind::$kind => About::$about.is_rules(),)+
                }
            }
        }
    };
}

/// What a check compares, in [`check_kinds!`]'s table.
#[derive(Clone, Copy)]
enum About {
    Rules,
    State,
}

impl About {
    const fn is_rules(self) -> bool {
        matches!(self, About::Rules)
    }
}

check_kinds! {
    /// Loading the position into a generator's board and reading it back changed it.
    RoundTrip = "round-trip", State;
    /// Whether the side to move is in check.
    InCheck = "in-check", Rules;
    /// The pseudo-legal move sets.
    PseudoLegal = "pseudo-legal", Rules;
    /// Make then unmake did not give back the position. Told before the legal lists,
    /// which come from a board the generator made and unmade moves on: a generator whose
    /// unmake is wrong lists wrongly for that reason.
    Unmake = "unmake", State;
    /// A board on which every legal move was made and unmade answers differently from a
    /// freshly loaded one: make or unmake leaves state behind that the squares do not show.
    /// The legal lists and the answers about each move come from such a board, so
    /// this is told before them.
    ReusedBoard = "reused-board", State;
    /// The legal move sets.
    Legal = "legal", Rules;
    /// A generator lists a move more than once.
    ListedTwice = "listed-twice", State;
    /// The bulk count (`count_legal`, perft's last ply) is not the number of legal moves.
    Count = "count", State;
    /// What a legal move captures.
    Captured = "captured", State;
    /// The position after making a legal move.
    AfterMake = "after-make", State;
    /// A legal move led to a position that breaks the domain rules.
    AfterMakeInvalid = "after-make-invalid", State;
    /// Whether a legal move gives check.
    GivesCheck = "gives-check", Rules;
    /// The bulk count on the position after a legal move.
    CountAfter = "count-after", State;
    /// A board walked along a line of moves (made, never reloaded) answers differently
    /// from a freshly loaded board of the same position, or from the start once walked back.
    WalkedBoard = "walked-board", State;
    /// Mirroring files a <-> i did not mirror a generator's moves.
    Mirror = "mirror", Rules;
    /// Swapping colours and ranks r <-> 9-r did not map a generator's moves.
    ColorSwap = "color-swap", Rules;
    /// A generator's faster ways of counting perft (its two-ply count, its hashed count
    /// through a tiny or a roomy table) do not all give its plain count.
    CountPath = "count-path", State;
    /// A key a generator's hashed perft carried over a move is not the key of the board
    /// after it.
    HashKey = "hash-key", State;
}

impl CheckKind {
    /// The check's name in a [`Signature`]: its own, but `STALE_BOARD` for the two
    /// checks that see state a used board keeps and the squares do not show.
    pub(crate) const fn signature_name(self) -> &'static str {
        match self {
            CheckKind::ReusedBoard | CheckKind::WalkedBoard => STALE_BOARD,
            _ => self.as_str(),
        }
    }
}

impl fmt::Display for CheckKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CheckKind {
    type Err = crate::named::UnknownName;
    fn from_str(s: &str) -> Result<CheckKind, Self::Err> {
        crate::named::by_name("check", s, CheckKind::ALL, CheckKind::as_str)
    }
}

/// A move that some generators have and others lack (or, for `listed-twice`, that
/// some list more than once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnlyIn {
    /// The move.
    pub mv: Move,
    /// The generators that have it.
    pub has: Vec<String>,
    /// How many times each of them lists it: 1, but for a move listed more than once.
    pub times: u32,
}

/// One way the generators disagree on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// What was compared.
    pub check: CheckKind,
    /// The position.
    pub position: Position,
    /// The generators compared.
    pub generators: Vec<String>,
    /// The one generator that differs from all others, when there is one.
    pub odd_one_out: Option<String>,
    /// For move checks, the moves not every generator has (or has once).
    pub only_in: Vec<OnlyIn>,
    /// A sentence on what differs.
    pub detail: String,
    /// For `walked-board`: the moves made from `position` on one board before it went
    /// wrong.
    pub line: Vec<Move>,
}

impl Disagreement {
    /// Whether `other` shows the same bug: the same generators compared and the same
    /// [`Signature`] (check, odd one out, and for a move list the class of move). The
    /// minimizer keeps a smaller position only if it still shows the same bug, so it
    /// never slides from one bug to another.
    pub fn same_kind(&self, other: &Disagreement) -> bool {
        // The signature names the check, but for the two state checks, which it names
        // as one: a stale board may be shown smaller by the other of the two.
        self.generators == other.generators && self.signature() == other.signature()
    }

    /// Which bug this is, independent of the position: the check, the odd one out (or
    /// `none`), and for the move lists the class of the moves that differ.
    pub fn signature(&self) -> Signature {
        let check = self.check.signature_name();
        let side = self.odd_one_out.as_deref().unwrap_or("none");
        let lists = matches!(
            self.check,
            CheckKind::PseudoLegal | CheckKind::Legal | CheckKind::ListedTwice
        );
        if !lists || self.only_in.is_empty() {
            return Signature::plain(check, side);
        }
        // The wrong side's extra moves are the ones it has; without an odd one out, the
        // ones a minority has.
        let is_extra = |o: &OnlyIn| match &self.odd_one_out {
            Some(odd) => o.has.iter().any(|h| h == odd),
            None => o.has.len() * 2 < self.generators.len(),
        };
        let (extra, missing): (Vec<&OnlyIn>, Vec<&OnlyIn>) =
            self.only_in.iter().partition(|o| is_extra(o));
        let moves = |v: Vec<&OnlyIn>| v.iter().map(|o| o.mv).collect::<Vec<Move>>();
        let kind = if self.check == CheckKind::Legal {
            Lists::Legal
        } else {
            Lists::Movement
        };
        Signature::of_moves(
            check,
            side,
            &self.position,
            kind,
            (&moves(extra), &moves(missing)),
        )
    }
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} disagreement on {}", self.check, self.position.fen())?;
        if !self.line.is_empty() {
            let line: Vec<String> = self.line.iter().map(Move::to_string).collect();
            write!(f, " walking {}", line.join(" "))?;
        }
        if let Some(odd) = &self.odd_one_out {
            write!(f, " (odd one out: {odd})")?;
        }
        write!(f, ": {}", self.detail)
    }
}

/// Groups `values` by equality and names the odd one out: the single generator whose
/// value differs from every other, while the others all agree. `None` when all agree.
fn vote<T: PartialEq>(values: &[(&str, T)]) -> Option<Option<String>> {
    if values.iter().all(|(_, v)| *v == values[0].1) {
        return None;
    }
    let odd = values.iter().enumerate().find_map(|(i, (name, v))| {
        let mut others = values.iter().enumerate().filter(|&(j, _)| j != i);
        let first = others.next().map(|(_, (_, w))| w)?;
        let enough = values.len() >= 3;
        (enough && *first != *v && others.all(|(_, (_, w))| w == first)).then(|| name.to_string())
    });
    Some(odd)
}

/// Collects the disagreements found on one position.
struct Run<'a> {
    names: Vec<&'a str>,
    pos: &'a Position,
    out: Vec<Disagreement>,
}

impl<'a> Run<'a> {
    fn new(pos: &'a Position, gens: &[&'a dyn Generator]) -> Run<'a> {
        Run {
            names: gens.iter().map(|g| g.name()).collect(),
            pos,
            out: Vec::new(),
        }
    }

    fn push(
        &mut self,
        check: CheckKind,
        odd: Option<String>,
        only_in: Vec<OnlyIn>,
        detail: String,
    ) {
        self.push_line(check, odd, only_in, detail, Vec::new());
    }

    fn push_line(
        &mut self,
        check: CheckKind,
        odd: Option<String>,
        only_in: Vec<OnlyIn>,
        detail: String,
        line: Vec<Move>,
    ) {
        self.out.push(Disagreement {
            check,
            position: self.pos.clone(),
            generators: self.names.iter().map(|s| s.to_string()).collect(),
            odd_one_out: odd,
            only_in,
            detail,
            line,
        });
    }

    /// Everything found, in the oracle's order of kinds (the first is what a campaign
    /// reports when a position fails several checks).
    fn finish(mut self) -> Vec<Disagreement> {
        self.out.sort_by_key(|d| d.check);
        self.out
    }

    /// Compares one value per generator and records a disagreement if they differ.
    fn compare<T: PartialEq + fmt::Debug>(
        &mut self,
        check: CheckKind,
        values: Vec<T>,
        only_in: impl FnOnce() -> Vec<OnlyIn>,
        what: impl FnOnce() -> String,
    ) {
        let named: Vec<(&str, T)> = self.names.iter().copied().zip(values).collect();
        if let Some(odd) = vote(&named) {
            let detail = named
                .iter()
                .map(|(n, v)| format!("{n}: {v:?}"))
                .collect::<Vec<_>>()
                .join(", ");
            let what = what();
            self.push(check, odd, only_in(), format!("{what}: {detail}"));
        }
    }

    /// Records a check each generator passes or fails on its own, once some generator
    /// failed it (the callers see that first, before building the detail); the odd one
    /// out is the single failing one among passing others, or a lone generator.
    fn self_check(
        &mut self,
        check: CheckKind,
        passed: &[bool],
        only_in: Vec<OnlyIn>,
        detail: String,
        line: Vec<Move>,
    ) {
        let named: Vec<(&str, bool)> = self
            .names
            .iter()
            .copied()
            .zip(passed.iter().copied())
            .collect();
        // When every generator fails there is no one to outvote them, unless it is one.
        let odd = vote(&named)
            .flatten()
            .or_else(|| (passed.len() == 1).then(|| self.names[0].to_string()));
        self.push_line(check, odd, only_in, detail, line);
    }
}

/// Runs every check on `pos` with `gens` (normally the whole registry) and returns
/// every disagreement found; empty when all agree. Besides the answers about `pos`
/// itself, each generator's board walks a line of up to `WALK_PLIES` moves chosen from
/// the position alone, so the result depends on nothing but `pos` and `gens`.
pub fn check_position(pos: &Position, gens: &[&dyn Generator]) -> Vec<Disagreement> {
    check_position_along(pos, gens, None)
}

/// [`check_position`], walking the boards along `line` (as far as every generator
/// agrees its moves are legal) instead of the line chosen from the position: how a
/// `walked-board` finding from a longer playout is reproduced.
pub(crate) fn check_position_along(
    pos: &Position,
    gens: &[&dyn Generator],
    line: Option<&[Move]>,
) -> Vec<Disagreement> {
    let probes: Vec<Probe> = gens.iter().map(|g| g.probe(pos)).collect();
    let mut run = Run::new(pos, gens);
    answers::compare(&mut run, pos, gens, &probes);
    walk::walk(&mut run, pos, gens, &probes, line);
    symmetry::compare(&mut run, pos, gens, &probes);
    paths::compare(&mut run, pos, gens);
    run.finish()
}

/// Shows a disagreement where the bug acts. One about what a move leads to (the count,
/// the check or the position after it) is followed down into the position after the
/// move (as the generators other than the odd one out play it), as long as that position
/// shows the same generator wrong by itself: a rule bug seen one ply up as a count, or a
/// read-back bug seen as a wrong position after a move, is best shown where it acts. A walked board that went wrong at the end of a
/// long line is shown from as late on the line as still shows it. Returns the position
/// and disagreement to report, and the moves from `pos` to that position. When the
/// position after a move agrees by itself, the disagreement stays, saying so: what the
/// move's make left on the board is then to blame.
pub(crate) fn follow(
    pos: &Position,
    d: &Disagreement,
    gens: &[&dyn Generator],
) -> (Position, Disagreement, Vec<Move>) {
    let mut here = pos.clone();
    let mut found = d.clone();
    let mut path = Vec::new();
    // Only a walked board's finding has a line. A board that went wrong far down a long
    // line usually goes wrong on its last few moves alone: start as late on the line as
    // still shows it.
    if let Some((_, head)) = found.line.split_last() {
        let mut along = vec![here.clone()];
        for &mv in head {
            match along.last().and_then(|p| consensus_play(p, gens, mv)) {
                Some(p) => along.push(p),
                None => break,
            }
        }
        for k in (1..along.len()).rev() {
            let tail = &found.line[k..];
            let shown = check_position_along(&along[k], gens, Some(tail))
                .into_iter()
                .find(|d| d.same_kind(&found));
            if let Some(shorter) = shown {
                path.extend_from_slice(&found.line[..k]);
                here = along[k].clone();
                found = shorter;
                break;
            }
        }
    }
    // Each step goes one ply down; a bug shows within a ply or two of where it is seen.
    for _ in 0..8 {
        if !matches!(
            found.check,
            CheckKind::CountAfter | CheckKind::GivesCheck | CheckKind::AfterMake
        ) {
            break;
        }
        let Some(mv) = found.only_in.first().map(|o| o.mv) else {
            break;
        };
        let Some(child) = honest_play(&here, gens, found.odd_one_out.as_deref(), mv) else {
            break;
        };
        match check_position(&child, gens)
            .into_iter()
            .find(|below| found.odd_one_out.is_none() || below.odd_one_out == found.odd_one_out)
        {
            Some(below) => {
                here = child;
                found = below;
                path.push(mv);
            }
            None => {
                found.detail.push_str(
                    "; the position after it, loaded afresh, agrees: the board the move \
                     was made on is what answers wrongly",
                );
                break;
            }
        }
    }
    (here, found, path)
}

/// The position after `mv` as every generator but `odd` plays it, when they agree: the
/// odd one out may be the one that plays it wrongly.
fn honest_play(
    pos: &Position,
    gens: &[&dyn Generator],
    odd: Option<&str>,
    mv: Move,
) -> Option<Position> {
    let mut afters = gens
        .iter()
        .filter(|g| Some(g.name()) != odd)
        .map(|g| g.play(pos, mv).ok());
    let first = afters.next()??;
    afters.all(|a| a.as_ref() == Some(&first)).then_some(first)
}

/// Shows a symmetry disagreement on the transformed position, when that position shows
/// the same generator wrong by itself: a rule bug the mirror or the colour swap caught
/// is then described by the rule it breaks, with one signature wherever it shows.
/// `None` when the image agrees by itself (the bug is about the mapping alone).
pub(crate) fn through_image(
    pos: &Position,
    d: &Disagreement,
    gens: &[&dyn Generator],
) -> Option<(Position, Disagreement)> {
    let image = match d.check {
        CheckKind::Mirror => pos.mirror_files(),
        CheckKind::ColorSwap => pos.swap_colors(),
        _ => return None,
    };
    let odd = d.odd_one_out.as_ref()?;
    check_position(&image, gens)
        .into_iter()
        .find(|there| {
            there.odd_one_out.as_ref() == Some(odd)
                && !matches!(there.check, CheckKind::Mirror | CheckKind::ColorSwap)
        })
        .map(|there| (image, there))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vote_names_the_single_odd_value() {
        let table: &[(&[u8], Option<Option<&str>>)] = &[
            (&[1, 1, 1], None),
            (&[1, 2, 1], Some(Some("b"))),
            (&[2, 1, 1], Some(Some("a"))),
            (&[1, 2, 3], Some(None)),
            (&[1, 2], Some(None)),
        ];
        for &(values, want) in table {
            let named: Vec<(&str, u8)> = ["a", "b", "c"]
                .into_iter()
                .zip(values.iter().copied())
                .collect();
            let got = vote(&named);
            assert_eq!(got, want.map(|o| o.map(str::to_owned)), "{values:?}");
        }
    }

    /// One generator alone has no one to outvote it: validation's own check detector
    /// still holds it to the rules, and names it.
    #[test]
    fn a_lone_generator_is_held_to_the_rules_by_validation() {
        use crate::generators::planted::{Bug, Planted};
        let planted = Planted::new(Bug::KingLeavesPalace);
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/5K3 w").unwrap();
        let found = check_position(&pos, &[&planted]);
        let d = found
            .iter()
            .find(|d| d.check == CheckKind::AfterMakeInvalid)
            .expect("the king's step out of the palace is invalid");
        assert_eq!(d.odd_one_out.as_deref(), Some("planted"));
        assert_eq!(d.only_in.len(), 1);
        assert_eq!(d.only_in[0].mv.to_string(), "f0g0");
        assert_eq!(d.only_in[0].has, ["planted"]);
        assert!(check_position(&pos, &[&crate::generators::naive::NaiveGen]).is_empty());
    }

    /// A check a generator fails alone names it, whether the generator answers the check
    /// by itself (its count against its own list) or by comparison (a move it lists
    /// twice); when every generator fails it alike, no one is outvoted.
    #[test]
    fn a_lone_failure_is_named_and_a_shared_one_is_not() {
        use crate::generators::planted::{Bug, Planted};
        let planted = Planted::new(Bug::CountShortInDoubleCheck);
        let tweaked = Tweaked(Tweak::LegalTwice);
        let table: [(&dyn Generator, Position, CheckKind, &str); 2] = [
            (
                &planted,
                Position::from_fen("4k4/2N6/9/4p4/9/9/9/9/9/3KC4 b").unwrap(),
                CheckKind::Count,
                "planted",
            ),
            (
                &tweaked,
                Position::startpos(),
                CheckKind::ListedTwice,
                "tweaked",
            ),
        ];
        for (g, pos, check, name) in table {
            for (gens, odd) in [(vec![g], Some(name)), (vec![g, g, g], None)] {
                let found = check_position(&pos, &gens);
                let d = found.iter().find(|d| d.check == check);
                let d =
                    d.unwrap_or_else(|| panic!("{check}, {} generators: {found:?}", gens.len()));
                assert_eq!(
                    d.odd_one_out.as_deref(),
                    odd,
                    "{check}, {} generators",
                    gens.len()
                );
            }
        }
    }

    /// A count after a move that the position after it shows by itself is reported
    /// there, with the move that leads to it.
    #[test]
    fn a_count_after_a_move_is_followed_to_where_it_shows() {
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let planted = Planted::new(Bug::CannonCannotCapture);
        let gens: [&dyn Generator; 3] = [&MailboxGen, &BitboardGen, &planted];
        let root = Position::from_fen("3k5/9/1c7/9/1P7/9/9/9/9/1R2K4 w").unwrap();
        let first = check_position(&root, &gens).remove(0);
        assert_eq!(first.check, CheckKind::CountAfter);
        let (there, d, path) = follow(&root, &first, &gens);
        assert_eq!(path.len(), 1);
        assert_eq!(d.check, CheckKind::PseudoLegal);
        assert_eq!(d.position.fen(), there.fen());
        assert!(d.only_in.iter().all(|o| o.mv.from.to_string() == "b7"));
    }

    /// Each row: the check, the generators compared, the odd one out, who has the one
    /// disputed move (the king's step into the rook's file), and the signature. The
    /// extra side is the odd one's, or without one the minority; a legal list classes
    /// the move by legality too, a pseudo-legal one and a repeat by movement alone;
    /// other checks have no move class.
    #[test]
    fn a_disagreement_is_signed_by_its_check_side_and_class_of_move() {
        use CheckKind::*;
        let fen = "5k3/9/9/9/9/9/9/9/3r5/4K4 w";
        /// (check, generators, odd one out, who has the move, signature)
        type Row<'a> = (
            CheckKind,
            &'a [&'a str],
            Option<&'a str>,
            &'a [&'a str],
            &'a str,
        );
        let table: &[Row] = &[
            (
                Legal,
                &["a", "b", "c"],
                Some("c"),
                &["c"],
                "legal/c/extra-in-check",
            ),
            (
                Legal,
                &["a", "b", "c"],
                Some("c"),
                &["a", "b"],
                "legal/c/missing-in-check",
            ),
            (
                Legal,
                &["a", "b", "c"],
                None,
                &["a"],
                "legal/none/extra-in-check",
            ),
            (
                Legal,
                &["a", "b", "c"],
                None,
                &["a", "b"],
                "legal/none/missing-in-check",
            ),
            (
                Legal,
                &["a", "b"],
                None,
                &["a"],
                "legal/none/missing-in-check",
            ),
            (
                Legal,
                &["a", "b", "c", "d"],
                None,
                &["a"],
                "legal/none/extra-in-check",
            ),
            (
                PseudoLegal,
                &["a", "b", "c"],
                Some("c"),
                &["c"],
                "pseudo-legal/c/extra-king-plain",
            ),
            (
                ListedTwice,
                &["a", "b", "c"],
                Some("c"),
                &["c"],
                "listed-twice/c/extra-king-plain",
            ),
            (Count, &["a", "b", "c"], Some("c"), &["c"], "count/c"),
        ];
        for &(check, generators, odd, has, want) in table {
            let d = Disagreement {
                check,
                position: Position::from_fen(fen).unwrap(),
                generators: generators.iter().map(|g| g.to_string()).collect(),
                odd_one_out: odd.map(str::to_owned),
                only_in: vec![OnlyIn {
                    mv: "e0d0".parse().unwrap(),
                    has: has.iter().map(|g| g.to_string()).collect(),
                    times: 1,
                }],
                detail: String::new(),
                line: Vec::new(),
            };
            assert_eq!(
                d.signature().to_string(),
                want,
                "{check} {generators:?} {odd:?} {has:?}"
            );
        }
    }

    /// The position after a move is the one every generator but the odd one out plays
    /// to: a generator whose make is wrong must not lead the walk, and where no one is
    /// odd and the players disagree there is no honest position.
    #[test]
    fn honest_play_leaves_the_odd_one_out_out() {
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let planted = Planted::new(Bug::MakeTicksClock);
        let gens: [&dyn Generator; 3] = [&MailboxGen, &BitboardGen, &planted];
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
        let mv: Move = "i0i5".parse().unwrap();
        let honest = MailboxGen.play(&pos, mv).unwrap();
        assert_ne!(
            planted.play(&pos, mv).unwrap(),
            honest,
            "the planted make differs"
        );
        assert_eq!(honest_play(&pos, &gens, Some("planted"), mv), Some(honest));
        assert_eq!(honest_play(&pos, &gens, None, mv), None);
    }

    /// A rule bug the mirror or the colour swap caught is shown on the image when the
    /// image shows it by itself, and not when only the symmetry check sees it there (the
    /// image is then the right side of the comparison, and the position the wrong one).
    #[test]
    fn a_symmetry_finding_is_shown_on_its_image_only_where_the_image_is_wrong() {
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let symmetric = |k: CheckKind| matches!(k, CheckKind::Mirror | CheckKind::ColorSwap);
        // (bug, position, the symmetry check that sees it, whether the image shows it)
        let table = [
            // The horse on h0 with its leg blocked moves right; mirrored to b0 the bug
            // ignores the leg.
            (
                Bug::LeftHorseLegIgnored,
                "4k4/9/9/9/9/9/9/9/7R1/3K3N1 w",
                CheckKind::Mirror,
                true,
            ),
            // The same bug acting on the position itself: its mirror image is right.
            (
                Bug::LeftHorseLegIgnored,
                "4k4/9/9/9/9/9/9/9/1R7/1N3K3 w",
                CheckKind::Mirror,
                false,
            ),
            // A red pawn before the river, swapped into a black one that the bug lets
            // step sideways.
            (
                Bug::BlackPawnSidewaysBeforeRiver,
                "5k3/9/9/9/9/9/2P6/9/9/3K5 w",
                CheckKind::ColorSwap,
                true,
            ),
        ];
        for (bug, fen, kind, image_shows) in table {
            let planted = Planted::new(bug);
            let gens: [&dyn Generator; 3] = [&MailboxGen, &BitboardGen, &planted];
            let pos = Position::from_fen(fen).unwrap();
            let found = check_position(&pos, &gens);
            let d = found
                .iter()
                .find(|d| d.check == kind)
                .unwrap_or_else(|| panic!("{fen}: {kind} sees {bug:?}"));
            assert_eq!(d.odd_one_out.as_deref(), Some("planted"), "{fen}");
            assert_eq!(
                found.iter().any(|d| !symmetric(d.check)),
                !image_shows,
                "{fen}: the position shows the bug by itself only where the image does not"
            );
            let image = match kind {
                CheckKind::Mirror => pos.mirror_files(),
                _ => pos.swap_colors(),
            };
            match through_image(&pos, d, &gens) {
                Some((there, shown)) => {
                    assert!(image_shows, "{fen}: the image agrees by itself");
                    assert_eq!(there, image, "{fen}");
                    assert_eq!(shown.odd_one_out.as_deref(), Some("planted"), "{fen}");
                    assert!(!symmetric(shown.check), "{fen}: shown as {}", shown.check);
                }
                None => assert!(!image_shows, "{fen}: the image shows {bug:?} by itself"),
            }
            // Only a symmetry finding has an image.
            if let Some(direct) = found.iter().find(|d| !symmetric(d.check)) {
                assert_eq!(through_image(&pos, direct, &gens), None, "{fen}");
            }
        }
    }

    /// The naive generator with one answer changed, as a fast generator that builds each
    /// answer on its own might get it wrong.
    #[derive(Clone, Copy, PartialEq)]
    enum Tweak {
        /// The legal list (built apart from the pseudo-legal one) lists its first move
        /// twice: the pseudo-legal list has no repeat to show it.
        LegalTwice,
        /// The legal list leaves out the king's moves while the king is on files a-d.
        LeftKingStillLegal,
        /// The pseudo-legal list does; the legal list is right.
        LeftKingStillPseudo,
        /// `in_check` says no while the king is on files a-d; the lists are right.
        LeftCheckMissed,
    }

    struct Tweaked(Tweak);

    /// Whether the side to move has its king on files a-d.
    fn king_on_left(b: &<NaiveGen as crate::generators::MoveGen>::Board) -> bool {
        let s = NaiveGen.to_setup(b);
        let king = crate::piece::Piece::new(s.turn, Role::King);
        let on_left = s.pieces().any(|(sq, p)| p == king && sq.file() <= 3);
        on_left
    }

    /// `list` without the moves of the king of the side to move.
    fn without_king_moves(
        b: &<NaiveGen as crate::generators::MoveGen>::Board,
        list: &mut MoveList,
    ) {
        let kept: Vec<Move> = list
            .iter()
            .copied()
            .filter(|m| NaiveGen.piece_at(b, m.from).map(|p| p.role) != Some(Role::King))
            .collect();
        *list = MoveList::new();
        kept.into_iter().for_each(|m| list.push(m));
    }

    use crate::generators::MoveGen as _;
    use crate::moves::MoveList;
    use crate::piece::Role;

    impl crate::generators::MoveGen for Tweaked {
        type Board = <NaiveGen as crate::generators::MoveGen>::Board;
        type Undo = <NaiveGen as crate::generators::MoveGen>::Undo;
        fn name(&self) -> &'static str {
            "tweaked"
        }
        fn load(&self, pos: &Position) -> Self::Board {
            NaiveGen.load(pos)
        }
        fn to_setup(&self, b: &Self::Board) -> crate::position::Setup {
            NaiveGen.to_setup(b)
        }
        fn turn(&self, b: &Self::Board) -> crate::piece::Color {
            NaiveGen.turn(b)
        }
        fn piece_at(
            &self,
            b: &Self::Board,
            sq: crate::square::Square,
        ) -> Option<crate::piece::Piece> {
            NaiveGen.piece_at(b, sq)
        }
        fn pseudo_legal(&self, b: &Self::Board, out: &mut MoveList) {
            NaiveGen.pseudo_legal(b, out);
            if self.0 == Tweak::LeftKingStillPseudo && king_on_left(b) {
                without_king_moves(b, out);
            }
        }
        fn king_attacked(&self, b: &Self::Board, c: crate::piece::Color) -> bool {
            NaiveGen.king_attacked(b, c)
        }
        fn in_check(&self, b: &Self::Board) -> bool {
            NaiveGen.in_check(b) && !(self.0 == Tweak::LeftCheckMissed && king_on_left(b))
        }
        fn make(&self, b: &mut Self::Board, mv: Move) -> Self::Undo {
            NaiveGen.make(b, mv)
        }
        fn unmake(&self, b: &mut Self::Board, mv: Move, undo: Self::Undo) {
            NaiveGen.unmake(b, mv, undo);
        }
        fn legal(&self, b: &mut Self::Board, out: &mut MoveList) {
            NaiveGen.legal(b, out);
            match self.0 {
                Tweak::LegalTwice => {
                    if let Some(&first) = out.iter().next() {
                        out.push(first);
                    }
                }
                Tweak::LeftKingStillLegal if king_on_left(b) => without_king_moves(b, out),
                _ => {}
            }
        }
    }

    use crate::generators::naive::NaiveGen;

    /// A move listed twice is its own finding, named by the vote and said in words,
    /// whether the repeat is in the legal list alone (the oracle's probes) or in the
    /// moves a walker follows (the consensus every playout, descent and frontier uses);
    /// where everyone agrees, the consensus is every legal move with the position after it.
    #[test]
    fn a_move_listed_twice_in_the_legal_list_alone_is_found_and_named() {
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let pos = Position::startpos();
        let honest: [&dyn Generator; 3] = [&MailboxGen, &BitboardGen, &NaiveGen];
        let children = walk::consensus_children(&pos, &honest).expect("the three agree");
        assert_eq!(children.len(), 44);
        for (mv, after) in &children {
            assert_eq!(
                Some(after),
                MailboxGen.play(&pos, *mv).ok().as_ref(),
                "{mv}"
            );
        }

        let twice = Tweaked(Tweak::LegalTwice);
        let gens: [&dyn Generator; 3] = [&MailboxGen, &BitboardGen, &twice];
        let found = check_position(&pos, &gens);
        let twice = found
            .iter()
            .find(|d| d.check == CheckKind::ListedTwice)
            .expect("the repeat is a finding");
        assert_eq!(twice.odd_one_out.as_deref(), Some("tweaked"));
        assert!(
            twice
                .detail
                .contains("listed twice by tweaked (legal moves)"),
            "{}",
            twice.detail
        );
        let d = walk::consensus_children(&pos, &gens).expect_err("the consensus sees it");
        assert_eq!(d.check, CheckKind::ListedTwice);
        assert_eq!(d.odd_one_out.as_deref(), Some("tweaked"));
    }
    /// The mirror maps each answer on its own: a generator wrong on one wing only in its
    /// legal list, only in its pseudo-legal list, or only in whether it is in check is
    /// caught by the mirror alone, whatever its other answers.
    #[test]
    fn the_mirror_maps_each_answer_on_its_own() {
        let table = [
            (Tweak::LeftKingStillLegal, "4k4/9/9/9/9/9/9/9/9/3K5 w"),
            (Tweak::LeftKingStillPseudo, "4k4/9/9/9/9/9/9/9/9/3K5 w"),
            (Tweak::LeftCheckMissed, "3rk4/9/9/9/9/9/9/9/9/3K5 w"),
        ];
        for (tweak, fen) in table {
            let tweaked = Tweaked(tweak);
            let pos = Position::from_fen(fen).unwrap();
            let found = check_position(&pos, &[&tweaked]);
            let mirror = found.iter().find(|d| d.check == CheckKind::Mirror);
            let mirror = mirror.unwrap_or_else(|| panic!("{fen}: {found:?}"));
            assert_eq!(mirror.odd_one_out.as_deref(), Some("tweaked"), "{fen}");
            assert!(
                check_position(&pos, &[&NaiveGen]).is_empty(),
                "{fen}: the untweaked generator is right there"
            );
        }
    }

    /// A position left invalid after a legal move is blamed on whoever produced it, by
    /// vote, where the generators give different positions after the move: here one that
    /// reads back Red to move after Red's check, so Black stands in check not to move.
    #[test]
    fn an_invalid_position_after_a_move_is_blamed_by_vote() {
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let planted = Planted::new(Bug::ReadBackSaysRedToMove);
        let gens: [&dyn Generator; 3] = [&MailboxGen, &BitboardGen, &planted];
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w").unwrap();
        let found = check_position(&pos, &gens);
        let invalid: Vec<&Disagreement> = found
            .iter()
            .filter(|d| d.check == CheckKind::AfterMakeInvalid)
            .collect();
        assert_eq!(invalid.len(), 1, "only a0a9 gives check: {found:?}");
        let d = invalid[0];
        assert_eq!(d.odd_one_out.as_deref(), Some("planted"));
        assert_eq!(d.only_in.len(), 1);
        assert_eq!(d.only_in[0].mv.to_string(), "a0a9");
        assert_eq!(d.only_in[0].has, ["planted"]);
        assert!(
            d.detail
                .starts_with("planted after a0a9 give R3k4/9/9/9/9/9/9/9/9/3K5 w"),
            "{}",
            d.detail
        );
    }

    /// A line goes where its chooser says, among the moves every generator agrees on
    /// (sorted), an index past the end wrapping around: a playout's bias toward captures
    /// is only as good as this.
    #[test]
    fn a_line_follows_its_chooser() {
        use crate::generators::registry;
        let gens = registry();
        let start = Position::startpos();
        let children = consensus_children(&start, &gens).expect("the three agree");
        for (pick, want) in [(5, 5), (children.len() + 2, 2)] {
            let out = check_line(&start, &gens, 1, |candidates| {
                assert_eq!(candidates.len(), children.len());
                Some(pick)
            });
            assert!(out.disagreements.is_empty(), "{:?}", out.disagreements);
            assert_eq!(out.positions.len(), 2);
            assert_eq!(out.positions[1], children[want].1, "pick {pick}");
        }
    }

    #[test]
    fn names_round_trip() {
        for &k in CheckKind::ALL {
            assert_eq!(k.as_str().parse::<CheckKind>(), Ok(k));
            assert_eq!(k.to_string(), k.as_str());
        }
        assert!("no-such-check".parse::<CheckKind>().is_err());
    }

    /// What a disagreement says of itself: the check, the position, the line walked, the
    /// odd one out and the detail, each only when there is one.
    #[test]
    fn a_disagreement_reads_as_a_sentence() {
        let mv: Move = "e0e1".parse().unwrap();
        let d = |line: Vec<Move>, odd: Option<&str>| Disagreement {
            check: CheckKind::WalkedBoard,
            position: Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap(),
            generators: vec!["a".into(), "b".into(), "c".into()],
            odd_one_out: odd.map(str::to_owned),
            only_in: Vec::new(),
            detail: "it went wrong".to_owned(),
            line,
        };
        let table: &[(Disagreement, &str)] = &[
            (
                d(vec![mv, mv], Some("b")),
                "walked-board disagreement on 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 walking e0e1 e0e1 (odd one out: b): it went wrong",
            ),
            (
                d(Vec::new(), None),
                "walked-board disagreement on 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1: it went wrong",
            ),
        ];
        for (d, want) in table {
            assert_eq!(d.to_string(), *want);
        }
    }

    /// A walk stops at its first mismatch: a board that went wrong on the way along is
    /// one finding, not a second one for the way back. The planted board forgets where
    /// a king went (wrong three plies on) and restores captures from a two-entry ring
    /// (the rook's capture is lost by the time the line is taken back).
    #[test]
    fn a_board_gone_wrong_along_a_line_is_not_reported_again_on_the_way_back() {
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let planted = Planted::with(&[Bug::MakeForgetsKingSlot, Bug::HistoryTooShort]);
        let gens: Vec<&dyn Generator> = vec![&MailboxGen, &BitboardGen, &planted];
        let start = Position::from_fen("4k4/9/9/9/9/9/9/9/p8/R2K5 w").unwrap();
        let mut line = ["a0a1", "e9f9", "a1a2"].into_iter();
        let out = check_line(&start, &gens, 4, |candidates| {
            let want: Move = line.next()?.parse().unwrap();
            candidates.iter().position(|c| c.mv == want)
        });
        let walked: Vec<&Disagreement> = out
            .disagreements
            .iter()
            .filter(|d| d.check == CheckKind::WalkedBoard)
            .collect();
        assert_eq!(walked.len(), 1, "{:#?}", out.disagreements);
        assert!(
            walked[0]
                .detail
                .starts_with("board walked along a0a1 e9f9 a1a2"),
            "{}",
            walked[0]
        );
        assert_eq!(walked[0].odd_one_out.as_deref(), Some("planted"));
    }

    /// Where a move leads, as every generator agrees; nowhere for a move that is not legal.
    #[test]
    fn consensus_play_goes_where_the_move_asked_goes() {
        let gens = crate::generators::registry();
        let start = Position::startpos();
        for (mv, after) in consensus_children(&start, &gens).expect("the three agree") {
            assert_eq!(consensus_play(&start, &gens, mv), Some(after), "{mv}");
        }
        assert_eq!(consensus_play(&start, &gens, "a0a5".parse().unwrap()), None);
    }
}
