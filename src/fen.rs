//! FEN reading and writing, with errors that say which field, rank and character.

use crate::piece::{Color, Piece};
use crate::position::{Position, PositionError, Setup};
use crate::square::{Square, FILES, RANKS};
use std::fmt;

/// The start position.
pub(crate) const START_FEN: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What is wrong with a FEN, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but white space.
    #[error("empty FEN")]
    Empty,
    /// The placement does not have ten ranks.
    #[error("placement has {found} ranks, expected 10")]
    RankCount {
        /// How many `/`-separated ranks there were.
        found: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    #[error("rank {rank}: invalid character {found:?} at column {column}")]
    BadChar {
        /// The board rank (9 is the first one written).
        rank: u8,
        /// 1-based character position within the whole FEN.
        column: usize,
        /// The character.
        found: char,
    },
    /// A rank describes more than nine files.
    #[error("rank {rank}: describes {files} files, more than 9 (at column {column})")]
    RankTooLong {
        /// The board rank.
        rank: u8,
        /// Files described so far.
        files: usize,
        /// 1-based character position where it overflowed.
        column: usize,
    },
    /// A rank describes fewer than nine files.
    #[error("rank {rank}: describes {files} files, expected 9")]
    RankTooShort {
        /// The board rank.
        rank: u8,
        /// Files described.
        files: usize,
    },
    /// No side-to-move field.
    #[error("missing side to move after the placement")]
    MissingSide,
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("side to move {0:?} is not w, r or b")]
    BadSide(String),
    /// The third or fourth field is not `-` (there is no castling or en passant).
    #[error("field {field} is {found:?}, expected '-'")]
    BadDash {
        /// 1-based field number.
        field: usize,
        /// What was there.
        found: String,
    },
    /// A move counter is not a whole number the reader keeps (0 to `u32::MAX`).
    #[error("field {field} ({name}) is {found:?}, not a number from 0 to 4294967295")]
    BadCounter {
        /// 1-based field number.
        field: usize,
        /// `halfmove clock` or `fullmove number`.
        name: &'static str,
        /// What was there.
        found: String,
    },
    /// More than six fields.
    #[error("unexpected text after the fullmove number: {0:?}")]
    TrailingFields(String),
    /// Well-formed, but the position breaks domain rules.
    #[error("{0}")]
    Invalid(#[from] PositionError),
}

/// Reads a FEN into an unchecked setup: syntax only.
pub fn parse_setup(text: &str) -> Result<Setup, FenError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = text.split_whitespace();
    let placement = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty(Color::Red);
    parse_placement(placement, &mut setup)?;

    setup.turn = match fields.next() {
        None => return Err(FenError::MissingSide),
        Some("w" | "W" | "r" | "R") => Color::Red,
        Some("b" | "B") => Color::Black,
        Some(other) => return Err(FenError::BadSide(other.to_owned())),
    };
    for field in 3..=4 {
        match fields.next() {
            None => return Ok(setup),
            Some("-") => {}
            Some(other) => {
                return Err(FenError::BadDash {
                    field,
                    found: other.to_owned(),
                })
            }
        }
    }
    for (field, name) in [(5, "halfmove clock"), (6, "fullmove number")] {
        let Some(found) = fields.next() else {
            return Ok(setup);
        };
        let value = found.parse::<u32>().map_err(|_| FenError::BadCounter {
            field,
            name,
            found: found.to_owned(),
        })?;
        if field == 5 {
            setup.halfmoves = value;
        } else {
            setup.fullmoves = value;
        }
    }
    let rest: Vec<&str> = fields.collect();
    if rest.is_empty() {
        Ok(setup)
    } else {
        Err(FenError::TrailingFields(rest.join(" ")))
    }
}

fn parse_placement(placement: &str, setup: &mut Setup) -> Result<(), FenError> {
    let found = placement.split('/').count();
    if found != RANKS as usize {
        return Err(FenError::RankCount { found });
    }
    // Columns count characters, not bytes, so a stray multi-byte character is pointed at correctly.
    let mut column = 0;
    for (row, rank_text) in placement.split('/').enumerate() {
        let rank = RANKS - 1 - row as u8;
        let mut files = 0usize;
        for c in rank_text.chars() {
            column += 1;
            let (width, piece) = match (c.to_digit(10), Piece::from_char(c)) {
                (Some(d @ 1..=9), _) => (d as usize, None),
                (None, Some(p)) => (1, Some(p)),
                _ => {
                    return Err(FenError::BadChar {
                        rank,
                        column,
                        found: c,
                    })
                }
            };
            if files + width > FILES as usize {
                return Err(FenError::RankTooLong {
                    rank,
                    files: files + width,
                    column,
                });
            }
            if let Some(p) = piece {
                let sq = Square::new(files as u8, rank).unwrap_or_else(|| unreachable!());
                setup.board[sq.index()] = Some(p);
            }
            files += width;
        }
        column += 1; // the '/'
        if files < FILES as usize {
            return Err(FenError::RankTooShort { rank, files });
        }
    }
    Ok(())
}

