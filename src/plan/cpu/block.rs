//! One block of a group: each step in turn over the block's elements, each a straight loop
//! over slices of its own type (f32 or f64) that the compiler vectorises.

use super::access;
use super::elementwise::{binary, map1, unary, vfun};
use super::num::{Num, Src};
use super::program::{Place, Program, Ty, exact_in_single_bin, exact_in_single_un};
use super::scratch::Scratch;
use super::vmath;
use super::vmath32;
use crate::plan::Step;
use crate::values::ops::Bin;
use std::mem::MaybeUninit;

/// Elements evaluated together (a few slots of them stay in the L1 and L2 caches).
pub const BLOCK: usize = 4096;

/// A step's value over the block as f64 (`tmp` holds a converted copy).
#[inline(always)]
pub(super) fn src64<'s>(
    p: &'s Program<'_>,
    s32: &'s [Vec<f32>],
    s64: &'s [Vec<f64>],
    k: usize,
    start: usize,
    len: usize,
    tmp: &'s mut [f64],
) -> Src<'s, f64> {
    match p.place[k] {
        Place::Scalar(v) => Src::S(v),
        Place::Leaf(j, off) => match p.leaves[j] {
            super::program::Leaf::F64(v) => Src::V(&v[start + off..start + off + len]),
            super::program::Leaf::F32(v) => {
                widen(&v[start + off..start + off + len], &mut tmp[..len]);
                Src::V(&tmp[..len])
            }
        },
        Place::Slot(s) => match p.ty[k] {
            Ty::F64 => Src::V(&s64[s][..len]),
            Ty::F32 => {
                widen(&s32[s][..len], &mut tmp[..len]);
                Src::V(&tmp[..len])
            }
        },
    }
}

/// A step's value over the block as f32; only for steps stored as f32 (or f32-exact
/// scalars).
#[inline(always)]
pub(super) fn src32<'s>(
    p: &'s Program<'_>,
    s32: &'s [Vec<f32>],
    k: usize,
    start: usize,
    len: usize,
) -> Src<'s, f32> {
    match p.place[k] {
        Place::Scalar(v) => Src::S(v as f32),
        Place::Leaf(j, off) => match p.leaves[j] {
            super::program::Leaf::F32(v) => Src::V(&v[start + off..start + off + len]),
            super::program::Leaf::F64(_) => Src::S(f32::NAN),
        },
        Place::Slot(s) => Src::V(&s32[s][..len]),
    }
}

#[inline(always)]
fn widen(x: &[f32], d: &mut [f64]) {
    for (d, &x) in d.iter_mut().zip(x) {
        *d = x as f64;
    }
}

/// Whether step `k` reads exactly as f32.
pub(super) fn is_f32(p: &Program<'_>, k: usize) -> bool {
    match p.place[k] {
        Place::Scalar(v) => (v as f32) as f64 == v || v.is_nan(),
        _ => p.ty[k] == Ty::F32,
    }
}

/// Evaluates the steps over elements `start..start + len` (len <= BLOCK); the last step's
/// value is left in its place.
#[inline(always)]
pub fn eval(p: &Program<'_>, sc: &mut Scratch, start: usize, len: usize) {
    eval_steps(p, sc, start, len, p.steps.len())
}

/// Whether the last step is computed into a block slot of `R`'s type, so that `eval_root`
/// can write it straight into the result.
pub fn direct_root<R: Num>(p: &Program<'_>) -> bool {
    let root = p.steps.len().wrapping_sub(1);
    matches!(p.place.get(root), Some(Place::Slot(_)))
        && p.ty.get(root) == Some(if R::SINGLE { &Ty::F32 } else { &Ty::F64 })
}

/// Evaluates the steps before the last over the block, then the last into `out` (the
/// result's own memory: no copy from a slot), for a program where `direct_root::<R>`.
#[inline(always)]
pub fn eval_root<R: Num>(p: &Program<'_>, sc: &mut Scratch, start: usize, out: &mut [R]) {
    let root = p.steps.len() - 1;
    eval_steps(p, sc, start, out.len(), root);
    let step = &p.steps[root];
    if let Some(d) = R::slice32(out) {
        step32(p, sc, root, step, start, d);
    } else if let Some(d) = R::slice64(out) {
        step64(p, sc, root, step, start, d);
    }
}

/// Evaluates steps `..upto` over the block.
#[inline(always)]
pub(super) fn eval_steps(p: &Program<'_>, sc: &mut Scratch, start: usize, len: usize, upto: usize) {
    for (k, step) in p.steps[..upto].iter().enumerate() {
        let Place::Slot(slot) = p.place[k] else {
            continue;
        };
        // the destination leaves the scratch while the operands are read from it
        match p.ty[k] {
            Ty::F32 => {
                let mut dst = std::mem::take(&mut sc.s32[slot]);
                step32(p, sc, k, step, start, &mut dst[..len]);
                sc.s32[slot] = dst;
            }
            Ty::F64 => {
                let mut dst = std::mem::take(&mut sc.s64[slot]);
                step64(p, sc, k, step, start, &mut dst[..len]);
                sc.s64[slot] = dst;
            }
        }
    }
}

