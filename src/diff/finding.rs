//! The life of a finding, in one place. Every phase and command that compares the
//! built-in generators (the fuzz campaign, the corpus replay, the metamorphic phase, a
//! perft descent, `xqdiff minimize`) hands what it saw to a [`Findings`], which:
//!
//! 1. shows each sighting where it shows by itself ([`shown`]: a board gone wrong along
//!    a line is followed back, a symmetry failure is seen on the image), so one bug has
//!    one signature whichever phase met it;
//! 2. groups sightings by [`Signature`], and marks a group known when the [`Known`] list
//!    names it;
//! 3. minimizes the sightings a group still wants a witness from (the same signature
//!    kept), and keeps the smallest witness and up to [`WITNESSES`] by one rule
//!    ([`Finding::offer`]);
//! 4. names the cause ([`diagnosed`]): the odd generator's answers on the first witness
//!    of each move-class signature are put to the catalogue of rule variants, and the
//!    variant that explains them becomes the finding's signature, so the move classes
//!    one misread rule touches are one finding (the engine check names a subject's
//!    findings by the same function);
//! 5. saves each witness into the corpus ([`corpus::Folder`]), with the one runnable
//!    command that reproduces it ([`Provenance`]);
//! 6. hands the report one [`Finding`] per bug.
//!
//! What is kept depends only on the sightings in their order, so a run gives the same
//! findings at any thread count.

use crate::diagnose::{
    diagnose_among, diagnose_bounded, diagnose_pairs, diagnose_pairs_asking, recount, Answer,
    AnswerFault, Bound, Cause, Diagnosis, Question, Variant, Witness,
};
use crate::diff::corpus::{self, Case, Replay, WITNESSES};
use crate::diff::minimize::minimize;
use crate::diff::oracle::{follow, through_image, CheckKind, Disagreement};
use crate::diff::signature::{
    classify, parse_known, KnownError, Lists, MoveClass, Rule, Signature, STALE_BOARD,
};
use crate::generators::face::Generator;
use crate::generators::naive::NaiveGen;
use crate::generators::MoveGen;
use crate::moves::{Move, MoveList};
use crate::piece::Role;
use crate::position::Position;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The bugs a run is told about beforehand (`--known FILE`), read once into a set. A
/// known bug is reported as known, never fails a run and never counts toward a limit
/// on findings, in every phase and command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Known {
    signatures: BTreeSet<String>,
}

/// The names the two state checks had before they shared [`STALE_BOARD`]: a known list
/// written then still matches.
const OLD_STALE_NAMES: [&str; 2] = ["reused-board", "walked-board"];

impl Known {
    /// Reads a known-bugs file's text (one signature a line, a note after it).
    pub fn parse(text: &str) -> Result<Known, KnownError> {
        Ok(parse_known(text)?
            .into_iter()
            .map(|(sig, _)| sig)
            .collect::<Known>())
    }

    /// Whether the list names `signature` (under its name, or a name it had before).
    pub fn contains(&self, signature: &Signature) -> bool {
        self.signatures.contains(&signature.to_string())
    }

    /// Whether the list names a finding called `signature` whose sightings showed
    /// `symptoms`: by its cause, or by any of its move-class signatures (what a list
    /// written before findings were named by their causes holds).
    pub fn names<'a>(
        &self,
        signature: &Signature,
        symptoms: impl IntoIterator<Item = &'a Signature>,
    ) -> bool {
        self.contains(signature) || symptoms.into_iter().any(|s| self.contains(s))
    }

    /// How many signatures the list holds.
    pub fn len(&self) -> usize {
        self.signatures.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.signatures.is_empty()
    }
}

impl<S: AsRef<str>> FromIterator<S> for Known {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Known {
        let canonical = |s: &str| -> String {
            for old in OLD_STALE_NAMES {
                if let Some(rest) = s.strip_prefix(old).filter(|r| r.starts_with('/')) {
                    return format!("{STALE_BOARD}{rest}");
                }
            }
            s.to_owned()
        };
        Known {
            signatures: iter.into_iter().map(|s| canonical(s.as_ref())).collect(),
        }
    }
}

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

    /// The "Reproduce with:" block every finding ends with ([`reproduce_lines`]).
    pub fn lines(&self) -> Vec<String> {
        reproduce_lines(&self.to_string(), &self.said, self.answer().as_deref())
    }
}

/// The heading of the block that ends every finding.
pub const REPRODUCE_WITH: &str = "Reproduce with:";

