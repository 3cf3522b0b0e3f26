//! Any text into the FEN reader: an error or a position, never a panic; what is
//! accepted prints, reads back as the same position, and prints the same again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xqdiff::Position;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };
    let printed = pos.fen();
    let again = Position::from_fen(&printed)
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which fails: {e}"));
    assert_eq!(again, pos, "{text:?} printed as {printed:?}");
    assert_eq!(again.fen(), printed, "{printed:?} is not a fixed point");
});
