//! Elementwise math: the function forms of the operators, the exp/log/trig families,
//! rounding, complex parts, predicates, bit operations and number theory.

use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::syntax::ast::BinOp;
use crate::values::class::Class;
use crate::values::ops::{Bin, Un, elementwise};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::Complex64;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

macro_rules! unary {
    ($($fname:ident => $op:expr),* $(,)?) => {
        $(fn $fname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
            one(elementwise::unary($op, &a[0])?)
        })*
    };
}
unary!(
    abs_f => Un::Abs, sign_f => Un::Sign, sqrt_f => Un::Sqrt, exp_f => Un::Exp, expm1_f => Un::Expm1,
    log_f => Un::Log, log1p_f => Un::Log1p, log2_f => Un::Log2, log10_f => Un::Log10,
    sin_f => Un::Sin, cos_f => Un::Cos, tan_f => Un::Tan, asin_f => Un::Asin, acos_f => Un::Acos,
    atan_f => Un::Atan, sinh_f => Un::Sinh, cosh_f => Un::Cosh, tanh_f => Un::Tanh, asinh_f => Un::Asinh,
    acosh_f => Un::Acosh, atanh_f => Un::Atanh, sec_f => Un::Sec, csc_f => Un::Csc, cot_f => Un::Cot,
    floor_f => Un::Floor, ceil_f => Un::Ceil, fix_f => Un::Fix, real_f => Un::Real,
    imag_f => Un::Imag, conj_f => Un::Conj, angle_f => Un::Angle, isnan_f => Un::IsNan, isinf_f => Un::IsInf,
    isfinite_f => Un::IsFinite, gamma_f => Un::Gamma, gammaln_f => Un::GammaLn, erf_f => Un::Erf,
    erfc_f => Un::Erfc, not_f => Un::Not, uminus_f => Un::Neg,
);

macro_rules! binary {
    ($($fname:ident => $op:expr),* $(,)?) => {
        $(fn $fname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
            one(elementwise::binary($op, &a[0], &a[1])?)
        })*
    };
}
binary!(
    plus_f => Bin::Add, minus_f => Bin::Sub, times_f => Bin::Mul, rdivide_f => Bin::Div,
    ldivide_f => Bin::LDiv, power_f => Bin::Pow, eq_f => Bin::Eq, ne_f => Bin::Ne, lt_f => Bin::Lt,
    le_f => Bin::Le, gt_f => Bin::Gt, ge_f => Bin::Ge, xor_f => Bin::Xor, atan2_f => Bin::Atan2,
    hypot_f => Bin::Hypot, mod_f => Bin::Mod, rem_f => Bin::Rem,
);

