//! Host kernels for elementwise operations with implicit expansion and MATLAB's class rules.

use super::{Bin, BinKind};
use crate::interp::error::{MError, MResult};
use crate::values::class::{self, Class};
use crate::values::shape::{BroadcastIter, Shape};
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::Complex64;

// unary operations live in their own file; callers reach both kinds through this module
use super::int_arith::{int_op, mixed_int_op};
pub use super::unary::{real_un, unary, unary_tensor};

/// Combines two operands elementwise with implicit expansion.
pub fn map2<T: Copy, U: Copy, R>(
    a: &[T],
    sa: &Shape,
    b: &[U],
    sb: &Shape,
    out: &Shape,
    f: impl Fn(T, U) -> R,
) -> Vec<R> {
    use crate::interp::interrupt::{CHUNK, Ticker, poll_now};
    // A chunk at a time with a look at Ctrl-C between chunks (straight loops inside them).
    if sa == sb {
        let mut r = Vec::with_capacity(a.len());
        for (ca, cb) in a.chunks(CHUNK).zip(b.chunks(CHUNK)) {
            poll_now();
            r.extend(ca.iter().zip(cb).map(|(&x, &y)| f(x, y)));
        }
        r
    } else if a.len() == 1 && out == sb {
        let x = a[0];
        let mut r = Vec::with_capacity(b.len());
        for cb in b.chunks(CHUNK) {
            poll_now();
            r.extend(cb.iter().map(|&y| f(x, y)));
        }
        r
    } else if b.len() == 1 && out == sa {
        let y = b[0];
        let mut r = Vec::with_capacity(a.len());
        for ca in a.chunks(CHUNK) {
            poll_now();
            r.extend(ca.iter().map(|&x| f(x, y)));
        }
        r
    } else {
        let mut tick = Ticker::new();
        BroadcastIter::new(out, sa, sb)
            .map(|(i, j)| {
                tick.tick();
                f(a[i], b[j])
            })
            .collect()
    }
}

/// Whether x/y is within round-off of a whole number although y is not one (then MATLAB's
/// mod and rem return exactly 0, as in mod(0.3, 0.1)).
fn near_whole_quotient(x: f64, y: f64) -> bool {
    if y.fract() == 0.0 {
        return false;
    }
    let q = x / y;
    let r = q.round();
    r != 0.0 && ((q - r) / r).abs() < f64::EPSILON
}

/// MATLAB's `mod`: the result has the sign of the divisor; `mod(x, 0)` is `x`.
pub fn mod_f64(x: f64, y: f64) -> f64 {
    if y == 0.0 {
        return x;
    }
    if x.is_infinite() || y.is_nan() || x.is_nan() {
        return f64::NAN;
    }
    if y.is_infinite() {
        return if x == 0.0 || x.signum() == y.signum() {
            x
        } else {
            y
        };
    }
    if near_whole_quotient(x, y) {
        return 0.0;
    }
    let r = whole_rem(x, y);
    if r != 0.0 && (r < 0.0) != (y < 0.0) {
        r + y
    } else if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// MATLAB's `rem`: the result has the sign of the dividend; `rem(x, 0)` is NaN.
pub fn rem_f64(x: f64, y: f64) -> f64 {
    if y == 0.0 || x.is_infinite() || x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if y.is_infinite() {
        return x;
    }
    if near_whole_quotient(x, y) {
        return 0.0f64.copysign(x);
    }
    whole_rem(x, y)
}

/// `x % y` (y nonzero, both finite), by an integer division when both are whole numbers
/// below 2^53: exact, as fmod is, and many times faster than the software fmod (a
/// `mod(floor(x * 1000), 7)` spent most of its time there). Exact multiples never get here
/// (`near_whole_quotient`), so the sign of a zero remainder does not arise.
#[inline]
fn whole_rem(x: f64, y: f64) -> f64 {
    const LIMIT: f64 = 9007199254740992.0;
    if x != 0.0 && x.fract() == 0.0 && y.fract() == 0.0 && x.abs() < LIMIT && y.abs() < LIMIT {
        ((x as i64) % (y as i64)) as f64
    } else {
        x % y
    }
}

/// max/min ignoring NaN unless both are NaN.
pub fn max_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x >= y {
        x
    } else {
        y
    }
}
pub fn min_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x <= y {
        x
    } else {
        y
    }
}