/// The "Reproduce with:" block, one line each, unindented: the command, the subject's
/// own protocol lines, the built-ins' answer. Every format writes it from this.
pub fn reproduce_lines(command: &str, said: &[String], answer: Option<&str>) -> Vec<String> {
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

/// A disagreement as a phase met it, before anything is done with it.
#[derive(Clone, Debug)]
pub struct Sighting {
    /// Where it comes in the phase's own order (a case number, a position's index):
    /// findings are listed in this order, and ties between witnesses go to the earlier.
    pub order: u64,
    /// The position it was met on.
    pub position: Position,
    /// What the oracle said there.
    pub disagreement: Disagreement,
    /// How to see it again.
    pub provenance: Provenance,
    /// The root and moves that reached `position`, when it was reached by moves (a
    /// perft descent, a position one move after a root).
    pub path: Option<(Position, Vec<Move>)>,
    /// The perft depth asked at the path's root, for a perft finding.
    pub depth: Option<u32>,
    /// How long into the run it was met.
    pub after: Duration,
}

/// One distinct bug: its signature, every sighting counted, the smallest witness with
/// where it came from, and a few other witnesses.
#[derive(Clone, Debug)]
pub struct Finding {
    /// Which bug: its cause when diagnosis names one, else the move-class signature
    /// every sighting shares.
    pub signature: Signature,
    /// The move-class signatures its sightings showed (one, unless a cause joined
    /// several).
    pub symptoms: Vec<Signature>,
    /// Which rule variants explain it; `None` when it could not be diagnosed (no one
    /// generator is the odd one out).
    pub diagnosis: Option<Diagnosis>,
    /// What the diagnosis was made on: the odd generator's answers on the witnesses,
    /// and on the positions asked to tell candidates apart.
    pub evidence: Vec<Witness>,
    /// Whether the known list names it.
    pub known: bool,
    /// How many sightings showed it.
    pub hits: u64,
    /// The order of the first sighting: findings are listed by it.
    pub first: u64,
    /// How long into the run the first sighting was met.
    pub found_after: Duration,
    /// The sighting the smallest witness came from.
    pub origin: Sighting,
    /// The smallest witness.
    pub minimized: Position,
    /// The disagreement on it.
    pub disagreement: Disagreement,
    /// Every minimized witness kept, the smallest among them, in the order found.
    pub witnesses: Vec<Position>,
    /// The corpus file of the smallest witness (or the one already there), if saving.
    pub file: Option<PathBuf>,
    /// Every corpus file written (or already there) for the witnesses, in order.
    pub saved: Vec<PathBuf>,
}

impl Finding {
    /// The witnesses other than the smallest.
    pub fn others(&self) -> impl Iterator<Item = &Position> {
        self.witnesses.iter().filter(move |w| **w != self.minimized)
    }

    /// Whether the finding would keep one more witness.
    pub fn wants_witness(&self) -> bool {
        self.witnesses.len() < WITNESSES
    }

    /// The one rule for witnesses: up to [`WITNESSES`] distinct ones are kept, and the
    /// smallest (fewest pieces; the earlier sighting on a tie) is the finding's. Returns
    /// whether `minimized` was kept, and whether it became the smallest.
    pub fn offer(
        &mut self,
        from: &Sighting,
        minimized: &Position,
        disagreement: &Disagreement,
    ) -> (bool, bool) {
        let (kept, smaller) = offer_witness(
            &mut self.witnesses,
            (&self.minimized, self.origin.order),
            minimized,
            from.order,
        );
        if smaller {
            self.origin = from.clone();
            self.minimized = minimized.clone();
            self.disagreement = disagreement.clone();
        }
        (kept, smaller)
    }

    /// Takes in `later`, a finding of the same bug: named by the most specific of the
    /// causes the two `shared`, with every sighting, move class, witness and file of
    /// both, the smallest witness leading.
    fn absorb(&mut self, later: Finding, shared: Diagnosis, known: &Known) {
        if let Some(v) = shared.first() {
            self.signature = Signature::cause(&self.signature.side, v);
        }
        self.diagnosis = Some(shared);
        self.hits += later.hits;
        if later.first < self.first {
            self.first = later.first;
            self.found_after = later.found_after;
        }
        for symptom in later.symptoms {
            if !self.symptoms.contains(&symptom) {
                self.symptoms.push(symptom);
            }
        }
        self.evidence.extend(later.evidence);
        let (_, smaller) = self.offer(&later.origin, &later.minimized, &later.disagreement);
        if smaller {
            self.file = later.file.or(self.file.take());
        }
        for w in later.witnesses {
            if self.wants_witness() && !self.witnesses.contains(&w) {
                self.witnesses.push(w);
            }
        }
        for file in later.saved {
            if !self.saved.contains(&file) {
                self.saved.push(file);
            }
        }
        self.known = self.known || later.known || known.names(&self.signature, &self.symptoms);
    }

    /// The corpus case for one of its witnesses, found by `from`.
    pub fn case(from: &Sighting, disagreement: &Disagreement) -> Case {
        let mut case = Case::from_disagreement(
            disagreement,
            &from.position.fen(),
            &from.provenance.to_string(),
        );
        if let Some((root, path)) = &from.path {
            let path: Vec<String> = path.iter().map(Move::to_string).collect();
            case.notes.push(("perft-root".into(), root.fen()));
            if let Some(depth) = from.depth {
                case.notes.push(("perft-depth".into(), depth.to_string()));
            }
            case.notes.push((
                "path".into(),
                if path.is_empty() {
                    "(root)".into()
                } else {
                    path.join(" ")
                },
            ));
        }
        case
    }
}

/// The one rule for the witnesses of any finding, the built-ins' or a subject's: up to
/// [`WITNESSES`] distinct witnesses are `kept`, and the smallest (fewest pieces; the
/// earlier found on a tie) leads. Offers `candidate`, found at `order`, against the one
/// leading now; returns whether it was kept, and whether it now leads.
pub fn offer_witness(
    kept: &mut Vec<Position>,
    leading: (&Position, u64),
    candidate: &Position,
    order: u64,
) -> (bool, bool) {
    if kept.len() >= WITNESSES || kept.contains(candidate) {
        return (false, false);
    }
    kept.push(candidate.clone());
    let size = |p: &Position| p.pieces().count();
    let smaller = (size(candidate), order) < (size(leading.0), leading.1);
    (true, smaller)
}

/// What a [`Findings`] does with what it is handed.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The known bugs.
    pub known: Known,
    /// Where witnesses are saved; `None` keeps them in memory.
    pub save: Option<PathBuf>,
    /// Whether sightings are minimized: a corpus case replayed is a witness already.
    pub keep_as_is: bool,
}

/// The findings of one phase or command, as they are handed in.
#[derive(Debug)]
pub struct Findings {
    settings: Settings,
    folder: Option<corpus::Folder>,
    list: Vec<Finding>,
    /// Witnesses that could not be saved, one sentence each.
    pub write_errors: Vec<String>,
}

impl Findings {
    /// None yet.
    pub fn new(settings: Settings) -> Findings {
        Findings {
            settings,
            folder: None,
            list: Vec::new(),
            write_errors: Vec::new(),
        }
    }

    /// Whether `signature` is a known bug: the list names it, or it is a move class of
    /// a finding the list names.
    pub fn is_known(&self, signature: &Signature) -> bool {
        self.settings.known.contains(signature)
            || self
                .list
                .iter()
                .any(|f| f.known && f.symptoms.contains(signature))
    }

    /// Where in [`Findings::list`] the finding a sighting of the move class `symptom`
    /// went to is: the one named by its cause, when that joined several.
    pub fn index_of(&self, symptom: &Signature) -> Option<usize> {
        self.list.iter().position(|f| f.symptoms.contains(symptom))
    }

    /// The findings so far, in the order of their first sightings.
    pub fn list(&self) -> &[Finding] {
        &self.list
    }

    /// How many findings are not known bugs.
    pub fn new_count(&self) -> usize {
        self.list.iter().filter(|f| !f.known).count()
    }

