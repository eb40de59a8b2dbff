//! The HTTP API's and the account forms' bodies, read and checked as their handlers do.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    rookery_server::fuzzing::api_body(data);
});
