//! Filling a [`Report`] from what the library's checks return, so a command that runs
//! them needs a line or two per phase.

use super::{
    rounded, seconds, CoverageTable, Dispute, DisputedMove, EngineInfo, EngineOption, FeatureCount,
    FoundPath, FuzzPhase, GeneratorInfo, PerftResult, Phase, PhaseDetails, PointCount,
    ReplayFailure, ReplayPhase, Report, ReportedCause, Reproduce, SetAsideExample, SetAsideInfo,
    Status,
};
use crate::cases::features::{Coverage, Feature};
use crate::diagnose::Diagnosis;
use crate::diff::campaign;
use crate::diff::corpus::{Replay, Source};
use crate::diff::finding::provenance::Provenance;
use crate::diff::finding::replay::Replayed;
use crate::diff::finding::{Blame, Finding};
use crate::diff::oracle::{CheckKind, Disagreement};
use crate::diff::signature::Signature;
use crate::fen;
use crate::generators::face::Generator;
use crate::moves::Move;
use crate::subject::external::EngineConfig;
use std::path::Path;
use std::time::Duration;

impl From<&Coverage> for CoverageTable {
    fn from(c: &Coverage) -> CoverageTable {
        CoverageTable {
            total: c.total(),
            features: Feature::ALL
                .into_iter()
                .map(|f| FeatureCount {
                    feature: f.name(),
                    positions: c.count(f),
                })
                .collect(),
            points: c
                .points()
                .iter()
                .map(|p| PointCount {
                    piece: p.name(),
                    points: p.points as u64,
                    reached: p.reached as u64,
                    fewest: p.fewest.1,
                    fewest_at: p.fewest.0.to_string(),
                })
                .collect(),
        }
    }
}

impl From<&crate::subject::rules::SetAside> for SetAsideInfo {
    fn from(s: &crate::subject::rules::SetAside) -> SetAsideInfo {
        SetAsideInfo {
            moves: s.moves,
            positions: s.positions,
            lists: s.lists,
            available: s.available,
            examples: s
                .examples
                .iter()
                .map(|(fen, mv)| SetAsideExample {
                    fen: fen.clone(),
                    mv: mv.to_string(),
                })
                .collect(),
        }
    }
}

impl From<&campaign::Report> for FuzzPhase {
    fn from(r: &campaign::Report) -> FuzzPhase {
        let secs = r.elapsed.as_secs_f64().max(1e-9);
        FuzzPhase {
            cases: r.cases,
            positions: r.positions,
            cases_per_second: rounded(r.rate()),
            positions_per_second: rounded(r.positions as f64 / secs),
            findings: r.new_findings().count() as u64,
            known: (r.findings.len() - r.new_findings().count()) as u64,
            interrupted: r.interrupted,
            write_errors: r.write_errors.clone(),
            coverage: CoverageTable::from(&r.coverage),
        }
    }
}

impl GeneratorInfo {
    /// One entry per engine, by name; the built-ins have no version of their own.
    pub(crate) fn list(engines: &[&dyn Generator]) -> Vec<GeneratorInfo> {
        engines
            .iter()
            .map(|g| GeneratorInfo {
                name: g.name().to_owned(),
                version: None,
            })
            .collect()
    }
}

impl EngineInfo {
    /// An engine started from `config` that called itself `name`.
    pub(crate) fn from_config(config: &EngineConfig, name: &str) -> EngineInfo {
        EngineInfo {
            name: name.to_owned(),
            command: config.command.clone(),
            protocol: config.protocol.as_str().to_owned(),
            options: config
                .options
                .iter()
                .map(|(name, value)| EngineOption {
                    name: name.clone(),
                    value: value.clone(),
                })
                .collect(),
            set_aside: None,
        }
    }
}

impl PerftResult {
    /// A count that took `elapsed`.
    pub(crate) fn measured(subject: &str, nodes: u64, elapsed: Duration) -> PerftResult {
        PerftResult {
            subject: subject.to_owned(),
            nodes: Some(nodes),
            seconds: seconds(elapsed),
            error: None,
            divide: None,
        }
    }
}

