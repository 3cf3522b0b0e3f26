//! Perft and divide for any [`MoveGen`], serial and parallel.
//!
//! The last ply is counted, not played ([`MoveGen::count_legal`]), as Pikafish and
//! Fairy-Stockfish do, so node rates compare with theirs.

use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use rayon::prelude::*;

/// Leaf count of the legal-move tree `depth` plies below `board`.
pub fn perft<G: MoveGen>(g: &G, board: &mut G::Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => g.count_legal(board),
        _ => {
            let mut list = MoveList::new();
            g.legal(board, &mut list);
            let mut nodes = 0;
            for &mv in list.iter() {
                let undo = g.make(board, mv);
                nodes += perft(g, board, depth - 1);
                g.unmake(board, mv, undo);
            }
            nodes
        }
    }
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

/// Called from worker threads as work finishes: `(done, total)` in work units.
pub type ProgressFn<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// One piece of parallel work: a root move, the board below the path to it, and the depth left.
struct Task<B> {
    root: usize,
    board: B,
    depth: u32,
}

/// Enough independent subtrees that two (or more) cores stay busy to the end even
/// though subtrees differ in size by an order of magnitude.
fn target_tasks() -> usize {
    rayon::current_num_threads().max(1) * 32
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
pub fn divide_parallel<G: MoveGen>(
    g: &G,
    board: &G::Board,
    depth: u32,
    progress: Option<ProgressFn<'_>>,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let (roots, tasks) = frontier(g, board, depth);
    let total = tasks.len() as u64;
    let done = std::sync::atomic::AtomicU64::new(0);
    let counts: Vec<(usize, u64)> = tasks
        .into_par_iter()
        .map(|mut t| {
            let n = perft(g, &mut t.board, t.depth);
            if let Some(report) = progress {
                let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                report(d, total);
            }
            (t.root, n)
        })
        .collect();
    let mut per_root = vec![0u64; roots.len()];
    for (root, n) in counts {
        per_root[root] += n;
    }
    roots.into_iter().zip(per_root).collect()
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
