//! The elementwise steps over a block: straight loops for each pairing of slices and single
//! values, computed in the operands' type (f32 only where exact) and stored in the result's.

use super::num::{Num, Src};
use super::vmath::Fun;
use crate::graph::ops::{eval_binary, eval_unary};
use crate::values::ops::whole_power::{real_pow, small_whole, whole_powers};
use crate::values::ops::{Bin, Un};

/// `dst[i] = f(a[i], b[i])`, a straight loop for each pairing of slices and single values.
#[inline(always)]
fn zip2<T: Num, R: Num>(a: Src<'_, T>, b: Src<'_, T>, dst: &mut [R], f: impl Fn(T, T) -> R) {
    match (a, b) {
        (Src::V(x), Src::V(y)) => {
            for ((d, &x), &y) in dst.iter_mut().zip(x).zip(y) {
                *d = f(x, y);
            }
        }
        (Src::V(x), Src::S(y)) => {
            for (d, &x) in dst.iter_mut().zip(x) {
                *d = f(x, y);
            }
        }
        (Src::S(x), Src::V(y)) => {
            for (d, &y) in dst.iter_mut().zip(y) {
                *d = f(x, y);
            }
        }
        (Src::S(x), Src::S(y)) => dst.fill(f(x, y)),
    }
}

/// `zip2` of `f` where `ok` holds for a pair and of `slow` where not: `f` first over every
/// pair (a straight loop the compiler vectorises), then the pairs outside `ok`, if any,
/// recomputed.
#[inline(always)]
fn zip2_checked<T: Num, R: Num>(
    a: Src<'_, T>,
    b: Src<'_, T>,
    dst: &mut [R],
    ok: impl Fn(T, T) -> bool + Copy,
    f: impl Fn(T, T) -> R,
    slow: impl Fn(T, T) -> R,
) {
    zip2(a, b, dst, f);
    let n = dst.len();
    let bad = match (a, b) {
        (Src::V(x), Src::V(y)) => x
            .iter()
            .zip(y)
            .take(n)
            .fold(false, |acc, (&x, &y)| acc | !ok(x, y)),
        (Src::V(x), Src::S(y)) => x.iter().take(n).fold(false, |acc, &x| acc | !ok(x, y)),
        (Src::S(x), Src::V(y)) => y.iter().take(n).fold(false, |acc, &y| acc | !ok(x, y)),
        (Src::S(x), Src::S(y)) => !ok(x, y),
    };
    if bad {
        let fix = |d: &mut R, x: T, y: T| {
            if !ok(x, y) {
                *d = slow(x, y);
            }
        };
        match (a, b) {
            (Src::V(x), Src::V(y)) => {
                for ((d, &x), &y) in dst.iter_mut().zip(x).zip(y) {
                    fix(d, x, y);
                }
            }
            (Src::V(x), Src::S(y)) => {
                for (d, &x) in dst.iter_mut().zip(x) {
                    fix(d, x, y);
                }
            }
            (Src::S(x), Src::V(y)) => {
                for (d, &y) in dst.iter_mut().zip(y) {
                    fix(d, x, y);
                }
            }
            (Src::S(x), Src::S(y)) => {
                for d in dst.iter_mut() {
                    fix(d, x, y);
                }
            }
        }
    }
}

/// Whole numbers below 2^52 in magnitude, the divisor nonzero (and the dividend too, for
/// rem, whose zero keeps its sign): there `x - floor(x / y) * y` (`mod`) and
/// `x - fix(x / y) * y` (`rem`) are exact, the quotient's rounding never crossing a whole
/// number, and equal to the integer remainders of `mod_f64` and `rem_f64`.
#[inline(always)]
fn whole_pair(x: f64, y: f64, rem: bool) -> bool {
    const WHOLE: f64 = 4503599627370496.0;
    (x.abs() < WHOLE)
        & (y.abs() < WHOLE)
        & (y != 0.0)
        & (!rem | (x != 0.0))
        & (x == x.floor())
        & (y == y.floor())
}

#[inline(always)]
pub(super) fn map1<T: Num, R: Num>(a: Src<'_, T>, dst: &mut [R], f: impl Fn(T) -> R) {
    match a {
        Src::V(x) => {
            for (d, &x) in dst.iter_mut().zip(x) {
                *d = f(x);
            }
        }
        Src::S(x) => dst.fill(f(x)),
    }
}

