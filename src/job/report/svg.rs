//! A Xiangqi board as inline SVG: the 9x10 grid of points, the river, the palaces, the
//! pieces as discs with their character and FEN letter, and the disputed moves as
//! arrows coloured by which generators have them.
//!
//! Every element a test or a stylesheet may want to find carries a class and data
//! attributes: `g.piece[data-square][data-piece]`, `g.arrow[data-move][data-has]`.
//! Colours are written on the elements too, so the picture keeps them when it is
//! copied out of the page. The pieces' characters and the river's words are `<use>`s
//! of glyphs the page defines once for all its boards (`glyphs::defs`); a board
//! copied out alone keeps the pieces' letters.

use super::{escape, glyphs, DisputedMove, RenderOptions};
use crate::fen::{self, FenError};
use crate::moves::Move;
use crate::piece::{Color, Piece, Role};
use crate::position::Setup;
use crate::square::{Square, FILES, RANKS};
use std::fmt::Write as _;

/// Distance between neighbouring points.
const CELL: f64 = 44.0;
/// Room around the grid for the outer pieces and the coordinates.
const MARGIN: f64 = 40.0;
/// Radius of a piece's disc.
const DISC: f64 = 19.0;
/// Side of the box a piece's character is drawn in, and how far up and left of the
/// disc's centre the box's centre sits: clear of the badge.
const GLYPH: f64 = 23.0;
const GLYPH_SHIFT: f64 = 1.0;
/// Radius of the badge with a piece's letter, and how far right and down of the disc's
/// centre it sits: on the rim, clear of the character and of the neighbouring points.
const BADGE: f64 = 8.0;
const BADGE_OFFSET: f64 = 13.5;
/// Width of the whole picture.
pub(crate) const WIDTH: f64 = 2.0 * MARGIN + (FILES - 1) as f64 * CELL;
/// Height of the whole picture.
pub(crate) const HEIGHT: f64 = 2.0 * MARGIN + (RANKS - 1) as f64 * CELL;

const WOOD: &str = "#f1d9a5";
const DISC_FILL: &str = "#fbf1dc";
/// Side of the box each character of the river's words is drawn in, and how far apart
/// the two characters of a word stand.
const RIVER_GLYPH: f64 = 22.0;
const RIVER_ADVANCE: f64 = 28.0;
/// Fonts with Latin letters, one of which every desktop and container has.
const LATIN_FONTS: &str = "'DejaVu Sans',Arial,Helvetica,sans-serif";
const INK: &str = "#5b3a1a";
const RED_INK: &str = "#b71c1c";
const BLACK_INK: &str = "#1b1b1b";

/// Arrow colours: moves only the odd one out has, moves it lacks, moves listed more
/// than once, then one per further set of generators.
const ONLY_ODD: &str = "#d81b60";
const LACKS_ODD: &str = "#1565c0";
/// Moves someone lists more than once.
const LISTED_TWICE: &str = "#8e24aa";
const PALETTE: [&str; 6] = [
    "#2e7d32", "#ef6c00", "#6a1b9a", "#00838f", "#795548", "#9e9d24",
];

/// The disputed moves that the same generators have: one colour, one legend entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ArrowGroup {
    /// `only-odd`, `lacks-odd`, `listed-twice` or `set-N`: the arrows' class besides
    /// `arrow`.
    pub(crate) class: String,
    /// The arrows' colour.
    pub(crate) colour: &'static str,
    /// The generators that have these moves.
    pub(crate) has: Vec<String>,
    /// What the colour means, for the legend.
    pub(crate) label: String,
    /// The moves, ICCS.
    pub(crate) moves: Vec<String>,
}

