//! The transposition table of a hashed perft and the position keys it is keyed by.
//!
//! A key is 128 bits of Zobrist-style random numbers, one per (piece, point) and one for
//! Black to move, all drawn from a seed. The keys are written over the vocabulary
//! ([`Piece`], [`Square`]) and read off a generator's board only through
//! [`MoveGen::piece_at`] and [`MoveGen::turn`], so every generator is hashed the same way
//! while keeping its own move rules: a hashed count is still that generator's count.
//!
//! A second run under another seed hashes every position differently, so a collision that
//! corrupted one count would have to happen again, elsewhere, to the same effect: two
//! seeds agreeing is two independent computations.

use crate::generators::MoveGen;
use crate::moves::Move;
use crate::piece::{Color, Piece};
use crate::square::{Square, SQUARE_COUNT};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// Kinds of piece: 7 roles of 2 colours.
const PIECE_KINDS: usize = 14;

/// The random numbers of one seed.
pub struct Keys {
    seed: u64,
    pieces: Vec<[u128; SQUARE_COUNT]>,
    black: u128,
}

/// SplitMix64: a whole stream of well-mixed numbers from any seed, 0 included. Here rather
/// than borrowed from the fuzz cases' generator, which this layer may not use and whose
/// stream may change for reasons of its own.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn next128(&mut self) -> u128 {
        (u128::from(self.next()) << 64) | u128::from(self.next())
    }
}

fn kind(p: Piece) -> usize {
    p.color.index() * 7 + p.role.index()
}

impl Keys {
    /// The keys drawn from `seed`.
    pub fn new(seed: u64) -> Keys {
        let mut rng = SplitMix(seed);
        let pieces = (0..PIECE_KINDS)
            .map(|_| std::array::from_fn(|_| rng.next128()))
            .collect();
        Keys {
            seed,
            pieces,
            black: rng.next128(),
        }
    }

    /// The seed they were drawn from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    fn piece(&self, p: Piece, sq: Square) -> u128 {
        self.pieces[kind(p)][sq.index()]
    }

    fn side(&self, turn: Color) -> u128 {
        match turn {
            Color::Red => 0,
            Color::Black => self.black,
        }
    }

    /// The key of a position: its pieces and whose move it is (the move counters do not
    /// change a perft).
    #[cfg(test)]
    pub(crate) fn of_position(&self, pos: &crate::position::Position) -> u128 {
        pos.pieces()
            .fold(self.side(pos.turn()), |k, (sq, p)| k ^ self.piece(p, sq))
    }

    /// The key of a generator's board, read point by point.
    pub fn of_board<G: MoveGen>(&self, g: &G, board: &G::Board) -> u128 {
        Square::all()
            .filter_map(|sq| g.piece_at(board, sq).map(|p| self.piece(p, sq)))
            .fold(self.side(g.turn(board)), |k, z| k ^ z)
    }

    /// The key after `mv`, asked before it is made on `board`, whose key is `key`.
    /// `None` when the board has no piece on the move's origin, which a legal move
    /// always has: the caller then reads the key off the board after the move.
    pub fn after<G: MoveGen>(&self, g: &G, board: &G::Board, key: u128, mv: Move) -> Option<u128> {
        let moved = g.piece_at(board, mv.from)?;
        let mut k = key ^ self.black ^ self.piece(moved, mv.from) ^ self.piece(moved, mv.to);
        #[cfg(feature = "planted")]
        if g.planted_hash() == Some(HashPlant::KeyForgetsCaptures) {
            return Some(k);
        }
        if let Some(taken) = g.piece_at(board, mv.to) {
            k ^= self.piece(taken, mv.to);
        }
        Some(k)
    }
}

/// A table size: bytes, read from `256M`, `1G`, `512K` (binary units; `MiB`, `GiB`,
/// `KiB` and a bare number of MiB are read too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashSize(pub u64);

