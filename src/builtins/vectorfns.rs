//! Vector and matrix helpers: vecnorm rms maxk mink sinpi cospi pascal compan poly rcond
//! ishermitian underlyingType.

use super::stats::lanes_map;
use super::{Builtin, b, bad_arg, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::linalg::{to_cmat, to_mat};
use crate::values::ops::reduce::default_dim;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use faer::linalg::solvers::Solve;
use num_complex::Complex64;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("vecnorm", 1, 3, 1, "vecnorm(A, p, dim): p-norm of each vector along dim (default 2, first non-singleton).", vecnorm),
        b("rms", 1, 2, 1, "rms(X, dim): root mean square.", rms),
        b("maxk", 2, 3, 2, "[B, I] = maxk(A, k, dim): the k largest elements, descending.", maxk),
        b("mink", 2, 3, 2, "[B, I] = mink(A, k, dim): the k smallest elements, ascending.", mink),
        b("sinpi", 1, 1, 1, "sinpi(X): sin(pi*X), exact at integers.", sinpi),
        b("cospi", 1, 1, 1, "cospi(X): cos(pi*X), exact at half-integers.", cospi),
        b("pascal", 1, 1, 1, "pascal(n): the n-by-n Pascal matrix.", pascal),
        b("compan", 1, 1, 1, "compan(p): companion matrix of the polynomial p.", compan),
        b("poly", 1, 1, 1, "poly(r): polynomial with roots r; poly(A): characteristic polynomial.", poly),
        b("rcond", 1, 1, 1, "rcond(A): reciprocal condition number in the 1-norm.", rcond),
        b("ishermitian", 1, 1, 1, "ishermitian(A): true if A equals its conjugate transpose.", ishermitian),
        b("underlyingType", 1, 1, 1, "underlyingType(X): the class of the data (the class, for ordinary arrays).", underlying_type),
        b("classUnderlying", 1, 1, 1, "classUnderlying(X): the class of a gpuArray's data (the class, for ordinary arrays).", underlying_type),
    ]
}

fn float_class(t: &Tensor) -> Class {
    if t.class() == Class::Single {
        Class::Single
    } else {
        Class::Double
    }
}

fn vecnorm(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?.into_owned();
    let t = if t.is_complex() {
        let mags: Vec<f64> = t.to_c64().iter().map(|z| z.norm()).collect();
        Tensor::f64(t.shape.clone(), mags)
    } else {
        t
    };
    let p = match a.get(1) {
        Some(v) if !v.is_empty() => v.scalar_f64()?,
        _ => 2.0,
    };
    if !(p >= 1.0) {
        return Err(bad_arg(
            "vecnorm",
            "P must be a positive real scalar >= 1 or Inf.",
        ));
    }
    let d = match a.get(2) {
        Some(v) => dim_arg(v)?,
        None => default_dim(&t.shape),
    };
    one(lanes_map(&t, Some(d), 1, |v| {
        let n = if p.is_infinite() {
            v.iter().fold(0.0, |m: f64, x| m.max(x.abs()))
        } else if p == 2.0 {
            v.iter().map(|x| x * x).sum::<f64>().sqrt()
        } else if p == 1.0 {
            v.iter().map(|x| x.abs()).sum()
        } else {
            v.iter().map(|x| x.abs().powf(p)).sum::<f64>().powf(1.0 / p)
        };
        vec![n]
    }))
}

fn rms(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?.into_owned();
    let t = if t.is_complex() {
        Tensor::f64(
            t.shape.clone(),
            t.to_c64().iter().map(|z| z.norm()).collect(),
        )
    } else {
        t
    };
    let d = match a.get(1) {
        Some(v) => dim_arg(v)?,
        None => default_dim(&t.shape),
    };
    if a.get(1).is_none() && t.shape.dims() == [0, 0] {
        return one(Value::Num(f64::NAN));
    }
    one(lanes_map(&t, Some(d), 1, |v| {
        vec![(v.iter().map(|x| x * x).sum::<f64>() / v.len() as f64).sqrt()]
    }))
}

fn top_k(a: A, nargout: usize, largest: bool) -> R {
    let t = a[0].tensor()?.into_owned();
    let k = super::count_arg(&a[1], if largest { "maxk" } else { "mink" }, "K")?;
    let d = match a.get(2) {
        Some(v) => dim_arg(v)?,
        None => default_dim(&t.shape),
    };
    let len = t.shape.dim(d);
    let m = k.min(len);
    // stable order: NaN last for maxk (treated as largest by MATLAB: first), ties by index
    let order = |v: &[f64]| -> Vec<usize> {
        let mut idx: Vec<usize> = (0..v.len()).collect();
        idx.sort_by(|&p, &q| {
            let (x, y) = (v[p], v[q]);
            let o = if largest {
                match (x.is_nan(), y.is_nan()) {
                    (true, true) => std::cmp::Ordering::Equal,
                    (true, false) => std::cmp::Ordering::Less,
                    (false, true) => std::cmp::Ordering::Greater,
                    _ => y.total_cmp(&x),
                }
            } else {
                match (x.is_nan(), y.is_nan()) {
                    (true, true) => std::cmp::Ordering::Equal,
                    (true, false) => std::cmp::Ordering::Greater,
                    (false, true) => std::cmp::Ordering::Less,
                    _ => x.total_cmp(&y),
                }
            };
            o.then(p.cmp(&q))
        });
        idx.truncate(m);
        idx
    };
    let vals = lanes_map(&t, Some(d), m, |v| {
        order(v).into_iter().map(|i| v[i]).collect()
    });
    let vals = Tensor::new(
        vals.shape.clone(),
        Data::from_f64(t.class(), vals.to_f64().into_owned()),
    );
    let mut out = vec![Value::from(vals)];
    if nargout > 1 {
        let idx = lanes_map(&t, Some(d), m, |v| {
            order(v).into_iter().map(|i| (i + 1) as f64).collect()
        });
        out.push(Value::from(Tensor::f64(
            idx.shape.clone(),
            idx.to_f64().into_owned(),
        )));
    }
    Ok(out)
}

