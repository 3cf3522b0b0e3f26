//! The three-way oracle: everything the generators say about one position, compared.
//!
//! A disagreement is a value, not a panic: which check, which generators took part, the
//! moves only some of them have, and, by majority vote, the odd one out.

use crate::engine::{Engine, Probe};
use crate::moves::Move;
use crate::position::{Position, Setup};
use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

/// What was compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheckKind {
    /// Loading the position into a generator's board and reading it back changed it.
    RoundTrip,
    /// Whether the side to move is in check.
    InCheck,
    /// The pseudo-legal move sets.
    PseudoLegal,
    /// The legal move sets.
    Legal,
    /// What a legal move captures.
    Captured,
    /// The position after making a legal move.
    AfterMake,
    /// A legal move led to a position that breaks the domain rules.
    AfterMakeInvalid,
    /// Make then unmake did not give back the position.
    Unmake,
    /// Mirroring files a <-> i did not mirror a generator's moves.
    Mirror,
    /// Swapping colours and ranks r <-> 9-r did not map a generator's moves.
    ColorSwap,
}

impl CheckKind {
    /// Every kind, in the order the oracle runs them.
    pub const ALL: [CheckKind; 10] = [
        CheckKind::RoundTrip,
        CheckKind::InCheck,
        CheckKind::PseudoLegal,
        CheckKind::Legal,
        CheckKind::Captured,
        CheckKind::AfterMake,
        CheckKind::AfterMakeInvalid,
        CheckKind::Unmake,
        CheckKind::Mirror,
        CheckKind::ColorSwap,
    ];

    /// The name used in reports and corpus files.
    pub const fn as_str(self) -> &'static str {
        match self {
            CheckKind::RoundTrip => "round-trip",
            CheckKind::InCheck => "in-check",
            CheckKind::PseudoLegal => "pseudo-legal",
            CheckKind::Legal => "legal",
            CheckKind::Captured => "captured",
            CheckKind::AfterMake => "after-make",
            CheckKind::AfterMakeInvalid => "after-make-invalid",
            CheckKind::Unmake => "unmake",
            CheckKind::Mirror => "mirror",
            CheckKind::ColorSwap => "color-swap",
        }
    }
}

impl fmt::Display for CheckKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CheckKind {
    type Err = String;
    fn from_str(s: &str) -> Result<CheckKind, String> {
        CheckKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("unknown check {s:?}"))
    }
}

/// A move that some generators have and others lack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnlyIn {
    /// The move.
    pub mv: Move,
    /// The generators that have it.
    pub has: Vec<String>,
}

/// One way the generators disagree on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// What was compared.
    pub check: CheckKind,
    /// The position, as FEN.
    pub fen: String,
    /// The generators compared.
    pub generators: Vec<String>,
    /// The one generator that differs from all others, when there is one.
    pub odd_one_out: Option<String>,
    /// For move-set checks, the moves not every generator has.
    pub only_in: Vec<OnlyIn>,
    /// A sentence on what differs.
    pub detail: String,
}

impl Disagreement {
    /// Whether `other` is the same failure: same check, same odd generator (or the
    /// same set of generators where there is no odd one). The minimizer keeps a smaller
    /// position only if it still shows the same disagreement.
    pub fn same_kind(&self, other: &Disagreement) -> bool {
        self.check == other.check
            && self.odd_one_out == other.odd_one_out
            && self.generators == other.generators
    }
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} disagreement on {}", self.check, self.fen)?;
        if let Some(odd) = &self.odd_one_out {
            write!(f, " (odd one out: {odd})")?;
        }
        write!(f, ": {}", self.detail)
    }
}

/// Groups `values` by equality and names the odd one out: the single generator whose
/// value differs from every other, while the others all agree. `None` when all agree.
fn vote<T: PartialEq>(values: &[(&str, T)]) -> Option<Option<String>> {
    if values.iter().all(|(_, v)| *v == values[0].1) {
        return None;
    }
    let odd = values.iter().enumerate().find_map(|(i, (name, v))| {
        let others: Vec<&T> = values
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, (_, w))| w)
            .collect();
        (others.len() >= 2 && others.iter().all(|w| **w == *others[0]) && *others[0] != *v)
            .then(|| name.to_string())
    });
    Some(odd)
}

