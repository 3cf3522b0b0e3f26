//! Perft and divide for any [`MoveGen`], serial and parallel.
//!
//! The last ply is counted, not played ([`MoveGen::count_legal`]), as Pikafish and
//! Fairy-Stockfish do, so node rates compare with theirs; the last two plies are one
//! call, [`MoveGen::count_two_plies`], so a generator can share work between siblings.
//!
//! With a table (`--hash`) the count of every subtree two plies deep or more is kept in a
//! table by position key and depth left, and a position met again along another path
//! (a transposition) is looked up instead of counted again.

#[cfg(feature = "planted")]
use crate::generators::perft_hash::HashPlant;
use crate::generators::perft_hash::Hashing;
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaf count of the legal-move tree `depth` plies below `board`.
pub fn perft<G: MoveGen>(g: &G, board: &mut G::Board, depth: u32) -> u64 {
    count::<G, true>(g, board, depth)
}

/// [`perft`] without the two-ply shortcut: every move made, [`MoveGen::count_legal`] on
/// the ply above the leaves, unmade. The plain count every faster path of a generator is
/// checked against.
pub(crate) fn perft_plain<G: MoveGen>(g: &G, board: &mut G::Board, depth: u32) -> u64 {
    count::<G, false>(g, board, depth)
}

/// The one walk of both counts; `TWO_PLIES` says whether the last two plies are one
/// call. A constant, so each count is compiled as its own loop.
fn count<G: MoveGen, const TWO_PLIES: bool>(g: &G, board: &mut G::Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => g.count_legal(board),
        2 if TWO_PLIES => g.count_two_plies(board),
        _ => {
            let mut list = MoveList::new();
            g.legal(board, &mut list);
            let mut nodes = 0;
            for &mv in list.iter() {
                let undo = g.make(board, mv);
                nodes += count::<G, TWO_PLIES>(g, board, depth - 1);
                g.unmake(board, mv, undo);
            }
            nodes
        }
    }
}

/// A key carried over a move that is not the key read off the board after it: the
/// first such move a checked hashed perft met, and the depth left below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyMismatch {
    /// The move.
    pub mv: Move,
    /// Plies left to count below it.
    pub depth: u32,
    /// Whether every unmake before it gave back the board as it was: when one did not,
    /// the board, not the key, went wrong first, and the key only follows.
    pub restored: bool,
}

/// The hashed perft with every key carried over a move compared to the key read off the
/// board from scratch after it, as the oracle runs it: the count, and the first key
/// that differed. A key that goes wrong only sometimes changes a count only when it
/// happens to meet another position's; this sees it on the move it goes wrong.
pub(crate) fn perft_hashed_checked<G: MoveGen>(
    g: &G,
    board: &mut G::Board,
    key: u128,
    depth: u32,
    h: Hashing<'_>,
) -> (u64, Option<KeyMismatch>) {
    let mut found = None;
    let never = AtomicBool::new(false);
    let n = hashed_polling::<G, true>(g, board, key, depth, h, &never, &mut found);
    (n, found)
}

/// [`perft`] that returns early (with a count that means nothing) once `stop` is up.
fn perft_polling<G: MoveGen>(g: &G, board: &mut G::Board, depth: u32, stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => g.count_legal(board),
        2 => g.count_two_plies(board),
        _ => {
            if stop.load(Ordering::Relaxed) {
                return 0;
            }
            let mut list = MoveList::new();
            g.legal(board, &mut list);
            let mut nodes = 0;
            for &mv in list.iter() {
                let undo = g.make(board, mv);
                nodes += perft_polling(g, board, depth - 1, stop);
                g.unmake(board, mv, undo);
            }
            nodes
        }
    }
}

