//! Benchmarks only; see `benches/movegen.rs`. This library is empty on purpose: the crate
//! exists so that the reference libraries stay dev-dependencies of a crate that ships nothing.
