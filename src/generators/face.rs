//! The object-safe face of a generator, so the CLI, tests and the oracle can hold a
//! list of different generators. Every [`MoveGen`] is a [`Generator`].
//!
//! Everything a generator can be asked is collected here as plain values ([`Probe`],
//! [`Listing`]), so the oracle compares answers without knowing any board type. The
//! answers keep what a set would hide: move lists are sorted but keep repeats, and the
//! bulk count ([`MoveGen::count_legal`]) is asked separately from the list.

use crate::generators::perft::{self, ProgressFn};
use crate::generators::perft_hash::Hashing;
use crate::generators::timing::span;
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::Piece;
use crate::position::{Position, PositionError, Setup};
use counting::{CountPath, CountTables, Counting, PathCount};

/// What a generator says about the board in front of it, without playing a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The board read back.
    pub setup: Setup,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Pseudo-legal moves, sorted, repeats kept.
    pub pseudo_legal: Vec<Move>,
    /// Legal moves, sorted, repeats kept.
    pub legal: Vec<Move>,
    /// What [`MoveGen::count_legal`] says: perft's last ply.
    pub count: u64,
}

/// The move lists and check of a freshly loaded board, without the bulk count: what a
/// symmetry check maps from one board to another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Pseudo-legal moves, sorted, repeats kept.
    pub pseudo_legal: Vec<Move>,
    /// Legal moves, sorted, repeats kept.
    pub legal: Vec<Move>,
}

/// What one legal move does on a generator's own board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalMove {
    /// The move.
    pub mv: Move,
    /// What it takes, if anything.
    pub captured: Option<Piece>,
    /// The board after making it, read back out.
    pub after: Setup,
    /// Whether the side to move after it is in check: the move gives check.
    pub gives_check: bool,
    /// [`MoveGen::count_legal`] on the board after it: perft(2)'s contribution.
    pub count_after: u64,
}

/// A legal move and the board after it, without the questions asked of that board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Child {
    /// The move.
    pub mv: Move,
    /// What it takes, if anything.
    pub captured: Option<Piece>,
    /// The board after making it, read back out.
    pub after: Setup,
}

/// Everything a generator says about one position, for comparison with the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The position loaded into the generator's board and read straight back.
    pub round_trip: Setup,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Pseudo-legal moves, sorted, repeats kept.
    pub pseudo_legal: Vec<Move>,
    /// Legal moves, sorted (repeats kept), with what each does. All of them are made and
    /// unmade on one board, so a move's answers also show what earlier unmakes left behind.
    pub legal: Vec<LegalMove>,
    /// [`MoveGen::count_legal`] on a freshly loaded board.
    pub count: u64,
    /// The board of `legal` asked everything again after every legal move was made and
    /// unmade on it: should equal the fresh answers.
    pub again: Listing,
}

impl Probe {
    /// Just the legal moves, sorted, repeats kept.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.legal.iter().map(|l| l.mv).collect()
    }

    /// The fresh board's answers in the shape of a [`Listing`], to compare with a board
    /// that got to the same position another way.
    pub fn listing(&self) -> Listing {
        Listing {
            setup: self.round_trip.clone(),
            in_check: self.in_check,
            pseudo_legal: self.pseudo_legal.clone(),
            legal: self.legal_moves(),
            count: self.count,
        }
    }

    /// Whether `other` says the same as the fresh board: read-back, check, both lists and
    /// the count.
    pub(crate) fn same_as(&self, other: &Listing) -> bool {
        self.round_trip == other.setup
            && self.in_check == other.in_check
            && self.count == other.count
            && self.pseudo_legal == other.pseudo_legal
            && self.legal.len() == other.legal.len()
            && self.legal.iter().zip(&other.legal).all(|(l, &m)| l.mv == m)
    }
}

/// One board of one generator, walked by making moves on it, never reloaded: what an
/// engine's search does to its board. A piece list or cache that make or unmake keeps
/// wrong shows here as answers that differ from a freshly loaded board's.
pub trait Walker {
    /// Makes `mv` (a legal move of the current board) and returns the board read back.
    fn play(&mut self, mv: Move) -> Setup;
    /// Unmakes the last move played; `false` when there is none.
    fn take_back(&mut self) -> bool;
    /// Everything the board says where it stands now.
    fn listing(&mut self) -> Listing;
    /// The legal moves where it stands now, sorted, repeats kept: all a playout asks,
    /// without the rest of a listing.
    fn legal(&mut self) -> Vec<Move>;
}

