//! FEN: any text is read or refused with a reason; a position read writes a FEN that reads
//! back as the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(position) = rookery_core::Position::from_fen(text) {
        let fen = position.fen();
        let again = rookery_core::Position::from_fen(&fen).expect("our own FEN reads back");
        assert_eq!(again.fen(), fen);
        let _ = position.legal_moves();
    }
});
