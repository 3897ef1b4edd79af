//! Products and norms: dot norm cross kron trace.

use super::{Builtin, b, bad_arg, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::ops::elementwise;
use crate::values::ops::reduce::{self as red, lanes};
use crate::values::ops::{Bin, Red, linalg};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("dot", 2, 3, 1, "dot(A, B): scalar (dot) product.", dot),
        b("norm", 1, 2, 1, "norm(v, p), norm(A, p) for p = 1, 2, Inf, 'fro': vector and matrix norms.", norm),
        b("cross", 2, 3, 1, "cross(A, B), cross(A, B, dim): cross products of 3-vectors, also along a dimension of length 3.", cross),
        b("kron", 2, 2, 1, "kron(A, B): Kronecker tensor product.", kron),
        b("trace", 1, 1, 1, "trace(A): sum of the diagonal.", trace),
    ]
}

fn dot(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    if x.numel() != y.numel()
        || (x.shape != y.shape && !(x.shape.is_vector() && y.shape.is_vector()))
    {
        return Err(MError::new(
            "MATLAB:dot:InputSizeMismatch",
            "A and B must be the same size.",
        ));
    }
    // conj(A) .* B summed along the dimension (vectors: all of it)
    let conj_x = if x.is_complex() {
        elementwise::unary_tensor(crate::values::ops::Un::Conj, &x)?
    } else {
        x.into_owned()
    };
    let (xv, yv) = if conj_x.shape.is_vector() && y.shape.is_vector() && a.len() < 3 {
        let n = conj_x.numel();
        (
            conj_x.reshaped(Shape::col(n)),
            y.into_owned().reshaped(Shape::col(n)),
        )
    } else {
        (conj_x, y.into_owned())
    };
    let prod = elementwise::binary_tensor(Bin::Mul, &xv, &yv)?;
    let dim = match a.get(2) {
        Some(v) => Some(dim_arg(v)?),
        None => None,
    };
    one(red::reduce(Red::Sum, &prod, dim, false)?)
}

fn norm(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    if !t.class().is_float() {
        return Err(MError::new(
            "MATLAB:norm:inputType",
            "Input must be single or double.",
        ));
    }
    let p = match a.get(1) {
        None => "2".to_string(),
        Some(v) if v.is_text() => v.text()?.to_lowercase(),
        Some(v) => {
            let x = v.scalar_f64()?;
            if x.is_infinite() {
                if x > 0.0 { "inf".into() } else { "-inf".into() }
            } else {
                format!("{x}")
            }
        }
    };
    let abs: Vec<f64> = if t.is_complex() {
        t.to_c64().iter().map(|z| z.norm()).collect()
    } else {
        t.to_f64().iter().map(|x| x.abs()).collect()
    };
    if t.shape.is_vector() || t.numel() <= 1 {
        let r = match p.as_str() {
            "2" | "fro" => abs.iter().fold(0.0f64, |acc, x| acc.hypot(*x)),
            "inf" => abs.iter().copied().fold(0.0, f64::max),
            "-inf" => abs.iter().copied().fold(f64::INFINITY, f64::min),
            "1" => abs.iter().fold(0.0, |a, b| a + b),
            other => {
                let q: f64 = other
                    .parse()
                    .map_err(|_| bad_arg("norm", "Invalid norm type."))?;
                abs.iter().map(|x| x.powf(q)).sum::<f64>().powf(1.0 / q)
            }
        };
        return one(Value::Num(r));
    }
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let v = match p.as_str() {
        "1" => (0..c)
            .map(|j| (0..r).map(|i| abs[i + j * r]).sum::<f64>())
            .fold(0.0, f64::max),
        "inf" => (0..r)
            .map(|i| (0..c).map(|j| abs[i + j * r]).sum::<f64>())
            .fold(0.0, f64::max),
        "fro" => abs.iter().map(|x| x * x).sum::<f64>().sqrt(),
        "2" => {
            // the SVD runs detached, so Ctrl-C need not wait for it
            let s = if t.is_complex() {
                let m = linalg::to_cmat(&t);
                crate::interp::interrupt::detached(move || m.singular_values().map_err(|_| ()))
            } else {
                let m = linalg::to_mat(&t);
                crate::interp::interrupt::detached(move || m.singular_values().map_err(|_| ()))
            }
            .map_err(|_| MError::new("MATLAB:norm:svdFailed", "SVD did not converge."))?;
            s.first().copied().unwrap_or(0.0)
        }
        _ => {
            return Err(bad_arg(
                "norm",
                "Only 1, 2, Inf and 'fro' matrix norms are supported.",
            ));
        }
    };
    one(Value::Num(v))
}

