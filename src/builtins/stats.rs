//! Statistics over columns: cov corrcoef prctile quantile mad iqr bounds rescale normalize
//! histcounts histc.

use super::{Builtin, b, bad_arg, dim_arg, one};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::class::Class;
use crate::values::ops::reduce::{default_dim, lanes};
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("cov", 1, 3, 1, "cov(x), cov(X), cov(x, y): covariance (normalized by N-1; cov(X, 1) by N).", cov),
        b("corrcoef", 1, 2, 1, "corrcoef(X), corrcoef(x, y): correlation coefficients.", corrcoef),
        b("prctile", 2, 3, 1, "prctile(X, p, dim): percentiles.", prctile),
        b("quantile", 2, 3, 1, "quantile(X, p, dim): quantiles.", quantile),
        b("mad", 1, 3, 1, "mad(X, flag, dim): mean (flag 0) or median (flag 1) absolute deviation.", mad),
        b("iqr", 1, 2, 1, "iqr(X, dim): interquartile range.", iqr),
        b("bounds", 1, 2, 2, "[lo, hi] = bounds(X, dim): smallest and largest elements.", bounds),
        b("rescale", 1, 3, 1, "rescale(X, l, u): scale to the interval [l, u] (default [0, 1]).", rescale),
        b("normalize", 1, 3, 1, "normalize(X, dim): z-scores (mean 0, standard deviation 1).", normalize),
        b("histcounts", 1, 3, 2, "[N, edges] = histcounts(X, edges|nbins): bin counts.", histcounts),
        b("histc", 2, 3, 2, "histc(x, edges), [n, bin] = histc(...): counts of x in bins given by edges.", histc),
    ]
}

/// The columns of X for column statistics (a vector is one column).
fn columns(t: &Tensor) -> Vec<Vec<f64>> {
    let x = t.to_f64();
    if t.shape.is_vector() {
        return vec![x.into_owned()];
    }
    let (r, c) = (t.shape.rows(), t.shape.cols());
    (0..c).map(|j| x[j * r..(j + 1) * r].to_vec()).collect()
}

fn covariance(cols: &[Vec<f64>], normalize_n: bool) -> Vec<f64> {
    let k = cols.len();
    let n = cols.first().map(|c| c.len()).unwrap_or(0);
    let means: Vec<f64> = cols
        .iter()
        .map(|c| c.iter().sum::<f64>() / n as f64)
        .collect();
    let denom = if normalize_n || n == 1 {
        n as f64
    } else {
        (n - 1) as f64
    };
    let mut out = vec![0.0; k * k];
    let mut tick = crate::interp::interrupt::Ticker::new();
    for i in 0..k {
        for j in 0..k {
            let s: f64 = (0..n)
                .map(|t| {
                    tick.tick();
                    (cols[i][t] - means[i]) * (cols[j][t] - means[j])
                })
                .sum();
            out[i + j * k] = s / denom;
        }
    }
    out
}

fn cov(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].tensor()?;
    let (cols, flag_at) = match a.get(1) {
        Some(y) if y.numel() > 1 || (y.numel() == 1 && x.numel() == 1) => {
            let yt = y.tensor()?;
            if yt.numel() != x.numel() {
                return Err(bad_arg("cov", "The lengths of X and Y must match."));
            }
            let copy = |t: &Tensor| crate::interp::interrupt::copied(&t.to_f64());
            (vec![copy(&x), copy(&yt)], 2)
        }
        _ => (columns(&x), 1),
    };
    let normalize_n = match a.get(flag_at) {
        Some(v) => v.scalar_f64()? == 1.0,
        None => false,
    };
    if cols.first().is_some_and(|c| c.is_empty()) {
        return one(Value::Num(f64::NAN));
    }
    let k = cols.len();
    let c = covariance(&cols, normalize_n);
    if k == 1 {
        return one(Value::Num(c[0]));
    }
    one(Tensor::f64(Shape::matrix(k, k), c))
}

