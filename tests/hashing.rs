//! Hashed perft as a subject of its own: on every generator, the count through a table
//! equals the plain count (every move made, the last ply counted) on the published
//! suite's small rows, under several key seeds and table sizes from one bucket (two
//! entries, pushed out on every store) to megabytes, the table kept from one row and
//! depth to the next as an engine keeps it; and every key carried over a move is the
//! key read off the board after it.

use xqdiff::generators::perft::{perft_hashed_checked, perft_plain};
use xqdiff::generators::perft_hash::{HashSize, Hashing, Keys, Table, BUCKET_BYTES};
use xqdiff::generators::{for_each, EachGenerator};
use xqdiff::{MoveGen, Position};

/// Rows of the published suite up to this many leaves: every depth from 2 up.
const BUDGET: u64 = 20_000;

/// (key seed, table bytes): from one bucket to megabytes, each with its own seed.
const TABLES: [(u64, u64); 4] = [
    (1, BUCKET_BYTES),
    (2, 4 * BUCKET_BYTES),
    (3, 64 << 10),
    (4, 4 << 20),
];

struct Each {
    rows: Vec<(Position, u32)>,
    checked: usize,
}

impl EachGenerator for Each {
    fn visit<G: MoveGen + 'static>(&mut self, g: &G) {
        for (seed, bytes) in TABLES {
            let keys = Keys::new(seed);
            let table = Table::new(HashSize(bytes)).unwrap();
            let h = Hashing {
                keys: &keys,
                table: &table,
            };
            for (pos, depth) in &self.rows {
                let mut b = g.load(pos);
                let plain = perft_plain(g, &mut b, *depth);
                let key = keys.of_board(g, &b);
                let (hashed, slip) = perft_hashed_checked(g, &mut b, key, *depth, h);
                let what = format!(
                    "{} {} D{depth} seed {seed}, {bytes} bytes",
                    g.name(),
                    pos.fen()
                );
                assert_eq!(hashed, plain, "{what}");
                assert_eq!(slip, None, "{what}");
                self.checked += 1;
            }
        }
    }
}

#[test]
fn hashed_perft_counts_what_plain_perft_counts_at_every_table_size_and_seed() {
    let suite = xqdiff::epd::parse_suite(xqdiff::epd::REFERENCE_SUITE).unwrap();
    let rows: Vec<(Position, u32)> = suite
        .iter()
        .flat_map(|e| {
            e.counts
                .iter()
                .filter(|&&(d, n)| d >= 2 && n <= BUDGET)
                .map(|&(d, _)| (e.position.clone(), d))
        })
        .collect();
    let mut each = Each { rows, checked: 0 };
    for_each(&mut each);
    // Nothing checked would pass too: at least a few rows per generator and table.
    assert!(
        each.checked >= 3 * TABLES.len() * 10,
        "only {} counts",
        each.checked
    );
}
