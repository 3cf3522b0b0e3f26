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

/// Gives a hand-kept enum its names from one list: `as_str`, `ALL` in the list's order,
/// and `FromStr` through [`by_name`]. The match is exhaustive, so a value added to the
/// enum without a name does not compile, and no value can be read back as another.
macro_rules! names {
    ($ty:ident, $what:literal { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every value, in the order of its names.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The value's name, as its flag takes it and reports show it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl std::str::FromStr for $ty {
            type Err = $crate::named::UnknownName;
            fn from_str(s: &str) -> Result<$ty, Self::Err> {
                $crate::named::by_name($what, s, $ty::ALL, $ty::as_str)
            }
        }
    };
}
pub(crate) use names;

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
