//! Reads `x(idx)` and `x(mask)` of a host array with one subscript, in one typed pass: each
//! index is checked where it is read, across the cores. The general plan converted the index
//! values to positions (a copy), copied the positions, then gathered through them one element
//! at a time: three passes and two index-sized lists for one read. Any index that fails its
//! check sends the read back to the general plan, which names the error as MATLAB does.

use crate::interp::error::MResult;
use crate::values::limits::{can_allocate, out_of_memory};
use crate::values::ops::index::linear_read_shape;
use crate::values::ops::kernels::fill;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Index values below which the general plan is as quick.
const MIN_LEN: usize = 64;

/// `t(idx)` for a numeric index array, or `t(mask)` for a logical one; None when the read
/// is not of that form or an index is out of range or not a positive integer; MATLAB's
/// out-of-memory error when the result cannot be allocated.
pub fn read(t: &Tensor, args: &[Value]) -> Option<MResult<Tensor>> {
    let [Value::Tensor(index)] = args else {
        return None;
    };
    if index.numel() < MIN_LEN || index.is_complex() {
        return None;
    }
    let numel = t.numel();
    // The result is as long as the index (a mask: at most as long as it), checked before any
    // of it is allocated.
    let bytes =
        index.numel() as u128 * t.class().elem_bytes() as u128 * (1 + t.is_complex() as u128);
    if !can_allocate(bytes) {
        return Some(Err(out_of_memory(&[index.numel(), 1], bytes)));
    }
    let (taken, index_shape) = match &index.data {
        Data::F64(v) => (by_values(&t.data, v, numel)?, index.shape.clone()),
        Data::F32(v) => (by_values(&t.data, v, numel)?, index.shape.clone()),
        Data::I32(v) => (by_values(&t.data, v, numel)?, index.shape.clone()),
        Data::U32(v) => (by_values(&t.data, v, numel)?, index.shape.clone()),
        Data::Bool(m) => {
            let data = by_mask(&t.data, m, numel)?;
            let n = data.len();
            let shape = if index.shape.is_row() {
                Shape::row(n)
            } else {
                Shape::col(n)
            };
            (data, shape)
        }
        _ => return None,
    };
    let shape = linear_read_shape(&t.shape, &index_shape, taken.len());
    Some(Ok(Tensor::new(shape, taken)))
}

/// An index value as a 1-based position; anything that is not a positive integer maps to 0,
/// which no check lets through.
trait IndexValue: Copy + Sync {
    fn position(self) -> usize;
}
impl IndexValue for f64 {
    fn position(self) -> usize {
        // a saturating conversion: NaN is 0, Inf and huge values exceed any array
        let k = self as usize;
        if k as f64 == self { k } else { 0 }
    }
}
impl IndexValue for f32 {
    fn position(self) -> usize {
        let k = self as usize;
        if k as f32 == self { k } else { 0 }
    }
}
impl IndexValue for i32 {
    fn position(self) -> usize {
        self.max(0) as usize
    }
}
impl IndexValue for u32 {
    fn position(self) -> usize {
        self as usize
    }
}

fn by_values<I: IndexValue>(data: &Data, index: &[I], numel: usize) -> Option<Data> {
    let failed = AtomicBool::new(false);
    let out = crate::map_data!(data, v => gather(v, index, numel, &failed));
    (!failed.load(Ordering::Relaxed)).then_some(out)
}

fn gather<T: Copy + Default + Send + Sync, I: IndexValue>(
    src: &[T],
    index: &[I],
    numel: usize,
    failed: &AtomicBool,
) -> Vec<T> {
    let mut out = vec![T::default(); index.len()];
    fill(&mut out, |start, chunk| {
        if failed.load(Ordering::Relaxed) || crate::interp::interrupt::raised() {
            failed.store(true, Ordering::Relaxed);
            return;
        }
        let ids = &index[start..start + chunk.len()];
        // checked as a block first (a loop the compiler vectorises), then read
        let ok = ids.iter().fold(true, |ok, &x| {
            let k = x.position();
            ok & (k >= 1) & (k <= numel)
        });
        if !ok {
            failed.store(true, Ordering::Relaxed);
            return;
        }
        for (o, &x) in chunk.iter_mut().zip(ids) {
            *o = src[x.position() - 1];
        }
    });
    out
}

/// Elements where `mask` is true, in order; None when a true lies past the array's end.
fn by_mask(data: &Data, mask: &[bool], numel: usize) -> Option<Data> {
    if mask.len() > numel && mask[numel..].iter().any(|&b| b) {
        return None;
    }
    let mask = &mask[..mask.len().min(numel)];
    // trues per block, counted across the cores, so each block knows where its output starts
    let blocks = mask.len().div_ceil(BLOCK);
    let count = |m: &[bool]| m.iter().map(|&x| x as usize).sum::<usize>();
    let counts: Vec<usize> = if blocks < 2 {
        mask.chunks(BLOCK).map(count).collect()
    } else {
        mask.par_chunks(BLOCK).map(count).collect()
    };
    if crate::interp::interrupt::raised() {
        return None;
    }
    Some(crate::map_data!(data, v => compact(v, mask, &counts)))
}

/// Mask elements one compaction task takes.
const BLOCK: usize = 1 << 16;

fn compact<T: Copy + Default + Send + Sync>(src: &[T], mask: &[bool], counts: &[usize]) -> Vec<T> {
    let total: usize = counts.iter().sum();
    let mut out = vec![T::default(); total];
    let mut parts: Vec<(usize, &mut [T])> = Vec::with_capacity(counts.len());
    let mut rest: &mut [T] = &mut out;
    for (b, &c) in counts.iter().enumerate() {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(c);
        parts.push((b, head));
        rest = tail;
    }
    let write = |(b, part): (usize, &mut [T])| {
        let lo = b * BLOCK;
        let m = &mask[lo..(lo + BLOCK).min(mask.len())];
        let s = &src[lo..lo + m.len()];
        let mut at = 0;
        for (&keep, &x) in m.iter().zip(s) {
            // written whether kept or not, so the loop has no branch; a kept one moves on
            if at < part.len() {
                part[at] = x;
            }
            at += keep as usize;
        }
    };
    if counts.len() < 2 {
        parts.into_iter().for_each(write);
    } else {
        parts.into_par_iter().for_each(write);
    }
    out
}
