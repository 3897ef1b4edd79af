//! One block of a group: each step in turn over the block's elements, each a straight loop
//! over slices of its own type (f32 or f64) that the compiler vectorises.

use super::access;
use super::program::{Place, Program, Ty, exact_in_single_bin, exact_in_single_un};
use super::vmath::{self, Fun};
use super::vmath32;
use crate::graph::ops::{eval_binary, eval_unary};
use crate::plan::Step;
use crate::values::ops::{Bin, Un};
use std::mem::MaybeUninit;

/// Elements evaluated together (a few slots of them stay in the L1 and L2 caches).
pub const BLOCK: usize = 4096;

/// A thread's block slots and conversion buffers.
pub struct Scratch {
    pub s32: Vec<Vec<f32>>,
    pub s64: Vec<Vec<f64>>,
    pub(super) t: [Vec<f64>; 3],
}

thread_local! {
    /// Block buffers a thread's finished tasks gave back: a task takes its slots from here
    /// instead of allocating and zeroing them (a tenth of an elementwise pass at 1e7, with a
    /// task every 16 blocks). Every step writes its slot's block before anything reads it.
    static SPARE: std::cell::RefCell<(Vec<Vec<f32>>, Vec<Vec<f64>>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// Buffers kept per thread, at most.
const SPARE_MAX: usize = 64;

impl Scratch {
    pub fn new(p: &Program<'_>) -> Scratch {
        SPARE.with(|spare| {
            let mut spare = spare.borrow_mut();
            let (f32s, f64s) = &mut *spare;
            let mut f64s_take = || f64s.pop().unwrap_or_else(|| vec![0.0; BLOCK]);
            let t = [f64s_take(), f64s_take(), f64s_take()];
            let s64 = (0..p.slots64).map(|_| f64s_take()).collect();
            let s32 = (0..p.slots32)
                .map(|_| f32s.pop().unwrap_or_else(|| vec![0.0; BLOCK]))
                .collect();
            Scratch { s32, s64, t }
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let s32 = std::mem::take(&mut self.s32);
        let s64 = std::mem::take(&mut self.s64);
        let t = std::mem::take(&mut self.t);
        // (a thread being torn down keeps nothing)
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            let (f32s, f64s) = &mut *spare;
            for b in s32 {
                if f32s.len() < SPARE_MAX && b.len() == BLOCK {
                    f32s.push(b);
                }
            }
            for b in s64.into_iter().chain(t) {
                if f64s.len() < SPARE_MAX && b.len() == BLOCK {
                    f64s.push(b);
                }
            }
        });
    }
}

/// An operand over a block: a slice or one value.
#[derive(Clone, Copy)]
pub enum Src<'s, T> {
    V(&'s [T]),
    S(T),
}

/// The element types a block computes in.
pub trait Num: Copy + PartialOrd + Send + Sync + 'static {
    /// Whether this is f32.
    const SINGLE: bool;
    const ZERO: Self;
    const ONE: Self;
    fn to64(self) -> f64;
    fn from64(x: f64) -> Self;
    fn from32(x: f32) -> Self;
    fn of_bool(b: bool) -> Self {
        if b { Self::ONE } else { Self::ZERO }
    }
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn sqrt(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn round(self) -> Self;
    fn trunc(self) -> Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    /// The slice as f32s, where this is f32.
    fn slice32(s: &mut [Self]) -> Option<&mut [f32]>;
    /// The slice as f64s, where this is f64.
    fn slice64(s: &mut [Self]) -> Option<&mut [f64]>;
}

macro_rules! num {
    ($t:ty, $single:expr, $s32:expr, $s64:expr) => {
        impl Num for $t {
            #[inline(always)]
            fn slice32(s: &mut [$t]) -> Option<&mut [f32]> {
                $s32(s)
            }
            #[inline(always)]
            fn slice64(s: &mut [$t]) -> Option<&mut [f64]> {
                $s64(s)
            }
            const SINGLE: bool = $single;
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            #[inline(always)]
            fn to64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from64(x: f64) -> $t {
                x as $t
            }
            #[inline(always)]
            fn from32(x: f32) -> $t {
                x as $t
            }
            #[inline(always)]
            fn add(self, o: $t) -> $t {
                self + o
            }
            #[inline(always)]
            fn sub(self, o: $t) -> $t {
                self - o
            }
            #[inline(always)]
            fn mul(self, o: $t) -> $t {
                self * o
            }
            #[inline(always)]
            fn div(self, o: $t) -> $t {
                self / o
            }
            #[inline(always)]
            fn neg(self) -> $t {
                -self
            }
            #[inline(always)]
            fn abs(self) -> $t {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn floor(self) -> $t {
                <$t>::floor(self)
            }
            #[inline(always)]
            fn ceil(self) -> $t {
                <$t>::ceil(self)
            }
            #[inline(always)]
            fn round(self) -> $t {
                <$t>::round(self)
            }
            #[inline(always)]
            fn trunc(self) -> $t {
                <$t>::trunc(self)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                self != self
            }
            #[inline(always)]
            fn is_infinite(self) -> bool {
                <$t>::abs(self) == <$t>::INFINITY
            }
        }
    };
}
num!(f32, true, Some, |_| None);
num!(f64, false, |_| None, Some);

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
fn map1<T: Num, R: Num>(a: Src<'_, T>, dst: &mut [R], f: impl Fn(T) -> R) {
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

use crate::values::ops::whole_power::{real_pow, small_whole, whole_powers};

/// A binary step computed in `T` and stored as `R` (f32 in `T` only where exact).
#[inline(always)]
fn binary<T: Num, R: Num>(op: Bin, a: Src<'_, T>, b: Src<'_, T>, dst: &mut [R]) {
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
fn unary<T: Num, R: Num>(op: Un, a: Src<'_, T>, dst: &mut [R]) {
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

fn vfun(op: Un) -> Option<Fun> {
    match op {
        Un::Sin => Some(Fun::Sin),
        Un::Cos => Some(Fun::Cos),
        Un::Exp => Some(Fun::Exp),
        Un::Log => Some(Fun::Log),
        _ => None,
    }
}

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
