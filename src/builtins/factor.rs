//! Triangular factorizations: det lu chol. LU is computed here in LAPACK's order of
//! operations (dgetf2: largest pivot, reciprocal scaling, rank-one updates), so determinants
//! and factors round exactly as MATLAB's do, singular matrices give det 0, and rectangular
//! matrices factor too.

use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::linalg::{from_mat, to_cmat, to_mat};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("det", 1, 1, 1, "det(A): determinant of a square matrix (from its LU factors).", det),
        b("lu", 1, 2, 3, "Y = lu(A), [L, U] = lu(A), [L, U, P] = lu(A, 'vector'|'matrix'): LU factorization with partial pivoting.", lu),
        b("chol", 1, 2, 2, "R = chol(A), [R, p] = chol(A), chol(A, 'lower'): Cholesky factor of a symmetric positive definite matrix.", chol),
    ]
}

/// An m-by-n LU factorization: L (unit lower) and U packed in `a`, column-major, and the row
/// permutation (`perm[i]` = original row now at row i).
struct Lu {
    a: Vec<f64>,
    m: usize,
    n: usize,
    perm: Vec<usize>,
    swaps: usize,
}

fn factor(t: &Tensor) -> Lu {
    let (m, n) = (t.shape.rows(), t.shape.cols());
    let mut a = t.to_f64().into_owned();
    let mut perm: Vec<usize> = (0..m).collect();
    let mut swaps = 0;
    for k in 0..m.min(n) {
        // the largest magnitude in the column (the first one on ties), NaN never chosen
        let mut p = k;
        for i in k + 1..m {
            if a[i + k * m].abs() > a[p + k * m].abs() {
                p = i;
            }
        }
        if p != k {
            for j in 0..n {
                a.swap(k + j * m, p + j * m);
            }
            perm.swap(k, p);
            swaps += 1;
        }
        let pivot = a[k + k * m];
        if pivot != 0.0 {
            if pivot.abs() >= f64::MIN_POSITIVE {
                let r = 1.0 / pivot;
                for i in k + 1..m {
                    a[i + k * m] *= r;
                }
            } else {
                for i in k + 1..m {
                    a[i + k * m] /= pivot;
                }
            }
        }
        for j in k + 1..n {
            crate::interp::interrupt::poll_now();
            let u = a[k + j * m];
            if u != 0.0 {
                for i in k + 1..m {
                    a[i + j * m] -= a[i + k * m] * u;
                }
            }
        }
    }
    Lu {
        a,
        m,
        n,
        perm,
        swaps,
    }
}

impl Lu {
    fn l(&self) -> Tensor {
        let k = self.m.min(self.n);
        let mut l = vec![0.0; self.m * k];
        for j in 0..k {
            l[j + j * self.m] = 1.0;
            for i in j + 1..self.m {
                l[i + j * self.m] = self.a[i + j * self.m];
            }
        }
        Tensor::f64(Shape::matrix(self.m, k), l)
    }
    fn u(&self) -> Tensor {
        let k = self.m.min(self.n);
        let mut u = vec![0.0; k * self.n];
        for j in 0..self.n {
            for i in 0..k.min(j + 1) {
                u[i + j * k] = self.a[i + j * self.m];
            }
        }
        Tensor::f64(Shape::matrix(k, self.n), u)
    }
}

fn real_matrix(v: &Value, name: &str) -> MResult<Tensor> {
    let t = v.tensor()?.into_owned();
    if t.shape.ndims() > 2 {
        return Err(MError::new(
            "MATLAB:ndimsNotSupported",
            format!("Input to {name} must be a 2-D matrix."),
        ));
    }
    if !t.class().is_float() && t.class() != Class::Logical {
        return Err(MError::new(
            format!("MATLAB:{name}:inputType"),
            format!("Input to {name} must be single or double."),
        ));
    }
    Ok(t)
}

/// Converts to the class of the input (single stays single).
fn like(t: Tensor, cls: Class) -> Value {
    if cls == Class::Single {
        Value::from(Tensor::new(
            t.shape.clone(),
            Data::from_f64(Class::Single, t.to_f64().into_owned()),
        ))
    } else {
        Value::from(t)
    }
}