/// Why a table size or table could not be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HashError {
    /// Not a size.
    #[error("hash size {0:?} is not a size such as 256M or 1G")]
    NotASize(String),
    /// Smaller than one bucket.
    #[error("hash size {0} bytes is smaller than one bucket ({BUCKET_BYTES} bytes)")]
    TooSmall(u64),
    /// Larger than this machine could address, or than memory would give.
    #[error("could not allocate a hash table of {0} bytes")]
    Allocation(u64),
    /// More than the memory available: the tables are filled at once, so a size the
    /// kernel only pretends to give would end the run by its out-of-memory killer.
    #[error(
        "{} of {} ({} in all) is more than the {} of memory available ({limit}); ask for less",
        counted_tables(*.tables), HashSize(*.each), HashSize(*.asked), HashSize(*.available)
    )]
    MoreThanMemory {
        /// Bytes per table.
        each: u64,
        /// How many tables.
        tables: u64,
        /// Bytes asked for in all.
        asked: u64,
        /// Bytes available.
        available: u64,
        /// What set that: the cgroup's `memory.max`, or the kernel's `MemAvailable`.
        limit: MemoryLimit,
    },
}

fn counted_tables(n: u64) -> String {
    if n == 1 {
        "a table".to_owned()
    } else {
        format!("{n} tables")
    }
}

/// What bounds the memory a run can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// The control group's limit (`/sys/fs/cgroup/memory.max`) less what it uses.
    Cgroup,
    /// The kernel's estimate of memory available without swapping (`/proc/meminfo`).
    MemAvailable,
}

impl fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MemoryLimit::Cgroup => "cgroup memory.max less memory.current",
            MemoryLimit::MemAvailable => "MemAvailable in /proc/meminfo",
        })
    }
}

/// The memory this process can still have, and what says so: the smaller of the
/// cgroup's room and the kernel's `MemAvailable`. `None` where neither can be read (not
/// Linux): nothing is refused there that the allocator would give.
pub(crate) fn memory_available() -> Option<(u64, MemoryLimit)> {
    let read = |p: &str| std::fs::read_to_string(p).ok();
    let cgroup = read("/sys/fs/cgroup/memory.max").and_then(|max| {
        let max: u64 = max.trim().parse().ok()?; // "max": no limit
        let used: u64 = read("/sys/fs/cgroup/memory.current")
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or(0);
        Some((max.saturating_sub(used), MemoryLimit::Cgroup))
    });
    let meminfo = read("/proc/meminfo").and_then(|m| {
        let line = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some((kib.saturating_mul(1024), MemoryLimit::MemAvailable))
    });
    match (cgroup, meminfo) {
        (Some(c), Some(m)) => Some(if c.0 <= m.0 { c } else { m }),
        (c, m) => c.or(m),
    }
}

/// Refuses `tables` tables of `size` each when together they are more than
/// `available` (from [`memory_available`]).
pub(crate) fn fits_in_memory(
    size: HashSize,
    tables: u64,
    available: Option<(u64, MemoryLimit)>,
) -> Result<(), HashError> {
    let asked = size.0.saturating_mul(tables);
    match available {
        Some((available, limit)) if asked > available => Err(HashError::MoreThanMemory {
            each: size.0,
            tables,
            asked,
            available,
            limit,
        }),
        _ => Ok(()),
    }
}

impl std::str::FromStr for HashSize {
    type Err = HashError;
    fn from_str(text: &str) -> Result<HashSize, HashError> {
        let bad = || HashError::NotASize(text.chars().take(40).collect());
        let t = text.trim();
        let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (number, unit) = t.split_at(digits);
        let n: u64 = number.parse().map_err(|_| bad())?;
        let shift = match unit.trim().to_ascii_uppercase().as_str() {
            "K" | "KB" | "KIB" => 10,
            "" | "M" | "MB" | "MIB" => 20,
            "G" | "GB" | "GIB" => 30,
            _ => return Err(bad()),
        };
        n.checked_mul(1 << shift).map(HashSize).ok_or_else(bad)
    }
}