/// `x op c` for a comparison of an f32 step x with a double constant c that no single
/// equals, as the f32 comparison `x op single(c)`: MATLAB converts the double to single before
/// comparing (`single(0.1) == 0.1` is true), as the eager path and the device do. Compared
/// exactly in double, blocks of 2^16 and more answered the opposite way.
pub(super) fn narrowed_compare(
    p: &Program<'_>,
    op: Bin,
    a: usize,
    b: usize,
) -> Option<(Bin, usize, f32)> {
    use Bin::*;
    if !matches!(op, Eq | Ne | Lt | Le | Gt | Ge) {
        return None;
    }
    let (x, c, op) = match (p.place[a], p.place[b]) {
        (_, Place::Scalar(c)) => (a, c, op),
        // c op x is x op' c
        (Place::Scalar(c), _) => (
            b,
            c,
            match op {
                Lt => Gt,
                Le => Ge,
                Gt => Lt,
                Ge => Le,
                o => o,
            },
        ),
        _ => return None,
    };
    if !is_f32(p, x) || matches!(p.place[x], Place::Scalar(_)) || c.is_nan() {
        return None;
    }
    let r = c as f32;
    if r as f64 == c {
        return None;
    }
    Some((op, x, r))
}

#[inline(always)]
fn step32(p: &Program<'_>, sc: &mut Scratch, k: usize, step: &Step, start: usize, d: &mut [f32]) {
    let len = d.len();
    if let Step::Binary(op, a, b) = step {
        if let Some((op, x, c)) = narrowed_compare(p, *op, *a, *b) {
            let x = src32(p, &sc.s32, x, start, len);
            binary(op, x, Src::S(c), d);
            return;
        }
    }
    let [t0, t1, t2] = &mut sc.t;
    let (s32, s64) = (&sc.s32[..], &sc.s64[..]);
    match step {
        // x.^3 of a single: x*x is exact in double, so the cube is rounded once, as pow
        // rounds it (the eager path computes it the same way: `elementwise::single_cube`)
        Step::Binary(Bin::Pow, a, b)
            if is_f32(p, *a) && matches!(p.place[*b], Place::Scalar(y) if y == 3.0) =>
        {
            map1(src32(p, s32, *a, start, len), d, |x| {
                let x = x as f64;
                (x * x * x) as f32
            })
        }
        Step::Binary(op, a, b) if exact_in_single_bin(*op) && is_f32(p, *a) && is_f32(p, *b) => {
            binary(
                *op,
                src32(p, s32, *a, start, len),
                src32(p, s32, *b, start, len),
                d,
            )
        }
        Step::Binary(op, a, b) => {
            let x = src64(p, s32, s64, *a, start, len, t0);
            let y = src64(p, s32, s64, *b, start, len, t1);
            binary(*op, x, y, d)
        }
        Step::Unary(op, a) if exact_in_single_un(*op) && is_f32(p, *a) => {
            unary(*op, src32(p, s32, *a, start, len), d)
        }
        // sin, cos, exp and log of a single array in single (`vmath32`: within 1 ulp)
        Step::Unary(op, a)
            if is_f32(p, *a)
                && !matches!(p.place[*a], Place::Scalar(_))
                && vfun(*op).is_some()
                && vmath32::in_single() =>
        {
            match (vfun(*op), src32(p, s32, *a, start, len)) {
                (Some(f), Src::V(x)) => vmath32::eval(f, x, d),
                _ => unary(*op, src64(p, s32, s64, *a, start, len, t0), d),
            }
        }
        Step::Unary(op, a) => {
            let single = is_f32(p, *a);
            let x = src64(p, s32, s64, *a, start, len, t0);
            match (vfun(*op), x) {
                (Some(f), Src::V(x)) if single => {
                    vmath::eval_single(f, x, &mut t2[..len]);
                    for (d, &v) in d.iter_mut().zip(&t2[..len]) {
                        *d = v as f32;
                    }
                }
                (Some(f), Src::V(x)) => {
                    vmath::eval(f, x, &mut t2[..len]);
                    for (d, &v) in d.iter_mut().zip(&t2[..len]) {
                        *d = v as f32;
                    }
                }
                _ => unary(*op, x, d),
            }
        }
        Step::Embed(old, new, r) if is_f32(p, *old) && is_f32(p, *new) => {
            let o = src32(p, s32, *old, start, len);
            let n = src32(p, s32, *new, start, len);
            access::embed(p, *r, start, o, n, d);
        }
        Step::Embed(old, new, r) => {
            let o = src64(p, s32, s64, *old, start, len, t0);
            let n = src64(p, s32, s64, *new, start, len, t1);
            access::embed(p, *r, start, o, n, d);
        }
        Step::Select(m, a, b) => {
            let m = src64(p, s32, s64, *m, start, len, t0);
            let a = src64(p, s32, s64, *a, start, len, t1);
            let b = src64(p, s32, s64, *b, start, len, t2);
            super::gather::select(m, a, b, d);
        }
        Step::Gather(j) => super::gather::gather(p, *j, start, d),
        _ => access::generate(p, k, step, start, d),
    }
}

