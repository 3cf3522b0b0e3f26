//! The pieces' traditional characters, and the river's words, drawn as strokes, so a
//! board reads the same on a
//! machine with no CJK font (a container, a CI artifact viewer) as on a desktop: text
//! would depend on a font the viewer may not have and show as empty boxes.
//!
//! Each glyph is its character's strokes in the standard order, written for this crate
//! as SVG path data in a 100 by 100 box (x right, y down): straight strokes as lines,
//! sweeping ones as one quadratic curve. They are drawn with a round pen, which gives
//! the plain look of a hand-lettered sign; the shapes keep each character's components
//! where a reader expects them (亻 beside 馬 in 傌, 石 beside 包 in 砲), which is what
//! makes them read at a piece's size of about 23 pixels.
//!
//! A page defines every glyph once (`defs`) and each piece draws its own with a `<use>`
//! ([`Glyph::id`]), so a report with many boards stays small.

use crate::piece::{Color, Piece};
use std::fmt::Write as _;

/// Side of the square box the strokes are written in.
pub(crate) const BOX: u32 = 100;
/// Width of the pen, in the box's units: about 2 pixels at a piece's size.
pub(crate) const PEN: f64 = 8.5;

/// One piece's character and how to draw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Glyph {
    /// The character, for screen readers and copying: never drawn as text.
    pub(crate) character: char,
    /// The strokes, each one SVG path (`M` then `L` or `Q`), in writing order.
    pub(crate) strokes: &'static [&'static str],
}

impl Glyph {
    /// The id of the glyph's `<symbol>` in `defs`, for a `<use href="#...">`: from the
    /// character's code point, so it is plain ASCII.
    pub(crate) fn id(&self) -> String {
        format!("glyph-{:x}", u32::from(self.character))
    }
}

/// 氵, the left part of 河 and 漢.
macro_rules! water {
    () => {
        ["M10 14 L18 22", "M6 40 L16 48", "M6 90 L20 62"]
    };
}

/// 亻, the left part of 仕, 傌 and 俥.
macro_rules! person {
    () => {
        ["M28 6 Q20 28 6 44", "M19 28 L19 96"]
    };
}

/// 包, the right part of both cannons.
macro_rules! wrap {
    () => {
        [
            "M60 6 Q54 20 46 30",
            "M56 18 L92 18 L92 74 L85 70",
            "M60 34 L82 34 L82 54",
            "M60 54 L82 54",
            "M60 34 L60 82 Q60 90 70 90 L94 90 L96 82",
        ]
    };
}

/// Concatenates stroke arrays at compile time, so a shared component is written once.
macro_rules! strokes {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&[&str]] = &[$(&$part),+];
        const LEN: usize = {
            let mut n = 0;
            let mut i = 0;
            while i < PARTS.len() {
                n += PARTS[i].len();
                i += 1;
            }
            n
        };
        const ALL: [&str; LEN] = {
            let mut all = [""; LEN];
            let (mut i, mut k) = (0, 0);
            while i < PARTS.len() {
                let mut j = 0;
                while j < PARTS[i].len() {
                    all[k] = PARTS[i][j];
                    j += 1;
                    k += 1;
                }
                i += 1;
            }
            all
        };
        &ALL
    }};
}

/// Red's glyphs, in [`Role::index`] order.
const RED: [Glyph; 7] = [
    Glyph {
        character: '帥',
        strokes: &[
            // The left part: a short sweep, the long stroke down, two boxes.
            "M28 6 L19 16",
            "M12 20 L12 88",
            "M12 20 L36 20 L36 44",
            "M12 44 L36 44",
            "M12 54 L38 54 L38 84",
            "M12 84 L38 84",
            // 巾.
            "M52 34 L52 78",
            "M52 34 L92 34 L92 74 L86 70",
            "M72 8 L72 96",
        ],
    },
    Glyph {
        character: '仕',
        strokes: strokes!(
            person!(),
            ["M40 38 L94 38", "M67 10 L67 86", "M46 86 L88 86"]
        ),
    },
    Glyph {
        character: '相',
        strokes: &[
            // 木.
            "M6 32 L44 32",
            "M26 8 L26 96",
            "M25 36 Q18 56 6 70",
            "M30 46 L40 58",
            // 目.
            "M56 12 L56 92",
            "M56 12 L90 12 L90 92",
            "M56 38 L90 38",
            "M56 64 L90 64",
            "M56 90 L90 90",
        ],
    },
    Glyph {
        character: '傌',
        strokes: strokes!(
            person!(),
            [
                "M38 8 L38 62",
                "M38 8 L91 8",
                "M62 8 L62 44",
                "M38 26 L85 26",
                "M38 44 L85 44",
                "M38 62 L96 62 L96 88 Q96 96 87 94",
                "M41 76 L36 88",
                "M54 74 L57 86",
                "M66 74 L70 86",
                "M78 74 L82 86",
            ]
        ),
    },
    Glyph {
        character: '俥',
        strokes: strokes!(
            person!(),
            [
                "M40 12 L92 12",
                "M46 26 L46 66",
                "M46 26 L86 26 L86 66",
                "M46 46 L86 46",
                "M46 66 L86 66",
                "M36 82 L96 82",
                "M66 4 L66 97",
            ]
        ),
    },
    Glyph {
        character: '炮',
        strokes: strokes!(
            // 火.
            [
                "M10 36 L15 48",
                "M38 30 L31 44",
                "M24 8 L24 52 Q22 76 6 92",
                "M25 60 L40 84",
            ],
            wrap!()
        ),
    },
    Glyph {
        character: '兵',
        strokes: &[
            // 丘.
            "M70 6 Q52 14 32 18",
            "M32 18 L32 62",
            "M32 38 L74 38",
            "M56 38 L56 62",
            "M8 62 L92 62",
            // 八.
            "M36 72 Q28 86 14 94",
            "M62 72 L84 92",
        ],
    },
];

