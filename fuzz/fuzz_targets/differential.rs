//! Any bytes -> a valid position -> every check of the oracle on every generator.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xqdiff::generators::registry;
use xqdiff::diff::oracle::check_position;
use xqdiff::cases::structured::ArbitraryPosition;

fuzz_target!(|input: ArbitraryPosition| {
    let engines = registry();
    if let Some(d) = check_position(&input.0, &engines).first() {
        panic!("{d}");
    }
});
