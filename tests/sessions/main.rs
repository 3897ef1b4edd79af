//! Tests that drive whole `matfuse` processes (terminals, Ctrl-C, faults, exits), in one
//! binary: see `tests/suite/main.rs` for why.

#[path = "../common/mod.rs"]
mod common;

mod robust_device;
mod robust_device_interrupt;
mod robust_interrupt;
mod robust_terminal;
mod session_survives;
mod terminal;
