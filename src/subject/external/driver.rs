//! [`ExternalEngine`]: one running engine, its questions and answers, and the
//! [`Subject`] face the engine check uses.

use super::answer::{classify, Line, Tally};
use super::notation::{self, FenDialect, RawMove};
use super::process::Process;
use super::{moves, uci, xboard, EngineConfig, FenLetters, MovesMode, Protocol, Ranks};
use crate::moves::Move;
use crate::position::Position;
use crate::subject::rules::SetAside;
use crate::subject::{Divide, DivideReply, Subject, SubjectError};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// A running engine program, checked and ready for perft questions.
///
/// Dropping it asks the engine to quit, gives it a moment, then ends its process group
/// (SIGTERM, a moment, SIGKILL); the process is always waited for, so neither it nor
/// anything it started is left behind.
pub struct ExternalEngine {
    pub(super) process: Process,
    dialect: Dialect,
    id: String,
    pub(super) ranks: Ranks,
    pub(super) fen_letters: FenLetters,
    /// Whether the engine prints a count per root move (else only totals).
    pub(super) divides: bool,
    /// Set after a timeout: the next question first waits for the engine to catch up,
    /// so a late answer is not taken for the next one.
    resync: bool,
    /// What xqdiff chose on the engine's behalf.
    pub(super) notes: Vec<String>,
    /// How it was started, to start it again after a crash.
    config: EngineConfig,
    stop: Option<&'static AtomicBool>,
    /// When the run must be over ([`Subject::set_deadline`]), kept for a restart.
    deadline: Option<Instant>,
    /// A shorter wait for each step of an answer ([`Subject::set_question_timeout`]),
    /// kept for a restart.
    question_timeout: Option<Duration>,
    /// The lines that set it up (handshake, options), as sent.
    setup: Vec<String>,
}

/// How to put a position to the engine by hand: the lines that set it up and the
/// question in its own protocol and notation. Owned, so a finding's reproduction can
/// be written while the engine is busy with the next position.
#[derive(Clone, Debug)]
pub(crate) struct Speech {
    setup: Vec<String>,
    config: EngineConfig,
    fen_letters: FenLetters,
    divides: bool,
    /// The fields of the engine's own FEN, for an engine listed by `show moves`.
    fields: Option<notation::FenFields>,
}

impl Speech {
    /// How a finding about the engine on `pos` at `depth` is seen again: the
    /// `xqdiff engine` command, the engine's own lines, the built-ins' answer.
    pub(crate) fn reproduce(
        &self,
        pos: &Position,
        depth: u32,
    ) -> crate::diff::finding::provenance::Provenance {
        self.config
            .reproduce(pos, depth)
            .said(self.lines(pos, depth))
    }

    /// Everything a user types into the engine to ask it perft `depth` of `pos`, as
    /// xqdiff asked it.
    pub(crate) fn lines(&self, pos: &Position, depth: u32) -> Vec<String> {
        let fen = notation::fen_with_letters(&pos.fen(), self.fen_letters);
        let mut lines = self.setup.clone();
        match self.config.protocol {
            Protocol::Uci | Protocol::Ucci => lines.extend(uci::question(&fen, &[], depth)),
            Protocol::Xboard => {
                lines.extend(xboard::question_lines(&fen, &[], depth, self.divides))
            }
            Protocol::Moves(mode) => lines.push(moves::question_line(&fen, mode)),
            Protocol::XboardMoves => {
                let fen = match self.fields {
                    Some(fields) => notation::FenDialect {
                        letters: self.fen_letters,
                        fields,
                    }
                    .write(&pos.fen()),
                    None => fen,
                };
                lines.extend([format!("setboard {fen}"), "show moves".to_owned()]);
            }
        }
        lines
    }
}

enum Dialect {
    Uci(uci::State),
    Xboard(xboard::State),
    Moves(moves::State),
}

