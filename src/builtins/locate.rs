//! Locating and binning elements: find nnz accumarray.

use super::{Builtin, b, one};
use crate::interp::Interp;
use crate::interp::error::{MError, MResult};
use crate::interp::function::Frame;
use crate::values::shape::Shape;
use crate::values::tensor::Tensor;
use crate::values::value::Value;

type A = Vec<Value>;
type R = MResult<Vec<Value>>;

#[rustfmt::skip]
pub fn table() -> Vec<Builtin> {
    vec![
        b("find", 1, 3, 3, "find(X), find(X, k, 'first'|'last'), [r, c, v] = find(X): indices of nonzero elements.", find),
        b("nnz", 1, 1, 1, "nnz(A): number of nonzero elements.", nnz),
        b("accumarray", 2, 6, 1, "accumarray(subs, vals, sz, func): accumulate values into bins.", accumarray),
    ]
}

fn find(_: &mut Interp, _: &mut Frame, a: A, nargout: usize) -> R {
    let t = a[0].tensor()?;
    if a.len() == 1 && nargout <= 1 {
        // the common form: the 1-based positions written as doubles in one pass
        let pos: Vec<f64> =
            crate::with_data!(&t.data, v => nonzero_positions(v, |i| (i + 1) as f64));
        return one(Tensor::f64(find_shape(&t.shape, pos.len()), pos));
    }
    let mut idx: Vec<usize> = crate::with_data!(&t.data, v => nonzero_positions(v, |i| i));
    let limit = match a.get(1) {
        Some(v) => {
            let k = v.scalar_f64()?;
            if !(k > 0.0) || (k.fract() != 0.0 && k.is_finite()) {
                return Err(MError::new(
                    "MATLAB:find:nonIntegerOrNegativeCount",
                    "Second argument must be a positive scalar integer.",
                ));
            }
            Some(k.min(usize::MAX as f64) as usize)
        }
        None => None,
    };
    let last = match a.get(2) {
        Some(v) => v.text()?.eq_ignore_ascii_case("last"),
        None => false,
    };
    if let Some(k) = limit {
        if last {
            let n = idx.len();
            idx = idx[n.saturating_sub(k)..].to_vec();
        } else {
            idx.truncate(k);
        }
    }
    let shape = find_shape(&t.shape, idx.len());
    if nargout <= 1 {
        return one(Tensor::f64(
            shape,
            idx.iter().map(|&i| (i + 1) as f64).collect(),
        ));
    }
    let rows = t.shape.rows().max(1);
    let r: Vec<f64> = idx.iter().map(|&i| (i % rows + 1) as f64).collect();
    let c: Vec<f64> = idx.iter().map(|&i| (i / rows + 1) as f64).collect();
    let mut out = vec![
        Value::from(Tensor::f64(shape.clone(), r)),
        Value::from(Tensor::f64(shape.clone(), c)),
    ];
    if nargout > 2 {
        out.push(Value::from(t.gather(&idx, shape)));
    }
    Ok(out)
}

/// The shape of find's results: a row for a row, 0x0 for 0x0, else a column.
fn find_shape(of: &Shape, n: usize) -> Shape {
    if of.dims() == [0, 0] {
        Shape::matrix(0, 0)
    } else if of.is_row() {
        Shape::row(n)
    } else {
        Shape::col(n)
    }
}

/// Elements a part of `nonzero_positions` takes when it splits across the cores.
const FIND_BLOCK: usize = 1 << 16;

/// `at(i)` for the positions i of the nonzero elements, in order. Large arrays are split
/// into blocks counted across the cores, then each block writes its positions into its own
/// part of the result, which is never cleared first (`find(x > 0.5)` was 1.3-2.2x NumPy's
/// time at 1e6 and 1e7 elements: one thread, and a cleared result written twice).
fn nonzero_positions<T: crate::values::tensor::Elem + Sync, R: Copy + Send>(
    v: &[T],
    at: impl Fn(usize) -> R + Sync,
) -> Vec<R> {
    use rayon::prelude::*;
    let count = |c: &[T]| c.iter().map(|x| x.is_nonzero() as usize).sum::<usize>();
    let parallel = v.len() >= crate::values::ops::kernels::PAR_MIN_CHEAP;
    let counts: Vec<usize> = if parallel {
        v.par_chunks(FIND_BLOCK).map(count).collect()
    } else {
        vec![count(v)]
    };
    let total: usize = counts.iter().sum();
    let mut out: Vec<R> = Vec::with_capacity(total);
    let mut parts = Vec::with_capacity(counts.len());
    let mut rest = &mut out.spare_capacity_mut()[..total];
    for &c in &counts {
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(c);
        parts.push(part);
        rest = tail;
    }
    if parallel {
        parts
            .into_par_iter()
            .zip(v.par_chunks(FIND_BLOCK))
            .enumerate()
            .for_each(|(k, (dst, src))| write_positions(src, k * FIND_BLOCK, dst, &at));
    } else if let Some(dst) = parts.pop() {
        write_positions(v, 0, dst, &at);
    }
    // SAFETY: the parts cover the first `total` slots, and each part's block holds exactly
    // as many nonzero elements as its part has slots (they were counted by the same test),
    // so `write_positions` wrote every slot.
    unsafe { out.set_len(total) };
    out
}

