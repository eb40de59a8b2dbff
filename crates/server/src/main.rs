//! `rookery`: the Rookery chess server and its command line (the library's `main`).

use std::process::ExitCode;

/// Many small short-lived allocations on several threads (frames, JSON, channel messages):
/// mimalloc spends about half what the system allocator did on them (docs/benchmarks-log.md, "What the profile showed").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    rookery_server::main()
}
