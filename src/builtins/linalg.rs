//! Linear algebra and polynomials on the host (faer): inv rank eig svd qr pinv cond roots
//! polyval polyfit conv (factor.rs holds det lu chol).

use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::interp::interrupt::detached;
use crate::values::class::Class;
use crate::values::ops::linalg::{from_cmat, from_mat, inverse, mldivide, to_cmat, to_mat};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use faer::Mat;
use num_complex::Complex64;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("inv", 1, 1, 1, "inv(A): matrix inverse (warns when singular).", inv),
        b("rank", 1, 2, 1, "rank(A, tol): number of singular values above the tolerance.", rank),
        b("eig", 1, 3, 2, "eig(A), [V, D] = eig(A), eig(A, B), eig(..., 'vector'|'matrix'): eigenvalues and unit eigenvectors.", eig),
        b("svd", 1, 2, 3, "svd(A), [U, S, V] = svd(A): singular value decomposition.", svd),
        b("qr", 1, 2, 2, "[Q, R] = qr(A): QR decomposition.", qr),
        b("pinv", 1, 1, 1, "pinv(A): Moore-Penrose pseudoinverse.", pinv),
        b("cond", 1, 2, 1, "cond(A): 2-norm condition number.", cond),
        b("roots", 1, 1, 1, "roots(p): roots of the polynomial with coefficients p.", roots),
        b("polyder", 1, 2, 1, "polyder(p): derivative of the polynomial p; polyder(a, b): of the product.", polyder),
        b("polyint", 1, 2, 1, "polyint(p, k): integral of the polynomial p (constant k, default 0).", polyint),
        b("polyval", 2, 2, 1, "polyval(p, x): value of the polynomial p at x.", polyval),
        b("polyfit", 3, 3, 1, "polyfit(x, y, n): least-squares polynomial coefficients of degree n.", polyfit),
        b("istriu", 1, 1, 1, "istriu(A): true if A is upper triangular.", istriu),
        b("istril", 1, 1, 1, "istril(A): true if A is lower triangular.", istril),
        b("isdiag", 1, 1, 1, "isdiag(A): true if A is diagonal.", isdiag),
        b("issymmetric", 1, 1, 1, "issymmetric(A): true if A equals its transpose.", issymmetric),
    ]
}

fn square(t: &Tensor) -> MResult<usize> {
    if t.shape.ndims() > 2 || t.shape.rows() != t.shape.cols() {
        return Err(MError::new("MATLAB:square", "Matrix must be square."));
    }
    Ok(t.shape.rows())
}

fn inv(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(inverse(&*a[0].tensor()?)?)
}

fn singular_values(t: &Tensor) -> MResult<Vec<f64>> {
    // factorizations run detached, so Ctrl-C need not wait for them
    let r = if t.is_complex() {
        let m = to_cmat(t);
        detached(move || m.singular_values().map_err(|_| ()))
    } else {
        let m = to_mat(t);
        detached(move || m.singular_values().map_err(|_| ()))
    };
    r.map_err(|_| MError::new("MATLAB:svd:noConvergence", "SVD did not converge."))
}

fn rank(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    if t.numel() == 0 {
        return one(Value::Num(0.0));
    }
    let s = singular_values(&t)?;
    let tol = match a.get(1) {
        Some(v) => v.scalar_f64()?,
        None => {
            t.shape.rows().max(t.shape.cols()) as f64
                * s.first().copied().unwrap_or(0.0)
                * f64::EPSILON
        }
    };
    one(Value::Num(s.iter().filter(|&&x| x > tol).count() as f64))
}

fn is_symmetric(t: &Tensor) -> bool {
    let n = t.shape.rows();
    if t.is_complex() {
        let z = t.to_c64();
        return (0..n).all(|i| (0..n).all(|j| z[i + j * n] == z[j + i * n].conj()));
    }
    let x = t.to_f64();
    (0..n).all(|i| (0..n).all(|j| x[i + j * n] == x[j + i * n]))
}