/// Black's glyphs, in [`Role::index`] order.
const BLACK: [Glyph; 7] = [
    Glyph {
        character: '將',
        strokes: &[
            // 爿.
            "M12 18 L12 44 L30 36",
            "M6 70 L30 56",
            "M30 6 L30 96",
            // The upper right: 夕 with a second dot.
            "M62 4 Q56 18 42 28",
            "M54 14 L84 14 Q76 36 48 50",
            "M60 24 L68 32",
            "M66 34 L74 42",
            // 寸.
            "M40 62 L96 62",
            "M82 52 L82 92 Q82 98 72 94",
            "M56 72 L64 84",
        ],
    },
    Glyph {
        character: '士',
        strokes: &["M12 36 L88 36", "M50 10 L50 84", "M24 84 L76 84"],
    },
    Glyph {
        character: '象',
        strokes: &[
            // The top: a hooked sweep over a box.
            "M44 4 Q38 14 28 20",
            "M40 10 L64 10 L54 22",
            "M30 22 L30 40",
            "M30 22 L72 22 L72 40",
            "M30 40 L72 40",
            // The body: sweeps to the left, the long hook, sweeps into it, the tail.
            "M36 42 Q30 52 16 60",
            "M34 52 L68 52 Q56 62 40 68",
            "M48 64 Q36 84 12 94",
            "M50 60 Q70 76 58 96 L50 92",
            "M78 56 L58 68",
            "M82 66 L60 80",
            "M60 78 Q74 90 94 94",
        ],
    },
    Glyph {
        character: '馬',
        strokes: &[
            "M22 8 L22 62",
            "M22 8 L82 8",
            "M50 8 L50 44",
            "M22 26 L76 26",
            "M22 44 L76 44",
            "M22 62 L88 62 L88 88 Q88 96 78 94",
            // 灬.
            "M26 76 L20 88",
            "M40 74 L44 86",
            "M54 74 L58 86",
            "M68 74 L72 86",
        ],
    },
    Glyph {
        character: '車',
        strokes: &[
            "M14 12 L86 12",
            "M22 26 L22 66",
            "M22 26 L78 26 L78 66",
            "M22 46 L78 46",
            "M22 66 L78 66",
            "M8 82 L92 82",
            "M50 4 L50 97",
        ],
    },
    Glyph {
        character: '砲',
        strokes: strokes!(
            // 石.
            [
                "M6 14 L40 14",
                "M22 14 Q16 38 4 56",
                "M14 44 L14 82",
                "M14 44 L38 44 L38 82",
                "M14 80 L38 80",
            ],
            wrap!()
        ),
    },
    Glyph {
        character: '卒',
        strokes: &[
            // 亠.
            "M50 2 L54 12",
            "M12 16 L88 16",
            // Two 人.
            "M34 24 Q30 34 18 44",
            "M30 34 L38 42",
            "M66 24 Q62 34 50 44",
            "M62 34 L74 44",
            // 十.
            "M8 56 L92 56",
            "M50 56 L50 98",
        ],
    },
];

/// The glyph of `p`: each side has its own character for every kind.
pub(crate) fn of(p: Piece) -> &'static Glyph {
    match p.color {
        Color::Red => &RED[p.role.index()],
        Color::Black => &BLACK[p.role.index()],
    }
}

