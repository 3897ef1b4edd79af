//! Special matrices and subspaces: toeplitz hankel vander hilb invhilb blkdiag perms
//! nonzeros null orth expm linsolve.

use super::{Builtin, b, bad_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::{Class, concat_result};
use crate::values::ops::linalg::{from_mat, mldivide, to_mat};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use faer::Mat;
use faer::linalg::solvers::Solve;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("toeplitz", 1, 2, 1, "toeplitz(c, r): Toeplitz matrix with first column c and first row r.", toeplitz),
        b("hankel", 1, 2, 1, "hankel(c, r): Hankel matrix with first column c and last row r.", hankel),
        b("vander", 1, 1, 1, "vander(v): Vandermonde matrix, columns are powers of v.", vander),
        b("hadamard", 1, 1, 1, "hadamard(n): Hadamard matrix (n a power of 2, or 12 or 20 times one).", hadamard),
        b("wilkinson", 1, 1, 1, "wilkinson(n): Wilkinson's eigenvalue test matrix.", wilkinson),
        b("rosser", 0, 0, 1, "rosser: Rosser's 8-by-8 eigenvalue test matrix.", rosser),
        b("hilb", 1, 2, 1, "hilb(n): the n-by-n Hilbert matrix 1/(i+j-1).", hilb),
        b("invhilb", 1, 1, 1, "invhilb(n): the exact inverse of the Hilbert matrix.", invhilb),
        b("blkdiag", 0, -1, 1, "blkdiag(A, B, ...): block diagonal matrix.", blkdiag),
        b("perms", 1, 1, 1, "perms(v): all permutations of v, one per row, in reverse lexicographic order.", perms),
        b("nonzeros", 1, 1, 1, "nonzeros(A): the nonzero elements of A as a column.", nonzeros),
        b("null", 1, 2, 1, "null(A): orthonormal basis for the null space of A.", null),
        b("orth", 1, 1, 1, "orth(A): orthonormal basis for the range of A.", orth),
        b("sqrtm", 1, 1, 1, "sqrtm(A): principal matrix square root (X*X = A).", sqrtm),
        b("logm", 1, 1, 1, "logm(A): principal matrix logarithm (expm(logm(A)) = A).", logm),
        b("expm", 1, 1, 1, "expm(A): matrix exponential (scaling and squaring, Pade 13).", expm),
        b("linsolve", 2, 3, 1, "linsolve(A, B): solves A*X = B (as A\\B).", linsolve),
    ]
}

fn real_matrix(v: &Value, name: &str) -> MResult<Tensor> {
    let t = v.tensor()?.into_owned();
    if t.shape.ndims() > 2 {
        return Err(bad_arg(name, "Input must be a 2-D matrix."));
    }
    if t.is_complex() {
        return Err(bad_arg(name, "Complex input is not supported."));
    }
    Ok(t)
}

fn hadamard(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = size_n(&a[0], "hadamard")?;
    if n == 0 || !n.is_power_of_two() {
        return Err(bad_arg(
            "hadamard",
            "N must be a power of 2 (other orders are not available).",
        ));
    }
    // Sylvester's construction: H(2n) = [H H; H -H]
    let mut h = vec![1.0];
    let mut m = 1;
    while m < n {
        let mut next = vec![0.0; 4 * m * m];
        for j in 0..m {
            for i in 0..m {
                let v = h[i + j * m];
                next[i + j * 2 * m] = v;
                next[(i + m) + j * 2 * m] = v;
                next[i + (j + m) * 2 * m] = v;
                next[(i + m) + (j + m) * 2 * m] = -v;
            }
        }
        h = next;
        m *= 2;
    }
    one(Tensor::f64(Shape::matrix(n, n), h))
}

fn wilkinson(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = size_n(&a[0], "wilkinson")?;
    crate::values::limits::check_dims(&[n, n], 8)?;
    let m = (n as f64 - 1.0) / 2.0;
    let mut w = vec![0.0; n * n];
    for i in 0..n {
        w[i + i * n] = (i as f64 - m).abs();
        if i + 1 < n {
            w[i + (i + 1) * n] = 1.0;
            w[(i + 1) + i * n] = 1.0;
        }
    }
    one(Tensor::f64(Shape::matrix(n, n), w))
}

fn rosser(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    const R: [[f64; 8]; 8] = [
        [611., 196., -192., 407., -8., -52., -49., 29.],
        [196., 899., 113., -192., -71., -43., -8., -44.],
        [-192., 113., 899., 196., 61., 49., 8., 52.],
        [407., -192., 196., 611., 8., 44., 59., -23.],
        [-8., -71., 61., 8., 411., -599., 208., 208.],
        [-52., -43., 49., 44., -599., 411., 208., 208.],
        [-49., -8., 8., 59., 208., 208., 99., -911.],
        [29., -44., 52., -23., 208., 208., -911., 99.],
    ];
    let v: Vec<f64> = (0..64).map(|k| R[k % 8][k / 8]).collect();
    one(Tensor::f64(Shape::matrix(8, 8), v))
}