fn cross(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    // 3-vectors of any orientation, or arrays of equal size crossed along a dimension of
    // length 3 (the first one, unless dim is given)
    let vectors = x.numel() == 3 && y.numel() == 3 && x.shape.is_vector() && y.shape.is_vector();
    let d = match a.get(2) {
        Some(v) => dim_arg(v)?,
        None if vectors => x.shape.first_nonsingleton(),
        None => (0..x.shape.ndims())
            .find(|&k| x.shape.dim(k) == 3)
            .unwrap_or(0),
    };
    let vectors = vectors && (a.get(2).is_none() || x.shape.dim(d) == 3 && y.shape.dim(d) == 3);
    if !vectors && (x.shape != y.shape || x.shape.dim(d) != 3) {
        return Err(MError::new(
            "MATLAB:cross:InvalidDimAorB",
            "A and B must be of length 3 in the dimension in which the cross product is taken.",
        ));
    }
    let (p, q) = (x.to_f64(), y.to_f64());
    let shape = x.shape.clone();
    let (inner, len, outer) = lanes(&shape, d);
    let mut r = vec![0.0; p.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| i + k * inner + o * inner * len;
            let (a0, a1, a2) = (p[at(0)], p[at(1)], p[at(2)]);
            let (b0, b1, b2) = (q[at(0)], q[at(1)], q[at(2)]);
            r[at(0)] = a1 * b2 - a2 * b1;
            r[at(1)] = a2 * b0 - a0 * b2;
            r[at(2)] = a0 * b1 - a1 * b0;
        }
    }
    one(Tensor::f64(shape, r))
}

fn kron(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (x, y) = (a[0].tensor()?, a[1].tensor()?);
    let (xr, xc, yr, yc) = (
        x.shape.rows(),
        x.shape.cols(),
        y.shape.rows(),
        y.shape.cols(),
    );
    crate::values::limits::check_dims(&[xr.saturating_mul(yr), xc.saturating_mul(yc)], 16)?;
    let (r, c) = (xr * yr, xc * yc);
    // every product p(i,j)*q(k,l) lands at ((i*yr+k), (j*yc+l)): written column by column
    // of the result (in memory order), with a look at Ctrl-C per column
    fn blocks<T: Copy + std::ops::Mul<Output = T>>(
        p: &[T],
        q: &[T],
        (xr, xc, yr, yc): (usize, usize, usize, usize),
    ) -> Vec<T> {
        let mut out = Vec::with_capacity(xr * yr * xc * yc);
        let mut tick = crate::interp::interrupt::Ticker::new();
        for j in 0..xc {
            for l in 0..yc {
                tick.add(xr * yr);
                let qcol = &q[l * yr..(l + 1) * yr];
                for &pij in &p[j * xr..(j + 1) * xr] {
                    out.extend(qcol.iter().map(|&qkl| pij * qkl));
                }
            }
        }
        out
    }
    let dims = (xr, xc, yr, yc);
    if x.is_complex() || y.is_complex() {
        let out = blocks(&x.to_c64(), &y.to_c64(), dims);
        return one(elementwise::demote_complex(Tensor::new(
            Shape::matrix(r, c),
            Data::C64(out),
        )));
    }
    one(Tensor::f64(
        Shape::matrix(r, c),
        blocks(&x.to_f64(), &y.to_f64(), dims),
    ))
}

fn trace(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let (r, c) = (t.shape.rows(), t.shape.cols());
    if t.shape.ndims() > 2 || r != c {
        return Err(MError::new("MATLAB:square", "Matrix must be square."));
    }
    if t.is_complex() {
        let z = t.to_c64();
        return one(Value::complex((0..r).map(|i| z[i + i * r]).sum()));
    }
    let x = t.to_f64();
    one(Value::Num(
        (0..r).map(|i| x[i + i * r]).fold(0.0, |a, b| a + b),
    ))
}
