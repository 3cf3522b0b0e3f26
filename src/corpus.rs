//! The regression corpus: one disagreement (or one hand-made rule case) per file, kept
//! forever and replayed on every test run.
//!
//! A file is plain text that reads well in a diff: the FEN on the first line, then
//! `key: value` lines. Found cases are named by a hash of their content, so the same case
//! is never stored twice; hand-made ones are named for the rule they exercise.

use crate::engine::Engine;
use crate::oracle::{check_position, Disagreement};
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
        notes.push(("detail".to_owned(), one_line(&d.detail)));
        notes.push(("original".to_owned(), original_fen.to_owned()));
        notes.push(("found-by".to_owned(), one_line(found_by)));
        notes.push(("date".to_owned(), today()));
        Ok(Case {
            position: Position::from_fen(&d.fen)?,
            notes,
        })
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
fn fnv1a(bytes: &[u8]) -> u64 {
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
        let found = check_position(&case.position, engines);
        if !found.is_empty() {
            out.failures.push((path.clone(), found));
        }
        out.unmet.extend(unmet_expectations(&path, &case, engines));
    }
    Ok(out)
}

/// Checks the hand-written expectations of a case against every generator on its own:
/// the oracle only compares generators, and three that share a misreading of a rule
/// would agree. A malformed expectation is itself reported.
fn unmet_expectations(path: &Path, case: &Case, engines: &[&dyn Engine]) -> Vec<String> {
    let mut out = Vec::new();
    let moves = |key: &str| -> Result<Vec<crate::moves::Move>, String> {
        case.notes
            .iter()
            .filter(|(k, _)| k == key)
            .flat_map(|(_, v)| v.split_whitespace())
            .map(|m| {
                m.parse()
                    .map_err(|e| format!("{}: {key}: {e}", path.display()))
            })
            .collect()
    };
    let (includes, excludes) = match (moves("legal-includes"), moves("legal-excludes")) {
        (Ok(i), Ok(e)) => (i, e),
        (Err(e), _) | (_, Err(e)) => return vec![e],
    };
    let count = match case.note("legal-count").map(str::parse::<usize>) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(e)) => return vec![format!("{}: legal-count: {e}", path.display())],
    };
    for g in engines {
        let legal = g.probe(&case.position).legal_moves();
        for mv in &includes {
            if !legal.contains(mv) {
                out.push(format!(
                    "{}: {} lacks {mv}, which the case says is legal",
                    path.display(),
                    g.name()
                ));
            }
        }
        for mv in &excludes {
            if legal.contains(mv) {
                out.push(format!(
                    "{}: {} allows {mv}, which the case says is illegal",
                    path.display(),
                    g.name()
                ));
            }
        }
        if let Some(n) = count.filter(|&n| n != legal.len()) {
            out.push(format!(
                "{}: {} has {} legal moves, the case says {n}",
                path.display(),
                g.name(),
                legal.len()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::{CheckKind, OnlyIn};

    fn sample() -> Disagreement {
        Disagreement {
            check: CheckKind::Legal,
            fen: "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(),
            generators: vec!["mailbox".into(), "bitboard".into(), "naive".into()],
            odd_one_out: Some("naive".into()),
            only_in: vec![OnlyIn {
                mv: "e0d0".parse().unwrap(),
                has: vec!["naive".into()],
            }],
            detail: "e0d0 only in naive".into(),
        }
    }

    #[test]
    fn cases_round_trip_through_text_and_are_stored_once() {
        let case = Case::from_disagreement(
            &sample(),
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "test",
        )
        .unwrap();
        let text = case.render();
        assert!(
            text.starts_with("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\ncheck: legal\n"),
            "{text}"
        );
        assert_eq!(Case::parse(&text, Path::new("x")).unwrap(), case);
        assert!(case.file_name().starts_with("legal-") && case.file_name().ends_with(".txt"));

        let dir = std::env::temp_dir().join(format!("xqdiff-corpus-{}", std::process::id()));
        let (path, new) = write_case(&dir, &case).unwrap();
        assert!(new);
        let (again, new) = write_case(&dir, &case).unwrap();
        assert_eq!((again, new), (path, false));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn damaged_files_are_reported_by_name_and_the_rest_replayed() {
        let dir = std::env::temp_dir().join(format!("xqdiff-damaged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("a-good.txt"),
            "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\ncheck: legal\n",
        )
        .unwrap();
        std::fs::write(dir.join("b-badfen.txt"), "3k5/9/9 w\n").unwrap();
        std::fs::write(dir.join("c-empty.txt"), "").unwrap();
        std::fs::write(
            dir.join("d-badnote.txt"),
            "3k5/9/9/9/9/9/9/9/9/4K4 w\nno colon here\n",
        )
        .unwrap();
        std::fs::write(dir.join("e-binary.txt"), [0xff, 0xfe, 0x00, 0x01]).unwrap();
        std::fs::write(dir.join("README.md"), "not a case").unwrap();
        let engines = crate::generators::registry();
        let r = replay(&dir, &engines).unwrap();
        assert_eq!(r.replayed, 1);
        assert!(r.failures.is_empty());
        let names: Vec<String> = r.damaged.iter().map(|e| e.to_string()).collect();
        assert_eq!(names.len(), 4, "{names:?}");
        for (msg, file) in names
            .iter()
            .zip(["b-badfen", "c-empty", "d-badnote", "e-binary"])
        {
            assert!(msg.contains(file), "{msg}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn dates_are_iso() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
    }
}