impl PhaseDetails {
    /// What these numbers say about the phase: failed on any difference, error where
    /// something gave no answer (and nothing differed), else passed.
    pub(crate) fn status(&self) -> Status {
        let (differs, unanswered) = match self {
            PhaseDetails::Perft(p) => (
                p.rows.iter().any(|r| {
                    !r.known && r.results.iter().any(|x| x.nodes.is_some() && r.is_off(x))
                }),
                p.rows
                    .iter()
                    .any(|r| r.results.iter().any(|x| x.nodes.is_none())),
            ),
            PhaseDetails::Replay(r) => (
                r.failures.iter().any(|f| !f.known) || !r.unmet.is_empty(),
                !r.damaged.is_empty(),
            ),
            PhaseDetails::Fuzz(f) => (f.findings > 0, !f.write_errors.is_empty()),
            PhaseDetails::Metamorphic(m) => (m.failures > 0, false),
            PhaseDetails::Engine(e) => (
                e.findings > 0
                    || e.rows
                        .iter()
                        .any(|r| !r.known && r.subject.is_some_and(|n| n != r.consensus)),
                e.rows.iter().any(|r| r.subject.is_none()),
            ),
        };
        if differs {
            Status::Failed
        } else if unanswered {
            Status::Error
        } else {
            Status::Passed
        }
    }
}

impl Phase {
    /// A phase that ran for `elapsed`, its status read off its numbers.
    pub(crate) fn finished(name: &str, elapsed: Duration, details: PhaseDetails) -> Phase {
        Phase {
            name: name.to_owned(),
            status: details.status(),
            seconds: seconds(elapsed),
            message: None,
            details: Some(details),
        }
    }
}

impl Dispute {
    /// The one constructor every kind of finding starts from: what `phase` compared
    /// (`check`) on which position (`fen`), and one sentence on what differs; nothing
    /// else known yet. The `from_*` conversions and the `with_*` steps fill in the rest.
    pub(crate) fn new(phase: &str, check: &str, fen: String, detail: String) -> Dispute {
        Dispute {
            phase: phase.to_owned(),
            check: check.to_owned(),
            fen,
            original_fen: None,
            moves_fen: None,
            generators: Vec::new(),
            odd_one_out: None,
            moves: Vec::new(),
            path: None,
            perft: None,
            corpus_file: None,
            found_by: None,
            reproduce: None,
            line: Vec::new(),
            signature: None,
            hits: None,
            known: false,
            diagnosis: None,
            detail,
        }
    }

    /// An oracle disagreement found in `phase`, as the oracle reported it.
    pub(super) fn from_oracle(phase: &str, d: &Disagreement) -> Dispute {
        Dispute {
            moves_fen: transformed_fen(d),
            generators: d.generators.clone(),
            odd_one_out: d.odd_one_out.clone(),
            moves: d
                .only_in
                .iter()
                .map(|o| DisputedMove {
                    mv: o.mv.to_string(),
                    has: o.has.clone(),
                    counts: Default::default(),
                    listed: match o.times {
                        1 => Default::default(),
                        n => o.has.iter().map(|h| (h.clone(), n)).collect(),
                    },
                })
                .collect(),
            line: d.line.iter().map(Move::to_string).collect(),
            signature: Some(d.signature().to_string()),
            ..Dispute::new(phase, d.check.as_str(), d.position.fen(), d.detail.clone())
        }
    }

    /// A finding of any phase: its smallest witness, where it came from, how to see it
    /// again, its hits, and whether it is a known bug.
    pub(crate) fn from_finding(phase: &str, f: &Finding) -> Dispute {
        let among = match &f.blame {
            Blame::Builtins(among) => among,
            Blame::Subject(trail) => return super::subject_dispute::from_trail(phase, f, trail),
        };
        let mut d = Dispute::from_oracle(phase, &among.disagreement)
            .with_original(&among.origin.position.fen())
            .with_provenance(&among.origin.provenance);
        if let Some((root, moves)) = &among.origin.path {
            d = d.with_path(&root.fen(), moves);
        }
        if let Some(file) = &f.file {
            d = d.with_corpus_file(file);
        }
        d.with_bug(&f.signature, f.hits, f.known, f.diagnosis.as_ref())
    }

    /// Records the position it was first found on, when minimizing changed it.
    pub(super) fn with_original(mut self, fen: &str) -> Dispute {
        self.original_fen = (fen != self.fen).then(|| fen.to_owned());
        self
    }

    /// Records the moves from `root_fen` that reached it.
    pub(super) fn with_path(mut self, root_fen: &str, moves: &[Move]) -> Dispute {
        self.path = Some(FoundPath {
            root_fen: root_fen.to_owned(),
            moves: moves.iter().map(Move::to_string).collect(),
        });
        self
    }

