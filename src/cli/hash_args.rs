//! The transposition table flags (`--hash`, `--hash-seed`) that a perft and a shard of
//! jobs share, and the tables they make.

use super::out::errln;
use super::CliError;
use crate::generators::face::Generator;
use crate::generators::perft_hash::{self, HashSize, Hashing, Keys, Table};
use crate::position::Position;

/// The transposition table flags of `xqdiff perft` (a count, or a shard of jobs).
#[derive(clap::Args, Debug, Default)]
pub(super) struct HashArgs {
    /// Count through a transposition table of this size (256M, 1G) per generator: a
    /// position met again by another path is looked up rather than counted again. A
    /// perft counts one generator after another through one table, emptied for each; a
    /// shard keeps a table per generator from job to job, so three generators take three
    /// times SIZE. More than the memory available (the cgroup's limit, MemAvailable) is
    /// refused.
    #[arg(long, value_name = "SIZE", conflicts_with_all = ["suite", "emit_jobs"])]
    hash: Option<HashSize>,
    /// The seed of the table's position keys (default: drawn from the clock). Every run
    /// prints its seed; a count repeated under another seed is an independent computation.
    #[arg(long, value_name = "SEED", requires = "hash")]
    hash_seed: Option<u64>,
}

/// Tables and their keys, made from [`HashArgs`]. Every generator counts through a
/// table of its own, so one generator never reads another's counts: their agreement
/// stays two computations.
pub(super) struct HashTable {
    pub(super) size: HashSize,
    pub(super) keys: Keys,
    pub(super) tables: Vec<Table>,
}

impl HashArgs {
    /// `tables` tables of the size asked for, allocated, if one was asked for.
    pub(super) fn tables(&self, tables: usize) -> Result<Option<HashTable>, CliError> {
        let Some(size) = self.hash else {
            return Ok(None);
        };
        // Tables are zero-filled at once: a size the kernel overcommits would be killed
        // part-way, with nothing said, rather than refused here.
        let count = tables.max(1) as u64;
        perft_hash::fits_in_memory(size, count, perft_hash::memory_available())?;
        let seed = self.hash_seed.unwrap_or_else(super::clock_seed);
        Ok(Some(HashTable {
            size,
            keys: Keys::new(seed),
            tables: (0..tables.max(1))
                .map(|_| Table::new(size))
                .collect::<Result<_, _>>()?,
        }))
    }
}

impl HashTable {
    /// Table `i`, as the last run left it.
    pub(super) fn hashing(&self, i: usize) -> Hashing<'_> {
        Hashing {
            keys: &self.keys,
            table: &self.tables[i % self.tables.len()],
        }
    }

    /// The first table emptied, for the next generator.
    pub(super) fn fresh(&self) -> Hashing<'_> {
        let h = self.hashing(0);
        h.table.clear();
        h
    }

    /// The line a run prints about it.
    pub(super) fn describe(&self) -> String {
        format!(
            "{} per generator ({} buckets), key seed {}",
            self.size,
            self.tables[0].buckets(),
            self.keys.seed()
        )
    }
}

/// Whether every generator's hashed count can be trusted on `positions`: before a
/// hashed total is printed (or a shard's results written), each generator's hashed and
/// two-ply paths are checked against its plain count on them and on positions just
/// below them, keys read from scratch after every move. Two hash seeds agreeing prove
/// nothing of a bug in the key or the table, which repeats under every seed; this
/// does. Says what differed when something did.
pub(super) fn hashing_trusted(positions: &[Position], generators: &[&dyn Generator]) -> bool {
    for g in generators {
        for pos in positions {
            if let Some(d) = crate::diff::oracle::paths::check_before_counting(pos, *g, 4) {
                errln!(
                    "xqdiff: {}'s counting paths disagree, so its hashed count is not trusted: {d}",
                    g.name()
                );
                return false;
            }
        }
    }
    true
}