macro_rules! matrix_op {
    ($($fname:ident => $op:expr),* $(,)?) => {
        $(fn $fname(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
            one(crate::interp::eval::binary_op($op, &a[0], &a[1])?)
        })*
    };
}
matrix_op!(mtimes_f => BinOp::Mul, mrdivide_f => BinOp::Div, mldivide_f => BinOp::LeftDiv, mpower_f => BinOp::Pow);

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("abs", 1, 1, 1, "abs(X): absolute value (magnitude for complex).", abs_f),
        b("sign", 1, 1, 1, "sign(X): -1, 0 or 1 by sign (X./abs(X) for complex).", sign_f),
        b("sqrt", 1, 1, 1, "sqrt(X): square root (complex for negative inputs).", sqrt_f),
        b("exp", 1, 1, 1, "exp(X): exponential.", exp_f),
        b("expm1", 1, 1, 1, "expm1(X): exp(X)-1, accurate for small X.", expm1_f),
        b("log", 1, 1, 1, "log(X): natural logarithm (complex for negative inputs).", log_f),
        b("log1p", 1, 1, 1, "log1p(X): log(1+X), accurate for small X.", log1p_f),
        b("log2", 1, 1, 1, "log2(X): base-2 logarithm.", log2_f),
        b("log10", 1, 1, 1, "log10(X): base-10 logarithm.", log10_f),
        b("sin", 1, 1, 1, "sin(X): sine in radians.", sin_f),
        b("cos", 1, 1, 1, "cos(X): cosine in radians.", cos_f),
        b("tan", 1, 1, 1, "tan(X): tangent in radians.", tan_f),
        b("asin", 1, 1, 1, "asin(X): inverse sine.", asin_f),
        b("acos", 1, 1, 1, "acos(X): inverse cosine.", acos_f),
        b("atan", 1, 1, 1, "atan(X): inverse tangent.", atan_f),
        b("sinh", 1, 1, 1, "sinh(X): hyperbolic sine.", sinh_f),
        b("cosh", 1, 1, 1, "cosh(X): hyperbolic cosine.", cosh_f),
        b("tanh", 1, 1, 1, "tanh(X): hyperbolic tangent.", tanh_f),
        b("asinh", 1, 1, 1, "asinh(X): inverse hyperbolic sine.", asinh_f),
        b("acosh", 1, 1, 1, "acosh(X): inverse hyperbolic cosine.", acosh_f),
        b("atanh", 1, 1, 1, "atanh(X): inverse hyperbolic tangent.", atanh_f),
        b("sec", 1, 1, 1, "sec(X): secant.", sec_f),
        b("csc", 1, 1, 1, "csc(X): cosecant.", csc_f),
        b("cot", 1, 1, 1, "cot(X): cotangent.", cot_f),
        b("floor", 1, 1, 1, "floor(X): round toward minus infinity.", floor_f),
        b("ceil", 1, 1, 1, "ceil(X): round toward plus infinity.", ceil_f),
        b("round", 1, 3, 1, "round(X), round(X, n): round half away from zero (to n digits).", round_f),
        b("fix", 1, 1, 1, "fix(X): round toward zero.", fix_f),
        b("real", 1, 1, 1, "real(Z): real part.", real_f),
        b("imag", 1, 1, 1, "imag(Z): imaginary part.", imag_f),
        b("conj", 1, 1, 1, "conj(Z): complex conjugate.", conj_f),
        b("angle", 1, 1, 1, "angle(Z): phase angle in radians.", angle_f),
        b("isnan", 1, 1, 1, "isnan(X): true where X is NaN.", isnan_f),
        b("isinf", 1, 1, 1, "isinf(X): true where X is +Inf or -Inf.", isinf_f),
        b("isfinite", 1, 1, 1, "isfinite(X): true where X is neither Inf nor NaN.", isfinite_f),
        b("gamma", 1, 1, 1, "gamma(X): the gamma function.", gamma_f),
        b("gammaln", 1, 1, 1, "gammaln(X): logarithm of the gamma function.", gammaln_f),
        b("erf", 1, 1, 1, "erf(X): the error function.", erf_f),
        b("erfc", 1, 1, 1, "erfc(X): the complementary error function.", erfc_f),
        b("not", 1, 1, 1, "not(A): the same as ~A.", not_f),
        b("uminus", 1, 1, 1, "uminus(A): the same as -A.", uminus_f),
        b("uplus", 1, 1, 1, "uplus(A): the same as +A.", uplus_f),
        b("plus", 2, 2, 1, "plus(A, B): the same as A + B.", plus_f),
        b("minus", 2, 2, 1, "minus(A, B): the same as A - B.", minus_f),
        b("times", 2, 2, 1, "times(A, B): the same as A .* B.", times_f),
        b("rdivide", 2, 2, 1, "rdivide(A, B): the same as A ./ B.", rdivide_f),
        b("ldivide", 2, 2, 1, "ldivide(A, B): the same as A .\\ B.", ldivide_f),
        b("power", 2, 2, 1, "power(A, B): the same as A .^ B.", power_f),
        b("mtimes", 2, 2, 1, "mtimes(A, B): matrix product A * B.", mtimes_f),
        b("mrdivide", 2, 2, 1, "mrdivide(A, B): A / B.", mrdivide_f),
        b("mldivide", 2, 2, 1, "mldivide(A, B): A \\ B, the solution of A*X = B.", mldivide_f),
        b("mpower", 2, 2, 1, "mpower(A, p): matrix power A ^ p.", mpower_f),
        b("eq", 2, 2, 1, "eq(A, B): the same as A == B.", eq_f),
        b("ne", 2, 2, 1, "ne(A, B): the same as A ~= B.", ne_f),
        b("lt", 2, 2, 1, "lt(A, B): the same as A < B.", lt_f),
        b("le", 2, 2, 1, "le(A, B): the same as A <= B.", le_f),
        b("gt", 2, 2, 1, "gt(A, B): the same as A > B.", gt_f),
        b("ge", 2, 2, 1, "ge(A, B): the same as A >= B.", ge_f),
        b("and", 2, -1, 1, "and(A, B, ...): elementwise logical AND, the same as A & B.", and_f),
        b("or", 2, -1, 1, "or(A, B, ...): elementwise logical OR, the same as A | B.", or_f),
        b("xor", 2, 2, 1, "xor(A, B): elementwise exclusive OR.", xor_f),
        b("atan2", 2, 2, 1, "atan2(Y, X): four-quadrant inverse tangent.", atan2_f),
        b("hypot", 2, 2, 1, "hypot(A, B): sqrt(A.^2 + B.^2) without overflow.", hypot_f),
        b("mod", 2, 2, 1, "mod(A, B): remainder after division, with the sign of B.", mod_f),
        b("rem", 2, 2, 1, "rem(A, B): remainder after division, with the sign of A.", rem_f),
        b("nthroot", 2, 2, 1, "nthroot(X, n): real n-th root.", nthroot_f),
        b("complex", 1, 2, 1, "complex(a, b): the complex number a + bi (kept complex even when b is 0).", complex_f),
        b("factorial", 1, 1, 1, "factorial(n): the product 1*2*...*n.", factorial_f),
        b("nchoosek", 2, 2, 1, "nchoosek(n, k): the binomial coefficient, or all k-combinations of a vector.", nchoosek_f),
        b("gcd", 2, 2, 1, "gcd(A, B): greatest common divisor.", gcd_f),
        b("lcm", 2, 2, 1, "lcm(A, B): least common multiple.", lcm_f),
        b("isprime", 1, 1, 1, "isprime(X): true for prime numbers.", isprime_f),
        b("primes", 1, 1, 1, "primes(n): the primes up to n.", primes_f),
        b("factor", 1, 1, 1, "factor(n): the prime factors of n.", factor_f),
        b("bitand", 2, 2, 1, "bitand(A, B): bitwise AND of nonnegative integers.", bitand_f),
        b("bitor", 2, 2, 1, "bitor(A, B): bitwise OR.", bitor_f),
        b("bitxor", 2, 2, 1, "bitxor(A, B): bitwise exclusive OR.", bitxor_f),
        b("bitshift", 2, 2, 1, "bitshift(A, k): shift bits left (k > 0) or right (k < 0).", bitshift_f),
    ]
}

