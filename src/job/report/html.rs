//! The report as one self-contained HTML page: inline CSS and SVG, no scripts, no
//! external files, so it can be attached to a CI run or mailed and still open.
//!
//! Landmarks for readers and tests: `#summary` (class and `data-status` passed, failed,
//! error or interrupted), `#phases`, one `section.perft`, `section.fuzz`, `section.replay`,
//! `section.metamorphic` or `section.engine` per phase with numbers, and
//! `#disagreements` with one `article.disagreement` each, holding the board picture and
//! its legend (`ul.legend > li[data-has]`).

use super::svg::{self, ArrowGroup};
use super::{
    counted, duration, escape, CoverageTable, Dispute, EnginePhase, FuzzPhase, MetamorphicPhase,
    PerftPhase, Phase, PhaseDetails, RenderOptions, ReplayPhase, Report, Status,
};
use crate::cases::features::NEVER_REACHED;
use crate::fen;
use crate::piece::Color;
use std::fmt::Write as _;

const STYLE: &str = r#"
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1f;
  margin: 0 auto; max-width: 1120px; padding: 0 24px 48px; background: #fafafa; }
h1 { font-size: 26px; margin: 0 0 6px; }
h2 { font-size: 20px; margin: 32px 0 10px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 17px; margin: 0 0 10px; }
code, .fen, pre { font: 13px/1.4 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
.reproduce h4 { margin: 12px 0 4px; font-size: 14px; }
.reproduce pre { margin: 0; padding: 8px 10px; background: #f0f0f2; border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.fen { background: #f1f1f1; padding: 2px 5px; border-radius: 3px; word-break: break-all; }
.summary { margin: 24px 0 8px; padding: 18px 22px; border-radius: 8px; border-left: 10px solid; }
.summary.passed { background: #e8f5e9; border-color: #2e7d32; }
.summary.failed { background: #ffebee; border-color: #c62828; }
.summary.error { background: #fff8e1; border-color: #f9a825; }
.summary.interrupted { background: #ede7f6; border-color: #5e35b1; }
.summary .verdict { font-weight: 700; }
.summary.passed .verdict { color: #1b5e20; }
.summary.failed .verdict { color: #b71c1c; }
.summary.error .verdict { color: #8d6e00; }
.summary.interrupted .verdict { color: #4527a0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 10px 0 0; }
dl.facts dt { color: #555; }
dl.facts dd { margin: 0; }
table { border-collapse: collapse; margin: 6px 0 12px; background: #fff; }
th, td { border: 1px solid #d6d6d6; padding: 4px 9px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.status { font-weight: 600; text-transform: uppercase; font-size: 12px; letter-spacing: .04em; }
.status.passed { color: #2e7d32; } .status.failed { color: #c62828; }
.status.error { color: #a67c00; } .status.skipped { color: #777; }
.status.interrupted { color: #5e35b1; }
tr.differ td { background: #fff3f3; }
td.off { color: #b71c1c; font-weight: 700; }
.sub { color: #666; font-size: 12px; display: block; }
.bar { display: inline-block; height: 9px; background: #607d8b; border-radius: 2px; vertical-align: middle; }
tr.missing td { background: #fff8e1; }
article.disagreement { background: #fff; border: 1px solid #e0c8c8; border-radius: 8px;
  padding: 16px 18px; margin: 16px 0; }
.finding { display: flex; flex-wrap: wrap; gap: 22px; align-items: flex-start; }
.finding figure { margin: 0; }
.finding figcaption { font-size: 13px; color: #444; margin-top: 4px; }
.finding .facts-col { flex: 1 1 380px; min-width: 320px; }
ul.legend { list-style: none; padding: 0; margin: 8px 0; }
ul.legend li { margin: 3px 0; }
.swatch { display: inline-block; width: 26px; height: 8px; border-radius: 4px; margin-right: 8px;
  vertical-align: middle; }
.no-board { color: #b71c1c; }
"#;

/// The whole page.
pub(crate) fn render(report: &Report, opts: &RenderOptions) -> String {
    // Names and messages in it came from outside: no control character gets through.
    super::shown(&page(report, opts)).into_owned()
}

fn page(report: &Report, opts: &RenderOptions) -> String {
    let status = report.status();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>xqdiff report: {}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        verdict(status)
    );
    // The pieces' characters, once for every board below.
    if !opts.latin && !report.disagreements.is_empty() {
        out.push_str(&super::glyphs::defs());
    }
    summary(&mut out, report, status);
    phases(&mut out, report);
    // What went wrong first; the numbers of the phases that found it after.
    disagreements(&mut out, report, opts);
    for phase in &report.phases {
        match &phase.details {
            Some(PhaseDetails::Perft(p)) => perft(&mut out, phase, p),
            Some(PhaseDetails::Fuzz(f)) => fuzz(&mut out, phase, f),
            Some(PhaseDetails::Replay(r)) => replay(&mut out, phase, r),
            Some(PhaseDetails::Metamorphic(m)) => metamorphic(&mut out, phase, m),
            Some(PhaseDetails::Engine(e)) => engine(&mut out, phase, e),
            None => {}
        }
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The headline word for a run's status.
pub(crate) fn verdict(status: Status) -> &'static str {
    match status {
        Status::Passed => "PASSED",
        Status::Failed => "FAILED",
        Status::Error => "ERROR",
        Status::Skipped => "SKIPPED",
        Status::Interrupted => "INTERRUPTED",
    }
}

/// The one sentence under the headline.
pub(crate) fn headline(report: &Report) -> String {
    let count = |s: Status| report.phases.iter().filter(|p| p.status == s).count();
    let mut line = format!(
        "{}; {}: {} passed, {} failed, {}, {} skipped",
        counted(report.disagreements.len() as u64, "disagreement"),
        counted(report.phases.len() as u64, "phase"),
        count(Status::Passed),
        count(Status::Failed),
        counted(count(Status::Error) as u64, "error"),
        count(Status::Skipped),
    );
    // Only a run that was stopped has any; a zero on every other run would be noise.
    let interrupted = count(Status::Interrupted);
    if interrupted > 0 {
        let _ = write!(line, ", {interrupted} interrupted");
    }
    line
}

fn summary(out: &mut String, report: &Report, status: Status) {
    let s = status.as_str();
    let _ = write!(
        out,
        "<header id=\"summary\" class=\"summary {s}\" data-status=\"{s}\">\n\
         <h1>xqdiff correctness report: <span class=\"verdict\">{}</span></h1>\n<p>{}</p>\n\
         <dl class=\"facts\">",
        verdict(status),
        escape(&headline(report))
    );
    fact(
        out,
        "tool",
        &format!("{} {}", report.tool.name, report.tool.version),
    );
    if let Some(created) = &report.created {
        fact(out, "created", created);
    }
    if let Some(command) = &report.command {
        fact_code(out, "command", command);
    }
    if let Some(seed) = report.seed {
        fact(out, "seed", &seed.to_string());
    }
    let gens: Vec<String> = report
        .generators
        .iter()
        .map(|g| match &g.version {
            Some(v) => format!("{} {v}", g.name),
            None => g.name.clone(),
        })
        .collect();
    fact(out, "generators", &gens.join(", "));
    for e in &report.engines {
        let options: Vec<String> = e
            .options
            .iter()
            .map(|o| format!("{}={}", o.name, o.value))
            .collect();
        let mut text = format!("{} ({}): {}", e.name, e.protocol, e.command);
        if !options.is_empty() {
            let _ = write!(text, " [{}]", options.join(", "));
        }
        fact(out, "engine", &text);
    }
    out.push_str("</dl>\n</header>\n");
}

fn fact(out: &mut String, name: &str, value: &str) {
    let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(name), escape(value));
}

fn fact_code(out: &mut String, name: &str, value: &str) {
    let _ = write!(
        out,
        "<dt>{}</dt><dd><code class=\"fen\">{}</code></dd>",
        escape(name),
        escape(value)
    );
}

fn status_cell(status: Status) -> String {
    format!("<td class=\"status {0}\">{0}</td>", status.as_str())
}

fn phases(out: &mut String, report: &Report) {
    out.push_str(
        "<section id=\"phases\">\n<h2>Phases</h2>\n<table>\n\
         <tr><th>phase</th><th>status</th><th class=\"num\">time</th><th>what it counted</th></tr>\n",
    );
    for p in &report.phases {
        let mut what = escape(&p.summary());
        if let (Some(m), Some(_)) = (&p.message, &p.details) {
            let _ = write!(what, "<span class=\"sub\">{}</span>", escape(m));
        }
        let _ = writeln!(
            out,
            "<tr class=\"{}\"><td>{}</td>{}<td class=\"num\">{}</td><td>{what}</td></tr>",
            p.status.as_str(),
            escape(&p.name),
            status_cell(p.status),
            duration(p.seconds)
        );
    }
    out.push_str("</table>\n</section>\n");
}

fn section_head(out: &mut String, class: &str, title: &str, phase: &Phase) {
    let _ = write!(
        out,
        "<section class=\"{class}\" data-phase=\"{}\">\n<h2>{} <span class=\"status {}\">{}</span></h2>\n",
        escape(&phase.name),
        escape(title),
        phase.status.as_str(),
        phase.status.as_str()
    );
    if let Some(m) = &phase.message {
        let _ = writeln!(out, "<p>{}</p>", escape(m));
    }
}

fn perft(out: &mut String, phase: &Phase, p: &PerftPhase) {
    section_head(out, "perft", &format!("Perft: {}", phase.name), phase);
    // Columns are the union of subjects over rows, in first-seen order, so a row
    // without one subject (it was not asked) leaves a blank cell.
    let mut subjects: Vec<&str> = Vec::new();
    for r in p.rows.iter().flat_map(|row| &row.results) {
        if !subjects.contains(&r.subject.as_str()) {
            subjects.push(&r.subject);
        }
    }
    out.push_str(
        "<table>\n<tr><th>position</th><th class=\"num\">depth</th><th class=\"num\">expected</th>",
    );
    for s in &subjects {
        let _ = write!(out, "<th class=\"num\">{}</th>", escape(s));
    }
    out.push_str("</tr>\n");
    for row in &p.rows {
        let _ = write!(
            out,
            "<tr class=\"{}\"><td title=\"{}\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>",
            if row.agrees() { "agree" } else { "differ" },
            escape(&row.fen),
            escape(&row.position),
            row.depth,
            row.expected.map_or_else(|| "–".to_owned(), |e| e.to_string())
        );
        for s in &subjects {
            match row.results.iter().find(|r| r.subject == *s) {
                None => out.push_str("<td></td>"),
                Some(r) => {
                    let class = if row.is_off(r) { "num off" } else { "num" };
                    let main = answer(r.nodes, r.error.as_deref());
                    let rate = r
                        .nodes_per_second()
                        .map(|n| format!(", {:.1} M nodes/s", n / 1e6))
                        .unwrap_or_default();
                    let _ = write!(
                        out,
                        "<td class=\"{class}\" data-subject=\"{}\">{}<span class=\"sub\">{}{}</span></td>",
                        escape(s),
                        escape(&main),
                        duration(r.seconds),
                        rate
                    );
                }
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n</section>\n");
}

/// A count, or why there is none.
fn answer(nodes: Option<u64>, error: Option<&str>) -> String {
    match (nodes, error) {
        (Some(n), _) => n.to_string(),
        (None, Some(e)) => format!("no answer: {e}"),
        (None, None) => "no answer".to_owned(),
    }
}

fn fuzz(out: &mut String, phase: &Phase, f: &FuzzPhase) {
    section_head(out, "fuzz", &format!("Fuzzing: {}", phase.name), phase);
    out.push_str(
        "<table class=\"stats\">\n<tr><th class=\"num\">cases</th><th class=\"num\">positions</th>\
         <th class=\"num\">time</th><th class=\"num\">cases/s</th><th class=\"num\">positions/s</th>\
         <th class=\"num\">findings</th></tr>\n",
    );
    let _ = writeln!(
        out,
        "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
         <td class=\"num\">{:.1}</td><td class=\"num\">{:.1}</td><td class=\"num\">{}</td></tr>\n</table>",
        f.cases,
        f.positions,
        duration(phase.seconds),
        f.cases_per_second,
        f.positions_per_second,
        f.findings
    );
    if f.interrupted || !f.write_errors.is_empty() {
        out.push_str("<dl class=\"facts\">");
        if f.interrupted {
            fact(out, "interrupted", "yes");
        }
        for e in &f.write_errors {
            fact(out, "not saved", e);
        }
        out.push_str("</dl>\n");
    }
    coverage(out, &f.coverage);
    out.push_str("</section>\n");
}

fn replay(out: &mut String, phase: &Phase, r: &ReplayPhase) {
    section_head(
        out,
        "replay",
        &format!("Corpus replay: {}", phase.name),
        phase,
    );
    let _ = writeln!(
        out,
        "<p>{} from <code>{}</code>; {} failing.</p>",
        counted(r.cases, "case"),
        escape(&r.dir),
        r.failures.len()
    );
    let lists: [(&str, Vec<String>); 4] = [
        (
            "Failing cases",
            r.failures
                .iter()
                .map(|f| {
                    let known = if f.known { " (known bug)" } else { "" };
                    format!("{}: {}{known}", f.file, f.checks.join(", "))
                })
                .collect(),
        ),
        ("Unmet expectations", r.unmet.clone()),
        ("Unmet expectations of known bugs", r.known_unmet.clone()),
        ("Damaged files (skipped)", r.damaged.clone()),
    ];
    for (title, items) in lists.iter().filter(|(_, items)| !items.is_empty()) {
        let _ = writeln!(out, "<h3>{}</h3>\n<ul>", escape(title));
        for item in items {
            let _ = writeln!(out, "<li>{}</li>", escape(item));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
}

fn metamorphic(out: &mut String, phase: &Phase, m: &MetamorphicPhase) {
    section_head(
        out,
        "metamorphic",
        &format!("Metamorphic checks: {}", phase.name),
        phase,
    );
    let _ = writeln!(
        out,
        "<p>{} under {}; {}.</p>\n</section>",
        counted(m.positions, "position"),
        escape(&m.transforms.join(", ")),
        counted(m.failures, "failure")
    );
}

/// A run's feature coverage: each rare feature's count, and each piece's points.
fn coverage(out: &mut String, c: &CoverageTable) {
    out.push_str("<h3>Feature coverage</h3>\n<table class=\"coverage\">\n\
         <tr><th>feature</th><th class=\"num\">positions</th><th class=\"num\">share</th><th></th></tr>\n");
    let total = c.total;
    for row in &c.features {
        let pct = row.percent(total);
        let bar = if row.positions == 0 {
            NEVER_REACHED.to_owned()
        } else {
            format!(
                "<span class=\"bar\" style=\"width:{:.0}px\"></span>",
                (pct * 2.0).max(1.0)
            )
        };
        let _ = writeln!(
            out,
            "<tr class=\"{}\" data-feature=\"{}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{pct:.1}%</td>\
             <td>{bar}</td></tr>",
            if row.positions == 0 { "missing" } else { "reached" },
            escape(&row.feature),
            escape(&row.feature),
            row.positions,
        );
    }
    let _ = writeln!(
        out,
        "<tr><th>total</th><th class=\"num\">{total}</th><th></th><th></th></tr>\n</table>"
    );
    if !c.points.is_empty() {
        out.push_str(
            "<h3>Every point of every piece</h3>\n<table class=\"points\">\n\
             <tr><th>piece</th><th class=\"num\">points reached</th>\
             <th class=\"num\">fewest positions on one point</th><th></th></tr>\n",
        );
        for row in &c.points {
            let missing = row.reached < row.points;
            let _ = writeln!(
                out,
                "<tr class=\"{}\" data-piece=\"{}\"><td>{}</td><td class=\"num\">{}/{}</td>\
                 <td class=\"num\">{} ({})</td><td>{}</td></tr>",
                if missing { "missing" } else { "reached" },
                escape(&row.piece),
                escape(&row.piece),
                row.reached,
                row.points,
                row.fewest,
                escape(&row.fewest_at),
                if missing { NEVER_REACHED } else { "" },
            );
        }
        out.push_str("</table>\n");
    }
}

fn engine(out: &mut String, phase: &Phase, e: &EnginePhase) {
    section_head(
        out,
        "engine",
        &format!("Engine check: {}", phase.name),
        phase,
    );
    let _ = writeln!(
        out,
        "<p>{} against the built-in generators: {} to depth {}, {} compared, {}.</p>",
        escape(&e.engine),
        counted(e.positions, "position"),
        e.depth,
        counted(e.nodes, "node"),
        counted(e.findings, "finding")
    );
    if !e.rows.is_empty() {
        out.push_str(
            "<table>\n<tr><th>position</th><th class=\"num\">depth</th><th class=\"num\">consensus</th>\
             <th class=\"num\">engine</th><th class=\"num\">time</th></tr>\n",
        );
        for r in &e.rows {
            let off = r.subject != Some(r.consensus);
            let answer = answer(r.subject, r.error.as_deref());
            let _ = writeln!(
                out,
                "<tr class=\"{}\"><td title=\"{}\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num{}\">{}</td><td class=\"num\">{}</td></tr>",
                if off { "differ" } else { "agree" },
                escape(&r.fen),
                escape(&r.position),
                r.depth,
                r.consensus,
                if off { " off" } else { "" },
                escape(&answer),
                duration(r.seconds)
            );
        }
        out.push_str("</table>\n");
    }
    if let Some(fresh) = &e.fresh {
        let _ = writeln!(
            out,
            "<p>{} made as the run went, {:.3} ms each.</p>",
            counted(fresh.positions, "fresh position"),
            fresh.ms_each
        );
        coverage(out, &fresh.coverage);
    }
    out.push_str("</section>\n");
}

fn disagreements(out: &mut String, report: &Report, opts: &RenderOptions) {
    let _ = writeln!(
        out,
        "<section id=\"disagreements\">\n<h2>Disagreements ({})</h2>",
        report.disagreements.len()
    );
    if report.disagreements.is_empty() {
        // A phase that could not finish checked less than it meant to; say so rather
        // than claim agreement everywhere.
        let any = |s: Status| report.phases.iter().any(|p| p.status == s);
        out.push_str(if any(Status::Interrupted) {
            "<p>None found, but the run was interrupted (see the phases above), so not \
             everything was checked.</p>\n"
        } else if any(Status::Error) {
            "<p>None found, but a phase ended in error (see the phases above), so not \
             everything was checked.</p>\n"
        } else {
            "<p>None: every generator agreed on every position checked.</p>\n"
        });
    }
    for (i, d) in report.disagreements.iter().enumerate() {
        dispute(out, i + 1, d, opts);
    }
    out.push_str("</section>\n");
}

fn dispute(out: &mut String, n: usize, d: &Dispute, opts: &RenderOptions) {
    let groups = svg::arrow_groups(&d.moves, &d.generators, d.odd_one_out.as_deref());
    let _ = write!(
        out,
        "<article class=\"disagreement\" id=\"d{n}\" data-phase=\"{}\" data-check=\"{}\" data-odd=\"{}\">\n<h3>{n}. {} ",
        escape(&d.phase),
        escape(&d.check),
        escape(d.odd_one_out.as_deref().unwrap_or("")),
        escape(&d.check)
    );
    match &d.odd_one_out {
        Some(o) => {
            let _ = write!(out, "disagreement, odd one out: {}", escape(o));
        }
        None => out.push_str("disagreement, no single odd one out"),
    }
    if d.known {
        out.push_str(" (known)");
    }
    let _ = writeln!(
        out,
        " <span class=\"sub\">found by phase {}</span></h3>",
        escape(&d.phase)
    );
    // The cause leads the card, the board below it.
    if let Some(c) = &d.diagnosis {
        let _ = writeln!(out, "<p class=\"cause\">cause: {}</p>", escape(&c.line()));
    }
    out.push_str("<div class=\"finding\">\n");
    board_figure(out, d, &groups, opts);
    out.push_str("<div class=\"facts-col\">\n<dl class=\"facts\">");
    facts(out, d);
    out.push_str("</dl>\n");
    moves_table(out, d);
    if let Some(r) = &d.reproduce {
        let _ = writeln!(
            out,
            "<div class=\"reproduce\"><h4>{}</h4><pre>{}</pre></div>",
            crate::diff::finding::provenance::REPRODUCE_WITH,
            escape(&r.body().join("\n"))
        );
    }
    out.push_str("</div>\n</div>\n</article>\n");
}

/// A disagreement card's facts: the bug and its hits, where it shows and how it was
/// reached, each side's perft, the corpus file, and the detail.
fn facts(out: &mut String, d: &Dispute) {
    if let Some(sig) = &d.signature {
        fact_code(out, "bug", sig);
    }
    if let Some(hits) = d.hits {
        fact(out, "seen", &super::counted(hits, "time"));
    }
    fact_code(out, "FEN", &d.fen);
    if let Some(orig) = &d.original_fen {
        fact_code(out, "found on", orig);
    }
    if let Some(m) = &d.moves_fen {
        fact_code(out, "moves on", m);
    }
    fact(out, "generators", &d.generators.join(", "));
    if let Some(path) = &d.path {
        fact_code(out, "root", &path.root_fen);
        if path.moves.is_empty() {
            fact(out, "path", super::NO_MOVES);
        } else {
            fact_code(out, "path", &path.moves.join(" "));
        }
    }
    if !d.line.is_empty() {
        fact_code(out, "walked", &d.line.join(" "));
    }
    if let Some(p) = &d.perft {
        let counts: Vec<String> = p.counts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        fact(out, &format!("perft({})", p.depth), &counts.join(", "));
    }
    if let Some(f) = &d.corpus_file {
        fact_code(out, "corpus file", f);
    }
    // A report from an older build has only the command; a newer one says it all
    // under "Reproduce with:" below.
    if let (Some(how), None) = (&d.found_by, &d.reproduce) {
        fact_code(out, "found by", how);
    }
    fact(out, "detail", &d.detail);
}

fn board_figure(out: &mut String, d: &Dispute, groups: &[ArrowGroup], opts: &RenderOptions) {
    let fen_drawn = d.moves_fen.as_deref().unwrap_or(&d.fen);
    out.push_str("<figure>\n");
    match svg::board(fen_drawn, groups, opts) {
        Ok(picture) => out.push_str(&picture),
        Err(e) => {
            let _ = write!(
                out,
                "<p class=\"no-board\">cannot draw {}: {}</p>",
                escape(fen_drawn),
                escape(&e.to_string())
            );
        }
    }
    let turn = match fen::parse_setup(fen_drawn).map(|s| s.turn) {
        Ok(Color::Red) => "Red to move",
        Ok(Color::Black) => "Black to move",
        Err(_) => "",
    };
    let which = if d.moves_fen.is_some() {
        "the transformed position the moves belong to; "
    } else {
        ""
    };
    let _ = write!(out, "<figcaption>{which}{turn}");
    if !groups.is_empty() {
        out.push_str("<ul class=\"legend\">");
        for g in groups {
            let _ = write!(
                out,
                "<li class=\"{}\" data-has=\"{}\"><span class=\"swatch\" style=\"background:{}\"></span>{}: <code>{}</code></li>",
                g.class,
                escape(&g.has.join(" ")),
                g.colour,
                escape(&g.label),
                escape(&g.moves.join(" "))
            );
        }
        out.push_str("</ul>");
    }
    out.push_str("</figcaption>\n</figure>\n");
}

fn moves_table(out: &mut String, d: &Dispute) {
    if d.moves.is_empty() {
        return;
    }
    let with_counts = d.moves.iter().any(|m| !m.counts.is_empty());
    out.push_str("<table class=\"moves\">\n<tr><th>move</th><th>has it</th><th>lacks it</th>");
    if with_counts {
        out.push_str("<th>counts</th>");
    }
    out.push_str("</tr>\n");
    for m in &d.moves {
        let lacks: Vec<&str> = d
            .generators
            .iter()
            .map(String::as_str)
            .filter(|g| !m.has.iter().any(|h| h == g))
            .collect();
        // A move listed more than once is had by all: the cell says how often each.
        let has = match m.listed_twice() {
            true => m.listed_text(),
            false => m.has.join(", "),
        };
        let _ = write!(
            out,
            "<tr data-move=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td>",
            escape(&m.mv),
            escape(&m.mv),
            escape(&has),
            escape(&lacks.join(", "))
        );
        if with_counts {
            let counts: Vec<String> = m.counts.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            let _ = write!(out, "<td>{}</td>", escape(&counts.join(", ")));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}
