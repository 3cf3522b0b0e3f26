//! A Rust crate seen the way it publishes itself: a board that is set from a FEN, lists
//! its moves, makes one and (where it can) takes it back. [`Library`] is all an adapter
//! implements, over `&mut self`, so an engine with internal state and no `Clone` fits as
//! it is; the harness counts perft from the lists, follows differences down, minimizes
//! and reports, and [`check_library`] runs the whole engine check on such a crate in one
//! call, under the same rules, comparison and known bugs as `xqdiff engine`.

use super::crosscheck::{self, targets, CrossCheckError, Options, Report, Target};
use super::external::moves::moved;
use super::rules::{Compare, ModeError, MovesMode, Rules, SetAside};
use super::{Divide, DivideReply, Subject, SubjectError};
use crate::diff::finding::known::Known;
use crate::diff::finding::provenance::Provenance;
use crate::moves::Move;
use crate::position::Position;
use std::time::Duration;

/// A move generator as a crate offers it: one board, changed in place. Moves are
/// xqdiff's [`Move`] (parse them from text with `"h2e2".parse()`, ranks 0 to 9 from
/// Red's side).
///
/// Each question sets the board from a FEN once, then makes and takes back moves on
/// it: [`unmake`](Library::unmake) where the crate has one, else the board is set from
/// the FEN again and the moves before replayed. A crate whose boards are values (a
/// `play` that returns a new board) keeps a stack of them: make pushes, unmake pops.
pub trait Library {
    /// The name reports use (the crate and its version, say); by default the adapter
    /// type's name.
    fn name(&self) -> String {
        let full = std::any::type_name::<Self>();
        let bare = full.split('<').next().unwrap_or(full);
        bare.rsplit("::").next().unwrap_or(bare).to_owned()
    }
    /// Sets the board to the position of a FEN as xqdiff writes it
    /// (`docs/moves-protocol.md`'s notation).
    fn set_position(&mut self, fen: &str) -> Result<(), String>;
    /// The moves of the board's position, in any order: the legal ones, or under
    /// [`Rules::KingCapture`] every move the crate allows.
    fn legal_moves(&mut self) -> Vec<Move>;
    /// Makes `mv`, which the board's list held, on the board.
    fn make(&mut self, mv: Move) -> Result<(), String>;
    /// Takes back the last move made and says `true`; `false` (the default) when the
    /// crate cannot, and the board is then set again from the FEN instead.
    fn unmake(&mut self) -> bool {
        false
    }
    /// The pseudo-legal moves of the board's position, for [`Compare::PseudoLegal`];
    /// `None` (the default) when the crate does not offer them.
    fn pseudo_legal_moves(&mut self) -> Option<Vec<Move>> {
        None
    }
    /// Right after a [`make`](Library::make), whether the king of the side that moved
    /// is attacked (by a piece, or by the other king on an open file), for
    /// [`Compare::PseudoLegal`]; `None` (the default) when the crate does not say.
    fn mover_in_check(&mut self) -> Option<bool> {
        None
    }
}

/// A crate borrowed, so the caller keeps it (and its state) after the check.
impl<L: Library + ?Sized> Library for &mut L {
    fn name(&self) -> String {
        (**self).name()
    }
    fn set_position(&mut self, fen: &str) -> Result<(), String> {
        (**self).set_position(fen)
    }
    fn legal_moves(&mut self) -> Vec<Move> {
        (**self).legal_moves()
    }
    fn make(&mut self, mv: Move) -> Result<(), String> {
        (**self).make(mv)
    }
    fn unmake(&mut self) -> bool {
        (**self).unmake()
    }
    fn pseudo_legal_moves(&mut self) -> Option<Vec<Move>> {
        (**self).pseudo_legal_moves()
    }
    fn mover_in_check(&mut self) -> Option<bool> {
        (**self).mover_in_check()
    }
}