fn size_n(v: &Value, name: &str) -> MResult<usize> {
    let n = v.scalar_f64()?;
    if !(n >= 0.0) || n.fract() != 0.0 {
        return Err(bad_arg(name, "N must be a nonnegative integer."));
    }
    crate::values::limits::check_count((n as usize).saturating_mul(n as usize), 8)?;
    Ok(n as usize)
}

/// Builds an r-by-c matrix of `class` from f(i, j), keeping complex values when present.
fn build(
    r: usize,
    c: usize,
    class: Class,
    f: impl Fn(usize, usize) -> num_complex::Complex64,
) -> MResult<Tensor> {
    crate::values::limits::check_count(r.saturating_mul(c), 16)?;
    let mut v = Vec::with_capacity(r * c);
    let mut tick = crate::interp::interrupt::Ticker::new();
    for j in 0..c {
        tick.add(r);
        for i in 0..r {
            v.push(f(i, j));
        }
    }
    let t = Tensor::new(Shape::matrix(r, c), Data::from_c64(class, v));
    Ok(crate::values::ops::elementwise::demote_complex(t))
}

fn toeplitz(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ct = a[0].tensor()?;
    let (c, r, class) = match a.get(1) {
        Some(rv) => {
            let rt = rv.tensor()?;
            let (c, r) = (ct.to_c64().into_owned(), rt.to_c64().into_owned());
            if c.first() != r.first() && !c.is_empty() && !r.is_empty() {
                crate::interp::warning::emit(
                    "MATLAB:toeplitz:DiagonalConflict",
                    "First element of input column does not match first element of input row. \n         Column wins diagonal conflict.",
                );
            }
            (c, r, concat_result(&[ct.class(), rt.class()]))
        }
        None => {
            // toeplitz(r): symmetric (Hermitian for complex input)
            let r = ct.to_c64().into_owned();
            let mut c: Vec<_> = r.iter().map(|z| z.conj()).collect();
            if let Some(first) = c.first_mut() {
                *first = r[0];
            }
            (c, r, ct.class())
        }
    };
    one(build(c.len(), r.len(), class, |i, j| {
        if i >= j { c[i - j] } else { r[j - i] }
    })?)
}

fn hankel(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ct = a[0].tensor()?;
    let c = ct.to_c64().into_owned();
    let m = c.len();
    let (r, class) = match a.get(1) {
        Some(rv) => {
            let rt = rv.tensor()?;
            (
                rt.to_c64().into_owned(),
                concat_result(&[ct.class(), rt.class()]),
            )
        }
        None => (vec![num_complex::Complex64::new(0.0, 0.0); m], ct.class()),
    };
    let n = r.len();
    one(build(m, n, class, |i, j| {
        if i + j < m {
            c[i + j]
        } else {
            r[i + j + 1 - m]
        }
    })?)
}

fn vander(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let v = t.to_c64().into_owned();
    let n = v.len();
    one(build(n, n, t.class(), |i, j| {
        v[i].powi((n - 1 - j) as i32)
    })?)
}

fn hilb(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = size_n(&a[0], "hilb")?;
    let class = match a.get(1) {
        Some(v) if v.text().ok().as_deref() == Some("single") => Class::Single,
        _ => Class::Double,
    };
    one(build(n, n, class, |i, j| {
        (1.0 / (i + j + 1) as f64).into()
    })?)
}

fn invhilb(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = size_n(&a[0], "invhilb")?;
    crate::values::limits::check_count(n.saturating_mul(n), 8)?;
    // MATLAB's recurrence, n^2 steps (a product of binomials per element was n^3: invhilb(1e3)
    // took 13 s, found by fuzz_long)
    let nf = n as f64;
    let mut h = vec![0.0; n * n];
    let mut p = nf;
    let mut tick = crate::interp::interrupt::Ticker::new();
    for i in 1..=n {
        tick.add(n);
        let fi = i as f64;
        let mut r = p * p;
        h[(i - 1) * (n + 1)] = r / (2.0 * fi - 1.0);
        for j in i + 1..=n {
            let fj = j as f64;
            r = -((nf - fj + 1.0) * r * (nf + fj - 1.0)) / ((fj - 1.0) * (fj - 1.0));
            let v = r / (fi + fj - 1.0);
            h[(i - 1) + (j - 1) * n] = v;
            h[(j - 1) + (i - 1) * n] = v;
        }
        p = ((nf - fi) * p * (nf + fi)) / (fi * fi);
    }
    one(Tensor::f64(Shape::matrix(n, n), h))
}

