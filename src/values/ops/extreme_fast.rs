//! `[m, i] = max(x)` and `min` of single or double lanes in their own type. A contiguous
//! lane is read in one pass over the
//! data, in its own type: the extreme of every run of `RUN` elements (16 or 32 accumulators,
//! compares and selects the compiler vectorises; no widening of singles), then the first
//! element equal to the best run's extreme, looked for from that run on (a few thousand
//! elements, not a second pass over the lane). The answer is the general path's: the first
//! extreme element (-0 and +0 are equal), the first NaN unless NaN is omitted, the first
//! element of a lane of NaN. Lanes along a later dimension (`max(A, [], 2)`) keep a row of
//! running extremes, positions in 32 bits.

use crate::values::tensor::Elem;
use rayon::prelude::*;
use std::any::TypeId;

/// Elements a run's extreme covers.
const RUN: usize = 2048;
/// Lanes at or above this are split across the cores (runs in groups of `GROUP`).
const PAR_MIN: usize = 1 << 18;
const GROUP: usize = 32;

/// The floating types this module reads natively.
trait Flt: Copy + PartialOrd + Send + Sync + 'static {
    const NEG_INF: Self;
    const POS_INF: Self;
}
impl Flt for f32 {
    const NEG_INF: f32 = f32::NEG_INFINITY;
    const POS_INF: f32 = f32::INFINITY;
}
impl Flt for f64 {
    const NEG_INF: f64 = f64::NEG_INFINITY;
    const POS_INF: f64 = f64::INFINITY;
}

/// The extreme of `c` ignoring NaN (the opposite infinity if none), and whether it holds a
/// NaN.
#[inline(always)]
fn run_extreme<F: Flt, const MAX: bool>(c: &[F]) -> (F, bool) {
    const W: usize = 32;
    let init = if MAX { F::NEG_INF } else { F::POS_INF };
    let better = |v: F, a: F| if MAX { v > a } else { v < a };
    let mut acc = [init; W];
    let mut nan = [false; W];
    let mut it = c.chunks_exact(W);
    for ch in &mut it {
        for j in 0..W {
            let v = ch[j];
            nan[j] |= v != v;
            acc[j] = if better(v, acc[j]) { v } else { acc[j] };
        }
    }
    let (mut m, mut n) = (init, false);
    for j in 0..W {
        n |= nan[j];
        if better(acc[j], m) {
            m = acc[j];
        }
    }
    for &v in it.remainder() {
        n |= v != v;
        if better(v, m) {
            m = v;
        }
    }
    (m, n)
}

/// Each run's extreme, in order. A plain loop, not `map(..).collect()`: the iterator's fold
/// was not inlined into `runs_avx512`, so the runs' loop ran as the baseline's SSE2 code
/// (`maxpd` on two doubles: 96% of `[m, i] = max(x)` at 1e5, 1.8x NumPy's time).
#[inline(always)]
fn runs<F: Flt, const MAX: bool>(c: &[F]) -> Vec<(F, bool)> {
    let mut out = Vec::with_capacity(c.len().div_ceil(RUN));
    for run in c.chunks(RUN) {
        out.push(run_extreme::<F, MAX>(run));
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn runs_avx512<F: Flt, const MAX: bool>(c: &[F]) -> Vec<(F, bool)> {
    runs::<F, MAX>(c)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn runs_avx2<F: Flt, const MAX: bool>(c: &[F]) -> Vec<(F, bool)> {
    runs::<F, MAX>(c)
}

/// `runs` in the widest vectors the processor has.
fn runs_wide<F: Flt, const MAX: bool>(c: &[F]) -> Vec<(F, bool)> {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::plan::cpu::vmath::has_avx512() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { runs_avx512::<F, MAX>(c) };
        }
        if crate::plan::cpu::vmath::has_avx2() {
            // SAFETY: as above.
            return unsafe { runs_avx2::<F, MAX>(c) };
        }
    }
    runs::<F, MAX>(c)
}

fn position<F: Flt, const MAX: bool>(x: &[F], omitnan: bool) -> usize {
    let runs: Vec<(F, bool)> = if x.len() >= PAR_MIN {
        x.par_chunks(RUN * GROUP)
            .map(runs_wide::<F, MAX>)
            .collect::<Vec<_>>()
            .concat()
    } else {
        runs_wide::<F, MAX>(x)
    };
    let first_nan = || {
        let r = runs.iter().position(|r| r.1)?;
        let from = r * RUN;
        x.get(from..)?.iter().position(|v| v != v).map(|k| from + k)
    };
    if !omitnan && runs.iter().any(|r| r.1) {
        return first_nan().unwrap_or(0);
    }
    // the first run reaching the best extreme (strict comparisons keep the first)
    let mut best = 0;
    for (k, r) in runs.iter().enumerate() {
        let b = runs.get(best).map_or(r.0, |b| b.0);
        let better = if MAX { r.0 > b } else { r.0 < b };
        if better {
            best = k;
        }
    }
    let Some(&(m, _)) = runs.get(best) else {
        return 0;
    };
    // from that run on: a run of NaN alone reads as the opposite infinity, which a later
    // infinite element can equal
    let from = best * RUN;
    x.get(from..)
        .and_then(|rest| first_equal(rest, m))
        .map(|k| from + k)
        .or_else(first_nan)
        .unwrap_or(0)
}

/// The first position of `m` in `x`: blocks of 64 tested whole (compares the compiler
/// vectorises, no branch per element), then the place in the first block that holds it.
fn first_equal<F: Flt>(x: &[F], m: F) -> Option<usize> {
    const STEP: usize = 64;
    let b = x
        .chunks(STEP)
        .position(|c| c.iter().fold(false, |a, &v| a | (v == m)))?;
    let c = x.get(b * STEP..)?;
    c.iter().position(|&v| v == m).map(|k| b * STEP + k)
}

/// The position of the first largest (`MAX`) or smallest element of a contiguous lane of
/// single or double data; None for other element types.
pub fn first_extreme<T: Elem + Sync, const MAX: bool>(x: &[T], omitnan: bool) -> Option<usize> {
    if TypeId::of::<T>() == TypeId::of::<f32>() {
        // SAFETY: T is f32 (same type, so same layout).
        let x = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f32, x.len()) };
        return Some(position::<f32, MAX>(x, omitnan));
    }
    if TypeId::of::<T>() == TypeId::of::<f64>() {
        // SAFETY: T is f64.
        let x = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f64, x.len()) };
        return Some(position::<f64, MAX>(x, omitnan));
    }
    None
}

