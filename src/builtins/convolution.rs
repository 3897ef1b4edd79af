//! Convolution of vectors: conv(u, v) and its 'same' and 'valid' parts.
//!
//! Short products are summed directly, each output in one pass over its terms (the order of
//! the sums is u's, as polynomial multiplication writes them), across the cores when long.
//! Long ones go by transforms when that is cheaper (two transforms and an inverse of a
//! 7-smooth length instead of length(u)*length(v) products). A transform's rounding error is
//! spread over every output, so whole-number inputs are rounded back to whole numbers when
//! their error bound is below 1/4 (exact, as the direct sum is), and summed directly when it
//! is not; inputs with Inf or NaN are summed directly, so they stay where they belong.

use super::fourier::transform_runs;
use super::{Builtin, b, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::ops::elementwise::demote_complex;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use num_complex::Complex64;
use rayon::prelude::*;
use std::ops::{Add, Mul};

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("conv", 2, 3, 1, "conv(u, v), conv(u, v, shape): convolution of vectors (polynomial multiplication); shape 'full' (default), 'same' (the central part, length(u)) or 'valid' (no zero-padded edges).", conv),
    ]
}

#[derive(Clone, Copy, PartialEq)]
enum Part {
    Full,
    Same,
    Valid,
}

fn conv(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let part = match a.get(2) {
        None => Part::Full,
        Some(v) => match v.text().ok().map(|s| s.to_lowercase()).as_deref() {
            Some("full") => Part::Full,
            Some("same") => Part::Same,
            Some("valid") => Part::Valid,
            _ => {
                return Err(MError::new(
                    "MATLAB:conv:unknownShapeParameter",
                    "Shape must be 'full', 'same', or 'valid'.",
                ));
            }
        },
    };
    let (u, v) = (a[0].tensor()?, a[1].tensor()?);
    if u.is_empty() || v.is_empty() {
        return one(Value::empty());
    }
    if !u.shape.is_vector() || !v.shape.is_vector() {
        return Err(MError::new(
            "MATLAB:conv:AorBNotVector",
            "A and B must be vectors.",
        ));
    }
    let (na, nb) = (u.numel(), v.numel());
    let full = if u.is_complex() || v.is_complex() {
        Data::C64(complex_conv(&u.to_c64(), &v.to_c64()))
    } else {
        Data::F64(real_conv(&u.to_f64(), &v.to_f64()))
    };
    // MATLAB's parts of the full result: 'same' is centred, starting ceil((nb-1)/2) in.
    let (start, len) = match part {
        Part::Full => (0, na + nb - 1),
        Part::Same => (nb / 2, na),
        Part::Valid => (nb - 1, (na + 1).saturating_sub(nb)),
    };
    let data = match full {
        Data::C64(w) => Data::C64(w[start..][..len].to_vec()),
        Data::F64(w) => Data::F64(w[start..][..len].to_vec()),
        other => other,
    };
    // Orientation (as MATLAB's conv): the full result follows the longer input (v on a tie),
    // the parts follow u; a row stays a row, anything else gives a column.
    let row = match part {
        Part::Full if na > nb => u.shape.rows() == 1,
        Part::Full => v.shape.rows() == 1,
        _ => u.shape.rows() == 1,
    };
    let shape = if row {
        Shape::row(len)
    } else {
        Shape::col(len)
    };
    one(demote_complex(Tensor::new(shape, data)))
}

/// Whether transforms beat the direct sum for these lengths (an estimate from the products'
/// count against a transform's n log n butterflies, three transforms' worth).
fn by_transforms(na: usize, nb: usize) -> bool {
    let short = na.min(nb);
    if short < 48 {
        return false;
    }
    let n = smooth_len(na + nb - 1) as f64;
    (na as f64) * (nb as f64) > 12.0 * n * n.log2()
}

/// The least length at least `n` with no prime factor past 7 (the transforms' fast lengths).
fn smooth_len(n: usize) -> usize {
    let smooth = |mut m: usize| {
        for p in [2, 3, 5, 7] {
            while m % p == 0 {
                m /= p;
            }
        }
        m == 1
    };
    (n.max(1)..).find(|&m| smooth(m)).unwrap_or(n)
}