/// The hashed perft, returning early (with a count that means nothing, and nothing
/// stored in the table) once `stop` is up. With `CHECKED` every key carried over a move
/// is compared with the board's own, the first that differs kept in `found`; a
/// constant, so the counts of `perft` and `shard` pay nothing for it.
fn hashed_polling<G: MoveGen, const CHECKED: bool>(
    g: &G,
    board: &mut G::Board,
    key: u128,
    depth: u32,
    h: Hashing<'_>,
    stop: &AtomicBool,
    found: &mut Option<KeyMismatch>,
) -> u64 {
    // A count of one ply is a single count_legal: cheaper than a table miss.
    if depth < 2 {
        return perft(g, board, depth);
    }
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    #[cfg(feature = "planted")]
    let probed = match g.planted_hash() {
        Some(HashPlant::ProbeIgnoresDepth) => h.table.probe_ignoring_depth(key, depth),
        _ => h.table.probe(key, depth),
    };
    #[cfg(not(feature = "planted"))]
    let probed = h.table.probe(key, depth);
    if let Some(n) = probed {
        return n;
    }
    if depth == 2 {
        let nodes = g.count_two_plies(board);
        h.table.store(key, depth, nodes);
        return nodes;
    }
    let mut list = MoveList::new();
    g.legal(board, &mut list);
    let mut nodes = 0;
    for &mv in list.iter() {
        let next = h.keys.after(g, board, key, mv);
        let before = CHECKED.then(|| g.to_setup(board));
        let undo = g.make(board, mv);
        let next = next.unwrap_or_else(|| h.keys.of_board(g, board));
        // In debug builds every hashed count checks each key it carries, as the oracle's
        // always does; a planted hash bug is left for the oracle to find.
        #[cfg(feature = "planted")]
        let honest = g.planted_hash().is_none();
        #[cfg(not(feature = "planted"))]
        let honest = true;
        debug_assert!(
            CHECKED || !honest || next == h.keys.of_board(g, board),
            "{}: the key carried over {mv} is not the board's",
            g.name()
        );
        if CHECKED && found.is_none() && next != h.keys.of_board(g, board) {
            *found = Some(KeyMismatch {
                mv,
                depth: depth - 1,
                restored: true,
            });
        }
        #[cfg(feature = "planted")]
        let next = match g.planted_hash() {
            Some(HashPlant::ChildUnderParentKey) => key,
            _ => next,
        };
        nodes += hashed_polling::<G, CHECKED>(g, board, next, depth - 1, h, stop, found);
        g.unmake(board, mv, undo);
        if before.is_some_and(|b| b != g.to_setup(board)) && found.is_none_or(|f| f.restored) {
            *found = Some(KeyMismatch {
                mv,
                depth: depth - 1,
                restored: false,
            });
        }
    }
    if !stop.load(Ordering::Relaxed) {
        h.table.store(key, depth, nodes);
    }
    nodes
}

/// Per-root-move counts of [`perft`], in generation order. Empty for depth 0.
pub fn divide<G: MoveGen>(g: &G, board: &mut G::Board, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut list = MoveList::new();
    g.legal(board, &mut list);
    list.iter()
        .map(|&mv| {
            let undo = g.make(board, mv);
            let n = perft(g, board, depth - 1);
            g.unmake(board, mv, undo);
            (mv, n)
        })
        .collect()
}

/// A subtree a divide finished: `done` of `of` subtrees so far, and its leaf count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// Subtrees finished so far, this one included.
    pub done: u64,
    /// Subtrees in all.
    pub of: u64,
    /// This subtree's leaves.
    pub nodes: u64,
}

/// Called as each subtree of a divide finishes, from worker threads when it runs on
/// the pool.
pub(crate) type ProgressFn<'a> = &'a (dyn Fn(Finished) + Sync);

/// One piece of parallel work: a root move, the board below the path to it, and the depth left.
struct Task<B> {
    root: usize,
    board: B,
    depth: u32,
}

/// Enough independent subtrees that two (or more) cores stay busy to the end even
/// though subtrees differ in size by an order of magnitude, and that a progress bar
/// moves within the first root move: the start position at depth 7 has 44 root
/// subtrees of minutes each on one core, but about two thousand of a second or so.
fn target_tasks() -> usize {
    (rayon::current_num_threads().max(1) * 32).max(1000)
}