/// One lane's running extreme along a later dimension: its value, the position that gave it
/// and the first NaN's position (`NONE` while there is none).
const NONE: u32 = u32::MAX;

/// Lanes one task keeps running extremes for (their three rows of state stay in the L2
/// cache; narrower blocks read the matrix as several strided streams, which was slower:
/// 9.9 ms against 6.7 ms for 3162x3162 singles with 1024) and the fewest lanes the typed
/// form takes (narrower rows: the general loop).
const LANE_BLOCK: usize = 4096;
const LANES_MIN: usize = 16;

/// The rows `k = 0..len` of one outer slab (`inner` lanes side by side), lanes `from..` as
/// many as `best` holds, into those lanes' running extremes: selects, not branches, all in
/// 32 bits for singles (sixteen lanes a vector), so the compiler vectorises them.
#[inline(always)]
fn slab<F: Flt, const MAX: bool>(
    x: &[F],
    inner: usize,
    from: usize,
    base: u32,
    best: &mut [F],
    best_k: &mut [u32],
    nan_k: &mut [u32],
) {
    let w = best.len();
    for (k, row) in x.chunks_exact(inner).enumerate() {
        let k = base + k as u32;
        let Some(row) = row.get(from..from + w) else {
            return;
        };
        if nan_k.is_empty() {
            // NaN omitted: the first NaN's row is needed only for a lane of NaN, whose
            // first NaN is row 0; no third row of state to read and write
            for ((&v, b), bk) in row.iter().zip(&mut *best).zip(&mut *best_k) {
                let nan = v != v;
                let better = if MAX { v > *b } else { v < *b };
                let take = !nan & ((*bk == NONE) | better);
                *b = if take { v } else { *b };
                *bk = if take { k } else { *bk };
            }
            continue;
        }
        for (((&v, b), bk), nk) in row
            .iter()
            .zip(&mut *best)
            .zip(&mut *best_k)
            .zip(&mut *nan_k)
        {
            let nan = v != v;
            let better = if MAX { v > *b } else { v < *b };
            let take = !nan & ((*bk == NONE) | better);
            *b = if take { v } else { *b };
            *bk = if take { k } else { *bk };
            *nk = if nan & (*nk == NONE) { k } else { *nk };
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn slab_avx512<F: Flt, const MAX: bool>(
    x: &[F],
    inner: usize,
    from: usize,
    base: u32,
    b: &mut [F],
    bk: &mut [u32],
    nk: &mut [u32],
) {
    slab::<F, MAX>(x, inner, from, base, b, bk, nk)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn slab_avx2<F: Flt, const MAX: bool>(
    x: &[F],
    inner: usize,
    from: usize,
    base: u32,
    b: &mut [F],
    bk: &mut [u32],
    nk: &mut [u32],
) {
    slab::<F, MAX>(x, inner, from, base, b, bk, nk)
}

fn slab_wide<F: Flt, const MAX: bool>(
    x: &[F],
    inner: usize,
    from: usize,
    base: u32,
    b: &mut [F],
    bk: &mut [u32],
    nk: &mut [u32],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::plan::cpu::vmath::has_avx512() {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { slab_avx512::<F, MAX>(x, inner, from, base, b, bk, nk) };
        }
        if crate::plan::cpu::vmath::has_avx2() {
            // SAFETY: as above.
            return unsafe { slab_avx2::<F, MAX>(x, inner, from, base, b, bk, nk) };
        }
    }
    slab::<F, MAX>(x, inner, from, base, b, bk, nk)
}

/// One block of lanes' running state: extreme, its row, the first NaN's row.
type State<F> = (Vec<F>, Vec<u32>, Vec<u32>);

/// The positions for every lane, a block of `LANE_BLOCK` lanes of one outer slab a task;
/// when the array is large and there are fewer blocks than cores, each block's rows are
/// split among the cores too (each part one contiguous stream: a 3162x3162 matrix is one
/// block, which one core read alone) and the parts' states combined in row order.
fn strided<F: Flt, const MAX: bool>(
    x: &[F],
    lanes: (usize, usize, usize),
    omitnan: bool,
) -> Vec<usize> {
    let (inner, len, outer) = lanes;
    let init = if MAX { F::NEG_INF } else { F::POS_INF };
    let par = x.len() >= PAR_MIN;
    let blocks: Vec<(usize, usize)> = (0..outer)
        .flat_map(|o| (0..inner).step_by(LANE_BLOCK).map(move |from| (o, from)))
        .collect();
    let threads = rayon::current_num_threads();
    let parts = if par && blocks.len() < threads {
        threads.min(len).max(1)
    } else {
        1
    };
    if len == 0 {
        return vec![0; inner * outer];
    }
    let rows = len.div_ceil(parts);
    let per_block = len.div_ceil(rows);
    // (block, rows k0..k1)
    let tasks: Vec<(usize, usize, usize, usize)> = blocks
        .iter()
        .flat_map(|&(o, from)| {
            (0..len)
                .step_by(rows)
                .map(move |k0| (o, from, k0, (k0 + rows).min(len)))
        })
        .collect();
    let run = |&(o, from, k0, k1): &(usize, usize, usize, usize)| -> State<F> {
        let w = LANE_BLOCK.min(inner - from);
        let nans = if omitnan { 0 } else { w };
        let mut st = (vec![init; w], vec![NONE; w], vec![NONE; nans]);
        let base = o * inner * len;
        if let Some(part) = x.get(base + k0 * inner..base + k1 * inner) {
            slab_wide::<F, MAX>(
                part, inner, from, k0 as u32, &mut st.0, &mut st.1, &mut st.2,
            );
        }
        st
    };
    let states: Vec<State<F>> = if par && tasks.len() > 1 {
        tasks.par_iter().map(run).collect()
    } else {
        tasks.iter().map(run).collect()
    };
    let mut out = Vec::with_capacity(inner * outer);
    for group in states.chunks(per_block) {
        let Some((first, later)) = group.split_first() else {
            continue;
        };
        let (mut b, mut bk, mut nk) = first.clone();
        // a later part's state replaces an earlier one as a later row would
        for (lb, lbk, lnk) in later {
            for i in 0..b.len() {
                let better = if MAX { lb[i] > b[i] } else { lb[i] < b[i] };
                if lbk[i] != NONE && (bk[i] == NONE || better) {
                    b[i] = lb[i];
                    bk[i] = lbk[i];
                }
                if let (Some(n), Some(&l)) = (nk.get_mut(i), lnk.get(i)) {
                    if *n == NONE {
                        *n = l;
                    }
                }
            }
        }
        out.extend(bk.iter().enumerate().map(|(i, &b)| {
            let n = nk
                .get(i)
                .copied()
                .unwrap_or(if b == NONE { 0 } else { NONE });
            let k = if (!omitnan && n != NONE) || b == NONE {
                n
            } else {
                b
            };
            if k == NONE { 0 } else { k as usize }
        }));
    }
    out
}

/// The positions along each lane of a later dimension (`lanes` as `reduce::lanes` gives
/// them) of the first largest (`MAX`) or smallest element, for single or double data of at
/// least `LANES_MIN` lanes side by side, shorter than 2^32; None otherwise.
pub fn strided_extremes<T: Elem, const MAX: bool>(
    x: &[T],
    lanes: (usize, usize, usize),
    omitnan: bool,
) -> Option<Vec<usize>> {
    if lanes.0 < LANES_MIN || lanes.1 >= NONE as usize || x.len() != lanes.0 * lanes.1 * lanes.2 {
        return None;
    }
    if TypeId::of::<T>() == TypeId::of::<f32>() {
        // SAFETY: T is f32.
        let x = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f32, x.len()) };
        return Some(strided::<f32, MAX>(x, lanes, omitnan));
    }
    if TypeId::of::<T>() == TypeId::of::<f64>() {
        // SAFETY: T is f64.
        let x = unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f64, x.len()) };
        return Some(strided::<f64, MAX>(x, lanes, omitnan));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general path's answer: strict comparisons from the first element, NaN first
    /// unless omitted.
    fn reference(x: &[f64], max: bool, omitnan: bool) -> usize {
        if !omitnan {
            if let Some(k) = x.iter().position(|v| v.is_nan()) {
                return k;
            }
        }
        let mut best: Option<usize> = None;
        for (k, &v) in x.iter().enumerate() {
            if v.is_nan() {
                continue;
            }
            match best {
                None => best = Some(k),
                Some(b) if (max && v > x[b]) || (!max && v < x[b]) => best = Some(k),
                _ => {}
            }
        }
        best.unwrap_or(0)
    }

    #[test]
    fn positions_match_the_general_path() {
        let mut s = 12345u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        for case in 0..400 {
            let n = [1, 5, 31, 2047, 2048, 2049, 5000, 70_000, 300_000][case % 9];
            let mut x: Vec<f64> = (0..n).map(|_| (next() % 1000) as f64 - 500.0).collect();
            // special values at random places: NaN, infinities, signed zeros, ties
            for _ in 0..(case % 5) {
                let k = next() as usize % n;
                x[k] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0, 499.0][case % 6];
            }
            if case % 17 == 0 {
                x.iter_mut().for_each(|v| *v = f64::NAN);
                if case % 2 == 0 {
                    x[n - 1] = f64::NEG_INFINITY;
                }
            }
            let xs: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            for omit in [false, true] {
                let want_max = reference(&x, true, omit);
                let want_min = reference(&x, false, omit);
                assert_eq!(
                    first_extreme::<f64, true>(&x, omit),
                    Some(want_max),
                    "{case}"
                );
                assert_eq!(
                    first_extreme::<f64, false>(&x, omit),
                    Some(want_min),
                    "{case}"
                );
                assert_eq!(
                    first_extreme::<f32, true>(&xs, omit),
                    Some(want_max),
                    "{case}"
                );
                assert_eq!(
                    first_extreme::<f32, false>(&xs, omit),
                    Some(want_min),
                    "{case}"
                );
            }
        }
        assert_eq!(first_extreme::<i32, true>(&[1, 2], false), None);
    }

    #[test]
    fn strided_positions_match_the_general_path() {
        let mut s = 777u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 33
        };
        for case in 0..42 {
            let (inner, len, outer) = [
                (16, 5, 2),
                (40, 33, 1),
                (1000, 7, 3),
                (17, 1, 4),
                (4200, 9, 2),
                (600, 450, 1),
                (301, 1000, 1),
            ][case % 7];
            let mut x: Vec<f64> = (0..inner * len * outer)
                .map(|_| (next() % 50) as f64 - 25.0)
                .collect();
            for _ in 0..(case % 7) * 3 {
                let k = next() as usize % x.len();
                x[k] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0][case % 4];
            }
            let xs: Vec<f32> = x.iter().map(|&v| v as f32).collect();
            for omit in [false, true] {
                for max in [true, false] {
                    let mut want = Vec::new();
                    for o in 0..outer {
                        for i in 0..inner {
                            let lane: Vec<f64> = (0..len)
                                .map(|k| x[o * inner * len + k * inner + i])
                                .collect();
                            want.push(reference(&lane, max, omit));
                        }
                    }
                    let (a, b) = if max {
                        (
                            strided_extremes::<f64, true>(&x, (inner, len, outer), omit),
                            strided_extremes::<f32, true>(&xs, (inner, len, outer), omit),
                        )
                    } else {
                        (
                            strided_extremes::<f64, false>(&x, (inner, len, outer), omit),
                            strided_extremes::<f32, false>(&xs, (inner, len, outer), omit),
                        )
                    };
                    assert_eq!(a.as_ref(), Some(&want), "{case} {max} {omit}");
                    assert_eq!(b.as_ref(), Some(&want), "{case} {max} {omit}");
                }
            }
        }
        // narrow rows are left to the general loop
        assert_eq!(
            strided_extremes::<f64, true>(&[1.0; 12], (3, 2, 2), false),
            None
        );
    }
}
