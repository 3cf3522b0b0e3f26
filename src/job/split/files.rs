//! The JSON-lines files: a jobs file (a header line, then one job per line, indexed from
//! 0 in order) and results files (one finished job per line, in any order).

use super::{
    Check, Header, Job, JobLine, JobResult, Location, Problem, Problems, SplitError, SplitHasher,
    SplitId, JOBS_FORMAT, JOBS_FORMATS_READ, JOBS_FORMAT_2, MAX_JOBS,
};
use crate::position::Position;
use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The largest jobs or results file read: far past any split worth running, and a
/// bound on the memory a merge or shard can be made to use.
pub(crate) const MAX_FILE_BYTES: u64 = 4 << 30;

/// The longest line read; job and result lines are a few hundred bytes.
const MAX_LINE_BYTES: usize = 64 << 10;

/// Opens `path` for reading if it is a regular file within [`MAX_FILE_BYTES`]; a FIFO
/// would block the open until a writer came, and a directory or device is never a file
/// of ours.
fn open_regular(path: &Path) -> Result<File, SplitError> {
    let read_err = |source| {
        SplitError::from(crate::files::FileError::Read {
            path: path.to_owned(),
            source,
        })
    };
    let meta = std::fs::metadata(path).map_err(read_err)?;
    if let Some(kind) = crate::files::irregular(&meta.file_type()) {
        return Err(SplitError::NotRegular {
            path: path.to_owned(),
            kind,
        });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(SplitError::TooLarge {
            path: path.to_owned(),
            limit: MAX_FILE_BYTES,
        });
    }
    File::open(path).map_err(read_err)
}

/// One line of a file.
struct Line {
    at: Location,
    /// Its bytes, without the newline.
    text: Vec<u8>,
    /// Whether it ended with a newline; only the last line of a file can lack one.
    ended: bool,
}

impl Line {
    fn is_blank(&self) -> bool {
        self.text.iter().all(u8::is_ascii_whitespace)
    }
}

/// The lines of a file, each within [`MAX_LINE_BYTES`] and all within
/// [`MAX_FILE_BYTES`] even if the file grows while it is read.
struct Lines {
    path: PathBuf,
    reader: BufReader<io::Take<File>>,
    number: usize,
    offset: u64,
}

impl Lines {
    fn open(path: &Path) -> Result<Lines, SplitError> {
        let file = open_regular(path)?;
        Ok(Lines {
            path: path.to_owned(),
            reader: BufReader::new(file.take(MAX_FILE_BYTES + 1)),
            number: 0,
            offset: 0,
        })
    }

    fn next_line(&mut self) -> Result<Option<Line>, SplitError> {
        let mut text = Vec::new();
        let read = (&mut self.reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut text)
            .map_err(|source| {
                SplitError::from(crate::files::FileError::Read {
                    path: self.path.clone(),
                    source,
                })
            })?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        let at = Location {
            path: self.path.clone(),
            line: self.number,
        };
        self.offset += read as u64;
        if self.offset > MAX_FILE_BYTES {
            return Err(SplitError::TooLarge {
                path: self.path.clone(),
                limit: MAX_FILE_BYTES,
            });
        }
        let ended = text.last() == Some(&b'\n');
        if ended {
            text.pop();
        }
        if text.len() > MAX_LINE_BYTES {
            return Err(SplitError::LineTooLong {
                at,
                limit: MAX_LINE_BYTES,
            });
        }
        Ok(Some(Line { at, text, ended }))
    }
}

/// A jobs file as read: its header, the jobs asked for, and every job's check.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JobsFile {
    /// The header.
    pub(crate) header: Header,
    /// The jobs the caller kept, in index order.
    pub(crate) jobs: Vec<Job>,
    /// Every job's check, by index: what a result for it must be sealed with.
    checks: Vec<Check>,
    /// Every job's weight, by index: what its count is multiplied by.
    pub(crate) weights: Vec<u64>,
}

