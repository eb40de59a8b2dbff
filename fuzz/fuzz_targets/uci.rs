//! UCI: any text reads as a move or is refused; a move that reads is legal here or refused
//! with a reason, and a legal one writes the same UCI back.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "positions.rs"]
mod positions;

fuzz_target!(|data: &[u8]| {
    let Some((position, rest)) = positions::pick(data) else {
        return;
    };
    let Ok(uci) = rookery_core::UciMove::from_ascii(rest) else {
        return;
    };
    if let Ok(m) = uci.to_move(&position) {
        assert!(position.is_legal(m));
        let written = m.to_uci().to_string();
        let again = rookery_core::UciMove::from_ascii(written.as_bytes()).expect("reads back");
        assert_eq!(again.to_move(&position).ok(), Some(m));
    }
});
