//! Constructors and rearrangements: zeros ones eye rand randn randi randperm linspace
//! logspace colon repmat reshape cat horzcat vertcat magic diag tril triu meshgrid ndgrid
//! true false, constants, flips, permute, squeeze, circshift.

use super::{Builtin, b, bad_arg, one, size_args, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::colon;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("zeros", 0, -1, 1, "zeros(n), zeros(m,n,...), zeros(sz, class): an array of zeros.", zeros),
        b("ones", 0, -1, 1, "ones(n), ones(m,n,...), ones(sz, class): an array of ones.", ones),
        b("eye", 0, -1, 1, "eye(n), eye(m,n): identity matrix.", eye),
        b("true", 0, -1, 1, "true(m,n,...): logical array of true values.", true_fn),
        b("false", 0, -1, 1, "false(m,n,...): logical array of false values.", false_fn),
        b("linspace", 2, 3, 1, "linspace(a, b, n): n (default 100) evenly spaced points from a to b.", linspace),
        b("logspace", 2, 3, 1, "logspace(a, b, n): n (default 50) points from 10^a to 10^b.", logspace),
        b("colon", 2, 3, 1, "colon(a, b) or colon(a, s, b): the same as a:b and a:s:b.", colon_fn),
        b("magic", 1, 1, 1, "magic(n): a magic square.", magic),
        b("diag", 1, 2, 1, "diag(v, k) builds a diagonal matrix; diag(A, k) extracts a diagonal.", diag),
        b("meshgrid", 1, 3, 3, "[X, Y] = meshgrid(x, y): 2-D grid coordinates.", meshgrid),
        b("ndgrid", 1, -1, 8, "[X1, X2, ...] = ndgrid(x1, x2, ...): N-D grid coordinates.", ndgrid),
        b("pi", 0, -1, 1, "pi: the ratio of a circle's circumference to its diameter.", pi),
        b("Inf", 0, -1, 1, "Inf: positive infinity (Inf(m,n) for an array).", inf),
        b("inf", 0, -1, 1, "inf: positive infinity.", inf),
        b("NaN", 0, -1, 1, "NaN: not a number (NaN(m,n) for an array).", nan),
        b("nan", 0, -1, 1, "nan: not a number.", nan),
        b("eps", 0, -1, 1, "eps, eps(x), eps('single'): floating-point relative accuracy.", eps),
        b("realmax", 0, 1, 1, "realmax, realmax('single'): largest finite floating-point number.", realmax),
        b("realmin", 0, 1, 1, "realmin, realmin('single'): smallest normalized floating-point number.", realmin),
        b("flintmax", 0, 1, 1, "flintmax: largest consecutive integer in floating point (2^53).", flintmax),
        b("intmax", 0, 1, 1, "intmax(class): largest value of an integer class (default int32).", intmax),
        b("intmin", 0, 1, 1, "intmin(class): smallest value of an integer class (default int32).", intmin),
        b("i", 0, 0, 1, "i: the imaginary unit.", imag_unit),
        b("j", 0, 0, 1, "j: the imaginary unit.", imag_unit),
    ]
}

fn filled(args: &[Value], value: f64, default_class: Class) -> MResult<Value> {
    let sa = size_args(args)?;
    let class = sa.class.unwrap_or(default_class);
    let n = sa.shape.numel();
    // On the device, a fill needs no values on the host (the caller keeps it there).
    let on_device = matches!(&sa.like, Some(Value::Device(_)))
        || args
            .iter()
            .any(|a| a.is_text() && a.text().is_ok_and(|s| s == "gpuArray"));
    if on_device {
        crate::interp::fill::check_fits(n, class);
        if let Some(v) = crate::interp::fill::on_device(value, &sa.shape, class) {
            return Ok(v);
        }
    }
    // made as doubles, then converted
    crate::values::limits::check_work(sa.shape.dims(), 8 + class.elem_bytes())?;
    let values = if value == 0.0 && value.is_sign_positive() {
        vec![0.0; n]
    } else {
        crate::interp::interrupt::filled(value, n)
    };
    let mut t = Tensor::new(sa.shape, Data::from_f64(class, values));
    if let Some(p) = &sa.like {
        if p.is_complex() {
            t = Tensor::new(
                t.shape.clone(),
                Data::from_c64(class, t.to_c64().into_owned()),
            );
        }
    }
    Ok(Value::from(t))
}