    /// The findings, in the order of their first sightings, each cause counted over
    /// all its evidence.
    pub fn into_list(mut self) -> Vec<Finding> {
        self.pair_unexplained();
        self.list.sort_by_key(|f| f.first);
        for f in &mut self.list {
            recount_diagnosis(&mut f.diagnosis, &f.evidence);
        }
        self.list
    }

    /// Shows each sighting where it shows by itself, names its bug, and counts it;
    /// minimizes (in parallel) the ones their bug still wants a witness from, keeps
    /// them by [`Finding::offer`]'s rule and saves them. Sightings are taken in
    /// `order`; the result does not depend on the thread count.
    pub fn record(&mut self, sightings: Vec<Sighting>, gens: &[&dyn Generator]) {
        self.record_shown(show(sightings, gens), gens);
    }

    /// [`Findings::record`] for sightings [`show`] has shown already.
    pub fn record_shown(&mut self, shown: Vec<Shown>, gens: &[&dyn Generator]) {
        // Which sightings their bug will want a witness from, planned in order, so the
        // likely ones are minimized side by side beforehand.
        let mut likely = vec![false; shown.len()];
        for i in 0..shown.len() {
            let sig = &shown[i].signature;
            let have = self
                .list
                .iter()
                .find(|f| f.signature == *sig)
                .map_or(0, |f| f.witnesses.len());
            let planned = (0..i)
                .filter(|&j| likely[j] && shown[j].signature == *sig)
                .count();
            likely[i] = have + planned < WITNESSES;
        }
        let keep = self.settings.keep_as_is;
        let small = |s: &Shown| -> (Position, Disagreement) {
            if keep {
                (s.position.clone(), s.disagreement.clone())
            } else {
                minimize(&s.position, &s.disagreement, gens)
            }
        };
        let ahead: Vec<Option<(Position, Disagreement)>> = shown
            .par_iter()
            .zip(&likely)
            .map(|(s, &want)| want.then(|| small(s)))
            .collect();
        for (s, ahead) in shown.into_iter().zip(ahead) {
            let index = self
                .list
                .iter()
                .position(|f| f.symptoms.contains(&s.signature));
            let wants = index.is_none_or(|i| self.list[i].wants_witness());
            let Some((minimized, disagreement)) = ahead.or_else(|| wants.then(|| small(&s))) else {
                if let Some(i) = index {
                    self.list[i].hits += 1;
                }
                continue;
            };
            let sighting = s.sighting;
            let odd = odd_generator(&s.signature, gens);
            let shown_at = s.position;
            let index = match index {
                Some(i) => {
                    let f = &mut self.list[i];
                    if f.diagnosis.is_some() && !f.witnesses.contains(&minimized) {
                        f.evidence
                            .extend(odd.and_then(|g| in_process_witness(g, &minimized)));
                    }
                    i
                }
                None => {
                    // A move class not seen before: named by its cause, which may be
                    // one a finding already has.
                    let causes =
                        named_causes(self.list.iter().filter_map(|f| f.diagnosis.as_ref()));
                    let named = match odd {
                        // The minimized witness, or where it was shown: a check detector
                        // that is wrong only about whether the king is in check may show
                        // in the lists only with other pieces about.
                        Some(g) => diagnosed(
                            &s.signature,
                            in_process_witness(g, &minimized)
                                .or_else(|| in_process_witness(g, &shown_at))
                                .into_iter()
                                .collect(),
                            &causes,
                            in_process_asker(g),
                        ),
                        None => Diagnosed::not(&s.signature),
                    };
                    self.named(s.signature, named, &sighting, &minimized, &disagreement)
                }
            };
            let finding = &mut self.list[index];
            finding.hits += 1;
            if sighting.order < finding.first {
                finding.first = sighting.order;
                finding.found_after = sighting.after;
            }
            let (kept, smaller) = finding.offer(&sighting, &minimized, &disagreement);
            if kept {
                self.save(index, &sighting, &disagreement, smaller);
            }
        }
        self.join_shared_causes();
    }

    /// Names the findings left unexplained by two bugs at once where they can be now
    /// ([`paired_later`]: a cause found after them, beside another), and joins them to
    /// the findings of the variant they are named by.
    fn pair_unexplained(&mut self) {
        let causes = named_causes(self.list.iter().filter_map(|f| f.diagnosis.as_ref()));
        let known = &self.settings.known;
        for f in &mut self.list {
            if let Some(d) = paired_later(f.diagnosis.as_ref(), &f.evidence, &causes) {
                if let Some(v) = d.first() {
                    f.signature = Signature::cause(&f.signature.side, v);
                }
                f.diagnosis = Some(d);
                f.known = f.known || known.names(&f.signature, &f.symptoms);
            }
        }
        self.join_shared_causes();
    }

    /// Joins the findings one variant explains alike: a finding first named by one of
    /// several variants it could not tell apart, and a later move class named by
    /// another of them, are one bug.
    fn join_shared_causes(&mut self) {
        let known = &self.settings.known;
        join_shared_causes(
            &mut self.list,
            |f| (f.signature.side.as_str(), f.diagnosis.as_ref()),
            |kept, later, shared| kept.absorb(later, shared, known),
        );
    }

    /// The finding a sighting of the new move class `symptom` belongs to, once `named`:
    /// the one with the same signature (its cause), or a new one.
    fn named(
        &mut self,
        symptom: Signature,
        named: Diagnosed,
        sighting: &Sighting,
        minimized: &Position,
        disagreement: &Disagreement,
    ) -> usize {
        let known = &self.settings.known;
        if let Some(i) = self
            .list
            .iter()
            .position(|f| f.signature == named.signature)
        {
            let f = &mut self.list[i];
            f.known |= known.contains(&symptom);
            f.symptoms.push(symptom);
            f.evidence.extend(named.evidence);
            return i;
        }
        self.list.push(Finding {
            known: known.names(&named.signature, [&symptom]),
            signature: named.signature,
            symptoms: vec![symptom],
            diagnosis: named.diagnosis,
            evidence: named.evidence,
            hits: 0,
            first: sighting.order,
            found_after: sighting.after,
            origin: sighting.clone(),
            minimized: minimized.clone(),
            disagreement: disagreement.clone(),
            witnesses: Vec::new(),
            file: None,
            saved: Vec::new(),
        });
        self.list.len() - 1
    }

