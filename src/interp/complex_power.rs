//! `x .^ y` with complex operands where the scalar-exponent form (`complex_fns::power`) does
//! not apply: exponent arrays (`Z .^ W`, `Z .^ k` with real `k` an array), real bases with
//! complex exponents. Each element is the host's `cpow`, chosen per element by `Select`
//! nodes in the same kernels:
//! - a whole real exponent up to 64 in magnitude: repeated squaring over the exponent's 7
//!   bits (the host's loop, product for product, so `(1+2i).^2` is exact), and for a negative
//!   one the host's `cdiv(1, r)`;
//! - a zero base: 0 for an exponent with a positive real part, else Inf;
//! - otherwise `exp(y * log(x))`, the full complex product (so `0 * Inf` is the host's NaN).
//!
//! Singles are computed in double and rounded once, as the host computes them.

use super::complex::{Split, arith, bin, split, spread};
use super::complex_fns::{elementwise, select};
use super::complex_inverse::{Parts, as_class, cmul, constant, ln, whole};
use super::lower;
use crate::graph;
use crate::values::class::Class;
use crate::values::ops::{Bin, Un};
use crate::values::value::Value;

/// The most bits of a whole exponent the host multiplies out (|y| <= 64).
const BITS: i32 = 7;

/// The parts of `x .^ y` (None: the host computes it).
pub fn array_power(x: &Value, y: &Value) -> Option<Parts> {
    if !x.is_complex() && !y.is_complex() {
        return None;
    }
    let shape = graph::broadcast(&x.shape(), &y.shape())?;
    if shape.numel() == 0 {
        return None;
    }
    let single = [x, y].iter().any(|v| v.num_class() == Some(Class::Single));
    let parts = |v: &Value, class: Class| -> Option<Parts> {
        let (r, i) = match split(v)? {
            Split::Complex(r, i) => (r, i),
            Split::Real(r) => (r, Value::Num(0.0)),
        };
        Some((spread(r, &shape, class)?, spread(i, &shape, class)?))
    };
    if single {
        if let (Some(a), Some(b)) = (parts(x, Class::Double), parts(y, Class::Double)) {
            if let Some((r, i)) = cpow(&a, &b) {
                return Some((as_class(&r, Class::Single)?, as_class(&i, Class::Single)?));
            }
        }
    }
    let class = if single { Class::Single } else { Class::Double };
    cpow(&parts(x, class)?, &parts(y, class)?)
}

/// The host's `cpow(p, q)` on device parts of one shape and class.
fn cpow(p: &Parts, q: &Parts) -> Option<Parts> {
    let class = p.0.num_class()?;
    let num = Value::Num;
    let un = |op: Un, v: &Value| lower::unary(op, v);
    let cmp = |op: Bin, a: &Value, b: &Value| lower::binary(op, a, b);
    let and = |a: &Value, b: &Value| lower::binary(Bin::And, a, b);
    let pick = |m: &Value, a: &Parts, b: &Parts| -> Option<Parts> {
        Some((select(m, &a.0, &b.0, class)?, select(m, &a.1, &b.1, class)?))
    };
    // whole real exponents of magnitude up to 64: repeated squaring, bit by bit
    let n = un(Un::Abs, &q.0)?;
    let small = and(
        &and(
            &cmp(Bin::Eq, &q.1, &num(0.0))?,
            &cmp(Bin::Eq, &q.0, &un(Un::Fix, &q.0)?)?,
        )?,
        &cmp(Bin::Le, &n, &num(64.0))?,
    )?;
    // |y| where it is small and whole, 0 elsewhere (so the bits below are of a small integer)
    let n = select(&small, &n, &num(0.0), class)?;
    let mut r: Parts = (
        spread(num(1.0), &p.0.shape(), class)?,
        spread(num(0.0), &p.0.shape(), class)?,
    );
    let mut base = p.clone();
    for k in 0..BITS {
        // bit k of n: floor(n / 2^k) - 2 floor(n / 2^(k+1))
        let high = un(Un::Floor, &bin(Bin::Div, &n, &num(2f64.powi(k)))?)?;
        let higher = un(Un::Floor, &bin(Bin::Div, &n, &num(2f64.powi(k + 1)))?)?;
        let bit = bin(Bin::Sub, &high, &bin(Bin::Mul, &higher, &num(2.0))?)?;
        let set = cmp(Bin::Eq, &bit, &num(1.0))?;
        r = pick(&set, &cmul(&r, &base)?, &r)?;
        if k + 1 < BITS {
            base = cmul(&base, &base)?;
        }
    }
    // a negative exponent: the host's cdiv(1, r), by the real part alone where r is real
    let (fr, fi) = arith(Bin::Div, &constant(1.0, 0.0), &whole(&r)?)?;
    let real = cmp(Bin::Eq, &r.1, &num(0.0))?;
    let inv = (
        select(&real, &bin(Bin::Div, &num(1.0), &r.0)?, &fr, class)?,
        select(&real, &bin(Bin::Div, &num(0.0), &r.0)?, &fi, class)?,
    );
    let negative = cmp(Bin::Lt, &q.0, &num(0.0))?;
    let whole_power = pick(&negative, &inv, &r)?;
    // others: exp(q * log(p)), and 0 or Inf at a zero base
    let w = cmul(q, &ln(p)?)?;
    let general = elementwise("exp", &w.0, &w.1)?;
    let zero = and(
        &cmp(Bin::Eq, &p.0, &num(0.0))?,
        &cmp(Bin::Eq, &p.1, &num(0.0))?,
    )?;
    let positive = cmp(Bin::Gt, &q.0, &num(0.0))?;
    let at_zero = (
        select(&positive, &num(0.0), &num(f64::INFINITY), class)?,
        spread(num(0.0), &p.0.shape(), class)?,
    );
    let other = pick(&zero, &at_zero, &general)?;
    pick(&small, &whole_power, &other)
}
