//! Byte 0 picks a start (the start position or a reference-suite position), the rest
//! pick moves; every position of the walk goes through the oracle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xqdiff::generators::registry;
use xqdiff::diff::oracle::{check_position, consensus_steps};
use xqdiff::cases::playout;
use xqdiff::cases::structured::playout_start;

fuzz_target!(|data: &[u8]| {
    let Some((&first, moves)) = data.split_first() else {
        return;
    };
    let engines = registry();
    // The walk follows moves every generator agrees on; the oracle holds them all to
    // each position on it.
    for pos in playout::from_bytes(playout_start(first), consensus_steps(&engines), moves) {
        if let Some(d) = check_position(&pos, &engines).first() {
            panic!("{d}");
        }
    }
});
