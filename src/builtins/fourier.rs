//! Discrete Fourier transforms: fft, ifft, fft2, ifft2, fftn, ifftn, fftshift, ifftshift.
//!
//! The transforms are rustfft's (mixed radix for smooth lengths, Rader and Bluestein for
//! primes: every length is O(n log n)), planned once per length and thread. The lanes of an
//! array (its columns, or its vectors along any dimension) are transformed in batches across
//! the cores. Singles are transformed in single, everything else in double, as MATLAB does.
//! A gpuArray's fft, ifft, fft2 and ifft2 run on the device instead (interp::fourier,
//! gpu::fft); fftn and ifftn of one are computed here (docs/device-functions.md).

use super::{Builtin, b, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::elementwise::demote_complex;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::{Complex, Complex32, Complex64};
use rayon::prelude::*;
use rustfft::{Fft, FftNum, FftPlanner};
use std::cell::RefCell;
use std::sync::Arc;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("fft", 1, 3, 1, "fft(X), fft(X, n), fft(X, n, dim): discrete Fourier transform along the first non-singleton dimension (or dim), X padded with zeros or truncated to n points.", fft),
        b("ifft", 1, 4, 1, "ifft(Y), ifft(Y, n, dim), ifft(..., 'symmetric'): inverse discrete Fourier transform; real when Y is conjugate symmetric ('symmetric' treats it so).", ifft),
        b("fft2", 1, 3, 1, "fft2(X), fft2(X, m, n): two-dimensional discrete Fourier transform (of each page of an N-D array).", fft2),
        b("ifft2", 1, 4, 1, "ifft2(Y), ifft2(Y, m, n), ifft2(..., 'symmetric'): two-dimensional inverse discrete Fourier transform.", ifft2),
        b("fftn", 1, 2, 1, "fftn(X), fftn(X, siz): N-dimensional discrete Fourier transform, X padded or truncated to siz.", fftn),
        b("ifftn", 1, 3, 1, "ifftn(Y), ifftn(Y, siz), ifftn(..., 'symmetric'): N-dimensional inverse discrete Fourier transform.", ifftn),
        b("fftshift", 1, 2, 1, "fftshift(X), fftshift(X, dim): moves the zero-frequency component to the centre (swaps half-spaces).", fftshift),
        b("ifftshift", 1, 2, 1, "ifftshift(X), ifftshift(X, dim): undoes fftshift.", ifftshift),
    ]
}

#[derive(Clone, Copy, PartialEq)]
enum Dir {
    Forward,
    Inverse,
}

/// The element types transforms run in, each with its own planner (rustfft's planners cache
/// their plans, so a length is planned once per thread).
trait Planned: FftNum + Default {
    fn plan(n: usize, dir: Dir) -> Arc<dyn Fft<Self>>;
    fn widen(z: Complex<Self>) -> Complex64;
}

thread_local! {
    static PLAN64: RefCell<FftPlanner<f64>> = RefCell::new(FftPlanner::new());
    static PLAN32: RefCell<FftPlanner<f32>> = RefCell::new(FftPlanner::new());
}

impl Planned for f64 {
    fn plan(n: usize, dir: Dir) -> Arc<dyn Fft<f64>> {
        PLAN64.with(|p| match dir {
            Dir::Forward => p.borrow_mut().plan_fft_forward(n),
            Dir::Inverse => p.borrow_mut().plan_fft_inverse(n),
        })
    }
    fn widen(z: Complex64) -> Complex64 {
        z
    }
}
impl Planned for f32 {
    fn plan(n: usize, dir: Dir) -> Arc<dyn Fft<f32>> {
        PLAN32.with(|p| match dir {
            Dir::Forward => p.borrow_mut().plan_fft_forward(n),
            Dir::Inverse => p.borrow_mut().plan_fft_inverse(n),
        })
    }
    fn widen(z: Complex32) -> Complex64 {
        Complex64::new(z.re as f64, z.im as f64)
    }
}

/// Elements a batch of lanes holds: a batch is one task of the pool, and one call of the
/// transform (rustfft processes consecutive lanes of one buffer).
const BATCH_ELEMS: usize = 1 << 15;

/// (elements between consecutive elements of a lane, lane length, blocks of lanes) of `shape`
/// along dimension `d`.
fn lanes_of(shape: &Shape, d: usize) -> (usize, usize, usize) {
    let dims = shape.dims();
    let inner: usize = dims.iter().take(d).product();
    let outer: usize = dims.iter().skip(d + 1).product();
    (inner, shape.dim(d), outer)
}