/// Whether `x.^y` is a single cube: x*x of a single is exact in double, so x*x*x rounds
/// once, as pow does, and is many times faster (the host executor computes it the same way).
fn single_cube(x: &Tensor, rc: Class, y: &[f64]) -> bool {
    rc == Class::Single && x.class() == Class::Single && y.len() == 1 && y[0] == 3.0
}

use super::whole_power::{small_whole, whole_powers_wide};

/// The f64 kernel of a real binary operation.
#[inline]
pub fn f64_op(op: Bin, x: f64, y: f64) -> f64 {
    use Bin::*;
    let b = |c: bool| if c { 1.0 } else { 0.0 };
    match op {
        Add => x + y,
        Sub => x - y,
        Mul => x * y,
        Div => x / y,
        LDiv => y / x,
        Pow => super::whole_power::real_pow(x, y),
        Eq => b(x == y),
        Ne => b(x != y),
        Lt => b(x < y),
        Le => b(x <= y),
        Gt => b(x > y),
        Ge => b(x >= y),
        And => b(x != 0.0 && y != 0.0),
        Or => b(x != 0.0 || y != 0.0),
        Xor => b((x != 0.0) != (y != 0.0)),
        Max => max_f64(x, y),
        Min => min_f64(x, y),
        Atan2 => x.atan2(y),
        Hypot => x.hypot(y),
        Mod => mod_f64(x, y),
        Rem => rem_f64(x, y),
        Nthroot => super::more_real::nthroot(x, y),
        Atan2d => x.atan2(y).to_degrees(),
        Pow2 => super::more_real::pow2f(x, y),
        Beta => super::more_real::beta(x, y),
    }
}

pub(super) fn type_error(op: &str, v: &Value) -> MError {
    MError::new(
        "MATLAB:UndefinedFunction",
        format!(
            "Operator '{op}' is not supported for operands of type '{}'.",
            v.class_name()
        ),
    )
}

pub(super) fn check_nan_logical(t: &Tensor) -> MResult<()> {
    if t.class().is_float() && t.to_f64().iter().any(|x| x.is_nan()) {
        return Err(MError::new(
            "MATLAB:nologicalnan",
            "NaN's cannot be converted to logicals.",
        ));
    }
    Ok(())
}

/// Drops an all-zero imaginary part, as MATLAB does with the results of arithmetic.
pub fn demote_complex(t: Tensor) -> Tensor {
    use crate::interp::interrupt::{CHUNK, poll_now};
    // a chunk at a time, with a look at Ctrl-C between chunks
    fn real<C: Copy, R>(v: &[C], im: impl Fn(C) -> bool, re: impl Fn(C) -> R) -> Option<Vec<R>> {
        for part in v.chunks(CHUNK) {
            poll_now();
            if !part.iter().all(|&z| im(z)) {
                return None;
            }
        }
        let mut out = Vec::with_capacity(v.len());
        for part in v.chunks(CHUNK) {
            poll_now();
            out.extend(part.iter().map(|&z| re(z)));
        }
        Some(out)
    }
    let demoted = match &t.data {
        Data::C64(v) => real(v, |z| z.im == 0.0, |z| z.re).map(Data::F64),
        Data::C32(v) => real(v, |z| z.im == 0.0, |z| z.re).map(Data::F32),
        _ => None,
    };
    match demoted {
        Some(d) => Tensor::new(t.shape, d),
        None => t,
    }
}

/// `a op b` elementwise, for any two values.
pub fn binary(op: Bin, a: &Value, b: &Value) -> MResult<Value> {
    if let (Value::Num(x), Value::Num(y)) = (a, b) {
        let r = f64_op(op, *x, *y);
        return Ok(match op.kind() {
            BinKind::Arith => {
                if op == Bin::Pow && *x < 0.0 && y.fract() != 0.0 && y.is_finite() {
                    return Ok(Value::complex(Complex64::new(*x, 0.0).powf(*y)));
                }
                Value::Num(r)
            }
            _ => {
                if op.kind() == BinKind::Logic && (x.is_nan() || y.is_nan()) {
                    return Err(MError::new(
                        "MATLAB:nologicalnan",
                        "NaN's cannot be converted to logicals.",
                    ));
                }
                Value::Bool(r != 0.0)
            }
        });
    }
    if a.is_string() || b.is_string() {
        return crate::values::strings::string_binary(op, a, b);
    }
    if !a.is_numeric_like() {
        return Err(type_error(op.symbol(), a));
    }
    if !b.is_numeric_like() {
        return Err(type_error(op.symbol(), b));
    }
    let (ta, tb) = (a.tensor()?, b.tensor()?);
    Ok(Value::from(binary_tensor(op, &ta, &tb)?))
}

