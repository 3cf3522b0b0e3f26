//! Perft suites, in any of the three forms they are published in, read by one parser:
//!
//! - the perft-suite dialect: a FEN, then `;D<depth> <nodes>` for each known depth;
//! - standard EPD: the four position fields, then operations each ending in `;`
//!   (`D1 44; D2 1920; id "start";`), unknown operations ignored;
//! - shakmaty-style `.perft` blocks: `id NAME`, `epd FEN`, then `perft <depth> <nodes>`
//!   lines, blocks separated by blank lines.
//!
//! An `id` names the position in every output; without one it is `suite line N`.

use crate::fen::FenError;
use crate::position::Position;

/// The published reference suite shipped with xqdiff (`tests/data/xiangqi-perft.epd`),
/// with its sources in the comment lines.
pub const REFERENCE_SUITE: &str = include_str!("../tests/data/xiangqi-perft.epd");

/// One position of a suite with its published counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line in the file.
    pub line: usize,
    /// The position.
    pub position: Position,
    /// `(depth, nodes)`, in the order written.
    pub counts: Vec<(u32, u64)>,
    /// The position's `id`, if the file gives one.
    pub id: Option<String>,
}

impl SuiteEntry {
    /// What outputs call the position: its `id`, else `suite line N`.
    pub fn label(&self) -> String {
        self.id
            .clone()
            .unwrap_or_else(|| format!("suite line {}", self.line))
    }
}

/// What is wrong with a suite line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    /// The FEN part is bad.
    #[error("line {line}: {source}")]
    Fen {
        /// 1-based line.
        line: usize,
        /// Why.
        source: FenError,
    },
    /// A `;` field is not `D<depth> <nodes>`.
    #[error("line {line}: {field:?} is not ';D<depth> <nodes>'")]
    BadCount {
        /// 1-based line.
        line: usize,
        /// The field.
        field: String,
    },
    /// A depth beyond the bound every perft keeps to.
    #[error("line {line}: {source}")]
    TooDeep {
        /// 1-based line.
        line: usize,
        /// The depth and the bound.
        source: crate::depth::DepthError,
    },
    /// No line held a position.
    #[error("no positions in suite")]
    Empty,
}

/// Reads a suite in any of the three forms (they may even be mixed). `#` starts a
/// comment line; blank lines are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, EpdError> {
    let mut out: Vec<SuiteEntry> = Vec::new();
    // A `.perft` block's `id` comes before its `epd` line.
    let mut pending_id: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (word, rest) = trimmed
            .split_once(char::is_whitespace)
            .unwrap_or((trimmed, ""));
        match word {
            "id" => pending_id = Some(unquote(rest.trim())),
            "epd" => {
                let mut entry = epd_line(rest.trim(), line)?;
                entry.id = pending_id.take().or(entry.id);
                out.push(entry);
            }
            "perft" => {
                let Some(entry) = out.last_mut() else {
                    return Err(bad_count(line, trimmed));
                };
                let count = parse_count(&format!("D{}", rest.trim()))
                    .ok_or_else(|| bad_count(line, trimmed))?;
                entry.counts.push(bounded(count, line)?);
            }
            _ => out.push(epd_line(trimmed, line)?),
        }
    }
    if out.is_empty() {
        return Err(EpdError::Empty);
    }
    Ok(out)
}

fn bad_count(line: usize, field: &str) -> EpdError {
    EpdError::BadCount {
        line,
        field: field.chars().take(80).collect(),
    }
}

fn bounded((depth, nodes): (u64, u64), line: usize) -> Result<(u32, u64), EpdError> {
    crate::depth::check(depth)
        .map(|depth| (depth, nodes))
        .map_err(|source| EpdError::TooDeep { line, source })
}

/// `"a name"` or `a name` as the name.
fn unquote(text: &str) -> String {
    let t = text.trim().trim_end_matches(';').trim();
    t.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(t)
        .to_owned()
}

