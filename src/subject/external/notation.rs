//! Move and FEN text as engines write them: ranks counted from 0 or from 1, an
//! optional piece letter and `-` or `x` between the squares (`Ch2xh9`), and `H`/`E`
//! instead of `N`/`B` for horse and elephant in FEN, with or without the castling and
//! en passant fields.

use super::{FenLetters, Ranks};
use crate::fen::START_FEN;
use crate::moves::Move;
use crate::square::Square;

/// A move as the engine wrote it, before its rank numbering is applied: files 0-8 and
/// the rank number exactly as written (0-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawMove {
    from: (u8, u8),
    to: (u8, u8),
}

/// Letters an engine may put before a move's from-square, in either case.
const PIECE_LETTERS: &str = "KAEBHNRCP";

impl RawMove {
    /// Reads `h2e2`, `b3b10`, `H2-E2`, `Ch2-e2` or `Ch2xh9`, with an optional trailing `:`,
    /// or `+` or `#` (check and mate, in HoiXiangqi's lists).
    pub(crate) fn parse(token: &str) -> Option<RawMove> {
        let t = token.strip_suffix(':').unwrap_or(token);
        let t = t.strip_suffix(['+', '#']).unwrap_or(t);
        let b = t.as_bytes();
        let has_piece_letter = b.len() > 1
            && PIECE_LETTERS.contains(char::from(b[0]).to_ascii_uppercase())
            && b[1].is_ascii_alphabetic();
        let body = if has_piece_letter { &t[1..] } else { t };
        let (from, rest) = square(body)?;
        let rest = rest.strip_prefix(['-', 'x']).unwrap_or(rest);
        let (to, rest) = square(rest)?;
        rest.is_empty().then_some(RawMove { from, to })
    }

    /// The move under a numbering (`Zero` or `One`; `Auto` reads as `Zero`), or `None`
    /// when a rank is off the board under it.
    pub(crate) fn to_move(self, ranks: Ranks) -> Option<Move> {
        let sq = |(file, rank): (u8, u8)| {
            let rank = match ranks {
                Ranks::One => rank.checked_sub(1)?,
                Ranks::Zero | Ranks::Auto => rank,
            };
            Square::new(file, rank)
        };
        Some(Move::new(sq(self.from)?, sq(self.to)?))
    }
}

/// A file letter followed by one or two digits (no leading zero), and what follows.
fn square(s: &str) -> Option<((u8, u8), &str)> {
    let b = s.as_bytes();
    let file = b.first()?.to_ascii_lowercase().checked_sub(b'a')?;
    if file >= 9 {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || (digits == 2 && b[1] == b'0') {
        return None;
    }
    let rank: u8 = s[1..1 + digits].parse().ok()?;
    (rank <= 10).then_some(((file, rank), &s[1 + digits..]))
}

/// Whether a token that did not read as a move was probably meant as one (a letter,
/// then something with a digit, short): such a token in a count line is garbage, while
/// other words with numbers after them are chatter to ignore.
pub(crate) fn looks_like_move(token: &str) -> bool {
    let t = token.strip_suffix(':').unwrap_or(token);
    (3..=8).contains(&t.len())
        && t.starts_with(|c: char| c.is_ascii_alphabetic())
        && t.bytes().any(|c| c.is_ascii_digit())
        && t.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
}

/// `mv` as an engine writes it: ICCS with ranks shifted for a 1-based engine (the one
/// home of that text, which `xqdiff perft --ranks 1` prints too).
pub(crate) fn format_move(mv: Move, ranks: Ranks) -> String {
    let shift = u8::from(ranks == Ranks::One);
    let sq = |s: Square| format!("{}{}", char::from(b'a' + s.file()), s.rank() + shift);
    format!("{}{}", sq(mv.from), sq(mv.to))
}

/// `fen` (xqdiff's own, with `N`/`B`) in the engine's letters. Only the placement is
/// rewritten: the side-to-move field's `b` means Black.
pub(crate) fn fen_with_letters(fen: &str, letters: FenLetters) -> String {
    if letters != FenLetters::HE {
        return fen.to_string();
    }
    let (placement, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let placement: String = placement
        .chars()
        .map(|c| match c {
            'N' => 'H',
            'n' => 'h',
            'B' => 'E',
            'b' => 'e',
            c => c,
        })
        .collect();
    if rest.is_empty() {
        placement
    } else {
        format!("{placement} {rest}")
    }
}

/// The fields an engine's FEN has after the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum FenFields {
    /// Castling and en passant (`- -`), then the two move counters: xqdiff's own.
    #[default]
    Full,
    /// Only the two move counters (`w 0 1`), as HoiXiangqi writes and reads: Xiangqi
    /// has neither castling nor en passant.
    Counters,
}

/// How an engine writes a position: its horse and elephant letters and its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FenDialect {
    pub(crate) letters: FenLetters,
    pub(crate) fields: FenFields,
}

