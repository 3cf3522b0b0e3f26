//! UCI and UCCI: the handshake, options, `isready` synchronisation, and one perft
//! question (`position fen ... moves ...`, `go perft N`).
//!
//! Engines of the Stockfish family answer `isready` at once even while a `go perft`
//! runs, so `readyok` does not mark the end of a perft answer; their
//! `Nodes searched: N` line does. `isready` is therefore sent only to engines that print
//! no total line, after a refusal, and to resynchronise; the `readyok`s owed are
//! counted so a late one never ends the wrong answer.

use super::answer::{classify, refuses_command, Line, Tally};
use super::process::Process;
use crate::subject::SubjectError;
use std::time::Duration;

/// How long to wait, once, for a total line after `readyok` when it is not yet known
/// whether the engine prints one.
const TOTAL_GRACE: Duration = Duration::from_millis(300);

/// What the conversation has learnt so far.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Whether `go perft` ends with a total line; `None` until the first answer.
    pub(crate) total_line: Option<bool>,
    /// `readyok`s still owed.
    owed: u32,
}

/// What the handshake told: the engine's `id name`, and whether it offers a
/// `UCI_Variant` option with `xiangqi` among its values.
#[derive(Debug, Default)]
pub(crate) struct Hello {
    pub(crate) name: Option<String>,
    pub(crate) offers_xiangqi: bool,
}

/// Whether an `option` line is a `UCI_Variant` combo that lists `xiangqi`.
fn offers_xiangqi(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.get(..3) == Some(&["option", "name", "UCI_Variant"][..])
        && words.windows(2).any(|w| w == ["var", "xiangqi"])
}

/// `uci`/`uciok` (or `ucci`/`ucciok`), collecting `id name` and the variants offered.
pub(crate) fn handshake(p: &mut Process, ucci: bool) -> Result<Hello, SubjectError> {
    let (hello, ok) = if ucci {
        ("ucci", "ucciok")
    } else {
        ("uci", "uciok")
    };
    p.ask(&format!("{hello}\n"), hello)?;
    let deadline = p.deadline();
    let mut told = Hello::default();
    loop {
        let line = p.handshake_line(deadline, hello, ok)?;
        let line = line.trim();
        if line == ok {
            return Ok(told);
        }
        if refuses_command(line, hello) {
            return Err(SubjectError::Unsupported {
                what: format!(
                    "{} answered `{hello}` with {line:?}: it does not speak {}",
                    p.program,
                    hello.to_uppercase()
                ),
                instead: format!(
                    "try --protocol {}",
                    if ucci {
                        "uci or xboard"
                    } else {
                        "xboard or ucci"
                    }
                ),
            });
        }
        if let Some(n) = line.strip_prefix("id name ") {
            told.name = Some(n.trim().to_string());
        }
        told.offers_xiangqi |= offers_xiangqi(line);
    }
}

/// Sends the options, then waits for `readyok`; a refusal on the way (`No such
/// option: X`) fails with [`SubjectError::Refused`].
pub(crate) fn set_options(
    p: &mut Process,
    state: &mut State,
    options: &[(String, String)],
    ucci: bool,
) -> Result<(), SubjectError> {
    let mut text = String::new();
    for (name, value) in options {
        text += &match (ucci, value.is_empty()) {
            (true, _) => format!("setoption {name} {value}\n"),
            (false, true) => format!("setoption name {name}\n"),
            (false, false) => format!("setoption name {name} value {value}\n"),
        };
    }
    super::settle(p, &text, "isready", |p, request| sync(p, state, request))
}

/// `isready`, then reads up to every owed `readyok`. Returns the first refusal seen.
pub(crate) fn sync(
    p: &mut Process,
    state: &mut State,
    request: &str,
) -> Result<Option<String>, SubjectError> {
    let request = if request.is_empty() {
        "isready"
    } else {
        request
    };
    p.ask("isready\n", request)?;
    state.owed += 1;
    let deadline = p.deadline();
    let mut refusal = None;
    while state.owed > 0 {
        let line = p.line_by(deadline, request)?;
        match classify(&line) {
            Line::ReadyOk => state.owed -= 1,
            Line::Refusal => {
                refusal.get_or_insert_with(|| line.trim().to_string());
            }
            _ => {}
        }
    }
    Ok(refusal)
}

