//! xboard (CECP): the `protover 2` feature handshake, the game setup, `ping`/`pong`
//! synchronisation, and one perft question (`setboard`, the path's moves, `perft N 1`);
//! for an engine without perft, its own FEN (`show fen`) and its list of a position's
//! moves (`setboard`, `show moves`). An engine answers `ping K` only after everything
//! sent before it, so `pong K` ends an answer exactly, and a late answer to an earlier
//! question carries an older `K`.

use super::answer::{classify, refuses_command, Line, Tally};
use super::notation::{looks_like_move, RawMove};
use super::process::Process;
use crate::subject::SubjectError;
use std::time::Instant;

/// What the conversation needs to remember.
#[derive(Debug, Default)]
pub(crate) struct State {
    next_ping: u64,
}

/// `xboard`, `protover 2`, then feature lines up to `done=1`; returns `myname`.
pub(crate) fn handshake(p: &mut Process) -> Result<Option<String>, SubjectError> {
    let request = "xboard; protover 2";
    p.ask("xboard\nprotover 2\n", request)?;
    let deadline = p.deadline();
    let mut name = None;
    let mut no_setboard = false;
    loop {
        let line = p.handshake_line(deadline, request, "feature done=1")?;
        if ["xboard", "protover"]
            .iter()
            .any(|w| refuses_command(line.trim(), w))
        {
            return Err(SubjectError::Unsupported {
                what: format!(
                    "{} answered `xboard` with {:?}: it does not speak xboard",
                    p.program,
                    line.trim()
                ),
                instead: "try --protocol uci or ucci".to_owned(),
            });
        }
        let Some(features) = line.trim().strip_prefix("feature ") else {
            continue;
        };
        if let Some(n) = feature_value(features, "myname") {
            name = Some(n);
        }
        no_setboard |= feature_value(features, "setboard").as_deref() == Some("0");
        if feature_value(features, "done").as_deref() == Some("1") {
            break;
        }
    }
    if no_setboard {
        // Every question starts from a FEN; without setboard none can be asked.
        return Err(SubjectError::Unsupported {
            what: format!(
                "{} has no setboard (`feature setboard=0`): xqdiff gives an xboard engine \
                 its positions by setboard only, not by the older `edit` command",
                name.as_deref().unwrap_or(&p.program)
            ),
            instead: crate::subject::WITHOUT_PERFT.to_owned(),
        });
    }
    Ok(name)
}

/// The value of `key=value` or `key="quoted value"` in a feature line.
fn feature_value(features: &str, key: &str) -> Option<String> {
    let mut rest = features;
    while let Some(at) = rest.find(key) {
        let before_ok = at == 0 || rest.as_bytes()[at - 1] == b' ';
        let after = &rest[at + key.len()..];
        if let (true, Some(value)) = (before_ok, after.strip_prefix('=')) {
            return Some(match value.strip_prefix('"') {
                Some(quoted) => quoted.split('"').next().unwrap_or("").to_string(),
                None => value.split_whitespace().next().unwrap_or("").to_string(),
            });
        }
        rest = after;
    }
    None
}

/// Sends the options and the game setup (`new`, `variant xiangqi`, `force`), then
/// synchronises; a refusal on the way fails with [`SubjectError::Refused`].
pub(crate) fn setup(
    p: &mut Process,
    state: &mut State,
    options: &[(String, String)],
) -> Result<(), SubjectError> {
    let mut text: String = options
        .iter()
        .map(|(name, value)| format!("option {name}={value}\n"))
        .collect();
    text += "new\nvariant xiangqi\nforce\n";
    super::settle(p, &text, "ping", |p, request| sync(p, state, request))
}

/// `ping K`, then reads up to `pong K`. Returns the first refusal seen.
pub(crate) fn sync(
    p: &mut Process,
    state: &mut State,
    request: &str,
) -> Result<Option<String>, SubjectError> {
    let k = state.ping();
    p.ask(&format!("ping {k}\n"), request)?;
    let deadline = p.deadline();
    let mut refusal = None;
    loop {
        let line = p.line_by(deadline, request)?;
        match classify(&line) {
            Line::Pong(n) if n == k => return Ok(refusal),
            Line::Refusal => {
                refusal.get_or_insert_with(|| line.trim().to_string());
            }
            _ => {}
        }
    }
}

