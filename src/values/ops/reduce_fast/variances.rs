//! Unweighted variances of every lane of real data: the mean, then the sum of squared
//! deviations, each added as the sums add.

use super::sums::contiguous_sum;
use super::{Lanes, PAR_MIN, ROWS_PER_LOOK, SEQUENTIAL, in_stretches};
use crate::interp::interrupt::Watch;
use crate::values::ops::kernels::BLOCK;
use crate::values::tensor::{Data, Elem};
use rayon::prelude::*;

/// Unweighted variances of contiguous lanes (`inner` 1) of real data, NaN flags not asked
/// for: the mean, then the sum of squared deviations, each added as `sums` adds (in order for
/// short lanes, by blocks for long ones); a lane with a NaN or an infinity gives NaN. None for
/// strided lanes and complex data.
pub fn variances(data: &Data, lanes: Lanes, unbiased: bool) -> Option<Vec<f64>> {
    if lanes.0 != 1 {
        return Some(real_data!(data, v => strided_variances(v, lanes, unbiased)));
    }
    Some(real_data!(data, v => lane_variances(v, lanes, unbiased)))
}

/// Variances of lanes along a later dimension (`var(A, 0, 2)`): a row of `inner` sums, then
/// a row of squared deviations, each lane added strictly in order from +0 as the general
/// (complex) path adds it, so the results are its bits; a lane with a NaN or an infinity
/// gives NaN.
fn strided_variances<T: Elem + Sync>(
    x: &[T],
    (inner, len, outer): Lanes,
    unbiased: bool,
) -> Vec<f64> {
    let mut out = vec![f64::NAN; inner * outer];
    if len == 0 {
        return out;
    }
    for (o, ss) in out.chunks_mut(inner.max(1)).enumerate().take(outer) {
        let block = &x[o * inner * len..(o + 1) * inner * len];
        // the lanes split across the cores in stretches (`var(A, 0, 2)` of a 1000x1000
        // single ran on one thread: 2x NumPy's time); each lane's additions as before
        in_stretches(ss, inner * len, |a, ss, watch| {
            strided_variances_wide(block, inner, a, ss, unbiased, watch)
        });
    }
    out
}

/// The variances of lanes `a..a + ss.len()` of the rows of `inner` elements in `block`.
#[inline(always)]
fn strided_variance_stretch<T: Elem>(
    block: &[T],
    inner: usize,
    a: usize,
    ss: &mut [f64],
    unbiased: bool,
    watch: &Watch,
) {
    let w = ss.len();
    let len = block.len() / inner;
    let n = len as f64;
    let mut sums = vec![0.0f64; w];
    let mut bad = vec![false; w];
    for (k, row) in block.chunks_exact(inner).enumerate() {
        if k % ROWS_PER_LOOK == 0 {
            watch.check();
        }
        for ((s, b), &v) in sums.iter_mut().zip(bad.iter_mut()).zip(&row[a..a + w]) {
            let v = v.to_f64();
            *s += v;
            *b |= !v.is_finite();
        }
    }
    for s in sums.iter_mut() {
        *s /= n;
    }
    ss.fill(0.0);
    for (k, row) in block.chunks_exact(inner).enumerate() {
        if k % ROWS_PER_LOOK == 0 {
            watch.check();
        }
        for ((q, &m), &v) in ss.iter_mut().zip(&sums).zip(&row[a..a + w]) {
            let d = v.to_f64() - m;
            *q += d * d;
        }
    }
    for (q, &b) in ss.iter_mut().zip(&bad) {
        *q = if b {
            f64::NAN
        } else if unbiased {
            if len > 1 { *q / (n - 1.0) } else { 0.0 }
        } else {
            *q / n
        };
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn strided_variances_avx512<T: Elem>(
    block: &[T],
    inner: usize,
    a: usize,
    ss: &mut [f64],
    unbiased: bool,
    watch: &Watch,
) {
    strided_variance_stretch(block, inner, a, ss, unbiased, watch)
}

fn strided_variances_wide<T: Elem>(
    block: &[T],
    inner: usize,
    a: usize,
    ss: &mut [f64],
    unbiased: bool,
    watch: &Watch,
) {
    #[cfg(target_arch = "x86_64")]
    if crate::plan::cpu::vmath::has_avx512() {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { strided_variances_avx512(block, inner, a, ss, unbiased, watch) };
    }
    strided_variance_stretch(block, inner, a, ss, unbiased, watch)
}

fn lane_variances<T: Elem + Sync>(x: &[T], (_, len, outer): Lanes, unbiased: bool) -> Vec<f64> {
    (0..outer)
        .map(|o| {
            crate::interp::interrupt::poll_now();
            let l = &x[o * len..(o + 1) * len];
            if l.is_empty() {
                return f64::NAN;
            }
            // a NaN or an infinity among the elements makes the sum NaN or infinite (IEEE
            // sums never leave those), so the sum's test covers the elements' (a separate
            // scan of them, on one thread, was up to half of `std(x)` of 1e6 singles)
            let s = contiguous_sum(l, false);
            if !s.is_finite() {
                return f64::NAN;
            }
            let n = len as f64;
            let mean = s / n;
            let dev = |c: &[T]| {
                c.iter()
                    .map(|v| (v.to_f64() - mean).powi(2))
                    .fold(0.0, |a, b| a + b)
            };
            let ss = if len < SEQUENTIAL {
                dev(l)
            } else if len >= PAR_MIN {
                let parts: Vec<f64> = l
                    .par_chunks(BLOCK)
                    .map(|c| block_squares_wide(c, mean))
                    .collect();
                parts.into_iter().fold(0.0, |a, b| a + b)
            } else {
                l.chunks(BLOCK)
                    .map(|c| block_squares_wide(c, mean))
                    .fold(0.0, |a, b| a + b)
            };
            if unbiased {
                if len > 1 { ss / (n - 1.0) } else { 0.0 }
            } else {
                ss / n
            }
        })
        .collect()
}

/// `block_squares` in the widest vectors the processor has, as `block_sum_wide`.
fn block_squares_wide<T: Elem>(c: &[T], mean: f64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if crate::plan::cpu::vmath::has_avx512() {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { block_squares_avx512(c, mean) };
    }
    block_squares(c, mean)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn block_squares_avx512<T: Elem>(c: &[T], mean: f64) -> f64 {
    block_squares(c, mean)
}

#[inline(always)]
fn block_squares<T: Elem>(c: &[T], mean: f64) -> f64 {
    let mut acc = [0.0f64; 8];
    let mut it = c.chunks_exact(8);
    for ch in &mut it {
        for j in 0..8 {
            let d = ch[j].to_f64() - mean;
            acc[j] += d * d;
        }
    }
    for v in it.remainder() {
        let d = v.to_f64() - mean;
        acc[0] += d * d;
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}
