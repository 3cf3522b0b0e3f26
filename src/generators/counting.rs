//! What the crate asks of a generator besides its answers: counts by each of the ways
//! it can count (its plain perft, its own two-ply shortcut, through tables), and counts
//! a signal can end. Every [`Generator`](crate::generators::face::Generator) has it, as
//! its supertrait; the trait can be
//! named only in the crate, so it is no part of the interface and no one outside
//! implements a generator but through [`MoveGen`].

use crate::generators::perft::{self, KeyMismatch, ProgressFn};
use crate::generators::perft_hash::{HashSize, Hashing, Keys, Table, BUCKET_BYTES};
use crate::generators::timing::span;
use crate::generators::MoveGen;
use crate::moves::Move;
use crate::position::Position;

/// Counts by the ways a generator can count; see the module.
pub trait Counting: Sync {
    /// [`divide`](crate::generators::face::Generator::divide), through a transposition table when `hashing` has
    /// one (`perft::divide_until`), given up once `stop` is raised (`None` then): for
    /// counts a signal must be able to end at any depth.
    fn divide_until(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
        hashing: Option<Hashing<'_>>,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<Vec<(Move, u64)>>;
    /// Perft on the current rayon pool through a transposition table.
    fn perft_hashed(&self, pos: &Position, depth: u32, hashing: Hashing<'_>) -> u64 {
        if depth == 0 {
            return 1;
        }
        let never = std::sync::atomic::AtomicBool::new(false);
        self.divide_until(pos, depth, true, None, Some(hashing), &never)
            .unwrap_or_default()
            .iter()
            .map(|&(_, n)| n)
            .sum()
    }
    /// perft(`depth`) of `pos` by `path`; a hashed path through `tables`, which the
    /// caller keeps from one depth to the next.
    fn count_path(
        &self,
        pos: &Position,
        depth: u32,
        path: CountPath,
        tables: &CountTables,
    ) -> PathCount;
    /// Whether its perft counts the last two plies by a shortcut of its own
    /// ([`MoveGen::two_ply_shortcut`]): what two of its counts share besides its moves.
    fn two_ply_shortcut(&self) -> bool;
}

/// A way a generator counts perft. Each is a computation of its own, and every one must
/// give the plain count: the oracle compares them ([`Counting::count_path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CountPath {
    /// Every move made and unmade, [`MoveGen::count_legal`] on the last ply.
    Plain,
    /// The generator's own perft: [`MoveGen::count_two_plies`] for the last two plies.
    TwoPly,
    /// Through a table of one bucket (two entries), kept from one depth to the next, so
    /// entries are pushed out and met again under other keys and depths all the time.
    HashedTiny,
    /// Through a table with room for every subtree, kept from one depth to the next.
    HashedRoomy,
}

impl CountPath {
    /// Every path, the plain count first.
    pub const ALL: [CountPath; 4] = [
        CountPath::Plain,
        CountPath::TwoPly,
        CountPath::HashedTiny,
        CountPath::HashedRoomy,
    ];

    /// The name in reports.
    pub const fn as_str(self) -> &'static str {
        match self {
            CountPath::Plain => "plain",
            CountPath::TwoPly => "two-ply",
            CountPath::HashedTiny => "hashed (1 bucket)",
            CountPath::HashedRoomy => "hashed (roomy)",
        }
    }
}

/// What one counting path gave at one depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathCount {
    /// The path.
    pub path: CountPath,
    /// The depth counted.
    pub depth: u32,
    /// The leaves it counted.
    pub nodes: u64,
    /// For a hashed path, the first key carried over a move that was not the board's.
    pub key: Option<KeyMismatch>,
}

/// The tables the hashed paths of one generator keep over the depths asked of one
/// position: what an engine's table does between iterations, so a count stored at one
/// depth is there to be wrongly found at the next.
pub struct CountTables {
    keys: &'static Keys,
    tiny: Table,
    roomy: Table,
}

/// Buckets of the roomy table: far more than the subtrees of the depth-3 counts the
/// oracle asks, so nothing is pushed out.
const ROOMY_BUCKETS: u64 = 1024;

impl CountTables {
    /// Empty tables.
    pub fn new() -> CountTables {
        static KEYS: std::sync::OnceLock<Keys> = std::sync::OnceLock::new();
        // Sizes of one bucket and more can always be had: these cannot fail.
        let table = |buckets| Table::new(HashSize(buckets * BUCKET_BYTES));
        CountTables {
            keys: KEYS.get_or_init(|| Keys::new(1)),
            tiny: table(1).unwrap_or_else(|_| unreachable!("one bucket")),
            roomy: table(ROOMY_BUCKETS).unwrap_or_else(|_| unreachable!("a few KiB")),
        }
    }
}

impl Default for CountTables {
    fn default() -> Self {
        CountTables::new()
    }
}

impl<G: MoveGen> Counting for G {
    fn divide_until(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
        hashing: Option<Hashing<'_>>,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<Vec<(Move, u64)>> {
        perft::divide_until(
            self,
            &self.load(pos),
            depth,
            parallel,
            progress,
            hashing,
            stop,
        )
    }

    fn count_path(
        &self,
        pos: &Position,
        depth: u32,
        path: CountPath,
        tables: &CountTables,
    ) -> PathCount {
        span(MoveGen::name(self), "count paths", || {
            let mut board = self.load(pos);
            let mut hashed = |table| {
                let h = Hashing {
                    keys: tables.keys,
                    table,
                };
                let key = tables.keys.of_board(self, &board);
                perft::perft_hashed_checked(self, &mut board, key, depth, h)
            };
            let (nodes, key) = match path {
                CountPath::Plain => (perft::perft_plain(self, &mut board, depth), None),
                CountPath::TwoPly => (perft::perft(self, &mut board, depth), None),
                CountPath::HashedTiny => hashed(&tables.tiny),
                CountPath::HashedRoomy => hashed(&tables.roomy),
            };
            PathCount {
                path,
                depth,
                nodes,
                key,
            }
        })
    }

    fn two_ply_shortcut(&self) -> bool {
        MoveGen::two_ply_shortcut(self)
    }
}