/// Each output a sum over its terms in u's order; long results across the cores.
fn direct<T>(x: &[T], y: &[T]) -> Vec<T>
where
    T: Copy + Default + Send + Sync + Add<Output = T> + Mul<Output = T>,
{
    let (na, nb) = (x.len(), y.len());
    let mut out = vec![T::default(); na + nb - 1];
    // Ctrl-C between chunks, on whichever thread runs them.
    let watch = crate::interp::interrupt::Watch::current();
    let fill = |k0: usize, chunk: &mut [T]| {
        watch.check();
        for (j, o) in chunk.iter_mut().enumerate() {
            let k = k0 + j;
            let lo = k.saturating_sub(nb - 1);
            let hi = k.min(na - 1);
            let mut s = T::default();
            for (i, &xi) in x.iter().enumerate().take(hi + 1).skip(lo) {
                s = s + xi * y[k - i];
            }
            *o = s;
        }
    };
    const CHUNK: usize = 2048;
    if na.saturating_mul(nb) < 1 << 16 {
        fill(0, &mut out);
    } else if out.len() <= CHUNK {
        // Few outputs of long sums: chunks of them, one look at the flag each.
        for (c, chunk) in out.chunks_mut(64).enumerate() {
            fill(c * 64, chunk);
        }
    } else {
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| fill(c * CHUNK, chunk));
    }
    out
}

fn real_conv(x: &[f64], y: &[f64]) -> Vec<f64> {
    let finite = x.iter().chain(y).all(|v| v.is_finite());
    if !finite || !by_transforms(x.len(), y.len()) {
        return direct(x, y);
    }
    let whole = x.iter().chain(y).all(|v| v.fract() == 0.0);
    let n = smooth_len(x.len() + y.len() - 1);
    if whole {
        // |error| <= c * eps * log2(n) * (sum |x|) * (max |y|); a generous c.
        let sx: f64 = x.iter().map(|v| v.abs()).sum();
        let my = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let bound = 16.0 * f64::EPSILON * (n as f64).log2() * sx * my;
        if !(bound < 0.25) {
            return direct(x, y);
        }
    }
    // Both real signals in one complex transform: z = x + i y, then X and Y from Z's
    // conjugate-symmetric and antisymmetric parts.
    let mut z = vec![Complex64::new(0.0, 0.0); n];
    for (k, zk) in z.iter_mut().enumerate() {
        *zk = Complex64::new(
            x.get(k).copied().unwrap_or(0.0),
            y.get(k).copied().unwrap_or(0.0),
        );
    }
    let zf = transform_runs(z, n, false);
    let half = Complex64::new(0.5, 0.0);
    let prod: Vec<Complex64> = (0..n)
        .map(|k| {
            let a = zf[k];
            let b = zf[(n - k) % n].conj();
            let xk = (a + b) * half;
            // (a - b) / 2i
            let yk = (a - b) * Complex64::new(0.0, -0.5);
            xk * yk
        })
        .collect();
    let w = transform_runs(prod, n, true);
    let len = x.len() + y.len() - 1;
    w.iter()
        .take(len)
        .map(|c| if whole { c.re.round() + 0.0 } else { c.re })
        .collect()
}

fn complex_conv(x: &[Complex64], y: &[Complex64]) -> Vec<Complex64> {
    let finite = x
        .iter()
        .chain(y)
        .all(|v| v.re.is_finite() && v.im.is_finite());
    if !finite || !by_transforms(x.len(), y.len()) {
        return direct(x, y);
    }
    let n = smooth_len(x.len() + y.len() - 1);
    let padded = |v: &[Complex64]| {
        let mut p = v.to_vec();
        p.resize(n, Complex64::new(0.0, 0.0));
        transform_runs(p, n, false)
    };
    let (xf, yf) = (padded(x), padded(y));
    let prod: Vec<Complex64> = xf.iter().zip(&yf).map(|(a, b)| a * b).collect();
    let mut w = transform_runs(prod, n, true);
    w.truncate(x.len() + y.len() - 1);
    w
}