impl JobsFile {
    /// Checks a result of this split, found `at`, against its job: an index outside the
    /// split never verifies.
    pub(crate) fn verify(&self, at: &Location, result: &JobResult) -> Result<(), SplitError> {
        if result.check.is_none() {
            return Err(SplitError::ResultUnchecked { at: at.clone() });
        }
        let check = usize::try_from(result.index)
            .ok()
            .and_then(|i| self.checks.get(i));
        if result.split == self.header.split && check.is_some_and(|&c| result.verifies(c)) {
            Ok(())
        } else {
            Err(SplitError::ResultCheck {
                at: at.clone(),
                index: result.index,
            })
        }
    }
}

/// Reads and checks a whole jobs file, keeping the jobs whose index `keep` accepts.
/// Every line is checked whether kept or not, so a damaged file fails on every shard:
/// each job against its check, and the split id against the header and all the jobs.
pub(crate) fn read_jobs(
    path: &Path,
    mut keep: impl FnMut(u64) -> bool,
) -> Result<JobsFile, SplitError> {
    let mut lines = Lines::open(path)?;
    let first = lines.next_line()?.ok_or_else(|| SplitError::Empty {
        path: path.to_owned(),
    })?;
    let header: Header = parse_header(&first)?;
    check_header(&header, &first.at)?;
    let mut hasher = SplitHasher::new(
        &header.format,
        &header.root,
        header.depth,
        header.split_depth,
        &header.checked_by,
        header.paths,
    );
    let mut kept = Vec::new();
    let mut checks = Vec::new();
    let mut weights = Vec::new();
    let mut paths = 0u64;
    let mut next = 0u64;
    while let Some(line) = lines.next_line()? {
        if line.is_blank() {
            continue;
        }
        let here = line.at;
        let job: JobLine =
            serde_json::from_slice(&line.text).map_err(|source| SplitError::Json {
                at: here.clone(),
                what: "job",
                source,
            })?;
        let weight = check_job(&job, &here, &header, next, path)?;
        paths = paths.saturating_add(weight);
        let position =
            Position::from_fen(&job.fen).map_err(|source| SplitError::Fen { at: here, source })?;
        hasher.add(job.digest());
        checks.push(job.check);
        weights.push(weight);
        if keep(job.index) {
            kept.push(Job {
                index: job.index,
                path: job.path,
                position,
                depth: job.depth,
                weight,
                check: job.check,
            });
        }
        next += 1;
    }
    check_totals(path, &header, next, paths, hasher, first.at)?;
    Ok(JobsFile {
        header,
        jobs: kept,
        checks,
        weights,
    })
}

/// Checks a job line against the header and its place in the file before it counts
/// for anything: its index is the next one and within the announced count, its check
/// is the split's, its path and depth are the cut's, and it carries a weight exactly
/// when the format has them. Returns the job's weight (1 in a format without them).
fn check_job(
    job: &JobLine,
    here: &Location,
    header: &Header,
    next: u64,
    path: &Path,
) -> Result<u64, SplitError> {
    let remaining = header.depth - header.split_depth;
    let weighted = header.format != JOBS_FORMAT_2;
    if job.index != next {
        return Err(SplitError::JobOrder {
            at: here.clone(),
            found: job.index,
            expected: next,
        });
    }
    if next == header.jobs {
        // Past the announced count: refused here, before it can grow the lists.
        return Err(SplitError::JobCount {
            path: path.to_owned(),
            header: header.jobs,
            found: next + 1,
        });
    }
    if job.check != job.check_in(header.split) {
        return Err(SplitError::JobCheck { at: here.clone() });
    }
    if job.path.len() != header.split_depth as usize {
        return Err(SplitError::JobShape {
            at: here.clone(),
            found: format!("a path of {} moves", job.path.len()),
            expected: format!("{} moves", header.split_depth),
        });
    }
    if job.depth != remaining {
        return Err(SplitError::JobShape {
            at: here.clone(),
            found: format!("depth {}", job.depth),
            expected: format!("depth {remaining}"),
        });
    }
    match (weighted, job.weight) {
        (true, Some(w)) if w >= 1 => Ok(w),
        (false, None) => Ok(1),
        (_, found) => Err(SplitError::JobShape {
            at: here.clone(),
            found: found.map_or("no weight".into(), |w| format!("weight {w}")),
            expected: if weighted {
                "a weight of at least 1".into()
            } else {
                format!("no weight in {JOBS_FORMAT_2}")
            },
        }),
    }
}

