//! The regression corpus: one disagreement (or one hand-made rule case) per file, kept
//! forever and replayed on every test run.
//!
//! A file is plain text that reads well in a diff: the FEN on the first line, then
//! `key: value` lines. Found cases are named by a hash of their content, so the same case
//! is never stored twice; hand-made ones are named for the rule they exercise.

use crate::engine::Engine;
use crate::moves::Move;
use crate::oracle::{check_position_along, Disagreement};
use crate::piece::Piece;
use crate::position::Position;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// One corpus file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The position.
    pub position: Position,
    /// `key: value` notes, in file order.
    pub notes: Vec<(String, String)>,
}

/// Why a corpus file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// The file is empty.
    #[error("{path}: empty file, expected a FEN on the first line")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The first line is not a valid position.
    #[error("{path}: line 1: {source}")]
    Fen {
        /// The file.
        path: PathBuf,
        /// Why.
        source: crate::fen::FenError,
    },
    /// A later line is not `key: value`.
    #[error("{path}: line {line}: expected 'key: value', found {text:?}")]
    BadNote {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The line.
        text: String,
    },
}

impl Case {
    /// A case for a disagreement found (and usually minimized) by `found_by`.
    pub fn from_disagreement(
        d: &Disagreement,
        original_fen: &str,
        found_by: &str,
    ) -> Result<Case, crate::fen::FenError> {
        let mut notes = vec![
            ("check".to_owned(), d.check.to_string()),
            ("generators".to_owned(), d.generators.join(", ")),
            (
                "odd-one-out".to_owned(),
                d.odd_one_out.clone().unwrap_or_else(|| "none".into()),
            ),
        ];
        for o in &d.only_in {
            notes.push((
                "only-in".to_owned(),
                format!("{} {}", o.mv, o.has.join(", ")),
            ));
        }
        if !d.line.is_empty() {
            // Replay walks the same line, whatever line the oracle would pick by itself.
            let line: Vec<String> = d.line.iter().map(Move::to_string).collect();
            notes.push(("walk".to_owned(), line.join(" ")));
        }
        notes.push(("detail".to_owned(), one_line(&d.detail)));
        notes.push(("original".to_owned(), original_fen.to_owned()));
        notes.push(("found-by".to_owned(), one_line(found_by)));
        notes.push(("date".to_owned(), today()));
        Ok(Case {
            position: Position::from_fen(&d.fen)?,
            notes,
        })
    }

    /// The moves of a `walk` note: the line a `walked-board` finding was walked along.
    pub fn walk(&self) -> Result<Option<Vec<Move>>, String> {
        self.note("walk")
            .map(|v| {
                v.split_whitespace()
                    .map(|m| m.parse().map_err(|e| format!("walk: {e}")))
                    .collect()
            })
            .transpose()
    }

    /// The first value of note `key`.
    pub fn note(&self, key: &str) -> Option<&str> {
        self.notes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Reads a case; `path` is only for messages.
    pub fn parse(text: &str, path: &Path) -> Result<Case, CorpusError> {
        let mut lines = text.lines();
        let first = lines
            .next()
            .filter(|l| !l.trim().is_empty())
            .ok_or_else(|| CorpusError::Empty { path: path.into() })?;
        let position = Position::from_fen(first).map_err(|source| CorpusError::Fen {
            path: path.into(),
            source,
        })?;
        let mut notes = Vec::new();
        for (i, line) in lines.enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line.split_once(':').ok_or_else(|| CorpusError::BadNote {
                path: path.into(),
                line: i + 2,
                text: line.to_owned(),
            })?;
            notes.push((k.trim().to_owned(), v.trim().to_owned()));
        }
        Ok(Case { position, notes })
    }

    /// The file's text.
    pub fn render(&self) -> String {
        let mut out = self.position.fen();
        out.push('\n');
        for (k, v) in &self.notes {
            let _ = writeln!(out, "{k}: {}", one_line(v));
        }
        out
    }

    /// `<check>-<16 hex digits>.txt`, the hash taken over the position and the check,
    /// so the same failure found twice (on other days, by other runs) is one file.
    pub fn file_name(&self) -> String {
        let check = self.note("check").unwrap_or("case");
        let key = format!(
            "{}\n{check}\n{}",
            self.position.fen(),
            self.note("odd-one-out").unwrap_or("")
        );
        format!("{check}-{:016x}.txt", fnv1a(key.as_bytes()))
    }
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// FNV-1a: stable across Rust versions and platforms, unlike `DefaultHasher`, so names
/// stay put.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Today's UTC date as `YYYY-MM-DD`, from the system clock (civil-from-days).
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Writes `case` into `dir` atomically (a temporary file renamed into place), unless a
/// file of the same name is there already. Returns the path and whether it was new.
pub fn write_case(dir: &Path, case: &Case) -> io::Result<(PathBuf, bool)> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(case.file_name());
    if path.exists() {
        return Ok((path, false));
    }
    let tmp = dir.join(format!(".{}.{}.tmp", case.file_name(), std::process::id()));
    std::fs::write(&tmp, case.render())?;
    std::fs::rename(&tmp, &path)?;
    Ok((path, true))
}

/// Every case file of a directory, and every file that could not be read as one.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Readable cases with their paths, in name order.
    pub cases: Vec<(PathBuf, Case)>,
    /// Damaged files, in name order, each with what is wrong.
    pub damaged: Vec<CorpusError>,
}