fn eig(i: &mut Interp, fr: &mut Frame, a: A, nargout: usize) -> R {
    let mut a = a;
    // a trailing 'vector' / 'matrix' chooses the form of the eigenvalues
    let mut form = None;
    if let Some(last) = a.last().filter(|v| v.is_text()) {
        form = Some(last.text()?.to_ascii_lowercase());
        a.pop();
    }
    if a.len() == 2 {
        // the generalized problem A*v = lambda*B*v, as eig(B\A)
        let ba = mldivide(&*a[1].tensor()?, &*a[0].tensor()?)?;
        let mut rest = vec![Value::from(ba)];
        rest.extend(form.map(|f| Value::str(&f)));
        return eig(i, fr, rest, nargout);
    }
    let as_vector = match form.as_deref() {
        Some("vector") => Some(true),
        Some("matrix") => Some(false),
        Some(_) => return Err(bad_arg("eig", "The option must be 'vector' or 'matrix'.")),
        None => None,
    };
    let out = eig_values(&a[0], nargout)?;
    // [V, D] gives D as a matrix unless 'vector'; one output gives a vector unless 'matrix'
    let want_vector = as_vector.unwrap_or(nargout < 2);
    let d_index = if nargout < 2 { 0 } else { 1 };
    let mut out = out;
    if let Some(d) = out.get(d_index).cloned() {
        let t = d.tensor()?.into_owned();
        let is_vector = t.shape.cols() == 1;
        let n = t.shape.rows();
        if want_vector && !is_vector {
            let diag: Vec<usize> = (0..n).map(|k| k + k * n).collect();
            out[d_index] = Value::from(t.gather(&diag, Shape::col(n)));
        } else if !want_vector && is_vector {
            let mut m = Tensor::zeros(Class::Double, Shape::matrix(n, n));
            if t.is_complex() {
                m = Tensor::new(
                    m.shape.clone(),
                    Data::from_c64(Class::Double, m.to_c64().into_owned()),
                );
            }
            let pos: Vec<usize> = (0..n).map(|k| k + k * n).collect();
            m.data.scatter_from(&t.data, &pos);
            out[d_index] = Value::from(m);
        }
    }
    Ok(out)
}

fn eig_values(v: &Value, nargout: usize) -> R {
    let t = v.tensor()?;
    let n = square(&t)?;
    let fail = || {
        MError::new(
            "MATLAB:eig:noConvergence",
            "Eigenvalue computation did not converge.",
        )
    };
    if is_symmetric(&t) && !t.is_complex() {
        let m = to_mat(&t);
        let e = detached(move || m.self_adjoint_eigen(faer::Side::Lower).map_err(|_| ()))
            .map_err(|_| fail())?;
        let vals: Vec<f64> = (0..n).map(|i| e.S().column_vector()[i]).collect();
        if nargout < 2 {
            return one(Value::col(vals));
        }
        let v = from_mat(&e.U().to_owned(), Class::Double);
        let mut d = vec![0.0; n * n];
        for i in 0..n {
            d[i + i * n] = vals[i];
        }
        return Ok(vec![
            Value::from(v),
            Value::from(Tensor::f64(Shape::matrix(n, n), d)),
        ]);
    }
    let (vals, vecs): (Vec<Complex64>, Option<Mat<Complex64>>) = if t.is_complex() {
        let m = to_cmat(&t);
        let e = detached(move || m.eigen().map_err(|_| ())).map_err(|_| fail())?;
        (
            (0..n).map(|i| e.S().column_vector()[i]).collect(),
            Some(e.U().to_owned()),
        )
    } else {
        let m = to_mat(&t);
        let e = detached(move || m.eigen().map_err(|_| ())).map_err(|_| fail())?;
        (
            (0..n).map(|i| e.S().column_vector()[i]).collect(),
            Some(e.U().to_owned()),
        )
    };
    let col = |v: Vec<Complex64>| {
        crate::values::ops::elementwise::demote_complex(Tensor::new(
            Shape::col(v.len()),
            Data::C64(v),
        ))
    };
    if nargout < 2 {
        return one(col(vals));
    }
    let mut d = vec![Complex64::new(0.0, 0.0); n * n];
    for i in 0..n {
        d[i + i * n] = vals[i];
    }
    let dm = crate::values::ops::elementwise::demote_complex(Tensor::new(
        Shape::matrix(n, n),
        Data::C64(d),
    ));
    // each eigenvector has unit 2-norm, as LAPACK returns them
    let mut vecs = vecs.unwrap_or_else(|| Mat::zeros(n, n));
    for j in 0..n {
        let norm = (0..n).map(|i| vecs[(i, j)].norm_sqr()).sum::<f64>().sqrt();
        if norm > 0.0 {
            for i in 0..n {
                vecs[(i, j)] /= norm;
            }
        }
    }
    let vm = from_cmat(&vecs, Class::Double);
    Ok(vec![Value::from(vm), Value::from(dm)])
}