pub fn binary_tensor(op: Bin, ta: &Tensor, tb: &Tensor) -> MResult<Tensor> {
    let out = Shape::broadcast_checked(&ta.shape, &tb.shape)?;
    // the result's storage (a refusal is MATLAB's error, not an abort)
    crate::values::limits::check_dims(out.dims(), 8)?;
    match op.kind() {
        BinKind::Logic => {
            check_nan_logical(ta)?;
            check_nan_logical(tb)?;
            let (x, y) = (nonzero_vec(ta), nonzero_vec(tb));
            let r = match op {
                Bin::And => map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| p && q),
                Bin::Or => map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| p || q),
                _ => map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| p != q),
            };
            Ok(Tensor::bools(out, r))
        }
        BinKind::Compare => {
            if let Some(r) = super::kernels::compare(op, ta, tb, &out) {
                return Ok(r);
            }
            if ta.class().is_int() || tb.class().is_int() {
                if let Some(r) = super::int_kernels::compare(op, ta, tb, &out) {
                    return Ok(r);
                }
            }
            if ta.is_complex() || tb.is_complex() {
                let (x, y) = (ta.to_c64(), tb.to_c64());
                let r = map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| match op {
                    Bin::Eq => p == q,
                    Bin::Ne => p != q,
                    _ => f64_op(op, p.re, q.re) != 0.0,
                });
                return Ok(Tensor::bools(out, r));
            }
            if let (Some(x), Some(y)) = (exact_ints(ta), exact_ints(tb)) {
                if ta.class().is_int() && tb.class().is_int()
                    || needs_exact(ta.class())
                    || needs_exact(tb.class())
                {
                    let r = map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| {
                        cmp_i128(op, p, q)
                    });
                    return Ok(Tensor::bools(out, r));
                }
            }
            let (x, y) = (ta.to_f64(), tb.to_f64());
            let r = map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| {
                f64_op(op, p, q) != 0.0
            });
            Ok(Tensor::bools(out, r))
        }
        BinKind::Arith => arith(op, ta, tb, out),
    }
}

fn needs_exact(c: Class) -> bool {
    matches!(c, Class::Int64 | Class::UInt64)
}

fn cmp_i128(op: Bin, p: i128, q: i128) -> bool {
    match op {
        Bin::Eq => p == q,
        Bin::Ne => p != q,
        Bin::Lt => p < q,
        Bin::Le => p <= q,
        Bin::Gt => p > q,
        _ => p >= q,
    }
}

fn nonzero_vec(t: &Tensor) -> Vec<bool> {
    match &t.data {
        Data::Bool(v) => v.clone(),
        _ => (0..t.numel()).map(|i| t.nonzero(i)).collect(),
    }
}

/// Exact integer values of an integer array, or of a double array holding only integers.
fn exact_ints(t: &Tensor) -> Option<Vec<i128>> {
    if let Some(v) = t.data.as_i128() {
        return Some(v);
    }
    if matches!(
        t.data,
        Data::F64(_) | Data::F32(_) | Data::Bool(_) | Data::Char(_)
    ) {
        let v = t.to_f64();
        if v.iter().all(|x| x.fract() == 0.0 && x.abs() < 1.7e38) {
            return Some(v.iter().map(|&x| x as i128).collect());
        }
    }
    None
}