fn blkdiag(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let ts: Vec<Tensor> = a
        .iter()
        .map(|v| real_or_complex_2d(v))
        .collect::<MResult<_>>()?;
    let (rows, cols) = ts
        .iter()
        .fold((0, 0), |(r, c), t| (r + t.shape.rows(), c + t.shape.cols()));
    let class = concat_result(&ts.iter().map(|t| t.class()).collect::<Vec<_>>());
    let mut out = vec![num_complex::Complex64::new(0.0, 0.0); rows * cols];
    let (mut r0, mut c0) = (0, 0);
    for t in &ts {
        let (r, c) = (t.shape.rows(), t.shape.cols());
        let x = t.to_c64();
        for j in 0..c {
            for i in 0..r {
                out[(r0 + i) + (c0 + j) * rows] = x[i + j * r];
            }
        }
        r0 += r;
        c0 += c;
    }
    let t = Tensor::new(Shape::matrix(rows, cols), Data::from_c64(class, out));
    one(crate::values::ops::elementwise::demote_complex(t))
}

fn real_or_complex_2d(v: &Value) -> MResult<Tensor> {
    let t = v.tensor()?.into_owned();
    if t.shape.ndims() > 2 {
        return Err(bad_arg("blkdiag", "Inputs must be 2-D."));
    }
    Ok(t)
}

fn perms(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let v = &a[0];
    let n = v.numel();
    if n > 11 {
        return Err(MError::new(
            "MATLAB:pmaxsize",
            "Maximum variable size allowed by the program is exceeded.",
        ));
    }
    // permutations of 0..n in reverse lexicographic order
    let mut idx: Vec<usize> = (0..n).rev().collect();
    let mut rows: Vec<Vec<usize>> = Vec::new();
    loop {
        crate::interp::interrupt::poll();
        rows.push(idx.clone());
        // previous permutation in lexicographic order
        let Some(i) = (1..n).rev().find(|&i| idx[i - 1] > idx[i]) else {
            break;
        };
        let j = (i..n).rev().find(|&j| idx[j] < idx[i - 1]).unwrap_or(i);
        idx.swap(i - 1, j);
        idx[i..].reverse();
    }
    let m = rows.len();
    let mut pos = vec![0; m * n];
    for (r, p) in rows.iter().enumerate() {
        for (j, &e) in p.iter().enumerate() {
            pos[r + j * m] = e;
        }
    }
    let shape = if n == 0 {
        Shape::matrix(1, 0)
    } else {
        Shape::matrix(m, n)
    };
    one(crate::values::ops::shape_ops::gather_value(v, &pos, shape)?)
}

fn nonzeros(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let keep: Vec<usize> = (0..t.numel()).filter(|&k| t.nonzero(k)).collect();
    one(t.gather(&keep, Shape::col(keep.len())))
}

/// Singular value decomposition pieces and the numerical rank MATLAB uses.
fn svd_rank(t: &Tensor) -> MResult<(Mat<f64>, Mat<f64>, usize)> {
    let m = to_mat(t);
    let s = m
        .svd()
        .map_err(|_| MError::new("MATLAB:svd:noConvergence", "SVD did not converge."))?;
    let sv = s.S().column_vector();
    let smax = (0..sv.nrows()).map(|i| sv[i]).fold(0.0, f64::max);
    let tol = (t.shape.rows().max(t.shape.cols()) as f64) * eps_of(smax);
    let r = (0..sv.nrows()).filter(|&i| sv[i] > tol).count();
    Ok((s.U().to_owned(), s.V().to_owned(), r))
}

fn eps_of(x: f64) -> f64 {
    if x == 0.0 {
        return f64::MIN_POSITIVE * f64::EPSILON;
    }
    2f64.powi(x.abs().log2().floor() as i32 - 52)
}

/// Columns `from..to` of `m`.
fn columns(m: &Mat<f64>, from: usize, to: usize) -> Tensor {
    let rows = m.nrows();
    let mut out = Mat::<f64>::zeros(rows, to - from);
    for (k, j) in (from..to).enumerate() {
        for i in 0..rows {
            out[(i, k)] = m[(i, j)];
        }
    }
    from_mat(&out, Class::Double)
}

fn null(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = real_matrix(&a[0], "null")?;
    let n = t.shape.cols();
    if t.numel() == 0 {
        return one(from_mat(&Mat::<f64>::identity(n, n), Class::Double));
    }
    let (_, v, r) = svd_rank(&t)?;
    one(columns(&v, r, n))
}