struct Run<'a> {
    names: Vec<&'a str>,
    fen: String,
    out: Vec<Disagreement>,
}

impl Run<'_> {
    fn push(
        &mut self,
        check: CheckKind,
        odd: Option<String>,
        only_in: Vec<OnlyIn>,
        detail: String,
    ) {
        self.out.push(Disagreement {
            check,
            fen: self.fen.clone(),
            generators: self.names.iter().map(|s| s.to_string()).collect(),
            odd_one_out: odd,
            only_in,
            detail,
        });
    }

    /// Compares one value per generator and records a disagreement if they differ.
    fn compare<T: PartialEq + fmt::Debug>(&mut self, check: CheckKind, values: Vec<T>, what: &str) {
        let named: Vec<(&str, T)> = self.names.iter().copied().zip(values).collect();
        if let Some(odd) = vote(&named) {
            let detail = named
                .iter()
                .map(|(n, v)| format!("{n}: {v:?}"))
                .collect::<Vec<_>>()
                .join(", ");
            self.push(check, odd, Vec::new(), format!("{what}: {detail}"));
        }
    }

    /// Compares move sets and lists the moves not all generators have.
    fn compare_sets(&mut self, check: CheckKind, sets: Vec<BTreeSet<Move>>) {
        let named: Vec<(&str, BTreeSet<Move>)> = self.names.iter().copied().zip(sets).collect();
        let Some(odd) = vote(&named) else { return };
        let union: BTreeSet<Move> = named.iter().flat_map(|(_, s)| s.iter().copied()).collect();
        let only_in: Vec<OnlyIn> = union
            .into_iter()
            .filter(|mv| !named.iter().all(|(_, s)| s.contains(mv)))
            .map(|mv| OnlyIn {
                mv,
                has: named
                    .iter()
                    .filter(|(_, s)| s.contains(&mv))
                    .map(|(n, _)| n.to_string())
                    .collect(),
            })
            .collect();
        let detail = only_in
            .iter()
            .map(|o| format!("{} only in {}", o.mv, o.has.join("+")))
            .collect::<Vec<_>>()
            .join(", ");
        self.push(check, odd, only_in, detail);
    }
}

/// Runs every check on `pos` with `engines` (normally the whole registry) and returns
/// every disagreement found; empty when all agree.
pub fn check_position(pos: &Position, engines: &[&dyn Engine]) -> Vec<Disagreement> {
    let probes: Vec<Probe> = engines.iter().map(|g| g.probe(pos)).collect();
    let mut run = Run {
        names: engines.iter().map(|g| g.name()).collect(),
        fen: pos.fen(),
        out: Vec::new(),
    };
    let start = pos.setup();

    self_checks(&mut run, &probes, start);
    run.compare(
        CheckKind::InCheck,
        probes.iter().map(|p| p.in_check).collect(),
        "in check",
    );
    run.compare_sets(
        CheckKind::PseudoLegal,
        probes
            .iter()
            .map(|p| p.pseudo_legal.iter().copied().collect())
            .collect(),
    );
    run.compare_sets(
        CheckKind::Legal,
        probes
            .iter()
            .map(|p| p.legal_moves().into_iter().collect())
            .collect(),
    );

    // Per-move comparisons only over moves every generator agrees are legal; the
    // others are already reported above.
    let common: BTreeSet<Move> = probes
        .iter()
        .map(|p| p.legal_moves().into_iter().collect::<BTreeSet<_>>())
        .reduce(|a, b| a.intersection(&b).copied().collect())
        .unwrap_or_default();
    for &mv in &common {
        let lookup = |p: &Probe| p.legal.iter().find(|l| l.mv == mv).cloned();
        let rows: Vec<_> = probes.iter().filter_map(lookup).collect();
        run.compare(
            CheckKind::Captured,
            rows.iter().map(|l| l.captured).collect(),
            &format!("{mv} captures"),
        );
        let afters: Vec<String> = rows.iter().map(|l| l.after.to_string()).collect();
        run.compare(CheckKind::AfterMake, afters, &format!("after {mv}"));
    }
    for (i, p) in probes.iter().enumerate() {
        // The side that just moved may not be left in check, so after a legal move the
        // position must be valid; validation's own detector is a fourth opinion.
        if let Some(bad) = p
            .legal
            .iter()
            .find(|l| Position::new(l.after.clone()).is_err())
        {
            let why = Position::new(bad.after.clone())
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            run.push(
                CheckKind::AfterMakeInvalid,
                Some(run.names[i].to_string()),
                vec![OnlyIn {
                    mv: bad.mv,
                    has: vec![run.names[i].to_string()],
                }],
                format!(
                    "{} after {} gives {}: {why}",
                    run.names[i], bad.mv, bad.after
                ),
            );
        }
    }
    metamorphic(&mut run, engines, pos, &probes);
    run.out
}

