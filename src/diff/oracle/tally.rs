//! The one way answers given as move lists are compared: a move list, or a divide (a
//! count per move), becomes a [`Tally`] that keeps how often each move was listed, so a
//! move listed twice is an answer of its own rather than something a set or a map
//! quietly collapses. The oracle, the perft descent, the check's perft phase, the engine
//! check and the split frontier all compare through [`compare`].

use super::OnlyIn;
use crate::moves::Move;

/// One move of a tally.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    /// The move.
    pub mv: Move,
    /// How many times it was listed.
    pub times: u32,
    /// Its counts summed over every listing (for a plain list, `times`).
    pub count: u64,
}

/// A move list or divide, each move once with how often it came and its summed count,
/// sorted by move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    rows: Vec<Row>,
}

impl Tally {
    /// A plain move list: each listing counts one.
    pub(crate) fn of_moves(moves: &[Move]) -> Tally {
        Tally::of_divide(moves.iter().map(|&mv| (mv, 1)))
    }

    /// A divide: per-move counts, in any order.
    pub(crate) fn of_divide(divide: impl IntoIterator<Item = (Move, u64)>) -> Tally {
        let mut pairs: Vec<(Move, u64)> = divide.into_iter().collect();
        pairs.sort_unstable_by_key(|&(mv, _)| mv);
        let mut rows: Vec<Row> = Vec::with_capacity(pairs.len());
        for (mv, n) in pairs {
            match rows.last_mut() {
                Some(last) if last.mv == mv => {
                    last.times += 1;
                    last.count = last.count.saturating_add(n);
                }
                _ => rows.push(Row {
                    mv,
                    times: 1,
                    count: n,
                }),
            }
        }
        Tally { rows }
    }

    /// Every move once, sorted.
    pub(crate) fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The row of `mv`.
    pub(crate) fn get(&self, mv: Move) -> Option<&Row> {
        self.rows
            .binary_search_by_key(&mv, |r| r.mv)
            .ok()
            .map(|i| &self.rows[i])
    }

    /// Whether `mv` was listed at all.
    pub(crate) fn contains(&self, mv: Move) -> bool {
        self.get(mv).is_some()
    }

    /// The distinct moves, sorted.
    pub(crate) fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.rows.iter().map(|r| r.mv)
    }

    /// The moves listed more than once.
    pub(crate) fn repeated(&self) -> impl Iterator<Item = Move> + '_ {
        self.repeated_times().map(|(mv, _)| mv)
    }

    /// The moves listed more than once, with how many times each.
    pub(crate) fn repeated_times(&self) -> impl Iterator<Item = (Move, u32)> + '_ {
        self.rows
            .iter()
            .filter(|r| r.times > 1)
            .map(|r| (r.mv, r.times))
    }
}

/// Where tallies of one question, one per answerer, differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Differences {
    /// Moves not every answerer lists, with who does.
    pub only_in: Vec<OnlyIn>,
    /// Moves some answerer lists more than once, with who does.
    pub repeated: Vec<OnlyIn>,
    /// Moves every answerer lists exactly once, whose counts differ.
    pub counts_differ: Vec<Move>,
}

impl Differences {
    /// Whether the answers are the same.
    pub(crate) fn is_empty(&self) -> bool {
        self.only_in.is_empty() && self.repeated.is_empty() && self.counts_differ.is_empty()
    }
}

