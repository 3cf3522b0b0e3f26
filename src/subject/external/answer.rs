//! Reading an engine's perft output one line at a time, tolerantly: what each line is
//! (a per-move count, a total, a refusal, a sign of searching, chatter), and the
//! answer those lines add up to.

use super::notation::{looks_like_move, RawMove};

/// What one line of engine output means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// Nothing perft-related: banners, `info string`, comments, blank lines.
    Other,
    /// UCI `readyok`.
    ReadyOk,
    /// xboard `pong N`.
    Pong(u64),
    /// `bestmove ...` (`true`) or `info depth/score/pv ...` (`false`).
    Searching {
        /// Whether it is the `bestmove` that ends a search.
        bestmove: bool,
    },
    /// The engine refuses something: `Error ...`, `Illegal move ...`, `tellusererror`,
    /// `No such option`.
    Refusal,
    /// One root move's count.
    Divide {
        /// The move as written.
        token: String,
        /// The move, numbering not yet applied.
        mv: RawMove,
        /// Its count.
        count: u64,
    },
    /// A total; `depth` when the line says which (xboard's `" 2  1920  0.00 ..."`).
    Total {
        /// The depth the line is for, if it says.
        depth: Option<u32>,
        /// The node count.
        nodes: u64,
    },
    /// A line meant as a count whose move or number cannot be read; the problem.
    Bad(String),
}

/// Classifies one line.
pub(crate) fn classify(line: &str) -> Line {
    let text = line.trim();
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Line::Other;
    };
    if text.starts_with('#') {
        return Line::Other;
    }
    if lower == "readyok" {
        return Line::ReadyOk;
    }
    if lower.starts_with("pong") {
        return words
            .get(1)
            .and_then(|w| w.parse().ok())
            .map_or(Line::Other, Line::Pong);
    }
    if first == "bestmove" {
        return Line::Searching { bestmove: true };
    }
    if first == "info" {
        let searching = words[1..]
            .iter()
            .any(|w| matches!(*w, "depth" | "score" | "pv"));
        return if searching {
            Line::Searching { bestmove: false }
        } else if is_refusal(&lower) {
            Line::Refusal
        } else {
            Line::Other
        };
    }
    if is_refusal(&lower) {
        return Line::Refusal;
    }
    if let Some(line) = move_then_nodes(text, &words) {
        return line;
    }
    if let Some((key, rest)) = text.split_once(':') {
        return keyed(text, key.trim(), rest);
    }
    let Some(&second) = words.get(1) else {
        return Line::Other;
    };
    if let Ok(depth) = first.parse::<u32>() {
        // xboard totals: depth, nodes, then time and speed.
        return match second.parse() {
            Ok(nodes) => Line::Total {
                depth: Some(depth),
                nodes,
            },
            Err(_) => bad_count(text, second),
        };
    }
    if let Some(mv) = RawMove::parse(first) {
        return match second.parse() {
            Ok(count) => Line::Divide {
                token: first.to_string(),
                mv,
                count,
            },
            Err(_) => bad_count(text, second),
        };
    }
    if looks_like_move(first) && second.parse::<u64>().is_ok() {
        return bad_move(text, first);
    }
    Line::Other
}

/// The divide lines xqdiff reads, as a note about lines it cannot read names them.
pub(crate) const DIVIDE_FORMS: &str =
    "`h2e2: 45`, `h2e2 45`, `Ch2-e2 45 960` and `move: h2e2 nodes: 45`";

/// `move: h2e2 nodes: 45`, a divide written with both fields named.
fn move_then_nodes(text: &str, words: &[&str]) -> Option<Line> {
    let [key, token, nodes, count, ..] = words else {
        return None;
    };
    if !key.eq_ignore_ascii_case("move:") || !nodes.to_ascii_lowercase().starts_with("nodes") {
        return None;
    }
    let token = token.trim_end_matches(',');
    Some(match (RawMove::parse(token), count.parse()) {
        (Some(mv), Ok(count)) => Line::Divide {
            token: token.to_string(),
            mv,
            count,
        },
        (None, _) => bad_move(text, token),
        (_, Err(_)) => bad_count(text, count),
    })
}

/// Whether a line xqdiff does not read looks meant as a divide line: a word that looks
/// like a move and a number beside it (`e1f1 => 1`, `1. h2e2 45`). Such lines, unread,
/// leave the engine taken for one that prints only totals; a note names the first.
pub(crate) fn looks_like_divide(line: &str) -> bool {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',' || c == '=' || c == '>')
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().any(|w| looks_like_move(w))
        && words
            .iter()
            .any(|w| w.trim_end_matches(':').parse::<u64>().is_ok())
}

