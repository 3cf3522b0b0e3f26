//! The compiled half of the `xqdiff` Python package (`xqdiff._xqdiff`): a Python
//! library's callables seen as an xqdiff [`Library`] and checked in process by the
//! engine check `xqdiff engine` runs ([`LibraryCheck::run`]); the report comes back as
//! plain Python values, which `xqdiff/__init__.py` wraps.
//!
//! The check runs on a thread of its own with the interpreter released, and each call
//! into the library attaches for that call alone. The caller's thread waits, and looks
//! for a signal (Ctrl-C) every tenth of a second: a signal stops the check, and its
//! exception is raised once the check has stopped.
//!
//! An exception from the library is the library refusing the question, as an adapter's
//! `error` line over the moves protocol: while a witness is shrunk it means "not this
//! position"; on a position checked it ends the check with the failure. A list that is
//! not a list of moves is an unreadable answer, the same way. An exception that is not
//! an `Exception` (KeyboardInterrupt, SystemExit) stops the check and is raised again.

use pyo3::exceptions::{PyException, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use xqdiff::diff::finding::Finding;
use xqdiff::diff::finding::{cause_lines, Known, Provenance};
use xqdiff::position::Setup;
use xqdiff::subject::crosscheck::{Comparison, Options, Run, Verdict};
use xqdiff::subject::external::placed;
use xqdiff::subject::library::{Library, LibraryCheck, LibrarySubject};
use xqdiff::subject::rules::{Compare, MovesMode, Rules, SetAside};
use xqdiff::subject::{DivideReply, Subject, SubjectError};
use xqdiff::{Move, Position};

/// How often the waiting thread looks for a signal.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Answers kept for positions asked again (descents, minimization, diagnosis) when the
/// board is set from each position's FEN, as the moves protocol keeps them; past this
/// many the memory is dropped and built again.
const CACHE_LIMIT: usize = 1 << 16;

/// How the library's board goes from one position to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moving {
    /// `play(board, move)` returns a new board; the old one is kept for unmaking.
    Play,
    /// `make(board, move)` changes it in place and `unmake(board)` takes the last back.
    MakeUnmake,
    /// `make(board, move)` alone: it is given a copy (`copy.deepcopy`) to change.
    MakeCopy,
    /// None: every position's board is made from its FEN, as the moves protocol does
    /// without `play`.
    FromFen,
}

/// The library's callables, as `xqdiff.check` was given them.
struct Callables {
    fen_to_board: Py<PyAny>,
    legal_moves: Py<PyAny>,
    play: Option<Py<PyAny>>,
    make: Option<Py<PyAny>>,
    unmake: Option<Py<PyAny>>,
    pseudo_legal_moves: Option<Py<PyAny>>,
    in_check: Option<Py<PyAny>>,
    moving: Moving,
}

/// What went wrong during one question to the library, kept until the question ends:
/// the answer it cut short is thrown away and this is the answer instead.
#[derive(Debug)]
enum Problem {
    /// The library raised an exception.
    Refused { what: String, reason: String },
    /// Its answer was not what was asked for (a list holding what is not a move).
    Unreadable {
        what: String,
        problem: String,
        /// The answer as Python shows it.
        answer: String,
    },
    /// The check was told to stop (a signal, or an exception that is not an
    /// `Exception`).
    Stopped { what: String },
}

impl Problem {
    fn into_error(self) -> SubjectError {
        match self {
            Problem::Refused { what, reason } => SubjectError::Refused { what, reason },
            Problem::Unreadable {
                what,
                problem,
                answer,
            } => SubjectError::Garbage {
                request: what,
                problem,
                last: vec![answer],
            },
            Problem::Stopped { what } => SubjectError::Stopped { request: what },
        }
    }
}

/// What the library's side and the waiting thread share: the problem of the question
/// under way, the stop flag, and an exception to raise again once the check stops.
#[derive(Default)]
struct Shared {
    problem: Mutex<Option<Problem>>,
    stop: AtomicBool,
    interrupt: Mutex<Option<PyErr>>,
}

impl Shared {
    fn record(&self, problem: Problem) {
        let mut slot = self.problem.lock().unwrap_or_else(PoisonError::into_inner);
        // The first problem is the one to tell: what follows it follows from it.
        slot.get_or_insert(problem);
    }

    fn pending(&self) -> bool {
        self.problem
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }

    fn take(&self) -> Option<Problem> {
        self.problem
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    /// Stops the check and keeps `error` to raise once it has stopped (the first one).
    fn interrupt(&self, error: PyErr) {
        self.stop.store(true, Ordering::Relaxed);
        self.interrupt
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_or_insert(error);
    }
}

/// One position on the way down: xqdiff's copy of it, the library's board there once
/// it is needed, and its last list there.
struct Frame {
    /// The position, `None` after a pseudo-legal move that leads to no valid position
    /// (into check): only the check test is asked there.
    position: Option<Position>,
    /// The board after the move with the mover to move again (the root's own board at
    /// the root): what the check test is asked about.
    mover_view: Setup,
    /// The library's board, made the first time it is needed: a move whose board is
    /// never listed costs the library nothing.
    board: Option<Py<PyAny>>,
    /// Where in the frame before's list the library's own object for the move that
    /// led here is (that list stays while this frame is on the stack).
    by: Option<usize>,
    /// Whether `board` was changed in place by `make`, so leaving it takes `unmake`.
    made_in_place: bool,
    /// The last list at this board: each move with the library's object for it.
    listed: Vec<(Move, Py<PyAny>)>,
}

/// The library as an xqdiff [`Library`]: one stack of frames, the root first.
struct PyLibrary {
    name: String,
    calls: Callables,
    /// Whether its pseudo-legal list is the one read (`compare="pseudo-legal"`).
    pseudo: bool,
    frames: Vec<Frame>,
    shared: Arc<Shared>,
    /// Lists and check answers by FEN, when boards are made from FENs.
    cache: HashMap<(bool, String), Answer>,
}

/// A list or a check answer, kept by FEN.
#[derive(Clone)]
enum Answer {
    Moves(Vec<Move>),
    Check(bool),
}

/// Which list a question asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listing {
    Legal,
    Pseudo,
}

impl Listing {
    fn name(self) -> &'static str {
        match self {
            Listing::Legal => "legal_moves",
            Listing::Pseudo => "pseudo_legal_moves",
        }
    }
}