fn svd(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let t = a[0].tensor()?;
    if nargout < 2 {
        return one(Value::col(singular_values(&t)?));
    }
    // svd(A, 0) trims only when A has more rows than columns; 'econ' always trims
    let econ = match a.get(1) {
        Some(v) if v.is_text() => true,
        Some(_) => t.shape.rows() > t.shape.cols(),
        None => false,
    };
    let m = to_mat(&t);
    let s = detached(move || if econ { m.thin_svd() } else { m.svd() }.map_err(|_| ()))
        .map_err(|_| MError::new("MATLAB:svd:noConvergence", "SVD did not converge."))?;
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let k = s.S().column_vector().nrows();
    let (sr, sc) = if econ { (k, k) } else { (r, c) };
    let mut sm = vec![0.0; sr * sc];
    for i in 0..k {
        sm[i + i * sr] = s.S().column_vector()[i];
    }
    Ok(vec![
        Value::from(from_mat(&s.U().to_owned(), Class::Double)),
        Value::from(Tensor::f64(Shape::matrix(sr, sc), sm)),
        Value::from(from_mat(&s.V().to_owned(), Class::Double)),
    ])
}

fn qr(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let t = a[0].tensor()?;
    let m = to_mat(&t);
    let econ = a.len() > 1;
    let (rr, qm) = detached(move || {
        let q = m.qr();
        let qm = match (nargout < 2, econ) {
            (true, _) => None,
            (false, true) => Some(q.compute_thin_Q()),
            (false, false) => Some(q.compute_Q()),
        };
        (q.R().to_owned(), qm)
    });
    let (rows, cols) = (t.shape.rows(), t.shape.cols());
    let rfull = if econ {
        rr
    } else {
        let mut full = Mat::zeros(rows, cols);
        for i in 0..rr.nrows().min(rows) {
            for j in 0..cols {
                if j >= i {
                    full[(i, j)] = rr[(i, j)];
                }
            }
        }
        full
    };
    let Some(qm) = qm else {
        return one(from_mat(&rfull, Class::Double));
    };
    Ok(vec![
        Value::from(from_mat(&qm, Class::Double)),
        Value::from(from_mat(&rfull, Class::Double)),
    ])
}

fn pinv(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let m = to_mat(&t);
    let p = detached(move || m.svd().map(|s| s.pseudoinverse()).map_err(|_| ()))
        .map_err(|_| MError::new("MATLAB:svd:noConvergence", "SVD did not converge."))?;
    one(from_mat(&p, Class::Double))
}

fn cond(i: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    // cond(A, p) for p other than 2: norm(A, p) * norm(inv(A), p)
    if let Some(p) = a
        .get(1)
        .filter(|p| p.is_text() || p.scalar_f64().is_ok_and(|x| x != 2.0))
    {
        let inv = crate::values::ops::linalg::inverse(&*a[0].tensor()?)?;
        let n1 = i.call_named(f, "norm", vec![a[0].clone(), p.clone()], 1)?;
        let n2 = i.call_named(f, "norm", vec![Value::from(inv), p.clone()], 1)?;
        let (x, y) = (n1[0].scalar_f64()?, n2[0].scalar_f64()?);
        return one(Value::Num(x * y));
    }
    let s = singular_values(&*a[0].tensor()?)?;
    let (mx, mn) = (
        s.first().copied().unwrap_or(0.0),
        s.last().copied().unwrap_or(0.0),
    );
    one(Value::Num(if mn == 0.0 { f64::INFINITY } else { mx / mn }))
}

fn poly_coeffs(v: &Value) -> MResult<Vec<f64>> {
    let t = v.tensor()?;
    if !t.shape.is_vector() && t.numel() > 0 {
        return Err(bad_arg(
            "polyder",
            "Input must be a vector of polynomial coefficients.",
        ));
    }
    Ok(t.to_f64().into_owned())
}

fn polyder(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut p = poly_coeffs(&a[0])?;
    if let Some(b) = a.get(1) {
        // the derivative of a product a*b
        let q = poly_coeffs(b)?;
        if p.is_empty() || q.is_empty() {
            p = vec![];
        } else {
            let mut c = vec![0.0; p.len() + q.len() - 1];
            for (i, x) in p.iter().enumerate() {
                for (j, y) in q.iter().enumerate() {
                    c[i + j] += x * y;
                }
            }
            p = c;
        }
    }
    let n = p.len();
    let mut d: Vec<f64> = (0..n.saturating_sub(1))
        .map(|k| p[k] * (n - 1 - k) as f64)
        .collect();
    // leading zeros go; the zero polynomial is 0
    while d.len() > 1 && d[0] == 0.0 {
        d.remove(0);
    }
    if d.is_empty() {
        d.push(0.0);
    }
    one(Value::row(d))
}

