//! How a block reads its inputs without index vectors: in place, as strided runs (implicit
//! expansion, transposes, range views), through a region (the values an embed writes), and
//! how an embed overwrites a region's runs; also the values generated at the element's own
//! index (random numbers, subscripts).

use super::num::{Num, Src};
use super::program::{Leaf, Program};
use crate::graph::Region;
use crate::plan::{Access, Step};

/// Runs `$body` with `$v` bound to the leaf's typed slice.
macro_rules! leaf_slice {
    ($leaf:expr, $v:ident => $body:expr) => {
        match $leaf {
            Leaf::F32($v) => $body,
            Leaf::F64($v) => $body,
        }
    };
}

#[inline(always)]
fn copy<S: Num, R: Num>(src: &[S], d: &mut [R]) {
    for (o, &x) in d.iter_mut().zip(src) {
        *o = R::from64(x.to64());
    }
}

/// Output elements `start..start + d.len()` of an input read at `offset + sum(digit *
/// stride)` over the output's dimensions of more than one element (`dims`), a run along the
/// first of them at a time; addresses wrap as the device's 32-bit ones do, and an address
/// past the data reads NaN.
#[inline(always)]
fn strided<S: Num, R: Num>(
    src: &[S],
    dims: &[(usize, u32)],
    offset: u32,
    start: usize,
    d: &mut [R],
) {
    let at = |a: u32| {
        src.get(a as usize)
            .map_or(R::from64(f64::NAN), |&x| R::from64(x.to64()))
    };
    let Some(&(n0, s0)) = dims.first() else {
        d.fill(at(offset));
        return;
    };
    let mut digits: smallvec::SmallVec<[usize; 6]> = smallvec::SmallVec::new();
    let mut rem = start;
    for &(n, _) in dims {
        digits.push(rem % n);
        rem /= n;
    }
    let len = d.len();
    let mut e = 0;
    while e < len {
        let run = (n0 - digits[0]).min(len - e);
        let base = dims.iter().zip(&digits).fold(offset, |b, (&(_, s), &k)| {
            b.wrapping_add((k as u32).wrapping_mul(s))
        });
        let out = &mut d[e..e + run];
        let b = base as usize;
        if s0 == 1 && b + run <= src.len() {
            copy(&src[b..b + run], out);
        } else if s0 == 0 {
            out.fill(at(base));
        } else {
            for (i, o) in out.iter_mut().enumerate() {
                *o = at(base.wrapping_add((i as u32).wrapping_mul(s0)));
            }
        }
        e += run;
        digits[0] += run;
        for k in 0..digits.len() {
            if digits[k] < dims[k].0 {
                break;
            }
            digits[k] = 0;
            if let Some(next) = digits.get_mut(k + 1) {
                *next += 1;
            }
        }
    }
}

/// Calls `f(e, j, n)` for each run of block elements `e..e + n` (of `start..start + len`)
/// that are region elements `j..j + n`.
#[inline(always)]
pub fn region_runs(
    region: &Region,
    sizes: &[usize],
    start: usize,
    len: usize,
    mut f: impl FnMut(usize, usize, usize),
) {
    let k = region.dims.len();
    let Some(p0) = region.dims.first() else {
        return;
    };
    let n0 = if k == 1 {
        usize::MAX
    } else {
        sizes.first().copied().unwrap_or(1).max(1)
    };
    let mut e = 0;
    while e < len {
        let i = start + e;
        let (pos0, rest) = if k == 1 { (i, 0) } else { (i % n0, i / n0) };
        let run = (n0 - pos0).min(len - e);
        // the region element of this run's higher subscripts, if they are all in it
        let mut higher = Some(0usize);
        let (mut rem, mut scale) = (rest, p0.count);
        for (d, p) in region.dims.iter().enumerate().skip(1) {
            let size = sizes.get(d).copied().unwrap_or(1).max(1);
            let s = if d + 1 == k { rem } else { rem % size };
            rem /= size;
            let off = s as i64 - p.start;
            let q = if p.step != 0 && off % p.step == 0 {
                off / p.step
            } else {
                -1
            };
            if q < 0 || q as usize >= p.count {
                higher = None;
                break;
            }
            higher = higher.map(|j| j + q as usize * scale);
            scale *= p.count;
        }
        if let Some(hj) = higher {
            let (pos0, run_i) = (pos0 as i64, run as i64);
            if p0.step == 1 {
                let lo = pos0.max(p0.start);
                let hi = (pos0 + run_i).min(p0.start + p0.count as i64);
                if lo < hi {
                    f(
                        e + (lo - pos0) as usize,
                        hj + (lo - p0.start) as usize,
                        (hi - lo) as usize,
                    );
                }
            } else if p0.step != 0 {
                for t in 0..run_i {
                    let off = pos0 + t - p0.start;
                    if off % p0.step == 0 {
                        let q = off / p0.step;
                        if q >= 0 && (q as usize) < p0.count {
                            f(e + t as usize, hj + q as usize, 1);
                        }
                    }
                }
            }
        }
        e += run;
    }
}

/// An embed over the block: the old values, and the new ones where the region is.
#[inline(always)]
pub fn embed<T: Num, R: Num>(
    p: &Program<'_>,
    r: usize,
    start: usize,
    old: Src<'_, T>,
    new: Src<'_, T>,
    d: &mut [R],
) {
    match old {
        Src::V(v) => copy(v, d),
        Src::S(x) => d.fill(R::from64(x.to64())),
    }
    let Some((region, sizes)) = p.regions.get(r) else {
        return;
    };
    region_runs(region, sizes, start, d.len(), |e, _, n| match new {
        Src::V(v) => copy(&v[e..e + n], &mut d[e..e + n]),
        Src::S(x) => d[e..e + n].fill(R::from64(x.to64())),
    });
}

/// Steps that read or generate values by the element's index: inputs not read in place,
/// random numbers and subscripts.
#[inline(always)]
pub fn generate<R: Num>(p: &Program<'_>, k: usize, step: &Step, start: usize, d: &mut [R]) {
    let len = d.len();
    match step {
        Step::Input(j) => {
            let leaf = p.leaves[*j];
            match &p.inputs[*j] {
                Access::Same => leaf_slice!(leaf, v => copy(&v[start..start + len], d)),
                Access::Scalar => d.fill(R::from64(leaf.get(0).unwrap_or(f64::NAN))),
                Access::Strided(_, offset) => {
                    let dims = &p.strided[*j];
                    leaf_slice!(leaf, v => strided(v, dims, *offset, start, d))
                }
                Access::Region(r) => {
                    // elements outside the region are never read (the embed keeps the old)
                    let Some((region, sizes)) = p.regions.get(*r) else {
                        return;
                    };
                    leaf_slice!(leaf, v => region_runs(region, sizes, start, len, |e, j, n| {
                        match v.get(j..j + n) {
                            Some(s) => copy(s, &mut d[e..e + n]),
                            None => d[e..e + n].fill(R::from64(f64::NAN)),
                        }
                    }))
                }
            }
        }
        Step::Rand(j) => {
            let (spec, _) = &p.rands[*j];
            let single = p.single[k];
            for (e, o) in d.iter_mut().enumerate() {
                *o = R::from64(spec.value((start + e) as u64, single));
            }
        }
        Step::Iota(dim) => {
            for (e, o) in d.iter_mut().enumerate() {
                *o = R::from64(super::subscript(p.shape, start + e, *dim));
            }
        }
        _ => d.fill(R::from64(f64::NAN)),
    }
}
