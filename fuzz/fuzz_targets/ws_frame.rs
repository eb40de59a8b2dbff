//! The game socket's client frames: any text is a request or a refusal, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    rookery_server::fuzzing::client_frame(data);
});
