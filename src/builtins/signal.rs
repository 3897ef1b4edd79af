//! Sequences and samples: filter, interp1 (linear, nearest, previous, next, pchip, spline),
//! cumtrapz, deconv, discretize.

use super::stats::lanes_map;
use super::{Builtin, b, bad_arg, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::ops::reduce::default_dim;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("filter", 3, 5, 2, "filter(b, a, x, zi, dim): rational transfer function filter; [y, zf] also gives the final state.", filter),
        b("interp1", 2, 5, 1, "interp1(x, v, xq, method, extrap): 1-D interpolation ('linear', 'nearest', 'previous', 'next', 'pchip', 'spline').", interp1),
        b("cumtrapz", 1, 3, 1, "cumtrapz(y), cumtrapz(x, y, dim): cumulative trapezoidal integration.", cumtrapz),
        b("trapz", 1, 3, 1, "trapz(y), trapz(x, y, dim): trapezoidal integration.", trapz),
        b("deconv", 2, 2, 2, "[q, r] = deconv(y, a): polynomial division, y = conv(a, q) + r.", deconv),
        b("discretize", 2, 2, 1, "discretize(x, edges): the bin index of each element (NaN outside the edges).", discretize),
    ]
}

fn real_vec(v: &Value, name: &str) -> MResult<Vec<f64>> {
    let t = v.tensor()?;
    if t.is_complex() {
        return Err(bad_arg(name, "Complex input is not supported."));
    }
    Ok(t.to_f64().into_owned())
}

fn filter(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let mut bc = real_vec(&a[0], "filter")?;
    let mut ac = real_vec(&a[1], "filter")?;
    let x = a[2].tensor()?;
    if ac.is_empty() || ac[0] == 0.0 {
        return Err(MError::new(
            "MATLAB:filter:firstElementOfDenominatorFilterMustBeNonZero",
            "First denominator filter coefficient must be non-zero.",
        ));
    }
    let a0 = ac[0];
    for c in bc.iter_mut() {
        *c /= a0;
    }
    for c in ac.iter_mut() {
        *c /= a0;
    }
    let order = bc.len().max(ac.len());
    bc.resize(order, 0.0);
    ac.resize(order, 0.0);
    let zi = match a.get(3) {
        Some(z) if z.numel() > 0 => {
            let z = real_vec(z, "filter")?;
            if z.len() != order - 1 {
                return Err(MError::new(
                    "MATLAB:filter:invalidInitialConditions",
                    "Initial conditions must be a vector of length max(length(a),length(b))-1.",
                ));
            }
            z
        }
        _ => vec![0.0; order - 1],
    };
    let dim = match a.get(4) {
        Some(d) => Some(dim_arg(d)?),
        None => None,
    };
    let d = dim.unwrap_or_else(|| default_dim(&x.shape));
    let len = x.shape.dim(d);
    let finals = std::cell::RefCell::new(Vec::new());
    let y = lanes_map(&x, Some(d), len, |lane| {
        let mut z = zi.clone();
        z.push(0.0);
        let out = match order {
            1 => transposed::<1>(&bc, &ac, &mut z, lane),
            2 => transposed::<2>(&bc, &ac, &mut z, lane),
            3 => transposed::<3>(&bc, &ac, &mut z, lane),
            4 => transposed::<4>(&bc, &ac, &mut z, lane),
            5 => transposed::<5>(&bc, &ac, &mut z, lane),
            6 => transposed::<6>(&bc, &ac, &mut z, lane),
            7 => transposed::<7>(&bc, &ac, &mut z, lane),
            8 => transposed::<8>(&bc, &ac, &mut z, lane),
            _ => {
                let mut out = Vec::with_capacity(lane.len());
                let mut tick = crate::interp::interrupt::Ticker::new();
                for &xn in lane.iter() {
                    tick.add(order);
                    let yn = bc[0] * xn + z[0];
                    for k in 1..order {
                        z[k - 1] = bc[k] * xn + z[k] - ac[k] * yn;
                    }
                    out.push(yn);
                }
                out
            }
        };
        z.pop();
        finals.borrow_mut().push(z);
        out
    });
    let mut r = vec![Value::from(y)];
    if nargout > 1 {
        let f = finals.into_inner();
        let lanes = f.len();
        let mut data = Vec::with_capacity((order - 1) * lanes);
        for z in &f {
            data.extend_from_slice(z);
        }
        r.push(Value::from(Tensor::f64(
            Shape::matrix(order - 1, lanes),
            data,
        )));
    }
    Ok(r)
}