impl fmt::Display for HashSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b >= 1 << 30 && b % (1 << 30) == 0 {
            write!(f, "{} GiB", b >> 30)
        } else if b >= 1 << 20 && b % (1 << 20) == 0 {
            write!(f, "{} MiB", b >> 20)
        } else {
            write!(f, "{b} bytes")
        }
    }
}

/// One stored count, written without locks by any thread. The key halves are stored
/// XORed with the data, so a slot two threads wrote at once (halves of each) fails the
/// match instead of handing one position's count to another.
#[derive(Default)]
struct Slot {
    lo: AtomicU64,
    hi: AtomicU64,
    /// The count shifted up by [`DEPTH_BITS`], under the depth; 0 is an empty slot.
    data: AtomicU64,
}

const DEPTH_BITS: u32 = 8;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;
/// Counts from 2^56 up are not stored: far past any perft this table will see.
const MAX_STORED: u64 = u64::MAX >> DEPTH_BITS;

/// Two slots: the first kept for the deepest count seen there, the second always
/// replaced, so deep subtrees stay while the recent shallow ones still find each other.
#[derive(Default)]
struct Bucket([Slot; 2]);

/// Bytes per bucket, for sizing.
pub(crate) const BUCKET_BYTES: u64 = std::mem::size_of::<Bucket>() as u64;

/// Leaf counts by (position key, depth left), shared by every thread of a perft.
pub struct Table {
    buckets: Vec<Bucket>,
}

impl Table {
    /// A table of at most `size` bytes, all empty.
    pub fn new(size: HashSize) -> Result<Table, HashError> {
        let n = size.0 / BUCKET_BYTES;
        if n == 0 {
            return Err(HashError::TooSmall(size.0));
        }
        let n = usize::try_from(n).map_err(|_| HashError::Allocation(size.0))?;
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| HashError::Allocation(size.0))?;
        buckets.resize_with(n, Bucket::default);
        Ok(Table { buckets })
    }

    /// Forgets every count, so the next perft (another generator's, say) finds nothing
    /// of the last one's.
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in &b.0 {
                s.data.store(0, Ordering::Relaxed);
                s.lo.store(0, Ordering::Relaxed);
                s.hi.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Buckets in the table.
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// The bucket for `key` at `depth`: the same position at other depths lands
    /// elsewhere, so they do not push each other out.
    fn bucket(&self, key: u128, depth: u32) -> &Bucket {
        let mixed = (key as u64) ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = (u128::from(mixed) * self.buckets.len() as u128) >> 64;
        &self.buckets[i as usize]
    }

    /// The count stored for `key` at `depth`, if any.
    pub fn probe(&self, key: u128, depth: u32) -> Option<u64> {
        // Depth 0 is an empty slot's; no count is stored there.
        if depth == 0 {
            return None;
        }
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        for s in &self.bucket(key, depth).0 {
            let data = s.data.load(Ordering::Relaxed);
            if data & DEPTH_MASK == u64::from(depth)
                && s.lo.load(Ordering::Relaxed) ^ data == lo
                && s.hi.load(Ordering::Relaxed) ^ data == hi
            {
                return Some(data >> DEPTH_BITS);
            }
        }
        None
    }

    /// [`Table::probe`] with the planted bug [`HashPlant::ProbeIgnoresDepth`]: a count
    /// stored for `key` at any depth in the bucket is taken.
    #[cfg(feature = "planted")]
    pub(crate) fn probe_ignoring_depth(&self, key: u128, depth: u32) -> Option<u64> {
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        self.bucket(key, depth).0.iter().find_map(|s| {
            let data = s.data.load(Ordering::Relaxed);
            (data != 0
                && s.lo.load(Ordering::Relaxed) ^ data == lo
                && s.hi.load(Ordering::Relaxed) ^ data == hi)
                .then_some(data >> DEPTH_BITS)
        })
    }

    /// Stores `count` for `key` at `depth` (from 1 to 255).
    pub fn store(&self, key: u128, depth: u32, count: u64) {
        if count > MAX_STORED || depth == 0 || u64::from(depth) > DEPTH_MASK {
            return;
        }
        let data = (count << DEPTH_BITS) | u64::from(depth);
        let bucket = self.bucket(key, depth);
        let kept = bucket.0[0].data.load(Ordering::Relaxed) & DEPTH_MASK;
        let slot = if u64::from(depth) >= kept {
            &bucket.0[0]
        } else {
            &bucket.0[1]
        };
        slot.lo.store(key as u64 ^ data, Ordering::Relaxed);
        slot.hi.store((key >> 64) as u64 ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }
}

/// The bugs a planted generator can carry in the hashed perft it runs
/// ([`MoveGen::planted_hash`]), each a one-spot slip in the key or the table. Test
/// equipment: no generator of the registry has one.
#[cfg(feature = "planted")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashPlant {
    /// A child's count is looked up and stored under its parent's key.
    ChildUnderParentKey,
    /// The key carried over a capture does not take the captured piece out.
    KeyForgetsCaptures,
    /// A probe takes a count stored for the key at any depth.
    ProbeIgnoresDepth,
}

