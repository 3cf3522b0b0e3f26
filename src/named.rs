//! Reading a setting's value back from its name: the one way every hand-kept enum (a
//! protocol, a check, a planted bug) is read, with a typed error that says what was
//! given and every name it could have been.

use std::fmt;

/// A name that names none of the values a setting takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What the name was to name (`protocol`, `check`).
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names it could have been, in order.
    pub expected: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} {:?}: expected ", self.what, self.given)?;
        match self.expected.split_last() {
            None => f.write_str("nothing"),
            Some((last, [])) => f.write_str(last),
            Some((last, rest)) => write!(f, "{} or {last}", rest.join(", ")),
        }
    }
}

impl std::error::Error for UnknownName {}

/// The one of `values` whose name (`name` of it) is `given`; a typed error naming `what`
/// and every value's name when none is.
pub fn by_name<T: Copy>(
    what: &'static str,
    given: &str,
    values: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, UnknownName> {
    values
        .iter()
        .copied()
        .find(|&v| name(v) == given)
        .ok_or_else(|| UnknownName {
            what,
            given: given.to_owned(),
            expected: values.iter().map(|&v| name(v)).collect(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_name_says_every_name_it_could_have_been() {
        let table: [(&str, &[&str], &str); 3] = [
            ("a", &["a"], "unknown size \"x\": expected a"),
            ("b", &["a", "b"], "unknown size \"x\": expected a or b"),
            (
                "c",
                &["a", "b", "c"],
                "unknown size \"x\": expected a, b or c",
            ),
        ];
        for (last, names, said) in table {
            let err = by_name("size", "x", names, |n| n).unwrap_err();
            assert_eq!(err.to_string(), said);
            assert_eq!(by_name("size", last, names, |n| n), Ok(last));
        }
    }
}
