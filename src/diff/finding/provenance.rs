//! How a finding is found again: one command line, quoted for a POSIX shell, printed
//! alike in every format, so what a report says can be pasted and run.

use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// How a finding was found, as the one command line that finds it again: printed the
/// same in corpus notes, the report's `found_by`, the HTML and the Markdown, and run
/// as printed it reproduces the finding. Beside the command it keeps what a user
/// needs to see the bug without xqdiff: the witness in the subject's own protocol,
/// and the command that lists the built-ins' answer there ([`Provenance::lines`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Provenance {
    words: Vec<String>,
    /// The witness as the lines a user types into the subject (handshake included),
    /// when the subject is a program outside xqdiff.
    said: Vec<String>,
    /// `xqdiff moves` (depth 1) or `xqdiff perft --divide` on the witness.
    answer: Vec<String>,
    /// Whether `words` is a command; else it is one sentence on how to find it again
    /// (a library checked inside the user's own program, which xqdiff cannot name).
    runnable: bool,
}

impl Provenance {
    /// A command from its words, `xqdiff` first.
    pub fn command<I, S>(words: I) -> Provenance
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Provenance {
            words: words.into_iter().map(Into::into).collect(),
            said: Vec::new(),
            answer: Vec::new(),
            runnable: true,
        }
    }

    /// No command but a sentence: how a finding of a subject only the user's program
    /// can run is found again. The built-ins' answer still comes with it.
    pub fn described(how: impl Into<String>) -> Provenance {
        Provenance {
            runnable: false,
            ..Provenance::command([how.into()])
        }
    }

    /// The same, with the built-ins' answer on `pos` at `depth` to compare with.
    pub fn answered_on(mut self, pos: &Position, depth: u32) -> Provenance {
        self.answer = answer_words(pos, depth);
        self
    }

    /// The same, with the witness as the subject's own protocol lines.
    pub fn said<I, S>(mut self, lines: I) -> Provenance
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.said = lines.into_iter().map(Into::into).collect();
        self
    }

    /// The oracle on one position, followed and minimized as a campaign would: how a
    /// disagreement met on a position is seen again whatever found it (a fuzz case, the
    /// metamorphic phase, a corpus case), independent of seeds and of the corpus. A
    /// board that went wrong along a line is walked along the same line.
    pub fn position(pos: &Position, line: &[Move]) -> Provenance {
        let mut words = vec![
            "xqdiff".to_owned(),
            "minimize".to_owned(),
            "--fen".to_owned(),
            pos.fen(),
        ];
        if !line.is_empty() {
            words.push("--walk".to_owned());
            let line: Vec<String> = line.iter().map(Move::to_string).collect();
            words.push(line.join(" "));
        }
        words.push("--no-save".to_owned());
        Provenance::command(words).answered_on(pos, 1)
    }

    /// Perft to `depth` from `pos` on `gens` (named only when they are not every
    /// built-in generator).
    pub fn perft(pos: &Position, depth: u32, gens: &[&dyn Generator]) -> Provenance {
        let mut words = vec![
            "xqdiff".to_owned(),
            "perft".to_owned(),
            "--fen".to_owned(),
            pos.fen(),
            "--depth".to_owned(),
            depth.to_string(),
        ];
        let names: Vec<&str> = gens.iter().map(|g| g.name()).collect();
        if names != crate::generators::names() {
            for name in names {
                words.extend(["--generator".to_owned(), name.to_owned()]);
            }
        }
        words.push("--no-save".to_owned());
        // Perft of the built-ins is itself the answer; the move lists show where.
        Provenance::command(words).answered_on(pos, 1)
    }

    /// The words, `xqdiff` first.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    /// The witness as the subject's own protocol lines (empty for a subject inside
    /// xqdiff).
    pub fn subject_lines(&self) -> &[String] {
        &self.said
    }

    /// The command listing the built-ins' answer on the witness, when there is one.
    pub fn answer(&self) -> Option<String> {
        (!self.answer.is_empty()).then(|| shell_line(&self.answer))
    }

    /// The "Reproduce with:" block every finding ends with (`reproduce_lines`).
    pub fn lines(&self) -> Vec<String> {
        reproduce_lines(&self.to_string(), &self.said, self.answer().as_deref())
    }
}

/// The heading of the block that ends every finding.
pub(crate) const REPRODUCE_WITH: &str = "Reproduce with:";

/// The "Reproduce with:" block, one line each, unindented: the command, the subject's
/// own protocol lines, the built-ins' answer. Every format writes it from this.
pub(crate) fn reproduce_lines(command: &str, said: &[String], answer: Option<&str>) -> Vec<String> {
    let mut out = vec![REPRODUCE_WITH.to_owned(), format!("  {command}")];
    if !said.is_empty() {
        out.push("  or by hand, typed into the subject:".to_owned());
        out.extend(said.iter().map(|l| format!("    {l}")));
    }
    if let Some(answer) = answer {
        out.push("  the built-in generators' answer there:".to_owned());
        out.push(format!("    {answer}"));
    }
    out
}

/// The command that shows the built-ins' answer on `pos`: the move lists at depth 1,
/// the per-move counts deeper.
fn answer_words(pos: &Position, depth: u32) -> Vec<String> {
    let mut words: Vec<String> = if depth <= 1 {
        ["xqdiff", "moves", "--fen"].map(String::from).to_vec()
    } else {
        ["xqdiff", "perft", "--divide", "--fen"]
            .map(String::from)
            .to_vec()
    };
    words.push(pos.fen());
    if depth > 1 {
        words.extend([
            "--depth".to_owned(),
            depth.to_string(),
            "--no-save".to_owned(),
        ]);
    }
    words
}

fn shell_line(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
    quoted.join(" ")
}

/// The command line, each word quoted for a POSIX shell where it needs to be.
impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.runnable {
            true => f.write_str(&shell_line(&self.words)),
            false => f.write_str(&self.words.concat()),
        }
    }
}

/// `word` as a POSIX shell reads it back, quoted by the one helper every command line
/// xqdiff prints goes through (the `shlex` crate, which also splits `--cmd`). Only a
/// NUL, which no argument can hold, is left as it is.
fn shell_word(word: &str) -> String {
    shlex::try_quote(word).map_or_else(|_| word.to_owned(), |q| q.into_owned())
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provenance_quotes_each_word_for_the_shell() {
        let pos = Position::startpos();
        let p = Provenance::position(&pos, &["h2e2".parse().unwrap()]);
        let line = p.to_string();
        assert!(
            line.starts_with("xqdiff minimize --fen 'rnbakabnr/"),
            "{line}"
        );
        assert!(line.ends_with("--walk h2e2 --no-save"), "{line}");
        let tricky = Provenance::command(["xqdiff", "engine", "--cmd", "it's \"x\" $y", ""]);
        let words = shlex::split(&tricky.to_string()).expect("a shell line");
        assert_eq!(words, tricky.words());
    }
}