/// Direct form II transposed with the coefficients and state in arrays of the filter's order
/// `N`: the state stays in registers and the loop has no bounds checks, several times faster
/// on long signals than over vectors. An FIR filter skips the feedback terms (0 * Inf would
/// make them NaN). `z` holds N values (the last zero) and is left with the final state.
fn transposed<const N: usize>(b: &[f64], a: &[f64], z: &mut [f64], x: &[f64]) -> Vec<f64> {
    let mut bn = [0.0; N];
    let mut an = [0.0; N];
    let mut zn = [0.0; N];
    let mut zx = [0.0; N];
    for k in 0..N.min(b.len()) {
        bn[k] = b[k];
    }
    for k in 0..N.min(a.len()) {
        an[k] = a[k];
    }
    for k in 0..N.min(z.len()) {
        zn[k] = z[k];
    }
    let fir = an.iter().skip(1).all(|&c| c == 0.0);
    let mut out = Vec::with_capacity(x.len());
    let mut tick = crate::interp::interrupt::Ticker::new();
    for &xn in x {
        tick.tick();
        let yn = bn[0] * xn + zn[0];
        if fir {
            for k in 1..N {
                zx[k - 1] = bn[k] * xn + zn[k];
            }
        } else {
            for k in 1..N {
                zx[k - 1] = bn[k] * xn + zn[k] - an[k] * yn;
            }
        }
        zx[N - 1] = 0.0;
        zn = zx;
        out.push(yn);
    }
    for k in 0..N.min(z.len()) {
        z[k] = zn[k];
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Method {
    Linear,
    Nearest,
    Previous,
    Next,
    Pchip,
    Spline,
}

/// PCHIP slopes (Fritsch-Carlson with the three-point end formula MATLAB uses).
fn pchip_slopes(x: &[f64], y: &[f64]) -> Vec<f64> {
    let n = x.len();
    let h: Vec<f64> = (0..n - 1).map(|k| x[k + 1] - x[k]).collect();
    let del: Vec<f64> = (0..n - 1).map(|k| (y[k + 1] - y[k]) / h[k]).collect();
    let mut d = vec![0.0; n];
    if n == 2 {
        d[0] = del[0];
        d[1] = del[0];
        return d;
    }
    for k in 1..n - 1 {
        if del[k - 1] * del[k] > 0.0 {
            let w1 = 2.0 * h[k] + h[k - 1];
            let w2 = h[k] + 2.0 * h[k - 1];
            d[k] = (w1 + w2) / (w1 / del[k - 1] + w2 / del[k]);
        }
    }
    let end = |h0: f64, h1: f64, d0: f64, d1: f64| {
        let mut s = ((2.0 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
        if s.signum() != d0.signum() {
            s = 0.0;
        } else if d0.signum() != d1.signum() && s.abs() > (3.0 * d0).abs() {
            s = 3.0 * d0;
        }
        s
    };
    d[0] = end(h[0], h[1], del[0], del[1]);
    d[n - 1] = end(h[n - 2], h[n - 3], del[n - 2], del[n - 3]);
    d
}

/// Not-a-knot cubic spline slopes (MATLAB's `spline` end conditions).
fn spline_slopes(x: &[f64], y: &[f64]) -> Vec<f64> {
    let n = x.len();
    let h: Vec<f64> = (0..n - 1).map(|k| x[k + 1] - x[k]).collect();
    let del: Vec<f64> = (0..n - 1).map(|k| (y[k + 1] - y[k]) / h[k]).collect();
    if n == 2 {
        return vec![del[0]; 2];
    }
    if n == 3 {
        // the parabola through three points
        let c = (del[1] - del[0]) / (x[2] - x[0]);
        return vec![del[0] - c * h[0], del[0] + c * h[0], del[1] + c * h[1]];
    }
    // tridiagonal system for the slopes s: rows 1..n-2 are the continuity conditions
    let mut sub = vec![0.0; n];
    let mut diag = vec![0.0; n];
    let mut sup = vec![0.0; n];
    let mut rhs = vec![0.0; n];
    diag[0] = h[1];
    sup[0] = h[0] + h[1];
    rhs[0] = ((h[0] + 2.0 * sup[0]) * h[1] * del[0] + h[0] * h[0] * del[1]) / sup[0];
    for k in 1..n - 1 {
        sub[k] = h[k];
        diag[k] = 2.0 * (h[k - 1] + h[k]);
        sup[k] = h[k - 1];
        rhs[k] = 3.0 * (h[k] * del[k - 1] + h[k - 1] * del[k]);
    }
    let hn = h[n - 3] + h[n - 2];
    sub[n - 1] = hn;
    diag[n - 1] = h[n - 3];
    rhs[n - 1] =
        (h[n - 2] * h[n - 2] * del[n - 3] + (2.0 * hn + h[n - 2]) * h[n - 3] * del[n - 2]) / hn;
    // Thomas algorithm
    for k in 1..n {
        let m = sub[k] / diag[k - 1];
        diag[k] -= m * sup[k - 1];
        rhs[k] -= m * rhs[k - 1];
    }
    let mut s = vec![0.0; n];
    s[n - 1] = rhs[n - 1] / diag[n - 1];
    for k in (0..n - 1).rev() {
        s[k] = (rhs[k] - sup[k] * s[k + 1]) / diag[k];
    }
    s
}

fn hermite(x: &[f64], y: &[f64], d: &[f64], k: usize, t: f64) -> f64 {
    let h = x[k + 1] - x[k];
    let s = (t - x[k]) / h;
    let (h00, h10) = ((1.0 + 2.0 * s) * (1.0 - s).powi(2), s * (1.0 - s).powi(2));
    let (h01, h11) = (s * s * (3.0 - 2.0 * s), s * s * (s - 1.0));
    h00 * y[k] + h10 * h * d[k] + h01 * y[k + 1] + h11 * h * d[k + 1]
}

/// Interpolates one set of samples (x increasing) at the query points.
fn interp_column(
    x: &[f64],
    y: &[f64],
    q: &[f64],
    m: Method,
    extrap: Option<f64>,
    extrapolate: bool,
) -> Vec<f64> {
    let n = x.len();
    let slopes = match m {
        Method::Pchip => pchip_slopes(x, y),
        Method::Spline => spline_slopes(x, y),
        _ => vec![],
    };
    q.iter()
        .map(|&t| {
            crate::interp::interrupt::poll();
            if t.is_nan() {
                return f64::NAN;
            }
            let outside = t < x[0] || t > x[n - 1];
            if outside && !extrapolate {
                return extrap.unwrap_or(f64::NAN);
            }
            // segment k with x[k] <= t < x[k+1] (clamped to the ends)
            let k = match x.partition_point(|&v| v <= t) {
                0 => 0,
                p => (p - 1).min(n - 2),
            };
            match m {
                Method::Linear => y[k] + (y[k + 1] - y[k]) * (t - x[k]) / (x[k + 1] - x[k]),
                Method::Nearest => {
                    if t - x[k] < x[k + 1] - t {
                        y[k]
                    } else {
                        y[k + 1]
                    }
                }
                Method::Previous => {
                    if t >= x[k + 1] {
                        y[k + 1]
                    } else if t < x[0] {
                        f64::NAN
                    } else {
                        y[k]
                    }
                }
                Method::Next => {
                    if t <= x[k] {
                        y[k]
                    } else if t > x[n - 1] {
                        f64::NAN
                    } else {
                        y[k + 1]
                    }
                }
                Method::Pchip | Method::Spline => hermite(x, y, &slopes, k, t),
            }
        })
        .collect()
}

fn interp1(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    // interp1(v, xq, ...) takes x = 1:n
    let text_at = |k: usize| a.get(k).is_some_and(|v| v.is_text());
    let (x_given, rest) = if a.len() == 2 || (a.len() >= 3 && text_at(2)) {
        (None, 0)
    } else {
        (Some(&a[0]), 1)
    };
    let v = a[rest].tensor()?;
    let q = a[rest + 1].tensor()?;
    let mut method = Method::Linear;
    let (mut extrap, mut extrapolate) = (None, false);
    for opt in &a[rest + 2..] {
        if opt.is_text() {
            match opt.text()?.to_lowercase().as_str() {
                "linear" => method = Method::Linear,
                "nearest" => method = Method::Nearest,
                "previous" => method = Method::Previous,
                "next" => method = Method::Next,
                "pchip" | "cubic" => method = Method::Pchip,
                "spline" => method = Method::Spline,
                "extrap" => extrapolate = true,
                other => return Err(bad_arg("interp1", format!("Invalid method '{other}'."))),
            }
        } else {
            extrap = Some(opt.scalar_f64()?);
        }
    }
    if matches!(method, Method::Pchip | Method::Spline) && extrap.is_none() {
        extrapolate = true;
    }
    // samples as columns: a vector is one column
    let (rows, cols) = if v.shape.is_vector() {
        (v.numel(), 1)
    } else {
        (v.shape.rows(), v.numel() / v.shape.rows().max(1))
    };
    let x: Vec<f64> = match x_given {
        Some(xv) => real_vec(xv, "interp1")?,
        None => (1..=rows).map(|k| k as f64).collect(),
    };
    if x.len() != rows {
        return Err(MError::new(
            "MATLAB:interp1:YInvalidNumRows",
            "The length of the input coordinates must match the number of samples.",
        ));
    }
    if rows < 2 {
        return Err(MError::new(
            "MATLAB:interp1:NotEnoughPts",
            "Interpolation requires at least two sample points for each dimension.",
        ));
    }
    // sort the sample points, and reject repeats
    let mut order: Vec<usize> = (0..rows).collect();
    order.sort_by(|&i, &j| {
        crate::interp::interrupt::poll();
        x[i].total_cmp(&x[j])
    });
    let xs: Vec<f64> = order
        .iter()
        .map(|&i| {
            crate::interp::interrupt::poll();
            x[i]
        })
        .collect();
    if xs.windows(2).any(|w| w[0] == w[1]) || xs.iter().any(|t| t.is_nan()) {
        return Err(MError::new(
            "MATLAB:interp1:NonUniqueX",
            "The grid vectors must contain unique points.",
        ));
    }
    let vals = v.to_f64();
    let qs = q.to_f64();
    let mut out = Vec::with_capacity(qs.len() * cols);
    for c in 0..cols {
        let ys: Vec<f64> = order
            .iter()
            .map(|&i| {
                crate::interp::interrupt::poll();
                vals[i + c * rows]
            })
            .collect();
        out.extend(interp_column(&xs, &ys, &qs, method, extrap, extrapolate));
    }
    let shape = if cols == 1 {
        q.shape.clone()
    } else if q.shape.is_vector() {
        Shape::matrix(qs.len(), cols)
    } else {
        let mut d = q.shape.dims().to_vec();
        d.push(cols);
        Shape::new(&d)
    };
    one(Tensor::f64(shape, out))
}

/// The arguments of `trapz`/`cumtrapz`: `(Y)`, `(X, Y)`, `(Y, dim)` with a scalar dim, and
/// `(X, Y, dim)`; X is a scalar spacing or one coordinate per element along the dimension.
fn trapz_args(a: A, name: &str) -> MResult<(Option<Vec<f64>>, Tensor, usize)> {
    let (x, y, dim) = match a.len() {
        1 => (None, a[0].tensor()?.into_owned(), None),
        2 if a[1].numel() == 1 && a[0].numel() > 1 => {
            (None, a[0].tensor()?.into_owned(), Some(dim_arg(&a[1])?))
        }
        2 => (
            Some(real_vec(&a[0], name)?),
            a[1].tensor()?.into_owned(),
            None,
        ),
        _ => (
            Some(real_vec(&a[0], name)?),
            a[1].tensor()?.into_owned(),
            Some(dim_arg(&a[2])?),
        ),
    };
    let d = dim.unwrap_or_else(|| default_dim(&y.shape));
    let len = y.shape.dim(d);
    if let Some(x) = &x {
        if x.len() != len && x.len() != 1 {
            return Err(MError::new(
                format!("MATLAB:{name}:LengthXMismatchY"),
                "Length of X must match the length of Y along the integration dimension.",
            ));
        }
    }
    Ok((x, y, d))
}

/// Width of the k-th trapezoid.
fn trapz_step(x: &Option<Vec<f64>>, k: usize) -> f64 {
    match x {
        Some(x) if x.len() == 1 => x[0],
        Some(x) => x[k + 1] - x[k],
        None => 1.0,
    }
}

fn trapz(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (x, y, d) = trapz_args(a, "trapz")?;
    one(lanes_map(&y, Some(d), 1, |lane| {
        let mut tick = crate::interp::interrupt::Ticker::new();
        let s = (1..lane.len())
            .map(|k| {
                tick.tick();
                trapz_step(&x, k - 1) * (lane[k] + lane[k - 1]) / 2.0
            })
            .sum();
        vec![s]
    }))
}

fn cumtrapz(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let (x, y, d) = trapz_args(a, "cumtrapz")?;
    let len = y.shape.dim(d);
    one(lanes_map(&y, Some(d), len, |lane| {
        let mut acc = 0.0;
        let mut out = Vec::with_capacity(lane.len());
        for k in 0..lane.len() {
            if k > 0 {
                acc += trapz_step(&x, k - 1) * (lane[k] + lane[k - 1]) / 2.0;
            }
            out.push(acc);
        }
        out
    }))
}

fn deconv(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let y = real_vec(&a[0], "deconv")?;
    let d = real_vec(&a[1], "deconv")?;
    if d.first().is_none_or(|&c| c == 0.0) {
        return Err(MError::new(
            "MATLAB:deconv:ZeroCoef1",
            "First coefficient of A must be non-zero.",
        ));
    }
    let row = !a[0].shape().is_col();
    let shape = |n: usize| if row { Shape::row(n) } else { Shape::col(n) };
    if y.len() < d.len() {
        let mut r = vec![Value::Num(0.0)];
        if nargout > 1 {
            r.push(Value::from(Tensor::f64(shape(y.len()), y)));
        }
        return Ok(r);
    }
    let nq = y.len() - d.len() + 1;
    let mut rem = y.clone();
    let mut q = vec![0.0; nq];
    for k in 0..nq {
        q[k] = rem[k] / d[0];
        for (j, &dj) in d.iter().enumerate() {
            rem[k + j] -= q[k] * dj;
        }
    }
    // the leading remainder terms are exact zeros by construction
    for r in rem.iter_mut().take(nq) {
        *r = 0.0;
    }
    let mut r = vec![Value::from(Tensor::f64(shape(nq), q))];
    if nargout > 1 {
        r.push(Value::from(Tensor::f64(shape(rem.len()), rem)));
    }
    Ok(r)
}

fn discretize(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].tensor()?;
    let edges = real_vec(&a[1], "discretize")?;
    if edges.len() < 2 || edges.windows(2).any(|w| w[1] <= w[0]) {
        return Err(bad_arg(
            "discretize",
            "Bin edges must be a vector of at least two increasing values.",
        ));
    }
    let last = edges.len() - 1;
    let mut tick = crate::interp::interrupt::Ticker::new();
    let out: Vec<f64> = x
        .to_f64()
        .iter()
        .map(|&v| {
            tick.tick();
            if v.is_nan() || v < edges[0] || v > edges[last] {
                return f64::NAN;
            }
            if v == edges[last] {
                return last as f64;
            }
            edges.partition_point(|&e| e <= v) as f64
        })
        .collect();
    one(Tensor::f64(x.shape.clone(), out))
}