fn polyint(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let p = poly_coeffs(&a[0])?;
    let k = match a.get(1) {
        Some(v) => v.scalar_f64()?,
        None => 0.0,
    };
    let n = p.len();
    let mut out: Vec<f64> = p
        .iter()
        .enumerate()
        .map(|(i, x)| x / (n - i) as f64)
        .collect();
    out.push(k);
    one(Value::row(out))
}

fn roots(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    // a matrix is no polynomial (MATLAB's error: roots(peaks()) took its 2401 elements as
    // coefficients, an eigenproblem of 15 s, found by the fuzzer)
    if t.shape.rows() > 1 && t.shape.cols() > 1 || t.shape.ndims() > 2 {
        return Err(MError::new(
            "MATLAB:roots:NonVectorInput",
            "Input must be a vector.",
        ));
    }
    let p = t.to_f64().into_owned();
    // strip leading zeros, count trailing zeros (roots at 0)
    let start = p.iter().position(|&x| x != 0.0).unwrap_or(p.len());
    let mut c: Vec<f64> = p[start..].to_vec();
    let mut zeros = 0;
    while c.len() > 1 && c.last() == Some(&0.0) {
        c.pop();
        zeros += 1;
    }
    let n = c.len().saturating_sub(1);
    let mut out: Vec<Complex64> = Vec::new();
    if n > 0 {
        let mut comp = Mat::<f64>::zeros(n, n);
        for j in 0..n {
            comp[(0, j)] = -c[j + 1] / c[0];
        }
        for i in 1..n {
            comp[(i, i - 1)] = 1.0;
        }
        let e = comp.eigenvalues().map_err(|_| {
            MError::new(
                "MATLAB:roots:noConvergence",
                "Root finding did not converge.",
            )
        })?;
        out.extend(e);
    }
    out.extend(std::iter::repeat_n(Complex64::new(0.0, 0.0), zeros));
    let t = Tensor::new(Shape::col(out.len()), Data::C64(out));
    one(crate::values::ops::elementwise::demote_complex(t))
}

fn polyval(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let p = a[0].tensor()?.to_f64().into_owned();
    let x = a[1].tensor()?;
    let mut tick = crate::interp::interrupt::Ticker::new();
    let r: Vec<f64> = x
        .to_f64()
        .iter()
        .map(|&v| {
            tick.add(p.len());
            p.iter().fold(0.0, |acc, &c| acc * v + c)
        })
        .collect();
    one(Tensor::f64(x.shape.clone(), r))
}

fn polyfit(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].tensor()?.to_f64().into_owned();
    let y = a[1].tensor()?.to_f64().into_owned();
    let n = super::count_arg(&a[2], "polyfit", "Degree N")?;
    if x.len() != y.len() {
        return Err(bad_arg("polyfit", "X and Y vectors must be the same size."));
    }
    let m = x.len();
    let mut v = vec![0.0; m * (n + 1)];
    for i in 0..m {
        for j in 0..=n {
            v[i + j * m] = x[i].powi((n - j) as i32);
        }
    }
    let vt = Tensor::f64(Shape::matrix(m, n + 1), v);
    let yt = Tensor::f64(Shape::col(m), y);
    let c = mldivide(&vt, &yt)?;
    one(Tensor::f64(Shape::row(n + 1), c.to_f64().into_owned()))
}

/// Whether every element where `keep(i, j)` is false is zero.
fn zero_outside(t: &Tensor, keep: impl Fn(usize, usize) -> bool) -> bool {
    if t.shape.ndims() > 2 {
        return false;
    }
    let r = t.shape.rows();
    (0..t.numel()).all(|p| keep(p % r.max(1), p / r.max(1)) || !t.nonzero(p))
}

fn istriu(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(zero_outside(&*a[0].tensor()?, |i, j| j >= i)))
}
fn istril(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(zero_outside(&*a[0].tensor()?, |i, j| j <= i)))
}
fn isdiag(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(Value::Bool(zero_outside(&*a[0].tensor()?, |i, j| i == j)))
}
fn issymmetric(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    one(Value::Bool(
        t.shape.ndims() == 2 && t.shape.rows() == t.shape.cols() && is_symmetric(&t),
    ))
}