#[inline(always)]
fn max_t<T: Num>(x: T, y: T) -> T {
    if x.is_nan() {
        y
    } else if y.is_nan() || x >= y {
        x
    } else {
        y
    }
}

#[inline(always)]
fn min_t<T: Num>(x: T, y: T) -> T {
    if x.is_nan() {
        y
    } else if y.is_nan() || x <= y {
        x
    } else {
        y
    }
}

/// A binary step computed in `T` and stored as `R` (f32 in `T` only where exact).
#[inline(always)]
pub(super) fn binary<T: Num, R: Num>(op: Bin, a: Src<'_, T>, b: Src<'_, T>, dst: &mut [R]) {
    use Bin::*;
    let r = |v: T| R::from64(v.to64());
    let nz = |v: T| v != T::ZERO;
    match op {
        Add => zip2(a, b, dst, |x, y| r(x.add(y))),
        Sub => zip2(a, b, dst, |x, y| r(x.sub(y))),
        Mul => zip2(a, b, dst, |x, y| r(x.mul(y))),
        Div => zip2(a, b, dst, |x, y| r(x.div(y))),
        LDiv => zip2(a, b, dst, |x, y| r(y.div(x))),
        Eq => zip2(a, b, dst, |x, y| R::of_bool(x == y)),
        Ne => zip2(a, b, dst, |x, y| R::of_bool(x != y)),
        Lt => zip2(a, b, dst, |x, y| R::of_bool(x < y)),
        Le => zip2(a, b, dst, |x, y| R::of_bool(x <= y)),
        Gt => zip2(a, b, dst, |x, y| R::of_bool(x > y)),
        Ge => zip2(a, b, dst, |x, y| R::of_bool(x >= y)),
        And => zip2(a, b, dst, |x, y| R::of_bool(nz(x) & nz(y))),
        Or => zip2(a, b, dst, |x, y| R::of_bool(nz(x) | nz(y))),
        Xor => zip2(a, b, dst, |x, y| R::of_bool(nz(x) != nz(y))),
        Max => zip2(a, b, dst, |x, y| r(max_t(x, y))),
        Min => zip2(a, b, dst, |x, y| r(min_t(x, y))),
        // x.^2 of a single is x.*x in double, rounded: the square is exact in double, so it
        // is what pow gives (not so for doubles, whose pow may round the other way)
        Pow if R::SINGLE && !T::SINGLE && matches!(b, Src::S(y) if y.to64() == 2.0) => {
            zip2(a, b, dst, |x, _| r(x.mul(x)))
        }
        // pow, mod and rem in straight loops, not through the per-element dispatch of
        // eval_binary (the same functions)
        // whole exponents up to 32 by repeated squaring in double-double (`whole_power`:
        // glibc's scalar pow was 86% of `x.^3` of doubles), the rest by pow; in double
        Pow => match (a, b) {
            (Src::V(x), Src::S(y)) if small_whole(y.to64()).is_some() => {
                let k = small_whole(y.to64()).unwrap_or(0);
                whole_powers(x, k, dst, |v: T| v.to64(), R::from64)
            }
            _ => zip2(a, b, dst, |x, y| R::from64(real_pow(x.to64(), y.to64()))),
        },
        // mod and rem of whole numbers by a division and a rounding (vectorised: an
        // integer remainder an element was most of `mod(floor(x*1000), 7)`), the rest by
        // the general functions
        Mod => zip2_checked(
            a,
            b,
            dst,
            |x, y| whole_pair(x.to64(), y.to64(), false),
            |x, y| {
                let (x, y) = (x.to64(), y.to64());
                R::from64(x - (x / y).floor() * y)
            },
            |x, y| R::from64(crate::values::ops::elementwise::mod_f64(x.to64(), y.to64())),
        ),
        Rem => zip2_checked(
            a,
            b,
            dst,
            |x, y| whole_pair(x.to64(), y.to64(), true),
            |x, y| {
                let (x, y) = (x.to64(), y.to64());
                R::from64(x - (x / y).trunc() * y)
            },
            |x, y| R::from64(crate::values::ops::elementwise::rem_f64(x.to64(), y.to64())),
        ),
        _ => zip2(a, b, dst, |x, y| {
            R::from64(eval_binary(op, x.to64(), y.to64()))
        }),
    }
}

