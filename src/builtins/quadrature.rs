//! Numerical integration: integral, quadgk and quad by adaptive Gauss-Kronrod (7/15) with
//! MATLAB's tolerances, infinite limits mapped onto finite ones.

use super::numerics::call_scalar;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::MResult;
use crate::interp::function::Frame;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("integral", 3, -1, 1, "integral(f, a, b, 'AbsTol', t, 'RelTol', r): numerical integration (adaptive Gauss-Kronrod); a, b may be infinite.", integral),
        b("quadgk", 3, -1, 2, "[q, errbnd] = quadgk(f, a, b): adaptive Gauss-Kronrod quadrature.", quadgk),
        b("quad", 3, 4, 2, "[q, fcnt] = quad(f, a, b, tol): adaptive quadrature.", quad),
    ]
}

// Gauss-Kronrod 7/15 nodes and weights on [-1, 1] (nonnegative half; QUADPACK's values).
const XGK: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
const WGK: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_2,
    0.140_653_259_715_525_9,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_8,
];
const WG: [f64; 4] = [
    0.129_484_966_168_869_7,
    0.279_705_391_489_276_7,
    0.381_830_050_505_118_9,
    0.417_959_183_673_469_4,
];

/// The integrand after mapping the interval onto u in [-1, 1]. A cubic substitution
/// s(u) = u(3 - u^2)/2 (as MATLAB's quadgk uses) flattens endpoint singularities like log(x);
/// infinite ends are then mapped to finite ones.
#[derive(Clone, Copy)]
enum Map {
    /// [a, b]
    Finite(f64, f64),
    /// [a, Inf): x = a + t/(1-t), t in [0, 1)
    Upper(f64),
    /// (-Inf, b]: x = b - (1-t)/t, t in (0, 1]
    Lower(f64),
    /// (-Inf, Inf): x = t/(1-t^2), t in (-1, 1)
    Both,
}

impl Map {
    /// The point for u in [-1, 1] and dx/du there.
    fn point(self, u: f64) -> (f64, f64) {
        let s = 0.5 * u * (3.0 - u * u);
        let ds = 1.5 * (1.0 - u * u);
        match self {
            Map::Finite(a, b) => {
                let h = 0.5 * (b - a);
                (0.5 * (a + b) + h * s, h * ds)
            }
            Map::Upper(a) => {
                let t = 0.5 * (s + 1.0);
                (a + t / (1.0 - t), 0.5 * ds / ((1.0 - t) * (1.0 - t)))
            }
            Map::Lower(b) => {
                let t = 0.5 * (s + 1.0);
                (b - (1.0 - t) / t, 0.5 * ds / (t * t))
            }
            Map::Both => {
                let d = 1.0 - s * s;
                (s / d, ds * (1.0 + s * s) / (d * d))
            }
        }
    }
}

/// Evaluates f at the points (vectorised when f allows it), times the mapping's Jacobian.
fn eval_points(
    i: &mut Interp,
    fr: &mut Frame,
    f: &Value,
    ts: &[f64],
    map: Map,
    evals: &mut usize,
) -> MResult<Vec<f64>> {
    let (xs, jac): (Vec<f64>, Vec<f64>) = ts.iter().map(|&t| map.point(t)).unzip();
    *evals += xs.len();
    let v = i.call_value1(fr, f, vec![Value::row(xs.clone())])?;
    let ys: Vec<f64> = if v.numel() == xs.len() {
        let t = v.tensor()?;
        if t.is_complex() {
            return Err(bad_arg("integral", "Complex integrands are not supported."));
        }
        t.to_f64().into_owned()
    } else {
        // not vectorised: one call per point
        let mut out = Vec::with_capacity(xs.len());
        for &x in &xs {
            out.push(call_scalar(i, fr, f, x, "integral")?);
        }
        out
    };
    Ok(ys
        .iter()
        .zip(&jac)
        .map(|(y, j)| if *j == 0.0 { 0.0 } else { y * j })
        .collect())
}

/// One Gauss-Kronrod panel: (integral, error estimate).
fn gk15(
    i: &mut Interp,
    fr: &mut Frame,
    f: &Value,
    lo: f64,
    hi: f64,
    map: Map,
    evals: &mut usize,
) -> MResult<(f64, f64)> {
    let c = 0.5 * (lo + hi);
    let h = 0.5 * (hi - lo);
    let mut ts = Vec::with_capacity(15);
    for &x in &XGK[..7] {
        ts.push(c - h * x);
        ts.push(c + h * x);
    }
    ts.push(c);
    let ys = eval_points(i, fr, f, &ts, map, evals)?;
    let mut k = WGK[7] * ys[14];
    let mut g = WG[3] * ys[14];
    for j in 0..7 {
        let pair = ys[2 * j] + ys[2 * j + 1];
        k += WGK[j] * pair;
        if j % 2 == 1 {
            g += WG[j / 2] * pair;
        }
    }
    Ok((k * h, ((k - g) * h).abs()))
}

