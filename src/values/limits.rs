//! The maximum array size: requests larger than the machine's memory (or
//! `MATFUSE_MAX_ARRAY_BYTES`) are refused with MATLAB's error instead of failing to allocate.

use crate::interp::error::MError;
use std::sync::OnceLock;

/// Bytes one array may occupy.
pub fn max_bytes() -> u128 {
    static MAX: OnceLock<u128> = OnceLock::new();
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
    Ok(())
}

/// Checks an element count.
pub fn check_count(n: usize, elem_bytes: usize) -> Result<(), MError> {
    check_dims(&[1, n], elem_bytes)
}