/// Writes `at(from + i)` for the nonzero elements `src[i]` into `dst` (exactly as many
/// slots as nonzero elements): each element writes its position into the next slot and
/// moves on past it when it is nonzero, without a branch (a branch per element mispredicts
/// on mixed data); runs of eight zeros are skipped whole (sparse data).
fn write_positions<T: crate::values::tensor::Elem, R: Copy>(
    src: &[T],
    from: usize,
    dst: &mut [std::mem::MaybeUninit<R>],
    at: &impl Fn(usize) -> R,
) {
    let mut k = 0;
    let mut i = from;
    let mut groups = src.chunks_exact(8);
    for g in &mut groups {
        if g.iter().any(|x| x.is_nonzero()) {
            for x in g {
                if let Some(o) = dst.get_mut(k) {
                    o.write(at(i));
                }
                k += x.is_nonzero() as usize;
                i += 1;
            }
        } else {
            i += 8;
        }
    }
    for x in groups.remainder() {
        if let Some(o) = dst.get_mut(k) {
            o.write(at(i));
        }
        k += x.is_nonzero() as usize;
        i += 1;
    }
}

fn nnz(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    // typed counts for the common storage (a straight loop each; NaN is nonzero)
    let count = match &t.data {
        crate::values::tensor::Data::Bool(v) => v.iter().map(|&b| b as usize).sum::<usize>(),
        crate::values::tensor::Data::F64(v) => v.iter().map(|&x| (x != 0.0) as usize).sum(),
        crate::values::tensor::Data::F32(v) => v.iter().map(|&x| (x != 0.0) as usize).sum(),
        _ => (0..t.numel()).filter(|&i| t.nonzero(i)).count(),
    };
    one(Value::Num(count as f64))
}

fn accumarray(interp: &mut Interp, f: &mut Frame, a: A, _: usize) -> R {
    let subs = a[0].tensor()?;
    let vals = a[1].tensor()?;
    // a column lists 1-D subscripts; a matrix (or a row) holds one subscript per row
    let (n, ncol) = if subs.shape.is_col() {
        (subs.numel(), 1)
    } else {
        (subs.shape.rows(), subs.shape.cols())
    };
    if ncol == 0 {
        return one(Value::empty());
    }
    let sx = subs.to_f64();
    if vals.numel() != 1 && vals.numel() != n {
        return Err(MError::new(
            "MATLAB:accumarray:dimMismatch",
            "Second input VAL must be a vector with one element for each row in SUBS, or a scalar.",
        ));
    }
    let mut dims = vec![0usize; ncol.max(2)];
    for j in 0..ncol {
        for i in 0..n {
            crate::interp::interrupt::poll();
            let s = sx[i + j * n];
            if s < 1.0 || s.fract() != 0.0 {
                return Err(MError::new(
                    "MATLAB:accumarray:nonPosIntSubs",
                    "First input SUBS must contain positive integer subscripts.",
                ));
            }
            dims[j] = dims[j].max(s as usize);
        }
    }
    if ncol == 1 {
        dims[1] = 1;
    }
    if let Some(sz) = a.get(2) {
        if !sz.is_empty() {
            let s = sz.tensor()?;
            for (k, x) in s.to_f64().iter().enumerate() {
                if k < dims.len() {
                    if (*x as usize) < dims[k] {
                        return Err(MError::new(
                            "MATLAB:accumarray:invalidSize",
                            "Third input SZ must be at least as large as the largest subscript.",
                        ));
                    }
                    dims[k] = *x as usize;
                } else {
                    dims.push(*x as usize);
                }
            }
        }
    }
    crate::values::limits::check_dims(&dims, 8)?;
    let shape = Shape::new(&dims);
    let strides = shape.strides();
    let total = shape.numel();
    let mut bins: Vec<Vec<f64>> = vec![Vec::new(); total];
    let v = vals.to_f64();
    for i in 0..n {
        crate::interp::interrupt::poll();
        let mut p = 0;
        for j in 0..ncol {
            p += (sx[i + j * n] as usize - 1) * strides.get(j).copied().unwrap_or(0);
        }
        bins[p].push(if v.len() == 1 { v[0] } else { v[i] });
    }
    let func = a.get(3).filter(|x| !x.is_empty()).cloned();
    let fill = match a.get(4) {
        Some(x) if !x.is_empty() => x.scalar_f64()?,
        _ => 0.0,
    };
    let mut out = vec![fill; total];
    for (p, bin) in bins.into_iter().enumerate() {
        crate::interp::interrupt::poll();
        if bin.is_empty() {
            continue;
        }
        out[p] = match &func {
            None => bin.iter().fold(0.0, |a, b| a + b),
            Some(fv) => interp
                .call_value1(f, fv, vec![Value::col(bin)])?
                .scalar_f64()?,
        };
    }
    one(Tensor::f64(shape, out))
}
