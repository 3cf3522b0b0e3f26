//! Cutting the perft tree at a fixed ply into jobs. Above the cut every generator must
//! agree on the legal moves and the position after each, since the jobs file keeps one
//! answer; below it, each shard compares the generators' counts job by job. Together
//! that compares as much as one unsplit perft does.

use super::files::{json_line, MAX_FILE_BYTES};
use super::{Check, Header, JobLine, SplitError, SplitHasher, JOBS_FORMAT, MAX_JOBS};
use crate::diff::oracle::consensus_children;
use crate::files::folder_of;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where the generators part ways above the cut, so there is no one frontier to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FrontierDisagreement {
    /// The moves from the root to the position.
    path: Vec<Move>,
    /// The position, as FEN.
    fen: String,
    /// What differs.
    detail: String,
}

impl fmt::Display for FrontierDisagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path: Vec<String> = self.path.iter().map(Move::to_string).collect();
        write!(
            f,
            "after [{}] ({}): {}",
            path.join(" "),
            self.fen,
            self.detail
        )
    }
}

/// What [`emit`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Emitted {
    /// The jobs file is written; its header.
    Written(Header),
    /// The generators disagree above the cut; nothing was written.
    Disagree(FrontierDisagreement),
    /// The stop flag was raised; nothing was written.
    Stopped,
}

/// Writes the jobs of perft `depth` from `root` cut `split_depth` plies down to `out`
/// (one per position reached, weighted by its paths, when `unique`; else one per path),
/// checking on the way that all `gens` agree above the cut, and stopping (with nothing
/// written) once `stop` is raised. The file appears whole or not at all: the job lines
/// go to an unnamed temporary, which vanishes however the process ends, and the whole
/// file to a named one beside `out`, renamed over it at the end and removed on any
/// failure or stop; only a kill during that last copy can leave it behind.
pub(crate) fn emit(
    out: &Path,
    root: &Position,
    depth: u32,
    split_depth: u32,
    unique: bool,
    gens: &[&dyn Generator],
    stop: &AtomicBool,
) -> Result<Emitted, SplitError> {
    crate::depth::check(depth.into())?;
    if split_depth > depth {
        return Err(SplitError::TooDeep { split_depth, depth });
    }
    if gens.is_empty() {
        return Err(SplitError::NoGenerators);
    }
    check_size(root, split_depth, gens[0])?;
    let write_err = |source| {
        SplitError::from(crate::files::FileError::Write {
            path: out.to_owned(),
            source,
        })
    };
    let checked_by: Vec<String> = gens.iter().map(|g| g.name().to_owned()).collect();
    let mut walk = Walk {
        gens,
        remaining: depth - split_depth,
        out: BufWriter::new(tempfile::tempfile_in(folder_of(out)).map_err(write_err)?),
        written: 0,
        bytes: 0,
        digests: Vec::new(),
        pending: Vec::new(),
        seen: unique.then(HashMap::new),
        paths: 0,
        stop,
    };
    let found = walk.visit(root, &mut Vec::new(), split_depth);
    let found = match found {
        Ok(found) => walk.write_jobs().map(|()| found),
        Err(e) => Err(e),
    };
    match found {
        Ok(None) => {}
        Ok(Some(d)) => return Ok(Emitted::Disagree(d)),
        Err(WalkError::Io(e)) => return Err(write_err(e)),
        Err(WalkError::Stopped) => return Ok(Emitted::Stopped),
        Err(WalkError::TooLarge) => {
            return Err(SplitError::JobsFileTooLarge {
                limit: MAX_FILE_BYTES,
            })
        }
    }
    let header = header_of(root, depth, split_depth, checked_by, &walk);
    let mut body = walk
        .out
        .into_inner()
        .map_err(|e| write_err(e.into_error()))?;
    body.seek(SeekFrom::Start(0)).map_err(write_err)?;
    write_whole(out, header, body, stop)
}

