//! Host kernels for elementwise unary operations (negation, not, math functions), promoting
//! to complex where MATLAB does (`sqrt(-1)`, `log(-1)`, `asin(2)`).

use super::Un;
use super::elementwise::{check_nan_logical, demote_complex, type_error};
use crate::interp::error::{MError, MResult};
use crate::values::class::Class;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::Complex64;

/// `op(a)` elementwise, for any value.
pub fn unary(op: Un, a: &Value) -> MResult<Value> {
    match a {
        Value::Num(x) => {
            let x = *x;
            match op {
                Un::Neg => return Ok(Value::Num(-x)),
                Un::Not => {
                    if x.is_nan() {
                        return Err(MError::new(
                            "MATLAB:nologicalnan",
                            "NaN's cannot be converted to logicals.",
                        ));
                    }
                    return Ok(Value::Bool(x == 0.0));
                }
                Un::IsNan => return Ok(Value::Bool(x.is_nan())),
                Un::IsInf => return Ok(Value::Bool(x.is_infinite())),
                Un::IsFinite => return Ok(Value::Bool(x.is_finite())),
                _ => {
                    if !needs_complex_domain(op, x) {
                        return Ok(Value::Num(real_un(op, x)));
                    }
                    return Ok(Value::complex(real_to_complex(op, x)));
                }
            }
        }
        Value::Bool(b) if op == Un::Not => return Ok(Value::Bool(!b)),
        _ => {}
    }
    if !a.is_numeric_like() {
        return Err(match op {
            Un::Neg => type_error("-", a),
            Un::Not => type_error("~", a),
            _ => MError::new(
                "MATLAB:UndefinedFunction",
                format!(
                    "Incorrect argument data type in call to function '{}': a value of class {} is not supported.",
                    op.name(),
                    a.class_name()
                ),
            ),
        });
    }
    let t = a.tensor()?;
    Ok(Value::from(unary_tensor(op, &t)?))
}

pub(super) fn needs_complex_domain(op: Un, x: f64) -> bool {
    match op {
        Un::Sqrt | Un::Log | Un::Log2 | Un::Log10 => x < 0.0,
        Un::Log1p => x < -1.0,
        Un::Asin | Un::Acos => x.abs() > 1.0,
        Un::Acosh => x < 1.0,
        Un::Atanh => x.abs() > 1.0,
        _ => false,
    }
}

pub fn real_un(op: Un, x: f64) -> f64 {
    use Un::*;
    match op {
        Neg => -x,
        Not => (x == 0.0) as u8 as f64,
        Abs => x.abs(),
        Sign => {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                x
            }
        }
        Sqrt => x.sqrt(),
        Exp => x.exp(),
        Expm1 => x.exp_m1(),
        Log => x.ln(),
        Log1p => x.ln_1p(),
        Log2 => x.log2(),
        Log10 => x.log10(),
        Sin => x.sin(),
        Cos => x.cos(),
        Tan => x.tan(),
        Asin => x.asin(),
        Acos => x.acos(),
        Atan => x.atan(),
        Sinh => x.sinh(),
        Cosh => x.cosh(),
        Tanh => x.tanh(),
        Asinh => x.asinh(),
        Acosh => x.acosh(),
        Atanh => x.atanh(),
        Sec => 1.0 / x.cos(),
        Csc => 1.0 / x.sin(),
        Cot => 1.0 / x.tan(),
        Floor => x.floor(),
        Ceil => x.ceil(),
        Round => x.round(),
        Fix => x.trunc(),
        Real | Conj => x,
        Imag => 0.0,
        Angle => {
            if x < 0.0 {
                std::f64::consts::PI
            } else {
                0.0
            }
        }
        IsNan => x.is_nan() as u8 as f64,
        IsInf => x.is_infinite() as u8 as f64,
        IsFinite => x.is_finite() as u8 as f64,
        Gamma => gamma(x),
        GammaLn => libm::lgamma(x),
        Erf => libm::erf(x),
        Erfc => libm::erfc(x),
        Cbrt => x.cbrt(),
        _ => super::more_real::eval(op, x).unwrap_or(f64::NAN),
    }
}