/// `error` as one line: its type, message and the innermost place it came from.
fn describe(py: Python<'_>, error: &PyErr) -> String {
    let kind = error
        .get_type(py)
        .getattr("__name__")
        .and_then(|n| n.extract::<String>())
        .unwrap_or_else(|_| "exception".to_owned());
    let message = error
        .value(py)
        .str()
        .and_then(|s| s.extract::<String>())
        .unwrap_or_default();
    let mut line = if message.is_empty() {
        kind
    } else {
        format!("{kind}: {message}")
    };
    let place = error.traceback(py).and_then(|tb| {
        let frames = py
            .import("traceback")
            .ok()?
            .call_method1("extract_tb", (tb,))
            .ok()?;
        let last = frames.get_item(-1).ok()?;
        let file: String = last.getattr("filename").ok()?.extract().ok()?;
        let number: u32 = last.getattr("lineno").ok()?.extract().ok()?;
        let function: String = last.getattr("name").ok()?.extract().ok()?;
        let file = file.rsplit('/').next().unwrap_or(&file).to_owned();
        Some(format!(" (in {function}, {file}:{number})"))
    });
    line.push_str(&place.unwrap_or_default());
    // One line, as an adapter's `error` line is.
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl PyLibrary {
    fn fen_here(&self) -> String {
        self.frames
            .last()
            .and_then(|f| f.position.as_ref())
            .map_or_else(|| "no position".to_owned(), Position::fen)
    }

    /// Runs `f` attached to the interpreter, unless a problem is pending or the check
    /// is stopping; an exception `f` raises becomes the question's problem.
    fn attached<T>(
        &mut self,
        what: &dyn Fn() -> String,
        f: impl FnOnce(Python<'_>, &mut PyLibrary) -> Result<T, Caught>,
    ) -> Option<T> {
        if self.shared.pending() {
            return None;
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.shared.record(Problem::Stopped { what: what() });
            return None;
        }
        Python::attach(|py| match f(py, self) {
            Ok(value) => Some(value),
            Err(Caught::Python(error)) => {
                if error.is_instance_of::<PyException>(py) {
                    let reason = describe(py, &error);
                    self.shared.record(Problem::Refused {
                        what: what(),
                        reason,
                    });
                } else {
                    self.shared.record(Problem::Stopped { what: what() });
                    self.shared.interrupt(error);
                }
                None
            }
            Err(Caught::Problem(problem)) => {
                self.shared.record(problem);
                None
            }
        })
    }

    /// The library's board at frame `i`, made now if it was not: from the FEN, or
    /// from the board before by the library's own move.
    fn board<'py>(&mut self, py: Python<'py>, i: usize) -> Result<Bound<'py, PyAny>, Caught> {
        if let Some(board) = &self.frames[i].board {
            return Ok(board.bind(py).clone());
        }
        let moving = if i == 0 {
            Moving::FromFen
        } else {
            self.calls.moving
        };
        let made = match moving {
            Moving::FromFen => {
                let fen = (self.frames[i].position.as_ref())
                    .map(Position::fen)
                    .ok_or_else(|| no_position(&self.frames[i].mover_view))?;
                self.calls.fen_to_board.bind(py).call1((fen,))?
            }
            Moving::Play | Moving::MakeUnmake | Moving::MakeCopy => {
                let before = self.board(py, i - 1)?;
                let mv = (self.frames[i].by)
                    .and_then(|at| self.frames[i - 1].listed.get(at))
                    .map(|(_, m)| m.bind(py).clone())
                    .ok_or_else(|| no_position(&self.frames[i].mover_view))?;
                let call = |f: &Option<Py<PyAny>>, name| {
                    f.as_ref()
                        .map(|f| f.bind(py).clone())
                        .ok_or_else(|| missing(name))
                };
                match moving {
                    Moving::Play => call(&self.calls.play, "play")?.call1((before, mv))?,
                    Moving::MakeUnmake => {
                        call(&self.calls.make, "make")?.call1((before.clone(), mv))?;
                        self.frames[i].made_in_place = true;
                        before
                    }
                    _ => {
                        let copy = py.import("copy")?.getattr("deepcopy")?.call1((before,))?;
                        call(&self.calls.make, "make")?.call1((copy.clone(), mv))?;
                        copy
                    }
                }
            }
        };
        self.frames[i].board = Some(made.clone().unbind());
        Ok(made)
    }

    /// The list `listing` at the top board, read as moves and kept with the library's
    /// objects for them.
    fn list(&mut self, listing: Listing) -> Option<Vec<Move>> {
        let fen = self.fen_here();
        let key = (listing == Listing::Pseudo, fen.clone());
        let from_fen = self.calls.moving == Moving::FromFen;
        if from_fen {
            if let Some(Answer::Moves(known)) = self.cache.get(&key) {
                return Some(known.clone());
            }
        }
        let what = || format!("{} on {fen}", listing.name());
        let listed = self.attached(&what, |py, me| {
            let i = me.frames.len() - 1;
            let board = me.board(py, i)?;
            let call = match listing {
                Listing::Legal => Some(&me.calls.legal_moves),
                Listing::Pseudo => me.calls.pseudo_legal_moves.as_ref(),
            };
            let call = call.ok_or_else(|| missing(listing.name()))?;
            let answer = call.bind(py).call1((board,))?;
            let mut listed = Vec::new();
            for item in answer.try_iter()? {
                let item = item?;
                let text: String = item.str()?.extract()?;
                let Ok(mv) = text.trim().parse::<Move>() else {
                    let shown: String = answer.repr()?.extract()?;
                    return Err(Caught::Problem(Problem::Unreadable {
                        what: format!("{} on {}", listing.name(), me.fen_here()),
                        problem: format!(
                            "it listed {:?}, not a move such as h2e2 (files a-i, ranks 0-9 \
                             from Red's side)",
                            cut(&text)
                        ),
                        answer: format!("{} returned {}", listing.name(), cut(&shown)),
                    }));
                };
                listed.push((mv, item.unbind()));
            }
            Ok(listed)
        })?;
        let moves: Vec<Move> = listed.iter().map(|(mv, _)| *mv).collect();
        if let Some(top) = self.frames.last_mut() {
            top.listed = listed;
        }
        if from_fen {
            if self.cache.len() >= CACHE_LIMIT {
                self.cache.clear();
            }
            self.cache.insert(key, Answer::Moves(moves.clone()));
        }
        Some(moves)
    }

    /// Where the library's own object for `mv` is in the top board's list: its last
    /// list there, else a list asked now (a move on a path replayed from the root).
    fn listed_at(&mut self, mv: Move) -> Option<usize> {
        let at = |me: &PyLibrary| {
            let frame = me.frames.last()?;
            frame.listed.iter().position(|(m, _)| *m == mv)
        };
        if let Some(i) = at(self) {
            return Some(i);
        }
        let listing = if self.pseudo {
            Listing::Pseudo
        } else {
            Listing::Legal
        };
        self.list(listing)?;
        let found = at(self);
        if found.is_none() {
            self.shared.record(Problem::Refused {
                what: format!("move {mv} on {}", self.fen_here()),
                reason: format!("{} does not list it, so it cannot be made", listing.name()),
            });
        }
        found
    }
}

