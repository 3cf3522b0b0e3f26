//! The JSON: the run's status by the rule the schema states, a round trip that gives
//! back the same report, the schemas read and the ones refused by name, and the
//! documented example.

use super::*;
use scraper::Html;
use std::collections::BTreeSet;

/// Each row: the phases' statuses, whether there is a disagreement, the signal
/// that stopped the run, and the run's status. A run a signal stopped is
/// interrupted whatever it found; without the signal on record a failure found
/// before it still fails the run; a signal outranks an error; nothing but passed
/// and skipped phases is a pass.
#[test]
fn the_run_status_follows_the_worst_phase() {
    use Status::*;
    let table: &[(&[Status], bool, Option<i32>, Status)] = &[
        (&[Passed, Passed], false, None, Passed),
        (&[Passed, Skipped], false, None, Passed),
        (&[Passed, Error], false, None, Error),
        (&[Passed, Interrupted], false, None, Interrupted),
        (&[Error, Interrupted], false, None, Interrupted),
        (&[Interrupted, Error], false, None, Interrupted),
        (&[Failed, Interrupted], false, None, Failed),
        (&[Passed, Interrupted], true, None, Failed),
        (&[Failed, Error], false, None, Failed),
        (&[Passed], true, None, Failed),
        (&[Failed, Interrupted], true, Some(15), Interrupted),
        (&[Passed, Interrupted], false, Some(2), Interrupted),
        (&[Passed, Passed], false, Some(1), Interrupted),
    ];
    for &(statuses, disagreement, signal, want) in table {
        let mut report = Report::new();
        report.signal = signal;
        report.phases = statuses
            .iter()
            .enumerate()
            .map(|(i, &status)| Phase {
                status,
                ..Phase::skipped(&format!("p{i}"), "")
            })
            .collect();
        if disagreement {
            report.disagreements.push(Dispute {
                signature: Some("legal/none".into()),
                ..Dispute::new("p0", "legal", String::new(), String::new())
            });
        }
        assert_eq!(
            report.status(),
            want,
            "{statuses:?} {disagreement} {signal:?}"
        );
        // A known bug is reported, not failed on.
        if disagreement {
            let mut known = report.clone();
            known.disagreements[0].known = true;
            let without = Report {
                disagreements: Vec::new(),
                ..report.clone()
            };
            assert_eq!(known.status(), without.status(), "{statuses:?} {signal:?}");
        }
        // The written status is the same rule, and reading it back changes nothing.
        let json = report.to_json().unwrap();
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["status"], want.as_str(), "{json}");
        assert_eq!(Report::from_json(&json).unwrap(), report);
    }
}

/// Each row: a schema string and whether this build reads it.
#[test]
fn reads_its_own_schema_and_version_1() {
    let table: &[(&str, bool)] = &[
        ("xqdiff-report/2", true),
        ("xqdiff-report/1", true),
        ("xqdiff-report/3", false),
        ("xqdiff-report/0", false),
    ];
    let json = Report::new().to_json().unwrap();
    for &(schema, ok) in table {
        let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
        value["schema"] = schema.into();
        let read = Report::from_json(&value.to_string());
        assert_eq!(read.is_ok(), ok, "{schema}: {read:?}");
        if !ok {
            assert!(
                matches!(read, Err(ReportError::UnsupportedVersion { .. })),
                "{schema}"
            );
        }
    }
}

/// Each row: the bug shown beside the cause, if any, and whether the JSON carries
/// `beside`. The report's line is the `cause:` line printed under the finding.
#[test]
fn a_cause_with_a_bug_beside_it_carries_it_in_the_json_and_the_line() {
    for beside in [None, Some(crate::diagnose::Variant::KingsFacingIgnored)] {
        let d = crate::diagnose::Diagnosis {
            causes: vec![crate::diagnose::Cause {
                variant: crate::diagnose::Variant::HorseLegIgnored,
                beside,
                explains: 3,
                of: 3,
                confirmed: 0,
            }],
            ..crate::diagnose::Diagnosis::default()
        };
        let reported = ReportedCause::of(&d);
        let json = serde_json::to_string(&reported).expect("serializes");
        assert_eq!(
            json.contains("\"beside\":\"kings-facing-ignored\""),
            beside.is_some(),
            "{json}"
        );
        assert_eq!(format!("cause: {}", reported.line()), d.to_string());
        let back: ReportedCause = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, reported);
    }
}