/// The array padded with zeros or truncated to `n` along `d` (a copy only when it changes).
fn resize_dim<T: Copy + Default + Send + Sync>(
    x: Vec<T>,
    shape: &Shape,
    d: usize,
    n: usize,
) -> (Vec<T>, Shape) {
    let (inner, len, outer) = lanes_of(shape, d);
    let out_shape = shape.with_dim(d, n);
    if n == len {
        return (x, out_shape);
    }
    let keep = inner * len.min(n);
    let mut out = vec![T::default(); inner * n * outer];
    if keep > 0 {
        for (o, block) in out.chunks_mut(inner * n).enumerate() {
            let src = &x[o * inner * len..][..keep];
            block[..keep].copy_from_slice(src);
        }
    }
    (out, out_shape)
}

/// The transform of every lane along dimension `d`; inverse transforms are scaled by 1/n.
fn transform_dim<T: Planned>(
    x: Vec<Complex<T>>,
    shape: &Shape,
    d: usize,
    dir: Dir,
) -> Vec<Complex<T>> {
    let (inner, n, outer) = lanes_of(shape, d);
    let total = inner * n * outer;
    if total == 0 || n == 1 {
        return x;
    }
    let plan = T::plan(n, dir);
    let scale = T::from_f64(1.0 / n as f64).unwrap_or_else(T::one);
    let scratch_len = plan.get_inplace_scratch_len();
    let batch = (BATCH_ELEMS / n).max(1);
    let run = |chunk: &mut [Complex<T>], scratch: &mut Vec<Complex<T>>| {
        plan.process_with_scratch(chunk, scratch);
        if dir == Dir::Inverse {
            for z in chunk.iter_mut() {
                *z = *z * scale;
            }
        }
    };
    let zero = Complex::new(T::zero(), T::zero());
    if inner == 1 {
        // Lanes are contiguous (columns): transformed in place.
        let mut buf = x;
        buf.par_chunks_mut(n * batch)
            .for_each_init(|| vec![zero; scratch_len], |s, chunk| run(chunk, s));
        return buf;
    }
    // Lanes `inner` apart: each batch gathers its lanes into contiguous rows (lane l = o*inner
    // + i), and one pass writes them back in column-major order.
    let mut rows = vec![zero; total];
    rows.par_chunks_mut(n * batch).enumerate().for_each_init(
        || vec![zero; scratch_len],
        |s, (c, chunk)| {
            for (j, lane) in chunk.chunks_mut(n).enumerate() {
                let l = c * batch + j;
                let base = l % inner + (l / inner) * inner * n;
                for (k, z) in lane.iter_mut().enumerate() {
                    *z = x[base + k * inner];
                }
            }
            run(chunk, s)
        },
    );
    let mut out = x;
    out.par_chunks_mut(inner * n)
        .enumerate()
        .for_each(|(o, block)| {
            for i in 0..inner {
                let lane = &rows[(o * inner + i) * n..][..n];
                for (k, z) in lane.iter().enumerate() {
                    block[i + k * inner] = *z;
                }
            }
        });
    out
}

/// The position of the element at `p` reflected to minus its index (mod the size) along each
/// of `dims`: the partner a conjugate-symmetric array's element equals the conjugate of.
fn reflected(p: usize, shape: &Shape, strides: &[usize], dims: &[usize]) -> usize {
    let mut q = p;
    for &d in dims {
        let n = shape.dim(d);
        if d >= strides.len() || n <= 1 {
            continue;
        }
        let k = (p / strides[d]) % n;
        let r = (n - k) % n;
        q = q + r * strides[d] - k * strides[d];
    }
    q
}

/// Whether the array is conjugate symmetric along `dims` (then its inverse transform is real).
fn conjugate_symmetric<T: FftNum>(x: &[Complex<T>], shape: &Shape, dims: &[usize]) -> bool {
    let strides = shape.strides();
    (0..x.len()).all(|p| {
        let q = reflected(p, shape, &strides, dims);
        x.get(q).is_some_and(|z| z.conj() == x[p])
    })
}