/// A [`Library`] as a [`Subject`]: the path is made by the library's own `make`, and
/// perft is counted from its lists, read as the mode says.
pub struct LibrarySubject<L: Library> {
    library: L,
    mode: MovesMode,
    /// The FEN the board was last set from, and the moves made on it since, so a board
    /// that cannot unmake is set again.
    root: String,
    path: Vec<Move>,
    /// xqdiff's copy of each position on the path, the root first: what a move into
    /// check is judged on.
    positions: Vec<Position>,
    set_aside: SetAside,
    lists: u64,
}

impl<L: Library> LibrarySubject<L> {
    /// Wraps `library`, whose lists are the legal moves.
    pub fn new(library: L) -> LibrarySubject<L> {
        LibrarySubject::with_mode(library, MovesMode::Legal)
    }

    /// Wraps `library`, whose lists are read as `mode` says.
    pub fn with_mode(library: L, mode: MovesMode) -> LibrarySubject<L> {
        LibrarySubject {
            library,
            mode,
            root: String::new(),
            path: Vec::new(),
            positions: Vec::new(),
            set_aside: SetAside::default(),
            lists: 0,
        }
    }

    /// How many lists the library has given: the positions it was asked about.
    pub fn lists(&self) -> u64 {
        self.lists
    }

    /// The library back.
    pub fn into_inner(self) -> L {
        self.library
    }

    fn reset(&mut self, root: &Position) -> Result<(), SubjectError> {
        let fen = root.fen();
        self.library
            .set_position(&fen)
            .map_err(|reason| SubjectError::Refused {
                what: format!("position {fen}"),
                reason,
            })?;
        self.root = fen;
        self.path.clear();
        self.positions.clear();
        self.positions.push(root.clone());
        Ok(())
    }

    fn current(&self) -> Option<&Position> {
        self.positions.last()
    }

    /// Makes `mv`; `false` when it leads to no valid position, which then counts
    /// nothing (as in the moves protocol).
    fn make(&mut self, mv: Move) -> Result<bool, SubjectError> {
        let Some(next) = self.current().and_then(|p| moved(p, mv)) else {
            return Ok(false);
        };
        self.library
            .make(mv)
            .map_err(|reason| SubjectError::Refused {
                what: format!("move {mv} on {}", self.positions[self.path.len()].fen()),
                reason,
            })?;
        self.path.push(mv);
        self.positions.push(next);
        Ok(true)
    }

    fn unmake(&mut self) -> Result<(), SubjectError> {
        self.path.pop();
        self.positions.pop();
        self.restore()
    }

    /// Puts the library's board back to the end of the path after one move more:
    /// by its unmake, else set from the FEN with the path replayed.
    fn restore(&mut self) -> Result<(), SubjectError> {
        if self.library.unmake() {
            return Ok(());
        }
        let refused = |what: String| move |reason| SubjectError::Refused { what, reason };
        self.library
            .set_position(&self.root)
            .map_err(refused(format!("position {}", self.root)))?;
        for &mv in &self.path {
            self.library
                .make(mv)
                .map_err(refused(format!("move {mv} replayed from {}", self.root)))?;
        }
        Ok(())
    }

    /// Whether the library's check test finds the mover's king attacked after its
    /// pseudo-legal `mv`, made by its own make whatever xqdiff's rules say of it.
    fn exposes_mover(&mut self, mv: Move) -> Result<bool, SubjectError> {
        self.library
            .make(mv)
            .map_err(|reason| SubjectError::Refused {
                what: format!("pseudo-legal move {mv} after {:?}", self.path),
                reason,
            })?;
        let exposed = self.library.mover_in_check();
        self.restore()?;
        exposed.ok_or_else(unsupported)
    }

    /// The board's moves as the mode reads them.
    fn list(&mut self) -> Result<Vec<Move>, SubjectError> {
        self.lists += 1;
        match self.mode {
            MovesMode::Legal => Ok(self.library.legal_moves()),
            MovesMode::KingCapture => {
                let mut listed = self.library.legal_moves();
                if let Some(pos) = self.positions.last() {
                    self.set_aside.sift(pos, &mut listed, |m| Some(*m));
                }
                Ok(listed)
            }
            MovesMode::PseudoLegal => {
                let pseudo = self.library.pseudo_legal_moves().ok_or_else(unsupported)?;
                let mut safe = Vec::with_capacity(pseudo.len());
                for mv in pseudo {
                    if !self.exposes_mover(mv)? {
                        safe.push(mv);
                    }
                }
                Ok(safe)
            }
        }
    }