#[test]
fn json_round_trips() {
    let report = full_report();
    let json = report.to_json().unwrap();
    let back = Report::from_json(&json).unwrap();
    assert_eq!(back, report);
    assert_eq!(back.to_json().unwrap(), json);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["schema"], "xqdiff-report/2");
    assert_eq!(value["status"], "failed");
    assert_eq!(value["disagreements"][0]["odd_one_out"], "planted");
    // A seed past 2^53 survives `jq -r .seed` and JavaScript: it is a string, and a
    // report that wrote it as a number is still read.
    let mut big = report.clone();
    big.seed = Some(u64::MAX - 1);
    let big_json = big.to_json().unwrap();
    let big_value: serde_json::Value = serde_json::from_str(&big_json).unwrap();
    assert_eq!(big_value["seed"], (u64::MAX - 1).to_string());
    assert_eq!(Report::from_json(&big_json).unwrap().seed, big.seed);
    let old = json.replacen("\"seed\": \"7\"", "\"seed\": 7", 1);
    assert_ne!(old, json, "the seed is written as a string");
    assert_eq!(Report::from_json(&old).unwrap().seed, Some(7));
    // Every phase kind is tagged in the JSON as documented.
    // Replay failures are disagreements too, each naming its corpus file.
    let replayed: Vec<&str> = report
        .disagreements
        .iter()
        .filter(|d| d.phase == "corpus")
        .filter_map(|d| d.corpus_file.as_deref())
        .collect();
    let Some(PhaseDetails::Replay(r)) = &report.phases[2].details else {
        panic!("third phase is the replay");
    };
    assert_eq!(
        r.failures.len(),
        replayed.iter().collect::<BTreeSet<_>>().len()
    );
    for f in &r.failures {
        assert!(replayed.contains(&f.file.as_str()), "{}", f.file);
    }
    let kinds: Vec<&str> = value["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["details"]["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["perft", "fuzz", "replay", "metamorphic", "engine"]);
}

/// Each row: a change to a good report's JSON, and the error it must give.
#[test]
fn a_wrong_schema_or_shape_is_rejected_by_name() {
    let good: serde_json::Value = serde_json::from_str(&full_report().to_json().unwrap()).unwrap();
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        v.to_string()
    };
    type Expect = fn(&ReportError) -> bool;
    let table: Vec<(String, Expect)> = vec![
        (
            with(&|v| v["schema"] = "xqdiff-report/3".into()),
            |e| matches!(e, ReportError::UnsupportedVersion { found } if found == "xqdiff-report/3"),
        ),
        (with(&|v| v["schema"] = "junit/1".into()), |e| {
            matches!(e, ReportError::OtherSchema { .. })
        }),
        (
            with(&|v| {
                v.as_object_mut().unwrap().remove("schema");
            }),
            |e| matches!(e, ReportError::MissingSchema),
        ),
        (with(&|v| v["schema"] = 1.into()), |e| {
            matches!(e, ReportError::MissingSchema)
        }),
        ("[1, 2]".to_owned(), |e| {
            matches!(e, ReportError::MissingSchema)
        }),
        ("{ not json".to_owned(), |e| {
            matches!(e, ReportError::Syntax(_))
        }),
        (
            with(&|v| {
                v.as_object_mut().unwrap().remove("tool");
            }),
            |e| matches!(e, ReportError::Shape(_)),
        ),
        (with(&|v| v["phases"][0]["status"] = "maybe".into()), |e| {
            matches!(e, ReportError::Shape(_))
        }),
    ];
    for (text, expect) in &table {
        match Report::from_json(text) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => assert!(expect(&e), "wrong error {e:?} for {text}"),
        }
    }
    // An unknown field is a later minor addition: read, not rejected.
    let extra = with(&|v| v["future_field"] = 3.into());
    assert!(Report::from_json(&extra).is_ok());
}

/// The example in the schema document is a report this build reads, and a failed one.
#[test]
fn the_documented_example_parses() {
    let doc = std::fs::read_to_string("docs/report-schema.md").unwrap();
    let start = doc.find("```json\n").expect("an example") + "```json\n".len();
    let len = doc[start..].find("```").expect("end of the example");
    let report = Report::from_json(&doc[start..start + len]).unwrap();
    assert_eq!(report.status(), Status::Failed);
    assert_eq!(report.disagreements[0].moves[0].mv, "d0d7");
}

/// A board that goes wrong only when walked (a king slot make forgets) is reported with
/// the line it was walked along: in the JSON, read back, and on the page.
#[test]
fn a_walked_board_dispute_keeps_its_line() {
    let planted = Planted::new(Bug::MakeForgetsKingSlot);
    let engines: Vec<&dyn Generator> = vec![&MailboxGen, &BitboardGen, &planted];
    let pos = Position::from_fen("3k5/9/3P1r3/9/9/9/9/9/3K5/9 w").unwrap();
    let d = check_position(&pos, &engines)
        .into_iter()
        .find(|d| d.check == crate::diff::oracle::CheckKind::WalkedBoard)
        .expect("the walked king slot shows");
    assert!(d.line.len() >= 2, "{d}");
    let mut report = Report::new();
    report.disagreements.push(Dispute::from_oracle("fuzz", &d));
    let line: Vec<String> = d.line.iter().map(ToString::to_string).collect();
    let back = Report::from_json(&report.to_json().unwrap()).unwrap();
    assert_eq!(back.disagreements[0].line, line);
    let page = Html::parse_document(&html::render(&report, &RenderOptions::default()));
    let text: String = page.root_element().text().collect();
    assert!(text.contains(&line.join(" ")), "the page shows the line");
}