fn uplus_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(crate::interp::eval::unary_op(
        crate::syntax::ast::UnOp::Plus,
        &a[0],
    )?)
}

fn and_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut v = elementwise::binary(Bin::And, &a[0], &a[1])?;
    for x in &a[2..] {
        v = elementwise::binary(Bin::And, &v, x)?;
    }
    one(v)
}
fn or_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut v = elementwise::binary(Bin::Or, &a[0], &a[1])?;
    for x in &a[2..] {
        v = elementwise::binary(Bin::Or, &v, x)?;
    }
    one(v)
}

fn round_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.len() == 1 {
        return one(elementwise::unary(Un::Round, &a[0])?);
    }
    let n = a[1].scalar_f64()? as i32;
    let significant = a
        .get(2)
        .map(|v| {
            v.text()
                .unwrap_or_default()
                .eq_ignore_ascii_case("significant")
        })
        .unwrap_or(false);
    let t = a[0].tensor()?;
    let r: Vec<f64> = t
        .to_f64()
        .iter()
        .map(|&x| {
            if x == 0.0 || !x.is_finite() {
                return x;
            }
            let digits = if significant {
                n - 1 - x.abs().log10().floor() as i32
            } else {
                n
            };
            let f = 10f64.powi(digits.abs());
            if digits >= 0 {
                (x * f).round() / f
            } else {
                (x / f).round() * f
            }
        })
        .collect();
    one(Tensor::new(t.shape.clone(), Data::from_f64(t.class(), r)))
}

