//! Boards that are used, not just loaded: each generator's board is walked along a line
//! of moves (made one after another, never reloaded, as a search does), compared at
//! every ply with a freshly loaded board of the same position, then walked back to the
//! start and compared again. The line follows moves every generator agrees on.

use super::answers::{self, describe, Agreed};
use super::{symmetry, CheckKind, Disagreement, Run};
use crate::cases::playout::Candidate;
use crate::cases::rng::Rng;
use crate::generators::face::{Child, Generator, Listing, Probe, Walker};
use crate::generators::timing::{span, ORACLE};
use crate::moves::Move;
use crate::position::{Position, Setup};

/// How many plies [`super::check_position`] walks from a position.
pub(crate) const WALK_PLIES: usize = 4;

/// The seed of the line walked from `pos`: a function of the position alone (FNV-1a
/// over the squares and the side to move), so a finding reproduces from its FEN.
pub(crate) fn line_seed(pos: &Position) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    for cell in &pos.setup().board {
        eat(cell.map_or(0, |p| 1 + (p.color.index() * 7 + p.role.index()) as u8));
    }
    eat(pos.turn().index() as u8);
    h
}

/// The moves every generator lists as legal, each once, sorted.
fn common_moves(lists: &[&[Move]]) -> Vec<Move> {
    let Some((first, rest)) = lists.split_first() else {
        return Vec::new();
    };
    let mut out: Vec<Move> = first.to_vec();
    out.dedup();
    out.retain(|m| rest.iter().all(|l| l.binary_search(m).is_ok()));
    out
}

/// What a fresh board says: a listing, or a probe's fresh answers (compared as they
/// stand, without copying them into a listing).
trait Fresh {
    fn same(&self, walked: &Listing) -> bool;
    fn listing(&self) -> Listing;
}

impl Fresh for Listing {
    fn same(&self, walked: &Listing) -> bool {
        self == walked
    }
    fn listing(&self) -> Listing {
        self.clone()
    }
}

impl Fresh for Probe {
    fn same(&self, walked: &Listing) -> bool {
        self.same_as(walked)
    }
    fn listing(&self) -> Listing {
        Probe::listing(self)
    }
}

/// Which generators' walked boards differ from their fresh ones, as a self-check per
/// generator; whether any did.
fn mismatches<F: Fresh>(
    run: &mut Run<'_>,
    want: &[F],
    got: &[Listing],
    what: &str,
    line: &[Move],
) -> bool {
    let same: Vec<bool> = want.iter().zip(got).map(|(w, g)| w.same(g)).collect();
    if same.iter().all(|&s| s) {
        return false;
    }
    let detail = run
        .names
        .iter()
        .zip(want.iter().zip(got))
        .filter(|(_, (w, g))| !w.same(g))
        .map(|(n, (w, g))| format!("{n}: the walked board {}", describe(&w.listing(), g)))
        .collect::<Vec<_>>()
        .join("; ");
    let moves: Vec<String> = line.iter().map(Move::to_string).collect();
    run.self_check(
        CheckKind::WalkedBoard,
        &same,
        Vec::new(),
        format!("{what} {}: {detail}", moves.join(" ")),
        line.to_vec(),
    );
    true
}

/// Boards read back after the same move: they must agree with each other (and, when
/// given, with a fresh board's make), else the walked boards have parted ways.
fn afters_agree(run: &mut Run<'_>, afters: &[Setup], fresh: Option<&Setup>, line: &[Move]) -> bool {
    let want = fresh.unwrap_or(&afters[0]);
    let same: Vec<bool> = afters.iter().map(|a| a == want).collect();
    if same.iter().all(|&s| s) {
        return true;
    }
    let detail = run
        .names
        .iter()
        .zip(afters)
        .map(|(n, a)| format!("{n}: {a}"))
        .collect::<Vec<_>>()
        .join(", ");
    let moves: Vec<String> = line.iter().map(Move::to_string).collect();
    run.self_check(
        CheckKind::WalkedBoard,
        &same,
        Vec::new(),
        format!(
            "walked boards read back differently after {}: {detail}",
            moves.join(" ")
        ),
        line.to_vec(),
    );
    false
}