fn arith(op: Bin, ta: &Tensor, tb: &Tensor, out: Shape) -> MResult<Tensor> {
    let rc = class::arith_result(ta.class(), tb.class(), op.symbol())?;
    if let Some(r) = super::kernels::arith(op, ta, tb, &out, rc) {
        return Ok(r);
    }
    if rc.is_int() {
        if let Some(r) = super::int_kernels::arith(op, ta, tb, &out, rc) {
            return Ok(r);
        }
    }
    if ta.is_complex() || tb.is_complex() {
        if rc.is_int() {
            return Err(MError::new(
                "MATLAB:complexInteger",
                "Complex integer arithmetic is not supported.",
            ));
        }
        return complex_arith(op, ta, tb, out, rc);
    }
    if needs_exact(rc)
        && matches!(
            op,
            Bin::Add | Bin::Sub | Bin::Mul | Bin::Div | Bin::Max | Bin::Min | Bin::Mod | Bin::Rem
        )
    {
        if let (Some(x), Some(y)) = (exact_ints(ta), exact_ints(tb)) {
            let r = map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| {
                int_op(op, p, q, rc)
            });
            return Ok(Tensor::new(out, Data::from_i128(rc, r.into_iter())));
        }
        // a 64-bit integer with a fractional double: exact binary arithmetic
        if matches!(op, Bin::Add | Bin::Sub | Bin::Mul | Bin::Div) {
            let int_left = ta.class().is_int();
            let (it, ft) = if int_left { (ta, tb) } else { (tb, ta) };
            if let (Some(iv), Data::F64(fv)) = (it.data.as_i128(), &ft.data) {
                let (sa, sb) = if int_left {
                    (&ta.shape, &tb.shape)
                } else {
                    (&tb.shape, &ta.shape)
                };
                let r = map2(&iv, sa, fv, sb, &out, |p, y| {
                    mixed_int_op(op, p, y, int_left, rc)
                });
                if r.iter().all(|v| v.is_some()) {
                    return Ok(Tensor::new(
                        out,
                        Data::from_i128(rc, r.into_iter().map(|v| v.unwrap_or(0))),
                    ));
                }
            }
        }
    }
    if needs_exact(rc) && op == Bin::Pow {
        if let (Some(x), Some(y)) = (exact_ints(ta), exact_ints(tb)) {
            if y.iter().all(|&e| e >= 0) {
                let (lo, hi) = rc.int_range();
                let r = map2(&x, &ta.shape, &y, &tb.shape, &out, |p, e| {
                    let mut acc: i128 = 1;
                    for _ in 0..e.min(200) {
                        acc = acc
                            .saturating_mul(p)
                            .clamp(lo.saturating_mul(4), hi.saturating_mul(4));
                    }
                    acc.clamp(lo, hi)
                });
                return Ok(Tensor::new(out, Data::from_i128(rc, r.into_iter())));
            }
        }
    }
    let (x, y) = (ta.to_f64(), tb.to_f64());
    if op == Bin::Pow && !rc.is_int() {
        let needs_complex = if x.len() == 1 && y.len() == 1 {
            x[0] < 0.0 && y[0].fract() != 0.0 && y[0].is_finite()
        } else {
            let xs_neg = x.iter().any(|&v| v < 0.0);
            xs_neg && y.iter().any(|&v| v.fract() != 0.0 && v.is_finite()) && {
                map2(&x, &ta.shape, &y, &tb.shape, &out, |p, q| {
                    p < 0.0 && q.fract() != 0.0 && q.is_finite()
                })
                .into_iter()
                .any(|c| c)
            }
        };
        if needs_complex {
            return complex_arith(op, ta, tb, out, rc);
        }
    }
    macro_rules! go {
        ($f:expr) => {
            map2(&x, &ta.shape, &y, &tb.shape, &out, $f)
        };
    }
    let r: Vec<f64> = match op {
        Bin::Add => go!(|p, q| p + q),
        Bin::Sub => go!(|p, q| p - q),
        Bin::Mul => go!(|p, q| p * q),
        Bin::Div => go!(|p, q| p / q),
        Bin::LDiv => go!(|p, q| q / p),
        Bin::Pow if single_cube(ta, rc, &y) => go!(|p: f64, _| p * p * p),
        // a whole exponent up to 32: repeated squaring in double-double (`whole_power`),
        // eight lanes a vector, in parallel blocks
        Bin::Pow if y.len() == 1 && x.len() == out.numel() && small_whole(y[0]).is_some() => {
            let k = small_whole(y[0]).unwrap_or(0);
            let mut r = vec![0.0; x.len()];
            super::kernels::fill(&mut r, |s, c| whole_powers_wide(&x[s..s + c.len()], k, c));
            r
        }
        Bin::Pow => go!(super::whole_power::real_pow),
        Bin::Max => go!(max_f64),
        Bin::Min => go!(min_f64),
        Bin::Atan2 => go!(|p: f64, q: f64| p.atan2(q)),
        Bin::Hypot => go!(|p: f64, q: f64| p.hypot(q)),
        Bin::Mod => go!(mod_f64),
        Bin::Rem => go!(rem_f64),
        _ => go!(|p, q| f64_op(op, p, q)),
    };
    let r = if rc.is_int() && matches!(op, Bin::Mod | Bin::Rem) {
        // integer mod/rem use the operands' integer values, so rem(int8(x), 0) is x
        let (xa, ya) = (x.as_ref(), y.as_ref());
        let fixed = map2(xa, &ta.shape, ya, &tb.shape, &out, |p, q| {
            let (p, q) = (p.round(), q.round());
            if q == 0.0 {
                p
            } else if op == Bin::Mod {
                mod_f64(p, q)
            } else {
                rem_f64(p, q)
            }
        });
        fixed
    } else {
        r
    };
    Ok(Tensor::new(out, Data::from_f64(rc, r)))
}

