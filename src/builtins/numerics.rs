//! Function-driven numerics: fzero fminbnd fminsearch optimset optimget (quadrature.rs
//! integrates).
//! The algorithms follow MATLAB's own (Brent's zeroin, Forsythe–Malcolm–Moler fmin, the
//! Lagarias Nelder–Mead variant) with MATLAB's default tolerances, so
//! results agree to the digits those tolerances promise.

use super::construct::eps_of;
use super::{Builtin, b, bad_arg, one, text_arg};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::containers::StructArray;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("fzero", 2, 3, 4, "[x, fval, exitflag] = fzero(f, x0 or [a b], options): a zero of a function of one variable.", fzero),
        b("fminbnd", 3, 4, 4, "[x, fval, exitflag] = fminbnd(f, a, b, options): minimum of a function on an interval.", fminbnd),
        b("fminsearch", 2, 3, 4, "[x, fval, exitflag] = fminsearch(f, x0, options): unconstrained minimum (Nelder-Mead).", fminsearch),
        b("optimset", 0, -1, 1, "optimset(name, value, ...): an options struct for fzero/fminbnd/fminsearch.", optimset),
        b("optimget", 2, 3, 1, "optimget(options, name, default): one option's value.", optimget),
    ]
}

/// Options read from an optimset struct, with each solver's defaults.
struct Opts {
    tol_x: f64,
    tol_fun: f64,
    max_iter: Option<usize>,
    max_fun: Option<usize>,
}

fn opts(v: Option<&Value>, tol_x: f64, tol_fun: f64) -> MResult<Opts> {
    let mut o = Opts {
        tol_x,
        tol_fun,
        max_iter: None,
        max_fun: None,
    };
    let Some(Value::Struct(s)) = v else {
        return Ok(o);
    };
    let field = |name: &str| -> Option<f64> {
        let k = s.fields.iter().position(|f| f.eq_ignore_ascii_case(name))?;
        let v = &s.elems.first()?[k];
        if v.is_empty() {
            None
        } else {
            v.scalar_f64().ok()
        }
    };
    if let Some(t) = field("TolX") {
        o.tol_x = t;
    }
    if let Some(t) = field("TolFun") {
        o.tol_fun = t;
    }
    o.max_iter = field("MaxIter").map(|n| n.max(0.0) as usize);
    o.max_fun = field("MaxFunEvals").map(|n| n.max(0.0) as usize);
    Ok(o)
}

/// `f(x)` for a scalar x, which must give a real scalar.
pub(super) fn call_scalar(
    i: &mut Interp,
    fr: &mut Frame,
    f: &Value,
    x: f64,
    name: &str,
) -> MResult<f64> {
    let v = i.call_value1(fr, f, vec![Value::Num(x)])?;
    scalar_result(&v, name)
}

fn scalar_result(v: &Value, name: &str) -> MResult<f64> {
    if v.numel() != 1 {
        return Err(MError::new(
            format!("MATLAB:{name}:checkfun:NonScalarFunVal"),
            format!("{name} requires the function to return a scalar value."),
        ));
    }
    let t = v.tensor()?;
    if t.is_complex() {
        return Err(MError::new(
            format!("MATLAB:{name}:checkfun:ComplexFval"),
            format!("{name} cannot continue because the function returned a complex value."),
        ));
    }
    Ok(t.get_f64(0))
}

