//! SAN: any text in any of the positions is a legal move or refused; a legal move's SAN reads
//! back as that move.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "positions.rs"]
mod positions;

fuzz_target!(|data: &[u8]| {
    let Some((position, rest)) = positions::pick(data) else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(m) = position.parse_san(text) {
        assert!(position.is_legal(m), "{text:?} read as an illegal move");
        let san = position.san(m);
        assert_eq!(position.parse_san(&san), Ok(m), "{san}");
    }
});
