//! max and min positions along every lane: the first extreme element, NaN by MATLAB's
//! flags, as the general path finds it.

use super::{Lanes, PAR_MIN};
use crate::values::ops::kernels::BLOCK;
use crate::values::tensor::{Data, Elem};
use rayon::prelude::*;

/// The position along each lane of its first largest (smallest) element: with `omitnan`
/// false the first NaN wins; a lane of NaN gives its first.
pub fn extreme_positions(
    data: &Data,
    lanes: Lanes,
    is_max: bool,
    omitnan: bool,
) -> Option<Vec<usize>> {
    Some(real_data!(data, v => lane_extremes(v, lanes, is_max, omitnan)))
}

fn lane_extremes<T: Elem + Sync>(x: &[T], lanes: Lanes, is_max: bool, omitnan: bool) -> Vec<usize> {
    let (inner, len, outer) = lanes;
    if inner == 1 {
        let lane = |o: usize| {
            let l = &x[o * len..(o + 1) * len];
            if is_max {
                contiguous_extreme::<T, true>(l, omitnan)
            } else {
                contiguous_extreme::<T, false>(l, omitnan)
            }
        };
        // many short lanes (`min(A, [], 1)` of a 1000x1000 matrix): lanes across the cores
        // (long ones are split inside `contiguous_extreme`)
        if outer > 1 && x.len() >= PAR_MIN && len < PAR_MIN {
            return (0..outer).into_par_iter().map(lane).collect();
        }
        return (0..outer).map(lane).collect();
    }
    let typed = if is_max {
        crate::values::ops::extreme_fast::strided_extremes::<T, true>(x, lanes, omitnan)
    } else {
        crate::values::ops::extreme_fast::strided_extremes::<T, false>(x, lanes, omitnan)
    };
    if let Some(k) = typed {
        return k;
    }
    const NONE: usize = usize::MAX;
    let mut out = Vec::with_capacity(inner * outer);
    let mut best = vec![0.0f64; inner];
    let mut best_k = vec![NONE; inner];
    let mut nan_k = vec![NONE; inner];
    for o in 0..outer {
        best_k.fill(NONE);
        nan_k.fill(NONE);
        for k in 0..len {
            let row = &x[o * inner * len + k * inner..][..inner];
            if is_max {
                row_extremes_wide::<T, true>(row, k, &mut best, &mut best_k, &mut nan_k);
            } else {
                row_extremes_wide::<T, false>(row, k, &mut best, &mut best_k, &mut nan_k);
            }
        }
        for i in 0..inner {
            let k = if (!omitnan && nan_k[i] != NONE) || best_k[i] == NONE {
                nan_k[i]
            } else {
                best_k[i]
            };
            out.push(if k == NONE { 0 } else { k });
        }
    }
    out
}

