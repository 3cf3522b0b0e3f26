//! The known list: the bugs a run is told about beforehand, read once, so every phase
//! and command reports them as known and none fails a run on them.

use crate::diff::signature::{parse_known, KnownError, Signature, STALE_BOARD};
use std::collections::BTreeSet;

/// The bugs a run is told about beforehand (`--known FILE`), read once into a set. A
/// known bug is reported as known, never fails a run and never counts toward a limit
/// on findings, in every phase and command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    signatures: BTreeSet<String>,
}

/// The names the two state checks had before they shared [`STALE_BOARD`]: a known list
/// written then still matches.
const OLD_STALE_NAMES: [&str; 2] = ["reused-board", "walked-board"];

impl Known {
    /// Reads a known-bugs file's text (one signature a line, a note after it).
    pub fn parse(text: &str) -> Result<Known, KnownError> {
        Ok(parse_known(text)?
            .into_iter()
            .map(|(sig, _)| sig)
            .collect::<Known>())
    }

    /// Whether the list names `signature` (under its name, or a name it had before).
    pub fn contains(&self, signature: &Signature) -> bool {
        self.signatures.contains(&signature.to_string())
    }

    /// Whether the list names a finding called `signature` whose sightings showed
    /// `symptoms`: by its cause, or by any of its move-class signatures (what a list
    /// written before findings were named by their causes holds).
    pub fn names<'a>(
        &self,
        signature: &Signature,
        symptoms: impl IntoIterator<Item = &'a Signature>,
    ) -> bool {
        self.contains(signature) || symptoms.into_iter().any(|s| self.contains(s))
    }

    /// How many signatures the list holds.
    pub fn len(&self) -> usize {
        self.signatures.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.signatures.is_empty()
    }
}

impl<S: AsRef<str>> FromIterator<S> for Known {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Known {
        let canonical = |s: &str| -> String {
            for old in OLD_STALE_NAMES {
                if let Some(rest) = s.strip_prefix(old).filter(|r| r.starts_with('/')) {
                    return format!("{STALE_BOARD}{rest}");
                }
            }
            s.to_owned()
        };
        Known {
            signatures: iter.into_iter().map(|s| canonical(s.as_ref())).collect(),
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_list_matches_old_state_check_names() {
        let known: Known = ["reused-board/mailbox", "legal/naive/extra-horse-leg"]
            .into_iter()
            .collect();
        let stale = Signature::plain(STALE_BOARD, "mailbox");
        assert!(known.contains(&stale));
        assert!(!known.contains(&Signature::plain(STALE_BOARD, "naive")));
        assert!(!known.contains(&Signature::plain("in-check", "mailbox")));
        assert_eq!(known.len(), 2);
    }
}
