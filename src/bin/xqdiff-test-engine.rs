//! A small engine for testing xqdiff's external-engine driver. It speaks UCI, UCCI or
//! xboard and counts perft with xqdiff's bitboard generator, or with the naive one
//! carrying a planted rule bug (`--bug`). Other switches make it misbehave the ways
//! real engines do: crash, hang, print unreadable counts, never finish the handshake,
//! search instead of counting, number ranks from 1, read only one set of FEN letters,
//! print without end.
//!
//! UCI:    `go perft N` prints `h2e2: 45` per root move, then `Nodes searched: N`.
//! xboard: `perft N 1` prints, for each depth up to N, Sjaak-style lines
//!         `  Ch2-e2   45   960` (move, count, running total), then ` N  total  0.00  0nps`;
//!         plain `perft N` prints only the total lines.
//!         `show fen` and `show moves` answer as HoiXiangqi's console does (its FEN;
//!         the legal moves, seven to a line), for `--protocol xboard-moves`.
//! moves:  `legal FEN [moves ...]` answers the legal moves on one line
//!         (`docs/moves-protocol.md`); it advertises `play` unless `--fen-only`.
#![forbid(unsafe_code)]

use clap::{Parser, ValueEnum};
use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;
use xqdiff::generators::bitboard::BitboardGen;
use xqdiff::generators::face::Generator;
use xqdiff::generators::planted::{Bug, Planted};
use xqdiff::subject::external::Protocol;
use xqdiff::{Move, Position, Role, Square};

#[derive(Parser)]
#[command(about = "A UCI/UCCI/xboard perft engine with switchable faults, for testing xqdiff")]
struct Args {
    /// uci, ucci, xboard, xboard-moves or moves.
    #[arg(long, default_value = "uci")]
    protocol: Protocol,
    /// Count with the naive generator carrying this planted bug (e.g.
    /// cannon-cannot-capture); repeat it to plant several unrelated bugs at once.
    #[arg(long)]
    bug: Vec<Bug>,
    /// Exit with status 3 after this many commands (0: at once).
    #[arg(long)]
    crash_after: Option<u64>,
    /// After this many commands, stop reading and answering, for good.
    #[arg(long)]
    hang_after: Option<u64>,
    /// Exit with status 4 when asked to count a position whose side to move is in
    /// check: a crash on a class of positions, not on a count of commands.
    #[arg(long)]
    crash_in_check: bool,
    /// Stop answering, for good, when asked to count a position whose side to move is
    /// in check.
    #[arg(long)]
    hang_in_check: bool,
    /// Make the per-move lines unreadable: moves that are not moves, or counts that
    /// are not numbers.
    #[arg(long)]
    garbage: Option<Garbage>,
    /// Never finish the handshake (no `uciok`, no `feature done=1`).
    #[arg(long)]
    no_handshake: bool,
    /// Number ranks in move text from 0 (ICCS) or from 1.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    ranks: u8,
    /// Read only these FEN letters for horse and elephant and refuse the others
    /// (default: read both).
    #[arg(long)]
    fen_letters: Option<Letters>,
    /// With `--fen-letters`, read the other set's horse and elephant letters as empty
    /// points instead of refusing them, as an engine that skips letters it does not
    /// know would.
    #[arg(long, requires = "fen_letters")]
    skip_other_letters: bool,
    /// Plant `--bug` only in positions written in these letters: a FEN in the other
    /// set's letters is read as pieces that move right, as an engine that maps each set
    /// to its own piece code would.
    #[arg(long, requires = "bug")]
    bug_in_letters: Option<Letters>,
    /// Print only totals, never a count per move.
    #[arg(long)]
    totals_only: bool,
    /// Also list every pseudo-legal move that is illegal, with a count of 0, as
    /// Sjaak II does.
    #[arg(long)]
    list_illegal: bool,
    /// Search instead of counting: answer `go perft` with `info depth` lines, and
    /// `bestmove` on `stop`, as an engine without perft would.
    #[arg(long)]
    search: bool,
    /// In the moves protocol, do not advertise `play`: xqdiff then sends a FEN for
    /// every position, as for a library that cannot make moves.
    #[arg(long)]
    fen_only: bool,
    /// In the moves protocol, advertise and answer `pseudo` and `check` requests.
    #[arg(long)]
    offer_pseudo: bool,
    /// In the moves protocol, follow king-capture rules: `legal` lists every
    /// pseudo-legal move, moving into check included.
    #[arg(long)]
    king_capture: bool,
    /// In xboard, say `feature setboard=0`, as MaxQi does.
    #[arg(long)]
    no_setboard: bool,
    /// Refuse a position whose side to move is in check (xboard `setboard`, UCI
    /// `position fen`), with an error line, and go on.
    #[arg(long)]
    refuse_in_check: bool,
    /// Fail on every follow-up question, `position ... moves ...` with moves: `refuse`
    /// as Pikafish refuses a position it cannot count (`Unsupported position. King can
    /// be captured`, then exit status 1), `crash` (exit status 5), or `hang`.
    #[arg(long)]
    fail_on_moves: Option<FailOnMoves>,
    /// Wait this many milliseconds before answering the handshake, as an engine that
    /// loads its tables first does on a busy machine.
    #[arg(long, value_name = "MS")]
    slow_start: Option<u64>,
    /// In xboard, exit with status 1 right after any refusal (an unknown command, a
    /// FEN it does not read), as HoiXiangqi does.
    #[arg(long)]
    exit_on_error: bool,
    /// After this many commands, stop reading and print `--spam-line` for good, as fast
    /// as the pipe takes it.
    #[arg(long)]
    spam_after: Option<u64>,
    /// The line `--spam-after` repeats.
    #[arg(long, default_value = "info string spam")]
    spam_line: String,
    /// Repeat `--spam-line` without line endings: one endless line.
    #[arg(long)]
    spam_unbroken: bool,
    /// Milliseconds between spam lines (0: no pause).
    #[arg(long, default_value_t = 0)]
    spam_interval: u64,
    /// Answer like an engine whose answers are not a function of the position: every
    /// second count or move list leaves out its last move (counted, so a run repeats).
    #[arg(long)]
    flaky: bool,
    /// Write the process id to this file first (tests check the process is gone).
    #[arg(long)]
    pid_file: Option<PathBuf>,
    /// Append to this file each command read, as `> COMMAND`, and `fault KIND` as a
    /// fault begins (hang, spam, crash, no-handshake): tests wait for these lines, not
    /// for a time.
    #[arg(long)]
    log: Option<PathBuf>,
}

