//! `xqdiff fuzz-seeds` end to end: seeds for every case and suite position, readable
//! names, damaged corpus files skipped with a message, exit 2 when it cannot write.

use xqdiff::cases::structured::{from_bytes, playout_start};
use xqdiff::Position;

mod util;

#[test]
fn seeds_every_case_and_suite_position() {
    let root = std::env::temp_dir().join(format!("xqdiff-seeds-{}", std::process::id()));
    let corpus = root.join("corpus");
    let out = root.join("out");
    std::fs::create_dir_all(&corpus).unwrap();
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 3 9";
    std::fs::write(
        corpus.join("legal-rook.txt"),
        format!("{fen}\ncheck: legal\n"),
    )
    .unwrap();
    std::fs::write(corpus.join("broken.txt"), "3k5/9/9 w\n").unwrap();

    let run = util::xqdiff()
        .args(["fuzz-seeds", "--corpus"])
        .arg(&corpus)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("broken.txt"), "{stderr}");

    let case = Position::from_fen(fen).unwrap();
    let decoded = from_bytes(&std::fs::read(out.join("differential/legal-rook")).unwrap());
    assert_eq!(decoded.fen(), "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1");
    assert_eq!(
        std::fs::read_to_string(out.join("fen/legal-rook")).unwrap(),
        case.fen()
    );
    assert!(!out.join("differential/broken").exists());

    // Suite line 7 is the start position: index 1 of the playout starts, after the
    // built-in start position itself.
    let playout = std::fs::read(out.join("playout/suite-line7")).unwrap();
    assert_eq!(playout_start(playout[0]), &Position::startpos());
    let suite_seeds = std::fs::read_dir(out.join("fen")).unwrap().count();
    assert_eq!(
        suite_seeds,
        1 + 14,
        "one corpus case, fourteen suite positions"
    );

    // A file where the output directory should be: cannot write, exit 2.
    let blocked = root.join("blocked");
    std::fs::write(&blocked, "").unwrap();
    let run = util::xqdiff()
        .args(["fuzz-seeds", "--corpus"])
        .arg(&corpus)
        .arg("--out")
        .arg(&blocked)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot write"));
    std::fs::remove_dir_all(&root).ok();
}
