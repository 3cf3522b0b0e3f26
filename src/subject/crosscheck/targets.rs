//! The positions an engine check asks about: the start position, a perft suite, the
//! regression corpus and seeded random playouts, all made beforehand; or, for a run
//! given a time, positions made as it goes ([`Fresh`]).

use super::Target;
use crate::cases::features::{features, Coverage, Feature};
use crate::cases::rng::Rng;
use crate::cases::{playout, structured};
use crate::diff::corpus::load_dir;
use crate::diff::oracle::consensus_steps;
use crate::epd::SuiteEntry;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::position::Position;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where an engine check's positions come from.
pub struct Sources<'a> {
    /// The perft suite (empty for none); its published counts also bound the start's depth.
    pub suite: &'a [SuiteEntry],
    /// The corpus cases, each labelled (by its file name).
    pub corpus: Vec<(String, Position)>,
    /// The deepest perft asked.
    pub depth: u32,
    /// A suite position runs at the deepest depth known to stay within this many nodes.
    pub max_nodes: Option<u64>,
    /// How many seeded random playout positions, and their seed.
    pub random: usize,
    /// The seed of the random positions.
    pub seed: u64,
}

/// Every position to ask about, in order: the start (as deep as the node budget allows,
/// by its published counts in the suite, else in the reference suite), the rest of the
/// suite, the corpus, then the random positions along `gens`' consensus, each as deep
/// as its own perft stays within the node budget. `xqdiff engine` and the check's
/// engine phase both ask exactly these.
pub fn all(sources: &Sources<'_>, gens: &[&dyn Generator]) -> Vec<Target> {
    let startpos = Position::startpos();
    let reference = crate::epd::parse_suite(crate::epd::REFERENCE_SUITE).unwrap_or_default();
    let published = sources
        .suite
        .iter()
        .chain(&reference)
        .find(|e| e.position == startpos);
    let start_depth = match published {
        Some(e) => suite(std::slice::from_ref(e), sources.depth, sources.max_nodes)
            .first()
            .map(|t| t.depth),
        None => Some(sources.depth),
    };
    let mut list: Vec<Target> = start_depth.map(start).into_iter().collect();
    list.extend(
        suite(sources.suite, sources.depth, sources.max_nodes)
            .into_iter()
            .filter(|t| t.position != startpos),
    );
    list.extend(sources.corpus.iter().map(|(label, position)| Target {
        label: label.clone(),
        position: position.clone(),
        depth: sources.depth,
    }));
    let mut randoms = random(sources.seed, sources.random, sources.depth, gens);
    if let (Some(limit), Some(first)) = (sources.max_nodes, gens.first()) {
        // A random position has no published counts: its own perft bounds its depth,
        // counted upward so no count far past the budget is ever made.
        for t in &mut randoms {
            t.depth = (2..=t.depth)
                .take_while(|&d| first.perft(&t.position, d) <= limit)
                .last()
                .unwrap_or(1);
        }
    }
    list.extend(randoms);
    list
}

/// The start position at `depth`.
pub fn start(depth: u32) -> Target {
    Target {
        label: "start".into(),
        position: Position::startpos(),
        depth,
    }
}

/// Every suite position at the deepest depth up to `depth` whose node count is known
/// to stay within `max_nodes`: a published count, or for an unpublished depth the
/// next deeper published one, which bounds it. A position with no depth known to fit
/// is left out; without `max_nodes` every position runs at `depth`.
pub fn suite(entries: &[SuiteEntry], depth: u32, max_nodes: Option<u64>) -> Vec<Target> {
    entries
        .iter()
        .filter_map(|e| {
            let fits = |d: u32| {
                let Some(limit) = max_nodes else { return true };
                e.counts
                    .iter()
                    .filter(|&&(pd, _)| pd >= d)
                    .min_by_key(|&&(pd, _)| pd)
                    .is_some_and(|&(_, n)| n <= limit)
            };
            let d = (1..=depth).rev().find(|&d| fits(d))?;
            Some(Target {
                label: e.label(),
                position: e.position.clone(),
                depth: d,
            })
        })
        .collect()
}

/// `count` positions from seeded random playouts (the fuzz campaign's: from the start
/// position or a reference position, up to 150 plies, a third of the time preferring
/// captures, following moves all of `engines` agree on), each the last position of its
/// playout that has a legal move. Position `i` depends only on `seed` and `i`.
pub fn random(seed: u64, count: usize, depth: u32, engines: &[&dyn Generator]) -> Vec<Target> {
    let starts = structured::playout_starts();
    (0..count as u64)
        .filter_map(|i| {
            let mut rng = Rng::for_item(seed, i);
            let start = &starts[rng.below(starts.len() as u64) as usize];
            let plies = rng.below(151) as usize;
            let walk = playout::random(start, consensus_steps(engines), &mut rng, plies, 0.35);
            // A game that ended (no legal move) asks nothing of the subject's moves: the
            // position before its last move is asked instead.
            let playable = walk
                .iter()
                .rev()
                .find(|p| engines.first().is_none_or(|g| g.perft(p, 1) > 0))?;
            Some(Target {
                label: format!("random {i}"),
                position: playable.clone(),
                depth,
            })
        })
        .collect()
}

