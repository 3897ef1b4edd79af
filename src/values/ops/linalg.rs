//! Matrix operations on the host: `*`, `\`, `/`, `^` and the factorizations builtins use,
//! through faer.

use super::Bin;
use super::elementwise::binary_tensor;
use crate::interp::error::{MError, MResult};
use crate::interp::interrupt::detached;
use crate::values::class::Class;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use faer::Mat;
use faer::linalg::solvers::{DenseSolveCore, Solve, SolveLstsq};
use num_complex::Complex64;

pub fn to_mat(t: &Tensor) -> Mat<f64> {
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let x = t.to_f64();
    Mat::from_fn(r, c, |i, j| x[i + j * r])
}
pub fn to_cmat(t: &Tensor) -> Mat<Complex64> {
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let x = t.to_c64();
    Mat::from_fn(r, c, |i, j| x[i + j * r])
}
pub fn from_mat(m: &Mat<f64>, class: Class) -> Tensor {
    let (r, c) = (m.nrows(), m.ncols());
    let mut v = Vec::with_capacity(r * c);
    for j in 0..c {
        for i in 0..r {
            v.push(m[(i, j)]);
        }
    }
    Tensor::new(Shape::matrix(r, c), Data::from_f64(class, v))
}
pub fn from_cmat(m: &Mat<Complex64>, class: Class) -> Tensor {
    let (r, c) = (m.nrows(), m.ncols());
    let mut v = Vec::with_capacity(r * c);
    for j in 0..c {
        for i in 0..r {
            v.push(m[(i, j)]);
        }
    }
    super::elementwise::demote_complex(Tensor::new(Shape::matrix(r, c), Data::from_c64(class, v)))
}

fn float_class(a: &Tensor, b: &Tensor, op: &str) -> MResult<Class> {
    let (ca, cb) = (a.class(), b.class());
    if ca.is_int() || cb.is_int() {
        return Err(MError::new(
            "MATLAB:mixedClasses",
            format!(
                "{op} is not fully supported for integer data types. At least one input must be scalar."
            ),
        ));
    }
    Ok(if ca == Class::Single || cb == Class::Single {
        Class::Single
    } else {
        Class::Double
    })
}

fn require_2d(t: &Tensor, op: &str) -> MResult<()> {
    if t.shape.ndims() > 2 {
        return Err(MError::new(
            "MATLAB:mtimes:inputsMustBe2D",
            format!(
                "Arguments must be 2-D, or at least one argument must be scalar. Use {op} for elementwise operations."
            ),
        ));
    }
    Ok(())
}

/// `a * b`
pub fn mtimes(a: &Tensor, b: &Tensor) -> MResult<Tensor> {
    if a.numel() == 1 || b.numel() == 1 {
        return binary_tensor(Bin::Mul, a, b);
    }
    require_2d(a, "TIMES (.*)")?;
    require_2d(b, "TIMES (.*)")?;
    if a.shape.cols() != b.shape.rows() {
        return Err(MError::new(
            "MATLAB:innerdim",
            "Incorrect dimensions for matrix multiplication. Check that the number of columns in the first matrix matches the number of rows in the second matrix. To operate on each element of the matrix individually, use TIMES (.*) for elementwise multiplication.",
        ));
    }
    let cls = float_class(a, b, "MTIMES (*)")?;
    let (m, k, n) = (a.shape.rows(), a.shape.cols(), b.shape.cols());
    if a.is_complex() || b.is_complex() {
        let (x, y) = (a.to_c64(), b.to_c64());
        if m * n * k > 32 * 32 * 32 {
            // faer's blocked, multithreaded kernels: the loop below took 21.6 s for a
            // 2048x2048 complex product on 16 cores (a gpuArray's fallback once came here)
            let v = gemm(&x, &y, m, k, n);
            return Ok(super::elementwise::demote_complex(Tensor::new(
                Shape::matrix(m, n),
                Data::from_c64(cls, v),
            )));
        }
        let mut out = vec![Complex64::new(0.0, 0.0); m * n];
        for j in 0..n {
            for p in 0..k {
                crate::interp::interrupt::poll();
                let bv = y[p + j * k];
                if bv == Complex64::new(0.0, 0.0) {
                    continue;
                }
                for i in 0..m {
                    out[i + j * m] += x[i + p * m] * bv;
                }
            }
        }
        return Ok(super::elementwise::demote_complex(Tensor::new(
            Shape::matrix(m, n),
            Data::from_c64(cls, out),
        )));
    }
    let out = if m * n * k > 32 * 32 * 32 {
        // faer's multithreaded kernels on the operands' own storage; singles multiply in
        // single (a double operand converted first), as MATLAB's BLAS products do
        if cls == Class::Single {
            fn single(t: &Tensor) -> std::borrow::Cow<'_, [f32]> {
                match &t.data {
                    Data::F32(v) => std::borrow::Cow::Borrowed(v.as_slice()),
                    _ => std::borrow::Cow::Owned(t.to_f64().iter().map(|&v| v as f32).collect()),
                }
            }
            let (fa, fb) = (single(a), single(b));
            let v = gemm(&fa, &fb, m, k, n);
            return Ok(Tensor::new(Shape::matrix(m, n), Data::F32(v)));
        }
        // (singles are not widened first: that was two copies of the operands in double)
        let (x, y) = (a.to_f64(), b.to_f64());
        let v = gemm(&x, &y, m, k, n);
        return Ok(Tensor::new(Shape::matrix(m, n), Data::from_f64(cls, v)));
    } else {
        let (x, y) = (a.to_f64(), b.to_f64());
        let mut out = vec![0.0; m * n];
        for j in 0..n {
            for p in 0..k {
                let bv = y[p + j * k];
                let col = &x[p * m..(p + 1) * m];
                let dst = &mut out[j * m..(j + 1) * m];
                for i in 0..m {
                    dst[i] += col[i] * bv;
                }
            }
        }
        out
    };
    Ok(Tensor::new(Shape::matrix(m, n), Data::from_f64(cls, out)))
}

