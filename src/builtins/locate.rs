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
        let pos = one_based_positions(&t);
        return one(Tensor::f64(find_shape(&t.shape, pos.len()), pos));
    }
    let mut idx: Vec<usize> = crate::with_data!(&t.data, v => nonzero_positions(v, |src, from, dst| {
        write_positions(src, from, dst, &|i| i)
    }));
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

/// The 1-based positions of `t`'s nonzero elements as doubles, in one pass across the cores
/// (through i64: a signed conversion is one instruction, an unsigned one a sequence). Also
/// the host's computation of a mask's pending positions (`plan::positions`).
pub fn one_based_positions(t: &Tensor) -> Vec<f64> {
    match &t.data {
        crate::values::tensor::Data::Bool(v) => nonzero_positions(v, mask_positions),
        _ => crate::with_data!(&t.data, v => nonzero_positions(v, |src, from, dst| {
            write_positions(src, from, dst, &|i| (i + 1) as i64 as f64)
        })),
    }
}

/// The number of nonzero elements of `t` (NaN is nonzero), across the cores when
/// large; logical values counted as bytes.
pub fn nonzero_count(t: &Tensor) -> usize {
    use rayon::prelude::*;
    crate::with_data!(&t.data, v => {
        if v.len() >= crate::values::ops::kernels::PAR_MIN_CHEAP {
            v.par_chunks(FIND_BLOCK).map(count_nonzero).sum()
        } else {
            count_nonzero(v)
        }
    })
}

/// The elements of `v` where `mask` is true, in order (`x(mask)`; equal lengths), in one
/// pass across the cores as find's positions are written.
pub fn kept<T: crate::values::tensor::Elem + Send + Sync>(
    mask: &[bool],
    v: &[T],
) -> Option<Vec<T>> {
    if mask.len() != v.len() {
        return None;
    }
    Some(nonzero_positions(mask, |m, from, dst| {
        if let Some(v) = v.get(from..from + m.len()) {
            write_kept(m, v, dst);
        }
    }))
}

/// Writes the elements of `v` where `mask` is true into `dst` (exactly as many slots): each
/// element is written into the next slot, which moves on when it is kept (no branch per
/// element, as in `write_positions`).
fn write_kept<T: Copy>(mask: &[bool], v: &[T], dst: &mut [std::mem::MaybeUninit<T>]) {
    let mut k = 0;
    for (&m, &x) in mask.iter().zip(v) {
        if let Some(o) = dst.get_mut(k) {
            o.write(x);
        }
        k += m as usize;
    }
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

/// The positions of the nonzero elements, in order, as `write(block, its first position,
/// its part of the result)` writes them. Large arrays are split into blocks counted across
/// the cores, then each block writes its positions into its own part of the result, which is
/// never cleared first (`find(x > 0.5)` was 1.3-2.2x NumPy's time at 1e6 and 1e7 elements:
/// one thread, and a cleared result written twice).
fn nonzero_positions<T: crate::values::tensor::Elem + Sync, R: Copy + Send>(
    v: &[T],
    write: impl Fn(&[T], usize, &mut [std::mem::MaybeUninit<R>]) + Sync,
) -> Vec<R> {
    use rayon::prelude::*;
    let count = |c: &[T]| count_nonzero(c);
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
            .for_each(|(k, (dst, src))| write(src, k * FIND_BLOCK, dst));
    } else if let Some(dst) = parts.pop() {
        write(v, 0, dst);
    }
    // SAFETY: the parts cover the first `total` slots, and each part's block holds exactly
    // as many nonzero elements as its part has slots (they were counted by the same test),
    // so `write` wrote every slot.
    unsafe { out.set_len(total) };
    out
}

/// The nonzero elements of `c` (logical ones counted as bytes).
fn count_nonzero<T: crate::values::tensor::Elem>(c: &[T]) -> usize {
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<bool>() {
        // SAFETY: T is bool (same type, so same layout and valid values).
        let bytes = unsafe { std::slice::from_raw_parts(c.as_ptr() as *const bool, c.len()) };
        return crate::values::ops::kernels::count_true(bytes);
    }
    c.iter().map(|x| x.is_nonzero() as usize).sum()
}