/// A line with a colon: `h2e2: 45`, `Nodes searched: 1920`, or chatter.
fn keyed(text: &str, key: &str, rest: &str) -> Line {
    let value = rest.split_whitespace().next().unwrap_or("");
    let key_lower = key.to_ascii_lowercase();
    if ["nodes", "total", "perft"]
        .iter()
        .any(|k| key_lower.starts_with(k))
    {
        return match value.parse() {
            Ok(nodes) => Line::Total { depth: None, nodes },
            Err(_) => bad_count(text, value),
        };
    }
    if key.contains(char::is_whitespace) {
        return Line::Other;
    }
    if let Some(mv) = RawMove::parse(key) {
        return match value.parse() {
            Ok(count) => Line::Divide {
                token: key.to_string(),
                mv,
                count,
            },
            Err(_) => bad_count(text, value),
        };
    }
    if looks_like_move(key) {
        return bad_move(text, key);
    }
    Line::Other
}

/// Whether `line` refuses the command `word` by name (`Error (unknown command): uci`,
/// `Unknown command: 'xboard'`): an engine told a protocol it does not speak says so at
/// once, and waiting out the handshake's timeout would only hide it.
pub(crate) fn refuses_command(line: &str, word: &str) -> bool {
    classify(line) == Line::Refusal
        && line
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case(word))
}

fn is_refusal(lower: &str) -> bool {
    [
        "error",
        "illegal",
        "invalid",
        "unknown command",
        "tellusererror",
        "no such option",
        // Pikafish's "Unsupported position. King can be captured", before it exits.
        "unsupported",
    ]
    .iter()
    .any(|w| lower.starts_with(w))
        || lower.contains("illegal move")
        || lower.contains("bad fen")
        || lower.contains("invalid fen")
}

fn bad_count(line: &str, count: &str) -> Line {
    Line::Bad(format!(
        "in the line {line:?}, {count:?} is not a count (xqdiff reads {DIVIDE_FORMS})"
    ))
}

fn bad_move(line: &str, token: &str) -> Line {
    Line::Bad(format!(
        "in the line {line:?}, {token:?} is not a move (xqdiff reads {DIVIDE_FORMS})"
    ))
}

/// What the lines of one answer add up to, as they arrive.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Per-move counts since the last total (xboard prints a block per depth).
    pub(crate) block: Vec<(String, RawMove, u64)>,
    /// The per-move counts that belong to the answer's total.
    pub(crate) per_move: Option<Vec<(String, RawMove, u64)>>,
    /// The total for the asked depth.
    pub(crate) total: Option<u64>,
    /// The first refusal line.
    pub(crate) refusal: Option<String>,
    /// The first unreadable line's problem.
    pub(crate) bad: Option<String>,
    /// Whether the engine started a search.
    pub(crate) searching: bool,
    /// Whether the search ended with `bestmove`.
    pub(crate) bestmove: bool,
    /// The first line not read that looks meant as a divide line.
    pub(crate) unread: Option<String>,
}

impl Tally {
    /// Takes in one classified line of the answer to "perft `depth`".
    pub(crate) fn add(&mut self, line: &str, kind: Line, depth: u32) {
        match kind {
            Line::Divide { token, mv, count } => self.block.push((token, mv, count)),
            Line::Total { depth: d, nodes } => {
                // Engines that print every depth up to the asked one: keep only its block.
                if d.is_none_or(|d| d == depth) {
                    self.total = Some(nodes);
                    self.per_move = Some(std::mem::take(&mut self.block));
                } else {
                    self.block.clear();
                }
            }
            Line::Refusal => {
                self.refusal.get_or_insert_with(|| line.trim().to_string());
            }
            Line::Bad(problem) => {
                self.bad.get_or_insert(problem);
            }
            Line::Searching { bestmove } => {
                self.searching = true;
                self.bestmove |= bestmove;
            }
            Line::Other if self.unread.is_none() && looks_like_divide(line) => {
                self.unread = Some(line.trim().to_string());
            }
            Line::Other | Line::ReadyOk | Line::Pong(_) => {}
        }
    }