/// `a' * b` of real double or single matrices of one storage type, with `a` read
/// transposed where it is stored (faer takes the transposed view) instead of copied first:
/// `A' * b` of a 3162x3162 matrix was a 10 ms transpose for a 5 ms product. None where the
/// general path applies (vectors, small products, mixed or complex operands, mismatched
/// sizes: it reports the error).
pub fn mtimes_transposed(a: &Tensor, b: &Tensor) -> Option<Tensor> {
    if a.shape.ndims() > 2 || b.shape.ndims() > 2 || a.is_complex() || b.is_complex() {
        return None;
    }
    let (k, m) = (a.shape.rows(), a.shape.cols());
    let n = b.shape.cols();
    if k < 2 || m < 2 || b.shape.rows() != k || b.numel() < 2 || m * n * k <= 32 * 32 * 32 {
        return None;
    }
    fn product<T: faer::traits::ComplexField + Copy>(
        x: &[T],
        y: &[T],
        m: usize,
        k: usize,
        n: usize,
    ) -> Vec<T> {
        let at = faer::MatRef::from_column_major_slice(x, k, m).transpose();
        let b = faer::MatRef::from_column_major_slice(y, k, n);
        blocked_product(at, b)
    }
    let data = match (&a.data, &b.data) {
        (Data::F64(x), Data::F64(y))
            if a.class() == Class::Double && b.class() == Class::Double =>
        {
            Data::F64(product(x, y, m, k, n))
        }
        (Data::F32(x), Data::F32(y)) => Data::F32(product(x, y, m, k, n)),
        _ => return None,
    };
    Some(Tensor::new(Shape::matrix(m, n), data))
}

/// The column-major product of an m×k and a k×n matrix, through faer (all cores).
fn gemm<T: faer::traits::ComplexField + Copy>(
    x: &[T],
    y: &[T],
    m: usize,
    k: usize,
    n: usize,
) -> Vec<T> {
    let a = faer::MatRef::from_column_major_slice(x, m, k);
    let b = faer::MatRef::from_column_major_slice(y, k, n);
    blocked_product(a, b)
}

/// Multiply-adds in one tile of the result: a Ctrl-C waits for at most one tile (2^29: 90 ms
/// on two cores loaded by other builds; tiles of 2^28 ran a 4000x4000 product 20% slower).
/// `MATFUSE_GEMM_TILE_LOG2` sets another, for measuring.
fn tile_work() -> usize {
    static WORK: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *WORK.get_or_init(|| {
        std::env::var("MATFUSE_GEMM_TILE_LOG2")
            .ok()
            .and_then(|v| v.parse::<u32>().ok())
            .map_or(1usize << 29, |b| 1usize << b.clamp(10, 40))
    })
}

