//! A group whose last step is a comparison or a logical operation (`x > t`, `a & b`, `~m`,
//! `isnan(x)`), evaluated from that step's operands straight into what reads it: the test of
//! `any`/`all`, or the bits of a logical result. The step's 0/1 values are never stored in a
//! block and read again (that store and the second loop were 75% of `any(x > t)` at 1e5).
//! Each operation is the one `elementwise::binary`/`elementwise::unary` computes, so the answers agree.

use super::Bit;
use super::block::{eval_steps, is_f32, narrowed_compare, src32, src64};
use super::num::{Num, Src};
use super::program::{Place, Program};
use super::scratch::Scratch;
use crate::plan::Step;
use crate::values::ops::{Bin, Un};
use std::mem::MaybeUninit;

/// Where the root's truth values go.
pub enum Out<'o> {
    /// Whether some element is true (`want` true: any) or false (`want` false: all fails).
    Hit(bool),
    /// One logical per element.
    Bits(&'o mut [MaybeUninit<Bit>]),
}

/// The root step when it is a comparison or logical operation computed in a block slot.
fn logic_root<'p>(p: &'p Program<'_>) -> Option<&'p Step> {
    let root = p.steps.len().checked_sub(1)?;
    if !matches!(p.place.get(root), Some(Place::Slot(_))) {
        return None;
    }
    use Bin::*;
    match &p.steps[root] {
        s @ Step::Binary(Eq | Ne | Lt | Le | Gt | Ge | And | Or | Xor, ..) => Some(s),
        s @ Step::Unary(Un::Not | Un::IsNan | Un::IsInf | Un::IsFinite, _) => Some(s),
        _ => None,
    }
}

/// The root's values over `start..start + len` (len <= `block::BLOCK`, as many as `Bits`
/// holds) into `out`: the steps before the root in their slots, then the root's operation
/// read from its operands. Returns whether a hit was found (`Out::Hit`; false for bits).
/// None when the root is not such an operation: the caller evaluates the block as usual.
#[inline(always)]
pub fn eval(
    p: &Program<'_>,
    sc: &mut Scratch,
    start: usize,
    len: usize,
    out: &mut Out<'_>,
) -> Option<bool> {
    let step = logic_root(p)?;
    let root = p.steps.len() - 1;
    eval_steps(p, sc, start, len, root);
    let [t0, t1, _] = &mut sc.t;
    let (s32, s64) = (&sc.s32[..], &sc.s64[..]);
    Some(match *step {
        Step::Binary(op, a, b) => {
            if let Some((op, x, c)) = narrowed_compare(p, op, a, b) {
                binary(op, src32(p, s32, x, start, len), Src::S(c), len, out)
            } else if is_f32(p, a) && is_f32(p, b) {
                let (x, y) = (src32(p, s32, a, start, len), src32(p, s32, b, start, len));
                binary(op, x, y, len, out)
            } else {
                let x = src64(p, s32, s64, a, start, len, t0);
                let y = src64(p, s32, s64, b, start, len, t1);
                binary(op, x, y, len, out)
            }
        }
        Step::Unary(op, a) if is_f32(p, a) => unary(op, src32(p, s32, a, start, len), len, out),
        Step::Unary(op, a) => unary(op, src64(p, s32, s64, a, start, len, t0), len, out),
        _ => return None,
    })
}

#[inline(always)]
fn binary<T: Num>(op: Bin, a: Src<'_, T>, b: Src<'_, T>, len: usize, out: &mut Out<'_>) -> bool {
    use Bin::*;
    let nz = |v: T| v != T::ZERO;
    match op {
        Eq => emit(a, b, len, |x, y| x == y, out),
        Ne => emit(a, b, len, |x, y| x != y, out),
        Lt => emit(a, b, len, |x, y| x < y, out),
        Le => emit(a, b, len, |x, y| x <= y, out),
        Gt => emit(a, b, len, |x, y| x > y, out),
        Ge => emit(a, b, len, |x, y| x >= y, out),
        And => emit(a, b, len, |x, y| nz(x) & nz(y), out),
        Or => emit(a, b, len, |x, y| nz(x) | nz(y), out),
        _ => emit(a, b, len, |x, y| nz(x) != nz(y), out),
    }
}

#[inline(always)]
fn unary<T: Num>(op: Un, a: Src<'_, T>, len: usize, out: &mut Out<'_>) -> bool {
    // the second operand is not read
    let b = Src::S(T::ZERO);
    match op {
        Un::Not => emit(a, b, len, |x, _| x == T::ZERO, out),
        Un::IsNan => emit(a, b, len, |x, _| x.is_nan(), out),
        Un::IsInf => emit(a, b, len, |x, _| x.is_infinite(), out),
        _ => emit(a, b, len, |x, _| !x.is_nan() && !x.is_infinite(), out),
    }
}

/// `f` over the pairs into `out`: a straight loop for each pairing of slices and values.
#[inline(always)]
fn emit<T: Num>(
    a: Src<'_, T>,
    b: Src<'_, T>,
    len: usize,
    f: impl Fn(T, T) -> bool + Copy,
    out: &mut Out<'_>,
) -> bool {
    match out {
        Out::Hit(true) => hit(a, b, len, f),
        Out::Hit(false) => hit(a, b, len, move |x, y| !f(x, y)),
        Out::Bits(o) => {
            bits(a, b, o, f);
            false
        }
    }
}

/// Whether `f` holds for some pair (an or-fold the compiler vectorises; no early exit
/// inside one block).
#[inline(always)]
fn hit<T: Num>(a: Src<'_, T>, b: Src<'_, T>, len: usize, f: impl Fn(T, T) -> bool) -> bool {
    match (a, b) {
        (Src::V(x), Src::V(y)) => x
            .iter()
            .zip(y)
            .take(len)
            .fold(false, |h, (&x, &y)| h | f(x, y)),
        (Src::V(x), Src::S(y)) => x.iter().take(len).fold(false, |h, &x| h | f(x, y)),
        (Src::S(x), Src::V(y)) => y.iter().take(len).fold(false, |h, &y| h | f(x, y)),
        (Src::S(x), Src::S(y)) => len > 0 && f(x, y),
    }
}

#[inline(always)]
fn bits<T: Num>(
    a: Src<'_, T>,
    b: Src<'_, T>,
    out: &mut [MaybeUninit<Bit>],
    f: impl Fn(T, T) -> bool,
) {
    match (a, b) {
        (Src::V(x), Src::V(y)) => {
            for ((o, &x), &y) in out.iter_mut().zip(x).zip(y) {
                o.write(Bit(f(x, y)));
            }
        }
        (Src::V(x), Src::S(y)) => {
            for (o, &x) in out.iter_mut().zip(x) {
                o.write(Bit(f(x, y)));
            }
        }
        (Src::S(x), Src::V(y)) => {
            for (o, &y) in out.iter_mut().zip(y) {
                o.write(Bit(f(x, y)));
            }
        }
        (Src::S(x), Src::S(y)) => {
            let v = f(x, y);
            for o in out.iter_mut() {
                o.write(Bit(v));
            }
        }
    }
}