/// Compares one tally per answerer (`names[i]` gave `tallies[i]`).
pub(crate) fn compare(names: &[&str], tallies: &[&Tally]) -> Differences {
    let mut out = Differences::default();
    // The common case, everything the same, costs one pass.
    if tallies.windows(2).all(|w| w[0] == w[1])
        && tallies.iter().all(|t| t.repeated().next().is_none())
    {
        return out;
    }
    let mut every: Vec<Move> = tallies.iter().flat_map(|t| t.moves()).collect();
    every.sort_unstable();
    every.dedup();
    for mv in every {
        let rows: Vec<Option<&Row>> = tallies.iter().map(|t| t.get(mv)).collect();
        let names_where = |keep: fn(Option<&Row>) -> bool| -> Vec<String> {
            names
                .iter()
                .zip(&rows)
                .filter(|(_, r)| keep(**r))
                .map(|(n, _)| n.to_string())
                .collect()
        };
        if rows.iter().any(Option::is_none) {
            out.only_in.push(OnlyIn {
                mv,
                has: names_where(|r| r.is_some()),
                times: 1,
            });
        }
        // One entry per number of listings, so each says exactly how often its
        // generators list the move.
        let mut times: Vec<u32> = rows.iter().flatten().map(|r| r.times).collect();
        times.sort_unstable();
        times.dedup();
        for t in times.into_iter().filter(|&t| t > 1) {
            let has = names
                .iter()
                .zip(&rows)
                .filter(|(_, r)| r.is_some_and(|r| r.times == t))
                .map(|(n, _)| n.to_string())
                .collect();
            out.repeated.push(OnlyIn { mv, has, times: t });
        }
        if rows.iter().all(|r| r.is_some_and(|r| r.times == 1))
            && rows
                .windows(2)
                .any(|w| w[0].map(|r| r.count) != w[1].map(|r| r.count))
        {
            out.counts_differ.push(mv);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    /// Each row: two answers (moves with counts), then the moves only some have, the
    /// moves some list twice, and the moves whose counts differ.
    #[test]
    fn repeats_are_kept_and_named() {
        type Answer = &'static [(&'static str, u64)];
        type Moves = &'static [&'static str];
        let table: &[(Answer, Answer, Moves, Moves, Moves)] = &[
            (
                &[("h2e2", 5), ("b0c2", 3)],
                &[("b0c2", 3), ("h2e2", 5)],
                &[],
                &[],
                &[],
            ),
            (
                &[("h2e2", 5)],
                &[("h2e2", 5), ("h2e2", 5)],
                &[],
                &["h2e2"],
                &[],
            ),
            (
                &[("h2e2", 5)],
                &[("h2e2", 4), ("a3a4", 1)],
                &["a3a4"],
                &[],
                &["h2e2"],
            ),
            (
                &[("h2e2", 1), ("h2e2", 1)],
                &[("h2e2", 2)],
                &[],
                &["h2e2"],
                &[],
            ),
            (&[("h2e2", 5)], &[("h2e2", 4)], &[], &[], &["h2e2"]),
        ];
        for &(a, b, only, twice, counts) in table {
            let ta = Tally::of_divide(a.iter().map(|&(m, n)| (mv(m), n)));
            let tb = Tally::of_divide(b.iter().map(|&(m, n)| (mv(m), n)));
            let d = compare(&["a", "b"], &[&ta, &tb]);
            let moves = |v: &[OnlyIn]| v.iter().map(|o| o.mv.to_string()).collect::<Vec<_>>();
            assert_eq!(moves(&d.only_in), only, "{a:?} {b:?}");
            assert_eq!(moves(&d.repeated), twice, "{a:?} {b:?}");
            let differ: Vec<String> = d.counts_differ.iter().map(Move::to_string).collect();
            assert_eq!(differ, counts, "{a:?} {b:?}");
            assert_eq!(
                d.is_empty(),
                only.is_empty() && twice.is_empty() && counts.is_empty()
            );
        }
        let t = Tally::of_moves(&[mv("h2e2"), mv("h2e2"), mv("a3a4")]);
        assert_eq!(t.moves().count(), 2);
        // A repeat names who repeats it, not who lists it once.
        let once = Tally::of_moves(&[mv("h2e2")]);
        let d = compare(&["a", "b", "c"], &[&once, &t, &once]);
        assert_eq!(d.repeated[0].has, ["b"]);
        assert_eq!(t.repeated().collect::<Vec<_>>(), vec![mv("h2e2")]);
    }
}