/// `a * b` in column-major storage, written in place a tile of the result at a time with a
/// look at Ctrl-C between tiles (a 4000x4000 product is seconds). Tiles are about square:
/// strips of a few columns made faer pack all of `a` once per strip (2^27 multiply-adds a
/// strip ran a 4000x4000 product 2.5 times slower). The result is written where it stays,
/// zeroed a chunk at a time (it was a faer matrix copied out at the end: 128 MB unwatched).
fn blocked_product<T: faer::traits::ComplexField + Copy>(
    a: faer::MatRef<'_, T>,
    b: faer::MatRef<'_, T>,
) -> Vec<T> {
    let (m, k, n) = (a.nrows(), a.ncols(), b.ncols());
    let mut out = crate::interp::interrupt::filled(T::zero_impl(), m * n);
    let mut c = faer::MatMut::from_column_major_slice_mut(&mut out, m, n);
    // a side of about sqrt(work / k), widened where the other side is short
    let area = (tile_work() / k.max(1)).max(1);
    let side = area.isqrt().max(64);
    let (h, w) = if m <= side {
        (m.max(1), (area / m.max(1)).clamp(1, n.max(1)))
    } else if n <= side {
        ((area / n.max(1)).clamp(1, m.max(1)), n.max(1))
    } else {
        (side, side)
    };
    let mut j = 0;
    while j < n {
        let wj = w.min(n - j);
        let mut i = 0;
        while i < m {
            crate::interp::interrupt::poll_now();
            let hi = h.min(m - i);
            faer::linalg::matmul::matmul(
                c.as_mut().submatrix_mut(i, j, hi, wj),
                faer::Accum::Replace,
                a.subrows(i, hi),
                b.subcols(j, wj),
                T::one_impl(),
                faer::get_global_parallelism(),
            );
            i += hi;
        }
        j += wj;
    }
    out
}

fn warn_singular(rcond_bad: bool) {
    if rcond_bad {
        crate::interp::warning::emit(
            "MATLAB:singularMatrix",
            "Matrix is singular to working precision.",
        );
    }
}

/// `a \ b`: solves a*x = b (least squares when a is not square).
pub fn mldivide(a: &Tensor, b: &Tensor) -> MResult<Tensor> {
    if a.numel() == 1 {
        return binary_tensor(Bin::LDiv, a, b);
    }
    require_2d(a, "LDIVIDE (.\\)")?;
    require_2d(b, "LDIVIDE (.\\)")?;
    if a.shape.rows() != b.shape.rows() {
        return Err(MError::new(
            "MATLAB:dimagree",
            "Matrix dimensions must agree.",
        ));
    }
    let cls = float_class(a, b, "MLDIVIDE (\\)")?;
    let square = a.shape.rows() == a.shape.cols();
    if a.is_complex() || b.is_complex() {
        let (ma, mb) = (to_cmat(a), to_cmat(b));
        if !square && ma.nrows() < ma.ncols() {
            return Err(MError::new(
                "MATLAB:mldivide:complexUnderdetermined",
                "Underdetermined complex systems are not supported yet.",
            ));
        }
        let x = detached(move || {
            if square {
                ma.partial_piv_lu().solve(&mb)
            } else {
                ma.qr().solve_lstsq(&mb)
            }
        });
        return Ok(from_cmat(&x, cls));
    }
    let (ma, mb) = (to_mat(a), to_mat(b));
    if square {
        // the factorization and the solve run detached, so Ctrl-C need not wait for them;
        // an exactly singular system gives MATLAB's Inf/NaN-filled result
        let (x, singular) = detached(move || {
            let lu = ma.partial_piv_lu();
            let u = lu.U();
            let mut maxd: f64 = 0.0;
            let mut mind = f64::INFINITY;
            for i in 0..u.nrows() {
                let d = u[(i, i)].abs();
                maxd = maxd.max(d);
                mind = mind.min(d);
            }
            (lu.solve(&mb), mind == 0.0 || mind / maxd < f64::EPSILON)
        });
        warn_singular(singular);
        Ok(from_mat(&x, cls))
    } else {
        Ok(from_mat(&lstsq_basic(&ma, &mb), cls))
    }
}