/// Makes the array conjugate symmetric from its first half along the first of `dims`, as the
/// 'symmetric' option treats it: the second half is the conjugate of the first, reflected.
fn fill_symmetric<T: FftNum>(x: &mut [Complex<T>], shape: &Shape, dims: &[usize]) {
    let Some(&d0) = dims.first() else { return };
    let n0 = shape.dim(d0);
    let strides = shape.strides();
    let Some(&s0) = strides.get(d0) else { return };
    for p in 0..x.len() {
        let k0 = (p / s0) % n0;
        if k0 > n0 / 2 {
            let q = reflected(p, shape, &strides, dims);
            if let Some(z) = x.get(q).copied() {
                x[p] = z.conj();
            }
        }
    }
}

/// Makes the transform of a real array exactly conjugate symmetric, as a real-input transform
/// is (each element and its reflected partner are computed by different paths, which round
/// differently): so `ifft(fft(x) .* H)` with a symmetric H is real, as in MATLAB.
fn make_hermitian<T: FftNum>(x: &mut [Complex<T>], shape: &Shape, dims: &[usize]) {
    if let [d] = dims {
        // one dimension: each lane's second half from its first, no index arithmetic
        let (inner, n, outer) = lanes_of(shape, *d);
        if n == 0 || inner * n * outer != x.len() {
            return;
        }
        for block in x.chunks_mut(inner * n) {
            for i in 0..inner {
                block[i].im = T::zero();
                if n % 2 == 0 {
                    block[i + (n / 2) * inner].im = T::zero();
                }
                for k in n / 2 + 1..n {
                    block[i + k * inner] = block[i + (n - k) * inner].conj();
                }
            }
        }
        return;
    }
    let strides = shape.strides();
    for p in 0..x.len() {
        let q = reflected(p, shape, &strides, dims);
        if q < p {
            x[p] = x[q].conj();
        } else if q == p {
            x[p].im = T::zero();
        }
    }
}

/// What a transform is asked: each dimension transformed with its length, the direction,
/// and whether the input is to be treated as conjugate symmetric.
struct Request {
    dims: Vec<(usize, usize)>,
    dir: Dir,
    symmetric: bool,
    /// the input has no imaginary part (its forward transform is conjugate symmetric)
    real_input: bool,
}

/// Runs a transform in `T` on complex data of `shape`.
fn run_typed<T: Planned>(
    mut x: Vec<Complex<T>>,
    shape: &Shape,
    req: &Request,
) -> (Vec<Complex<T>>, Shape, bool) {
    let mut shape = shape.clone();
    for &(d, n) in &req.dims {
        let (y, s) = resize_dim(x, &shape, d, n);
        x = y;
        shape = s;
    }
    let dims: Vec<usize> = req.dims.iter().map(|&(d, _)| d).collect();
    let real = match req.dir {
        Dir::Forward => false,
        Dir::Inverse if req.symmetric => {
            fill_symmetric(&mut x, &shape, &dims);
            true
        }
        Dir::Inverse => conjugate_symmetric(&x, &shape, &dims),
    };
    for &d in &dims {
        x = transform_dim(x, &shape, d, req.dir);
    }
    if req.dir == Dir::Forward && req.real_input {
        make_hermitian(&mut x, &shape, &dims);
    }
    (x, shape, real)
}

/// The transform of a numeric or logical array: single in single, anything else in double;
/// the result is real where MATLAB's is (a conjugate-symmetric inverse, or no imaginary part).
fn transform(t: &Tensor, mut req: Request) -> MResult<Tensor> {
    req.real_input = !t.is_complex();
    if matches!(t.class(), Class::Char) {
        return Err(MError::new(
            "MATLAB:fft:invalidInputType",
            "Invalid data type. Input must be numeric or logical.",
        ));
    }
    let mut out_dims = t.shape.dims().to_vec();
    for &(d, n) in &req.dims {
        if out_dims.len() <= d {
            out_dims.resize(d + 1, 1);
        }
        out_dims[d] = n;
    }
    crate::values::limits::check_dims(&out_dims, 16)?;
    let out = match &t.data {
        Data::F32(v) => {
            let x: Vec<Complex32> = v.iter().map(|&r| Complex32::new(r, 0.0)).collect();
            typed_result(run_typed(x, &t.shape, &req), Class::Single)
        }
        Data::C32(v) => typed_result(run_typed(v.clone(), &t.shape, &req), Class::Single),
        _ => {
            let x: Vec<Complex64> = t.to_c64().into_owned();
            typed_result(run_typed(x, &t.shape, &req), Class::Double)
        }
    };
    Ok(out)
}