/// Writes `at(from + i)` for the nonzero elements `src[i]` into `dst` (exactly as many
/// slots as nonzero elements): each element writes its position into the next slot and
/// moves on past it when it is nonzero, without a branch (a branch per element mispredicts
/// on mixed data). Logical input skips eight zero bytes at a time, read as one u64 (sparse
/// masks); other classes take no such test (comparing eight elements before writing them was
/// pure overhead on dense data: `find(x > 0.5)` of 1e5 took 0.083 -> 0.101 ms with it).
fn write_positions<T: crate::values::tensor::Elem, R: Copy>(
    src: &[T],
    from: usize,
    dst: &mut [std::mem::MaybeUninit<R>],
    at: &impl Fn(usize) -> R,
) {
    if std::any::TypeId::of::<T>() == std::any::TypeId::of::<bool>() {
        // SAFETY: T is bool (same type, so same layout and valid values).
        let bytes = unsafe { std::slice::from_raw_parts(src.as_ptr() as *const bool, src.len()) };
        return write_positions_bytes(bytes, from, dst, at);
    }
    let mut k = 0;
    for (i, x) in src.iter().enumerate() {
        if let Some(o) = dst.get_mut(k) {
            o.write(at(from + i));
        }
        k += x.is_nonzero() as usize;
    }
}

/// `write_positions` of logical values: a word of eight false bytes is passed over whole.
fn write_positions_bytes<R: Copy>(
    src: &[bool],
    from: usize,
    dst: &mut [std::mem::MaybeUninit<R>],
    at: &impl Fn(usize) -> R,
) {
    let mut k = 0;
    let mut i = from;
    let mut groups = src.chunks_exact(8);
    for g in &mut groups {
        let mut word = [0u8; 8];
        for (w, &b) in word.iter_mut().zip(g) {
            *w = b as u8;
        }
        if u64::from_ne_bytes(word) == 0 {
            i += 8;
            continue;
        }
        for &b in g {
            if let Some(o) = dst.get_mut(k) {
                o.write(at(i));
            }
            k += b as usize;
            i += 1;
        }
    }
    for &b in groups.remainder() {
        if let Some(o) = dst.get_mut(k) {
            o.write(at(i));
        }
        k += b as usize;
        i += 1;
    }
}

/// `write_positions` of a mask as 1-based positions in doubles: with AVX-512, 64 bytes
/// tested at once and each eight of them written as one vector of their positions,
/// compressed to the set ones (`vcompresspd` into a register, then one store: 0.24 ms for
/// 1e6 elements on one core against 0.44 an element at a time), while a whole vector still
/// fits the part; the rest an element at a time.
fn mask_positions(src: &[bool], from: usize, dst: &mut [std::mem::MaybeUninit<f64>]) {
    let one_based = |i: usize| (i + 1) as i64 as f64;
    #[cfg(target_arch = "x86_64")]
    if crate::plan::cpu::vmath::has_avx512() {
        // SAFETY: the processor has the features the function is compiled for.
        let (done, k) = unsafe { mask_positions_avx512(src, from, dst) };
        if let (Some(rest), Some(tail)) = (dst.get_mut(k..), src.get(done..)) {
            write_positions_bytes(tail, from + done, rest, &one_based);
        }
        return;
    }
    write_positions_bytes(src, from, dst, &one_based)
}

/// The vector part of `mask_positions`: how many elements of `src` it took (a multiple of
/// 64) and how many positions it wrote.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw")]
fn mask_positions_avx512(
    src: &[bool],
    from: usize,
    dst: &mut [std::mem::MaybeUninit<f64>],
) -> (usize, usize) {
    use std::arch::x86_64::*;
    let (mut i, mut k) = (0usize, 0usize);
    // positions stay exact in doubles (below 2^53) as they are counted up
    let mut pos = _mm512_add_pd(
        _mm512_set1_pd((from + 1) as i64 as f64),
        _mm512_setr_pd(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0),
    );
    let eight = _mm512_set1_pd(8.0);
    let sixty_four = _mm512_set1_pd(64.0);
    while i + 64 <= src.len() && k + 64 <= dst.len() {
        // SAFETY: the 64 bytes from i are inside `src` (checked above); bools are bytes.
        let bytes = unsafe { _mm512_loadu_si512(src.as_ptr().add(i) as *const _) };
        let mask = _mm512_test_epi8_mask(bytes, bytes);
        if mask == 0 {
            pos = _mm512_add_pd(pos, sixty_four);
        } else {
            for g in 0..8 {
                let m = (mask >> (8 * g)) as u8;
                let packed = _mm512_maskz_compress_pd(m, pos);
                // SAFETY: k + 8 <= (k at this word) + 64 <= dst.len(): the eight slots are in
                // the part; those past the set ones are written again by the next group or
                // by the tail, which writes every slot left.
                unsafe { _mm512_storeu_pd(dst.as_mut_ptr().add(k) as *mut f64, packed) };
                k += m.count_ones() as usize;
                pos = _mm512_add_pd(pos, eight);
            }
        }
        i += 64;
    }
    (i, k)
}

fn nnz(_: &mut Interp, _: &mut Frame, a: A, _: usize) -> R {
    let t = a[0].tensor()?;
    // typed counts for the common storage (a straight loop each; NaN is nonzero)
    let count = match &t.data {
        crate::values::tensor::Data::Bool(v) => crate::values::ops::kernels::count_true(v),
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