/// A generator seen through a vtable. Every [`MoveGen`] is one; a generator of your own
/// implements [`MoveGen`], since the supertrait (the crate's counting by each path and
/// table) cannot be named outside the crate.
pub trait Generator: Counting {
    /// Its short name.
    fn name(&self) -> &'static str;
    /// Single-threaded perft.
    fn perft(&self, pos: &Position, depth: u32) -> u64;
    /// Perft on the current rayon pool.
    fn perft_parallel(&self, pos: &Position, depth: u32, progress: Option<ProgressFn<'_>>) -> u64;
    /// Per-root-move counts, on the current rayon pool when `parallel`.
    fn divide(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
    ) -> Vec<(Move, u64)>;
    /// Everything the generator says about `pos`.
    fn probe(&self, pos: &Position) -> Probe;
    /// The freshly loaded board's answers about `pos`, without playing any move.
    fn listing(&self, pos: &Position) -> Listing;
    /// The freshly loaded board's move lists and check.
    fn generate(&self, pos: &Position) -> Generated;
    /// The legal moves of `pos` (sorted, repeats kept), each with the board after it.
    fn children(&self, pos: &Position) -> Vec<Child>;
    /// A board loaded from `pos`, to walk.
    fn walker<'a>(&'a self, pos: &Position) -> Box<dyn Walker + 'a>;
    /// The position after `mv`, by this generator: the one way every caller plays a move
    /// (load, check it is legal, make, read back, validate).
    fn play(&self, pos: &Position, mv: Move) -> Result<Position, PlayError>;
}

/// Why a generator could not play a move on a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not among the generator's legal moves there.
    #[error("{mv} is not a legal move for {generator} on {fen}")]
    NotLegal {
        /// The generator asked.
        generator: &'static str,
        /// The move.
        mv: Move,
        /// The position, as FEN.
        fen: String,
    },
    /// Making the move left a board that is not a valid position.
    #[error("{generator} makes an invalid position with {mv}: {error}")]
    Invalid {
        /// The generator asked.
        generator: &'static str,
        /// The move.
        mv: Move,
        /// What is wrong with the board after it.
        error: PositionError,
    },
}

/// Sorted moves of a list, repeats kept.
fn sorted(list: &MoveList) -> Vec<Move> {
    let mut v = list.to_vec();
    v.sort_unstable();
    v
}

fn list_board<G: MoveGen>(g: &G, board: &mut G::Board) -> Listing {
    let mut pseudo = MoveList::new();
    g.pseudo_legal(board, &mut pseudo);
    let mut legal = MoveList::new();
    g.legal(board, &mut legal);
    Listing {
        setup: g.to_setup(board),
        in_check: g.in_check(board),
        pseudo_legal: sorted(&pseudo),
        legal: sorted(&legal),
        count: g.count_legal(board),
    }
}

struct BoardWalker<'a, G: MoveGen> {
    g: &'a G,
    board: G::Board,
    played: Vec<(Move, G::Undo)>,
}

impl<G: MoveGen> Walker for BoardWalker<'_, G> {
    fn play(&mut self, mv: Move) -> Setup {
        span(self.g.name(), "walk", || {
            let undo = self.g.make(&mut self.board, mv);
            self.played.push((mv, undo));
            self.g.to_setup(&self.board)
        })
    }

    fn take_back(&mut self) -> bool {
        match self.played.pop() {
            Some((mv, undo)) => {
                span(self.g.name(), "walk", || {
                    self.g.unmake(&mut self.board, mv, undo)
                });
                true
            }
            None => false,
        }
    }

    fn listing(&mut self) -> Listing {
        span(self.g.name(), "walk", || {
            list_board(self.g, &mut self.board)
        })
    }

    fn legal(&mut self) -> Vec<Move> {
        let mut legal = MoveList::new();
        self.g.legal(&mut self.board, &mut legal);
        sorted(&legal)
    }
}