    /// Records the corpus file it was saved to.
    pub(crate) fn with_corpus_file(mut self, file: &Path) -> Dispute {
        self.corpus_file = Some(file.display().to_string());
        self
    }

    /// Records which bug it is, how many positions showed it, whether it is a known
    /// bug, and its cause when it was diagnosed.
    pub(crate) fn with_bug(
        mut self,
        signature: &Signature,
        hits: u64,
        known: bool,
        diagnosis: Option<&Diagnosis>,
    ) -> Dispute {
        self.signature = Some(signature.to_string());
        self.hits = Some(hits);
        self.known = known;
        self.diagnosis = diagnosis.map(ReportedCause::of);
        self
    }

    /// Records how to find it again.
    pub(crate) fn with_provenance(mut self, how: &Provenance) -> Dispute {
        self.found_by = Some(how.to_string());
        self.reproduce = Some(Reproduce::of(how));
        self
    }
}

/// The position the moves of a mirror or colour-swap disagreement are on.
fn transformed_fen(d: &Disagreement) -> Option<String> {
    let setup = d.position.setup();
    match d.check {
        CheckKind::Mirror => Some(fen::format(&setup.mirror_files())),
        CheckKind::ColorSwap => Some(fen::format(&setup.swap_colors())),
        _ => None,
    }
}

impl Report {
    /// Adds a fuzz campaign's phase and every finding of it.
    pub(crate) fn add_fuzz(&mut self, name: &str, r: &campaign::Report) {
        let mut phase = Phase::finished(name, r.elapsed, PhaseDetails::Fuzz(FuzzPhase::from(r)));
        if r.interrupted {
            phase.message = Some("stopped early".to_owned());
        }
        self.phases.push(phase);
        self.disagreements
            .extend(r.findings.iter().map(|f| Dispute::from_finding(name, f)));
    }

