//! Counters behind `gpuStats`: kernels launched, fused operations, pipeline cache hits and
//! misses, bytes moved each way, GPU time, for the last statement and the whole session.

use std::cell::RefCell;

#[derive(Clone, Copy, Default, Debug)]
pub struct Counters {
    pub kernels: u64,
    pub fused_ops: u64,
    pub cache_hits: u64,
    pub cache_misses: u64,
    pub bytes_up: u64,
    pub bytes_down: u64,
    /// Kernels the device refused, computed on the host instead.
    pub fallbacks: u64,
    /// Seconds the device spent running kernels (from timestamp queries, where it has them).
    pub gpu_seconds: f64,
}

impl Counters {
    fn add(&mut self, o: &Counters) {
        self.kernels += o.kernels;
        self.fused_ops += o.fused_ops;
        self.cache_hits += o.cache_hits;
        self.cache_misses += o.cache_misses;
        self.bytes_up += o.bytes_up;
        self.bytes_down += o.bytes_down;
        self.fallbacks += o.fallbacks;
        self.gpu_seconds += o.gpu_seconds;
    }
}

const ZERO: Counters = Counters {
    kernels: 0,
    fused_ops: 0,
    cache_hits: 0,
    cache_misses: 0,
    bytes_up: 0,
    bytes_down: 0,
    fallbacks: 0,
    gpu_seconds: 0.0,
};

thread_local! {
    /// (the running input, the previous input, the session before the running input), per
    /// interpreter thread.
    static STATS: RefCell<(Counters, Counters, Counters)> = const { RefCell::new((ZERO, ZERO, ZERO)) };
}

fn with(f: impl FnOnce(&mut Counters)) {
    STATS.with(|s| f(&mut s.borrow_mut().0));
}

pub fn add_kernel(fused_ops: usize, cache_hit: bool) {
    with(|c| {
        c.kernels += 1;
        c.fused_ops += fused_ops as u64;
        if cache_hit {
            c.cache_hits += 1;
        } else {
            c.cache_misses += 1;
        }
    });
}

pub fn add_fallback() {
    with(|c| c.fallbacks += 1);
}

pub fn add_upload(bytes: u64) {
    with(|c| c.bytes_up += bytes);
}

pub fn add_download(bytes: u64) {
    with(|c| c.bytes_down += bytes);
}

pub fn add_gpu_time(seconds: f64) {
    with(|c| c.gpu_seconds += seconds);
}

/// A new input starts (a prompt entry or a script): the running counters become "the last
/// input" and join the session's.
pub fn next_input() {
    // The finished input's kernel times belong to it.
    super::timing::collect();
    STATS.with(|s| {
        let mut s = s.borrow_mut();
        let running = s.0;
        s.1 = running;
        s.2.add(&running);
        s.0 = ZERO;
    });
}

/// (the previous input, the running input, the whole session)
pub fn snapshot() -> (Counters, Counters, Counters) {
    STATS.with(|s| {
        let s = s.borrow();
        let mut total = s.2;
        total.add(&s.0);
        (s.1, s.0, total)
    })
}

pub fn reset() {
    // Kernels already run are counted before the reset, not after it.
    super::timing::collect();
    STATS.with(|s| *s.borrow_mut() = (ZERO, ZERO, ZERO));
}