/// What a call into the library can end in besides its value.
enum Caught {
    Python(PyErr),
    Problem(Problem),
}

impl From<PyErr> for Caught {
    fn from(error: PyErr) -> Caught {
        Caught::Python(error)
    }
}

fn missing(name: &str) -> Caught {
    Caught::Problem(Problem::Refused {
        what: format!("a question that needs {name}"),
        reason: format!("no {name} was given"),
    })
}

fn no_position(view: &Setup) -> Caught {
    Caught::Problem(Problem::Refused {
        what: format!("a list after the move to {view}"),
        reason: "the move leads to no valid position".to_owned(),
    })
}

fn cut(text: &str) -> String {
    text.chars().take(120).collect()
}

impl Library for PyLibrary {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn set_position(&mut self, fen: &str) -> Result<(), String> {
        // The old boards go unmade: the new root's board comes from its FEN.
        self.frames.clear();
        let position = Position::from_fen(fen).map_err(|e| e.to_string())?;
        self.frames.push(Frame {
            mover_view: position.setup().clone(),
            position: Some(position),
            board: None,
            by: None,
            made_in_place: false,
            listed: Vec::new(),
        });
        Ok(())
    }

    fn legal_moves(&mut self) -> Vec<Move> {
        self.list(Listing::Legal).unwrap_or_default()
    }

    fn make(&mut self, mv: Move) -> Result<(), String> {
        let here = (self.frames.last())
            .and_then(|f| f.position.as_ref())
            .ok_or("no position to move from")?;
        let view = placed(here, mv).ok_or("no piece of the side to move there")?;
        let mut after = view.clone();
        after.turn = after.turn.other();
        let by = match self.calls.moving {
            Moving::FromFen => None,
            _ => Some(self.listed_at(mv).ok_or("the library could not list it")?),
        };
        self.frames.push(Frame {
            position: Position::new(after).ok(),
            mover_view: view,
            board: None,
            by,
            made_in_place: false,
            listed: Vec::new(),
        });
        Ok(())
    }

    fn unmake(&mut self) -> bool {
        if let Some(frame) = self.frames.pop() {
            self.leave(frame);
        }
        true
    }

    fn pseudo_legal_moves(&mut self) -> Option<Vec<Move>> {
        self.calls.pseudo_legal_moves.as_ref()?;
        Some(self.list(Listing::Pseudo).unwrap_or_default())
    }

    fn mover_in_check(&mut self) -> Option<bool> {
        self.calls.in_check.as_ref()?;
        // As the moves protocol's `check` request: the board after the move with the
        // mover to move again, made from its FEN.
        let fen = self.frames.last()?.mover_view.to_string();
        let key = (false, format!("check {fen}"));
        if let Some(Answer::Check(known)) = self.cache.get(&key) {
            return Some(*known);
        }
        let what = || format!("in_check on {fen}");
        let answer = self.attached(&what, |py, me| {
            let board = me.calls.fen_to_board.bind(py).call1((fen.clone(),))?;
            let call = me
                .calls
                .in_check
                .as_ref()
                .ok_or_else(|| missing("in_check"))?;
            Ok(call.bind(py).call1((board,))?.is_truthy()?)
        });
        let Some(answer) = answer else {
            return Some(false);
        };
        if self.cache.len() >= CACHE_LIMIT {
            self.cache.clear();
        }
        self.cache.insert(key, Answer::Check(answer));
        Some(answer)
    }
}

impl PyLibrary {
    /// Leaves `frame`: a move made on the board in place is taken back with `unmake`.
    fn leave(&mut self, frame: Frame) {
        if !frame.made_in_place {
            return;
        }
        let Some(board) = frame.board else { return };
        let what = || format!("unmake after {}", frame.mover_view);
        self.attached(&what, |py, me| {
            let unmake = me.calls.unmake.as_ref().ok_or_else(|| missing("unmake"))?;
            unmake.bind(py).call1((board.bind(py),))?;
            Ok(())
        });
    }
}

