//! The colon operator `a:b` and `a:s:b`.

use crate::interp::error::{MError, MResult};
use crate::values::class::{self, Class};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

/// Number of elements of `a:s:b` (0 when empty), with MATLAB's tolerance so that
/// `0:0.1:1` has 11 elements.
pub fn count(a: f64, s: f64, b: f64) -> usize {
    if s == 0.0
        || a.is_nan()
        || s.is_nan()
        || b.is_nan()
        || (s > 0.0 && a > b)
        || (s < 0.0 && a < b)
    {
        return 0;
    }
    let q = (b - a) / s;
    if !q.is_finite() {
        return 0;
    }
    let tol = 3.0 * f64::EPSILON * q.abs().max(1.0);
    // saturating: a count past usize is refused later by the size check
    ((q + tol).floor() as usize).saturating_add(1)
}

/// The elements of `a:s:b` without materializing them (for loops over ranges). The second
/// half is computed from the end, as MATLAB does, so the last element lands exactly on b when
/// the step divides evenly.
#[derive(Clone, Copy, Debug)]
pub struct Range {
    pub a: f64,
    pub s: f64,
    pub n: usize,
    end: f64,
}

impl Range {
    pub fn new(a: f64, s: f64, b: f64) -> Range {
        let n = count(a, s, b);
        let mut end = a + (n.max(1) - 1) as f64 * s;
        if n > 0 && (end - b).abs() < 3.0 * f64::EPSILON * b.abs().max(a.abs()) {
            end = b;
        }
        Range { a, s, n, end }
    }
    #[inline]
    pub fn get(&self, k: usize) -> f64 {
        if k == 0 {
            // also for an infinite step, where 0 * s would be NaN
            return self.a;
        }
        if k < self.n / 2 || self.n < 2 {
            self.a + k as f64 * self.s
        } else {
            self.end - (self.n - 1 - k) as f64 * self.s
        }
    }
}

pub fn range_f64(a: f64, s: f64, b: f64) -> Vec<f64> {
    let r = Range::new(a, s, b);
    let mut tick = crate::interp::interrupt::Ticker::new();
    (0..r.n)
        .map(|k| {
            tick.tick();
            r.get(k)
        })
        .collect()
}

/// `a:s:b` for values (the class follows the endpoints: integers, single, char).
pub fn colon(a: &Value, s: Option<&Value>, b: &Value) -> MResult<Value> {
    if crate::dates::is_time(a) || crate::dates::is_time(b) {
        return crate::dates::array::colon(a, s, b);
    }
    let get = |v: &Value| -> MResult<f64> {
        if v.is_empty() {
            return Ok(f64::NAN);
        }
        if !v.is_numeric_like() {
            return Err(MError::new(
                "MATLAB:colon:operandsNotRealScalar",
                format!(
                    "Colon operands must be real scalars (got {}).",
                    v.class_name()
                ),
            ));
        }
        v.scalar_f64()
    };
    let (x, y) = (get(a)?, get(b)?);
    let st = match s {
        Some(s) => get(s)?,
        None => 1.0,
    };
    if a.is_empty() || b.is_empty() || s.is_some_and(|s| s.is_empty()) {
        return Ok(Value::from(Tensor::f64(Shape::matrix(1, 0), vec![])));
    }
    let classes: Vec<Class> = [Some(a), s, Some(b)]
        .into_iter()
        .flatten()
        .filter_map(|v| v.num_class())
        .collect();
    // char endpoints give char ('a':2:'i'), whatever the step
    let ends_char = a.num_class() == Some(Class::Char) && b.num_class() == Some(Class::Char);
    let cls = if ends_char || classes.iter().all(|&c| c == Class::Char) {
        Class::Char
    } else {
        let numeric: Vec<Class> = classes
            .iter()
            .copied()
            .filter(|c| *c != Class::Char && *c != Class::Logical)
            .collect();
        let mut c = Class::Double;
        for k in numeric {
            c = class::arith_result(c, k, ":")?;
        }
        c
    };
    // a NaN operand gives NaN (MATLAB's 1:NaN)
    if x.is_nan() || y.is_nan() || st.is_nan() {
        return Ok(Value::from(Tensor::new(
            Shape::scalar(),
            Data::from_f64(cls, vec![f64::NAN]),
        )));
    }
    // a range running to or from infinity has no end
    if (x.is_infinite() || y.is_infinite()) && (y - x) * st > 0.0 {
        return Err(MError::new(
            "MATLAB:pmaxsize",
            "Maximum variable size allowed by the program is exceeded.",
        ));
    }
    crate::values::limits::check_count(count(x, st, y), 8)?;
    if cls.is_int() {
        // integer ranges are exact to 64 bits
        let ints = |v: &Value| {
            v.tensor().ok().and_then(|t| {
                t.data.as_i128().map(|i| i[0]).or_else(|| {
                    let f = t.get_f64(0);
                    (f.fract() == 0.0).then_some(f as i128)
                })
            })
        };
        if let (Some(p), Some(q), Some(d)) = (ints(a), ints(b), s.map(ints).unwrap_or(Some(1))) {
            if d != 0 {
                let n = if (q - p) * d.signum() < 0 {
                    0
                } else {
                    usize::try_from((q - p) / d + 1).unwrap_or(usize::MAX)
                };
                crate::values::limits::check_count(n, 8)?;
                let data = Data::from_i128(cls, (0..n).map(|k| p + k as i128 * d));
                return Ok(Value::from(Tensor::new(Shape::row(n), data)));
            }
        }
    }
    if cls == Class::Single {
        // single ranges count in single precision (so 0:single(0.1):1 reaches 1)
        let (xs, ss, ys) = (x as f32, st as f32, y as f32);
        let q = (ys - xs) / ss;
        let n = if ss == 0.0 || !q.is_finite() || q < 0.0 {
            0
        } else {
            let tol = 3.0 * f32::EPSILON * q.abs().max(1.0);
            (q + tol).floor() as usize + 1
        };
        crate::values::limits::check_count(n, 4)?;
        let end = xs + (n.max(1) - 1) as f32 * ss;
        let snap = (end - ys).abs() < 3.0 * f32::EPSILON * ys.abs().max(xs.abs());
        let v: Vec<f64> = (0..n)
            .map(|k| {
                if k + 1 == n && snap {
                    ys as f64
                } else if k < n / 2 {
                    (xs + k as f32 * ss) as f64
                } else {
                    (if snap { ys } else { end } - (n - 1 - k) as f32 * ss) as f64
                }
            })
            .collect();
        return Ok(Value::from(Tensor::new(
            Shape::row(n),
            Data::from_f64(cls, v),
        )));
    }
    let v = range_f64(x, st, y);
    let n = v.len();
    Ok(Value::from(Tensor::new(
        Shape::row(n),
        Data::from_f64(cls, v),
    )))
}
