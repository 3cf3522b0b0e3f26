//! The answers about one position compared: what each generator's board says when
//! loaded, what each legal move does on it, and what the board says once every legal
//! move has been made and unmade on it.

use super::tally::{self, Tally};
use super::{CheckKind, OnlyIn, Run};
use crate::generators::face::{Child, Generator, LegalMove, Listing, Probe};
use crate::generators::timing::{span, ORACLE};
use crate::moves::{times_word, Move};
use crate::piece::Piece;
use crate::position::{Position, Setup};

/// A legal move every generator agrees on, down to what it takes and the valid position
/// it leads to: what a walker may follow.
#[derive(Clone, Debug)]
pub(super) struct Agreed {
    pub mv: Move,
    pub captured: Option<Piece>,
    pub after: Position,
}

/// Compares the probes (one per generator, in order) and returns the legal moves everyone
/// agrees on, each with the position after it.
pub(super) fn compare(
    run: &mut Run<'_>,
    pos: &Position,
    gens: &[&dyn Generator],
    probes: &[Probe],
) -> Vec<Agreed> {
    span(ORACLE, "compare", || compare_probes(run, pos, gens, probes))
}

fn compare_probes(
    run: &mut Run<'_>,
    pos: &Position,
    gens: &[&dyn Generator],
    probes: &[Probe],
) -> Vec<Agreed> {
    let start = pos.setup();
    let names = run.names.clone();
    for (i, p) in probes.iter().enumerate() {
        if p.round_trip != *start {
            let detail = format!("{} reads back {}", names[i], p.round_trip);
            run.push(
                CheckKind::RoundTrip,
                Some(names[i].to_owned()),
                Vec::new(),
                detail,
            );
        }
    }
    run.compare(
        CheckKind::InCheck,
        probes.iter().map(|p| p.in_check).collect(),
        Vec::new,
        || "in check".to_owned(),
    );
    let pseudo: Vec<Tally> = probes
        .iter()
        .map(|p| Tally::of_moves(&p.pseudo_legal))
        .collect();
    let legal: Vec<Tally> = probes
        .iter()
        .map(|p| Tally::of_moves(&p.legal_moves()))
        .collect();
    let pseudo_diff = lists(run, CheckKind::PseudoLegal, &pseudo);
    let legal_diff = lists(run, CheckKind::Legal, &legal);
    let (twice, which) = if legal_diff.repeated.is_empty() {
        (pseudo_diff.repeated, "pseudo-legal")
    } else {
        (legal_diff.repeated, "legal")
    };
    if !twice.is_empty() {
        let source = if which == "legal" { &legal } else { &pseudo };
        repeats(run, source, twice, which);
    }
    counts(run, probes);
    reuse(run, pos, gens, probes);
    let rows: Vec<&[LegalMove]> = probes.iter().map(|p| p.legal.as_slice()).collect();
    let agreed = per_move(run, &rows, &legal);
    spoilt_by_earlier_moves(run, pos, gens, probes);
    agreed
}

/// The light comparison a walker needs: the legal moves (repeats included), what each
/// takes and the position after it; returns the moves everyone agrees on.
pub(super) fn compare_children(run: &mut Run<'_>, children: &[Vec<Child>]) -> Vec<Agreed> {
    let legal: Vec<Tally> = children
        .iter()
        .map(|c| Tally::of_moves(&c.iter().map(|c| c.mv).collect::<Vec<_>>()))
        .collect();
    let diff = lists(run, CheckKind::Legal, &legal);
    if !diff.repeated.is_empty() {
        repeats(run, &legal, diff.repeated, "legal");
    }
    let rows: Vec<&[Child]> = children.iter().map(Vec::as_slice).collect();
    per_move(run, &rows, &legal)
}