fn gamma(x: f64) -> f64 {
    if x == 0.0 {
        return if x.is_sign_negative() {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    if x < 0.0 && x.fract() == 0.0 {
        return f64::INFINITY;
    }
    if x.fract() == 0.0 && x > 0.0 && x <= 171.0 {
        // exact factorials for integer arguments
        let mut r = 1.0;
        let mut k = 2.0;
        while k < x {
            r *= k;
            k += 1.0;
        }
        return r;
    }
    libm::tgamma(x)
}

/// A real argument outside a function's real domain, on the branch MATLAB uses for real
/// inputs (imaginary parts of asin/acos/acosh/atanh as MATLAB returns them).
fn real_to_complex(op: Un, x: f64) -> Complex64 {
    if !needs_complex_domain(op, x) {
        return Complex64::new(real_un(op, x), 0.0);
    }
    let half_pi = std::f64::consts::FRAC_PI_2;
    let c = |re: f64, im: f64| Complex64::new(re, im);
    match op {
        Un::Asin => {
            let s = x.signum();
            c(s * half_pi, -s * (x.abs() + (x * x - 1.0).sqrt()).ln())
        }
        Un::Acos => {
            let s = x.signum();
            c(
                half_pi - s * half_pi,
                s * (x.abs() + (x * x - 1.0).sqrt()).ln(),
            )
        }
        Un::Acosh => {
            let z = complex_un(Un::Acosh, c(x, 0.0));
            c(z.re.abs(), z.im.abs())
        }
        // atanh(x) = log((1+x)/(1-x))/2, whose argument is negative here
        Un::Atanh => c(0.5 * ((1.0 + x) / (x - 1.0)).abs().ln(), half_pi),
        _ => complex_un(op, c(x, 0.0)),
    }
}

fn complex_un(op: Un, z: Complex64) -> Complex64 {
    use Un::*;
    let re = |x: f64| Complex64::new(x, 0.0);
    match op {
        Neg => -z,
        Abs => re(z.norm()),
        Sign => {
            let n = z.norm();
            if n == 0.0 { z } else { z / n }
        }
        Sqrt => z.sqrt(),
        Exp => z.exp(),
        Expm1 => z.exp() - 1.0,
        Log => z.ln(),
        Log1p => (z + 1.0).ln(),
        Log2 => z.ln() / std::f64::consts::LN_2,
        Log10 => z.ln() / std::f64::consts::LN_10,
        Sin => z.sin(),
        Cos => z.cos(),
        Tan => z.tan(),
        Asin => z.asin(),
        Acos => z.acos(),
        Atan => z.atan(),
        Sinh => z.sinh(),
        Cosh => z.cosh(),
        Tanh => z.tanh(),
        Asinh => z.asinh(),
        Acosh => z.acosh(),
        Atanh => z.atanh(),
        Sec => 1.0 / z.cos(),
        Csc => 1.0 / z.sin(),
        Cot => 1.0 / z.tan(),
        Floor => Complex64::new(z.re.floor(), z.im.floor()),
        Ceil => Complex64::new(z.re.ceil(), z.im.ceil()),
        Round => Complex64::new(z.re.round(), z.im.round()),
        Fix => Complex64::new(z.re.trunc(), z.im.trunc()),
        Real => re(z.re),
        Imag => re(z.im),
        Conj => z.conj(),
        Angle => re(z.im.atan2(z.re)),
        Gamma | GammaLn | Erf | Erfc | Cbrt => re(real_un(op, z.re)),
        Not | IsNan | IsInf | IsFinite => re(0.0),
        // The named real functions (more_real.rs) never reach here with complex values.
        _ => re(real_un(op, z.re)),
    }
}

pub fn unary_tensor(op: Un, t: &Tensor) -> MResult<Tensor> {
    crate::values::limits::check_dims(t.shape.dims(), 8)?;
    if let Some(r) = super::kernels::unary(op, t) {
        return Ok(r);
    }
    let cls = t.class();
    let shape = t.shape.clone();
    match op {
        Un::Not => {
            check_nan_logical(t)?;
            return Ok(Tensor::bools(
                shape,
                (0..t.numel()).map(|i| !t.nonzero(i)).collect(),
            ));
        }
        Un::IsNan | Un::IsInf | Un::IsFinite => {
            let f = |x: f64| match op {
                Un::IsNan => x.is_nan(),
                Un::IsInf => x.is_infinite(),
                _ => x.is_finite(),
            };
            let r: Vec<bool> = if t.is_complex() {
                t.to_c64()
                    .iter()
                    .map(|z| match op {
                        Un::IsFinite => z.re.is_finite() && z.im.is_finite(),
                        _ => f(z.re) || f(z.im),
                    })
                    .collect()
            } else {
                t.to_f64().iter().map(|&x| f(x)).collect()
            };
            return Ok(Tensor::bools(shape, r));
        }
        _ => {}
    }
    if cls.is_int() && !op.integer_ok() {
        return Err(MError::new(
            "MATLAB:UndefinedFunction",
            format!(
                "Check for incorrect argument data type or missing argument in call to function '{}'.",
                op.name()
            ),
        ));
    }
    // Result class: integers and single keep theirs, logical and char compute as double.
    let rc = if cls.is_int() || cls == Class::Single {
        cls
    } else {
        Class::Double
    };
    if cls.is_int() {
        if let Some(v) = t.data.as_i128() {
            let r = v.into_iter().map(|x| match op {
                Un::Neg => -x,
                Un::Abs => x.abs(),
                Un::Sign => x.signum(),
                Un::Imag => 0,
                _ => x,
            });
            return Ok(Tensor::new(shape, Data::from_i128(rc, r)));
        }
    }
    if t.is_complex() {
        let z = t.to_c64();
        let r: Vec<Complex64> = z.iter().map(|&z| complex_un(op, z)).collect();
        let out = Tensor::new(shape, Data::from_c64(rc, r));
        return Ok(if matches!(op, Un::Conj | Un::Neg) {
            out
        } else {
            demote_complex(out)
        });
    }
    let x = t.to_f64();
    if x.iter().any(|&v| needs_complex_domain(op, v)) {
        let r: Vec<Complex64> = x
            .iter()
            .map(|&v| complex_un(op, Complex64::new(v, 0.0)))
            .collect();
        return Ok(demote_complex(Tensor::new(shape, Data::from_c64(rc, r))));
    }
    let r: Vec<f64> = x.iter().map(|&v| real_un(op, v)).collect();
    Ok(Tensor::new(shape, Data::from_f64(rc, r)))
}