fn corrcoef(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let x = a[0].tensor()?;
    let cols = match a.get(1) {
        Some(y) => {
            let yt = y.tensor()?;
            if yt.numel() != x.numel() {
                return Err(bad_arg("corrcoef", "The lengths of X and Y must match."));
            }
            vec![x.to_f64().into_owned(), yt.to_f64().into_owned()]
        }
        None => columns(&x),
    };
    let k = cols.len();
    if cols.first().is_none_or(|c| c.is_empty()) {
        return one(Value::Num(f64::NAN));
    }
    let c = covariance(&cols, false);
    let mut r = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..k {
            r[i + j * k] = if i == j {
                1.0
            } else {
                c[i + j * k] / (c[i + i * k] * c[j + j * k]).sqrt()
            };
        }
    }
    if k == 1 {
        return one(Value::Num(1.0));
    }
    one(Tensor::f64(Shape::matrix(k, k), r))
}

/// Applies `f` to each lane along the chosen dimension, returning `m` values per lane placed
/// along that dimension.
pub(super) fn lanes_map(
    t: &Tensor,
    dim: Option<usize>,
    m: usize,
    f: impl Fn(&mut Vec<f64>) -> Vec<f64>,
) -> Tensor {
    let d = dim.unwrap_or_else(|| default_dim(&t.shape));
    let (inner, len, outer) = lanes(&t.shape, d);
    let x = t.to_f64();
    let mut out = vec![0.0; inner * m * outer];
    // Ctrl-C is looked at while a lane is copied (the work on it looks for itself)
    let mut tick = crate::interp::interrupt::Ticker::new();
    for o in 0..outer {
        for i in 0..inner {
            let mut lane: Vec<f64> = (0..len)
                .map(|k| {
                    tick.tick();
                    x[i + k * inner + o * inner * len]
                })
                .collect();
            let r = f(&mut lane);
            for (k, v) in r.into_iter().enumerate().take(m) {
                out[i + k * inner + o * inner * m] = v;
            }
        }
    }
    let cls = if t.class() == Class::Single {
        Class::Single
    } else {
        Class::Double
    };
    Tensor::new(t.shape.with_dim(d, m), Data::from_f64(cls, out))
}

/// Quantile of sorted data at probability p (MATLAB's midpoint interpolation).
fn quantile_sorted(v: &[f64], p: f64) -> f64 {
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    let pos = n as f64 * p + 0.5;
    if pos < 1.0 {
        return v[0];
    }
    if pos >= n as f64 {
        return v[n - 1];
    }
    let lo = pos.floor() as usize;
    let frac = pos - lo as f64;
    v[lo - 1] + frac * (v[lo] - v[lo - 1])
}

fn quantiles(a: &A, scale: f64) -> MResult<Value> {
    let t = a[0].tensor()?;
    let ps: Vec<f64> = a[1].tensor()?.to_f64().iter().map(|p| p / scale).collect();
    if ps.iter().any(|p| !(0.0..=1.0).contains(p)) {
        return Err(bad_arg(
            "quantile",
            "Probabilities must be between 0 and 1 (percentiles between 0 and 100).",
        ));
    }
    let dim = match a.get(2) {
        Some(v) => Some(dim_arg(v)?),
        None => None,
    };
    let t = if dim.is_none() && t.shape.is_vector() {
        let n = t.numel();
        Tensor::owned(t).reshaped(Shape::col(n))
    } else {
        Tensor::owned(t)
    };
    let out = lanes_map(&t, dim, ps.len(), |lane| {
        lane.retain(|x| {
            crate::interp::interrupt::poll();
            !x.is_nan()
        });
        lane.sort_by(|a, b| {
            crate::interp::interrupt::poll();
            a.total_cmp(b)
        });
        ps.iter().map(|&p| quantile_sorted(lane, p)).collect()
    });
    let src_row = a[0].shape().is_row() && dim.is_none();
    Ok(Value::from(if src_row {
        let n = out.numel();
        out.reshaped(Shape::row(n))
    } else {
        out
    }))
}

fn prctile(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(quantiles(&a, 100.0)?)
}
fn quantile(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    one(quantiles(&a, 1.0)?)
}