/// Counts `readyok`s that arrived late, so they are not taken for the next answer's.
pub(crate) fn absorb(state: &mut State, lines: &[String]) {
    for line in lines {
        if line.trim() == "readyok" {
            state.owed = state.owed.saturating_sub(1);
        }
    }
}

/// The two lines that ask perft `depth` from `fen` after `moves`.
pub(crate) fn question(fen: &str, moves: &[String], depth: u32) -> [String; 2] {
    let mut position = format!("position fen {fen}");
    if !moves.is_empty() {
        position += " moves ";
        position += &moves.join(" ");
    }
    [position, format!("go perft {depth}")]
}

/// Asks perft `depth` from `fen` after `moves` and reads the whole answer.
pub(crate) fn perft(
    p: &mut Process,
    state: &mut State,
    (fen, moves, depth): (&str, &[String], u32),
) -> Result<(String, Tally), SubjectError> {
    let [position, go] = question(fen, moves, depth);
    let request = format!("{position}; {go}");
    let learning = state.total_line.is_none();
    let mut text = format!("{position}\n{go}\n");
    if state.total_line != Some(true) {
        text += "isready\n";
        state.owed += 1;
    }
    p.ask(&text, &request)?;
    let mut tally = Tally::default();
    // Chatter and search output do not extend the wait; progress does.
    let mut deadline = p.deadline();
    let mut asked_again = false;
    let mut stopped = false;
    loop {
        let done = if tally.searching {
            tally.bestmove && state.owed == 0
        } else if tally.refusal.is_some() || state.total_line == Some(false) {
            state.owed == 0
        } else {
            tally.total.is_some() && state.owed == 0
        };
        if done {
            break;
        }
        let line = if learning && state.owed == 0 && !tally.searching {
            // `readyok` came and no total yet: either the total is on its way (the
            // engine answered `isready` while counting) or the engine prints none.
            match p.line_within(TOTAL_GRACE.min(p.timeout), &request)? {
                Some(line) => line,
                None => {
                    state.total_line = Some(false);
                    continue;
                }
            }
        } else {
            match p.line_by(deadline, &request) {
                Ok(line) => line,
                // A search that ignores `stop` is still a search, not a slow perft.
                Err(SubjectError::Timeout { .. }) if tally.searching => break,
                Err(e) => return Err(e),
            }
        };
        let kind = classify(&line);
        if !matches!(kind, Line::Other | Line::Searching { .. }) {
            deadline = p.deadline();
        }
        match kind {
            Line::ReadyOk => state.owed = state.owed.saturating_sub(1),
            Line::Refusal if !asked_again => {
                // Some engines print nothing more after refusing; `readyok` ends the
                // answer for them.
                asked_again = true;
                p.send("isready\n", &request)?;
                state.owed += 1;
            }
            Line::Searching { bestmove: false } if !stopped => {
                stopped = true;
                p.send("stop\n", &request)?;
            }
            _ => {}
        }
        tally.add(&line, kind, depth);
    }
    if learning && tally.refusal.is_none() && !tally.searching {
        state.total_line = Some(tally.total.is_some());
    }
    Ok((request, tally))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_variant_option_with_xiangqi_is_recognised() {
        let table: &[(&str, bool)] = &[
            (
                "option name UCI_Variant type combo default chess var chess var xiangqi",
                true,
            ),
            (
                "option name UCI_Variant type combo default chess var chess var janggi",
                false,
            ),
            ("option name VariantPath type string default xiangqi", false),
            (
                "option name UCI_Variant type combo default xiangqi var xiangqi",
                true,
            ),
        ];
        for &(line, want) in table {
            assert_eq!(super::offers_xiangqi(line), want, "{line}");
        }
    }
}