/// What a hashed perft needs: the keys and the table they index.
#[derive(Clone, Copy)]
pub struct Hashing<'a> {
    /// The keys.
    pub keys: &'a Keys,
    /// The table.
    pub table: &'a Table,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::EachGenerator;
    use crate::moves::MoveList;
    use crate::position::Position;

    #[test]
    fn sizes() {
        let table: &[(&str, Option<u64>)] = &[
            ("256M", Some(256 << 20)),
            ("256MiB", Some(256 << 20)),
            ("1G", Some(1 << 30)),
            ("1gib", Some(1 << 30)),
            ("64", Some(64 << 20)),
            ("512K", Some(512 << 10)),
            ("", None),
            ("M", None),
            ("1T", None),
            ("-1M", None),
            ("99999999999999999999G", None),
        ];
        for &(text, want) in table {
            assert_eq!(text.parse::<HashSize>().ok().map(|s| s.0), want, "{text:?}");
        }
        assert!(matches!(
            Table::new(HashSize(1)),
            Err(HashError::TooSmall(1))
        ));
    }

    /// Counts come back for their own key and depth only, and a deeper count is not
    /// pushed out by a shallower one in its bucket.
    #[test]
    fn a_table_returns_what_was_stored_under_that_key_and_depth() {
        let t = Table::new(HashSize(BUCKET_BYTES)).unwrap();
        let (a, b) = (0x1234_u128 << 70 | 5, 0x9876_u128 << 70 | 9);
        assert_eq!(t.probe(a, 3), None);
        t.store(a, 3, 1000);
        assert_eq!(t.probe(a, 3), Some(1000));
        assert_eq!(t.probe(a, 2), None);
        assert_eq!(t.probe(b, 3), None);
        t.store(b, 2, 7);
        assert_eq!(t.probe(a, 3), Some(1000), "the deeper count stays");
        assert_eq!(t.probe(b, 2), Some(7));
        t.clear();
        assert_eq!(t.probe(a, 3), None);
        assert_eq!(t.probe(0, 0), None, "an empty slot matches nothing");
    }

    /// The key carried from move to move equals the key read off the board after the
    /// move, for every generator, along every move of a few plies from positions with
    /// captures and both sides to move; and another seed gives other keys.
    #[test]
    fn keys_follow_the_moves_on_every_generator() {
        struct Walk<'a>(&'a Keys, &'a [Position]);
        impl EachGenerator for Walk<'_> {
            fn visit<G: MoveGen + 'static>(&mut self, g: &G) {
                fn go<G: MoveGen>(g: &G, keys: &Keys, b: &mut G::Board, key: u128, d: u32) {
                    assert_eq!(key, keys.of_board(g, b), "{}", g.name());
                    if d == 0 {
                        return;
                    }
                    let mut list = MoveList::new();
                    g.legal(b, &mut list);
                    for &mv in list.iter() {
                        let next = keys.after(g, b, key, mv).expect("a piece moves");
                        let undo = g.make(b, mv);
                        go(g, keys, b, next, d - 1);
                        g.unmake(b, mv, undo);
                    }
                }
                for pos in self.1 {
                    let mut b = g.load(pos);
                    assert_eq!(self.0.of_board(g, &b), self.0.of_position(pos));
                    go(g, self.0, &mut b, self.0.of_position(pos), 2);
                }
            }
        }
        let positions: Vec<Position> = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b",
        ]
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
        let keys = Keys::new(7);
        crate::generators::for_each(&mut Walk(&keys, &positions));
        let other = Keys::new(8);
        assert_ne!(
            keys.of_position(&positions[0]),
            other.of_position(&positions[0])
        );
        assert_eq!(keys.seed(), 7);
    }

    /// Hashed perft as a subject of its own: on every generator, the count through a
    /// table equals the plain count (every move made, the last ply counted) on the
    /// published suite's small rows, under several key seeds and table sizes from one
    /// bucket (two entries, pushed out on every store) to megabytes, the table kept from
    /// one row and depth to the next as an engine keeps it.
    mod against_plain {
        use super::*;
        use crate::generators::for_each;
        use crate::generators::perft::{perft_hashed_checked, perft_plain};

        /// Rows of the published suite up to this many leaves: every depth from 2 up.
        const BUDGET: u64 = 20_000;

        /// (key seed, table bytes): from one bucket to megabytes, each with its own seed.
        const TABLES: [(u64, u64); 4] = [
            (1, BUCKET_BYTES),
            (2, 4 * BUCKET_BYTES),
            (3, 64 << 10),
            (4, 4 << 20),
        ];

        struct Each {
            rows: Vec<(Position, u32)>,
            checked: usize,
        }

        impl EachGenerator for Each {
            fn visit<G: MoveGen + 'static>(&mut self, g: &G) {
                for (seed, bytes) in TABLES {
                    let keys = Keys::new(seed);
                    let table = Table::new(HashSize(bytes)).unwrap();
                    let h = Hashing {
                        keys: &keys,
                        table: &table,
                    };
                    for (pos, depth) in &self.rows {
                        let mut b = g.load(pos);
                        let plain = perft_plain(g, &mut b, *depth);
                        let key = keys.of_board(g, &b);
                        let (hashed, slip) = perft_hashed_checked(g, &mut b, key, *depth, h);
                        let what = format!(
                            "{} {} D{depth} seed {seed}, {bytes} bytes",
                            g.name(),
                            pos.fen()
                        );
                        assert_eq!(hashed, plain, "{what}");
                        assert_eq!(slip, None, "{what}");
                        self.checked += 1;
                    }
                }
            }
        }

        #[test]
        fn hashed_perft_counts_what_plain_perft_counts_at_every_table_size_and_seed() {
            let suite = crate::epd::parse_suite(crate::epd::REFERENCE_SUITE).unwrap();
            let rows: Vec<(Position, u32)> = suite
                .iter()
                .flat_map(|e| {
                    e.counts
                        .iter()
                        .filter(|&&(d, n)| d >= 2 && n <= BUDGET)
                        .map(|&(d, _)| (e.position.clone(), d))
                })
                .collect();
            let mut each = Each { rows, checked: 0 };
            for_each(&mut each);
            // Nothing checked would pass too: at least a few rows per generator and table.
            assert!(
                each.checked >= 3 * TABLES.len() * 10,
                "only {} counts",
                each.checked
            );
        }
    }
}