    fn count(&mut self, depth: u32) -> Result<u64, SubjectError> {
        let moves = self.list()?;
        if depth <= 1 {
            return Ok(moves.len() as u64);
        }
        let mut total = 0u64;
        for mv in moves {
            if self.make(mv)? {
                total = total.saturating_add(self.count(depth - 1)?);
                self.unmake()?;
            }
        }
        Ok(total)
    }
}

fn unsupported() -> SubjectError {
    SubjectError::Unsupported {
        what: "the library offers no pseudo-legal moves or no check test after a move \
               (Library::pseudo_legal_moves, Library::mover_in_check)"
            .to_owned(),
        instead: "compare its legal moves (Compare::Legal)".to_owned(),
    }
}

// `Send` because a subject may be moved to a worker.
impl<L: Library + Send> Subject for LibrarySubject<L> {
    fn name(&self) -> String {
        self.library.name()
    }

    // The path is made on the library's own board, and counted from there.
    fn counting(&self) -> crate::diagnose::Counting {
        crate::diagnose::Counting::PlaysMoves
    }

    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        self.reset(root)?;
        for &mv in path {
            if !self.make(mv)? {
                return Err(SubjectError::Refused {
                    what: format!("move {mv}"),
                    reason: "it leads to no valid position".to_owned(),
                });
            }
        }
        let mut per_move = Vec::new();
        for mv in self.list()? {
            let count = if depth <= 1 {
                1
            } else if self.make(mv)? {
                let n = self.count(depth - 1)?;
                self.unmake()?;
                n
            } else {
                0
            };
            per_move.push((mv, count));
        }
        let total = per_move.iter().map(|(_, n)| n).sum();
        Ok(Divide {
            per_move: Some(per_move),
            total,
        })
    }

    fn set_aside(&self) -> Option<SetAside> {
        (self.mode == MovesMode::KingCapture).then(|| self.set_aside.clone())
    }
}

/// What [`check_library`] asks, and how: the settings `xqdiff engine` takes for an
/// adapter. Build it with `..LibraryCheck::default()`.
#[derive(Clone, Debug)]
pub struct LibraryCheck {
    /// The deepest perft asked.
    pub depth: u32,
    /// Seeded random positions besides the start, the reference suite and the built-in
    /// corpus.
    pub positions: usize,
    /// Check for this long instead of `positions` random positions (`--seconds`):
    /// after the start, suite and corpus positions, fresh ones made as the run goes,
    /// rare features sought on purpose.
    pub time: Option<Duration>,
    /// Check these positions alone, at `depth` (`--fen`): no start, suite, corpus or
    /// random positions. How a finding's witness is checked again.
    pub fens: Vec<Position>,
    /// Their seed.
    pub seed: u64,
    /// Stop after this many distinct bugs that are not known (0: check every
    /// position).
    pub max_findings: usize,
    /// The rules the library's lists follow (`--rules`).
    pub rules: Rules,
    /// What its lists are compared as (`--compare`).
    pub compare: Compare,
    /// Known bugs (`--known`, read with [`Known::parse`]): reported as known, they
    /// neither fail the check nor count toward `max_findings`.
    pub known: Known,
}

impl Default for LibraryCheck {
    fn default() -> LibraryCheck {
        LibraryCheck {
            depth: 3,
            positions: 100,
            time: None,
            fens: Vec::new(),
            seed: 1,
            max_findings: 0,
            rules: Rules::Legal,
            compare: Compare::Legal,
            known: Known::default(),
        }
    }
}

