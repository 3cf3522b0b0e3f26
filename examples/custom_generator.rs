//! A crate with one board, changed in place, checked in one call. xqdiff's naive
//! generator stands in for your crate; `-- buggy` plants a cannon that cannot capture,
//! `-- king-capture` lists moves into check too and checks under king-capture rules.
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::subject::library::{check_library, Library, LibraryCheck};
use xqdiff::subject::rules::Rules;
use xqdiff::{Generator, Move, Position};

struct MyCrate {
    rules: Planted,
    boards: Vec<Position>,
    king_capture: bool,
}

impl Library for MyCrate {
    fn set_position(&mut self, fen: &str) -> Result<(), String> {
        self.boards = vec![Position::from_fen(fen).map_err(|e| e.to_string())?];
        Ok(())
    }
    fn legal_moves(&mut self) -> Vec<Move> {
        let lists = self.rules.generate(self.boards.last().expect("a board"));
        if self.king_capture {
            lists.pseudo_legal
        } else {
            lists.legal
        }
    }
    fn make(&mut self, mv: Move) -> Result<(), String> {
        let board = self.boards.last().expect("a board");
        let next = self.rules.play(board, mv).map_err(|e| e.to_string())?;
        self.boards.push(next);
        Ok(())
    }
    fn unmake(&mut self) -> bool {
        self.boards.pop().is_some()
    }
}

fn main() {
    let given = |word: &str| std::env::args().any(|a| a == word);
    let bug = [Bug::None, Bug::CannonCannotCapture][usize::from(given("buggy"))];
    let king_capture = given("king-capture");
    let rules = [Rules::Legal, Rules::KingCapture][usize::from(king_capture)];
    let mut my_crate = MyCrate {
        rules: Planted::new(bug),
        boards: Vec::new(),
        king_capture,
    };
    let check = LibraryCheck {
        rules,
        ..LibraryCheck::default()
    };
    let report = check_library(&mut my_crate, &check).expect("settings that go together");
    report.checked.iter().for_each(|c| println!("{}", c.line()));
    report.findings.iter().for_each(|f| print!("{f}"));
    report.set_aside.iter().for_each(|s| print!("{s}"));
    println!(
        "{}: positions checked {}, nodes compared {}, distinct bugs {}",
        report.subject,
        report.checked.len(),
        report.nodes_compared(),
        report.findings.len()
    );
    std::process::exit(i32::from(!report.all_agree()));
}