/// Least-squares solution of a rectangular or rank-deficient system with at most rank(A)
/// nonzero components (MATLAB's "basic" solution), by QR with column pivoting.
pub fn lstsq_basic(a: &Mat<f64>, b: &Mat<f64>) -> Mat<f64> {
    let (m, n, k) = (a.nrows(), a.ncols(), b.ncols());
    if m == 0 || n == 0 {
        return Mat::zeros(n, k);
    }
    let owned = a.clone();
    let (qr, q) = detached(move || {
        let qr = owned.col_piv_qr();
        let q = qr.compute_Q();
        (qr, q)
    });
    let r = qr.R();
    let (fwd, inv) = qr.P().arrays();
    let p = m.min(n);
    let r00 = r[(0, 0)].abs();
    let tol = m.max(n) as f64 * f64::EPSILON * r00;
    let rank = (0..p).take_while(|&i| r[(i, i)].abs() > tol).count();
    if rank < p {
        crate::interp::warning::emit(
            "MATLAB:rankDeficientMatrix",
            &format!(
                "Rank deficient, rank = {rank}, tol = {}.",
                crate::display::printf::format_e(tol, 6, false)
            ),
        );
    }
    let qtb = q.transpose() * b;
    // back-substitution on the leading rank×rank block
    let mut z = Mat::<f64>::zeros(rank, k);
    for c in 0..k {
        for i in (0..rank).rev() {
            crate::interp::interrupt::poll();
            let mut acc = qtb[(i, c)];
            for j in i + 1..rank {
                acc -= r[(i, j)] * z[(j, c)];
            }
            z[(i, c)] = acc / r[(i, i)];
        }
    }
    let place = |map: &[usize]| {
        let mut x = Mat::<f64>::zeros(n, k);
        for j in 0..rank {
            for c in 0..k {
                x[(map[j], c)] = z[(j, c)];
            }
        }
        x
    };
    let (x1, x2) = (place(fwd), place(inv));
    // the permutation's direction is checked by the residual
    let res = |x: &Mat<f64>| (a * x - b).norm_l2();
    if res(&x1) <= res(&x2) { x1 } else { x2 }
}

pub fn transpose2d(t: &Tensor) -> MResult<Tensor> {
    super::shape_ops::transpose(t)
}

/// `a / b` = (b' \ a')'
pub fn mrdivide(a: &Tensor, b: &Tensor) -> MResult<Tensor> {
    if b.numel() == 1 {
        return binary_tensor(Bin::Div, a, b);
    }
    let at = transpose2d(a)?;
    let bt = transpose2d(b)?;
    if at.shape.rows() != bt.shape.rows() {
        return Err(MError::new(
            "MATLAB:dimagree",
            "Matrix dimensions must agree.",
        ));
    }
    transpose2d(&mldivide(&bt, &at)?)
}

pub fn inverse(a: &Tensor) -> MResult<Tensor> {
    require_2d(a, "INV")?;
    if a.shape.rows() != a.shape.cols() {
        return Err(MError::new("MATLAB:square", "Matrix must be square."));
    }
    let cls = if a.class() == Class::Single {
        Class::Single
    } else {
        Class::Double
    };
    if a.is_complex() {
        let m = to_cmat(a);
        return Ok(from_cmat(
            &detached(move || m.partial_piv_lu().inverse()),
            cls,
        ));
    }
    let m = to_mat(a);
    let n = m.nrows();
    // detached, so Ctrl-C need not wait for the factorization
    let (inv, mind, maxd) = detached(move || {
        let lu = m.partial_piv_lu();
        let u = lu.U();
        let mut mind = f64::INFINITY;
        let mut maxd: f64 = 0.0;
        for i in 0..u.nrows() {
            mind = mind.min(u[(i, i)].abs());
            maxd = maxd.max(u[(i, i)].abs());
        }
        let inv = (mind != 0.0).then(|| lu.inverse());
        (inv, mind, maxd)
    });
    if n > 0 && mind == 0.0 {
        warn_singular(true);
        return Ok(Tensor::new(
            a.shape.clone(),
            Data::from_f64(cls, vec![f64::INFINITY; n * n]),
        ));
    }
    warn_singular(n > 0 && mind / maxd < f64::EPSILON);
    let inv = inv.unwrap_or_else(|| Mat::zeros(n, n));
    Ok(from_mat(&inv, cls))
}