/// Checks each generator can make on its own: reading back, unmake.
fn self_checks(run: &mut Run<'_>, probes: &[Probe], start: &Setup) {
    for (i, p) in probes.iter().enumerate() {
        let name = run.names[i].to_string();
        if p.round_trip != *start {
            let detail = format!("{name} reads back {}", p.round_trip);
            run.push(CheckKind::RoundTrip, Some(name.clone()), Vec::new(), detail);
        }
        if let Some(bad) = p.legal.iter().find(|l| l.unmade != *start) {
            let detail = format!("{name}: make+unmake {} gives {}", bad.mv, bad.unmade);
            let only = vec![OnlyIn {
                mv: bad.mv,
                has: vec![name.clone()],
            }];
            run.push(CheckKind::Unmake, Some(name), only, detail);
        }
    }
}

/// Mirror and colour-swap symmetry, one generator at a time: needs no second opinion.
fn metamorphic(run: &mut Run<'_>, engines: &[&dyn Engine], pos: &Position, probes: &[Probe]) {
    type Map = fn(Move) -> Move;
    let transforms: [(CheckKind, Setup, Map); 2] = [
        (
            CheckKind::Mirror,
            pos.setup().mirror_files(),
            Move::mirror_files,
        ),
        (
            CheckKind::ColorSwap,
            pos.setup().swap_colors(),
            Move::flip_ranks,
        ),
    ];
    for (check, setup, map) in transforms {
        let Ok(image) = Position::new(setup) else {
            // Both maps keep every domain rule; a failure here is a bug in the maps.
            unreachable!("{check} image of a valid position is invalid");
        };
        for (i, g) in engines.iter().enumerate() {
            let there = g.probe(&image);
            let expected: BTreeSet<Move> = probes[i].legal_moves().into_iter().map(map).collect();
            let got: BTreeSet<Move> = there.legal_moves().into_iter().collect();
            let expected_pseudo: BTreeSet<Move> =
                probes[i].pseudo_legal.iter().copied().map(map).collect();
            let got_pseudo: BTreeSet<Move> = there.pseudo_legal.iter().copied().collect();
            if expected == got
                && expected_pseudo == got_pseudo
                && there.in_check == probes[i].in_check
            {
                continue;
            }
            let name = run.names[i].to_string();
            let only_in: Vec<OnlyIn> = expected
                .symmetric_difference(&got)
                .map(|&mv| OnlyIn {
                    mv,
                    // Moves on the image: the generator has them there, or symmetry says it should.
                    has: vec![if got.contains(&mv) {
                        name.clone()
                    } else {
                        "symmetry".to_owned()
                    }],
                })
                .collect();
            let detail = format!(
                "{name} on {}: {} legal moves where the mapped position has {}; in check {} vs {}",
                image.fen(),
                got.len(),
                expected.len(),
                there.in_check,
                probes[i].in_check
            );
            run.push(check, Some(name), only_in, detail);
        }
    }
}