/// The header of the jobs `walk` wrote: the cut, the generators that agreed above it,
/// and the split id, the hash of all that and every job's digest, which only a finished
/// walk knows (the number of paths is part of it).
fn header_of(
    root: &Position,
    depth: u32,
    split_depth: u32,
    checked_by: Vec<String>,
    walk: &Walk<'_>,
) -> Header {
    let (jobs, paths) = (walk.written, walk.paths);
    let mut hasher = SplitHasher::new(
        JOBS_FORMAT,
        &root.fen(),
        depth,
        split_depth,
        &checked_by,
        Some(paths),
    );
    for &d in &walk.digests {
        hasher.add(d);
    }
    Header {
        format: JOBS_FORMAT.to_owned(),
        split: hasher.finish(jobs),
        root: root.fen(),
        depth,
        split_depth,
        jobs,
        checked_by,
        paths: Some(paths),
    }
}

/// Writes the jobs file whole at `out`: the header, then each job line of `body` (the
/// walk's temporary) with the check that carries the split id, which only the header
/// knows. The file is renamed into place at the end, so a stop on the way leaves none.
fn write_whole(
    out: &Path,
    header: Header,
    body: File,
    stop: &AtomicBool,
) -> Result<Emitted, SplitError> {
    let write_err = |source| {
        SplitError::from(crate::files::FileError::Write {
            path: out.to_owned(),
            source,
        })
    };
    let mut whole = crate::files::Output::create(out).map_err(write_err)?;
    let mut w = BufWriter::new(&mut whole);
    w.write_all(json_line(&header).map_err(write_err)?.as_bytes())
        .map_err(write_err)?;
    let mut reader = BufReader::new(body);
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(write_err)? == 0 {
            break;
        }
        if stop.load(Ordering::Relaxed) {
            return Ok(Emitted::Stopped);
        }
        // The id covers every job, so the checks that carry it are put in only now.
        let mut job: JobLine =
            serde_json::from_slice(&line).map_err(|e| write_err(io::Error::other(e)))?;
        job.check = job.check_in(header.split);
        w.write_all(json_line(&job).map_err(write_err)?.as_bytes())
            .map_err(write_err)?;
    }
    w.flush().map_err(write_err)?;
    drop(w);
    whole.commit().map_err(write_err)?;
    Ok(Emitted::Written(header))
}

/// The rough length of a job line in bytes, for the estimate in a refusal: a FEN, a
/// check and the keys, and a move per ply.
pub(super) fn line_bytes(split_depth: u32) -> f64 {
    140.0 + 7.0 * f64::from(split_depth)
}

/// Refuses a split of more than [`MAX_JOBS`] jobs, before anything is written. The
/// frontier is counted ply by ply, the last ply counted rather than played, so a ply
/// costs about as much as the frontier one ply up; counting stops where the next ply
/// alone, grown as the last one did, would be [`CLEARLY`] times the limit, so that a
/// refusal costs little however deep the split asked.
fn check_size(root: &Position, split_depth: u32, g: &dyn Generator) -> Result<(), SplitError> {
    let mut above = 1u64;
    for ply in 1..=split_depth {
        let counted = g.perft(root, ply);
        let growth = counted as f64 / above as f64;
        let next = counted as f64 * growth;
        if counted > MAX_JOBS || (ply < split_depth && next > CLEARLY * MAX_JOBS as f64) {
            return Err(SplitError::TooManyJobs {
                split_depth,
                ply,
                counted,
                estimate: counted as f64 * growth.powi((split_depth - ply) as i32),
                limit: MAX_JOBS,
            });
        }
        if counted == 0 {
            break;
        }
        above = counted;
    }
    Ok(())
}

/// How far past the limit an estimate must be to refuse without counting: far enough
/// that an uneven tree does not turn away a split that fits.
const CLEARLY: f64 = 4.0;

struct Walk<'a> {
    gens: &'a [&'a dyn Generator],
    remaining: u32,
    out: BufWriter<File>,
    /// Job lines written.
    written: u64,
    /// Bytes of job lines written, held under [`MAX_FILE_BYTES`] so a shard can read
    /// whatever emit writes (long paths make long lines, which the job count misses).
    bytes: u64,
    /// Each written job's digest, in order: the split id is made from them once the
    /// number of paths, which the header carries, is known.
    digests: Vec<u64>,
    /// With `--unique`, the jobs found so far, written once the walk is over and their
    /// weights are final.
    pending: Vec<JobLine>,
    /// With `--unique`, each position's job in `pending`, by board and side to move.
    seen: Option<HashMap<String, usize>>,
    /// Paths to the frontier walked.
    paths: u64,
    stop: &'a AtomicBool,
}

