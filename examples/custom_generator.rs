//! A crate with only parse, legal moves and play, checked in one call. xqdiff's naive
//! generator stands in for your crate; `-- buggy` plants a cannon that cannot capture.
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::subject::library::{check_library, Library};
use xqdiff::{Generator, Move, Position};

struct MyCrate(Planted);
impl Library for MyCrate {
    type Board = Position;
    fn parse(&self, fen: &str) -> Result<Position, String> {
        Position::from_fen(fen).map_err(|e| e.to_string())
    }
    fn legal_moves(&self, p: &Position) -> Vec<Move> {
        self.0.generate(p).legal
    }
    fn play(&self, p: &Position, mv: Move) -> Result<Position, String> {
        self.0.play(p, mv).map_err(|e| e.to_string())
    }
}

fn main() {
    let buggy = std::env::args().any(|a| a == "buggy");
    let bug = [Bug::None, Bug::CannonCannotCapture][usize::from(buggy)];
    let report = check_library(MyCrate(Planted::new(bug)), &Default::default()).expect("built-ins");
    report.findings.iter().for_each(|f| print!("{f}"));
    println!("{}: {} bug(s)", report.subject, report.findings.len());
    std::process::exit(i32::from(!report.all_agree()));
}