pub(super) fn median_of(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| {
        crate::interp::interrupt::poll();
        a.total_cmp(b)
    });
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn mad(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let use_median = match a.get(1) {
        Some(v) if !v.is_empty() => v.scalar_f64()? == 1.0,
        _ => false,
    };
    let dim = match a.get(2) {
        Some(v) => Some(dim_arg(v)?),
        None => None,
    };
    one(lanes_map(&t, dim, 1, |lane| {
        lane.retain(|x| {
            crate::interp::interrupt::poll();
            !x.is_nan()
        });
        let c = if use_median {
            median_of(&mut lane.clone())
        } else {
            lane.iter().sum::<f64>() / lane.len() as f64
        };
        let mut dev: Vec<f64> = lane.iter().map(|x| (x - c).abs()).collect();
        vec![if use_median {
            median_of(&mut dev)
        } else {
            dev.iter().sum::<f64>() / dev.len() as f64
        }]
    }))
}

fn iqr(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let dim = match a.get(1) {
        Some(v) => Some(dim_arg(v)?),
        None => None,
    };
    one(lanes_map(&t, dim, 1, |lane| {
        lane.retain(|x| {
            crate::interp::interrupt::poll();
            !x.is_nan()
        });
        lane.sort_by(|a, b| {
            crate::interp::interrupt::poll();
            a.total_cmp(b)
        });
        vec![quantile_sorted(lane, 0.75) - quantile_sorted(lane, 0.25)]
    }))
}

fn bounds(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let dim = match a.get(1) {
        Some(v) => Some(dim_arg(v)?),
        None => None,
    };
    let lo = crate::values::ops::reduce::reduce(crate::values::ops::Red::Min, &t, dim, true)?;
    let hi = crate::values::ops::reduce::reduce(crate::values::ops::Red::Max, &t, dim, true)?;
    Ok(vec![Value::from(lo), Value::from(hi)])
}

fn rescale(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let (l, u) = match (a.get(1), a.get(2)) {
        (Some(l), Some(u)) => (l.scalar_f64()?, u.scalar_f64()?),
        _ => (0.0, 1.0),
    };
    let x = t.to_f64();
    let mut tick = crate::interp::interrupt::Ticker::new();
    let (mn, mx) = x
        .iter()
        .inspect(|_| tick.tick())
        .filter(|v| !v.is_nan())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let r: Vec<f64> = x
        .iter()
        .map(|&v| {
            tick.tick();
            if mx == mn {
                l
            } else {
                l + (v - mn) / (mx - mn) * (u - l)
            }
        })
        .collect();
    one(Tensor::f64(t.shape.clone(), r))
}

fn normalize(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    let dim = match a.get(1) {
        Some(v) if !v.is_text() => Some(dim_arg(v)?),
        _ => None,
    };
    let d = dim.unwrap_or_else(|| default_dim(&t.shape));
    let (inner, len, outer) = lanes(&t.shape, d);
    let x = t.to_f64();
    let mut out = crate::interp::interrupt::copied(&x);
    let mut tick = crate::interp::interrupt::Ticker::new();
    for o in 0..outer {
        for i in 0..inner {
            let idx: Vec<usize> = (0..len)
                .map(|k| {
                    tick.tick();
                    i + k * inner + o * inner * len
                })
                .collect();
            let n = len as f64;
            let mean = idx
                .iter()
                .map(|&p| {
                    tick.tick();
                    x[p]
                })
                .sum::<f64>()
                / n;
            let sd = (idx
                .iter()
                .map(|&p| {
                    tick.tick();
                    (x[p] - mean).powi(2)
                })
                .sum::<f64>()
                / (n - 1.0).max(1.0))
            .sqrt();
            for &p in &idx {
                tick.tick();
                out[p] = (x[p] - mean) / sd;
            }
        }
    }
    one(Tensor::f64(t.shape.clone(), out))
}

