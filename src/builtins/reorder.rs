//! Reordering elements in place: flips, rotations, circular shifts, triangular parts.

use super::construct::{diag_k, zeros_like};
use super::{Builtin, b, bad_arg, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::ops::shape_ops;
use crate::values::shape::Shape;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("tril", 1, 2, 1, "tril(A, k): lower triangular part.", tril),
        b("triu", 1, 2, 1, "triu(A, k): upper triangular part.", triu),
        b("fliplr", 1, 1, 1, "fliplr(A): reverse the order of columns.", fliplr),
        b("flipud", 1, 1, 1, "flipud(A): reverse the order of rows.", flipud),
        b("flip", 1, 2, 1, "flip(A, dim): reverse the order along a dimension.", flip),
        b("rot90", 1, 2, 1, "rot90(A, k): rotate by 90 degrees k times counterclockwise.", rot90),
        b("circshift", 2, 3, 1, "circshift(A, k, dim): shift elements circularly.", circshift),
    ]
}

fn flip_dim(v: &Value, d: usize) -> MResult<Value> {
    let shape = v.shape();
    let pos = shape_ops::shift_plan(&shape, &[], Some(d));
    shape_ops::gather_value(v, &pos, shape)
}

fn fliplr(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(flip_dim(&a[0], 1)?)
}

fn flipud(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(flip_dim(&a[0], 0)?)
}

fn flip(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let d = match a.get(1) {
        Some(v) => dim_arg(v)?,
        None => a[0].shape().first_nonsingleton(),
    };
    one(flip_dim(&a[0], d)?)
}

fn rot90(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let k = match a.get(1) {
        Some(v) => (v.scalar_f64()? as i64).rem_euclid(4),
        None => 1,
    };
    let mut v = a[0].clone();
    for _ in 0..k {
        // rot90 = flipud(transpose(A))
        v = flip_dim(&shape_ops::transpose_value(&v)?, 0)?;
    }
    one(v)
}

fn circshift(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let shape = a[0].shape();
    let k = a[1].tensor()?;
    if k.numel() == 0
        || k.to_f64()
            .iter()
            .any(|x| x.fract() != 0.0 || !x.is_finite())
    {
        return Err(bad_arg(
            "circshift",
            "Invalid shift type: the shift must be a vector of integers.",
        ));
    }
    let mut shifts = vec![0i64; shape.ndims().max(2)];
    if let Some(dv) = a.get(2) {
        let d = dim_arg(dv)?;
        if shifts.len() <= d {
            shifts.resize(d + 1, 0);
        }
        shifts[d] = k.get_f64(0) as i64;
    } else if k.numel() == 1 {
        let d = shape.first_nonsingleton();
        shifts[d] = k.get_f64(0) as i64;
    } else {
        for (i, x) in k.to_f64().iter().enumerate() {
            if shifts.len() <= i {
                shifts.resize(i + 1, 0);
            }
            shifts[i] = *x as i64;
        }
    }
    let pos = shape_ops::shift_plan(&shape, &shifts, None);
    one(shape_ops::gather_value(&a[0], &pos, shape)?)
}

fn triangle(a: &[Value], lower: bool) -> MResult<Value> {
    let t = a[0].tensor()?;
    if t.shape.ndims() > 2 {
        return Err(MError::new(
            "MATLAB:tril:NDNotSupported",
            "First input must be 2D.",
        ));
    }
    let k = diag_k(a)?;
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let mut keep = Vec::with_capacity(r * c);
    for j in 0..c {
        for i in 0..r {
            let d = j as i64 - i as i64;
            if (lower && d <= k) || (!lower && d >= k) {
                keep.push(i + j * r);
            }
        }
    }
    let kept = t.gather(&keep, Shape::row(keep.len()));
    let mut out = zeros_like(&t, t.shape.clone());
    out.data.scatter_from(&kept.data, &keep);
    Ok(Value::from(out))
}

fn tril(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(triangle(&a, true)?)
}

fn triu(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(triangle(&a, false)?)
}