fn maxk(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    top_k(a, nargout, true)
}
fn mink(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    top_k(a, nargout, false)
}

fn map_pi(v: &Value, f: impl Fn(f64) -> f64) -> R {
    let t = v.tensor()?;
    let r: Vec<f64> = t.to_f64().iter().map(|&x| f(x)).collect();
    one(Tensor::new(
        t.shape.clone(),
        Data::from_f64(float_class(&t), r),
    ))
}

fn sinpi(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    map_pi(&a[0], crate::values::ops::more_real::sinpi)
}

fn cospi(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    map_pi(&a[0], crate::values::ops::more_real::cospi)
}

fn pascal(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = super::count_arg(&a[0], "pascal", "N")?;
    crate::values::limits::check_dims(&[n, n], 8)?;
    let mut p = vec![1.0; n * n];
    for i in 1..n {
        for j in 1..n {
            p[i + j * n] = p[i - 1 + j * n] + p[i + (j - 1) * n];
        }
    }
    one(Tensor::f64(Shape::matrix(n, n), p))
}

fn compan(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    if !t.shape.is_vector() && t.numel() > 0 {
        return Err(MError::new(
            "MATLAB:compan:NeedVectorInput",
            "Input argument must be a vector.",
        ));
    }
    let c = t.to_f64();
    let n = c.len();
    if n <= 1 {
        return one(Value::empty());
    }
    if c[0] == 0.0 {
        return Err(bad_arg("compan", "The first coefficient must be nonzero."));
    }
    let m = n - 1;
    let mut out = vec![0.0; m * m];
    for j in 0..m {
        out[j * m] = -c[j + 1] / c[0];
    }
    for i in 1..m {
        out[i + (i - 1) * m] = 1.0;
    }
    one(Tensor::f64(Shape::matrix(m, m), out))
}

fn poly(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    // a square matrix gives its characteristic polynomial (from its eigenvalues)
    let roots: Vec<Complex64> = if t.shape.rows() == t.shape.cols() && t.shape.rows() > 1 {
        let fail = |_| {
            MError::new(
                "MATLAB:eig:noConvergence",
                "Eigenvalue computation did not converge.",
            )
        };
        if t.is_complex() {
            to_cmat(&t).eigenvalues().map_err(fail)?
        } else {
            to_mat(&t).eigenvalues().map_err(fail)?
        }
    } else if t.shape.is_vector() || t.numel() == 0 {
        t.to_c64().into_owned()
    } else {
        return Err(MError::new(
            "MATLAB:poly:InputSize",
            "Argument must be a vector or a square matrix.",
        ));
    };
    let mut c = vec![Complex64::new(1.0, 0.0)];
    for r in &roots {
        let mut next = c.clone();
        next.push(Complex64::new(0.0, 0.0));
        for k in 1..next.len() {
            next[k] -= r * c[k - 1];
        }
        c = next;
    }
    // conjugate pairs of roots give a real polynomial
    let real = roots.iter().all(|r| r.im == 0.0)
        || roots.iter().all(|r| {
            roots
                .iter()
                .any(|s| (s - r.conj()).norm() <= 1e-12 * r.norm().max(1.0))
        });
    if real {
        one(Value::row(c.iter().map(|z| z.re).collect()))
    } else {
        let n = c.len();
        one(Tensor::new(Shape::row(n), Data::C64(c)))
    }
}

fn norm1(x: &[f64], n: usize) -> f64 {
    (0..n)
        .map(|j| (0..n).map(|i| x[i + j * n].abs()).sum::<f64>())
        .fold(0.0, f64::max)
}

fn rcond(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let n = t.shape.rows();
    if n != t.shape.cols() || t.shape.ndims() > 2 {
        return Err(MError::new("MATLAB:square", "Matrix must be square."));
    }
    if n == 0 {
        return one(Value::Num(f64::INFINITY));
    }
    let x = t.to_f64().into_owned();
    let an = norm1(&x, n);
    if an == 0.0 {
        return one(Value::Num(0.0));
    }
    // the exact 1-norm of the inverse (LAPACK estimates it; they agree for small matrices)
    let m = to_mat(&t);
    let inv = crate::interp::interrupt::detached(move || {
        m.partial_piv_lu().solve(faer::Mat::<f64>::identity(n, n))
    });
    let iv: Vec<f64> = (0..n * n).map(|k| inv[(k % n, k / n)]).collect();
    let inn = norm1(&iv, n);
    let r = if inn.is_finite() && inn > 0.0 {
        1.0 / (an * inn)
    } else {
        0.0
    };
    one(Value::Num(r))
}

fn ishermitian(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let n = t.shape.rows();
    if n != t.shape.cols() || t.shape.ndims() > 2 {
        return one(Value::Bool(false));
    }
    let z = t.to_c64();
    one(Value::Bool((0..n).all(|i| {
        (0..n).all(|j| z[i + j * n] == z[j + i * n].conj())
    })))
}

fn underlying_type(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    // A gpuArray's underlying class is its data's class.
    let name = match &a[0] {
        Value::Device(d) => d.class().name().to_string(),
        Value::DeviceComplex(z) => z.class().name().to_string(),
        v => v.class_name(),
    };
    one(Value::str(&name))
}
