//! Perft suites in EPD form: a FEN, then `;D<depth> <nodes>` for each known depth.

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

/// Reads a suite. `#` starts a comment line; blank lines are skipped.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, EpdError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut parts = trimmed.split(';');
        let fen_text = parts.next().unwrap_or_default();
        let position =
            Position::from_fen(fen_text).map_err(|source| EpdError::Fen { line, source })?;
        let counts = parts
            .map(|field| {
                let (depth, nodes) = parse_count(field).ok_or_else(|| EpdError::BadCount {
                    line,
                    field: field.chars().take(80).collect(),
                })?;
                crate::depth::check(depth)
                    .map(|depth| (depth, nodes))
                    .map_err(|source| EpdError::TooDeep { line, source })
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push(SuiteEntry {
            line,
            position,
            counts,
        });
    }
    if out.is_empty() {
        return Err(EpdError::Empty);
    }
    Ok(out)
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
