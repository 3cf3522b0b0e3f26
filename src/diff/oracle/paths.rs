//! Every way each generator counts perft, compared: the plain count (every move made,
//! the last ply counted), the generator's own two-ply count, and the hashed count
//! through a table of one bucket and through a roomy one, at depth 2 and, where the tree
//! is small enough, depth 3. A fast path is a computation like any other, and a bug in
//! it a finding like any other.
//!
//! Within a generator every path must give its plain count (`count-path`), and every
//! key a hashed path carries over a move must be the board's own (`hash-key`). Across
//! generators the plain counts vote: a generator outvoted on its plain count has a bug
//! in its moves, make or unmake, which shows in its faster paths too and which the
//! oracle's other checks name where it acts (or a walk, a descent does); its paths are
//! not judged on that position, so the finding is not named after the path.

use super::{CheckKind, Disagreement, Run};
use crate::generators::face::counting::{CountPath, CountTables, PathCount};
use crate::generators::face::{Generator, Probe};
use crate::position::Position;

/// Depth 3 is counted only when no generator's perft(2) is above this: the oracle then
/// pays for depth 3 on the small positions a campaign makes most of, where a two-ply
/// count's or a table's slips show as readily as anywhere, and not on a middle game's
/// 80,000 leaves.
pub(crate) const DEEP_LIMIT: u64 = 150;

/// The deepest count asked.
pub(crate) const DEEPEST: u32 = 3;

/// Every path of every generator at depth 2 and 3 (depth 3 within [`DEEP_LIMIT`]): what
/// [`check_position`](super::check_position) asks, and a line asks of its first position.
pub(super) fn compare(run: &mut Run<'_>, pos: &Position, gens: &[&dyn Generator]) {
    // A position that already shows a bug has what it came for: the minimizer asks
    // this of every smaller position it tries, and the counts are most of its cost.
    if run.out.is_empty() {
        compare_to(run, pos, gens, DEEP_LIMIT);
    }
}

/// What a line asks of the positions after its first: each generator's own two-ply
/// count against the plain perft(2) its probe already holds (the sum of its counts
/// after each legal move), which costs one two-ply count, so a campaign pays for the
/// whole comparison only once a line.
pub(super) fn compare_two_ply(
    run: &mut Run<'_>,
    pos: &Position,
    gens: &[&dyn Generator],
    probes: &[Probe],
) {
    let tables = CountTables::new();
    let counts: Vec<Vec<PathCount>> = gens
        .iter()
        .zip(probes)
        .map(|(g, p)| {
            let plain = PathCount {
                path: CountPath::Plain,
                depth: 2,
                nodes: p.legal.iter().map(|l| l.count_after).sum(),
                key: None,
            };
            let mut c = vec![plain];
            if g.two_ply_shortcut() {
                c.push(g.count_path(pos, 2, CountPath::TwoPly, &tables));
            }
            c
        })
        .collect();
    paths_agree(run, &counts, 2);
}

/// Per generator, whether its paths are judged here: its plain count is one the
/// generators agree on (with three or more, that of a strict majority; with fewer there
/// is no vote), and its unmakes gave back every board its hashed counts made moves on.
/// Otherwise its moves, make or unmake are wrong, which the other checks name.
fn plain_agreed(counts: &[Vec<PathCount>]) -> Vec<bool> {
    let plains: Vec<u64> = counts.iter().map(|c| plain(c)).collect();
    plains
        .iter()
        .zip(counts)
        .map(|(p, c)| {
            if plains.len() < 3 {
                // No vote: a board its unmake did not give back is said as such.
                return true;
            }
            let voted = plains.iter().filter(|q| *q == p).count() * 2 > plains.len();
            voted && c.iter().all(|p| p.key.is_none_or(|k| k.restored))
        })
        .collect()
}

/// Before a count that will be trusted (a hashed `perft`, a shard's jobs), every path of
/// `g` is checked against its plain count at depth 2 and 3 on `pos` and on up to
/// `children` of the positions after its moves (spread over them): a table or key bug
/// shows on the small counts as it would on the large one. The first disagreement, if
/// any.
pub(crate) fn check_before_counting(
    pos: &Position,
    g: &dyn Generator,
    children: usize,
) -> Option<Disagreement> {
    let mut positions = vec![pos.clone()];
    let after: Vec<Position> = g
        .children(pos)
        .into_iter()
        .filter_map(|c| Position::new(c.after).ok())
        .collect();
    let step = after.len().div_ceil(children.max(1)).max(1);
    positions.extend(after.into_iter().step_by(step).take(children));
    positions.iter().find_map(|p| {
        let gens = [g];
        let mut run = Run::new(p, &gens);
        compare_to(&mut run, p, &gens, BEFORE_COUNTING_LIMIT);
        run.finish().into_iter().next()
    })
}