impl FenDialect {
    /// `fen`, xqdiff's own, as the engine writes it. The position is the same: only
    /// letters are swapped and always-empty fields dropped.
    pub(crate) fn write(self, fen: &str) -> String {
        let fen = fen_with_letters(fen, self.letters);
        let words: Vec<&str> = fen.split_whitespace().collect();
        match (self.fields, &words[..]) {
            (FenFields::Counters, [placement, side, _castling, _en_passant, half, full]) => {
                format!("{placement} {side} {half} {full}")
            }
            _ => fen,
        }
    }

    /// The dialect in which `theirs`, the engine's own FEN of the start position, is
    /// the start position; or what does not read in it. What an engine prints about a
    /// position does not depend on its move generation, so no rule bug can change it.
    pub(crate) fn of_start(theirs: &str) -> Result<FenDialect, String> {
        let words: Vec<&str> = theirs.split_whitespace().collect();
        let ours: Vec<&str> = START_FEN.split_whitespace().collect();
        let (Some(&placement), Some(side)) = (words.first(), words.get(1)) else {
            return Err(format!("{theirs:?} is not a FEN"));
        };
        let letters = [FenLetters::NB, FenLetters::HE]
            .into_iter()
            .find(|&l| fen_with_letters(ours[0], l) == placement)
            .ok_or_else(|| {
                format!(
                    "its start position {placement:?} is neither {:?} nor {:?}",
                    ours[0],
                    fen_with_letters(ours[0], FenLetters::HE)
                )
            })?;
        let fields = match &words[1..] {
            rest if rest == &ours[1..] => FenFields::Full,
            [_, half, full] if *side == ours[1] && [*half, *full] == ours[4..] => {
                FenFields::Counters
            }
            _ => {
                return Err(format!(
                    "its fields after the placement, {:?}, are neither {:?} nor {:?}",
                    words[1..].join(" "),
                    ours[1..].join(" "),
                    [ours[1], ours[4], ours[5]].join(" ")
                ))
            }
        };
        Ok(FenDialect { letters, fields })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_move_tokens_read_under_both_numberings() {
        // token, as 0-based, as 1-based
        let cases: &[(&str, Option<&str>, Option<&str>)] = &[
            ("h2e2", Some("h2e2"), Some("h1e1")),
            ("h2e2:", Some("h2e2"), Some("h1e1")),
            ("b3b10", None, Some("b2b9")),
            ("a0a1", Some("a0a1"), None),
            ("H2-E2", Some("h2e2"), Some("h1e1")),
            ("Ch2-e2", Some("h2e2"), Some("h1e1")),
            ("Ch2xh9", Some("h2h9"), Some("h1h8")),
            ("Ec0-e2", Some("c0e2"), None),
            ("ab0a1", Some("b0a1"), None),
            ("Hb0-a2", Some("b0a2"), None),
            ("Cb7xb0+", Some("b7b0"), None),
            ("Rd1-d10#", None, Some("d0d9")),
        ];
        for &(token, zero, one) in cases {
            let raw = RawMove::parse(token).unwrap_or_else(|| panic!("{token} unread"));
            let show = |r| raw.to_move(r).map(|m| m.to_string());
            assert_eq!(show(Ranks::Zero).as_deref(), zero, "{token} 0-based");
            assert_eq!(show(Ranks::One).as_deref(), one, "{token} 1-based");
        }
        for bad in [
            "", "h2", "h2e", "j2e2", "h2z2", "h11e2", "h02e2", "h2e2x", "Xh2e2", "h2--e2", "é2e2",
            "Nodes", "45", "h2e2++", "h2e2+#", "+",
        ] {
            assert_eq!(RawMove::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn move_like_tokens_are_told_from_words() {
        for yes in ["h2z2", "z9z9:", "Qh2-e2", "h11e2"] {
            assert!(looks_like_move(yes), "{yes}");
        }
        for no in ["Nodes", "Time:", "45", "readyok", "h2", "#", "info"] {
            assert!(!looks_like_move(no), "{no}");
        }
    }

    #[test]
    fn moves_are_written_in_the_engine_numbering() {
        let mv: Move = "b2b9".parse().unwrap();
        assert_eq!(format_move(mv, Ranks::Zero), "b2b9");
        assert_eq!(format_move(mv, Ranks::One), "b3b10");
    }

    #[test]
    fn fen_letters_change_only_the_placement() {
        assert_eq!(fen_with_letters(START_FEN, FenLetters::NB), START_FEN);
        assert_eq!(
            fen_with_letters(START_FEN, FenLetters::HE),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
        );
        let black = "4k4/9/9/9/9/9/9/9/4N4/3BK4 b - - 0 1";
        assert_eq!(
            fen_with_letters(black, FenLetters::HE),
            "4k4/9/9/9/9/9/9/9/4H4/3EK4 b - - 0 1"
        );
    }

    #[test]
    fn fens_are_written_in_the_engines_dialect() {
        let he = |fields| FenDialect {
            letters: FenLetters::HE,
            fields,
        };
        let nb = |fields| FenDialect {
            letters: FenLetters::NB,
            fields,
        };
        // xqdiff's FEN, dialect, the engine's.
        let cases = [
            (START_FEN, nb(FenFields::Full), START_FEN),
            (
                START_FEN,
                he(FenFields::Counters),
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1",
            ),
            (
                START_FEN,
                nb(FenFields::Counters),
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w 0 1",
            ),
            // Black to move: the side's `b` stays a `b`.
            (
                "4k4/9/9/9/9/9/9/9/4N4/3BK4 b - - 0 1",
                he(FenFields::Counters),
                "4k4/9/9/9/9/9/9/9/4H4/3EK4 b 0 1",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 b - - 7 31",
                he(FenFields::Counters),
                "3k5/9/9/9/9/9/9/9/9/4K4 b 7 31",
            ),
            (
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
                he(FenFields::Full),
                "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            ),
        ];
        for (ours, dialect, theirs) in cases {
            assert_eq!(dialect.write(ours), theirs, "{ours} in {dialect:?}");
        }
    }

    #[test]
    fn the_dialect_is_read_from_the_engines_own_start_fen() {
        let full = "w - - 0 1";
        let cases: &[(&str, Option<(FenLetters, FenFields)>)] = &[
            (START_FEN, Some((FenLetters::NB, FenFields::Full))),
            (
                "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1",
                Some((FenLetters::HE, FenFields::Counters)),
            ),
            (
                &*format!("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR {full}"),
                Some((FenLetters::HE, FenFields::Full)),
            ),
            // Another letter set, the board upside down, black to move, a field too many
            // or too few: none reads as the start position.
            (
                "rmbakabmr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RMBAKABMR w 0 1",
                None,
            ),
            (
                "RNBAKABNR/9/1C5C1/P1P1P1P1P/9/9/p1p1p1p1p/1c5c1/9/rnbakabnr w - - 0 1",
                None,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
                None,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - 0 1",
                None,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                None,
            ),
            ("", None),
        ];
        for (theirs, expected) in cases {
            let got = FenDialect::of_start(theirs).map(|d| (d.letters, d.fields));
            assert_eq!(got.ok(), *expected, "{theirs:?}");
        }
    }
}