    /// Saves a witness of finding `index`, when saving.
    fn save(&mut self, index: usize, from: &Sighting, d: &Disagreement, smaller: bool) {
        let Some(dir) = &self.settings.save else {
            return;
        };
        let folder = match &mut self.folder {
            Some(folder) => folder,
            None => match corpus::Folder::open(dir) {
                Ok(folder) => self.folder.insert(folder),
                Err(e) => {
                    self.write_errors.push(format!("{}: {e}", dir.display()));
                    return;
                }
            },
        };
        let written = folder
            .write(&Finding::case(from, d))
            .map_err(|e| format!("{}: {e}", dir.display()));
        let finding = &mut self.list[index];
        match written {
            Ok((path, _)) => {
                if smaller || finding.file.is_none() {
                    finding.file = Some(path.clone());
                }
                if !finding.saved.contains(&path) {
                    finding.saved.push(path);
                }
            }
            Err(e) => self.write_errors.push(e),
        }
    }
}

/// A corpus replay's failures as findings, and which of them are known bugs.
#[derive(Clone, Debug, Default)]
pub struct Replayed {
    /// One per bug the failing cases show, kept as they are (a corpus case is a witness
    /// already) and never saved again; each names its case file.
    pub findings: Vec<Finding>,
    /// For each failing case, in the replay's order: whether its bug is known.
    pub known_failures: Vec<bool>,
    /// For each unmet expectation, in the replay's order: whether it is a known bug's,
    /// that is, its case fails by a known bug whose odd one out is the generator that
    /// misses it.
    pub known_unmet: Vec<bool>,
}

/// What a corpus replay's failures are as findings: each failing case's first
/// disagreement shown, grouped by bug and held to the known list.
pub fn replayed(r: &Replay, known: &Known, gens: &[&dyn Generator]) -> Replayed {
    let sightings: Vec<Sighting> = r
        .failures
        .iter()
        .enumerate()
        .filter_map(|(i, (_, found))| {
            let first = found.first()?;
            let position = first.position.clone();
            Some(Sighting {
                order: i as u64,
                provenance: Provenance::position(&position, &first.line),
                position,
                disagreement: first.clone(),
                path: None,
                depth: None,
                after: Duration::ZERO,
            })
        })
        .collect();
    let shown = show(sightings, gens);
    let seen: Vec<(usize, Signature, Option<String>)> = shown
        .iter()
        .map(|s| {
            let odd = s.disagreement.odd_one_out.clone();
            (s.sighting.order as usize, s.signature.clone(), odd)
        })
        .collect();
    let mut findings = Findings::new(Settings {
        known: known.clone(),
        save: None,
        keep_as_is: true,
    });
    findings.record_shown(shown, gens);
    // Known once recorded: a list may name the bug by the cause its finding is given.
    let mut known_failures = vec![false; r.failures.len()];
    let mut odd_known: Vec<(&std::path::Path, Option<&str>)> = Vec::new();
    for (i, signature, odd) in &seen {
        known_failures[*i] = findings.is_known(signature);
        if known_failures[*i] {
            odd_known.push((&r.failures[*i].0, odd.as_deref()));
        }
    }
    let known_unmet = r
        .unmet
        .iter()
        .map(|u| {
            u.generator.is_some()
                && odd_known
                    .iter()
                    .any(|&(p, odd)| p == u.path && odd == u.generator.as_deref())
        })
        .collect();
    let mut list = findings.into_list();
    for f in &mut list {
        f.file = r
            .failures
            .get(f.origin.order as usize)
            .map(|(p, _)| p.clone());
    }
    Replayed {
        findings: list,
        known_failures,
        known_unmet,
    }
}

/// A sighting shown where it shows by itself, and the bug it is.
#[derive(Clone, Debug)]
pub struct Shown {
    /// What was handed in.
    pub sighting: Sighting,
    /// Where it shows by itself ([`shown`]).
    pub position: Position,
    /// What the oracle says there.
    pub disagreement: Disagreement,
    /// Which bug.
    pub signature: Signature,
}

/// Every sighting [`shown`], side by side, then put in `order`.
pub fn show(sightings: Vec<Sighting>, gens: &[&dyn Generator]) -> Vec<Shown> {
    let mut out: Vec<Shown> = sightings
        .into_par_iter()
        .map(|sighting| {
            let (position, disagreement) = shown(&sighting.position, &sighting.disagreement, gens);
            Shown {
                signature: disagreement.signature(),
                sighting,
                position,
                disagreement,
            }
        })
        .collect();
    out.sort_by_key(|s| s.sighting.order);
    out
}