/// The library as a [`Subject`]: its answer, unless a problem cut it short, whose
/// error is the answer instead.
struct PySubject {
    inner: LibrarySubject<PyLibrary>,
    shared: Arc<Shared>,
}

impl Subject for PySubject {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        self.shared.take();
        let answer = self.inner.divide(root, path, depth);
        match self.shared.take() {
            Some(problem) => Err(problem.into_error()),
            None => answer,
        }
    }

    fn set_aside(&self) -> Option<SetAside> {
        self.inner.set_aside()
    }

    fn counting(&self) -> xqdiff::diagnose::Counting {
        self.inner.counting()
    }
}

/// How a finding is found again: a command with `{fen}` and `{depth}` in its words, or
/// a sentence when no command can run the library (`runnable` false).
struct Reproduce {
    words: Vec<String>,
    runnable: bool,
}

impl Reproduce {
    fn on(&self, pos: &Position, depth: u32) -> Provenance {
        let fill = |w: &String| {
            w.replace("{fen}", &pos.fen())
                .replace("{depth}", &depth.to_string())
        };
        let words: Vec<String> = self.words.iter().map(fill).collect();
        let provenance = if self.runnable {
            Provenance::command(words)
        } else {
            Provenance::described(words.concat())
        };
        provenance.answered_on(pos, depth)
    }
}

/// A setting that cannot be used, as the ValueError `xqdiff.check` raises.
fn bad(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// Checks a library given by its callables, in process; see `xqdiff.check`.
#[pyfunction]
#[pyo3(signature = (
    *, name, fen_to_board, legal_moves, play=None, make=None, unmake=None,
    pseudo_legal_moves=None, in_check=None, rules="legal", compare="legal", known="",
    depth=2, positions=100, seconds=None, fens=Vec::new(), seed=1, max_findings=1,
    reproduce, runnable=true
))]
#[allow(clippy::too_many_arguments)]
fn check(
    py: Python<'_>,
    name: String,
    fen_to_board: Py<PyAny>,
    legal_moves: Py<PyAny>,
    play: Option<Py<PyAny>>,
    make: Option<Py<PyAny>>,
    unmake: Option<Py<PyAny>>,
    pseudo_legal_moves: Option<Py<PyAny>>,
    in_check: Option<Py<PyAny>>,
    rules: &str,
    compare: &str,
    known: &str,
    depth: u32,
    positions: usize,
    seconds: Option<f64>,
    fens: Vec<String>,
    seed: u64,
    max_findings: usize,
    reproduce: Vec<String>,
    runnable: bool,
) -> PyResult<Py<PyDict>> {
    let moving = match (&play, &make, &unmake) {
        (Some(_), None, None) => Moving::Play,
        (None, Some(_), Some(_)) => Moving::MakeUnmake,
        (None, Some(_), None) => Moving::MakeCopy,
        (None, None, None) => Moving::FromFen,
        (Some(_), _, _) => {
            return Err(bad(
                "give play, or make (with unmake if it has one), not both",
            ))
        }
        (None, None, Some(_)) => return Err(bad("unmake needs make")),
    };
    let time = match seconds {
        Some(s) => Some(
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|t| !t.is_zero())
                .ok_or_else(|| bad(format!("seconds={s} is not a positive number of seconds")))?,
        ),
        None => None,
    };
    if depth == 0 || depth > 64 {
        return Err(bad(format!("depth={depth}: the depth is 1 to 64")));
    }
    let fens = fens
        .iter()
        .map(|f| Position::from_fen(f).map_err(|e| bad(format!("bad FEN {f:?}: {e}"))))
        .collect::<PyResult<Vec<Position>>>()?;
    let settings = LibraryCheck {
        depth,
        positions,
        time,
        fens,
        seed,
        max_findings,
        rules: rules.parse::<Rules>().map_err(|e| bad(e.to_string()))?,
        compare: compare.parse::<Compare>().map_err(|e| bad(e.to_string()))?,
        known: Known::parse(known).map_err(|e| bad(format!("known bugs: {e}")))?,
    };
    let mode = settings.mode().map_err(|e| bad(e.to_string()))?;
    if mode == MovesMode::PseudoLegal && (pseudo_legal_moves.is_none() || in_check.is_none()) {
        return Err(bad(
            "compare=\"pseudo-legal\" needs pseudo_legal_moves and in_check: the library's \
             pseudo-legal moves less those its own check test finds unsafe are compared",
        ));
    }
    let shared = Arc::new(Shared::default());
    let library = PyLibrary {
        name,
        calls: Callables {
            fen_to_board,
            legal_moves,
            play,
            make,
            unmake,
            pseudo_legal_moves,
            in_check,
            moving,
        },
        pseudo: mode == MovesMode::PseudoLegal,
        frames: Vec::new(),
        shared: Arc::clone(&shared),
        cache: HashMap::new(),
    };
    let mut subject = PySubject {
        inner: LibrarySubject::with_mode(library, mode),
        shared: Arc::clone(&shared),
    };
    let reproduce = Reproduce {
        words: reproduce,
        runnable,
    };
    let on = |pos: &Position, depth: u32| reproduce.on(pos, depth);
    let on_ref: &(dyn Fn(&Position, u32) -> Provenance + Sync) = &on;
    let defaults = settings.options();
    let options = Options {
        max_findings: defaults.max_findings,
        known: defaults.known,
        reproduce: Some(on_ref),
        stop: Some(&shared.stop),
        ..Options::default()
    };
    let outcome = run_watched(py, &shared, || settings.run(&mut subject, &options));
    // An exception raised by the library's code, or a signal: raised again here, after
    // the check let go of everything.
    let interrupted = shared
        .interrupt
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some(error) = interrupted {
        return Err(error);
    }
    let run = outcome.map_err(|e| bad(e.to_string()))?;
    let lists = subject.inner.lists();
    report_dict(py, &run, mode, lists).map(Bound::unbind)
}