/// [`check_before_counting`] counts depth 3 up to this perft(2): the start position's
/// 1,920 and any middle game's.
const BEFORE_COUNTING_LIMIT: u64 = 4000;

/// The paths a generator has: its two-ply count only where it has one of its own (the
/// trait's is the plain count again).
fn paths_of(g: &dyn Generator) -> Vec<CountPath> {
    CountPath::ALL
        .into_iter()
        .filter(|&p| p != CountPath::TwoPly || g.two_ply_shortcut())
        .collect()
}

fn compare_to(run: &mut Run<'_>, pos: &Position, gens: &[&dyn Generator], deep_limit: u64) {
    let tables: Vec<CountTables> = gens.iter().map(|_| CountTables::new()).collect();
    for depth in 2..=DEEPEST {
        let counts: Vec<Vec<PathCount>> = gens
            .iter()
            .zip(&tables)
            .map(|(g, t)| {
                paths_of(*g)
                    .into_iter()
                    .map(|p| g.count_path(pos, depth, p, t))
                    .collect()
            })
            .collect();
        let found = paths_agree(run, &counts, depth);
        if found || counts.iter().any(|c| plain(c) > deep_limit) {
            break;
        }
    }
}

fn plain(c: &[PathCount]) -> u64 {
    c.first().map_or(0, |p| p.nodes)
}

/// Records where a generator's paths do not all give its plain count, or a hashed path
/// carried a key that is not the board's; whether anything was recorded.
fn paths_agree(run: &mut Run<'_>, counts: &[Vec<PathCount>], depth: u32) -> bool {
    let mut found = false;
    let judged = plain_agreed(counts);
    let paths_ok: Vec<bool> = counts
        .iter()
        .zip(&judged)
        .map(|(c, &judged)| !judged || c.iter().all(|p| p.nodes == plain(c)))
        .collect();
    if paths_ok.contains(&false) {
        let detail = paths_detail(&run.names, counts, &paths_ok, depth);
        run.self_check(
            CheckKind::CountPath,
            &paths_ok,
            Vec::new(),
            detail,
            Vec::new(),
        );
        found = true;
    }
    let keys_ok: Vec<bool> = counts
        .iter()
        .zip(&judged)
        .map(|(c, &judged)| !judged || c.iter().all(|p| p.key.is_none()))
        .collect();
    if keys_ok.contains(&false) {
        let detail = keys_detail(&run.names, counts, &keys_ok, depth);
        run.self_check(CheckKind::HashKey, &keys_ok, Vec::new(), detail, Vec::new());
        found = true;
    }
    found
}

/// "planted perft(3): plain 4531, two-ply 4493, ..." for each generator whose paths
/// differ.
fn paths_detail(names: &[&str], counts: &[Vec<PathCount>], ok: &[bool], depth: u32) -> String {
    let mut parts = Vec::new();
    for ((name, c), _) in names.iter().zip(counts).zip(ok).filter(|(_, ok)| !**ok) {
        let each: Vec<String> = c
            .iter()
            .map(|p| format!("{} {}", p.path.as_str(), p.nodes))
            .collect();
        parts.push(format!("{name} perft({depth}): {}", each.join(", ")));
    }
    format!("counting paths differ: {}", parts.join("; "))
}

/// "planted's hashed (1 bucket) key after c1c5 (2 plies left) is not ...".
fn keys_detail(names: &[&str], counts: &[Vec<PathCount>], ok: &[bool], depth: u32) -> String {
    let mut parts = Vec::new();
    for ((name, c), _) in names.iter().zip(counts).zip(ok).filter(|(_, ok)| !**ok) {
        if let Some((p, k)) = c.iter().find_map(|p| p.key.map(|k| (p, k))) {
            if !k.restored {
                parts.push(format!(
                    "{name}'s unmake of {} in its {} count did not give back the board",
                    k.mv,
                    p.path.as_str()
                ));
                continue;
            }
            parts.push(format!(
                "{name}'s {} key after {} ({} plies left) is not the key read off the board",
                p.path.as_str(),
                k.mv,
                k.depth
            ));
        }
    }
    format!("perft({depth}) hash keys: {}", parts.join("; "))
}