/// The findings saved about one engine in a corpus, to be asked again.
#[derive(Debug, Default)]
pub struct Saved {
    /// Each saved finding's witness at the depth it was found at, labelled by its file
    /// name.
    pub targets: Vec<Target>,
    /// The folders searched for them, whether or not they exist.
    pub searched: Vec<PathBuf>,
    /// Folders of the corpus holding findings about other engines, by engine name: a
    /// corpus of someone else's findings checks nothing of this engine's.
    pub others: Vec<String>,
    /// Saved files that could not be read.
    pub damaged: Vec<crate::diff::corpus::CorpusError>,
}

/// The findings saved about the engine named `engine` under `dir`: in
/// `dir/external/<engine>/`, where `--corpus DIR` saves them, and in `dir/<engine>/`,
/// where a run without `--corpus` saves them (`xqdiff-findings/<engine>/`), so either
/// folder given as the corpus asks them again. A case without a depth of its own is
/// asked at `depth`.
pub fn saved(dir: &Path, engine: &str, depth: u32) -> std::io::Result<Saved> {
    let name = super::slug(engine);
    let mut out = Saved {
        searched: vec![super::external_dir(dir, engine), dir.join(&name)],
        ..Saved::default()
    };
    for folder in &out.searched {
        if !folder.is_dir() {
            continue;
        }
        let loaded = load_dir(folder)?;
        out.damaged.extend(loaded.damaged);
        for (path, case) in loaded.cases {
            let depth = case
                .note("depth")
                .and_then(|d| d.parse().ok())
                .filter(|&d| d >= 1)
                .unwrap_or(depth);
            out.targets.push(Target {
                label: format!("saved {}", file_name(&path)),
                position: case.position,
                depth,
            });
        }
    }
    let mut others = Vec::new();
    for parent in [dir.join("external"), dir.to_path_buf()] {
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let folder = entry.path();
            let other = file_name(&folder);
            if other == name || !folder.is_dir() || others.contains(&other) {
                continue;
            }
            // A folder of findings about an engine: its cases name the engine.
            let about_an_engine = load_dir(&folder)
                .is_ok_and(|l| l.cases.iter().any(|(_, c)| c.note("engine").is_some()));
            if about_an_engine {
                others.push(other);
            }
        }
    }
    others.sort();
    out.others = others;
    Ok(out)
}

impl Saved {
    /// Puts the saved findings first in `list`, so they are asked again before anything
    /// new, and says how many there were. A corpus named by the user (`dir`) that has no
    /// case of its own (`named_without_cases`) and holds findings about other engines
    /// only would check nothing of what it holds: `Err` with why, never a pass.
    pub(crate) fn put_first(
        self,
        list: &mut Vec<Target>,
        dir: &Path,
        engine: &str,
        named_without_cases: bool,
    ) -> Result<usize, String> {
        if named_without_cases {
            if let Some(why) = self.about_others_only(dir, engine) {
                return Err(why);
            }
        }
        let n = self.targets.len();
        list.splice(0..0, self.targets);
        Ok(n)
    }

    /// Why a corpus named by the user (`dir`) with none of its own cases checks
    /// nothing it holds: it holds findings about other engines only. `None` when it
    /// holds some about `engine`, or none at all.
    pub(crate) fn about_others_only(&self, dir: &Path, engine: &str) -> Option<String> {
        if !self.targets.is_empty() || self.others.is_empty() {
            return None;
        }
        let searched: Vec<String> = self
            .searched
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        Some(format!(
            "the corpus {} holds findings about {} but none about {engine} (looked in {}): \
             none of them can be asked of this engine",
            dir.display(),
            self.others.join(", "),
            searched.join(" and ")
        ))
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Candidates made for each fresh position; the one reaching the rarest feature so far
/// is kept, so rare rule cases are sought rather than met by chance.
const CANDIDATES: u64 = 3;

/// Positions made as a run goes, until `until` (if ever): for `--seconds`, where nothing is built
/// beforehand. Each is the pick of three candidates from the two sources the fuzz campaign
/// uses (a random byte string read as a structured position, and a random playout), the
/// one whose rarest feature the positions so far reached least often; `Fresh::coverage`
/// counts what they reached. Candidate `i` depends only on the seed and `i`, and the
/// picks on what came before, so a seed gives the same sequence however long it runs.
pub struct Fresh<'a> {
    seed: u64,
    depth: u32,
    until: Option<Instant>,
    next: u64,
    moves: &'a dyn Generator,
    coverage: Coverage,
    made: u64,
    spent: Duration,
}

impl<'a> Fresh<'a> {
    /// Positions for a perft of `depth`, made until `until` (`None`: without end),
    /// playouts walked with the moves of `moves` (the fastest built-in: the position is
    /// compared with all of them afterwards anyway).
    pub fn new(
        seed: u64,
        depth: u32,
        until: Option<Instant>,
        moves: &'a dyn Generator,
    ) -> Fresh<'a> {
        Fresh {
            seed,
            depth,
            until,
            next: 0,
            moves,
            coverage: Coverage::new(),
            made: 0,
            spent: Duration::ZERO,
        }
    }