impl State {
    /// A number no earlier `ping` used.
    fn ping(&mut self) -> u64 {
        self.next_ping += 1;
        self.next_ping
    }
}

/// The lines that ask perft `depth` from `fen` after `moves`: per move (`perft N 1`)
/// when `divides`, else the plain `perft N`.
pub(crate) fn question_lines(
    fen: &str,
    moves: &[String],
    depth: u32,
    divides: bool,
) -> Vec<String> {
    let mut lines = vec![format!("setboard {fen}")];
    lines.extend(moves.iter().cloned());
    lines.push(if divides {
        format!("perft {depth} 1")
    } else {
        format!("perft {depth}")
    });
    lines
}

/// Asks perft `depth` from `fen` after `moves` and reads the whole answer: per move
/// (`perft N 1`) when `divides`, else the plain `perft N`.
pub(crate) fn perft(
    p: &mut Process,
    state: &mut State,
    question: (&str, &[String], u32),
    divides: bool,
) -> Result<(String, Tally), SubjectError> {
    let (fen, moves, depth) = question;
    let lines = question_lines(fen, moves, depth, divides);
    let mut text = lines.join("\n") + "\n";
    let request = lines.join("; ");
    let k = state.ping();
    text += &format!("ping {k}\n");
    p.ask(&text, &request)?;
    let mut tally = Tally::default();
    // Chatter does not extend the wait; progress does.
    let mut deadline = p.deadline();
    loop {
        let line = match next_line(p, deadline, &request, tally.refusal.as_deref())? {
            Read::Line(line) => line,
            Read::Refused(reason) => {
                tally.refusal = Some(reason);
                return Ok((request, tally));
            }
        };
        let kind = classify(&line);
        if kind != Line::Other {
            deadline = p.deadline();
        }
        if kind == Line::Pong(k) {
            return Ok((request, tally));
        }
        tally.add(&line, kind, depth);
    }
}

/// The engine's FEN of its current position, as `show fen` prints it: the answer's
/// one line that holds a placement (ten ranks between nine slashes).
pub(crate) fn show_fen(p: &mut Process, state: &mut State) -> Result<String, SubjectError> {
    let request = "show fen";
    let lines = answer(p, state, "show fen\n", request)?;
    let fens: Vec<&String> = lines
        .iter()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.matches('/').count() == 9)
        })
        .collect();
    match fens[..] {
        [fen] => Ok(fen.trim().to_owned()),
        _ => Err(SubjectError::Garbage {
            request: request.to_owned(),
            problem: format!(
                "expected one FEN line, found {}: the engine does not print its FEN this way",
                fens.len()
            ),
            last: p.last(),
        }),
    }
}

/// The moves the engine lists for `fen` (already in its dialect): `setboard`, then
/// `show moves`, the moves as written, however many to a line. A refused FEN is
/// [`SubjectError::Refused`], also when the engine exits after saying so (HoiXiangqi
/// ends on any error).
pub(crate) fn show_moves(
    p: &mut Process,
    state: &mut State,
    fen: &str,
) -> Result<Vec<String>, SubjectError> {
    let request = format!("setboard {fen}; show moves");
    let lines = answer(p, state, &format!("setboard {fen}\nshow moves\n"), &request)?;
    let mut moves = Vec::new();
    for line in &lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let read = words.iter().filter(|w| RawMove::parse(w).is_some()).count();
        if read == 0 && !words.iter().any(|w| looks_like_move(w)) {
            // Chatter: nothing in it is, or looks like, a move.
            continue;
        }
        if read < words.len() {
            return Err(SubjectError::Garbage {
                request,
                problem: format!("{line:?} is not a list of moves"),
                last: p.last(),
            });
        }
        moves.extend(words.iter().map(|w| w.to_string()));
    }
    Ok(moves)
}

