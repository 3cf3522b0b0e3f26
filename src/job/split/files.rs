//! The JSON-lines files: a jobs file (a header line, then one job per line, indexed from
//! 0 in order) and results files (one finished job per line, in any order).

use super::{
    Header, Job, JobLine, JobResult, Location, Problem, Problems, SplitError, SplitId, JOBS_FORMAT,
};
use crate::position::Position;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The largest jobs or results file read: far past any split worth running, and a
/// bound on the memory a merge or shard can be made to use.
pub const MAX_FILE_BYTES: u64 = 4 << 30;

/// The longest line read; job and result lines are a few hundred bytes.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Opens `path` for reading if it is a regular file within [`MAX_FILE_BYTES`]; a FIFO
/// would block the open until a writer came, and a directory or device is never a file
/// of ours.
fn open_regular(path: &Path) -> Result<File, SplitError> {
    let read_err = |source| SplitError::Read {
        path: path.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(read_err)?;
    if !meta.file_type().is_file() {
        return Err(SplitError::NotRegular {
            path: path.to_owned(),
            kind: kind_of(meta.file_type()),
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

/// What a file that is not a regular file is, for the message.
fn kind_of(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// One line of a file.
struct Line {
    at: Location,
    /// Byte offset of its start.
    offset: u64,
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
            .map_err(|source| SplitError::Read {
                path: self.path.clone(),
                source,
            })?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        let at = Location {
            path: self.path.clone(),
            line: self.number,
        };
        let offset = self.offset;
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
        Ok(Some(Line {
            at,
            offset,
            text,
            ended,
        }))
    }
}

/// Reads and checks a whole jobs file, keeping the jobs whose index `keep` accepts.
/// Every line is checked whether kept or not, so a damaged file fails on every shard.
pub fn read_jobs(
    path: &Path,
    mut keep: impl FnMut(u64) -> bool,
) -> Result<(Header, Vec<Job>), SplitError> {
    let mut lines = Lines::open(path)?;
    let first = lines.next_line()?.ok_or_else(|| SplitError::Empty {
        path: path.to_owned(),
    })?;
    let header: Header =
        serde_json::from_slice(&first.text).map_err(|source| SplitError::Json {
            at: first.at.clone(),
            what: "jobs header",
            source,
        })?;
    check_header(&header, first.at)?;
    let remaining = header.depth - header.split_depth;
    let mut kept = Vec::new();
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

/// The folder `path` is in, for temporaries that must be renamed onto it.
pub(super) fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// A uniquely named temporary beside `path`, to be persisted over it: a rename within one
/// folder is atomic, so readers see the old file or the new one, never a part. It is
/// removed when dropped unpersisted. Its mode is what a plain create would give (the
/// umask applied), not the temporary's usual owner-only.
pub(super) fn temp_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".xqdiff-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(folder_of(path))
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

/// Hands every result line of a file to `each`, with where it stands, one at a time so
/// that a merge of millions of results holds none of them. Blank lines are skipped.
pub fn read_results(
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
    let mut done = Vec::new();
    let mut dropped = None;
    let mut lines = 0;
    // Where the kept lines end, and whether the last of them lacks its newline.
    let mut keep_len = 0;
    let mut unended = false;
    let mut foreign: BTreeMap<SplitId, Vec<Location>> = BTreeMap::new();
    let mut others: Vec<(Location, Vec<String>)> = Vec::new();
    let exists = match std::fs::metadata(path) {
        Ok(_) => true,
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(source) => {
            return Err(SplitError::Read {
                path: path.to_owned(),
                source,
            })
        }
    };
    if exists {
        let mut reader = Lines::open(path)?;
        while let Some(line) = reader.next_line()? {
            if line.is_blank() {
                lines = line.at.line;
                keep_len = line.offset + line.text.len() as u64 + u64::from(line.ended);
                unended = !line.ended;
                continue;
            }
            match serde_json::from_slice::<JobResult>(&line.text) {
                Ok(r) if r.split != split => foreign.entry(r.split).or_default().push(line.at),
                Ok(r) if r.generators() != generators => {
                    others.push((line.at, r.generators()));
                }
                Ok(r) => {
                    lines = line.at.line;
                    keep_len = line.offset + line.text.len() as u64 + u64::from(line.ended);
                    unended = !line.ended;
                    done.push((line.at, r));
                }
                // Only the last line can lack its newline: one cut short by a kill.
                Err(_) if !line.ended => dropped = Some(line.at),
                Err(source) => {
                    return Err(SplitError::Json {
                        at: line.at,
                        what: "result",
                        source,
                    })
                }
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
    if dropped.is_some() {
        file.set_len(keep_len).map_err(write_err)?;
    }
    if unended {
        // A whole last line without its newline: finish it so the next line starts clean.
        file.write_all(b"\n").map_err(write_err)?;
    }
    Ok(Resumed {
        file,
        done,
        lines,
        dropped,
    })
}
