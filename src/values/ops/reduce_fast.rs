//! Typed reductions of real arrays: read in their own storage type (no widened copy), lanes
//! along the first dimension as straight loops with several accumulators, lanes along other
//! dimensions a row of accumulators at a time, long lanes split across the cores.
//!
//! Sums of lanes shorter than `SEQUENTIAL` add in order from +0, as the general path does;
//! longer lanes add fixed blocks of `BLOCK` elements with eight accumulators each, then the
//! blocks in order, so a result never depends on the number of threads. max/min and their
//! positions are exactly the general path's: the first extreme element, NaN by MATLAB's flags.

use super::Red;
use super::kernels::BLOCK;

/// Elements below which a reduction runs on the calling thread: a pass of one operation an
/// element over 2^18 elements takes about as long as waking the other threads and waiting
/// for them on a busy machine (`sum`, `max` of 1e5 elements were 2-4x NumPy's time, most
/// of it the hand-off). The blocks are the same either way, so are the results.
const PAR_MIN: usize = 1 << 18;
use crate::interp::interrupt::Watch;
use crate::values::tensor::{Data, Elem};
use rayon::prelude::*;

/// Short lanes summed side by side.
const LANES: usize = 8;

/// Lanes shorter than this are summed strictly in order.
const SEQUENTIAL: usize = 1024;

/// Runs `$body` with `$v` bound to the storage of any real `Data`, or returns None.
macro_rules! real_data {
    ($data:expr, $v:ident => $body:expr) => {
        match $data {
            Data::F64($v) => $body,
            Data::F32($v) => $body,
            Data::Bool($v) => $body,
            Data::I8($v) => $body,
            Data::I16($v) => $body,
            Data::I32($v) => $body,
            Data::I64($v) => $body,
            Data::U8($v) => $body,
            Data::U16($v) => $body,
            Data::U32($v) => $body,
            Data::U64($v) => $body,
            Data::Char($v) => $body,
            Data::C64(_) | Data::C32(_) => return None,
        }
    };
}

/// (inner, len, outer) of the lanes, as `reduce::lanes` gives them.
pub type Lanes = (usize, usize, usize);

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

/// Runs `f(first lane, accumulators)` over stretches of the lanes of `acc` (one value a
/// lane), across the cores when the reduction reads at least `PAR_MIN_CHEAP` elements, each
/// stretch a multiple of eight lanes; `f` looks at Ctrl-C every `ROWS_PER_LOOK` rows.
fn in_stretches<R: Send>(acc: &mut [R], work: usize, f: impl Fn(usize, &mut [R], &Watch) + Sync) {
    let inner = acc.len();
    let watch = Watch::current();
    if work < super::kernels::PAR_MIN_CHEAP || inner < 128 {
        return f(0, acc, &watch);
    }
    let parts = rayon::current_num_threads().max(1) * 2;
    let w = inner.div_ceil(parts).max(64).next_multiple_of(8);
    acc.par_chunks_mut(w)
        .enumerate()
        .for_each(|(t, c)| f(t * w, c, &watch));
}

/// Rows between looks at Ctrl-C in the strided reductions.
const ROWS_PER_LOOK: usize = 256;

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
fn contiguous_sum<T: Elem + Sync>(x: &[T], omitnan: bool) -> f64 {
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

/// any/all of every lane (NaN counts as nonzero for all, not for any, as in MATLAB).
pub fn any_all(data: &Data, lanes: Lanes, op: Red) -> Option<Vec<bool>> {
    let all = op == Red::All;
    Some(real_data!(data, v => lane_any_all(v, lanes, all)))
}

fn lane_any_all<T: Elem + Sync>(x: &[T], lanes: Lanes, all: bool) -> Vec<bool> {
    let (inner, len, outer) = lanes;
    // the element's test: all asks "nonzero", any asks "nonzero and not NaN"
    let hit = move |v: T| {
        let f = v.to_f64();
        if all { f == 0.0 } else { f != 0.0 && f == f }
    };
    if inner == 1 {
        let lane = |o: usize| {
            let l = &x[o * len..(o + 1) * len];
            let found = l
                .chunks(4096)
                .any(|c| c.iter().fold(false, |a, &v| a | hit(v)));
            found != all
        };
        return (0..outer).map(lane).collect();
    }
    let mut out = vec![false; inner * outer];
    for o in 0..outer {
        let acc = &mut out[o * inner..(o + 1) * inner];
        for k in 0..len {
            let row = &x[o * inner * len + k * inner..][..inner];
            for (a, &v) in acc.iter_mut().zip(row) {
                *a |= hit(v);
            }
        }
        for a in acc.iter_mut() {
            *a = *a != all;
        }
    }
    out
}

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
        super::extreme_fast::strided_extremes::<T, true>(x, lanes, omitnan)
    } else {
        super::extreme_fast::strided_extremes::<T, false>(x, lanes, omitnan)
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
    if let Some(k) = super::extreme_fast::first_extreme::<T, MAX>(x, omitnan) {
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