/// One row of lanes along a later dimension into their running extremes: selects, not
/// branches, so the compiler vectorises it (the first extreme and the first NaN are kept,
/// as before).
#[inline(always)]
fn row_extremes<T: Elem, const MAX: bool>(
    row: &[T],
    k: usize,
    best: &mut [f64],
    best_k: &mut [usize],
    nan_k: &mut [usize],
) {
    const NONE: usize = usize::MAX;
    for (((&v, b), bk), nk) in row.iter().zip(best).zip(best_k).zip(nan_k) {
        let v = v.to_f64();
        let nan = v != v;
        let better = if MAX { v > *b } else { v < *b };
        let take = !nan & ((*bk == NONE) | better);
        *b = if take { v } else { *b };
        *bk = if take { k } else { *bk };
        *nk = if nan & (*nk == NONE) { k } else { *nk };
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn row_extremes_avx512<T: Elem, const MAX: bool>(
    row: &[T],
    k: usize,
    best: &mut [f64],
    best_k: &mut [usize],
    nan_k: &mut [usize],
) {
    row_extremes::<T, MAX>(row, k, best, best_k, nan_k)
}

fn row_extremes_wide<T: Elem, const MAX: bool>(
    row: &[T],
    k: usize,
    best: &mut [f64],
    best_k: &mut [usize],
    nan_k: &mut [usize],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { row_extremes_avx512::<T, MAX>(row, k, best, best_k, nan_k) };
    }
    row_extremes::<T, MAX>(row, k, best, best_k, nan_k)
}

/// The extreme value of a contiguous block ignoring NaN (±inf if none), and whether it holds
/// a NaN.
#[inline(always)]
fn block_extreme<T: Elem, const MAX: bool>(c: &[T]) -> (f64, bool) {
    let init = if MAX {
        f64::NEG_INFINITY
    } else {
        f64::INFINITY
    };
    let mut acc = [init; 8];
    let mut nan = [false; 8];
    let mut it = c.chunks_exact(8);
    for ch in &mut it {
        for j in 0..8 {
            let v = ch[j].to_f64();
            nan[j] |= v != v;
            let better = if MAX { v > acc[j] } else { v < acc[j] };
            acc[j] = if better { v } else { acc[j] };
        }
    }
    for v in it.remainder() {
        let v = v.to_f64();
        nan[0] |= v != v;
        if (MAX && v > acc[0]) || (!MAX && v < acc[0]) {
            acc[0] = v;
        }
    }
    let m = acc.iter().fold(init, |a, &v| {
        if (MAX && v > a) || (!MAX && v < a) {
            v
        } else {
            a
        }
    });
    (m, nan.iter().any(|&b| b))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn block_extreme_avx512<T: Elem, const MAX: bool>(c: &[T]) -> (f64, bool) {
    block_extreme::<T, MAX>(c)
}

/// `block_extreme` in the widest vectors the processor has (the build's baseline is SSE2:
/// two doubles a compare).
fn block_extreme_wide<T: Elem, const MAX: bool>(c: &[T]) -> (f64, bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { block_extreme_avx512::<T, MAX>(c) };
    }
    block_extreme::<T, MAX>(c)
}

/// Whether block `c` holds an element equal to `m`: a vectorised test, no early exit.
#[inline(always)]
fn holds<T: Elem>(c: &[T], m: f64) -> bool {
    c.iter().fold(false, |a, v| a | (v.to_f64() == m))
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn holds_avx512<T: Elem>(c: &[T], m: f64) -> bool {
    holds(c, m)
}

fn holds_wide<T: Elem>(c: &[T], m: f64) -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        // SAFETY: as above.
        return unsafe { holds_avx512(c, m) };
    }
    holds(c, m)
}

/// The first position of `m` in `x`: the first block of 1024 that holds it (blocks tested
/// whole, vectorised, across the cores for long arrays), then the place in that block.
fn first_equal<T: Elem + Sync>(x: &[T], m: f64) -> Option<usize> {
    const RUN: usize = 1024;
    let block = if x.len() >= PAR_MIN {
        x.par_chunks(RUN).position_first(|c| holds_wide(c, m))?
    } else {
        x.chunks(RUN).position(|c| holds_wide(c, m))?
    };
    let c = x.get(block * RUN..)?;
    c.iter()
        .position(|v| v.to_f64() == m)
        .map(|k| block * RUN + k)
}

/// Two passes: the extreme value (vectorised), then the first element equal to it, which is
/// the element the general path's strict comparisons keep (also for -0 beside +0).
fn contiguous_extreme<T: Elem + Sync, const MAX: bool>(x: &[T], omitnan: bool) -> usize {
    // singles and doubles: one pass in their own type
    if let Some(k) = crate::values::ops::extreme_fast::first_extreme::<T, MAX>(x, omitnan) {
        return k;
    }
    let (m, nan) = if x.len() >= PAR_MIN {
        x.par_chunks(BLOCK)
            .map(block_extreme_wide::<T, MAX>)
            .reduce(
                || {
                    (
                        if MAX {
                            f64::NEG_INFINITY
                        } else {
                            f64::INFINITY
                        },
                        false,
                    )
                },
                |(a, p), (b, q)| {
                    let better = if MAX { b > a } else { b < a };
                    (if better { b } else { a }, p || q)
                },
            )
    } else {
        block_extreme_wide::<T, MAX>(x)
    };
    let first_nan = || x.iter().position(|v| v.to_f64().is_nan()).unwrap_or(0);
    if nan && !omitnan {
        return first_nan();
    }
    match first_equal(x, m) {
        Some(k) => k,
        None => first_nan(),
    }
}