enum WalkError {
    Io(io::Error),
    TooLarge,
    Stopped,
}

impl From<io::Error> for WalkError {
    fn from(e: io::Error) -> WalkError {
        WalkError::Io(e)
    }
}

/// The first two fields of a FEN: the board and the side to move.
fn board_and_turn(fen: &str) -> String {
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

impl Walk<'_> {
    fn write_line(&mut self, line: JobLine) -> Result<(), WalkError> {
        self.digests.push(line.digest());
        let text = json_line(&line)?;
        self.bytes += text.len() as u64;
        if self.bytes > MAX_FILE_BYTES {
            return Err(WalkError::TooLarge);
        }
        self.out.write_all(text.as_bytes())?;
        self.written += 1;
        Ok(())
    }

    /// Writes the jobs a `--unique` walk held back.
    fn write_jobs(&mut self) -> Result<(), WalkError> {
        for line in std::mem::take(&mut self.pending) {
            if self.stop.load(Ordering::Relaxed) {
                return Err(WalkError::Stopped);
            }
            self.write_line(line)?;
        }
        Ok(())
    }

    fn visit(
        &mut self,
        pos: &Position,
        path: &mut Vec<Move>,
        plies: u32,
    ) -> Result<Option<FrontierDisagreement>, WalkError> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(WalkError::Stopped);
        }
        if plies == 0 {
            self.paths += 1;
            let line = JobLine {
                index: 0,
                path: path.clone(),
                fen: pos.fen(),
                depth: self.remaining,
                weight: Some(1),
                // Set when the file is put together, once the split id is known.
                check: Check(0),
            };
            match &mut self.seen {
                Some(seen) => {
                    // The move counters do not change a perft: transpositions that
                    // differ only there are one job.
                    let board = board_and_turn(&line.fen);
                    match seen.get(&board) {
                        Some(&i) => {
                            let job = &mut self.pending[i];
                            job.weight = job.weight.map(|w| w + 1);
                        }
                        None => {
                            seen.insert(board, self.pending.len());
                            self.pending.push(JobLine {
                                index: self.pending.len() as u64,
                                ..line
                            });
                        }
                    }
                }
                None => self.write_line(JobLine {
                    index: self.written,
                    ..line
                })?,
            }
            return Ok(None);
        }
        let children = match agreed_children(pos, self.gens) {
            Ok(children) => children,
            Err(detail) => {
                return Ok(Some(FrontierDisagreement {
                    path: path.clone(),
                    fen: pos.fen(),
                    detail,
                }))
            }
        };
        for (mv, child) in children {
            path.push(mv);
            let found = self.visit(&child, path, plies - 1)?;
            path.pop();
            if found.is_some() {
                return Ok(found);
            }
        }
        Ok(None)
    }
}

/// The legal moves and the position after each, sorted by move, if every generator gives
/// the same (the oracle's consensus: repeats, captures, positions after and their
/// validity compared); otherwise a sentence on what differs.
fn agreed_children(
    pos: &Position,
    gens: &[&dyn Generator],
) -> Result<Vec<(Move, Position)>, String> {
    consensus_children(pos, gens).map_err(|d| {
        let odd = d
            .odd_one_out
            .as_ref()
            .map_or_else(String::new, |o| format!(" (odd one out: {o})"));
        format!("{}{odd}: {}", d.check, d.detail)
    })
}

#[cfg(test)]
mod tests {
    use super::super::files::read_jobs;
    use super::super::JobsFile;
    use super::*;
    use crate::generators::planted::{Bug, Planted};
    use crate::generators::registry;
    use std::path::PathBuf;

