//! Host-engine tests run without a device (each file sets `MATFUSE_DEVICE=cpu` for the whole
//! process before its first session), in one binary: see `tests/suite/main.rs` for why.

#[path = "../common/mod.rs"]
mod common;

mod host_fast_paths;
mod host_gather_lift;
mod host_linear_reads;
mod host_round4;
mod host_round5;
mod host_round6;
mod host_round7;
mod host_round8;
mod host_round9;
mod host_typed;

/// Runs the host engine alone: `MATFUSE_DEVICE=cpu` for the whole process, set before any
/// session starts.
fn host_only() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // SAFETY: set once, before any session of this binary starts a thread that reads them.
    ONCE.call_once(|| unsafe {
        std::env::set_var("MATFUSE_DEVICE", "cpu");
    });
}

/// Runs `code`, which prints one line per case, "name 1" when it holds; fails with the cases
/// that do not, or when there are not `count` lines.
fn all_hold(code: &str, count: usize) {
    let text = common::out(code);
    let bad: Vec<&str> = text.lines().filter(|l| !l.ends_with(" 1")).collect();
    assert!(bad.is_empty(), "cases differ: {bad:?}\n{text}");
    assert_eq!(text.lines().count(), count, "{text}");
}
