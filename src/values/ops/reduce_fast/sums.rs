//! sum and mean of every lane: short lanes in order, side by side; long ones by fixed
//! blocks; lanes along later dimensions a stretch of accumulators at a time.

use super::{Lanes, PAR_MIN, ROWS_PER_LOOK, SEQUENTIAL, in_stretches};
use crate::values::ops::kernels::BLOCK;
use crate::values::tensor::{Data, Elem};
use rayon::prelude::*;

/// Short lanes summed side by side.
const LANES: usize = 8;

/// sum or mean of every lane (sum: `mean` false), in lane order.
pub fn sums(data: &Data, lanes: Lanes, omitnan: bool, mean: bool) -> Option<Vec<f64>> {
    Some(real_data!(data, v => lane_sums(v, lanes, omitnan, mean)))
}

fn lane_sums<T: Elem + Sync>(x: &[T], lanes: Lanes, omitnan: bool, mean: bool) -> Vec<f64> {
    let (inner, len, outer) = lanes;
    let finish = |s: f64, nans: usize| {
        if mean { s / (len - nans) as f64 } else { s }
    };
    if inner == 1 {
        let lane = |o: usize| {
            let l = &x[o * len..(o + 1) * len];
            let nans = if omitnan && mean {
                l.iter().filter(|v| v.to_f64().is_nan()).count()
            } else {
                0
            };
            finish(contiguous_sum(l, omitnan), nans)
        };
        if !omitnan && len < SEQUENTIAL && outer >= LANES {
            // short lanes summed in order, LANES of them side by side: independent chains
            // of additions instead of one chain waiting on each (`sum(A, 1)` of a
            // 1000x1000 single was ten times NumPy's time); the same sums
            let groups = |g: usize| -> [f64; LANES] {
                let base = g * LANES * len;
                let acc = x
                    .get(base..base + LANES * len)
                    .map_or([0.0; LANES], |b| side_by_side_sums_wide(b, len));
                acc.map(|s| finish(s, 0))
            };
            let full = outer / LANES;
            let mut out: Vec<f64> = if full * LANES * len >= PAR_MIN {
                (0..full).into_par_iter().flat_map_iter(groups).collect()
            } else {
                (0..full).flat_map(groups).collect()
            };
            out.extend((full * LANES..outer).map(lane));
            return out;
        }
        if outer > 1 && outer * len >= PAR_MIN && len < PAR_MIN {
            return (0..outer).into_par_iter().map(lane).collect();
        }
        return (0..outer).map(lane).collect();
    }
    // lanes along a later dimension: a row of `inner` accumulators, each lane in order
    let mut out = vec![0.0; inner * outer];
    if !(omitnan && mean) {
        // the lanes split across the cores in stretches, each reading its part of every row
        // (`mean(A, 2)` of a 1000x1000 single ran on one thread: 2x NumPy's time); the same
        // additions in the same order
        for (o, acc) in out.chunks_mut(inner.max(1)).enumerate().take(outer) {
            let block = &x[o * inner * len..(o + 1) * inner * len];
            in_stretches(acc, inner * len, |a, acc, watch| {
                for rows in block.chunks(inner * ROWS_PER_LOOK) {
                    watch.check();
                    strided_sums_wide(rows, inner, a, acc, omitnan);
                }
            });
        }
        if mean {
            for s in out.iter_mut() {
                *s = finish(*s, 0);
            }
        }
        return out;
    }
    let mut nans = vec![0usize; inner * outer];
    for o in 0..outer {
        let acc = &mut out[o * inner..(o + 1) * inner];
        for k in 0..len {
            let row = &x[o * inner * len + k * inner..][..inner];
            for (a, &v) in acc.iter_mut().zip(row) {
                let v = v.to_f64();
                *a += if v.is_nan() { 0.0 } else { v };
            }
            for (c, &v) in nans[o * inner..(o + 1) * inner].iter_mut().zip(row) {
                *c += v.to_f64().is_nan() as usize;
            }
        }
    }
    for (i, s) in out.iter_mut().enumerate() {
        *s = finish(*s, nans.get(i).copied().unwrap_or(0));
    }
    out
}

/// Lanes a stretch of `strided_sums` keeps in registers down the rows (four AVX-512
/// vectors of doubles).
const STRETCH: usize = 32;

