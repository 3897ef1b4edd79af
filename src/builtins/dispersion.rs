//! Dispersion: std var (weights, dims, 'all', NaN flags).

use super::reduce::{dims_arg, merge_dims};
use super::{Builtin, b, bad_arg, one, split_flags};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::reduce::{self as red, lanes};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("std", 1, 4, 1, "std(A, w, dim): standard deviation (w=0 divides by n-1, w=1 by n).", std),
        b("var", 1, 4, 1, "var(A, w, dim): variance.", var),
    ]
}

/// var(A, w, dim|vecdim|'all', nanflag): weights 0 (N-1), 1 (N), or a weight vector.
fn variance(a: A) -> MResult<Tensor> {
    let (pos, flags) = split_flags(a);
    let mut omitnan = false;
    let mut all = false;
    for f in &flags {
        match f.as_str() {
            "omitnan" | "omitmissing" => omitnan = true,
            "includenan" | "includemissing" => {}
            "all" => all = true,
            other => return Err(bad_arg("var", format!("Unrecognized option '{other}'."))),
        }
    }
    // borrowed: the typed variance reads the array where it is (a copy was a quarter of
    // std(x) at 1e6)
    let t = pos[0].tensor()?;
    enum W {
        Zero,
        One,
        Vec(Vec<f64>),
    }
    let w = match pos.get(1) {
        Some(v) if !v.is_empty() => {
            let wt = v.tensor()?;
            if wt.numel() == 1 {
                match wt.get_f64(0) {
                    x if x == 0.0 => W::Zero,
                    x if x == 1.0 => W::One,
                    _ => {
                        return Err(bad_arg(
                            "var",
                            "W must be 0, 1, or a vector of nonnegative weights.",
                        ));
                    }
                }
            } else {
                let ws = wt.to_f64().into_owned();
                if ws.iter().any(|x| *x < 0.0) {
                    return Err(bad_arg("var", "Weights must be nonnegative."));
                }
                W::Vec(ws)
            }
        }
        _ => W::Zero,
    };
    let (t, dim, out_shape) = if all {
        let n = t.numel();
        (
            std::borrow::Cow::Owned(t.into_owned().reshaped(Shape::col(n))),
            Some(0),
            Some(Shape::scalar()),
        )
    } else {
        match pos.get(2) {
            Some(v) => {
                let d = dims_arg(v)?;
                if d.len() == 1 {
                    (t, Some(d[0]), None)
                } else {
                    let (m, out) = merge_dims(&t, &d);
                    (std::borrow::Cow::Owned(m), Some(0), Some(out))
                }
            }
            None => (t, None, None),
        }
    };
    if t.dims_len_along(dim) > 0 {
        if let W::Vec(ws) = &w {
            if ws.len() != t.dims_len_along(dim) {
                return Err(bad_arg(
                    "var",
                    "The length of the weight vector must match the dimension being operated on.",
                ));
            }
        }
    }
    let complex = t.is_complex();
    let d = dim.unwrap_or_else(|| red::default_dim(&t.shape));
    if dim.is_none() && t.shape.dims() == [0, 0] {
        return Ok(Tensor::scalar_f64(f64::NAN));
    }
    let (inner, len, outer) = lanes(&t.shape, d);
    let cls = if t.class() == Class::Single {
        Class::Single
    } else {
        Class::Double
    };
    // real data along the first dimension, unweighted: typed, no complex copy
    if !omitnan && matches!(w, W::Zero | W::One) {
        let unbiased = matches!(w, W::Zero);
        if let Some(v) =
            crate::values::ops::reduce_fast::variances(&t.data, (inner, len, outer), unbiased)
        {
            let res = Tensor::new(t.shape.with_dim(d, 1), Data::from_f64(cls, v));
            return Ok(match out_shape {
                Some(s) if s.numel() == res.numel() => res.reshaped(s),
                _ => res,
            });
        }
    }
    // complex values as they are; real ones read in place (a complex copy of 3.6e7 values
    // was half a gigabyte and a second before the first look at Ctrl-C)
    let z = complex.then(|| t.to_c64());
    let x = (!complex).then(|| t.to_f64());
    let at = |p: usize| match (&z, &x) {
        (Some(z), _) => z[p],
        (None, Some(x)) => num_complex::Complex64::new(x[p], 0.0),
        (None, None) => num_complex::Complex64::new(f64::NAN, 0.0),
    };
    let mut out = Vec::with_capacity(inner * outer);
    let mut tick = crate::interp::interrupt::Ticker::new();
    for o in 0..outer {
        for i in 0..inner {
            tick.add(len);
            let mut lane: Vec<(num_complex::Complex64, f64)> = (0..len)
                .map(|k| {
                    let wk = match &w {
                        W::Vec(ws) => ws[k],
                        _ => 1.0,
                    };
                    (at(i + k * inner + o * inner * len), wk)
                })
                .collect();
            if omitnan {
                lane.retain(|(x, _)| !(x.re.is_nan() || x.im.is_nan()));
            }
            let n = lane.len() as f64;
            let v = if lane.is_empty() {
                f64::NAN
            } else if lane
                .iter()
                .any(|(x, _)| !x.re.is_finite() || !x.im.is_finite())
            {
                f64::NAN
            } else {
                let wsum: f64 = lane.iter().map(|(_, w)| w).fold(0.0, |a, b| a + b);
                let mean = lane
                    .iter()
                    .map(|(x, w)| x * *w)
                    .fold(num_complex::Complex64::new(0.0, 0.0), |a, b| a + b)
                    / wsum;
                let ss: f64 = lane
                    .iter()
                    .map(|(x, w)| w * (x - mean).norm_sqr())
                    .fold(0.0, |a, b| a + b);
                match &w {
                    W::Zero if lane.len() > 1 => ss / (n - 1.0),
                    W::Zero => 0.0,
                    W::One => ss / n,
                    W::Vec(_) => ss / wsum,
                }
            };
            out.push(v);
        }
    }
    let res = Tensor::new(t.shape.with_dim(d, 1), Data::from_f64(cls, out));
    Ok(match out_shape {
        Some(s) if s.numel() == res.numel() => res.reshaped(s),
        _ => res,
    })
}

fn std(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = variance(a)?;
    one(crate::values::ops::elementwise::unary_tensor(
        crate::values::ops::Un::Sqrt,
        &v,
    )?)
}

fn var(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(variance(a)?)
}