    /// The per-move counts: those before the total, or all of them when no total came.
    pub(crate) fn moves(&mut self) -> Vec<(String, RawMove, u64)> {
        self.per_move
            .take()
            .unwrap_or_else(|| std::mem::take(&mut self.block))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn divide(token: &str, count: u64) -> Line {
        Line::Divide {
            token: token.to_string(),
            mv: RawMove::parse(token).unwrap(),
            count,
        }
    }

    /// A refusal of the handshake's own word, in the forms engines print it; other
    /// lines, refusals of something else among them, are not.
    #[test]
    fn a_refused_handshake_is_recognised() {
        let table = [
            ("Error (unknown command): uci", "uci", true),
            (
                "Unknown command: 'xboard'. Type help for more information.",
                "xboard",
                true,
            ),
            ("Illegal move: ucci", "ucci", true),
            ("Error (unknown command): uci", "xboard", false),
            ("Error: unknown piece type", "uci", false),
            ("info string UCI_Variant xiangqi", "uci", false),
            ("id name uci-engine 1.0", "uci", false),
        ];
        for (line, word, refused) in table {
            assert_eq!(refuses_command(line, word), refused, "{line} / {word}");
        }
    }

    #[test]
    fn lines_are_classified() {
        let bad = |s: &str| matches!(classify(s), Line::Bad(_));
        let cases: Vec<(&str, Line)> = vec![
            ("h3e3: 45", divide("h3e3", 45)),
            ("b3b10: 1", divide("b3b10", 1)),
            ("h2e2 45", divide("h2e2", 45)),
            ("move: e1f1 nodes: 1", divide("e1f1", 1)),
            ("Move: h2e2, Nodes: 45", divide("h2e2", 45)),
            ("  Ch2-c2         45        960", divide("Ch2-c2", 45)),
            ("  Cb2xb9          1         20", divide("Cb2xb9", 1)),
            (
                "Nodes searched: 1920",
                Line::Total {
                    depth: None,
                    nodes: 1920,
                },
            ),
            (
                " 2       1920  0.00   3404255.32nps",
                Line::Total {
                    depth: Some(2),
                    nodes: 1920,
                },
            ),
            ("readyok", Line::ReadyOk),
            ("pong 7", Line::Pong(7)),
            (
                "bestmove h2e2 ponder h9g7",
                Line::Searching { bestmove: true },
            ),
            (
                "info depth 1 score cp 12 pv h2e2",
                Line::Searching { bestmove: false },
            ),
            ("info string variant xiangqi", Line::Other),
            (
                "Error (Illegal move or unknown command): h3e3",
                Line::Refusal,
            ),
            ("Error: unknown piece type 'n' (bad FEN ...)", Line::Refusal),
            ("tellusererror unknown piece type 'n'", Line::Refusal),
            ("Illegal move: h2h2", Line::Refusal),
            ("No such option: Bogus", Line::Refusal),
            ("id name Fairy-Stockfish 11.1 LB 64", Line::Other),
            ("# New game 'XiangQi'", Line::Other),
            ("Time: 12", Line::Other),
            ("feature done=1", Line::Other),
            ("", Line::Other),
            ("uciok", Line::Other),
        ];
        for (text, want) in cases {
            assert_eq!(classify(text), want, "{text:?}");
        }
        for garbage in [
            "h2z2: 45",
            "z9z9: 1",
            "h2e2: lots",
            "h2e2: -3",
            "h2e2 45?",
            "  Zh2-q2   45   960",
            "Nodes searched: many",
            " 2   lots  0.00  1nps",
            "move: z9z9 nodes: 1",
            "move: h2e2 nodes: many",
        ] {
            assert!(bad(garbage), "{garbage:?} should be garbage");
        }
    }

    /// Lines not read that look meant as divide lines, and lines that do not.
    #[test]
    fn unread_divide_lines_are_told_from_chatter() {
        for (line, meant) in [
            ("e1f1 => 1", true),
            ("1. h2e2 45", true),
            ("h2e2=45", true),
            ("info string variant xiangqi", false),
            ("Time: 12", false),
            ("id name Engine 1.0", false),
        ] {
            assert_eq!(looks_like_divide(line), meant, "{line:?}");
        }
    }

    #[test]
    fn the_tally_keeps_the_block_of_the_asked_depth() {
        let lines = [
            "  Hb0-a2  1  1",
            "  Ra0-a1  1  2",
            " 1  2  0.00  0nps",
            "  Hb0-a2  43  43",
            " 2  43  0.00  0nps",
        ];
        let mut t = Tally::default();
        for l in lines {
            t.add(l, classify(l), 2);
        }
        assert_eq!(t.total, Some(43));
        let moves = t.moves();
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].2, 43);
    }
}