/// Appends `line` to the `--log` file, if any. Written before the fault acts, so a
/// test that sees it knows the engine is at that point.
fn log(args: &Args, line: &str) {
    if let Some(path) = &args.log {
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| writeln!(f, "{line}"));
        if let Err(e) = written {
            eprintln!("cannot write {}: {e}", path.display());
        }
    }
}

/// Ends the engine with `status`, logging the crash first and saying so on stderr, as
/// a real engine's last words would: what xqdiff must show as the crash's own output.
fn crash(args: &Args, status: i32) -> ! {
    log(args, "fault crash");
    eprintln!("{NAME}: crashing with exit status {status}");
    std::process::exit(status);
}

/// Stops answering for good, logging the hang first.
fn hang(args: &Args) -> ! {
    log(args, "fault hang");
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FailOnMoves {
    Refuse,
    Crash,
    Hang,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Garbage {
    Moves,
    Counts,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Letters {
    Nb,
    He,
}

const NAME: &str = "xqdiff-test-engine";

struct TestEngine<'a> {
    args: &'a Args,
    generator: &'a dyn Generator,
    pos: Position,
    /// A search is running (`--search`) and waits for `stop`.
    searching: bool,
    /// The position was given in the letters `--bug-in-letters` spares.
    spared: bool,
    /// How many answers `--flaky` has given.
    answers: std::cell::Cell<u64>,
}

fn main() {
    let args = Args::parse();
    if let Some(path) = &args.pid_file {
        if let Err(e) = std::fs::write(path, std::process::id().to_string()) {
            eprintln!("cannot write {}: {e}", path.display());
        }
    }
    let planted;
    let generator: &dyn Generator = if args.bug.is_empty() {
        &BitboardGen
    } else {
        planted = Planted::with(&args.bug);
        &planted
    };
    let mut engine = TestEngine {
        args: &args,
        generator,
        pos: Position::startpos(),
        searching: false,
        spared: false,
        answers: std::cell::Cell::new(0),
    };
    let mut input = io::stdin().lock().lines();
    let mut stdout = io::stdout().lock();
    for commands in 0u64.. {
        if args.crash_after == Some(commands) {
            crash(&args, 3);
        }
        if args.hang_after == Some(commands) {
            hang(&args);
        }
        if args.spam_after == Some(commands) {
            log(&args, "fault spam");
            spam(&args, &mut stdout);
            return;
        }
        let Some(Ok(line)) = input.next() else {
            return;
        };
        log(&args, &format!("> {line}"));
        let reply = match args.protocol {
            Protocol::Xboard | Protocol::XboardMoves => engine.xboard(&line),
            Protocol::Uci | Protocol::Ucci => engine.uci(&line),
            Protocol::Moves(_) => engine.moves(&line),
        };
        let Some(reply) = reply else {
            return;
        };
        if stdout
            .write_all(reply.as_bytes())
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return;
        }
        if args.exit_on_error && reply.lines().any(|l| l.starts_with("Error")) {
            crash(&args, 1);
        }
    }
}

/// Prints `--spam-line` until the pipe closes: in big writes when there is no pause,
/// so the engine prints faster than anyone reads.
fn spam(args: &Args, out: &mut impl Write) {
    let line = if args.spam_unbroken {
        args.spam_line.clone()
    } else {
        format!("{}\n", args.spam_line)
    };
    if line.is_empty() {
        return;
    }
    let pause = Duration::from_millis(args.spam_interval);
    let chunk = if pause.is_zero() {
        line.repeat((64 * 1024 / line.len()).max(1))
    } else {
        line
    };
    while out
        .write_all(chunk.as_bytes())
        .and_then(|()| out.flush())
        .is_ok()
    {
        std::thread::sleep(pause);
    }
}

impl TestEngine<'_> {
    /// One UCI or UCCI command; `None` means quit.
    fn uci(&mut self, line: &str) -> Option<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut out = String::new();
        match words.as_slice() {
            [hello @ ("uci" | "ucci")] => {
                self.slow_start();
                if self.args.no_handshake {
                    log(self.args, "fault no-handshake");
                } else {
                    out += &format!("id name {NAME}\nid author xqdiff\n{hello}ok\n");
                }
            }
            ["isready"] => out += "readyok\n",
            ["setoption", ..] => {}
            ["position", rest @ ..] => self.uci_position(rest, &mut out),
            ["go", "perft", depth] if !self.args.search => match depth.parse::<u32>() {
                Ok(depth) => self.uci_perft(depth.max(1), &mut out),
                Err(_) => out += &format!("Error: bad depth {depth}\n"),
            },
            ["go", ..] => {
                self.searching = true;
                out += &format!("info depth 1 score cp 0 pv {}\n", self.some_move());
            }
            ["stop"] => {
                if std::mem::take(&mut self.searching) {
                    out += &format!("bestmove {}\n", self.some_move());
                }
            }
            ["quit"] => return None,
            [] => {}
            _ => out += &format!("Unknown command: {line}\n"),
        }
        Some(out)
    }

    /// `position (fen FEN | startpos) [moves ...]`: on a refused move the position
    /// stays where it was before that move.
    fn uci_position(&mut self, rest: &[&str], out: &mut String) {
        let split = rest
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(rest.len());
        let (setup, moves) = rest.split_at(split);
        match setup {
            ["startpos"] => {
                self.spared = false;
                self.pos = Position::startpos();
            }
            ["fen", fen @ ..] => match self.read_fen(&fen.join(" ")) {
                Ok(pos)
                    if self.args.refuse_in_check
                        && !pos.setup().checkers(pos.turn()).is_empty() =>
                {
                    *out += "Error (illegal position): the side to move is in check\n";
                    return;
                }
                Ok(pos) => self.pos = pos,
                Err(e) => {
                    *out += &format!("Error: {e}\n");
                    return;
                }
            },
            _ => {
                *out += &format!("Error: bad position command: {}\n", rest.join(" "));
                return;
            }
        }
        if moves.len() > 1 {
            match self.args.fail_on_moves {
                Some(FailOnMoves::Refuse) => {
                    log(self.args, "fault refuse");
                    println!("Unsupported position. King can be captured");
                    std::process::exit(1);
                }
                Some(FailOnMoves::Crash) => crash(self.args, 5),
                Some(FailOnMoves::Hang) => hang(self.args),
                None => {}
            }
        }
        for text in moves.iter().skip(1) {
            if !self.play(text) {
                *out += &format!("Error (Illegal move): {text}\n");
                return;
            }
        }
    }

    /// Waits `--slow-start` before the handshake's answer.
    fn slow_start(&self) {
        if let Some(ms) = self.args.slow_start {
            log(self.args, "fault slow-start");
            std::thread::sleep(Duration::from_millis(ms));
        }
    }

    fn uci_perft(&self, depth: u32, out: &mut String) {
        let counts = self.divide(depth);
        if !self.args.totals_only {
            for &(mv, n) in &counts {
                *out += &format!("{}: {}\n", self.move_text(mv), self.count_text(n));
            }
        }
        let total: u64 = counts.iter().map(|(_, n)| n).sum();
        *out += &format!("\nNodes searched: {}\n\n", self.count_text(total));
    }

    /// One xboard command; `None` means quit.
    fn xboard(&mut self, line: &str) -> Option<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut out = String::new();
        match words.as_slice() {
            ["protover", _] => {
                self.slow_start();
                if self.args.no_handshake {
                    log(self.args, "fault no-handshake");
                } else {
                    let setboard = u8::from(!self.args.no_setboard);
                    out +=
                        &format!("feature myname=\"{NAME}\" setboard={setboard} ping=1 done=1\n");
                }
            }
            ["new"] => {
                self.spared = false;
                self.pos = Position::startpos();
            }
            ["variant", "xiangqi"] => {}
            ["variant", other] => out += &format!("Error (unsupported variant): {other}\n"),
            ["setboard", fen @ ..] => match self.read_fen(&fen.join(" ")) {
                Ok(pos)
                    if self.args.refuse_in_check
                        && !pos.setup().checkers(pos.turn()).is_empty() =>
                {
                    out += "tellusererror Illegal position\nError (illegal position): in check\n";
                }
                Ok(pos) => self.pos = pos,
                Err(e) => out += &format!("tellusererror Illegal position\nError: {e}\n"),
            },
            ["ping", k] => out += &format!("pong {k}\n"),
            ["perft", depth, per_move @ ..] => match depth.parse::<u32>() {
                Ok(depth) => self.xboard_perft(depth.max(1), per_move == ["1"], &mut out),
                Err(_) => out += &format!("Error (bad depth): {line}\n"),
            },
            // HoiXiangqi's console commands, for `--protocol xboard-moves`.
            ["show", "fen"] => {
                let fen = self.pos.fen();
                let (placement, rest) = fen.split_once(' ').unwrap_or((&fen, ""));
                let placement: String = match self.args.fen_letters {
                    Some(Letters::He) => placement
                        .chars()
                        .map(|c| match c {
                            'N' => 'H',
                            'n' => 'h',
                            'B' => 'E',
                            'b' => 'e',
                            c => c,
                        })
                        .collect(),
                    _ => placement.to_owned(),
                };
                out += &format!("{placement} {rest}\n");
            }
            ["show", "moves"] => {
                let moves: Vec<String> = self
                    .divide(1)
                    .iter()
                    .map(|&(mv, _)| self.written(mv))
                    .collect();
                for line in moves.chunks(7) {
                    out += &format!("{}\t\n", line.join("\t"));
                }
            }
            ["quit"] => return None,
            ["xboard" | "force" | "post" | "nopost" | "hard" | "easy" | "random" | "computer"]
            | ["accepted" | "rejected" | "option", ..]
            | [] => {}
            [text] if self.play(text) => {}
            _ => out += &format!("Error (Illegal move or unknown command): {line}\n"),
        }
        Some(out)
    }

    /// `mv` as Sjaak II and HoiXiangqi write it: `Ch2-e2`, `Ch2xh9`.
    fn written(&self, mv: Move) -> String {
        let letter = self
            .pos
            .piece_at(mv.from)
            .map_or('?', |p| role_letter(p.role));
        let sep = if self.pos.piece_at(mv.to).is_some() {
            'x'
        } else {
            '-'
        };
        let (from, to) = (self.square_text(mv.from), self.move_to_text(mv));
        format!("{letter}{from}{sep}{to}")
    }

    fn xboard_perft(&self, depth: u32, per_move: bool, out: &mut String) {
        for d in 1..=depth {
            let total = if per_move && !self.args.totals_only {
                let mut running = 0;
                for (mv, n) in self.divide(d) {
                    running += n;
                    let count = self.count_text(n);
                    *out += &format!("  {} {count:>10} {running:>10}\n", self.written(mv));
                }
                running
            } else {
                self.generator().perft(&self.pos, d)
            };
            let total = self.count_text(total);
            *out += &format!(" {d} {total:>10}  0.00  0nps\n");
        }
    }

    /// One moves-protocol request; `None` means quit.
    fn moves(&mut self, line: &str) -> Option<String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["xqdiff", "moves", _] if self.args.no_handshake => {
                log(self.args, "fault no-handshake");
                Some(String::new())
            }
            ["xqdiff", "moves", _] => {
                let play = if self.args.fen_only { "" } else { " play" };
                let pseudo = if self.args.offer_pseudo {
                    " pseudo check"
                } else {
                    ""
                };
                Some(format!("ok name=xqdiff-test-engine{play}{pseudo}\n"))
            }
            ["check", fen @ ..] => Some(format!("{}\n", self.check_answer(&fen.join(" ")))),
            [verb @ ("legal" | "pseudo"), rest @ ..] => {
                let split = rest
                    .iter()
                    .position(|w| *w == "moves")
                    .unwrap_or(rest.len());
                let (fen, moves) = rest.split_at(split);
                match self.read_fen(&fen.join(" ")) {
                    Ok(pos) => self.pos = pos,
                    Err(e) => return Some(format!("error {e}\n")),
                }
                for text in moves.iter().skip(1) {
                    if self.args.fen_only || !self.play(text) {
                        return Some(format!("error illegal move {text}\n"));
                    }
                }
                let answer = self.generator().generate(&self.pos);
                // King-capture rules list every pseudo-legal move as legal.
                let moves = if *verb == "pseudo" || self.args.king_capture {
                    answer.pseudo_legal
                } else {
                    self.divide(1).into_iter().map(|(mv, _)| mv).collect()
                };
                let listed: Vec<String> = moves.into_iter().map(|mv| self.move_text(mv)).collect();
                Some(format!("{}\n", listed.join(" ")))
            }
            ["quit"] => None,
            _ => Some(format!("error unknown request {line}\n")),
        }
    }

    /// `yes` or `no`: whether the side to move is in check on `fen`, which may have
    /// the other king attacked too (the board after a move that gives check, with the
    /// mover to move again): such a board is read from its squares alone, the others
    /// through the generator and its planted bug.
    fn check_answer(&self, fen: &str) -> String {
        let attacked = match xqdiff::fen::parse_setup(fen) {
            Err(e) => return format!("error bad FEN {fen}: {e}"),
            Ok(setup) => match Position::new(setup.clone()) {
                Ok(pos) => self.generator().generate(&pos).in_check,
                Err(_) => setup.kings_facing() || !setup.checkers(setup.turn).is_empty(),
            },
        };
        (if attacked { "yes" } else { "no" }).to_owned()
    }

    /// The count below each root move, with `--list-illegal` the illegal ones as 0.
    fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        let in_check = !self.pos.setup().checkers(self.pos.turn()).is_empty();
        if in_check && self.args.crash_in_check {
            crash(self.args, 4);
        }
        if in_check && self.args.hang_in_check {
            hang(self.args);
        }
        let mut counts = self.generator().divide(&self.pos, depth, false, None);
        if self.args.flaky {
            let n = self.answers.get();
            self.answers.set(n + 1);
            if n % 2 == 1 {
                counts.pop();
            }
        }
        if self.args.list_illegal {
            let probe = self.generator().probe(&self.pos);
            let legal = probe.legal_moves();
            let illegal = probe
                .pseudo_legal
                .into_iter()
                .filter(|m| !legal.contains(m));
            counts.extend(illegal.map(|m| (m, 0)));
        }
        counts
    }

    /// What counts the moves of the current position: the bug-free generator where
    /// `--bug-in-letters` spares it.
    fn generator(&self) -> &dyn Generator {
        if self.spared {
            &BitboardGen
        } else {
            self.generator
        }
    }

    /// Reads a FEN, refusing the letters `--fen-letters` excludes the way Sjaak does.
    fn read_fen(&mut self, fen: &str) -> Result<Position, String> {
        let placement = fen.split_whitespace().next().unwrap_or("");
        self.spared = match self.args.bug_in_letters {
            Some(Letters::Nb) => placement.contains(['h', 'H', 'e', 'E']),
            Some(Letters::He) => placement.contains(['n', 'N', 'b', 'B']),
            None => false,
        };
        let refused = match self.args.fen_letters {
            Some(Letters::Nb) => "hHeE",
            Some(Letters::He) => "nNbB",
            None => "",
        };
        if self.args.skip_other_letters {
            let rest = fen.split_once(' ').map_or("", |(_, rest)| rest);
            let skipped = format!("{} {rest}", skip_letters(placement, refused));
            return Position::from_fen(skipped.trim_end())
                .map_err(|e| format!("bad FEN {fen}: {e}"));
        }
        if let Some(c) = placement.chars().find(|c| refused.contains(*c)) {
            return Err(format!("unknown piece type '{c}' (bad FEN {fen})"));
        }
        Position::from_fen(fen).map_err(|e| format!("bad FEN {fen}: {e}"))
    }

    /// Plays a move written in this engine's numbering, if it is legal here.
    fn play(&mut self, text: &str) -> bool {
        let Some(mv) = parse_move(text, self.args.ranks) else {
            return false;
        };
        match self.generator().play(&self.pos, mv) {
            Ok(pos) => {
                self.pos = pos;
                true
            }
            Err(_) => false,
        }
    }

    fn some_move(&self) -> String {
        let legal = self.generator().probe(&self.pos).legal_moves();
        legal
            .first()
            .map_or("(none)".to_string(), |&mv| self.move_text(mv))
    }

    fn square_text(&self, sq: Square) -> String {
        format!(
            "{}{}",
            char::from(b'a' + sq.file()),
            sq.rank() + self.args.ranks
        )
    }

    /// The to-square as printed: with `--garbage moves` on no file of the board.
    fn move_to_text(&self, mv: Move) -> String {
        if self.args.garbage == Some(Garbage::Moves) {
            format!("z{}", mv.to.rank() + self.args.ranks)
        } else {
            self.square_text(mv.to)
        }
    }

    fn move_text(&self, mv: Move) -> String {
        format!("{}{}", self.square_text(mv.from), self.move_to_text(mv))
    }

    fn count_text(&self, n: u64) -> String {
        if self.args.garbage == Some(Garbage::Counts) {
            format!("{n}?")
        } else {
            n.to_string()
        }
    }
}