/// `n` and `noun`, plural unless `n` is 1: how findings and their hits are counted in
/// every message, whichever layer writes it.
pub(crate) fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    match noun.strip_suffix('y') {
        // ply, copy; but key, day
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

/// Where a disagreement met on `pos` shows by itself: a board gone wrong along a line
/// followed back to where it still shows, and a mirror or colour-swap failure seen on
/// the image, where the odd generator answers the image wrongly by itself. Every phase
/// names a bug by the signature of what this returns.
pub fn shown(
    pos: &Position,
    d: &Disagreement,
    gens: &[&dyn Generator],
) -> (Position, Disagreement) {
    let (pos, d, _) = follow(pos, d, gens);
    through_image(&pos, &d, gens).unwrap_or((pos, d))
}

/// What diagnosing one finding may spend: a few dozen questions to an external subject,
/// and 50,000 divides of its own, which take under a second on a small witness. The
/// largest diagnosis of the test suite's findings took 18,346; the bound is work, not
/// time, so a busy machine names the same causes as an idle one.
pub const DIAGNOSIS_BOUND: Bound = Bound {
    questions: 24,
    work: 50_000,
};

/// The most evidence one finding keeps for its `cause:` line's count: its witnesses and
/// the questions asked about them, not every position that showed it.
const MOST_EVIDENCE: usize = 32;

/// A finding's name once its witnesses were put to the catalogue.
#[derive(Clone, Debug)]
pub struct Diagnosed {
    /// `cause/<side>/<variant>` when a variant explains it, else the move-class
    /// signature.
    pub signature: Signature,
    /// What the catalogue said; `None` when there was nothing to diagnose (no witness
    /// where the subject's answer differs from the rules').
    pub diagnosis: Option<Diagnosis>,
    /// The witnesses and the questions asked.
    pub evidence: Vec<Witness>,
}

impl Diagnosed {
    /// A finding that could not be diagnosed: named by its move class.
    pub fn not(symptom: &Signature) -> Diagnosed {
        Diagnosed {
            signature: symptom.clone(),
            diagnosis: None,
            evidence: Vec::new(),
        }
    }
}

/// Names a finding of the move class `symptom` by its cause: the rule variant that
/// reproduces the subject's answers on `witnesses`. A cause another finding has already
/// (`causes`) is tried first, alone: when it explains these witnesses too, the two are
/// one bug and no question is asked. Otherwise the whole catalogue is tried, and while
/// several variants tie, deciding positions are put to the subject through `ask`, within
/// [`DIAGNOSIS_BOUND`]. When no variant explains them alone, the subject may have two bugs
/// that show on one witness: each cause another finding has is tried beside each variant
/// of the catalogue ([`diagnose_pairs_asking`], confirmed with the questions left), and
/// the variant that explains them with one beside it names the finding, so it joins that
/// variant's own finding. Only witnesses where the subject's answer differs from the
/// rules' are used: on any other, every variant that happens to answer right would
/// explain it.
pub fn diagnosed(
    symptom: &Signature,
    witnesses: Vec<Witness>,
    causes: &[Variant],
    mut ask: impl FnMut(&Question) -> Option<Answer>,
) -> Diagnosed {
    let witnesses: Vec<Witness> = witnesses
        .into_iter()
        .filter(Witness::shows_a_difference)
        .collect();
    if witnesses.is_empty() {
        return Diagnosed::not(symptom);
    }
    let seen = causes
        .iter()
        .map(|&v| diagnose_among(&[v], &witnesses, &[]))
        .find(|d| !d.causes.is_empty());
    let (mut diagnosis, mut evidence) = match seen {
        Some(d) => (d, witnesses.clone()),
        None => diagnose_bounded(&witnesses, &[], DIAGNOSIS_BOUND, &mut ask),
    };
    if diagnosis.causes.is_empty() && diagnosis.fault.is_none() && !causes.is_empty() {
        // Every answer the subject gave counts, those to questions included: a variant
        // ruled out by a confirming position may be back beside another bug there.
        let asked = evidence.len().saturating_sub(witnesses.len());
        let room = DIAGNOSIS_BOUND.questions.saturating_sub(asked);
        let bound = Bound {
            questions: room,
            ..DIAGNOSIS_BOUND
        };
        let (paired, seen) = diagnose_pairs_asking(causes, &evidence, bound, &mut ask);
        if !paired.causes.is_empty() {
            diagnosis = paired;
            evidence = seen;
        }
    }
    // Unexplained: named by what its differences share, so one bug outside the
    // catalogue is one finding whichever kinds of move it shows on.
    // A list cut by count or order is asymmetric too (the moves cut depend on the order
    // they are found in): its shape names it better, and is looked for first.
    let mut shape = None;
    let asymmetric = diagnosis.fault == Some(AnswerFault::Asymmetric);
    if diagnosis.causes.is_empty() && (diagnosis.fault.is_none() || asymmetric) {
        shape = unexplained_shape(&witnesses, asymmetric, &mut ask);
        if shape.is_some() {
            diagnosis.fault = None;
        }
        diagnosis.learnt = shape.as_ref().map(|s| s.learnt.clone());
    }
    evidence.truncate(MOST_EVIDENCE);
    let fault = diagnosis.fault.as_ref().and_then(AnswerFault::check_name);
    Diagnosed {
        signature: match (diagnosis.first(), fault, shape) {
            (Some(v), _, _) => Signature::cause(&symptom.side, v),
            (None, Some(check), _) => Signature::plain(check, &symptom.side),
            (None, None, Some(shape)) => Signature::plain(&shape.check, &symptom.side),
            (None, None, None) => symptom.clone(),
        },
        diagnosis: Some(diagnosis),
        evidence,
    }
}

/// What the differences of a finding no variant explains share, as the one name it goes
/// by and what was learnt of it: one bug outside the catalogue is one finding, not one
/// per kind of move it touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The signature's check: `unexplained-<piece>-moves`, `unexplained-check-test`,
    /// `list-cut-at-count` or `last-move-of-each-piece`.
    pub check: String,
    /// What was learnt, in the game's words (`the subject lacks elephant captures`).
    pub learnt: String,
}

/// The subject's root moves in `answer`, and the rules' on `pos`.
fn root_moves(pos: &Position, answer: &Answer) -> (BTreeSet<Move>, BTreeSet<Move>) {
    let theirs = match answer {
        Answer::Moves(moves) => moves.iter().copied().collect(),
        Answer::Divide { counts, .. } => counts.iter().map(|&(m, _)| m).collect(),
    };
    (theirs, rules_moves(pos))
}

/// The rules' legal moves on `pos`.
fn rules_moves(pos: &Position) -> BTreeSet<Move> {
    let mut board = NaiveGen.load(pos);
    let mut list = MoveList::new();
    NaiveGen.legal(&mut board, &mut list);
    list.iter().copied().collect()
}

/// A class of move in words: what kind of move of the piece it is.
fn rule_words(rule: Rule) -> &'static str {
    match rule {
        Rule::Palace => "moves out of the palace",
        Rule::Step => "moves of a shape the piece does not have",
        Rule::River => "moves across the river",
        Rule::Eye => "moves over a blocked eye",
        Rule::Leg => "jumps over a blocked leg",
        Rule::Backward => "backward steps",
        Rule::SidewaysBeforeRiver => "sideways steps before the river",
        Rule::OverPiece => "moves over a piece",
        Rule::Screen => "captures without exactly one screen",
        Rule::OwnPiece => "captures of its own side's pieces",
        Rule::KingsFacing => "moves that leave the kings facing",
        Rule::InCheck => "moves that leave its king in check",
        Rule::Plain => "quiet moves",
        Rule::CaptureOverScreen | Rule::Capture => "captures",
        Rule::SidewaysAfterRiver => "sideways steps after the river",
        Rule::NoPiece => "moves from an empty point",
    }
}