fn fzero(i: &mut Interp, fr: &mut Frame, a: A, nargout: usize) -> R {
    let f = &a[0];
    let x0 = a[1].tensor()?.to_f64().into_owned();
    let o = opts(a.get(2), f64::EPSILON, f64::EPSILON)?;
    let tol = o.tol_x;
    let mut evals = 0usize;
    let mut eval = |i: &mut Interp, fr: &mut Frame, x: f64| {
        evals += 1;
        call_scalar(i, fr, f, x, "fzero")
    };
    let (mut a_, mut fa, mut b_, mut fb);
    match x0.len() {
        2 => {
            a_ = x0[0];
            b_ = x0[1];
            fa = eval(i, fr, a_)?;
            fb = eval(i, fr, b_)?;
            if (fa > 0.0) == (fb > 0.0) && fa != 0.0 && fb != 0.0 {
                return Err(MError::new(
                    "MATLAB:fzero:ValuesAtEndPtsSameSign",
                    "The function values at the interval endpoints must differ in sign.",
                ));
            }
        }
        1 => {
            let x = x0[0];
            let fx = eval(i, fr, x)?;
            if fx == 0.0 {
                return finish_fzero(x, fx, 1.0, nargout);
            }
            // widen an interval around x0 until the function changes sign
            let mut dx = if x != 0.0 { x / 50.0 } else { 1.0 / 50.0 };
            (a_, fa, b_, fb) = (x, fx, x, fx);
            while (fa > 0.0) == (fb > 0.0) {
                dx *= std::f64::consts::SQRT_2;
                a_ = x - dx;
                fa = eval(i, fr, a_)?;
                if !fa.is_finite() || !a_.is_finite() {
                    return finish_fzero(f64::NAN, f64::NAN, -3.0, nargout);
                }
                if (fa > 0.0) != (fb > 0.0) {
                    break;
                }
                b_ = x + dx;
                fb = eval(i, fr, b_)?;
                if !fb.is_finite() || !b_.is_finite() {
                    return finish_fzero(f64::NAN, f64::NAN, -3.0, nargout);
                }
            }
        }
        _ => {
            return Err(bad_arg(
                "fzero",
                "Second argument must be a scalar or vector of length 2.",
            ));
        }
    }
    if fa == 0.0 {
        return finish_fzero(a_, fa, 1.0, nargout);
    }
    // Brent's method: b is the best point, a the previous one, c across the zero from b
    let (mut c, mut fc) = (b_, fb);
    let (mut d, mut e) = (b_ - a_, b_ - a_);
    while fb != 0.0 && a_ != b_ {
        if (fb > 0.0) == (fc > 0.0) {
            c = a_;
            fc = fa;
            d = b_ - a_;
            e = d;
        }
        if fc.abs() < fb.abs() {
            a_ = b_;
            b_ = c;
            c = a_;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let m = 0.5 * (c - b_);
        let toler = 2.0 * tol * b_.abs().max(1.0);
        if m.abs() <= toler || fb == 0.0 {
            break;
        }
        if e.abs() < toler || fa.abs() <= fb.abs() {
            d = m;
            e = m;
        } else {
            let s = fb / fa;
            let (mut p, mut q);
            if a_ == c {
                p = 2.0 * m * s;
                q = 1.0 - s;
            } else {
                let qq = fa / fc;
                let r = fb / fc;
                p = s * (2.0 * m * qq * (qq - r) - (b_ - a_) * (r - 1.0));
                q = (qq - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            if 2.0 * p < 3.0 * m * q - (toler * q).abs() && p < (0.5 * e * q).abs() {
                e = d;
                d = p / q;
            } else {
                d = m;
                e = m;
            }
        }
        a_ = b_;
        fa = fb;
        if d.abs() > toler {
            b_ += d;
        } else if b_ > c {
            b_ -= toler;
        } else {
            b_ += toler;
        }
        fb = eval(i, fr, b_)?;
    }
    finish_fzero(b_, fb, 1.0, nargout)
}

fn finish_fzero(x: f64, fx: f64, flag: f64, nargout: usize) -> R {
    let mut out = vec![Value::Num(x), Value::Num(fx), Value::Num(flag)];
    out.truncate(nargout.clamp(1, 3));
    Ok(out)
}

fn fminbnd(i: &mut Interp, fr: &mut Frame, a: A, nargout: usize) -> R {
    let f = &a[0];
    let (ax, bx) = (a[1].scalar_f64()?, a[2].scalar_f64()?);
    if ax > bx {
        return Err(MError::new(
            "MATLAB:fminbnd:LowerBndGreaterThanUpperBnd",
            "The lower bound exceeds the upper bound.",
        ));
    }
    let o = opts(a.get(3), 1e-4, 1e-4)?;
    let tol = o.tol_x;
    let max_fun = o.max_fun.unwrap_or(500);
    let max_iter = o.max_iter.unwrap_or(500);
    let seps = f64::EPSILON.sqrt();
    let c = 0.5 * (3.0 - 5f64.sqrt());
    let (mut lo, mut hi) = (ax, bx);
    let mut v = lo + c * (hi - lo);
    let mut w = v;
    let mut xf = v;
    let (mut d, mut e) = (0.0f64, 0.0f64);
    let mut fx = call_scalar(i, fr, f, xf, "fminbnd")?;
    let (mut fv, mut fw) = (fx, fx);
    let mut xm = 0.5 * (lo + hi);
    let mut tol1 = seps * xf.abs() + tol / 3.0;
    let mut tol2 = 2.0 * tol1;
    let (mut evals, mut iters) = (1usize, 0usize);
    let mut flag = 1.0;
    while (xf - xm).abs() > tol2 - 0.5 * (hi - lo) {
        if evals >= max_fun || iters >= max_iter {
            flag = 0.0;
            break;
        }
        let mut golden = true;
        if e.abs() > tol1 {
            golden = false;
            let mut r = (xf - w) * (fx - fv);
            let mut q = (xf - v) * (fx - fw);
            let mut p = (xf - v) * q - (xf - w) * r;
            q = 2.0 * (q - r);
            if q > 0.0 {
                p = -p;
            }
            q = q.abs();
            r = e;
            e = d;
            if p.abs() < (0.5 * q * r).abs() && p > q * (lo - xf) && p < q * (hi - xf) {
                d = p / q;
                let x = xf + d;
                if (x - lo) < tol2 || (hi - x) < tol2 {
                    let si = sign_or_one(xm - xf);
                    d = tol1 * si;
                }
            } else {
                golden = true;
            }
        }
        if golden {
            e = if xf >= xm { lo - xf } else { hi - xf };
            d = c * e;
        }
        let x = xf + sign_or_one(d) * d.abs().max(tol1);
        let fu = call_scalar(i, fr, f, x, "fminbnd")?;
        evals += 1;
        iters += 1;
        if fu <= fx {
            if x >= xf {
                lo = xf;
            } else {
                hi = xf;
            }
            v = w;
            fv = fw;
            w = xf;
            fw = fx;
            xf = x;
            fx = fu;
        } else {
            if x < xf {
                lo = x;
            } else {
                hi = x;
            }
            if fu <= fw || w == xf {
                v = w;
                fv = fw;
                w = x;
                fw = fu;
            } else if fu <= fv || v == xf || v == w {
                v = x;
                fv = fu;
            }
        }
        xm = 0.5 * (lo + hi);
        tol1 = seps * xf.abs() + tol / 3.0;
        tol2 = 2.0 * tol1;
    }
    let mut out = vec![Value::Num(xf), Value::Num(fx), Value::Num(flag)];
    out.truncate(nargout.clamp(1, 3));
    Ok(out)
}

/// sign(x), with 0 counted as positive.
fn sign_or_one(x: f64) -> f64 {
    if x < 0.0 { -1.0 } else { 1.0 }
}

fn fminsearch(i: &mut Interp, fr: &mut Frame, a: A, nargout: usize) -> R {
    let f = &a[0];
    let x0t = a[1].tensor()?.into_owned();
    let shape = x0t.shape.clone();
    let x0 = x0t.to_f64().into_owned();
    let n = x0.len();
    let o = opts(a.get(2), 1e-4, 1e-4)?;
    let max_iter = o.max_iter.unwrap_or(200 * n.max(1));
    let max_fun = o.max_fun.unwrap_or(200 * n.max(1));
    let call = |i: &mut Interp, fr: &mut Frame, x: &[f64]| -> MResult<f64> {
        let arg = Value::from(Tensor::f64(shape.clone(), x.to_vec()));
        let v = i.call_value1(fr, f, vec![arg])?;
        scalar_result(&v, "fminsearch")
    };
    // the initial simplex: x0 and n points 5% away along each axis
    let mut simplex: Vec<(Vec<f64>, f64)> = Vec::with_capacity(n + 1);
    let f0 = call(i, fr, &x0)?;
    simplex.push((x0.clone(), f0));
    for j in 0..n {
        let mut y = x0.clone();
        y[j] = if y[j] != 0.0 { 1.05 * y[j] } else { 0.00025 };
        let fy = call(i, fr, &y)?;
        simplex.push((y, fy));
    }
    let order = |s: &mut Vec<(Vec<f64>, f64)>| {
        s.sort_by(|p, q| p.1.partial_cmp(&q.1).unwrap_or(std::cmp::Ordering::Equal));
    };
    order(&mut simplex);
    let (mut iters, mut evals) = (1usize, n + 1);
    let mut flag = 1.0;
    let lerp = |p: f64, u: &[f64], q: f64, w: &[f64]| -> Vec<f64> {
        u.iter().zip(w).map(|(a, b)| p * a + q * b).collect()
    };
    while n > 0 {
        if evals >= max_fun || iters >= max_iter {
            flag = 0.0;
            break;
        }
        let best = simplex[0].clone();
        let fspread = simplex[1..]
            .iter()
            .map(|p| (best.1 - p.1).abs())
            .fold(0.0, f64::max);
        let xspread = simplex[1..]
            .iter()
            .flat_map(|p| p.0.iter().zip(&best.0).map(|(a, b)| (a - b).abs()))
            .fold(0.0, f64::max);
        let vmax = best.0.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if fspread <= o.tol_fun.max(10.0 * eps_of(best.1))
            && xspread <= o.tol_x.max(10.0 * eps_of(vmax))
        {
            break;
        }
        let mut xbar = vec![0.0; n];
        for p in &simplex[..n] {
            for (s, v) in xbar.iter_mut().zip(&p.0) {
                *s += v / n as f64;
            }
        }
        let worst = simplex[n].clone();
        let xr = lerp(2.0, &xbar, -1.0, &worst.0);
        let fxr = call(i, fr, &xr)?;
        evals += 1;
        if fxr < simplex[0].1 {
            let xe = lerp(3.0, &xbar, -2.0, &worst.0);
            let fxe = call(i, fr, &xe)?;
            evals += 1;
            simplex[n] = if fxe < fxr { (xe, fxe) } else { (xr, fxr) };
        } else if fxr < simplex[n - 1].1 {
            simplex[n] = (xr, fxr);
        } else {
            let contracted = if fxr < worst.1 {
                let xc = lerp(1.5, &xbar, -0.5, &worst.0);
                let fxc = call(i, fr, &xc)?;
                evals += 1;
                (fxc <= fxr).then_some((xc, fxc))
            } else {
                let xcc = lerp(0.5, &xbar, 0.5, &worst.0);
                let fxcc = call(i, fr, &xcc)?;
                evals += 1;
                (fxcc < worst.1).then_some((xcc, fxcc))
            };
            match contracted {
                Some(p) => simplex[n] = p,
                None => {
                    // shrink every point toward the best one
                    let x1 = simplex[0].0.clone();
                    for p in simplex.iter_mut().skip(1) {
                        let y = lerp(0.5, &x1, 0.5, &p.0);
                        let fy = call(i, fr, &y)?;
                        evals += 1;
                        *p = (y, fy);
                    }
                }
            }
        }
        order(&mut simplex);
        iters += 1;
    }
    let (x, fx) = simplex.swap_remove(0);
    let mut out = vec![
        Value::from(Tensor::f64(shape, x)),
        Value::Num(fx),
        Value::Num(flag),
    ];
    out.truncate(nargout.clamp(1, 3));
    Ok(out)
}

fn optimset(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let mut s = match a.first() {
        Some(Value::Struct(s)) => (**s).clone(),
        _ => StructArray::scalar(),
    };
    let start = usize::from(matches!(a.first(), Some(Value::Struct(_))));
    let rest = &a[start..];
    if rest.len() % 2 != 0 {
        return Err(bad_arg(
            "optimset",
            "Arguments must occur in name-value pairs.",
        ));
    }
    for pair in rest.chunks(2) {
        let name = text_arg(&pair[0], "optimset")?;
        // option names are case-insensitive; keep the spelling already present
        let key = s
            .fields
            .iter()
            .find(|f| f.eq_ignore_ascii_case(&name))
            .cloned()
            .unwrap_or(name);
        s.set(0, &key, pair[1].clone());
    }
    one(s)
}

fn optimget(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let name = text_arg(&a[1], "optimget")?;
    let found = match &a[0] {
        Value::Struct(s) => s
            .fields
            .iter()
            .position(|f| f.eq_ignore_ascii_case(&name))
            .and_then(|k| s.elems.first().map(|e| e[k].clone()))
            .filter(|v| !v.is_empty()),
        _ => None,
    };
    one(found.unwrap_or_else(|| a.get(2).cloned().unwrap_or_else(Value::empty)))
}