/// One line of the dialect or of standard EPD: the position's fields, then the
/// operations. The position ends where the first word that is no FEN field begins (a
/// `D1` right after `- -`), or at the first `;`.
fn epd_line(text: &str, line: usize) -> Result<SuiteEntry, EpdError> {
    let (head, tail) = text.split_once(';').unwrap_or((text, ""));
    let words: Vec<&str> = head.split_whitespace().collect();
    // Placement and side, then the castling and en-passant fields (always `-` in
    // Xiangqi) and the two counters, each optional; what follows is the first operation.
    let mut fen_len = words.len().min(2);
    while fen_len < words.len() && fen_len < 6 {
        let w = words[fen_len];
        let field = if fen_len < 4 {
            w == "-"
        } else {
            w.bytes().all(|b| b.is_ascii_digit())
        };
        if !field {
            break;
        }
        fen_len += 1;
    }
    let fen = words[..fen_len].join(" ");
    let position = Position::from_fen(&fen).map_err(|source| EpdError::Fen { line, source })?;
    let first = words[fen_len..].join(" ");
    let mut entry = SuiteEntry {
        line,
        position,
        counts: Vec::new(),
        id: None,
    };
    for op in std::iter::once(first.as_str()).chain(tail.split(';')) {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        let (code, arg) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
        if code == "id" {
            entry.id = Some(unquote(arg));
        } else if code.starts_with(['D', 'd']) {
            // A depth count, or a mistyped one: never silently dropped.
            let count = parse_count(op).ok_or_else(|| bad_count(line, op))?;
            entry.counts.push(bounded(count, line)?);
        }
        // Any other EPD operation (bm, am, c0, ...) says nothing about perft.
    }
    Ok(entry)
}

fn parse_count(field: &str) -> Option<(u64, u64)> {
    let mut words = field.split_whitespace();
    let depth = words.next()?.strip_prefix('D')?.parse().ok()?;
    let nodes = words.next()?.parse().ok()?;
    words.next().is_none().then_some((depth, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_counts_and_skips_comments() {
        let text = "# source\n\n3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 ;D1 3 ;D2 9\n";
        let suite = parse_suite(text).unwrap();
        assert_eq!(suite.len(), 1);
        assert_eq!(suite[0].line, 3);
        assert_eq!(suite[0].counts, vec![(1, 3), (2, 9)]);
    }

    /// The three forms of a suite read the same position, counts and name.
    #[test]
    fn every_published_form_reads_alike() {
        let fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
        let table: &[(&str, Option<&str>)] = &[
            ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 ;D1 3 ;D2 9", None),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - D1 3; D2 9; id \"two kings\";",
                Some("two kings"),
            ),
            ("3k5/9/9/9/9/9/9/9/9/4K4 w D1 3; bm e0e1; D2 9;", None),
            (
                "id two kings\nepd 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\nperft 1 3\nperft 2 9\n",
                Some("two kings"),
            ),
        ];
        for &(text, id) in table {
            let suite = parse_suite(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(suite.len(), 1, "{text}");
            assert_eq!(suite[0].position.fen(), fen, "{text}");
            assert_eq!(suite[0].counts, vec![(1, 3), (2, 9)], "{text}");
            assert_eq!(suite[0].id.as_deref(), id, "{text}");
            let label = suite[0].label();
            assert_eq!(
                label,
                id.map_or_else(|| format!("suite line {}", suite[0].line), str::to_owned)
            );
        }
        assert!(matches!(
            parse_suite("3k5/9/9/9/9/9/9/9/9/4K4 w - - d1 x;"),
            Err(EpdError::BadCount { .. })
        ));
        assert!(matches!(
            parse_suite("perft 1 3"),
            Err(EpdError::BadCount { line: 1, .. })
        ));
    }

    #[test]
    fn bad_lines_name_their_line() {
        let bad_count = parse_suite("# c\n3k5/9/9/9/9/9/9/9/9/4K4 w ;D1 x").unwrap_err();
        assert_eq!(
            bad_count,
            EpdError::BadCount {
                line: 2,
                field: "D1 x".into()
            }
        );
        assert!(matches!(
            parse_suite("nonsense ;D1 1"),
            Err(EpdError::Fen { line: 1, .. })
        ));
        assert_eq!(parse_suite("# only\n"), Err(EpdError::Empty));
    }
}
