//! The JSON-lines files: a jobs file (a header line, then one job per line, indexed from
//! 0 in order) and results files (one finished job per line, in any order).

use super::{
    Header, Job, JobLine, JobResult, Location, Problem, Problems, SplitError, SplitId, JOBS_FORMAT,
};
use crate::position::Position;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;

/// Reads and checks a whole jobs file, keeping the jobs whose index `keep` accepts.
/// Every line is checked whether kept or not, so a damaged file fails on every shard.
pub fn read_jobs(
    path: &Path,
    mut keep: impl FnMut(u64) -> bool,
) -> Result<(Header, Vec<Job>), SplitError> {
    let read_err = |source| SplitError::Read {
        path: path.to_owned(),
        source,
    };
    let at = |line| Location {
        path: path.to_owned(),
        line,
    };
    let mut lines = BufReader::new(File::open(path).map_err(read_err)?).lines();
    let first = lines.next().ok_or_else(|| SplitError::Empty {
        path: path.to_owned(),
    })?;
    let header: Header =
        serde_json::from_str(&first.map_err(read_err)?).map_err(|source| SplitError::Json {
            at: at(1),
            what: "jobs header",
            source,
        })?;
    check_header(&header, at(1))?;
    let remaining = header.depth - header.split_depth;
    let mut kept = Vec::new();
    let mut next = 0u64;
    for (i, text) in lines.enumerate() {
        let text = text.map_err(read_err)?;
        if text.trim().is_empty() {
            continue;
        }
        let here = at(i + 2);
        let job: JobLine = serde_json::from_str(&text).map_err(|source| SplitError::Json {
            at: here.clone(),
            what: "job",
            source,
        })?;
        if job.index != next {
            return Err(SplitError::JobOrder {
                at: here,
                found: job.index,
                expected: next,
            });
        }
        if job.path.len() != header.split_depth as usize {
            return Err(SplitError::JobShape {
                at: here,
                found: format!("a path of {} moves", job.path.len()),
                expected: format!("{} moves", header.split_depth),
            });
        }
        if job.depth != remaining {
            return Err(SplitError::JobShape {
                at: here,
                found: format!("depth {}", job.depth),
                expected: format!("depth {remaining}"),
            });
        }
        let position =
            Position::from_fen(&job.fen).map_err(|source| SplitError::Fen { at: here, source })?;
        if keep(job.index) {
            kept.push(Job {
                index: job.index,
                path: job.path,
                position,
                depth: job.depth,
            });
        }
        next += 1;
    }
    if next != header.jobs {
        return Err(SplitError::JobCount {
            path: path.to_owned(),
            header: header.jobs,
            found: next,
        });
    }
    Ok((header, kept))
}

fn check_header(header: &Header, at: Location) -> Result<(), SplitError> {
    if header.format != JOBS_FORMAT {
        return Err(SplitError::Format {
            at,
            found: header.format.clone(),
            expected: JOBS_FORMAT,
        });
    }
    // Only the depth needs bounding: the split depth is at most it, and every job's path
    // and depth are checked to add up to it.
    crate::depth::check(header.depth.into()).map_err(|source| SplitError::Depth {
        at: at.clone(),
        source,
    })?;
    if header.split_depth > header.depth {
        return Err(SplitError::TooDeep {
            split_depth: header.split_depth,
            depth: header.depth,
        });
    }
    let root = Position::from_fen(&header.root).map_err(|source| SplitError::Fen {
        at: at.clone(),
        source,
    })?;
    let computed = SplitId::of(&root, header.depth, header.split_depth);
    if computed != header.split {
        return Err(SplitError::HeaderId {
            at,
            found: header.split,
            computed,
        });
    }
    Ok(())
}

/// A header or job as its JSON line, newline included.
pub(super) fn json_line<T: serde::Serialize>(value: &T) -> io::Result<String> {
    let mut line = serde_json::to_string(value).map_err(io::Error::other)?;
    line.push('\n');
    Ok(line)
}

/// Writes one result line and flushes it, so a shard killed later keeps it.
pub fn write_result(out: &mut dyn Write, result: &JobResult) -> io::Result<()> {
    out.write_all(json_line(result)?.as_bytes())?;
    out.flush()
}