fn walk_back(walkers: &mut [Box<dyn Walker + '_>]) -> Vec<Listing> {
    walkers
        .iter_mut()
        .map(|w| {
            while w.take_back() {}
            w.listing()
        })
        .collect()
}

/// Walks every generator's board from `pos` along `line`, or along a line chosen from
/// the position's own seed when `line` is `None`, and records where a walked board parts
/// from a fresh one. Stops at the first difference, or where a move of `line` is not
/// legal for every generator.
pub(super) fn walk(
    run: &mut Run<'_>,
    pos: &Position,
    gens: &[&dyn Generator],
    probes: &[Probe],
    line: Option<&[Move]>,
) {
    span(ORACLE, "walk", || walk_line(run, pos, gens, probes, line));
}

fn walk_line(
    run: &mut Run<'_>,
    pos: &Position,
    gens: &[&dyn Generator],
    probes: &[Probe],
    line: Option<&[Move]>,
) {
    let start: Vec<Listing> = probes.iter().map(Probe::listing).collect();
    let mut walkers: Vec<Box<dyn Walker + '_>> = gens.iter().map(|g| g.walker(pos)).collect();
    let mut rng = Rng::new(line_seed(pos));
    let plies = line.map_or(WALK_PLIES, <[Move]>::len);
    let mut played: Vec<Move> = Vec::new();
    let mut fresh = start.clone();
    for ply in 0..plies {
        let lists: Vec<&[Move]> = fresh.iter().map(|l| l.legal.as_slice()).collect();
        let candidates = common_moves(&lists);
        let mv = match line {
            Some(given) => given[ply],
            None if candidates.is_empty() => break,
            None => candidates[rng.below(candidates.len() as u64) as usize],
        };
        if candidates.binary_search(&mv).is_err() {
            break;
        }
        let afters: Vec<Setup> = walkers.iter_mut().map(|w| w.play(mv)).collect();
        played.push(mv);
        if !afters_agree(run, &afters, None, &played) {
            return;
        }
        let Ok(next) = Position::new(afters[0].clone()) else {
            // The per-move checks report an invalid position after a legal move.
            return;
        };
        fresh = gens.iter().map(|g| g.listing(&next)).collect();
        let walked: Vec<Listing> = walkers.iter_mut().map(|w| w.listing()).collect();
        if mismatches(run, &fresh, &walked, "board walked along", &played) {
            return;
        }
    }
    if played.is_empty() {
        return;
    }
    let back = walk_back(&mut walkers);
    mismatches(run, &start, &back, "board walked back after", &played);
}

/// What [`check_line`] saw.
#[derive(Clone, Debug, Default)]
pub(crate) struct LineOutcome {
    /// Every position checked, the start first.
    pub positions: Vec<Position>,
    /// Everything found, at the last position checked (or, for `walked-board`, from the
    /// start along [`Disagreement::line`]).
    pub disagreements: Vec<Disagreement>,
}

/// Checks every position of a line from `start` with the whole oracle, while each
/// generator's board follows the line move by move without being reloaded. `choose`
/// picks the next move among the candidates (every generator agrees on each); the line
/// ends after `max_plies` moves, when `choose` says `None`, when there is no move, or at
/// the first position with a disagreement.
///
/// With `choose` drawing `Rng::new(line_seed(start)).below(len)` and `max_plies` at
/// [`WALK_PLIES`], the boards walk the line [`super::check_position`] walks from `start`,
/// so a `walked-board` finding reproduces from the start's FEN.
pub(crate) fn check_line(
    start: &Position,
    gens: &[&dyn Generator],
    max_plies: usize,
    mut choose: impl FnMut(&[Candidate]) -> Option<usize>,
) -> LineOutcome {
    let mut walkers: Vec<Box<dyn Walker + '_>> = gens.iter().map(|g| g.walker(start)).collect();
    let mut at_start = Run::new(start, gens);
    let mut out = LineOutcome::default();
    let mut start_listings: Vec<Listing> = Vec::new();
    let mut line: Vec<Move> = Vec::new();
    let mut here = start.clone();
    loop {
        let probes: Vec<Probe> = gens.iter().map(|g| g.probe(&here)).collect();
        let mut run = Run::new(&here, gens);
        let agreed = answers::compare(&mut run, &here, gens, &probes);
        symmetry::compare(&mut run, &here, gens, &probes);
        if line.is_empty() {
            start_listings = probes.iter().map(Probe::listing).collect();
        } else {
            let walked: Vec<Listing> = walkers.iter_mut().map(|w| w.listing()).collect();
            mismatches(&mut at_start, &probes, &walked, "board walked along", &line);
        }
        let found = !run.out.is_empty() || !at_start.out.is_empty();
        // The whole comparison of counting paths where the line ends, the two-ply count
        // alone on the way: it is the most expensive part of the oracle, and a line
        // that ends early for a finding has what it came for.
        if found || line.len() >= max_plies || agreed.is_empty() {
            super::paths::compare(&mut run, &here, gens);
        } else {
            super::paths::compare_two_ply(&mut run, &here, gens, &probes);
        }
        let found = !run.out.is_empty() || !at_start.out.is_empty();
        out.disagreements.extend(run.finish());
        out.positions.push(here.clone());
        if found || line.len() >= max_plies || agreed.is_empty() {
            break;
        }
        let candidates: Vec<Candidate> = agreed
            .iter()
            .map(|a| Candidate {
                mv: a.mv,
                captured: a.captured,
            })
            .collect();
        let Some(i) = choose(&candidates) else { break };
        let Agreed { mv, after, .. } = agreed[i % agreed.len()].clone();
        let afters: Vec<Setup> = walkers.iter_mut().map(|w| w.play(mv)).collect();
        line.push(mv);
        if !afters_agree(&mut at_start, &afters, Some(after.setup()), &line) {
            break;
        }
        here = after;
    }
    if out.disagreements.is_empty() && at_start.out.is_empty() && !line.is_empty() {
        let back = walk_back(&mut walkers);
        mismatches(
            &mut at_start,
            &start_listings,
            &back,
            "board walked back after",
            &line,
        );
    }
    out.disagreements.extend(at_start.finish());
    out
}

/// The position after `mv` as every generator agrees it is; `None` when `mv` is not a
/// legal move they agree on, or they disagree about `pos`.
pub(crate) fn consensus_play(
    pos: &Position,
    gens: &[&dyn Generator],
    mv: Move,
) -> Option<Position> {
    consensus_children(pos, gens)
        .ok()?
        .into_iter()
        .find(|(m, _)| *m == mv)
        .map(|(_, after)| after)
}

/// The moves every generator agrees on from each position, as a playout's next steps;
/// a disagreement ends the walk there (the oracle reports it when it checks the position).
pub fn consensus_steps<'a>(
    gens: &'a [&'a dyn Generator],
) -> impl FnMut(&Position) -> Vec<(Move, Position)> + 'a {
    move |pos| consensus_children(pos, gens).unwrap_or_default()
}

/// The legal moves of `pos` every generator agrees on, each with the position after it,
/// sorted by move: what playouts, the perft descent, the metamorphic phase and the split
/// frontier walk to. `Err` with the first disagreement when the generators do not agree
/// on the moves (repeats included), on a capture or on the position after a move, or
/// when a position after a legal move is invalid.
pub(crate) fn consensus_children(
    pos: &Position,
    gens: &[&dyn Generator],
) -> Result<Vec<(Move, Position)>, Box<Disagreement>> {
    let children: Vec<Vec<Child>> = gens.iter().map(|g| g.children(pos)).collect();
    let mut run = Run::new(pos, gens);
    let agreed = answers::compare_children(&mut run, &children);
    match run.finish().into_iter().next() {
        Some(d) => Err(Box::new(d)),
        None => Ok(agreed.into_iter().map(|a| (a.mv, a.after)).collect()),
    }
}