fn zeros(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(filled(&a, 0.0, Class::Double)?)
}
fn ones(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(filled(&a, 1.0, Class::Double)?)
}
fn true_fn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(filled(&a, 1.0, Class::Logical)?)
}
fn false_fn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(filled(&a, 0.0, Class::Logical)?)
}
fn pi(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(filled(&a, std::f64::consts::PI, Class::Double)?)
}
fn inf(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(filled(&a, f64::INFINITY, Class::Double)?)
}
fn nan(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(filled(&a, f64::NAN, Class::Double)?)
}

fn eye(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let sa = size_args(&a)?;
    if sa.shape.ndims() > 2 {
        return Err(MError::new(
            "MATLAB:eye:NDNotSupported",
            "N-dimensional arrays are not supported.",
        ));
    }
    let class = sa.class.unwrap_or(Class::Double);
    let (r, c) = (sa.shape.rows(), sa.shape.dim(1));
    crate::values::limits::check_work(&[r, c], 8 + class.elem_bytes())?;
    let mut v = vec![0.0; r * c];
    // each 1 on the diagonal is the first touch of its column's pages (the kernel zeroes
    // them then: 3.2 GB of them for eye(2e4), seconds): Ctrl-C is looked at as they go
    let mut tick = crate::interp::interrupt::Ticker::new();
    for k in 0..r.min(c) {
        tick.add(r);
        v[k + k * r] = 1.0;
    }
    one(Tensor::new(Shape::matrix(r, c), Data::from_f64(class, v)))
}

/// The number of points of `linspace`/`logspace` (rounded down, negative meaning none).
fn points_arg(v: Option<&Value>, default: usize, name: &str) -> MResult<usize> {
    let Some(v) = v else {
        return Ok(default);
    };
    let n = v.scalar_f64()?.floor();
    if !n.is_finite() {
        return Err(bad_arg(
            name,
            "The number of points must be a finite real scalar.",
        ));
    }
    let n = n.clamp(0.0, usize::MAX as f64) as usize;
    crate::values::limits::check_count(n, 8)?;
    Ok(n)
}

/// n points from x to y: the first half counts up from x and the second down from y, so
/// symmetric intervals give symmetric points and the ends are exact.
fn linspace_real(x: f64, y: f64, n: usize) -> Vec<f64> {
    match n {
        0 => vec![],
        1 => vec![y],
        _ => {
            let n1 = (n - 1) as f64;
            let d = y - x;
            let mut tick = crate::interp::interrupt::Ticker::new();
            let mut v: Vec<f64> = if d.is_infinite() {
                // opposite-signed extremes overflow their difference
                (0..n)
                    .map(|k| {
                        tick.tick();
                        x + (y / n1) * k as f64 - (x / n1) * k as f64
                    })
                    .collect()
            } else {
                // the first half counts up from x, the second down from y, so symmetric
                // intervals give symmetric points
                let step = d / n1;
                (0..n)
                    .map(|k| {
                        tick.tick();
                        if k < n / 2 {
                            x + k as f64 * step
                        } else {
                            y - (n - 1 - k) as f64 * step
                        }
                    })
                    .collect()
            };
            if x == y {
                v.iter_mut().for_each(|e| *e = x);
            } else {
                v[0] = x;
                v[n - 1] = y;
            }
            v
        }
    }
}

