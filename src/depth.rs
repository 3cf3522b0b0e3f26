//! Perft depth, bounded by contract: every entry point (flags, suites, split jobs, the
//! engine check) refuses a depth beyond [`MAX_DEPTH`] with a one-line error, so no
//! input can recurse past the stack. The bound is far above any depth that finishes
//! (depth 9 from the start position is tens of billions of nodes) and far below what a
//! thread's stack holds.

/// The deepest perft xqdiff runs.
pub(crate) const MAX_DEPTH: u32 = 64;

/// A depth xqdiff does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DepthError {
    /// A depth beyond [`MAX_DEPTH`].
    #[error("depth {depth} is beyond the deepest perft xqdiff runs ({MAX_DEPTH})")]
    Beyond {
        /// The depth asked for (saturated at `u64::MAX`).
        depth: u64,
    },
    /// Text that is not a whole number.
    #[error("{shown:?} is not a depth (a whole number)")]
    NotANumber {
        /// The text given, cut to its first 40 characters.
        shown: String,
    },
}

/// `depth` as a perft depth, if it is within the bound.
pub(crate) fn check(depth: u64) -> Result<u32, DepthError> {
    u32::try_from(depth)
        .ok()
        .filter(|&d| d <= MAX_DEPTH)
        .ok_or(DepthError::Beyond { depth })
}

/// Reads a depth from text, as a flag's value parser: a whole number within the bound.
pub(crate) fn parse(text: &str) -> Result<u32, DepthError> {
    let t = text.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        // All digits, so only the size can fail.
        return check(t.parse::<u64>().unwrap_or(u64::MAX));
    }
    Err(DepthError::NotANumber {
        shown: t.chars().take(40).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_within_the_bound_are_taken_and_others_refused() {
        let table: &[(&str, Option<u32>)] = &[
            ("0", Some(0)),
            ("7", Some(7)),
            ("64", Some(64)),
            ("65", None),
            ("100000", None),
            ("99999999999999999999999", None),
            ("-1", None),
            ("x", None),
            ("", None),
        ];
        for &(text, want) in table {
            assert_eq!(parse(text).ok(), want, "{text:?}");
        }
    }
}