fn nthroot_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].tensor()?;
    let n = a[1].tensor()?;
    let out = Shape::broadcast_checked(&x.shape, &n.shape)?;
    let r = elementwise::map2(
        &x.to_f64(),
        &x.shape,
        &n.to_f64(),
        &n.shape,
        &out,
        |v: f64, k: f64| {
            if v < 0.0 && k.fract() == 0.0 && (k as i64) % 2 != 0 {
                -(-v).powf(1.0 / k)
            } else if v < 0.0 {
                f64::NAN
            } else {
                let r = v.powf(1.0 / k);
                // polish: one Newton step removes the round-off of powf for exact roots
                let rr = r.round();
                if (rr.powf(k) - v).abs() <= f64::EPSILON * v.abs() * 4.0 {
                    rr
                } else {
                    r
                }
            }
        },
    );
    one(Tensor::f64(out, r))
}

fn complex_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let re = a[0].tensor()?;
    let im = match a.get(1) {
        Some(v) => v.tensor()?.into_owned(),
        None => Tensor::scalar_f64(0.0),
    };
    let out = Shape::broadcast_checked(&re.shape, &im.shape)?;
    let z = elementwise::map2(
        &re.to_f64(),
        &re.shape,
        &im.to_f64(),
        &im.shape,
        &out,
        Complex64::new,
    );
    let class = if re.class() == Class::Single || im.class() == Class::Single {
        Class::Single
    } else {
        Class::Double
    };
    one(Value::Tensor(std::rc::Rc::new(Tensor::new(
        out,
        Data::from_c64(class, z),
    ))))
}

fn map_real(v: &Value, f: impl Fn(f64) -> f64) -> MResult<Value> {
    let t = v.tensor()?;
    let r: Vec<f64> = t.to_f64().iter().map(|&x| f(x)).collect();
    Ok(Value::from(Tensor::new(
        t.shape.clone(),
        Data::from_f64(
            if t.class().is_int() {
                t.class()
            } else {
                Class::Double
            },
            r,
        ),
    )))
}

fn factorial_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    if t.to_f64().iter().any(|&x| x < 0.0 || x.fract() != 0.0) {
        return Err(bad_arg(
            "factorial",
            "N must be an array of real non-negative integers.",
        ));
    }
    one(map_real(&a[0], |x| {
        if x > 170.0 {
            f64::INFINITY
        } else {
            (1..=x as u64).fold(1.0, |p, k| p * k as f64)
        }
    })?)
}

fn binom(n: f64, k: f64) -> f64 {
    if k < 0.0 || k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    let mut r = 1.0;
    for i in 1..=k as u64 {
        r = r * (n - k + i as f64) / i as f64;
    }
    r.round()
}

fn nchoosek_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = a[0].tensor()?;
    let k = super::count_arg(&a[1], "nchoosek", "K")?;
    if v.numel() == 1 {
        return one(Value::Num(binom(v.get_f64(0), k as f64)));
    }
    // all combinations of the elements of v, one per row
    let n = v.numel();
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut comb: Vec<usize> = (0..k).collect();
    if k <= n {
        loop {
            rows.push(comb.clone());
            let mut i = k;
            while i > 0 && comb[i - 1] == n - k + i - 1 {
                i -= 1;
            }
            if i == 0 {
                break;
            }
            comb[i - 1] += 1;
            for j in i..k {
                comb[j] = comb[j - 1] + 1;
            }
        }
    }
    let m = rows.len();
    let mut pos = vec![0; m * k];
    for (r, c) in rows.iter().enumerate() {
        for (j, &e) in c.iter().enumerate() {
            pos[r + j * m] = e;
        }
    }
    one(v.gather(&pos, Shape::matrix(m, k)))
}