fn linspace(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = points_arg(a.get(2), 100, "linspace")?;
    let single = a[..2].iter().any(|v| v.num_class() == Some(Class::Single));
    let cls = if single { Class::Single } else { Class::Double };
    let (ta, tb) = (a[0].tensor()?, a[1].tensor()?);
    if ta.numel() != 1 || tb.numel() != 1 {
        return Err(bad_arg("linspace", "Inputs must be scalars."));
    }
    if ta.is_complex() || tb.is_complex() {
        // real and imaginary parts are spaced separately
        let (p, q) = (ta.to_c64()[0], tb.to_c64()[0]);
        let re = linspace_real(p.re, q.re, n);
        let im = linspace_real(p.im, q.im, n);
        let z: Vec<num_complex::Complex64> = re
            .iter()
            .zip(&im)
            .map(|(r, i)| num_complex::Complex64::new(*r, *i))
            .collect();
        let len = z.len();
        return one(Tensor::new(Shape::row(len), Data::from_c64(cls, z)));
    }
    let v = linspace_real(ta.get_f64(0), tb.get_f64(0), n);
    let len = v.len();
    one(Tensor::new(Shape::row(len), Data::from_f64(cls, v)))
}

fn logspace(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (x, y) = (a[0].scalar_f64()?, a[1].scalar_f64()?);
    let n = points_arg(a.get(2), 50, "logspace")?;
    // an end point of pi means points between 10^a and pi
    let y = if y == std::f64::consts::PI {
        std::f64::consts::PI.log10()
    } else {
        y
    };
    if n == 1 {
        return one(Value::row(vec![10f64.powf(y)]));
    }
    let step = (y - x) / (n - 1) as f64;
    one(Value::row(
        (0..n).map(|k| 10f64.powf(x + k as f64 * step)).collect(),
    ))
}

fn colon_fn(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if a.len() == 2 {
        one(colon::colon(&a[0], None, &a[1])?)
    } else {
        one(colon::colon(&a[0], Some(&a[1]), &a[2])?)
    }
}

fn magic(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let n = a[0].scalar_f64()?.max(0.0) as usize;
    if n == 0 {
        return one(Value::empty());
    }
    crate::values::limits::check_dims(&[n, n], 8)?;
    one(Tensor::f64(Shape::matrix(n, n), magic_square(n)))
}

/// MATLAB's magic squares (column-major), by the same three constructions.
fn magic_square(n: usize) -> Vec<f64> {
    let mut m = vec![0.0; n * n];
    let at = |r: usize, c: usize| r + c * n;
    if n == 2 {
        return vec![4.0, 1.0, 3.0, 2.0];
    }
    if n % 2 == 1 {
        let ni = n as i64;
        for r in 1..=ni {
            for c in 1..=ni {
                let a = (r + c - (ni + 3) / 2).rem_euclid(ni);
                let b = (r + 2 * c - 2).rem_euclid(ni);
                m[at(r as usize - 1, c as usize - 1)] = (ni * a + b + 1) as f64;
            }
        }
    } else if n % 4 == 0 {
        for r in 1..=n {
            for c in 1..=n {
                let v = ((r - 1) * n + c) as f64;
                let k = (r % 4) / 2 == (c % 4) / 2;
                m[at(r - 1, c - 1)] = if k { (n * n + 1) as f64 - v } else { v };
            }
        }
    } else {
        let p = n / 2;
        let sub = magic_square(p);
        let pp = (p * p) as f64;
        for r in 0..p {
            for c in 0..p {
                let v = sub[r + c * p];
                m[at(r, c)] = v;
                m[at(r, c + p)] = v + 2.0 * pp;
                m[at(r + p, c)] = v + 3.0 * pp;
                m[at(r + p, c + p)] = v + pp;
            }
        }
        if n == 2 {
            return m;
        }
        let k = (n - 2) / 4;
        let cols: Vec<usize> = (1..=k).chain((n - k + 2)..=n).collect();
        for &c in &cols {
            for r in 0..p {
                m.swap(at(r, c - 1), at(r + p, c - 1));
            }
        }
        let i = k + 1;
        for &c in &[1, i] {
            m.swap(at(i - 1, c - 1), at(i - 1 + p, c - 1));
        }
    }
    m
}

