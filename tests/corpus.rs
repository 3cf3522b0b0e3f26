//! Replays the regression corpus (`corpus/`) on every test run: every case must pass
//! the oracle and its hand-written expectations, and no file may be damaged.

use std::path::Path;
use xqdiff::corpus::{load_dir, replay};
use xqdiff::generators::registry;

#[test]
fn corpus_replays_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let r = replay(&dir, &registry()).expect("corpus directory readable");
    let damaged: Vec<String> = r.damaged.iter().map(|e| e.to_string()).collect();
    assert!(
        damaged.is_empty(),
        "damaged corpus files:\n{}",
        damaged.join("\n")
    );
    let failures: Vec<String> = r
        .failures
        .iter()
        .flat_map(|(p, ds)| ds.iter().map(move |d| format!("{}: {d}", p.display())))
        .collect();
    assert!(
        failures.is_empty(),
        "disagreements:\n{}",
        failures.join("\n")
    );
    assert!(
        r.unmet.is_empty(),
        "unmet expectations:\n{}",
        r.unmet.join("\n")
    );
    // A replay that quietly found no files would pass the checks above.
    let hand_made = load_dir(&dir)
        .unwrap()
        .cases
        .iter()
        .filter(|(p, _)| p.to_string_lossy().contains("rule-"))
        .count();
    assert!(
        hand_made >= 15 && r.replayed >= hand_made,
        "replayed {} cases, {hand_made} hand-made",
        r.replayed
    );
}
