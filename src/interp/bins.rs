//! `histcounts` and `accumarray` (sums) of gpuArrays on the device (`gpu::bins`). The
//! counts and sums stay gpuArrays; what is read back is a few numbers: for `histcounts`
//! with a bin count, the least and greatest finite values and how many there are (the edges
//! are then computed as the host computes them); for `accumarray`, whether every subscript
//! is a positive whole number and the largest (the result's length).

use super::lower;
use super::scans::{device_input, result};
use super::sorts::index_precision;
use crate::gpu::scan::Lanes;
use crate::gpu::{compact, sets};
use crate::graph::Precision;
use crate::interp::error::MResult;
use crate::values::class::Class;
use crate::values::ops::{Bin, Un};
use crate::values::shape::Shape;
use crate::values::value::Value;

/// The device form of `name(args)` among the counting functions, or None.
pub fn builtin(name: &str, args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    match name {
        "histcounts" if nargout <= 2 && args.len() <= 2 => histcounts(args, nargout),
        "accumarray" if nargout <= 1 && (2..=3).contains(&args.len()) => accumarray(args),
        _ => None,
    }
}

/// A device scalar's value, read back.
fn read_scalar(v: Option<Value>) -> Option<f64> {
    v?.host().ok()?.scalar_f64().ok()
}

fn f64_device(g: &crate::gpu::device::Gpu) -> bool {
    g.info.supports_double && g.info.supports_int64
}

fn histcounts(args: &[Value], nargout: usize) -> Option<MResult<Vec<Value>>> {
    let g = crate::gpu::device::ready()?;
    if !f64_device(g) {
        return None;
    }
    let x = device_input(g, args.first()?)?;
    let n = x.node.numel();
    let edges: Vec<f64> = match args.get(1) {
        Some(v) if v.numel() > 1 => {
            if v.is_text() || v.is_complex() {
                return None;
            }
            let t = v.clone().host().ok()?;
            let e = t.tensor().ok()?.to_f64().into_owned();
            if e.iter().any(|x| x.is_nan()) || e.windows(2).any(|w| w[1] < w[0]) {
                return None;
            }
            e
        }
        other => {
            let nbins = match other {
                Some(v) => {
                    let b = v.scalar_f64().ok()?;
                    if !(1.0..=1e8).contains(&b) || b.fract() != 0.0 {
                        return None;
                    }
                    Some(b as usize)
                }
                None => None,
            };
            let xv = &args[0];
            let finite = lower::unary(Un::IsFinite, xv)?;
            // x - x is 0 where x is finite, NaN elsewhere, in x's own class.
            let zero_or_nan = lower::binary(Bin::Sub, xv, xv)?;
            let masked = lower::binary(Bin::Add, xv, &zero_or_nan)?;
            let all = Value::str("all");
            let mn = read_scalar(lower::reduction(
                "min",
                &[masked.clone(), Value::empty(), all.clone()],
            ))?;
            let mx = read_scalar(lower::reduction(
                "max",
                &[masked, Value::empty(), all.clone()],
            ))?;
            let count = read_scalar(lower::reduction("sum", &[finite, all]))?;
            let nbins = nbins.unwrap_or_else(|| (count.sqrt().ceil() as usize).max(1));
            if count == 0.0 {
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
    if edges.len() < 2 || edges.len() >= u32::MAX as usize / 2 {
        return None;
    }
    let r = (|| {
        let e = crate::gpu::buffers::upload(g, &edges, Precision::F64)?;
        crate::gpu::bins::histogram(g, &x.buffer, n, &e)
    })();
    let counts = match crate::plan::device_result(r, "histcounts") {
        Ok(Some(c)) => c,
        Ok(None) => return None,
        Err(e) => return Some(Err(e)),
    };
    let bins = edges.len() - 1;
    let mut out = vec![result(counts, Shape::row(bins), Class::Double, x.explicit)];
    if nargout > 1 {
        out.push(lower::rewrap_value(Value::row(edges)));
    }
    Some(Ok(out))
}

fn accumarray(args: &[Value]) -> Option<MResult<Vec<Value>>> {
    let g = crate::gpu::device::ready()?;
    if !f64_device(g) {
        return None;
    }
    let subs = device_input(g, args.first()?)?;
    let n = subs.node.numel();
    if !subs.node.shape.is_col() && n > 1 {
        return None;
    }
    let vals_value = match &args[1] {
        Value::Device(_) => args[1].clone(),
        v => lower::to_graph_value(v, true)?,
    };
    let vals = device_input(g, &vals_value)?;
    let scalar = vals.node.numel() == 1;
    // Single subscripts or values make a single result on the host (its class rules).
    if vals.node.class != Class::Double
        || subs.node.class != Class::Double
        || !(scalar || vals.node.numel() == n)
    {
        return None;
    }
    // Every subscript a positive whole number (NaN is not), and the largest.
    let s = &args[0];
    let low = lower::binary(Bin::Lt, s, &Value::Num(1.0))?;
    let floor = lower::unary(Un::Floor, s)?;
    let frac = lower::binary(Bin::Ne, s, &floor)?;
    let bad = lower::binary(Bin::Or, &low, &frac)?;
    let all = Value::str("all");
    let any_bad = read_scalar(lower::reduction("any", &[bad, all.clone()]))?;
    if any_bad != 0.0 {
        return None;
    }
    let largest = read_scalar(lower::reduction("max", &[s.clone(), Value::empty(), all]))?;
    // An infinite subscript passes the test above; the host reports it.
    if !largest.is_finite() || largest > 1e9 {
        return None;
    }
    let mut len = largest as usize;
    if let Some(sz) = args.get(2) {
        if !sz.is_empty() {
            let t = sz.clone().host().ok()?;
            let dims = t.tensor().ok()?.to_f64().into_owned();
            match dims.as_slice() {
                [m, 1.0] if *m >= largest && m.fract() == 0.0 && *m < 1e9 => len = *m as usize,
                _ => return None,
            }
        }
    }
    let ip = index_precision(g);
    let lanes = Lanes {
        inner: 1,
        len: n,
        outer: 1,
    };
    if !crate::gpu::sort::fits(g, lanes, subs.precision) || len == 0 {
        return None;
    }
    let r = (|| {
        let order = crate::gpu::sort::order(g, &subs.buffer, lanes, false)?;
        let (ssub, sidx) = crate::gpu::sort::place(g, &subs.buffer, &order, lanes, Some(ip))?;
        let sidx = sidx.ok_or_else(internal)?;
        let starts = sets::group_flags(g, &ssub, n, false, ip)?;
        let (at, groups) = compact::find(&starts, n, ip)?;
        let at = at.ok_or_else(internal)?;
        crate::gpu::bins::accumulate(g, &vals.buffer, scalar, &sidx, &ssub, &at, n, groups, len)
    })();
    let sums = match crate::plan::device_result(r, "accumarray") {
        Ok(Some(c)) => c,
        Ok(None) => return None,
        Err(e) => return Some(Err(e)),
    };
    Some(Ok(vec![result(
        sums,
        Shape::col(len),
        Class::Double,
        subs.explicit,
    )]))
}

fn internal() -> crate::interp::error::MError {
    crate::interp::error::MError::new("matfuse:internal", "A device step gave no result.")
}