/// The checks only the whole file can answer, once every job line passed its own: as
/// many jobs as the header announced, as many paths as it says they stand for, and a
/// split id that is the hash of them all (`at`: the header line that states it).
fn check_totals(
    path: &Path,
    header: &Header,
    found: u64,
    paths: u64,
    hasher: SplitHasher,
    at: Location,
) -> Result<(), SplitError> {
    if found != header.jobs {
        return Err(SplitError::JobCount {
            path: path.to_owned(),
            header: header.jobs,
            found,
        });
    }
    let announced = if header.format != JOBS_FORMAT_2 {
        header.paths
    } else {
        Some(header.jobs)
    };
    if announced != Some(paths) {
        return Err(SplitError::PathCount {
            path: path.to_owned(),
            header: announced.unwrap_or(0),
            found: paths,
        });
    }
    let computed = hasher.finish(header.jobs);
    if computed != header.split {
        return Err(SplitError::SplitId {
            at,
            found: header.split,
            computed,
        });
    }
    Ok(())
}

/// The header line, or why it is not one; a header of another format is named as such
/// before its fields are read, since they may differ.
fn parse_header(line: &Line) -> Result<Header, SplitError> {
    let json_err = |source| SplitError::Json {
        at: line.at.clone(),
        what: "jobs header",
        source,
    };
    let value: serde_json::Value = serde_json::from_slice(&line.text).map_err(json_err)?;
    if let Some(format) = value.get("format").and_then(|f| f.as_str()) {
        if !JOBS_FORMATS_READ.contains(&format) {
            return Err(SplitError::Format {
                at: line.at.clone(),
                found: format.chars().take(40).collect(),
                expected: JOBS_FORMAT,
            });
        }
    }
    serde_json::from_value(value).map_err(json_err)
}

/// The header's own fields: within the bounds, and a root that is a position. The id is
/// checked once the jobs it covers are read.
fn check_header(header: &Header, at: &Location) -> Result<(), SplitError> {
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
    if header.jobs > MAX_JOBS {
        return Err(SplitError::HeaderJobs {
            at: at.clone(),
            found: header.jobs,
            limit: MAX_JOBS,
        });
    }
    Position::from_fen(&header.root).map_err(|source| SplitError::Fen {
        at: at.clone(),
        source,
    })?;
    Ok(())
}

/// A header or job as its JSON line, newline included.
pub(super) fn json_line<T: serde::Serialize>(value: &T) -> io::Result<String> {
    let mut line = serde_json::to_string(value).map_err(io::Error::other)?;
    line.push('\n');
    Ok(line)
}

/// Writes one result line and flushes it, so a shard killed later keeps it.
pub(crate) fn write_result(out: &mut dyn Write, result: &JobResult) -> io::Result<()> {
    out.write_all(json_line(result)?.as_bytes())?;
    out.flush()
}

/// Hands every result line of a file to `each`, with where it stands, one at a time so
/// that a merge of millions of results holds none of them. Blank lines are skipped.
pub(crate) fn read_results(
    path: &Path,
    mut each: impl FnMut(Location, JobResult) -> Result<(), SplitError>,
) -> Result<(), SplitError> {
    let mut lines = Lines::open(path)?;
    while let Some(line) = lines.next_line()? {
        if line.is_blank() {
            continue;
        }
        let result = serde_json::from_slice(&line.text).map_err(|source| SplitError::Json {
            at: line.at.clone(),
            what: "result",
            source,
        })?;
        each(line.at, result)?;
    }
    Ok(())
}

