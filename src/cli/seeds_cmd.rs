//! `xqdiff fuzz-seeds`: the regression corpus and the reference suite as seed inputs
//! for the cargo-fuzz targets, so fuzzing starts from every position ever found wanting.

use super::out::outln;
use super::{corpus_source, CliError, CorpusUse, Outcome};
use crate::cases::structured::{playout_starts, to_bytes};
use crate::diff::corpus::fnv1a;
use crate::epd::{parse_suite, REFERENCE_SUITE};
use crate::position::Position;
use std::path::{Path, PathBuf};

/// Arguments of `xqdiff fuzz-seeds`.
#[derive(clap::Args, Debug)]
pub(super) struct SeedsArgs {
    /// The regression corpus to read; it must exist (default: the repository's corpus/,
    /// else the copy built into the program).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Where the fuzz corpora live; one directory per target is written under it.
    #[arg(long, default_value = "fuzz/corpus", value_name = "DIR")]
    out: PathBuf,
}

/// Moves a playout seed plays after its start byte: enough to leave the book position,
/// few enough that the fuzzer still owns most of the walk.
const PLAYOUT_PLIES: usize = 8;

/// One position to seed from, with the file name its seeds get.
struct Seed {
    name: String,
    position: Position,
    /// Index into [`playout_starts`].
    start: u8,
}

/// Runs `xqdiff fuzz-seeds`.
pub(super) fn run(args: &SeedsArgs) -> Result<Outcome, CliError> {
    let corpus = corpus_source(args.corpus.as_deref(), "--corpus", CorpusUse::Reads)?;
    let loaded = super::load_corpus(&corpus)?;
    let starts = playout_starts();
    let mut seeds: Vec<Seed> = Vec::new();
    for (path, case) in loaded.cases {
        let name = path
            .file_stem()
            .map_or_else(|| "case".to_owned(), |s| s.to_string_lossy().into_owned());
        // A corpus case is no playout start; spread the cases over the starts instead.
        let start = (fnv1a(name.as_bytes()) % starts.len() as u64) as u8;
        seeds.push(Seed {
            name,
            position: case.position,
            start,
        });
    }
    let suite = parse_suite(REFERENCE_SUITE).map_err(|source| CliError::Suite {
        path: "reference".to_owned(),
        source,
    })?;
    let from_corpus = seeds.len();
    for (i, entry) in suite.into_iter().enumerate() {
        seeds.push(Seed {
            name: format!("suite-line{}", entry.line),
            position: entry.position,
            // playout_starts lists the start position first, then the suite in order.
            start: (i + 1) as u8,
        });
    }
    for seed in &seeds {
        write_seeds(&args.out, seed)?;
    }
    outln!(
        "wrote {} seeds for each of differential, fen, playout into {} ({from_corpus} corpus cases, {} suite positions, {} damaged files skipped)",
        seeds.len(),
        args.out.display(),
        seeds.len() - from_corpus,
        loaded.damaged.len(),
    );
    Ok(Outcome::Agree)
}

fn write_seeds(out: &Path, seed: &Seed) -> Result<(), CliError> {
    let mut playout = vec![seed.start];
    // Move bytes from the name, so two seeds from one start walk different games.
    playout.extend(fnv1a(seed.name.as_bytes()).to_le_bytes()[..PLAYOUT_PLIES].iter());
    let files: [(&str, Vec<u8>); 3] = [
        ("differential", to_bytes(&seed.position)),
        ("fen", seed.position.fen().into_bytes()),
        ("playout", playout),
    ];
    for (target, bytes) in files {
        let dir = out.join(target);
        let path = dir.join(&seed.name);
        std::fs::create_dir_all(&dir)
            .and_then(|()| crate::files::replace(&path, &bytes))
            .map_err(|source| CliError::from(crate::files::FileError::Write { path, source }))?;
    }
    Ok(())
}
