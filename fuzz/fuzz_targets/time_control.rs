//! Time controls: any text in the friendly or the PGN syntax is read or refused; what is
//! read writes both syntaxes back to the same control (one syntax's form of a control read
//! in the other may grow past the 64 characters a control may have: then it is refused for
//! its length and nothing else).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rookery_core::clock::TimeControl;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for control in [
        TimeControl::from_friendly(text),
        TimeControl::from_pgn(text),
    ]
    .into_iter()
    .flatten()
    {
        let pgn = control.to_pgn();
        let friendly = control.to_friendly();
        for (written, again) in [
            (&pgn, TimeControl::from_pgn(&pgn)),
            (&friendly, TimeControl::from_friendly(&friendly)),
        ] {
            match again {
                Ok(again) => assert_eq!(again, control, "{written}"),
                Err(e) => assert!(written.len() > 64, "{written}: {e}"),
            }
        }
        let _ = control.estimated_duration();
    }
});
