//! The moves protocol (`docs/moves-protocol.md`), for a library that can only list the
//! legal moves of a position: one request a line, one answer a line. xqdiff counts
//! perft itself from the lists, so the rest of the engine check (divides, descent,
//! minimization, reports) is the same as for an engine with a perft command.
//!
//! Without `play` in the handshake, xqdiff sends the FEN of every position it asks
//! about, reached by moving the pieces itself; with it, the root's FEN and the moves to
//! play, so the library's own make is checked too.
//!
//! An xboard engine without perft whose console lists moves (`--protocol
//! xboard-moves`) is counted the same way: each position's FEN, in the engine's own
//! dialect, is given by `setboard` and listed by `show moves` (`xboard.rs`).

use super::answer::Tally;
use super::notation::{fen_with_letters, looks_like_move, FenDialect, FenFields, RawMove};
use super::process::Process;
use super::{xboard, FenLetters, MovesMode, Ranks};
use crate::moves::Move;
use crate::position::{Position, Setup};
use crate::subject::rules::SetAside;
use crate::subject::SubjectError;
use std::collections::HashMap;

/// The protocol's first request, and its version.
const HELLO: &str = "xqdiff moves 1";

/// Answers kept for descents and reruns that ask the same positions again; past this
/// many the memory is dropped and rebuilt.
const CACHE_LIMIT: usize = 1 << 20;

/// What the handshake advertised, and answers already read.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// The library plays moves given after the FEN.
    pub(crate) play: bool,
    /// It answers `pseudo` requests.
    pub(crate) pseudo: bool,
    /// It answers `check` requests.
    pub(crate) check: bool,
    /// How its lists are read.
    mode: MovesMode,
    /// The moves set aside under king-capture rules, counted on answers read afresh.
    pub(crate) set_aside: SetAside,
    /// Set when the lists come from an xboard engine's `show moves`, not an adapter.
    show: Option<Show>,
    cache: HashMap<String, Vec<String>>,
}

/// An xboard engine that lists the moves of the position it was given.
#[derive(Debug)]
struct Show {
    xboard: xboard::State,
    /// The fields of its FEN, read from its own.
    fields: FenFields,
}

impl State {
    /// Drops the answers kept, so the next request reaches the library.
    pub(crate) fn forget(&mut self) {
        self.cache.clear();
    }

    /// Lists from an xboard engine's `show moves`, its conversation so far in
    /// `xboard`, its FEN written with `fields`.
    pub(crate) fn shown_by(xboard: xboard::State, fields: FenFields) -> State {
        State {
            show: Some(Show { xboard, fields }),
            ..State::default()
        }
    }

    /// The fields of the engine's FEN, when the lists come from an xboard engine.
    pub(crate) fn shown_fields(&self) -> Option<FenFields> {
        self.show.as_ref().map(|s| s.fields)
    }

    /// The xboard conversation, when the lists come from one.
    pub(crate) fn xboard(&mut self) -> Option<&mut xboard::State> {
        self.show.as_mut().map(|s| &mut s.xboard)
    }
}

/// Sends the hello and reads `ok` with its optional words; returns the advertised
/// name, if any. Comparing pseudo-legal lists needs an adapter that answers `pseudo`
/// and `check`.
pub(crate) fn handshake(
    p: &mut Process,
    mode: MovesMode,
) -> Result<(Option<String>, State), SubjectError> {
    p.ask(&format!("{HELLO}\n"), HELLO)?;
    let deadline = p.deadline();
    loop {
        let line = p.handshake_line(deadline, HELLO, "ok")?;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("ok") => {}
            Some(w) if w.starts_with('#') => continue,
            _ => {
                return Err(SubjectError::Garbage {
                    request: HELLO.to_owned(),
                    problem: format!(
                        "expected `ok` and the optional answers, got {:?}",
                        cut(&line)
                    ),
                    last: p.last(),
                })
            }
        }
        let mut state = State {
            mode,
            ..State::default()
        };
        let mut name = None;
        for w in words {
            match w {
                "play" => state.play = true,
                "pseudo" => state.pseudo = true,
                "check" => state.check = true,
                w => {
                    if let Some(n) = w.strip_prefix("name=") {
                        name = Some(n.to_owned());
                    }
                    // Words of later versions are ignored, as the protocol says.
                }
            }
        }
        if mode == MovesMode::PseudoLegal && !(state.pseudo && state.check) {
            return Err(SubjectError::Unsupported {
                what: format!(
                    "the adapter's handshake `{}` does not offer both `pseudo` and `check`",
                    cut(line.trim())
                ),
                instead: "compare its legal moves (leave out --compare pseudo-legal)".to_owned(),
            });
        }
        return Ok((name, state));
    }
}