fn gcd2(mut x: f64, mut y: f64) -> f64 {
    x = x.abs();
    y = y.abs();
    while y != 0.0 {
        let t = x % y;
        x = y;
        y = t;
    }
    x
}

fn pairwise(a: &[Value], f: impl Fn(f64, f64) -> f64) -> MResult<Value> {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    let out = Shape::broadcast_checked(&x.shape, &y.shape)?;
    let r = elementwise::map2(&x.to_f64(), &x.shape, &y.to_f64(), &y.shape, &out, f);
    let cls = if x.class().is_int() {
        x.class()
    } else if y.class().is_int() {
        y.class()
    } else {
        Class::Double
    };
    Ok(Value::from(Tensor::new(out, Data::from_f64(cls, r))))
}

/// gcd and lcm are defined on real integers only; NaN or Inf would never terminate.
fn require_integers(a: &[Value], name: &str) -> MResult<()> {
    for v in a.iter().take(2) {
        let t = v.tensor()?;
        if t.is_complex()
            || t.to_f64()
                .iter()
                .any(|x| !x.is_finite() || x.fract() != 0.0)
        {
            return Err(bad_arg(name, "Inputs must be real integers."));
        }
    }
    Ok(())
}

fn gcd_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    require_integers(&a, "gcd")?;
    one(pairwise(&a, gcd2)?)
}
fn lcm_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    require_integers(&a, "lcm")?;
    one(pairwise(&a, |x, y| {
        if x == 0.0 || y == 0.0 {
            0.0
        } else {
            (x * y).abs() / gcd2(x, y)
        }
    })?)
}

fn is_prime(n: f64) -> bool {
    if n < 2.0 || n.fract() != 0.0 {
        return false;
    }
    let n = n as u64;
    if n < 4 {
        return true;
    }
    if n % 2 == 0 {
        return false;
    }
    let mut d = 3;
    while d * d <= n {
        if n % d == 0 {
            return false;
        }
        d += 2;
    }
    true
}

fn isprime_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    one(Tensor::bools(
        t.shape.clone(),
        t.to_f64().iter().map(|&x| is_prime(x)).collect(),
    ))
}

fn primes_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[0].scalar_f64()?.floor();
    if n.is_nan() {
        return Err(bad_arg("primes", "Input must be a real scalar."));
    }
    let n = if n < 0.0 {
        0
    } else {
        n.min(u64::MAX as f64) as usize
    };
    crate::values::limits::check_count(n.saturating_add(1), 1)?;
    let mut sieve = vec![true; n + 1];
    let mut out = Vec::new();
    for i in 2..=n {
        if sieve[i] {
            out.push(i as f64);
            let mut j = i * i;
            while j <= n {
                sieve[j] = false;
                j += i;
            }
        }
    }
    one(Value::row(out))
}

fn factor_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].scalar_f64()?;
    if !(x >= 0.0) || x.fract() != 0.0 {
        return Err(bad_arg("factor", "N must be a real nonnegative integer."));
    }
    if x > 2f64.powi(53) {
        return Err(bad_arg("factor", "The maximum value of N allowed is 2^53."));
    }
    let mut n = x as u64;
    let mut out = Vec::new();
    if n < 4 {
        return one(Value::row(vec![n as f64]));
    }
    let mut d = 2;
    while d * d <= n {
        while n % d == 0 {
            out.push(d as f64);
            n /= d;
        }
        d += 1;
    }
    if n > 1 {
        out.push(n as f64);
    }
    one(Value::row(out))
}

