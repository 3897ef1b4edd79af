//! Typed integer kernels: arithmetic and comparisons of int8..uint32 arrays (with arrays of
//! their own class or with doubles) read in their own storage type and written straight into
//! the result's, in parallel blocks when large (`kernels::zip`), instead of widening both
//! operands to f64 vectors, computing and narrowing a third. Each element is computed as the
//! general path computes it: in double (exact for these classes: every value and every sum
//! and difference is a double, and a product or quotient that a double rounds is past the
//! class's range or rounds the same), then rounded half away from zero and saturated, NaN to
//! 0; so results are identical to it. Sums and differences of two arrays of one class are
//! saturating integer operations (the same values, and the processor's own saturating
//! instructions for 8 and 16 bits). int64 and uint64, whose values a double cannot hold, take
//! the exact path (`int_arith`) except for sums, differences and products of one class,
//! which are the integer type's own saturating operations.

use super::Bin;
use super::kernels::zip;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Elem, Tensor};
use std::mem::MaybeUninit;

/// `x` rounded half away from zero and saturated to `[lo, hi]` (whole bounds), NaN to 0:
/// `saturate` without a call per element (a clamp, a truncating conversion and a fix-up).
#[inline(always)]
fn round_sat(x: f64, lo: f64, hi: f64) -> i64 {
    let c = if x >= lo {
        if x <= hi { x } else { hi }
    } else if x < lo {
        lo
    } else {
        0.0
    };
    let t = c as i64;
    // exact: c and its truncation share their leading bits
    let d = c - t as f64;
    t + (d >= 0.5) as i64 - (d <= -0.5) as i64
}