#[inline(always)]
fn step64(p: &Program<'_>, sc: &mut Scratch, k: usize, step: &Step, start: usize, d: &mut [f64]) {
    let len = d.len();
    let [t0, t1, t2] = &mut sc.t;
    let (s32, s64) = (&sc.s32[..], &sc.s64[..]);
    match step {
        Step::Binary(op, a, b) => {
            let x = src64(p, s32, s64, *a, start, len, t0);
            let y = src64(p, s32, s64, *b, start, len, t1);
            binary(*op, x, y, d)
        }
        Step::Unary(op, a) => {
            let x = src64(p, s32, s64, *a, start, len, t0);
            match (vfun(*op), x) {
                (Some(f), Src::V(x)) => vmath::eval(f, x, d),
                _ => unary(*op, x, d),
            }
        }
        Step::Embed(old, new, r) => {
            let o = src64(p, s32, s64, *old, start, len, t0);
            let n = src64(p, s32, s64, *new, start, len, t1);
            access::embed(p, *r, start, o, n, d);
        }
        Step::Select(m, a, b) => {
            let m = src64(p, s32, s64, *m, start, len, t0);
            let a = src64(p, s32, s64, *a, start, len, t1);
            let b = src64(p, s32, s64, *b, start, len, t2);
            super::gather::select(m, a, b, d);
        }
        Step::Gather(j) => super::gather::gather(p, *j, start, d),
        _ => access::generate(p, k, step, start, d),
    }
}

/// The value of step `k` (the result) over the block, converted to `R`, into `out` (which
/// may be uninitialised: every element is written).
#[inline(always)]
pub fn store<R: Num>(
    p: &Program<'_>,
    sc: &Scratch,
    k: usize,
    start: usize,
    out: &mut [MaybeUninit<R>],
) {
    let len = out.len();
    let put32 = |v: &[f32], out: &mut [MaybeUninit<R>]| {
        for (o, &x) in out.iter_mut().zip(v) {
            o.write(R::from32(x));
        }
    };
    let put64 = |v: &[f64], out: &mut [MaybeUninit<R>]| {
        for (o, &x) in out.iter_mut().zip(v) {
            o.write(R::from64(x));
        }
    };
    match p.place[k] {
        Place::Scalar(v) => {
            for o in out.iter_mut() {
                o.write(R::from64(v));
            }
        }
        Place::Leaf(j, off) => match p.leaves[j] {
            super::program::Leaf::F32(v) => put32(&v[start + off..start + off + len], out),
            super::program::Leaf::F64(v) => put64(&v[start + off..start + off + len], out),
        },
        Place::Slot(s) => match p.ty[k] {
            Ty::F32 => put32(&sc.s32[s][..len], out),
            Ty::F64 => put64(&sc.s64[s][..len], out),
        },
    }
}

/// The value of step `k` over the block as logicals (nonzero is true) into `out`.
#[inline(always)]
pub fn store_bits(
    p: &Program<'_>,
    sc: &Scratch,
    k: usize,
    start: usize,
    out: &mut [MaybeUninit<super::Bit>],
) {
    #[inline(always)]
    fn put<T: Num>(v: &[T], out: &mut [MaybeUninit<super::Bit>]) {
        for (o, &x) in out.iter_mut().zip(v) {
            o.write(super::Bit(x != T::ZERO));
        }
    }
    let len = out.len();
    match p.place[k] {
        Place::Scalar(v) => put(&[v].repeat(len), out),
        Place::Leaf(j, off) => match p.leaves[j] {
            super::program::Leaf::F32(v) => put(&v[start + off..start + off + len], out),
            super::program::Leaf::F64(v) => put(&v[start + off..start + off + len], out),
        },
        Place::Slot(s) => match p.ty[k] {
            Ty::F32 => put(&sc.s32[s][..len], out),
            Ty::F64 => put(&sc.s64[s][..len], out),
        },
    }
}

/// Whether step `k`'s value over the block has an element that is nonzero and not NaN
/// (`zero` false: any), or one that is zero (`zero` true: all fails).
#[inline(always)]
pub fn test(p: &Program<'_>, sc: &Scratch, k: usize, start: usize, len: usize, zero: bool) -> bool {
    #[inline(always)]
    fn t<T: Num>(v: &[T], zero: bool) -> bool {
        if zero {
            v.iter().fold(false, |a, &x| a | (x == T::ZERO))
        } else {
            v.iter()
                .fold(false, |a, &x| a | ((x != T::ZERO) & (x == x)))
        }
    }
    match p.place[k] {
        Place::Scalar(v) => t(&[v], zero),
        Place::Leaf(j, off) => match p.leaves[j] {
            super::program::Leaf::F32(v) => t(&v[start + off..start + off + len], zero),
            super::program::Leaf::F64(v) => t(&v[start + off..start + off + len], zero),
        },
        Place::Slot(s) => match p.ty[k] {
            Ty::F32 => t(&sc.s32[s][..len], zero),
            Ty::F64 => t(&sc.s64[s][..len], zero),
        },
    }
}