/// How a finding of [`check_library`] is seen again: the same call, in the user's own
/// program, on the witness alone. No shell command can name a library that only the
/// user's program links, so this is the line to paste there, with the library's value
/// in place of `your_library`.
fn library_call(pos: &Position, depth: u32) -> Provenance {
    Provenance::described(format!(
        "xqdiff::subject::library::check_library(your_library, &LibraryCheck {{ fens: \
         vec![Position::from_fen({:?})?], depth: {depth}, ..LibraryCheck::default() }})",
        pos.fen()
    ))
    .answered_on(pos, depth)
}

/// Why [`check_library`] could not run.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// The rules and the comparison asked for do not go together.
    #[error(transparent)]
    Mode(#[from] ModeError),
    /// The check itself could not start.
    #[error(transparent)]
    Check(#[from] CrossCheckError),
}

impl LibraryCheck {
    /// How the library's lists are read under these rules and this comparison.
    pub fn mode(&self) -> Result<MovesMode, LibraryError> {
        Ok(MovesMode::of(self.compare, self.rules)?)
    }

    /// The positions asked before any fresh one: the `fens` alone when there are
    /// some, else the start position, the reference suite, the built-in corpus and
    /// `positions` seeded random positions (none when a `time` is given).
    pub fn targets(&self) -> Vec<Target> {
        if !self.fens.is_empty() {
            return (self.fens.iter().enumerate())
                .map(|(i, position)| Target {
                    label: format!("fen {}", i + 1),
                    position: position.clone(),
                    depth: self.depth,
                })
                .collect();
        }
        let gens = crate::generators::registry();
        let suite = crate::epd::parse_suite(crate::epd::REFERENCE_SUITE).unwrap_or_default();
        let corpus = crate::diff::corpus::Source::default_location()
            .load()
            .map(|loaded| loaded.labelled())
            .unwrap_or_default();
        let sources = targets::Sources {
            suite: &suite,
            corpus,
            depth: self.depth,
            max_nodes: None,
            random: if self.time.is_some() {
                0
            } else {
                self.positions
            },
            seed: self.seed,
        };
        targets::all(&sources, &gens)
    }

    /// The options [`check_library`] runs with: the known bugs, the bound on findings,
    /// and how a finding is found again when no command can say it. A binding adds its
    /// own to them (`Options { reproduce: Some(&r), ..check.options() }`).
    pub fn options(&self) -> Options<'static> {
        Options {
            max_findings: self.max_findings,
            known: self.known.clone(),
            found_by: format!(
                "xqdiff::subject::library::check_library (seed {})",
                self.seed
            ),
            reproduce: Some(&library_call),
            ..Options::default()
        }
    }

    /// The check [`check_library`] makes, on any subject: a [`LibrarySubject`], or one
    /// wrapping it (a binding to another language that turns its exceptions into
    /// refusals), with `options` as given. The [`targets`](LibraryCheck::targets), then
    /// fresh positions for `time`, compared with every built-in generator; nothing is
    /// written to disk unless `options` say where.
    pub fn run(
        &self,
        subject: &mut dyn Subject,
        options: &Options<'_>,
    ) -> Result<crosscheck::Run, LibraryError> {
        let gens = crate::generators::registry();
        let timed = self.time.map(|time| crosscheck::Timed {
            time,
            seed: self.seed,
            depth: self.depth,
        });
        Ok(crosscheck::run(
            subject,
            &gens,
            &self.targets(),
            timed.as_ref(),
            options,
        )?)
    }
}

/// The whole engine check on `library`, as `xqdiff engine` runs it on an engine: the
/// start position, the reference suite, the built-in corpus and seeded random
/// positions (or fresh ones for [`LibraryCheck::time`]), each compared with the
/// built-in generators' consensus; differences are followed down and minimized;
/// nothing is written to disk. Print the findings with their `Display` (what `xqdiff
/// engine` prints), each position's line with
/// [`Checked::line`](crosscheck::Checked::line), and the moves set aside under
/// king-capture rules from [`Report::set_aside`]. Pass `&mut library` to keep it.
pub fn check_library<L: Library + Send>(
    library: L,
    check: &LibraryCheck,
) -> Result<Report, LibraryError> {
    let mut subject = LibrarySubject::with_mode(library, check.mode()?);
    Ok(check.run(&mut subject, &check.options())?.report)
}