/// The lanes `a..a + acc.len()` of rows of `inner` elements in `block`, each added to its
/// accumulator row by row (NaN as 0 when `omitnan`). A stretch of `STRETCH` lanes is summed
/// in registers down all the rows, then stored: the row-at-a-time form loaded and stored
/// every accumulator for every row (`mean(A, 2)` of a 1000x1000 single 1.2-1.5x NumPy's
/// time). Each lane still adds its elements in row order, so the sums are the same bits.
#[inline(always)]
fn strided_sums<T: Elem>(block: &[T], inner: usize, a: usize, acc: &mut [f64], omitnan: bool) {
    let add = |s: &mut f64, v: T| {
        let v = v.to_f64();
        *s += if omitnan && v.is_nan() { 0.0 } else { v };
    };
    let mut stretches = acc.chunks_exact_mut(STRETCH);
    let mut at = a;
    for stretch in &mut stretches {
        let mut r = [0.0f64; STRETCH];
        r.copy_from_slice(stretch);
        for row in block.chunks_exact(inner) {
            let piece = row
                .get(at..at + STRETCH)
                .and_then(|p| <&[T; STRETCH]>::try_from(p).ok());
            if let Some(piece) = piece {
                for (s, &v) in r.iter_mut().zip(piece) {
                    add(s, v);
                }
            }
        }
        stretch.copy_from_slice(&r);
        at += STRETCH;
    }
    let rest = stretches.into_remainder();
    if rest.is_empty() {
        return;
    }
    for row in block.chunks_exact(inner) {
        if let Some(piece) = row.get(at..at + rest.len()) {
            for (s, &v) in rest.iter_mut().zip(piece) {
                add(s, v);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn strided_sums_avx512<T: Elem>(
    block: &[T],
    inner: usize,
    a: usize,
    acc: &mut [f64],
    omitnan: bool,
) {
    strided_sums(block, inner, a, acc, omitnan)
}

/// `strided_sums` in the widest vectors the processor has (the build's baseline, SSE2,
/// widens two singles at a time).
fn strided_sums_wide<T: Elem>(block: &[T], inner: usize, a: usize, acc: &mut [f64], omitnan: bool) {
    #[cfg(target_arch = "x86_64")]
    if crate::plan::cpu::vmath::has_avx512() {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { strided_sums_avx512(block, inner, a, acc, omitnan) };
    }
    strided_sums(block, inner, a, acc, omitnan)
}

/// The in-order sums of the `LANES` consecutive lanes of `len` elements in `x`: eight
/// elements of each lane read as one contiguous piece, turned on their side in a small
/// table, then added a row (one element of every lane) at a time, so the additions are
/// vector adds of all lanes and each lane still adds its elements in order from +0 (the
/// element-by-element form read one element of each lane at a time: 2.5x NumPy's time for
/// `sum(A, 1)` of a 1000x1000 single).
#[inline(always)]
fn side_by_side_sums<T: Elem>(x: &[T], len: usize) -> [f64; LANES] {
    const K: usize = 8;
    let mut acc = [0.0f64; LANES];
    let lanes: [&[T]; LANES] =
        std::array::from_fn(|j| x.get(j * len..(j + 1) * len).unwrap_or(&[]));
    if lanes.iter().any(|l| l.len() != len) {
        return acc;
    }
    let mut k = 0;
    while k + K <= len {
        let mut t = [[0.0f64; LANES]; K];
        for (j, l) in lanes.iter().enumerate() {
            if let Some(piece) = l.get(k..k + K) {
                for (q, v) in piece.iter().enumerate() {
                    t[q][j] = v.to_f64();
                }
            }
        }
        for row in &t {
            for (a, &v) in acc.iter_mut().zip(row) {
                *a += v;
            }
        }
        k += K;
    }
    for k in k..len {
        for (a, l) in acc.iter_mut().zip(&lanes) {
            *a += l.get(k).map_or(0.0, |v| v.to_f64());
        }
    }
    acc
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn side_by_side_sums_avx512<T: Elem>(x: &[T], len: usize) -> [f64; LANES] {
    side_by_side_sums(x, len)
}

fn side_by_side_sums_wide<T: Elem>(x: &[T], len: usize) -> [f64; LANES] {
    #[cfg(target_arch = "x86_64")]
    if crate::plan::cpu::vmath::has_avx512() {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { side_by_side_sums_avx512(x, len) };
    }
    side_by_side_sums(x, len)
}

/// The sum of one contiguous lane.
pub(super) fn contiguous_sum<T: Elem + Sync>(x: &[T], omitnan: bool) -> f64 {
    if x.len() < SEQUENTIAL {
        // fold from +0.0: an empty sum is 0, not -0
        return x
            .iter()
            .map(|v| v.to_f64())
            .filter(|v| !(omitnan && v.is_nan()))
            .fold(0.0, |a, b| a + b);
    }
    let block = |c: &[T]| {
        if omitnan {
            block_sum_wide::<T, true>(c)
        } else {
            block_sum_wide::<T, false>(c)
        }
    };
    if x.len() >= PAR_MIN {
        let parts: Vec<f64> = x.par_chunks(BLOCK).map(block).collect();
        parts.into_iter().fold(0.0, |a, b| a + b)
    } else {
        x.chunks(BLOCK).map(block).fold(0.0, |a, b| a + b)
    }
}

/// `block_sum` in the widest vectors the processor has (the build's baseline is SSE2: two
/// doubles a vector, and singles widened two at a time); the same additions in the same
/// order, so the same bits.
fn block_sum_wide<T: Elem, const OMIT: bool>(c: &[T]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if crate::plan::cpu::vmath::has_avx512() {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { block_sum_avx512::<T, OMIT>(c) };
    }
    block_sum::<T, OMIT>(c)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn block_sum_avx512<T: Elem, const OMIT: bool>(c: &[T]) -> f64 {
    block_sum::<T, OMIT>(c)
}

#[inline(always)]
pub(crate) fn block_sum<T: Elem, const OMIT: bool>(c: &[T]) -> f64 {
    let mut acc = [0.0f64; 8];
    let mut it = c.chunks_exact(8);
    for ch in &mut it {
        for j in 0..8 {
            let v = ch[j].to_f64();
            acc[j] += if OMIT && v.is_nan() { 0.0 } else { v };
        }
    }
    for v in it.remainder() {
        let v = v.to_f64();
        acc[0] += if OMIT && v.is_nan() { 0.0 } else { v };
    }
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}