/// Loads every `*.txt` in `dir` (README.md and hidden files are not cases).
pub fn load_dir(dir: &Path) -> io::Result<Loaded> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "txt")
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    paths.sort();
    let mut loaded = Loaded::default();
    for path in paths {
        let parsed = std::fs::read(&path)
            .map_err(|source| CorpusError::Io {
                path: path.clone(),
                source,
            })
            .and_then(|bytes| {
                let text = String::from_utf8_lossy(&bytes);
                Case::parse(&text, &path)
            });
        match parsed {
            Ok(case) => loaded.cases.push((path, case)),
            Err(e) => loaded.damaged.push(e),
        }
    }
    Ok(loaded)
}

/// What a replay found.
#[derive(Debug, Default)]
pub struct Replay {
    /// How many cases ran through the oracle.
    pub replayed: usize,
    /// Cases on which the generators disagree now.
    pub failures: Vec<(PathBuf, Vec<Disagreement>)>,
    /// Hand-written expectations (`legal-includes`, `legal-excludes`, `legal-count`)
    /// that some generator misses, one sentence each.
    pub unmet: Vec<String>,
    /// Files that could not be read.
    pub damaged: Vec<CorpusError>,
}

/// Runs every case of `dir` through the oracle.
pub fn replay(dir: &Path, engines: &[&dyn Engine]) -> io::Result<Replay> {
    let loaded = load_dir(dir)?;
    let mut out = Replay {
        damaged: loaded.damaged,
        ..Replay::default()
    };
    for (path, case) in loaded.cases {
        out.replayed += 1;
        let line = match case.walk() {
            Ok(line) => line,
            Err(e) => {
                out.unmet.push(format!("{}: {e}", path.display()));
                None
            }
        };
        let found = check_position_along(&case.position, engines, line.as_deref());
        if !found.is_empty() {
            out.failures.push((path.clone(), found));
        }
        out.unmet.extend(unmet_expectations(&path, &case, engines));
    }
    Ok(out)
}

/// The hand-written expectations a case may carry.
#[derive(Default)]
struct Expect {
    includes: Vec<Move>,
    excludes: Vec<Move>,
    count: Option<usize>,
    in_check: Option<bool>,
    /// `(move, piece or None)`: what a legal move takes (`-` for nothing).
    captures: Vec<(Move, Option<Piece>)>,
}

fn parse_expect(case: &Case) -> Result<Expect, String> {
    let words = |key: &str| -> Vec<&str> {
        case.notes
            .iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, v)| v.split_whitespace())
            .collect()
    };
    let moves = |key: &str| -> Result<Vec<Move>, String> {
        words(key)
            .into_iter()
            .map(|m| m.parse().map_err(|e| format!("{key}: {e}")))
            .collect()
    };
    let captures = words("captures")
        .into_iter()
        .map(|w| {
            let (mv, piece) = w
                .split_once('=')
                .ok_or(format!("captures: {w:?} is not MOVE=PIECE"))?;
            let mv = mv.parse().map_err(|e| format!("captures: {e}"))?;
            let piece = match piece.chars().collect::<Vec<_>>().as_slice() {
                ['-'] => None,
                &[c] => Some(
                    Piece::from_char(c).ok_or(format!("captures: {c:?} is not a piece letter"))?,
                ),
                _ => return Err(format!("captures: {piece:?} is not one piece letter or -")),
            };
            Ok((mv, piece))
        })
        .collect::<Result<_, String>>()?;
    let parsed = |key: &str| {
        case.note(key)
            .map(|v| v.parse().map_err(|e| format!("{key}: {v:?}: {e}")))
    };
    Ok(Expect {
        includes: moves("legal-includes")?,
        excludes: moves("legal-excludes")?,
        count: parsed("legal-count").transpose()?,
        in_check: case
            .note("in-check")
            .map(|v| {
                v.parse::<bool>()
                    .map_err(|e| format!("in-check: {v:?}: {e}"))
            })
            .transpose()?,
        captures,
    })
}

/// Checks the hand-written expectations of a case against every generator on its own:
/// the oracle only compares generators, and three that share a misreading of a rule (or
/// a shared default method of the trait) would agree. A malformed expectation is itself
/// reported.
fn unmet_expectations(path: &Path, case: &Case, engines: &[&dyn Engine]) -> Vec<String> {
    let expect = match parse_expect(case) {
        Ok(e) => e,
        Err(e) => return vec![format!("{}: {e}", path.display())],
    };
    let mut out = Vec::new();
    for g in engines {
        let probe = g.probe(&case.position);
        let legal = probe.legal_moves();
        let mut fail = |what: String| out.push(format!("{}: {}: {what}", path.display(), g.name()));
        for mv in expect.includes.iter().filter(|mv| !legal.contains(mv)) {
            fail(format!("lacks {mv}, which the case says is legal"));
        }
        for mv in expect.excludes.iter().filter(|mv| legal.contains(mv)) {
            fail(format!("allows {mv}, which the case says is illegal"));
        }
        if let Some(n) = expect.count.filter(|&n| n != legal.len()) {
            fail(format!(
                "has {} legal moves, the case says {n}",
                legal.len()
            ));
        }
        if let Some(c) = expect.in_check.filter(|&c| c != probe.in_check) {
            fail(format!(
                "says in check is {}, the case says {c}",
                probe.in_check
            ));
        }
        for &(mv, piece) in &expect.captures {
            match probe.legal.iter().find(|l| l.mv == mv) {
                None => fail(format!("lacks {mv}, whose capture the case names")),
                Some(l) if l.captured != piece => fail(format!(
                    "says {mv} takes {:?}, the case says {piece:?}",
                    l.captured
                )),
                Some(_) => {}
            }
        }
    }
    out
}