fn bin_of(edges: &[f64], v: f64, last_closed: bool) -> Option<usize> {
    let n = edges.len();
    if n < 2 || v.is_nan() {
        return None;
    }
    if last_closed && v == edges[n - 1] {
        return Some(n - 2);
    }
    // edges are sorted: binary search for the bin with edges[k] <= v < edges[k+1]
    let k = edges.partition_point(|&e| e <= v);
    if k == 0 || k >= n { None } else { Some(k - 1) }
}

fn histcounts(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    // read in place, no copies of the data (each was a pause Ctrl-C could not break)
    let t = a[0].tensor()?;
    let xs = t.to_f64();
    let x: &[f64] = &xs;
    let edges: Vec<f64> = match a.get(1) {
        Some(v) if v.numel() > 1 => v.tensor()?.to_f64().into_owned(),
        other => {
            let (mut mn, mut mx, mut finite) = (f64::INFINITY, f64::NEG_INFINITY, 0usize);
            for &v in x.iter().filter(|v| v.is_finite()) {
                crate::interp::interrupt::poll();
                mn = mn.min(v);
                mx = mx.max(v);
                finite += 1;
            }
            let nbins = match other {
                Some(v) => super::count_arg(v, "histcounts", "Number of bins")?.max(1),
                None => ((finite as f64).sqrt().ceil() as usize).max(1),
            };
            if finite == 0 {
                vec![0.0, 1.0]
            } else if mn == mx {
                (0..=nbins)
                    .map(|k| mn - 0.5 + k as f64 / nbins as f64)
                    .collect()
            } else {
                (0..=nbins)
                    .map(|k| mn + (mx - mn) * k as f64 / nbins as f64)
                    .collect()
            }
        }
    };
    let mut counts = vec![0.0; edges.len().saturating_sub(1)];
    for &v in x {
        crate::interp::interrupt::poll();
        if let Some(k) = bin_of(&edges, v, true) {
            counts[k] += 1.0;
        }
    }
    let mut out = vec![Value::row(counts)];
    if nargout > 1 {
        out.push(Value::row(edges));
    }
    Ok(out)
}

fn histc(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let t = a[0].tensor()?;
    let e = a[1].tensor()?;
    let edges = e.to_f64().into_owned();
    if edges.windows(2).any(|w| w[1] < w[0]) {
        return Err(bad_arg(
            "histc",
            "Edge vector must be monotonically non-decreasing.",
        ));
    }
    let ne = edges.len();
    // histc counts v == last edge in its own last bin
    let bin = |v: f64| -> Option<usize> {
        if ne == 0 || v.is_nan() {
            return None;
        }
        if v == edges[ne - 1] {
            return Some(ne - 1);
        }
        let k = edges.partition_point(|&x| x <= v);
        if k == 0 || k >= ne { None } else { Some(k - 1) }
    };
    let vector = t.shape.is_vector();
    let work = if vector {
        let n = t.numel();
        Tensor::owned(t).reshaped(Shape::col(n))
    } else {
        Tensor::owned(t)
    };
    let dim = match a.get(2) {
        Some(v) => Some(dim_arg(v)?),
        None => None,
    };
    let counts = lanes_map(&work, dim, ne, |lane| {
        let mut c = vec![0.0; ne];
        let mut tick = crate::interp::interrupt::Ticker::new();
        for &v in lane.iter() {
            tick.tick();
            if let Some(k) = bin(v) {
                c[k] += 1.0;
            }
        }
        c
    });
    let counts = if vector && a[0].shape().is_row() {
        counts.reshaped(Shape::row(ne))
    } else {
        counts
    };
    let mut out = vec![Value::from(counts)];
    if nargout > 1 {
        let x = a[0].tensor()?;
        let mut tick = crate::interp::interrupt::Ticker::new();
        let idx: Vec<f64> = x
            .to_f64()
            .iter()
            .map(|&v| {
                tick.tick();
                bin(v).map(|k| (k + 1) as f64).unwrap_or(0.0)
            })
            .collect();
        out.push(Value::from(Tensor::f64(x.shape.clone(), idx)));
    }
    Ok(out)
}
