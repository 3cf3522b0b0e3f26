//! The board picture: a cannon's arrow shows the screen it jumps.

use super::*;
use scraper::Html;

/// A cannon's arrow over its screen names the screen and rings it, the ring on the
/// screen piece's own centre; no other move has a screen. Each row: a FEN, a move and
/// the screen it must show.
#[test]
fn a_cannon_arrow_shows_the_screen_it_jumps() {
    const BEHIND: &str = "3k5/9/9/4r4/4p4/9/9/4C4/9/5K3 w";
    let table: &[(&str, &str, Option<&str>)] = &[
        // The rook two points behind the screen: the hop comes back to the line.
        (CANNON, "e2e7", Some("e5")),
        // The rook right behind the screen: the hop lands on it.
        (BEHIND, "e2e6", Some("e5")),
        (START, "h2h9", Some("h7")),
        (START, "b2b9", Some("b7")),
        // A cannon's quiet move, a horse's, and a rook's (wrong) move over a pawn.
        (START, "h2e2", None),
        (START, "b0c2", None),
        (START, "a0a4", None),
    ];
    for &(fen, mv, screen) in table {
        let groups = [svg::ArrowGroup {
            class: "lacks-odd".into(),
            colour: "#1565c0",
            has: vec!["mailbox".into()],
            label: "planted lacks it".into(),
            moves: vec![mv.into()],
        }];
        let picture = svg::board(fen, &groups, &RenderOptions::default()).unwrap();
        let doc = Html::parse_fragment(&picture);
        let arrow = doc
            .select(&sel(&format!("g.arrow[data-move={mv}]")))
            .next()
            .unwrap_or_else(|| panic!("{fen}: no arrow for {mv}"));
        assert_eq!(arrow.value().attr("data-screen"), screen, "{fen} {mv}");
        let rings: Vec<_> = arrow.select(&sel("circle.screen")).collect();
        assert_eq!(rings.len(), usize::from(screen.is_some()), "{fen} {mv}");
        if let (Some(sq), Some(ring)) = (screen, rings.first()) {
            let disc = doc
                .select(&sel(&format!("g.piece[data-square={sq}] circle")))
                .next()
                .unwrap_or_else(|| panic!("{fen}: no piece on {sq}"));
            for c in ["cx", "cy"] {
                assert_eq!(attr(ring, c), attr(&disc, c), "{fen} {mv}: ring {c}");
            }
        }
    }
}