/// Reads and validates a FEN.
pub fn parse(text: &str) -> Result<Position, FenError> {
    Ok(Position::new(parse_setup(text)?)?)
}

/// Writes the canonical FEN of a setup: `B`/`N` letters, `w`/`b`, both counters.
pub fn format(setup: &Setup) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..RANKS).rev() {
        let mut empty = 0;
        for file in 0..FILES {
            let sq = Square::new(file, rank).unwrap_or_else(|| unreachable!());
            match setup.piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(setup.turn.fen_char());
    out.push_str(&format!(" - - {} {}", setup.halfmoves, setup.fullmoves));
    out
}

// A position's notation is FEN: these live here so that `position` needs nothing of
// the notation and the dependency runs one way.
impl Position {
    /// The start position.
    pub fn startpos() -> Position {
        parse(START_FEN).unwrap_or_else(|_| unreachable!("start FEN is valid"))
    }

    /// Reads and validates a FEN.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        parse(text)
    }

    /// The canonical FEN.
    pub fn fen(&self) -> String {
        format(self.setup())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format(self.setup()))
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let pos = parse(START_FEN).unwrap();
        assert_eq!(pos.fen(), START_FEN);
        assert_eq!(pos.pieces().count(), 32);
    }

    #[test]
    fn aliases_and_short_forms_print_canonically() {
        let table = [
            (
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
                START_FEN,
            ),
            (
                "  3k5/9/9/9/9/9/9/9/9/4K4 b - - 7 30 ",
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 7 30",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - -",
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/22K4 w",
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            ),
        ];
        for (input, canonical) in table {
            let pos = parse(input).unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(pos.fen(), canonical, "{input}");
            assert_eq!(parse(&pos.fen()).unwrap(), pos, "{input}");
        }
    }

    /// Every kind of syntax error, with where it is.
    #[test]
    fn errors_say_what_and_where() {
        let table: [(&str, FenError); 13] = [
            ("", FenError::Empty),
            ("   ", FenError::Empty),
            ("not a fen", FenError::RankCount { found: 1 }),
            ("3k5/9/9/9/9/9/9/9/4K4 w", FenError::RankCount { found: 9 }),
            (
                "3k5/9/9/9/9/9/9/9/9/4X4 w",
                FenError::BadChar {
                    rank: 0,
                    column: 22,
                    found: 'X',
                },
            ),
            (
                "3k5/9/9/9/9/0/9/9/9/4K4 w",
                FenError::BadChar {
                    rank: 4,
                    column: 13,
                    found: '0',
                },
            ),
            (
                "3k6/9/9/9/9/9/9/9/9/4K4 w",
                FenError::RankTooLong {
                    rank: 9,
                    files: 10,
                    column: 3,
                },
            ),
            (
                "3k4/9/9/9/9/9/9/9/9/4K4 w",
                FenError::RankTooShort { rank: 9, files: 8 },
            ),
            ("3k5/9/9/9/9/9/9/9/9/4K4", FenError::MissingSide),
            ("3k5/9/9/9/9/9/9/9/9/4K4 x", FenError::BadSide("x".into())),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 z",
                FenError::BadCounter {
                    field: 6,
                    name: "fullmove number",
                    found: "z".into(),
                },
            ),
            // One past the largest counter kept, and a negative one.
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 4294967296 1",
                FenError::BadCounter {
                    field: 5,
                    name: "halfmove clock",
                    found: "4294967296".into(),
                },
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 -1",
                FenError::BadCounter {
                    field: 6,
                    name: "fullmove number",
                    found: "-1".into(),
                },
            ),
        ];
        for (input, expected) in table {
            assert_eq!(parse(input).unwrap_err(), expected, "{input:?}");
        }
        // The largest counters are kept whole, with either side to move.
        let top = "3k5/9/9/9/9/9/9/9/9/4K4 b - - 4294967295 4294967295";
        assert_eq!(parse(top).map(|p| p.fen()).as_deref(), Ok(top));
        assert!(matches!(
            parse("3k5/9/9/9/9/9/9/9/9/4K4 w KQ - 0 1"),
            Err(FenError::BadDash { field: 3, .. })
        ));
        assert!(matches!(
            parse("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra"),
            Err(FenError::TrailingFields(_))
        ));
        assert!(matches!(
            parse("3k5/9/9/9/9/9/9/9/9/3K5 w"),
            Err(FenError::Invalid(_))
        ));
    }

    #[test]
    fn messages_name_the_problem() {
        let msg = parse("3k5/9/9/9/9/9/9/9/9/4X4 w").unwrap_err().to_string();
        assert_eq!(msg, "rank 0: invalid character 'X' at column 22");
    }

    #[test]
    fn odd_bytes_never_panic() {
        let inputs = [
            "é/é/é/é/é/é/é/é/é/é w",
            "//////////",
            "9/9/9/9/9/9/9/9/9/9 w - - 99999999999 1",
            "\u{0}",
            "1111111111/9/9/9/9/9/9/9/9/9 w",
            "k/////////K w",
        ];
        for input in inputs {
            assert!(parse(input).is_err(), "{input:?}");
        }
    }
}
