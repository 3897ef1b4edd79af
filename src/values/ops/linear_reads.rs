//! Reads `x(idx)` and `x(mask)` of a host array with one subscript, in one typed pass: each
//! index is checked where it is read, across the cores. The general plan converted the index
//! values to positions (a copy), copied the positions, then gathered through them one element
//! at a time: three passes and two index-sized lists for one read. Any index that fails its
//! check sends the read back to the general plan, which names the error as MATLAB does.

use crate::builtins::locate::kept;
use crate::interp::error::MResult;
use crate::values::limits::check_dims;
use crate::values::ops::index::linear_read_shape;
use crate::values::ops::kernels::fill;
use crate::values::shape::Shape;
use crate::values::tensor::{Data, Tensor};
use crate::values::value::Value;
use std::sync::atomic::{AtomicBool, Ordering};

/// Index values below which the general plan is as quick.
const MIN_LEN: usize = 64;

/// `t(idx)` for a numeric index array, or `t(mask)` for a logical one; None when the read
/// is not of that form or an index is out of range or not a positive integer; MATLAB's
/// size-limit or out-of-memory error when the result cannot be allocated.
pub fn read(t: &Tensor, args: &[Value]) -> Option<MResult<Tensor>> {
    let [Value::Tensor(index)] = args else {
        return None;
    };
    if index.numel() < MIN_LEN || index.is_complex() {
        return None;
    }
    let numel = t.numel();
    let is_mask = matches!(index.data, Data::Bool(_));
    // The result is as long as the index (a mask: at most as long as the array), checked
    // against the size limit and the memory there is before any of it is allocated; the
    // error names the result's shape, as MATLAB's does.
    let longest = if is_mask {
        index.numel().min(numel)
    } else {
        index.numel()
    };
    let elem_bytes = t.class().elem_bytes() * (1 + t.is_complex() as usize);
    let most = result_shape(&t.shape, &index.shape, is_mask, longest);
    if let Err(e) = check_dims(most.dims(), elem_bytes) {
        return Some(Err(e));
    }
    let taken = match &index.data {
        Data::F64(v) => by_values(&t.data, v, numel)?,
        Data::F32(v) => by_values(&t.data, v, numel)?,
        Data::I32(v) => by_values(&t.data, v, numel)?,
        Data::U32(v) => by_values(&t.data, v, numel)?,
        Data::Bool(m) => by_mask(&t.data, m, numel)?,
        _ => return None,
    };
    let shape = result_shape(&t.shape, &index.shape, is_mask, taken.len());
    Some(Ok(Tensor::new(shape, taken)))
}

/// The shape of `x(idx)` of `n` elements for an array of shape `of` and an index of shape
/// `index`: MATLAB's rules for one subscript, a mask counting as a vector of its trues (a
/// row for a row mask, else a column).
fn result_shape(of: &Shape, index: &Shape, is_mask: bool, n: usize) -> Shape {
    let chosen = if !is_mask {
        index.clone()
    } else if index.is_row() {
        Shape::row(n)
    } else {
        Shape::col(n)
    };
    linear_read_shape(of, &chosen, n)
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

/// Elements where `mask` is true, in order (`builtins::locate::kept`: trues counted per
/// block across the cores, then a compaction without branches); None when a true lies past
/// the array's end.
fn by_mask(data: &Data, mask: &[bool], numel: usize) -> Option<Data> {
    if mask.len() > numel && mask[numel..].iter().any(|&b| b) {
        return None;
    }
    // a mask shorter than the array reads from its first elements
    let mask = &mask[..mask.len().min(numel)];
    Some(crate::map_data!(data, v => kept(mask, v.get(..mask.len())?)?))
}