/// Exact integer values of a bit-function argument (integers, or doubles holding
/// nonnegative integers up to flintmax).
fn bit_ints(t: &Tensor, name: &str) -> MResult<Vec<i128>> {
    if let Some(v) = t.data.as_i128() {
        return Ok(v);
    }
    t.to_f64()
        .iter()
        .map(|&v| {
            if v < 0.0 || v.fract() != 0.0 || v > 9_007_199_254_740_992.0 {
                Err(bad_arg(
                    name,
                    "Double inputs must be nonnegative integers no larger than flintmax.",
                ))
            } else {
                Ok(v as i128)
            }
        })
        .collect()
}

/// The integer class of a bit operation's result, and its width in bits.
fn bit_class(x: &Tensor, y: &Tensor, name: &str) -> MResult<(Class, u32)> {
    let cls = match (x.class().is_int(), y.class().is_int()) {
        (true, true) if x.class() != y.class() => {
            return Err(bad_arg(name, "Integer inputs must have the same class."));
        }
        (true, _) => x.class(),
        (_, true) => y.class(),
        _ => Class::Double,
    };
    let bits = if cls.is_int() {
        (cls.elem_bytes() * 8) as u32
    } else {
        53
    };
    Ok((cls, bits))
}

/// A bit operation on two's-complement patterns of the class's width.
fn bitop(a: &[Value], name: &str, f: impl Fn(u128, u128) -> u128) -> MResult<Value> {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    let (cls, bits) = bit_class(&x, &y, name)?;
    let (xv, yv) = (bit_ints(&x, name)?, bit_ints(&y, name)?);
    let out = Shape::broadcast_checked(&x.shape, &y.shape)?;
    let mask: u128 = (1u128 << bits) - 1;
    let signed = cls.is_signed_int();
    let r = elementwise::map2(&xv, &x.shape, &yv, &y.shape, &out, |p, q| {
        let v = f(p as u128 & mask, q as u128 & mask) & mask;
        // back from the bit pattern to the class's value
        if signed && v >> (bits - 1) & 1 == 1 {
            v as i128 - (1i128 << bits)
        } else {
            v as i128
        }
    });
    Ok(Value::from(Tensor::new(
        out,
        Data::from_i128(cls, r.into_iter()),
    )))
}

fn bitand_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(bitop(&a, "bitand", |p, q| p & q)?)
}
fn bitor_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(bitop(&a, "bitor", |p, q| p | q)?)
}
fn bitxor_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(bitop(&a, "bitxor", |p, q| p ^ q)?)
}

fn bitshift_f(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].tensor()?;
    let k = a[1].tensor()?;
    if k.to_f64().iter().any(|v| v.fract() != 0.0) {
        return Err(bad_arg("bitshift", "The shift must be an integer."));
    }
    let (cls, bits) = bit_class(&x, &Tensor::scalar_f64(0.0), "bitshift")?;
    let xv = bit_ints(&x, "bitshift")?;
    let kv: Vec<i128> = k.to_f64().iter().map(|&v| v as i128).collect();
    let out = Shape::broadcast_checked(&x.shape, &k.shape)?;
    let mask: u128 = (1u128 << bits) - 1;
    let signed = cls.is_signed_int();
    let r = elementwise::map2(&xv, &x.shape, &kv, &k.shape, &out, |v, s| {
        if s >= 0 {
            let p = if s >= 128 {
                0
            } else {
                ((v as u128) << s) & mask
            };
            if signed && p >> (bits - 1) & 1 == 1 {
                p as i128 - (1i128 << bits)
            } else {
                p as i128
            }
        } else if signed {
            // arithmetic shift keeps the sign
            v >> (-s).min(127)
        } else {
            if -s >= 128 {
                0
            } else {
                ((v as u128 & mask) >> -s) as i128
            }
        }
    });
    one(Tensor::new(out, Data::from_i128(cls, r.into_iter())))
}