/// Every result line of a file, with where it stands. Blank lines are skipped.
pub fn read_results(path: &Path) -> Result<Vec<(Location, JobResult)>, SplitError> {
    let text = std::fs::read_to_string(path).map_err(|source| SplitError::Read {
        path: path.to_owned(),
        source,
    })?;
    parsed_lines(path, &text)
        .map(|(at, _, parsed)| {
            parsed
                .map(|r| (at.clone(), r))
                .map_err(|source| SplitError::Json {
                    at,
                    what: "result",
                    source,
                })
        })
        .collect()
}

/// Each non-blank line: where it is, its byte offset, and the result it reads as.
fn parsed_lines<'a>(
    path: &'a Path,
    text: &'a str,
) -> impl Iterator<Item = (Location, usize, serde_json::Result<JobResult>)> + 'a {
    let mut offset = 0;
    text.split_inclusive('\n')
        .enumerate()
        .filter_map(move |(i, line)| {
            let start = offset;
            offset += line.len();
            (!line.trim().is_empty()).then(|| {
                let at = Location {
                    path: path.to_owned(),
                    line: i + 1,
                };
                (at, start, serde_json::from_str(line))
            })
        })
}

/// An output file opened for appending, with the results it already holds.
#[derive(Debug)]
pub struct Resumed {
    /// The file, positioned at its end.
    pub file: File,
    /// The results already in it, with where each stands.
    pub done: Vec<(Location, JobResult)>,
    /// How many lines the file holds, so the next one written is line `lines + 1`.
    pub lines: usize,
    /// A last line cut short (a shard killed mid-write), removed from the file.
    pub dropped: Option<Location>,
}

/// Opens `path` to append results of `split` counted by `generators`, creating it if
/// needed. Results already there are returned so their jobs can be skipped; a result of
/// another split or another set of generators means the file belongs to another run.
pub fn resume(path: &Path, split: SplitId, generators: &[String]) -> Result<Resumed, SplitError> {
    let write_err = |source| SplitError::Write {
        path: path.to_owned(),
        source,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(source) => {
            return Err(SplitError::Read {
                path: path.to_owned(),
                source,
            })
        }
    };
    let mut done = Vec::new();
    let mut dropped = None;
    let mut keep_len = text.len();
    let mut foreign: BTreeMap<SplitId, Vec<Location>> = BTreeMap::new();
    let mut others: Vec<(Location, Vec<String>)> = Vec::new();
    for (at, start, parsed) in parsed_lines(path, &text) {
        match parsed {
            Ok(r) if r.split != split => foreign.entry(r.split).or_default().push(at),
            Ok(r) if r.generators() != generators => others.push((at, r.generators())),
            Ok(r) => done.push((at, r)),
            // Only the last line can be half written, and only if it lacks its newline.
            Err(_) if !text.ends_with('\n') && text[start..].lines().count() == 1 => {
                keep_len = start;
                dropped = Some(at);
            }
            Err(source) => {
                return Err(SplitError::Json {
                    at,
                    what: "result",
                    source,
                })
            }
        }
    }
    let mut problems: Vec<Problem> = foreign
        .into_iter()
        .map(|(found, lines)| Problem::Foreign {
            lines,
            found,
            expected: split,
        })
        .collect();
    if let Some((_, found)) = others.first() {
        problems.push(Problem::Generators {
            found: found.clone(),
            lines: others.iter().map(|(at, _)| at.clone()).collect(),
            expected: generators.to_vec(),
        });
    }
    if !problems.is_empty() {
        return Err(SplitError::Resume {
            path: path.to_owned(),
            problems: Problems(problems),
        });
    }
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(write_err)?;
    let mut lines = text[..keep_len].matches('\n').count();
    if dropped.is_some() {
        file.set_len(keep_len as u64).map_err(write_err)?;
    } else if !text.is_empty() && !text.ends_with('\n') {
        // A whole last line without its newline: finish it so the next line starts clean.
        file.write_all(b"\n").map_err(write_err)?;
        lines += 1;
    }
    Ok(Resumed {
        file,
        done,
        lines,
        dropped,
    })
}