/// An answer whose lines were all understood, moves not yet mapped to squares.
pub(super) struct Reply {
    pub(super) request: String,
    pub(super) per_move: Vec<(String, RawMove, u64)>,
    pub(super) total: Option<u64>,
    /// The first line that looked meant as a count per move but was not read.
    pub(super) unread: Option<String>,
}

impl ExternalEngine {
    /// Spawns, handshakes and sends options, none of it past `deadline`;
    /// [`ExternalEngine::start`] then detects the notation.
    pub(super) fn spawn(
        config: &EngineConfig,
        stop: Option<&'static AtomicBool>,
        deadline: Option<Instant>,
    ) -> Result<ExternalEngine, SubjectError> {
        let mut process = Process::spawn(&config.command, config.start_wait(), stop)?;
        process.set_deadline(deadline);
        let mut notes = Vec::new();
        let mut fen_letters = config.fen_letters;
        let (dialect, name) = match config.protocol {
            Protocol::Uci | Protocol::Ucci => Self::start_uci(&mut process, config, &mut notes)?,
            Protocol::Xboard => {
                let name = xboard::handshake(&mut process)?;
                let mut state = xboard::State::default();
                xboard::setup(&mut process, &mut state, &config.options)?;
                (Dialect::Xboard(state), name)
            }
            Protocol::XboardMoves => {
                Self::start_xboard_moves(&mut process, config, &mut notes, &mut fen_letters)?
            }
            Protocol::Moves(mode) => {
                let (name, state) = moves::handshake(&mut process, mode)?;
                (Dialect::Moves(state), name)
            }
        };
        let id = name.unwrap_or_else(|| process.program.clone());
        let setup = process.said();
        Ok(ExternalEngine {
            process,
            dialect,
            id,
            ranks: config.ranks,
            fen_letters,
            divides: true,
            resync: false,
            notes,
            config: config.clone(),
            stop,
            deadline,
            question_timeout: None,
            setup,
        })
    }