/// Fails with [`SubjectError::OutOfStep`] if `stray`, lines that arrived before
/// `request` was sent, holds anything but comments and blank lines.
pub(crate) fn in_step(stray: &[String], request: &str, p: &Process) -> Result<(), SubjectError> {
    match stray
        .iter()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
    {
        Some(line) => Err(SubjectError::OutOfStep {
            request: request.to_owned(),
            problem: format!("a line nobody asked for came before it: {:?}", cut(line)),
            last: p.last(),
        }),
        None => Ok(()),
    }
}

fn cut(s: &str) -> String {
    s.chars().take(120).collect()
}

/// A position asked about: xqdiff's own copy of it, and the moves the library is to
/// play from the root to reach it (only when it advertised `play`).
#[derive(Clone)]
struct Node {
    position: Position,
    played: Vec<String>,
}

/// The conversation's fixed parts for one perft question.
struct Asker<'a> {
    p: &'a mut Process,
    state: &'a mut State,
    root_fen: String,
    ranks: Ranks,
    letters: FenLetters,
}

impl Asker<'_> {
    /// The request `verb` (`legal` or `pseudo`) about `node`.
    fn request(&self, verb: &str, node: &Node) -> String {
        if self.state.play {
            let mut r = format!("{verb} {}", self.root_fen);
            if !node.played.is_empty() {
                r.push_str(" moves ");
                r.push_str(&node.played.join(" "));
            }
            r
        } else {
            self.about(verb, &node.position)
        }
    }

    /// The request `verb` about `pos`, given as a FEN; to an xboard engine, which is
    /// only ever asked for its list, the FEN alone, in its dialect.
    fn about(&self, verb: &str, pos: &Position) -> String {
        match &self.state.show {
            Some(show) => FenDialect {
                letters: self.letters,
                fields: show.fields,
            }
            .write(&pos.fen()),
            None => about(verb, &fen_with_letters(&pos.fen(), self.letters)),
        }
    }

    /// The library's moves at `node` as the mode reads them, as it wrote them: its
    /// legal list; or its pseudo-legal list less the moves its own check detector
    /// finds unsafe; or, under king-capture rules, its list less the moves that only
    /// those rules allow.
    fn legal(&mut self, node: &Node) -> Result<Vec<String>, SubjectError> {
        let listed = self.listed(node)?;
        // Every move from a piece of the side not to move: the answer to another
        // position (the one before or after this), never a list of this one.
        let turn = node.position.setup().turn;
        let wrong_side = |token: &String| {
            RawMove::parse(token)
                .and_then(|r| r.to_move(self.ranks))
                .and_then(|m| node.position.setup().board[m.from.index()])
                .is_some_and(|piece| piece.color != turn)
        };
        if !listed.is_empty() && listed.iter().all(wrong_side) {
            return Err(SubjectError::OutOfStep {
                request: self.request("legal", node),
                problem: format!(
                    "every move listed ({}) starts on a piece of the side not to move",
                    cut(&listed.join(" "))
                ),
                last: self.p.last(),
            });
        }
        Ok(listed)
    }

    /// [`legal`](Asker::legal)'s list as the adapter gave it.
    fn listed(&mut self, node: &Node) -> Result<Vec<String>, SubjectError> {
        match self.state.mode {
            MovesMode::Legal => self.ask(self.request("legal", node)),
            MovesMode::KingCapture => {
                let request = self.request("legal", node);
                // An answer from memory was tallied when it was first read.
                let fresh = !self.state.cache.contains_key(&request);
                let mut listed = self.ask(request)?;
                let ranks = self.ranks;
                let read = |token: &String| RawMove::parse(token).and_then(|r| r.to_move(ranks));
                let mut tally = SetAside::default();
                tally.sift(&node.position, &mut listed, read);
                if fresh {
                    self.state.set_aside.absorb(tally);
                }
                Ok(listed)
            }
            MovesMode::PseudoLegal => {
                let pseudo = self.ask(self.request("pseudo", node))?;
                let mut safe = Vec::with_capacity(pseudo.len());
                for token in pseudo {
                    if !self.exposes_mover(node, &token)? {
                        safe.push(token);
                    }
                }
                Ok(safe)
            }
        }
    }

    /// Whether the library's check detector finds the mover's king attacked after
    /// `token`: asked of the board after it with the mover to move again. A move xqdiff
    /// cannot make (no piece of the mover there) is kept, the list's claim compared as
    /// it is.
    fn exposes_mover(&mut self, node: &Node, token: &str) -> Result<bool, SubjectError> {
        let Some(mv) = RawMove::parse(token).and_then(|r| r.to_move(self.ranks)) else {
            return Ok(false);
        };
        let Some(after) = placed(&node.position, mv) else {
            return Ok(false);
        };
        let request = format!(
            "check {}",
            fen_with_letters(&after.to_string(), self.letters)
        );
        let answer = self.ask(request.clone())?;
        match answer.as_slice() {
            [w] if w == "yes" => Ok(true),
            [w] if w == "no" => Ok(false),
            _ => Err(SubjectError::Garbage {
                request,
                problem: format!("expected `yes` or `no`, found {:?}", cut(&answer.join(" "))),
                last: self.p.last(),
            }),
        }
    }

    /// One request's answer words, from the adapter or from memory.
    fn ask(&mut self, request: String) -> Result<Vec<String>, SubjectError> {
        if let Some(known) = self.state.cache.get(&request) {
            return Ok(known.clone());
        }
        let words = match &mut self.state.show {
            Some(show) => xboard::show_moves(self.p, &mut show.xboard, &request)?,
            None => self.answer(&request)?,
        };
        if self.state.cache.len() >= CACHE_LIMIT {
            self.state.cache.clear();
        }
        self.state.cache.insert(request, words.clone());
        Ok(words)
    }

    /// The adapter's next answer line to `request`, sent now.
    fn answer_line(&mut self, request: &str) -> Result<String, SubjectError> {
        // A line already waiting was asked by nobody: read as this request's answer,
        // it would shift every later answer by one.
        let stray = self.p.pending_lines();
        in_step(&stray, request, self.p)?;
        self.p.ask(&format!("{request}\n"), request)?;
        let deadline = self.p.deadline();
        loop {
            let line = self.p.line_by(deadline, request)?;
            if !line.trim_start().starts_with('#') {
                return Ok(line);
            }
        }
    }

    /// The adapter's answer to `request`, in words.
    fn answer(&mut self, request: &str) -> Result<Vec<String>, SubjectError> {
        let line = self.answer_line(request)?;
        let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        if words.first().is_some_and(|w| w == "error") {
            // A line printed twice puts every later answer one request late, and the
            // stray line may arrive only after the next request was sent, where no
            // look at what is waiting can see it. Asked again, an adapter in step
            // refuses again; one out of step gives the answer it owed the first time.
            let again = self.answer_line(request)?;
            if again.trim() != line.trim() {
                return Err(SubjectError::OutOfStep {
                    request: request.to_owned(),
                    problem: format!(
                        "asked twice, it answered {:?} and then {:?} (a line out of step \
                         with its request, or answers that change from one asking to the next)",
                        cut(line.trim()),
                        cut(again.trim())
                    ),
                    last: self.p.last(),
                });
            }
            return Err(SubjectError::Refused {
                what: request.to_owned(),
                reason: cut(line.trim()),
            });
        }
        let yes_no = request.starts_with("check ");
        if let Some(bad) = words
            .iter()
            .find(|w| !yes_no && RawMove::parse(w).is_none())
        {
            let problem = if looks_like_move(bad) {
                format!("{:?} is not a move between two points", cut(bad))
            } else {
                format!("expected moves separated by spaces, found {:?}", cut(bad))
            };
            return Err(SubjectError::Garbage {
                request: request.to_owned(),
                problem,
                last: self.p.last(),
            });
        }
        Ok(words)
    }

    /// `node` after the library's move `token`: played by the library when it can,
    /// else by moving the piece. `None` when the move cannot be made at all (a point
    /// off the board, no piece there, a position no rule allows): it then leads to no
    /// position and counts nothing below it.
    fn child(&self, node: &Node, token: &str) -> Option<Node> {
        let mv = RawMove::parse(token)?.to_move(self.ranks)?;
        let position = moved(&node.position, mv)?;
        let mut played = node.played.clone();
        if self.state.play {
            played.push(token.to_owned());
        }
        Some(Node { position, played })
    }

    /// Perft `depth` (at least 1) at `node` from the library's lists.
    fn count(&mut self, node: &Node, depth: u32) -> Result<u64, SubjectError> {
        let moves = self.legal(node)?;
        if depth <= 1 {
            return Ok(moves.len() as u64);
        }
        let mut total = 0u64;
        for token in &moves {
            if let Some(child) = self.child(node, token) {
                total = total.saturating_add(self.count(&child, depth - 1)?);
            }
        }
        Ok(total)
    }
}