/// Groups `moves` by the set of generators that have them. With an odd one out, the
/// moves only it has come first and the moves it lacks second, so those two keep their
/// colours from one disagreement to the next.
pub(crate) fn arrow_groups(
    moves: &[DisputedMove],
    generators: &[String],
    odd: Option<&str>,
) -> Vec<ArrowGroup> {
    let mut groups: Vec<ArrowGroup> = Vec::new();
    for m in moves {
        if m.listed_twice() {
            // Everyone has it, so "who has it" says nothing: what differs is how often
            // it is listed, and each such move says so itself.
            groups.push(ArrowGroup {
                class: "listed-twice".to_owned(),
                colour: LISTED_TWICE,
                has: m.has.clone(),
                label: m.listed_text(),
                moves: vec![m.mv.clone()],
            });
            continue;
        }
        if let Some(g) = groups
            .iter_mut()
            .find(|g| g.has == m.has && g.class != "listed-twice")
        {
            g.moves.push(m.mv.clone());
            continue;
        }
        let lacking: Vec<&str> = generators
            .iter()
            .map(String::as_str)
            .filter(|g| !m.has.iter().any(|h| h == g))
            .collect();
        let has = m.has.join(", ");
        let (class, colour, label) = match odd {
            Some(o) if m.has.len() == 1 && m.has[0] == o => (
                "only-odd".to_owned(),
                ONLY_ODD,
                format!("only {o} has these moves"),
            ),
            Some(o) if !m.has.iter().any(|h| h == o) => (
                "lacks-odd".to_owned(),
                LACKS_ODD,
                format!("{o} lacks these moves; {has} have them"),
            ),
            _ => {
                let n = groups
                    .iter()
                    .filter(|g| g.class.starts_with("set-"))
                    .count();
                (
                    format!("set-{n}"),
                    PALETTE[n % PALETTE.len()],
                    if lacking.is_empty() {
                        format!("{has} have these moves")
                    } else {
                        format!("{has} have these moves; {} do not", lacking.join(", "))
                    },
                )
            }
        };
        groups.push(ArrowGroup {
            class,
            colour,
            has: m.has.clone(),
            label,
            moves: vec![m.mv.clone()],
        });
    }
    let rank = |g: &ArrowGroup| match g.class.as_str() {
        "only-odd" => 0,
        "lacks-odd" => 1,
        "listed-twice" => 2,
        _ => 3,
    };
    groups.sort_by_key(rank);
    groups
}