fn typed_result<T: Planned>(r: (Vec<Complex<T>>, Shape, bool), class: Class) -> Tensor {
    let (x, shape, real) = r;
    let data = if real {
        Data::from_f64(class, x.iter().map(|&z| T::widen(z).re).collect())
    } else {
        Data::from_c64(class, x.iter().map(|&z| T::widen(z)).collect())
    };
    demote_complex(Tensor::new(shape, data))
}

/// A transform length argument: [] for the array's own, else a nonnegative integer.
fn length_arg(v: &Value, name: &str) -> MResult<Option<usize>> {
    if matches!(v, Value::Tensor(t) if t.numel() == 0) {
        return Ok(None);
    }
    let n = v.scalar_f64().ok().filter(|_| v.numel() == 1);
    match n {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n.is_finite() => {
            let n = n as usize;
            crate::values::limits::check_count(n, 16)?;
            Ok(Some(n))
        }
        _ => Err(MError::new(
            format!("MATLAB:{name}:invalidLength"),
            "Transform length must be a nonnegative integer scalar.",
        )),
    }
}

/// Splits a trailing 'symmetric' / 'nonsymmetric' option off the arguments.
fn symmetry_flag(mut a: A, name: &str) -> MResult<(A, bool)> {
    let mut symmetric = false;
    if a.len() > 1 && a.last().is_some_and(|v| v.is_text()) {
        let flag = a.pop().map(|v| v.text()).transpose()?.unwrap_or_default();
        symmetric = match flag.to_lowercase().as_str() {
            "symmetric" => true,
            "nonsymmetric" => false,
            _ => {
                return Err(MError::new(
                    format!("MATLAB:{name}:invalidOption"),
                    "Option must be 'symmetric' or 'nonsymmetric'.",
                ));
            }
        };
    }
    Ok((a, symmetric))
}

fn one_dim(a: &A, name: &str, dir: Dir, symmetric: bool) -> R {
    let t = a[0].tensor()?;
    let d = match a.get(2) {
        Some(d) => dim_arg(d)?,
        None => t.shape.first_nonsingleton(),
    };
    let n = match a.get(1) {
        Some(v) => length_arg(v, name)?,
        None => None,
    };
    let n = n.unwrap_or_else(|| t.shape.dim(d));
    one(transform(
        &t,
        Request {
            dims: vec![(d, n)],
            dir,
            symmetric,
            real_input: false,
        },
    )?)
}

fn fft(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one_dim(&a, "fft", Dir::Forward, false)
}
fn ifft(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (a, symmetric) = symmetry_flag(a, "ifft")?;
    if a.len() > 3 {
        return Err(crate::interp::error::errors::too_many_inputs("ifft"));
    }
    one_dim(&a, "ifft", Dir::Inverse, symmetric)
}

fn two_dims(a: &A, name: &str, dir: Dir, symmetric: bool) -> R {
    let t = a[0].tensor()?;
    if a.len() == 2 {
        return Err(MError::new(
            format!("MATLAB:{name}:invalidSize"),
            "Give both transform lengths: m and n.",
        ));
    }
    let m = match a.get(1) {
        Some(v) => length_arg(v, name)?,
        None => None,
    };
    let n = match a.get(2) {
        Some(v) => length_arg(v, name)?,
        None => None,
    };
    let dims = vec![
        (0, m.unwrap_or_else(|| t.shape.dim(0))),
        (1, n.unwrap_or_else(|| t.shape.dim(1))),
    ];
    one(transform(
        &t,
        Request {
            dims,
            dir,
            symmetric,
            real_input: false,
        },
    )?)
}

fn fft2(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    two_dims(&a, "fft2", Dir::Forward, false)
}
fn ifft2(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (a, symmetric) = symmetry_flag(a, "ifft2")?;
    if a.len() > 3 {
        return Err(crate::interp::error::errors::too_many_inputs("ifft2"));
    }
    two_dims(&a, "ifft2", Dir::Inverse, symmetric)
}