/// The board of `pos` with the piece of `mv` moved (taking whatever stands on the
/// target), the turn not yet passed: what any Xiangqi move does to the squares, legal or
/// not. `None` when no piece of the side to move stands on the from point. The board a
/// `check` request asks about, with the mover to move again.
pub fn placed(pos: &Position, mv: Move) -> Option<Setup> {
    pos.placed(mv)
}

/// `mv` made on `pos` ([`placed`], then the turn passed); `None` also when the result
/// breaks the domain rules.
pub(crate) fn moved(pos: &Position, mv: Move) -> Option<Position> {
    let mut setup = placed(pos, mv)?;
    setup.turn = setup.turn.other();
    Position::new(setup).ok()
}

fn about(verb: &str, fen: &str) -> String {
    format!("{verb} {fen}")
}

/// The request a user types to see the library's own list of `fen` (in its letters)
/// as `mode` reads it.
pub(crate) fn question_line(fen: &str, mode: MovesMode) -> String {
    match mode {
        MovesMode::PseudoLegal => about("pseudo", fen),
        MovesMode::Legal | MovesMode::KingCapture => about("legal", fen),
    }
}

/// Perft `depth` from `fen` after `moves`, counted from the library's lists, as the
/// per-move counts of the root's moves and their total.
pub(crate) fn perft(
    p: &mut Process,
    state: &mut State,
    (fen, moves, depth): (&str, &[String], u32),
    (ranks, letters): (Ranks, FenLetters),
) -> Result<(String, Tally), SubjectError> {
    let request = if moves.is_empty() {
        format!("perft {depth} of {fen}")
    } else {
        format!("perft {depth} of {fen} after {}", moves.join(" "))
    };
    let root = Position::from_fen(fen).map_err(|e| SubjectError::Refused {
        what: format!("position {fen}"),
        reason: e.to_string(),
    })?;
    let mut asker = Asker {
        p,
        state,
        root_fen: fen.to_owned(),
        ranks,
        letters,
    };
    let mut node = Node {
        position: root,
        played: Vec::new(),
    };
    for token in moves {
        node = asker
            .child(&node, token)
            .ok_or_else(|| SubjectError::Refused {
                what: format!("move {token} on {fen}"),
                reason: "xqdiff cannot make it".to_owned(),
            })?;
    }
    let listed = asker.legal(&node)?;
    let mut per_move = Vec::with_capacity(listed.len());
    for token in listed {
        let Some(raw) = RawMove::parse(&token) else {
            continue;
        };
        let count = match depth {
            0 | 1 => 1,
            _ => match asker.child(&node, &token) {
                Some(child) => asker.count(&child, depth - 1)?,
                None => 0,
            },
        };
        per_move.push((token, raw, count));
    }
    let total = per_move
        .iter()
        .fold(0u64, |sum, (_, _, n)| sum.saturating_add(*n));
    let tally = Tally {
        per_move: Some(per_move),
        total: Some(total),
        ..Tally::default()
    };
    Ok((request, tally))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_a_piece_takes_what_stands_there_and_passes_the_turn() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1").unwrap();
        let take: Move = "e0e1".parse().unwrap();
        let after = moved(&pos, take).expect("a position");
        assert_eq!(after.fen(), "3k5/9/9/9/9/9/9/9/4K4/9 b - - 0 1");
        // No piece of the side to move on the from point.
        assert!(moved(&pos, "e1e2".parse().unwrap()).is_none());
    }
}