/// `placement` with each of `skipped` read as an empty point (runs of empty points
/// added up, as FEN writes them).
fn skip_letters(placement: &str, skipped: &str) -> String {
    let ranks: Vec<String> = placement
        .split('/')
        .map(|rank| {
            let mut out = String::new();
            let mut empty = 0;
            for c in rank.chars() {
                if let Some(n) = c.to_digit(10) {
                    empty += n;
                } else if skipped.contains(c) {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out += &empty.to_string();
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            out
        })
        .collect();
    ranks.join("/")
}

/// Sjaak's letters: H for horse, E for elephant.
fn role_letter(role: Role) -> char {
    match role {
        Role::Horse => 'H',
        Role::Elephant => 'E',
        other => other.upper_char(),
    }
}

/// `h2e2` (or `b3b10` when ranks start at 1).
fn parse_move(text: &str, first_rank: u8) -> Option<Move> {
    if !text.is_ascii() || text.len() < 4 {
        return None;
    }
    let split = 1 + text[1..].find(|c: char| c.is_ascii_alphabetic())?;
    let square = |s: &str| {
        let file = s.as_bytes()[0].checked_sub(b'a')?;
        let rank: u8 = s[1..].parse().ok()?;
        Square::new(file, rank.checked_sub(first_rank)?)
    };
    Some(Move::new(square(&text[..split])?, square(&text[split..])?))
}
