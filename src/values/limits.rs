//! The maximum array size: requests larger than the machine's memory (or
//! `MATFUSE_MAX_ARRAY_BYTES`) are refused with MATLAB's error instead of failing to allocate.

use crate::interp::error::MError;
use std::sync::OnceLock;

static MAX: OnceLock<u128> = OnceLock::new();

/// Sets the bytes one array may occupy for this process, if nothing has asked yet (the fuzzer
/// keeps random programs to small arrays this way); returns whether it took effect.
pub fn set_max_bytes(bytes: u128) -> bool {
    MAX.set(bytes).is_ok() || max_bytes() == bytes
}

/// Bytes one array may occupy.
pub fn max_bytes() -> u128 {
    *MAX.get_or_init(|| {
        if let Some(v) = std::env::var("MATFUSE_MAX_ARRAY_BYTES")
            .ok()
            .and_then(|s| s.parse::<u128>().ok())
        {
            return v;
        }
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemTotal:"))
                    .and_then(|l| l.split_whitespace().nth(1))
                    .and_then(|kb| kb.parse::<u128>().ok())
                    .map(|kb| kb * 1024)
            })
            .unwrap_or(16u128 << 30)
    })
}

fn gb(b: u128) -> String {
    format!("{:.1}GB", b as f64 / (1u64 << 30) as f64)
}

/// Checks that an array of these dimensions and element size may be created.
pub fn check_dims(dims: &[usize], elem_bytes: usize) -> Result<(), MError> {
    let mut n: u128 = 1;
    for &d in dims {
        n = n.saturating_mul(d as u128);
    }
    let bytes = n.saturating_mul(elem_bytes as u128);
    let max = max_bytes();
    if bytes > max || n > usize::MAX as u128 / 16 {
        let text = dims
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x");
        return Err(MError::new(
            "MATLAB:array:SizeLimitExceeded",
            format!(
                "Requested {text} ({}) array exceeds maximum array size preference ({}). This might cause matfuse to become unresponsive.",
                gb(bytes),
                gb(max)
            ),
        ));
    }
    if !can_allocate(bytes) {
        return Err(out_of_memory(dims, bytes));
    }
    Ok(())
}

/// Requests below this many bytes are not probed (the allocator failing on them would mean
/// the process is already lost).
const PROBE_BYTES: u128 = 16 << 20;

/// Whether the allocator can give `bytes` now: a fallible reservation, released at once.
/// Below the size cap the machine may still refuse (a memory limit on the process, other
/// arrays already held); refusing then is MATLAB's out-of-memory error where an infallible
/// allocation would abort the process and lose the workspace.
pub fn can_allocate(bytes: u128) -> bool {
    if bytes < PROBE_BYTES {
        return true;
    }
    let Ok(n) = usize::try_from(bytes) else {
        return false;
    };
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(n).is_ok()
}

/// MATLAB's out-of-memory error for an array of `dims` (`bytes` in all).
pub fn out_of_memory(dims: &[usize], bytes: u128) -> MError {
    let text = dims
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x");
    MError::new(
        "MATLAB:nomem",
        format!(
            "Out of memory. Requested {text} ({}) array could not be allocated.",
            gb(bytes)
        ),
    )
}

/// Checks a `rows`-by-`cols` array whose row count is known only as a float (it may be past
/// any usize: nchoosek's combinations).
pub fn check_rows_f64(rows: f64, cols: usize, elem_bytes: usize) -> Result<(), MError> {
    let rows = if rows.is_finite() && rows >= 0.0 {
        rows.min(u64::MAX as f64) as u64
    } else {
        u64::MAX
    };
    check_dims(
        &[usize::try_from(rows).unwrap_or(usize::MAX), cols],
        elem_bytes,
    )
}

/// Out of memory (not the size cap, which the caller checked with the array's own element
/// size) when the working storage of `bytes_per` bytes an element cannot be had now.
pub fn check_work(dims: &[usize], bytes_per: usize) -> Result<(), MError> {
    let n = dims.iter().fold(1u128, |n, &d| n.saturating_mul(d as u128));
    let bytes = n.saturating_mul(bytes_per as u128);
    if can_allocate(bytes) {
        Ok(())
    } else {
        Err(out_of_memory(dims, bytes))
    }
}

/// Checks an element count.
pub fn check_count(n: usize, elem_bytes: usize) -> Result<(), MError> {
    check_dims(&[1, n], elem_bytes)
}