/// What the per-move comparison reads off a legal move; the light answers of a walker
/// have no check or count to give.
pub(super) trait Facts {
    /// The move, what it takes and the board after it.
    fn child(&self) -> (Move, Option<Piece>, &Setup);
    fn gives_check(&self) -> Option<bool> {
        None
    }
    fn count_after(&self) -> Option<u64> {
        None
    }
    fn mv(&self) -> Move {
        self.child().0
    }
    fn captured(&self) -> Option<Piece> {
        self.child().1
    }
    fn after(&self) -> &Setup {
        self.child().2
    }
}

impl Facts for LegalMove {
    fn child(&self) -> (Move, Option<Piece>, &Setup) {
        (self.mv, self.captured, &self.after)
    }
    fn gives_check(&self) -> Option<bool> {
        Some(self.gives_check)
    }
    fn count_after(&self) -> Option<u64> {
        Some(self.count_after)
    }
}

impl Facts for Child {
    fn child(&self) -> (Move, Option<Piece>, &Setup) {
        (self.mv, self.captured, &self.after)
    }
}

/// Compares the distinct moves of one list per generator; returns every difference,
/// repeats included, for the caller to report.
fn lists(run: &mut Run<'_>, check: CheckKind, tallies: &[Tally]) -> tally::Differences {
    let refs: Vec<&Tally> = tallies.iter().collect();
    let diff = tally::compare(&run.names, &refs);
    if !diff.only_in.is_empty() {
        let sets: Vec<Vec<Move>> = tallies.iter().map(|t| t.moves().collect()).collect();
        let named: Vec<(&str, Vec<Move>)> = run.names.iter().copied().zip(sets).collect();
        let odd = super::vote(&named).flatten();
        let detail = diff
            .only_in
            .iter()
            .map(|o| format!("{} only in {}", o.mv, o.has.join("+")))
            .collect::<Vec<_>>()
            .join(", ");
        run.push(check, odd, diff.only_in.clone(), detail);
    }
    diff
}

/// A move some generator lists more than once: its own disagreement, voted on like any
/// other (a set or a map would have hidden it).
fn repeats(run: &mut Run<'_>, tallies: &[Tally], twice: Vec<OnlyIn>, which: &str) {
    let per_gen: Vec<Vec<(Move, u32)>> = tallies
        .iter()
        .map(|t| {
            t.rows()
                .iter()
                .filter(|r| r.times > 1)
                .map(|r| (r.mv, r.times))
                .collect()
        })
        .collect();
    let named: Vec<(&str, &Vec<(Move, u32)>)> = run.names.iter().copied().zip(&per_gen).collect();
    let odd = super::vote(&named).flatten().or_else(|| {
        // One generator alone has no one to outvote it.
        (per_gen.len() == 1).then(|| run.names[0].to_owned())
    });
    let detail = run
        .names
        .iter()
        .zip(&per_gen)
        .flat_map(|(name, list)| {
            list.iter()
                .map(move |(mv, n)| format!("{mv} listed {} by {name}", times_word(*n)))
        })
        .collect::<Vec<_>>()
        .join(", ");
    run.push(
        CheckKind::ListedTwice,
        odd,
        twice,
        format!("{detail} ({which} moves)"),
    );
}

