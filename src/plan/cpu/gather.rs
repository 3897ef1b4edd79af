//! Gathers and selects in a host block: the gather's source element at the place its
//! subscripts give, addressed as the device addresses it (`codegen::regions`), and the
//! select of `x(mask) = v`.

use super::num::{Num, Src};
use super::program::{Leaf, Program};
use crate::graph::Pick;
use crate::plan::Access;

/// Input `k`'s element for output element `i` (the device's 32-bit wrapping addresses).
fn input_at(p: &Program<'_>, k: usize, i: usize) -> f64 {
    let Some(leaf) = p.leaves.get(k) else {
        return f64::NAN;
    };
    let at = match p.inputs.get(k) {
        Some(Access::Same) => i,
        Some(Access::Strided(strides, offset)) => {
            let mut rem = i;
            let mut at = *offset;
            for (d, s) in strides.iter().enumerate() {
                let n = p.shape.dim(d).max(1);
                at = at.wrapping_add(((rem % n) as u32).wrapping_mul(*s));
                rem /= n;
            }
            at as usize
        }
        _ => 0,
    };
    leaf.get(at).unwrap_or(f64::NAN)
}

/// Gather `j`'s values for output elements `start..start + d.len()`.
pub fn gather<R: Num>(p: &Program<'_>, j: usize, start: usize, d: &mut [R]) {
    let Some(plan) = p.gathers.get(j) else {
        d.fill(R::from64(f64::NAN));
        return;
    };
    if by_index_in_place(p, plan, start, d) {
        return;
    }
    let linear = plan.subs.len() == 1;
    let source = p.leaves.get(plan.source);
    for (e, o) in d.iter_mut().enumerate() {
        let i = start + e;
        let mut at = 0u32;
        for (dim, sub) in plan.subs.iter().enumerate() {
            let position = match (sub.input, sub.pick) {
                (Some(k), _) => (input_at(p, k, i) as u32).wrapping_sub(1),
                (None, Pick::Range { start, step }) => {
                    let along = if linear {
                        i as u32
                    } else {
                        super::subscript(p.shape, i, Some(dim)) as u32 - 1
                    };
                    (start as u32).wrapping_add(along.wrapping_mul(step as u32))
                }
                (None, Pick::Index) => 0,
            };
            at = at.wrapping_add(position.wrapping_mul(sub.stride as u32));
        }
        let v = source.and_then(|l| l.get(at as usize)).unwrap_or(f64::NAN);
        *o = R::from64(v);
    }
}

/// `x(idx)` with one index subscript read in place (the index of the group's shape): a
/// straight loop in the index's and the source's own types, the same addresses as the
/// general loop below computes (`x0(idx) .* w + y` of 2e6 singles took 18 ms through it,
/// each element read through f64 and the per-subscript dispatch, against 11 ms for the
/// gather made first). False, nothing written, for any other gather.
fn by_index_in_place<R: Num>(
    p: &Program<'_>,
    plan: &crate::plan::gathers::GatherPlan,
    start: usize,
    d: &mut [R],
) -> bool {
    let [sub] = &plan.subs[..] else {
        return false;
    };
    let (Some(k), Pick::Index) = (sub.input, sub.pick) else {
        return false;
    };
    if p.inputs.get(k) != Some(&Access::Same) {
        return false;
    }
    let (Some(&index), Some(&source)) = (p.leaves.get(k), p.leaves.get(plan.source)) else {
        return false;
    };
    let stride = sub.stride as u32;
    let len = d.len();
    match (index, source) {
        (Leaf::F64(ix), Leaf::F32(src)) => by_index(ix.get(start..start + len), src, stride, d),
        (Leaf::F64(ix), Leaf::F64(src)) => by_index(ix.get(start..start + len), src, stride, d),
        (Leaf::F32(ix), Leaf::F32(src)) => by_index(ix.get(start..start + len), src, stride, d),
        (Leaf::F32(ix), Leaf::F64(src)) => by_index(ix.get(start..start + len), src, stride, d),
    }
}

/// `d[e] = src[(ix[e] - 1) * stride]` (NaN past the source), the positions as the general
/// loop makes them: the index value as a u32, less one, times the stride, wrapping.
#[inline(always)]
fn by_index<I: Num, T: Num, R: Num>(ix: Option<&[I]>, src: &[T], stride: u32, d: &mut [R]) -> bool {
    let Some(ix) = ix else {
        return false;
    };
    for (o, &x) in d.iter_mut().zip(ix) {
        let at = (x.to64() as u32).wrapping_sub(1).wrapping_mul(stride);
        *o = src
            .get(at as usize)
            .map_or(R::from64(f64::NAN), |&v| R::from64(v.to64()));
    }
    true
}

fn at<T: Num>(s: &Src<'_, T>, e: usize) -> T {
    match s {
        Src::V(v) => v[e],
        Src::S(x) => *x,
    }
}

/// The second operand where the first (a mask) is nonzero, else the third.
pub fn select<T: Num, R: Num>(m: Src<'_, T>, a: Src<'_, T>, b: Src<'_, T>, d: &mut [R]) {
    for (e, o) in d.iter_mut().enumerate() {
        let v = if at(&m, e).to64() != 0.0 {
            at(&a, e)
        } else {
            at(&b, e)
        };
        *o = R::from64(v.to64());
    }
}