/// The river's words, 楚河 and 漢界, as the board shows them from left to right.
pub(crate) const RIVER: [[Glyph; 2]; 2] = [
    [
        Glyph {
            character: '楚',
            strokes: &[
                // 林.
                "M8 18 L44 18",
                "M26 4 L26 46",
                "M25 20 Q18 32 6 42",
                "M28 26 L38 34",
                "M52 18 L94 18",
                "M73 4 L73 48",
                "M72 20 Q64 34 50 44",
                "M74 22 Q82 34 94 42",
                // 疋.
                "M30 54 L72 54 L72 66",
                "M30 66 L72 66",
                "M50 66 L50 88",
                "M50 78 L70 78",
                "M32 74 L32 88 Q48 96 96 94",
            ],
        },
        Glyph {
            character: '河',
            strokes: strokes!(
                water!(),
                [
                    "M30 14 L94 14",
                    "M38 32 L38 58",
                    "M38 32 L62 32 L62 58",
                    "M38 58 L62 58",
                    "M80 14 L80 88 Q80 96 70 92",
                ]
            ),
        },
    ],
    [
        Glyph {
            character: '漢',
            strokes: strokes!(
                water!(),
                [
                    "M30 14 L96 14",
                    "M46 4 L46 26",
                    "M80 4 L80 26",
                    "M46 26 L80 26",
                    "M42 34 L42 50",
                    "M42 34 L84 34 L84 50",
                    "M42 50 L84 50",
                    "M36 60 L90 60",
                    "M30 72 L96 72",
                    "M63 50 L63 72",
                    "M63 72 Q54 88 34 96",
                    "M65 76 Q76 88 96 96",
                ]
            ),
        },
        Glyph {
            character: '界',
            strokes: &[
                // 田.
                "M24 6 L24 44",
                "M24 6 L76 6 L76 44",
                "M24 25 L76 25",
                "M50 6 L50 44",
                "M24 44 L76 44",
                // 介.
                "M48 50 Q36 66 8 78",
                "M52 50 Q64 66 94 76",
                "M38 70 Q36 88 26 96",
                "M64 70 L64 97",
            ],
        },
    ],
];

/// Every glyph: the pieces', Red's then Black's, and the river's.
pub(crate) fn all() -> impl Iterator<Item = &'static Glyph> {
    RED.iter().chain(&BLACK).chain(RIVER.iter().flatten())
}

/// One hidden SVG holding every glyph as a `<symbol>` (its `data-character` the
/// character it draws), for a page to carry once before its boards. A `<use>` gives the
/// colour as `stroke`; the pen's width and shape are the symbol's.
pub(crate) fn defs() -> String {
    let mut out = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="glyphs" width="0" height="0" style="position:absolute" aria-hidden="true"><defs>"#,
    );
    for g in all() {
        let _ = write!(
            out,
            r#"<symbol id="{}" data-character="{}" viewBox="0 0 {BOX} {BOX}"><path d="{}" fill="none" stroke-width="{PEN}" stroke-linecap="round" stroke-linejoin="round"/></symbol>"#,
            g.id(),
            g.character,
            g.strokes.join(" "),
        );
    }
    out.push_str("</defs></svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every stroke is a pen path inside the box: a move, then lines or curves, with
    /// whole numbers from 0 to the box's side, so each draws within a piece's disc.
    #[test]
    fn every_stroke_is_a_path_inside_the_box() {
        for g in all() {
            assert!(!g.strokes.is_empty(), "{}", g.character);
            for stroke in g.strokes {
                let mut tokens = stroke.split(' ').peekable();
                let mut commands = String::new();
                let mut numbers = 0;
                while let Some(token) = tokens.next() {
                    let (command, first) = token.split_at(1);
                    commands.push_str(command);
                    for n in std::iter::once(first).chain(std::iter::from_fn(|| {
                        tokens.next_if(|t| t.starts_with(|c: char| c.is_ascii_digit()))
                    })) {
                        let v: u32 = n.parse().unwrap_or_else(|_| {
                            panic!("{}: {stroke}: {n} is not a number", g.character)
                        });
                        assert!(v <= BOX, "{}: {stroke}: {v} outside the box", g.character);
                        numbers += 1;
                    }
                }
                let want: usize = commands
                    .chars()
                    .map(|c| match c {
                        'M' | 'L' => 2,
                        'Q' => 4,
                        _ => panic!("{}: {stroke}: command {c}", g.character),
                    })
                    .sum();
                assert!(commands.starts_with('M') && commands.len() > 1, "{stroke}");
                assert_eq!(numbers, want, "{}: {stroke}", g.character);
            }
        }
    }
}
