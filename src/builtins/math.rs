//! Elementwise math: the function forms of the operators, the exp/log/trig families,
//! rounding, complex parts, predicates, bit operations and number theory.

use super::{Builtin, b, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
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
    log_f => Un::Log, log1p_f => Un::Log1p, log2_one => Un::Log2, log10_f => Un::Log10,
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
        b("log2", 1, 1, 2, "log2(X): base-2 logarithm; [F, E] = log2(X): X = F.*2.^E with 0.5 <= abs(F) < 1.", log2_f),
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
        b("atan2d", 2, 2, 1, "atan2d(Y, X): four-quadrant inverse tangent in degrees.", atan2d_f),
        b("hypot", 2, 2, 1, "hypot(A, B): sqrt(A.^2 + B.^2) without overflow.", hypot_f),
        b("mod", 2, 2, 1, "mod(A, B): remainder after division, with the sign of B.", mod_f),
        b("rem", 2, 2, 1, "rem(A, B): remainder after division, with the sign of A.", rem_f),
        b("nthroot", 2, 2, 1, "nthroot(X, n): real n-th root.", nthroot_f),
        b("complex", 1, 2, 1, "complex(a, b): the complex number a + bi (kept complex even when b is 0).", complex_f),
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
    let n = a[1].scalar_f64()?;
    if a[1].is_text() || n.fract() != 0.0 || !n.is_finite() {
        return Err(MError::new(
            "MATLAB:round:NotAnInteger",
            "The second input must be an integer scalar.",
        ));
    }
    let n = n as i32;
    let significant = match a.get(2) {
        Some(v) => match v.text()?.to_ascii_lowercase().as_str() {
            "significant" => true,
            "decimals" => false,
            _ => {
                return Err(MError::new(
                    "MATLAB:round:InvalidRoundType",
                    "Round type must be 'decimals' or 'significant'.",
                ));
            }
        },
        None => false,
    };
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
    if x.is_complex() || n.is_complex() {
        return Err(MError::new(
            "MATLAB:nthroot:ComplexInput",
            "Both X and N must be real.",
        ));
    }
    let neg_even = std::cell::Cell::new(false);
    let out = Shape::broadcast_checked(&x.shape, &n.shape)?;
    let r = elementwise::map2(
        &x.to_f64(),
        &x.shape,
        &n.to_f64(),
        &n.shape,
        &out,
        |v: f64, k: f64| {
            if v < 0.0 && !(k.fract() == 0.0 && (k as i64) % 2 != 0) {
                neg_even.set(true);
            }
            crate::values::ops::more_real::nthroot(v, k)
        },
    );
    if neg_even.get() {
        return Err(MError::new(
            "MATLAB:nthroot:NegXNotOddIntegerN",
            "If X is negative, N must be an odd integer.",
        ));
    }
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

pub(super) fn log2_f(i: &mut Interp, f: &mut Frame, a: A, nargout: usize) -> R {
    if nargout < 2 {
        return log2_one(i, f, a, nargout);
    }
    let t = a[0].tensor()?;
    let (mut fs, mut es) = (Vec::new(), Vec::new());
    for &x in t.to_f64().iter() {
        // frexp: the fraction in [0.5, 1) and the exponent
        if x == 0.0 || !x.is_finite() {
            fs.push(x);
            es.push(0.0);
            continue;
        }
        let mut e = x.abs().log2().floor() + 1.0;
        let mut m = x / 2f64.powf(e);
        if m.abs() >= 1.0 {
            m /= 2.0;
            e += 1.0;
        } else if m.abs() < 0.5 {
            m *= 2.0;
            e -= 1.0;
        }
        fs.push(m);
        es.push(e);
    }
    Ok(vec![
        Value::from(Tensor::f64(t.shape.clone(), fs)),
        Value::from(Tensor::f64(t.shape.clone(), es)),
    ])
}

fn atan2d_f(i: &mut Interp, f: &mut Frame, a: A, n: usize) -> R {
    let r = atan2_f(i, f, a, n)?;
    let t = r[0].tensor()?;
    let d: Vec<f64> = t.to_f64().iter().map(|x| x.to_degrees()).collect();
    one(Tensor::new(t.shape.clone(), Data::from_f64(t.class(), d)))
}

pub(super) fn map_real(v: &Value, f: impl Fn(f64) -> f64) -> MResult<Value> {
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