fn orth(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = real_matrix(&a[0], "orth")?;
    if t.numel() == 0 {
        return one(Tensor::f64(Shape::matrix(t.shape.rows(), 0), vec![]));
    }
    let (u, _, r) = svd_rank(&t)?;
    one(columns(&u, 0, r))
}

/// Matrix exponential by scaling and squaring with the degree-13 Pade approximant
/// (Higham, "The scaling and squaring method for the matrix exponential revisited", 2005).
fn square_matrix(v: &Value, name: &str) -> MResult<Tensor> {
    let t = v.tensor()?.into_owned();
    if t.shape.ndims() > 2 || t.shape.rows() != t.shape.cols() {
        return Err(MError::new(
            "MATLAB:square",
            format!("Input to {name} must be a square matrix."),
        ));
    }
    Ok(t)
}

fn sqrtm(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = square_matrix(&a[0], "sqrtm")?;
    one(crate::values::ops::linalg::matrix_function(&t, |z| {
        z.sqrt()
    })?)
}

fn logm(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = square_matrix(&a[0], "logm")?;
    one(crate::values::ops::linalg::matrix_function(&t, |z| z.ln())?)
}

fn expm(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = real_matrix(&a[0], "expm")?;
    let n = t.shape.rows();
    if n != t.shape.cols() {
        return Err(MError::new("MATLAB:square", "Matrix must be square."));
    }
    if n == 0 {
        return one(Tensor::f64(Shape::matrix(0, 0), vec![]));
    }
    const B: [f64; 14] = [
        64764752532480000.0,
        32382376266240000.0,
        7771770303897600.0,
        1187353796428800.0,
        129060195264000.0,
        10559470521600.0,
        670442572800.0,
        33522128640.0,
        1323241920.0,
        40840800.0,
        960960.0,
        16380.0,
        182.0,
        1.0,
    ];
    let a0 = to_mat(&t);
    let norm1 = (0..n)
        .map(|j| (0..n).map(|i| a0[(i, j)].abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let id = Mat::<f64>::identity(n, n);
    if norm1 == 0.0 {
        return one(from_mat(&id, Class::Double));
    }
    if n == 1 {
        return one(Tensor::f64(Shape::scalar(), vec![a0[(0, 0)].exp()]));
    }
    if !norm1.is_finite() {
        // no scaling brings an infinite or NaN matrix into range
        return one(Tensor::f64(Shape::matrix(n, n), vec![f64::NAN; n * n]));
    }
    // small norms use a lower-degree approximant (cheaper and no scaling needed)
    const LOW: [(f64, &[f64]); 4] = [
        (1.495585217958292e-2, &[120.0, 60.0, 12.0, 1.0]),
        (
            2.539398330063230e-1,
            &[30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0],
        ),
        (
            9.504178996162932e-1,
            &[
                17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0,
            ],
        ),
        (
            2.097847961257068,
            &[
                17643225600.0,
                8821612800.0,
                2075673600.0,
                302702400.0,
                30270240.0,
                2162160.0,
                110880.0,
                3960.0,
                90.0,
                1.0,
            ],
        ),
    ];
    // the products and the solve run detached, so Ctrl-C need not wait for them
    let r = crate::interp::interrupt::detached(move || {
        let (s, u, v) = if let Some((_, b)) = LOW.iter().find(|(theta, _)| norm1 <= *theta) {
            let a2 = &a0 * &a0;
            let mut power = id.clone();
            let mut odd = &id * b[1];
            let mut even = &id * b[0];
            for k in 1..b.len() / 2 {
                power = &power * &a2;
                odd += &power * b[2 * k + 1];
                even += &power * b[2 * k];
            }
            (0, &a0 * odd, even)
        } else {
            let theta13 = 5.371920351148152;
            let s = (norm1 / theta13).log2().ceil().max(0.0) as i32;
            let am = &a0 * faer::Scale(1.0 / 2f64.powi(s));
            let a2 = &am * &am;
            let a4 = &a2 * &a2;
            let a6 = &a4 * &a2;
            let u_inner = &a6 * (&a6 * B[13] + &a4 * B[11] + &a2 * B[9]);
            let u = &am * (u_inner + &a6 * B[7] + &a4 * B[5] + &a2 * B[3] + &id * B[1]);
            let v_inner = &a6 * (&a6 * B[12] + &a4 * B[10] + &a2 * B[8]);
            let v = v_inner + &a6 * B[6] + &a4 * B[4] + &a2 * B[2] + &id * B[0];
            (s, u, v)
        };
        let p = &v + &u;
        let q = &v - &u;
        let mut r = q.partial_piv_lu().solve(&p);
        for _ in 0..s {
            r = &r * &r;
        }
        r
    });
    one(from_mat(&r, Class::Double))
}

fn linsolve(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(mldivide(&*a[0].tensor()?, &*a[1].tensor()?)?)
}