fn complex_arith(op: Bin, ta: &Tensor, tb: &Tensor, out: Shape, rc: Class) -> MResult<Tensor> {
    let (x, y) = (ta.to_c64(), tb.to_c64());
    macro_rules! go {
        ($f:expr) => {
            map2(&x, &ta.shape, &y, &tb.shape, &out, $f)
        };
    }
    let r: Vec<Complex64> = match op {
        Bin::Add => go!(|p, q| p + q),
        Bin::Sub => go!(|p, q| p - q),
        Bin::Mul => go!(|p, q| p * q),
        Bin::Div => go!(cdiv),
        Bin::LDiv => go!(|p, q| cdiv(q, p)),
        Bin::Pow => go!(cpow),
        Bin::Max => go!(|p: Complex64, q: Complex64| if cmp_complex(p, q) >= 0 { p } else { q }),
        Bin::Min => go!(|p: Complex64, q: Complex64| if cmp_complex(p, q) <= 0 { p } else { q }),
        Bin::Atan2 => go!(|p: Complex64, q: Complex64| Complex64::new(p.re.atan2(q.re), 0.0)),
        Bin::Hypot => {
            go!(|p: Complex64, q: Complex64| Complex64::new(p.norm().hypot(q.norm()), 0.0))
        }
        Bin::Mod => go!(|p: Complex64, q: Complex64| Complex64::new(mod_f64(p.re, q.re), 0.0)),
        Bin::Rem => go!(|p: Complex64, q: Complex64| Complex64::new(rem_f64(p.re, q.re), 0.0)),
        _ => unreachable_op(op)?,
    };
    Ok(demote_complex(Tensor::new(out, Data::from_c64(rc, r))))
}

fn unreachable_op(op: Bin) -> MResult<Vec<Complex64>> {
    Err(MError::new(
        "MATLAB:internal",
        format!("Operation {op:?} has no complex kernel."),
    ))
}

/// Complex division that keeps MATLAB's results for division by a real zero.
pub fn cdiv(p: Complex64, q: Complex64) -> Complex64 {
    if q.im == 0.0 {
        Complex64::new(p.re / q.re, p.im / q.re)
    } else {
        p / q
    }
}

pub fn cpow(p: Complex64, q: Complex64) -> Complex64 {
    if q.im == 0.0 && q.re.fract() == 0.0 && q.re.abs() <= 64.0 {
        // integer powers by repeated multiplication keep exact results like (1+2i)^2
        let n = q.re as i32;
        let mut r = Complex64::new(1.0, 0.0);
        let mut base = p;
        let mut k = n.unsigned_abs();
        while k > 0 {
            if k & 1 == 1 {
                r *= base;
            }
            base *= base;
            k >>= 1;
        }
        return if n < 0 {
            cdiv(Complex64::new(1.0, 0.0), r)
        } else {
            r
        };
    }
    if p == Complex64::new(0.0, 0.0) {
        return if q.re > 0.0 {
            Complex64::new(0.0, 0.0)
        } else {
            Complex64::new(f64::INFINITY, 0.0)
        };
    }
    p.powc(q)
}

/// MATLAB orders complex numbers by magnitude, then by phase angle.
pub fn cmp_complex(p: Complex64, q: Complex64) -> i32 {
    let (a, b) = (p.norm(), q.norm());
    if a > b {
        1
    } else if a < b {
        -1
    } else {
        let (x, y) = (p.arg(), q.arg());
        if x > y {
            1
        } else if x < y {
            -1
        } else {
            0
        }
    }
}
