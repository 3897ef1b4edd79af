//! Host-engine tests run without a device (each file sets `MATFUSE_DEVICE=cpu` for the whole
//! process before its first session), in one binary: see `tests/suite/main.rs` for why.

#[path = "../common/mod.rs"]
mod common;

mod host_fast_paths;
mod host_linear_reads;
mod host_round4;
mod host_round5;
mod host_round6;
mod host_round7;
mod host_round8;
mod host_round9;
mod host_typed;