/// A two-way option word: true for `on`, false for `off` or when absent.
fn option_pair(v: Option<&Value>, name: &str, on: &str, off: &str) -> MResult<bool> {
    let Some(v) = v else {
        return Ok(false);
    };
    let word = text_arg(v, name)?.to_ascii_lowercase();
    if word == on {
        Ok(true)
    } else if word == off {
        Ok(false)
    } else {
        Err(bad_arg(
            name,
            format!("The option must be '{on}' or '{off}'."),
        ))
    }
}

fn det(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = real_matrix(&a[0], "det")?;
    let n = t.shape.rows();
    if n != t.shape.cols() {
        return Err(MError::new("MATLAB:square", "Matrix must be square."));
    }
    if t.is_complex() {
        let m = to_cmat(&t);
        return one(Value::complex(crate::interp::interrupt::detached(
            move || m.determinant(),
        )));
    }
    if n == 0 {
        return one(like(Tensor::f64(Shape::scalar(), vec![1.0]), t.class()));
    }
    let f = factor(&t);
    let mut d = 1.0;
    for i in 0..n {
        d *= f.a[i + i * n];
    }
    if f.swaps % 2 == 1 {
        d = -d;
    }
    one(like(Tensor::f64(Shape::scalar(), vec![d]), t.class()))
}

fn lu(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let t = real_matrix(&a[0], "lu")?;
    if t.is_complex() {
        return Err(bad_arg("lu", "Complex matrices are not supported."));
    }
    let vector = option_pair(a.get(1), "lu", "vector", "matrix")?;
    let cls = t.class();
    let f = factor(&t);
    let (m, n) = (f.m, f.n);
    match nargout {
        0 | 1 => {
            // one output: L and U packed together (the unit diagonal of L left implicit)
            one(like(Tensor::f64(Shape::matrix(m, n), f.a.clone()), cls))
        }
        2 => {
            // L comes back permuted so that L*U = A
            let l = f.l();
            let k = m.min(n);
            let mut pl = vec![0.0; m * k];
            for (i, &orig) in f.perm.iter().enumerate() {
                for j in 0..k {
                    pl[orig + j * m] = l.get_f64(i + j * m);
                }
            }
            Ok(vec![
                like(Tensor::f64(Shape::matrix(m, k), pl), cls),
                like(f.u(), cls),
            ])
        }
        _ => {
            let p = if vector {
                Value::row(f.perm.iter().map(|&i| (i + 1) as f64).collect())
            } else {
                let mut p = vec![0.0; m * m];
                for (i, &orig) in f.perm.iter().enumerate() {
                    p[i + orig * m] = 1.0;
                }
                Value::from(Tensor::f64(Shape::matrix(m, m), p))
            };
            Ok(vec![like(f.l(), cls), like(f.u(), cls), p])
        }
    }
}

fn chol(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let t = real_matrix(&a[0], "chol")?;
    let n = t.shape.rows();
    if n != t.shape.cols() {
        return Err(MError::new("MATLAB:square", "Matrix must be square."));
    }
    let lower = option_pair(a.get(1), "chol", "lower", "upper")?;
    let x = to_mat(&t);
    // column by column (the upper triangle is used, as MATLAB does); stops at the first
    // non-positive pivot, whose 1-based index is p
    let mut r = faer::Mat::<f64>::zeros(n, n);
    let mut fail = 0;
    'cols: for j in 0..n {
        for i in 0..=j {
            crate::interp::interrupt::poll();
            let mut s = x[(i, j)];
            for k in 0..i {
                s -= r[(k, i)] * r[(k, j)];
            }
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    fail = j + 1;
                    break 'cols;
                }
                r[(j, j)] = s.sqrt();
            } else {
                r[(i, j)] = s / r[(i, i)];
            }
        }
    }
    if fail > 0 && nargout < 2 {
        return Err(MError::new(
            "MATLAB:posdef",
            "Matrix must be positive definite.",
        ));
    }
    // with [R, p], R is the factor of the leading (p-1)-by-(p-1) block
    let q = if fail > 0 { fail - 1 } else { n };
    let mut rr = faer::Mat::<f64>::zeros(q, q);
    for i in 0..q {
        for j in i..q {
            rr[(i, j)] = r[(i, j)];
        }
    }
    let rr = if lower { rr.transpose().to_owned() } else { rr };
    let mut out = vec![like(from_mat(&rr, Class::Double), t.class())];
    if nargout > 1 {
        out.push(Value::Num(fail as f64));
    }
    Ok(out)
}