/// The shape of an unexplained finding's differences on its first witness whose move
/// list differs from the rules': a list cut at a count (asked once more to tell it from
/// a bug of its pieces), one move of each piece left out, the moves of one kind of piece,
/// or (moves of several kinds, or moves that leave the king attacked) the check test.
/// `None` when only the counts below the moves differ.
/// With `lists_only`, only the list's shapes are looked for.
pub fn unexplained_shape(
    witnesses: &[Witness],
    lists_only: bool,
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> Option<Shape> {
    let (w, theirs, rules) = witnesses.iter().find_map(|w| {
        let (theirs, rules) = root_moves(&w.position, &w.answer);
        (theirs != rules).then_some((w, theirs, rules))
    })?;
    let pos = &w.position;
    let extra: Vec<Move> = theirs.difference(&rules).copied().collect();
    let missing: Vec<Move> = rules.difference(&theirs).copied().collect();
    if extra.is_empty() {
        if let Some(shape) = list_shape(pos, theirs.len(), ask) {
            return Some(shape);
        }
    }
    if lists_only {
        return None;
    }
    let classes: Vec<MoveClass> = extra
        .iter()
        .map(|&m| classify(pos, m, true, Lists::Legal))
        .chain(
            missing
                .iter()
                .map(|&m| classify(pos, m, false, Lists::Legal)),
        )
        .collect();
    let roles: BTreeSet<Role> = classes
        .iter()
        .filter(|c| !c.rule.ignores_mover() && c.rule != Rule::NoPiece)
        .map(|c| c.role)
        .collect();
    let by_king = classes.iter().any(|c| c.rule.ignores_mover());
    let mut parts: Vec<String> = Vec::new();
    for c in &classes {
        let words = if c.rule.ignores_mover() {
            format!(
                "{} {}",
                if c.extra { "has extra" } else { "lacks" },
                rule_words(c.rule)
            )
        } else {
            let verb = if c.extra { "has extra" } else { "lacks" };
            format!("{verb} {} {}", c.role, rule_words(c.rule))
        };
        if !parts.contains(&words) {
            parts.push(words);
        }
    }
    let side = match pos.turn() {
        crate::piece::Color::Red => "Red",
        crate::piece::Color::Black => "Black",
    };
    let learnt = format!("the subject {} ({side} to move)", parts.join(" and "));
    let check = match (roles.len(), by_king) {
        (1, false) => format!("unexplained-{}-moves", roles.iter().next()?),
        _ => "unexplained-check-test".to_owned(),
    };
    Some(Shape { check, learnt })
}

/// Whether a list that only lacks moves is cut by count or by order, not by any rule:
/// the witness is asked again with a rook of the side to move added where it has moves
/// of its own. A list cut at a count lists as many moves as before (`n`); a list that
/// leaves out one move of each piece lacks exactly one move of each piece that can move,
/// the rook's included. A bug of some piece's moves, or of the check test, lists the
/// rook's moves and lacks what it lacked. `None` for neither, or when no such position
/// is found or answered.
fn list_shape(
    pos: &Position,
    n: usize,
    ask: &mut impl FnMut(&Question) -> Option<Answer>,
) -> Option<Shape> {
    let setup = pos.setup();
    let before = rules_moves(pos).len();
    // A rook, or where the side has both its rooks, another piece that moves far.
    let with_rook = [Role::Rook, Role::Cannon, Role::Horse]
        .into_iter()
        .flat_map(|role| {
            crate::square::Square::all()
                .filter(|&sq| setup.piece_at(sq).is_none())
                .map(move |sq| (role, sq))
        })
        .find_map(|(role, sq)| {
            let mut s = setup.clone();
            s.board[sq.index()] = Some(crate::piece::Piece::new(setup.turn, role));
            let p = Position::new(s).ok()?;
            (rules_moves(&p).len() >= before + 2).then_some(p)
        })?;
    let answer = ask(&Question {
        position: with_rook.clone(),
        depth: 1,
    })?;
    let (theirs, rules) = root_moves(&with_rook, &answer);
    if !theirs.is_subset(&rules) {
        return None;
    }
    let missing: Vec<Move> = rules.difference(&theirs).copied().collect();
    let pieces: BTreeSet<_> = rules.iter().map(|m| m.from).collect();
    let lacking: BTreeSet<_> = missing.iter().map(|m| m.from).collect();
    if theirs.len() == n && rules.len() > n {
        return Some(Shape {
            check: "list-cut-at-count".to_owned(),
            learnt: format!(
                "the subject lists at most {n} moves, on the witness and with a rook added \
                 that has moves of its own: its list is cut at a count"
            ),
        });
    }
    (pieces.len() >= 2 && missing.len() == pieces.len() && lacking.len() == pieces.len()).then(
        || Shape {
            check: "last-move-of-each-piece".to_owned(),
            learnt: "the subject's list leaves out one move of each piece that can move, \
                     as a loop over each piece's moves that stops one short would"
                .to_owned(),
        },
    )
}

/// A finding that was unexplained when diagnosed, named now by two bugs at once: a cause
/// of the subject's other findings (`causes`, some named after it was) beside a variant
/// of the catalogue, on the answers it holds (`evidence`; no question is asked). `None`
/// when it was explained, or is not now.
pub fn paired_later(
    diagnosis: Option<&Diagnosis>,
    evidence: &[Witness],
    causes: &[Variant],
) -> Option<Diagnosis> {
    let unexplained = diagnosis.is_some_and(|d| d.causes.is_empty() && d.fault.is_none());
    if !unexplained || causes.is_empty() || evidence.is_empty() {
        return None;
    }
    let paired = diagnose_pairs(causes, evidence, &[]);
    (!paired.causes.is_empty()).then_some(paired)
}

/// The variants that explain two findings alike, most specific first: `None` when the
/// two have no cause in common (or either was not explained). Two findings one variant
/// explains are one bug: a misreading that touches the moves and the check detector
/// alike shows first as one and then as the other, each with that variant among the
/// causes it cannot yet tell apart.
pub fn shared_causes(a: Option<&Diagnosis>, b: Option<&Diagnosis>) -> Option<Diagnosis> {
    let (a, b) = (a?, b?);
    // The same variant is the same bug, whatever shows beside it on some witnesses.
    let causes: Vec<_> = a
        .causes
        .iter()
        .filter_map(|c| {
            let theirs = b.causes.iter().find(|d| d.variant == c.variant)?;
            Some(Cause {
                beside: c.beside.or(theirs.beside),
                ..*c
            })
        })
        .collect();
    (!causes.is_empty()).then_some(Diagnosis {
        causes,
        ..Diagnosis::default()
    })
}

/// Findings that blame the same side and that one variant explains alike are one bug
/// ([`shared_causes`]): each later such finding is handed to `join` with the first one
/// and the causes the two share (most specific first), and leaves `items`. `blame`
/// gives a finding's side and diagnosis. The one rule for the built-ins' findings and a
/// subject's; only what a finding holds differs, and `join` moves that.
pub fn join_shared_causes<T>(
    items: &mut Vec<T>,
    blame: impl Fn(&T) -> (&str, Option<&Diagnosis>),
    mut join: impl FnMut(&mut T, T, Diagnosis),
) {
    let mut i = 0;
    while i < items.len() {
        let earlier = {
            let (side, diagnosis) = blame(&items[i]);
            (0..i).find_map(|j| {
                let (their_side, theirs) = blame(&items[j]);
                (their_side == side)
                    .then(|| shared_causes(theirs, diagnosis))
                    .flatten()
                    .map(|shared| (j, shared))
            })
        };
        match earlier {
            Some((j, shared)) => {
                let later = items.remove(i);
                join(&mut items[j], later, shared);
            }
            None => i += 1,
        }
    }
}

/// Every variant the diagnoses name, each finding's first cause before any finding's
/// others: the causes a new finding is tried on before the whole catalogue.
pub fn named_causes<'a>(diagnoses: impl Iterator<Item = &'a Diagnosis> + Clone) -> Vec<Variant> {
    let mut causes: Vec<Variant> = Vec::new();
    let all = diagnoses
        .clone()
        .filter_map(Diagnosis::first)
        .chain(diagnoses.flat_map(Diagnosis::variants));
    for v in all {
        if !causes.contains(&v) {
            causes.push(v);
        }
    }
    causes
}