pub(super) fn diag_k(a: &[Value]) -> MResult<i64> {
    Ok(match a.get(1) {
        Some(v) => {
            let k = v.scalar_f64()?;
            if !k.is_finite() || k.fract() != 0.0 {
                return Err(MError::new(
                    "MATLAB:diag:kthDiagInputNotInteger",
                    "K-th diagonal input must be an integer scalar.",
                ));
            }
            crate::values::limits::check_count(k.abs().min(u32::MAX as f64) as usize, 8)?;
            k as i64
        }
        None => 0,
    })
}

pub(super) fn zeros_like(t: &Tensor, shape: Shape) -> Tensor {
    let z = Tensor::zeros(t.class(), shape);
    if t.is_complex() {
        Tensor::new(
            z.shape.clone(),
            Data::from_c64(t.class(), z.to_c64().into_owned()),
        )
    } else {
        z
    }
}

fn diag(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let k = diag_k(&a)?;
    if t.shape.is_vector() || t.numel() == 0 && t.shape.dims() == [0, 0] {
        let n = t.numel();
        let m = n + k.unsigned_abs() as usize;
        crate::values::limits::check_dims(&[m, m], 8)?;
        let dst: Vec<usize> = (0..n)
            .map(|i| {
                let (r, c) = if k >= 0 {
                    (i, i + k as usize)
                } else {
                    (i + (-k) as usize, i)
                };
                r + c * m
            })
            .collect();
        let mut out = zeros_like(&t, Shape::matrix(m, m));
        out.data.scatter_from(&t.data, &dst);
        return one(out);
    }
    let (r, c) = (t.shape.rows(), t.shape.cols());
    let mut pos = Vec::new();
    for i in 0..r {
        let j = i as i64 + k;
        if j >= 0 && (j as usize) < c {
            pos.push(i + j as usize * r);
        }
    }
    let n = pos.len();
    one(t.gather(&pos, Shape::col(n)))
}

fn grid(vecs: &[Vec<f64>], nd: usize, swap_xy: bool) -> MResult<Vec<Value>> {
    let lens: Vec<usize> = vecs.iter().map(|v| v.len()).collect();
    crate::values::limits::check_dims(&lens, 8 * nd)?;
    let mut dims = lens.clone();
    if swap_xy && nd >= 2 {
        dims.swap(0, 1);
    }
    let shape = Shape::new(&dims);
    let n = shape.numel();
    // strides of the full nd dims: Shape drops trailing singletons
    let strides: Vec<usize> = (0..nd).map(|k| dims[..k].iter().product()).collect();
    Ok((0..nd)
        .map(|k| {
            let axis = if swap_xy && k < 2 { 1 - k } else { k };
            let data: Vec<f64> = (0..n)
                .map(|p| {
                    crate::interp::interrupt::poll();
                    vecs[k][(p / strides[axis]) % dims[axis]]
                })
                .collect();
            Value::from(Tensor::f64(shape.clone(), data))
        })
        .collect())
}

fn meshgrid(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let x = a[0].tensor()?.to_f64().into_owned();
    let y = match a.get(1) {
        Some(v) => v.tensor()?.to_f64().into_owned(),
        None => x.clone(),
    };
    let mut vecs = vec![x, y];
    if let Some(z) = a.get(2) {
        vecs.push(z.tensor()?.to_f64().into_owned());
    }
    let nd = if a.len() == 3 { 3 } else { 2 };
    let mut out = grid(&vecs, nd, true)?;
    out.truncate(nargout.max(1));
    Ok(out)
}

fn ndgrid(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let mut vecs: Vec<Vec<f64>> = a
        .iter()
        .map(|v| v.tensor().map(|t| t.to_f64().into_owned()))
        .collect::<MResult<_>>()?;
    let nd = nargout.max(1).max(vecs.len());
    while vecs.len() < nd {
        vecs.push(vecs[0].clone());
    }
    let mut out = grid(&vecs, nd, false)?;
    out.truncate(nargout.max(1));
    Ok(out)
}