/// A unary step that is not one of `vmath`'s functions.
#[inline(always)]
pub(super) fn unary<T: Num, R: Num>(op: Un, a: Src<'_, T>, dst: &mut [R]) {
    use Un::*;
    let r = |v: T| R::from64(v.to64());
    match op {
        Neg => map1(a, dst, |x| r(x.neg())),
        Abs => map1(a, dst, |x| r(x.abs())),
        Sqrt => map1(a, dst, |x| r(x.sqrt())),
        Floor => map1(a, dst, |x| r(x.floor())),
        Ceil => map1(a, dst, |x| r(x.ceil())),
        Round => map1(a, dst, |x| r(x.round())),
        Fix => map1(a, dst, |x| r(x.trunc())),
        Real | Conj => map1(a, dst, r),
        Not => map1(a, dst, |x| R::of_bool(x == T::ZERO)),
        IsNan => map1(a, dst, |x| R::of_bool(x.is_nan())),
        IsInf => map1(a, dst, |x| R::of_bool(x.is_infinite())),
        IsFinite => map1(a, dst, |x| R::of_bool(!x.is_nan() && !x.is_infinite())),
        Sign => map1(a, dst, |x| {
            r(if x > T::ZERO {
                T::ONE
            } else if x < T::ZERO {
                T::ONE.neg()
            } else {
                x
            })
        }),
        _ => map1(a, dst, |x| R::from64(eval_unary(op, x.to64()))),
    }
}

/// Whether `op` is one of `vmath`'s vectorised functions.
pub fn is_vmath(op: Un) -> bool {
    vfun(op).is_some()
}

pub(super) fn vfun(op: Un) -> Option<Fun> {
    match op {
        Un::Sin => Some(Fun::Sin),
        Un::Cos => Some(Fun::Cos),
        Un::Exp => Some(Fun::Exp),
        Un::Log => Some(Fun::Log),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::ops::elementwise::{mod_f64, rem_f64};

    /// The vectorised mod and rem give the general functions' bits for every pairing of
    /// whole numbers, fractions, zeros of both signs, huge values, infinities and NaN.
    #[test]
    fn mod_and_rem_match_the_general_functions() {
        let mut s = 99u64;
        let mut next = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s >> 11
        };
        let mut xs: Vec<f64> = (0..4000)
            .map(|k| {
                let v = (next() % 2_000_001) as f64 - 1_000_000.0;
                if k % 5 == 0 { v * 0.37 } else { v }
            })
            .collect();
        xs.extend([
            0.0,
            -0.0,
            7.0,
            -7.0,
            4503599627370495.0,
            -4503599627370496.0,
            9007199254740991.0,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            0.5,
            -2.5,
        ]);
        let ys = [
            7.0,
            -7.0,
            1.0,
            3.0,
            -1000.0,
            0.0,
            -0.0,
            0.1,
            2.5,
            1e20,
            4503599627370497.0,
            f64::INFINITY,
            f64::NAN,
        ];
        for &y in &ys {
            for (op, reference) in [
                (Bin::Mod, mod_f64 as fn(f64, f64) -> f64),
                (Bin::Rem, rem_f64),
            ] {
                let mut d = vec![0.0f64; xs.len()];
                binary::<f64, f64>(op, Src::V(&xs), Src::S(y), &mut d);
                for (&x, &v) in xs.iter().zip(&d) {
                    let r = reference(x, y);
                    assert!(
                        v.to_bits() == r.to_bits() || (v.is_nan() && r.is_nan()),
                        "{op:?}({x}, {y}) = {v}, not {r}"
                    );
                }
                // the divisor as a slice, the dividend as one value
                let mut d = vec![0.0f64; ys.len()];
                binary::<f64, f64>(op, Src::S(y), Src::V(&ys), &mut d);
                for (&q, &v) in ys.iter().zip(&d) {
                    let r = reference(y, q);
                    assert!(
                        v.to_bits() == r.to_bits() || (v.is_nan() && r.is_nan()),
                        "{op:?}({y}, {q}) = {v}, not {r}"
                    );
                }
            }
        }
    }
}