    /// Adds a replay of the corpus `source` that took `elapsed`, and every bug it
    /// shows, grouped and marked known by the one findings path
    /// ([`crate::diff::finding::replay::replayed`]).
    pub(crate) fn add_replay(
        &mut self,
        name: &str,
        source: &Source,
        r: &Replay,
        elapsed: Duration,
        found: &Replayed,
    ) {
        let unmet = |known: bool| -> Vec<String> {
            r.unmet
                .iter()
                .zip(&found.known_unmet)
                .filter(|&(_, &k)| k == known)
                .map(|(u, _)| u.to_string())
                .collect()
        };
        let details = ReplayPhase {
            dir: source.to_string(),
            built_in: source.is_built_in(),
            cases: r.replayed as u64,
            files: r
                .files
                .iter()
                .map(|p| {
                    p.file_name().map_or_else(
                        || p.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    )
                })
                .collect(),
            failures: r
                .failures
                .iter()
                .enumerate()
                .map(|(i, (file, disagreements))| ReplayFailure {
                    file: file.display().to_string(),
                    checks: disagreements
                        .iter()
                        .map(|d| d.check.as_str().to_owned())
                        .collect(),
                    known: found.known_failures.get(i).copied().unwrap_or(false),
                })
                .collect(),
            unmet: unmet(false),
            known_unmet: unmet(true),
            damaged: r.damaged.iter().map(ToString::to_string).collect(),
        };
        self.phases.push(Phase::finished(
            name,
            elapsed,
            PhaseDetails::Replay(details),
        ));
        self.disagreements.extend(
            found
                .findings
                .iter()
                .map(|f| Dispute::from_finding(name, f)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::oracle::OnlyIn;
    use crate::moves::Move;
    use crate::position::Position;
    use crate::subject::external::{FenLetters, Protocol, Ranks};

    /// Each row: the check, the FEN it was found on, and the FEN its moves belong to.
    #[test]
    fn mirror_and_colour_swap_moves_are_placed_on_the_transformed_board() {
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let table: &[(CheckKind, Option<&str>)] = &[
            (CheckKind::Legal, None),
            (CheckKind::PseudoLegal, None),
            (
                CheckKind::Mirror,
                Some("5k3/9/9/9/9/9/9/9/9/4K3R w - - 0 1"),
            ),
            (
                CheckKind::ColorSwap,
                Some("r3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1"),
            ),
        ];
        for &(check, want) in table {
            let d = Disagreement {
                check,
                position: Position::from_fen(fen).unwrap(),
                generators: vec!["a".into(), "b".into()],
                odd_one_out: Some("b".into()),
                only_in: vec![OnlyIn {
                    mv: "a0a5".parse::<Move>().unwrap(),
                    has: vec!["symmetry".into()],
                    times: 1,
                }],
                detail: String::new(),
                line: Vec::new(),
            };
            let dispute = Dispute::from_oracle("p", &d);
            assert_eq!(dispute.moves_fen.as_deref(), want, "{check}");
            assert_eq!(dispute.moves[0].mv, "a0a5");
            assert_eq!(dispute.check, check.as_str());
        }
    }

    /// Red's own moves are not in dispute at the root; after Red's move Black's cannon
    /// b7 takes the red rook over the b5 pawn, which the planted generator cannot. The
    /// oracle sees that at the root as a count of replies, and the descent shows it
    /// one ply down, where the capture is missing.
    #[test]
    fn a_perft_descent_keeps_its_path() {
        use crate::diff::descent::descend_from;
        use crate::generators::planted::{Bug, Planted};
        use crate::generators::{bitboard::BitboardGen, mailbox::MailboxGen};
        let planted = Planted::new(Bug::CannonCannotCapture);
        let engines: [&dyn Generator; 3] = [&MailboxGen, &BitboardGen, &planted];
        let root = Position::from_fen("3k5/9/1c7/9/1P7/9/9/9/9/1R2K4 w").unwrap();
        let at_root = crate::diff::oracle::check_position(&root, &engines);
        assert_eq!(
            at_root.first().map(|d| d.check),
            Some(CheckKind::CountAfter)
        );
        let descent = descend_from(&root, 2, &engines, None, None).expect("perft(2) differs");
        let first = descent
            .disagreements
            .first()
            .expect("a disagreement where it ends");
        let d = Dispute::from_oracle("perft", first).with_path(&root.fen(), &descent.path);
        let path = d.path.as_ref().unwrap();
        assert_eq!(path.root_fen, root.fen());
        assert_eq!(path.moves.len(), 1);
        assert_eq!(d.odd_one_out.as_deref(), Some("planted"));
        // Whichever rook move the path took, the disputed move is the cannon's capture.
        assert!(
            d.moves.iter().all(|m| m.mv.starts_with("b7")),
            "{:?}",
            d.moves
        );
        assert_ne!(d.fen, root.fen());
    }

    #[test]
    fn engine_options_keep_their_order() {
        let config = EngineConfig {
            command: "engine --uci".into(),
            protocol: Protocol::Xboard,
            options: vec![("Threads".into(), "1".into()), ("Hash".into(), "16".into())],
            ranks: Ranks::Auto,
            fen_letters: FenLetters::Auto,
            timeout: Duration::from_secs(5),
            start_timeout: None,
        };
        let info = EngineInfo::from_config(&config, "Test 1.0");
        let names: Vec<&str> = info.options.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["Threads", "Hash"]);
        assert_eq!(info.protocol, "xboard");
        assert_eq!(info.name, "Test 1.0");
    }

    #[test]
    fn coverage_table_names_every_feature_with_its_count() {
        let mut c = Coverage::new();
        for fen in [
            "3k5/9/9/9/9/9/9/9/9/r3K4 w",
            "3k5/9/4r4/9/4p4/9/9/4C4/9/5K3 w",
        ] {
            c.add(&Position::from_fen(fen).unwrap());
        }
        let table = CoverageTable::from(&c);
        assert_eq!(table.total, 2);
        assert_eq!(table.features.len(), Feature::ALL.len());
        for (row, f) in table.features.iter().zip(Feature::ALL) {
            assert_eq!(row.feature, f.name());
            assert_eq!(row.positions, c.count(f));
        }
        assert_eq!(table.missing().count(), c.missing().len());
        // Two positions leave most points unreached: each kind is one row, with what
        // it reached and where it was seen least.
        assert_eq!(table.points.len(), 14);
        let red_king = &table.points[0];
        assert_eq!(
            (red_king.piece.as_str(), red_king.points, red_king.reached),
            ("red_king", 9, 2)
        );
        assert_eq!((red_king.fewest, red_king.fewest_at.as_str()), (0, "d0"));
        let rook = table
            .points
            .iter()
            .find(|p| p.piece == "black_rook")
            .unwrap();
        assert_eq!((rook.points, rook.reached), (90, 2));
        assert_eq!(table.missing_points().count(), 14);
    }
}