/// Adaptive Gauss-Kronrod over [a, b]: the panel with the largest error is halved until the
/// total error meets max(abs_tol, rel_tol*|Q|). Returns (Q, error bound, evaluations).
fn adaptive(
    i: &mut Interp,
    fr: &mut Frame,
    f: &Value,
    a: f64,
    b: f64,
    abs_tol: f64,
    rel_tol: f64,
) -> MResult<(f64, f64, usize)> {
    if a == b {
        return Ok((0.0, 0.0, 0));
    }
    if b < a {
        let (q, e, n) = adaptive(i, fr, f, b, a, abs_tol, rel_tol)?;
        return Ok((-q, e, n));
    }
    let map = match (a.is_infinite(), b.is_infinite()) {
        (false, false) => Map::Finite(a, b),
        (false, true) => Map::Upper(a),
        (true, false) => Map::Lower(b),
        (true, true) => Map::Both,
    };
    let (lo, hi) = (-1.0, 1.0);
    let mut evals = 0;
    // start from 10 panels, as MATLAB does
    let mut panels = Vec::new();
    for k in 0..10 {
        let p = lo + (hi - lo) * k as f64 / 10.0;
        let q = lo + (hi - lo) * (k + 1) as f64 / 10.0;
        let (v, e) = gk15(i, fr, f, p, q, map, &mut evals)?;
        panels.push((p, q, v, e));
    }
    for _ in 0..650 {
        let total: f64 = panels.iter().map(|p| p.2).sum();
        let err: f64 = panels.iter().map(|p| p.3).sum();
        // refine past the requested tolerance: the Kronrod-Gauss difference overstates the
        // error by orders of magnitude, and printed digits should not depend on it
        if err <= 1e-3 * abs_tol.max(rel_tol * total.abs()) || !err.is_finite() {
            break;
        }
        let Some(worst) = (0..panels.len()).max_by(|&x, &y| {
            panels[x]
                .3
                .partial_cmp(&panels[y].3)
                .unwrap_or(std::cmp::Ordering::Equal)
        }) else {
            break;
        };
        let (p, q, _, _) = panels.swap_remove(worst);
        let m = 0.5 * (p + q);
        if m <= p || m >= q {
            break;
        }
        let (v1, e1) = gk15(i, fr, f, p, m, map, &mut evals)?;
        let (v2, e2) = gk15(i, fr, f, m, q, map, &mut evals)?;
        panels.push((p, m, v1, e1));
        panels.push((m, q, v2, e2));
    }
    let total = panels.iter().map(|p| p.2).sum();
    let err = panels.iter().map(|p| p.3).sum();
    Ok((total, err, evals))
}

/// Reads 'AbsTol'/'RelTol' name-value pairs.
fn tolerances(rest: &[Value], name: &str) -> MResult<(f64, f64)> {
    let (mut abs_tol, mut rel_tol) = (1e-10, 1e-6);
    let mut k = 0;
    while k < rest.len() {
        let key = text_arg(&rest[k], name)?.to_ascii_lowercase();
        let Some(v) = rest.get(k + 1) else {
            return Err(bad_arg(name, "Options must come in name-value pairs."));
        };
        match key.as_str() {
            "abstol" => abs_tol = v.scalar_f64()?,
            "reltol" => rel_tol = v.scalar_f64()?,
            "arrayvalued" | "waypoints" | "maxintervalcount" => {}
            _ => return Err(bad_arg(name, format!("Unknown option '{key}'."))),
        }
        k += 2;
    }
    Ok((abs_tol, rel_tol))
}

fn limits(a: &A) -> MResult<(f64, f64)> {
    Ok((a[1].scalar_f64()?, a[2].scalar_f64()?))
}

fn integral(i: &mut Interp, fr: &mut Frame, a: A, _: usize) -> R {
    let (lo, hi) = limits(&a)?;
    let (abs_tol, rel_tol) = tolerances(&a[3..], "integral")?;
    let (q, _, _) = adaptive(i, fr, &a[0], lo, hi, abs_tol, rel_tol)?;
    one(Value::Num(q))
}

fn quadgk(i: &mut Interp, fr: &mut Frame, a: A, nargout: usize) -> R {
    let (lo, hi) = limits(&a)?;
    let (abs_tol, rel_tol) = tolerances(&a[3..], "quadgk")?;
    let (q, err, _) = adaptive(i, fr, &a[0], lo, hi, abs_tol, rel_tol)?;
    let mut out = vec![Value::Num(q), Value::Num(err)];
    out.truncate(nargout.max(1));
    Ok(out)
}

fn quad(i: &mut Interp, fr: &mut Frame, a: A, nargout: usize) -> R {
    let (lo, hi) = limits(&a)?;
    let tol = match a.get(3) {
        Some(v) if !v.is_empty() => v.scalar_f64()?,
        _ => 1e-6,
    };
    let (q, _, n) = adaptive(i, fr, &a[0], lo, hi, tol, 0.0)?;
    let mut out = vec![Value::Num(q), Value::Num(n as f64)];
    out.truncate(nargout.max(1));
    Ok(out)
}