/// Runs `work` on a thread of its own with the interpreter released, looking for a
/// signal every [`SIGNAL_POLL`]: one stops the check (`shared.stop`) and is kept to be
/// raised once `work` returns.
fn run_watched<T: Send>(py: Python<'_>, shared: &Shared, work: impl FnOnce() -> T + Send) -> T {
    let waiting = std::thread::current();
    std::thread::scope(|s| {
        let worker = s.spawn(move || {
            let out = work();
            waiting.unpark();
            out
        });
        while !worker.is_finished() {
            py.detach(|| std::thread::park_timeout(SIGNAL_POLL));
            if let Err(signal) = py.check_signals() {
                shared.interrupt(signal);
            }
        }
        match worker.join() {
            Ok(out) => out,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

fn moves_of(counts: &[(Move, u64)]) -> Vec<String> {
    counts.iter().map(|(mv, _)| mv.to_string()).collect()
}

/// One finding as a dict: `xqdiff.Finding`'s fields.
fn finding_dict<'py>(py: Python<'py>, f: &Finding) -> PyResult<Bound<'py, PyDict>> {
    // A library's check files what it finds about the library as such findings.
    let t = f.trail().ok_or_else(|| {
        PyRuntimeError::new_err("a finding about the built-in generators, not the library")
    })?;
    let d = PyDict::new(py);
    d.set_item("signature", f.signature.to_string())?;
    d.set_item("known", f.known)?;
    d.set_item("hits", f.hits)?;
    d.set_item("cause", cause_lines(f.diagnosis.as_ref()))?;
    d.set_item("first_on", &t.label)?;
    d.set_item("root", t.root.fen())?;
    d.set_item("root_depth", t.depth)?;
    let path: Vec<String> = t.path.iter().map(Move::to_string).collect();
    d.set_item("path", path)?;
    let (witness, depth, comparison): (&Position, u32, &Comparison) = match &t.reproduction {
        Some(r) => (
            &r.minimized,
            r.depth,
            r.comparison.as_ref().unwrap_or(&t.comparison),
        ),
        None => (&t.position, t.comparison.depth, &t.comparison),
    };
    d.set_item("witness", witness.fen())?;
    d.set_item("depth", depth)?;
    d.set_item("library_total", comparison.subject_total)?;
    d.set_item("xqdiff_total", comparison.consensus_total)?;
    d.set_item("only_library", moves_of(&comparison.only_subject))?;
    d.set_item("only_xqdiff", moves_of(&comparison.only_consensus))?;
    let differ: Vec<(String, u64, u64)> = comparison
        .counts_differ
        .iter()
        .map(|c| (c.mv.to_string(), c.subject, c.consensus))
        .collect();
    d.set_item("counts_differ", differ)?;
    let twice: Vec<(String, u32)> = comparison
        .listed_more_than_once
        .iter()
        .map(|(mv, n)| (mv.to_string(), *n))
        .collect();
    d.set_item("listed_twice", twice)?;
    let also: Vec<String> = f.others().map(Position::fen).collect();
    d.set_item("also", also)?;
    d.set_item("reproduce", t.found_by.to_string())?;
    d.set_item("reproduce_lines", t.found_by.lines())?;
    d.set_item("text", f.to_string())?;
    Ok(d)
}

/// The run as a dict: `xqdiff.Report`'s fields.
fn report_dict<'py>(
    py: Python<'py>,
    run: &Run,
    mode: MovesMode,
    lists: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let report = &run.report;
    let d = PyDict::new(py);
    d.set_item("library", &report.subject)?;
    // What fails a test: anything but agreement and the known bugs' differences
    // (`Report::all_agree` counts those too).
    let passed = report.failure.is_none()
        && report.new_findings().next().is_none()
        && report.crashes.iter().all(|c| c.known)
        && report.ours.is_empty()
        && (report.checked.iter()).all(|c| c.verdict == Verdict::Agree || c.known);
    d.set_item("passed", passed)?;
    let findings = PyList::empty(py);
    for f in &report.findings {
        findings.append(finding_dict(py, f)?)?;
    }
    d.set_item("findings", findings)?;
    let checked = PyList::empty(py);
    for c in &report.checked {
        let row = PyDict::new(py);
        row.set_item("label", &c.label)?;
        row.set_item("fen", &c.fen)?;
        row.set_item("depth", c.depth)?;
        row.set_item("library_total", c.subject_total)?;
        row.set_item("xqdiff_total", c.consensus_total)?;
        let verdict = match c.verdict {
            Verdict::Agree => "agree",
            Verdict::Differs if c.known => "known",
            Verdict::Differs => "differs",
            Verdict::OursDisagree => "ours-disagree",
        };
        row.set_item("verdict", verdict)?;
        row.set_item("bug", c.bug.as_ref().map(ToString::to_string))?;
        row.set_item("line", c.line())?;
        checked.append(row)?;
    }
    d.set_item("checked", checked)?;
    let ours: Vec<String> = report.ours.iter().map(ToString::to_string).collect();
    d.set_item("ours", ours)?;
    let crashes: Vec<String> = report.crashes.iter().map(ToString::to_string).collect();
    d.set_item("crashes", crashes)?;
    // A library that raises on (or answers garbage to) a position it is asked is, for
    // the check, a failure of its own kind filed beside the findings; for a test it is
    // what could not be checked, where, and why, as a run that ended on it says.
    let failed = report
        .failure
        .as_ref()
        .map(|f| (&f.label, &f.position, f.depth, f.error.to_string()))
        .or_else(|| {
            (report.crashes.iter().find(|c| !c.known))
                .map(|c| (&c.label, &c.position, c.depth, c.error.clone()))
        });
    match failed {
        Some((label, position, depth, error)) => {
            let failure = PyDict::new(py);
            failure.set_item("label", label)?;
            failure.set_item("fen", position.fen())?;
            failure.set_item("depth", depth)?;
            failure.set_item("error", error)?;
            d.set_item("failure", failure)?;
        }
        None => d.set_item("failure", py.None())?,
    }
    d.set_item(
        "set_aside",
        report.set_aside.as_ref().map(ToString::to_string),
    )?;
    d.set_item("hint", report.into_check_hint(Some(mode)))?;
    d.set_item("fresh", run.fresh.as_ref().map(|m| m.summary()))?;
    d.set_item("nodes", report.nodes_compared())?;
    d.set_item("seconds", report.elapsed.as_secs_f64())?;
    let (library_time, builtins_time, _) = report.time_spent();
    d.set_item("library_seconds", library_time.as_secs_f64())?;
    d.set_item("xqdiff_seconds", builtins_time.as_secs_f64())?;
    d.set_item("lists", lists)?;
    Ok(d)
}

/// The compiled module.
#[pymodule]
fn _xqdiff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add("XQDIFF_VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
