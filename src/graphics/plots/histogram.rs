//! Histogram bins: automatic edges (Scott's rule rounded to a 1-2-5 width, edges on
//! multiples of it), a bin count, or given edges; counts and their normalisations.

use crate::graphics::Scene;
use crate::graphics::model::Id;
use crate::interp::error::{MError, MResult};
use crate::values::value::Value;

/// The most bins a histogram may have.
pub const MAX_BINS: usize = 1 << 20;

fn too_many() -> MError {
    MError::new(
        "MATLAB:histogram:TooManyBins",
        format!("The number of bins must not exceed {MAX_BINS}."),
    )
}

/// Automatic edges of finite data.
pub fn auto_edges(x: &[f64]) -> Vec<f64> {
    let v: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    if v.is_empty() {
        return vec![0.0, 1.0];
    }
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi == lo {
        return vec![lo - 0.5, lo + 0.5];
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let sd = (v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
    let raw = (3.5 * sd / n.cbrt()).max((hi - lo) / 100.0);
    let p = 10f64.powf(raw.log10().floor());
    let w = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|w| *w >= raw)
        .unwrap_or(10.0 * p);
    let a = (lo / w).floor() * w;
    let mut b = (hi / w).ceil() * w;
    if b <= hi {
        b += w;
    }
    let k = ((b - a) / w).round().clamp(1.0, MAX_BINS as f64) as usize;
    (0..=k).map(|i| a + i as f64 * w).collect()
}

/// Edges of `n` equal bins spanning the data.
pub fn count_edges(x: &[f64], n: usize) -> Vec<f64> {
    let v: Vec<f64> = x.iter().copied().filter(|v| v.is_finite()).collect();
    let (lo, hi) = if v.is_empty() {
        (0.0, 1.0)
    } else {
        (
            v.iter().copied().fold(f64::INFINITY, f64::min),
            v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, lo + 0.5)
    };
    let n = n.max(1);
    (0..=n)
        .map(|i| lo + (hi - lo) * i as f64 / n as f64)
        .collect()
}

/// Counts of data in each bin `[e_k, e_k+1)`, the last closed.
pub fn counts(x: &[f64], e: &[f64]) -> Vec<f64> {
    let nb = e.len().saturating_sub(1);
    let mut c = vec![0.0; nb];
    if nb == 0 {
        return c;
    }
    // Ctrl-C is looked at every so many elements (3e7 of them are half a second)
    let mut tick = crate::interp::interrupt::Ticker::new();
    for v in x.iter().inspect(|_| tick.tick()).filter(|v| v.is_finite()) {
        if *v < e[0] || *v > e[nb] {
            continue;
        }
        let k = e
            .partition_point(|edge| edge <= v)
            .saturating_sub(1)
            .min(nb - 1);
        c[k] += 1.0;
    }
    c
}

/// Counts as the normalisation asks.
pub fn normalise(c: &[f64], e: &[f64], how: &str) -> Vec<f64> {
    let total: f64 = c.iter().sum();
    let width = |k: usize| {
        e.get(k + 1)
            .zip(e.get(k))
            .map(|(b, a)| b - a)
            .unwrap_or(1.0)
    };
    let mut run = 0.0;
    c.iter()
        .enumerate()
        .map(|(k, v)| match how {
            "probability" => v / total.max(f64::MIN_POSITIVE),
            "countdensity" => v / width(k),
            "pdf" => v / (total.max(f64::MIN_POSITIVE) * width(k)),
            "cumcount" => {
                run += v;
                run
            }
            "cdf" => {
                run += v;
                run / total.max(f64::MIN_POSITIVE)
            }
            _ => *v,
        })
        .collect()
}

/// Recomputes a histogram's bins after `changed` was set.
pub fn rebin(scene: &mut Scene, id: Id, changed: &str) -> MResult<()> {
    let o = scene.obj_mut(id)?;
    let data = o.nums("Data").into_owned();
    let mut edges = o.nums("BinEdges").into_owned();
    match changed {
        "NumBins" => {
            let n = o.num("NumBins", 0.0);
            if !(n >= 1.0) || n.fract() != 0.0 {
                return Err(MError::new(
                    "MATLAB:histogram:InvalidNumBins",
                    "NumBins must be a positive integer.",
                ));
            }
            if n > MAX_BINS as f64 {
                return Err(too_many());
            }
            edges = count_edges(&data, n as usize);
        }
        "BinEdges" => {
            if edges.len() < 2 || edges.windows(2).any(|w| !(w[1] > w[0])) {
                return Err(MError::new(
                    "MATLAB:histogram:InvalidBinEdges",
                    "Bin edges must be a vector of at least two increasing values.",
                ));
            }
            if edges.len() > MAX_BINS + 1 {
                return Err(too_many());
            }
        }
        "Data" => edges = auto_edges(&data),
        _ => {
            if edges.len() < 2 {
                edges = auto_edges(&data);
            }
        }
    }
    let c = if changed == "BinCounts" || (data.is_empty() && changed != "Data") {
        let mut c = o.nums("BinCounts").into_owned();
        c.resize(edges.len().saturating_sub(1), 0.0);
        c
    } else {
        counts(&data, &edges)
    };
    let v = normalise(&c, &edges, &o.text("Normalization"));
    o.put("NumBins", Value::Num(c.len() as f64));
    o.put("BinEdges", Value::row(edges));
    o.put("BinCounts", Value::row(c));
    o.put("Values", Value::row(v));
    Ok(())
}