/// `a ^ p`
/// f(A) for a square matrix through its eigendecomposition A = V*D/V (symmetric matrices use
/// the orthogonal one). The result is real when its imaginary part is round-off.
pub fn matrix_function(a: &Tensor, f: impl Fn(Complex64) -> Complex64) -> MResult<Tensor> {
    let n = a.shape.rows();
    let fail = || {
        MError::new(
            "MATLAB:eig:noConvergence",
            "Eigenvalue computation did not converge.",
        )
    };
    let x = a.to_c64();
    let symmetric = !a.is_complex() && (0..n).all(|i| (0..n).all(|j| x[i + j * n] == x[j + i * n]));
    let out: Mat<Complex64> = if symmetric {
        let m = to_mat(a);
        let e = detached(move || m.self_adjoint_eigen(faer::Side::Lower).map_err(|_| ()))
            .map_err(|_| fail())?;
        let u = e.U();
        let d: Vec<Complex64> = (0..n)
            .map(|k| f(Complex64::new(e.S().column_vector()[k], 0.0)))
            .collect();
        Mat::from_fn(n, n, |i, j| {
            crate::interp::interrupt::poll();
            (0..n).map(|k| d[k] * u[(i, k)] * u[(j, k)]).sum()
        })
    } else {
        let m = to_cmat(a);
        let e = detached(move || m.eigen().map_err(|_| ())).map_err(|_| fail())?;
        let v = e.U().to_owned();
        let lam: Vec<Complex64> = (0..n).map(|k| e.S().column_vector()[k]).collect();
        let vt = v.transpose().to_owned();
        let lu = detached(move || vt.partial_piv_lu());
        // g(A) = V*g(D)/V, solved as ((V^T) \ (V*g(D))^T)^T
        let apply = |g: &dyn Fn(Complex64) -> Complex64| -> Mat<Complex64> {
            let vd = Mat::from_fn(n, n, |i, j| {
                crate::interp::interrupt::poll();
                v[(i, j)] * g(lam[j])
            });
            lu.solve(vd.transpose().to_owned()).transpose().to_owned()
        };
        // a defective matrix has no eigenvector basis: rebuilding A from it shows that
        let back = apply(&|z| z);
        let err = (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| (back[(i, j)] - x[i + j * n]).norm())
            .fold(0.0, f64::max);
        let size = x.iter().map(|z| z.norm()).fold(0.0, f64::max);
        if !(err <= 1e-8 * size.max(1e-300)) {
            return Err(MError::new(
                "MATLAB:matrixFunction:notDiagonalizable",
                "The matrix is defective (not diagonalizable); this matrix function needs a Schur method that is not available.",
            ));
        }
        apply(&f)
    };
    let scale = out
        .col_iter()
        .flat_map(|c| c.iter().map(|z| z.norm()).collect::<Vec<_>>())
        .fold(0.0, f64::max);
    let real = out
        .col_iter()
        .all(|c| c.iter().all(|z| z.im.abs() <= 1e-10 * scale.max(1e-300)));
    let t = if real {
        from_mat(&Mat::from_fn(n, n, |i, j| out[(i, j)].re), Class::Double)
    } else {
        from_cmat(&out, Class::Double)
    };
    Ok(if a.class() == Class::Single {
        t.cast(Class::Single)
    } else {
        t
    })
}

pub fn mpower(a: &Tensor, p: &Tensor) -> MResult<Tensor> {
    if a.numel() == 1 && p.numel() == 1 {
        return binary_tensor(Bin::Pow, a, p);
    }
    if a.numel() == 1 && p.shape.rows() == p.shape.cols() && p.shape.ndims() == 2 {
        // s^A = V * diag(s.^d) / V
        let s = a.to_c64()[0];
        return matrix_function(p, |d| {
            if s == Complex64::new(0.0, 0.0) {
                Complex64::new(0.0, 0.0)
            } else {
                (d * s.ln()).exp()
            }
        });
    }
    if p.numel() != 1 || a.shape.rows() != a.shape.cols() || a.shape.ndims() > 2 {
        return Err(MError::new(
            "MATLAB:mpower:notScalarAndSquareMatrix",
            "Incorrect dimensions for raising a matrix to a power. Check that the matrix is square and the power is a scalar. To operate on each element of the matrix individually, use POWER (.^) for elementwise power.",
        ));
    }
    let e = p.get_f64(0);
    if e.fract() != 0.0 || p.is_complex() {
        let q = p.to_c64()[0];
        return matrix_function(a, |d| {
            if d == Complex64::new(0.0, 0.0) {
                d
            } else {
                (q * d.ln()).exp()
            }
        });
    }
    let n = a.shape.rows();
    let mut result = Tensor::f64(
        Shape::matrix(n, n),
        (0..n * n)
            .map(|i| if i % (n + 1) == 0 { 1.0 } else { 0.0 })
            .collect(),
    );
    let mut base = if e < 0.0 { inverse(a)? } else { a.clone() };
    let mut k = e.abs() as u64;
    while k > 0 {
        if k & 1 == 1 {
            result = mtimes(&result, &base)?;
        }
        k >>= 1;
        if k > 0 {
            base = mtimes(&base, &base)?;
        }
    }
    if a.class() == Class::Single {
        result = result.cast(Class::Single);
    }
    Ok(result)
}