/// Whether `text`, a last line without its newline, is a result line of split `split`
/// cut short: it begins as one does (`{"split":"<id>"`), or is the start of that.
fn cut_result(text: &[u8], split: SplitId) -> bool {
    let Ok(id) = serde_json::to_string(&split) else {
        return false;
    };
    let opening = format!("{{\"split\":{id}");
    let opening = opening.as_bytes();
    !text.is_empty() && (text.starts_with(opening) || opening.starts_with(text))
}

/// An output file opened for appending, with the results it already holds.
#[derive(Debug)]
pub(crate) struct Resumed {
    /// The file, positioned at its end.
    pub(crate) file: File,
    /// The results already in it, each once and checked, with where each stands.
    pub(crate) done: Vec<(Location, JobResult)>,
    /// How many lines the file holds, so the next one written is line `lines + 1`.
    pub(crate) lines: usize,
    /// A last line cut short (a shard killed mid-write), removed from the file.
    pub(crate) dropped: Option<Location>,
    /// Repeated results (a shard run twice into one file), removed from the file.
    pub(crate) duplicates: usize,
}

/// Opens `path` to append results of `jobs` counted by `generators`, creating it if
/// needed. Results already there are checked against their jobs and returned so their
/// jobs can be skipped; one that does not verify stops the shard, since whatever edited
/// it may have edited more. A result of another split or another set of generators means
/// the file belongs to another run. A last line cut short and repeated results are
/// removed, by writing the file anew beside itself and renaming it over.
pub(crate) fn resume(
    path: &Path,
    jobs: &JobsFile,
    generators: &[String],
) -> Result<Resumed, SplitError> {
    let write_err = |source| {
        SplitError::from(crate::files::FileError::Write {
            path: path.to_owned(),
            source,
        })
    };
    let exists = match std::fs::metadata(path) {
        Ok(_) => true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(source) => {
            return Err(SplitError::from(crate::files::FileError::Read {
                path: path.to_owned(),
                source,
            }))
        }
    };
    let mut held = match exists {
        true => held_results(path, jobs, generators)?,
        false => Held::default(),
    };
    if held.dropped.is_some() || held.duplicates > 0 || held.unended {
        let mut fresh = crate::files::Output::create(path).map_err(write_err)?;
        let mut w = io::BufWriter::new(&mut fresh);
        for (i, (at, r)) in held.done.iter_mut().enumerate() {
            w.write_all(json_line(r).map_err(write_err)?.as_bytes())
                .map_err(write_err)?;
            at.line = i + 1;
        }
        w.flush().map_err(write_err)?;
        drop(w);
        fresh.commit().map_err(write_err)?;
        held.lines = held.done.len();
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(write_err)?;
    Ok(Resumed {
        file,
        done: held.done,
        lines: held.lines,
        dropped: held.dropped,
        duplicates: held.duplicates,
    })
}

/// What an existing output file holds, read and checked by [`held_results`].
#[derive(Default)]
struct Held {
    done: Vec<(Location, JobResult)>,
    lines: usize,
    dropped: Option<Location>,
    duplicates: usize,
    /// Whether the last line lacks its newline.
    unended: bool,
}

/// The results in the output file `path`, each checked against its job: an error for
/// a result that does not verify, two results of one job that differ, or results of
/// another split or another set of generators (all of those listed at once).
fn held_results(path: &Path, jobs: &JobsFile, generators: &[String]) -> Result<Held, SplitError> {
    let split = jobs.header.split;
    let mut held = Held::default();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut foreign: BTreeMap<SplitId, Vec<Location>> = BTreeMap::new();
    let mut others: Vec<(Location, Vec<String>)> = Vec::new();
    let mut reader = Lines::open(path)?;
    while let Some(line) = reader.next_line()? {
        held.lines = line.at.line;
        held.unended = !line.ended;
        if line.is_blank() {
            continue;
        }
        let r = match serde_json::from_slice::<JobResult>(&line.text) {
            Ok(r) => r,
            // Only the last line can lack its newline: one cut short by a kill. (The check
            // is the last field, so no cut line reads as a whole result.)
            // Only a line that begins as this split's result lines do: any other text
            // without a newline (a note, a file given by mistake) is not a results file
            // of these jobs, and is refused, untouched, rather than wiped.
            Err(_) if !line.ended && cut_result(&line.text, split) => {
                held.dropped = Some(line.at);
                continue;
            }
            Err(source) => {
                return Err(SplitError::Json {
                    at: line.at,
                    what: "result",
                    source,
                })
            }
        };
        if r.split != split {
            foreign.entry(r.split).or_default().push(line.at);
            continue;
        }
        if r.generators() != generators {
            others.push((line.at, r.generators()));
            continue;
        }
        jobs.verify(&line.at, &r)?;
        if let Some(&earlier) = seen.get(&r.index) {
            let (first, kept) = &held.done[earlier];
            if kept.counts != r.counts {
                return Err(SplitError::ResultConflict {
                    second: line.at,
                    first: first.line,
                    index: r.index,
                });
            }
            held.duplicates += 1;
            continue;
        }
        seen.insert(r.index, held.done.len());
        held.done.push((line.at, r));
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
    Ok(held)
}

#[cfg(test)]
mod tests {
    use super::super::frontier::{emit, Emitted};
    use super::*;
    use crate::generators::registry;
    use std::sync::atomic::AtomicBool;

    /// A format 2 file (jobs without weights, a header without paths) is still read,
    /// each job as one path; a weight put into it, or a format 3 job without one, is
    /// refused.
    #[test]
    fn format_2_files_are_still_read_as_one_path_a_job() {
        let dir = tempfile::tempdir().unwrap();
        let v3 = dir.path().join("v3.jsonl");
        let stop = AtomicBool::new(false);
        let start = Position::startpos();
        let emitted = emit(&v3, &start, 3, 2, false, &registry(), &stop).unwrap();
        assert!(matches!(emitted, Emitted::Written(_)));
        let read = read_jobs(&v3, |_| true).unwrap();
        // The same split written as format 2 wrote it.
        let mut header = read.header.clone();
        header.format = JOBS_FORMAT_2.to_owned();
        header.paths = None;
        let mut lines: Vec<JobLine> = std::fs::read_to_string(&v3)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let write_v2 = |lines: &mut Vec<JobLine>, header: &mut Header, path: &Path| {
            let mut hasher = SplitHasher::new(
                JOBS_FORMAT_2,
                &header.root,
                header.depth,
                header.split_depth,
                &header.checked_by,
                None,
            );
            for l in lines.iter() {
                hasher.add(l.digest());
            }
            header.split = hasher.finish(header.jobs);
            let mut text = json_line(&*header).unwrap();
            for l in lines.iter_mut() {
                l.check = l.check_in(header.split);
                text.push_str(&json_line(&*l).unwrap());
            }
            std::fs::write(path, text).unwrap();
        };
        for l in &mut lines {
            l.weight = None;
        }
        let v2 = dir.path().join("v2.jsonl");
        write_v2(&mut lines, &mut header, &v2);
        let old = read_jobs(&v2, |_| true).unwrap();
        assert_eq!(old.jobs.len(), read.jobs.len());
        assert!(old.weights.iter().all(|&w| w == 1));
        assert_eq!(old.jobs[5].position, read.jobs[5].position);
        lines[3].weight = Some(2);
        write_v2(&mut lines, &mut header, &v2);
        assert!(matches!(
            read_jobs(&v2, |_| true),
            Err(SplitError::JobShape { .. })
        ));
    }
}