impl<G: MoveGen> Generator for G {
    fn name(&self) -> &'static str {
        MoveGen::name(self)
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        perft::perft(self, &mut self.load(pos), depth)
    }

    fn perft_parallel(&self, pos: &Position, depth: u32, progress: Option<ProgressFn<'_>>) -> u64 {
        perft::perft_parallel(self, &self.load(pos), depth, progress)
    }

    fn divide(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
    ) -> Vec<(Move, u64)> {
        let mut board = self.load(pos);
        match (parallel, progress) {
            (true, _) => perft::divide_parallel(self, &board, depth, progress),
            (false, Some(progress)) => perft::divide_reporting(self, &board, depth, progress),
            (false, None) => perft::divide(self, &mut board, depth),
        }
    }

    fn probe(&self, pos: &Position) -> Probe {
        // Three boards, so that each answer comes from a board nothing was played on
        // before it was asked (generating legal moves makes and unmakes on the board):
        // a wrong count or list is then told apart from state left behind, which
        // `again` shows.
        let who = MoveGen::name(self);
        let (round_trip, in_check, pseudo, list) = span(who, "lists", || {
            let mut first = self.load(pos);
            // Read before `legal`, whose makes and unmakes would blame an unmake bug
            // on the load or the check detector.
            let round_trip = self.to_setup(&first);
            let in_check = self.in_check(&first);
            let mut pseudo = MoveList::new();
            self.pseudo_legal(&first, &mut pseudo);
            let mut list = MoveList::new();
            self.legal(&mut first, &mut list);
            (round_trip, in_check, sorted(&pseudo), sorted(&list))
        });
        let count = span(who, "count", || self.count_legal(&mut self.load(pos)));
        let mut board = self.load(pos);
        let legal = span(who, "per-move", || {
            list.into_iter()
                .map(|mv| {
                    let captured = self.captured(&board, mv);
                    let undo = self.make(&mut board, mv);
                    let row = LegalMove {
                        mv,
                        captured,
                        after: self.to_setup(&board),
                        gives_check: self.in_check(&board),
                        count_after: self.count_legal(&mut board),
                    };
                    self.unmake(&mut board, mv, undo);
                    row
                })
                .collect()
        });
        Probe {
            round_trip,
            in_check,
            pseudo_legal: pseudo,
            legal,
            count,
            again: span(who, "reused board", || list_board(self, &mut board)),
        }
    }

    fn listing(&self, pos: &Position) -> Listing {
        span(MoveGen::name(self), "walk", || {
            list_board(self, &mut self.load(pos))
        })
    }

    fn generate(&self, pos: &Position) -> Generated {
        span(MoveGen::name(self), "symmetry", || {
            let mut board = self.load(pos);
            let mut pseudo = MoveList::new();
            self.pseudo_legal(&board, &mut pseudo);
            let mut legal = MoveList::new();
            self.legal(&mut board, &mut legal);
            Generated {
                in_check: self.in_check(&board),
                pseudo_legal: sorted(&pseudo),
                legal: sorted(&legal),
            }
        })
    }

    fn children(&self, pos: &Position) -> Vec<Child> {
        let mut board = self.load(pos);
        let mut list = MoveList::new();
        self.legal(&mut board, &mut list);
        sorted(&list)
            .into_iter()
            .map(|mv| {
                let captured = self.captured(&board, mv);
                let undo = self.make(&mut board, mv);
                let after = self.to_setup(&board);
                self.unmake(&mut board, mv, undo);
                Child {
                    mv,
                    captured,
                    after,
                }
            })
            .collect()
    }

    fn walker<'a>(&'a self, pos: &Position) -> Box<dyn Walker + 'a> {
        Box::new(BoardWalker {
            g: self,
            board: self.load(pos),
            played: Vec::new(),
        })
    }

    fn play(&self, pos: &Position, mv: Move) -> Result<Position, PlayError> {
        let mut board = self.load(pos);
        let mut legal = MoveList::new();
        self.legal(&mut board, &mut legal);
        if !legal.contains(&mv) {
            return Err(PlayError::NotLegal {
                generator: MoveGen::name(self),
                mv,
                fen: pos.fen(),
            });
        }
        self.make(&mut board, mv);
        Position::new(self.to_setup(&board)).map_err(|error| PlayError::Invalid {
            generator: MoveGen::name(self),
            mv,
            error,
        })
    }
}