/// An operand of an integer operation: the class's own values or doubles.
enum Operand<'a, T> {
    Own(&'a [T]),
    F64(&'a [f64]),
}

trait Int: Elem + Send + Sync + PartialOrd {
    const LO: f64;
    const HI: f64;
    fn of(v: i64) -> Self;
    fn wide(self) -> i64;
    fn sat_add(self, o: Self) -> Self;
    fn sat_sub(self, o: Self) -> Self;
    fn wrap_mul(self, o: Self) -> Self;
    fn own(d: &Data) -> Option<&[Self]>;
    fn wrap(v: Vec<Self>) -> Data;
}

macro_rules! int {
    ($t:ty, $v:ident) => {
        impl Int for $t {
            const LO: f64 = <$t>::MIN as f64;
            const HI: f64 = <$t>::MAX as f64;
            #[inline(always)]
            fn of(v: i64) -> $t {
                v as $t
            }
            #[inline(always)]
            fn wide(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn sat_add(self, o: $t) -> $t {
                self.saturating_add(o)
            }
            #[inline(always)]
            fn sat_sub(self, o: $t) -> $t {
                self.saturating_sub(o)
            }
            #[inline(always)]
            fn wrap_mul(self, o: $t) -> $t {
                self.wrapping_mul(o)
            }
            fn own(d: &Data) -> Option<&[$t]> {
                match d {
                    Data::$v(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: Vec<$t>) -> Data {
                Data::$v(v)
            }
        }
    };
}
int!(i8, I8);
int!(i16, I16);
int!(i32, I32);
int!(u8, U8);
int!(u16, U16);
int!(u32, U32);

fn operand<T: Int>(d: &Data) -> Option<Operand<'_, T>> {
    match d {
        Data::F64(v) => Some(Operand::F64(v)),
        _ => T::own(d).map(Operand::Own),
    }
}

/// `f` (computed in double, then rounded and saturated) over two operands.
fn through_f64<T: Int>(
    a: &Operand<'_, T>,
    sa: &Shape,
    b: &Operand<'_, T>,
    sb: &Shape,
    out: &Shape,
    f: impl Fn(f64, f64) -> f64 + Sync,
) -> Vec<T> {
    let g = |p: f64, q: f64| T::of(round_sat(f(p, q), T::LO, T::HI));
    match (a, b) {
        (Operand::Own(a), Operand::Own(b)) => {
            zip(a, sa, b, sb, out, |p, q| g(p.to_f64(), q.to_f64()))
        }
        (Operand::Own(a), Operand::F64(b)) => zip(a, sa, b, sb, out, |p, q| g(p.to_f64(), q)),
        (Operand::F64(a), Operand::Own(b)) => zip(a, sa, b, sb, out, |p, q| g(p, q.to_f64())),
        (Operand::F64(a), Operand::F64(b)) => zip(a, sa, b, sb, out, g),
    }
}

/// `f` over `x` into `out` (every element written), a straight loop.
#[inline(always)]
fn each<T: Copy, R>(x: &[T], out: &mut [MaybeUninit<R>], f: &impl Fn(T) -> R) {
    for (o, &v) in out.iter_mut().zip(x) {
        o.write(f(v));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn each_avx512<T: Copy, R>(x: &[T], out: &mut [MaybeUninit<R>], f: &impl Fn(T) -> R) {
    each(x, out, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn each_avx2<T: Copy, R>(x: &[T], out: &mut [MaybeUninit<R>], f: &impl Fn(T) -> R) {
    each(x, out, f)
}

/// `each` in the widest vectors the processor has: the build's baseline (SSE2) has no
/// 64-bit integer compare or multiply and no 32-bit saturating add, so those loops ran an
/// element at a time.
fn each_wide<T: Copy, R>(x: &[T], out: &mut [MaybeUninit<R>], f: &impl Fn(T) -> R) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            // SAFETY: the processor has the features the function is compiled for.
            return unsafe { each_avx512(x, out, f) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { each_avx2(x, out, f) };
        }
    }
    each(x, out, f)
}

/// `f` over a slice into a new vector, in parallel blocks when large, each block in wide
/// vectors.
fn map_wide<T: Elem + Sync, R: Elem + Send>(x: &[T], f: impl Fn(T) -> R + Sync) -> Vec<R> {
    super::kernels::fill_new(x.len(), |s, c| each_wide(&x[s..s + c.len()], c, &f))
}

/// `f` over two slices of one length (pairs), as `map_wide`.
fn zip_wide<T: Elem + Sync, R: Elem + Send>(
    a: &[T],
    b: &[T],
    f: impl Fn(T, T) -> R + Sync,
) -> Vec<R> {
    super::kernels::fill_new(a.len().min(b.len()), |s, c| {
        let (a, b) = (&a[s..s + c.len()], &b[s..s + c.len()]);
        each_wide2(a, b, c, &f)
    })
}

#[inline(always)]
fn each2<T: Copy, R>(a: &[T], b: &[T], out: &mut [MaybeUninit<R>], f: &impl Fn(T, T) -> R) {
    for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
        o.write(f(x, y));
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")]
fn each2_avx512<T: Copy, R>(a: &[T], b: &[T], out: &mut [MaybeUninit<R>], f: &impl Fn(T, T) -> R) {
    each2(a, b, out, f)
}

fn each_wide2<T: Copy, R>(a: &[T], b: &[T], out: &mut [MaybeUninit<R>], f: &impl Fn(T, T) -> R) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512bw")
    {
        // SAFETY: the processor has the features the function is compiled for.
        return unsafe { each2_avx512(a, b, out, f) };
    }
    each2(a, b, out, f)
}

/// The one value of a double operand when it is a whole number of at most 2^31 in
/// magnitude: then sums, differences and products with the class's values are exact in i64
/// (as they are in double), and comparisons exact too.
fn whole_scalar<T>(o: &Operand<'_, T>) -> Option<i64> {
    match o {
        Operand::F64([q]) if q.fract() == 0.0 && q.abs() <= 2147483648.0 => Some(*q as i64),
        _ => None,
    }
}

/// `a op q` (or `q op a` when `left`) of the class's values and a whole number, saturated:
/// the same values as through double. A `q` of the class runs in the class's own width
/// (sixteen int32 lanes a vector): sums and differences are its saturating operations, and
/// a product saturates where `p` passes the bounds `hi / q` and `lo / q` (found once), the
/// wrapping product being exact between them. Other `q` run in i64 (eight lanes, a 64-bit
/// multiply: `a * 3` of int32 was 1.5-1.8x NumPy's time so).
fn with_whole<T: Int>(op: Bin, a: &[T], q: i64, left: bool) -> Option<Vec<T>> {
    let (lo, hi) = (T::LO as i64, T::HI as i64);
    if (lo..=hi).contains(&q) {
        let c = T::of(q);
        match (op, left) {
            (Bin::Add, _) => return Some(map_wide(a, move |p: T| p.sat_add(c))),
            (Bin::Sub, false) => return Some(map_wide(a, move |p: T| p.sat_sub(c))),
            (Bin::Sub, true) => return Some(map_wide(a, move |p: T| c.sat_sub(p))),
            (Bin::Mul, _) => return Some(scaled(a, q)),
            _ => {}
        }
    }
    let sat = move |v: i64| T::of(v.clamp(lo, hi));
    Some(match (op, left) {
        (Bin::Add, _) => map_wide(a, |p: T| sat(p.wide() + q)),
        (Bin::Sub, false) => map_wide(a, |p: T| sat(p.wide() - q)),
        (Bin::Sub, true) => map_wide(a, |p: T| sat(q - p.wide())),
        (Bin::Mul, _) => map_wide(a, |p: T| sat(p.wide() * q)),
        _ => return None,
    })
}

/// `p * q` saturated for a `q` of the class: `hi` where the product passes above the class,
/// `lo` where it passes below, else the wrapping product (the true product modulo 2^bits,
/// and the true product fits). The bounds on `p` are found once, in i64, and kept inside
/// the class (a bound past it is one no `p` passes).
fn scaled<T: Int>(a: &[T], q: i64) -> Vec<T> {
    let (lo, hi) = (T::LO as i64, T::HI as i64);
    if q == 0 {
        return map_wide(a, |_: T| T::of(0));
    }
    let floor =
        |n: i64, d: i64| n.div_euclid(d) - if d < 0 && n.rem_euclid(d) != 0 { 1 } else { 0 };
    let ceil = |n: i64, d: i64| -floor(-n, d);
    let inside = |v: i64| T::of(v.clamp(lo, hi));
    let c = T::of(q);
    let (top, bottom) = (T::of(hi), T::of(lo));
    if q > 0 {
        // p q > hi exactly when p > floor(hi / q); p q < lo when p < ceil(lo / q)
        let (above, below) = (inside(floor(hi, q)), inside(ceil(lo, q)));
        map_wide(a, move |p: T| {
            if p > above {
                top
            } else if p < below {
                bottom
            } else {
                p.wrap_mul(c)
            }
        })
    } else {
        // q < 0: p q > hi exactly when p < ceil(hi / q); p q < lo when p > floor(lo / q)
        let (high_when_below, low_when_above) = (inside(ceil(hi, q)), inside(floor(lo, q)));
        map_wide(a, move |p: T| {
            if p < high_when_below {
                top
            } else if p > low_when_above {
                bottom
            } else {
                p.wrap_mul(c)
            }
        })
    }
}

fn small<T: Int>(op: Bin, ta: &Tensor, tb: &Tensor, out: &Shape) -> Option<Data> {
    let (a, b) = (operand::<T>(&ta.data)?, operand::<T>(&tb.data)?);
    let (sa, sb) = (&ta.shape, &tb.shape);
    match (&a, &b) {
        (Operand::Own(x), _) if x.len() == out.numel() => {
            if let Some(v) = whole_scalar(&b).and_then(|q| with_whole(op, x, q, false)) {
                return Some(T::wrap(v));
            }
        }
        (_, Operand::Own(y)) if y.len() == out.numel() => {
            if let Some(v) = whole_scalar(&a).and_then(|q| with_whole(op, y, q, true)) {
                return Some(T::wrap(v));
            }
        }
        _ => {}
    }
    if let (Operand::Own(x), Operand::Own(y)) = (&a, &b) {
        if x.len() == y.len() && sa == sb {
            match op {
                Bin::Add => return Some(T::wrap(zip_wide(x, y, T::sat_add))),
                Bin::Sub => return Some(T::wrap(zip_wide(x, y, T::sat_sub))),
                _ => {}
            }
        }
        match op {
            Bin::Add => return Some(T::wrap(zip(x, sa, y, sb, out, T::sat_add))),
            Bin::Sub => return Some(T::wrap(zip(x, sa, y, sb, out, T::sat_sub))),
            _ => {}
        }
    }
    let v = match op {
        Bin::Add => through_f64(&a, sa, &b, sb, out, |p, q| p + q),
        Bin::Sub => through_f64(&a, sa, &b, sb, out, |p, q| p - q),
        Bin::Mul => through_f64(&a, sa, &b, sb, out, |p, q| p * q),
        Bin::Div => through_f64(&a, sa, &b, sb, out, |p, q| p / q),
        _ => return None,
    };
    Some(T::wrap(v))
}

/// Sums, differences and products of two int64 or two uint64 arrays: the type's saturating
/// operations, which give what the exact path's i128 arithmetic clamped gives.
fn wide(op: Bin, ta: &Tensor, tb: &Tensor, out: &Shape) -> Option<Data> {
    let (sa, sb) = (&ta.shape, &tb.shape);
    Some(match (&ta.data, &tb.data, op) {
        (Data::I64(a), Data::I64(b), Bin::Add) => {
            Data::I64(zip(a, sa, b, sb, out, i64::saturating_add))
        }
        (Data::I64(a), Data::I64(b), Bin::Sub) => {
            Data::I64(zip(a, sa, b, sb, out, i64::saturating_sub))
        }
        (Data::I64(a), Data::I64(b), Bin::Mul) => {
            Data::I64(zip(a, sa, b, sb, out, i64::saturating_mul))
        }
        (Data::U64(a), Data::U64(b), Bin::Add) => {
            Data::U64(zip(a, sa, b, sb, out, u64::saturating_add))
        }
        (Data::U64(a), Data::U64(b), Bin::Sub) => {
            Data::U64(zip(a, sa, b, sb, out, u64::saturating_sub))
        }
        (Data::U64(a), Data::U64(b), Bin::Mul) => {
            Data::U64(zip(a, sa, b, sb, out, u64::saturating_mul))
        }
        _ => return None,
    })
}

/// `a op b` for an integer result class `rc` (`+ - .* ./`); None for other operands and
/// operations (the general path).
pub fn arith(op: Bin, ta: &Tensor, tb: &Tensor, out: &Shape, rc: Class) -> Option<Tensor> {
    let data = match rc {
        Class::Int8 => small::<i8>(op, ta, tb, out),
        Class::Int16 => small::<i16>(op, ta, tb, out),
        Class::Int32 => small::<i32>(op, ta, tb, out),
        Class::UInt8 => small::<u8>(op, ta, tb, out),
        Class::UInt16 => small::<u16>(op, ta, tb, out),
        Class::UInt32 => small::<u32>(op, ta, tb, out),
        Class::Int64 | Class::UInt64 => wide(op, ta, tb, out),
        _ => None,
    }?;
    Some(Tensor::new(out.clone(), data))
}

fn compare_as<T: Int>(op: Bin, ta: &Tensor, tb: &Tensor, out: &Shape) -> Option<Vec<bool>> {
    let (a, b) = (operand::<T>(&ta.data)?, operand::<T>(&tb.data)?);
    let (sa, sb) = (&ta.shape, &tb.shape);
    let f = |p: f64, q: f64| match op {
        Bin::Eq => p == q,
        Bin::Ne => p != q,
        Bin::Lt => p < q,
        Bin::Le => p <= q,
        Bin::Gt => p > q,
        _ => p >= q,
    };
    // against a whole number: compared as integers (q op x is x op' q), the operation
    // chosen once, outside the loop
    let (x, q, op) = match (&a, &b) {
        (Operand::Own(x), _) if x.len() == out.numel() => (Some(*x), whole_scalar(&b), op),
        (_, Operand::Own(y)) if y.len() == out.numel() => (
            Some(*y),
            whole_scalar(&a),
            match op {
                Bin::Lt => Bin::Gt,
                Bin::Le => Bin::Ge,
                Bin::Gt => Bin::Lt,
                Bin::Ge => Bin::Le,
                o => o,
            },
        ),
        _ => (None, None, op),
    };
    if let (Some(x), Some(q)) = (x, q) {
        // a bound inside the class's range: compared in the class's own width (sixteen
        // int32 lanes a vector, not eight widened to 64 bits)
        if q as f64 >= T::LO && q as f64 <= T::HI {
            let q = T::of(q);
            return Some(match op {
                Bin::Eq => map_wide(x, |p: T| p == q),
                Bin::Ne => map_wide(x, |p: T| p != q),
                Bin::Lt => map_wide(x, |p: T| p < q),
                Bin::Le => map_wide(x, |p: T| p <= q),
                Bin::Gt => map_wide(x, |p: T| p > q),
                _ => map_wide(x, |p: T| p >= q),
            });
        }
        return Some(match op {
            Bin::Eq => map_wide(x, |p: T| p.wide() == q),
            Bin::Ne => map_wide(x, |p: T| p.wide() != q),
            Bin::Lt => map_wide(x, |p: T| p.wide() < q),
            Bin::Le => map_wide(x, |p: T| p.wide() <= q),
            Bin::Gt => map_wide(x, |p: T| p.wide() > q),
            _ => map_wide(x, |p: T| p.wide() >= q),
        });
    }
    Some(match (a, b) {
        // two arrays of the class: compared as integers (exact), the operation chosen once
        // of one shape: pairs in wide vectors
        (Operand::Own(a), Operand::Own(b)) if sa == sb && a.len() == b.len() => match op {
            Bin::Eq => zip_wide(a, b, |p: T, q: T| p == q),
            Bin::Ne => zip_wide(a, b, |p: T, q: T| p != q),
            Bin::Lt => zip_wide(a, b, |p: T, q: T| p < q),
            Bin::Le => zip_wide(a, b, |p: T, q: T| p <= q),
            Bin::Gt => zip_wide(a, b, |p: T, q: T| p > q),
            _ => zip_wide(a, b, |p: T, q: T| p >= q),
        },
        (Operand::Own(a), Operand::Own(b)) => match op {
            Bin::Eq => zip(a, sa, b, sb, out, |p: T, q: T| p.wide() == q.wide()),
            Bin::Ne => zip(a, sa, b, sb, out, |p: T, q: T| p.wide() != q.wide()),
            Bin::Lt => zip(a, sa, b, sb, out, |p: T, q: T| p.wide() < q.wide()),
            Bin::Le => zip(a, sa, b, sb, out, |p: T, q: T| p.wide() <= q.wide()),
            Bin::Gt => zip(a, sa, b, sb, out, |p: T, q: T| p.wide() > q.wide()),
            _ => zip(a, sa, b, sb, out, |p: T, q: T| p.wide() >= q.wide()),
        },
        (Operand::Own(a), Operand::F64(b)) => zip(a, sa, b, sb, out, |p, q| f(p.to_f64(), q)),
        (Operand::F64(a), Operand::Own(b)) => zip(a, sa, b, sb, out, |p, q| f(p, q.to_f64())),
        (Operand::F64(_), Operand::F64(_)) => return None,
    })
}

/// Comparisons of an int8..uint32 array with one of its class or with doubles, exact in
/// double; None for everything else.
pub fn compare(op: Bin, ta: &Tensor, tb: &Tensor, out: &Shape) -> Option<Tensor> {
    if !matches!(
        op,
        Bin::Eq | Bin::Ne | Bin::Lt | Bin::Le | Bin::Gt | Bin::Ge
    ) {
        return None;
    }
    let class = if ta.class().is_int() {
        ta.class()
    } else {
        tb.class()
    };
    let r = match class {
        Class::Int8 => compare_as::<i8>(op, ta, tb, out),
        Class::Int16 => compare_as::<i16>(op, ta, tb, out),
        Class::Int32 => compare_as::<i32>(op, ta, tb, out),
        Class::UInt8 => compare_as::<u8>(op, ta, tb, out),
        Class::UInt16 => compare_as::<u16>(op, ta, tb, out),
        Class::UInt32 => compare_as::<u32>(op, ta, tb, out),
        _ => None,
    }?;
    Some(Tensor::bools(out.clone(), r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tensor::saturate;

    #[test]
    fn rounding_and_saturation_match_the_general_rule() {
        let mut xs = vec![
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            0.49999999999999994,
            -0.49999999999999994,
            126.5,
            127.49,
            127.5,
            -128.5,
            -129.0,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            4294967295.5,
            2147483647.5,
            -2147483648.5,
            -0.0,
        ];
        xs.extend((0..2000).map(|k| (k as f64 - 1000.0) * 0.25 + 1e-3 * (k % 7) as f64));
        for (lo, hi) in [
            (-128i128, 127i128),
            (0, 255),
            (-32768, 32767),
            (0, 65535),
            (-2147483648, 2147483647),
            (0, 4294967295),
        ] {
            for &x in &xs {
                assert_eq!(
                    round_sat(x, lo as f64, hi as f64) as i128,
                    saturate(x, lo, hi),
                    "{x} in [{lo}, {hi}]"
                );
            }
        }
    }
}
