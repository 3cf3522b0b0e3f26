//! Mirror and colour-swap symmetry, one generator at a time: the rules do not tell the
//! wings or the sides apart, so a generator's answers on the transformed position must
//! be its answers on the original, transformed. Needs no second opinion.

use super::{CheckKind, OnlyIn, Run};
use crate::generators::face::{Generator, Probe};
use crate::generators::timing::{span, ORACLE};
use crate::moves::Move;
use crate::position::Position;

/// Distinct sorted moves: repeats are the `listed-twice` check's to report.
fn distinct(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_unstable();
    moves.dedup();
    moves
}

pub(super) fn compare(
    run: &mut Run<'_>,
    pos: &Position,
    gens: &[&dyn Generator],
    probes: &[Probe],
) {
    span(ORACLE, "symmetry", || images(run, pos, gens, probes));
}

fn images(run: &mut Run<'_>, pos: &Position, gens: &[&dyn Generator], probes: &[Probe]) {
    type Map = fn(Move) -> Move;
    let transforms: [(CheckKind, Position, Map); 2] = [
        (CheckKind::Mirror, pos.mirror_files(), Move::mirror_files),
        (CheckKind::ColorSwap, pos.swap_colors(), Move::flip_ranks),
    ];
    for (check, image, map) in transforms {
        for (i, g) in gens.iter().enumerate() {
            let there = g.generate(&image);
            let mapped = |moves: &mut dyn Iterator<Item = Move>| distinct(moves.map(map).collect());
            let expected = mapped(&mut probes[i].legal.iter().map(|l| l.mv));
            let got = distinct(there.legal);
            if expected == got
                && there.in_check == probes[i].in_check
                && mapped(&mut probes[i].pseudo_legal.iter().copied())
                    == distinct(there.pseudo_legal)
            {
                continue;
            }
            let name = run.names[i].to_string();
            // Moves of the image: the generator has them there, or symmetry says it should.
            let only_in: Vec<OnlyIn> = expected
                .iter()
                .filter(|m| got.binary_search(m).is_err())
                .map(|&mv| OnlyIn {
                    mv,
                    has: vec!["symmetry".to_owned()],
                    times: 1,
                })
                .chain(
                    got.iter()
                        .filter(|m| expected.binary_search(m).is_err())
                        .map(|&mv| OnlyIn {
                            mv,
                            has: vec![name.clone()],
                            times: 1,
                        }),
                )
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