fn all_dims(a: &A, name: &str, dir: Dir, symmetric: bool) -> R {
    let t = a[0].tensor()?;
    let dims: Vec<(usize, usize)> = match a.get(1) {
        Some(v) if v.numel() > 0 => {
            let s = v.tensor()?;
            let sizes = s.to_f64();
            if !s.shape.is_vector() || sizes.len() < t.shape.ndims() {
                return Err(MError::new(
                    format!("MATLAB:{name}:invalidSize"),
                    "Size vector must have at least as many elements as the input has dimensions.",
                ));
            }
            let mut dims = Vec::with_capacity(sizes.len());
            for (d, &n) in sizes.iter().enumerate() {
                if !(n >= 1.0) || n.fract() != 0.0 || !n.is_finite() {
                    return Err(MError::new(
                        format!("MATLAB:{name}:invalidSize"),
                        "Size vector must contain positive integers.",
                    ));
                }
                dims.push((d, n as usize));
            }
            let total = dims
                .iter()
                .try_fold(1usize, |acc, &(_, n)| acc.checked_mul(n));
            crate::values::limits::check_count(total.unwrap_or(usize::MAX), 16)?;
            dims
        }
        _ => (0..t.shape.ndims()).map(|d| (d, t.shape.dim(d))).collect(),
    };
    one(transform(
        &t,
        Request {
            dims,
            dir,
            symmetric,
            real_input: false,
        },
    )?)
}

fn fftn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    all_dims(&a, "fftn", Dir::Forward, false)
}
fn ifftn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (a, symmetric) = symmetry_flag(a, "ifftn")?;
    if a.len() > 2 {
        return Err(crate::interp::error::errors::too_many_inputs("ifftn"));
    }
    all_dims(&a, "ifftn", Dir::Inverse, symmetric)
}

/// The array circularly shifted by half its size along `dim` (every dimension when None):
/// floor(n/2) places for fftshift, ceil(n/2) for ifftshift.
fn half_shift(a: &A, inverse: bool) -> R {
    let t = a[0].tensor()?;
    let dims: Vec<usize> = match a.get(1) {
        Some(d) => vec![dim_arg(d)?],
        None => (0..t.shape.ndims()).collect(),
    };
    let shape = t.shape.clone();
    let strides = shape.strides();
    let shifts: Vec<(usize, usize, usize)> = dims
        .iter()
        .filter(|&&d| d < shape.ndims() && shape.dim(d) > 1)
        .map(|&d| {
            let n = shape.dim(d);
            let s = if inverse { n - n / 2 } else { n / 2 };
            (strides[d], n, s)
        })
        .collect();
    if shifts.is_empty() {
        return one(a[0].clone());
    }
    // Output position p takes the element `shift` places before it along each dimension.
    let idx: Vec<usize> = (0..t.numel())
        .map(|p| {
            let mut q = p;
            for &(stride, n, s) in &shifts {
                let k = (p / stride) % n;
                let from = (k + n - s) % n;
                q = q + from * stride - k * stride;
            }
            q
        })
        .collect();
    one(t.gather(&idx, shape))
}

fn fftshift(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    half_shift(&a, false)
}
fn ifftshift(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    half_shift(&a, true)
}

/// The forward transform of each run of `n` consecutive elements of `x`, or the inverse
/// scaled by 1/n: for convolution by transforms.
pub(super) fn transform_runs(x: Vec<Complex64>, n: usize, inverse: bool) -> Vec<Complex64> {
    if n == 0 || x.len() % n != 0 {
        return x;
    }
    let dir = if inverse { Dir::Inverse } else { Dir::Forward };
    let cols = x.len() / n;
    transform_dim(x, &Shape::matrix(n, cols), 0, dir)
}

/// `explain`'s lines for the functions of a statement that run on the host whatever their
/// inputs, with the reason (docs/device-functions.md).
pub(super) fn host_notes(code: &str) -> String {
    const HOST: [(&str, &str); 4] = [
        (
            "fftn",
            "no device form yet (fft, ifft, fft2 and ifft2 have one)",
        ),
        (
            "ifftn",
            "no device form yet (fft, ifft, fft2 and ifft2 have one)",
        ),
        ("fftshift", "not built on the device yet"),
        ("ifftshift", "not built on the device yet"),
    ];
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let mut notes = String::new();
    for (name, why) in HOST {
        if words.contains(&name) {
            notes.push_str(&format!(
                "  {name}: runs on the host ({why}): a gpuArray input is read back once, \
                 a real result goes back as a gpuArray\n"
            ));
        }
    }
    notes
}