    /// The UCI (or UCCI) handshake and the options sent after it. A multi-variant
    /// engine starts in chess and would be asked about Xiangqi positions in vain, so
    /// one that offers `UCI_Variant=xiangqi` is set to it unless the user chose a
    /// variant, and `notes` says so.
    fn start_uci(
        process: &mut Process,
        config: &EngineConfig,
        notes: &mut Vec<String>,
    ) -> Result<(Dialect, Option<String>), SubjectError> {
        let ucci = config.protocol == Protocol::Ucci;
        let hello = uci::handshake(process, ucci)?;
        let mut options = config.options.clone();
        let chosen = options
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case("UCI_Variant"));
        if hello.offers_xiangqi && !chosen {
            options.push(("UCI_Variant".to_owned(), "xiangqi".to_owned()));
            notes.push(
                "set UCI_Variant=xiangqi: the engine offers it and no \
                 --option UCI_Variant was given"
                    .to_owned(),
            );
        }
        let mut state = uci::State::default();
        uci::set_options(process, &mut state, &options, ucci)?;
        Ok((Dialect::Uci(state), hello.name))
    }

    /// The xboard handshake of an engine without perft, whose `show moves` lists are
    /// counted instead. Told a FEN in another dialect, such an engine may end
    /// (HoiXiangqi does), so the dialect is read from its own FEN first, never tried;
    /// its letters are taken unless `fen_letters` was given.
    fn start_xboard_moves(
        process: &mut Process,
        config: &EngineConfig,
        notes: &mut Vec<String>,
        fen_letters: &mut FenLetters,
    ) -> Result<(Dialect, Option<String>), SubjectError> {
        let name = xboard::handshake(process)?;
        let mut state = xboard::State::default();
        xboard::setup(process, &mut state, &config.options)?;
        let theirs = xboard::show_fen(process, &mut state)?;
        let dialect = FenDialect::of_start(&theirs).map_err(|problem| SubjectError::Garbage {
            request: "show fen, after new".to_owned(),
            problem,
            last: process.last(),
        })?;
        if *fen_letters == FenLetters::Auto {
            *fen_letters = dialect.letters;
        }
        notes.push(format!(
            "wrote FEN as the engine's own start position reads ({theirs}) and \
             counted perft from its `show moves` lists"
        ));
        Ok((
            Dialect::Moves(moves::State::shown_by(state, dialect.fields)),
            name,
        ))
    }

    /// What xqdiff did on its own to be able to ask the engine, one sentence each (an
    /// option it set), for the user to see.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The engine's `id name` (UCI/UCCI) or `myname` (xboard feature), else the program name.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// How the engine numbers ranks, as detected (`Zero` or `One`).
    pub fn ranks(&self) -> Ranks {
        self.ranks
    }

    /// Which FEN letters the engine reads, as detected (`NB` or `HE`).
    pub fn fen_letters(&self) -> FenLetters {
        self.fen_letters
    }

    /// Whether the engine prints a count per root move; when not, every
    /// [`Divide::per_move`] is `None`.
    pub fn divides(&self) -> bool {
        self.divides
    }

    /// How to ask the engine a position by hand, in its protocol and notation as
    /// decided.
    pub(crate) fn speech(&self) -> Speech {
        Speech {
            setup: self.setup.clone(),
            config: self.config.clone(),
            fen_letters: self.fen_letters,
            divides: self.divides,
            fields: match &self.dialect {
                Dialect::Moves(state) => state.shown_fields(),
                _ => None,
            },
        }
    }

    /// The operating system's id of the engine process.
    pub fn pid(&self) -> u32 {
        self.process.id()
    }

    /// Sends one perft question and reads its whole answer, which must be a perft
    /// answer whose every count line reads.
    pub(super) fn question(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> Result<Reply, SubjectError> {
        let (request, mut tally) = self.exchange(fen, moves, depth)?;
        let garbage = |problem: &str, last| SubjectError::Garbage {
            request: request.clone(),
            problem: problem.to_string(),
            last,
        };
        if let Some(reason) = tally.refusal.take() {
            return Err(SubjectError::Refused {
                what: refused_what(&reason, fen, moves),
                reason,
            });
        }
        if tally.searching {
            return Err(SubjectError::Unsupported {
                what: "the engine searched instead of running perft: it has no `go perft`"
                    .to_owned(),
                instead: crate::subject::WITHOUT_PERFT.to_owned(),
            });
        }
        if let Some(problem) = tally.bad.take() {
            return Err(garbage(&problem, self.process.last()));
        }
        if !self.divides && tally.total.is_none() {
            return Err(garbage("no total line in the answer", self.process.last()));
        }
        let per_move = tally.moves();
        Ok(Reply {
            request,
            per_move,
            total: tally.total,
            unread: tally.unread,
        })
    }

    /// Writes the question in the engine's protocol and reads until its end marker,
    /// first draining anything stray and, after a timeout, catching up.
    fn exchange(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> Result<(String, Tally), SubjectError> {
        let stray = self.process.pending_lines();
        let p = &mut self.process;
        let result = match &mut self.dialect {
            Dialect::Uci(state) => {
                uci::absorb(state, &stray);
                if self.resync {
                    uci::sync(p, state, "isready (catching up after a timeout)")?;
                    self.resync = false;
                }
                uci::perft(p, state, (fen, moves, depth))
            }
            Dialect::Xboard(state) => {
                if self.resync {
                    xboard::sync(p, state, "ping (catching up after a timeout)")?;
                    self.resync = false;
                }
                xboard::perft(p, state, (fen, moves, depth), self.divides)
            }
            Dialect::Moves(state) => {
                match state.xboard() {
                    Some(xboard) if self.resync => {
                        xboard::sync(p, xboard, "ping (catching up after a timeout)")?;
                        self.resync = false;
                    }
                    // `pong` ends each of its answers, so what came before is chatter.
                    Some(_) => {}
                    // One line per question and no background work, so nothing to
                    // catch up on.
                    None => moves::in_step(&stray, &format!("perft {depth} of {fen}"), p)?,
                }
                moves::perft(
                    p,
                    state,
                    (fen, moves, depth),
                    (self.ranks, self.fen_letters),
                )
            }
        };
        if matches!(result, Err(SubjectError::Timeout { .. })) {
            self.resync = true;
        }
        let result = result.or_else(refused_then_exited);
        let refused = match &result {
            Ok((_, tally)) => tally.refusal.is_some(),
            Err(e) => matches!(e, SubjectError::Refused { .. }),
        };
        if refused && self.process.has_exited() {
            // Some engines end on any refusal (HoiXiangqi); the refusal is the answer,
            // and the next question needs the engine running again.
            self.restart()?;
        }
        result
    }
}

/// An engine that exited right after a refusal line of its own (Pikafish's
/// "Unsupported position. King can be captured", then exit status 1) refused the
/// question: the refusal, with its reason, is the answer, not a crash.
fn refused_then_exited(e: SubjectError) -> Result<(String, Tally), SubjectError> {
    let SubjectError::Exited {
        request,
        status,
        last,
    } = e
    else {
        return Err(e);
    };
    let refusal = last
        .iter()
        .map(|l| l.strip_prefix("[stderr] ").unwrap_or(l).trim())
        .find(|l| classify(l) == Line::Refusal);
    match refusal {
        Some(line) => Ok((
            request,
            Tally {
                refusal: Some(format!("{line} (and then it exited, {status})")),
                ..Tally::default()
            },
        )),
        None => Err(SubjectError::Exited {
            request,
            status,
            last,
        }),
    }
}

/// What a refusal line refers to: the first path move it names, else the position.
fn refused_what(reason: &str, fen: &str, moves: &[String]) -> String {
    let named = |mv: &String| {
        reason
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == mv)
    };
    match moves.iter().position(named) {
        Some(i) => format!(
            "move {} (move {} of the path {} from {fen})",
            moves[i],
            i + 1,
            moves.join(" ")
        ),
        None if moves.is_empty() => format!("position {fen}"),
        None => format!("position {fen} with moves {}", moves.join(" ")),
    }
}

