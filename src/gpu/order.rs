//! Which end a large kernel starts from. A kernel that streams an array through the device
//! leaves its last blocks in the L2 cache; one that follows it over the same array (the
//! normalisation after the mean and standard deviation of workload 6) finds them there if
//! it starts from that end. So, within a sink's work, a large elementwise kernel recorded
//! after a large kernel that ran forward runs reversed (its workgroups take their blocks
//! from the end first), and the next runs forward again. Reductions always run forward. The
//! order starts afresh at each read-back, so repeating a statement gains nothing from the
//! last repetition's cache. Measured on the H100 with workload 6: GPU time 0.1736 -> 0.1680
//! ms, results identical.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Kernels that move fewer bytes than this neither turn nor count (their arrays fit the L2
/// cache in any order, and a second compiled form would not pay).
const LARGE: u64 = 16 << 20;

const NONE: u8 = 0;
const FORWARD: u8 = 1;
const REVERSED: u8 = 2;

/// How the last large kernel since the last read-back ran.
static LAST: AtomicU8 = AtomicU8::new(NONE);

/// Large kernels run reversed so far (tests check when kernels turn).
static REVERSED_RUNS: AtomicU64 = AtomicU64::new(0);

/// Large kernels run reversed so far.
pub fn reversed_runs() -> u64 {
    REVERSED_RUNS.load(Ordering::SeqCst)
}

/// Whether a kernel writing `bytes` should run reversed.
pub fn reverse(bytes: u64) -> bool {
    bytes >= LARGE && LAST.load(Ordering::Relaxed) == FORWARD
}

/// Notes that a kernel writing or reading `bytes` ran (`reversed` or forward).
pub fn ran(bytes: u64, reversed: bool) {
    if bytes >= LARGE {
        if reversed {
            REVERSED_RUNS.fetch_add(1, Ordering::SeqCst);
        }
        LAST.store(if reversed { REVERSED } else { FORWARD }, Ordering::Relaxed);
    }
}

/// A read-back: the next large kernel runs forward.
pub fn restart() {
    LAST.store(NONE, Ordering::Relaxed);
}