    /// A stop flag never raised.
    static GO: AtomicBool = AtomicBool::new(false);

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("xqdiff-frontier-{}-{name}", std::process::id()))
    }

    /// Every cut of a small perft, by paths and by unique positions: the weights add up
    /// to perft(split depth), a path split has a job per path and a unique one fewer
    /// jobs wherever paths meet, and the jobs' own perfts times their weights add up to
    /// the unsplit count.
    #[test]
    fn jobs_add_up_to_the_unsplit_perft() {
        let gens = registry();
        let start = Position::startpos();
        let endgame = Position::from_fen("4k4/4a4/9/9/9/9/9/9/4A4/2RK5 b").unwrap();
        // (position, depth, split depth, unique, whether transpositions make fewer jobs)
        for (pos, depth, split, unique, fewer) in [
            (&start, 3, 0, false, false),
            (&start, 3, 1, false, false),
            (&start, 3, 2, false, false),
            (&start, 3, 3, false, false),
            (&endgame, 3, 2, false, false),
            (&start, 3, 1, true, false),
            (&start, 4, 3, true, true),
            (&endgame, 4, 3, true, true),
        ] {
            let out = temp(&format!("{depth}-{split}-{unique}.jsonl"));
            let header = match emit(&out, pos, depth, split, unique, &gens, &GO).unwrap() {
                Emitted::Written(h) => h,
                Emitted::Disagree(d) => panic!("{d}"),
                Emitted::Stopped => panic!("stopped unasked"),
            };
            let JobsFile {
                header: read,
                jobs,
                weights,
                ..
            } = read_jobs(&out, |_| true).unwrap();
            std::fs::remove_file(&out).unwrap();
            let what = format!("{} depth {depth} split {split} unique {unique}", pos.fen());
            assert_eq!(read, header);
            let paths = gens[0].perft(pos, split);
            assert_eq!(header.paths, Some(paths), "{what}");
            assert_eq!(weights.iter().sum::<u64>(), paths, "{what}");
            assert_eq!(header.jobs < paths, fewer, "{what}: {} jobs", header.jobs);
            assert_eq!(jobs.len() as u64, header.jobs);
            let total: u64 = jobs
                .iter()
                .map(|j| j.weight * gens[0].perft(&j.position, j.depth))
                .sum();
            assert_eq!(total, gens[0].perft(pos, depth), "{what}");
        }
    }

    #[test]
    fn a_generator_that_differs_above_the_cut_stops_the_split() {
        let planted = Planted::new(Bug::PawnSidewaysBeforeRiver);
        let gens: Vec<&dyn Generator> = vec![registry()[0], &planted];
        let out = temp("planted.jsonl");
        let emitted = emit(&out, &Position::startpos(), 4, 2, false, &gens, &GO).unwrap();
        assert!(
            !out.exists(),
            "a split the generators disagree on is not written"
        );
        match emitted {
            Emitted::Disagree(d) => {
                assert!(d.path.is_empty(), "the root already differs: {d}");
                assert!(d.detail.contains("only in planted"), "{d}");
            }
            Emitted::Written(_) | Emitted::Stopped => {
                panic!("the planted pawn bug went unnoticed")
            }
        }
    }

    #[test]
    fn too_deep_and_no_generators_are_errors() {
        let start = Position::startpos();
        let out = temp("never.jsonl");
        assert!(matches!(
            emit(&out, &start, 2, 3, false, &registry(), &GO),
            Err(SplitError::TooDeep { .. })
        ));
        assert!(matches!(
            emit(&out, &start, 2, 1, false, &[], &GO),
            Err(SplitError::NoGenerators)
        ));
        assert!(matches!(
            emit(
                &out,
                &start,
                crate::depth::MAX_DEPTH + 1,
                1,
                false,
                &registry(),
                &GO
            ),
            Err(SplitError::DepthArg(_))
        ));
        assert!(!out.exists());
    }

    /// A raised stop flag ends the split with nothing left in the folder: no jobs file and
    /// no temporary.
    #[test]
    fn a_stopped_split_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("jobs.jsonl");
        let stop = AtomicBool::new(true);
        let emitted = emit(&out, &Position::startpos(), 3, 2, false, &registry(), &stop).unwrap();
        assert_eq!(emitted, Emitted::Stopped);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