/// Whether the answer's moves start from pieces of the side that is *not* to move
/// after `path` (and none from the side that is): the engine did not play the whole
/// path, as engines that skip a move they find illegal without a word do. Moves from
/// squares the path emptied or filled do not count either way.
fn answered_other_side(root: &Position, path: &[Move], moves: &[(Move, u64)]) -> bool {
    let mut setup = root.setup().clone();
    for mv in path {
        let piece = setup.board[mv.from.index()].take();
        setup.board[mv.to.index()] = piece;
        setup.turn = setup.turn.other();
    }
    let touched = |sq| path.iter().any(|m| m.from == sq || m.to == sq);
    let (mut own, mut other) = (0, 0);
    for (m, _) in moves.iter().filter(|(m, _)| !touched(m.from)) {
        match setup.piece_at(m.from) {
            Some(p) if p.color == setup.turn => own += 1,
            Some(_) => other += 1,
            None => {}
        }
    }
    own == 0 && other > 0
}

impl Subject for ExternalEngine {
    fn name(&self) -> String {
        self.id.clone()
    }

    fn restart(&mut self) -> Result<bool, SubjectError> {
        // The notation and whether it divides were learnt once; a new process of the
        // same program keeps them, so a restart asks only the handshake.
        let mut fresh = ExternalEngine::spawn(&self.config, self.stop, self.deadline)?;
        fresh.set_question_timeout(self.question_timeout);
        fresh.ranks = self.ranks;
        fresh.fen_letters = self.fen_letters;
        fresh.divides = self.divides;
        fresh.notes = std::mem::take(&mut self.notes);
        if let (Dialect::Moves(old), Dialect::Moves(new)) = (&mut self.dialect, &mut fresh.dialect)
        {
            new.set_aside = std::mem::take(&mut old.set_aside);
        }
        *self = fresh;
        Ok(true)
    }

    fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
        self.process.set_deadline(deadline);
    }

    fn set_question_timeout(&mut self, timeout: Option<Duration>) {
        self.question_timeout = timeout;
        self.process.timeout = timeout.map_or(self.config.timeout, |t| t.min(self.config.timeout));
    }

    // A perft engine takes `position ... moves` and says nothing of how it counts
    // after them; an adapter of the moves protocol plays them only if it offers `play`,
    // and a console listing moves is given every position afresh.
    fn counting(&self) -> crate::diagnose::Counting {
        use crate::diagnose::Counting;
        match (&self.dialect, self.config.protocol) {
            (Dialect::Moves(state), Protocol::Moves(_)) if state.play => Counting::PlaysMoves,
            (Dialect::Moves(_), _) => Counting::FromFen,
            _ => Counting::Unknown,
        }
    }

    fn forget(&mut self) {
        if let Dialect::Moves(state) = &mut self.dialect {
            state.forget();
        }
    }

    fn set_aside(&self) -> Option<SetAside> {
        match (&self.dialect, self.config.protocol) {
            (Dialect::Moves(state), Protocol::Moves(MovesMode::KingCapture)) => {
                Some(state.set_aside.clone())
            }
            _ => None,
        }
    }

    fn divide(&mut self, root: &Position, path: &[Move], depth: u32) -> DivideReply {
        let depth = depth.max(1);
        let fen = notation::fen_with_letters(&root.fen(), self.fen_letters);
        let moves: Vec<String> = path
            .iter()
            .map(|&mv| notation::format_move(mv, self.ranks))
            .collect();
        let reply = self.question(&fen, &moves, depth)?;
        if !self.divides {
            return Ok(Divide {
                per_move: None,
                total: reply.total.unwrap_or_default(),
            });
        }
        let mut per_move = self.mapped(&reply)?;
        if !path.is_empty() && answered_other_side(root, path, &per_move) {
            return Err(SubjectError::Refused {
                what: format!("the path {} from {fen}", moves.join(" ")),
                reason: "the engine answered with the other side's moves: it did not play \
                         the whole path (some engines skip a move they find illegal \
                         without a word)"
                    .to_string(),
            });
        }
        // Some engines (Sjaak II) list pseudo-legal moves they found illegal with a
        // count of 0. At depth 1 every legal move counts 1; deeper, a 0 may be a move
        // that mates, so the engine's own depth-1 list decides.
        if per_move.iter().any(|&(_, n)| n == 0) {
            if depth == 1 {
                per_move.retain(|&(_, n)| n > 0);
            } else {
                let legal = self.question(&fen, &moves, 1)?;
                let legal: Vec<Move> = self
                    .mapped(&legal)?
                    .into_iter()
                    .filter(|&(_, n)| n > 0)
                    .map(|(mv, _)| mv)
                    .collect();
                per_move.retain(|(mv, n)| *n > 0 || legal.contains(mv));
            }
        }
        let total = reply
            .total
            .unwrap_or_else(|| per_move.iter().map(|(_, n)| n).sum());
        Ok(Divide {
            per_move: Some(per_move),
            total,
        })
    }
}

impl ExternalEngine {
    /// The reply's moves under the engine's rank numbering.
    fn mapped(&self, reply: &Reply) -> Result<Vec<(Move, u64)>, SubjectError> {
        let ranks = self.ranks;
        reply
            .per_move
            .iter()
            .map(|(token, raw, count)| {
                raw.to_move(ranks)
                    .map(|mv| (mv, *count))
                    .ok_or_else(|| SubjectError::Garbage {
                        request: reply.request.clone(),
                        problem: format!(
                            "{token:?} is off the board with ranks numbered from {}",
                            u8::from(ranks == Ranks::One)
                        ),
                        last: self.process.last(),
                    })
            })
            .collect()
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        self.process.shutdown();
    }
}