/// A diagnosis counted again over all of a finding's `evidence` (witnesses kept after it
/// was made included), so its `cause:` lines say how many each variant explains.
pub fn recount_diagnosis(diagnosis: &mut Option<Diagnosis>, evidence: &[Witness]) {
    if let Some(d) = diagnosis.as_mut().filter(|d| !d.causes.is_empty()) {
        let evidence = &evidence[..evidence.len().min(MOST_EVIDENCE)];
        let counted = recount(&d.causes, evidence);
        if !counted.causes.is_empty() {
            *d = counted;
        }
    }
}

/// The `cause:` lines printed under a finding: its diagnosis's, or `cause: unexplained`
/// when nothing explains it or it could not be diagnosed.
pub fn cause_lines(diagnosis: Option<&Diagnosis>) -> Vec<String> {
    match diagnosis {
        Some(d) => d.lines(),
        None => vec!["cause: unexplained".to_owned()],
    }
}

/// The checks whose disagreements are about the rules, so a variant may explain them:
/// the move lists, check, and the symmetries. The others see state (an unmake, a reused
/// board, a count that is not its own list's length), and a generator whose state goes
/// wrong may answer some position as some variant would by chance.
const RULE_CHECKS: [CheckKind; 6] = [
    CheckKind::PseudoLegal,
    CheckKind::Legal,
    CheckKind::InCheck,
    CheckKind::GivesCheck,
    CheckKind::Mirror,
    CheckKind::ColorSwap,
];

/// The built-in generator a move-class signature names as the odd one out, when the
/// check that saw it is about the rules.
fn odd_generator<'a>(symptom: &Signature, gens: &[&'a dyn Generator]) -> Option<&'a dyn Generator> {
    if !RULE_CHECKS
        .iter()
        .any(|k| k.signature_name() == symptom.check)
    {
        return None;
    }
    gens.iter().copied().find(|g| g.name() == symptom.side)
}

/// What an in-process generator answers on `pos`, as a witness: its move list, or
/// where that is the rules' own, its divide at depth 2 (a check detector that is wrong
/// only one move down shows there). `None` when both are the rules'.
fn in_process_witness(g: &dyn Generator, pos: &Position) -> Option<Witness> {
    [1, 2].into_iter().find_map(|depth| {
        let w = Witness {
            position: pos.clone(),
            answer: Answer::Divide {
                depth,
                counts: g.divide(pos, depth, false, None),
            },
        };
        w.shows_a_difference().then_some(w)
    })
}