fn float_class_arg(a: &[Value]) -> MResult<Class> {
    match a.first() {
        Some(v) if v.is_text() => Class::from_name(&v.text()?)
            .ok_or_else(|| bad_arg("eps", "Expected 'double' or 'single'.")),
        Some(v) => Ok(v.num_class().unwrap_or(Class::Double)),
        None => Ok(Class::Double),
    }
}

/// MATLAB's eps(x) for a double: the distance from |x| to the next larger double (from the
/// bits, so the ends of the range are exact); NaN for Inf and NaN.
pub(super) fn eps_of(x: f64) -> f64 {
    let x = x.abs();
    if !x.is_finite() {
        return f64::NAN;
    }
    let b = x.to_bits();
    if x == f64::MAX {
        x - f64::from_bits(b - 1)
    } else {
        f64::from_bits(b + 1) - x
    }
}

fn eps(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    if let Some(v) = a.first() {
        if !v.is_text() {
            let t = v.tensor()?;
            let single = t.class() == Class::Single;
            let r: Vec<f64> = t
                .to_f64()
                .iter()
                .map(|&x| {
                    // the distance to the next larger number of the same precision (from the
                    // bits, so the ends of the range are exact)
                    let x = x.abs();
                    if !x.is_finite() {
                        f64::NAN
                    } else if single {
                        let y = x as f32;
                        let b = y.to_bits();
                        if y == f32::MAX {
                            (y - f32::from_bits(b - 1)) as f64
                        } else {
                            (f32::from_bits(b + 1) - y) as f64
                        }
                    } else {
                        eps_of(x)
                    }
                })
                .collect();
            return one(Tensor::new(
                t.shape.clone(),
                Data::from_f64(if single { Class::Single } else { Class::Double }, r),
            ));
        }
    }
    match float_class_arg(&a)? {
        Class::Single => one(Tensor::new(Shape::scalar(), Data::F32(vec![f32::EPSILON]))),
        _ => one(Value::Num(f64::EPSILON)),
    }
}

fn realmax(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match float_class_arg(&a)? {
        Class::Single => one(Tensor::new(Shape::scalar(), Data::F32(vec![f32::MAX]))),
        _ => one(Value::Num(f64::MAX)),
    }
}
fn realmin(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match float_class_arg(&a)? {
        Class::Single => one(Tensor::new(
            Shape::scalar(),
            Data::F32(vec![f32::MIN_POSITIVE]),
        )),
        _ => one(Value::Num(f64::MIN_POSITIVE)),
    }
}
fn flintmax(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    match float_class_arg(&a)? {
        Class::Single => one(Tensor::new(Shape::scalar(), Data::F32(vec![16_777_216.0]))),
        _ => one(Value::Num(9_007_199_254_740_992.0)),
    }
}

fn int_class_arg(a: &[Value]) -> MResult<Class> {
    match a.first() {
        None => Ok(Class::Int32),
        Some(v) => {
            let c = if v.is_text() {
                Class::from_name(&text_arg(v, "intmax")?)
            } else {
                v.num_class()
            };
            match c {
                Some(c) if c.is_int() => Ok(c),
                _ => Err(bad_arg(
                    "intmax",
                    "Invalid class name: intmax and intmin take an integer class name.",
                )),
            }
        }
    }
}

fn intmax(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let c = int_class_arg(&a)?;
    one(Tensor::new(
        Shape::scalar(),
        Data::from_i128(c, std::iter::once(c.int_range().1)),
    ))
}
fn intmin(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let c = int_class_arg(&a)?;
    one(Tensor::new(
        Shape::scalar(),
        Data::from_i128(c, std::iter::once(c.int_range().0)),
    ))
}

fn imag_unit(_: &mut Interp, _: &mut Frame, _: A, _: usize) -> R {
    one(Value::complex(num_complex::Complex64::new(0.0, 1.0)))
}