/// Splits the tree into tasks: at the root, and a ply deeper wherever that leaves too
/// few tasks (a position in check with three replies would otherwise use one core).
fn frontier<G: MoveGen>(g: &G, board: &G::Board, depth: u32) -> (Vec<Move>, Vec<Task<G::Board>>) {
    let mut root = board.clone();
    let mut roots = MoveList::new();
    g.legal(&mut root, &mut roots);
    let mut tasks: Vec<Task<G::Board>> = roots
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let mut b = board.clone();
            g.make(&mut b, mv);
            Task {
                root: i,
                board: b,
                depth: depth - 1,
            }
        })
        .collect();
    // Stop splitting at depth 2: below that a task is too small to be worth a thread hop.
    while tasks.len() < target_tasks() && tasks.iter().any(|t| t.depth > 2) {
        let mut next = Vec::with_capacity(tasks.len() * 40);
        for t in tasks {
            if t.depth <= 2 {
                next.push(t);
                continue;
            }
            let mut b = t.board.clone();
            let mut list = MoveList::new();
            g.legal(&mut b, &mut list);
            for &mv in list.iter() {
                let mut child = t.board.clone();
                g.make(&mut child, mv);
                next.push(Task {
                    root: t.root,
                    board: child,
                    depth: t.depth - 1,
                });
            }
        }
        tasks = next;
    }
    (roots.to_vec(), tasks)
}

/// [`divide`] on the current rayon pool. `progress` hears after each finished subtree.
pub(crate) fn divide_parallel<G: MoveGen>(
    g: &G,
    board: &G::Board,
    depth: u32,
    progress: Option<ProgressFn<'_>>,
) -> Vec<(Move, u64)> {
    divide_tasks(
        g,
        board,
        depth,
        progress,
        true,
        None,
        &AtomicBool::new(false),
    )
    .unwrap_or_default()
}

/// [`divide`] on the current rayon pool when `parallel`, `progress` hearing after each
/// finished subtree, through the table of `hashing` when there is one (every thread
/// shares it), given up once `stop` is raised (`None` then).
pub(crate) fn divide_until<G: MoveGen>(
    g: &G,
    board: &G::Board,
    depth: u32,
    parallel: bool,
    progress: Option<ProgressFn<'_>>,
    hashing: Option<Hashing<'_>>,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    divide_tasks(g, board, depth, progress, parallel, hashing, stop)
}

/// [`divide`] on the calling thread, `progress` hearing after each finished subtree
/// (subtrees a ply or two below the root, not whole root moves, so a deep count shows
/// progress early). The counting is [`perft`]'s own; only the split costs more, a
/// board copy per subtree.
pub(crate) fn divide_reporting<G: MoveGen>(
    g: &G,
    board: &G::Board,
    depth: u32,
    progress: ProgressFn<'_>,
) -> Vec<(Move, u64)> {
    divide_tasks(
        g,
        board,
        depth,
        Some(progress),
        false,
        None,
        &AtomicBool::new(false),
    )
    .unwrap_or_default()
}

fn divide_tasks<G: MoveGen>(
    g: &G,
    board: &G::Board,
    depth: u32,
    progress: Option<ProgressFn<'_>>,
    parallel: bool,
    hashing: Option<Hashing<'_>>,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let (roots, tasks) = frontier(g, board, depth);
    let of = tasks.len() as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let run = |mut t: Task<G::Board>| {
        let nodes = match hashing {
            Some(h) => {
                let key = h.keys.of_board(g, &t.board);
                hashed_polling::<G, false>(g, &mut t.board, key, t.depth, h, stop, &mut None)
            }
            None => perft_polling(g, &mut t.board, t.depth, stop),
        };
        if let Some(report) = progress {
            let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            report(Finished { done, of, nodes });
        }
        (t.root, nodes)
    };
    let counts: Vec<(usize, u64)> = if parallel {
        tasks.into_par_iter().map(run).collect()
    } else {
        tasks.into_iter().map(run).collect()
    };
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut per_root = vec![0u64; roots.len()];
    for (root, n) in counts {
        per_root[root] += n;
    }
    Some(roots.into_iter().zip(per_root).collect())
}

