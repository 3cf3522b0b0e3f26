//! Checking your own move generator with xqdiff's engine check, in process.
//!
//! Implement [`MoveGen`] for your generator (here a thin wrapper around the built-in
//! mailbox generator stands in for it), wrap it in [`InProcess`], and hand it to
//! [`crosscheck::check`] with the built-in generators as the consensus. Any difference
//! comes back followed down to where the move sets differ and minimized.
//!
//! ```text
//! cargo run --release --example custom_generator           # agrees
//! cargo run --release --example custom_generator -- buggy  # cannons that cannot capture
//! ```

use xqdiff::generators::{mailbox::MailboxGen, registry};
use xqdiff::subject::crosscheck::{self, targets, Options};
use xqdiff::subject::InProcess;
use xqdiff::{Color, Move, MoveGen, MoveList, Piece, Position, Role, Setup, Square};

/// Your generator. `buggy` drops cannon captures, to show what a finding looks like.
struct MyGen {
    buggy: bool,
}

type Board = <MailboxGen as MoveGen>::Board;

impl MoveGen for MyGen {
    type Board = Board;
    type Undo = <MailboxGen as MoveGen>::Undo;

    fn name(&self) -> &'static str {
        "my-generator"
    }
    fn load(&self, pos: &Position) -> Board {
        MailboxGen.load(pos)
    }
    fn to_setup(&self, b: &Board) -> Setup {
        MailboxGen.to_setup(b)
    }
    fn turn(&self, b: &Board) -> Color {
        MailboxGen.turn(b)
    }
    fn piece_at(&self, b: &Board, sq: Square) -> Option<Piece> {
        MailboxGen.piece_at(b, sq)
    }
    fn pseudo_legal(&self, b: &Board, out: &mut MoveList) {
        let mut all = MoveList::new();
        MailboxGen.pseudo_legal(b, &mut all);
        for &mv in all.iter() {
            let cannon = self
                .piece_at(b, mv.from)
                .is_some_and(|p| p.role == Role::Cannon);
            if !(self.buggy && cannon && self.piece_at(b, mv.to).is_some()) {
                out.push(mv);
            }
        }
    }
    fn king_attacked(&self, b: &Board, c: Color) -> bool {
        MailboxGen.king_attacked(b, c)
    }
    fn make(&self, b: &mut Board, mv: Move) -> Self::Undo {
        MailboxGen.make(b, mv)
    }
    fn unmake(&self, b: &mut Board, mv: Move, u: Self::Undo) {
        MailboxGen.unmake(b, mv, u)
    }
}

fn main() {
    let mine = MyGen {
        buggy: std::env::args().any(|a| a == "buggy"),
    };
    let suite = xqdiff::epd::parse_suite(xqdiff::epd::REFERENCE_SUITE).expect("built-in suite");
    let mut list = vec![targets::start(3)];
    list.extend(targets::suite(&suite, 3, Some(100_000)));
    list.extend(targets::random(1, 50, 3, &registry()));

    let report = crosscheck::check(
        &mut InProcess::new(&mine),
        &registry(),
        &list,
        &Options {
            max_findings: 1,
            ..Options::default()
        },
    )
    .expect("targets have depth 1 or more");

    for f in &report.findings {
        println!(
            "{} differs at depth {} from {}",
            f.label,
            f.depth,
            f.root.fen()
        );
        println!("{}", f.comparison);
        if let Some(r) = &f.reproduction {
            println!("minimized to {} at depth {}:", r.minimized.fen(), r.depth);
            if let Some(c) = &r.comparison {
                println!("{c}");
            }
        }
    }
    println!(
        "{}: {} positions, {} nodes compared, {}",
        report.subject,
        report.checked.len(),
        report.nodes_compared(),
        if report.all_agree() {
            "all agree"
        } else {
            "DIFFERENCES"
        }
    );
    std::process::exit(if report.all_agree() { 0 } else { 1 });
}
