//! How long diagnosis takes: each variant of the catalogue stands in for a subject with
//! that one bug, is asked about its example position, and is diagnosed, asking it
//! deciding questions while several variants still fit, within the bound a finding's
//! diagnosis has (`xqdiff::diff::finding::DIAGNOSIS_BOUND`). Prints each diagnosis's
//! time and cause, and the slowest.
//!
//! ```text
//! cargo run --release --example diagnose
//! ```

use std::time::Instant;
use xqdiff::diagnose::{example, Answer, Diagnose, Variant, VariantGen, Witness};
use xqdiff::diff::finding::DIAGNOSIS_BOUND;
use xqdiff::generators::perft;
use xqdiff::{MoveGen, Position};

/// What `subject` answers: its divide of `pos` at `depth`.
fn answer(subject: &VariantGen, pos: &Position, depth: u32) -> Answer {
    let mut board = subject.load(pos);
    Answer::Divide {
        depth,
        counts: perft::divide(subject, &mut board, depth),
    }
}

fn main() {
    let mut slowest = (0.0_f64, None);
    let mut total = 0.0;
    let mut right = 0;
    for &variant in Variant::ALL {
        let Some((pos, depth)) = example(variant) else {
            continue;
        };
        let subject = VariantGen::new(variant);
        let started = Instant::now();
        let witness = Witness {
            answer: answer(&subject, &pos, depth),
            position: pos,
        };
        let mut asked = 0;
        let witnesses = [witness];
        let request = Diagnose {
            bound: DIAGNOSIS_BOUND,
            ..Diagnose::new(&witnesses)
        };
        let (diagnosis, _) = request.run(|q| {
            asked += 1;
            Some(answer(&subject, &q.position, q.depth))
        });
        let ms = started.elapsed().as_secs_f64() * 1e3;
        total += ms;
        if ms > slowest.0 {
            slowest = (ms, Some(variant));
        }
        right += usize::from(diagnosis.first() == Some(variant));
        let cause = diagnosis.lines().into_iter().next().unwrap_or_default();
        println!("{ms:8.1} ms  {asked} asked  {variant}: {cause}");
    }
    let n = Variant::ALL.len();
    println!(
        "{right} of {n} named first; {:.1} ms a diagnosis on average, the slowest {:.1} ms ({})",
        total / n as f64,
        slowest.0,
        slowest.1.map_or("none", Variant::name)
    );
}