/// [`perft`] on the current rayon pool.
pub fn perft_parallel<G: MoveGen>(
    g: &G,
    board: &G::Board,
    depth: u32,
    progress: Option<ProgressFn<'_>>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    divide_parallel(g, board, depth, progress)
        .iter()
        .map(|&(_, n)| n)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::mailbox::MailboxGen;
    use crate::generators::perft_hash::{HashSize, Keys, Table};
    use crate::generators::EachGenerator;
    use crate::position::Position;
    use std::sync::Mutex;

    /// Every generator, every position of the published suite at each depth up to a node
    /// budget: the hashed count, serial and parallel, under two seeds, with a roomy table
    /// and with one so small that entries are pushed out all the time, equals the
    /// published count and the count without a table.
    #[test]
    fn hashed_perft_counts_what_plain_perft_counts_on_every_generator() {
        const BUDGET: u64 = 300_000;
        struct Each(Vec<(Position, u32, u64)>);
        impl EachGenerator for Each {
            fn visit<G: MoveGen + 'static>(&mut self, g: &G) {
                // (table bytes, seed)
                let tables: [(u64, u64); 3] = [(8 << 20, 1), (8 << 20, 2), (4 << 10, 3)];
                for &(bytes, seed) in &tables {
                    let keys = Keys::new(seed);
                    let table = Table::new(HashSize(bytes)).unwrap();
                    let h = Hashing {
                        keys: &keys,
                        table: &table,
                    };
                    for (pos, depth, want) in &self.0 {
                        let (depth, want) = (*depth, *want);
                        let mut b = g.load(pos);
                        let plain = perft(g, &mut b, depth);
                        let key = keys.of_board(g, &b);
                        let never = AtomicBool::new(false);
                        let serial =
                            hashed_polling::<G, false>(g, &mut b, key, depth, h, &never, &mut None);
                        let parallel: u64 = divide_until(g, &b, depth, true, None, Some(h), &never)
                            .unwrap_or_default()
                            .iter()
                            .map(|&(_, n)| n)
                            .sum();
                        let what = format!("{} {} D{depth} seed {seed}", g.name(), pos.fen());
                        assert_eq!(plain, want, "{what}");
                        assert_eq!(serial, want, "{what} serial, {bytes} bytes");
                        assert_eq!(parallel, want, "{what} parallel, {bytes} bytes");
                    }
                }
            }
        }
        let suite =
            crate::epd::parse_suite(include_str!("../../tests/data/xiangqi-perft.epd")).unwrap();
        let rows: Vec<(Position, u32, u64)> = suite
            .iter()
            .flat_map(|e| {
                e.counts
                    .iter()
                    .filter(|&&(d, n)| d >= 2 && n <= BUDGET)
                    .map(|&(d, n)| (e.position.clone(), d, n))
            })
            .collect();
        assert!(rows.len() >= 20, "only {} rows", rows.len());
        crate::generators::for_each(&mut Each(rows));
    }

    /// Each row: a FEN, a depth, and whether the tree is deep enough to be split below
    /// its root moves. A reporting divide gives divide's counts; it hears of every
    /// subtree once, their leaves add up to the total, and a split tree reports more
    /// often than it has root moves, so a bar moves within the first root move.
    #[test]
    fn a_reporting_divide_hears_subtrees_below_the_root() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        let table: &[(&str, u32, bool)] = &[
            (start, 1, false),
            (start, 2, false),
            (start, 3, false),
            (start, 4, true),
            // In check, with few replies: split a ply deeper.
            ("3k5/9/9/9/9/9/9/9/4r4/4K4 w", 4, true),
        ];
        let g = MailboxGen;
        for &(fen, depth, split) in table {
            let pos = Position::from_fen(fen).unwrap();
            let mut board = g.load(&pos);
            let want = divide(&g, &mut board, depth);
            let heard = Mutex::new(Vec::new());
            let got =
                divide_reporting(&g, &g.load(&pos), depth, &|f| heard.lock().unwrap().push(f));
            assert_eq!(got, want, "{fen} {depth}");
            let heard = heard.into_inner().unwrap();
            let of = heard.first().map_or(0, |f| f.of);
            let done: Vec<u64> = heard.iter().map(|f| f.done).collect();
            assert_eq!(done, (1..=of).collect::<Vec<_>>(), "{fen} {depth}");
            let leaves: u64 = heard.iter().map(|f| f.nodes).sum();
            assert_eq!(leaves, want.iter().map(|&(_, n)| n).sum::<u64>());
            assert_eq!(
                of as usize > want.len(),
                split,
                "{fen} {depth}: {of} subtrees"
            );
        }
    }
}