/// The bulk count against each generator's own legal list.
fn counts(run: &mut Run<'_>, probes: &[Probe]) {
    let ok: Vec<bool> = probes
        .iter()
        .map(|p| p.count == p.legal.len() as u64)
        .collect();
    if ok.iter().all(|&o| o) {
        return;
    }
    let detail = run
        .names
        .iter()
        .zip(probes)
        .filter(|(_, p)| p.count != p.legal.len() as u64)
        .map(|(n, p)| {
            format!(
                "{n}: count_legal says {} where it lists {} legal moves",
                p.count,
                p.legal.len()
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    run.self_check(CheckKind::Count, &ok, Vec::new(), detail, Vec::new());
}

/// The board every legal move was made and unmade on, asked again.
fn reuse(run: &mut Run<'_>, pos: &Position, gens: &[&dyn Generator], probes: &[Probe]) {
    let same: Vec<bool> = probes.iter().map(|p| p.same_as(&p.again)).collect();
    if same.iter().all(|&s| s) {
        return;
    }
    let restored: Vec<bool> = probes
        .iter()
        .map(|p| p.again.setup == p.round_trip)
        .collect();
    let (check, passed) = if restored.iter().all(|&r| r) {
        (CheckKind::ReusedBoard, &same)
    } else {
        (CheckKind::Unmake, &restored)
    };
    let mut only_in = Vec::new();
    let mut details = Vec::new();
    for (i, p) in probes.iter().enumerate() {
        if passed[i] {
            continue;
        }
        let name = run.names[i];
        // Replay one move at a time to name the move after which the board went wrong.
        let fresh = p.listing();
        let mut walker = gens[i].walker(pos);
        let culprit = p.legal.iter().map(|l| l.mv).find(|&mv| {
            // As the probe did: the position after the move is asked too (its count
            // makes and unmakes moves of its own) before the move is unmade; a bug that
            // needs both is otherwise never named.
            walker.play(mv);
            walker.listing();
            walker.take_back();
            let now = walker.listing();
            if check == CheckKind::Unmake {
                now.setup != fresh.setup
            } else {
                now != fresh
            }
        });
        let now = walker.listing();
        match culprit {
            Some(mv) => {
                only_in.push(OnlyIn {
                    mv,
                    has: vec![name.to_owned()],
                    times: 1,
                });
                details.push(format!(
                    "{name}: after make+unmake of {mv} (with the position after it asked, as the probe \
                     asks it, and of the legal moves before it) \
                     the board {}",
                    describe(&fresh, &now)
                ));
            }
            None => details.push(format!(
                "{name}: after make+unmake of every legal move the board {}",
                describe(&fresh, &p.again)
            )),
        }
    }
    run.self_check(check, passed, only_in, details.join("; "), Vec::new());
}

/// What `now` says that `fresh` (a freshly loaded board of the same position) does not.
pub(super) fn describe(fresh: &Listing, now: &Listing) -> String {
    let mut parts = Vec::new();
    if now.setup != fresh.setup {
        parts.push(format!("reads back {}", now.setup));
    }
    if now.in_check != fresh.in_check {
        parts.push(format!("says in check is {}", now.in_check));
    }
    for (what, a, b) in [
        ("pseudo-legal", &fresh.pseudo_legal, &now.pseudo_legal),
        ("legal", &fresh.legal, &now.legal),
    ] {
        if a != b {
            let ta = Tally::of_moves(a);
            let tb = Tally::of_moves(b);
            let d = tally::compare(&["fresh", "now"], &[&ta, &tb]);
            let lacks: Vec<String> = d
                .only_in
                .iter()
                .filter(|o| o.has == ["fresh"])
                .map(|o| o.mv.to_string())
                .collect();
            let extra: Vec<String> = d
                .only_in
                .iter()
                .filter(|o| o.has == ["now"])
                .map(|o| o.mv.to_string())
                .collect();
            let mut s = format!(
                "lists {} {what} moves where a fresh board lists {}",
                b.len(),
                a.len()
            );
            if !lacks.is_empty() {
                s.push_str(&format!(", lacking {}", lacks.join(" ")));
            }
            if !extra.is_empty() {
                s.push_str(&format!(", adding {}", extra.join(" ")));
            }
            parts.push(s);
        }
    }
    if now.count != fresh.count {
        parts.push(format!(
            "counts {} where a fresh board counts {}",
            now.count, fresh.count
        ));
    }
    if parts.is_empty() {
        "answers as a fresh board does".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A per-move answer of the odd one out that comes out right when the move is made on a
/// freshly loaded board: the probe asks every move on one board, so the moves made and
/// unmade before it left state behind. Told as `reused-board`, the kind of bug it is,
/// rather than as the answer it happened to spoil.
fn spoilt_by_earlier_moves(
    run: &mut Run<'_>,
    pos: &Position,
    gens: &[&dyn Generator],
    probes: &[Probe],
) {
    let names = &run.names;
    for d in run.out.iter_mut() {
        if !matches!(
            d.check,
            CheckKind::AfterMake | CheckKind::GivesCheck | CheckKind::CountAfter
        ) {
            continue;
        }
        let Some(odd) = names
            .iter()
            .position(|n| Some(*n) == d.odd_one_out.as_deref())
        else {
            continue;
        };
        let Some(mv) = d.only_in.first().map(|o| o.mv) else {
            continue;
        };
        let Some(right) = (0..probes.len())
            .filter(|&j| j != odd)
            .find_map(|j| probes[j].legal.iter().find(|l| l.mv == mv))
        else {
            continue;
        };
        let mut fresh = gens[odd].walker(pos);
        let after = fresh.play(mv);
        let there = fresh.listing();
        let fine = match d.check {
            CheckKind::AfterMake => after == right.after,
            CheckKind::GivesCheck => there.in_check == right.gives_check,
            _ => there.count == right.count_after,
        };
        if fine {
            d.detail.push_str(&format!(
                "; made on a freshly loaded board, {mv} answers as the others do: the \
                 moves made and unmade before it on the same board left state behind \
                 (was {})",
                d.check
            ));
            d.check = CheckKind::ReusedBoard;
        }
    }
}

/// A legal move after which some generators' boards break the domain rules: blamed on
/// whoever produced an invalid position, by vote (a lone generator has no one to
/// outvote it).
fn invalid(names: &[&str], mv: Move, valid: &[bool], why: &str, setup: &Setup) -> Found {
    let named: Vec<(&str, bool)> = names.iter().copied().zip(valid.iter().copied()).collect();
    let odd = super::vote(&named)
        .flatten()
        .or_else(|| (valid.len() == 1).then(|| names[0].to_owned()));
    let has: Vec<String> = names
        .iter()
        .zip(valid)
        .filter(|(_, v)| !**v)
        .map(|(n, _)| n.to_string())
        .collect();
    let detail = format!("{} after {mv} give {setup}: {why}", has.join("+"));
    (
        CheckKind::AfterMakeInvalid,
        odd,
        vec![OnlyIn { mv, has, times: 1 }],
        detail,
    )
}

/// The first row of `mv` in sorted rows.
fn row<F: Facts>(rows: &[F], mv: Move) -> Option<&F> {
    let i = rows.partition_point(|l| l.mv() < mv);
    rows.get(i).filter(|l| l.mv() == mv)
}

/// Per-move facts over the moves every generator lists as legal: the others are
/// reported as set differences already.
fn per_move<F: Facts>(run: &mut Run<'_>, per_gen: &[&[F]], legal: &[Tally]) -> Vec<Agreed> {
    let Some((first, rest)) = legal.split_first() else {
        return Vec::new();
    };
    let common: Vec<Move> = first
        .moves()
        .filter(|&mv| rest.iter().all(|t| t.contains(mv)))
        .collect();
    let mut agreed = Vec::with_capacity(common.len());
    // Gathered per kind, then reported in the oracle's order of kinds.
    let mut found: Vec<Found> = Vec::new();
    let names = run.names.clone();
    for mv in common {
        let rows: Vec<&F> = per_gen.iter().filter_map(|p| row(p, mv)).collect();
        if rows.len() != per_gen.len() {
            continue;
        }
        let (captured_same, after_same) = compare_facts(&names, mv, &rows, &mut found);
        // Where the generators agree on the position after (nearly always), one
        // validation answers for all of them.
        if after_same {
            match validate(rows[0].after()) {
                Ok(after) if captured_same => agreed.push(Agreed {
                    mv,
                    captured: rows[0].captured(),
                    after,
                }),
                Ok(_) => {}
                Err(why) => found.push(invalid(
                    &names,
                    mv,
                    &vec![false; rows.len()],
                    &why,
                    rows[0].after(),
                )),
            }
            continue;
        }
        validate_distinct(&names, mv, &rows, &mut found);
    }
    found.sort_by_key(|f| f.0);
    for (check, odd, only, detail) in found {
        run.push(check, odd, only, detail);
    }
    agreed
}

/// A per-move fact the generators differ on, before it is reported: its check, the odd
/// one out by vote, the move, and the line that says it.
type Found = (CheckKind, Option<String>, Vec<OnlyIn>, String);

/// Compares what the generators' `rows` say of `mv` (what it captures, the position
/// after it, whether it gives check, how many replies follow) and adds each fact they
/// differ on to `found`, with the odd one out by vote. Returns whether they agree on
/// the capture and on the position after: what is validated, and what is agreed, hang
/// on those two.
fn compare_facts<F: Facts>(
    names: &[&str],
    mv: Move,
    rows: &[&F],
    found: &mut Vec<Found>,
) -> (bool, bool) {
    let mut vote = |check: CheckKind, same: bool, say: &dyn Fn(&F) -> String| {
        if same {
            return;
        }
        let values: Vec<String> = rows.iter().map(|r| say(r)).collect();
        let named: Vec<(&str, &String)> = names.iter().copied().zip(&values).collect();
        let odd = super::vote(&named).flatten();
        let detail = named
            .iter()
            .map(|(n, v)| format!("{n}: {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        let only = vec![OnlyIn {
            mv,
            has: names.iter().map(|n| n.to_string()).collect(),
            times: 1,
        }];
        found.push((check, odd, only, format!("{mv}: {detail}")));
    };
    let all_same = |f: &dyn Fn(&F, &F) -> bool| rows.windows(2).all(|w| f(w[0], w[1]));
    let captured_same = all_same(&|a, b| a.captured() == b.captured());
    vote(CheckKind::Captured, captured_same, &|r| {
        r.captured()
            .map_or_else(|| "takes nothing".to_owned(), |p| format!("takes {p}"))
    });
    let after_same = all_same(&|a, b| a.after() == b.after());
    vote(CheckKind::AfterMake, after_same, &|r| {
        format!("gives {}", r.after())
    });
    vote(
        CheckKind::GivesCheck,
        all_same(&|a, b| a.gives_check() == b.gives_check()),
        &|r| format!("gives check {:?}", r.gives_check().unwrap_or_default()),
    );
    vote(
        CheckKind::CountAfter,
        all_same(&|a, b| a.count_after() == b.count_after()),
        &|r| format!("{} replies", r.count_after().unwrap_or_default()),
    );
    (captured_same, after_same)
}

/// A position after a move, validated: validation's own check detector is one more
/// opinion, so an invalid position is blamed on whoever produced it, by vote.
fn validate(setup: &Setup) -> Result<Position, String> {
    span(ORACLE, "validation", || {
        Position::new(setup.clone()).map_err(|e| e.to_string())
    })
}

/// Where the generators differ on the position after `mv`: each distinct one is
/// validated once, and the first invalid one is added to `found`, with who gave it.
fn validate_distinct<F: Facts>(names: &[&str], mv: Move, rows: &[&F], found: &mut Vec<Found>) {
    let mut distinct: Vec<(&Setup, Result<Position, String>)> = Vec::new();
    for r in rows {
        if !distinct.iter().any(|(s, _)| *s == r.after()) {
            distinct.push((r.after(), validate(r.after())));
        }
    }
    let valid: Vec<bool> = rows
        .iter()
        .map(|r| distinct.iter().any(|(s, c)| *s == r.after() && c.is_ok()))
        .collect();
    if let Some((setup, Err(why))) = distinct.iter().find(|(_, c)| c.is_err()) {
        found.push(invalid(names, mv, &valid, why, setup));
    }
}