/// Questions to an in-process generator: its divide, which it always gives.
fn in_process_asker(g: &dyn Generator) -> impl FnMut(&Question) -> Option<Answer> + '_ {
    move |q| {
        Some(Answer::Divide {
            depth: q.depth,
            counts: g.divide(&q.position, q.depth, false, None),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A subject with two bugs: three move classes, the third met where both bugs show.
    /// Each is named by a cause and the third joins the finding of the bug it is named
    /// by, so the three are two findings, not three (the third unexplained).
    #[test]
    fn a_witness_of_two_bugs_joins_the_finding_of_one() {
        use crate::diagnose::examples::position;
        use crate::generators::perft;
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::MoveGen;
        let subject = Planted::with(&[Bug::CannonCannotCapture, Bug::HorseLegIgnored]);
        let answer = |pos: &Position, depth: u32| {
            let mut board = subject.load(pos);
            Answer::Divide {
                depth,
                counts: perft::divide(&subject, &mut board, depth),
            }
        };
        let rows = [
            ("extra-cannon", "w Ke0 kd9 Ca0 Pa3 pa6"),
            ("extra-horse-leg", "w Ke0 kd9 Nb0 Rb1"),
            (
                "missing-cannon-and-extra-horse",
                "w Ke0 kd9 Ca0 Pa3 pa6 Nh0 Rh1",
            ),
        ];
        let mut found: Vec<Diagnosed> = Vec::new();
        for (symptom, text) in rows {
            let pos = position(text).expect("a valid position");
            let causes = named_causes(found.iter().filter_map(|d| d.diagnosis.as_ref()));
            let witness = Witness {
                answer: answer(&pos, 1),
                position: pos,
            };
            let named = diagnosed(
                &Signature::plain(symptom, "subject"),
                vec![witness],
                &causes,
                |q| Some(answer(&q.position, q.depth)),
            );
            found.push(named);
        }
        let signatures: Vec<String> = found.iter().map(|d| d.signature.to_string()).collect();
        assert_eq!(
            signatures,
            [
                "cause/subject/cannon-cannot-capture",
                "cause/subject/horse-leg-ignored",
                "cause/subject/horse-leg-ignored",
            ],
        );
        let beside = found[2]
            .diagnosis
            .as_ref()
            .and_then(|d| d.causes.first())
            .and_then(|c| c.beside);
        assert_eq!(beside, Some(Variant::CannonCannotCapture));
        join_shared_causes(
            &mut found,
            |d| (d.signature.side.as_str(), d.diagnosis.as_ref()),
            |kept, later, shared| {
                kept.evidence.extend(later.evidence);
                kept.diagnosis = Some(shared);
            },
        );
        assert_eq!(found.len(), 2, "{found:?}");
        // Counted over both findings' witnesses, the horse explains them all, one of
        // them with the cannon beside it.
        let mut joined = found[1].diagnosis.clone();
        recount_diagnosis(&mut joined, &found[1].evidence);
        let line = cause_lines(joined.as_ref()).join("\n");
        assert!(
            line.contains("variant horse-leg-ignored, explains")
                && line.contains("with cannon-cannot-capture beside it"),
            "{line}"
        );
    }

    /// A finding left unexplained because the bug beside it was named only later is
    /// named at the end of the run.
    #[test]
    fn an_unexplained_finding_is_paired_with_a_cause_named_after_it() {
        use crate::diagnose::examples::position;
        use crate::generators::perft;
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::MoveGen;
        let subject = Planted::with(&[Bug::CannonCannotCapture, Bug::HorseLegIgnored]);
        let pos = position("w Ke0 kd9 Ca0 Pa3 pa6 Nh0 Rh1").expect("a valid position");
        let mut board = subject.load(&pos);
        let witness = Witness {
            answer: Answer::Moves(
                perft::divide(&subject, &mut board, 1)
                    .into_iter()
                    .map(|(m, _)| m)
                    .collect(),
            ),
            position: pos,
        };
        let first = diagnosed(
            &Signature::plain("extra-horse-leg", "subject"),
            vec![witness],
            &[],
            |q| {
                let mut board = subject.load(&q.position);
                Some(Answer::Divide {
                    depth: q.depth,
                    counts: perft::divide(&subject, &mut board, q.depth),
                })
            },
        );
        assert_eq!(first.diagnosis.as_ref().map(|d| d.causes.len()), Some(0));
        let later = paired_later(
            first.diagnosis.as_ref(),
            &first.evidence,
            &[Variant::HorseLegIgnored],
        );
        let named = later.as_ref().and_then(|d| d.causes.first());
        assert_eq!(
            named.map(|c| (c.variant, c.beside)),
            Some((Variant::CannonCannotCapture, Some(Variant::HorseLegIgnored))),
            "{later:?}"
        );
    }

    /// Each row: findings as (side, explaining variants by their place in the
    /// catalogue), and which survive the join, each with the variants left it.
    #[test]
    fn findings_one_variant_explains_alike_are_joined_on_one_side() {
        type Row = (
            &'static [(&'static str, &'static [usize])],
            &'static [(&'static str, &'static [usize])],
        );
        let table: &[Row] = &[
            // Two causes in common: one finding, named by both.
            (
                &[("naive", &[0, 1]), ("naive", &[1, 0])],
                &[("naive", &[0, 1])],
            ),
            // The later one names a cause the first could not tell from its own.
            (
                &[("naive", &[0, 1]), ("naive", &[1, 2])],
                &[("naive", &[1])],
            ),
            // Nothing in common, an unexplained one, another side: all kept.
            (
                &[("naive", &[0]), ("naive", &[1])],
                &[("naive", &[0]), ("naive", &[1])],
            ),
            (
                &[("naive", &[0]), ("naive", &[])],
                &[("naive", &[0]), ("naive", &[])],
            ),
            (
                &[("naive", &[0]), ("mailbox", &[0])],
                &[("naive", &[0]), ("mailbox", &[0])],
            ),
            // A third joins the first, not the one that joined it.
            (
                &[("naive", &[0, 1]), ("mailbox", &[1]), ("naive", &[1])],
                &[("naive", &[1]), ("mailbox", &[1])],
            ),
        ];
        let all = Variant::ALL;
        let diagnosis = |places: &[usize]| {
            (!places.is_empty()).then(|| Diagnosis {
                causes: places
                    .iter()
                    .map(|&p| crate::diagnose::Cause {
                        beside: None,
                        variant: all[p],
                        explains: 1,
                        of: 1,
                        confirmed: 0,
                    })
                    .collect(),
                ..Diagnosis::default()
            })
        };
        for (given, want) in table {
            let mut items: Vec<(String, Option<Diagnosis>)> = given
                .iter()
                .map(|(side, places)| (side.to_string(), diagnosis(places)))
                .collect();
            join_shared_causes(
                &mut items,
                |(side, d)| (side.as_str(), d.as_ref()),
                |kept, _, shared| kept.1 = Some(shared),
            );
            let want: Vec<(String, Option<Diagnosis>)> = want
                .iter()
                .map(|(side, places)| (side.to_string(), diagnosis(places)))
                .collect();
            assert_eq!(items, want, "{given:?}");
        }
    }

    #[test]
    fn a_known_list_matches_old_state_check_names() {
        let known: Known = ["reused-board/mailbox", "legal/naive/extra-horse-leg"]
            .into_iter()
            .collect();
        let stale = Signature::plain(STALE_BOARD, "mailbox");
        assert!(known.contains(&stale));
        assert!(!known.contains(&Signature::plain(STALE_BOARD, "naive")));
        assert!(!known.contains(&Signature::plain("in-check", "mailbox")));
        assert_eq!(known.len(), 2);
    }

    /// Every word comes back from a POSIX shell as it went in.
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