    /// How often the positions made so far reached each rare feature.
    pub(crate) fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// Positions made so far, and the time it took to make them.
    pub fn made(&self) -> (u64, Duration) {
        (self.made, self.spent)
    }

    /// Candidate `i`: even ones from random bytes, odd ones from a playout.
    fn candidate(&self, i: u64) -> Option<Position> {
        let mut rng = Rng::for_item(self.seed, i);
        let pos = if i % 2 == 0 {
            let len = 16 + rng.below(113) as usize;
            structured::from_bytes(&rng.bytes(len))
        } else {
            // One board walked along the playout, never reloaded: loading, listing
            // and validating afresh at every ply was most of a fresh position's cost.
            let starts = structured::playout_starts();
            let start = &starts[rng.below(starts.len() as u64) as usize];
            let mut board = self.moves.walker(start);
            let mut now = start.setup().clone();
            let mut before = None;
            for _ in 0..rng.below(151) {
                let legal = board.legal();
                if legal.is_empty() {
                    // The game ended: the position before the last move is asked.
                    now = before.take().unwrap_or(now);
                    break;
                }
                let captures: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| now.piece_at(m.to).is_some())
                    .collect();
                // A third of the time a capture when there is one: endgames come sooner.
                let pool = if !captures.is_empty() && rng.below(3) == 0 {
                    &captures[..]
                } else {
                    &legal[..]
                };
                let Some(&mv) = pool.get(rng.below(pool.len().max(1) as u64) as usize) else {
                    break;
                };
                before = Some(std::mem::replace(&mut now, board.play(mv)));
            }
            Position::new(now).ok()?
        };
        // A position without a legal move asks nothing of a perft.
        (self.moves.perft(&pos, 1) > 0).then_some(pos)
    }

    /// How rare a position with `found` features is: how often the positions so far
    /// reached its rarest feature (none: as common as can be).
    fn rarity(&self, found: &[Feature]) -> u64 {
        found
            .iter()
            .map(|&f| self.coverage.count(f))
            .min()
            .unwrap_or(u64::MAX)
    }
}

impl Iterator for Fresh<'_> {
    type Item = Target;

    fn next(&mut self) -> Option<Target> {
        if self.until.is_some_and(|end| Instant::now() >= end) {
            return None;
        }
        let started = Instant::now();
        let first = self.next;
        // The pick's features are counted as found: working them out is much of a
        // candidate's cost.
        let mut best: Option<(u64, Position, Vec<Feature>)> = None;
        // Random bytes may give positions without a move; a few rounds always find one.
        while best.is_none() || self.next < first + CANDIDATES {
            let i = self.next;
            self.next += 1;
            if let Some(pos) = self.candidate(i) {
                let found = features(&pos);
                let rarity = self.rarity(&found);
                if best.as_ref().is_none_or(|(r, _, _)| rarity < *r) {
                    best = Some((rarity, pos, found));
                }
            }
            if self.next > first + 64 * CANDIDATES {
                break;
            }
        }
        let (_, position, found) = best?;
        self.coverage.add_found(&position, &found);
        self.made += 1;
        self.spent += started.elapsed();
        Some(Target {
            label: format!("fresh {}", self.made),
            position,
            depth: self.depth,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::epd::{parse_suite, REFERENCE_SUITE};
    use crate::generators::registry;

    #[test]
    fn suite_depths_respect_the_node_limit() {
        let entries = parse_suite(REFERENCE_SUITE).unwrap();
        for (depth, limit) in [
            (3, None),
            (3, Some(10_000)),
            (5, Some(2_000_000)),
            (2, Some(1)),
        ] {
            let targets = suite(&entries, depth, limit);
            for t in &targets {
                assert!(t.depth <= depth && t.depth >= 1, "{}", t.label);
                if let Some(limit) = limit {
                    let entry = entries.iter().find(|e| e.label() == t.label).unwrap();
                    let bound = entry
                        .counts
                        .iter()
                        .filter(|&&(d, _)| d >= t.depth)
                        .min_by_key(|&&(d, _)| d)
                        .map(|&(_, n)| n);
                    assert!(
                        bound.is_some_and(|n| n <= limit),
                        "{} at {}",
                        t.label,
                        t.depth
                    );
                }
            }
            if limit.is_none() {
                assert_eq!(targets.len(), entries.len());
            }
        }
        assert!(suite(&entries, 2, Some(1)).is_empty());
    }

    #[test]
    fn random_positions_depend_only_on_seed_and_index() {
        let engines = registry();
        let a = random(7, 5, 2, &engines);
        let b = random(7, 8, 2, &engines);
        assert_eq!(a.len(), 5);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.position, y.position);
        }
        let c = random(8, 5, 2, &engines);
        assert_ne!(
            a.iter().map(|t| t.position.fen()).collect::<Vec<_>>(),
            c.iter().map(|t| t.position.fen()).collect::<Vec<_>>()
        );
    }
}
