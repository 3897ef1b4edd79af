//! The inverse trigonometric and hyperbolic functions of complex gpuArrays (`asin acos atan
//! asinh acosh atanh`) as real device work on the parts, by the host's formulas
//! (num-complex's, operation for operation: complex constants as both parts, so that `0 * Inf`
//! and the signs of zeros on the branch cuts come out as the host's):
//! - `asin(z) = -i log(sqrt(1 - z^2) + i z)`, `acos(z) = -i log(i sqrt(1 - z^2) + z)`;
//! - `atan(z) = (log(1 + i z) - log(1 - i z)) / 2i`, `+-i` giving `+-i Inf`;
//! - `asinh(z) = log(z + sqrt(1 + z^2))`, `acosh(z) = 2 log(sqrt((z+1)/2) + sqrt((z-1)/2))`;
//! - `atanh(z) = (log(1 + z) - log(1 - z)) / 2`, `+-1` giving `+-Inf`.
//!
//! Singles are computed in double on the device and rounded once, as the host computes them
//! (in f64): `1 - z^2` cancels near `+-1`, which f32 would turn into large relative errors.

use super::complex::{arith, join};
use super::complex_fns::{complex_scalar, elementwise, select};
use super::lower;
use crate::values::class::Class;
use crate::values::ops::Bin;
use crate::values::value::Value;
use num_complex::Complex64;

/// A complex value on the device as its (real, imaginary) parts.
pub(super) type Parts = (Value, Value);

/// A complex constant (both parts, so that products with it are the host's).
pub(super) fn constant(re: f64, im: f64) -> Value {
    complex_scalar(Complex64::new(re, im))
}

pub(super) fn whole(p: &Parts) -> Option<Value> {
    join(p.0.clone(), p.1.clone()).ok()
}

pub(super) fn mul(a: &Value, b: &Value) -> Option<Parts> {
    arith(Bin::Mul, a, b)
}

pub(super) fn cmul(a: &Parts, b: &Parts) -> Option<Parts> {
    arith(Bin::Mul, &whole(a)?, &whole(b)?)
}

fn add(a: &Parts, b: &Parts) -> Option<Parts> {
    arith(Bin::Add, &whole(a)?, &whole(b)?)
}

fn sub(a: &Parts, b: &Parts) -> Option<Parts> {
    arith(Bin::Sub, &whole(a)?, &whole(b)?)
}

/// `c op z` with a complex constant `c` (both parts, as num-complex's `one - z`).
fn with_constant(op: Bin, c: (f64, f64), z: &Parts) -> Option<Parts> {
    arith(op, &constant(c.0, c.1), &whole(z)?)
}

pub(super) fn ln(z: &Parts) -> Option<Parts> {
    elementwise("log", &z.0, &z.1)
}

fn sqrt(z: &Parts) -> Option<Parts> {
    elementwise("sqrt", &z.0, &z.1)
}

/// A device part as another class (a view: no copy).
pub(super) fn as_class(v: &Value, class: Class) -> Option<Value> {
    match v {
        Value::Device(d) if d.class() != class => Some(super::views::cast(d, class)),
        Value::Device(_) => Some(v.clone()),
        _ => None,
    }
}

/// `(re, im)` of an inverse trigonometric or hyperbolic function of `re + i*im` (device
/// parts of one shape and class); None: another name, or no device form.
pub fn function(name: &str, re: &Value, im: &Value) -> Option<Parts> {
    if !matches!(name, "asin" | "acos" | "atan" | "asinh" | "acosh" | "atanh") {
        return None;
    }
    let class = re.num_class()?;
    if class == Class::Single {
        let (r, i) = (as_class(re, Class::Double)?, as_class(im, Class::Double)?);
        if let Some((a, b)) = formula(name, &(r, i)) {
            return Some((as_class(&a, Class::Single)?, as_class(&b, Class::Single)?));
        }
    }
    formula(name, &(re.clone(), im.clone()))
}

fn formula(name: &str, z: &Parts) -> Option<Parts> {
    let class = z.0.num_class()?;
    let i = (0.0, 1.0);
    let minus_i = (-0.0, -1.0);
    let one = (1.0, 0.0);
    let two = (2.0, 0.0);
    // the constant `v` where `at` holds, else `g`
    let pick = |at: &Value, v: (f64, f64), g: Parts| -> Option<Parts> {
        Some((
            select(at, &Value::Num(v.0), &g.0, class)?,
            select(at, &Value::Num(v.1), &g.1, class)?,
        ))
    };
    let equals = |v: (f64, f64)| -> Option<Value> {
        lower::binary(
            Bin::And,
            &lower::binary(Bin::Eq, &z.0, &Value::Num(v.0))?,
            &lower::binary(Bin::Eq, &z.1, &Value::Num(v.1))?,
        )
    };
    let w = whole(z)?;
    match name {
        "asin" | "acos" => {
            let root = sqrt(&with_constant(Bin::Sub, one, &mul(&w, &w)?)?)?;
            let inner = if name == "asin" {
                add(&root, &mul(&constant(i.0, i.1), &w)?)?
            } else {
                add(&mul(&constant(i.0, i.1), &whole(&root)?)?, z)?
            };
            mul(&constant(minus_i.0, minus_i.1), &whole(&ln(&inner)?)?)
        }
        "atan" => {
            let iz = mul(&constant(i.0, i.1), &w)?;
            let d = sub(
                &ln(&with_constant(Bin::Add, one, &iz)?)?,
                &ln(&with_constant(Bin::Sub, one, &iz)?)?,
            )?;
            // two * i as num-complex forms it, (2 + 0i)(0 + 1i): exactly 0 + 2i
            let g = arith(Bin::Div, &whole(&d)?, &constant(0.0, 2.0))?;
            let g = pick(&equals(i)?, (0.0, f64::INFINITY), g)?;
            pick(&equals((0.0, -1.0))?, (0.0, f64::NEG_INFINITY), g)
        }
        "asinh" => {
            let root = sqrt(&with_constant(Bin::Add, one, &mul(&w, &w)?)?)?;
            ln(&add(z, &root)?)
        }
        "acosh" => {
            let half = |op: Bin| -> Option<Parts> {
                let s = arith(op, &w, &constant(one.0, one.1))?;
                sqrt(&arith(Bin::Div, &whole(&s)?, &constant(two.0, two.1))?)
            };
            let l = ln(&add(&half(Bin::Add)?, &half(Bin::Sub)?)?)?;
            mul(&constant(two.0, two.1), &whole(&l)?)
        }
        "atanh" => {
            let d = sub(
                &ln(&with_constant(Bin::Add, one, z)?)?,
                &ln(&with_constant(Bin::Sub, one, z)?)?,
            )?;
            let g = arith(Bin::Div, &whole(&d)?, &constant(two.0, two.1))?;
            let g = pick(&equals(one)?, (f64::INFINITY, 0.0), g)?;
            pick(&equals((-1.0, 0.0))?, (f64::NEG_INFINITY, 0.0), g)
        }
        _ => None,
    }
}