/// What the crate asks of a generator besides its answers: counts by each of the ways
/// it can count (its plain perft, its own two-ply shortcut, through tables), and counts
/// a signal can end. Every [`Generator`] has it, as its supertrait; the module is the
/// crate's own, so the trait is no part of the interface and no one outside implements
/// a generator but through [`MoveGen`].
pub(crate) mod counting {
    use crate::generators::perft::{KeyMismatch, ProgressFn};
    use crate::generators::perft_hash::{HashSize, Hashing, Keys, Table, BUCKET_BYTES};
    #[cfg(doc)]
    use crate::generators::MoveGen;
    use crate::moves::Move;
    use crate::position::Position;

    /// Counts by the ways a generator can count; see the module.
    pub trait Counting: Sync {
        /// [`divide`](super::Generator::divide), through a transposition table when
        /// `hashing` has one (`perft::divide_until`), given up once `stop` is raised
        /// (`None` then): for counts a signal must be able to end at any depth.
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
        pub(super) keys: &'static Keys,
        pub(super) tiny: Table,
        pub(super) roomy: Table,
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

/// A generator whose counts end when `stop` is raised, for work that hands generators
/// to code that does not know of the flag (the engine check's consensus, its descent
/// and minimizer). Once the flag is up its counts are cut short and mean nothing: the
/// caller must look at the flag before believing any of them. Everything else is the
/// inner generator's.
pub(crate) struct Stoppable<'a> {
    inner: &'a dyn Generator,
    stop: &'a std::sync::atomic::AtomicBool,
}

impl<'a> Stoppable<'a> {
    /// `inner`, its counts ended by `stop`.
    pub(crate) fn new(inner: &'a dyn Generator, stop: &'a std::sync::atomic::AtomicBool) -> Self {
        Stoppable { inner, stop }
    }

    fn total(&self, pos: &Position, depth: u32, parallel: bool, p: Option<ProgressFn<'_>>) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.inner
            .divide_until(pos, depth, parallel, p, None, self.stop)
            .map_or(0, |d| d.iter().map(|&(_, n)| n).sum())
    }
}

impl Generator for Stoppable<'_> {
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        self.total(pos, depth, false, None)
    }
    fn perft_parallel(&self, pos: &Position, depth: u32, progress: Option<ProgressFn<'_>>) -> u64 {
        self.total(pos, depth, true, progress)
    }
    fn divide(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
    ) -> Vec<(Move, u64)> {
        self.inner
            .divide_until(pos, depth, parallel, progress, None, self.stop)
            .unwrap_or_default()
    }
    fn probe(&self, pos: &Position) -> Probe {
        self.inner.probe(pos)
    }
    fn listing(&self, pos: &Position) -> Listing {
        self.inner.listing(pos)
    }
    fn generate(&self, pos: &Position) -> Generated {
        self.inner.generate(pos)
    }
    fn children(&self, pos: &Position) -> Vec<Child> {
        self.inner.children(pos)
    }
    fn walker<'b>(&'b self, pos: &Position) -> Box<dyn Walker + 'b> {
        self.inner.walker(pos)
    }
    fn play(&self, pos: &Position, mv: Move) -> Result<Position, PlayError> {
        self.inner.play(pos, mv)
    }
}

impl Counting for Stoppable<'_> {
    fn divide_until(
        &self,
        pos: &Position,
        depth: u32,
        parallel: bool,
        progress: Option<ProgressFn<'_>>,
        hashing: Option<Hashing<'_>>,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<Vec<(Move, u64)>> {
        let answer = self
            .inner
            .divide_until(pos, depth, parallel, progress, hashing, stop)?;
        (!self.stop.load(std::sync::atomic::Ordering::Relaxed)).then_some(answer)
    }
    fn count_path(
        &self,
        pos: &Position,
        depth: u32,
        path: CountPath,
        tables: &CountTables,
    ) -> PathCount {
        self.inner.count_path(pos, depth, path, tables)
    }
    fn two_ply_shortcut(&self) -> bool {
        self.inner.two_ply_shortcut()
    }
}