/// Sends `text` and a `ping`, and returns the lines up to its `pong`, all within the
/// timeout (a listing is one burst, so nothing extends it). The first refusal among them fails the question as
/// [`SubjectError::Refused`], even when the engine then exits.
fn answer(
    p: &mut Process,
    state: &mut State,
    text: &str,
    request: &str,
) -> Result<Vec<String>, SubjectError> {
    let k = state.ping();
    p.ask(&format!("{text}ping {k}\n"), request)?;
    let mut lines = Vec::new();
    let mut refusal: Option<String> = None;
    let refused = |reason: String| SubjectError::Refused {
        what: request.to_owned(),
        reason,
    };
    let deadline = p.deadline();
    loop {
        let line = match next_line(p, deadline, request, refusal.as_deref())? {
            Read::Line(line) => line,
            Read::Refused(reason) => return Err(refused(reason)),
        };
        match classify(&line) {
            Line::Pong(n) if n == k => {
                return match refusal {
                    Some(reason) => Err(refused(reason)),
                    None => Ok(lines),
                }
            }
            Line::Refusal => {
                refusal.get_or_insert_with(|| line.trim().to_owned());
            }
            _ => lines.push(line),
        }
    }
}

/// A line read, or the refusal an engine that has exited ended on.
enum Read {
    Line(String),
    Refused(String),
}

/// The next line by `deadline`. Some engines end on any refusal (HoiXiangqi): when the
/// engine exits, the refusal already `seen`, else one among its last lines, is the
/// answer; an exit without one is the error it is.
fn next_line(
    p: &mut Process,
    deadline: Instant,
    request: &str,
    seen: Option<&str>,
) -> Result<Read, SubjectError> {
    match p.line_by(deadline, request) {
        Ok(line) => Ok(Read::Line(line)),
        Err(SubjectError::Exited {
            request,
            status,
            last,
        }) => match seen
            .map(str::to_owned)
            .or_else(|| refusal_before_exit(&last))
        {
            Some(reason) => Ok(Read::Refused(reason)),
            None => Err(SubjectError::Exited {
                request,
                status,
                last,
            }),
        },
        Err(e) => Err(e),
    }
}

/// The first refusal among the lines an engine printed after its last `pong`, from the
/// last lines kept when it exited: an engine that exits at once after refusing may be
/// seen gone before those lines are read as an answer.
fn refusal_before_exit(last: &[String]) -> Option<String> {
    last.iter()
        .rev()
        .take_while(|l| !matches!(classify(l), Line::Pong(_)))
        .filter(|l| classify(l) == Line::Refusal)
        .last()
        .map(|l| l.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::{feature_value, refusal_before_exit};

    #[test]
    fn feature_values_are_read_quoted_or_bare() {
        let line = r#"setboard=1 ping=1 myname="Sjaak II 1.4.1" myversion="[1.4.1]" done=1"#;
        assert_eq!(
            feature_value(line, "myname").as_deref(),
            Some("Sjaak II 1.4.1")
        );
        assert_eq!(feature_value(line, "done").as_deref(), Some("1"));
        assert_eq!(feature_value(line, "ping").as_deref(), Some("1"));
        assert_eq!(feature_value(line, "name"), None);
        assert_eq!(feature_value("done=0", "done").as_deref(), Some("0"));
    }

    #[test]
    fn a_refusal_is_found_among_the_last_lines_after_the_last_pong() {
        let lines = |ls: &[&str]| ls.iter().map(|l| l.to_string()).collect::<Vec<_>>();
        // The last lines, the refusal read from them.
        let cases: &[(&[&str], Option<&str>)] = &[
            (
                &[
                    "Ch2-h0\t",
                    "pong 3",
                    "tellusererror Illegal position",
                    "Error (x): y",
                ],
                Some("tellusererror Illegal position"),
            ),
            (
                &["tellusererror Illegal position", "pong 3", "Ch2-h0"],
                None,
            ),
            (
                &["Error (unknown command): perft"],
                Some("Error (unknown command): perft"),
            ),
            (&["pong 3"], None),
            (&[], None),
        ];
        for (last, want) in cases {
            assert_eq!(
                refusal_before_exit(&lines(last)).as_deref(),
                *want,
                "{last:?}"
            );
        }
    }
}