/// Centre of the point at `file`, `rank`, Red at the bottom.
fn point(file: u8, rank: u8) -> (f64, f64) {
    (
        MARGIN + file as f64 * CELL,
        MARGIN + (RANKS - 1 - rank) as f64 * CELL,
    )
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let _ = write!(out, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
}

/// The board of `fen` with `groups`' moves drawn as arrows. Reads the FEN without
/// validating it, so a report's position draws even if it breaks a domain rule.
pub(crate) fn board(
    fen: &str,
    groups: &[ArrowGroup],
    opts: &RenderOptions,
) -> Result<String, FenError> {
    let setup = fen::parse_setup(fen)?;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="board of {}">"#,
        escape(fen)
    );
    let _ = write!(
        out,
        r#"<rect class="wood" x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="8" fill="{WOOD}"/>"#
    );
    grid(&mut out);
    marks(&mut out);
    river(&mut out, opts);
    coordinates(&mut out);
    arrows(&mut out, groups, &setup);
    out.push_str(r#"<g class="pieces">"#);
    for (sq, p) in setup.pieces() {
        piece(&mut out, sq.file(), sq.rank(), p, opts);
    }
    out.push_str("</g>");
    out.push_str("</svg>");
    Ok(out)
}

/// Ranks across, files down (broken by the river except at the edges), the frame and
/// the palace diagonals.
fn grid(out: &mut String) {
    let _ = write!(
        out,
        r#"<g class="grid" stroke="{INK}" stroke-width="1.4" stroke-linecap="square">"#
    );
    for rank in 0..RANKS {
        line(out, point(0, rank), point(FILES - 1, rank));
    }
    for file in 0..FILES {
        if file == 0 || file == FILES - 1 {
            line(out, point(file, 0), point(file, RANKS - 1));
        } else {
            line(out, point(file, 0), point(file, 4));
            line(out, point(file, 5), point(file, RANKS - 1));
        }
    }
    for (low, high) in [(0, 2), (7, 9)] {
        line(out, point(3, low), point(5, high));
        line(out, point(5, low), point(3, high));
    }
    let (x0, y0) = point(0, RANKS - 1);
    let (x1, y1) = point(FILES - 1, 0);
    let pad = 5.0;
    let _ = write!(
        out,
        r#"<rect class="frame" x="{}" y="{}" width="{}" height="{}" fill="none" stroke-width="2.5"/>"#,
        x0 - pad,
        y0 - pad,
        x1 - x0 + 2.0 * pad,
        y1 - y0 + 2.0 * pad
    );
    out.push_str("</g>");
}

/// The small corner marks on the cannons' and pawns' starting points.
fn marks(out: &mut String) {
    let _ = write!(
        out,
        r#"<g class="marks" stroke="{INK}" stroke-width="1.2" fill="none">"#
    );
    let points = [(1, 2), (7, 2), (1, 7), (7, 7)]
        .into_iter()
        .chain([0u8, 2, 4, 6, 8].into_iter().flat_map(|f| [(f, 3), (f, 6)]));
    let (gap, arm) = (4.0, 8.0);
    for (file, rank) in points {
        let (x, y) = point(file, rank);
        for sx in [-1.0, 1.0] {
            // No marks off the board's edge.
            if (file == 0 && sx < 0.0) || (file == FILES - 1 && sx > 0.0) {
                continue;
            }
            for sy in [-1.0, 1.0] {
                let (cx, cy) = (x + sx * gap, y + sy * gap);
                let _ = write!(
                    out,
                    r#"<polyline points="{},{cy} {cx},{cy} {cx},{}"/>"#,
                    cx + sx * arm,
                    cy + sy * arm
                );
            }
        }
    }
    out.push_str("</g>");
}

fn river(out: &mut String, opts: &RenderOptions) {
    let y = (point(0, 4).1 + point(0, 5).1) / 2.0;
    let centres = [point(2, 0).0, point(6, 0).0];
    if opts.latin {
        // Latin words are wider than two characters: small, and spaced little.
        let _ = write!(
            out,
            r#"<g class="river" fill="{INK}" font-size="15" text-anchor="middle" dominant-baseline="central" font-family="{LATIN_FONTS}" letter-spacing="1"><text x="{}" y="{y}">Chu River</text><text x="{}" y="{y}">Han Border</text></g>"#,
            centres[0], centres[1]
        );
        return;
    }
    // Drawn as strokes like the pieces' characters, the words' text in the title.
    let _ = write!(
        out,
        r#"<g class="river" stroke="{INK}"><title>楚河 漢界</title>"#
    );
    for (word, centre) in glyphs::RIVER.iter().zip(centres) {
        for (glyph, side) in word.iter().zip([-1.0, 1.0]) {
            let x = centre + side * RIVER_ADVANCE / 2.0 - RIVER_GLYPH / 2.0;
            let _ = write!(
                out,
                r##"<use class="glyph" href="#{}" x="{x}" y="{}" width="{RIVER_GLYPH}" height="{RIVER_GLYPH}"/>"##,
                glyph.id(),
                y - RIVER_GLYPH / 2.0
            );
        }
    }
    out.push_str("</g>");
}

/// ICCS coordinates: files a-i below, ranks 0-9 on the left.
fn coordinates(out: &mut String) {
    let _ = write!(
        out,
        r#"<g class="coords" fill="{INK}" font-size="12" font-family="sans-serif" text-anchor="middle" dominant-baseline="central">"#
    );
    let below = point(0, 0).1 + MARGIN * 0.72;
    for file in 0..FILES {
        let _ = write!(
            out,
            r#"<text x="{}" y="{below}">{}</text>"#,
            point(file, 0).0,
            char::from(b'a' + file)
        );
    }
    let left = MARGIN * 0.28;
    for rank in 0..RANKS {
        let _ = write!(
            out,
            r#"<text x="{left}" y="{}">{rank}</text>"#,
            point(0, rank).1
        );
    }
    out.push_str("</g>");
}

/// A piece's disc. Its FEN letter is always drawn, in a font every machine has: alone
/// and large with `--latin`, else on a badge beside the traditional character. The
/// character is drawn as strokes ([`glyphs`]), never as text, so it shows without a CJK
/// font; it stays in the piece's title for screen readers and copying.
fn piece(out: &mut String, file: u8, rank: u8, p: Piece, opts: &RenderOptions) {
    let (x, y) = point(file, rank);
    let ink = match p.color {
        Color::Red => RED_INK,
        Color::Black => BLACK_INK,
    };
    let sq = Square::new(file, rank).map(|s| s.to_string());
    let _ = write!(
        out,
        r#"<g class="piece {}" data-square="{}" data-piece="{}"><title>{} {} {} on {}</title><circle cx="{x}" cy="{y}" r="{DISC}" fill="{DISC_FILL}" stroke="{ink}" stroke-width="2"/><circle cx="{x}" cy="{y}" r="{}" fill="none" stroke="{ink}" stroke-width="0.8"/>"#,
        p.color,
        sq.as_deref().unwrap_or(""),
        p.fen_char(),
        glyphs::of(p).character,
        p.color,
        p.role,
        sq.as_deref().unwrap_or(""),
        DISC - 3.5,
    );
    let letter = p.fen_char();
    if opts.latin {
        let _ = write!(
            out,
            r#"<text class="letter" x="{x}" y="{y}" fill="{ink}" font-size="20" font-weight="bold" font-family="{LATIN_FONTS}" text-anchor="middle" dominant-baseline="central">{letter}</text>"#
        );
    } else {
        let (bx, by) = (x + BADGE_OFFSET, y + BADGE_OFFSET);
        let (gx, gy) = (x - GLYPH / 2.0 - GLYPH_SHIFT, y - GLYPH / 2.0 - GLYPH_SHIFT);
        let _ = write!(
            out,
            r##"<use class="glyph" href="#{}" x="{gx}" y="{gy}" width="{GLYPH}" height="{GLYPH}" stroke="{ink}"/><circle class="badge" cx="{bx}" cy="{by}" r="{BADGE}" fill="{ink}"/><text class="letter" x="{bx}" y="{by}" fill="{DISC_FILL}" font-size="12" font-weight="bold" font-family="{LATIN_FONTS}" text-anchor="middle" dominant-baseline="central">{letter}</text>"##,
            glyphs::of(p).id()
        );
    }
    out.push_str("</g>");
}

/// The one piece a cannon's move jumps (its screen): the mover is a cannon and
/// exactly one piece stands strictly between the move's squares on their line.
fn screen(setup: &Setup, mv: Move) -> Option<Square> {
    let cannon = setup
        .piece_at(mv.from)
        .is_some_and(|p| p.role == Role::Cannon);
    if !cannon || setup.pieces_between(mv.from, mv.to) != Some(1) {
        return None;
    }
    let step = |a: u8, b: u8| i16::from(b).cmp(&i16::from(a)) as i16;
    let (df, dr) = (
        step(mv.from.file(), mv.to.file()),
        step(mv.from.rank(), mv.to.rank()),
    );
    let mut at = mv.from;
    loop {
        let file = u8::try_from(i16::from(at.file()) + df).ok()?;
        let rank = u8::try_from(i16::from(at.rank()) + dr).ok()?;
        at = Square::new(file, rank)?;
        if at == mv.to {
            return None;
        }
        if setup.piece_at(at).is_some() {
            return Some(at);
        }
    }
}

/// One arrow per move of every group. Arrows lie under the pieces, and each starts
/// outside the moving piece and ends at the rim of the piece taken, so nothing of
/// either piece is hidden. A cannon's move over its screen hops around the screen,
/// which is ringed in the arrow's colour: drawn straight, the arrow would vanish under
/// the screen and read as a move to it. The head is a polygon of the arrow's own
/// colour rather than a marker, so no shared definitions are needed.
fn arrows(out: &mut String, groups: &[ArrowGroup], setup: &Setup) {
    out.push_str(r#"<g class="arrows">"#);
    for g in groups {
        for text in &g.moves {
            let Ok(mv) = text.parse::<Move>() else {
                continue;
            };
            let Some(shape) = Shape::of(mv, setup) else {
                continue;
            };
            let screen = shape.screen.map(|(sq, _)| sq.to_string());
            let _ = write!(
                out,
                r#"<g class="arrow {}" data-move="{}" data-has="{}"{} fill="{c}" stroke="{c}"><title>{}: {}{}</title>"#,
                g.class,
                escape(text),
                escape(&g.has.join(" ")),
                screen
                    .as_ref()
                    .map_or_else(String::new, |s| format!(r#" data-screen="{s}""#)),
                escape(text),
                escape(&g.label),
                screen.as_ref().map_or_else(String::new, |s| format!(
                    "; the cannon jumps its screen on {s}"
                )),
                c = g.colour,
            );
            shape.draw(out);
            out.push_str("</g>");
        }
    }
    out.push_str("</g>");
}

type Point = (f64, f64);

fn along((x, y): Point, (ux, uy): Point, by: f64) -> Point {
    (x + ux * by, y + uy * by)
}

/// Half the width of the band the hop keeps clear around a screen: its disc, its
/// outline and half the arrow's stroke, with a little air.
const HOP: f64 = 23.0;
/// An arrowhead's length and half its width.
const HEAD: (f64, f64) = (17.0, 9.0);

/// Where the shaft of an arrow with its tip at `tip`, pointing along `dir`, stops:
/// inside the head, so the shaft's round cap does not poke out of the tip.
fn shaft_end(tip: Point, dir: Point) -> Point {
    along(tip, dir, 2.0 - HEAD.0)
}

/// Where an arrow runs: its shaft (a path), and the tip with the direction it points.
struct Shape {
    shaft: String,
    tip: Point,
    dir: Point,
    /// The screen a cannon's move jumps, and its centre.
    screen: Option<(Square, Point)>,
}

impl Shape {
    /// The arrow of `mv` on `setup`; none for a move that stays on its square.
    fn of(mv: Move, setup: &Setup) -> Option<Shape> {
        let from = point(mv.from.file(), mv.from.rank());
        let to = point(mv.to.file(), mv.to.rank());
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = dx.hypot(dy);
        if len == 0.0 {
            return None;
        }
        let u = (dx / len, dy / len);
        // An empty target gets the tip close to its point; a piece taken, its rim.
        let stop = if setup.piece_at(mv.to).is_some() {
            DISC + 1.0
        } else {
            5.0
        };
        let start = along(from, u, DISC + 1.0);
        let straight_tip = along(to, u, -stop);
        let end = shaft_end(straight_tip, u);
        let Some(sq) = screen(setup, mv) else {
            return Some(Shape {
                shaft: format!("M{:.1},{:.1} L{:.1},{:.1}", start.0, start.1, end.0, end.1),
                tip: straight_tip,
                dir: u,
                screen: None,
            });
        };
        let s = point(sq.file(), sq.rank());
        // The hop bulges toward the board's middle, where there is room for it.
        let n = if u.1 == 0.0 {
            (0.0, if sq.rank() < RANKS / 2 { -1.0 } else { 1.0 })
        } else {
            (if sq.file() < FILES / 2 { 1.0 } else { -1.0 }, 0.0)
        };
        let before = along(s, u, -HOP);
        let after = along(s, u, HOP);
        let room = (straight_tip.0 - after.0) * u.0 + (straight_tip.1 - after.1) * u.1;
        let mut shaft = format!(
            "M{:.1},{:.1} L{:.1},{:.1}",
            start.0, start.1, before.0, before.1
        );
        let (tip, dir) = if room >= HEAD.0 + 2.0 {
            // A half circle around the screen, then on along the line.
            let cross = -u.0 * n.1 + u.1 * n.0;
            let sweep = u8::from(cross > 0.0);
            let _ = write!(
                shaft,
                " A{HOP},{HOP} 0 0 {sweep} {:.1},{:.1} L{:.1},{:.1}",
                after.0, after.1, end.0, end.1
            );
            (straight_tip, u)
        } else {
            // The target stands right behind the screen: no room to come back to the
            // line, so the hop lands on the target from the side it bulges to.
            let d = ((to.0 - s.0) * u.0 + (to.1 - s.1) * u.1).max(CELL);
            let landing = (u.0 - n.0, u.1 - n.1);
            let norm = landing.0.hypot(landing.1);
            let landing = (landing.0 / norm, landing.1 / norm);
            let tip = along(to, landing, -stop);
            let control = along(along(s, u, d / 2.0 - DISC), n, 3.0 * HOP);
            let (ex, ey) = (tip.0 - control.0, tip.1 - control.1);
            let el = ex.hypot(ey);
            let dir = (ex / el, ey / el);
            let end = shaft_end(tip, dir);
            let _ = write!(
                shaft,
                " Q{:.1},{:.1} {:.1},{:.1}",
                control.0, control.1, end.0, end.1
            );
            (tip, dir)
        };
        Some(Shape {
            shaft,
            tip,
            dir,
            screen: Some((sq, s)),
        })
    }

    fn draw(&self, out: &mut String) {
        let (head, half) = HEAD;
        let (ux, uy) = self.dir;
        let base = along(self.tip, self.dir, -head);
        let left = (base.0 - uy * half, base.1 + ux * half);
        let right = (base.0 + uy * half, base.1 - ux * half);
        if let Some((_, (cx, cy))) = self.screen {
            let _ = write!(
                out,
                r#"<circle class="screen" cx="{cx}" cy="{cy}" r="{}" fill="none" stroke-width="2" stroke-dasharray="4 3"/>"#,
                DISC + 3.0
            );
        }
        let _ = write!(
            out,
            r#"<path d="{}" fill="none" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/><polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" stroke-width="1" stroke-linejoin="round"/>"#,
            self.shaft, self.tip.0, self.tip.1, left.0, left.1, right.0, right.1
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disputed(mv: &str, has: &[&str]) -> DisputedMove {
        DisputedMove {
            mv: mv.to_owned(),
            has: has.iter().map(|s| s.to_string()).collect(),
            counts: Default::default(),
            listed: Default::default(),
        }
    }

    /// Each row: the moves with who has them, the odd one out, and the class each
    /// move's group must get.
    #[test]
    fn groups_are_coloured_by_who_has_the_moves() {
        let gens: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        type Row<'a> = (
            &'a [(&'a str, &'a [&'a str])],
            Option<&'a str>,
            &'a [&'a str],
        );
        let table: &[Row] = &[
            (&[("h2e2", &["a", "b"])], Some("c"), &["lacks-odd"]),
            (
                &[("h2e2", &["c"]), ("b2b9", &["a", "b"])],
                Some("c"),
                &["only-odd", "lacks-odd"],
            ),
            // Listed the other way round: the odd one's own moves still come first.
            (
                &[("b2b9", &["a", "b"]), ("h2e2", &["c"])],
                Some("c"),
                &["only-odd", "lacks-odd"],
            ),
            (&[("e0e1", &["symmetry"])], Some("b"), &["lacks-odd"]),
            (
                &[("h2e2", &["a"]), ("b2b9", &["b"]), ("a0a1", &["a"])],
                None,
                &["set-0", "set-1"],
            ),
        ];
        for (moves, odd, classes) in table {
            let moves: Vec<DisputedMove> = moves.iter().map(|(m, h)| disputed(m, h)).collect();
            let groups = arrow_groups(&moves, &gens, *odd);
            let got: Vec<&str> = groups.iter().map(|g| g.class.as_str()).collect();
            assert_eq!(got, *classes, "{moves:?}");
            let grouped: usize = groups.iter().map(|g| g.moves.len()).sum();
            assert_eq!(grouped, moves.len());
        }
    }

    /// The value of attribute `name` in the first tag of `text` that has it.
    fn attribute<'a>(text: &'a str, name: &str) -> Option<&'a str> {
        let start = text.find(&format!(" {name}=\""))? + name.len() + 3;
        let len = text[start..].find('"')?;
        Some(&text[start..start + len])
    }

    /// Each row: a FEN letter and the character written out here, apart from the
    /// renderer. On the opening board every piece of the kind must draw that
    /// character through a glyph the page's definitions hold, with strokes no other
    /// kind shares.
    #[test]
    fn every_piece_is_drawn_by_its_own_glyph_from_the_table() {
        let table = [
            ('K', '帥'),
            ('A', '仕'),
            ('B', '相'),
            ('N', '傌'),
            ('R', '俥'),
            ('C', '炮'),
            ('P', '兵'),
            ('k', '將'),
            ('a', '士'),
            ('b', '象'),
            ('n', '馬'),
            ('r', '車'),
            ('c', '砲'),
            ('p', '卒'),
        ];
        let picture = board(fen::START_FEN, &[], &RenderOptions::default()).unwrap();
        let defs = glyphs::defs();
        let symbols: Vec<&str> = defs.split("<symbol").skip(1).collect();
        let pieces: Vec<&str> = picture.split(r#"<g class="piece "#).skip(1).collect();
        assert_eq!(pieces.len(), 32);
        let mut strokes = Vec::new();
        for (letter, character) in table {
            let of_kind: Vec<&&str> = pieces
                .iter()
                .filter(|p| attribute(p, "data-piece") == Some(&letter.to_string()))
                .collect();
            assert!(!of_kind.is_empty(), "no {letter} on the opening board");
            for piece in of_kind {
                let piece = &piece[..piece.find("</g>").unwrap()];
                assert!(
                    piece.contains(character),
                    "{letter}: {character} not in its title"
                );
                assert!(
                    !piece.contains("glyph\">"),
                    "{letter}: its character as text"
                );
                let href = attribute(&piece[piece.find("<use").unwrap()..], "href").unwrap();
                let id = href.strip_prefix('#').unwrap();
                let symbol = symbols
                    .iter()
                    .find(|s| attribute(s, "id") == Some(id))
                    .unwrap_or_else(|| panic!("{letter}: no glyph {id} in the page's definitions"));
                assert_eq!(
                    attribute(symbol, "data-character"),
                    Some(character.to_string().as_str()),
                    "{letter}"
                );
                let d = attribute(symbol, "d").unwrap();
                assert!(d.starts_with('M'), "{letter}: {d}");
                strokes.push((letter, d));
            }
        }
        for (letter, d) in &strokes {
            assert!(
                strokes.iter().all(|(l, e)| l == letter || e != d),
                "{letter} shares its strokes with another kind"
            );
        }
    }

    /// The river's words are drawn by the glyphs of 楚, 河, 漢 and 界, in that order,
    /// and never written as text; with `--latin` they are Latin text.
    #[test]
    fn the_river_words_are_drawn_by_their_glyphs() {
        let defs = glyphs::defs();
        for (latin, want) in [(false, "楚河漢界"), (true, "")] {
            let picture = board(fen::START_FEN, &[], &RenderOptions { latin }).unwrap();
            let start = picture.find(r#"<g class="river""#).unwrap();
            let river = &picture[start..start + picture[start..].find("</g>").unwrap()];
            let drawn: String = river
                .split("<use")
                .skip(1)
                .map(|u| {
                    let id = attribute(u, "href").unwrap().trim_start_matches('#');
                    let symbol = &defs[defs.find(&format!(r#"id="{id}""#)).unwrap()..];
                    attribute(symbol, "data-character").unwrap().to_owned()
                })
                .collect();
            assert_eq!(drawn, want, "latin: {latin}");
            assert_eq!(river.contains("<text"), latin, "{river}");
        }
    }

    #[test]
    fn a_fen_that_does_not_parse_is_an_error_not_a_picture() {
        assert!(board("not a fen", &[], &RenderOptions::default()).is_err());
    }
}
