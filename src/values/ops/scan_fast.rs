//! Typed cumulative sums and products of real single and double arrays: read in their own
//! storage, each lane accumulated in f64 in order (as the general path does, so the results
//! are its bits) and every result written once in the storage type, with a look at Ctrl-C
//! every `CHUNK` elements instead of a counter per element. Lanes along a later dimension
//! keep a row of accumulators.

use crate::interp::interrupt::{CHUNK, poll_now};
use crate::values::tensor::Data;

/// An element type the scan reads and writes.
trait Real: Copy {
    fn wide(self) -> f64;
    fn narrow(x: f64) -> Self;
}
impl Real for f64 {
    #[inline(always)]
    fn wide(self) -> f64 {
        self
    }
    #[inline(always)]
    fn narrow(x: f64) -> f64 {
        x
    }
}
impl Real for f32 {
    #[inline(always)]
    fn wide(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn narrow(x: f64) -> f32 {
        x as f32
    }
}

/// `cumsum` (product false) or `cumprod` of single or double data over lanes (inner, len,
/// outer); None for other storage.
pub fn cumulative(
    data: &Data,
    (inner, len, outer): (usize, usize, usize),
    product: bool,
    omitnan: bool,
) -> Option<Data> {
    Some(match data {
        Data::F64(v) => Data::F64(scan(v, inner, len, outer, product, omitnan)),
        Data::F32(v) => Data::F32(scan(v, inner, len, outer, product, omitnan)),
        _ => return None,
    })
}

#[inline(always)]
fn step(acc: f64, v: f64, product: bool, omitnan: bool) -> f64 {
    if omitnan && v.is_nan() {
        acc
    } else if product {
        acc * v
    } else {
        acc + v
    }
}

fn scan<T: Real>(
    x: &[T],
    inner: usize,
    len: usize,
    outer: usize,
    product: bool,
    omitnan: bool,
) -> Vec<T> {
    let n = inner * len * outer;
    let mut out: Vec<T> = Vec::with_capacity(n);
    let start = if product { 1.0 } else { 0.0 };
    let mut since = 0usize;
    let mut look = |k: usize| {
        since += k;
        if since >= CHUNK {
            since = 0;
            poll_now();
        }
    };
    if inner == 1 {
        for lane in x[..n].chunks_exact(len.max(1)) {
            let mut acc = start;
            for part in lane.chunks(CHUNK) {
                look(part.len());
                out.extend(part.iter().map(|&v| {
                    acc = step(acc, v.wide(), product, omitnan);
                    T::narrow(acc)
                }));
            }
        }
    } else {
        let mut acc = vec![start; inner];
        for block in x[..n].chunks_exact(inner * len.max(1)) {
            acc.fill(start);
            for row in block.chunks_exact(inner) {
                look(inner);
                out.extend(row.iter().zip(acc.iter_mut()).map(|(&v, a)| {
                    *a = step(*a, v.wide(), product, omitnan);
                    T::narrow(*a)
                }));
            }
        }
    }
    out
}
